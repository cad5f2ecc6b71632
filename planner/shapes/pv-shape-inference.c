/* pv-shape-inference.c: the inference driver. It seeds graph inputs,
 * initializers and outer-scope values, runs each node's rule in ORT's order,
 * merges the result with what the model states, and sizes every value. */
#include "pv-shape-inference.h"

#include <string.h>

#include "pv-element-type.h"
#include "pv-error.h"
#include "pv-shape-inference-private.h"
#include "pv-shape-onnx-private.h"

gpointer
_pv_shape_keep (PvShapeInfo *info, gpointer block)
{
  g_ptr_array_add (info->allocations, block);
  return block;
}

const PvDimExpr **
_pv_shape_copy_dims (PvShapeInfo *info, const PvDimExpr *const *dims, int n)
{
  const PvDimExpr **copy;

  if (n <= 0)
    return NULL;
  copy = _pv_shape_keep (info, g_new (const PvDimExpr *, n));
  memcpy (copy, dims, sizeof (*copy) * n);
  return copy;
}

void
_pv_shape_warn (PvShapeInfo *info, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (info->warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

static char *
rule_key (const char *domain, const char *op_type)
{
  return g_strconcat (domain, "\n", op_type, NULL);
}

static void
register_rules (PvShapeInfo *info)
{
  const PvInferOp *tables[] = { pv_infer_ops_elementwise, pv_infer_ops_cast, pv_infer_ops_reshape, pv_infer_ops_index,
                                pv_infer_ops_sizes,       pv_infer_ops_sequence, pv_infer_ops_signal,
                                pv_infer_ops_nn,          pv_infer_ops_reduce,   pv_infer_ops_control,
                                pv_infer_ops_contrib,     pv_infer_ops_quant,    pv_infer_ops_nchwc };

  info->rules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (gsize t = 0; t < G_N_ELEMENTS (tables); t++)
    for (const PvInferOp *op = tables[t]; op->op_type != NULL; op++)
      g_hash_table_insert (info->rules, rule_key (op->domain, op->op_type), op->infer);
}

/* ---- seeding from what the model states ---- */

static const PvDimExpr *
dim_from_stated (PvShapeInfo *info, const PvDim *dim, const char *value_name, int axis, gboolean graph_input)
{
  switch (dim->kind)
    {
    case PV_DIM_VALUE:
      return pv_dim_const (info->pool, dim->value);
    case PV_DIM_SYMBOL:
      return pv_dim_symbol (info->pool, dim->symbol);
    case PV_DIM_ANONYMOUS:
    default:
      if (graph_input && !info->ort_view)
        {
          /* Stable names, so that users can bind them like named dims. */
          g_autofree char *name = g_strdup_printf ("%s:%d", value_name, axis);
          return pv_dim_symbol (info->pool, name);
        }
      return pv_dim_fresh_symbol (info->pool, "unk");
    }
}

static void
shape_from_stated (PvShapeInfo *info, PvValueShape *shape, const PvValue *value, gboolean graph_input)
{
  const PvType *type = &value->type;

  shape->kind = type->kind;
  shape->elem_type = type->elem_type;
  shape->rank = -1;
  if (type->rank < 0 || (type->kind != PV_TYPE_TENSOR && type->kind != PV_TYPE_SPARSE_TENSOR))
    return;
  shape->rank = type->rank;
  if (type->rank > 0)
    {
      shape->dims = _pv_shape_keep (info, g_new (const PvDimExpr *, type->rank));
      for (int i = 0; i < type->rank; i++)
        shape->dims[i] = dim_from_stated (info, &type->dims[i], value->name, i, graph_input);
    }
}

static void
shape_from_tensor (PvShapeInfo *info, PvValueShape *shape, const PvTensor *tensor)
{
  guint64 n = 0;

  shape->kind = PV_TYPE_TENSOR;
  shape->elem_type = tensor->elem_type;
  shape->rank = tensor->n_dims;
  shape->tensor = tensor;
  if (tensor->n_dims > 0)
    {
      shape->dims = _pv_shape_keep (info, g_new (const PvDimExpr *, tensor->n_dims));
      for (int i = 0; i < tensor->n_dims; i++)
        shape->dims[i] = pv_dim_const (info->pool, tensor->dims[i]);
    }
  if (tensor->data && pv_tensor_n_elements (tensor, &n) && n <= MAX_DATA_ELEMENTS)
    {
      const PvDimExpr **data = g_new (const PvDimExpr *, MAX (n, 1));
      gboolean ok = TRUE;
      for (guint64 i = 0; i < n && ok; i++)
        {
          gint64 iv;
          double dv;
          if (pv_tensor_get_int (tensor, i, &iv))
            data[i] = pv_dim_const (info->pool, iv);
          else if (pv_tensor_get_double (tensor, i, &dv) && dv >= -9.0e18 && dv <= 9.0e18 && dv == (double) (gint64) dv)
            data[i] = pv_dim_const (info->pool, (gint64) dv);
          else
            ok = FALSE;
        }
      if (ok)
        {
          shape->data = _pv_shape_keep (info, data);
          shape->n_data = (int) n;
        }
      else
        g_free (data);
    }
}

static gboolean
apply_input_override (PvShapeInfo *info, PvValueShape *shape, const PvValue *value, GError **error)
{
  GArray *dims;

  if (info->options == NULL || info->options->input_shapes == NULL)
    return TRUE;
  dims = g_hash_table_lookup (info->options->input_shapes, value->name);
  if (dims == NULL)
    return TRUE;
  if (shape->rank >= 0 && shape->rank != (int) dims->len)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_INVALID,
                   "--input-shape %s has %u dims, but the model declares rank %d", value->name, dims->len, shape->rank);
      return FALSE;
    }
  shape->kind = PV_TYPE_TENSOR;
  shape->rank = (int) dims->len;
  shape->dims = _pv_shape_keep (info, g_new (const PvDimExpr *, MAX (dims->len, 1)));
  for (guint i = 0; i < dims->len; i++)
    {
      const PvDimExpr *fixed = pv_dim_const (info->pool, g_array_index (dims, gint64, i));
      /* Unify the stated symbol with the value, so that "batch" elsewhere follows. */
      if (value->type.rank == (int) dims->len && value->type.dims[i].kind == PV_DIM_SYMBOL)
        pv_dim_pool_unify (info->pool, pv_dim_symbol (info->pool, value->type.dims[i].symbol), fixed);
      shape->dims[i] = fixed;
    }
  return TRUE;
}

