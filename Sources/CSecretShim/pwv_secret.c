/* pwv_secret.c: see include/pwv_secret.h for why this shim exists and what it promises. */
#define _DEFAULT_SOURCE /* explicit_bzero */
/* The D-Bus path calls (secret_service_search_for_dbus_paths_sync, _get_secret_for_dbus_path_sync)
 * sit behind this flag. They have kept their signatures since libsecret 0.7 and secret-tool is built
 * on the same layer; they let a lookup make the round trips `secret-tool lookup` makes and no more. */
#define SECRET_API_SUBJECT_TO_CHANGE
#include <libsecret/secret.h>
#include <stdio.h>
#include <string.h>

#include "pwv_deadline.h"
#include "pwv_dl.h"
#include "pwv_secret.h"

/* GLib and libsecret through function pointers, filled from libsecret-1.so.0 at the first call (pwv_dl.h says why).
 * Every name below is redirected to its slot, so the code reads as plain GLib. */
#define PWV_SECRET_API(X) \
    X(g_bus_get_sync) \
    X(g_clear_error) \
    X(g_dbus_address_get_for_bus_sync) \
    X(g_dbus_connection_call_sync) \
    X(g_dbus_connection_close_sync) \
    X(g_dbus_connection_new_for_address_sync) \
    X(g_dbus_error_get_remote_error) \
    X(g_dbus_error_is_remote_error) \
    X(g_dbus_proxy_call_sync) \
    X(g_dbus_proxy_get_cached_property) \
    X(g_dbus_proxy_get_connection) \
    X(g_dbus_proxy_get_object_path) \
    X(g_error_matches) \
    X(g_free) \
    X(g_hash_table_insert) \
    X(g_hash_table_new_full) \
    X(g_hash_table_unref) \
    X(g_io_error_quark) \
    X(g_malloc) \
    X(g_object_unref) \
    X(g_quark_to_string) \
    X(g_str_equal) \
    X(g_str_hash) \
    X(g_strdup) \
    X(g_strfreev) \
    X(g_strlcpy) \
    X(g_utf8_validate) \
    X(g_variant_builder_add) \
    X(g_variant_builder_end) \
    X(g_variant_builder_init) \
    X(g_variant_get) \
    X(g_variant_get_boolean) \
    X(g_variant_is_of_type) \
    X(g_variant_get_child_value) \
    X(g_variant_n_children) \
    X(g_variant_get_objv) \
    X(g_variant_new) \
    X(g_variant_type_checked_) \
    X(g_variant_unref) \
    X(secret_collection_for_alias_sync) \
    X(secret_collection_get_locked) \
    X(secret_item_new_for_dbus_path_sync) \
    X(secret_item_set_secret_sync) \
    X(secret_item_set_label_sync) \
    X(secret_value_new) \
    X(secret_schema_newv) \
    X(secret_schema_unref) \
    X(secret_service_get_secret_for_dbus_path_sync) \
    X(secret_service_disconnect) \
    X(secret_service_get_sync) \
    X(secret_service_prompt_at_dbus_path_sync) \
    X(secret_service_search_for_dbus_paths_sync) \
    X(secret_service_store_sync) \
    X(secret_value_get) \
    X(secret_value_get_content_type) \
    X(secret_value_unref)
PWV_DL_API(PWV_SECRET_API, "libsecret-1.so.0")
#undef g_bus_get_sync
#define g_bus_get_sync api.g_bus_get_sync
#undef g_clear_error
#define g_clear_error api.g_clear_error
#undef g_dbus_address_get_for_bus_sync
#define g_dbus_address_get_for_bus_sync api.g_dbus_address_get_for_bus_sync
#undef g_dbus_connection_call_sync
#define g_dbus_connection_call_sync api.g_dbus_connection_call_sync
#undef g_dbus_connection_close_sync
#define g_dbus_connection_close_sync api.g_dbus_connection_close_sync
#undef g_dbus_connection_new_for_address_sync
#define g_dbus_connection_new_for_address_sync api.g_dbus_connection_new_for_address_sync
#undef g_dbus_error_get_remote_error
#define g_dbus_error_get_remote_error api.g_dbus_error_get_remote_error
#undef g_dbus_error_is_remote_error
#define g_dbus_error_is_remote_error api.g_dbus_error_is_remote_error
#undef g_dbus_proxy_call_sync
#define g_dbus_proxy_call_sync api.g_dbus_proxy_call_sync
#undef g_dbus_proxy_get_cached_property
#define g_dbus_proxy_get_cached_property api.g_dbus_proxy_get_cached_property
#undef g_dbus_proxy_get_connection
#define g_dbus_proxy_get_connection api.g_dbus_proxy_get_connection
#undef g_dbus_proxy_get_object_path
#define g_dbus_proxy_get_object_path api.g_dbus_proxy_get_object_path
#undef g_error_matches
#define g_error_matches api.g_error_matches
#undef g_free
#define g_free api.g_free
#undef g_hash_table_insert
#define g_hash_table_insert api.g_hash_table_insert
#undef g_hash_table_new_full
#define g_hash_table_new_full api.g_hash_table_new_full
#undef g_hash_table_unref
#define g_hash_table_unref api.g_hash_table_unref
#undef g_io_error_quark
#define g_io_error_quark api.g_io_error_quark
#undef g_malloc
#define g_malloc api.g_malloc
#undef g_object_unref
#define g_object_unref api.g_object_unref
#undef g_quark_to_string
#define g_quark_to_string api.g_quark_to_string
#undef g_str_equal
#define g_str_equal api.g_str_equal
#undef g_str_hash
#define g_str_hash api.g_str_hash
#undef g_strdup
#define g_strdup api.g_strdup
#undef g_strfreev
#define g_strfreev api.g_strfreev
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
#undef g_variant_is_of_type
#define g_variant_is_of_type api.g_variant_is_of_type
#undef g_variant_get_boolean
#define g_variant_get_boolean api.g_variant_get_boolean
#undef g_variant_n_children
#define g_variant_n_children api.g_variant_n_children
#undef g_variant_get_child_value
#define g_variant_get_child_value api.g_variant_get_child_value
#undef g_variant_get_objv
#define g_variant_get_objv api.g_variant_get_objv
#undef g_variant_new
#define g_variant_new api.g_variant_new
#undef g_variant_type_checked_
#define g_variant_type_checked_ api.g_variant_type_checked_
#undef g_variant_unref
#define g_variant_unref api.g_variant_unref
#undef secret_collection_for_alias_sync
#define secret_collection_for_alias_sync api.secret_collection_for_alias_sync
#undef secret_collection_get_locked
#define secret_collection_get_locked api.secret_collection_get_locked
#undef secret_item_new_for_dbus_path_sync
#define secret_item_new_for_dbus_path_sync api.secret_item_new_for_dbus_path_sync
#undef secret_item_set_secret_sync
#define secret_item_set_secret_sync api.secret_item_set_secret_sync
#undef secret_item_set_label_sync
#define secret_item_set_label_sync api.secret_item_set_label_sync
#undef secret_value_new
#define secret_value_new api.secret_value_new
#undef secret_schema_newv
#define secret_schema_newv api.secret_schema_newv
#undef secret_schema_unref
#define secret_schema_unref api.secret_schema_unref
#undef secret_service_get_secret_for_dbus_path_sync
#define secret_service_get_secret_for_dbus_path_sync api.secret_service_get_secret_for_dbus_path_sync
#undef secret_service_disconnect
#define secret_service_disconnect api.secret_service_disconnect
#undef secret_service_get_sync
#define secret_service_get_sync api.secret_service_get_sync
#undef secret_service_prompt_at_dbus_path_sync
#define secret_service_prompt_at_dbus_path_sync api.secret_service_prompt_at_dbus_path_sync
#undef secret_service_search_for_dbus_paths_sync
#define secret_service_search_for_dbus_paths_sync api.secret_service_search_for_dbus_paths_sync
#undef secret_service_store_sync
#define secret_service_store_sync api.secret_service_store_sync
#undef secret_value_get
#define secret_value_get api.secret_value_get
#undef secret_value_get_content_type
#define secret_value_get_content_type api.secret_value_get_content_type
#undef secret_value_unref
#define secret_value_unref api.secret_value_unref

