/* pv-ort-graph-rewrite.c: InsertCastTransformer and the Cast removal after
 * it, on planviz's graph (see the header for ORT's rules). */
#include "pv-ort-graph-rewrite.h"

#include <cjson/cJSON.h>
#include <string.h>

#include "pv-element-type.h"
#include "pv-graph-edit.h"
#include "pv-ort-shapes.h"

#define CAST_PREFIX "InsertedPrecisionFreeCast_"

extern const unsigned char pv_ort_cpu_fp16_json[];
extern const unsigned int pv_ort_cpu_fp16_json_len;

typedef struct {
  PvGraph *graph;
  cJSON *table;
  GArray *elem;          /* value id -> element type (ORT's view; new values float) */
  gboolean *assigned;    /* node id -> a kernel took it (grows with the graph) */
  GHashTable *generated; /* names GenerateNodeName gave */
  int name_counter;      /* its name_generator_ */
  const PvOrtShapes *shapes;
  GCancellable *cancellable;
  GPtrArray *notes;
  int n_inserted, n_removed, n_forced, n_float32;
} Rewrite;

/* Does an opset range of @key in the measured table cover the node? */
static gboolean
in_table (const Rewrite *r, const char *key, const PvNode *node)
{
  const cJSON *list = cJSON_GetObjectItemCaseSensitive (r->table, key), *e;

  if (node->domain[0] != '\0')
    return FALSE;
  cJSON_ArrayForEach (e, list)
    {
      const cJSON *op = cJSON_GetObjectItemCaseSensitive (e, "op_type");
      const cJSON *since = cJSON_GetObjectItemCaseSensitive (e, "since");
      if (cJSON_IsString (op) && strcmp (op->valuestring, node->op_type) == 0 && cJSON_GetArraySize (since) == 2
          && node->opset >= cJSON_GetArrayItem (since, 0)->valuedouble
          && node->opset <= cJSON_GetArrayItem (since, 1)->valuedouble)
        return TRUE;
    }
  return FALSE;
}

static int
elem_of (const Rewrite *r, int v)
{
  return v >= 0 && v < (int) r->elem->len ? g_array_index (r->elem, int, v) : 0;
}

static gboolean
is_fp16 (const Rewrite *r, int v)
{
  return elem_of (r, v) == PV_ELEM_FLOAT16;
}

static gboolean
has_fp16_input (const Rewrite *r, const PvNode *node)
{
  for (int k = 0; k < node->n_inputs; k++)
    if (is_fp16 (r, node->inputs[k]))
      return TRUE;
  return FALSE;
}

/* NodeNeedsInputCastToFp32: unassigned, with a float16 input. */
static gboolean
needs_cast (const Rewrite *r, int n)
{
  return !r->assigned[n] && has_fp16_input (r, &r->graph->nodes[n]);
}

/* Ops whose first formal input (or output) is variadic: ORT's check looks
 * at the first tensor of it only. */