/* ---- merging a rule's result with the model's statement ---- */

/* The ORT view's stand-in for a dim with neither dim_value nor dim_param. */
const PvDimExpr *
_pv_shape_fresh_empty (gpointer data)
{
  return pv_dim_fresh_symbol (((PvShapeInfo *) data)->pool, "unk");
}

/* Specificity of a dim: constant > expression > named symbol > generated symbol. */
int
_pv_shape_specificity (const PvDimExpr *e)
{
  const char *sym;

  if (pv_dim_is_const (e, NULL))
    return 3;
  sym = pv_dim_symbol_name (e);
  if (sym == NULL)
    return 2;
  if (g_str_has_prefix (sym, "unk_"))
    return 0;
  return 1;
}

static void
merge_with_stated (PvShapeInfo *info, PvValueShape *result, const PvValue *value)
{
  PvValueShape stated = { 0 };
  gboolean warned = FALSE;

  shape_from_stated (info, &stated, value, FALSE);
  if (stated.kind == PV_TYPE_UNKNOWN)
    return;
  if (result->kind == PV_TYPE_UNKNOWN)
    {
      *result = stated;
      return;
    }
  if (result->elem_type == 0)
    result->elem_type = stated.elem_type;
  if (info->ort_view)
    {
      if (result->rank >= 0)
        result->dims = _pv_shape_copy_dims (info, result->dims, result->rank);
      if (!pv_onnx_merge_shape (info->model_symbols, result, &stated, _pv_shape_fresh_empty, info))
        _pv_shape_warn (info, "value “%s”: the model states a shape that inference contradicts; ONNX Runtime "
                         "keeps only the dims both agree on", value->name);
      return;
    }
  else if (stated.elem_type != 0 && stated.elem_type != result->elem_type)
    _pv_shape_warn (info, "value “%s”: the model states %s but inference gives %s; keeping %s", value->name,
                     pv_element_type_name (stated.elem_type), pv_element_type_name (result->elem_type),
                     pv_element_type_name (result->elem_type));
  if (stated.rank < 0)
    return;
  if (result->rank < 0)
    {
      result->rank = stated.rank;
      result->dims = stated.dims;
      return;
    }
  if (result->rank != stated.rank)
    {
      _pv_shape_warn (info, "value “%s”: the model states rank %d but inference gives rank %d; keeping rank %d",
                       value->name, stated.rank, result->rank, result->rank);
      return;
    }
  for (int i = 0; i < result->rank; i++)
    {
      const PvDimExpr *ours = result->dims[i], *theirs = stated.dims[i];
      gint64 a, b;
      if (ours == theirs)
        continue;
      if (pv_dim_is_const (ours, &a) && pv_dim_is_const (theirs, &b))
        {
          if (!warned)
            {
              g_autofree char *x = pv_dim_to_string (theirs), *y = pv_dim_to_string (ours);
              _pv_shape_warn (info, "value “%s”: the model states %s for axis %d but inference gives %s; keeping %s",
                               value->name, x, i, y, y);
              warned = TRUE;
            }
          continue;
        }
      pv_dim_pool_unify (info->pool, ours, theirs);
      if (_pv_shape_specificity (theirs) > _pv_shape_specificity (ours))
        result->dims[i] = theirs;
    }
}

