/* pwv_deadline.c: see include/pwv_deadline.h for why a thread. */
#include <string.h>

#include "pwv_deadline.h"
#include "pwv_dl.h"

/* GLib through function pointers, filled from libgio-2.0.so.0 at the first call (pwv_dl.h says why).
 * Every name below is redirected to its slot, so the code reads as plain GLib. */
#define PWV_DEADLINE_API(X) \
    X(g_cancellable_cancel) \
    X(g_cancellable_new) \
    X(g_cond_clear) \
    X(g_cond_init) \
    X(g_cond_signal) \
    X(g_cond_wait_until) \
    X(g_get_monotonic_time) \
    X(g_mutex_clear) \
    X(g_mutex_init) \
    X(g_mutex_lock) \
    X(g_mutex_unlock) \
    X(g_object_unref) \
    X(g_thread_join) \
    X(g_thread_try_new)
PWV_DL_API(PWV_DEADLINE_API, "libgio-2.0.so.0")
#undef g_cancellable_cancel
#define g_cancellable_cancel api.g_cancellable_cancel
#undef g_cancellable_new
#define g_cancellable_new api.g_cancellable_new
#undef g_cond_clear
#define g_cond_clear api.g_cond_clear
#undef g_cond_init
#define g_cond_init api.g_cond_init
#undef g_cond_signal
#define g_cond_signal api.g_cond_signal
#undef g_cond_wait_until
#define g_cond_wait_until api.g_cond_wait_until
#undef g_get_monotonic_time
#define g_get_monotonic_time api.g_get_monotonic_time
#undef g_mutex_clear
#define g_mutex_clear api.g_mutex_clear
#undef g_mutex_init
#define g_mutex_init api.g_mutex_init
#undef g_mutex_lock
#define g_mutex_lock api.g_mutex_lock
#undef g_mutex_unlock
#define g_mutex_unlock api.g_mutex_unlock
#undef g_object_unref
#define g_object_unref api.g_object_unref
#undef g_thread_join
#define g_thread_join api.g_thread_join
#undef g_thread_try_new
#define g_thread_try_new api.g_thread_try_new

static gpointer deadline_main(gpointer data) {
    pwv_deadline *d = data;
    gboolean fire = FALSE;
    g_mutex_lock(&d->lock);
    while (!d->finished) {
        if (!g_cond_wait_until(&d->wake, &d->lock, d->end_time)) {
            fire = !d->finished;
            d->fired = fire;
            break;
        }
    }
    g_mutex_unlock(&d->lock);
    if (fire) g_cancellable_cancel(d->cancellable);
    return NULL;
}

gboolean pwv_deadline_start(pwv_deadline *d, unsigned int timeout_ms) {
    memset(d, 0, sizeof *d);
    if (!api_ready()) return FALSE;
    d->cancellable = g_cancellable_new();
    g_mutex_init(&d->lock);
    g_cond_init(&d->wake);
    d->end_time = g_get_monotonic_time() + (gint64)timeout_ms * 1000;
    d->thread = g_thread_try_new("pwv-deadline", deadline_main, d, NULL);
    if (d->thread == NULL) {
        g_object_unref(d->cancellable);
        g_mutex_clear(&d->lock);
        g_cond_clear(&d->wake);
        return FALSE;
    }
    return TRUE;
}

gint pwv_deadline_left_ms(const pwv_deadline *d) {
    gint64 left = (d->end_time - g_get_monotonic_time()) / 1000;
    return left < 1 ? 1 : (gint)left;
}

gboolean pwv_deadline_stop(pwv_deadline *d) {
    g_mutex_lock(&d->lock);
    d->finished = TRUE;
    g_cond_signal(&d->wake);
    g_mutex_unlock(&d->lock);
    g_thread_join(d->thread);
    gboolean fired = d->fired;
    g_object_unref(d->cancellable);
    g_mutex_clear(&d->lock);
    g_cond_clear(&d->wake);
    return fired;
}
