#include "bench-util.h"

#include <stdlib.h>

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

void
bench_sort (double *ms, int n)
{
  qsort (ms, n, sizeof (double), compare_doubles);
}

void
bench_cancel_latencies (GThreadFunc func, BenchCancel *run, double full_ms, double ms[9])
{
  for (int i = 0; i < 9; i++)
    {
      GThread *thread;
      gint64 cancelled;

      run->cancellable = g_cancellable_new ();
      run->returned = 0;
      thread = g_thread_new ("bench-cancel", func, run);
      g_usleep ((gulong) (full_ms * 1000 * (i + 1) / 10));
      cancelled = g_get_monotonic_time ();
      g_cancellable_cancel (run->cancellable);
      g_thread_join (thread);
      ms[i] = run->returned > cancelled ? (run->returned - cancelled) / 1000.0 : 0;
      g_clear_object (&run->cancellable);
    }
}
