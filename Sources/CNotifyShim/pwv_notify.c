/* pwv_notify.c: see include/pwv_notify.h for why this shim exists and what it promises. */
#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

#include "pwv_deadline.h"
#include "pwv_dl.h"
#include "pwv_notify.h"

/* GLib through function pointers, filled from libgio-2.0.so.0 at the first call (pwv_dl.h says why).
 * Every name below is redirected to its slot, so the code reads as plain GLib. */
#define PWV_NOTIFY_API(X) \
    X(g_cancellable_is_cancelled) \
    X(g_clear_error) \
    X(g_dbus_address_get_for_bus_sync) \
    X(g_dbus_connection_call_sync) \
    X(g_dbus_connection_close) \
    X(g_dbus_connection_new_for_address_sync) \
    X(g_dbus_error_is_remote_error) \
    X(g_dbus_error_strip_remote_error) \
    X(g_error_matches) \
    X(g_free) \
    X(g_object_unref) \
    X(g_strdup) \
    X(g_strlcpy) \
    X(g_utf8_validate) \
    X(g_variant_builder_add) \
    X(g_variant_builder_end) \
    X(g_variant_builder_init) \
    X(g_variant_get) \
    X(g_variant_get_child_value) \
    X(g_variant_get_strv) \
    X(g_variant_new) \
    X(g_variant_new_byte) \
    X(g_variant_unref) \
    X(g_io_error_quark) \
    X(g_dbus_error_quark) \
    X(g_variant_type_checked_)
PWV_DL_API(PWV_NOTIFY_API, "libgio-2.0.so.0")
#undef g_cancellable_is_cancelled
#define g_cancellable_is_cancelled api.g_cancellable_is_cancelled
#undef g_clear_error
#define g_clear_error api.g_clear_error
#undef g_dbus_address_get_for_bus_sync
#define g_dbus_address_get_for_bus_sync api.g_dbus_address_get_for_bus_sync
#undef g_dbus_connection_call_sync
#define g_dbus_connection_call_sync api.g_dbus_connection_call_sync
#undef g_dbus_connection_close
#define g_dbus_connection_close api.g_dbus_connection_close
#undef g_dbus_connection_new_for_address_sync
#define g_dbus_connection_new_for_address_sync api.g_dbus_connection_new_for_address_sync
#undef g_dbus_error_is_remote_error
#define g_dbus_error_is_remote_error api.g_dbus_error_is_remote_error
#undef g_dbus_error_strip_remote_error
#define g_dbus_error_strip_remote_error api.g_dbus_error_strip_remote_error
#undef g_error_matches
#define g_error_matches api.g_error_matches
#undef g_free
#define g_free api.g_free
#undef g_object_unref
#define g_object_unref api.g_object_unref
#undef g_strdup
#define g_strdup api.g_strdup
#undef g_strlcpy
#define g_strlcpy api.g_strlcpy
#undef g_utf8_validate
#define g_utf8_validate api.g_utf8_validate
#undef g_variant_builder_add
#define g_variant_builder_add api.g_variant_builder_add
#undef g_variant_builder_end
#define g_variant_builder_end api.g_variant_builder_end
#undef g_variant_builder_init
#define g_variant_builder_init api.g_variant_builder_init
#undef g_variant_get
#define g_variant_get api.g_variant_get
#undef g_variant_get_child_value
#define g_variant_get_child_value api.g_variant_get_child_value
#undef g_variant_get_strv
#define g_variant_get_strv api.g_variant_get_strv
#undef g_variant_new
#define g_variant_new api.g_variant_new
#undef g_variant_new_byte
#define g_variant_new_byte api.g_variant_new_byte
#undef g_variant_unref
#define g_variant_unref api.g_variant_unref
#undef g_io_error_quark
#define g_io_error_quark api.g_io_error_quark
#undef g_dbus_error_quark
#define g_dbus_error_quark api.g_dbus_error_quark
#undef g_variant_type_checked_
#define g_variant_type_checked_ api.g_variant_type_checked_

