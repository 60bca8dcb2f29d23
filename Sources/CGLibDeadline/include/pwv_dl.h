/* pwv_dl: GLib, GIO and libsecret are loaded with dlopen at their first use, not linked, so that a
 * command that never touches the keyring or the desktop (`--version`, `help`, `list --help` …) does
 * not map and relocate the dozen libraries they pull in (libmount, libselinux, libgcrypt, libpcre2 …:
 * about 3,000 symbol bindings, most of pwnvault's start-up time). The shims call GLib through tables
 * of function pointers that this fills; their source still reads as plain GLib calls (a #define per
 * function redirects each name to its table slot). Not for Swift. */
#pragma once
#include <stddef.h>

/* Opens `library` (a soname, e.g. "libsecret-1.so.0"; dlopen returns the same handle on later calls)
 * and resolves names[i] into slots[i] for i < n, looking through the library and what it depends on.
 * 0 on success; -1 with a reason in err (never NULL-terminated short of err_cap) otherwise. */
int pwv_dl_resolve(const char *library, const char *const *names, void **slots, size_t n,
                   char *err, size_t err_cap);
