/* pv-infer-context.c: the rule API (pv-shape-onnx-private.h) each shape
 * rule is handed: its node's inputs, attributes and known contents, and the
 * setters of its outputs, over the driver's state (pv-shape-inference.c). */
#include "pv-shape-inference-private.h"

#include <string.h>

#include "pv-element-type.h"
#include "pv-error.h"
#include "pv-shape-onnx-private.h"

PvDimPool *
pv_infer_pool (PvInferContext *ctx)
{
  return ctx->info->pool;
}

const PvValueShape *
pv_infer_input (PvInferContext *ctx, int k)
{
  int v;

  if (k < 0 || k >= ctx->node->n_inputs)
    return NULL;
  v = ctx->node->inputs[k];
  return v < 0 ? NULL : &ctx->shapes->values[v];
}

const PvGraph *
pv_infer_graph (PvInferContext *ctx)
{
  return ctx->graph;
}

gboolean
pv_infer_ort_view (PvInferContext *ctx)
{
  return ctx->info->ort_view;
}

int
pv_infer_n_inputs (PvInferContext *ctx)
{
  return ctx->node->n_inputs;
}

int
pv_infer_n_outputs (PvInferContext *ctx)
{
  return ctx->node->n_outputs;
}

static PvValueShape *
output_shape (PvInferContext *ctx, int k)
{
  int v;

  if (k < 0 || k >= ctx->node->n_outputs)
    return NULL;
  v = ctx->node->outputs[k];
  return v < 0 ? NULL : &ctx->shapes->values[v];
}

void
pv_infer_set_output (PvInferContext *ctx, int k, int elem_type, int rank, const PvDimExpr *const *dims)
{
  PvValueShape *out = output_shape (ctx, k);

  if (out == NULL)
    return;
  memset (out, 0, sizeof *out);
  out->kind = PV_TYPE_TENSOR;
  out->elem_type = elem_type;
  out->rank = rank;
  out->inferred = TRUE;
  if (rank > 0)
    {
      out->dims = _pv_shape_copy_dims (ctx->info, dims, rank);
      for (int i = 0; i < rank; i++)
        if (out->dims[i] == NULL)  /* a constructor overflowed: unknowable */
          out->dims[i] = pv_dim_fresh_symbol (ctx->info->pool, "unk");
    }
}

void
pv_infer_set_size_error (PvInferContext *ctx, int k, int code)
{
  PvValueShape *out = output_shape (ctx, k);

  if (out != NULL)
    out->size_error = 1 + code;
}

void
pv_infer_set_output_kind (PvInferContext *ctx, int k, PvTypeKind kind, int elem_type)
{
  PvValueShape *out = output_shape (ctx, k);

  if (out == NULL)
    return;
  memset (out, 0, sizeof *out);
  out->kind = kind;
  out->elem_type = elem_type;
  out->rank = -1;
  out->inferred = TRUE;
}

void
pv_infer_set_output_data (PvInferContext *ctx, int k, const PvDimExpr *const *data, int n)
{
  PvValueShape *out = output_shape (ctx, k);

  /* ONNX's rules never compute contents (ORT has no data propagation). */
  if (out == NULL || n <= 0 || n > MAX_DATA_ELEMENTS || ctx->info->ort_view)
    return;
  for (int i = 0; i < n; i++)
    if (data[i] == NULL)
      return;
  out->data = _pv_shape_copy_dims (ctx->info, data, n);
  out->n_data = n;
}

const PvDimExpr *
pv_infer_broadcast_dim (PvInferContext *ctx, const PvDimExpr *a, const PvDimExpr *b)
{
  gint64 x, y;
  gboolean ca = pv_dim_is_const (a, &x), cb = pv_dim_is_const (b, &y);

  if (ctx->info->ort_view)
    {
      const PvDimExpr *r = pv_onnx_broadcast_dim (ctx->info->model_symbols, a, b, _pv_shape_fresh_empty, ctx->info);
      if (r == NULL)
        pv_infer_warn (ctx, "cannot broadcast two different dims");
      return r;
    }
  if (a == b)
    return a;
  if (ca && x == 1)
    return b;
  if (cb && y == 1)
    return a;
  if (ca && cb)
    {
      pv_infer_warn (ctx, "cannot broadcast %" G_GINT64_FORMAT " with %" G_GINT64_FORMAT, x, y);
      return NULL;
    }
  /* A symbol against anything else: they must be equal at run time (a 1
   * would make the other side win, but models that rely on that state it). */
  pv_dim_pool_unify (ctx->info->pool, a, b);
  if (cb)
    return b;
  if (ca)
    return a;
  return _pv_shape_specificity (b) > _pv_shape_specificity (a) ? b : a;
}

const PvDimExpr *
pv_infer_fresh (PvInferContext *ctx, const char *prefix)
{
  return pv_dim_fresh_symbol (ctx->info->pool, prefix);
}

void
pv_infer_warn (PvInferContext *ctx, const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;
  const PvNode *node = ctx->node;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  _pv_shape_warn (ctx->info, "node “%s” (%s): %s", node->name, node->op_type, message);
}

gint64
pv_infer_attr_int (const PvNode *node, const char *name, gint64 fallback)
{
  const PvAttribute *a = pv_node_find_attr (node, name);
  return a && a->type == PV_ATTR_INT ? a->i : fallback;
}

float
pv_infer_attr_float (const PvNode *node, const char *name, float fallback)
{
  const PvAttribute *a = pv_node_find_attr (node, name);
  return a && a->type == PV_ATTR_FLOAT ? a->f : fallback;
}

int
pv_infer_attr_ints (const PvNode *node, const char *name, const gint64 **out)
{
  const PvAttribute *a = pv_node_find_attr (node, name);

  if (a == NULL || a->type != PV_ATTR_INTS)
    {
      *out = NULL;
      return 0;
    }
  *out = a->ints;
  return (int) a->n;
}

int
pv_infer_input_ints (PvInferContext *ctx, int k, gint64 **out)
{
  const PvValueShape *in = pv_infer_input (ctx, k);
  gint64 *values;

  *out = NULL;
  if (in == NULL || in->data == NULL)
    return -1;
  values = _pv_shape_keep (ctx->info, g_new (gint64, MAX (in->n_data, 1)));
  for (int i = 0; i < in->n_data; i++)
    if (!pv_dim_is_const (in->data[i], &values[i]))
      return -1;
  *out = values;
  return in->n_data;
}

const PvValueShape *const *
pv_infer_subgraph (PvInferContext *ctx, const PvGraph *graph, const PvValueShape *const *input_shapes, int n_inputs)
{
  const PvValueShape **outputs;
  GraphShapes *gs;

  if (!_pv_shape_infer_graph (ctx->info, graph, input_shapes, n_inputs, NULL))
    return NULL;
  gs = g_hash_table_lookup (ctx->info->graphs, graph);
  outputs = _pv_shape_keep (ctx->info, g_new0 (const PvValueShape *, MAX (graph->n_outputs, 1)));
  for (int i = 0; i < graph->n_outputs; i++)
    outputs[i] = &gs->values[graph->outputs[i]];
  return outputs;
}
