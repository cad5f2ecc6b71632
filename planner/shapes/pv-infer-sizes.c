/* pv-infer-sizes.c: shape rules for ONNX ops (the "" domain) whose output
 * shape is computed from shapes or values: Shape, Size, ConstantOfShape,
 * Range, OneHot, EyeLike, TopK, and the ops whose output size depends on the
 * data (NonZero, Compress, Unique, NonMaxSuppression), which get symbols.
 *
 * Written from the ONNX operator specifications. Opset differences are taken
 * from node->opset (the imported version of the node's domain). */
#include <math.h>

#include "pv-element-type.h"
#include "pv-infer-dims.h"
#include "pv-infer-tensor-private.h"

/* ---- Shape, Size ---- */

static gboolean
infer_shape (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  gint64 start = 0, end;
  int r;
  const PvDimExpr *n;

  if (x == NULL)
    return FALSE;
  if (!pv_infer_has_rank (x))
    {
      const PvDimExpr *d = pv_infer_fresh (ctx, "shape");
      pv_infer_set_output (ctx, 0, PV_ELEM_INT64, 1, &d);
      return TRUE;
    }
  r = x->rank;
  end = r;
  if (node->opset >= 15)
    {
      start = pv_infer_attr_int (node, "start", 0);
      end = pv_infer_attr_int (node, "end", r);
    }
  if (start < 0)
    start += r;
  if (end < 0)
    end += r;
  start = CLAMP (start, 0, r);
  end = CLAMP (end, 0, r);
  if (end < start)
    end = start;
  n = cst (ctx, end - start);
  pv_infer_set_output (ctx, 0, PV_ELEM_INT64, 1, &n);
  pv_infer_set_contents (ctx, 0, x->dims + start, (int) (end - start));
  return TRUE;
}

static gboolean
infer_size (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvDimExpr *n;

  (void) node;
  if (x == NULL)
    return FALSE;
  pv_infer_set_output (ctx, 0, PV_ELEM_INT64, 0, NULL);
  if (pv_infer_has_rank (x) && (n = pv_infer_dims_product (ctx, x->dims, 0, x->rank)) != NULL)
    pv_infer_set_contents (ctx, 0, &n, 1);
  return TRUE;
}

/* ---- ConstantOfShape, Range, OneHot, EyeLike ---- */

static gboolean
infer_constant_of_shape (PvInferContext *ctx, const PvNode *node)
{
  const PvAttribute *value = pv_node_find_attr (node, "value");
  int elem = PV_ELEM_FLOAT, n = 0;
  const PvDimExpr *const *shape;
  g_autofree const PvDimExpr **dims = NULL;
  const PvDimExpr *fill = NULL;

  if (pv_infer_input (ctx, 0) == NULL)
    return FALSE;
  if (value != NULL && value->type == PV_ATTR_TENSOR && value->t != NULL)
    {
      gint64 iv;
      double dv;
      elem = value->t->elem_type;
      if (pv_tensor_get_int (value->t, 0, &iv))
        fill = cst (ctx, iv);
      else if (pv_tensor_get_double (value->t, 0, &dv) && dv == floor (dv) && fabs (dv) < 9.0e15)
        fill = cst (ctx, (gint64) dv);
    }
  else
    fill = cst (ctx, 0);
  shape = pv_infer_in_data (ctx, 0, &n);
  if (shape == NULL)
    {
      n = pv_infer_in_vector_length (ctx, 0);
      if (n < 0)
        {
          pv_infer_set_unknown_rank (ctx, 0, elem);
          return TRUE;
        }
    }
  dims = g_new0 (const PvDimExpr *, MAX (n, 1));
  for (int i = 0; i < n; i++)
    dims[i] = shape != NULL ? shape[i] : pv_infer_fresh (ctx, "constantofshape");
  pv_infer_set_output (ctx, 0, elem, n, dims);
  if (fill != NULL && shape != NULL)
    {
      gint64 cnt = 1, v;
      for (int i = 0; i < n && cnt <= PV_CONTENTS_MAX; i++)
        {
          if (!is_const (dims[i], &v) || v < 0)
            return TRUE;
          cnt = v == 0 ? 0 : cnt * v;
          if (cnt == 0)
            break;
        }
      if (cnt <= PV_CONTENTS_MAX)
        {
          g_autofree const PvDimExpr **data = g_new0 (const PvDimExpr *, MAX (cnt, 1));
          for (gint64 i = 0; i < cnt; i++)
            data[i] = fill;
          pv_infer_set_contents (ctx, 0, data, (int) cnt);
        }
    }
  return TRUE;
}

/* Conservatively: a constant >= 0 or a lone symbol (dims are >= 0). */
static gboolean
obviously_nonneg (const PvDimExpr *e)
{
  gint64 v;

  if (is_const (e, &v))
    return v >= 0;
  return pv_dim_symbol_name (e) != NULL;
}

