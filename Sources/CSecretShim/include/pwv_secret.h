/* pwv_secret: the fixed-arity face of libsecret that Swift calls (from SecretServiceKeyring only).
 *
 * Why a shim at all:
 *   - libsecret's convenient calls are C-variadic, which Swift cannot call; its non-variadic twins
 *     want a GHashTable and a SecretSchema, which are GLib plumbing Swift should not see.
 *   - A hung Secret Service daemon hangs every synchronous libsecret call forever. Each function
 *     here takes a timeout and hands libsecret a GCancellable that a timer thread cancels.
 *   - A locked collection makes a lookup return "no such item" without an error when no unlock
 *     prompt can be shown. pwv_secret_is_locked asks the default collection directly (a lookup
 *     asks it only when it found nothing unlocked, which keeps the usual lookup at the round
 *     trips of `secret-tool lookup`).
 *   - Secrets cross this boundary only in caller-owned memory, so Swift decides when they are wiped.
 *
 *   - Providers differ in what they lock (issue 19): GNOME Keyring and KWallet lock collections,
 *     KeePassXC locks each item per client connection until the person approves that client.
 *     SearchItems names such items in its *locked* list; they are pwnvault's and need Unlock, which
 *     may answer with a prompt (a dialog the provider draws). Whether that dialog may be shown is
 *     the caller's choice (pwv_unlock_mode): an unattended run dismisses it unseen.
 *
 * Items are stored under the schema "org.pwnvault.Secret" with SECRET_SCHEMA_DONT_MATCH_NAME, so
 * they are found by attributes alone (`secret-tool search application pwnvault`). Attributes are
 * passed as parallel arrays `keys[i] = values[i]`, i < n; all of them are strings, n >= 1.
 * Secrets are stored in the default collection as text: standard padded base64 of the bytes.
 */
#pragma once
#include <stddef.h>

/* The largest secret (in bytes, before base64) that is stored or looked up. */
#define PWV_SECRET_MAX_BYTES 4096

/* Results. Non-negative values are answers; negative ones are failures. */
enum {
    PWV_SECRET_OK = 0,             /* done; lookup: found; clear: something was removed */
    PWV_SECRET_ABSENT = 1,         /* lookup: no such item; clear: nothing to remove */
    PWV_SECRET_LOCKED = 1,         /* is_locked, all_locked: locked */
    PWV_SECRET_LOCKED_MATCH = 2,   /* lookup (PWV_UNLOCK_NEVER), search: matches exist, every one locked */
    PWV_SECRET_NEEDS_PROMPT = 3,   /* unlocking needs the provider's dialog and PWV_UNLOCK_SILENT forbade it:
                                      the prompt was dismissed before it was shown */
    PWV_SECRET_DISMISSED = 4,      /* the provider's dialog was dismissed (refused, closed, or not showable) */
    PWV_SECRET_ERR_GLIB = -1,      /* a GError; its domain, code and message are in the pwv_error */
    PWV_SECRET_ERR_TIMEOUT = -2,   /* the timeout passed and the call was cancelled */
    PWV_SECRET_ERR_NO_DEFAULT = -3,/* the Secret Service has no default collection */
    PWV_SECRET_ERR_TOO_BIG = -4,   /* the secret is larger than the buffer or PWV_SECRET_MAX_BYTES */
    PWV_SECRET_ERR_FORMAT = -5,    /* the stored value is not the base64 this shim writes */
    PWV_SECRET_ERR_ARGUMENT = -6,  /* a NULL pointer, no attributes, an empty secret, a zero timeout */
    PWV_SECRET_ERR_RESOURCE = -7,  /* no thread or memory for the timer */
};

/* What went wrong, for the caller to map. Always filled when a function returns a negative value:
 * for PWV_SECRET_ERR_GLIB with the GError's domain ("secret-error", "g-io-error-quark",
 * "g-dbus-error-quark", …), code and message; otherwise with domain "pwv-secret" and a message.
 * Strings are NUL-terminated and cut to fit. */
typedef struct pwv_error {
    char domain[64];
    int code;
    char message[256];
    char dbus_name[128];  /* the D-Bus error name when the error came from the bus ("" otherwise) */
} pwv_error;

/* Whether an unlock may show the provider's dialog. */
enum pwv_unlock_mode {
    PWV_UNLOCK_NEVER = 0,   /* never call Unlock: locked matches answer PWV_SECRET_LOCKED_MATCH */
    PWV_UNLOCK_SILENT = 1,  /* call Unlock; done when it needs no prompt (KWallet with its wallet open),
                               else the prompt is dismissed unseen: PWV_SECRET_NEEDS_PROMPT */
    PWV_UNLOCK_PROMPT = 2,  /* call Unlock and let the provider show its dialog; wait for the answer
                               (PWV_SECRET_DISMISSED when refused, PWV_SECRET_ERR_TIMEOUT when the
                               deadline passed first: the prompt is then dismissed) */
};