#define PWV_SCHEMA_NAME "org.pwnvault.Secret"

/* ---------------------------------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------------------------------- */

static int fail(pwv_error *error, int status, const char *message) {
    if (error != NULL) {
        g_strlcpy(error->domain, "pwv-secret", sizeof error->domain);
        error->code = status;
        g_strlcpy(error->message, message, sizeof error->message);
        error->dbus_name[0] = '\0';
    }
    return status;
}

/* libsecret could not be loaded: said without GLib, which is not there either. */
static int fail_unloaded(pwv_error *error) {
    if (error != NULL) {
        snprintf(error->domain, sizeof error->domain, "pwv-secret");
        error->code = PWV_SECRET_ERR_GLIB;
        snprintf(error->message, sizeof error->message, "%s", api_error);
        error->dbus_name[0] = '\0';
    }
    return PWV_SECRET_ERR_GLIB;
}

/* Copies the GError into the caller's struct and frees it. */
static int fail_with_gerror(pwv_error *error, GError **gerror) {
    if (*gerror == NULL) return fail(error, PWV_SECRET_ERR_GLIB, "the Secret Service failed without saying why");
    if (error != NULL) {
        const char *domain = g_quark_to_string((*gerror)->domain);
        g_strlcpy(error->domain, domain != NULL ? domain : "unknown", sizeof error->domain);
        error->code = (*gerror)->code;
        g_strlcpy(error->message, (*gerror)->message != NULL ? (*gerror)->message : "",
                  sizeof error->message);
        /* The error's D-Bus name says what a provider meant whatever GLib made of it (libsecret
         * registers a few Secret Service names; KeePassXC sends NoSuchObject with no message). */
        error->dbus_name[0] = '\0';
        if (g_dbus_error_is_remote_error(*gerror)) {
            gchar *name = g_dbus_error_get_remote_error(*gerror);
            if (name != NULL) g_strlcpy(error->dbus_name, name, sizeof error->dbus_name);
            g_free(name);
        }
    }
    g_clear_error(gerror);
    return PWV_SECRET_ERR_GLIB;
}

/* The deadline: a thread cancels the GCancellable when it passes (pwv_deadline.h says why). */

/* One deadline covers all the round trips of a call (pwv_deadline.h says why a thread). */
static gboolean start_deadline(pwv_deadline *d, unsigned int timeout_ms, pwv_error *error) {
    if (pwv_deadline_start(d, timeout_ms)) return TRUE;
    fail(error, PWV_SECRET_ERR_RESOURCE, "could not start the timeout timer");
    return FALSE;
}

/* A failure after the deadline fired: a cancellation (or nothing at all) means our timer did it. */
static int fail_after(pwv_error *error, GError **gerror, gboolean fired) {
    if (fired && (*gerror == NULL || g_error_matches(*gerror, G_IO_ERROR, G_IO_ERROR_CANCELLED))) {
        g_clear_error(gerror);
        return fail(error, PWV_SECRET_ERR_TIMEOUT, "the Secret Service did not answer in time");
    }
    return fail_with_gerror(error, gerror);
}

/* ---------------------------------------------------------------------------------------------
 * Schema and attributes: why built per call. The Swift side owns the attribute names
 * (KeyringItem.attributes); a schema naming exactly those keys, all strings, keeps libsecret's
 * schema check satisfied without a second list here that could drift.
 * ------------------------------------------------------------------------------------------- */

static gboolean valid_attributes(const char *const *keys, const char *const *values, size_t n) {
    /* n == 0 would match every item of every application (DONT_MATCH_NAME): never allowed. */
    if (keys == NULL || values == NULL || n == 0) return FALSE;
    for (size_t i = 0; i < n; i++) {
        if (keys[i] == NULL || values[i] == NULL || keys[i][0] == '\0') return FALSE;
    }
    return TRUE;
}

static SecretSchema *schema_for(const char *const *keys, size_t n) {
    GHashTable *types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (size_t i = 0; i < n; i++) {
        g_hash_table_insert(types, g_strdup(keys[i]), GINT_TO_POINTER(SECRET_SCHEMA_ATTRIBUTE_STRING));
    }
    SecretSchema *schema = secret_schema_newv(PWV_SCHEMA_NAME, SECRET_SCHEMA_DONT_MATCH_NAME, types);
    g_hash_table_unref(types);
    return schema;
}

static GHashTable *attribute_table(const char *const *keys, const char *const *values, size_t n) {
    GHashTable *table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    for (size_t i = 0; i < n; i++) g_hash_table_insert(table, g_strdup(keys[i]), g_strdup(values[i]));
    return table;
}

