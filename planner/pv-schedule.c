#include "pv-schedule.h"

#include <string.h>

void
pv_schedule_free (PvSchedule *s)
{
  if (s == NULL)
    return;
  for (int i = 0; i < s->n_streams; i++)
    g_free (s->step_spans[i]);
  g_free (s->step_spans);
  g_free (s->node_spans);
  g_free (s->value_spans);
  for (int i = 0; i < s->n_curves; i++)
    g_free (s->curves[i].points);
  g_free (s->curves);
  g_free (s->sync_edges);
  g_free (s);
}

typedef struct {
  double time;
  gint64 delta;
  int device;
} Event;

/* Events by device, then time; frees before allocations at the same
 * instant: a reader's end and the next writer's start may touch. Events
 * equal in all three are interchangeable. */
static inline gboolean
event_before (const Event *x, const Event *y)
{
  if (x->device != y->device)
    return x->device < y->device;
  if (x->time != y->time)
    return x->time < y->time;
  return x->delta < y->delta;
}

/* Sorts @events (bottom-up merge sort: qsort's callback and byte-wise
 * element moves cost more than the comparisons, with 2 events per value). */
static void
sort_events (Event *events, gsize n)
{
  g_autofree Event *tmp = g_new (Event, MAX (n, 1));
  Event *from = events, *to = tmp;

  for (gsize width = 1; width < n; width *= 2)
    {
      for (gsize lo = 0; lo < n; lo += 2 * width)
        {
          gsize mid = MIN (lo + width, n), hi = MIN (lo + 2 * width, n), i = lo, j = mid, k = lo;
          while (i < mid && j < hi)
            to[k++] = event_before (&from[j], &from[i]) ? from[j++] : from[i++];
          while (i < mid)
            to[k++] = from[i++];
          while (j < hi)
            to[k++] = from[j++];
        }
      {
        Event *swap = from;
        from = to;
        to = swap;
      }
    }
  if (from != events)
    memcpy (events, from, sizeof (Event) * n);
}

/* Runs the streams: each advances while its next step's dependency has
 * happened; the time of a step is the later of its stream's clock and the
 * time its dependency happened. */
static void
simulate (PvSchedule *s, const PvOrtPlan *plan, PvNodeCost cost, gpointer cost_data)
{
  int n_streams = plan->n_streams;
  g_autofree int *cursor = g_new0 (int, MAX (n_streams, 1));
  g_autofree double *clock = g_new0 (double, MAX (n_streams, 1));
  g_autofree double *trigger_time = g_new (double, MAX (plan->n_trigger_points, 1));
  g_autofree double *notify_time = g_new (double, MAX (plan->n_notifications, 1));
  g_autofree int *step_base = g_new (int, n_streams + 1);
  g_autofree int *barrier_trigger = NULL;
  gboolean progress = TRUE;

  for (int t = 0; t < plan->n_trigger_points; t++)
    trigger_time[t] = -1;
  for (int i = 0; i < plan->n_notifications; i++)
    notify_time[i] = -1;
  /* Which trigger point releases each barrier step: t + 1, 0 for none, at
   * step_base[stream] + step. */
  step_base[0] = 0;
  for (int st = 0; st < n_streams; st++)
    step_base[st + 1] = step_base[st] + plan->streams[st].n_steps;
  barrier_trigger = g_new0 (int, MAX (step_base[n_streams], 1));
  for (int t = 0; t < plan->n_trigger_points; t++)
    for (int k = plan->downstream_start[t]; k < plan->downstream_start[t + 1]; k++)
      {
        const PvOrtStepRef *ref = &plan->downstream[k];
        if (ref->stream >= 0 && ref->stream < n_streams && ref->step >= 0
            && ref->step < plan->streams[ref->stream].n_steps)
          barrier_trigger[step_base[ref->stream] + ref->step] = t + 1;
      }

  while (progress)
    {
      progress = FALSE;
      for (int st = 0; st < n_streams; st++)
        {
          const PvOrtLogicStream *stream = &plan->streams[st];
          while (cursor[st] < stream->n_steps)
            {
              const PvOrtStep *step = &stream->steps[cursor[st]];
              double begin = clock[st], duration = 0;
              if (step->kind == PV_ORT_STEP_BARRIER)
                {
                  int t = barrier_trigger[step_base[st] + cursor[st]] - 1;
                  if (t >= 0 && trigger_time[t] < 0)
                    break;  /* wait for the trigger */
                  if (t >= 0)
                    begin = MAX (begin, trigger_time[t]);
                }
              else if (step->kind == PV_ORT_STEP_WAIT_ON_EP)
                {
                  if (step->id >= 0 && step->id < plan->n_notifications)
                    {
                      if (notify_time[step->id] < 0)
                        break;
                      begin = MAX (begin, notify_time[step->id]);
                    }
                }
              else if (step->kind == PV_ORT_STEP_LAUNCH_KERNEL)
                duration = cost ? cost (cost_data, plan->graph, step->node) : 1.0;
              s->step_spans[st][cursor[st]] = (PvSpan) { begin, begin + duration };
              clock[st] = begin + duration;
              if (step->kind == PV_ORT_STEP_LAUNCH_KERNEL)
                s->node_spans[step->node] = s->step_spans[st][cursor[st]];
              else if (step->kind == PV_ORT_STEP_TRIGGER_DOWNSTREAM && step->id >= 0 &&
                       step->id < plan->n_trigger_points)
                trigger_time[step->id] = clock[st];
              else if (step->kind == PV_ORT_STEP_ACTIVATE_NOTIFICATION && step->id >= 0 &&
                       step->id < plan->n_notifications)
                notify_time[step->id] = clock[st];
              cursor[st]++;
              progress = TRUE;
            }
        }
    }
  for (int st = 0; st < n_streams; st++)
    {
      if (cursor[st] < plan->streams[st].n_steps)
        s->deadlock = TRUE;
      s->makespan = MAX (s->makespan, clock[st]);
    }
}

