#include "pv-schedule.h"

#include <stdlib.h>

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

static int
compare_events (const void *a, const void *b)
{
  const Event *x = a, *y = b;
  if (x->device != y->device)
    return x->device - y->device;
  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  /* Frees before allocations at the same instant: a reader's end and the
   * next writer's start may touch. */
  return (x->delta > y->delta) - (x->delta < y->delta);
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
  g_autoptr (GHashTable) barrier_trigger = g_hash_table_new (g_direct_hash, g_direct_equal);
  gboolean progress = TRUE;

  for (int t = 0; t < plan->n_trigger_points; t++)
    trigger_time[t] = -1;
  for (int i = 0; i < plan->n_notifications; i++)
    notify_time[i] = -1;
  /* Which trigger point releases each barrier step: (stream, step) -> t + 1. */
  for (int t = 0; t < plan->n_trigger_points; t++)
    for (int k = plan->downstream_start[t]; k < plan->downstream_start[t + 1]; k++)
      g_hash_table_insert (barrier_trigger,
                           GINT_TO_POINTER (plan->downstream[k].stream * 1000003 + plan->downstream[k].step),
                           GINT_TO_POINTER (t + 1));

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
                  int t = GPOINTER_TO_INT (g_hash_table_lookup (barrier_trigger,
                                                                GINT_TO_POINTER (st * 1000003 + cursor[st]))) - 1;
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
  GArray *edges = g_array_new (FALSE, FALSE, sizeof (int[2]));
  g_autofree int *trigger_owner = g_new (int, MAX (plan->n_trigger_points, 1));
  g_autofree int *notification_node = g_new (int, MAX (plan->n_notifications, 1));

  for (int n = 0; n < plan->n_nodes; n++)
    {
      if (plan->node_trigger_point[n] >= 0)
        trigger_owner[plan->node_trigger_point[n]] = n;
      if (plan->node_notification[n] >= 0)
        notification_node[plan->node_notification[n]] = n;
    }
  for (int t = 0; t < plan->n_trigger_points; t++)
    for (int k = plan->downstream_start[t]; k < plan->downstream_start[t + 1]; k++)
      {
        const PvOrtStepRef *ref = &plan->downstream[k];
        int edge[2] = { trigger_owner[t], plan->streams[ref->stream].steps[ref->step].node };
        g_array_append_val (edges, edge);
      }
  for (int st = 0; st < plan->n_streams; st++)
    for (int i = 0; i < plan->streams[st].n_steps; i++)
      {
        const PvOrtStep *step = &plan->streams[st].steps[i];
        if (step->kind == PV_ORT_STEP_WAIT_ON_EP && step->id >= 0 && step->id < plan->n_notifications)
          {
            int edge[2] = { notification_node[step->id], step->node };
            g_array_append_val (edges, edge);
          }
      }
  s->n_sync_edges = (int) edges->len;
  s->sync_edges = (int (*)[2]) g_array_free (edges, FALSE);
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
  g_autoptr (GArray) events = g_array_new (FALSE, FALSE, sizeof (Event));
  GArray *curves = g_array_new (FALSE, TRUE, sizeof (PvLiveCurve));

  for (int v = 0; v < g->n_values; v++)
    {
      Event e;
      if (bytes == NULL || bytes[v] == 0 || s->value_spans[v].start < 0)
        continue;
      e.device = device ? device[v] : 0;
      e.time = s->value_spans[v].start;
      e.delta = (gint64) bytes[v];
      g_array_append_val (events, e);
      e.time = s->value_spans[v].end;
      e.delta = -(gint64) bytes[v];
      g_array_append_val (events, e);
    }
  if (events->len > 0)
    qsort (events->data, events->len, sizeof (Event), compare_events);
  for (guint i = 0; i < events->len;)
    {
      int dev = g_array_index (events, Event, i).device;
      GArray *points = g_array_new (FALSE, FALSE, sizeof (PvCurvePoint));
      PvLiveCurve curve = { dev, NULL, 0, 0, 0 };
      gint64 live = 0;
      for (; i < events->len && g_array_index (events, Event, i).device == dev; i++)
        {
          const Event *e = &g_array_index (events, Event, i);
          PvCurvePoint p;
          live += e->delta;
          p.time = e->time;
          p.bytes = (guint64) MAX (live, 0);
          /* One point per instant: the last event at a time wins. */
          if (points->len > 0 && g_array_index (points, PvCurvePoint, points->len - 1).time == p.time)
            g_array_index (points, PvCurvePoint, points->len - 1) = p;
          else
            g_array_append_val (points, p);
          if ((guint64) live > curve.peak_bytes)
            {
              curve.peak_bytes = (guint64) live;
              curve.peak_time = e->time;
            }
        }
      curve.n_points = (int) points->len;
      curve.points = (PvCurvePoint *) g_array_free (points, FALSE);
      g_array_append_val (curves, curve);
    }
  s->n_curves = (int) curves->len;
  s->curves = (PvLiveCurve *) g_array_free (curves, FALSE);
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