/* ---------------------------------------------------------------------------------------------
 * Base64: why not GLib's. The stored text must be readable by people (`secret-tool lookup`
 * prints it), so the bytes go in as standard padded base64. g_base64_* index tables with secret
 * bytes and the decoder silently skips bad characters; these versions compute every character
 * with masks (after libsodium's sodium_bin2base64 / sodium_base642bin, ISC), so timing does not
 * depend on the secret, and decoding rejects anything this shim did not write.
 * ------------------------------------------------------------------------------------------- */

#define EQ(x, y) ((((0U - ((unsigned int)(x) ^ (unsigned int)(y))) >> 8) & 0xFF) ^ 0xFF)
#define GT(x, y) ((((unsigned int)(y) - (unsigned int)(x)) >> 8) & 0xFF)
#define GE(x, y) (GT(y, x) ^ 0xFF)
#define LT(x, y) GT(y, x)
#define LE(x, y) GE(y, x)

static char b64_char(unsigned int x) {
    return (char)((LT(x, 26) & (x + 'A')) | (GE(x, 26) & LT(x, 52) & (x + ('a' - 26))) |
                  (GE(x, 52) & LT(x, 62) & (x + ('0' - 52))) | (EQ(x, 62) & '+') | (EQ(x, 63) & '/'));
}

/* The 6-bit value of c, or 0xFF when c is not in the alphabet. */
static unsigned int b64_value(unsigned int c) {
    unsigned int x = (GE(c, 'A') & LE(c, 'Z') & (c - 'A')) | (GE(c, 'a') & LE(c, 'z') & (c - ('a' - 26))) |
                     (GE(c, '0') & LE(c, '9') & (c - ('0' - 52))) | (EQ(c, '+') & 62) | (EQ(c, '/') & 63);
    return x | (EQ(x, 0) & (EQ(c, 'A') ^ 0xFF));
}

static size_t b64_encoded_length(size_t len) { return (len + 2) / 3 * 4; }

/* Writes b64_encoded_length(len) characters and a NUL into out. */
static void b64_encode(const unsigned char *in, size_t len, char *out) {
    size_t o = 0;
    unsigned int acc = 0;
    for (size_t i = 0; i < len; i += 3) {
        size_t chunk = len - i < 3 ? len - i : 3;
        acc = (unsigned int)in[i] << 16;
        if (chunk > 1) acc |= (unsigned int)in[i + 1] << 8;
        if (chunk > 2) acc |= in[i + 2];
        out[o++] = b64_char((acc >> 18) & 63);
        out[o++] = b64_char((acc >> 12) & 63);
        out[o++] = chunk > 1 ? b64_char((acc >> 6) & 63) : '=';
        out[o++] = chunk > 2 ? b64_char(acc & 63) : '=';
    }
    out[o] = '\0';
    explicit_bzero(&acc, sizeof acc);
}

/* The decoded length of well-formed padded base64 of `len` characters ending in `text`, or -1.
 * Depends only on the length and the padding, which are not secret. */
static long b64_decoded_length(const char *text, size_t len) {
    if (len == 0 || len % 4 != 0) return -1;
    size_t pad = text[len - 1] == '=' ? (text[len - 2] == '=' ? 2 : 1) : 0;
    return (long)(len / 4 * 3 - pad);
}

/* Decodes into out (exactly b64_decoded_length bytes). Returns FALSE on any bad character. */
static gboolean b64_decode(const char *text, size_t len, unsigned char *out) {
    size_t pad = text[len - 1] == '=' ? (text[len - 2] == '=' ? 2 : 1) : 0;
    unsigned int bad = 0, acc = 0;
    size_t o = 0;
    for (size_t i = 0; i < len; i += 4) {
        size_t real = (i + 4 == len) ? 4 - pad : 4;  /* characters before the padding */
        acc = 0;
        for (size_t j = 0; j < 4; j++) {
            unsigned int v = j < real ? b64_value((unsigned char)text[i + j]) : 0;
            bad |= EQ(v, 0xFF);
            acc = (acc << 6) | (v & 63);
        }
        out[o++] = (unsigned char)(acc >> 16);
        if (real > 2) out[o++] = (unsigned char)(acc >> 8);
        if (real > 3) out[o++] = (unsigned char)acc;
    }
    explicit_bzero(&acc, sizeof acc);
    return bad == 0;
}

/* ---------------------------------------------------------------------------------------------
 * Unlocking: Service.Unlock answers with the objects it unlocked and a prompt, "/" when none is
 * needed. A prompt is a dialog the provider draws (KeePassXC's "Access Request" or "Unlock
 * Database", GNOME Keyring's unlock dialog) once Prompt.Prompt is called; Dismiss withdraws it.
 * Raw GDBus calls here because libsecret's unlock always performs the prompt.
 * ------------------------------------------------------------------------------------------- */

#define SECRETS_NAME "org.freedesktop.secrets"
#define SECRETS_PATH "/org/freedesktop/secrets"
#define SECRETS_SERVICE "org.freedesktop.Secret.Service"

static gboolean valid_mode(int mode) {
    return mode == PWV_UNLOCK_NEVER || mode == PWV_UNLOCK_SILENT || mode == PWV_UNLOCK_PROMPT;
}

/* The connection libsecret's shared service talks over (GLib's shared session bus connection). */
static GDBusConnection *service_connection(SecretService *service) {
    return g_dbus_proxy_get_connection((GDBusProxy *)service);
}

/* Withdraws a prompt that was never shown. Its answer does not matter: a provider that lost it
 * already has nothing on screen. */
static void dismiss_prompt(GDBusConnection *connection, const gchar *prompt, pwv_deadline *d) {
    GVariant *reply = g_dbus_connection_call_sync(connection, SECRETS_NAME, prompt, "org.freedesktop.Secret.Prompt",
                                                  "Dismiss", NULL, NULL, G_DBUS_CALL_FLAGS_NONE,
                                                  pwv_deadline_left_ms(d), d->cancellable, NULL);
    if (reply != NULL) g_variant_unref(reply);
}

/* What a call that answered with `prompt` comes to: "/" (none needed) is PWV_SECRET_OK; otherwise as
 * `mode` allows: withdrawn unseen (PWV_SECRET_NEEDS_PROMPT), or performed by libsecret (Prompt.Prompt,
 * then it waits for Completed; on cancellation it sends Dismiss, so no dialog outlives the deadline):
 * PWV_SECRET_OK, PWV_SECRET_DISMISSED, or PWV_SECRET_ERR_GLIB with *gerror set. `service` is needed
 * for PROMPT only. */