static void
collect_sync_edges (PvSchedule *s, const PvOrtPlan *plan)
{
  int n_edges = plan->n_trigger_points > 0 ? plan->downstream_start[plan->n_trigger_points] : 0;
  g_autofree int *trigger_owner = g_new (int, MAX (plan->n_trigger_points, 1));
  g_autofree int *notification_node = g_new (int, MAX (plan->n_notifications, 1));

  for (int n = 0; n < plan->n_nodes; n++)
    {
      if (plan->node_trigger_point[n] >= 0)
        trigger_owner[plan->node_trigger_point[n]] = n;
      if (plan->node_notification[n] >= 0)
        notification_node[plan->node_notification[n]] = n;
    }
  /* WaitOnEP steps only exist with notifications. */
  for (int st = 0; st < plan->n_streams && plan->n_notifications > 0; st++)
    for (int i = 0; i < plan->streams[st].n_steps; i++)
      {
        const PvOrtStep *step = &plan->streams[st].steps[i];
        n_edges += step->kind == PV_ORT_STEP_WAIT_ON_EP && step->id >= 0 && step->id < plan->n_notifications;
      }
  s->sync_edges = g_malloc_n (MAX (n_edges, 1), sizeof (int[2]));
  for (int t = 0; t < plan->n_trigger_points; t++)
    for (int k = plan->downstream_start[t]; k < plan->downstream_start[t + 1]; k++)
      {
        const PvOrtStepRef *ref = &plan->downstream[k];
        s->sync_edges[s->n_sync_edges][0] = trigger_owner[t];
        s->sync_edges[s->n_sync_edges++][1] = plan->streams[ref->stream].steps[ref->step].node;
      }
  for (int st = 0; st < plan->n_streams && plan->n_notifications > 0; st++)
    for (int i = 0; i < plan->streams[st].n_steps; i++)
      {
        const PvOrtStep *step = &plan->streams[st].steps[i];
        if (step->kind == PV_ORT_STEP_WAIT_ON_EP && step->id >= 0 && step->id < plan->n_notifications)
          {
            s->sync_edges[s->n_sync_edges][0] = notification_node[step->id];
            s->sync_edges[s->n_sync_edges++][1] = step->node;
          }
      }
}

