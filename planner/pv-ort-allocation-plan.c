/* pv-ort-allocation-plan.c: ORT's reuse plan and deallocation plan.
 *
 * ComputeReusePlan runs one pass per logic stream, each starting from the use
 * counts of all streams' nodes (ORT recomputes the same counts before every
 * pass; planviz copies them) and an empty free list. When some device
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
#include "pv-graph-order.h"

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
  /* ORT's string element is a std::string (32 bytes with libstdc++ on
   * 64-bit); SameSize rejects strings before sizes matter. */
  if (elem_type == PV_ELEM_STRING)
    return 32;
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
  /* Per node, its inputs, implicit inputs and outputs as OrtValue indices
   * (-1 when missing), from io[io_start[node]]: ORT's planner walks these
   * lists over and over. */
  int *io_start, *io;
  int *producer;          /* OrtValue index -> producing node in this graph, -1 */
  int *initial_use_count; /* ComputeReuseCount() (the same for every pass) */
  int *use_count;         /* OrtValueInfo::usecount */
  int *buffer;            /* OrtValueInfo::reused_buffer_index */
  /* freelist_ as an intrusive list, most recently freed first */
  int free_head;
  int *free_next, *free_prev;
  GPtrArray *notes;
} Planner;

static const int *
node_inputs (const Planner *p, int node)
{
  return &p->io[p->io_start[node]];
}

static const int *
node_implicit_inputs (const Planner *p, int node)
{
  return &p->io[p->io_start[node] + p->graph->nodes[node].n_inputs];
}

static const int *
node_outputs (const Planner *p, int node)
{
  const PvNode *n = &p->graph->nodes[node];
  return &p->io[p->io_start[node] + n->n_inputs + n->n_implicit_inputs];
}

static int
idx_of (const Planner *p, int value)
{
  return value >= 0 ? p->graph->values[value].ort_index : -1;
}

static void
build_node_io (Planner *p)
{
  const PvGraph *graph = p->graph;
  int total = 0, at = 0;

  p->io_start = g_new (int, graph->n_nodes + 1);
  for (int n = 0; n < graph->n_nodes; n++)
    {
      p->io_start[n] = total;
      total += graph->nodes[n].n_inputs + graph->nodes[n].n_implicit_inputs + graph->nodes[n].n_outputs;
    }
  p->io_start[graph->n_nodes] = total;
  p->io = g_new (int, MAX (total, 1));
  for (int n = 0; n < graph->n_nodes; n++)
    {
      const PvNode *node = &graph->nodes[n];
      for (int k = 0; k < node->n_inputs; k++)
        p->io[at++] = idx_of (p, node->inputs[k]);
      for (int k = 0; k < node->n_implicit_inputs; k++)
        p->io[at++] = idx_of (p, node->implicit_inputs[k]);
      for (int k = 0; k < node->n_outputs; k++)
        p->io[at++] = idx_of (p, node->outputs[k]);
    }
  /* The producer, in this graph, of each value; -1 for inputs,
   * initializers and outer-scope values. */
  p->producer = g_new (int, MAX (p->n_values, 1));
  for (int i = 0; i < p->n_values; i++)
    {
      const PvValue *value = &graph->values[graph->ort_values[i]];
      p->producer[i] = (value->flags & PV_VALUE_OUTER_SCOPE) ? -1 : value->producer;
    }
}

