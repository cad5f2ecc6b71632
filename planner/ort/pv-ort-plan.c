/* pv-ort-plan.c: driving ORT's planner stages, the fixed parts of the
 * allocation plan (locations, graph inputs, outer-scope values, weights) and
 * ORT's plan printer.
 *
 * The stages run in ORT's CreatePlan order: partition into streams, value
 * locations, inputs and weights, execution plan (pv-ort-execution-plan.c),
 * reuse plan and deallocation plan (pv-ort-allocation-plan.c). */
#include "pv-ort-plan.h"

#include <string.h>

#include "pv-ort-allocation-plan.h"
#include "pv-ort-execution-plan.h"
#include "pv-ort-graph-view.h"
#include "pv-ort-shape-classes.h"

/* ---- devices ---- */

typedef enum {
  MEM_DEFAULT,     /* OrtMemTypeDefault */
  MEM_CPU_INPUT,   /* OrtMemTypeCPUInput */
  MEM_CPU_OUTPUT,  /* OrtMemTypeCPUOutput */
} MemType;

static const PvOrtDevice cpu_device = { PV_ORT_DEVICE_CPU, PV_ORT_MEM_DEFAULT, PV_ORT_VENDOR_NONE, 0, 0 };

/* IExecutionProvider::GetOrtDeviceByMemType of the EP of @device_type: the
 * CPU EP answers the default OrtDevice for everything; the CUDA EP answers
 * OrtDevice() for CPU inputs, pinned memory (GPU, HOST_ACCESSIBLE) for CPU
 * outputs and its GPU device otherwise. Other device types: the base class. */
static PvOrtDevice
ep_device (int device_type, MemType mem)
{
  PvOrtDevice d = cpu_device;

  if (device_type == PV_ORT_DEVICE_CPU || mem == MEM_CPU_INPUT)
    return d;
  if (device_type == PV_ORT_DEVICE_GPU)
    {
      d.type = PV_ORT_DEVICE_GPU;
      d.vendor = PV_ORT_VENDOR_NVIDIA;
      d.mem_type = mem == MEM_CPU_OUTPUT ? PV_ORT_MEM_HOST_ACCESSIBLE : PV_ORT_MEM_DEFAULT;
      return d;
    }
  if (mem == MEM_CPU_OUTPUT)
    return d;
  d.type = device_type;
  return d;
}

static gboolean
int_in (const int *list, int n, int x)
{
  for (int i = 0; i < n; i++)
    if (list[i] == x)
      return TRUE;
  return FALSE;
}

/* ---- the planner run ---- */

typedef struct {
  PvOrtPlan *plan;
  const PvGraph *graph;
  const PvOrtShapes *shapes;
  PvKernelLookup lookup;
  gpointer lookup_data;
  const PvKernelBehaviour **kernels;  /* per node id; NULL: no kernel */
  const PvOrtGraphView *view;
  const PvOrtPlan *parent_plan;       /* subgraphs */
  const PvNode *parent_node;
  guint8 *def_site;
} Planner;

static const PvKernelBehaviour empty_behaviour = { 0 };

static const PvKernelBehaviour *
lookup_kernel (const Planner *p, const PvGraph *graph, const PvNode *node)
{
  int elem = node->n_inputs > 0 && node->inputs[0] >= 0
             ? pv_ort_shapes_get (p->shapes, graph, node->inputs[0])->elem_type : -1;
  return p->lookup ? p->lookup (p->lookup_data, graph, node, elem) : &empty_behaviour;
}

/* GetInputsIncludingInitializers(): graph.input, plus Constant-made
 * initializers before IR 4. @flags: the value's. */
static gboolean
is_graph_input_incl_initializers (const PvGraph *graph, guint flags)
{
  return (flags & PV_VALUE_GRAPH_INPUT)
         || (graph->constants_listed_as_inputs && (flags & PV_VALUE_FROM_CONSTANT));
}

/* GetInputs(): graph inputs that are not initializers. */
static gboolean
required_input_flags (guint flags)
{
  return (flags & PV_VALUE_GRAPH_INPUT) && !(flags & PV_VALUE_INITIALIZER);
}

