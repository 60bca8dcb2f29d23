/* pwv_dl: GLib, GIO and libsecret are loaded with dlopen at their first use, not linked, so that a
 * command that never touches the keyring or the desktop (`--version`, `help`, `list --help` …) does
 * not map and relocate the dozen libraries they pull in (libmount, libselinux, libgcrypt, libpcre2 …:
 * about 3,000 symbol bindings, most of pwnvault's start-up time). The shims call GLib through tables
 * of function pointers that this fills; their source still reads as plain GLib calls (a #define per
 * function redirects each name to its table slot). Not for Swift. */
#pragma once
#include <pthread.h>
#include <stddef.h>

/* Opens `library` (a soname, e.g. "libsecret-1.so.0"; dlopen returns the same handle on later calls)
 * and resolves names[i] into slots[i] for i < n, looking through the library and what it depends on.
 * 0 on success; -1 with a reason in err (never NULL-terminated short of err_cap) otherwise. */
int pwv_dl_resolve(const char *library, const char *const *names, void **slots, size_t n,
                   char *err, size_t err_cap);

/* Declares, in a shim's .c file: `api`, a struct with one pointer per function named in LIST (an
 * X-macro: #define LIST(X) X(g_free) X(g_strlcpy) …), typed as the function; `api_error`; and
 * `api_ready()`, which loads LIBRARY and fills `api` once (pthread_once) and returns 0 when that
 * failed (api_error says why). The file then redirects each name: #define g_free api.g_free. */
#define PWV_DL_SLOT(f) __typeof__(&f) f;
#define PWV_DL_NAME(f) #f,
#define PWV_DL_API(LIST, LIBRARY)                                                                    \
    static struct { LIST(PWV_DL_SLOT) } api;                                                         \
    static const char *const api_names[] = { LIST(PWV_DL_NAME) };                                   \
    static pthread_once_t api_once = PTHREAD_ONCE_INIT;                                              \
    static int api_status = -1;                                                                      \
    static char api_error[200];                                                                      \
    static void api_load(void) {                                                                     \
        api_status = pwv_dl_resolve(LIBRARY, api_names, (void **)&api,                               \
                                    sizeof api_names / sizeof *api_names, api_error, sizeof api_error); \
    }                                                                                                \
    static int api_ready(void) {                                                                     \
        pthread_once(&api_once, api_load);                                                           \
        return api_status == 0;                                                                      \
    }
