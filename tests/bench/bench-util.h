/* bench-util.h: what the benchmark programs share: sorting timings, and
 * timing how fast a cancellable run stops. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Sorts @n timings ascending (best first, median at n / 2). */
void bench_sort (double *ms, int n);

/* The first member of a cancellable run's data: the run reads
 * @cancellable and sets @returned (g_get_monotonic_time()) when it returns. */
typedef struct {
  GCancellable *cancellable;
  gint64 returned;
} BenchCancel;

/* How long @func takes to stop once cancelled: runs it in a thread on @run
 * nine times, cancelled at 10%, 20%, ... 90% of @full_ms, each with a
 * fresh cancellable; @ms gets the time from each cancel to the return (0
 * when it had returned before). */
void bench_cancel_latencies (GThreadFunc func, BenchCancel *run, double full_ms, double ms[9]);

G_END_DECLS