/* Whether the producer of OrtValue @idx has ExternalOutputs. */
static gboolean
from_external_outputs (const Planner *p, int idx)
{
  return p->producer[idx] >= 0 && p->ctx->kernels[p->producer[idx]]->external_outputs;
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
  /* every input and implicit-input use, every output definition */
  for (int s = 0; s < plan->n_streams; s++)
    for (int k = 0; k < plan->streams[s].n_nodes; k++)
      {
        int node = plan->streams[s].nodes[k];
        for (int i = p->io_start[node]; i < p->io_start[node + 1]; i++)
          if (p->io[i] >= 0)
            p->use_count[p->io[i]]++;
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
find_reusable_input (Planner *p, int node_id, const PvKernelBehaviour *kernel, int output, PvOrtReuseRule *rule)
{
  const int *inputs = node_inputs (p, node_id);
  int n_inputs = p->graph->nodes[node_id].n_inputs;

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
      if (from_external_outputs (p, inputs[in]))
        continue;
      if (same_size (&p->shapes[inputs[in]], &p->shapes[node_outputs (p, node_id)[output]]))
        {
          *rule = PV_ORT_REUSE_MAY_INPLACE;
          return inputs[in];
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
      const int *inputs = node_inputs (p, node_id), *implicit = node_implicit_inputs (p, node_id);
      const int *outputs = node_outputs (p, node_id);
      gboolean external = kernel->external_outputs;

      for (int o = 0; o < node->n_outputs; o++)
        {
          int v = node->outputs[o], current = outputs[o], reused;
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
                  if (plan->values[inputs[0]].kind == PV_ORT_ALLOC_PRE_EXISTING)
                    reuse (p, inputs[0], current, PV_ORT_ALLOC_SHARE, PV_ORT_REUSE_LOOP_SHARE);
                }
            }
          else if (!parallel && (reused = find_reusable_input (p, node_id, kernel, o, &rule)) >= 0)
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
        if (inputs[a] >= 0 && !from_external_outputs (p, inputs[a]))
          release_use (p, inputs[a], s, pc);
      for (int a = 0; a < node->n_implicit_inputs; a++)
        if (!from_external_outputs (p, implicit[a]))
          release_use (p, implicit[a], s, pc);
      if (!external)
        for (int o = 0; o < node->n_outputs; o++)
          if (outputs[o] >= 0)
            release_use (p, outputs[o], s, pc);
    }
  return TRUE;
}

/* ---- several streams per device (OptimizeReusePlanForMultiStream) ---- */

/* A set of node ids, sorted (value_consumer_map's entries). */
typedef struct {
  int *ids;
  int n, cap;
} NodeSet;

static gboolean
node_set_contains (const NodeSet *set, int id)
{
  int lo = 0, hi = set->n;
  while (lo < hi)
    {
      int mid = (lo + hi) / 2;
      if (set->ids[mid] == id)
        return TRUE;
      if (set->ids[mid] < id)
        lo = mid + 1;
      else
        hi = mid;
    }
  return FALSE;
}

static void
node_set_add (NodeSet *set, int id)
{
  int at = set->n;
  if (node_set_contains (set, id))
    return;
  if (set->n == set->cap)
    {
      set->cap = MAX (4, set->cap * 2);
      set->ids = g_renew (int, set->ids, set->cap);
    }
  while (at > 0 && set->ids[at - 1] > id)
    {
      set->ids[at] = set->ids[at - 1];
      at--;
    }
  set->ids[at] = id;
  set->n++;
}

static void
node_set_add_all (NodeSet *set, const NodeSet *other)
{
  /* @other may be @set itself. */
  int n = other->n;
  g_autofree int *copy = g_memdup2 (other->ids, sizeof (int) * MAX (n, 1));
  for (int i = 0; i < n; i++)
    node_set_add (set, copy[i]);
}

typedef struct {
  Planner *p;
  int n_nodes, n_streams;
  int *position;          /* node -> position in its stream */
  /* The dependence graph: upstream[node] = producers + previous node in the
   * stream. ancestors(P) = what fetch_all_dependents(P) collects; since each
   * stream is a chain in it, ancestors are a prefix of every stream:
   * reach[P * n_streams + s] is the last position of stream s among them. */
  int **upstream;
  int *n_upstream;
  int *reach;
  NodeSet *consumers;     /* value_consumer_map, per OrtValue index */
  GHashTable *input_output;  /* input_output_map: (input << 32 | output) pairs */
  gboolean *reused;
  int *value_node;        /* value_node_map_: OrtValue index -> producer */
  GHashTable *waiting;    /* (location, ByteSizeLong) -> GArray of OrtValue indices, ascending */
  GArray *locations;      /* distinct PvOrtDevice, for waiting keys */
} MultiStream;

static guint
pair_hash (gconstpointer key)
{
  guint64 k = GPOINTER_TO_SIZE (key);
  return (guint) (k ^ (k >> 32) ^ (k >> 17));
}

static gpointer
pair_key (int a, int b)
{
  return GSIZE_TO_POINTER (((guint64) (guint32) a << 32) | (guint32) b);
}

static gboolean
is_ancestor (const MultiStream *m, int node, int of)
{
  const PvOrtPlan *plan = m->p->plan;
  return m->position[node] <= m->reach[of * m->n_streams + plan->node_stream[node]];
}

static void
build_dependence_graph (MultiStream *m)
{
  const PvGraph *graph = m->p->graph;
  const PvOrtPlan *plan = m->p->plan;
  int max_inputs = 1;
  g_autofree int *scratch = NULL;

  for (int i = 0; i < m->n_nodes; i++)
    max_inputs = MAX (max_inputs, graph->nodes[i].n_inputs + graph->nodes[i].n_implicit_inputs);
  scratch = g_new (int, max_inputs + 1);
  m->position = g_new (int, MAX (m->n_nodes, 1));
  m->upstream = g_new0 (int *, MAX (m->n_nodes, 1));
  m->n_upstream = g_new0 (int, MAX (m->n_nodes, 1));
  m->reach = g_new (int, MAX ((gsize) m->n_nodes * m->n_streams, 1));
  for (int s = 0; s < plan->n_streams; s++)
    for (int k = 0; k < plan->streams[s].n_nodes; k++)
      m->position[plan->streams[s].nodes[k]] = k;

  for (int i = 0; i < m->n_nodes; i++)
    {
      int node = graph->order[i], pos = m->position[node], s = plan->node_stream[node];
      int n = pv_node_input_nodes (graph, &graph->nodes[node], scratch), *row = &m->reach[(gsize) node * m->n_streams];
      if (pos > 0)
        {
          /* add the previous node of the stream, keeping the list ascending */
          int prev = plan->streams[s].nodes[pos - 1], at = n;
          gboolean present = FALSE;
          for (int j = 0; j < n; j++)
            present |= scratch[j] == prev;
          if (!present)
            {
              while (at > 0 && scratch[at - 1] > prev)
                {
                  scratch[at] = scratch[at - 1];
                  at--;
                }
              scratch[at] = prev;
              n++;
            }
        }
      m->n_upstream[node] = n;
      m->upstream[node] = g_memdup2 (scratch, sizeof (int) * MAX (n, 1));
      for (int t = 0; t < m->n_streams; t++)
        row[t] = -1;
      for (int j = 0; j < n; j++)
        {
          const int *up = &m->reach[(gsize) scratch[j] * m->n_streams];
          for (int t = 0; t < m->n_streams; t++)
            row[t] = MAX (row[t], up[t]);
        }
      row[s] = pos;
    }
}

static GArray *
waiting_bucket (MultiStream *m, const PvOrtDevice *location, gsize size, gboolean create)
{
  guint loc = 0;
  gpointer key;
  GArray *bucket;

  while (loc < m->locations->len && !pv_ort_device_equal (&g_array_index (m->locations, PvOrtDevice, loc), location))
    loc++;
  if (loc == m->locations->len)
    {
      if (!create)
        return NULL;
      g_array_append_val (m->locations, *location);
    }
  key = GSIZE_TO_POINTER (((guint64) loc << 48) ^ (guint64) size);
  bucket = g_hash_table_lookup (m->waiting, key);
  if (bucket == NULL && create)
    {
      bucket = g_array_new (FALSE, FALSE, sizeof (int));
      g_hash_table_insert (m->waiting, key, bucket);
    }
  return bucket;
}

/* Waiting values are kept in OrtValue index order (ORT: NodeArg address order). */
static void
bucket_insert (GArray *bucket, int idx)
{
  guint at = bucket->len;
  while (at > 0 && g_array_index (bucket, int, at - 1) > idx)
    at--;
  g_array_insert_val (bucket, at, idx);
}

static void
add_note (Planner *p, int in, int out)
{
  g_ptr_array_add (p->notes, g_strdup_printf ("%s reused by %s as input",
                                              p->graph->values[p->graph->ort_values[in]].name,
                                              p->graph->values[p->graph->ort_values[out]].name));
}

static void
stream_reuse (MultiStream *m, int in, int out, PvOrtReuseRule rule)
{
  PvOrtValuePlan *vp = &m->p->plan->values[out];
  vp->kind = PV_ORT_ALLOC_REUSE;
  vp->reused_buffer = in;
  vp->reuse_rule = rule;
  node_set_add_all (&m->consumers[in], &m->consumers[out]);
  m->reused[in] = TRUE;
}

/* TryReuseInput: outputs that alias or work in place on an input. */
static void
try_reuse_input (MultiStream *m, int node_id)
{
  Planner *p = m->p;
  const PvNode *node = &p->graph->nodes[node_id];
  const PvKernelBehaviour *kernel = p->ctx->kernels[node_id];
  const int *inputs = node_inputs (p, node_id), *outputs = node_outputs (p, node_id);
  PvOrtValuePlan *values = p->plan->values;

  for (int o = 0; o < node->n_outputs; o++)
    {
      int out = outputs[o];
      gboolean found = FALSE;

      if (out < 0 || values[out].kind != PV_ORT_ALLOC_ALLOCATE)
        continue;
      for (int a = 0; a < node->n_inputs; a++)
        if (inputs[a] >= 0)
          g_hash_table_add (m->input_output, pair_key (inputs[a], out));

      for (int i = 0; i < kernel->n_alias && !found; i++)
        {
          int a = kernel->alias[i][0];
          if (kernel->alias[i][1] != o || a < 0 || a >= node->n_inputs || inputs[a] < 0)
            continue;
          /* No kind check: ORT even aliases a pre-existing input here. */
          add_note (p, inputs[a], out);
          stream_reuse (m, inputs[a], out, PV_ORT_REUSE_ALIAS);
          found = TRUE;
        }
      if (found)
        continue;

      if (kernel->has_variadic_alias)
        {
          int a = o - kernel->variadic_output_offset + kernel->variadic_input_offset;
          if (a >= 0 && a < node->n_inputs && inputs[a] >= 0 && values[inputs[a]].kind == PV_ORT_ALLOC_ALLOCATE)
            {
              stream_reuse (m, inputs[a], out, PV_ORT_REUSE_VARIADIC_ALIAS);
              continue;
            }
        }

      /* Every matching MayInplace pair is tried; a later one overrides. */
      for (int i = 0; i < kernel->n_may_inplace; i++)
        {
          int a = kernel->may_inplace[i][0], in;
          if (kernel->may_inplace[i][1] != o || a < 0 || a >= node->n_inputs || inputs[a] < 0)
            continue;
          if (from_external_outputs (p, inputs[a]))
            continue;
          in = inputs[a];
          if (values[in].kind == PV_ORT_ALLOC_ALLOCATE && m->consumers[in].n == 1
              && same_size (&p->shapes[in], &p->shapes[out]))
            stream_reuse (m, in, out, PV_ORT_REUSE_MAY_INPLACE);
        }
    }
}

/* TryReuseOutput: give this node's outputs to waiting downstream values that
 * are produced after every consumer of the output is done. */
static void
try_reuse_output (MultiStream *m, int node_id)
{
  Planner *p = m->p;
  const PvNode *node = &p->graph->nodes[node_id];
  const int *outputs = node_outputs (p, node_id);
  PvOrtValuePlan *values = p->plan->values;

  for (int o = 0; o < node->n_outputs; o++)
    {
      int out = outputs[o];
      const OrtShape *shape;
      GArray *bucket;
      gboolean got = FALSE;

      if (out < 0 || m->reused[out] || values[out].kind != PV_ORT_ALLOC_ALLOCATE)
        continue;
      shape = &p->shapes[out];
      if (!shape->has_shape)
        continue;
      bucket = waiting_bucket (m, &values[out].location, shape->byte_size_long, TRUE);
      for (guint i = 0; i < bucket->len && !got; i++)
        {
          int down = g_array_index (bucket, int, i), producer = m->value_node[down];
          gboolean covered = TRUE;
          if (g_hash_table_contains (m->input_output, pair_key (out, down)))
            continue;
          if (!same_size (&p->shapes[down], shape))
            continue;
          if (!is_ancestor (m, node_id, producer))
            continue;
          for (int c = 0; c < m->consumers[out].n && covered; c++)
            covered = is_ancestor (m, m->consumers[out].ids[c], producer);
          if (!covered)
            continue;
          values[down].kind = PV_ORT_ALLOC_REUSE;
          values[down].reused_buffer = out;
          values[down].reuse_rule = PV_ORT_REUSE_STREAM_DOWNSTREAM;
          node_set_add (&m->consumers[out], producer);
          node_set_add_all (&m->consumers[out], &m->consumers[down]);
          g_array_remove_index (bucket, i);
          got = TRUE;
        }
      if (got)
        m->reused[out] = TRUE;
      else
        bucket_insert (bucket, out);
    }
}

static void
optimize_multi_stream (Planner *p)
{
  const PvGraph *graph = p->graph;
  PvOrtPlan *plan = p->plan;
  MultiStream m = { 0 };
  g_autofree int *downstream_count = NULL;
  g_autofree int *queue = NULL;
  g_autofree gboolean *is_key = NULL;
  int head = 0, tail = 0;

  m.p = p;
  m.n_nodes = graph->n_nodes;
  m.n_streams = MAX (plan->n_streams, 1);
  build_dependence_graph (&m);
  m.consumers = g_new0 (NodeSet, MAX (p->n_values, 1));
  m.input_output = g_hash_table_new (pair_hash, g_direct_equal);
  m.reused = g_new0 (gboolean, MAX (p->n_values, 1));
  m.value_node = g_new (int, MAX (p->n_values, 1));
  m.waiting = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_array_unref);
  m.locations = g_array_new (FALSE, FALSE, sizeof (PvOrtDevice));
  for (int i = 0; i < p->n_values; i++)
    m.value_node[i] = p->producer[i];

  /* value_consumer_map: consumers of each allocated (or external) buffer. */
  for (int s = 0; s < plan->n_streams; s++)
    for (int k = plan->streams[s].n_nodes - 1; k >= 0; k--)
      {
        int node_id = plan->streams[s].nodes[k];
        const PvNode *node = &graph->nodes[node_id];
        const int *uses = node_inputs (p, node_id);
        for (int a = 0; a < node->n_inputs + node->n_implicit_inputs; a++)
          {
            int origin;
            if (uses[a] < 0)
              continue;
            origin = plan->values[uses[a]].reused_buffer;
            if (plan->values[origin].kind == PV_ORT_ALLOC_ALLOCATE
                || plan->values[origin].kind == PV_ORT_ALLOC_ALLOCATED_EXTERNALLY)
              node_set_add (&m.consumers[origin], node_id);
          }
      }

  /* Walk the dependence graph from its sinks towards its sources (Kahn on
   * the reversed edges). ORT starts from the sinks in hash-map order and
   * queues upstream nodes in hash-set order; planviz takes ascending ids. */
  downstream_count = g_new0 (int, MAX (m.n_nodes, 1));
  is_key = g_new0 (gboolean, MAX (m.n_nodes, 1));
  queue = g_new (int, MAX (m.n_nodes, 1));
  for (int n = 0; n < m.n_nodes; n++)
    {
      is_key[n] = m.n_upstream[n] > 0;
      for (int j = 0; j < m.n_upstream[n]; j++)
        downstream_count[m.upstream[n][j]]++;
    }
  for (int n = 0; n < m.n_nodes; n++)
    if (is_key[n] && downstream_count[n] == 0)
      queue[tail++] = n;
  while (head < tail)
    {
      int node_id = queue[head++];
      try_reuse_input (&m, node_id);
      try_reuse_output (&m, node_id);
      for (int j = 0; j < m.n_upstream[node_id]; j++)
        if (--downstream_count[m.upstream[node_id][j]] == 0)
          queue[tail++] = m.upstream[node_id][j];
    }

  /* Point every reuse at the end of its chain. */
  for (int i = 0; i < p->n_values; i++)
    {
      PvOrtValuePlan *vp = &plan->values[i];
      if (vp->kind != PV_ORT_ALLOC_REUSE)
        continue;
      while (plan->values[vp->reused_buffer].kind == PV_ORT_ALLOC_REUSE
             && vp->reused_buffer != plan->values[vp->reused_buffer].reused_buffer)
        vp->reused_buffer = plan->values[vp->reused_buffer].reused_buffer;
    }

  for (int n = 0; n < m.n_nodes; n++)
    g_free (m.upstream[n]);
  for (int i = 0; i < p->n_values; i++)
    g_free (m.consumers[i].ids);
  g_free (m.upstream);
  g_free (m.n_upstream);
  g_free (m.position);
  g_free (m.reach);
  g_free (m.consumers);
  g_free (m.reused);
  g_free (m.value_node);
  g_hash_table_unref (m.input_output);
  g_hash_table_unref (m.waiting);
  g_array_unref (m.locations);
}