static gboolean
infer_range (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *s0 = pv_infer_input (ctx, 0);
  const PvDimExpr *start = pv_infer_in_scalar (ctx, 0), *limit = pv_infer_in_scalar (ctx, 1);
  const PvDimExpr *delta = pv_infer_in_scalar (ctx, 2);
  const PvDimExpr *count = NULL;
  gint64 sv, lv, dv = 0;
  int elem = pv_infer_elem_of (s0);

  (void) node;
  if (elem == 0)
    elem = pv_infer_elem_of (pv_infer_input (ctx, 1));
  if (s0 == NULL && elem == 0)
    return FALSE;
  if (is_const (delta, &dv) && dv != 0)
    {
      if (is_const (start, &sv) && is_const (limit, &lv))
        {
          gint64 diff, k = dv > 0 ? dv : (dv == G_MININT64 ? G_MAXINT64 : -dv);
          if (!(dv > 0 ? __builtin_sub_overflow (lv, sv, &diff) : __builtin_sub_overflow (sv, lv, &diff)))
            count = cst (ctx, diff > 0 ? (diff - 1) / k + 1 : 0);
        }
      else if (start != NULL && limit != NULL)
        {
          const PvDimExpr *diff = dv > 0 ? d_sub (ctx, limit, start) : d_sub (ctx, start, limit);
          gint64 k = dv > 0 ? dv : -dv;
          if (diff != NULL)
            {
              count = k == 1 ? diff : pv_dim_ceil_div (pv_infer_pool (ctx), diff, k);
              if (count != NULL && !obviously_nonneg (diff))
                count = d_max (ctx, cst (ctx, 0), count);
            }
        }
    }
  count = or_fresh (ctx, count, "range");
  pv_infer_set_output (ctx, 0, elem, 1, &count);
  if (start != NULL && dv != 0 && is_const (count, &lv) && lv <= PV_CONTENTS_MAX)
    {
      g_autofree const PvDimExpr **data = g_new0 (const PvDimExpr *, MAX (lv, 1));
      for (gint64 i = 0; i < lv; i++)
        data[i] = d_add (ctx, start, cst (ctx, i * dv));
      pv_infer_set_contents (ctx, 0, data, (int) lv);
    }
  return TRUE;
}

static gboolean
infer_one_hot (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *ind = pv_infer_input (ctx, 0);
  const PvValueShape *values = pv_infer_input (ctx, 2);
  const PvDimExpr *depth = pv_infer_in_scalar (ctx, 1);
  int elem = pv_infer_elem_of (values), r, axis, j = 0;
  g_autofree const PvDimExpr **dims = NULL;
  gint64 dv;

  if (ind == NULL)
    return FALSE;
  if (!pv_infer_has_rank (ind))
    {
      pv_infer_set_unknown_rank (ctx, 0, elem);
      return TRUE;
    }
  r = ind->rank;
  if (!pv_infer_norm_axis (pv_infer_attr_int (node, "axis", -1), r + 1, &axis))
    {
      pv_infer_warn (ctx, "OneHot: axis out of range for rank %d", r + 1);
      return FALSE;
    }
  if (is_const (depth, &dv) && dv < 0)
    depth = NULL;
  dims = g_new0 (const PvDimExpr *, r + 1);
  for (int i = 0; i <= r; i++)
    dims[i] = i == axis ? or_fresh (ctx, depth, "onehot") : ind->dims[j++];
  pv_infer_set_output (ctx, 0, elem, r + 1, dims);
  return TRUE;
}

static gboolean
infer_eye_like (PvInferContext *ctx, const PvNode *node)
{
  return pv_infer_like_input_dtype (ctx, node, 2, "eyelike");
}

/* ---- data-dependent sizes ---- */

static gboolean
infer_non_zero (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvDimExpr *dims[2];
  gint64 *vals = NULL;
  int n;

  (void) node;
  if (x == NULL)
    return FALSE;
  dims[0] = pv_infer_has_rank (x) ? cst (ctx, x->rank) : pv_infer_fresh (ctx, "nonzero");
  dims[1] = NULL;
  n = pv_infer_input_ints (ctx, 0, &vals);
  if (n >= 0)
    {
      gint64 c = 0;
      for (int i = 0; i < n; i++)
        c += vals[i] != 0;
      dims[1] = cst (ctx, c);
    }
  dims[1] = or_fresh (ctx, dims[1], "nonzero");
  pv_infer_set_output (ctx, 0, PV_ELEM_INT64, 2, dims);
  return TRUE;
}

