/* pv-ort-execution-plan.c: the steps of ORT's logic streams, as
 * BuildExecutionPlan (ORT_ENABLE_STREAM) lays them out.
 *
 * In ORT's words: a node gets a trigger point when one of its consumers runs
 * on another stream; a node on a non-CPU stream (other than Shape) owns a
 * notification when a consumer on another stream, or a same-stream consumer
 * of a CPU-located output, can wait on it (the registry has a wait handle).
 * Each node then contributes, in its stream:
 *   Barrier (one per producer on another stream, producers ascending),
 *   WaitOnEP (one per producer it waits on, ascending NodeIndex),
 *   LaunchKernel, ActivateNotification, TriggerDownstream. */
#include "pv-ort-execution-plan.h"
#include "pv-graph-order.h"

#include <stdlib.h>
#include <string.h>


/* IStreamCommandHandleRegistry::GetWaitHandle(notification owner device,
 * waiting device) != nullptr. The CUDA EP registers (GPU, GPU) and
 * (GPU, CPU); the CPU EP registers nothing. */
static gboolean
registry_has_wait_handle (PvStreamRegistry registry, int owner_device, int waiter_device)
{
  if (registry != PV_REGISTRY_CUDA)
    return FALSE;
  return owner_device == PV_ORT_DEVICE_GPU && (waiter_device == PV_ORT_DEVICE_GPU || waiter_device == PV_ORT_DEVICE_CPU);
}

static gboolean
is_explicit_input (const PvNode *node, int value)
{
  for (int k = 0; k < node->n_inputs; k++)
    if (node->inputs[k] == value)
      return TRUE;
  return FALSE;
}

typedef struct {
  int waiter, producer;
} WaitPair;

static int
compare_wait_pairs (const void *a, const void *b)
{
  const WaitPair *x = a, *y = b;
  if (x->waiter != y->waiter)
    return (x->waiter > y->waiter) - (x->waiter < y->waiter);
  return (x->producer > y->producer) - (x->producer < y->producer);
}

/* Trigger points, numbered stream-major then in stream order: a node gets
 * one when a consumer of one of its outputs is on another stream, that is,
 * when it produces an input of a node on another stream. Returns the number
 * of such (producer, node) pairs: the barriers. */
static int
assign_trigger_points (PvOrtPlan *plan, const PvOrtGraphView *view)
{
  g_autofree guint8 *crosses = NULL;
  int n_barriers = 0;

  if (plan->n_streams < 2)
    return 0;
  crosses = g_new0 (guint8, MAX (plan->n_nodes, 1));
  for (int n = 0; n < plan->n_nodes; n++)
    for (int i = view->input_nodes_start[n]; i < view->input_nodes_start[n + 1]; i++)
      if (plan->node_stream[view->input_nodes[i]] != plan->node_stream[n])
        {
          crosses[view->input_nodes[i]] = TRUE;
          n_barriers++;
        }
  for (int s = 0; s < plan->n_streams; s++)
    for (int k = 0; k < plan->streams[s].n_nodes; k++)
      if (crosses[plan->streams[s].nodes[k]])
        plan->node_trigger_point[plan->streams[s].nodes[k]] = plan->n_trigger_points++;
  return n_barriers;
}

/* Notifications and who waits on them. Returns the (waiter, producer)
 * pairs, sorted and unique. */
