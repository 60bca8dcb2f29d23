/* pwv_deadline: a GCancellable that a deadline cancels, for the shims' synchronous GLib calls
 * (pwv_secret.c: libsecret; pwv_notify.c: GDBus). Not for Swift: the shims use it in C.
 *
 * Why a thread: libsecret's and GDBus's *_sync calls run a private GMainContext of their own (or
 * block in a socket read), so a timeout source cannot be attached from outside; and a daemon or
 * bus that was stopped (SIGSTOP) or wedged never answers, so without a cancel the call waits
 * forever. A small thread sleeps until the deadline (monotonic clock) and cancels the
 * GCancellable unless the call finished first. g_cancellable_cancel is thread-safe; GLib then
 * returns G_IO_ERROR_CANCELLED from whatever it was waiting for.
 *
 * Why POSIX threads and not GLib's: GMutex and GCond are futex calls inside libglib, which no
 * sanitizer instruments, so ThreadSanitizer could not see the lock around `finished` and `fired`
 * and reported every deadline as a race. pthread_mutex_t and pthread_cond_t are intercepted by
 * TSan, which then checks this code like any other; the thread is a plain pthread too, so every
 * point where the two threads meet (create, lock, wait, signal, join) is a call TSan sees.
 *
 *     pwv_deadline d;
 *     if (!pwv_deadline_start(&d, timeout_ms)) → no thread;
 *     … some_call_sync(…, d.cancellable, &error) …
 *     gboolean fired = pwv_deadline_stop(&d);   → TRUE: the deadline passed and cancelled it
 */
#pragma once
#include <gio/gio.h>
#include <pthread.h>

typedef struct pwv_deadline {
    GCancellable *cancellable;  /* pass it to every call made under the deadline */
    pthread_mutex_t lock;       /* guards finished and fired */
    pthread_cond_t wake;        /* on CLOCK_MONOTONIC; signalled when the call finished */
    gint64 end_time;            /* g_get_monotonic_time() units (µs, CLOCK_MONOTONIC) */
    gboolean finished;
    gboolean fired;
    pthread_t thread;
} pwv_deadline;

/* Starts the timer. FALSE (nothing to stop or free) when no thread could be made. */
gboolean pwv_deadline_start(pwv_deadline *d, unsigned int timeout_ms);

/* Milliseconds left before the deadline, at least 1 (a GDBus timeout of 0 would mean "default"). */
gint pwv_deadline_left_ms(const pwv_deadline *d);

/* Stops the timer and frees what start made; returns TRUE when it had already fired. */
gboolean pwv_deadline_stop(pwv_deadline *d);
