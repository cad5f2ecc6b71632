/* pv-timeline-model.c: planner records -> timeline items (see the header). */
#include "pv-timeline-model.h"

#include "pv-sort.h"
#include "pv-value-aliases.h"

#include <stdlib.h>
#include <string.h>

/* ---- small helpers ---- */

static const char *
device_name (int device)
{
  switch (device)
    {
    case PV_ORT_DEVICE_CPU: return "CPU";
    case PV_ORT_DEVICE_GPU: return "GPU";
    case 2: return "FPGA";
    case 3: return "NPU";
    default: return "device";
    }
}

static char *
format_bytes (guint64 bytes)
{
  if (bytes < 1024)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " B", bytes);
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

guint8
pv_timeline_kind_colour (PvOrtAllocKind kind)
{
  int k = (int) kind + 1;
  if (k < 0 || k >= PV_TIMELINE_N_KIND_COLOURS)
    k = 0;
  return (guint8) (PV_TIMELINE_KIND_COLOUR_BASE + k);
}

const char *
pv_timeline_mark_kind_name (PvTimelineMarkKind kind)
{
  static const char *const names[] = { "barrier", "wait", "notify", "trigger" };
  return (unsigned) kind < G_N_ELEMENTS (names) ? names[kind] : "step";
}

int
pv_timeline_first_reaching (const double *max_end, int first, int n, double t)
{
  int lo = first, hi = first + n;

  while (lo < hi)
    {
      int mid = lo + (hi - lo) / 2;
      if (max_end[mid] >= t)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

/* Running maxima of @end over consecutive groups given by @lanes. */
static double *
running_max (const void *items, gsize stride, gsize end_offset, int n, const PvTimelineLane *lanes, int n_lanes)
{
  double *max_end = g_new (double, MAX (n, 1));

  for (int l = 0; l < n_lanes; l++)
    {
      double m = -G_MAXDOUBLE;
      for (int i = lanes[l].first; i < lanes[l].first + lanes[l].n; i++)
        {
          double e;
          memcpy (&e, (const char *) items + stride * i + end_offset, sizeof e);
          m = MAX (m, e);
          max_end[i] = m;
        }
    }
  return max_end;
}

char *
pv_timeline_short_name (const char *name)
{
  const char *end, *tail;
  int slashes = 0;

  if (name == NULL)
    return g_strdup ("");
  end = name + strlen (name);
  /* "/layers.0/attn/k_proj/MatMul_output_0" -> "k_proj/MatMul" */
  if (end - name > 9 && strcmp (end - 9, "_output_0") == 0)
    end -= 9;
  tail = end;
  while (tail > name)
    {
      if (tail[-1] == '/' && ++slashes == 2)
        break;
      tail--;
    }
  if (tail == end)
    return g_strdup (name);
  return g_strndup (tail, end - tail);
}

/* "@prefix@n": one per lane, thousands per model, where printf costs more
 * than the rest of the lane. */
static char *
numbered (const char *prefix, int n)
{
  char digits[16];
  int len = 0;
  guint u = n < 0 ? -(guint) n : (guint) n;

  do
    digits[len++] = (char) ('0' + u % 10);
  while ((u /= 10) > 0);
  if (n < 0)
    digits[len++] = '-';
  {
    gsize plen = strlen (prefix);
    char *out = g_malloc (plen + len + 1);
    memcpy (out, prefix, plen);
    for (int i = 0; i < len; i++)
      out[plen + i] = digits[len - 1 - i];
    out[plen + len] = '\0';
    return out;
  }
}

/* ---- the model under construction ---- */

typedef struct {
  const PvTimelineSource *src;
  const PvGraph *g;
  PvTimelineModel *m;
  PvSpan *value_spans;     /* value id -> live interval */
  guint64 *bytes;          /* value id -> bytes (views: their root's) */
  int *view_root;          /* value id -> owner it views, itself otherwise */
  int *by_start;           /* values with a live interval, by (start, id) */
  int n_by_start;
} Builder;

static void
build_sizes (Builder *b)
{
  const PvGraph *g = b->g;
  const PvTimelineSource *src = b->src;

  b->bytes = g_new0 (guint64, MAX (g->n_values, 1));
  /* The session's roots; a source made by hand may give only the views. */
  if (src->view_root)
    b->view_root = g_memdup2 (src->view_root, sizeof (int) * MAX (g->n_values, 1));
  else
    b->view_root = pv_value_view_roots (src->view_source, g->n_values);
  for (int v = 0; v < g->n_values; v++)
    {
      if (src->value_bytes)
        b->bytes[v] = src->value_bytes[v];
      else if (src->slots && src->slots->bytes)
        b->bytes[v] = src->slots->bytes[v];
    }
  for (int v = 0; v < g->n_values; v++)
    if (b->bytes[v] == 0 && b->view_root[v] != v)
      b->bytes[v] = b->bytes[b->view_root[v]];
}

/* ---- op colours ---- */

typedef struct {
  const char *op_type;
  int n_nodes;
  guint64 bytes;
} OpStat;

static int
compare_op_stats (const void *a, const void *b)
{
  const OpStat *x = a, *y = b;
  if (x->bytes != y->bytes)
    return x->bytes > y->bytes ? -1 : 1;
  if (x->n_nodes != y->n_nodes)
    return y->n_nodes - x->n_nodes;
  return strcmp (x->op_type, y->op_type);
}

/* The op types whose outputs hold the most bytes get the colours; the rest
 * share "other". Colours follow that rank, so one model always looks the
 * same. */
static void
build_op_colours (Builder *b)
{
  const PvGraph *g = b->g;
  PvTimelineModel *m = b->m;
  /* Op types are interned (pv-graph.h): their pointers are their identity. */
  g_autoptr (GHashTable) index = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GArray) stats = g_array_new (FALSE, TRUE, sizeof (OpStat));
  int n_coloured, other_nodes = 0;
  guint64 other_bytes = 0;

  for (int n = 0; n < g->n_nodes; n++)
    {
      const PvNode *node = &g->nodes[n];
      gpointer found = g_hash_table_lookup (index, node->op_type);
      OpStat *st;
      if (found == NULL)
        {
          OpStat fresh = { node->op_type, 0, 0 };
          g_array_append_val (stats, fresh);
          g_hash_table_insert (index, (gpointer) node->op_type, GINT_TO_POINTER (stats->len));
          found = GINT_TO_POINTER (stats->len);
        }
      st = &g_array_index (stats, OpStat, GPOINTER_TO_INT (found) - 1);
      st->n_nodes++;
      for (int k = 0; k < node->n_outputs; k++)
        if (node->outputs[k] >= 0 && b->view_root[node->outputs[k]] == node->outputs[k])
          st->bytes += b->bytes[node->outputs[k]];
    }
  if (stats->len > 1)
    qsort (stats->data, stats->len, sizeof (OpStat), compare_op_stats);
  n_coloured = MIN ((int) stats->len, PV_TIMELINE_N_OP_COLOURS - 1);
  /* Exactly one op type too many: give it the last colour rather than
   * calling a single op "other". */
  if ((int) stats->len == PV_TIMELINE_N_OP_COLOURS)
    n_coloured = PV_TIMELINE_N_OP_COLOURS;

  m->ops = g_new0 (PvTimelineOpEntry, n_coloured + 1);
  for (guint i = 0; i < stats->len; i++)
    {
      OpStat *st = &g_array_index (stats, OpStat, i);
      if ((int) i < n_coloured)
        {
          m->ops[i] = (PvTimelineOpEntry) { st->op_type, (guint8) i, st->n_nodes, st->bytes };
          g_hash_table_insert (index, (gpointer) st->op_type, GINT_TO_POINTER (i + 1));
        }
      else
        {
          other_nodes += st->n_nodes;
          other_bytes += st->bytes;
          g_hash_table_insert (index, (gpointer) st->op_type, GINT_TO_POINTER (PV_TIMELINE_N_OP_COLOURS));
        }
    }
  m->n_ops = n_coloured;
  if (other_nodes > 0)
    m->ops[m->n_ops++] = (PvTimelineOpEntry) { NULL, PV_TIMELINE_N_OP_COLOURS - 1, other_nodes, other_bytes };

  m->node_colour = g_new (guint8, MAX (g->n_nodes, 1));
  for (int n = 0; n < g->n_nodes; n++)
    m->node_colour[n] = (guint8) (GPOINTER_TO_INT (g_hash_table_lookup (index, g->nodes[n].op_type)) - 1);
}

static guint8
value_op_colour (Builder *b, int v)
{
  int producer = b->g->values[v].producer;
  return producer >= 0 ? b->m->node_colour[producer] : PV_TIMELINE_N_OP_COLOURS - 1;
}

/* ---- streams, kernels, marks, arrows ---- */

static float
node_weight (Builder *b, int node_id)
{
  const PvNode *node = &b->g->nodes[node_id];
  double w = 1;
  for (int k = 0; k < node->n_outputs; k++)
    if (node->outputs[k] >= 0)
      w += (double) b->bytes[node->outputs[k]];
  return (float) w;
}

/* Orders @arrows by (t_min, from_mark), ties as made: two stable radix
 * passes, least significant key first (a sort through a comparator cost
 * more than building the arrows). */
static void
sort_arrows (GArray *arrows)
{
  int n = (int) arrows->len;
  const PvTimelineArrow *in = (const PvTimelineArrow *) arrows->data;
  g_autofree int *order = NULL, *scratch = NULL;
  g_autofree guint64 *keys = NULL;
  g_autofree PvTimelineArrow *sorted = NULL;

  if (n < 2)
    return;
  order = g_new (int, n);
  scratch = g_new (int, n);
  keys = g_new (guint64, n);
  for (int i = 0; i < n; i++)
    {
      order[i] = i;
      keys[i] = pv_sort_key_int (in[i].from_mark);
    }
  pv_sort_by_key (order, n, keys, scratch);
  for (int i = 0; i < n; i++)
    keys[i] = pv_sort_key_double (in[i].t_min);
  pv_sort_by_key (order, n, keys, scratch);
  sorted = g_new (PvTimelineArrow, n);
  for (int i = 0; i < n; i++)
    sorted[i] = in[order[i]];
  memcpy (arrows->data, sorted, sizeof (PvTimelineArrow) * n);
}

static void
build_streams_from_plan (Builder *b)
{
  const PvOrtPlan *plan = b->src->ort;
  const PvSchedule *sched = b->src->schedule;
  PvTimelineModel *m = b->m;
  int n_steps = 0;
  GArray *kernels, *marks, *arrows;
  g_autofree int *notify_mark = g_new (int, MAX (plan->n_notifications, 1));
  g_autofree int *trigger_mark = g_new (int, MAX (plan->n_trigger_points, 1));
  g_autofree int **step_mark = g_new0 (int *, MAX (plan->n_streams, 1));

  /* Sized up front: tens of thousands of steps grow no array by doubling. */
  for (int st = 0; st < plan->n_streams; st++)
    n_steps += plan->streams[st].n_steps;
  kernels = g_array_sized_new (FALSE, FALSE, sizeof (PvTimelineKernel), b->g->n_nodes);
  marks = g_array_sized_new (FALSE, FALSE, sizeof (PvTimelineMark), MAX (n_steps - b->g->n_nodes, 0));
  arrows = g_array_sized_new (FALSE, FALSE, sizeof (PvTimelineArrow),
                              plan->n_trigger_points > 0 ? plan->downstream_start[plan->n_trigger_points] : 0);

  for (int i = 0; i < plan->n_notifications; i++)
    notify_mark[i] = -1;
  for (int i = 0; i < plan->n_trigger_points; i++)
    trigger_mark[i] = -1;

  m->n_streams = plan->n_streams;
  m->streams = g_new0 (PvTimelineLane, MAX (plan->n_streams, 1));
  for (int st = 0; st < plan->n_streams; st++)
    {
      const PvOrtLogicStream *stream = &plan->streams[st];
      PvTimelineLane *lane = &m->streams[st];
      int n_kernels = 0;

      step_mark[st] = g_new (int, MAX (stream->n_steps, 1));
      lane->kind = PV_TIMELINE_LANE_STREAM;
      lane->id = st;
      lane->device = stream->device.type;
      lane->label = g_strdup_printf ("stream %d · %s", st, device_name (stream->device.type));
      lane->first = (int) kernels->len;
      lane->first_mark = (int) marks->len;
      for (int i = 0; i < stream->n_steps; i++)
        {
          const PvOrtStep *step = &stream->steps[i];
          PvSpan span = sched->step_spans[st][i];
          step_mark[st][i] = -1;
          if (span.start < 0)
            continue;  /* never ran (deadlock) */
          if (step->kind == PV_ORT_STEP_LAUNCH_KERNEL)
            {
              PvTimelineKernel k = { span.start, span.end, step->node, st, i, m->node_colour[step->node], 0 };
              k.weight = node_weight (b, step->node);
              m->node_kernel[step->node] = (int) kernels->len;
              g_array_append_val (kernels, k);
              n_kernels++;
            }
          else
            {
              PvTimelineMark mark = { span.start, PV_TIMELINE_MARK_BARRIER, st, i, step->node, step->id };
              switch (step->kind)
                {
                case PV_ORT_STEP_BARRIER: mark.kind = PV_TIMELINE_MARK_BARRIER; break;
                case PV_ORT_STEP_WAIT_ON_EP: mark.kind = PV_TIMELINE_MARK_WAIT; break;
                case PV_ORT_STEP_ACTIVATE_NOTIFICATION: mark.kind = PV_TIMELINE_MARK_NOTIFY; break;
                case PV_ORT_STEP_TRIGGER_DOWNSTREAM: mark.kind = PV_TIMELINE_MARK_TRIGGER; break;
                default: break;
                }
              step_mark[st][i] = (int) marks->len;
              if (mark.kind == PV_TIMELINE_MARK_NOTIFY && step->id >= 0 && step->id < plan->n_notifications)
                notify_mark[step->id] = (int) marks->len;
              if (mark.kind == PV_TIMELINE_MARK_TRIGGER && step->id >= 0 && step->id < plan->n_trigger_points)
                trigger_mark[step->id] = (int) marks->len;
              g_array_append_val (marks, mark);
            }
        }
      lane->n = (int) kernels->len - lane->first;
      lane->n_marks = (int) marks->len - lane->first_mark;
      lane->detail = g_strdup_printf ("%d kernel%s", n_kernels, n_kernels == 1 ? "" : "s");
    }

  /* Arrows: trigger -> each barrier it releases; notification -> each wait. */
  for (int t = 0; t < plan->n_trigger_points; t++)
    for (int k = plan->downstream_start[t]; k < plan->downstream_start[t + 1]; k++)
      {
        const PvOrtStepRef *ref = &plan->downstream[k];
        int to;
        if (trigger_mark[t] < 0 || ref->stream < 0 || ref->stream >= plan->n_streams || ref->step < 0 ||
            ref->step >= plan->streams[ref->stream].n_steps)
          continue;
        to = step_mark[ref->stream][ref->step];
        if (to >= 0)
          {
            PvTimelineArrow a = { trigger_mark[t], to, PV_TIMELINE_ARROW_TRIGGER, 0, 0 };
            g_array_append_val (arrows, a);
          }
      }
  for (guint i = 0; i < marks->len; i++)
    {
      const PvTimelineMark *mk = &g_array_index (marks, PvTimelineMark, i);
      if (mk->kind == PV_TIMELINE_MARK_WAIT && mk->id >= 0 && mk->id < plan->n_notifications &&
          notify_mark[mk->id] >= 0)
        {
          PvTimelineArrow a = { notify_mark[mk->id], (int) i, PV_TIMELINE_ARROW_NOTIFY, 0, 0 };
          g_array_append_val (arrows, a);
        }
    }
  for (guint i = 0; i < arrows->len; i++)
    {
      PvTimelineArrow *a = &g_array_index (arrows, PvTimelineArrow, i);
      double t0 = g_array_index (marks, PvTimelineMark, a->from_mark).time;
      double t1 = g_array_index (marks, PvTimelineMark, a->to_mark).time;
      a->t_min = MIN (t0, t1);
      a->t_max = MAX (t0, t1);
    }
  sort_arrows (arrows);

  for (int st = 0; st < plan->n_streams; st++)
    g_free (step_mark[st]);
  m->n_kernels = (int) kernels->len;
  m->kernels = (PvTimelineKernel *) g_array_free (kernels, FALSE);
  m->n_marks = (int) marks->len;
  m->marks = (PvTimelineMark *) g_array_free (marks, FALSE);
  m->n_arrows = (int) arrows->len;
  m->arrows = (PvTimelineArrow *) g_array_free (arrows, FALSE);
  m->arrow_max_end = g_new (double, MAX (m->n_arrows, 1));
  for (int i = 0; i < m->n_arrows; i++)
    m->arrow_max_end[i] = MAX (i > 0 ? m->arrow_max_end[i - 1] : -G_MAXDOUBLE, m->arrows[i].t_max);
  m->t_end = sched->makespan;
  m->deadlock = sched->deadlock;
}

/* Without a plan: graph->order at unit cost on one lane. */
static void
build_program_order (Builder *b)
{
  const PvGraph *g = b->g;
  PvTimelineModel *m = b->m;
  PvTimelineLane *lane;

  m->n_streams = 1;
  m->streams = g_new0 (PvTimelineLane, 1);
  lane = &m->streams[0];
  lane->kind = PV_TIMELINE_LANE_STREAM;
  lane->label = g_strdup ("program order");
  lane->detail = g_strdup_printf ("%d kernel%s", g->n_nodes, g->n_nodes == 1 ? "" : "s");
  lane->n = g->n_nodes;
  m->n_kernels = g->n_nodes;
  m->kernels = g_new0 (PvTimelineKernel, MAX (g->n_nodes, 1));
  for (int i = 0; i < g->n_nodes; i++)
    {
      int node = g->order[i];
      m->kernels[i] = (PvTimelineKernel) { i, i + 1, node, 0, -1, m->node_colour[node], node_weight (b, node) };
      m->node_kernel[node] = i;
    }
  m->arrows = g_new0 (PvTimelineArrow, 1);
  m->arrow_max_end = g_new0 (double, 1);
  m->marks = g_new0 (PvTimelineMark, 1);
  m->t_end = g->n_nodes;
}

/* Live intervals: the schedule's, or program order's (producer's start to
 * the last reader's end, graph outputs to the end). */
static void
build_value_spans (Builder *b)
{
  const PvGraph *g = b->g;
  PvTimelineModel *m = b->m;

  b->value_spans = g_new (PvSpan, MAX (g->n_values, 1));
  if (b->src->schedule)
    {
      memcpy (b->value_spans, b->src->schedule->value_spans, sizeof (PvSpan) * g->n_values);
      return;
    }
  for (int v = 0; v < g->n_values; v++)
    {
      const PvValue *value = &g->values[v];
      b->value_spans[v] = (PvSpan) { -1, -1 };
      if (value->producer >= 0)
        b->value_spans[v] = (PvSpan) { m->kernels[m->node_kernel[value->producer]].start,
                                       m->kernels[m->node_kernel[value->producer]].end };
      else if (!(value->flags & (PV_VALUE_INITIALIZER | PV_VALUE_OUTER_SCOPE)))
        b->value_spans[v] = (PvSpan) { 0, 0 };
    }
  for (int n = 0; n < g->n_nodes; n++)
    {
      const PvNode *node = &g->nodes[n];
      double end = m->kernels[m->node_kernel[n]].end;
      for (int k = 0; k < node->n_inputs + node->n_implicit_inputs; k++)
        {
          int v = k < node->n_inputs ? node->inputs[k] : node->implicit_inputs[k - node->n_inputs];
          if (v >= 0 && b->value_spans[v].start >= 0)
            b->value_spans[v].end = MAX (b->value_spans[v].end, end);
        }
    }
  for (int i = 0; i < g->n_outputs; i++)
    if (b->value_spans[g->outputs[i]].start >= 0)
      b->value_spans[g->outputs[i]].end = m->t_end;
}

/* The values every memory view draws, in the order of their bars within a
 * lane: one sort of ids here instead of one sort of bars per view. */
static void
build_start_order (Builder *b)
{
  const PvGraph *g = b->g;
  g_autofree guint64 *keys = g_new (guint64, MAX (g->n_values, 1));
  g_autofree int *scratch = g_new (int, MAX (g->n_values, 1));

  /* Ids ascending, then a stable sort by start: (start, id). */
  b->by_start = g_new (int, MAX (g->n_values, 1));
  for (int v = 0; v < g->n_values; v++)
    {
      keys[v] = pv_sort_key_double (b->value_spans[v].start);
      if (b->value_spans[v].start >= 0)
        b->by_start[b->n_by_start++] = v;
    }
  pv_sort_by_key (b->by_start, b->n_by_start, keys, scratch);
}

/* ---- live-bytes curves ---- */

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
  g_autofree char *peak = format_bytes (m->curves[i].peak_bytes);

  lane->kind = PV_TIMELINE_LANE_CURVE;
  lane->id = i;
  lane->device = m->curves[i].device;
  lane->bytes = m->curves[i].peak_bytes;
  lane->n = m->curves[i].n_points;
  lane->label = g_strdup_printf ("live bytes · %s", device_name (m->curves[i].device));
  lane->detail = m->sizes_incomplete ? g_strdup_printf ("at least %s", peak)
                                     : g_strdup_printf ("peak %s", peak);
}

