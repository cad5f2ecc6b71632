/* pv-infer-index.c: shape rules for ONNX ops (the "" domain) that select or
 * join parts of tensors: Concat, Split, Slice, Gather, GatherElements,
 * GatherND and the Scatter family.
 *
 * These ops carry shapes computed at run time (Shape -> Gather -> Concat ->
 * Reshape), so they also move the known contents of small integer tensors
 * (as dim expressions).
 *
 * Written from the ONNX operator specifications. Opset differences are taken
 * from node->opset (the imported version of the node's domain). */
#include <string.h>

#include "pv-infer-dims.h"
#include "pv-infer-tensor-private.h"

/* Slice/Range bounds at least this large in magnitude mean "to the end":
 * exporters write INT64_MAX, INT32_MAX and the like. No tensor axis is that
 * long. */
#define PV_HUGE_INDEX ((gint64) G_MAXINT32)

/* ---- helpers ---- */

/* The shape says the value has no elements. */
static gboolean
is_empty (const PvValueShape *s)
{
  gint64 v;

  if (!pv_infer_has_rank (s))
    return FALSE;
  for (int i = 0; i < s->rank; i++)
    if (is_const (s->dims[i], &v) && v == 0)
      return TRUE;
  return FALSE;
}

/* ---- Concat ---- */

static gboolean
infer_concat (PvInferContext *ctx, const PvNode *node)
{
  int n_in = pv_infer_n_inputs (ctx), r = -1, elem = 0, axis;
  const PvDimExpr *sum;
  gboolean all_data = TRUE;
  int n_data = 0;
  g_autofree const PvDimExpr **dims = NULL;

  if (n_in < 1)
    return FALSE;
  for (int k = 0; k < n_in; k++)
    {
      const PvValueShape *s = pv_infer_input (ctx, k);
      if (s == NULL)
        continue;
      if (elem == 0)
        elem = s->elem_type;
      if (pv_infer_has_rank (s))
        {
          if (r >= 0 && s->rank != r)
            {
              pv_infer_warn (ctx, "Concat: inputs of rank %d and %d", r, s->rank);
              pv_infer_set_unknown_rank (ctx, 0, elem);
              return TRUE;
            }
          r = s->rank;
        }
    }
  if (r < 0)
    {
      if (elem == 0)
        return FALSE;
      pv_infer_set_unknown_rank (ctx, 0, elem);
      return TRUE;
    }
  if (!pv_infer_norm_axis (pv_infer_attr_int (node, "axis", node->opset < 4 ? 1 : 0), r, &axis))
    {
      pv_infer_warn (ctx, "Concat: axis out of range for rank %d", r);
      return FALSE;
    }
  dims = g_new0 (const PvDimExpr *, MAX (r, 1));
  sum = cst (ctx, 0);
  for (int k = 0; k < n_in; k++)
    {
      const PvValueShape *s = pv_infer_input (ctx, k);
      if (s == NULL)
        continue;
      if (!pv_infer_has_rank (s))
        {
          sum = NULL;
          all_data = FALSE;
          continue;
        }
      sum = d_add (ctx, sum, s->dims[axis]);
      for (int i = 0; i < r; i++)
        if (i != axis && (dims[i] == NULL || (!is_const (dims[i], NULL) && is_const (s->dims[i], NULL))))
          dims[i] = s->dims[i];
      if (s->data != NULL)
        n_data += s->n_data;
      else if (!is_empty (s))
        all_data = FALSE;
    }
  dims[axis] = or_fresh (ctx, sum, "concat");
  for (int i = 0; i < r; i++)
    dims[i] = or_fresh (ctx, dims[i], "concat");
  pv_infer_set_output (ctx, 0, elem, r, dims);

  /* Contents: along axis 0, concatenation is appending in row-major order. */
  if (all_data && axis == 0 && n_data <= PV_CONTENTS_MAX)
    {
      g_autofree const PvDimExpr **data = g_new0 (const PvDimExpr *, MAX (n_data, 1));
      int j = 0;
      for (int k = 0; k < n_in; k++)
        {
          const PvValueShape *s = pv_infer_input (ctx, k);
          if (s == NULL || s->data == NULL)
            continue;
          for (int i = 0; i < s->n_data; i++)
            data[j++] = s->data[i];
        }
      pv_infer_set_contents (ctx, 0, data, n_data);
    }
  return TRUE;
}