static int settle_prompt(GDBusConnection *connection, SecretService *service, const gchar *prompt, int mode,
                         pwv_deadline *d, GError **gerror, GVariant **result) {
    if (prompt == NULL || strcmp(prompt, "/") == 0) return PWV_SECRET_OK;
    if (mode != PWV_UNLOCK_PROMPT || service == NULL) {
        dismiss_prompt(connection, prompt, d);
        return PWV_SECRET_NEEDS_PROMPT;
    }
    GVariant *answer = secret_service_prompt_at_dbus_path_sync(service, prompt, d->cancellable, NULL, gerror);
    if (answer == NULL) return *gerror == NULL ? PWV_SECRET_DISMISSED : PWV_SECRET_ERR_GLIB;
    if (result != NULL) *result = answer;
    else g_variant_unref(answer);
    return PWV_SECRET_OK;
}

/* How many object paths an unlock's answer (ao, possibly boxed in a v) names. */
static gsize unlocked_count(GVariant *answer) {
    if (answer == NULL) return 0;
    if (g_variant_is_of_type(answer, G_VARIANT_TYPE_VARIANT)) {
        GVariant *inner = g_variant_get_child_value(answer, 0);
        gsize n = unlocked_count(inner);
        g_variant_unref(inner);
        return n;
    }
    return g_variant_is_of_type(answer, G_VARIANT_TYPE("ao")) ? g_variant_n_children(answer) : 0;
}

/* Unlocks `paths` (items or collections): PWV_SECRET_OK, PWV_SECRET_NEEDS_PROMPT (SILENT),
 * PWV_SECRET_DISMISSED (PROMPT), or PWV_SECRET_ERR_GLIB with *gerror set (or the deadline fired). */
static int unlock_paths(GDBusConnection *connection, SecretService *service, const gchar *const *paths, int mode,
                        pwv_deadline *d, GError **gerror) {
    GVariant *reply = g_dbus_connection_call_sync(connection, SECRETS_NAME, SECRETS_PATH, SECRETS_SERVICE, "Unlock",
                                                  g_variant_new("(^ao)", paths), G_VARIANT_TYPE("(aoo)"),
                                                  G_DBUS_CALL_FLAGS_NONE, pwv_deadline_left_ms(d), d->cancellable,
                                                  gerror);
    if (reply == NULL) return PWV_SECRET_ERR_GLIB;
    const gchar *prompt = NULL;
    GVariant *unlocked = NULL, *prompted = NULL;
    g_variant_get(reply, "(@ao&o)", &unlocked, &prompt);
    int status = settle_prompt(connection, service, prompt, mode, d, gerror, &prompted);
    /* Completed, but nothing unlocked: KeePassXC's "Deny" answers so rather than with a dismissal. */
    if (status == PWV_SECRET_OK && unlocked_count(prompted != NULL ? prompted : unlocked) == 0)
        status = PWV_SECRET_DISMISSED;
    if (prompted != NULL) g_variant_unref(prompted);
    g_variant_unref(unlocked);
    g_variant_unref(reply);
    return status;
}

/* Deletes one item (Item.Delete answers with a prompt where the provider confirms deletions). */
static int delete_item(GDBusConnection *connection, SecretService *service, const gchar *path, int mode,
                       pwv_deadline *d, GError **gerror) {
    GVariant *reply = g_dbus_connection_call_sync(connection, SECRETS_NAME, path, "org.freedesktop.Secret.Item",
                                                  "Delete", NULL, G_VARIANT_TYPE("(o)"), G_DBUS_CALL_FLAGS_NONE,
                                                  pwv_deadline_left_ms(d), d->cancellable, gerror);
    if (reply == NULL) return PWV_SECRET_ERR_GLIB;
    const gchar *prompt = NULL;
    g_variant_get(reply, "(&o)", &prompt);
    int status = settle_prompt(connection, service, prompt, mode, d, gerror, NULL);
    g_variant_unref(reply);
    return status;
}

/* The shared service with an open session (for reading and writing secrets). kwalletd refuses a
 * DH public key of fewer than 128 bytes ("client public key size is invalid"), and libsecret sends
 * its key without leading zero bytes, so about one session in 256 fails at random (seen in the
 * KWallet tests under load): one more try with a new key. */
/* kwalletd 5 also derives a wrong AES key about once in 128 sessions (a DH shared secret or
 * public key with a leading zero byte is taken as 127 bytes on one side and 128 on the other):
 * a secret sent through such a session fails to decrypt there ("Can't find session", sent as
 * QtDBus's InvalidObjectPath, after kwalletd has already created the item, empty), and one
 * received through it cannot be decoded here (libsecret gives no value and no error). Neither is
 * about the item; the same call through a new session succeeds. */
#define PWV_SESSION_ATTEMPTS 3
static const char *const qt_invalid_object_path = "org.qtproject.QtDBus.Error.InvalidObjectPath";

static gboolean session_refused_secret(const GError *gerror) {
    if (gerror == NULL) return FALSE;
    if (g_dbus_error_is_remote_error(gerror)) {
        gchar *name = g_dbus_error_get_remote_error(gerror);
        gboolean refused = name != NULL && strcmp(name, qt_invalid_object_path) == 0;
        g_free(name);
        return refused;
    }
    /* libsecret strips the remote name from the errors of its item and collection calls, leaving
     * GIO's code for an unregistered D-Bus error and kwalletd's words: the only sign left. */
    return g_error_matches(gerror, G_IO_ERROR, G_IO_ERROR_DBUS_ERROR) && gerror->message != NULL &&
           strncmp(gerror->message, "Can't find session ", strlen("Can't find session ")) == 0;
}

/* Drops `service` and the process's shared instance, so that the next service_with_session
 * negotiates a new session (new DH keys) on the same bus connection. */
static void drop_session(SecretService **service) {
    if (*service != NULL) g_object_unref(*service);
    *service = NULL;
    secret_service_disconnect();
}

static SecretService *service_with_session(pwv_deadline *d, GError **gerror) {
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, d->cancellable, gerror);
    if (service == NULL && *gerror != NULL && (*gerror)->message != NULL &&
        strstr((*gerror)->message, "public key size") != NULL) {
        g_clear_error(gerror);
        service = secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, d->cancellable, gerror);
    }
    return service;
}

/* The attributes as the a{ss} SearchItems takes. */
static GVariant *attributes_variant(const char *const *keys, const char *const *values, size_t n) {
    GVariantBuilder builder;
    g_variant_builder_init(&builder, G_VARIANT_TYPE("a{ss}"));
    for (size_t i = 0; i < n; i++) g_variant_builder_add(&builder, "{ss}", keys[i], values[i]);
    return g_variant_builder_end(&builder);
}

/* ---------------------------------------------------------------------------------------------
 * The calls
 * ------------------------------------------------------------------------------------------- */