static void
build_curves (Builder *b)
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

/* ---- memory views ---- */

/* Orders @bars, made in b->by_start order, by (lane, start, owners before
 * the views that live inside them, value): a stable counting sort by lane,
 * then views moved after the owners that start with them. Linear, where a
 * sort of 48-byte bars per view cost more than the rest of the model. */
static PvTimelineBar *
order_bars (const PvTimelineMemory *mem, const PvTimelineBar *in, guint n)
{
  PvTimelineBar *out = g_new (PvTimelineBar, MAX (n, 1));
  g_autofree int *fill = g_new0 (int, mem->n_lanes + 1);

  for (guint i = 0; i < n; i++)
    fill[in[i].lane + 1]++;
  for (int l = 0; l < mem->n_lanes; l++)
    fill[l + 1] += fill[l];
  for (guint i = 0; i < n; i++)
    out[fill[in[i].lane]++] = in[i];
  for (guint run = 0, end; run < n; run = end)
    {
      gboolean has_view = FALSE;
      for (end = run; end < n && out[end].lane == out[run].lane && out[end].start == out[run].start; end++)
        has_view |= (out[end].flags & PV_TIMELINE_BAR_VIEW) != 0;
      if (has_view && end - run > 1)
        {
          /* Stable: owners in id order, then views in id order. */
          g_autofree PvTimelineBar *tmp = g_memdup2 (out + run, sizeof (PvTimelineBar) * (end - run));
          guint k = run;
          for (guint i = 0; i < end - run; i++)
            if (!(tmp[i].flags & PV_TIMELINE_BAR_VIEW))
              out[k++] = tmp[i];
          for (guint i = 0; i < end - run; i++)
            if (tmp[i].flags & PV_TIMELINE_BAR_VIEW)
              out[k++] = tmp[i];
        }
    }
  return out;
}

