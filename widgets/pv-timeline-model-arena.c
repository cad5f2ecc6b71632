/* pv-timeline-model-arena.c: ORT's CPU arena curves of the timeline model. */
#include "pv-timeline-model.h"

#include <string.h>

void
pv_timeline_arena_build (PvTimelineArena *a, const PvOrtArenaRun *run, const PvSchedule *schedule)
{
  int n = 0;

  memset (a, 0, sizeof *a);
  if (run == NULL || schedule == NULL || run->n_records == 0)
    return;
  a->times = g_new (double, run->n_records);
  a->requested = g_new (guint64, run->n_records);
  a->in_use = g_new (guint64, run->n_records);
  a->held = g_new (guint64, run->n_records);
  for (int k = 0; k < run->n_records; k++)
    {
      const PvOrtArenaRecord *r = &run->first[k];
      double t = schedule->node_spans[r->node].start;
      if (t < 0)
        continue;
      /* Several streams interleave: keep the points in time order. */
      if (n > 0 && t < a->times[n - 1])
        t = a->times[n - 1];
      a->times[n] = t;
      a->requested[n] = r->requested_in_use;
      a->in_use[n] = r->in_use_max;
      a->held[n] = r->held;
      a->max_requested = MAX (a->max_requested, r->requested_in_use);
      a->max_in_use = MAX (a->max_in_use, r->in_use_max);
      a->max_held = MAX (a->max_held, r->held);
      n++;
    }
  a->n_points = n;
  a->has_pattern = run->has_pattern;
  a->pattern_held = run->second_held;
}

void
pv_timeline_arena_clear (PvTimelineArena *a)
{
  g_free (a->times);
  g_free (a->requested);
  g_free (a->in_use);
  g_free (a->held);
  memset (a, 0, sizeof *a);
}