int pwv_secret_store(const char *const *keys, const char *const *values, size_t n, int mode,
                     const char *label, const unsigned char *secret, size_t secret_len,
                     unsigned int timeout_ms, pwv_error *error) {
    if (!api_ready()) return fail_unloaded(error);
    /* An empty secret would be stored as empty text, which no lookup could tell from damage. */
    if (!valid_attributes(keys, values, n) || label == NULL || secret == NULL || secret_len == 0 ||
        timeout_ms == 0 || !valid_mode(mode))
        return fail(error, PWV_SECRET_ERR_ARGUMENT, "invalid arguments");
    if (secret_len > PWV_SECRET_MAX_BYTES) return fail(error, PWV_SECRET_ERR_TOO_BIG, "the secret is too large");

    /* The text copy of the secret lives only until libsecret has copied it into its own secure
     * memory, and is wiped before it is freed. */
    size_t text_len = b64_encoded_length(secret_len);
    char *text = g_malloc(text_len + 1);
    b64_encode(secret, secret_len, text);

    SecretSchema *schema = schema_for(keys, n);
    GHashTable *attributes = attribute_table(keys, values, n);
    GError *gerror = NULL;
    pwv_deadline d;
    if (!pwv_deadline_start(&d, timeout_ms)) {
        explicit_bzero(text, text_len + 1);
        g_free(text);
        g_hash_table_unref(attributes);
        secret_schema_unref(schema);
        return fail(error, PWV_SECRET_ERR_RESOURCE, "could not start the timeout timer");
    }
    /* An existing item is updated in place (SetSecret, then its label), not replaced by CreateItem:
     * KeePassXC answers a replacing CreateItem with its access dialog for every new client, even
     * with per-access confirmation off. Only a new item is created. */
    int status = PWV_SECRET_ERR_GLIB;
    gchar **unlocked = NULL, **locked = NULL;
    SecretService *service = NULL;
    for (int attempt = 1; attempt <= PWV_SESSION_ATTEMPTS; attempt++) {
        if (attempt > 1) {
            /* The provider could not decrypt the secret sent through this session: again through a new
             * one. The search finds the empty item kwalletd made meanwhile and fills it in place. */
            g_clear_error(&gerror);
            g_strfreev(unlocked);
            g_strfreev(locked);
            unlocked = locked = NULL;
            drop_session(&service);
            status = PWV_SECRET_ERR_GLIB;
        }
        service = service_with_session(&d, &gerror);
        if (service != NULL &&
            secret_service_search_for_dbus_paths_sync(service, schema, attributes, d.cancellable, &unlocked, &locked,
                                                      &gerror)) {
            const gchar *path = NULL;
            status = PWV_SECRET_OK;
            if (unlocked != NULL && unlocked[0] != NULL) {
                path = unlocked[0];
            } else if (locked != NULL && locked[0] != NULL) {
                status = mode == PWV_UNLOCK_NEVER
                             ? PWV_SECRET_LOCKED_MATCH
                             : unlock_paths(service_connection(service), service, (const gchar *const *)locked, mode,
                                            &d, &gerror);
                if (status == PWV_SECRET_OK) path = locked[0];
            }
            if (status == PWV_SECRET_OK && path != NULL) {
                SecretItem *item = secret_item_new_for_dbus_path_sync(service, path, SECRET_ITEM_NONE, d.cancellable, &gerror);
                SecretValue *value = item != NULL ? secret_value_new(text, (gssize)text_len, "text/plain") : NULL;
                if (item == NULL || !secret_item_set_secret_sync(item, value, d.cancellable, &gerror) ||
                    !secret_item_set_label_sync(item, label, d.cancellable, &gerror))
                    status = PWV_SECRET_ERR_GLIB;
                if (value != NULL) secret_value_unref(value);
                if (item != NULL) g_object_unref(item);
            } else if (status == PWV_SECRET_OK) {
                /* Through the service already holding a session (opened again once where KWallet refused
                 * libsecret's key): secret_password_storev_sync opened a second session of its own, and
                 * kwalletd refuses one DH public key in 256 ("Client public key size is invalid", a key with
                 * a leading zero byte sent as 127 bytes), which failed init's store on KWallet. */
                SecretValue *value = secret_value_new(text, (gssize)text_len, "text/plain");
                gboolean stored = secret_service_store_sync(service, schema, attributes, SECRET_COLLECTION_DEFAULT, label,
                                                            value, d.cancellable, &gerror);
                secret_value_unref(value);
                /* No error: the provider's dialog was dismissed. */
                if (!stored) status = gerror == NULL ? PWV_SECRET_DISMISSED : PWV_SECRET_ERR_GLIB;
            }
        }
        if (!(status == PWV_SECRET_ERR_GLIB && session_refused_secret(gerror))) break;
    }
    gboolean fired = pwv_deadline_stop(&d);
    if (service == NULL || (status == PWV_SECRET_ERR_GLIB) || (fired && status != PWV_SECRET_OK))
        status = fail_after(error, &gerror, fired);
    g_clear_error(&gerror);
    g_strfreev(unlocked);
    g_strfreev(locked);
    if (service != NULL) g_object_unref(service);
    explicit_bzero(text, text_len + 1);
    g_free(text);
    g_hash_table_unref(attributes);
    secret_schema_unref(schema);
    return status;
}

/* What `secret-tool lookup` does, on the D-Bus path layer: the service with its session (GetAll,
 * OpenSession), SearchItems, and GetSecrets for the first unlocked match. No lock check of the
 * default collection (ReadAlias and a collection proxy: three more round trips and a second
 * GetAll) on this path: an item found unlocked is readable whatever the collection's state, and
 * when none is found the caller asks pwv_secret_is_locked. Locked matches are never unlocked here
 * (libsecret's lookup would try an Unlock prompt, which cannot be shown): they count as absent.
 * Like secret_password_lookup, an item whose secret is not UTF-8 text/plain without NULs counts
 * as absent too. */