static gboolean
is_required_graph_input (const PvGraph *graph, int v)
{
  return required_input_flags (graph->values[v].flags);
}

/* PartitionIntoStreams: stream_nodes[s] holds stream s's nodes in the global
 * topological order; each stream's device is its first node's EP device, and
 * BuildExecutionPlan enforces that every node of a stream has that device. */
static gboolean
partition_into_streams (Planner *p, const PvStreamPartition *partition, int subgraph_device, GError **error)
{
  PvOrtPlan *plan = p->plan;
  const PvGraph *graph = p->graph;
  int n = graph->n_nodes;

  plan->n_nodes = n;
  plan->node_stream = g_new0 (int, MAX (n, 1));
  plan->node_step = g_new0 (int, MAX (n, 1));
  plan->node_device = g_new0 (int, MAX (n, 1));
  if (partition == NULL)
    {
      /* ORT's default partition: one stream per device type, in order of
       * first appearance. Subgraphs and CPU-only sessions have one device. */
      plan->n_streams = n > 0 ? 1 : 0;
      for (int i = 0; i < n; i++)
        plan->node_device[i] = subgraph_device;
    }
  else
    {
      if (partition->n_streams < 0)
        {
          g_set_error (error, PV_ORT_PLAN_ERROR, PV_ORT_PLAN_ERROR_PARTITION, "negative stream count");
          return FALSE;
        }
      plan->n_streams = partition->n_streams;
      for (int i = 0; i < n; i++)
        {
          int s = partition->node_stream[i];
          if (s < 0 || s >= partition->n_streams)
            {
              g_set_error (error, PV_ORT_PLAN_ERROR, PV_ORT_PLAN_ERROR_PARTITION,
                           "node “%s” is in stream %d, but there are %d streams", graph->nodes[i].name, s,
                           partition->n_streams);
              return FALSE;
            }
          plan->node_stream[i] = s;
          plan->node_device[i] = partition->node_device[i];
        }
    }

  plan->streams = g_new0 (PvOrtLogicStream, MAX (plan->n_streams, 1));
  for (int i = 0; i < n; i++)
    plan->streams[plan->node_stream[i]].n_nodes++;
  for (int s = 0; s < plan->n_streams; s++)
    {
      if (plan->streams[s].n_nodes == 0)
        {
          g_set_error (error, PV_ORT_PLAN_ERROR, PV_ORT_PLAN_ERROR_PARTITION,
                       "stream %d has no nodes: ORT gives it a null logic stream and crashes", s);
          return FALSE;
        }
      plan->streams[s].nodes = g_new (int, plan->streams[s].n_nodes);
      plan->streams[s].n_nodes = 0;
    }
  for (int k = 0; k < n; k++)
    {
      int node = graph->order[k];
      PvOrtLogicStream *stream = &plan->streams[plan->node_stream[node]];
      if (stream->n_nodes == 0)
        stream->device = ep_device (plan->node_device[node], MEM_DEFAULT);
      else if (stream->device.type != plan->node_device[node])
        {
          g_set_error (error, PV_ORT_PLAN_ERROR, PV_ORT_PLAN_ERROR_PARTITION,
                       "stream %d mixes devices: node “%s” is on device %d, the stream's first node on %d "
                       "(ORT: ORT_ENFORCE in BuildExecutionPlan)",
                       plan->node_stream[node], graph->nodes[node].name, plan->node_device[node],
                       stream->device.type);
          return FALSE;
        }
      stream->nodes[stream->n_nodes++] = node;
    }
  return TRUE;
}

/* ---- locations (ComputeValueLocation) ---- */

static void
set_location (PvOrtPlan *plan, int idx, PvOrtDevice device)
{
  plan->values[idx].location = device;
}

/* ORT's outer_scope_node_arg_to_location_map entry for @name, as the parent
 * session state builds it: the parent node's implicit inputs at their planned
 * location, then (Loop, Scan-9+) the parent's explicit inputs under the names
 * of the subgraph inputs at the same positions. */
