/* pwv_dl.c: see include/pwv_dl.h for why GLib is loaded at first use. */
#include <dlfcn.h>
#include <stdio.h>

#include "pwv_dl.h"

int pwv_dl_resolve(const char *library, const char *const *names, void **slots, size_t n,
                   char *err, size_t err_cap) {
    /* RTLD_LOCAL: nothing else in the process resolves against it. Never closed (GLib keeps
     * threads and type registrations that must outlive any one call). */
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *why = dlerror();
        snprintf(err, err_cap, "cannot load %s: %s", library, why != NULL ? why : "unknown error");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        slots[i] = dlsym(handle, names[i]);
        if (slots[i] == NULL) {
            snprintf(err, err_cap, "%s has no %s", library, names[i]);
            return -1;
        }
    }
    return 0;
}
