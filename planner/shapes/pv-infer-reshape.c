/* pv-infer-reshape.c: shape rules for ONNX ops (the "" domain) that
 * rearrange a tensor: Reshape, Flatten, Squeeze, Unsqueeze, Transpose,
 * Expand, Tile, Pad, DepthToSpace, SpaceToDepth.
 *
 * Exporters compute shapes at run time (Shape -> Gather -> Unsqueeze ->
 * Concat -> Reshape), so the ops that only reshape also move the known
 * contents of small integer tensors (as dim expressions).
 *
 * Written from the ONNX operator specifications. Opset differences are taken
 * from node->opset (the imported version of the node's domain). */
#include <string.h>

#include "pv-error.h"
#include "pv-infer-dims.h"
#include "pv-infer-tensor-private.h"

/* ---- helpers ---- */

/* Output @k with @s's contents unchanged (reshaping ops). */
static void
pass_contents (PvInferContext *ctx, int k, const PvValueShape *s)
{
  if (s != NULL && s->data != NULL)
    pv_infer_set_contents (ctx, k, (const PvDimExpr *const *) s->data, s->n_data);
}

/* ---- Reshape, Flatten, Squeeze, Unsqueeze ---- */

/* The product of @n constant dims, FALSE when one is not a constant or
 * the product overflows (the size check reports that). */
static gboolean
const_count (const PvDimExpr *const *dims, int n, gint64 *count)
{
  gint64 c = 1, v;

  for (int i = 0; i < n; i++)
    if (dims[i] == NULL || !is_const (dims[i], &v) || __builtin_mul_overflow (c, v, &c))
      return FALSE;
  *count = c;
  return TRUE;
}

/* ORT refuses a Reshape whose shape holds another element count than its
 * input ("The input tensor cannot be reshaped to the requested shape"):
 * with every dim known, so do we, rather than plan the wrong size. */
static void
check_reshape_count (PvInferContext *ctx, const PvValueShape *x, const PvDimExpr *const *dims, int n, int infer_at,
                     const PvDimExpr *others)
{
  gint64 in, out, rest;

  if (!pv_infer_has_rank (x) || !const_count (x->dims, x->rank, &in))
    return;
  if (infer_at >= 0)
    {
      /* -1 takes in / rest: rest must divide in (rest 0 only for in 0). */
      if (others != NULL && is_const (others, &rest)
          && (rest == 0 ? in != 0 : in % rest != 0))
        pv_infer_set_size_error (ctx, 0, PV_SHAPE_ERROR_RESHAPE);
      return;
    }
  if (const_count (dims, n, &out) && out != in)
    pv_infer_set_size_error (ctx, 0, PV_SHAPE_ERROR_RESHAPE);
}