static GArray *
assign_notifications (PvOrtPlan *plan, PvStreamRegistry registry)
{
  const PvGraph *graph = plan->graph;
  GArray *waits = g_array_new (FALSE, FALSE, sizeof (WaitPair));
  g_autofree int *scratch = NULL;
  g_autofree gboolean *mark = NULL;

  for (int s = 0; s < plan->n_streams; s++)
    {
      int stream_device = plan->streams[s].device.type;

      /* No notification for Shape (its output is ready for every EP), nor
       * from a CPU stream (nobody registers a wait on CPU notifications). */
      if (stream_device == PV_ORT_DEVICE_CPU)
        continue;
      if (scratch == NULL)
        {
          scratch = g_new (int, MAX (plan->n_nodes, 1));
          mark = g_new0 (gboolean, MAX (plan->n_nodes, 1));
        }
      for (int k = 0; k < plan->streams[s].n_nodes; k++)
        {
          int node_id = plan->streams[s].nodes[k];
          const PvNode *node = &graph->nodes[node_id];
          int n_out_nodes;

          if (strcmp (node->op_type, "Shape") == 0)
            continue;
          n_out_nodes = pv_node_output_nodes (graph, node, scratch, mark);
          for (int c = 0; c < n_out_nodes; c++)
            {
              int consumer = scratch[c];
              gboolean consumed_in_subgraph = TRUE;
              for (int o = 0; o < node->n_outputs; o++)
                {
                  int v = node->outputs[o], device;
                  if (v < 0 || !is_explicit_input (&graph->nodes[consumer], v))
                    continue;
                  consumed_in_subgraph = FALSE;
                  /* The handle is looked up by the output's location, not by
                   * the consumer's stream. */
                  device = plan->values[graph->values[v].ort_index].location.type;
                  if ((plan->node_stream[consumer] != s || device == PV_ORT_DEVICE_CPU)
                      && registry_has_wait_handle (registry, stream_device, device))
                    {
                      WaitPair pair = { consumer, node_id };
                      if (plan->node_notification[node_id] < 0)
                        plan->node_notification[node_id] = plan->n_notifications++;
                      g_array_append_val (waits, pair);
                    }
                }
              if (consumed_in_subgraph && plan->node_stream[consumer] != s
                  && registry_has_wait_handle (registry, stream_device,
                                               plan->streams[plan->node_stream[consumer]].device.type))
                {
                  WaitPair pair = { consumer, node_id };
                  if (plan->node_notification[node_id] < 0)
                    plan->node_notification[node_id] = plan->n_notifications++;
                  g_array_append_val (waits, pair);
                }
            }
        }
    }

  plan->notification_owners = g_new (int, MAX (plan->n_notifications, 1));
  for (int n = 0; n < plan->n_nodes; n++)
    if (plan->node_notification[n] >= 0)
      plan->notification_owners[plan->node_notification[n]] = plan->node_stream[n];

  g_array_sort (waits, compare_wait_pairs);
  {
    guint w = 0;
    for (guint i = 0; i < waits->len; i++)
      if (w == 0 || compare_wait_pairs (&g_array_index (waits, WaitPair, w - 1), &g_array_index (waits, WaitPair, i)) != 0)
        g_array_index (waits, WaitPair, w++) = g_array_index (waits, WaitPair, i);
    g_array_set_size (waits, w);
  }
  return waits;
}

/* The plan's sync edges, from its trigger points and waits. */
static void
collect_sync_edges (PvOrtPlan *plan)
{
  int n_edges = plan->n_trigger_points > 0 ? plan->downstream_start[plan->n_trigger_points] : 0;
  g_autofree int *trigger_owner = g_new (int, MAX (plan->n_trigger_points, 1));
  g_autofree int *notification_node = g_new (int, MAX (plan->n_notifications, 1));
  int (*edges)[2];

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
  edges = g_malloc_n (MAX (n_edges, 1), sizeof (int[2]));
  n_edges = 0;
  for (int t = 0; t < plan->n_trigger_points; t++)
    for (int k = plan->downstream_start[t]; k < plan->downstream_start[t + 1]; k++)
      {
        const PvOrtStepRef *ref = &plan->downstream[k];
        edges[n_edges][0] = trigger_owner[t];
        edges[n_edges++][1] = plan->streams[ref->stream].steps[ref->step].node;
      }
  for (int st = 0; st < plan->n_streams && plan->n_notifications > 0; st++)
    for (int i = 0; i < plan->streams[st].n_steps; i++)
      {
        const PvOrtStep *step = &plan->streams[st].steps[i];
        if (step->kind == PV_ORT_STEP_WAIT_ON_EP && step->id >= 0 && step->id < plan->n_notifications)
          {
            edges[n_edges][0] = notification_node[step->id];
            edges[n_edges++][1] = step->node;
          }
      }
  plan->sync_edges = edges;
  plan->n_sync_edges = n_edges;
}

