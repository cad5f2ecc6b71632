/* pv-ort-allocation-plan.c: ORT's reuse plan and deallocation plan.
 *
 * ComputeReusePlan runs one pass per logic stream, each starting from the use
 * counts of all streams' nodes (ORT recomputes the same counts before every
 * pass; planviz keeps them in the plan's values) and an empty free list. The
 * multi-stream pass is in pv-ort-multi-stream.c. When some device
 * has two non-empty streams (IsSingleStream() false), the passes run as in
 * parallel mode without memory reuse, and OptimizeReusePlanForMultiStream
 * then rewrites the plan with its dependency-aware greedy pass.
 *
 * Shapes are seen as ORT sees them: a TensorShapeProto per NodeArg, compared
 * dim by dim (equal dim_value, or equal non-empty dim_param), which
 * pv-ort-shape-classes.h turns into SameSize() classes. See the header of
 * pv-ort-plan.h for how planviz maps its symbolic dims onto that. */
#include "pv-ort-allocation-plan.h"

#include <string.h>

#include "pv-error.h"
#include "pv-ort-allocation-plan-private.h"

/* ---- the free list ---- */

static int *
free_list_of (PvOrtReuse *p, int v)
{
  return &p->free_head[p->shapes[v].size_class * p->n_locations + p->location[v]];
}

static void
free_list_push_front (PvOrtReuse *p, int v)
{
  int *head;

  /* Never taken: not worth keeping (see PvOrtReuse.free_head). */
  if (!p->ctx->def_site[v] || p->shapes[v].optional || p->shapes[v].size_class < 0)
    return;
  head = free_list_of (p, v);
  p->free_prev[v] = -1;
  p->free_next[v] = *head;
  if (*head >= 0)
    p->free_prev[*head] = v;
  *head = v;
}

static void
free_list_erase (PvOrtReuse *p, int v)
{
  if (p->free_prev[v] >= 0)
    p->free_next[p->free_prev[v]] = p->free_next[v];
  else
    *free_list_of (p, v) = p->free_next[v];
  if (p->free_next[v] >= 0)
    p->free_prev[p->free_next[v]] = p->free_prev[v];
}

/* Reuse(reused, reused_for, kind): share the original buffer behind @reused. */
static void
reuse (PvOrtReuse *p, int reused, int current, PvOrtAllocKind kind, PvOrtReuseRule rule)
{
  int original = p->buffer[reused];
  PvOrtValuePlan *vp = &p->plan->values[current];

  g_assert (reused != current);
  p->buffer[current] = original;
  p->use_count[original] += p->use_count[current];
  vp->kind = kind;
  vp->reused_buffer = original;
  vp->reuse_rule = rule;
}

/* ComputeReuseCount(). */
static void
compute_use_counts (PvOrtReuse *p)
{
  const PvGraph *graph = p->graph;
  const PvOrtGraphView *view = p->view;
  PvOrtPlan *plan = p->plan;

  /* graph inputs (not initializers), outer-scope values, initializers */
  for (int i = 0; i < p->n_values; i++)
    if (view->flags[i] & (PV_VALUE_GRAPH_INPUT | PV_VALUE_OUTER_SCOPE | PV_VALUE_INITIALIZER))
      p->use_count[i]++;
  /* every input and implicit-input use, every output definition */
  for (int s = 0; s < plan->n_streams; s++)
    for (int k = 0; k < plan->streams[s].n_nodes; k++)
      {
        int node = plan->streams[s].nodes[k];
        for (int i = view->io_at[3 * node]; i < view->io_at[3 * node + 3]; i++)
          if (view->io[i] >= 0)
            p->use_count[view->io[i]]++;
      }
  for (int i = 0; i < graph->n_outputs; i++)
    p->use_count[graph->values[graph->outputs[i]].ort_index]++;
}

/* IsSingleStream(): no device type has two non-empty logic streams. */
static gboolean
is_single_stream (const PvOrtPlan *plan)
{
  for (int s = 0; s < plan->n_streams; s++)
    for (int t = 0; t < s; t++)
      if (plan->streams[s].n_nodes > 0 && plan->streams[t].n_nodes > 0
          && plan->streams[s].device.type == plan->streams[t].device.type)
        return FALSE;
  return TRUE;
}

