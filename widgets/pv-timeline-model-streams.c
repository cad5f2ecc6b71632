/* pv-timeline-model-streams.c: the timeline model's stream lanes: kernels,
 * step marks and sync arrows from ORT's plan and its schedule, or graph
 * order on one lane without a plan. */
#include "pv-timeline-model-private.h"

#include "pv-sort.h"

#include <string.h>

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

/* The plan's steps as timeline items while they are made: which mark each
 * step, notification and trigger point became (-1: none). */
typedef struct {
  const PvOrtPlan *plan;
  GArray *kernels, *marks, *arrows;
  int *notify_mark;             /* notification id -> its ActivateNotification mark */
  int *trigger_mark;            /* trigger point -> its TriggerDownstream mark */
  int **step_mark;              /* [stream][step] -> its mark */
} PlanItems;

/* Empty arrays sized up front: tens of thousands of steps grow no array
 * by doubling. (Allocated in the order the one function before the split
 * did, as plan_items_finish() frees them.) */
static void
plan_items_init (PlanItems *it, const PvOrtPlan *plan, int n_nodes)
{
  int n_steps = 0;

  for (int st = 0; st < plan->n_streams; st++)
    n_steps += plan->streams[st].n_steps;
  it->plan = plan;
  it->notify_mark = g_new (int, MAX (plan->n_notifications, 1));
  it->trigger_mark = g_new (int, MAX (plan->n_trigger_points, 1));
  it->step_mark = g_new0 (int *, MAX (plan->n_streams, 1));
  it->kernels = g_array_sized_new (FALSE, FALSE, sizeof (PvTimelineKernel), n_nodes);
  it->marks = g_array_sized_new (FALSE, FALSE, sizeof (PvTimelineMark), MAX (n_steps - n_nodes, 0));
  it->arrows = g_array_sized_new (FALSE, FALSE, sizeof (PvTimelineArrow),
                                  plan->n_trigger_points > 0 ? plan->downstream_start[plan->n_trigger_points] : 0);
  for (int i = 0; i < plan->n_notifications; i++)
    it->notify_mark[i] = -1;
  for (int i = 0; i < plan->n_trigger_points; i++)
    it->trigger_mark[i] = -1;
}

/* Step @i of stream @st, a barrier, wait, notification or trigger, as a
 * step mark at @start. */
static void
add_step_mark (PlanItems *it, int st, int i, double start)
{
  const PvOrtPlan *plan = it->plan;
  const PvOrtStep *step = &plan->streams[st].steps[i];
  PvTimelineMark mark = { start, PV_TIMELINE_MARK_BARRIER, st, i, step->node, step->id };

  switch (step->kind)
    {
    case PV_ORT_STEP_BARRIER: mark.kind = PV_TIMELINE_MARK_BARRIER; break;
    case PV_ORT_STEP_WAIT_ON_EP: mark.kind = PV_TIMELINE_MARK_WAIT; break;
    case PV_ORT_STEP_ACTIVATE_NOTIFICATION: mark.kind = PV_TIMELINE_MARK_NOTIFY; break;
    case PV_ORT_STEP_TRIGGER_DOWNSTREAM: mark.kind = PV_TIMELINE_MARK_TRIGGER; break;
    default: break;
    }
  it->step_mark[st][i] = (int) it->marks->len;
  if (mark.kind == PV_TIMELINE_MARK_NOTIFY && step->id >= 0 && step->id < plan->n_notifications)
    it->notify_mark[step->id] = (int) it->marks->len;
  if (mark.kind == PV_TIMELINE_MARK_TRIGGER && step->id >= 0 && step->id < plan->n_trigger_points)
    it->trigger_mark[step->id] = (int) it->marks->len;
  g_array_append_val (it->marks, mark);
}

/* Stream @st's lane: a kernel box per LaunchKernel step that ran, a mark
 * per other step. */