void
pv_ort_build_execution_plan (PvOrtPlan *plan, const PvOrtGraphView *view, PvStreamRegistry registry)
{
  int n = plan->graph->n_nodes, n_barriers;
  g_autoptr (GArray) waits = NULL;
  g_autofree int *wait_start = g_new0 (int, n + 1);
  g_autofree int *fill = NULL;

  plan->node_notification = g_new (int, MAX (n, 1));
  plan->node_trigger_point = g_new (int, MAX (n, 1));
  for (int i = 0; i < n; i++)
    plan->node_notification[i] = plan->node_trigger_point[i] = -1;

  n_barriers = assign_trigger_points (plan, view);
  waits = assign_notifications (plan, registry);

  /* Wait pairs are sorted by waiter: index them per node. */
  for (guint i = 0; i < waits->len; i++)
    wait_start[g_array_index (waits, WaitPair, i).waiter + 1]++;
  for (int i = 0; i < n; i++)
    wait_start[i + 1] += wait_start[i];

  /* Count each stream's steps and each trigger point's barriers, then lay
   * the steps out. downstream_map[trigger point] lists its barriers in the
   * order they are added. */
  plan->downstream_start = g_new0 (int, plan->n_trigger_points + 1);
  plan->downstream = g_new (PvOrtStepRef, MAX (n_barriers, 1));
  for (int pass = 0; pass < 2; pass++)
    {
      if (pass == 1)
        {
          for (int s = 0; s < plan->n_streams; s++)
            plan->streams[s].steps = g_new (PvOrtStep, MAX (plan->streams[s].n_steps, 1));
          for (int t = 0; t < plan->n_trigger_points; t++)
            plan->downstream_start[t + 1] += plan->downstream_start[t];
          fill = g_memdup2 (plan->downstream_start, sizeof (int) * (plan->n_trigger_points + 1));
        }
      for (int s = 0; s < plan->n_streams; s++)
        {
          PvOrtLogicStream *stream = &plan->streams[s];
          PvOrtStep *steps = stream->steps;
          int n_steps = 0;

          for (int k = 0; k < stream->n_nodes; k++)
            {
              int node_id = stream->nodes[k];

              /* Barriers: one per producer on another stream. */
              for (int i = view->input_nodes_start[node_id]; n_barriers > 0 && i < view->input_nodes_start[node_id + 1];
                   i++)
                {
                  int producer = view->input_nodes[i], t = plan->node_trigger_point[producer];
                  if (plan->node_stream[producer] == s)
                    continue;
                  g_assert (t >= 0);
                  if (pass == 0)
                    plan->downstream_start[t + 1]++;
                  else
                    {
                      plan->downstream[fill[t]++] = (PvOrtStepRef) { s, n_steps };
                      steps[n_steps] = (PvOrtStep) { PV_ORT_STEP_BARRIER, node_id, plan->n_barriers++ };
                    }
                  n_steps++;
                }
              if (pass == 0)
                {
                  n_steps += wait_start[node_id + 1] - wait_start[node_id] + 1
                             + (plan->node_notification[node_id] >= 0) + (plan->node_trigger_point[node_id] >= 0);
                  continue;
                }
              for (int w = wait_start[node_id]; w < wait_start[node_id + 1]; w++)
                {
                  int producer = g_array_index (waits, WaitPair, w).producer;
                  steps[n_steps++] = (PvOrtStep) { PV_ORT_STEP_WAIT_ON_EP, node_id, plan->node_notification[producer] };
                }
              plan->node_step[node_id] = n_steps;
              steps[n_steps++] = (PvOrtStep) { PV_ORT_STEP_LAUNCH_KERNEL, node_id, node_id };
              if (plan->node_notification[node_id] >= 0)
                steps[n_steps++] = (PvOrtStep) { PV_ORT_STEP_ACTIVATE_NOTIFICATION, node_id,
                                                 plan->node_notification[node_id] };
              if (plan->node_trigger_point[node_id] >= 0)
                steps[n_steps++] = (PvOrtStep) { PV_ORT_STEP_TRIGGER_DOWNSTREAM, node_id,
                                                 plan->node_trigger_point[node_id] };
            }
          stream->n_steps = n_steps;
        }
    }
  collect_sync_edges (plan);
}