/* ---- one stream (ComputeSingleStreamReusePlan) ---- */

/* FindReusableInput(): Alias pairs, then VariadicAlias, then MayInplace
 * (last use of the input's buffer, producer without ExternalOutputs, same
 * size). Returns the input's OrtValue index or -1. */
static int
find_reusable_input (PvOrtReuse *p, int node_id, const PvKernelBehaviour *kernel, int output, PvOrtReuseRule *rule)
{
  const int *inputs = pv_ort_reuse_inputs (p, node_id);
  int n_inputs = pv_ort_view_n_inputs (p->view, node_id);

  for (int i = 0; i < kernel->n_alias; i++)
    {
      int in = kernel->alias[i][0];
      if (kernel->alias[i][1] != output || in < 0 || in >= n_inputs || inputs[in] < 0)
        continue;
      /* Must alias, even when the producer has external outputs. */
      *rule = PV_ORT_REUSE_ALIAS;
      return inputs[in];
    }
  if (kernel->has_variadic_alias)
    {
      int in = output - kernel->variadic_output_offset + kernel->variadic_input_offset;
      if (in >= 0 && in < n_inputs && inputs[in] >= 0)
        {
          *rule = PV_ORT_REUSE_VARIADIC_ALIAS;
          return inputs[in];
        }
    }
  for (int i = 0; i < kernel->n_may_inplace; i++)
    {
      int in = kernel->may_inplace[i][0];
      if (kernel->may_inplace[i][1] != output || in < 0 || in >= n_inputs || inputs[in] < 0)
        continue;
      if (p->use_count[p->buffer[inputs[in]]] != 1)
        continue;
      if (pv_ort_reuse_from_external_outputs (p, inputs[in]))
        continue;
      if (pv_ort_same_size (&p->shapes[inputs[in]], &p->shapes[pv_ort_reuse_outputs (p, node_id)[output]]))
        {
          *rule = PV_ORT_REUSE_MAY_INPLACE;
          return inputs[in];
        }
    }
  return -1;
}

/* FindReusableTensor(): the first buffer on the free list (most recently
 * freed first) with the same location and size; scalars and unknown shapes
 * never reuse, optional values are never taken. That buffer heads the list
 * of @current's size class and location. */
static int
find_reusable_tensor (PvOrtReuse *p, int current)
{
  const PvOrtShapeClass *required = &p->shapes[current];
  int it;

  if (!required->has_shape || required->scalar || required->size_class < 0)
    return -1;
  it = *free_list_of (p, current);
  if (it >= 0)
    free_list_erase (p, it);
  return it;
}

static void
release_use (PvOrtReuse *p, int idx, int stream, int position)
{
  int original = p->buffer[idx];
  if (original >= 0 && --p->use_count[original] == 0)
    {
      free_list_push_front (p, original);
      p->plan->values[original].freed_stream = stream;
      p->plan->values[original].freed_at = position;
    }
}

/* The first graph input (not an initializer): a Loop body's iteration number. */
static int
first_required_input (const PvGraph *graph)
{
  for (int i = 0; i < graph->n_inputs; i++)
    if (!(graph->values[graph->inputs[i]].flags & PV_VALUE_INITIALIZER))
      return graph->inputs[i];
  return -1;
}

