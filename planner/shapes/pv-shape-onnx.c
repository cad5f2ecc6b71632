/* pv-shape-onnx.c: ONNX's dim semantics for the ORT view of shapes: what a
 * dim is as a TensorShapeProto dim, ONNX's broadcast of two dims, and the
 * merge of an inferred shape with the stated one (mergeInShapeInfo, with
 * ORT's lenient fallback to UnionShapeInfo). */
#include "pv-shape-onnx-private.h"

#include <string.h>

PvOnnxDimKind
pv_onnx_dim_kind (GHashTable *model_symbols, const PvDimExpr *e)
{
  const char *symbol;

  if (e == NULL)
    return PV_ONNX_DIM_EMPTY;
  if (pv_dim_is_const (e, NULL))
    return PV_ONNX_DIM_VALUE;
  symbol = pv_dim_symbol_name (e);
  return symbol && g_hash_table_contains (model_symbols, symbol) ? PV_ONNX_DIM_PARAM : PV_ONNX_DIM_EMPTY;
}

static void
collect_type (const PvType *type, GHashTable *out)
{
  for (int d = 0; d < type->rank; d++)
    if (type->dims[d].kind == PV_DIM_SYMBOL && type->dims[d].symbol && type->dims[d].symbol[0])
      g_hash_table_add (out, (gpointer) type->dims[d].symbol);
}

void
pv_onnx_collect_model_symbols (const PvGraph *graph, GHashTable *out)
{
  for (int v = 0; v < graph->n_values; v++)
    if (!(graph->values[v].flags & PV_VALUE_OUTER_SCOPE))
      collect_type (&graph->values[v].type, out);
  for (int n = 0; n < graph->n_nodes; n++)
    for (int s = 0; s < graph->nodes[n].n_subgraphs; s++)
      pv_onnx_collect_model_symbols (graph->nodes[n].subgraphs[s], out);
}

const PvDimExpr *
pv_onnx_broadcast_dim (GHashTable *model_symbols, const PvDimExpr *a, const PvDimExpr *b,
                       const PvDimExpr *(*empty) (gpointer data), gpointer data)
{
  gint64 x = 1, y = 1;
  gboolean ca = a && pv_dim_is_const (a, &x), cb = b && pv_dim_is_const (b, &y);

  if (ca && cb)
    return x == 1 ? b : y == 1 || x == y ? a : NULL;
  if (ca && x != 1)
    return a;
  if (cb && y != 1)
    return b;
  if (ca)
    return b;
  if (cb)
    return a;
  /* Two symbolic dims: one dim_param when they are the same one (two empty
   * dims compare equal too, and stay empty). */
  if (a == b && pv_onnx_dim_kind (model_symbols, a) == PV_ONNX_DIM_PARAM)
    return a;
  return empty (data);
}

/* One dim of UnionShapeInfo: the stated dim survives when the inferred one
 * equals it. */
static gboolean
union_conflict (GHashTable *symbols, const PvDimExpr *inferred, const PvDimExpr *target)
{
  PvOnnxDimKind si = pv_onnx_dim_kind (symbols, inferred), ti = pv_onnx_dim_kind (symbols, target);

  if (si != PV_ONNX_DIM_EMPTY)
    return si != ti || inferred != target;
  return ti != PV_ONNX_DIM_EMPTY;
}

gboolean
pv_onnx_merge_shape (GHashTable *model_symbols, PvValueShape *inferred, const PvValueShape *stated,
                     const PvDimExpr *(*empty) (gpointer data), gpointer data)
{
  const PvDimExpr **target;
  gboolean conflict = FALSE;
  int i;

  if (stated->rank < 0)
    return TRUE;
  if (inferred->rank < 0)
    {
      inferred->rank = stated->rank;
      inferred->dims = stated->dims;
      return TRUE;
    }
  if (inferred->rank != stated->rank)
    {
      inferred->rank = -1;
      inferred->dims = NULL;
      return FALSE;
    }
  if (inferred->rank == 0)
    return TRUE;
  /* mergeInDimensionInfo dim by dim into the stated shape, until a conflict. */
  target = g_newa (const PvDimExpr *, inferred->rank);
  memcpy (target, stated->dims, sizeof (*target) * inferred->rank);
  for (i = 0; i < inferred->rank && !conflict; i++)
    {
      PvOnnxDimKind si = pv_onnx_dim_kind (model_symbols, inferred->dims[i]);
      PvOnnxDimKind ti = pv_onnx_dim_kind (model_symbols, target[i]);
      if (si == PV_ONNX_DIM_VALUE)
        {
          if (ti == PV_ONNX_DIM_VALUE && target[i] != inferred->dims[i])
            conflict = TRUE;
          else
            target[i] = inferred->dims[i];
        }
      else if (ti == PV_ONNX_DIM_EMPTY && si == PV_ONNX_DIM_PARAM)
        target[i] = inferred->dims[i];
    }
  if (conflict)
    for (i = 0; i < inferred->rank; i++)
      if (union_conflict (model_symbols, inferred->dims[i], target[i]))
        target[i] = empty (data);
  for (i = 0; i < inferred->rank; i++)
    inferred->dims[i] = target[i];
  return !conflict;
}

static void
forget_shape (PvValueShape *shape, gboolean keep_type)
{
  PvTypeKind kind = shape->kind;
  int elem_type = shape->elem_type;

  memset (shape, 0, sizeof *shape);
  shape->rank = -1;
  if (keep_type)
    shape->kind = kind, shape->elem_type = elem_type, shape->inferred = TRUE;
}

void
pv_onnx_adjust_outputs (const PvNode *node, PvValueShape *values, const PvDimExpr *(*empty) (gpointer data),
                        gpointer data)
{
  if (node->domain[0] != '\0')
    return;
  /* Dropout-7 (and older) gives its mask input 0's type but no shape. */
  if (strcmp (node->op_type, "Dropout") == 0 && node->opset < 10 && node->n_outputs > 1 && node->outputs[1] >= 0)
    forget_shape (&values[node->outputs[1]], TRUE);
  /* Reductions with their axes as an input that is no constant: ONNX
   * gives the type only (ReduceSum from opset 13, the others from 18). */
  if (g_str_has_prefix (node->op_type, "Reduce") && node->n_inputs > 1 && node->inputs[1] >= 0
      && values[node->inputs[1]].data == NULL && (node->opset >= 18 || strcmp (node->op_type, "ReduceSum") == 0)
      && node->opset >= 13 && node->n_outputs > 0 && node->outputs[0] >= 0)
    forget_shape (&values[node->outputs[0]], TRUE);
  /* Loop: a loop-carried value's shape may change across iterations, so
   * ONNX gives its final value an element type only. */
  if (strcmp (node->op_type, "Loop") == 0)
    for (int k = 0; k < node->n_outputs; k++)
      {
        PvValueShape *out = node->outputs[k] >= 0 ? &values[node->outputs[k]] : NULL;
        if (out && k < node->n_inputs - 2)
          forget_shape (out, TRUE);
        /* A scan output's first dim, the number of iterations, is unknown. */
        else if (out && out->rank > 0 && out->dims)
          out->dims[0] = empty (data);
      }
}