static gboolean
outer_scope_location (const Planner *p, const char *name, PvOrtDevice *out)
{
  const PvGraph *parent = p->parent_plan->graph;
  const PvNode *node = p->parent_node;

  for (int k = 0; k < node->n_implicit_inputs; k++)
    {
      int v = node->implicit_inputs[k];
      if (strcmp (parent->values[v].name, name) == 0 && parent->values[v].ort_index >= 0)
        {
          *out = p->parent_plan->values[parent->values[v].ort_index].location;
          return TRUE;
        }
    }
  if (strcmp (node->op_type, "Loop") == 0 || (strcmp (node->op_type, "Scan") == 0 && node->opset >= 9))
    {
      int position = 0;
      for (int i = 0; i < p->graph->n_inputs; i++)
        {
          int sub_input = p->graph->inputs[i];
          if (!is_required_graph_input (p->graph, sub_input))
            continue;
          if (position < node->n_inputs && node->inputs[position] >= 0
              && strcmp (p->graph->values[sub_input].name, name) == 0)
            {
              int idx = parent->values[node->inputs[position]].ort_index;
              if (idx >= 0)
                {
                  *out = p->parent_plan->values[idx].location;
                  return TRUE;
                }
            }
          position++;
        }
    }
  return FALSE;
}

/* The location of OrtValue @idx, an implicit input (a graph input when
 * @graph_input, else an outer-scope value) of a node on @device whose
 * subgraph reads it; @explicit_consumer: a node reads it explicitly too.
 * @implicit_ep and @heterogeneous: per value, the device of the implicit
 * consumers seen so far, and whether they differ. */
static gboolean
locate_implicit_input (Planner *p, int idx, gboolean graph_input, int device, gboolean explicit_consumer,
                       int *implicit_ep, guint8 *heterogeneous, GError **error)
{
  PvOrtPlan *plan = p->plan;

  if (p->parent_node != NULL && !explicit_consumer)
    {
      /* Pass-through: keep the outer scope's location. */
      PvOrtDevice location;
      const char *name = p->graph->values[p->graph->ort_values[idx]].name;
      if (outer_scope_location (p, name, &location))
        set_location (plan, idx, location);
      else if (!graph_input)
        {
          g_set_error (error, PV_ORT_PLAN_ERROR, PV_ORT_PLAN_ERROR_KERNEL,
                       "outer-scope value “%s” has no location in the outer scope", name);
          return FALSE;
        }
    }
  else if (!explicit_consumer && !heterogeneous[idx])
    {
      /* Main graph: the device of the EP of the node holding the
       * subgraph; CPU once two EPs consume it implicitly. */
      if (implicit_ep[idx] < 0 || implicit_ep[idx] == device)
        {
          set_location (plan, idx, ep_device (device, MEM_DEFAULT));
          implicit_ep[idx] = device;
        }
      else
        {
          set_location (plan, idx, cpu_device);
          heterogeneous[idx] = TRUE;
        }
    }
  return TRUE;
}

