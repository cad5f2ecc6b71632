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

void
pv_timeline_build_streams_from_plan (Builder *b)
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
      lane->label = g_strdup_printf ("stream %d · %s", st, pv_timeline_device_name (stream->device.type));
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

