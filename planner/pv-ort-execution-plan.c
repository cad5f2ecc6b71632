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

#include <stdlib.h>
#include <string.h>

#include "pv-graph-order.h"

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

typedef struct {
  int trigger_point;
  PvOrtStepRef ref;
} DownstreamEntry;

static int
compare_ints (const void *a, const void *b)
{
  int x = *(const int *) a, y = *(const int *) b;
  return (x > y) - (x < y);
}

static int
compare_wait_pairs (const void *a, const void *b)
{
  const WaitPair *x = a, *y = b;
  if (x->waiter != y->waiter)
    return (x->waiter > y->waiter) - (x->waiter < y->waiter);
  return (x->producer > y->producer) - (x->producer < y->producer);
}

/* Trigger points, numbered stream-major then in stream order. */
static void
assign_trigger_points (PvOrtPlan *plan)
{
  const PvGraph *graph = plan->graph;

  for (int s = 0; s < plan->n_streams; s++)
    for (int k = 0; k < plan->streams[s].n_nodes; k++)
      {
        int node_id = plan->streams[s].nodes[k];
        const PvNode *node = &graph->nodes[node_id];
        gboolean crosses = FALSE;
        for (int o = 0; o < node->n_outputs && !crosses; o++)
          {
            guint n_consumers;
            const guint *consumers;
            if (node->outputs[o] < 0)
              continue;
            consumers = pv_graph_value_consumers (graph, node->outputs[o], &n_consumers);
            for (guint c = 0; c < n_consumers && !crosses; c++)
              crosses = plan->node_stream[consumers[c]] != s;
          }
        if (crosses)
          plan->node_trigger_point[node_id] = plan->n_trigger_points++;
      }
}

/* The distinct consumers of any of @node's outputs, ascending (ORT walks the
 * output edges, sorted by consumer index; repeated consumers change nothing
 * below). Returns the count written to @out. */
static int
output_nodes (const PvGraph *graph, const PvNode *node, int *out, gboolean *mark)
{
  int n = 0;

  for (int o = 0; o < node->n_outputs; o++)
    {
      guint n_consumers;
      const guint *consumers;
      if (node->outputs[o] < 0)
        continue;
      consumers = pv_graph_value_consumers (graph, node->outputs[o], &n_consumers);
      for (guint c = 0; c < n_consumers; c++)
        if (!mark[consumers[c]])
          {
            mark[consumers[c]] = TRUE;
            out[n++] = (int) consumers[c];
          }
    }
  for (int i = 0; i < n; i++)
    mark[out[i]] = FALSE;
  qsort (out, n, sizeof (int), compare_ints);
  return n;
}

/* Notifications and who waits on them. Returns the (waiter, producer)
 * pairs, sorted and unique. */