static gboolean
compute_value_locations (Planner *p, GError **error)
{
  PvOrtPlan *plan = p->plan;
  const PvGraph *graph = p->graph;
  const PvOrtGraphView *view = p->view;
  g_autofree guint8 *explicit_consumer = g_new0 (guint8, MAX (plan->n_values, 1));
  g_autofree int *implicit_ep = NULL;          /* made for the first implicit input */
  g_autofree guint8 *heterogeneous = NULL;

  /* ProcessDef for graph inputs, outer-scope values and initializers. */
  for (int i = 0; i < graph->n_ort_values; i++)
    if (required_input_flags (view->flags[i]) || (view->flags[i] & (PV_VALUE_OUTER_SCOPE | PV_VALUE_INITIALIZER)))
      p->def_site[i] = TRUE;

  for (int s = 0; s < plan->n_streams; s++)
    for (int k = 0; k < plan->streams[s].n_nodes; k++)
      {
        int node_id = plan->streams[s].nodes[k];
        const PvKernelBehaviour *kernel = p->kernels[node_id];
        int device = plan->node_device[node_id];
        const int *uses = pv_ort_view_inputs (view, node_id), *implicit = pv_ort_view_implicit_inputs (view, node_id);
        const int *outputs = pv_ort_view_outputs (view, node_id);
        int n_inputs = pv_ort_view_n_inputs (view, node_id), n_outputs = pv_ort_view_n_outputs (view, node_id);
        int n_implicit = pv_ort_view_n_implicit_inputs (view, node_id);

        if (kernel == NULL)
          {
            const PvNode *node = &graph->nodes[node_id];
            g_set_error (error, PV_ORT_PLAN_ERROR, PV_ORT_PLAN_ERROR_KERNEL,
                         "node “%s” (%s) has no kernel: ORT fails creating the session", node->name, node->op_type);
            return FALSE;
          }
        for (int a = 0; a < n_inputs; a++)
          {
            int idx = uses[a];
            if (idx < 0)
              continue;
            if (is_graph_input_incl_initializers (graph, view->flags[idx]) || (view->flags[idx] & PV_VALUE_OUTER_SCOPE))
              {
                MemType mem = int_in (kernel->cpu_inputs, kernel->n_cpu_inputs, a) ? MEM_CPU_INPUT : MEM_DEFAULT;
                set_location (plan, idx, ep_device (device, mem));
                explicit_consumer[idx] = TRUE;
              }
          }
        for (int a = 0; a < n_implicit; a++)
          {
            int idx = implicit[a];
            gboolean graph_input;
            if (idx < 0)
              continue;
            graph_input = is_graph_input_incl_initializers (graph, view->flags[idx]);
            if (!graph_input && !(view->flags[idx] & PV_VALUE_OUTER_SCOPE))
              continue;
            if (implicit_ep == NULL)
              {
                implicit_ep = g_new (int, MAX (plan->n_values, 1));
                heterogeneous = g_new0 (guint8, MAX (plan->n_values, 1));
                for (int i = 0; i < plan->n_values; i++)
                  implicit_ep[i] = -1;
              }
            if (!locate_implicit_input (p, idx, graph_input, device, explicit_consumer[idx], implicit_ep, heterogeneous,
                                        error))
              return FALSE;
          }
        for (int o = 0; o < n_outputs; o++)
          {
            int idx = outputs[o];
            if (idx < 0)
              continue;
            p->def_site[idx] = TRUE;
            set_location (plan, idx,
                          ep_device (device, int_in (kernel->cpu_outputs, kernel->n_cpu_outputs, o) ? MEM_CPU_OUTPUT
                                                                                                     : MEM_DEFAULT));
          }
      }
  return TRUE;
}

/* ---- graph inputs, outer-scope values and weights ---- */

static gboolean
implicit_input_named (const PvGraph *graph, const PvNode *node, const char *name)
{
  for (int k = 0; k < node->n_implicit_inputs; k++)
    if (strcmp (graph->values[node->implicit_inputs[k]].name, name) == 0)
      return TRUE;
  return FALSE;
}

/* The planned graph's initializers by name -> OrtValue index + 1: what
 * subgraphs look their outer-scope weights up in. */
static GHashTable *
weight_names (const PvGraph *graph)
{
  GHashTable *weights = g_hash_table_new (g_str_hash, g_str_equal);

  for (int i = 0; i < graph->n_initializers; i++)
    {
      int v = graph->initializers[i];
      if (graph->values[v].ort_index >= 0)
        g_hash_table_insert (weights, (gpointer) graph->values[v].name,
                             GINT_TO_POINTER (graph->values[v].ort_index + 1));
    }
  return weights;
}

/* GeneratePlanForWeightsHelper: the first use of each weight, nodes in id
 * order at this level, then the subgraphs of each node (skipping names a
 * subgraph shadows). @device is the EP device of nested nodes (a subgraph
 * runs on its owner's device); -1 at the planned level, where each node has
 * its own. */