static gboolean
plan_stream (PvOrtReuse *p, int s, gboolean parallel, gboolean mem_reuse, GError **error)
{
  const PvGraph *graph = p->graph;
  PvOrtPlan *plan = p->plan;
  const PvOrtLogicStream *stream = &plan->streams[s];
  const PvNode *parent = p->ctx->parent_node;
  gboolean loop_body = parent && strcmp (parent->op_type, "Loop") == 0;

  for (int pc = 0; pc < stream->n_nodes; pc++)
    {
      int node_id = stream->nodes[pc];
      const PvNode *node = &graph->nodes[node_id];  /* read for errors and Loop bodies only: a cache miss */
      const PvKernelBehaviour *kernel = p->ctx->kernels[node_id];
      const int *inputs = pv_ort_reuse_inputs (p, node_id), *outputs = pv_ort_reuse_outputs (p, node_id);
      int n_inputs = pv_ort_view_n_inputs (p->view, node_id), n_uses = pv_ort_view_n_uses (p->view, node_id);
      int n_outputs = pv_ort_view_n_outputs (p->view, node_id);
      gboolean external = kernel->external_outputs;

      for (int o = 0; o < n_outputs; o++)
        {
          int current = outputs[o], reused;
          PvOrtValuePlan *vp;
          PvOrtReuseRule rule = PV_ORT_REUSE_NONE;

          if (current < 0)  /* an omitted output */
            continue;
          vp = &plan->values[current];
          if (external)
            {
              if (p->shapes[current].non_tensor)
                {
                  g_set_error (error, PV_ORT_PLAN_ERROR, PV_ORT_PLAN_ERROR_KERNEL,
                               "node “%s”: ExternalOutputs on the non-tensor output “%s” (ORT: \"Only tensors are "
                               "supported for external outputs for now.\")",
                               node->name, graph->values[node->outputs[o]].name);
                  return FALSE;
                }
              vp->kind = PV_ORT_ALLOC_ALLOCATED_EXTERNALLY;
            }
          else if (p->view->flags[current] & PV_VALUE_GRAPH_OUTPUT)
            {
              vp->kind = PV_ORT_ALLOC_ALLOCATE_OUTPUT;
              /* A Loop body passing a pre-existing value (not the iteration
               * number) through an Identity shares it instead of copying. */
              if (loop_body && strcmp (node->op_type, "Identity") == 0 && n_inputs > 0 && node->inputs[0] >= 0
                  && node->inputs[0] != first_required_input (graph))
                {
                  if (plan->values[inputs[0]].kind == PV_ORT_ALLOC_PRE_EXISTING)
                    reuse (p, inputs[0], current, PV_ORT_ALLOC_SHARE, PV_ORT_REUSE_LOOP_SHARE);
                }
            }
          else if (!parallel && (reused = find_reusable_input (p, node_id, kernel, o, &rule)) >= 0)
            reuse (p, reused, current, PV_ORT_ALLOC_REUSE, rule);
          else if (p->shapes[current].non_tensor)
            vp->kind = PV_ORT_ALLOC_ALLOCATE;
          else if (!parallel && mem_reuse && (p->view->flags[current] & PV_ORT_VIEW_CONSUMED)
                   && (reused = find_reusable_tensor (p, current)) >= 0)
            reuse (p, reused, current, PV_ORT_ALLOC_REUSE, PV_ORT_REUSE_FREE_LIST);
          else
            vp->kind = PV_ORT_ALLOC_ALLOCATE;
        }

      /* Parallel mode plans no reuse: nothing to count down. */
      if (parallel)
        continue;
      /* Inputs whose producer has external outputs are never released. */
      for (int a = 0; a < n_uses; a++)
        if (inputs[a] >= 0 && !pv_ort_reuse_from_external_outputs (p, inputs[a]))
          release_use (p, inputs[a], s, pc);
      if (!external)
        for (int o = 0; o < n_outputs; o++)
          if (outputs[o] >= 0)
            release_use (p, outputs[o], s, pc);
    }
  return TRUE;
}

/* ---- GenerateDeallocationPlan ---- */

