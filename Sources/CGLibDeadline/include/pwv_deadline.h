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
 *     pwv_deadline d;
 *     if (!pwv_deadline_start(&d, timeout_ms)) → no thread;
 *     … some_call_sync(…, d.cancellable, &error) …
 *     gboolean fired = pwv_deadline_stop(&d);   → TRUE: the deadline passed and cancelled it
 */
#pragma once
#include <gio/gio.h>

typedef struct pwv_deadline {
    GCancellable *cancellable;  /* pass it to every call made under the deadline */
    GMutex lock;
    GCond wake;
    gint64 end_time;            /* g_get_monotonic_time() units (µs) */
    gboolean finished;
    gboolean fired;
    GThread *thread;
} pwv_deadline;

/* Starts the timer. FALSE (nothing to stop or free) when no thread could be made. */
gboolean pwv_deadline_start(pwv_deadline *d, unsigned int timeout_ms);

/* Milliseconds left before the deadline, at least 1 (a GDBus timeout of 0 would mean "default"). */
gint pwv_deadline_left_ms(const pwv_deadline *d);

/* Stops the timer and frees what start made; returns TRUE when it had already fired. */
gboolean pwv_deadline_stop(pwv_deadline *d);