/* ---- sizes ---- */

static void
compute_bytes (PvShapeInfo *info, PvValueShape *shape)
{
  guint bits = pv_element_type_bits (shape->elem_type);
  const PvDimExpr *n;

  shape->bytes = NULL;
  if (shape->kind != PV_TYPE_TENSOR || shape->rank < 0 || bits == 0)
    return;
  n = pv_dim_const (info->pool, 1);
  for (int i = 0; i < shape->rank && n; i++)
    n = pv_dim_mul (info->pool, n, shape->dims[i]);
  if (n != NULL && bits % 8 == 0)
    shape->bytes = pv_dim_mul (info->pool, n, pv_dim_const (info->pool, bits / 8));
  else if (n != NULL)
    shape->bytes = pv_dim_ceil_div (info->pool, pv_dim_mul (info->pool, n, pv_dim_const (info->pool, bits)), 8);
  /* The constants' product overflowed: a wrong size, never "no size". */
  if (shape->bytes == NULL && shape->size_error == 0)
    shape->size_error = 1 + PV_SHAPE_ERROR_OVERFLOW;
}

/* ---- the walk ---- */

static GraphShapes *
graph_shapes_new (PvShapeInfo *info, const PvGraph *graph)
{
  GraphShapes *gs = g_new0 (GraphShapes, 1);

  gs->n_values = graph->n_values;
  gs->values = g_new0 (PvValueShape, MAX (graph->n_values, 1));
  for (int i = 0; i < graph->n_values; i++)
    gs->values[i].rank = -1;
  g_hash_table_replace (info->graphs, (gpointer) graph, gs);
  return gs;
}

static void
graph_shapes_free (gpointer data)
{
  GraphShapes *gs = data;

  g_free (gs->values);
  g_free (gs);
}

static void
infer_node (PvShapeInfo *info, const PvGraph *graph, GraphShapes *gs, const PvNode *node)
{
  PvInferContext ctx = { info, graph, gs, node };
  g_autofree char *key = rule_key (node->domain, node->op_type);
  PvInferFunc rule = g_hash_table_lookup (info->rules, key);

  if (rule == NULL)
    {
      g_autofree char *name = node->domain[0] ? g_strdup_printf ("%s:%s", node->domain, node->op_type)
                                              : g_strdup (node->op_type);
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (info->uncovered, name));
      g_hash_table_insert (info->uncovered, g_steal_pointer (&name), GUINT_TO_POINTER (count + 1));
    }
  else
    rule (&ctx, node);
  if (info->ort_view)
    pv_onnx_adjust_outputs (node, gs->values, _pv_shape_fresh_empty, info);

  /* An inlined CastLike takes its element type from its old target input. */
  if (node->type_source >= 0 && node->n_outputs > 0 && node->outputs[0] >= 0 &&
      gs->values[node->type_source].elem_type != 0)
    gs->values[node->outputs[0]].elem_type = gs->values[node->type_source].elem_type;

  for (int k = 0; k < node->n_outputs && !(info->options && info->options->ignore_stated_types); k++)
    if (node->outputs[k] >= 0)
      merge_with_stated (info, &gs->values[node->outputs[k]], &graph->values[node->outputs[k]]);
}

