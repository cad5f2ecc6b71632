/* pv-ort-allocation-plan.c: ORT's reuse plan and deallocation plan.
 *
 * ComputeReusePlan runs one pass per logic stream (use counts recomputed over
 * all streams each time, free list emptied between streams). When some device
 * has two non-empty streams (IsSingleStream() false), the passes run as in
 * parallel mode without memory reuse, and OptimizeReusePlanForMultiStream
 * then rewrites the plan with its dependency-aware greedy pass.
 *
 * Shapes are seen as ORT sees them: a TensorShapeProto per NodeArg, compared
 * dim by dim (equal dim_value, or equal non-empty dim_param). See the header
 * of pv-ort-plan.h for how planviz maps its symbolic dims onto that. */
#include "pv-ort-allocation-plan.h"

#include <string.h>

#include "pv-element-type.h"

/* ---- ORT's view of a value's type and shape ---- */

typedef enum {
  DIM_EMPTY,   /* neither dim_value nor dim_param */
  DIM_VALUE,
  DIM_PARAM,
} OrtDimKind;

typedef struct {
  OrtDimKind kind;
  gint64 value;
  const char *param;
} OrtDim;

typedef struct {
  gboolean has_shape;     /* NodeArg::Shape() != nullptr */
  int rank;
  OrtDim *dims;
  int elem_bytes;         /* element size; 0 when planviz does not know the type */
  gboolean is_string;
  gboolean non_tensor;    /* IsNonTensor(): sequence, map, optional, sparse */
  gboolean optional;
  gsize byte_size_long;   /* TensorShapeProto::ByteSizeLong() */
} OrtShape;

static gsize
varint_size (guint64 v)
{
  gsize n = 1;
  while (v >= 0x80)
    {
      v >>= 7;
      n++;
    }
  return n;
}

/* The serialized size of a TensorShapeProto: per dim, field 1 (tag, length,
 * Dimension message); a Dimension holds dim_value (field 1, varint; negative
 * values take 10 bytes) or dim_param (field 2, string) or nothing. */
static gsize
shape_proto_byte_size (const OrtShape *shape)
{
  gsize total = 0;
  for (int i = 0; i < shape->rank; i++)
    {
      const OrtDim *d = &shape->dims[i];
      gsize dim = 0;
      if (d->kind == DIM_VALUE)
        dim = 1 + varint_size ((guint64) d->value);
      else if (d->kind == DIM_PARAM)
        dim = 1 + varint_size (strlen (d->param)) + strlen (d->param);
      total += 1 + varint_size (dim) + dim;
    }
  return total;
}

static int
element_bytes (int elem_type)
{
  guint bits = pv_element_type_bits (elem_type);
  /* ORT stores sub-byte types packed (Int4x2, Float4E2M1x2): one byte each. */
  return bits == 0 ? 0 : (int) MAX (1u, bits / 8);
}

static void
collect_input_symbols (const PvGraph *graph, GHashTable *symbols)
{
  for (int i = 0; i < graph->n_inputs; i++)
    {
      const PvType *type = &graph->values[graph->inputs[i]].type;
      for (int d = 0; d < type->rank; d++)
        if (type->dims[d].kind == PV_DIM_SYMBOL && type->dims[d].symbol && type->dims[d].symbol[0])
          g_hash_table_add (symbols, (gpointer) type->dims[d].symbol);
    }
}

