/* pv-ort-shapes.c: ORT's view of shapes, read off an ORT-mode inference. */
#include "pv-ort-shapes.h"

#include <string.h>

#include "pv-shape-onnx-private.h"

typedef struct {
  PvOrtValueType *types;
  int n_values;
} GraphTypes;

struct _PvOrtShapes {
  PvShapeInfo *info;          /* the ORT-mode inference; owns the dim names */
  GHashTable *graphs;         /* const PvGraph* -> GraphTypes* */
  GHashTable *model_symbols;  /* the model's dim_params */
  GPtrArray *dims;            /* PvOrtDim arrays */
  gint ref_count;
};

static const PvOrtValueType unknown_type = { PV_TYPE_UNKNOWN, 0, -1, NULL };

static void
graph_types_free (gpointer data)
{
  GraphTypes *gt = data;
  g_free (gt->types);
  g_free (gt);
}

static void
convert_value (PvOrtShapes *s, const PvValueShape *vs, PvOrtValueType *out)
{
  PvOrtDim *dims;

  *out = unknown_type;
  if (vs == NULL || vs->kind == PV_TYPE_UNKNOWN)
    return;
  out->kind = vs->kind;
  out->elem_type = vs->elem_type;
  if (vs->rank < 0 || (vs->kind != PV_TYPE_TENSOR && vs->kind != PV_TYPE_SPARSE_TENSOR))
    return;
  out->rank = vs->rank;
  if (vs->rank == 0)
    return;
  dims = g_new0 (PvOrtDim, vs->rank);
  g_ptr_array_add (s->dims, dims);
  for (int d = 0; d < vs->rank; d++)
    switch (pv_onnx_dim_kind (s->model_symbols, vs->dims[d]))
      {
      case PV_ONNX_DIM_VALUE:
        dims[d].kind = PV_ORT_DIM_VALUE;
        pv_dim_is_const (vs->dims[d], &dims[d].value);
        break;
      case PV_ONNX_DIM_PARAM:
        dims[d].kind = PV_ORT_DIM_PARAM;
        dims[d].param = pv_dim_symbol_name (vs->dims[d]);
        break;
      default:
        dims[d].kind = PV_ORT_DIM_EMPTY;
      }
  out->dims = dims;
}

static void
convert_graph (PvOrtShapes *s, const PvGraph *graph)
{
  GraphTypes *gt = g_new0 (GraphTypes, 1);
  int n_shapes = 0;
  const PvValueShape *shapes = pv_shape_info_get_all (s->info, graph, &n_shapes);

  gt->n_values = graph->n_values;
  gt->types = g_new (PvOrtValueType, MAX (graph->n_values, 1));
  for (int v = 0; v < graph->n_values; v++)
    convert_value (s, v < n_shapes ? &shapes[v] : NULL, &gt->types[v]);
  g_hash_table_insert (s->graphs, (gpointer) graph, gt);
  for (int n = 0; n < graph->n_nodes; n++)
    for (int k = 0; k < graph->nodes[n].n_subgraphs; k++)
      convert_graph (s, graph->nodes[n].subgraphs[k]);
}

PvOrtShapes *
pv_ort_shapes_new (const PvModel *model, GCancellable *cancellable, GError **error)
{
  PvShapeOptions options = { .ort_view = TRUE, .cancellable = cancellable };
  PvShapeInfo *info;
  PvOrtShapes *s;

  g_return_val_if_fail (model != NULL, NULL);
  info = pv_shape_infer (model, &options, error);
  if (info == NULL)
    return NULL;
  s = g_new0 (PvOrtShapes, 1);
  s->ref_count = 1;
  s->info = info;
  s->graphs = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, graph_types_free);
  s->model_symbols = g_hash_table_new (g_str_hash, g_str_equal);
  s->dims = g_ptr_array_new_with_free_func (g_free);
  pv_onnx_collect_model_symbols (model->graph, s->model_symbols);
  convert_graph (s, model->graph);
  return s;
}