/* ---- Split ---- */

/* Split into @n_out equal parts of @d (no "split" sizes): from opset 18
 * the last part may be smaller, and num_outputs must match @n_out (FALSE
 * otherwise). */
static gboolean
equal_split_sizes (PvInferContext *ctx, const PvNode *node, const PvDimExpr *d, int n_out, const PvDimExpr **sizes)
{
  gint64 parts = n_out, dv;
  gboolean uneven_ok = node->opset >= 18;

  if (node->opset >= 18 && pv_node_find_attr (node, "num_outputs") != NULL)
    parts = pv_infer_attr_int (node, "num_outputs", n_out);
  if (parts != n_out)
    {
      pv_infer_warn (ctx, "Split: num_outputs is %" G_GINT64_FORMAT " for %d outputs", parts, n_out);
      return FALSE;
    }
  if (is_const (d, &dv))
    {
      gint64 chunk = uneven_ok ? (dv + parts - 1) / parts : dv / parts;
      for (int k = 0; k < n_out; k++)
        {
          gint64 v = chunk;
          if (uneven_ok && k == parts - 1)
            v = MAX (dv - chunk * (parts - 1), 0);
          sizes[k] = cst (ctx, v);
        }
    }
  else
    {
      const PvDimExpr *chunk = pv_dim_div_expr (pv_infer_pool (ctx), d, cst (ctx, parts));
      gboolean exact = chunk != NULL;
      if (chunk == NULL)
        chunk = uneven_ok ? pv_dim_ceil_div (pv_infer_pool (ctx), d, parts)
                          : pv_dim_floor_div (pv_infer_pool (ctx), d, parts);
      for (int k = 0; k < n_out; k++)
        {
          sizes[k] = chunk;
          if (uneven_ok && !exact && k == parts - 1)
            sizes[k] = d_sub (ctx, d, d_mul (ctx, chunk, cst (ctx, parts - 1)));
        }
    }
  return TRUE;
}

static gboolean
infer_split (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  int n_out = pv_infer_n_outputs (ctx), axis;
  const gint64 *split = NULL;
  int n_split;
  g_autofree const PvDimExpr **sizes = NULL;
  g_autofree const PvDimExpr **dims = NULL;
  const PvDimExpr *d;

  if (x == NULL || n_out < 1)
    return FALSE;
  if (!pv_infer_has_rank (x))
    {
      for (int k = 0; k < n_out; k++)
        pv_infer_set_unknown_rank (ctx, k, x->elem_type);
      return TRUE;
    }
  if (!pv_infer_norm_axis (pv_infer_attr_int (node, "axis", 0), x->rank, &axis))
    {
      pv_infer_warn (ctx, "Split: axis out of range for rank %d", x->rank);
      return FALSE;
    }
  d = x->dims[axis];
  sizes = g_new0 (const PvDimExpr *, n_out);
  n_split = pv_infer_ints_attr_or_input (ctx, node, "split", 1, 13, &split);
  if (n_split >= 0 && n_split != 0)
    {
      for (int k = 0; k < n_out && k < n_split; k++)
        sizes[k] = cst (ctx, split[k]);
    }
  else if (n_split == -1)
    {
      /* Sizes computed at run time, when their expressions are known. */
      int n_e = 0;
      const PvDimExpr *const *e = pv_infer_in_data (ctx, 1, &n_e);
      for (int k = 0; e != NULL && k < n_out && k < n_e; k++)
        sizes[k] = e[k];
    }
  else if (!equal_split_sizes (ctx, node, d, n_out, sizes))
    return FALSE;

  dims = g_new0 (const PvDimExpr *, MAX (x->rank, 1));
  pv_infer_copy_dims (dims, x);
  {
    int offset = 0;
    gboolean offsets_known = TRUE;
    for (int k = 0; k < n_out; k++)
      {
        gint64 sv;
        dims[axis] = or_fresh (ctx, sizes[k], "split");
        pv_infer_set_output (ctx, k, x->elem_type, x->rank, dims);
        /* Contents of 1-D splits (shape vectors). */
        if (x->rank == 1 && x->data != NULL && offsets_known && is_const (dims[0], &sv) &&
            offset + sv <= x->n_data)
          {
            pv_infer_set_contents (ctx, k, (const PvDimExpr *const *) x->data + offset, (int) sv);
            offset += (int) sv;
          }
        else
          offsets_known = FALSE;
      }
  }
  return TRUE;
}

