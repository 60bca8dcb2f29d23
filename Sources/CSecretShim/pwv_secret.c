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
    X(g_clear_error) \
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
    X(secret_collection_for_alias_sync) \
    X(secret_collection_get_locked) \
    X(secret_password_clearv_sync) \
    X(secret_password_storev_sync) \
    X(secret_schema_newv) \
    X(secret_schema_unref) \
    X(secret_service_get_secret_for_dbus_path_sync) \
    X(secret_service_get_sync) \
    X(secret_service_search_for_dbus_paths_sync) \
    X(secret_value_get) \
    X(secret_value_get_content_type) \
    X(secret_value_unref)
PWV_DL_API(PWV_SECRET_API, "libsecret-1.so.0")
#undef g_clear_error
#define g_clear_error api.g_clear_error
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
#undef secret_collection_for_alias_sync
#define secret_collection_for_alias_sync api.secret_collection_for_alias_sync
#undef secret_collection_get_locked
#define secret_collection_get_locked api.secret_collection_get_locked
#undef secret_password_clearv_sync
#define secret_password_clearv_sync api.secret_password_clearv_sync
#undef secret_password_storev_sync
#define secret_password_storev_sync api.secret_password_storev_sync
#undef secret_schema_newv
#define secret_schema_newv api.secret_schema_newv
#undef secret_schema_unref
#define secret_schema_unref api.secret_schema_unref
#undef secret_service_get_secret_for_dbus_path_sync
#define secret_service_get_secret_for_dbus_path_sync api.secret_service_get_secret_for_dbus_path_sync
#undef secret_service_get_sync
#define secret_service_get_sync api.secret_service_get_sync
#undef secret_service_search_for_dbus_paths_sync
#define secret_service_search_for_dbus_paths_sync api.secret_service_search_for_dbus_paths_sync
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
    }
    return status;
}

/* libsecret could not be loaded: said without GLib, which is not there either. */
static int fail_unloaded(pwv_error *error) {
    if (error != NULL) {
        snprintf(error->domain, sizeof error->domain, "pwv-secret");
        error->code = PWV_SECRET_ERR_GLIB;
        snprintf(error->message, sizeof error->message, "%s", api_error);
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
    }
    g_clear_error(gerror);
    return PWV_SECRET_ERR_GLIB;
}

/* The deadline: a thread cancels the GCancellable when it passes (pwv_deadline.h says why). */

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
 * The calls
 * ------------------------------------------------------------------------------------------- */

int pwv_secret_store(const char *const *keys, const char *const *values, size_t n,
                     const char *label, const unsigned char *secret, size_t secret_len,
                     unsigned int timeout_ms, pwv_error *error) {
    if (!api_ready()) return fail_unloaded(error);
    /* An empty secret would be stored as empty text, which no lookup could tell from damage. */
    if (!valid_attributes(keys, values, n) || label == NULL || secret == NULL || secret_len == 0 ||
        timeout_ms == 0)
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
    int status = PWV_SECRET_OK;
    if (!pwv_deadline_start(&d, timeout_ms)) {
        status = fail(error, PWV_SECRET_ERR_RESOURCE, "could not start the timeout timer");
    } else {
        gboolean stored = secret_password_storev_sync(schema, attributes, SECRET_COLLECTION_DEFAULT, label,
                                                      text, d.cancellable, &gerror);
        gboolean fired = pwv_deadline_stop(&d);
        if (!stored) status = fail_after(error, &gerror, fired);
    }
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
int pwv_secret_lookup(const char *const *keys, const char *const *values, size_t n,
                      unsigned char *out, size_t out_cap, size_t *out_len,
                      unsigned int timeout_ms, pwv_error *error) {
    if (!api_ready()) return fail_unloaded(error);
    if (!valid_attributes(keys, values, n) || out_len == NULL || (out == NULL && out_cap > 0) ||
        timeout_ms == 0)
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
    gchar **unlocked = NULL;
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, d.cancellable, &gerror);
    if (service != NULL &&
        secret_service_search_for_dbus_paths_sync(service, schema, attributes, d.cancellable, &unlocked, NULL,
                                                  &gerror) &&
        unlocked != NULL && unlocked[0] != NULL) {
        value = secret_service_get_secret_for_dbus_path_sync(service, unlocked[0], d.cancellable, &gerror);
    }
    gboolean fired = pwv_deadline_stop(&d);
    g_strfreev(unlocked);
    if (service != NULL) g_object_unref(service);
    g_hash_table_unref(attributes);
    secret_schema_unref(schema);

    if (value == NULL) {
        if (gerror == NULL && !fired) return PWV_SECRET_ABSENT;
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

int pwv_secret_clear(const char *const *keys, const char *const *values, size_t n,
                     unsigned int timeout_ms, pwv_error *error) {
    if (!api_ready()) return fail_unloaded(error);
    if (!valid_attributes(keys, values, n) || timeout_ms == 0)
        return fail(error, PWV_SECRET_ERR_ARGUMENT, "invalid arguments");

    SecretSchema *schema = schema_for(keys, n);
    GHashTable *attributes = attribute_table(keys, values, n);
    GError *gerror = NULL;
    pwv_deadline d;
    int status;
    if (!pwv_deadline_start(&d, timeout_ms)) {
        status = fail(error, PWV_SECRET_ERR_RESOURCE, "could not start the timeout timer");
    } else {
        gboolean removed = secret_password_clearv_sync(schema, attributes, d.cancellable, &gerror);
        gboolean fired = pwv_deadline_stop(&d);
        if (removed) status = PWV_SECRET_OK;
        else if (gerror == NULL && !fired) status = PWV_SECRET_ABSENT;
        else status = fail_after(error, &gerror, fired);
    }
    g_hash_table_unref(attributes);
    secret_schema_unref(schema);
    return status;
}

int pwv_secret_is_locked(unsigned int timeout_ms, pwv_error *error) {
    if (!api_ready()) return fail_unloaded(error);
    if (timeout_ms == 0) return fail(error, PWV_SECRET_ERR_ARGUMENT, "invalid arguments");

    GError *gerror = NULL;
    pwv_deadline d;
    if (!pwv_deadline_start(&d, timeout_ms))
        return fail(error, PWV_SECRET_ERR_RESOURCE, "could not start the timeout timer");

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