static gboolean
infer_compress (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvAttribute *axis_attr = pv_node_find_attr (node, "axis");
  gint64 *cond = NULL;
  int n_cond = pv_infer_input_ints (ctx, 1, &cond);
  const PvDimExpr *count = NULL;
  g_autofree const PvDimExpr **dims = NULL;
  int axis;

  if (x == NULL)
    return FALSE;
  if (n_cond >= 0)
    {
      gint64 c = 0;
      for (int i = 0; i < n_cond; i++)
        c += cond[i] != 0;
      count = cst (ctx, c);
    }
  count = or_fresh (ctx, count, "compress");
  if (axis_attr == NULL)
    {
      pv_infer_set_output (ctx, 0, x->elem_type, 1, &count);
      return TRUE;
    }
  if (!pv_infer_has_rank (x))
    {
      pv_infer_set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  if (!pv_infer_norm_axis (axis_attr->i, x->rank, &axis))
    {
      pv_infer_warn (ctx, "Compress: axis out of range for rank %d", x->rank);
      return FALSE;
    }
  dims = g_new0 (const PvDimExpr *, MAX (x->rank, 1));
  pv_infer_copy_dims (dims, x);
  dims[axis] = count;
  pv_infer_set_output (ctx, 0, x->elem_type, x->rank, dims);
  return TRUE;
}

static gboolean
infer_unique (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvAttribute *axis_attr = pv_node_find_attr (node, "axis");
  const PvDimExpr *u = pv_infer_fresh (ctx, "unique");
  const PvDimExpr *inv;
  int axis;

  if (x == NULL)
    return FALSE;
  if (axis_attr == NULL)
    {
      pv_infer_set_output (ctx, 0, x->elem_type, 1, &u);
      inv = pv_infer_has_rank (x) ? pv_infer_dims_product (ctx, x->dims, 0, x->rank) : NULL;
    }
  else if (pv_infer_has_rank (x) && pv_infer_norm_axis (axis_attr->i, x->rank, &axis))
    {
      g_autofree const PvDimExpr **dims = g_new0 (const PvDimExpr *, x->rank);
      pv_infer_copy_dims (dims, x);
      dims[axis] = u;
      pv_infer_set_output (ctx, 0, x->elem_type, x->rank, dims);
      inv = x->dims[axis];
    }
  else
    {
      pv_infer_set_unknown_rank (ctx, 0, x->elem_type);
      inv = NULL;
    }
  inv = or_fresh (ctx, inv, "unique");
  pv_infer_set_output (ctx, 1, PV_ELEM_INT64, 1, &u);
  pv_infer_set_output (ctx, 2, PV_ELEM_INT64, 1, &inv);
  pv_infer_set_output (ctx, 3, PV_ELEM_INT64, 1, &u);
  return TRUE;
}

static gboolean
infer_non_max_suppression (PvInferContext *ctx, const PvNode *node)
{
  const PvDimExpr *dims[2] = { pv_infer_fresh (ctx, "nonmaxsuppression"), cst (ctx, 3) };

  (void) node;
  pv_infer_set_output (ctx, 0, PV_ELEM_INT64, 2, dims);
  return TRUE;
}

/* ---- TopK ---- */

static gboolean
infer_top_k (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvDimExpr *k;
  g_autofree const PvDimExpr **dims = NULL;
  int axis;

  if (x == NULL)
    return FALSE;
  if (!pv_infer_has_rank (x))
    {
      pv_infer_set_unknown_rank (ctx, 0, x->elem_type);
      pv_infer_set_unknown_rank (ctx, 1, PV_ELEM_INT64);
      return TRUE;
    }
  if (!pv_infer_norm_axis (pv_infer_attr_int (node, "axis", -1), x->rank, &axis))
    {
      pv_infer_warn (ctx, "TopK: axis out of range for rank %d", x->rank);
      return FALSE;
    }
  if (node->opset < 10)
    k = pv_node_find_attr (node, "k") != NULL ? cst (ctx, pv_infer_attr_int (node, "k", 0)) : NULL;
  else
    k = pv_infer_in_scalar (ctx, 1);
  dims = g_new0 (const PvDimExpr *, x->rank);
  pv_infer_copy_dims (dims, x);
  dims[axis] = or_fresh (ctx, k, "topk");
  pv_infer_set_output (ctx, 0, x->elem_type, x->rank, dims);
  pv_infer_set_output (ctx, 1, PV_ELEM_INT64, x->rank, dims);
  return TRUE;
}

const PvInferOp pv_infer_ops_sizes[] = {
  { "", "Shape", infer_shape },
  { "", "Size", infer_size },
  { "", "ConstantOfShape", infer_constant_of_shape },
  { "", "Range", infer_range },
  { "", "OneHot", infer_one_hot },
  { "", "NonZero", infer_non_zero },
  { "", "TopK", infer_top_k },
  { "", "Compress", infer_compress },
  { "", "Unique", infer_unique },
  { "", "EyeLike", infer_eye_like },
  { "", "NonMaxSuppression", infer_non_max_suppression },
  { NULL },
};