/* Stores (or replaces) the secret (1 to PWV_SECRET_MAX_BYTES bytes) under the attributes, with a
 * label for keyring browsers. An item already there is updated in place and relabelled; a locked one
 * is unlocked first as `mode` allows. Returns PWV_SECRET_OK, PWV_SECRET_LOCKED_MATCH (mode NEVER),
 * PWV_SECRET_NEEDS_PROMPT (mode SILENT), PWV_SECRET_DISMISSED (the person refused the provider's
 * dialog) or a failure. Does not check the default collection's lock state. */
int pwv_secret_store(const char *const *keys, const char *const *values, size_t n, int mode,
                     const char *label, const unsigned char *secret, size_t secret_len,
                     unsigned int timeout_ms, pwv_error *error);

/* Looks up the secret stored under the attributes and decodes it into `out` (capacity `out_cap`),
 * setting `*out_len`. Returns PWV_SECRET_OK, PWV_SECRET_ABSENT, PWV_SECRET_LOCKED_MATCH (mode
 * NEVER), PWV_SECRET_NEEDS_PROMPT (mode SILENT), PWV_SECRET_DISMISSED (mode PROMPT) or a failure.
 * Nothing is written to `out` unless the whole secret fits. When an unlocked item matches it makes
 * the D-Bus calls `secret-tool lookup` makes; locked matches are unlocked as `mode` allows. A
 * collection that is locked may hide its items from the search altogether (answering
 * PWV_SECRET_ABSENT): after PWV_SECRET_ABSENT call pwv_secret_is_locked to tell a missing item from
 * a locked keyring. */
int pwv_secret_lookup(const char *const *keys, const char *const *values, size_t n, int mode,
                      unsigned char *out, size_t out_cap, size_t *out_len,
                      unsigned int timeout_ms, pwv_error *error);

/* Searches for items under the attributes without reading a secret. `fresh` != 0: on a new, private
 * connection to the session bus, closed afterwards, so the answer is what a new process would get
 * (KeePassXC approves per connection). Returns PWV_SECRET_OK (an unlocked match, or a locked one
 * that a prompt-less Unlock opened when mode is SILENT), PWV_SECRET_ABSENT, PWV_SECRET_LOCKED_MATCH
 * (mode NEVER), PWV_SECRET_NEEDS_PROMPT (mode SILENT) or a failure. mode PROMPT is not allowed here. */
int pwv_secret_search(const char *const *keys, const char *const *values, size_t n, int fresh, int mode,
                      unsigned int timeout_ms, pwv_error *error);

/* Unlocks the default collection when it is locked, as `mode` allows. Returns PWV_SECRET_OK (it is
 * unlocked now, or was), PWV_SECRET_NEEDS_PROMPT, PWV_SECRET_DISMISSED, PWV_SECRET_ERR_NO_DEFAULT
 * or a failure. */
int pwv_secret_unlock_default(int mode, unsigned int timeout_ms, pwv_error *error);

/* Asks whether every collection the service offers is locked (KeePassXC then shows its "Unlock
 * Database" dialog on a mere SearchItems, so an unattended run must ask first). Reads only
 * properties: never prompts. Returns 0 (some collection is unlocked), PWV_SECRET_LOCKED,
 * PWV_SECRET_ERR_NO_DEFAULT (no collection at all) or a failure. */
int pwv_secret_all_locked(unsigned int timeout_ms, pwv_error *error);

/* Whether KWallet's default ("network") wallet is open, asked of kwalletd itself (org.kde.kwalletd5,
 * then org.kde.kwalletd6). KWallet answers Unlock with a prompt even when its wallet is open; that
 * prompt then completes without a dialog, while with the wallet closed it shows a password window.
 * Returns 0 (closed), 1 (open) or a failure. */
int pwv_secret_kwallet_open(unsigned int timeout_ms, pwv_error *error);

/* The process id of whoever owns org.freedesktop.secrets on the session bus, from the bus itself
 * (GetConnectionUnixProcessID: the provider is never asked, so a hung one cannot hang this).
 * Returns PWV_SECRET_OK with *pid set, PWV_SECRET_ABSENT when the name has no owner (a provider
 * may still be started by activation), or a failure. */
int pwv_secret_provider_pid(unsigned int timeout_ms, unsigned int *pid, pwv_error *error);

/* Removes every item stored under the attributes (all of them must match), unlocking locked ones
 * and settling a provider's deletion prompt as `mode` allows. Returns PWV_SECRET_OK (something was
 * removed), PWV_SECRET_ABSENT (nothing matched), PWV_SECRET_LOCKED_MATCH, PWV_SECRET_NEEDS_PROMPT,
 * PWV_SECRET_DISMISSED or a failure. */
int pwv_secret_clear(const char *const *keys, const char *const *values, size_t n, int mode,
                     unsigned int timeout_ms, pwv_error *error);

/* Asks whether the default collection is locked. Returns 0 (unlocked), PWV_SECRET_LOCKED or a
 * failure (PWV_SECRET_ERR_NO_DEFAULT when there is no default collection). */
int pwv_secret_is_locked(unsigned int timeout_ms, pwv_error *error);