PvOrtShapes *
pv_ort_shapes_ref (PvOrtShapes *shapes)
{
  g_return_val_if_fail (shapes != NULL, NULL);
  g_atomic_int_inc (&shapes->ref_count);
  return shapes;
}

void
pv_ort_shapes_unref (PvOrtShapes *shapes)
{
  if (shapes == NULL || !g_atomic_int_dec_and_test (&shapes->ref_count))
    return;
  g_hash_table_unref (shapes->graphs);
  g_hash_table_unref (shapes->model_symbols);
  g_ptr_array_unref (shapes->dims);
  pv_shape_info_free (shapes->info);
  g_free (shapes);
}

const PvOrtValueType *
pv_ort_shapes_get (const PvOrtShapes *shapes, const PvGraph *graph, int value_id)
{
  const GraphTypes *gt = shapes ? g_hash_table_lookup (shapes->graphs, graph) : NULL;

  if (gt == NULL || value_id < 0 || value_id >= gt->n_values)
    return &unknown_type;
  return &gt->types[value_id];
}

static void
append_dim (GString *out, const PvOrtDim *dim)
{
  if (dim->kind == PV_ORT_DIM_VALUE)
    g_string_append_printf (out, "%" G_GINT64_FORMAT, dim->value);
  else if (dim->kind == PV_ORT_DIM_PARAM)
    g_string_append (out, dim->param);
  else
    g_string_append_c (out, '?');
}

char *
pv_ort_value_type_to_string (const PvOrtValueType *type)
{
  GString *out;

  if (type->rank < 0)
    return g_strdup ("?");
  out = g_string_new ("[");
  for (int d = 0; d < type->rank; d++)
    {
      if (d > 0)
        g_string_append_c (out, ',');
      append_dim (out, &type->dims[d]);
    }
  g_string_append_c (out, ']');
  return g_string_free (out, FALSE);
}

/* Is planviz's @best a dim ORT's empty one falls short of: a value, an
 * expression, a symbol the model states or an anonymous input dim
 * ("input:1")? Symbols planviz makes up for dims nobody knows do not count. */
static gboolean
knows_more (const PvOrtShapes *s, const PvDimExpr *best)
{
  const char *symbol = pv_dim_symbol_name (best);

  return symbol == NULL || g_hash_table_contains (s->model_symbols, symbol) || strchr (symbol, ':') != NULL;
}

char *
pv_ort_shapes_explain (const PvOrtShapes *shapes, const PvOrtValueType *ort, const PvValueShape *best)
{
  g_autofree char *seen = NULL, *list = NULL;
  GString *why;
  int n = 0;

  if (best == NULL || best->rank < 0 || best->kind != PV_TYPE_TENSOR || ort->rank > best->rank)
    return NULL;
  if (ort->rank < 0)
    return g_strdup ("ONNX Runtime has no shape for this value, so SameSize fails: no buffer is reused for it, "
                     "nor its buffer for another");
  if (ort->rank != best->rank)
    return NULL;
  why = g_string_new (NULL);
  for (int d = 0; d < ort->rank; d++)
    {
      g_autofree char *dim = NULL;
      if (ort->dims[d].kind != PV_ORT_DIM_EMPTY || best->dims[d] == NULL || !knows_more (shapes, best->dims[d]))
        continue;
      dim = pv_dim_to_string (best->dims[d]);
      g_string_append_printf (why, "%s axis %d is %s", n++ ? "," : "", d, dim);
    }
  list = g_string_free (why, FALSE);
  if (n == 0)
    return NULL;
  seen = pv_ort_value_type_to_string (ort);
  return g_strdup_printf ("ONNX Runtime sees %s: it cannot prove that%s, so SameSize fails: no buffer is reused for "
                          "this value, nor its buffer for another", seen, list);
}