static void
add_stream_lane (Builder *b, PlanItems *it, int st)
{
  const PvOrtLogicStream *stream = &it->plan->streams[st];
  const PvSchedule *sched = b->src->schedule;
  PvTimelineModel *m = b->m;
  PvTimelineLane *lane = &m->streams[st];
  int n_kernels = 0;

  it->step_mark[st] = g_new (int, MAX (stream->n_steps, 1));
  lane->kind = PV_TIMELINE_LANE_STREAM;
  lane->id = st;
  lane->device = stream->device.type;
  lane->label = g_strdup_printf ("stream %d · %s", st, pv_timeline_device_name (stream->device.type));
  lane->first = (int) it->kernels->len;
  lane->first_mark = (int) it->marks->len;
  for (int i = 0; i < stream->n_steps; i++)
    {
      const PvOrtStep *step = &stream->steps[i];
      PvSpan span = sched->step_spans[st][i];
      it->step_mark[st][i] = -1;
      if (span.start < 0)
        continue;  /* never ran (deadlock) */
      if (step->kind == PV_ORT_STEP_LAUNCH_KERNEL)
        {
          PvTimelineKernel k = { span.start, span.end, step->node, st, i, m->node_colour[step->node], 0 };
          k.weight = node_weight (b, step->node);
          m->node_kernel[step->node] = (int) it->kernels->len;
          g_array_append_val (it->kernels, k);
          n_kernels++;
        }
      else
        add_step_mark (it, st, i, span.start);
    }
  lane->n = (int) it->kernels->len - lane->first;
  lane->n_marks = (int) it->marks->len - lane->first_mark;
  lane->detail = g_strdup_printf ("%d kernel%s", n_kernels, n_kernels == 1 ? "" : "s");
}

/* Arrows: trigger -> each barrier it releases; notification -> each wait;
 * then their time spans, and in (t_min, from_mark) order. */
static void
add_arrows (PlanItems *it)
{
  const PvOrtPlan *plan = it->plan;
  GArray *marks = it->marks, *arrows = it->arrows;

  for (int t = 0; t < plan->n_trigger_points; t++)
    for (int k = plan->downstream_start[t]; k < plan->downstream_start[t + 1]; k++)
      {
        const PvOrtStepRef *ref = &plan->downstream[k];
        int to;
        if (it->trigger_mark[t] < 0 || ref->stream < 0 || ref->stream >= plan->n_streams || ref->step < 0 ||
            ref->step >= plan->streams[ref->stream].n_steps)
          continue;
        to = it->step_mark[ref->stream][ref->step];
        if (to >= 0)
          {
            PvTimelineArrow a = { it->trigger_mark[t], to, PV_TIMELINE_ARROW_TRIGGER, 0, 0 };
            g_array_append_val (arrows, a);
          }
      }
  for (guint i = 0; i < marks->len; i++)
    {
      const PvTimelineMark *mk = &g_array_index (marks, PvTimelineMark, i);
      if (mk->kind == PV_TIMELINE_MARK_WAIT && mk->id >= 0 && mk->id < plan->n_notifications &&
          it->notify_mark[mk->id] >= 0)
        {
          PvTimelineArrow a = { it->notify_mark[mk->id], (int) i, PV_TIMELINE_ARROW_NOTIFY, 0, 0 };
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
}

/* Hands the arrays over to @m, with the arrows' running maximum of ends,
 * and frees the rest (in the order the one function before the split did:
 * glibc's heap then behaves the same, and so do the benchmark's figures). */
static void
plan_items_finish (PlanItems *it, PvTimelineModel *m)
{
  for (int st = 0; st < it->plan->n_streams; st++)
    g_free (it->step_mark[st]);
  m->n_kernels = (int) it->kernels->len;
  m->kernels = (PvTimelineKernel *) g_array_free (it->kernels, FALSE);
  m->n_marks = (int) it->marks->len;
  m->marks = (PvTimelineMark *) g_array_free (it->marks, FALSE);
  m->n_arrows = (int) it->arrows->len;
  m->arrows = (PvTimelineArrow *) g_array_free (it->arrows, FALSE);
  m->arrow_max_end = g_new (double, MAX (m->n_arrows, 1));
  for (int i = 0; i < m->n_arrows; i++)
    m->arrow_max_end[i] = MAX (i > 0 ? m->arrow_max_end[i - 1] : -G_MAXDOUBLE, m->arrows[i].t_max);
  g_free (it->step_mark);
  g_free (it->trigger_mark);
  g_free (it->notify_mark);
}

void
pv_timeline_build_streams_from_plan (Builder *b)
{
  const PvOrtPlan *plan = b->src->ort;
  PvTimelineModel *m = b->m;
  PlanItems it;

  plan_items_init (&it, plan, b->g->n_nodes);
  m->n_streams = plan->n_streams;
  m->streams = g_new0 (PvTimelineLane, MAX (plan->n_streams, 1));
  for (int st = 0; st < plan->n_streams; st++)
    add_stream_lane (b, &it, st);
  add_arrows (&it);
  plan_items_finish (&it, m);
  m->t_end = b->src->schedule->makespan;
  m->deadlock = b->src->schedule->deadlock;
}

/* Without a plan: graph->order at unit cost on one lane. */
void
pv_timeline_build_program_order (Builder *b)
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