static gboolean
infer_reshape (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvDimExpr *const *shape = NULL;
  g_autofree const PvDimExpr **out = NULL;
  gboolean allowzero = node->opset >= 14 && pv_infer_attr_int (node, "allowzero", 0) != 0;
  int n = -1, infer_at = -1;

  if (x == NULL)
    return FALSE;
  if (node->opset < 5)
    {
      const gint64 *v;
      n = pv_infer_attr_ints (node, "shape", &v);
      if (v == NULL)
        return FALSE;
      out = g_new0 (const PvDimExpr *, MAX (n, 1));
      for (int i = 0; i < n; i++)
        out[i] = cst (ctx, v[i]);
      shape = (const PvDimExpr *const *) out;
    }
  else if ((shape = pv_infer_in_data (ctx, 1, &n)) == NULL)
    {
      n = pv_infer_in_vector_length (ctx, 1);
      if (n < 0 || pv_infer_input (ctx, 1) == NULL || pv_infer_input (ctx, 1)->rank != 1)
        {
          pv_infer_set_unknown_rank (ctx, 0, x->elem_type);
          return TRUE;
        }
      out = g_new0 (const PvDimExpr *, MAX (n, 1));
      for (int i = 0; i < n; i++)
        out[i] = pv_infer_fresh (ctx, "reshape");
      pv_infer_set_output (ctx, 0, x->elem_type, n, out);
      return TRUE;
    }

  {
    g_autofree const PvDimExpr **dims = g_new0 (const PvDimExpr *, MAX (n, 1));
    for (int i = 0; i < n; i++)
      {
        gint64 v;
        if (!is_const (shape[i], &v))
          dims[i] = shape[i];
        else if (v == 0 && !allowzero)
          dims[i] = pv_infer_has_rank (x) && i < x->rank ? x->dims[i] : NULL;
        else if (v == -1 && infer_at < 0)
          infer_at = i;
        else if (v < 0)
          dims[i] = NULL;
        else
          dims[i] = shape[i];
      }
    if (infer_at >= 0)
      {
        const PvDimExpr *total = pv_infer_has_rank (x) ? pv_infer_dims_product (ctx, x->dims, 0, x->rank) : NULL;
        const PvDimExpr *others = cst (ctx, 1);
        gint64 ov;
        for (int i = 0; i < n; i++)
          if (i != infer_at)
            others = d_mul (ctx, others, dims[i]);
        if (total != NULL && others != NULL && !(is_const (others, &ov) && ov == 0))
          dims[infer_at] = pv_dim_div_expr (pv_infer_pool (ctx), total, others);
      }
    {
      const PvDimExpr *others = NULL;
      if (infer_at >= 0)
        {
          others = cst (ctx, 1);
          for (int i = 0; i < n; i++)
            if (i != infer_at)
              others = d_mul (ctx, others, dims[i]);
        }
      for (int i = 0; i < n; i++)
        dims[i] = or_fresh (ctx, dims[i], "reshape");
      pv_infer_set_output (ctx, 0, x->elem_type, n, dims);
      check_reshape_count (ctx, x, dims, n, infer_at, others);
    }
    pass_contents (ctx, 0, x);
  }
  return TRUE;
}

static gboolean
infer_flatten (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  gint64 axis = pv_infer_attr_int (node, "axis", 1);
  const PvDimExpr *dims[2];

  if (x == NULL)
    return FALSE;
  if (!pv_infer_has_rank (x))
    {
      dims[0] = pv_infer_fresh (ctx, "flatten");
      dims[1] = pv_infer_fresh (ctx, "flatten");
      pv_infer_set_output (ctx, 0, x->elem_type, 2, dims);
      return TRUE;
    }
  if (axis < 0)
    axis += x->rank;
  if (axis < 0 || axis > x->rank)
    return FALSE;
  dims[0] = or_fresh (ctx, pv_infer_dims_product (ctx, x->dims, 0, (int) axis), "flatten");
  dims[1] = or_fresh (ctx, pv_infer_dims_product (ctx, x->dims, (int) axis, x->rank), "flatten");
  pv_infer_set_output (ctx, 0, x->elem_type, 2, dims);
  pass_contents (ctx, 0, x);
  return TRUE;
}