static gboolean
variadic_first (const PvNode *node)
{
  static const char *const ops[] = { "Concat", "Sum", "Max", "Min", "Mean", "SequenceConstruct", NULL };
  for (int i = 0; ops[i]; i++)
    if (strcmp (node->op_type, ops[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
produces_graph_output (const PvGraph *g, const PvNode *node)
{
  for (int k = 0; k < node->n_outputs; k++)
    if (node->outputs[k] >= 0 && (g->values[node->outputs[k]].flags & PV_VALUE_GRAPH_OUTPUT))
      return TRUE;
  return FALSE;
}

/* IsIsolatedFp16NodeOnCpu: a CPU node with a float16 kernel between nodes
 * that will all run in float32. */
static gboolean
isolated_fp16 (const Rewrite *r, int n)
{
  const PvGraph *g = r->graph;
  const PvNode *node = &g->nodes[n];
  gboolean edges = FALSE, any_in = FALSE, any_out = FALSE;
  int n_in = variadic_first (node) ? MIN (node->n_inputs, 1) : node->n_inputs;
  int n_out = strcmp (node->op_type, "Split") == 0 ? MIN (node->n_outputs, 1) : node->n_outputs;

  for (int k = 0; k < node->n_inputs; k++)
    edges |= node->inputs[k] >= 0 && g->values[node->inputs[k]].producer >= 0;
  if (!edges || node->n_subgraphs > 0 || produces_graph_output (g, node) || !r->assigned[n])
    return FALSE;
  for (int k = 0; k < n_in; k++)
    {
      int v = node->inputs[k];
      if (!is_fp16 (r, v))
        continue;
      any_in = TRUE;
      if (g->values[v].producer >= 0 && !needs_cast (r, g->values[v].producer))
        return FALSE;
    }
  if (!any_in)
    return FALSE;
  for (int k = 0; k < n_out; k++)
    {
      int v = node->outputs[k];
      guint n_c;
      const guint *c;
      if (!is_fp16 (r, v))
        continue;
      any_out = TRUE;
      c = pv_graph_value_consumers (g, v, &n_c);
      for (guint i = 0; i < n_c; i++)
        if (!needs_cast (r, (int) c[i]))
          return FALSE;
    }
  return any_out;
}

/* Graph::GenerateNodeName. */
static char *
generate_name (Rewrite *r, const char *base)
{
  char *name = g_strdup (base);

  while (g_hash_table_contains (r->generated, name))
    {
      g_free (name);
      name = g_strdup_printf ("%s_token_%d", base, r->name_counter++);
    }
  g_hash_table_add (r->generated, g_strdup (name));
  return name;
}

static void
set_elem (Rewrite *r, int v, int elem)
{
  if (v >= (int) r->elem->len)
    g_array_set_size (r->elem, v + 1);
  g_array_index (r->elem, int, v) = elem;
}

/* AddCastNode: a Cast named after @old (and its new value likewise); the new
 * value is the Cast's output (@new_on_input FALSE) or input. */
static int
add_cast (Rewrite *r, int old, gboolean new_on_input, int to, int opset)
{
  g_autofree char *base = g_strconcat (CAST_PREFIX, r->graph->values[old].name, NULL);
  g_autofree char *name = generate_name (r, base);
  int fresh = pv_graph_edit_add_value (r->graph, name, NULL);
  int in = new_on_input ? fresh : old, out = new_on_input ? old : fresh;
  int node;

  set_elem (r, fresh, PV_ELEM_FLOAT);
  node = pv_graph_edit_add_node (r->graph, name, "Cast", opset, &in, 1, &out, 1);
  pv_graph_edit_set_attr_int (r->graph, node, "to", to);
  r->assigned = g_renew (gboolean, r->assigned, r->graph->n_nodes);
  r->assigned[node] = TRUE;
  r->n_inserted++;
  return fresh;
}

/* One unassigned node: Casts around it, and it runs in float32. */
static void
cast_around (Rewrite *r, int n, GHashTable *updates, int opset)
{
  gboolean casted = FALSE;
  const PvNode *node = &r->graph->nodes[n];

  if (r->assigned[n] || node->n_subgraphs > 0)
    return;
  for (int k = 0; k < r->graph->nodes[n].n_inputs; k++)
    {
      int src = r->graph->nodes[n].inputs[k];
      gpointer to;
      if (!is_fp16 (r, src))
        continue;
      if (!g_hash_table_lookup_extended (updates, GINT_TO_POINTER (src), NULL, &to))
        {
          to = GINT_TO_POINTER (add_cast (r, src, FALSE, PV_ELEM_FLOAT, opset));
          g_hash_table_insert (updates, GINT_TO_POINTER (src), to);
        }
      r->graph->nodes[n].inputs[k] = GPOINTER_TO_INT (to);
      casted = TRUE;
    }
  if (!casted)
    return;
  r->assigned[n] = TRUE;
  r->n_float32++;
  {
    const PvAttribute *dtype = pv_node_find_attr (&r->graph->nodes[n], "dtype");
    if (dtype && dtype->type == PV_ATTR_INT && dtype->i == PV_ELEM_FLOAT16)
      pv_graph_edit_set_attr_int (r->graph, n, "dtype", PV_ELEM_FLOAT);
  }
  for (int k = 0; k < r->graph->nodes[n].n_outputs; k++)
    {
      int out = r->graph->nodes[n].outputs[k];
      if (is_fp16 (r, out))
        pv_graph_edit_set_output (r->graph, n, k, add_cast (r, out, TRUE, PV_ELEM_FLOAT16, opset));
    }
}

/* ---- RemoveDuplicateCastTransformer ---- */

typedef enum { G_UNKNOWN = -1, G_BOOL, G_INT, G_UNSIGNED, G_FLOAT } TypeGroup;

static TypeGroup
type_group (int t)
{
  switch (t)
    {
    case PV_ELEM_BOOL: return G_BOOL;
    case PV_ELEM_INT8: case PV_ELEM_INT16: case PV_ELEM_INT32: case PV_ELEM_INT64: return G_INT;
    case PV_ELEM_UINT8: case PV_ELEM_UINT16: case PV_ELEM_UINT32: case PV_ELEM_UINT64: return G_UNSIGNED;
    case PV_ELEM_BFLOAT16: case PV_ELEM_DOUBLE: case PV_ELEM_FLOAT: case PV_ELEM_FLOAT16: return G_FLOAT;
    default: return G_UNKNOWN;
    }
}

static int
bit_length (int t)
{
  return t == PV_ELEM_BOOL ? 1 : (int) pv_element_type_bits (t);
}

/* UnsafeCast: would removing a cast from @src to @dst lose something? Casts
 * InsertCastTransformer made never count as losing precision. */
static gboolean
unsafe_cast (int src, int dst, const char *name)
{
  TypeGroup s = type_group (src), d = type_group (dst);

  if (s == G_UNKNOWN || d == G_UNKNOWN)
    return TRUE;
  if (s != G_BOOL && s != G_UNSIGNED && d == G_UNSIGNED)
    return TRUE;
  if (s == G_FLOAT && d != G_FLOAT)
    return TRUE;
  if ((s == G_UNSIGNED && d == G_INT) || ((s == G_INT || s == G_UNSIGNED) && d == G_FLOAT))
    return bit_length (dst) <= bit_length (src);
  if ((src == PV_ELEM_FLOAT16 && dst == PV_ELEM_BFLOAT16) || (src == PV_ELEM_BFLOAT16 && dst == PV_ELEM_FLOAT16))
    return TRUE;
  return bit_length (src) > bit_length (dst) && !g_str_has_prefix (name, CAST_PREFIX);
}

/* The consumers of @v as edges (node, input slot), ascending by node. */
static void
edges_of (const Rewrite *r, const gboolean *removed, int v, GArray *out)
{
  g_array_set_size (out, 0);
  for (int n = 0; n < r->graph->n_nodes; n++)
    for (int k = 0; !removed[n] && k < r->graph->nodes[n].n_inputs; k++)
      if (r->graph->nodes[n].inputs[k] == v)
        {
          int e[2] = { n, k };
          g_array_append_vals (out, e, 2);
        }
}

static gboolean
is_cast (const PvNode *node)
{
  return strcmp (node->op_type, "Cast") == 0 && node->domain[0] == '\0' && node->n_inputs >= 1
         && node->n_outputs >= 1 && node->inputs[0] >= 0 && node->outputs[0] >= 0;
}

static gboolean
is_graph_output (const PvGraph *g, int v)
{
  return (g->values[v].flags & PV_VALUE_GRAPH_OUTPUT) != 0;
}

/* Every consumer edge of @from reads @to instead. */
static void
redirect (Rewrite *r, const gboolean *removed, int from, int to, GArray *scratch)
{
  edges_of (r, removed, from, scratch);
  for (guint i = 0; i < scratch->len / 2; i++)
    {
      const int *e = &g_array_index (scratch, int, 2 * i);
      r->graph->nodes[e[0]].inputs[e[1]] = to;
    }
}

/* One Cast of RemoveDuplicateCastTransformer's walk. */
static void
remove_around_cast (Rewrite *r, gboolean *removed, int c, GArray *edges, GArray *scratch)
{
  PvGraph *g = r->graph;
  int in = g->nodes[c].inputs[0], out = g->nodes[c].outputs[0];
  int src = elem_of (r, in), dst = elem_of (r, out);
  gboolean loss = unsafe_cast (src, dst, g->nodes[c].name);
  g_autoptr (GArray) drop = g_array_new (FALSE, FALSE, sizeof (int));
  int n_keep = 0;
  guint n_children;

  edges_of (r, removed, out, edges);
  n_children = edges->len / 2;
  for (guint i = 0; i < n_children; i++)
    {
      int child = g_array_index (edges, int, 2 * i);
      const PvNode *cn = &g->nodes[child];
      int s1, d1;
      if (!is_cast (cn))
        continue;
      s1 = elem_of (r, cn->inputs[0]), d1 = elem_of (r, cn->outputs[0]);
      if (loss && unsafe_cast (d1, s1, cn->name))
        return;  /* inconsistent casts */
      if (!is_graph_output (g, cn->outputs[0]) && src == d1 && s1 == dst)
        g_array_append_val (drop, child);
      else
        n_keep++;
    }
  for (guint i = 0; i < drop->len; i++)
    {
      int d = g_array_index (drop, int, i);
      if (removed[d])
        continue;
      redirect (r, removed, g->nodes[d].outputs[0], in, scratch);
      removed[d] = TRUE;
      r->n_removed++;
    }
  /* All children were Casts (removed or kept): this one goes too, its
   * input feeding the kept ones. */
  if (n_children > 0 && drop->len + (guint) n_keep == n_children && !is_graph_output (g, out))
    {
      redirect (r, removed, out, in, scratch);
      removed[c] = TRUE;
      r->n_removed++;
    }
}

static void
remove_duplicate_casts (Rewrite *r)
{
  PvGraph *g = r->graph;
  g_autofree gboolean *removed = g_new0 (gboolean, MAX (g->n_nodes, 1));
  g_autoptr (GArray) edges = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr (GArray) scratch = g_array_new (FALSE, FALSE, sizeof (int));

  for (int n = 0; n < g->n_nodes; n++)
    if (!removed[n] && is_cast (&g->nodes[n]))
      remove_around_cast (r, removed, n, edges, scratch);
  pv_graph_edit_remove_nodes (g, removed);
}

/* A subgraph node InsertCastTransformer would cast around. */
static gboolean
subgraph_needs_casts (const Rewrite *r, const PvGraph *sub)
{
  for (int n = 0; n < sub->n_nodes; n++)
    {
      const PvNode *node = &sub->nodes[n];
      gboolean fp16 = FALSE;
      for (int k = 0; k < node->n_inputs; k++)
        {
          const PvOrtValueType *t = pv_ort_shapes_get (r->shapes, sub, node->inputs[k]);
          fp16 |= node->inputs[k] >= 0 && t->kind == PV_TYPE_TENSOR && t->elem_type == PV_ELEM_FLOAT16;
        }
      if (fp16 && node->n_subgraphs == 0 && !in_table (r, "fp16_kernels", node))
        return TRUE;
      for (int s = 0; s < node->n_subgraphs; s++)
        if (subgraph_needs_casts (r, node->subgraphs[s]))
          return TRUE;
    }
  return FALSE;
}

/* ---- function inlining (GraphPartitioner's InlineNodes) ---- */

/* Element types of @g's values as ORT holds them (r->elem), from a new
 * ORT-view inference of @model. */
static gboolean
read_types (Rewrite *r, const PvModel *model, PvOrtShapes **shapes, GError **error)
{
  g_clear_pointer (shapes, pv_ort_shapes_unref);
  *shapes = pv_ort_shapes_new (model, r->cancellable, error);
  if (*shapes == NULL)
    return FALSE;
  r->shapes = *shapes;
  if (r->elem)
    g_array_unref (r->elem);
  r->elem = g_array_sized_new (FALSE, TRUE, sizeof (int), r->graph->n_values);
  g_array_set_size (r->elem, r->graph->n_values);
  for (int v = 0; v < r->graph->n_values; v++)
    {
      const PvOrtValueType *t = pv_ort_shapes_get (*shapes, r->graph, v);
      g_array_index (r->elem, int, v) = t->kind == PV_TYPE_TENSOR ? t->elem_type : 0;
    }
  return TRUE;
}

/* A new value for an inlined body, named after @call's output. */
static int
body_value (Rewrite *r, int call, const char *what)
{
  const PvNode *node = &r->graph->nodes[call];
  g_autofree char *base = g_strdup_printf ("_inlfunc_%s_%s", node->op_type, what);
  g_autofree char *name = generate_name (r, base);
  return pv_graph_edit_add_value (r->graph, name, NULL);
}

/* An int64 vector initializer for an inlined body's Constant (ORT makes
 * its Constants initializers). */
static int
body_axes (Rewrite *r, int call, gint64 axis)
{
  const PvNode *node = &r->graph->nodes[call];
  g_autofree char *base = g_strdup_printf ("_inlfunc_%s_axes", node->op_type);
  g_autofree char *name = generate_name (r, base);
  PvTensor *t = g_new0 (PvTensor, 1);

  t->elem_type = PV_ELEM_INT64;
  t->n_dims = 1;
  t->dims = g_new (gint64, 1);
  t->dims[0] = 1;
  t->data = g_bytes_new (&axis, sizeof axis);
  return pv_graph_edit_add_initializer (r->graph, name, t);
}

/* Softmax-13 and LogSoftmax-13: X - max, Exp, sum, then Div (Softmax) or
 * Sub of the Log (LogSoftmax), over the axes Constant; ReduceMax takes its
 * axes as an attribute before opset 18. */
static void
inline_softmax (Rewrite *r, int call, int opset)
{
  const PvNode *node = &r->graph->nodes[call];
  const PvAttribute *axis_attr = pv_node_find_attr (node, "axis");
  gint64 axis = axis_attr ? axis_attr->i : -1;
  gboolean log = strcmp (node->op_type, "LogSoftmax") == 0;
  int x = node->inputs[0], y = node->outputs[0];
  int axes = body_axes (r, call, axis);
  int max = body_value (r, call, "X_ReduceMax"), sub = body_value (r, call, "X_Sub");
  int e = body_value (r, call, "X_Exp"), sum = body_value (r, call, "X_ReduceSum");
  int id;

  id = opset >= 18 ? pv_graph_edit_add_node (r->graph, "", "ReduceMax", opset, (int[]) { x, axes }, 2, &max, 1)
                   : pv_graph_edit_add_node (r->graph, "", "ReduceMax", opset, &x, 1, &max, 1);
  if (opset < 18)
    pv_graph_edit_set_attr_ints (r->graph, id, "axes", &axis, 1);
  pv_graph_edit_set_attr_int (r->graph, id, "keepdims", 1);
  pv_graph_edit_add_node (r->graph, "", "Sub", opset, (int[]) { x, max }, 2, &sub, 1);
  pv_graph_edit_add_node (r->graph, "", "Exp", opset, &sub, 1, &e, 1);
  id = pv_graph_edit_add_node (r->graph, "", "ReduceSum", opset, (int[]) { e, axes }, 2, &sum, 1);
  pv_graph_edit_set_attr_int (r->graph, id, "keepdims", 1);
  if (!log)
    {
      pv_graph_edit_add_node (r->graph, "", "Div", opset, (int[]) { e, sum }, 2, &y, 1);
      return;
    }
  {
    int lg = body_value (r, call, "X_Log");
    pv_graph_edit_add_node (r->graph, "", "Log", opset, &sum, 1, &lg, 1);
    pv_graph_edit_add_node (r->graph, "", "Sub", opset, (int[]) { sub, lg }, 2, &y, 1);
  }
}

/* The ONNX function bodies planviz inlines as ORT does: their nodes come
 * after every other, unnamed, and the call node goes. FALSE when planviz
 * does not know the op's body. */
static gboolean
inline_body (Rewrite *r, int call, int opset)
{
  const PvNode *node = &r->graph->nodes[call];
  int x = node->n_inputs > 0 ? node->inputs[0] : -1, y = node->n_outputs > 0 ? node->outputs[0] : -1;
  int a, b, id;

  if (x < 0 || y < 0 || node->domain[0] != '\0')
    return FALSE;
  if (strcmp (node->op_type, "Mish") == 0)
    {
      /* Mish-18: Mul (X, Tanh (Softplus (X))) */
      a = body_value (r, call, "Softplus_X");
      b = body_value (r, call, "TanHSoftplusX");
      pv_graph_edit_add_node (r->graph, "", "Softplus", opset, &x, 1, &a, 1);
      pv_graph_edit_add_node (r->graph, "", "Tanh", opset, &a, 1, &b, 1);
      pv_graph_edit_add_node (r->graph, "", "Mul", opset, (int[]) { x, b }, 2, &y, 1);
      return TRUE;
    }
  if (strcmp (node->op_type, "HardSwish") == 0)
    {
      /* HardSwish-14: Mul (X, HardSigmoid<alpha=1/6, beta=0.5> (X)) */
      a = body_value (r, call, "HS_X");
      id = pv_graph_edit_add_node (r->graph, "", "HardSigmoid", opset, &x, 1, &a, 1);
      pv_graph_edit_set_attr_float (r->graph, id, "alpha", 1.0f / 6.0f);
      pv_graph_edit_set_attr_float (r->graph, id, "beta", 0.5f);
      pv_graph_edit_add_node (r->graph, "", "Mul", opset, (int[]) { x, a }, 2, &y, 1);
      return TRUE;
    }
  if (strcmp (node->op_type, "Softmax") == 0 || strcmp (node->op_type, "LogSoftmax") == 0)
    {
      inline_softmax (r, call, opset);
      return TRUE;
    }
  return FALSE;
}

/* Inlines, in NodeIndex order, the nodes ORT gives no kernel and inlines;
 * names those planviz cannot inline. TRUE when the graph changed. */
static gboolean
inline_functions (Rewrite *r, int opset)
{
  PvGraph *g = r->graph;
  int n_nodes = g->n_nodes;
  g_autofree gboolean *removed = g_new0 (gboolean, MAX (n_nodes, 1));
  gboolean changed = FALSE;

  for (int n = 0; n < n_nodes; n++)
    {
      const PvNode *node = &g->nodes[n];
      const char *table = has_fp16_input (r, node) ? "fp16_inlined" : "float32_inlined";
      g_autofree char *name = NULL, *op = NULL;
      if (node->inlined_from || node->n_subgraphs > 0 || !in_table (r, table, node))
        continue;
      name = g_strdup (node->name[0] ? node->name : node->op_type);
      op = g_strdup (node->op_type);
      if (inline_body (r, n, opset))
        {
          removed = g_renew (gboolean, removed, g->n_nodes);
          memset (removed + n_nodes, 0, sizeof (gboolean) * (g->n_nodes - n_nodes));
          removed[n] = TRUE;
          changed = TRUE;
          g_ptr_array_add (r->notes, g_strdup_printf ("%s (%s) inlined as ORT does (no CPU kernel for its types): "
                                                      "its ONNX function body, unnamed, at the end of NodeIndex",
                                                      name, op));
        }
      else
        g_ptr_array_add (r->notes, g_strdup_printf ("%s (%s) has no CPU kernel for its types: ORT inlines its ONNX "
                                                    "function body (new nodes at the end of NodeIndex); planviz does "
                                                    "not yet, so names, order and plan differ from ORT's there",
                                                    name, op));
    }
  if (changed)
    pv_graph_edit_remove_nodes (g, removed);
  return changed;
}

gboolean
pv_ort_graph_rewrite (PvModel *model, GCancellable *cancellable, PvOrtShapes **ort_shapes, GError **error)
{
  PvGraph *g = model->graph;
  Rewrite r = { g, .cancellable = cancellable };
  g_autoptr (PvOrtShapes) shapes = NULL;
  g_autoptr (GHashTable) updates = NULL;
  g_autofree int *order = NULL;
  int opset = (int) pv_model_opset_version (model, ""), n_order;
  gboolean any = FALSE, ok = TRUE;

  r.notes = g_ptr_array_new_with_free_func (g_free);
  r.generated = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r.table = cJSON_ParseWithLength ((const char *) pv_ort_cpu_fp16_json, pv_ort_cpu_fp16_json_len);
  for (int n = 0; n < g->n_nodes; n++)
    if (g->nodes[n].inlined_from)
      g_ptr_array_add (r.notes, g_strdup_printf ("%s inlined as ORT does (it has no CPU kernel): unnamed %s, "
                                                 "NodeIndex %d", g->nodes[n].inlined_from, g->nodes[n].op_type,
                                                 g->nodes[n].ort_index));
  ok = read_types (&r, model, &shapes, error);
  /* InlineNodes runs before InsertCastTransformer, and Resolve between. */
  if (ok && inline_functions (&r, opset))
    ok = pv_graph_edit_finish (g, error) && read_types (&r, model, &shapes, error);
  if (!ok)
    goto out;
  n_order = g->n_nodes;
  r.assigned = g_new (gboolean, MAX (g->n_nodes, 1));
  for (int n = 0; n < g->n_nodes; n++)
    {
      const PvNode *node = &g->nodes[n];
      r.assigned[n] = node->n_subgraphs > 0 || !has_fp16_input (&r, node) || in_table (&r, "fp16_kernels", node);
      any |= !r.assigned[n];
    }
  if (any)
    {
      updates = g_hash_table_new (g_direct_hash, g_direct_equal);
      for (int n = 0; n < g->n_nodes; n++)
        if (isolated_fp16 (&r, n))
          r.assigned[n] = FALSE, r.n_forced++;
      order = g_memdup2 (g->order, sizeof (int) * MAX (n_order, 1));
      for (int i = 0; i < n_order; i++)
        cast_around (&r, order[i], updates, opset);
      remove_duplicate_casts (&r);
      ok = pv_graph_edit_finish (g, error);
      g_ptr_array_add (r.notes, g_strdup_printf ("float16 on the CPU: %d nodes run in float32, %d of them with a "
                                                 "float16 kernel (isolated between float32 nodes); %d Casts "
                                                 "inserted (" CAST_PREFIX "*), %d removed again",
                                                 r.n_float32, r.n_forced, r.n_inserted, r.n_removed));
    }
  for (int n = 0; ok && n < g->n_nodes; n++)
    for (int s = 0; s < g->nodes[n].n_subgraphs; s++)
      if (subgraph_needs_casts (&r, g->nodes[n].subgraphs[s]))
        g_ptr_array_add (r.notes, g_strdup_printf ("subgraph %s of %s has float16 nodes without a CPU kernel: ORT "
                                                   "casts around them too, planviz does not yet",
                                                   g->nodes[n].subgraphs[s]->parent_attr, g->nodes[n].name));
  /* Casts inserted or removed: the types read are the old graph's. */
  if (ok && ort_shapes && any)
    ok = read_types (&r, model, &shapes, error);
out:
  if (ok && ort_shapes)
    *ort_shapes = g_steal_pointer (&shapes);
  if (ok && r.notes->len > 0)
    {
      g_ptr_array_add (r.notes, NULL);
      g_strfreev (model->session_rewrites);
      model->session_rewrites = (char **) g_ptr_array_free (g_steal_pointer (&r.notes), FALSE);
    }
  else
    g_ptr_array_unref (r.notes);
  g_hash_table_unref (r.generated);
  cJSON_Delete (r.table);
  if (r.elem)
    g_array_unref (r.elem);
  g_free (r.assigned);
  return ok;
}