static GArray *
assign_notifications (PvOrtPlan *plan, PvStreamRegistry registry, int *scratch, gboolean *mark)
{
  const PvGraph *graph = plan->graph;
  GArray *waits = g_array_new (FALSE, FALSE, sizeof (WaitPair));

  for (int s = 0; s < plan->n_streams; s++)
    {
      int stream_device = plan->streams[s].device.type;

      /* No notification for Shape (its output is ready for every EP), nor
       * from a CPU stream (nobody registers a wait on CPU notifications). */
      if (stream_device == PV_ORT_DEVICE_CPU)
        continue;
      for (int k = 0; k < plan->streams[s].n_nodes; k++)
        {
          int node_id = plan->streams[s].nodes[k];
          const PvNode *node = &graph->nodes[node_id];
          int n_out_nodes;

          if (strcmp (node->op_type, "Shape") == 0)
            continue;
          n_out_nodes = output_nodes (graph, node, scratch, mark);
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

static void
push_step (GArray *steps, PvOrtStepKind kind, int node, int id)
{
  PvOrtStep step = { kind, node, id };
  g_array_append_val (steps, step);
}

void
pv_ort_build_execution_plan (PvOrtPlan *plan, PvStreamRegistry registry)
{
  const PvGraph *graph = plan->graph;
  int n = graph->n_nodes, max_inputs = 1;
  g_autofree int *scratch = NULL;
  g_autofree gboolean *mark = g_new0 (gboolean, MAX (n, 1));
  g_autoptr (GArray) waits = NULL;
  g_autoptr (GArray) downstream = g_array_new (FALSE, FALSE, sizeof (DownstreamEntry));

  for (int i = 0; i < n; i++)
    max_inputs = MAX (max_inputs, graph->nodes[i].n_inputs + graph->nodes[i].n_implicit_inputs);
  scratch = g_new (int, MAX (n, max_inputs));

  plan->node_notification = g_new (int, MAX (n, 1));
  plan->node_trigger_point = g_new (int, MAX (n, 1));
  for (int i = 0; i < n; i++)
    plan->node_notification[i] = plan->node_trigger_point[i] = -1;

  assign_trigger_points (plan);
  waits = assign_notifications (plan, registry, scratch, mark);

  /* Wait pairs are sorted by waiter: index them per node. */
  {
    g_autofree int *wait_start = g_new0 (int, n + 1);
    for (guint i = 0; i < waits->len; i++)
      wait_start[g_array_index (waits, WaitPair, i).waiter + 1]++;
    for (int i = 0; i < n; i++)
      wait_start[i + 1] += wait_start[i];

    for (int s = 0; s < plan->n_streams; s++)
      {
        PvOrtLogicStream *stream = &plan->streams[s];
        GArray *steps = g_array_new (FALSE, FALSE, sizeof (PvOrtStep));

        for (int k = 0; k < stream->n_nodes; k++)
          {
            int node_id = stream->nodes[k];
            int n_producers = pv_node_input_nodes (graph, &graph->nodes[node_id], scratch);

            for (int i = 0; i < n_producers; i++)
              {
                int producer = scratch[i];
                DownstreamEntry entry;
                if (plan->node_stream[producer] == s)
                  continue;
                entry.trigger_point = plan->node_trigger_point[producer];
                entry.ref.stream = s;
                entry.ref.step = (int) steps->len;
                g_assert (entry.trigger_point >= 0);
                g_array_append_val (downstream, entry);
                push_step (steps, PV_ORT_STEP_BARRIER, node_id, plan->n_barriers++);
              }
            for (int w = wait_start[node_id]; w < wait_start[node_id + 1]; w++)
              {
                int producer = g_array_index (waits, WaitPair, w).producer;
                push_step (steps, PV_ORT_STEP_WAIT_ON_EP, node_id, plan->node_notification[producer]);
              }
            plan->node_step[node_id] = (int) steps->len;
            push_step (steps, PV_ORT_STEP_LAUNCH_KERNEL, node_id, node_id);
            if (plan->node_notification[node_id] >= 0)
              push_step (steps, PV_ORT_STEP_ACTIVATE_NOTIFICATION, node_id, plan->node_notification[node_id]);
            if (plan->node_trigger_point[node_id] >= 0)
              push_step (steps, PV_ORT_STEP_TRIGGER_DOWNSTREAM, node_id, plan->node_trigger_point[node_id]);
          }
        stream->n_steps = (int) steps->len;
        stream->steps = (PvOrtStep *) g_array_free (steps, FALSE);
      }
  }

  /* downstream_map[trigger point], each list in the order barriers were added. */
  plan->downstream_start = g_new0 (int, plan->n_trigger_points + 1);
  plan->downstream = g_new (PvOrtStepRef, MAX (downstream->len, 1));
  for (guint i = 0; i < downstream->len; i++)
    plan->downstream_start[g_array_index (downstream, DownstreamEntry, i).trigger_point + 1]++;
  for (int t = 0; t < plan->n_trigger_points; t++)
    plan->downstream_start[t + 1] += plan->downstream_start[t];
  {
    g_autofree int *fill = g_memdup2 (plan->downstream_start, sizeof (int) * (plan->n_trigger_points + 1));
    for (guint i = 0; i < downstream->len; i++)
      {
        const DownstreamEntry *e = &g_array_index (downstream, DownstreamEntry, i);
        plan->downstream[fill[e->trigger_point]++] = e->ref;
      }
  }
}