int pwv_secret_lookup(const char *const *keys, const char *const *values, size_t n, int mode,
                      unsigned char *out, size_t out_cap, size_t *out_len,
                      unsigned int timeout_ms, pwv_error *error) {
    if (!api_ready()) return fail_unloaded(error);
    if (!valid_attributes(keys, values, n) || out_len == NULL || (out == NULL && out_cap > 0) ||
        timeout_ms == 0 || !valid_mode(mode))
        return fail(error, PWV_SECRET_ERR_ARGUMENT, "invalid arguments");
    *out_len = 0;

    SecretSchema *schema = schema_for(keys, n);
    GHashTable *attributes = attribute_table(keys, values, n);
    GError *gerror = NULL;
    pwv_deadline d;
    if (!pwv_deadline_start(&d, timeout_ms)) {
        g_hash_table_unref(attributes);
        secret_schema_unref(schema);
        return fail(error, PWV_SECRET_ERR_RESOURCE, "could not start the timeout timer");
    }
    /* One deadline covers every round trip. The service is GLib's shared instance (the connection
     * and the session are made once per process). The secret arrives through the session's
     * encryption and lives in libsecret's non-pageable memory; secret_value_unref wipes it. */
    SecretValue *value = NULL;
    gchar **unlocked = NULL, **locked = NULL;
    int answer = PWV_SECRET_ABSENT;  /* what a search without a readable match means */
    SecretService *service = service_with_session(&d, &gerror);
    if (service != NULL &&
        secret_service_search_for_dbus_paths_sync(service, schema, attributes, d.cancellable, &unlocked, &locked,
                                                  &gerror)) {
        const gchar *path = NULL;
        if (unlocked != NULL && unlocked[0] != NULL) {
            path = unlocked[0];
        } else if (locked != NULL && locked[0] != NULL) {
            /* pwnvault's item, locked: for this client (KeePassXC's per-access confirmation) or with
             * its collection (KWallet after login, a locked GNOME keyring). Never "absent". */
            answer = mode == PWV_UNLOCK_NEVER
                         ? PWV_SECRET_LOCKED_MATCH
                         : unlock_paths(service_connection(service), service, (const gchar *const *)locked, mode,
                                        &d, &gerror);
            if (answer == PWV_SECRET_OK) path = locked[0];
        }
        for (int attempt = 1; path != NULL; attempt++) {
            value = secret_service_get_secret_for_dbus_path_sync(service, path, d.cancellable, &gerror);
            if (value != NULL || gerror != NULL || attempt == PWV_SESSION_ATTEMPTS) break;
            drop_session(&service);   /* an item whose secret could not be decoded: a session's fault */
            service = service_with_session(&d, &gerror);
            if (service == NULL) break;
        }
    }
    gboolean fired = pwv_deadline_stop(&d);
    g_strfreev(unlocked);
    g_strfreev(locked);
    if (service != NULL) g_object_unref(service);
    g_hash_table_unref(attributes);
    secret_schema_unref(schema);

    if (value == NULL) {
        if (gerror == NULL && !fired) return answer == PWV_SECRET_OK ? PWV_SECRET_ABSENT : answer;
        return fail_after(error, &gerror, fired);
    }

    int status = PWV_SECRET_OK;
    gsize text_len = 0;
    const gchar *text = secret_value_get(value, &text_len);
    const gchar *type = secret_value_get_content_type(value);
    if (text == NULL || (type != NULL && strcmp(type, "text/plain") != 0) || memchr(text, 0, text_len) != NULL ||
        !g_utf8_validate(text, (gssize)text_len, NULL)) {
        status = PWV_SECRET_ABSENT;
    } else {
        long decoded = b64_decoded_length(text, text_len);
        if (decoded < 0) {
            status = fail(error, PWV_SECRET_ERR_FORMAT, "the stored item is not a pwnvault secret");
        } else if ((size_t)decoded > out_cap || (size_t)decoded > PWV_SECRET_MAX_BYTES) {
            status = fail(error, PWV_SECRET_ERR_TOO_BIG, "the stored secret is too large");
        } else if (!b64_decode(text, text_len, out)) {
            explicit_bzero(out, (size_t)decoded);
            status = fail(error, PWV_SECRET_ERR_FORMAT, "the stored item is not a pwnvault secret");
        } else {
            *out_len = (size_t)decoded;
        }
    }
    secret_value_unref(value);
    return status;
}

int pwv_secret_clear(const char *const *keys, const char *const *values, size_t n, int mode,
                     unsigned int timeout_ms, pwv_error *error) {
    if (!api_ready()) return fail_unloaded(error);
    if (!valid_attributes(keys, values, n) || timeout_ms == 0 || !valid_mode(mode))
        return fail(error, PWV_SECRET_ERR_ARGUMENT, "invalid arguments");

    GError *gerror = NULL;
    pwv_deadline d;
    if (!start_deadline(&d, timeout_ms, error)) return PWV_SECRET_ERR_RESOURCE;
    /* Raw Item.Delete calls: a provider that confirms deletions (KeePassXC) answers with a prompt,
     * which `mode` settles like an unlock's. */
    int status = PWV_SECRET_ERR_GLIB;
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_NONE, d.cancellable, &gerror);
    GVariant *reply = NULL;
    if (service != NULL) {
        reply = g_dbus_connection_call_sync(service_connection(service), SECRETS_NAME, SECRETS_PATH, SECRETS_SERVICE,
                                            "SearchItems", g_variant_new("(@a{ss})", attributes_variant(keys, values, n)),
                                            G_VARIANT_TYPE("(aoao)"), G_DBUS_CALL_FLAGS_NONE,
                                            pwv_deadline_left_ms(&d), d.cancellable, &gerror);
    }
    if (reply != NULL) {
        gchar **unlocked = NULL, **locked = NULL;
        g_variant_get(reply, "(^ao^ao)", &unlocked, &locked);
        gboolean any = (unlocked != NULL && unlocked[0] != NULL) || (locked != NULL && locked[0] != NULL);
        status = any ? PWV_SECRET_OK : PWV_SECRET_ABSENT;
        if (locked != NULL && locked[0] != NULL) {
            status = mode == PWV_UNLOCK_NEVER
                         ? PWV_SECRET_LOCKED_MATCH
                         : unlock_paths(service_connection(service), service, (const gchar *const *)locked, mode,
                                        &d, &gerror);
        }
        for (int list = 0; list < 2 && status == PWV_SECRET_OK; list++) {
            gchar **paths = list == 0 ? unlocked : locked;
            for (size_t i = 0; paths != NULL && paths[i] != NULL && status == PWV_SECRET_OK; i++)
                status = delete_item(service_connection(service), service, paths[i], mode, &d, &gerror);
        }
        g_strfreev(unlocked);
        g_strfreev(locked);
        g_variant_unref(reply);
    }
    gboolean fired = pwv_deadline_stop(&d);
    if (service != NULL) g_object_unref(service);
    if (status == PWV_SECRET_ERR_GLIB || (fired && status != PWV_SECRET_OK && status != PWV_SECRET_ABSENT))
        return fail_after(error, &gerror, fired);
    g_clear_error(&gerror);
    return status;
}