static void
collect_weight_locations (const Planner *p, const PvGraph *graph, GHashTable **weights, int depth, int device)
{
  PvOrtValuePlan *values = p->plan->values;

  for (int n = 0; n < graph->n_nodes; n++)
    {
      const PvNode *node = &graph->nodes[n];
      int node_device = depth == 0 ? p->plan->node_device[n] : device;
      const PvKernelBehaviour *kernel = NULL;
      /* the node record is a cache miss at the planned level: the view knows */
      int n_inputs = depth == 0 ? pv_ort_view_n_inputs (p->view, n) : node->n_inputs;

      for (int a = 0; a < n_inputs; a++)
        {
          int idx;
          const char *name;
          MemType mem;
          if (depth == 0)
            {
              /* at the planned level a weight is one of its own initializers
               * (read from the view: the node's input array is a cache miss) */
              idx = pv_ort_view_inputs (p->view, n)[a];
              if (idx < 0 || !(p->view->flags[idx] & PV_VALUE_INITIALIZER))
                continue;
            }
          else
            {
              int v = node->inputs[a];
              if (v < 0)
                continue;
              name = graph->values[v].name;
              if (!g_hash_table_contains (*weights, name))
                continue;
              if (!implicit_input_named (graph->parent, &graph->parent->nodes[graph->parent_node], name))
                continue;  /* a shadow value */
              idx = GPOINTER_TO_INT (g_hash_table_lookup (*weights, name)) - 1;
            }
          /* located already: its first use decided */
          if (values[idx].kind == PV_ORT_ALLOC_ALLOCATE_STATICALLY)
            continue;
          if (kernel == NULL)
            kernel = depth == 0 ? p->kernels[n] : lookup_kernel (p, graph, node);
          mem = kernel && int_in (kernel->cpu_inputs, kernel->n_cpu_inputs, a) ? MEM_CPU_INPUT : MEM_DEFAULT;
          values[idx].location = ep_device (node_device, mem);
          values[idx].kind = PV_ORT_ALLOC_ALLOCATE_STATICALLY;
        }
    }
  for (int n = 0; n < graph->n_nodes; n++)
    {
      const PvNode *node = &graph->nodes[n];
      int node_device = depth == 0 ? p->plan->node_device[n] : device;
      if (node->n_subgraphs > 0 && *weights == NULL)
        *weights = weight_names (p->graph);
      for (int s = 0; s < node->n_subgraphs; s++)
        collect_weight_locations (p, node->subgraphs[s], weights, depth + 1, node_device);
    }
}

static void
plan_inputs_and_weights (Planner *p)
{
  PvOrtPlan *plan = p->plan;
  const PvGraph *graph = p->graph;
  g_autoptr (GHashTable) weights = NULL;  /* built when a subgraph needs it */

  for (int i = 0; i < graph->n_ort_values; i++)
    if (required_input_flags (p->view->flags[i]) || (p->view->flags[i] & PV_VALUE_OUTER_SCOPE))
      plan->values[i].kind = PV_ORT_ALLOC_PRE_EXISTING;
  /* Each weight becomes kAllocateStatically at its first use's location. */
  collect_weight_locations (p, graph, &weights, 0, -1);
}

/* ---- entry points ---- */

struct _PvOrtPlanBasis {
  const PvGraph *graph;
  const PvOrtShapes *shapes;
  PvKernelLookup lookup;
  gpointer lookup_data;
  PvOrtGraphView view;
  const PvKernelBehaviour **kernels;  /* per node id */
  PvOrtShapeClass *classes;           /* per OrtValue index */
  int n_classes;
  int order_trials;                   /* pv_ort_plan_basis_set_order_trials() */
};

PvOrtPlanBasis *
pv_ort_plan_basis_new (const PvGraph *graph, const PvOrtShapes *shapes, PvKernelLookup lookup, gpointer lookup_data)
{
  PvOrtPlanBasis *basis;
  Planner p = { .graph = graph, .shapes = shapes, .lookup = lookup, .lookup_data = lookup_data };

  g_return_val_if_fail (graph != NULL && graph->node_io_at != NULL, NULL);  /* pv_graph_finish_order() ran */
  basis = g_new0 (PvOrtPlanBasis, 1);
  *basis = (PvOrtPlanBasis) { graph, shapes, lookup, lookup_data };
  pv_ort_graph_view_init (&basis->view, graph);
  basis->kernels = g_new (const PvKernelBehaviour *, MAX (graph->n_nodes, 1));
  for (int n = 0; n < graph->n_nodes; n++)
    basis->kernels[n] = lookup_kernel (&p, graph, &graph->nodes[n]);
  basis->classes = pv_ort_shape_classes_new (graph, shapes, &basis->n_classes);
  basis->order_trials = PV_ORT_DEFAULT_ORDER_TRIALS;
  return basis;
}

