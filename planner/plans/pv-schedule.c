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
  g_free (s->value_bytes);
  g_free (s->value_device);
  for (int i = 0; i < s->n_curves; i++)
    g_free (s->curves[i].points);
  g_free (s->curves);
  g_free (s);
}

/* One end of a value's live interval, on its device's curve: +bytes at
 * its start, -bytes at its end. Events are sorted and swept into the
 * curve's points in the points' own array (a point is no bigger than an
 * event, and there are no more points than events): the array that will be
 * needed anyway holds them, instead of a second one as large. */
typedef PvCurvePoint Event;

/* The signed size of @e (kept in the unsigned field, two's complement). */
static inline gint64
event_delta (const Event *e)
{
  return (gint64) e->bytes;
}

static inline Event
make_event (double time, gint64 delta)
{
  return (Event) { time, (guint64) delta };
}

/* Events by time; frees before allocations at the same instant (a
 * reader's end and the next writer's start may touch). Events equal in
 * both are interchangeable, so any sort gives the same curve. */
static inline gboolean
event_before (const Event *x, const Event *y)
{
  if (x->time != y->time)
    return x->time < y->time;
  return event_delta (x) < event_delta (y);
}

static void
insertion_sort (Event *a, gsize n)
{
  for (gsize i = 1; i < n; i++)
    {
      Event x = a[i];
      gsize j = i;
      for (; j > 0 && event_before (&x, &a[j - 1]); j--)
        a[j] = a[j - 1];
      a[j] = x;
    }
}

static void
sift_down (Event *a, gsize root, gsize n)
{
  Event x = a[root];

  for (;;)
    {
      gsize child = 2 * root + 1;
      if (child >= n)
        break;
      if (child + 1 < n && event_before (&a[child], &a[child + 1]))
        child++;
      if (!event_before (&x, &a[child]))
        break;
      a[root] = a[child];
      root = child;
    }
  a[root] = x;
}