/* ---- Slice ---- */

/* How a symbolic slice bound was resolved. */
typedef enum {
  BOUND_ZERO,      /* the very start */
  BOUND_END,       /* the very end (D for step > 0) */
  BOUND_IN_RANGE,  /* s or D+s, assumed within [0, D] */
  BOUND_CLAMPED,   /* min(e, D): may be D when the axis is short */
} BoundKind;

/* Number of elements of one axis of length @d_expr sliced [start:end:step]
 * (ONNX clamping); for a constant length, @start_out gets the clamped start. */
static const PvDimExpr *
slice_axis (PvInferContext *ctx, const PvDimExpr *d_expr, gint64 start, gint64 end, gint64 step, gint64 *start_out)
{
  gint64 d;

  *start_out = -1;
  if (step == 0)
    return NULL;
  if (is_const (d_expr, &d))
    {
      gint64 count;
      /* 128-bit-free arithmetic: every bound is clamped before use. */
      if (start < 0)
        start = start < -d ? 0 : start + d;
      if (end < 0)
        end = end < -d ? -1 : end + d;
      if (step > 0)
        {
          start = CLAMP (start, 0, d);
          end = CLAMP (end, 0, d);
          count = end > start ? (end - start - 1) / step + 1 : 0;
        }
      else
        {
          start = CLAMP (start, 0, d - 1);
          end = CLAMP (end, -1, d - 1);
          count = start > end ? (start - end - 1) / (step == G_MININT64 ? G_MAXINT64 : -step) + 1 : 0;
        }
      if (start < 0)
        start = 0;
      *start_out = start;
      return cst (ctx, count);
    }
  else
    {
      const PvDimExpr *ps, *pe, *diff, *count;
      BoundKind ks, ke;
      gint64 dv, k;

      if (step > 0)
        {
          if (start >= PV_HUGE_INDEX)
            return cst (ctx, 0);
          if (start <= -PV_HUGE_INDEX || start == 0)
            ps = cst (ctx, 0), ks = BOUND_ZERO;
          else if (start > 0)
            ps = cst (ctx, start), ks = BOUND_IN_RANGE;
          else
            ps = d_add (ctx, d_expr, cst (ctx, start)), ks = BOUND_IN_RANGE;
          if (end <= -PV_HUGE_INDEX)
            return cst (ctx, 0);
          if (end >= PV_HUGE_INDEX)
            pe = d_expr, ke = BOUND_END;
          else if (end >= 0)
            pe = d_min (ctx, cst (ctx, end), d_expr), ke = BOUND_CLAMPED;
          else
            pe = d_add (ctx, d_expr, cst (ctx, end)), ke = BOUND_IN_RANGE;
          diff = d_sub (ctx, pe, ps);
          k = step;
        }
      else
        {
          /* Positions run from start down to end (exclusive), in [-1, D-1]. */
          if (end >= PV_HUGE_INDEX)
            return cst (ctx, 0);
          if (start >= PV_HUGE_INDEX)
            ps = d_sub (ctx, d_expr, cst (ctx, 1)), ks = BOUND_END;
          else if (start >= 0)
            ps = d_min (ctx, cst (ctx, start), d_sub (ctx, d_expr, cst (ctx, 1))), ks = BOUND_CLAMPED;
          else if (start <= -PV_HUGE_INDEX)
            return NULL;
          else
            ps = d_add (ctx, d_expr, cst (ctx, start)), ks = BOUND_IN_RANGE;
          if (end <= -PV_HUGE_INDEX)
            pe = cst (ctx, -1), ke = BOUND_ZERO;
          else if (end >= 0)
            pe = cst (ctx, end), ke = BOUND_IN_RANGE;
          else
            pe = d_add (ctx, d_expr, cst (ctx, end)), ke = BOUND_IN_RANGE;
          diff = d_sub (ctx, ps, pe);
          k = -step;
          /* For the sign rule below a clamped start plays the clamped end's role. */
          if (ks == BOUND_CLAMPED)
            ke = BOUND_CLAMPED, ks = BOUND_IN_RANGE;
          else if (ke == BOUND_ZERO)
            ke = BOUND_END, ks = ks == BOUND_END ? BOUND_ZERO : ks;
        }
      if (diff == NULL)
        return NULL;
      count = k == 1 ? diff : pv_dim_ceil_div (pv_infer_pool (ctx), diff, k);
      if (count == NULL)
        return NULL;
      if (is_const (count, &dv))
        return cst (ctx, MAX (dv, 0));
      /* In-range bounds keep the plain difference (seq[0:-1] is seq-1); a
       * clamped end past a non-zero start may leave nothing. */
      if (ke == BOUND_CLAMPED && ks != BOUND_ZERO)
        count = d_max (ctx, cst (ctx, 0), count);
      return count;
    }
}