static guint8
value_flags (Builder *b, int v)
{
  guint flags = b->g->values[v].flags;
  guint8 out = 0;
  if (flags & PV_VALUE_GRAPH_INPUT)
    out |= PV_TIMELINE_BAR_GRAPH_INPUT;
  if (flags & PV_VALUE_GRAPH_OUTPUT)
    out |= PV_TIMELINE_BAR_GRAPH_OUTPUT;
  if (b->view_root[v] != v)
    out |= PV_TIMELINE_BAR_VIEW;
  return out;
}

static PvTimelineBar
make_bar (Builder *b, int v, int lane)
{
  PvTimelineBar bar = { 0 };
  const PvOrtPlan *ort = b->src->ort;
  int oi = b->g->values[v].ort_index;

  bar.start = b->value_spans[v].start;
  bar.end = MAX (b->value_spans[v].end, bar.start);
  bar.value = v;
  bar.lane = lane;
  bar.bytes = b->bytes[v];
  bar.flags = value_flags (b, v);
  bar.op_colour = value_op_colour (b, v);
  bar.alloc_kind = PV_ORT_ALLOC_NOT_SET;
  if (ort && oi >= 0 && oi < ort->n_values)
    bar.alloc_kind = (gint8) ort->values[oi].kind;
  bar.kind_colour = pv_timeline_kind_colour ((PvOrtAllocKind) bar.alloc_kind);
  return bar;
}