/* ---- GenerateDeallocationPlan ---- */

static void
generate_deallocation_plan (Planner *p)
{
  PvOrtPlan *plan = p->plan;
  int n_values = plan->n_values, n_nodes = plan->n_nodes;
  g_autofree int *start = g_new0 (int, n_values + 1);
  g_autofree int *fill = NULL;
  g_autofree int *consumers = NULL;
  g_autoptr (GArray) releases = g_array_new (FALSE, FALSE, sizeof (int) * 2); /* (node, action) */
  GArray *actions = g_array_new (FALSE, FALSE, sizeof (PvOrtReleaseAction));

  /* Consumers of each root buffer: streams in order, each walked from its
   * end, so that with one stream the first consumer is the last to run. */
  for (int pass = 0; pass < 2; pass++)
    {
      for (int s = 0; s < plan->n_streams; s++)
        for (int k = plan->streams[s].n_nodes - 1; k >= 0; k--)
          {
            int node_id = plan->streams[s].nodes[k];
            const PvNode *node = &p->graph->nodes[node_id];
            const int *uses = node_inputs (p, node_id);
            for (int a = 0; a < node->n_inputs + node->n_implicit_inputs; a++)
              {
                int origin;
                PvOrtAllocKind kind;
                if (uses[a] < 0)
                  continue;
                origin = plan->values[uses[a]].reused_buffer;
                kind = plan->values[origin].kind;
                if (kind != PV_ORT_ALLOC_ALLOCATE && kind != PV_ORT_ALLOC_ALLOCATED_EXTERNALLY)
                  continue;
                if (pass == 0)
                  start[origin + 1]++;
                else
                  consumers[fill[origin]++] = node_id;
              }
          }
      if (pass == 0)
        {
          for (int i = 0; i < n_values; i++)
            start[i + 1] += start[i];
          consumers = g_new (int, MAX (start[n_values], 1));
          fill = g_memdup2 (start, sizeof (int) * (n_values + 1));
        }
    }

  for (int i = 0; i < n_values; i++)
    {
      PvOrtReleaseAction action = { i, 0 };
      int first = start[i], end = start[i + 1], id = (int) actions->len;
      gboolean same_stream = TRUE;
      if (first == end)
        continue;
      for (int j = first + 1; j < end && same_stream; j++)
        same_stream = plan->node_stream[consumers[j]] == plan->node_stream[consumers[first]];
      /* One stream: release after its last consumer. Otherwise every
       * consumer (one entry per use) counts down. */
      for (int j = first; j < (same_stream ? first + 1 : end); j++)
        {
          int pair[2] = { consumers[j], id };
          action.ref_count++;
          g_array_append_val (releases, pair);
        }
      g_array_append_val (actions, action);
    }
  plan->n_release_actions = (int) actions->len;
  plan->release_actions = (PvOrtReleaseAction *) g_array_free (actions, FALSE);

  plan->node_release_start = g_new0 (int, n_nodes + 1);
  plan->node_release = g_new (int, MAX (releases->len, 1));
  for (guint i = 0; i < releases->len; i++)
    plan->node_release_start[((int *) releases->data)[2 * i] + 1]++;
  for (int n = 0; n < n_nodes; n++)
    plan->node_release_start[n + 1] += plan->node_release_start[n];
  {
    g_autofree int *at = g_memdup2 (plan->node_release_start, sizeof (int) * (n_nodes + 1));
    for (guint i = 0; i < releases->len; i++)
      {
        const int *pair = &((int *) releases->data)[2 * i];
        plan->node_release[at[pair[0]]++] = pair[1];
      }
  }
}

