/* pwv_notify: one desktop notification over D-Bus (org.freedesktop.Notifications.Notify), for
 * DesktopNotifier only.
 *
 * Why a shim at all:
 *   - A D-Bus call wants GVariant parameters, whose constructors are C-variadic (g_variant_new),
 *     which Swift cannot call; GLib types stay on this side, Swift sees C strings and numbers.
 *   - The bus's shared connection (g_bus_get_sync) is set to exit the whole process when the bus
 *     goes away, and is shared with libsecret. This shim opens a private connection of its own
 *     (exit-on-close off) and closes it before it returns.
 *   - A wedged bus or notification server must not hang pwnvault: the whole exchange (connect,
 *     authenticate, GetCapabilities, Notify) runs under one deadline: a small thread cancels the
 *     GCancellable when it passes (pwv_deadline.h, shared with pwv_secret.c), and each call also
 *     gets what is left of it as its D-Bus timeout.
 *   - Whether the body may be sent as markup is the server's word (GetCapabilities lists
 *     "body-markup"); the caller hands both forms and this shim sends the one the server wants:
 *     `body_markup` (text with &, < and > escaped) when it interprets markup, `body_plain` when
 *     it shows text as it is.
 */
#pragma once
#include <stddef.h>
#include <stdint.h>

/* Results. */
enum {
    PWV_NOTIFY_OK = 0,
    PWV_NOTIFY_ERR_NO_BUS = -1,      /* no session bus address, or it could not be connected to */
    PWV_NOTIFY_ERR_NO_SERVICE = -2,  /* nothing owns org.freedesktop.Notifications (or can be started) */
    PWV_NOTIFY_ERR_TIMEOUT = -3,     /* the deadline passed: the bus or the server did not answer */
    PWV_NOTIFY_ERR_FAILED = -4,      /* the server answered with an error, or something else failed */
    PWV_NOTIFY_ERR_ARGUMENT = -5,    /* a NULL pointer, text that is not UTF-8, a zero timeout */
    PWV_NOTIFY_ERR_RESOURCE = -6,    /* no thread for the deadline */
};

/* What went wrong, for the caller to put into words. Always filled when a function returns a
 * negative value. `message` is GLib's (remote error names stripped), NUL-terminated, cut to fit. */
typedef struct pwv_notify_error {
    int code;
    char message[256];
} pwv_notify_error;

/* Sends one notification. `bus_address` is a D-Bus address ("unix:path=…"), or NULL for the session
 * bus as GLib finds it (DBUS_SESSION_BUS_ADDRESS, then $XDG_RUNTIME_DIR/bus). `urgency` is the
 * spec's hint (0 low, 1 normal, 2 critical); `expire_timeout_ms` is Notify's argument (-1: the
 * server's default, 0: never). No icon, no actions, no other hint is sent. On success `*id` is the
 * server's id for the notification and `*markup_used` says which body was sent (1: body_markup).
 * Returns PWV_NOTIFY_OK or a failure; never waits longer than about `timeout_ms`. */
int pwv_notify_send(const char *bus_address, const char *app_name, const char *summary,
                    const char *body_plain, const char *body_markup, unsigned char urgency,
                    int expire_timeout_ms, unsigned int timeout_ms,
                    uint32_t *id, int *markup_used, pwv_notify_error *error);