/* Orders the bars (made in b->by_start order), fills lanes' ranges, running
 * maxima and value_bar. */
static void
finish_memory (Builder *b, PvTimelineMemory *mem, PvTimelineBar *bars, int n_bars)
{
  const PvGraph *g = b->g;

  mem->n_bars = n_bars;
  mem->bars = order_bars (mem, bars, n_bars);
  g_free (bars);
  for (int l = 0; l < mem->n_lanes; l++)
    mem->lanes[l].first = mem->lanes[l].n = 0;
  for (int i = mem->n_bars - 1; i >= 0; i--)
    {
      PvTimelineLane *lane = &mem->lanes[mem->bars[i].lane];
      lane->first = i;
      lane->n++;
    }
  mem->bar_max_end = running_max (mem->bars, sizeof (PvTimelineBar), G_STRUCT_OFFSET (PvTimelineBar, end), mem->n_bars, mem->lanes, mem->n_lanes);
  mem->value_bar = g_new (int, MAX (g->n_values, 1));
  for (int v = 0; v < g->n_values; v++)
    mem->value_bar[v] = -1;
  for (int i = 0; i < mem->n_bars; i++)
    mem->value_bar[mem->bars[i].value] = i;
  mem->available = TRUE;
}

/* Links from each view to the value it views (when both have bars). */
static void
add_view_links (Builder *b, PvTimelineMemory *mem, GArray *links)
{
  const int *view_source = b->src->view_source;

  for (int i = 0; view_source && i < mem->n_bars; i++)
    {
      int v = mem->bars[i].value, src = view_source[v];
      if (src >= 0 && mem->value_bar[src] >= 0)
        {
          PvTimelineLink link = { mem->value_bar[src], i, PV_TIMELINE_LINK_ALIAS };
          g_array_append_val (links, link);
        }
    }
}