/* Infers @graph; graph inputs come from @input_shapes when given (subgraphs),
 * else from the model. */
gboolean
_pv_shape_infer_graph (PvShapeInfo *info, const PvGraph *graph, const PvValueShape *const *input_shapes, int n_input_shapes,
             GError **error)
{
  GraphShapes *gs = graph_shapes_new (info, graph);
  GraphShapes *parent = graph->parent ? g_hash_table_lookup (info->graphs, graph->parent) : NULL;

  for (int v = 0; v < graph->n_values; v++)
    {
      const PvValue *value = &graph->values[v];
      PvValueShape *shape = &gs->values[v];

      if (value->flags & PV_VALUE_INITIALIZER)
        {
          shape_from_tensor (info, shape, value->initializer);
          /* ORT gives inference the contents of constant initializers only:
           * from IR 4 on, one that is a graph input may be overridden. */
          if (info->ort_view && (value->flags & PV_VALUE_GRAPH_INPUT) && !graph->constants_listed_as_inputs)
            shape->data = NULL, shape->n_data = 0;
        }
      else if ((value->flags & PV_VALUE_OUTER_SCOPE) && parent && value->outer_value >= 0)
        *shape = parent->values[value->outer_value];
      else if (value->flags & PV_VALUE_GRAPH_INPUT)
        shape_from_stated (info, shape, value, graph->parent == NULL);
    }
  for (int i = 0; i < graph->n_inputs; i++)
    {
      int v = graph->inputs[i];
      PvValueShape *shape = &gs->values[v];
      if (graph->values[v].flags & PV_VALUE_INITIALIZER)
        continue;
      if (input_shapes && i < n_input_shapes && input_shapes[i] && input_shapes[i]->kind != PV_TYPE_UNKNOWN)
        {
          PvValueShape given = *input_shapes[i];
          /* Rules may pass dims that live on their stack: keep a copy. */
          given.dims = given.rank > 0 ? _pv_shape_copy_dims (info, given.dims, given.rank) : NULL;
          given.data = NULL;
          given.n_data = 0;
          given.tensor = NULL;
          /* The body states its inputs too; keep the more specific. */
          merge_with_stated (info, &given, &graph->values[v]);
          *shape = given;
        }
      else if (graph->parent == NULL && !info->ort_view && !apply_input_override (info, shape, &graph->values[v], error))
        return FALSE;
      if (graph->parent == NULL && !info->ort_view && info->options && info->options->input_values)
        {
          const PvTensor *known = g_hash_table_lookup (info->options->input_values, graph->values[v].name);
          if (known)
            shape_from_tensor (info, shape, known);  /* tensor pointer dropped after inference */
        }
    }

  for (int i = 0; i < graph->n_nodes; i++)
    {
      /* Only the main graph's walk may fail: bodies' callers ignore errors. */
      if (graph->parent == NULL && i % PV_SHAPE_CANCEL_STRIDE == PV_SHAPE_CANCEL_STRIDE - 1 && info->options
          && g_cancellable_set_error_if_cancelled (info->options->cancellable, error))
        return FALSE;
      infer_node (info, graph, gs, &graph->nodes[graph->order[i]]);
    }
  /* An inlined CastLike may run before the value it takes its type from is
   * made (that is no edge): then once more, with every type known. */
  for (int i = 0; i < graph->n_nodes; i++)
    {
      const PvNode *node = &graph->nodes[i];
      if (node->type_source >= 0 && node->n_outputs > 0 && node->outputs[0] >= 0
          && gs->values[node->outputs[0]].elem_type != gs->values[node->type_source].elem_type)
        {
          for (int k = 0; k < graph->n_nodes; k++)
            infer_node (info, graph, gs, &graph->nodes[graph->order[k]]);
          break;
        }
    }
  return TRUE;
}