/* Start position of a step > 0 slice of an axis of length @d. */
static const PvDimExpr *
slice_start_pos (PvInferContext *ctx, const PvDimExpr *d, const PvDimExpr *start, BoundKind *kind)
{
  gint64 v;

  if (!is_const (start, &v))
    {
      *kind = BOUND_IN_RANGE; /* a run-time index: assumed within [0, d] */
      return start;
    }
  if (v >= PV_HUGE_INDEX)
    {
      *kind = BOUND_END;
      return d;
    }
  if (v <= -PV_HUGE_INDEX || v == 0)
    {
      *kind = BOUND_ZERO;
      return cst (ctx, 0);
    }
  *kind = BOUND_IN_RANGE;
  return v > 0 ? start : d_add (ctx, d, start);
}

/* End position of a step > 0 slice of an axis of length @d. */
static const PvDimExpr *
slice_end_pos (PvInferContext *ctx, const PvDimExpr *d, const PvDimExpr *end, BoundKind *kind)
{
  gint64 v;

  if (end == d || (is_const (end, &v) && v >= PV_HUGE_INDEX))
    {
      *kind = BOUND_END;
      return d;
    }
  if (!is_const (end, &v) || v >= 0)
    {
      *kind = BOUND_CLAMPED;
      return d_min (ctx, end, d);
    }
  if (v <= -PV_HUGE_INDEX)
    {
      *kind = BOUND_ZERO;
      return cst (ctx, 0);
    }
  *kind = BOUND_IN_RANGE;
  return d_add (ctx, d, end);
}

/* slice_axis() with bounds that may be run-time expressions (a Shape
 * element, a sequence length): those are assumed to be valid indices. */