static void
set_links (PvTimelineMemory *mem, GArray *links)
{
  mem->n_links = (int) links->len;
  mem->links = (PvTimelineLink *) g_array_free (links, FALSE);
}

static char *
deferred_reason (Builder *b)
{
  const char *const *syms = b->src->unbound_symbols;
  const char *const *ops = b->src->no_shape_rule;
  g_autofree char *list = NULL;

  if (ops != NULL)
    {
      g_autofree char *names = ops[0] ? g_strjoinv (", ", (char **) ops) : g_strdup ("none");
      return g_strdup_printf ("the memory plan is deferred: some values have no known shape (no shape rule for %s)",
                              names);
    }
  if (syms == NULL || syms[0] == NULL)
    return g_strdup ("the memory plan is deferred: some sizes are unknown");
  list = g_strjoinv (", ", (char **) syms);
  return g_strdup_printf ("the memory plan is deferred: bind %s (--bound NAME=N)", list);
}

static void
build_slots_view (Builder *b)
{
  const PvSlotPlan *slots = b->src->slots;
  PvTimelineMemory *mem = &b->m->memory[PV_TIMELINE_MEMORY_SLOTS];
  PvTimelineBar *bars;
  int n_bars = 0;
  GArray *links;
  g_autofree char *peak = NULL;

  if (slots == NULL || slots->deferred)
    {
      mem->unavailable = slots ? deferred_reason (b) : g_strdup ("no slot plan");
      return;
    }
  mem->n_lanes = slots->n_slots;
  mem->lanes = g_new0 (PvTimelineLane, MAX (slots->n_slots, 1));
  for (int s = 0; s < slots->n_slots; s++)
    {
      PvTimelineLane *lane = &mem->lanes[s];
      lane->kind = PV_TIMELINE_LANE_SLOT;
      lane->id = slots->slots[s].id;
      lane->bytes = slots->slots[s].capacity;
      lane->label = numbered ("slot ", slots->slots[s].id);
    }
  bars = g_new (PvTimelineBar, MAX (b->n_by_start, 1));
  for (int k = 0; k < b->n_by_start; k++)
    {
      int v = b->by_start[k], s = slots->slot_of[v];
      PvTimelineBar bar;
      if (s < 0 || s >= slots->n_slots)
        continue;
      bar = make_bar (b, v, s);
      bars[n_bars++] = bar;
    }
  finish_memory (b, mem, bars, n_bars);
  /* A slot's later owners took it over from earlier ones. */
  for (int l = 0; l < mem->n_lanes; l++)
    {
      gboolean seen_owner = FALSE;
      for (int i = mem->lanes[l].first; i < mem->lanes[l].first + mem->lanes[l].n; i++)
        if (!(mem->bars[i].flags & PV_TIMELINE_BAR_VIEW))
          {
            if (seen_owner)
              mem->bars[i].flags |= PV_TIMELINE_BAR_REUSED;
            seen_owner = TRUE;
          }
    }
  links = g_array_new (FALSE, FALSE, sizeof (PvTimelineLink));
  add_view_links (b, mem, links);
  set_links (mem, links);
  mem->peak_bytes = slots->peak_bytes;
  peak = format_bytes (slots->peak_bytes);
  mem->title = g_strdup_printf ("%d slot%s · %s reserved", slots->n_slots, slots->n_slots == 1 ? "" : "s",
                                peak);
}