void
pv_ort_plan_basis_set_order_trials (PvOrtPlanBasis *basis, int n)
{
  g_return_if_fail (basis != NULL && n >= 0);
  basis->order_trials = n;
}

void
pv_ort_plan_basis_free (PvOrtPlanBasis *basis)
{
  if (basis == NULL)
    return;
  pv_ort_graph_view_clear (&basis->view);
  g_free (basis->kernels);
  g_free (basis->classes);
  g_free (basis);
}

static PvOrtPlan *
run_planner (Planner *p, const PvOrtPlanBasis *basis, const PvStreamPartition *partition, int subgraph_device,
             PvStreamRegistry registry, GError **error)
{
  PvOrtPlan *plan = g_new0 (PvOrtPlan, 1);
  const PvGraph *graph = basis->graph;
  g_autofree guint8 *def_site = g_new0 (guint8, MAX (graph->n_ort_values, 1));
  PvOrtPlanContext ctx;

  p->graph = graph;
  p->shapes = basis->shapes;
  p->lookup = basis->lookup;
  p->lookup_data = basis->lookup_data;
  p->plan = plan;
  p->def_site = def_site;
  p->kernels = basis->kernels;
  p->view = &basis->view;
  plan->graph = graph;
  plan->n_values = graph->n_ort_values;
  plan->values = g_new (PvOrtValuePlan, MAX (plan->n_values, 1));
  for (int i = 0; i < plan->n_values; i++)
    plan->values[i] = (PvOrtValuePlan) {
      .value = graph->ort_values[i],
      .kind = PV_ORT_ALLOC_NOT_SET,
      .reused_buffer = i,
      .location = cpu_device,
      .reuse_rule = PV_ORT_REUSE_NONE,
      .freed_stream = -1,
      .freed_at = -1,
    };

  if (!partition_into_streams (p, partition, subgraph_device, error))
    goto fail;
  if (!compute_value_locations (p, error))
    goto fail;
  plan_inputs_and_weights (p);
  pv_ort_build_execution_plan (plan, &basis->view, registry);

  ctx.graph = graph;
  ctx.kernels = basis->kernels;
  ctx.view = &basis->view;
  ctx.parent_node = p->parent_node;
  ctx.def_site = def_site;
  ctx.classes = basis->classes;
  ctx.n_classes = basis->n_classes;
  ctx.order_trials = basis->order_trials;
  if (!pv_ort_plan_memory (plan, &ctx, error))
    goto fail;
  return plan;

fail:
  pv_ort_plan_free (plan);
  return NULL;
}