static void
live_intervals (PvSchedule *s, const PvGraph *g)
{
  for (int v = 0; v < g->n_values; v++)
    s->value_spans[v] = (PvSpan) { -1, -1 };
  for (int v = 0; v < g->n_values; v++)
    {
      const PvValue *value = &g->values[v];
      if (value->producer >= 0)
        s->value_spans[v] = s->node_spans[value->producer];
      else if (!(value->flags & (PV_VALUE_INITIALIZER | PV_VALUE_OUTER_SCOPE)))
        s->value_spans[v] = (PvSpan) { 0, 0 };
    }
  for (int n = 0; n < g->n_nodes; n++)
    {
      const PvNode *node = &g->nodes[n];
      for (int k = 0; k < node->n_inputs + node->n_implicit_inputs; k++)
        {
          int v = k < node->n_inputs ? node->inputs[k] : node->implicit_inputs[k - node->n_inputs];
          if (v >= 0 && s->value_spans[v].start >= 0)
            s->value_spans[v].end = MAX (s->value_spans[v].end, s->node_spans[n].end);
        }
    }
  for (int i = 0; i < g->n_outputs; i++)
    if (s->value_spans[g->outputs[i]].start >= 0)
      s->value_spans[g->outputs[i]].end = s->makespan;
}

static void
live_curves (PvSchedule *s, const PvGraph *g, const guint64 *bytes, const int *device)
{
  g_autofree Event *events = NULL;
  gsize n_events = 0;

  for (int v = 0; bytes && v < g->n_values; v++)
    n_events += bytes[v] != 0 && s->value_spans[v].start >= 0 ? 2 : 0;
  events = g_new (Event, MAX (n_events, 1));
  n_events = 0;
  for (int v = 0; bytes && v < g->n_values; v++)
    {
      int dev = device ? device[v] : 0;
      if (bytes[v] == 0 || s->value_spans[v].start < 0)
        continue;
      events[n_events++] = (Event) { s->value_spans[v].start, (gint64) bytes[v], dev };
      events[n_events++] = (Event) { s->value_spans[v].end, -(gint64) bytes[v], dev };
    }
  sort_events (events, n_events);

  for (gsize i = 0; i < n_events; i++)
    s->n_curves += i == 0 || events[i].device != events[i - 1].device;
  s->curves = g_new0 (PvLiveCurve, MAX (s->n_curves, 1));
  for (gsize i = 0, c = 0; i < n_events; c++)
    {
      PvLiveCurve *curve = &s->curves[c];
      gsize first = i;
      gint64 live = 0;

      curve->device = events[i].device;
      while (i < n_events && events[i].device == curve->device)
        i++;
      curve->points = g_new (PvCurvePoint, i - first);
      for (gsize k = first; k < i; k++)
        {
          const Event *e = &events[k];
          PvCurvePoint p;
          live += e->delta;
          p.time = e->time;
          p.bytes = (guint64) MAX (live, 0);
          /* One point per instant: the last event at a time wins. */
          if (curve->n_points > 0 && curve->points[curve->n_points - 1].time == p.time)
            curve->points[curve->n_points - 1] = p;
          else
            curve->points[curve->n_points++] = p;
          if ((guint64) live > curve->peak_bytes)
            {
              curve->peak_bytes = (guint64) live;
              curve->peak_time = e->time;
            }
        }
      curve->points = g_renew (PvCurvePoint, curve->points, MAX (curve->n_points, 1));
    }
}

PvSchedule *
pv_schedule_new (const PvOrtPlan *plan, const guint64 *value_bytes, const int *value_device, PvNodeCost cost,
                 gpointer cost_data)
{
  PvSchedule *s = g_new0 (PvSchedule, 1);
  const PvGraph *g = plan->graph;

  s->n_streams = plan->n_streams;
  s->step_spans = g_new0 (PvSpan *, MAX (plan->n_streams, 1));
  for (int st = 0; st < plan->n_streams; st++)
    {
      s->step_spans[st] = g_new (PvSpan, MAX (plan->streams[st].n_steps, 1));
      for (int i = 0; i < plan->streams[st].n_steps; i++)
        s->step_spans[st][i] = (PvSpan) { -1, -1 };
    }
  s->node_spans = g_new (PvSpan, MAX (g->n_nodes, 1));
  for (int n = 0; n < g->n_nodes; n++)
    s->node_spans[n] = (PvSpan) { -1, -1 };
  s->value_spans = g_new (PvSpan, MAX (g->n_values, 1));
  simulate (s, plan, cost, cost_data);
  collect_sync_edges (s, plan);
  live_intervals (s, g);
  live_curves (s, g, value_bytes, value_device);
  return s;
}