#define NOTIFY_NAME "org.freedesktop.Notifications"
#define NOTIFY_PATH "/org/freedesktop/Notifications"
#define NOTIFY_INTERFACE "org.freedesktop.Notifications"

static int fail(pwv_notify_error *error, int code, const char *message) {
    if (error != NULL) {
        error->code = code;
        g_strlcpy(error->message, message != NULL ? message : "", sizeof error->message);
    }
    return code;
}

/* Keeps the message already written, changes the code. */
static int recode(pwv_notify_error *error, int code) {
    if (error != NULL) error->code = code;
    return code;
}

/* Puts a GError from a D-Bus call into one of the result codes, and frees it. */
static int fail_call(pwv_notify_error *error, GError **gerror, gboolean fired) {
    int code = PWV_NOTIFY_ERR_FAILED;
    if (*gerror == NULL) return fail(error, code, "the call failed without saying why");
    if (fired || g_error_matches(*gerror, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
        g_error_matches(*gerror, G_IO_ERROR, G_IO_ERROR_TIMED_OUT) ||
        g_error_matches(*gerror, G_DBUS_ERROR, G_DBUS_ERROR_TIMEOUT) ||
        g_error_matches(*gerror, G_DBUS_ERROR, G_DBUS_ERROR_TIMED_OUT) ||
        g_error_matches(*gerror, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY)) {
        code = PWV_NOTIFY_ERR_TIMEOUT;
    } else if (g_error_matches(*gerror, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
               g_error_matches(*gerror, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER) ||
               g_error_matches(*gerror, G_DBUS_ERROR, G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND)) {
        code = PWV_NOTIFY_ERR_NO_SERVICE;
    }
    if (g_dbus_error_is_remote_error(*gerror)) g_dbus_error_strip_remote_error(*gerror);
    fail(error, code, (*gerror)->message);
    g_clear_error(gerror);
    return code;
}

/* Whether the server's capabilities list "body-markup". A server that cannot say (an error other
 * than "no such service" or the deadline) is taken to show text as it is: the plain body is sent. */
static int server_wants_markup(GDBusConnection *connection, pwv_deadline *d, gboolean *markup,
                               pwv_notify_error *error) {
    GError *gerror = NULL;
    *markup = FALSE;
    GVariant *reply = g_dbus_connection_call_sync(
        connection, NOTIFY_NAME, NOTIFY_PATH, NOTIFY_INTERFACE, "GetCapabilities", NULL,
        G_VARIANT_TYPE("(as)"), G_DBUS_CALL_FLAGS_NONE, pwv_deadline_left_ms(d), d->cancellable, &gerror);
    if (reply == NULL) {
        int code = fail_call(error, &gerror, g_cancellable_is_cancelled(d->cancellable));
        return code == PWV_NOTIFY_ERR_FAILED ? PWV_NOTIFY_OK : code;
    }
    GVariant *list = g_variant_get_child_value(reply, 0);
    gsize n = 0;
    const gchar **caps = g_variant_get_strv(list, &n);
    for (gsize i = 0; i < n; i++) {
        if (strcmp(caps[i], "body-markup") == 0) *markup = TRUE;
    }
    g_free(caps);
    g_variant_unref(list);
    g_variant_unref(reply);
    return PWV_NOTIFY_OK;
}

static int exchange(const char *bus_address, const char *app_name, const char *summary,
                    const char *body_plain, const char *body_markup, unsigned char urgency,
                    int expire_timeout_ms, pwv_deadline *d, uint32_t *id, int *markup_used,
                    pwv_notify_error *error) {
    GError *gerror = NULL;
    gchar *address = bus_address != NULL
        ? g_strdup(bus_address)
        : g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, d->cancellable, &gerror);
    if (address == NULL) {
        int code = fail_call(error, &gerror, g_cancellable_is_cancelled(d->cancellable));
        return code == PWV_NOTIFY_ERR_TIMEOUT ? code : recode(error, PWV_NOTIFY_ERR_NO_BUS);
    }
    /* A private connection: exit-on-close stays off, and libsecret's shared one is left alone. */
    GDBusConnection *connection = g_dbus_connection_new_for_address_sync(
        address,
        G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
        NULL, d->cancellable, &gerror);
    g_free(address);
    if (connection == NULL) {
        int code = fail_call(error, &gerror, g_cancellable_is_cancelled(d->cancellable));
        return code == PWV_NOTIFY_ERR_TIMEOUT ? code : recode(error, PWV_NOTIFY_ERR_NO_BUS);
    }

    gboolean markup = FALSE;
    int status = server_wants_markup(connection, d, &markup, error);
    if (status == PWV_NOTIFY_OK) {
        GVariantBuilder hints;
        g_variant_builder_init(&hints, G_VARIANT_TYPE("a{sv}"));
        g_variant_builder_add(&hints, "{sv}", "urgency", g_variant_new_byte(urgency));
        const gchar *no_actions[] = {NULL};
        GVariant *parameters = g_variant_new("(susss^as@a{sv}i)", app_name, (guint32)0, "", summary,
                                             markup ? body_markup : body_plain, no_actions,
                                             g_variant_builder_end(&hints), (gint32)expire_timeout_ms);
        GVariant *reply = g_dbus_connection_call_sync(
            connection, NOTIFY_NAME, NOTIFY_PATH, NOTIFY_INTERFACE, "Notify", parameters,
            G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, pwv_deadline_left_ms(d), d->cancellable, &gerror);
        if (reply == NULL) {
            status = fail_call(error, &gerror, g_cancellable_is_cancelled(d->cancellable));
        } else {
            guint32 answer = 0;
            g_variant_get(reply, "(u)", &answer);
            g_variant_unref(reply);
            *id = answer;
            *markup_used = markup ? 1 : 0;
        }
    }
    /* Closing without waiting: a wedged bus must not hold us here. */
    g_dbus_connection_close(connection, NULL, NULL, NULL);
    g_object_unref(connection);
    return status;
}

int pwv_notify_send(const char *bus_address, const char *app_name, const char *summary,
                    const char *body_plain, const char *body_markup, unsigned char urgency,
                    int expire_timeout_ms, unsigned int timeout_ms,
                    uint32_t *id, int *markup_used, pwv_notify_error *error) {
    if (!api_ready()) {
        if (error != NULL) {
            error->code = PWV_NOTIFY_ERR_FAILED;
            snprintf(error->message, sizeof error->message, "%s", api_error);
        }
        return PWV_NOTIFY_ERR_FAILED;
    }
    if (app_name == NULL || summary == NULL || body_plain == NULL || body_markup == NULL ||
        id == NULL || markup_used == NULL || timeout_ms == 0) {
        return fail(error, PWV_NOTIFY_ERR_ARGUMENT, "a required argument is missing");
    }
    const char *texts[] = {app_name, summary, body_plain, body_markup};
    for (size_t i = 0; i < G_N_ELEMENTS(texts); i++) {
        if (!g_utf8_validate(texts[i], -1, NULL)) return fail(error, PWV_NOTIFY_ERR_ARGUMENT, "the text is not UTF-8");
    }
    pwv_deadline d;
    if (!pwv_deadline_start(&d, timeout_ms)) return fail(error, PWV_NOTIFY_ERR_RESOURCE, "no thread for the timeout");
    int status = exchange(bus_address, app_name, summary, body_plain, body_markup, urgency,
                          expire_timeout_ms, &d, id, markup_used, error);
    gboolean fired = pwv_deadline_stop(&d);
    if (status != PWV_NOTIFY_OK && fired) status = fail(error, PWV_NOTIFY_ERR_TIMEOUT, "the deadline passed");
    return status;
}