static gboolean
infer_squeeze (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const gint64 *axes = NULL;
  int n_axes, r, n = 0;
  g_autofree gboolean *drop = NULL;
  g_autofree const PvDimExpr **dims = NULL;

  if (x == NULL)
    return FALSE;
  n_axes = pv_infer_ints_attr_or_input (ctx, node, "axes", 1, 13, &axes);
  if (!pv_infer_has_rank (x))
    {
      pv_infer_set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  r = x->rank;
  drop = g_new0 (gboolean, MAX (r, 1));
  dims = g_new0 (const PvDimExpr *, MAX (r, 1));
  if (n_axes == -1)
    {
      int k = pv_infer_in_vector_length (ctx, 1);
      if (k < 0 || k > r)
        pv_infer_set_unknown_rank (ctx, 0, x->elem_type);
      else
        {
          for (int i = 0; i < r - k; i++)
            dims[i] = pv_infer_fresh (ctx, "squeeze");
          pv_infer_set_output (ctx, 0, x->elem_type, r - k, dims);
        }
      return TRUE;
    }
  if (n_axes <= 0)
    {
      /* No axes: every dim of size 1 goes, which needs every dim known. */
      for (int i = 0; i < r; i++)
        {
          gint64 v;
          if (!is_const (x->dims[i], &v))
            {
              pv_infer_set_unknown_rank (ctx, 0, x->elem_type);
              return TRUE;
            }
          drop[i] = v == 1;
        }
    }
  else
    for (int i = 0; i < n_axes; i++)
      {
        int a;
        if (!pv_infer_norm_axis (axes[i], r, &a))
          {
            pv_infer_warn (ctx, "Squeeze: axis %" G_GINT64_FORMAT " out of range for rank %d", axes[i], r);
            return FALSE;
          }
        drop[a] = TRUE;
      }
  for (int i = 0; i < r; i++)
    if (!drop[i])
      dims[n++] = x->dims[i];
  pv_infer_set_output (ctx, 0, x->elem_type, n, dims);
  pass_contents (ctx, 0, x);
  return TRUE;
}

static gboolean
infer_unsqueeze (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const gint64 *axes = NULL;
  int n_axes, r, out_rank, j = 0;
  g_autofree gboolean *ones = NULL;
  g_autofree const PvDimExpr **dims = NULL;

  if (x == NULL)
    return FALSE;
  n_axes = pv_infer_ints_attr_or_input (ctx, node, "axes", 1, 13, &axes);
  if (!pv_infer_has_rank (x) || n_axes < 0)
    {
      int k = n_axes == -1 ? pv_infer_in_vector_length (ctx, 1) : -1;
      if (pv_infer_has_rank (x) && k >= 0)
        {
          dims = g_new0 (const PvDimExpr *, MAX (x->rank + k, 1));
          for (int i = 0; i < x->rank + k; i++)
            dims[i] = pv_infer_fresh (ctx, "unsqueeze");
          pv_infer_set_output (ctx, 0, x->elem_type, x->rank + k, dims);
        }
      else
        pv_infer_set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  r = x->rank;
  out_rank = r + n_axes;
  ones = g_new0 (gboolean, MAX (out_rank, 1));
  dims = g_new0 (const PvDimExpr *, MAX (out_rank, 1));
  for (int i = 0; i < n_axes; i++)
    {
      int a;
      if (!pv_infer_norm_axis (axes[i], out_rank, &a) || ones[a])
        {
          pv_infer_warn (ctx, "Unsqueeze: bad axis %" G_GINT64_FORMAT " for output rank %d", axes[i], out_rank);
          return FALSE;
        }
      ones[a] = TRUE;
    }
  for (int i = 0; i < out_rank; i++)
    dims[i] = ones[i] ? cst (ctx, 1) : x->dims[j++];
  pv_infer_set_output (ctx, 0, x->elem_type, out_rank, dims);
  pass_contents (ctx, 0, x);
  return TRUE;
}

/* ---- Transpose ---- */

static gboolean
infer_transpose (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const gint64 *perm_attr = NULL;
  int n_perm, r;
  g_autofree int *perm = NULL;
  g_autofree gboolean *seen = NULL;
  g_autofree const PvDimExpr **dims = NULL;

  if (x == NULL)
    return FALSE;
  n_perm = pv_infer_attr_ints (node, "perm", &perm_attr);
  if (!pv_infer_has_rank (x))
    {
      if (n_perm > 0)
        {
          dims = g_new0 (const PvDimExpr *, n_perm);
          for (int i = 0; i < n_perm; i++)
            dims[i] = pv_infer_fresh (ctx, "transpose");
          pv_infer_set_output (ctx, 0, x->elem_type, n_perm, dims);
        }
      else
        pv_infer_set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  r = x->rank;
  perm = g_new0 (int, MAX (r, 1));
  seen = g_new0 (gboolean, MAX (r, 1));
  dims = g_new0 (const PvDimExpr *, MAX (r, 1));
  if (perm_attr != NULL && n_perm != r)
    {
      pv_infer_warn (ctx, "Transpose: perm has %d entries for rank %d", n_perm, r);
      return FALSE;
    }
  for (int i = 0; i < r; i++)
    {
      int p;
      if (perm_attr == NULL)
        p = r - 1 - i;
      else if (!pv_infer_norm_axis (perm_attr[i], r, &p) || seen[p])
        {
          pv_infer_warn (ctx, "Transpose: perm is not a permutation");
          return FALSE;
        }
      seen[p] = TRUE;
      perm[i] = p;
      dims[i] = x->dims[p];
    }
  pv_infer_set_output (ctx, 0, x->elem_type, r, dims);

  /* Contents: permute when everything is known and small. */
  if (x->data != NULL && r <= PV_MAX_RANK)
    {
      gint64 in_dims[PV_MAX_RANK], out_dims[PV_MAX_RANK], in_strides[PV_MAX_RANK], strides[PV_MAX_RANK], n;
      if (pv_infer_const_dims (x, in_dims) && pv_infer_numel_small (in_dims, r, &n) && n == x->n_data)
        {
          pv_infer_strides_of (in_dims, r, in_strides);
          for (int i = 0; i < r; i++)
            {
              out_dims[i] = in_dims[perm[i]];
              strides[i] = in_strides[perm[i]];
            }
          pv_infer_set_strided_contents (ctx, 0, x, out_dims, r, n, 0, strides);
        }
    }
  return TRUE;
}

/* ---- Expand, Tile, Pad ---- */

static gboolean
infer_expand (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvDimExpr *const *shape;
  int n = 0, r, out_rank;
  g_autofree const PvDimExpr **dims = NULL;

  (void) node;
  if (x == NULL)
    return FALSE;
  shape = pv_infer_in_data (ctx, 1, &n);
  if (shape == NULL)
    n = pv_infer_in_vector_length (ctx, 1);
  if (!pv_infer_has_rank (x) || n < 0)
    {
      pv_infer_set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  r = x->rank;
  out_rank = MAX (r, n);
  dims = g_new0 (const PvDimExpr *, MAX (out_rank, 1));
  for (int i = 0; i < out_rank; i++)
    {
      int xi = i - (out_rank - r), si = i - (out_rank - n);
      const PvDimExpr *a = xi >= 0 ? x->dims[xi] : NULL;
      const PvDimExpr *b = si >= 0 && shape != NULL ? shape[si] : NULL;
      gint64 av, bv;
      if (si < 0)
        dims[i] = a;
      else if (shape == NULL)
        /* Unknown target: a known dim > 1 must stay, anything else may grow. */
        dims[i] = a != NULL && is_const (a, &av) && av != 1 ? a : NULL;
      else if (a == NULL)
        dims[i] = b;
      else if (is_const (b, &bv) && bv == 1)
        dims[i] = a;
      else if (is_const (a, &av) && av == 1)
        dims[i] = b;
      else
        dims[i] = pv_infer_broadcast_dim (ctx, a, b);
      dims[i] = or_fresh (ctx, dims[i], "expand");
    }
  pv_infer_set_output (ctx, 0, x->elem_type, out_rank, dims);

  /* Contents: a single known value filled out. */
  if (x->data != NULL && x->n_data == 1)
    {
      gint64 out_dims[PV_MAX_RANK], cnt;
      const PvValueShape out_shape = { .rank = out_rank, .dims = dims };
      if (out_rank <= PV_MAX_RANK && pv_infer_const_dims (&out_shape, out_dims) &&
          pv_infer_numel_small (out_dims, out_rank, &cnt))
        {
          g_autofree const PvDimExpr **data = g_new0 (const PvDimExpr *, MAX (cnt, 1));
          for (gint64 i = 0; i < cnt; i++)
            data[i] = x->data[0];
          pv_infer_set_contents (ctx, 0, data, (int) cnt);
        }
    }
  return TRUE;
}

static gboolean
infer_tile (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvDimExpr *const *reps;
  int n = 0;
  g_autofree const PvDimExpr **dims = NULL;

  (void) node;
  if (x == NULL || !pv_infer_has_rank (x))
    return pv_infer_pass_unknown_rank (ctx, x);
  reps = pv_infer_in_data (ctx, 1, &n);
  if (reps != NULL && n != x->rank)
    {
      pv_infer_warn (ctx, "Tile: %d repeats for rank %d", n, x->rank);
      return FALSE;
    }
  dims = g_new0 (const PvDimExpr *, MAX (x->rank, 1));
  for (int i = 0; i < x->rank; i++)
    dims[i] = or_fresh (ctx, reps != NULL ? d_mul (ctx, x->dims[i], reps[i]) : NULL, "tile");
  pv_infer_set_output (ctx, 0, x->elem_type, x->rank, dims);
  return TRUE;
}

static gboolean
infer_pad (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  g_autofree const PvDimExpr **pads_buf = NULL;
  const PvDimExpr *const *pads = NULL;
  int n_pads = -1, r, n_axes;
  const gint64 *axes = NULL;
  g_autofree gint64 *axes_c = NULL;
  g_autofree const PvDimExpr **dims = NULL;

  if (x == NULL || !pv_infer_has_rank (x))
    return pv_infer_pass_unknown_rank (ctx, x);
  r = x->rank;
  if (node->opset < 11)
    {
      const gint64 *v = NULL;
      n_pads = pv_infer_attr_ints (node, node->opset < 2 ? "paddings" : "pads", &v);
      if (v == NULL)
        return FALSE;
      pads_buf = g_new0 (const PvDimExpr *, MAX (n_pads, 1));
      for (int i = 0; i < n_pads; i++)
        pads_buf[i] = cst (ctx, v[i]);
      pads = pads_buf;
    }
  else
    pads = pv_infer_in_data (ctx, 1, &n_pads);

  n_axes = node->opset >= 18 ? pv_infer_ints_attr_or_input (ctx, node, "axes", 3, 18, &axes) : -2;
  axes_c = n_axes > 0 ? g_memdup2 (axes, sizeof (gint64) * n_axes) : NULL;
  dims = g_new0 (const PvDimExpr *, MAX (r, 1));
  pv_infer_copy_dims (dims, x);
  if (n_axes == -1)
    {
      for (int i = 0; i < r; i++)
        dims[i] = pv_infer_fresh (ctx, "pad");
    }
  else
    {
      int n = n_axes >= 0 ? n_axes : r;
      if (pads != NULL && n_pads != 2 * n)
        {
          pv_infer_warn (ctx, "Pad: %d pads for %d axes", n_pads, n);
          return FALSE;
        }
      for (int i = 0; i < n; i++)
        {
          int a = i;
          if (n_axes >= 0 && !pv_infer_norm_axis (axes_c[i], r, &a))
            {
              pv_infer_warn (ctx, "Pad: axis out of range for rank %d", r);
              return FALSE;
            }
          dims[a] = or_fresh (ctx, pads != NULL ? d_add (ctx, d_add (ctx, x->dims[a], pads[i]), pads[i + n]) : NULL,
                              "pad");
        }
    }
  pv_infer_set_output (ctx, 0, x->elem_type, r, dims);
  return TRUE;
}

/* ---- DepthToSpace, SpaceToDepth ---- */

static gboolean
infer_depth_space (PvInferContext *ctx, const PvNode *node, gboolean to_space)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  gint64 b = pv_infer_attr_int (node, "blocksize", 0);
  const PvDimExpr *dims[4], *bb, *bk;
  const char *prefix = to_space ? "depthtospace" : "spacetodepth";

  if (x == NULL || !pv_infer_has_rank (x) || x->rank != 4 || b <= 0 || b > G_MAXINT32)
    return pv_infer_pass_unknown_rank (ctx, x);
  bk = cst (ctx, b);
  bb = d_mul (ctx, bk, bk);
  dims[0] = x->dims[0];
  if (to_space)
    {
      dims[1] = pv_infer_div_exact (ctx, x->dims[1], bb);
      dims[2] = d_mul (ctx, x->dims[2], bk);
      dims[3] = d_mul (ctx, x->dims[3], bk);
    }
  else
    {
      dims[1] = d_mul (ctx, x->dims[1], bb);
      dims[2] = pv_infer_div_exact (ctx, x->dims[2], bk);
      dims[3] = pv_infer_div_exact (ctx, x->dims[3], bk);
    }
  for (int i = 1; i < 4; i++)
    dims[i] = or_fresh (ctx, dims[i], prefix);
  pv_infer_set_output (ctx, 0, x->elem_type, 4, dims);
  return TRUE;
}

static gboolean
infer_depth_to_space (PvInferContext *ctx, const PvNode *node)
{
  return infer_depth_space (ctx, node, TRUE);
}

static gboolean
infer_space_to_depth (PvInferContext *ctx, const PvNode *node)
{
  return infer_depth_space (ctx, node, FALSE);
}

const PvInferOp pv_infer_ops_reshape[] = {
  { "", "Reshape", infer_reshape },
  { "", "Flatten", infer_flatten },
  { "", "Squeeze", infer_squeeze },
  { "", "Unsqueeze", infer_unsqueeze },
  { "", "Transpose", infer_transpose },
  { "", "Expand", infer_expand },
  { "", "Tile", infer_tile },
  { "", "Pad", infer_pad },
  { "", "DepthToSpace", infer_depth_to_space },
  { "", "SpaceToDepth", infer_space_to_depth },
  { NULL },
};