static void
swap_events (Event *a, gsize i, gsize j)
{
  Event t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/* Introsort in place: quicksort (median of three, Hoare partition),
 * heapsort past @depth levels, insertion sort on short runs. In place
 * because a scratch copy of two events per value is most of what the
 * schedule would touch. */
static void
sort_events (Event *a, gsize n, int depth)
{
  while (n > 16)
    {
      gsize i, j, mid = n / 2;

      if (depth-- == 0)
        {
          for (gsize k = n / 2; k-- > 0;)
            sift_down (a, k, n);
          for (gsize end = n; end-- > 1;)
            {
              swap_events (a, 0, end);
              sift_down (a, 0, end);
            }
          return;
        }
      /* The median of a[0], a[mid], a[n - 1] goes to a[0] as the pivot. */
      if (event_before (&a[mid], &a[0]))
        swap_events (a, mid, 0);
      if (event_before (&a[n - 1], &a[mid]))
        {
          swap_events (a, n - 1, mid);
          if (event_before (&a[mid], &a[0]))
            swap_events (a, mid, 0);
        }
      swap_events (a, 0, mid);
      {
        Event pivot = a[0];
        i = 0;
        j = n;
        for (;;)
          {
            while (event_before (&a[i], &pivot))
              i++;
            do
              j--;
            while (event_before (&pivot, &a[j]));
            if (i >= j)
              break;
            swap_events (a, i, j);
            i++;
          }
      }
      /* a[0 .. j] <= pivot <= a[j + 1 .. n): recurse into the smaller part. */
      if (j + 1 < n - j - 1)
        {
          sort_events (a, j + 1, depth);
          a += j + 1;
          n -= j + 1;
        }
      else
        {
          sort_events (a + j + 1, n - j - 1, depth);
          n = j + 1;
        }
    }
  insertion_sort (a, n);
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
live_intervals (PvSchedule *s, const PvGraph *g, const int *view_root)
{
  for (int v = 0; v < g->n_values; v++)
    {
      const PvValue *value = &g->values[v];
      const guint *consumers = g->consumer_ids + value->consumers_start;
      PvSpan *span = &s->value_spans[v];

      if (value->producer >= 0)
        *span = s->node_spans[value->producer];
      else if (!(value->flags & (PV_VALUE_INITIALIZER | PV_VALUE_OUTER_SCOPE)))
        *span = (PvSpan) { 0, 0 };
      else
        *span = (PvSpan) { -1, -1 };
      /* live until its last reader is done (the consumers: every node that
       * reads it, explicitly or implicitly) */
      for (guint c = 0; span->start >= 0 && c < value->n_consumers; c++)
        span->end = MAX (span->end, s->node_spans[consumers[c]].end);
    }
  for (int i = 0; i < g->n_outputs; i++)
    if (s->value_spans[g->outputs[i]].start >= 0)
      s->value_spans[g->outputs[i]].end = s->makespan;
  /* A value's bytes are held while any view of it is read (a Reshape of
   * it, read much later, reads its bytes). */
  for (int v = 0; view_root && v < g->n_values; v++)
    {
      int r = view_root[v];
      if (r != v && r >= 0 && s->value_spans[r].start >= 0 && s->value_spans[v].start >= 0)
        s->value_spans[r].end = MAX (s->value_spans[r].end, s->value_spans[v].end);
    }
}

/* With unit kernel costs (the default) every time is a whole number: then
 * events can be listed straight into place by time. Every event time is a
 * kernel's start or end, 0 or the makespan (see live_intervals()). Returns
 * the number of instants to count by (the last time + 1), or 0 when a time
 * is not a whole number in [0, 4 n_nodes + 64] (roofline costs). */
static int
whole_times (const PvSchedule *s, const PvGraph *g)
{
  double limit = 4.0 * g->n_nodes + 64, last = s->makespan;

  if (!(last >= 0 && last <= limit && last == (double) (int) last))
    return 0;
  for (int n = 0; n < g->n_nodes; n++)
    {
      const PvSpan *span = &s->node_spans[n];
      if (span->start < 0 && span->end < 0)
        continue;  /* never ran */
      if (!(span->start >= 0 && span->end >= 0 && span->end <= limit && span->start == (double) (int) span->start
            && span->end == (double) (int) span->end))
        return 0;
      last = MAX (last, span->end);
    }
  return (int) last + 1;
}

/* The device of every counted value: a few distinct ones. Returns the
 * index of @device in @devices, adding it. */
static int
device_index (GArray *devices, int device)
{
  for (guint k = 0; k < devices->len; k++)
    if (g_array_index (devices, int, k) == device)
      return (int) k;
  g_array_append_val (devices, device);
  return (int) devices->len - 1;
}

/* Turns @curve's sorted events (held in its points, n_points of them) into
 * its points, in place: the live bytes after each instant, and the peak. */
static void
sweep_curve (PvLiveCurve *curve)
{
  Event *e = curve->points;
  int n = curve->n_points;
  gint64 live = 0;

  /* The sweep writes point curve->n_points - 1 or curve->n_points,
   * never past event k, which it has read. */
  curve->n_points = 0;
  for (int k = 0; k < n; k++)
    {
      PvCurvePoint p;
      live += event_delta (&e[k]);
      p.time = e[k].time;
      p.bytes = (guint64) MAX (live, 0);
      /* One point per instant: the last event at a time wins. */
      if (curve->n_points > 0 && curve->points[curve->n_points - 1].time == p.time)
        curve->points[curve->n_points - 1] = p;
      else
        curve->points[curve->n_points++] = p;
      if ((guint64) live > curve->peak_bytes)
        {
          curve->peak_bytes = (guint64) live;
          curve->peak_time = p.time;
        }
    }
  curve->points = g_renew (PvCurvePoint, curve->points, MAX (curve->n_points, 1));
}

static void
live_curves (PvSchedule *s, const PvGraph *g, const guint64 *bytes, const int *device)
{
  g_autoptr (GArray) devices = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree int *rank = NULL;     /* devices index -> curve (ascending device) */
  int n_times;

  if (bytes == NULL)
    {
      s->curves = g_new0 (PvLiveCurve, 1);
      return;
    }
  /* Events grouped by device (curves in ascending device order), then
   * each group sorted. */
  for (int v = 0; v < g->n_values; v++)
    if (bytes[v] != 0 && s->value_spans[v].start >= 0)
      device_index (devices, device ? device[v] : 0);
  s->n_curves = (int) devices->len;
  s->curves = g_new0 (PvLiveCurve, MAX (s->n_curves, 1));
  rank = g_new0 (int, MAX (s->n_curves, 1));
  for (int k = 0; k < s->n_curves; k++)
    for (int j = 0; j < s->n_curves; j++)
      rank[k] += g_array_index (devices, int, j) < g_array_index (devices, int, k);
  for (int v = 0; v < g->n_values; v++)
    if (bytes[v] != 0 && s->value_spans[v].start >= 0)
      s->curves[rank[device_index (devices, device ? device[v] : 0)]].device = device ? device[v] : 0;
  /* List each curve's events in order: by time and size. Whole-number
   * times are counted into place (one bucket per instant, each sorted by
   * size); others are listed and then sorted. */
  n_times = whole_times (s, g);
  {
    int n_buckets = s->n_curves * MAX (n_times, 1);
    g_autofree int *at = g_new0 (int, n_buckets + 1);  /* bucket (curve, time) -> its first event */
    g_autofree int *base = g_new (int, s->n_curves + 1);  /* curve -> its first event */

    for (int v = 0; v < g->n_values; v++)
      {
        int c;
        if (bytes[v] == 0 || s->value_spans[v].start < 0)
          continue;
        c = rank[device_index (devices, device ? device[v] : 0)] * MAX (n_times, 1);
        at[c + (n_times ? (int) s->value_spans[v].start : 0) + 1]++;
        at[c + (n_times ? (int) s->value_spans[v].end : 0) + 1]++;
      }
    for (int k = 0; k < n_buckets; k++)
      at[k + 1] += at[k];
    for (int c = 0; c <= s->n_curves; c++)
      base[c] = at[c * MAX (n_times, 1)];
    for (int c = 0; c < s->n_curves; c++)
      s->curves[c].points = g_new (Event, MAX (base[c + 1] - base[c], 1));
    for (int v = 0; v < g->n_values; v++)
      {
        int c, k;
        Event *e;
        if (bytes[v] == 0 || s->value_spans[v].start < 0)
          continue;
        c = rank[device_index (devices, device ? device[v] : 0)];
        e = s->curves[c].points;
        k = c * MAX (n_times, 1);
        e[at[k + (n_times ? (int) s->value_spans[v].start : 0)]++ - base[c]] =
          make_event (s->value_spans[v].start, (gint64) bytes[v]);
        e[at[k + (n_times ? (int) s->value_spans[v].end : 0)]++ - base[c]] =
          make_event (s->value_spans[v].end, -(gint64) bytes[v]);
      }
    /* at[k] is now bucket k's end, and bucket k + 1's start. */
    for (int k = 0; k < n_buckets; k++)
      {
        int first = k > 0 ? at[k - 1] : 0, n = at[k] - first, c = k / MAX (n_times, 1), depth = 0;
        for (int m = n; m > 1; m /= 2)
          depth += 2;
        if (n > 1)
          sort_events (s->curves[c].points + (first - base[c]), n, depth);
      }
    for (int c = 0; c < s->n_curves; c++)
      s->curves[c].n_points = base[c + 1] - base[c];
  }

  for (int c = 0; c < s->n_curves; c++)
    sweep_curve (&s->curves[c]);
}

PvSchedule *
pv_schedule_new (const PvOrtPlan *plan, const guint64 *value_bytes, const int *value_device, const int *view_root,
                 PvNodeCost cost, gpointer cost_data)
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
  s->sync_edges = (const int (*)[2]) plan->sync_edges;
  s->n_sync_edges = plan->n_sync_edges;
  live_intervals (s, g, view_root);
  live_curves (s, g, value_bytes, value_device);
  s->n_values = g->n_values;
  s->value_bytes = g_new0 (guint64, MAX (g->n_values, 1));
  s->value_device = g_new0 (int, MAX (g->n_values, 1));
  if (value_bytes)
    memcpy (s->value_bytes, value_bytes, sizeof (guint64) * g->n_values);
  if (value_device)
    memcpy (s->value_device, value_device, sizeof (int) * g->n_values);
  return s;
}

/* ---- what is live when ---- */

const PvLiveCurve *
pv_schedule_curve (const PvSchedule *schedule, int device)
{
  for (int c = 0; c < schedule->n_curves; c++)
    if (schedule->curves[c].device == device)
      return &schedule->curves[c];
  return NULL;
}

/* The number of points at or before @time (@strict: before it). */
static int
points_until (const PvLiveCurve *curve, double time, gboolean strict)
{
  int lo = 0, hi = curve ? curve->n_points : 0;

  while (lo < hi)
    {
      int mid = lo + (hi - lo) / 2;
      if (strict ? curve->points[mid].time < time : curve->points[mid].time <= time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

guint64
pv_live_curve_bytes_at (const PvLiveCurve *curve, double time)
{
  int n = points_until (curve, time, FALSE);
  return n > 0 ? curve->points[n - 1].bytes : 0;
}

/* What the curve holds just before @time. */
static guint64
bytes_before (const PvLiveCurve *curve, double time)
{
  int n = points_until (curve, time, TRUE);
  return n > 0 ? curve->points[n - 1].bytes : 0;
}

/* Is @v counted on @device's curve at @time? */
static gboolean
counted_at (const PvSchedule *s, int v, int device, double time)
{
  const PvSpan *span = &s->value_spans[v];
  return s->value_bytes[v] != 0 && s->value_device[v] == device && span->start >= 0 && span->start <= time &&
         time < span->end;
}

static int
compare_by_bytes_data (gconstpointer a, gconstpointer b, gpointer data)
{
  const PvSchedule *schedule = data;
  int x = *(const int *) a, y = *(const int *) b;
  guint64 bx = schedule->value_bytes[x], by = schedule->value_bytes[y];

  if (bx != by)
    return bx > by ? -1 : 1;
  return (x > y) - (x < y);
}

int *
pv_schedule_live_at (const PvSchedule *schedule, int device, double time, int *n_out)
{
  GArray *live = g_array_new (FALSE, FALSE, sizeof (int));

  for (int v = 0; v < schedule->n_values; v++)
    if (counted_at (schedule, v, device, time))
      g_array_append_val (live, v);
  *n_out = (int) live->len;
  g_array_sort_with_data (live, compare_by_bytes_data, (gpointer) schedule);
  return (int *) g_array_free (live, FALSE);
}

typedef struct {
  const PvSchedule *schedule;
  gboolean by_end;
} SpanOrder;

static int
compare_by_span (gconstpointer a, gconstpointer b, gpointer data)
{
  const SpanOrder *order = data;
  int x = *(const int *) a, y = *(const int *) b;
  double tx = order->by_end ? order->schedule->value_spans[x].end : order->schedule->value_spans[x].start;
  double ty = order->by_end ? order->schedule->value_spans[y].end : order->schedule->value_spans[y].start;

  if (tx != ty)
    return tx < ty ? -1 : 1;
  return (x > y) - (x < y);
}

PvScheduleRange *
pv_schedule_range (const PvSchedule *schedule, const PvGraph *graph, int device, double t0, double t1)
{
  PvScheduleRange *range = g_new0 (PvScheduleRange, 1);
  const PvLiveCurve *curve = pv_schedule_curve (schedule, device);
  GArray *born = g_array_new (FALSE, FALSE, sizeof (int)), *dying = g_array_new (FALSE, FALSE, sizeof (int));
  SpanOrder by_start = { schedule, FALSE }, by_end = { schedule, TRUE };

  if (t1 < t0)
    {
      double t = t0;
      t0 = t1;
      t1 = t;
    }
  for (int n = 0; n < graph->n_nodes; n++)
    range->n_kernels += schedule->node_spans[n].start >= t0 && schedule->node_spans[n].start < t1;
  for (int v = 0; v < schedule->n_values; v++)
    {
      const PvSpan *span = &schedule->value_spans[v];
      if (schedule->value_bytes[v] == 0 || schedule->value_device[v] != device || span->start < 0)
        continue;
      if (span->start >= t0 && span->start < t1)
        {
          g_array_append_val (born, v);
          range->allocated += schedule->value_bytes[v];
        }
      if (span->end >= t0 && span->end < t1)
        {
          g_array_append_val (dying, v);
          range->freed += schedule->value_bytes[v];
        }
    }
  g_array_sort_with_data (born, compare_by_span, &by_start);
  g_array_sort_with_data (dying, compare_by_span, &by_end);
  range->n_born = (int) born->len;
  range->born = (int *) g_array_free (born, FALSE);
  range->n_dying = (int) dying->len;
  range->dying = (int *) g_array_free (dying, FALSE);
  /* The curve entering and leaving the span, and its highest point in it. */
  range->start_bytes = bytes_before (curve, t0);
  range->end_bytes = bytes_before (curve, t1);
  range->peak_bytes = pv_live_curve_bytes_at (curve, t0);
  range->peak_time = t0;
  for (int i = 0; curve && i < curve->n_points; i++)
    if (curve->points[i].time > t0 && curve->points[i].time < t1 && curve->points[i].bytes > range->peak_bytes)
      {
        range->peak_bytes = curve->points[i].bytes;
        range->peak_time = curve->points[i].time;
      }
  return range;
}

void
pv_schedule_range_free (PvScheduleRange *range)
{
  if (range == NULL)
    return;
  g_free (range->born);
  g_free (range->dying);
  g_free (range);
}