static void
finish_graph (gpointer key, gpointer value, gpointer user_data)
{
  PvShapeInfo *info = user_data;
  GraphShapes *gs = value;

  for (int v = 0; v < gs->n_values; v++)
    {
      PvValueShape *shape = &gs->values[v];
      if (v % PV_SHAPE_CANCEL_STRIDE == PV_SHAPE_CANCEL_STRIDE - 1 && info->options
          && g_cancellable_is_cancelled (info->options->cancellable))
        return;
      if (shape->rank > 0)
        {
          /* Dims may be shared with other values: resolve into a copy. */
          const PvDimExpr **dims = _pv_shape_keep (info, g_new (const PvDimExpr *, shape->rank));
          for (int i = 0; i < shape->rank; i++)
            {
              dims[i] = pv_dim_pool_resolve (info->pool, shape->dims[i]);
              /* ORT's view reads such a dim as empty (never equal, not even to
               * itself) and no rule runs any more: one symbol serves them all,
               * where a fresh one each cost a third of that inference. */
              if (dims[i] == NULL && info->ort_view)
                dims[i] = info->ort_empty ? info->ort_empty
                                          : (info->ort_empty = pv_dim_fresh_symbol (info->pool, "unk"));
              else if (dims[i] == NULL)
                dims[i] = pv_dim_fresh_symbol (info->pool, "unk");
            }
          shape->dims = dims;
        }
      if (shape->n_data > 0)
        {
          const PvDimExpr **data = _pv_shape_keep (info, g_new (const PvDimExpr *, shape->n_data));
          for (int i = 0; i < shape->n_data; i++)
            data[i] = shape->data[i] ? pv_dim_pool_resolve (info->pool, shape->data[i]) : NULL;
          shape->data = data;
        }
      /* ORT's view has no sizes: its planner reads shapes only. */
      if (!info->ort_view)
        compute_bytes (info, shape);
    }
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
collect_uncovered (PvShapeInfo *info)
{
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, info->uncovered);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort (keys, compare_names);
  info->uncovered_keys = g_new0 (char *, keys->len + 1);
  info->uncovered_counts = g_new0 (guint, keys->len + 1);
  for (guint i = 0; i < keys->len; i++)
    {
      info->uncovered_keys[i] = keys->pdata[i];
      info->uncovered_counts[i] = GPOINTER_TO_UINT (g_hash_table_lookup (info->uncovered, keys->pdata[i]));
    }
}

PvShapeInfo *
pv_shape_infer (const PvModel *model, const PvShapeOptions *options, GError **error)
{
  g_autoptr (PvShapeInfo) info = g_new0 (PvShapeInfo, 1);

  info->ref_count = 1;
  info->pool = pv_dim_pool_new ();
  info->graphs = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, graph_shapes_free);
  info->warnings = g_ptr_array_new_with_free_func (g_free);
  info->uncovered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  info->allocations = g_ptr_array_new_with_free_func (g_free);
  info->options = options;
  info->ort_view = options && options->ort_view;
  if (info->ort_view)
    {
      GHashTableIter iter;
      gpointer name;
      info->model_symbols = g_hash_table_new (g_str_hash, g_str_equal);
      pv_dim_pool_set_onnx_arithmetic (info->pool, TRUE);
      pv_onnx_collect_model_symbols (model->graph, info->model_symbols);
      /* Made first, so that no fresh symbol takes a stated name. */
      g_hash_table_iter_init (&iter, info->model_symbols);
      while (g_hash_table_iter_next (&iter, &name, NULL))
        pv_dim_symbol (info->pool, name);
    }
  register_rules (info);

  if (options && options->input_shapes && !info->ort_view)
    {
      GHashTableIter iter;
      gpointer name;
      g_hash_table_iter_init (&iter, options->input_shapes);
      while (g_hash_table_iter_next (&iter, &name, NULL))
        {
          int v = pv_graph_find_value (model->graph, name);
          if (v < 0 || !(model->graph->values[v].flags & PV_VALUE_GRAPH_INPUT))
            {
              g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_INVALID,
                           "--input-shape names “%s”, which is not a graph input of %s", (const char *) name,
                           model->source_name);
              return NULL;
            }
        }
    }

  if (!_pv_shape_infer_graph (info, model->graph, NULL, 0, error))
    return NULL;
  /* input_values belong to the caller: do not keep pointers into them. */
  {
    GraphShapes *root = g_hash_table_lookup (info->graphs, model->graph);
    for (int i = 0; i < model->graph->n_inputs; i++)
      if (!(model->graph->values[model->graph->inputs[i]].flags & PV_VALUE_INITIALIZER))
        root->values[model->graph->inputs[i]].tensor = NULL;
  }
  g_hash_table_foreach (info->graphs, finish_graph, info);
  if (options && g_cancellable_set_error_if_cancelled (options->cancellable, error))
    return NULL;
  info->main_graph = model->graph;
  info->main_shapes = g_hash_table_lookup (info->graphs, model->graph);
  collect_uncovered (info);
  info->options = NULL;
  return g_steal_pointer (&info);
}

