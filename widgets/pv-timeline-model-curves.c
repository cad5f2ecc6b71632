/* pv-timeline-model-curves.c: the timeline model's live-bytes curves: the
 * schedule's, or owners' bytes over program order without a plan. */
#include "pv-timeline-model-private.h"

#include <stdlib.h>

typedef struct {
  double time;
  gint64 delta;
} CurveEvent;

static int
compare_curve_events (const void *a, const void *b)
{
  const CurveEvent *x = a, *y = b;
  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  return (x->delta > y->delta) - (x->delta < y->delta);
}

static void
set_curve_lane (PvTimelineModel *m, int i)
{
  PvTimelineLane *lane = &m->curve_lanes[i];
  g_autofree char *peak = pv_timeline_format_bytes (m->curves[i].peak_bytes);

  lane->kind = PV_TIMELINE_LANE_CURVE;
  lane->id = i;
  lane->device = m->curves[i].device;
  lane->bytes = m->curves[i].peak_bytes;
  lane->n = m->curves[i].n_points;
  lane->label = g_strdup_printf ("live bytes · %s", pv_timeline_device_name (m->curves[i].device));
  lane->detail = m->sizes_incomplete ? g_strdup_printf ("at least %s", peak)
                                     : g_strdup_printf ("peak %s", peak);
}

void
pv_timeline_build_curves (Builder *b)
{
  PvTimelineModel *m = b->m;
  const PvSchedule *sched = b->src->schedule;

  if (sched)
    {
      m->n_curves = sched->n_curves;
      m->curves = g_new0 (PvTimelineCurve, MAX (m->n_curves, 1));
      for (int c = 0; c < sched->n_curves; c++)
        {
          const PvLiveCurve *in = &sched->curves[c];
          PvTimelineCurve *out = &m->curves[c];
          out->device = in->device;
          out->n_points = in->n_points;
          out->times = g_new (double, MAX (in->n_points, 1));
          out->bytes = g_new (guint64, MAX (in->n_points, 1));
          for (int i = 0; i < in->n_points; i++)
            {
              out->times[i] = in->points[i].time;
              out->bytes[i] = in->points[i].bytes;
            }
          out->peak_bytes = in->peak_bytes;
          out->peak_time = in->peak_time;
        }
    }
  else
    {
      /* Owners' bytes over program order, as LOAD counts them. */
      const PvGraph *g = b->g;
      g_autoptr (GArray) events = g_array_new (FALSE, FALSE, sizeof (CurveEvent));
      PvTimelineCurve *out;
      gint64 live = 0;
      int n = 0;

      for (int v = 0; v < g->n_values; v++)
        {
          CurveEvent e;
          if (b->view_root[v] != v || b->bytes[v] == 0 || g->values[v].producer < 0 || b->value_spans[v].start < 0)
            continue;
          e = (CurveEvent) { b->value_spans[v].start, (gint64) b->bytes[v] };
          g_array_append_val (events, e);
          e = (CurveEvent) { b->value_spans[v].end, -(gint64) b->bytes[v] };
          g_array_append_val (events, e);
        }
      if (events->len == 0)
        {
          m->curves = g_new0 (PvTimelineCurve, 1);
          m->curve_lanes = g_new0 (PvTimelineLane, 1);
          return;
        }
      qsort (events->data, events->len, sizeof (CurveEvent), compare_curve_events);
      m->n_curves = 1;
      m->curves = out = g_new0 (PvTimelineCurve, 1);
      out->times = g_new (double, events->len);
      out->bytes = g_new (guint64, events->len);
      for (guint i = 0; i < events->len; i++)
        {
          const CurveEvent *e = &g_array_index (events, CurveEvent, i);
          live += e->delta;
          if (n > 0 && out->times[n - 1] == e->time)
            n--;
          out->times[n] = e->time;
          out->bytes[n] = (guint64) MAX (live, 0);
          n++;
          if ((guint64) live > out->peak_bytes)
            {
              out->peak_bytes = (guint64) live;
              out->peak_time = e->time;
            }
        }
      out->n_points = n;
    }
  m->curve_lanes = g_new0 (PvTimelineLane, MAX (m->n_curves, 1));
  for (int c = 0; c < m->n_curves; c++)
    set_curve_lane (m, c);
}