int pwv_secret_is_locked(unsigned int timeout_ms, pwv_error *error) {
    if (!api_ready()) return fail_unloaded(error);
    if (timeout_ms == 0) return fail(error, PWV_SECRET_ERR_ARGUMENT, "invalid arguments");

    GError *gerror = NULL;
    pwv_deadline d;
    if (!start_deadline(&d, timeout_ms, error)) return PWV_SECRET_ERR_RESOURCE;

    /* One deadline covers both round trips. SECRET_COLLECTION_NONE: the lock state is a property
     * of the collection; its items need not be loaded (and could not be, were it locked). */
    int status;
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_NONE, d.cancellable, &gerror);
    SecretCollection *collection = NULL;
    if (service != NULL) {
        collection = secret_collection_for_alias_sync(service, SECRET_COLLECTION_DEFAULT,
                                                      SECRET_COLLECTION_NONE, d.cancellable, &gerror);
    }
    gboolean fired = pwv_deadline_stop(&d);

    if (service == NULL || (collection == NULL && (gerror != NULL || fired))) {
        status = fail_after(error, &gerror, fired);
    } else if (collection == NULL) {
        status = fail(error, PWV_SECRET_ERR_NO_DEFAULT, "the Secret Service has no default collection");
    } else {
        status = secret_collection_get_locked(collection) ? PWV_SECRET_LOCKED : 0;
    }
    if (collection != NULL) g_object_unref(collection);
    if (service != NULL) g_object_unref(service);
    return status;
}

int pwv_secret_search(const char *const *keys, const char *const *values, size_t n, int fresh, int mode,
                      unsigned int timeout_ms, pwv_error *error) {
    if (!api_ready()) return fail_unloaded(error);
    if (!valid_attributes(keys, values, n) || timeout_ms == 0 || !valid_mode(mode) || mode == PWV_UNLOCK_PROMPT)
        return fail(error, PWV_SECRET_ERR_ARGUMENT, "invalid arguments");

    GError *gerror = NULL;
    pwv_deadline d;
    if (!start_deadline(&d, timeout_ms, error)) return PWV_SECRET_ERR_RESOURCE;

    GDBusConnection *connection = NULL;
    if (fresh) {
        /* A connection of our own, like a new process's: never GLib's shared one. */
        gchar *address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, d.cancellable, &gerror);
        if (address != NULL) {
            connection = g_dbus_connection_new_for_address_sync(
                address, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                NULL, d.cancellable, &gerror);
            g_free(address);
        }
    } else {
        connection = g_bus_get_sync(G_BUS_TYPE_SESSION, d.cancellable, &gerror);
    }

    int status = PWV_SECRET_ERR_GLIB;
    GVariant *reply = NULL;
    if (connection != NULL) {
        reply = g_dbus_connection_call_sync(connection, SECRETS_NAME, SECRETS_PATH, SECRETS_SERVICE, "SearchItems",
                                            g_variant_new("(@a{ss})", attributes_variant(keys, values, n)),
                                            G_VARIANT_TYPE("(aoao)"), G_DBUS_CALL_FLAGS_NONE,
                                            pwv_deadline_left_ms(&d), d.cancellable, &gerror);
    }
    if (reply != NULL) {
        gchar **unlocked = NULL, **locked = NULL;
        g_variant_get(reply, "(^ao^ao)", &unlocked, &locked);
        if (unlocked != NULL && unlocked[0] != NULL) {
            status = PWV_SECRET_OK;
        } else if (locked != NULL && locked[0] != NULL) {
            status = mode == PWV_UNLOCK_NEVER
                         ? PWV_SECRET_LOCKED_MATCH
                         : unlock_paths(connection, NULL, (const gchar *const *)locked, mode, &d, &gerror);
        } else {
            status = PWV_SECRET_ABSENT;
        }
        g_strfreev(unlocked);
        g_strfreev(locked);
        g_variant_unref(reply);
    }
    gboolean fired = pwv_deadline_stop(&d);
    if (connection != NULL) {
        if (fresh) g_dbus_connection_close_sync(connection, NULL, NULL);
        g_object_unref(connection);
    }
    if (status == PWV_SECRET_ERR_GLIB || fired) return fail_after(error, &gerror, fired);
    g_clear_error(&gerror);
    return status;
}

int pwv_secret_unlock_default(int mode, unsigned int timeout_ms, pwv_error *error) {
    if (!api_ready()) return fail_unloaded(error);
    if (timeout_ms == 0 || !valid_mode(mode)) return fail(error, PWV_SECRET_ERR_ARGUMENT, "invalid arguments");

    GError *gerror = NULL;
    pwv_deadline d;
    if (!start_deadline(&d, timeout_ms, error)) return PWV_SECRET_ERR_RESOURCE;

    int status = PWV_SECRET_ERR_GLIB;
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_NONE, d.cancellable, &gerror);
    SecretCollection *collection = NULL;
    if (service != NULL) {
        collection = secret_collection_for_alias_sync(service, SECRET_COLLECTION_DEFAULT, SECRET_COLLECTION_NONE,
                                                      d.cancellable, &gerror);
        if (collection == NULL && gerror == NULL) {
            status = PWV_SECRET_ERR_NO_DEFAULT;
        } else if (collection != NULL && !secret_collection_get_locked(collection)) {
            status = PWV_SECRET_OK;
        } else if (collection != NULL) {
            const gchar *paths[] = { g_dbus_proxy_get_object_path((GDBusProxy *)collection), NULL };
            status = mode == PWV_UNLOCK_NEVER
                         ? PWV_SECRET_NEEDS_PROMPT
                         : unlock_paths(service_connection(service), service, paths, mode, &d, &gerror);
        }
    }
    gboolean fired = pwv_deadline_stop(&d);
    if (collection != NULL) g_object_unref(collection);
    if (service != NULL) g_object_unref(service);
    if (status == PWV_SECRET_ERR_NO_DEFAULT && !fired)
        return fail(error, PWV_SECRET_ERR_NO_DEFAULT, "the Secret Service has no default collection");
    if (status == PWV_SECRET_ERR_GLIB || status == PWV_SECRET_ERR_NO_DEFAULT || fired)
        return fail_after(error, &gerror, fired);
    g_clear_error(&gerror);
    return status;
}