static void
generate_deallocation_plan (PvOrtReuse *p)
{
  PvOrtPlan *plan = p->plan;
  int n_values = plan->n_values, n_nodes = plan->n_nodes, n_actions = 0, n_spread = 0;
  g_autofree int *root = g_new (int, MAX (n_values, 1));
  g_autofree int *first = g_new (int, MAX (n_values, 1));
  g_autofree int *count = g_new0 (int, MAX (n_values, 1));
  g_autofree guint8 *spread = g_new0 (guint8, MAX (n_values, 1));
  g_autofree int *action_of = g_new (int, MAX (n_values, 1));
  g_autofree int *spread_start = NULL;
  g_autofree int *spread_nodes = NULL;
  g_autofree int *at = NULL;

  /* Which buffer each value releases: its root, when the root is
   * kAllocate or kAllocatedExternally. */
  for (int i = 0; i < n_values; i++)
    {
      int origin = plan->values[i].reused_buffer;
      PvOrtAllocKind kind = plan->values[origin].kind;
      root[i] = kind == PV_ORT_ALLOC_ALLOCATE || kind == PV_ORT_ALLOC_ALLOCATED_EXTERNALLY ? origin : -1;
    }

  /* Consumers of each root buffer: streams in order, each walked from its
   * end, so that with one stream the first consumer is the last to run.
   * A root whose consumers are all on one stream needs only that first
   * consumer; the others ("spread") need every use, in that order. */
  for (int pass = 0; pass < 2; pass++)
    {
      for (int s = 0; s < plan->n_streams; s++)
        for (int k = plan->streams[s].n_nodes - 1; k >= 0; k--)
          {
            int node_id = plan->streams[s].nodes[k];
            const int *uses = pv_ort_reuse_inputs (p, node_id);
            for (int a = 0; a < pv_ort_view_n_uses (p->view, node_id); a++)
              {
                int r = uses[a] >= 0 ? root[uses[a]] : -1;
                if (r < 0)
                  continue;
                if (pass == 1)
                  {
                    if (spread[r])
                      spread_nodes[at[r]++] = node_id;
                    continue;
                  }
                if (count[r]++ == 0)
                  first[r] = node_id;
                else if (!spread[r] && plan->node_stream[node_id] != plan->node_stream[first[r]])
                  {
                    spread[r] = TRUE;
                    n_spread++;
                  }
              }
          }
      if (pass == 1 || n_spread == 0)
        break;
      spread_start = g_new0 (int, n_values + 1);
      for (int i = 0; i < n_values; i++)
        spread_start[i + 1] = spread_start[i] + (spread[i] ? count[i] : 0);
      spread_nodes = g_new (int, MAX (spread_start[n_values], 1));
      at = g_memdup2 (spread_start, sizeof (int) * n_values);
    }

  /* One action per root with consumers, in root order. One stream: it is
   * released after its last consumer. Otherwise every consumer (one entry
   * per use) counts down. */
  for (int i = 0; i < n_values; i++)
    action_of[i] = count[i] > 0 ? n_actions++ : -1;
  plan->n_release_actions = n_actions;
  plan->release_actions = g_new (PvOrtReleaseAction, MAX (n_actions, 1));
  plan->node_release_start = g_new0 (int, n_nodes + 1);
  for (int i = 0; i < n_values; i++)
    {
      if (action_of[i] < 0)
        continue;
      plan->release_actions[action_of[i]] = (PvOrtReleaseAction) { i, spread[i] ? count[i] : 1 };
      if (!spread[i])
        plan->node_release_start[first[i] + 1]++;
      else
        for (int j = spread_start[i]; j < spread_start[i + 1]; j++)
          plan->node_release_start[spread_nodes[j] + 1]++;
    }
  for (int n = 0; n < n_nodes; n++)
    plan->node_release_start[n + 1] += plan->node_release_start[n];
  plan->node_release = g_new (int, MAX (plan->node_release_start[n_nodes], 1));
  {
    /* Each node's list in action order. */
    g_autofree int *fill = g_memdup2 (plan->node_release_start, sizeof (int) * (n_nodes + 1));
    for (int i = 0; i < n_values; i++)
      {
        if (action_of[i] < 0)
          continue;
        if (!spread[i])
          plan->node_release[fill[first[i]]++] = action_of[i];
        else
          for (int j = spread_start[i]; j < spread_start[i + 1]; j++)
            plan->node_release[fill[spread_nodes[j]]++] = action_of[i];
      }
  }
}

/* What ORT prints for @p's notes: the NULL-terminated strings and the
 * pointers to them in one allocation (a note per Alias reuse of the
 * multi-stream pass: thousands of small strings otherwise). */