/* ---- ComputeReusePlan, then GenerateDeallocationPlan ---- */

gboolean
pv_ort_plan_memory (PvOrtPlan *plan, const PvOrtPlanContext *ctx, GError **error)
{
  Planner p = { 0 };
  const PvGraph *graph = ctx->graph;
  g_autoptr (GHashTable) model_symbols = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree int *ranks = g_new (int, MAX (plan->n_values, 1));
  gsize total_rank = 0, used = 0;
  gboolean ok = TRUE;

  p.plan = plan;
  p.ctx = ctx;
  p.graph = graph;
  p.n_values = plan->n_values;
  build_node_io (&p);

  /* The model's own dim_params: those graph inputs state. */
  for (const PvGraph *g = graph; g; g = g->parent)
    collect_input_symbols (g, model_symbols);
  for (int i = 0; i < p.n_values; i++)
    total_rank += ranks[i] = stated_or_inferred_rank (ctx, graph->ort_values[i]);
  p.shapes = g_new0 (OrtShape, MAX (p.n_values, 1));
  p.dim_store = g_new0 (OrtDim, MAX (total_rank, 1));
  for (int i = 0; i < p.n_values; i++)
    {
      ort_shape_of (ctx, model_symbols, i, &p.shapes[i], &p.dim_store[used]);
      used += ranks[i];
    }
  p.buffer = g_new (int, MAX (p.n_values, 1));
  p.free_next = g_new (int, MAX (p.n_values, 1));
  p.free_prev = g_new (int, MAX (p.n_values, 1));
  p.free_head = -1;
  p.notes = g_ptr_array_new ();

  /* ComputeReuseCount() gives the same counts before every pass. */
  p.use_count = g_new0 (int, MAX (p.n_values, 1));
  compute_use_counts (&p);
  p.initial_use_count = g_memdup2 (p.use_count, sizeof (int) * MAX (p.n_values, 1));
  for (int i = 0; i < p.n_values; i++)
    plan->values[i].use_count = p.initial_use_count[i];

  plan->single_stream = is_single_stream (plan);
  for (int s = 0; s < plan->n_streams && ok; s++)
    {
      memcpy (p.use_count, p.initial_use_count, sizeof (int) * p.n_values);
      for (int i = 0; i < p.n_values; i++)
        p.buffer[i] = i;
      /* Several streams on one device: no reuse in this pass (parallel
       * execution mode, memory reuse off). The free list starts empty. */
      p.free_head = -1;
      ok = plan_stream (&p, s, !plan->single_stream, plan->single_stream, error);
    }
  if (ok && !plan->single_stream)
    {
      /* The baseline passes' free points say nothing about the final plan. */
      for (int i = 0; i < p.n_values; i++)
        plan->values[i].freed_stream = plan->values[i].freed_at = -1;
      optimize_multi_stream (&p);
    }
  if (ok)
    generate_deallocation_plan (&p);

  g_ptr_array_add (p.notes, NULL);
  plan->notes = (char **) g_ptr_array_free (p.notes, FALSE);
  g_free (p.io_start);
  g_free (p.io);
  g_free (p.producer);
  g_free (p.shapes);
  g_free (p.dim_store);
  g_free (p.initial_use_count);
  g_free (p.use_count);
  g_free (p.buffer);
  g_free (p.free_next);
  g_free (p.free_prev);
  return ok;
}