static const PvDimExpr *
slice_axis_expr (PvInferContext *ctx, const PvDimExpr *d, const PvDimExpr *start, const PvDimExpr *end, gint64 step,
                 gint64 *start_out)
{
  gint64 sv, ev, cv;
  const PvDimExpr *ps, *pe, *count;
  BoundKind ks, ke;

  if (is_const (start, &sv) && is_const (end, &ev))
    return slice_axis (ctx, d, sv, ev, step, start_out);
  *start_out = -1;
  if (step <= 0 || start == NULL || end == NULL)
    return NULL;
  ps = slice_start_pos (ctx, d, start, &ks);
  pe = slice_end_pos (ctx, d, end, &ke);
  count = d_sub (ctx, pe, ps);
  if (count != NULL && step > 1)
    count = pv_dim_ceil_div (pv_infer_pool (ctx), count, step);
  if (count == NULL)
    return NULL;
  if (is_const (count, &cv))
    return cst (ctx, MAX (cv, 0));
  if (ke == BOUND_CLAMPED && ks != BOUND_ZERO)
    count = d_max (ctx, cst (ctx, 0), count);
  return count;
}

/* Slice's contents: the elements of @x's known contents from @first, every
 * @step_of, along each axis, when the input and output @dims are constant
 * and small. */
static void
set_slice_contents (PvInferContext *ctx, const PvValueShape *x, const PvDimExpr **dims, const gint64 *first,
                    const gint64 *step_of)
{
  gint64 in_dims[PV_MAX_RANK], out_dims[PV_MAX_RANK], strides[PV_MAX_RANK], n_out, n_in, base = 0;
  const PvValueShape out_shape = { .rank = x->rank, .dims = dims };
  int r = x->rank;

  if (x->data == NULL || r > PV_MAX_RANK || !pv_infer_const_dims (x, in_dims)
      || !pv_infer_numel_small (in_dims, r, &n_in) || n_in != x->n_data || !pv_infer_const_dims (&out_shape, out_dims)
      || !pv_infer_numel_small (out_dims, r, &n_out))
    return;
  pv_infer_strides_of (in_dims, r, strides);
  for (int i = 0; i < r; i++)
    {
      base += first[i] * strides[i];
      strides[i] *= step_of[i];
    }
  pv_infer_set_strided_contents (ctx, 0, x, out_dims, r, n_out, base, strides);
}