/* Fills @out for OrtValue @idx; dims come from @store. */
static void
ort_shape_of (const PvOrtPlanContext *ctx, GHashTable *model_symbols, int idx, OrtShape *out, OrtDim *store)
{
  const PvGraph *graph = ctx->graph;
  int v = graph->ort_values[idx];
  const PvValue *value = &graph->values[v];
  const PvValueShape *vs = ctx->shapes ? pv_shape_info_get (ctx->shapes, graph, v) : NULL;
  PvTypeKind kind = vs && vs->kind != PV_TYPE_UNKNOWN ? vs->kind : value->type.kind;
  int elem = vs && vs->elem_type ? vs->elem_type : value->type.elem_type;
  gboolean stated = value->type.rank >= 0 && value->type.kind != PV_TYPE_UNKNOWN
                    && ((value->flags & (PV_VALUE_GRAPH_INPUT | PV_VALUE_INITIALIZER)) || vs == NULL);

  memset (out, 0, sizeof *out);
  out->dims = store;
  out->optional = kind == PV_TYPE_OPTIONAL;
  out->non_tensor = kind == PV_TYPE_SEQUENCE || kind == PV_TYPE_MAP || kind == PV_TYPE_OPTIONAL
                    || kind == PV_TYPE_SPARSE_TENSOR;
  out->is_string = elem == PV_ELEM_STRING;
  out->elem_bytes = element_bytes (elem);
  if (out->non_tensor)
    return;

  if (stated)
    {
      /* Graph inputs and initializers: the shape the model states. */
      out->has_shape = TRUE;
      out->rank = value->type.rank;
      for (int d = 0; d < out->rank; d++)
        {
          const PvDim *dim = &value->type.dims[d];
          store[d].kind = dim->kind == PV_DIM_VALUE ? DIM_VALUE : dim->kind == PV_DIM_SYMBOL ? DIM_PARAM : DIM_EMPTY;
          store[d].value = dim->value;
          store[d].param = dim->symbol;
          if (store[d].kind == DIM_PARAM && (store[d].param == NULL || store[d].param[0] == '\0'))
            store[d].kind = DIM_EMPTY;
        }
    }
  else if (vs && vs->rank >= 0)
    {
      out->has_shape = TRUE;
      out->rank = vs->rank;
      for (int d = 0; d < out->rank; d++)
        {
          gint64 c;
          const char *symbol;
          if (pv_dim_is_const (vs->dims[d], &c))
            {
              store[d].kind = DIM_VALUE;
              store[d].value = c;
            }
          else if ((symbol = pv_dim_symbol_name (vs->dims[d])) && g_hash_table_contains (model_symbols, symbol))
            {
              store[d].kind = DIM_PARAM;
              store[d].param = symbol;
            }
          else
            store[d].kind = DIM_EMPTY;
        }
    }
  out->byte_size_long = shape_proto_byte_size (out);
}

static int
stated_or_inferred_rank (const PvOrtPlanContext *ctx, int v)
{
  const PvValueShape *vs = ctx->shapes ? pv_shape_info_get (ctx->shapes, ctx->graph, v) : NULL;
  return MAX (MAX (vs ? vs->rank : 0, ctx->graph->values[v].type.rank), 0);
}

/* SameShape(): same rank, each dim an equal dim_value or an equal non-empty dim_param. */
static gboolean
same_shape (const OrtShape *a, const OrtShape *b)
{
  if (a->rank != b->rank)
    return FALSE;
  for (int i = 0; i < a->rank; i++)
    {
      const OrtDim *x = &a->dims[i], *y = &b->dims[i];
      if (x->kind == DIM_VALUE && y->kind == DIM_VALUE && x->value == y->value)
        continue;
      if (x->kind == DIM_PARAM && y->kind == DIM_PARAM && strcmp (x->param, y->param) == 0)
        continue;
      return FALSE;
    }
  return TRUE;
}

/* SameSize(): both shapes known, no string, equal element sizes (bytes, not
 * types), same shape. */
static gboolean
same_size (const OrtShape *a, const OrtShape *b)
{
  if (!a->has_shape || !b->has_shape)
    return FALSE;
  if (a->is_string || b->is_string)
    return FALSE;
  return a->elem_bytes != 0 && a->elem_bytes == b->elem_bytes && same_shape (a, b);
}

/* ---- planner state ---- */

typedef struct {
  PvOrtPlan *plan;
  const PvOrtPlanContext *ctx;
  const PvGraph *graph;
  int n_values;
  OrtShape *shapes;       /* per OrtValue index */
  OrtDim *dim_store;
  int *use_count;         /* OrtValueInfo::usecount */
  int *buffer;            /* OrtValueInfo::reused_buffer_index */
  /* freelist_ as an intrusive list, most recently freed first */
  int free_head;
  int *free_next, *free_prev;
  GPtrArray *notes;
} Planner;

static int
idx_of (const Planner *p, int value)
{
  return value >= 0 ? p->graph->values[value].ort_index : -1;
}

static gboolean
has_external_outputs (const Planner *p, int node)
{
  return node >= 0 && p->ctx->kernels[node]->external_outputs;
}

/* The producer, in this graph, of @value; -1 for inputs, initializers and
 * outer-scope values. */