int pwv_secret_all_locked(unsigned int timeout_ms, pwv_error *error) {
    if (!api_ready()) return fail_unloaded(error);
    if (timeout_ms == 0) return fail(error, PWV_SECRET_ERR_ARGUMENT, "invalid arguments");

    GError *gerror = NULL;
    pwv_deadline d;
    if (!start_deadline(&d, timeout_ms, error)) return PWV_SECRET_ERR_RESOURCE;

    /* The service proxy read its properties (Collections) when it was made; each collection's
     * Locked is one Properties.Get, which no provider answers with a dialog. */
    int status = PWV_SECRET_ERR_GLIB;
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_NONE, d.cancellable, &gerror);
    if (service != NULL) {
        GVariant *collections = g_dbus_proxy_get_cached_property((GDBusProxy *)service, "Collections");
        const gchar **paths = collections != NULL ? g_variant_get_objv(collections, NULL) : NULL;
        status = paths == NULL || paths[0] == NULL ? PWV_SECRET_ERR_NO_DEFAULT : PWV_SECRET_LOCKED;
        for (size_t i = 0; paths != NULL && paths[i] != NULL && status == PWV_SECRET_LOCKED; i++) {
            GVariant *reply = g_dbus_connection_call_sync(
                service_connection(service), SECRETS_NAME, paths[i], "org.freedesktop.DBus.Properties", "Get",
                g_variant_new("(ss)", "org.freedesktop.Secret.Collection", "Locked"), G_VARIANT_TYPE("(v)"),
                G_DBUS_CALL_FLAGS_NONE, pwv_deadline_left_ms(&d), d.cancellable, &gerror);
            if (reply == NULL) {
                status = PWV_SECRET_ERR_GLIB;
                break;
            }
            GVariant *boxed = NULL;
            g_variant_get(reply, "(v)", &boxed);
            if (boxed != NULL && g_variant_is_of_type(boxed, G_VARIANT_TYPE_BOOLEAN) && !g_variant_get_boolean(boxed))
                status = 0;
            if (boxed != NULL) g_variant_unref(boxed);
            g_variant_unref(reply);
        }
        g_free(paths);
        if (collections != NULL) g_variant_unref(collections);
        g_object_unref(service);
    }
    gboolean fired = pwv_deadline_stop(&d);
    if (status == PWV_SECRET_ERR_NO_DEFAULT && !fired)
        return fail(error, PWV_SECRET_ERR_NO_DEFAULT, "the Secret Service has no collection");
    if (status == PWV_SECRET_ERR_GLIB || fired) return fail_after(error, &gerror, fired);
    return status;
}

int pwv_secret_provider_pid(unsigned int timeout_ms, unsigned int *pid, pwv_error *error) {
    if (!api_ready()) return fail_unloaded(error);
    if (timeout_ms == 0 || pid == NULL) return fail(error, PWV_SECRET_ERR_ARGUMENT, "invalid arguments");
    *pid = 0;

    GError *gerror = NULL;
    pwv_deadline d;
    if (!start_deadline(&d, timeout_ms, error)) return PWV_SECRET_ERR_RESOURCE;
    int status = PWV_SECRET_ERR_GLIB;
    GDBusConnection *connection = g_bus_get_sync(G_BUS_TYPE_SESSION, d.cancellable, &gerror);
    if (connection != NULL) {
        GVariant *reply = g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "GetConnectionUnixProcessID", g_variant_new("(s)", SECRETS_NAME), G_VARIANT_TYPE("(u)"),
            G_DBUS_CALL_FLAGS_NONE, pwv_deadline_left_ms(&d), d.cancellable, &gerror);
        if (reply != NULL) {
            guint32 value = 0;
            g_variant_get(reply, "(u)", &value);
            *pid = value;
            status = PWV_SECRET_OK;
            g_variant_unref(reply);
        } else if (gerror != NULL && g_dbus_error_is_remote_error(gerror)) {
            gchar *name = g_dbus_error_get_remote_error(gerror);
            if (name != NULL && strcmp(name, "org.freedesktop.DBus.Error.NameHasNoOwner") == 0) {
                status = PWV_SECRET_ABSENT;
                g_clear_error(&gerror);
            }
            g_free(name);
        }
        g_object_unref(connection);
    }
    gboolean fired = pwv_deadline_stop(&d);
    if (status == PWV_SECRET_ERR_GLIB || (fired && status != PWV_SECRET_OK)) return fail_after(error, &gerror, fired);
    return status;
}

int pwv_secret_kwallet_open(unsigned int timeout_ms, pwv_error *error) {
    if (!api_ready()) return fail_unloaded(error);
    if (timeout_ms == 0) return fail(error, PWV_SECRET_ERR_ARGUMENT, "invalid arguments");

    GError *gerror = NULL;
    pwv_deadline d;
    if (!start_deadline(&d, timeout_ms, error)) return PWV_SECRET_ERR_RESOURCE;
    int status = PWV_SECRET_ERR_GLIB;
    GDBusConnection *connection = g_bus_get_sync(G_BUS_TYPE_SESSION, d.cancellable, &gerror);
    static const char *const daemons[][2] = {
        { "org.kde.kwalletd5", "/modules/kwalletd5" },
        { "org.kde.kwalletd6", "/modules/kwalletd6" },
    };
    for (size_t i = 0; connection != NULL && i < sizeof daemons / sizeof *daemons; i++) {
        g_clear_error(&gerror);
        GVariant *wallet = g_dbus_connection_call_sync(connection, daemons[i][0], daemons[i][1], "org.kde.KWallet",
                                                       "networkWallet", NULL, G_VARIANT_TYPE("(s)"),
                                                       G_DBUS_CALL_FLAGS_NO_AUTO_START, pwv_deadline_left_ms(&d),
                                                       d.cancellable, &gerror);
        if (wallet == NULL) continue;
        const gchar *name = NULL;
        g_variant_get(wallet, "(&s)", &name);
        GVariant *open = g_dbus_connection_call_sync(connection, daemons[i][0], daemons[i][1], "org.kde.KWallet",
                                                     "isOpen", g_variant_new("(s)", name), G_VARIANT_TYPE("(b)"),
                                                     G_DBUS_CALL_FLAGS_NO_AUTO_START, pwv_deadline_left_ms(&d),
                                                     d.cancellable, &gerror);
        if (open != NULL) {
            gboolean value = FALSE;
            g_variant_get(open, "(b)", &value);
            status = value ? 1 : 0;
            g_variant_unref(open);
        }
        g_variant_unref(wallet);
        break;
    }
    if (connection != NULL) g_object_unref(connection);
    gboolean fired = pwv_deadline_stop(&d);
    if (status < 0) return fail_after(error, &gerror, fired);
    g_clear_error(&gerror);
    return status;
}