static gboolean
infer_slice (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const gint64 *starts = NULL, *ends = NULL, *axes_v = NULL, *steps = NULL;
  int n_starts, n_ends, n_axes, n_steps, r;
  g_autofree const PvDimExpr **dims = NULL;
  g_autofree gint64 *first = NULL, *step_of = NULL;
  gboolean contents_ok;
  /* Copies: pv_infer_input_ints() buffers may be reused between calls. */
  g_autofree gint64 *starts_c = NULL, *ends_c = NULL, *axes_c = NULL, *steps_c = NULL;
  const PvDimExpr *const *starts_e = NULL, *const *ends_e = NULL;
  int n;

  if (x == NULL || !pv_infer_has_rank (x))
    return pv_infer_pass_unknown_rank (ctx, x);
  r = x->rank;
  n_starts = pv_infer_ints_attr_or_input (ctx, node, "starts", 1, 10, &starts);
  starts_c = n_starts > 0 ? g_memdup2 (starts, sizeof (gint64) * n_starts) : NULL;
  n_ends = pv_infer_ints_attr_or_input (ctx, node, "ends", 2, 10, &ends);
  ends_c = n_ends > 0 ? g_memdup2 (ends, sizeof (gint64) * n_ends) : NULL;
  n_axes = pv_infer_ints_attr_or_input (ctx, node, "axes", 3, 10, &axes_v);
  axes_c = n_axes > 0 ? g_memdup2 (axes_v, sizeof (gint64) * n_axes) : NULL;
  n_steps = node->opset >= 10 ? pv_infer_ints_attr_or_input (ctx, node, "steps", 4, 10, &steps) : -2;
  /* Run-time bounds (Shape elements and the like) as expressions. */
  if (node->opset >= 10)
    {
      if (n_starts == -1 && (starts_e = pv_infer_in_data (ctx, 1, &n)) != NULL)
        n_starts = n;
      if (n_ends == -1 && (ends_e = pv_infer_in_data (ctx, 2, &n)) != NULL)
        n_ends = n;
    }
  steps_c = n_steps > 0 ? g_memdup2 (steps, sizeof (gint64) * n_steps) : NULL;

  dims = g_new0 (const PvDimExpr *, MAX (r, 1));
  first = g_new0 (gint64, MAX (r, 1));
  step_of = g_new0 (gint64, MAX (r, 1));
  pv_infer_copy_dims (dims, x);
  for (int i = 0; i < r; i++)
    step_of[i] = 1;
  contents_ok = TRUE;

  n = n_axes >= 0 ? n_axes : n_starts >= 0 ? n_starts : n_ends;
  if (n_axes == -1 || (n_axes == -2 && n_starts < 0 && n_ends < 0))
    {
      /* Which axes change is unknown: every dim is unknown. */
      for (int i = 0; i < r; i++)
        dims[i] = pv_infer_fresh (ctx, "slice");
      pv_infer_set_output (ctx, 0, x->elem_type, r, dims);
      return TRUE;
    }
  {
    gboolean params_known = n_starts >= 0 && n_ends >= 0 && n_steps != -1 && n_starts == n && n_ends == n &&
                            (n_steps < 0 || n_steps == n);
    for (int i = 0; i < n; i++)
      {
        int a;
        gint64 st;
        if (!pv_infer_norm_axis (n_axes >= 0 ? axes_c[i] : i, r, &a))
          {
            pv_infer_warn (ctx, "Slice: axis out of range for rank %d", r);
            return FALSE;
          }
        if (!params_known)
          {
            dims[a] = pv_infer_fresh (ctx, "slice");
            contents_ok = FALSE;
            continue;
          }
        st = n_steps > 0 ? steps_c[i] : 1;
        step_of[a] = st;
        if (starts_e == NULL && ends_e == NULL)
          dims[a] = slice_axis (ctx, x->dims[a], starts_c[i], ends_c[i], st, &first[a]);
        else
          dims[a] = slice_axis_expr (ctx, x->dims[a], starts_e != NULL ? starts_e[i] : cst (ctx, starts_c[i]),
                                     ends_e != NULL ? ends_e[i] : cst (ctx, ends_c[i]), st, &first[a]);
        dims[a] = or_fresh (ctx, dims[a], "slice");
        if (first[a] < 0)
          contents_ok = FALSE;
      }
  }
  pv_infer_set_output (ctx, 0, x->elem_type, r, dims);

  if (contents_ok)
    set_slice_contents (ctx, x, dims, first, step_of);
  return TRUE;
}

/* ---- Gather family ---- */