static int
producer_of (const Planner *p, int value)
{
  return value >= 0 && !(p->graph->values[value].flags & PV_VALUE_OUTER_SCOPE) ? p->graph->values[value].producer : -1;
}

static void
free_list_push_front (Planner *p, int v)
{
  p->free_prev[v] = -1;
  p->free_next[v] = p->free_head;
  if (p->free_head >= 0)
    p->free_prev[p->free_head] = v;
  p->free_head = v;
}

static void
free_list_erase (Planner *p, int v)
{
  if (p->free_prev[v] >= 0)
    p->free_next[p->free_prev[v]] = p->free_next[v];
  else
    p->free_head = p->free_next[v];
  if (p->free_next[v] >= 0)
    p->free_prev[p->free_next[v]] = p->free_prev[v];
}

/* Reuse(reused, reused_for, kind): share the original buffer behind @reused. */
static void
reuse (Planner *p, int reused, int current, PvOrtAllocKind kind, PvOrtReuseRule rule)
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
compute_use_counts (Planner *p)
{
  const PvGraph *graph = p->graph;
  PvOrtPlan *plan = p->plan;

  for (int i = 0; i < p->n_values; i++)
    {
      guint flags = graph->values[graph->ort_values[i]].flags;
      /* graph inputs (not initializers), outer-scope values, initializers */
      if (flags & (PV_VALUE_GRAPH_INPUT | PV_VALUE_OUTER_SCOPE | PV_VALUE_INITIALIZER))
        p->use_count[i]++;
    }
  for (int s = 0; s < plan->n_streams; s++)
    for (int k = 0; k < plan->streams[s].n_nodes; k++)
      {
        const PvNode *node = &graph->nodes[plan->streams[s].nodes[k]];
        for (int a = 0; a < node->n_inputs; a++)
          if (node->inputs[a] >= 0)
            p->use_count[idx_of (p, node->inputs[a])]++;
        for (int a = 0; a < node->n_implicit_inputs; a++)
          p->use_count[idx_of (p, node->implicit_inputs[a])]++;
        for (int o = 0; o < node->n_outputs; o++)
          if (node->outputs[o] >= 0)
            p->use_count[idx_of (p, node->outputs[o])]++;
      }
  for (int i = 0; i < graph->n_outputs; i++)
    p->use_count[idx_of (p, graph->outputs[i])]++;
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
find_reusable_input (Planner *p, const PvNode *node, const PvKernelBehaviour *kernel, int output, PvOrtReuseRule *rule)
{
  for (int i = 0; i < kernel->n_alias; i++)
    {
      int in = kernel->alias[i][0];
      if (kernel->alias[i][1] != output || in < 0 || in >= node->n_inputs || node->inputs[in] < 0)
        continue;
      /* Must alias, even when the producer has external outputs. */
      *rule = PV_ORT_REUSE_ALIAS;
      return idx_of (p, node->inputs[in]);
    }
  if (kernel->has_variadic_alias)
    {
      int in = output - kernel->variadic_output_offset + kernel->variadic_input_offset;
      if (in >= 0 && in < node->n_inputs && node->inputs[in] >= 0)
        {
          *rule = PV_ORT_REUSE_VARIADIC_ALIAS;
          return idx_of (p, node->inputs[in]);
        }
    }
  for (int i = 0; i < kernel->n_may_inplace; i++)
    {
      int in = kernel->may_inplace[i][0], input_idx;
      if (kernel->may_inplace[i][1] != output || in < 0 || in >= node->n_inputs || node->inputs[in] < 0)
        continue;
      input_idx = idx_of (p, node->inputs[in]);
      if (p->use_count[p->buffer[input_idx]] != 1)
        continue;
      if (has_external_outputs (p, producer_of (p, node->inputs[in])))
        continue;
      if (same_size (&p->shapes[input_idx], &p->shapes[idx_of (p, node->outputs[output])]))
        {
          *rule = PV_ORT_REUSE_MAY_INPLACE;
          return input_idx;
        }
    }
  return -1;
}

/* FindReusableTensor(): the first buffer on the free list (most recently
 * freed first) with the same location and size; scalars and unknown shapes
 * never reuse, optional values are never taken. */
static int
find_reusable_tensor (Planner *p, int current)
{
  const OrtShape *required = &p->shapes[current];

  if (!required->has_shape || required->rank == 0)
    return -1;
  for (int it = p->free_head; it >= 0; it = p->free_next[it])
    {
      if (!p->ctx->def_site[it] || p->shapes[it].optional)
        continue;
      if (!pv_ort_device_equal (&p->plan->values[it].location, &p->plan->values[current].location))
        continue;
      if (p->shapes[it].has_shape && same_size (&p->shapes[it], required))
        {
          free_list_erase (p, it);
          return it;
        }
    }
  return -1;
}

static void
release_use (Planner *p, int idx, int stream, int position)
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
plan_stream (Planner *p, int s, gboolean parallel, gboolean mem_reuse, GError **error)
{
  const PvGraph *graph = p->graph;
  PvOrtPlan *plan = p->plan;
  const PvOrtLogicStream *stream = &plan->streams[s];
  const PvNode *parent = p->ctx->parent_node;
  gboolean loop_body = parent && strcmp (parent->op_type, "Loop") == 0;

  for (int pc = 0; pc < stream->n_nodes; pc++)
    {
      int node_id = stream->nodes[pc];
      const PvNode *node = &graph->nodes[node_id];
      const PvKernelBehaviour *kernel = p->ctx->kernels[node_id];
      gboolean external = kernel->external_outputs;

      for (int o = 0; o < node->n_outputs; o++)
        {
          int v = node->outputs[o], current = idx_of (p, v), reused;
          PvOrtValuePlan *vp;
          PvOrtReuseRule rule = PV_ORT_REUSE_NONE;

          if (v < 0)
            continue;
          vp = &plan->values[current];
          if (external)
            {
              if (p->shapes[current].non_tensor)
                {
                  g_set_error (error, PV_ORT_PLAN_ERROR, PV_ORT_PLAN_ERROR_KERNEL,
                               "node “%s”: ExternalOutputs on the non-tensor output “%s” (ORT: \"Only tensors are "
                               "supported for external outputs for now.\")",
                               node->name, graph->values[v].name);
                  return FALSE;
                }
              vp->kind = PV_ORT_ALLOC_ALLOCATED_EXTERNALLY;
            }
          else if (graph->values[v].flags & PV_VALUE_GRAPH_OUTPUT)
            {
              vp->kind = PV_ORT_ALLOC_ALLOCATE_OUTPUT;
              /* A Loop body passing a pre-existing value (not the iteration
               * number) through an Identity shares it instead of copying. */
              if (loop_body && strcmp (node->op_type, "Identity") == 0 && node->n_inputs > 0 && node->inputs[0] >= 0
                  && node->inputs[0] != first_required_input (graph))
                {
                  int input = idx_of (p, node->inputs[0]);
                  if (plan->values[input].kind == PV_ORT_ALLOC_PRE_EXISTING)
                    reuse (p, input, current, PV_ORT_ALLOC_SHARE, PV_ORT_REUSE_LOOP_SHARE);
                }
            }
          else if (!parallel && (reused = find_reusable_input (p, node, kernel, o, &rule)) >= 0)
            reuse (p, reused, current, PV_ORT_ALLOC_REUSE, rule);
          else if (p->shapes[current].non_tensor)
            vp->kind = PV_ORT_ALLOC_ALLOCATE;
          else if (!parallel && mem_reuse && graph->values[v].n_consumers > 0
                   && (reused = find_reusable_tensor (p, current)) >= 0)
            reuse (p, reused, current, PV_ORT_ALLOC_REUSE, PV_ORT_REUSE_FREE_LIST);
          else
            vp->kind = PV_ORT_ALLOC_ALLOCATE;
        }

      /* Inputs whose producer has external outputs are never released. */
      for (int a = 0; a < node->n_inputs; a++)
        if (node->inputs[a] >= 0 && !has_external_outputs (p, producer_of (p, node->inputs[a])))
          release_use (p, idx_of (p, node->inputs[a]), s, pc);
      for (int a = 0; a < node->n_implicit_inputs; a++)
        if (!has_external_outputs (p, producer_of (p, node->implicit_inputs[a])))
          release_use (p, idx_of (p, node->implicit_inputs[a]), s, pc);
      if (!external)
        for (int o = 0; o < node->n_outputs; o++)
          if (node->outputs[o] >= 0)
            release_use (p, idx_of (p, node->outputs[o]), s, pc);
    }
  return TRUE;
}