static void
build_arena_view (Builder *b)
{
  const PvTimelineSource *src = b->src;
  PvTimelineMemory *mem = &b->m->memory[PV_TIMELINE_MEMORY_ARENA];
  g_autofree guint64 *offset_of = NULL;
  g_autofree gboolean *placed = NULL;
  PvTimelineBar *bars;
  int n_bars = 0;
  GArray *links;
  g_autofree char *peak = NULL;

  if (src->arena == NULL || src->arena_values == NULL)
    {
      mem->unavailable = src->slots && src->slots->deferred ? deferred_reason (b) : g_strdup ("no arena plan");
      return;
    }
  mem->n_lanes = 1;
  mem->lanes = g_new0 (PvTimelineLane, 1);
  mem->lanes[0].kind = PV_TIMELINE_LANE_ARENA;
  mem->lanes[0].bytes = src->arena->peak_bytes;
  mem->lanes[0].label = g_strdup ("arena");
  mem->lanes[0].detail = format_bytes (src->arena->peak_bytes);

  offset_of = g_new0 (guint64, MAX (b->g->n_values, 1));
  placed = g_new0 (gboolean, MAX (b->g->n_values, 1));
  for (int i = 0; i < src->n_arena_values; i++)
    {
      offset_of[src->arena_values[i]] = src->arena->offsets[i];
      placed[src->arena_values[i]] = TRUE;
    }
  bars = g_new (PvTimelineBar, MAX (b->n_by_start, 1));
  for (int k = 0; k < b->n_by_start; k++)
    {
      int v = b->by_start[k], root = b->view_root[v];
      PvTimelineBar bar;
      if (root < 0 || !placed[root])
        continue;
      bar = make_bar (b, v, 0);
      bar.offset = offset_of[root];
      bar.bytes = b->bytes[root];
      bars[n_bars++] = bar;
    }
  finish_memory (b, mem, bars, n_bars);
  links = g_array_new (FALSE, FALSE, sizeof (PvTimelineLink));
  add_view_links (b, mem, links);
  set_links (mem, links);
  mem->peak_bytes = src->arena->peak_bytes;
  peak = format_bytes (src->arena->peak_bytes);
  mem->title = g_strdup_printf ("%d buffer%s · %s (%s)", src->n_arena_values,
                                src->n_arena_values == 1 ? "" : "s", peak,
                                src->arena->ordering ? src->arena->ordering : "offsets");
}

/* ORT's buffers: one lane per root OrtValue, holding every value ORT plans
 * into it, lanes in order of first use. */
