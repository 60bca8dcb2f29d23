/* pwv_deadline.c: see include/pwv_deadline.h for why a thread, and why POSIX threads. */
#define _GNU_SOURCE /* pthread_setname_np */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "pwv_deadline.h"
#include "pwv_dl.h"

/* GLib through function pointers, filled from libgio-2.0.so.0 at the first call (pwv_dl.h says why).
 * Every name below is redirected to its slot, so the code reads as plain GLib. The lock, the
 * condition and the thread are POSIX (the header says why). */
#define PWV_DEADLINE_API(X) \
    X(g_cancellable_cancel) \
    X(g_cancellable_new) \
    X(g_get_monotonic_time) \
    X(g_object_unref)
PWV_DL_API(PWV_DEADLINE_API, "libgio-2.0.so.0")
#undef g_cancellable_cancel
#define g_cancellable_cancel api.g_cancellable_cancel
#undef g_cancellable_new
#define g_cancellable_new api.g_cancellable_new
#undef g_get_monotonic_time
#define g_get_monotonic_time api.g_get_monotonic_time
#undef g_object_unref
#define g_object_unref api.g_object_unref

static void *deadline_main(void *data) {
    pwv_deadline *d = data;
    /* g_get_monotonic_time() is CLOCK_MONOTONIC in µs on Linux, the clock `wake` waits on. */
    struct timespec end = {.tv_sec = (time_t)(d->end_time / G_USEC_PER_SEC),
                           .tv_nsec = (long)(d->end_time % G_USEC_PER_SEC) * 1000};
    gboolean fire = FALSE;
    pthread_mutex_lock(&d->lock);
    while (!d->finished) {
        if (pthread_cond_timedwait(&d->wake, &d->lock, &end) == ETIMEDOUT) {
            fire = !d->finished;
            d->fired = fire;
            break;
        }
    }
    pthread_mutex_unlock(&d->lock);
    if (fire) g_cancellable_cancel(d->cancellable);
    return NULL;
}

gboolean pwv_deadline_start(pwv_deadline *d, unsigned int timeout_ms) {
    memset(d, 0, sizeof *d);
    if (!api_ready()) return FALSE;
    pthread_condattr_t attr;
    if (pthread_condattr_init(&attr) != 0) return FALSE;
    gboolean ok = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 && pthread_cond_init(&d->wake, &attr) == 0;
    pthread_condattr_destroy(&attr);
    if (!ok) return FALSE;
    if (pthread_mutex_init(&d->lock, NULL) != 0) {
        pthread_cond_destroy(&d->wake);
        return FALSE;
    }
    d->cancellable = g_cancellable_new();
    d->end_time = g_get_monotonic_time() + (gint64)timeout_ms * 1000;
    /* The new thread inherits the caller's signal mask, as a GThread did. */
    if (pthread_create(&d->thread, NULL, deadline_main, d) != 0) {
        g_object_unref(d->cancellable);
        pthread_mutex_destroy(&d->lock);
        pthread_cond_destroy(&d->wake);
        return FALSE;
    }
    pthread_setname_np(d->thread, "pwv-deadline");   /* what `ps -L` and a debugger show, as before */
    return TRUE;
}

gint pwv_deadline_left_ms(const pwv_deadline *d) {
    gint64 left = (d->end_time - g_get_monotonic_time()) / 1000;
    return left < 1 ? 1 : (gint)left;
}

gboolean pwv_deadline_stop(pwv_deadline *d) {
    pthread_mutex_lock(&d->lock);
    d->finished = TRUE;
    pthread_cond_signal(&d->wake);
    pthread_mutex_unlock(&d->lock);
    pthread_join(d->thread, NULL);
    gboolean fired = d->fired;   /* the thread has ended: the join orders its last write before this */
    g_object_unref(d->cancellable);
    pthread_mutex_destroy(&d->lock);
    pthread_cond_destroy(&d->wake);
    return fired;
}