static char **
notes_text (const PvOrtReuse *p)
{
  const PvGraph *graph = p->graph;
  static const char middle[] = " reused by ", end[] = " as input";
  gsize size = sizeof (char *) * (p->notes->len + 1);
  char **notes;
  char *at;

  for (guint i = 0; i < p->notes->len; i++)
    {
      const int *note = &g_array_index (p->notes, int, 2 * i);
      size += strlen (graph->values[graph->ort_values[note[0]]].name)
              + strlen (graph->values[graph->ort_values[note[1]]].name) + sizeof middle + sizeof end - 1;
    }
  notes = g_malloc (size);
  at = (char *) &notes[p->notes->len + 1];
  for (guint i = 0; i < p->notes->len; i++)
    {
      const int *note = &g_array_index (p->notes, int, 2 * i);
      notes[i] = at;
      at = g_stpcpy (at, graph->values[graph->ort_values[note[0]]].name);
      at = g_stpcpy (at, middle);
      at = g_stpcpy (at, graph->values[graph->ort_values[note[1]]].name);
      at = g_stpcpy (at, end) + 1;
    }
  notes[p->notes->len] = NULL;
  return notes;
}

/* The distinct locations of @p's values, numbered. */
static void
number_locations (PvOrtReuse *p)
{
  GArray *seen = g_array_new (FALSE, FALSE, sizeof (PvOrtDevice));

  p->location = g_new (int, MAX (p->n_values, 1));
  for (int i = 0; i < p->n_values; i++)
    {
      const PvOrtDevice *d = &p->plan->values[i].location;
      guint k = 0;
      while (k < seen->len && !pv_ort_device_equal (&g_array_index (seen, PvOrtDevice, k), d))
        k++;
      if (k == seen->len)
        g_array_append_val (seen, *d);
      p->location[i] = (int) k;
    }
  p->n_locations = MAX ((int) seen->len, 1);
  g_array_unref (seen);
}

/* ---- ComputeReusePlan, then GenerateDeallocationPlan ---- */

gboolean
pv_ort_plan_memory (PvOrtPlan *plan, const PvOrtPlanContext *ctx, GError **error)
{
  PvOrtReuse p = { 0 };
  const PvGraph *graph = ctx->graph;
  int n_lists;
  gboolean ok = TRUE;

  p.plan = plan;
  p.ctx = ctx;
  p.graph = graph;
  p.n_values = plan->n_values;
  p.view = ctx->view;
  p.producer = ctx->view->producer;
  p.shapes = ctx->classes;
  p.n_classes = ctx->n_classes;
  number_locations (&p);
  n_lists = MAX (p.n_classes * p.n_locations, 1);
  p.buffer = g_new (int, MAX (p.n_values, 1));
  p.free_head = g_new (int, n_lists);
  p.free_next = g_new (int, MAX (p.n_values, 1));
  p.free_prev = g_new (int, MAX (p.n_values, 1));
  p.notes = g_array_new (FALSE, FALSE, sizeof (int[2]));

  /* ComputeReuseCount() gives the same counts before every pass. */
  p.use_count = g_new0 (int, MAX (p.n_values, 1));
  compute_use_counts (&p);
  for (int i = 0; i < p.n_values; i++)
    plan->values[i].use_count = p.use_count[i];

  plan->single_stream = is_single_stream (plan);
  for (int s = 0; s < plan->n_streams && ok; s++)
    {
      /* Several streams on one device: no reuse in this pass (parallel
       * execution mode, memory reuse off), and so no counting down: one
       * start is enough. */
      if (plan->single_stream || s == 0)
        {
          for (int i = 0; i < p.n_values; i++)
            {
              p.use_count[i] = plan->values[i].use_count;
              p.buffer[i] = i;
            }
          /* The free list starts empty. */
          for (int i = 0; i < n_lists; i++)
            p.free_head[i] = -1;
        }
      ok = plan_stream (&p, s, !plan->single_stream, plan->single_stream, error);
    }
  g_clear_pointer (&p.use_count, g_free);
  g_clear_pointer (&p.buffer, g_free);
  g_clear_pointer (&p.free_head, g_free);
  g_clear_pointer (&p.free_next, g_free);
  g_clear_pointer (&p.free_prev, g_free);
  if (ok && !plan->single_stream)
    pv_ort_optimize_multi_stream (&p);
  g_clear_pointer (&p.location, g_free);
  /* The passes' arrays are gone: the deallocation plan's scratch takes
   * their (already touched) memory. */
  if (ok)
    generate_deallocation_plan (&p);

  plan->notes = notes_text (&p);
  g_array_unref (p.notes);
  return ok;
}