PvShapeInfo *
pv_shape_info_ref (PvShapeInfo *info)
{
  g_return_val_if_fail (info != NULL, NULL);
  g_atomic_int_inc (&info->ref_count);
  return info;
}

void
pv_shape_info_free (PvShapeInfo *info)
{
  if (info == NULL || !g_atomic_int_dec_and_test (&info->ref_count))
    return;
  g_clear_pointer (&info->graphs, g_hash_table_unref);
  g_clear_pointer (&info->warnings, g_ptr_array_unref);
  g_clear_pointer (&info->uncovered, g_hash_table_unref);
  g_clear_pointer (&info->model_symbols, g_hash_table_unref);
  g_clear_pointer (&info->rules, g_hash_table_unref);
  g_clear_pointer (&info->allocations, g_ptr_array_unref);
  g_free (info->uncovered_keys);  /* the strings belong to info->uncovered */
  g_free (info->uncovered_counts);
  g_clear_pointer (&info->pool, pv_dim_pool_free);
  g_free (info);
}

static const GraphShapes *
graph_shapes (const PvShapeInfo *info, const PvGraph *graph)
{
  if (graph == info->main_graph)
    return info->main_shapes;
  return g_hash_table_lookup (info->graphs, graph);
}

const PvValueShape *
pv_shape_info_get (const PvShapeInfo *info, const PvGraph *graph, int value_id)
{
  const GraphShapes *gs = graph_shapes (info, graph);

  if (gs == NULL || value_id < 0 || value_id >= gs->n_values)
    return NULL;
  return &gs->values[value_id];
}

const PvValueShape *
pv_shape_info_get_all (const PvShapeInfo *info, const PvGraph *graph, int *n_values_out)
{
  const GraphShapes *gs = graph_shapes (info, graph);

  *n_values_out = gs ? gs->n_values : 0;
  return gs ? gs->values : NULL;
}

PvDimPool *
pv_shape_info_get_pool (const PvShapeInfo *info)
{
  return info->pool;
}

const char *const *
pv_shape_info_warnings (const PvShapeInfo *info)
{
  /* Keep a NULL after the last element without counting it. */
  g_ptr_array_add (info->warnings, NULL);
  g_ptr_array_set_size (info->warnings, info->warnings->len - 1);
  return (const char *const *) info->warnings->pdata;
}

const char *const *
pv_shape_info_uncovered_ops (const PvShapeInfo *info, const guint **counts_out)
{
  if (counts_out)
    *counts_out = info->uncovered_counts;
  return (const char *const *) info->uncovered_keys;
}

gboolean
pv_shape_info_eval_bytes (const PvShapeInfo *info, const PvGraph *graph, int value_id, GHashTable *bounds,
                          guint64 *bytes_out, const char **missing_out)
{
  const PvValueShape *shape = pv_shape_info_get (info, graph, value_id);
  gint64 bytes;

  if (missing_out)
    *missing_out = NULL;
  if (shape == NULL || shape->bytes == NULL)
    return FALSE;
  if (!pv_dim_eval (shape->bytes, bounds, &bytes, missing_out) || bytes < 0)
    return FALSE;
  *bytes_out = (guint64) bytes;
  return TRUE;
}