PvOrtPlan *
pv_ort_plan_new_on_basis (const PvOrtPlanBasis *basis, const PvStreamPartition *partition, PvStreamRegistry registry,
                          GError **error)
{
  Planner p = { 0 };

  g_return_val_if_fail (basis != NULL && basis->graph->parent == NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  return run_planner (&p, basis, partition, PV_ORT_DEVICE_CPU, registry, error);
}

PvOrtPlan *
pv_ort_plan_new (const PvGraph *graph, const PvOrtShapes *shapes, const PvStreamPartition *partition,
                 PvStreamRegistry registry, PvKernelLookup lookup, gpointer lookup_data, GError **error)
{
  g_autoptr (PvOrtPlanBasis) basis = NULL;

  g_return_val_if_fail (graph != NULL && graph->node_io_at != NULL, NULL);  /* pv_graph_finish_order() ran */
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  basis = pv_ort_plan_basis_new (graph, shapes, lookup, lookup_data);
  return pv_ort_plan_new_on_basis (basis, partition, registry, error);
}

PvOrtPlan *
pv_ort_plan_new_subgraph (const PvGraph *subgraph, const PvOrtShapes *shapes, const PvOrtPlan *parent_plan,
                          PvStreamRegistry registry, PvKernelLookup lookup, gpointer lookup_data, GError **error)
{
  Planner p = { 0 };
  g_autoptr (PvOrtPlanBasis) basis = NULL;

  g_return_val_if_fail (subgraph != NULL && subgraph->parent != NULL && subgraph->node_io_at != NULL, NULL);
  g_return_val_if_fail (parent_plan != NULL && parent_plan->graph == subgraph->parent, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  p.parent_plan = parent_plan;
  p.parent_node = &subgraph->parent->nodes[subgraph->parent_node];
  basis = pv_ort_plan_basis_new (subgraph, shapes, lookup, lookup_data);
  /* The partition config is ignored below the main graph: the default
   * partition gives one stream on the owning node's device. */
  return run_planner (&p, basis, NULL, parent_plan->node_device[subgraph->parent_node], registry, error);
}

void
pv_ort_plan_free (PvOrtPlan *plan)
{
  if (plan == NULL)
    return;
  for (int s = 0; s < plan->n_streams && plan->streams; s++)
    {
      g_free (plan->streams[s].steps);
      g_free (plan->streams[s].nodes);
    }
  g_free (plan->streams);
  g_free (plan->sync_edges);
  g_free (plan->node_stream);
  g_free (plan->node_step);
  g_free (plan->node_device);
  g_free (plan->notification_owners);
  g_free (plan->node_notification);
  g_free (plan->node_trigger_point);
  g_free (plan->downstream_start);
  g_free (plan->downstream);
  g_free (plan->values);
  g_free (plan->release_actions);
  g_free (plan->node_release_start);
  g_free (plan->node_release);
  g_free (plan->notes);  /* strings and pointers are one block */
  g_free (plan);
}

/* ---- ORT's text ---- */

static void
append_step (GString *out, const PvOrtPlan *plan, const PvOrtStep *step)
{
  switch (step->kind)
    {
    case PV_ORT_STEP_BARRIER:
      /* ORT prints a fixed count. */
      g_string_append_printf (out, "Barrier - BarrierId: %d, Count: 2", step->id);
      break;
    case PV_ORT_STEP_WAIT_ON_EP:
      g_string_append_printf (out, "WaitOnEP - NotificationId: %d", step->id);
      break;
    case PV_ORT_STEP_LAUNCH_KERNEL:
      g_string_append_printf (out, "LaunchKernel - NodeIndex: %d, Name: %s", plan->graph->nodes[step->id].ort_index,
                              plan->graph->nodes[step->id].name);
      break;
    case PV_ORT_STEP_ACTIVATE_NOTIFICATION:
      g_string_append_printf (out, "ActivateNotification - NotificationId: %d", step->id);
      break;
    case PV_ORT_STEP_TRIGGER_DOWNSTREAM:
      g_string_append_printf (out, "TriggerDownstream - TriggerPointIndex: %d", step->id);
      break;
    }
}
char *
pv_ort_plan_to_ort_text (const PvOrtPlan *plan)
{
  GString *out = g_string_new (NULL);

  pv_ort_plan_append_ort_text (plan, out);
  return g_string_free (out, FALSE);
}

void
pv_ort_plan_append_ort_text (const PvOrtPlan *plan, GString *out)
{
  g_string_append (out, "Allocation Plan:\n(ort_value_idx) output_name : <allocation plan>\n");

  for (int i = 0; i < plan->n_values; i++)
    {
      const PvOrtValuePlan *vp = &plan->values[i];
      g_autofree char *location = pv_ort_device_to_string (&vp->location);
      g_string_append_printf (out, "(%d)%s : %s", i, plan->graph->values[vp->value].name,
                              pv_ort_alloc_kind_name (vp->kind));
      if (vp->kind == PV_ORT_ALLOC_REUSE)
        g_string_append_printf (out, " %d", vp->reused_buffer);
      g_string_append_printf (out, ", %s\n", location);
    }
  g_string_append (out, "\nExecution Plan:\n");
  for (int s = 0; s < plan->n_streams; s++)
    {
      const PvOrtLogicStream *stream = &plan->streams[s];
      g_string_append_printf (out, "Start logic stream: %d on device: %d\n", s, stream->device.type);
      for (int k = 0; k < stream->n_steps; k++)
        {
          append_step (out, plan, &stream->steps[k]);
          g_string_append_c (out, '\n');
        }
      g_string_append_printf (out, "End logic stream : %d\n", s);
    }
}