static void
build_ort_view (Builder *b)
{
  const PvOrtPlan *ort = b->src->ort;
  const PvGraph *g = b->g;
  PvTimelineMemory *mem = &b->m->memory[PV_TIMELINE_MEMORY_ORT_BUFFERS];
  g_autofree int *root_of = NULL, *lane_of_root = NULL, *order = NULL;
  g_autofree double *first_use = NULL;
  PvTimelineBar *bars;
  int n_bars = 0;
  GArray *links;
  int n_roots = 0, n_reused = 0;
  guint64 allocated = 0;
  g_autofree char *allocated_text = NULL;

  if (ort == NULL)
    {
      mem->unavailable = g_strdup ("no ONNX Runtime plan");
      return;
    }
  root_of = g_new (int, MAX (ort->n_values, 1));
  lane_of_root = g_new (int, MAX (ort->n_values, 1));
  first_use = g_new (double, MAX (ort->n_values, 1));
  for (int i = 0; i < ort->n_values; i++)
    {
      const PvOrtValuePlan *vp = &ort->values[i];
      const PvValue *value = &g->values[vp->value];
      int r = vp->reused_buffer;  /* a root (pv-ort-plan.h) */
      gboolean shown = vp->kind != PV_ORT_ALLOC_NOT_SET && vp->kind != PV_ORT_ALLOC_ALLOCATE_STATICALLY &&
                       !(value->flags & (PV_VALUE_INITIALIZER | PV_VALUE_OUTER_SCOPE)) &&
                       b->value_spans[vp->value].start >= 0;
      root_of[i] = shown ? r : -1;
      lane_of_root[i] = -1;
      first_use[i] = G_MAXDOUBLE;
    }
  for (int i = 0; i < ort->n_values; i++)
    if (root_of[i] >= 0)
      first_use[root_of[i]] = MIN (first_use[root_of[i]], b->value_spans[ort->values[i].value].start);
  /* Lanes by first use, then root index. */
  order = g_new (int, MAX (ort->n_values, 1));
  for (int i = 0; i < ort->n_values; i++)
    if (first_use[i] < G_MAXDOUBLE)
      order[n_roots++] = i;
  {
    g_autofree guint64 *keys = g_new (guint64, MAX (ort->n_values, 1));
    g_autofree int *scratch = g_new (int, MAX (n_roots, 1));
    for (int i = 0; i < ort->n_values; i++)
      keys[i] = first_use[i] < G_MAXDOUBLE ? pv_sort_key_double (first_use[i]) : 0;
    pv_sort_by_key (order, n_roots, keys, scratch);
  }
  mem->n_lanes = n_roots;
  mem->lanes = g_new0 (PvTimelineLane, MAX (n_roots, 1));
  for (int l = 0; l < n_roots; l++)
    {
      int r = order[l];
      const PvOrtValuePlan *vp = &ort->values[r];
      PvTimelineLane *lane = &mem->lanes[l];
      lane_of_root[r] = l;
      lane->kind = PV_TIMELINE_LANE_BUFFER;
      lane->id = r;
      lane->device = vp->location.type;
      lane->label = vp->location.type == PV_ORT_DEVICE_CPU ? numbered ("buffer ", r)
                                                           : g_strdup_printf ("buffer %d · %s", r,
                                                                              device_name (vp->location.type));
      lane->detail = pv_timeline_short_name (g->values[vp->value].name);
      if (vp->kind == PV_ORT_ALLOC_ALLOCATE)
        allocated += b->bytes[vp->value];
    }
  bars = g_new (PvTimelineBar, MAX (b->n_by_start, 1));
  for (int k = 0; k < b->n_by_start; k++)
    {
      int i = g->values[b->by_start[k]].ort_index;
      const PvOrtValuePlan *vp;
      PvTimelineBar bar;
      if (i < 0 || i >= ort->n_values || root_of[i] < 0 || ort->values[i].value != b->by_start[k])
        continue;
      vp = &ort->values[i];
      bar = make_bar (b, vp->value, lane_of_root[root_of[i]]);
      bar.flags &= ~PV_TIMELINE_BAR_VIEW;
      switch (vp->reuse_rule)
        {
        case PV_ORT_REUSE_ALIAS:
        case PV_ORT_REUSE_VARIADIC_ALIAS:
        case PV_ORT_REUSE_LOOP_SHARE:
          bar.flags |= PV_TIMELINE_BAR_VIEW;
          break;
        case PV_ORT_REUSE_MAY_INPLACE:
          bar.flags |= PV_TIMELINE_BAR_INPLACE;
          break;
        case PV_ORT_REUSE_FREE_LIST:
        case PV_ORT_REUSE_STREAM_DOWNSTREAM:
          bar.flags |= PV_TIMELINE_BAR_REUSED;
          break;
        default:
          break;
        }
      if (i != root_of[i])
        n_reused++;
      bars[n_bars++] = bar;
    }
  finish_memory (b, mem, bars, n_bars);
  for (int l = 0; l < mem->n_lanes; l++)
    {
      guint64 m = 0;
      for (int i = mem->lanes[l].first; i < mem->lanes[l].first + mem->lanes[l].n; i++)
        m = MAX (m, mem->bars[i].bytes);
      mem->lanes[l].bytes = m;
    }
  /* Links: an aliasing or in-place output from the input whose buffer it takes. */
  links = g_array_new (FALSE, FALSE, sizeof (PvTimelineLink));
  for (int i = 0; i < mem->n_bars; i++)
    {
      const PvTimelineBar *bar = &mem->bars[i];
      const PvValue *value = &g->values[bar->value];
      const PvNode *node;
      int oi = value->ort_index;
      if (!(bar->flags & (PV_TIMELINE_BAR_VIEW | PV_TIMELINE_BAR_INPLACE)) || value->producer < 0 || oi < 0)
        continue;
      node = &g->nodes[value->producer];
      for (int k = 0; k < node->n_inputs; k++)
        {
          int in = node->inputs[k], in_oi = in >= 0 ? g->values[in].ort_index : -1;
          if (in_oi >= 0 && in_oi < ort->n_values && root_of[in_oi] == root_of[oi] && mem->value_bar[in] >= 0)
            {
              PvTimelineLink link = { mem->value_bar[in], i,
                                      (bar->flags & PV_TIMELINE_BAR_INPLACE) ? PV_TIMELINE_LINK_INPLACE
                                                                              : PV_TIMELINE_LINK_ALIAS };
              g_array_append_val (links, link);
              break;
            }
        }
    }
  set_links (mem, links);
  /* A deferred plan has no total: values of unknown size count nothing. */
  mem->peak_bytes = b->m->sizes_incomplete ? 0 : allocated;
  allocated_text = b->m->sizes_incomplete ? g_strdup ("sizes unknown, no total") : format_bytes (allocated);
  mem->title = g_strdup_printf ("%d buffer%s · %d value%s reuse one · %s%s", n_roots, n_roots == 1 ? "" : "s",
                                n_reused, n_reused == 1 ? "" : "s", allocated_text,
                                b->m->sizes_incomplete ? "" : " allocated");
}

