/* pwv_deadline.c: see include/pwv_deadline.h for why a thread. */
#include <string.h>

#include "pwv_deadline.h"

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