static gboolean
infer_gather (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvValueShape *ind = pv_infer_input (ctx, 1);
  int r, q, axis, out_rank, j = 0;
  g_autofree const PvDimExpr **dims = NULL;

  if (x == NULL || !pv_infer_has_rank (x) || !pv_infer_has_rank (ind))
    return pv_infer_pass_unknown_rank (ctx, x);
  r = x->rank;
  q = ind->rank;
  if (r < 1 || !pv_infer_norm_axis (pv_infer_attr_int (node, "axis", 0), r, &axis))
    {
      pv_infer_warn (ctx, "Gather: axis out of range for rank %d", r);
      return FALSE;
    }
  out_rank = r + q - 1;
  dims = g_new0 (const PvDimExpr *, MAX (out_rank, 1));
  for (int i = 0; i < axis; i++)
    dims[j++] = x->dims[i];
  for (int i = 0; i < q; i++)
    dims[j++] = ind->dims[i];
  for (int i = axis + 1; i < r; i++)
    dims[j++] = x->dims[i];
  pv_infer_set_output (ctx, 0, x->elem_type, out_rank, dims);

  /* Contents: Shape -> Gather picks dims out of shape vectors. */
  if (x->data != NULL && r <= PV_MAX_RANK)
    {
      gint64 *indices = NULL, in_dims[PV_MAX_RANK], n_in;
      int n_ind = pv_infer_input_ints (ctx, 1, &indices);
      if (n_ind >= 0 && pv_infer_const_dims (x, in_dims) && pv_infer_numel_small (in_dims, r, &n_in) &&
          n_in == x->n_data)
        {
          gint64 outer = 1, inner = 1, len = in_dims[axis];
          gint64 n;
          for (int i = 0; i < axis; i++)
            outer *= in_dims[i];
          for (int i = axis + 1; i < r; i++)
            inner *= in_dims[i];
          n = outer * n_ind * inner;
          if (n <= PV_CONTENTS_MAX)
            {
              g_autofree const PvDimExpr **data = g_new0 (const PvDimExpr *, MAX (n, 1));
              gint64 o = 0;
              for (gint64 a = 0; a < outer; a++)
                for (int b = 0; b < n_ind; b++)
                  {
                    gint64 at = indices[b] < 0 ? indices[b] + len : indices[b];
                    if (at < 0 || at >= len)
                      return TRUE;
                    for (gint64 c = 0; c < inner; c++)
                      data[o++] = x->data[(a * len + at) * inner + c];
                  }
              pv_infer_set_contents (ctx, 0, data, (int) n);
            }
        }
    }
  return TRUE;
}

/* Output shaped like input @shape_from, typed like input 0. */
static gboolean
infer_like_input_typed_0 (PvInferContext *ctx, int shape_from)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvValueShape *s = pv_infer_input (ctx, shape_from);

  if (x == NULL || s == NULL)
    return FALSE;
  if (!pv_infer_has_rank (s))
    {
      pv_infer_set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  pv_infer_set_output (ctx, 0, x->elem_type, s->rank, s->dims);
  return TRUE;
}

static gboolean
infer_gather_elements (PvInferContext *ctx, const PvNode *node)
{
  (void) node;
  return infer_like_input_typed_0 (ctx, 1);
}

static gboolean
infer_gather_nd (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvValueShape *ind = pv_infer_input (ctx, 1);
  gint64 b = node->opset >= 12 ? pv_infer_attr_int (node, "batch_dims", 0) : 0, k;
  int r, q, out_rank, j = 0;
  g_autofree const PvDimExpr **dims = NULL;

  if (x == NULL)
    return FALSE;
  if (!pv_infer_has_rank (x) || !pv_infer_has_rank (ind) || ind->rank < 1 || !is_const (ind->dims[ind->rank - 1], &k))
    {
      pv_infer_set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  r = x->rank;
  q = ind->rank;
  if (b < 0 || k < 1 || k > r || b > r - k)
    {
      pv_infer_warn (ctx, "GatherND: indices' last dim %" G_GINT64_FORMAT " does not fit rank %d", k, r);
      return FALSE;
    }
  out_rank = (q - 1) + (r - (int) (b + k));
  dims = g_new0 (const PvDimExpr *, MAX (out_rank, 1));
  for (int i = 0; i < q - 1; i++)
    dims[j++] = ind->dims[i];
  for (int i = (int) (b + k); i < r; i++)
    dims[j++] = x->dims[i];
  pv_infer_set_output (ctx, 0, x->elem_type, out_rank, dims);
  return TRUE;
}

const PvInferOp pv_infer_ops_index[] = {
  { "", "Concat", infer_concat },
  { "", "Split", infer_split },
  { "", "Slice", infer_slice },
  { "", "Gather", infer_gather },
  { "", "GatherElements", infer_gather_elements },
  { "", "GatherND", infer_gather_nd },
  { "", "Scatter", pv_infer_same_as_input0 },
  { "", "ScatterElements", pv_infer_same_as_input0 },
  { "", "ScatterND", pv_infer_same_as_input0 },
  { "", "TensorScatter", pv_infer_same_as_input0 },
  { NULL },
};