/* ---- public ---- */

PvTimelineModel *
pv_timeline_model_new (const PvTimelineSource *source)
{
  PvTimelineModel *m;
  Builder b = { 0 };

  g_return_val_if_fail (source != NULL && source->graph != NULL, NULL);
  g_return_val_if_fail ((source->ort == NULL) == (source->schedule == NULL), NULL);

  m = g_atomic_rc_box_new0 (PvTimelineModel);
  b.src = source;
  b.g = source->graph;
  b.m = m;
  m->graph = source->graph;
  m->has_plan = source->ort != NULL;
  m->sizes_incomplete = source->slots != NULL && source->slots->deferred;
  m->load_bytes = source->load_bytes;

  build_sizes (&b);
  build_op_colours (&b);
  m->node_kernel = g_new (int, MAX (b.g->n_nodes, 1));
  for (int n = 0; n < b.g->n_nodes; n++)
    m->node_kernel[n] = -1;
  if (source->ort)
    build_streams_from_plan (&b);
  else
    build_program_order (&b);
  m->kernel_max_end = running_max (m->kernels, sizeof (PvTimelineKernel), G_STRUCT_OFFSET (PvTimelineKernel, end), m->n_kernels, m->streams,
                                   m->n_streams);
  build_value_spans (&b);
  build_start_order (&b);
  build_curves (&b);
  if (source->ort_run && source->schedule)
    pv_timeline_arena_build (&m->arena, source->ort_run, source->schedule);
  build_slots_view (&b);
  build_ort_view (&b);
  build_arena_view (&b);
  if (m->t_end <= 0)
    m->t_end = 1;

  g_free (b.value_spans);
  g_free (b.bytes);
  g_free (b.view_root);
  g_free (b.by_start);
  return m;
}

void
pv_timeline_source_init_from_session (PvTimelineSource *source, const PvSession *session)
{
  g_return_if_fail (source != NULL && session != NULL);

  memset (source, 0, sizeof *source);
  source->graph = session->graph;
  if (session->ort && session->schedule)
    {
      source->ort = session->ort;
      source->schedule = session->schedule;
    }
  source->slots = session->slots;
  source->view_source = session->view_source;
  source->view_root = session->view_root;
  source->inplace_source = session->inplace_source;
  source->arena = session->arena;
  source->arena_values = session->arena_values;
  source->n_arena_values = session->n_arena_values;
  source->value_bytes = session->value_bytes;
  source->load_bytes = session->load_bytes;
  /* Deferred: the arena simulation counts only values of known size. */
  source->ort_run = session->slots && session->slots->deferred ? NULL : session->ort_run;
  source->unbound_symbols = (const char *const *) session->unbound_symbols;
  if (session->basis && session->basis->n_shapeless > 0)
    source->no_shape_rule = (const char *const *) session->basis->no_shape_rule;
}

PvTimelineModel *
pv_timeline_model_ref (PvTimelineModel *model)
{
  return g_atomic_rc_box_acquire (model);
}

static void
free_lanes (PvTimelineLane *lanes, int n)
{
  for (int i = 0; i < n; i++)
    {
      g_free (lanes[i].label);
      g_free (lanes[i].detail);
    }
  g_free (lanes);
}

static void
model_clear (PvTimelineModel *m)
{
  free_lanes (m->streams, m->n_streams);
  g_free (m->kernels);
  g_free (m->kernel_max_end);
  g_free (m->node_kernel);
  g_free (m->marks);
  g_free (m->arrows);
  g_free (m->arrow_max_end);
  free_lanes (m->curve_lanes, m->n_curves);
  for (int c = 0; c < m->n_curves; c++)
    {
      g_free (m->curves[c].times);
      g_free (m->curves[c].bytes);
    }
  g_free (m->curves);
  pv_timeline_arena_clear (&m->arena);
  for (int v = 0; v < PV_TIMELINE_N_MEMORY_VIEWS; v++)
    {
      PvTimelineMemory *mem = &m->memory[v];
      g_free (mem->title);
      g_free (mem->unavailable);
      free_lanes (mem->lanes, mem->n_lanes);
      g_free (mem->bars);
      g_free (mem->bar_max_end);
      g_free (mem->links);
      g_free (mem->value_bar);
    }
  g_free (m->ops);
  g_free (m->node_colour);
}

void
pv_timeline_model_unref (PvTimelineModel *model)
{
  if (model)
    g_atomic_rc_box_release_full (model, (GDestroyNotify) model_clear);
}
