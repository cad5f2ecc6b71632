/* pv-infer-tensor.c: shape rules for ONNX's tensor-manipulation ops (the ""
 * domain): shape arithmetic (Shape, Size, Reshape, Concat, Gather, Slice...),
 * data movement (Transpose, Split, Pad, Tile, Expand...), ops whose output
 * size depends on data (NonZero, Unique, Compress...), sequences and
 * optionals.
 *
 * Exporters compute shapes at run time (Shape -> Gather -> Unsqueeze ->
 * Concat -> Reshape), so every op that moves small integer tensors around
 * also moves their known contents (as dim expressions). Contents are kept
 * only for outputs of at most PV_CONTENTS_MAX elements.
 *
 * Written from the ONNX operator specifications. Opset differences are taken
 * from node->opset (the imported version of the node's domain). */
#include <math.h>
#include <string.h>

#include "pv-element-type.h"
#include "pv-infer-dims.h"
#include "pv-shape-inference.h"

#define PV_CONTENTS_MAX 64
/* Slice/Range bounds at least this large in magnitude mean "to the end":
 * exporters write INT64_MAX, INT32_MAX and the like. No tensor axis is that
 * long. */
#define PV_HUGE_INDEX ((gint64) G_MAXINT32)
#define PV_MAX_RANK 64
/* Output ranks taken from the length of a shape-like input are believed up
 * to this; a longer vector is no shape (and must not size an allocation). */
#define PV_RANK_LIMIT 1024

/* ---- small helpers ---- */

/* a / b: exact polynomial division when possible, else floor(a / b) for a
 * constant b > 0 (ops whose spec requires divisibility), else NULL. */
static const PvDimExpr *
d_div_exact (PvInferContext *ctx, const PvDimExpr *a, const PvDimExpr *b)
{
  gint64 bv;
  const PvDimExpr *q;

  if (a == NULL || b == NULL)
    return NULL;
  q = pv_dim_div_expr (pv_infer_pool (ctx), a, b);
  if (q != NULL)
    return q;
  if (is_const (b, &bv) && bv > 0)
    return pv_dim_floor_div (pv_infer_pool (ctx), a, bv);
  return NULL;
}

/* Product of dims[from..to); 1 for an empty range; NULL on overflow. */
static const PvDimExpr *
dims_product (PvInferContext *ctx, const PvDimExpr *const *dims, int from, int to)
{
  const PvDimExpr *p = cst (ctx, 1);

  for (int i = from; i < to && p != NULL; i++)
    p = d_mul (ctx, p, dims[i]);
  return p;
}

/* Copies @s's dims (s->rank entries) into @dims. */
static void
copy_dims (const PvDimExpr **dims, const PvValueShape *s)
{
  for (int i = 0; i < s->rank; i++)
    dims[i] = s->dims[i];
}

static gboolean
has_rank (const PvValueShape *s)
{
  return s != NULL && s->rank >= 0;
}

static int
elem_of (const PvValueShape *s)
{
  return s != NULL ? s->elem_type : 0;
}

/* Normalises @axis against @rank; FALSE when out of [-rank, rank). */
static gboolean
norm_axis (gint64 axis, int rank, int *out)
{
  if (axis < -(gint64) rank || axis >= rank)
    return FALSE;
  *out = (int) (axis < 0 ? axis + rank : axis);
  return TRUE;
}

/* All dims of @s constant: fills @out (s->rank entries) and returns TRUE. */
static gboolean
const_dims (const PvValueShape *s, gint64 *out)
{
  if (!has_rank (s) || s->rank > PV_MAX_RANK)
    return FALSE;
  for (int i = 0; i < s->rank; i++)
    if (!is_const (s->dims[i], &out[i]) || out[i] < 0)
      return FALSE;
  return TRUE;
}

/* The shape says the value has no elements. */
static gboolean
is_empty (const PvValueShape *s)
{
  gint64 v;

  if (!has_rank (s))
    return FALSE;
  for (int i = 0; i < s->rank; i++)
    if (is_const (s->dims[i], &v) && v == 0)
      return TRUE;
  return FALSE;
}

/* Known contents of input @k, every element non-NULL; NULL otherwise. */
static const PvDimExpr *const *
in_data (PvInferContext *ctx, int k, int *n_out)
{
  const PvValueShape *s = pv_infer_input (ctx, k);

  if (s == NULL || s->data == NULL || s->n_data < 0)
    return NULL;
  for (int i = 0; i < s->n_data; i++)
    if (s->data[i] == NULL)
      return NULL;
  *n_out = s->n_data;
  return (const PvDimExpr *const *) s->data;
}

/* Contents of input @k as one expression (a scalar or a 1-element tensor). */
static const PvDimExpr *
in_scalar (PvInferContext *ctx, int k)
{
  int n = 0;
  const PvDimExpr *const *d = in_data (ctx, k, &n);

  return d != NULL && n == 1 ? d[0] : NULL;
}

/* Number of elements of input @k when its shape says so (rank 0 or 1). */
static int
in_vector_length (PvInferContext *ctx, int k)
{
  const PvValueShape *s = pv_infer_input (ctx, k);
  gint64 n;

  if (!has_rank (s))
    return -1;
  if (s->rank == 0)
    return 1;
  if (s->rank == 1 && is_const (s->dims[0], &n) && n >= 0 && n <= PV_RANK_LIMIT)
    return (int) n;
  return -1;
}

static void
set_contents (PvInferContext *ctx, int k, const PvDimExpr *const *data, int n)
{
  if (data == NULL || n < 0 || n > PV_CONTENTS_MAX)
    return;
  for (int i = 0; i < n; i++)
    if (data[i] == NULL)
      return;
  pv_infer_set_output_data (ctx, k, data, n);
}

/* Output @k with @s's contents unchanged (reshaping ops). */
static void
pass_contents (PvInferContext *ctx, int k, const PvValueShape *s)
{
  if (s != NULL && s->data != NULL)
    set_contents (ctx, k, (const PvDimExpr *const *) s->data, s->n_data);
}

static void
set_unknown_rank (PvInferContext *ctx, int k, int elem_type)
{
  pv_infer_set_output (ctx, k, elem_type, -1, NULL);
}

/* Output @k: same type and shape as @s. */
static gboolean
set_like (PvInferContext *ctx, int k, const PvValueShape *s)
{
  if (s == NULL)
    return FALSE;
  if (!has_rank (s))
    {
      if (s->elem_type == 0)
        return FALSE;
      set_unknown_rank (ctx, k, s->elem_type);
      return TRUE;
    }
  pv_infer_set_output (ctx, k, s->elem_type, s->rank, s->dims);
  return TRUE;
}

/* Integer list from attribute @attr when node->opset < @since_input, else
 * from input @k. Returns the count (>= 0), -1 when given but unknown, -2
 * when absent. An input whose shape is [0] counts as given and empty. */
static int
ints_attr_or_input (PvInferContext *ctx, const PvNode *node, const char *attr, int k, int since_input,
                    const gint64 **out)
{
  *out = NULL;
  if (node->opset < since_input)
    {
      const PvAttribute *a = pv_node_find_attr (node, attr);
      if (a == NULL)
        return -2;
      if (a->type == PV_ATTR_INT)
        {
          *out = &a->i;
          return 1;
        }
      *out = a->ints;
      return (int) a->n;
    }
  else
    {
      const PvValueShape *s = pv_infer_input (ctx, k);
      gint64 *v = NULL;
      int n;
      if (s == NULL)
        return -2;
      n = pv_infer_input_ints (ctx, k, &v);
      if (n >= 0)
        {
          *out = v;
          return n;
        }
      if (in_vector_length (ctx, k) == 0)
        return 0;
      return -1;
    }
}

/* Row-major strides of constant dims. */
static void
strides_of (const gint64 *dims, int rank, gint64 *strides)
{
  gint64 s = 1;

  for (int i = rank - 1; i >= 0; i--)
    {
      strides[i] = s;
      s *= dims[i];
    }
}

/* The element count of constant dims when at most PV_CONTENTS_MAX. */
static gboolean
numel_small (const gint64 *dims, int rank, gint64 *n_out)
{
  gint64 n = 1;
  gboolean big = FALSE;

  for (int i = 0; i < rank; i++)
    {
      if (dims[i] < 0)
        return FALSE;
      if (dims[i] == 0)
        {
          *n_out = 0;
          return TRUE;
        }
      if (dims[i] > PV_CONTENTS_MAX || n * dims[i] > PV_CONTENTS_MAX)
        big = TRUE;
      else
        n *= dims[i];
    }
  if (big)
    return FALSE;
  *n_out = n;
  return TRUE;
}

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
  if (!has_rank (x))
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
  set_contents (ctx, 0, x->dims + start, (int) (end - start));
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
  if (has_rank (x) && (n = dims_product (ctx, x->dims, 0, x->rank)) != NULL)
    set_contents (ctx, 0, &n, 1);
  return TRUE;
}

/* ---- Reshape, Flatten, Squeeze, Unsqueeze ---- */

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
  else if ((shape = in_data (ctx, 1, &n)) == NULL)
    {
      n = in_vector_length (ctx, 1);
      if (n < 0 || pv_infer_input (ctx, 1) == NULL || pv_infer_input (ctx, 1)->rank != 1)
        {
          set_unknown_rank (ctx, 0, x->elem_type);
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
          dims[i] = has_rank (x) && i < x->rank ? x->dims[i] : NULL;
        else if (v == -1 && infer_at < 0)
          infer_at = i;
        else if (v < 0)
          dims[i] = NULL;
        else
          dims[i] = shape[i];
      }
    if (infer_at >= 0)
      {
        const PvDimExpr *total = has_rank (x) ? dims_product (ctx, x->dims, 0, x->rank) : NULL;
        const PvDimExpr *others = cst (ctx, 1);
        gint64 ov;
        for (int i = 0; i < n; i++)
          if (i != infer_at)
            others = d_mul (ctx, others, dims[i]);
        if (total != NULL && others != NULL && !(is_const (others, &ov) && ov == 0))
          dims[infer_at] = pv_dim_div_expr (pv_infer_pool (ctx), total, others);
      }
    for (int i = 0; i < n; i++)
      dims[i] = or_fresh (ctx, dims[i], "reshape");
    pv_infer_set_output (ctx, 0, x->elem_type, n, dims);
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
  if (!has_rank (x))
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
  dims[0] = or_fresh (ctx, dims_product (ctx, x->dims, 0, (int) axis), "flatten");
  dims[1] = or_fresh (ctx, dims_product (ctx, x->dims, (int) axis, x->rank), "flatten");
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
  n_axes = ints_attr_or_input (ctx, node, "axes", 1, 13, &axes);
  if (!has_rank (x))
    {
      set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  r = x->rank;
  drop = g_new0 (gboolean, MAX (r, 1));
  dims = g_new0 (const PvDimExpr *, MAX (r, 1));
  if (n_axes == -1)
    {
      int k = in_vector_length (ctx, 1);
      if (k < 0 || k > r)
        set_unknown_rank (ctx, 0, x->elem_type);
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
              set_unknown_rank (ctx, 0, x->elem_type);
              return TRUE;
            }
          drop[i] = v == 1;
        }
    }
  else
    for (int i = 0; i < n_axes; i++)
      {
        int a;
        if (!norm_axis (axes[i], r, &a))
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
  n_axes = ints_attr_or_input (ctx, node, "axes", 1, 13, &axes);
  if (!has_rank (x) || n_axes < 0)
    {
      int k = n_axes == -1 ? in_vector_length (ctx, 1) : -1;
      if (has_rank (x) && k >= 0)
        {
          dims = g_new0 (const PvDimExpr *, MAX (x->rank + k, 1));
          for (int i = 0; i < x->rank + k; i++)
            dims[i] = pv_infer_fresh (ctx, "unsqueeze");
          pv_infer_set_output (ctx, 0, x->elem_type, x->rank + k, dims);
        }
      else
        set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  r = x->rank;
  out_rank = r + n_axes;
  ones = g_new0 (gboolean, MAX (out_rank, 1));
  dims = g_new0 (const PvDimExpr *, MAX (out_rank, 1));
  for (int i = 0; i < n_axes; i++)
    {
      int a;
      if (!norm_axis (axes[i], out_rank, &a) || ones[a])
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
  if (!has_rank (x))
    {
      if (n_perm > 0)
        {
          dims = g_new0 (const PvDimExpr *, n_perm);
          for (int i = 0; i < n_perm; i++)
            dims[i] = pv_infer_fresh (ctx, "transpose");
          pv_infer_set_output (ctx, 0, x->elem_type, n_perm, dims);
        }
      else
        set_unknown_rank (ctx, 0, x->elem_type);
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
      else if (!norm_axis (perm_attr[i], r, &p) || seen[p])
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
      gint64 in_dims[PV_MAX_RANK], out_dims[PV_MAX_RANK], in_strides[PV_MAX_RANK], idx[PV_MAX_RANK], n;
      if (const_dims (x, in_dims) && numel_small (in_dims, r, &n) && n == x->n_data)
        {
          g_autofree const PvDimExpr **data = g_new0 (const PvDimExpr *, MAX (n, 1));
          for (int i = 0; i < r; i++)
            out_dims[i] = in_dims[perm[i]];
          strides_of (in_dims, r, in_strides);
          memset (idx, 0, sizeof idx);
          for (gint64 o = 0; o < n; o++)
            {
              gint64 src = 0;
              for (int i = 0; i < r; i++)
                src += idx[i] * in_strides[perm[i]];
              data[o] = x->data[src];
              for (int i = r - 1; i >= 0; i--)
                if (++idx[i] < out_dims[i])
                  break;
                else
                  idx[i] = 0;
            }
          set_contents (ctx, 0, data, (int) n);
        }
    }
  return TRUE;
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
      if (has_rank (s))
        {
          if (r >= 0 && s->rank != r)
            {
              pv_infer_warn (ctx, "Concat: inputs of rank %d and %d", r, s->rank);
              set_unknown_rank (ctx, 0, elem);
              return TRUE;
            }
          r = s->rank;
        }
    }
  if (r < 0)
    {
      if (elem == 0)
        return FALSE;
      set_unknown_rank (ctx, 0, elem);
      return TRUE;
    }
  if (!norm_axis (pv_infer_attr_int (node, "axis", node->opset < 4 ? 1 : 0), r, &axis))
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
      if (!has_rank (s))
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
      set_contents (ctx, 0, data, n_data);
    }
  return TRUE;
}

/* ---- Split ---- */

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
  if (!has_rank (x))
    {
      for (int k = 0; k < n_out; k++)
        set_unknown_rank (ctx, k, x->elem_type);
      return TRUE;
    }
  if (!norm_axis (pv_infer_attr_int (node, "axis", 0), x->rank, &axis))
    {
      pv_infer_warn (ctx, "Split: axis out of range for rank %d", x->rank);
      return FALSE;
    }
  d = x->dims[axis];
  sizes = g_new0 (const PvDimExpr *, n_out);
  n_split = ints_attr_or_input (ctx, node, "split", 1, 13, &split);
  if (n_split >= 0 && n_split != 0)
    {
      for (int k = 0; k < n_out && k < n_split; k++)
        sizes[k] = cst (ctx, split[k]);
    }
  else if (n_split == -1)
    {
      /* Sizes computed at run time, when their expressions are known. */
      int n_e = 0;
      const PvDimExpr *const *e = in_data (ctx, 1, &n_e);
      for (int k = 0; e != NULL && k < n_out && k < n_e; k++)
        sizes[k] = e[k];
    }
  else
    {
      /* Equal parts; from opset 18 with num_outputs the last may be smaller. */
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
    }

  dims = g_new0 (const PvDimExpr *, MAX (x->rank, 1));
  copy_dims (dims, x);
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
            set_contents (ctx, k, (const PvDimExpr *const *) x->data + offset, (int) sv);
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

  if (x == NULL)
    return FALSE;
  if (!has_rank (x))
    {
      set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  r = x->rank;
  n_starts = ints_attr_or_input (ctx, node, "starts", 1, 10, &starts);
  starts_c = n_starts > 0 ? g_memdup2 (starts, sizeof (gint64) * n_starts) : NULL;
  n_ends = ints_attr_or_input (ctx, node, "ends", 2, 10, &ends);
  ends_c = n_ends > 0 ? g_memdup2 (ends, sizeof (gint64) * n_ends) : NULL;
  n_axes = ints_attr_or_input (ctx, node, "axes", 3, 10, &axes_v);
  axes_c = n_axes > 0 ? g_memdup2 (axes_v, sizeof (gint64) * n_axes) : NULL;
  n_steps = node->opset >= 10 ? ints_attr_or_input (ctx, node, "steps", 4, 10, &steps) : -2;
  /* Run-time bounds (Shape elements and the like) as expressions. */
  if (node->opset >= 10)
    {
      if (n_starts == -1 && (starts_e = in_data (ctx, 1, &n)) != NULL)
        n_starts = n;
      if (n_ends == -1 && (ends_e = in_data (ctx, 2, &n)) != NULL)
        n_ends = n;
    }
  steps_c = n_steps > 0 ? g_memdup2 (steps, sizeof (gint64) * n_steps) : NULL;

  dims = g_new0 (const PvDimExpr *, MAX (r, 1));
  first = g_new0 (gint64, MAX (r, 1));
  step_of = g_new0 (gint64, MAX (r, 1));
  copy_dims (dims, x);
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
        if (!norm_axis (n_axes >= 0 ? axes_c[i] : i, r, &a))
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

  /* Contents: gather the selected elements. */
  if (contents_ok && x->data != NULL && r <= PV_MAX_RANK)
    {
      gint64 in_dims[PV_MAX_RANK], out_dims[PV_MAX_RANK], strides[PV_MAX_RANK], idx[PV_MAX_RANK], n_out, n_in;
      const PvValueShape out_shape = { .rank = r, .dims = dims };
      if (const_dims (x, in_dims) && numel_small (in_dims, r, &n_in) && n_in == x->n_data &&
          const_dims (&out_shape, out_dims) && numel_small (out_dims, r, &n_out))
        {
          g_autofree const PvDimExpr **data = g_new0 (const PvDimExpr *, MAX (n_out, 1));
          strides_of (in_dims, r, strides);
          memset (idx, 0, sizeof idx);
          for (gint64 o = 0; o < n_out; o++)
            {
              gint64 src = 0;
              for (int i = 0; i < r; i++)
                src += (first[i] + idx[i] * step_of[i]) * strides[i];
              data[o] = x->data[src];
              for (int i = r - 1; i >= 0; i--)
                if (++idx[i] < out_dims[i])
                  break;
                else
                  idx[i] = 0;
            }
          set_contents (ctx, 0, data, (int) n_out);
        }
    }
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

  if (x == NULL)
    return FALSE;
  if (!has_rank (x) || !has_rank (ind))
    {
      set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  r = x->rank;
  q = ind->rank;
  if (r < 1 || !norm_axis (pv_infer_attr_int (node, "axis", 0), r, &axis))
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
      if (n_ind >= 0 && const_dims (x, in_dims) && numel_small (in_dims, r, &n_in) && n_in == x->n_data)
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
              set_contents (ctx, 0, data, (int) n);
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
  if (!has_rank (s))
    {
      set_unknown_rank (ctx, 0, x->elem_type);
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
  if (!has_rank (x) || !has_rank (ind) || ind->rank < 1 || !is_const (ind->dims[ind->rank - 1], &k))
    {
      set_unknown_rank (ctx, 0, x->elem_type);
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

static gboolean
infer_same_as_input0 (PvInferContext *ctx, const PvNode *node)
{
  (void) node;
  return set_like (ctx, 0, pv_infer_input (ctx, 0));
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
  shape = in_data (ctx, 1, &n);
  if (shape == NULL)
    n = in_vector_length (ctx, 1);
  if (!has_rank (x) || n < 0)
    {
      set_unknown_rank (ctx, 0, x->elem_type);
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
      if (out_rank <= PV_MAX_RANK && const_dims (&out_shape, out_dims) && numel_small (out_dims, out_rank, &cnt))
        {
          g_autofree const PvDimExpr **data = g_new0 (const PvDimExpr *, MAX (cnt, 1));
          for (gint64 i = 0; i < cnt; i++)
            data[i] = x->data[0];
          set_contents (ctx, 0, data, (int) cnt);
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
  if (x == NULL)
    return FALSE;
  if (!has_rank (x))
    {
      set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  reps = in_data (ctx, 1, &n);
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

  if (x == NULL)
    return FALSE;
  if (!has_rank (x))
    {
      set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
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
    pads = in_data (ctx, 1, &n_pads);

  n_axes = node->opset >= 18 ? ints_attr_or_input (ctx, node, "axes", 3, 18, &axes) : -2;
  axes_c = n_axes > 0 ? g_memdup2 (axes, sizeof (gint64) * n_axes) : NULL;
  dims = g_new0 (const PvDimExpr *, MAX (r, 1));
  copy_dims (dims, x);
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
          if (n_axes >= 0 && !norm_axis (axes_c[i], r, &a))
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
  shape = in_data (ctx, 0, &n);
  if (shape == NULL)
    {
      n = in_vector_length (ctx, 0);
      if (n < 0)
        {
          set_unknown_rank (ctx, 0, elem);
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
          set_contents (ctx, 0, data, (int) cnt);
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
  const PvDimExpr *start = in_scalar (ctx, 0), *limit = in_scalar (ctx, 1), *delta = in_scalar (ctx, 2);
  const PvDimExpr *count = NULL;
  gint64 sv, lv, dv = 0;
  int elem = elem_of (s0);

  (void) node;
  if (elem == 0)
    elem = elem_of (pv_infer_input (ctx, 1));
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
      set_contents (ctx, 0, data, (int) lv);
    }
  return TRUE;
}

static gboolean
infer_one_hot (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *ind = pv_infer_input (ctx, 0);
  const PvValueShape *values = pv_infer_input (ctx, 2);
  const PvDimExpr *depth = in_scalar (ctx, 1);
  int elem = elem_of (values), r, axis, j = 0;
  g_autofree const PvDimExpr **dims = NULL;
  gint64 dv;

  if (ind == NULL)
    return FALSE;
  if (!has_rank (ind))
    {
      set_unknown_rank (ctx, 0, elem);
      return TRUE;
    }
  r = ind->rank;
  if (!norm_axis (pv_infer_attr_int (node, "axis", -1), r + 1, &axis))
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
  const PvValueShape *x = pv_infer_input (ctx, 0);
  int elem;

  if (x == NULL)
    return FALSE;
  elem = (int) pv_infer_attr_int (node, "dtype", x->elem_type);
  if (!has_rank (x))
    {
      const PvDimExpr *dims[2] = { pv_infer_fresh (ctx, "eyelike"), pv_infer_fresh (ctx, "eyelike") };
      pv_infer_set_output (ctx, 0, elem, 2, dims);
      return TRUE;
    }
  pv_infer_set_output (ctx, 0, elem, x->rank, x->dims);
  return TRUE;
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
  dims[0] = has_rank (x) ? cst (ctx, x->rank) : pv_infer_fresh (ctx, "nonzero");
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
  if (!has_rank (x))
    {
      set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  if (!norm_axis (axis_attr->i, x->rank, &axis))
    {
      pv_infer_warn (ctx, "Compress: axis out of range for rank %d", x->rank);
      return FALSE;
    }
  dims = g_new0 (const PvDimExpr *, MAX (x->rank, 1));
  copy_dims (dims, x);
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
      inv = has_rank (x) ? dims_product (ctx, x->dims, 0, x->rank) : NULL;
    }
  else if (has_rank (x) && norm_axis (axis_attr->i, x->rank, &axis))
    {
      g_autofree const PvDimExpr **dims = g_new0 (const PvDimExpr *, x->rank);
      copy_dims (dims, x);
      dims[axis] = u;
      pv_infer_set_output (ctx, 0, x->elem_type, x->rank, dims);
      inv = x->dims[axis];
    }
  else
    {
      set_unknown_rank (ctx, 0, x->elem_type);
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

/* ---- TopK, Det ---- */

static gboolean
infer_top_k (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvDimExpr *k;
  g_autofree const PvDimExpr **dims = NULL;
  int axis;

  if (x == NULL)
    return FALSE;
  if (!has_rank (x))
    {
      set_unknown_rank (ctx, 0, x->elem_type);
      set_unknown_rank (ctx, 1, PV_ELEM_INT64);
      return TRUE;
    }
  if (!norm_axis (pv_infer_attr_int (node, "axis", -1), x->rank, &axis))
    {
      pv_infer_warn (ctx, "TopK: axis out of range for rank %d", x->rank);
      return FALSE;
    }
  if (node->opset < 10)
    k = pv_node_find_attr (node, "k") != NULL ? cst (ctx, pv_infer_attr_int (node, "k", 0)) : NULL;
  else
    k = in_scalar (ctx, 1);
  dims = g_new0 (const PvDimExpr *, x->rank);
  copy_dims (dims, x);
  dims[axis] = or_fresh (ctx, k, "topk");
  pv_infer_set_output (ctx, 0, x->elem_type, x->rank, dims);
  pv_infer_set_output (ctx, 1, PV_ELEM_INT64, x->rank, dims);
  return TRUE;
}

static gboolean
infer_det (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);

  (void) node;
  if (x == NULL)
    return FALSE;
  if (!has_rank (x) || x->rank < 2)
    {
      set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  pv_infer_set_output (ctx, 0, x->elem_type, x->rank - 2, x->dims);
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

  if (x == NULL)
    return FALSE;
  if (!has_rank (x) || x->rank != 4 || b <= 0 || b > G_MAXINT32)
    {
      set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  bk = cst (ctx, b);
  bb = d_mul (ctx, bk, bk);
  dims[0] = x->dims[0];
  if (to_space)
    {
      dims[1] = d_div_exact (ctx, x->dims[1], bb);
      dims[2] = d_mul (ctx, x->dims[2], bk);
      dims[3] = d_mul (ctx, x->dims[3], bk);
    }
  else
    {
      dims[1] = d_mul (ctx, x->dims[1], bb);
      dims[2] = d_div_exact (ctx, x->dims[2], bk);
      dims[3] = d_div_exact (ctx, x->dims[3], bk);
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

/* ---- Resize, Upsample ---- */

/* Float contents of input @k (Resize scales); -1 when unknown. Integral
 * contents come from the data; others only from an initializer. */
static int
input_doubles (PvInferContext *ctx, int k, double *out, int max)
{
  const PvValueShape *s = pv_infer_input (ctx, k);
  int n = 0;
  const PvDimExpr *const *d;
  guint64 count;

  if (s != NULL && s->tensor != NULL && pv_tensor_n_elements (s->tensor, &count) && count <= (guint64) max)
    {
      gboolean ok = TRUE;
      for (guint64 i = 0; i < count && ok; i++)
        ok = pv_tensor_get_double (s->tensor, i, &out[i]);
      if (ok)
        return (int) count;
    }
  d = in_data (ctx, k, &n);
  if (d == NULL)
    return in_vector_length (ctx, k) == 0 ? 0 : -1;
  if (n > max)
    return -1;
  for (int i = 0; i < n; i++)
    {
      gint64 v;
      if (!is_const (d[i], &v))
        return -1;
      out[i] = (double) v;
    }
  return n;
}

/* floor(dim * scale) for a float scale, computed in single precision as
 * ONNX Runtime and ONNX's own inference do (10 * 0.7f is 7 there). */
static const PvDimExpr *
scale_dim (PvInferContext *ctx, const PvDimExpr *dim, double scale)
{
  gint64 v;

  if (scale == 1.0)
    return dim;
  if (is_const (dim, &v))
    {
      double r = floorf ((float) v * (float) scale);
      return r >= 0 && r < 9.0e15 ? cst (ctx, (gint64) r) : NULL;
    }
  if (scale > 0 && scale == floor (scale) && scale < 9.0e15)
    return d_mul (ctx, dim, cst (ctx, (gint64) scale));
  if (scale > 0 && scale < 1 && 1.0 / scale == floor (1.0 / scale) && 1.0 / scale < 9.0e15)
    return pv_dim_floor_div (pv_infer_pool (ctx), dim, (gint64) (1.0 / scale));
  return NULL;
}

static gboolean
infer_resize_common (PvInferContext *ctx, const PvNode *node, const double *scales_in, int n_scales_in,
                     int scales_k, int sizes_k, const char *prefix)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  double scales_buf[PV_MAX_RANK];
  const double *scales = scales_in;
  int n_scales = n_scales_in, n_sizes = -2, r, n_axes;
  const PvDimExpr *const *sizes = NULL;
  const gint64 *axes_v = NULL;
  int axes[PV_MAX_RANK];
  g_autofree const PvDimExpr **dims = NULL;

  if (x == NULL)
    return FALSE;
  if (!has_rank (x) || x->rank > PV_MAX_RANK)
    {
      set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  r = x->rank;
  dims = g_new0 (const PvDimExpr *, MAX (r, 1));
  copy_dims (dims, x);

  n_axes = node->opset >= 18 ? pv_infer_attr_ints (node, "axes", &axes_v) : 0;
  if (axes_v == NULL)
    {
      n_axes = r;
      for (int i = 0; i < r; i++)
        axes[i] = i;
    }
  else
    {
      if (n_axes > PV_MAX_RANK)
        return FALSE;
      for (int i = 0; i < n_axes; i++)
        if (!norm_axis (axes_v[i], r, &axes[i]))
          {
            pv_infer_warn (ctx, "%s: axis out of range for rank %d", node->op_type, r);
            return FALSE;
          }
    }

  if (sizes_k >= 0 && pv_infer_input (ctx, sizes_k) != NULL && in_vector_length (ctx, sizes_k) != 0)
    {
      sizes = in_data (ctx, sizes_k, &n_sizes);
      if (sizes == NULL)
        n_sizes = -1;
    }
  if (n_sizes == -2 && scales == NULL && scales_k >= 0 && pv_infer_input (ctx, scales_k) != NULL)
    {
      n_scales = input_doubles (ctx, scales_k, scales_buf, PV_MAX_RANK);
      scales = n_scales > 0 ? scales_buf : NULL;
      if (n_scales == 0)
        n_scales = -2;
    }

  if (n_sizes >= 0)
    {
      const char *policy = NULL;
      const PvAttribute *pa = node->opset >= 18 ? pv_node_find_attr (node, "keep_aspect_ratio_policy") : NULL;
      if (n_sizes != n_axes)
        {
          pv_infer_warn (ctx, "%s: %d sizes for %d axes", node->op_type, n_sizes, n_axes);
          return FALSE;
        }
      if (pa != NULL && pa->type == PV_ATTR_STRING && pa->s != NULL)
        policy = g_bytes_get_data (pa->s, NULL);
      if (policy != NULL && pa->s != NULL && g_bytes_get_size (pa->s) > 0 &&
          (strncmp (policy, "not_larger", g_bytes_get_size (pa->s)) == 0 ||
           strncmp (policy, "not_smaller", g_bytes_get_size (pa->s)) == 0))
        {
          gboolean not_larger = policy[4] == 'l';
          double scale = not_larger ? G_MAXDOUBLE : 0;
          gboolean known = TRUE;
          gint64 in_v[PV_MAX_RANK];
          for (int i = 0; i < n_axes && known; i++)
            {
              gint64 sv;
              if (!is_const (sizes[i], &sv) || !is_const (x->dims[axes[i]], &in_v[i]) || in_v[i] <= 0)
                known = FALSE;
              else
                {
                  double s = (double) sv / (double) in_v[i];
                  scale = not_larger ? MIN (scale, s) : MAX (scale, s);
                }
            }
          for (int i = 0; i < n_axes; i++)
            {
              double v = known ? round (scale * (double) in_v[i]) : -1;
              dims[axes[i]] = v >= 0 && v < 9.0e15 ? cst (ctx, (gint64) v) : NULL;
            }
        }
      else
        for (int i = 0; i < n_axes; i++)
          dims[axes[i]] = sizes[i];
    }
  else if (n_sizes == -1)
    for (int i = 0; i < n_axes; i++)
      dims[axes[i]] = NULL;
  else if (n_scales > 0 && scales != NULL)
    {
      if (n_scales != n_axes)
        {
          pv_infer_warn (ctx, "%s: %d scales for %d axes", node->op_type, n_scales, n_axes);
          return FALSE;
        }
      for (int i = 0; i < n_axes; i++)
        dims[axes[i]] = scale_dim (ctx, x->dims[axes[i]], scales[i]);
    }
  else
    for (int i = 0; i < n_axes; i++)
      dims[axes[i]] = NULL;

  for (int i = 0; i < r; i++)
    dims[i] = or_fresh (ctx, dims[i], prefix);
  pv_infer_set_output (ctx, 0, x->elem_type, r, dims);
  return TRUE;
}

static gboolean
infer_resize (PvInferContext *ctx, const PvNode *node)
{
  if (node->opset < 11)
    return infer_resize_common (ctx, node, NULL, -2, 1, -1, "resize");
  return infer_resize_common (ctx, node, NULL, -2, 2, 3, "resize");
}

static gboolean
infer_upsample (PvInferContext *ctx, const PvNode *node)
{
  if (node->opset < 9)
    {
      const PvAttribute *a = pv_node_find_attr (node, "scales");
      double scales[PV_MAX_RANK];
      int n = 0;
      if (a != NULL && a->type == PV_ATTR_FLOATS && a->n <= PV_MAX_RANK)
        {
          n = (int) a->n;
          for (int i = 0; i < n; i++)
            scales[i] = a->floats[i];
        }
      else if (node->opset < 7)
        {
          /* Upsample-1: height_scale and width_scale on NCHW. */
          n = 4;
          scales[0] = scales[1] = 1.0;
          scales[2] = pv_infer_attr_float (node, "height_scale", 1.0f);
          scales[3] = pv_infer_attr_float (node, "width_scale", 1.0f);
        }
      return infer_resize_common (ctx, node, n > 0 ? scales : NULL, n > 0 ? n : -2, -1, -1, "upsample");
    }
  return infer_resize_common (ctx, node, NULL, -2, 1, -1, "upsample");
}

/* ---- sequences and optionals ---- */

static gboolean
infer_sequence_construct (PvInferContext *ctx, const PvNode *node)
{
  int elem = elem_of (pv_infer_input (ctx, 0));

  (void) node;
  pv_infer_set_output_kind (ctx, 0, PV_TYPE_SEQUENCE, elem);
  return TRUE;
}

static gboolean
infer_sequence_empty (PvInferContext *ctx, const PvNode *node)
{
  pv_infer_set_output_kind (ctx, 0, PV_TYPE_SEQUENCE, (int) pv_infer_attr_int (node, "dtype", PV_ELEM_FLOAT));
  return TRUE;
}

static gboolean
infer_sequence_like_input (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *s = pv_infer_input (ctx, 0);
  int elem = elem_of (s);

  (void) node;
  if (elem == 0 && pv_infer_n_inputs (ctx) > 1)
    elem = elem_of (pv_infer_input (ctx, 1)); /* SequenceInsert's tensor */
  if (s == NULL)
    return FALSE;
  pv_infer_set_output_kind (ctx, 0, PV_TYPE_SEQUENCE, elem);
  return TRUE;
}

static gboolean
infer_sequence_at (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *s = pv_infer_input (ctx, 0);

  (void) node;
  if (s == NULL || s->elem_type == 0)
    return FALSE;
  if (has_rank (s))
    pv_infer_set_output (ctx, 0, s->elem_type, s->rank, s->dims);
  else
    set_unknown_rank (ctx, 0, s->elem_type);
  return TRUE;
}

static gboolean
infer_sequence_length (PvInferContext *ctx, const PvNode *node)
{
  (void) node;
  pv_infer_set_output (ctx, 0, PV_ELEM_INT64, 0, NULL);
  return TRUE;
}

static gboolean
infer_split_to_sequence (PvInferContext *ctx, const PvNode *node)
{
  (void) node;
  if (pv_infer_input (ctx, 0) == NULL)
    return FALSE;
  pv_infer_set_output_kind (ctx, 0, PV_TYPE_SEQUENCE, elem_of (pv_infer_input (ctx, 0)));
  return TRUE;
}

static gboolean
infer_concat_from_sequence (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *s = pv_infer_input (ctx, 0);
  gboolean new_axis = pv_infer_attr_int (node, "new_axis", 0) != 0;
  int r, out_rank, axis, j = 0;
  g_autofree const PvDimExpr **dims = NULL;

  if (s == NULL)
    return FALSE;
  if (!has_rank (s))
    {
      set_unknown_rank (ctx, 0, s->elem_type);
      return TRUE;
    }
  r = s->rank;
  out_rank = new_axis ? r + 1 : r;
  if (!norm_axis (pv_infer_attr_int (node, "axis", 0), out_rank, &axis))
    {
      pv_infer_warn (ctx, "ConcatFromSequence: axis out of range for rank %d", out_rank);
      return FALSE;
    }
  dims = g_new0 (const PvDimExpr *, MAX (out_rank, 1));
  for (int i = 0; i < out_rank; i++)
    {
      if (i == axis)
        {
          dims[i] = pv_infer_fresh (ctx, "concatfromsequence");
          if (!new_axis)
            j++;
        }
      else
        dims[i] = s->dims[j++];
    }
  pv_infer_set_output (ctx, 0, s->elem_type, out_rank, dims);
  return TRUE;
}

static gboolean
infer_optional (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *s = pv_infer_input (ctx, 0);
  int elem = elem_of (s);

  (void) node;
  pv_infer_set_output_kind (ctx, 0, PV_TYPE_OPTIONAL, elem);
  return TRUE;
}

static gboolean
infer_optional_get_element (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *s = pv_infer_input (ctx, 0);

  (void) node;
  if (s == NULL)
    return FALSE;
  if (s->kind == PV_TYPE_SEQUENCE)
    {
      pv_infer_set_output_kind (ctx, 0, PV_TYPE_SEQUENCE, s->elem_type);
      return TRUE;
    }
  if (s->elem_type == 0)
    return FALSE;
  if (has_rank (s))
    pv_infer_set_output (ctx, 0, s->elem_type, s->rank, s->dims);
  else
    set_unknown_rank (ctx, 0, s->elem_type);
  return TRUE;
}

static gboolean
infer_optional_has_element (PvInferContext *ctx, const PvNode *node)
{
  (void) node;
  pv_infer_set_output (ctx, 0, PV_ELEM_BOOL, 0, NULL);
  return TRUE;
}

/* ---- vision and signal ops ---- */

static gboolean
infer_grid_sample (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvValueShape *grid = pv_infer_input (ctx, 1);
  g_autofree const PvDimExpr **dims = NULL;
  int r;

  (void) node;
  if (x == NULL)
    return FALSE;
  if (!has_rank (grid) || grid->rank < 3)
    {
      if (has_rank (x))
        {
          dims = g_new0 (const PvDimExpr *, MAX (x->rank, 1));
          for (int i = 0; i < x->rank; i++)
            dims[i] = i < 2 ? x->dims[i] : pv_infer_fresh (ctx, "gridsample");
          pv_infer_set_output (ctx, 0, x->elem_type, x->rank, dims);
        }
      else
        set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  r = grid->rank; /* [N, D1..Dk, k]: the output is [N, C, D1..Dk] */
  dims = g_new0 (const PvDimExpr *, r);
  dims[0] = has_rank (x) && x->rank >= 1 ? x->dims[0] : grid->dims[0];
  dims[1] = has_rank (x) && x->rank >= 2 ? x->dims[1] : pv_infer_fresh (ctx, "gridsample");
  for (int i = 1; i < r - 1; i++)
    dims[i + 1] = grid->dims[i];
  pv_infer_set_output (ctx, 0, x->elem_type, r, dims);
  return TRUE;
}

static gboolean
infer_roi_align (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvValueShape *rois = pv_infer_input (ctx, 1);
  const PvValueShape *bi = pv_infer_input (ctx, 2);
  const PvDimExpr *dims[4];

  if (x == NULL)
    return FALSE;
  dims[0] = has_rank (rois) && rois->rank == 2 ? rois->dims[0] : has_rank (bi) && bi->rank == 1 ? bi->dims[0] : NULL;
  dims[1] = has_rank (x) && x->rank == 4 ? x->dims[1] : NULL;
  dims[2] = cst (ctx, pv_infer_attr_int (node, "output_height", 1));
  dims[3] = cst (ctx, pv_infer_attr_int (node, "output_width", 1));
  dims[0] = or_fresh (ctx, dims[0], "roialign");
  dims[1] = or_fresh (ctx, dims[1], "roialign");
  pv_infer_set_output (ctx, 0, x->elem_type, 4, dims);
  return TRUE;
}

static gboolean
infer_col2im (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvDimExpr *const *image = NULL;
  gint64 *block = NULL;
  int n_image = 0, n_block, n;
  g_autofree const PvDimExpr **dims = NULL;

  (void) node;
  if (x == NULL)
    return FALSE;
  image = in_data (ctx, 1, &n_image);
  n = image != NULL ? n_image : in_vector_length (ctx, 1);
  if (n < 0)
    n = in_vector_length (ctx, 2);
  if (n < 0)
    {
      set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  dims = g_new0 (const PvDimExpr *, n + 2);
  n_block = pv_infer_input_ints (ctx, 2, &block);
  if (has_rank (x) && x->rank == 3)
    {
      dims[0] = x->dims[0];
      if (n_block == n)
        {
          gint64 p = 1;
          for (int i = 0; i < n_block; i++)
            p *= block[i];
          if (p > 0)
            dims[1] = d_div_exact (ctx, x->dims[1], cst (ctx, p));
        }
    }
  for (int i = 0; i < n; i++)
    dims[i + 2] = image != NULL ? image[i] : NULL;
  for (int i = 0; i < n + 2; i++)
    dims[i] = or_fresh (ctx, dims[i], "col2im");
  pv_infer_set_output (ctx, 0, x->elem_type, n + 2, dims);
  return TRUE;
}

static gboolean
infer_center_crop_pad (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvDimExpr *const *shape;
  const gint64 *axes_v = NULL;
  int n = 0, n_axes, r;
  g_autofree const PvDimExpr **dims = NULL;

  if (x == NULL)
    return FALSE;
  if (!has_rank (x))
    {
      set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  r = x->rank;
  shape = in_data (ctx, 1, &n);
  n_axes = pv_infer_attr_ints (node, "axes", &axes_v);
  if (axes_v == NULL)
    n_axes = r;
  dims = g_new0 (const PvDimExpr *, MAX (r, 1));
  copy_dims (dims, x);
  if (shape != NULL && n != n_axes)
    {
      pv_infer_warn (ctx, "CenterCropPad: %d sizes for %d axes", n, n_axes);
      return FALSE;
    }
  for (int i = 0; i < n_axes; i++)
    {
      int a = i;
      if (axes_v != NULL && !norm_axis (axes_v[i], r, &a))
        {
          pv_infer_warn (ctx, "CenterCropPad: axis out of range for rank %d", r);
          return FALSE;
        }
      dims[a] = or_fresh (ctx, shape != NULL ? shape[i] : NULL, "centercroppad");
    }
  pv_infer_set_output (ctx, 0, x->elem_type, r, dims);
  return TRUE;
}

static gboolean
infer_dft (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  gboolean onesided = pv_infer_attr_int (node, "onesided", 0) != 0;
  gboolean inverse = pv_infer_attr_int (node, "inverse", 0) != 0;
  const PvDimExpr *len = in_scalar (ctx, 1);
  g_autofree const PvDimExpr **dims = NULL;
  gint64 axis_v;
  int r, axis;

  if (x == NULL)
    return FALSE;
  if (!has_rank (x) || x->rank < 2)
    {
      set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  r = x->rank;
  if (node->opset >= 20)
    {
      const PvDimExpr *a = in_scalar (ctx, 2);
      if (pv_infer_input (ctx, 2) == NULL)
        axis_v = -2;
      else if (!is_const (a, &axis_v))
        {
          dims = g_new0 (const PvDimExpr *, r);
          dims[0] = x->dims[0];
          for (int i = 1; i < r - 1; i++)
            dims[i] = pv_infer_fresh (ctx, "dft");
          dims[r - 1] = cst (ctx, onesided && inverse ? 1 : 2);
          pv_infer_set_output (ctx, 0, x->elem_type, r, dims);
          return TRUE;
        }
    }
  else
    axis_v = pv_infer_attr_int (node, "axis", 1);
  if (!norm_axis (axis_v, r, &axis) || axis == r - 1)
    {
      pv_infer_warn (ctx, "DFT: axis out of range for rank %d", r);
      return FALSE;
    }
  dims = g_new0 (const PvDimExpr *, r);
  copy_dims (dims, x);
  if (onesided && inverse)
    {
      /* Inverse of a one-sided spectrum: a real signal of dft_length, by
       * default 2 * (n - 1). */
      if (pv_infer_input (ctx, 1) != NULL)
        dims[axis] = len;
      else
        dims[axis] = d_mul (ctx, d_sub (ctx, dims[axis], cst (ctx, 1)), cst (ctx, 2));
      dims[r - 1] = cst (ctx, 1);
    }
  else
    {
      if (pv_infer_input (ctx, 1) != NULL)
        dims[axis] = len;
      if (onesided && dims[axis] != NULL)
        dims[axis] = d_add (ctx, pv_dim_floor_div (pv_infer_pool (ctx), dims[axis], 2), cst (ctx, 1));
      dims[r - 1] = cst (ctx, 2);
    }
  dims[axis] = or_fresh (ctx, dims[axis], "dft");
  pv_infer_set_output (ctx, 0, x->elem_type, r, dims);
  return TRUE;
}

static gboolean
infer_stft (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvValueShape *window = pv_infer_input (ctx, 2);
  gboolean onesided = pv_infer_attr_int (node, "onesided", 1) != 0;
  const PvDimExpr *step = in_scalar (ctx, 1), *frame = NULL, *dims[4], *frames = NULL;
  gint64 stepv;

  if (x == NULL)
    return FALSE;
  if (pv_infer_input (ctx, 3) != NULL)
    frame = in_scalar (ctx, 3);
  else if (has_rank (window) && window->rank == 1)
    frame = window->dims[0];
  dims[0] = has_rank (x) && x->rank == 3 ? x->dims[0] : NULL;
  if (has_rank (x) && x->rank == 3 && frame != NULL && is_const (step, &stepv) && stepv > 0)
    frames = d_add (ctx, pv_dim_floor_div (pv_infer_pool (ctx), d_sub (ctx, x->dims[1], frame), stepv),
                    cst (ctx, 1));
  dims[1] = frames;
  dims[2] = frame != NULL && onesided ? d_add (ctx, pv_dim_floor_div (pv_infer_pool (ctx), frame, 2), cst (ctx, 1))
                                      : frame;
  dims[3] = cst (ctx, 2);
  for (int i = 0; i < 3; i++)
    dims[i] = or_fresh (ctx, dims[i], "stft");
  pv_infer_set_output (ctx, 0, x->elem_type, 4, dims);
  return TRUE;
}

/* ---- generators and small ONNX additions ---- */

/* HannWindow, HammingWindow, BlackmanWindow: [size]. */
static gboolean
infer_window (PvInferContext *ctx, const PvNode *node)
{
  const PvDimExpr *n = or_fresh (ctx, in_scalar (ctx, 0), "window");

  pv_infer_set_output (ctx, 0, (int) pv_infer_attr_int (node, "output_datatype", PV_ELEM_FLOAT), 1, &n);
  return TRUE;
}

/* MelWeightMatrix: [floor(dft_length / 2) + 1, num_mel_bins]. */
static gboolean
infer_mel_weight_matrix (PvInferContext *ctx, const PvNode *node)
{
  const PvDimExpr *dft = in_scalar (ctx, 1), *dims[2];

  dims[0] = dft != NULL ? d_add (ctx, pv_dim_floor_div (pv_infer_pool (ctx), dft, 2), cst (ctx, 1)) : NULL;
  dims[1] = in_scalar (ctx, 0);
  dims[0] = or_fresh (ctx, dims[0], "melweightmatrix");
  dims[1] = or_fresh (ctx, dims[1], "melweightmatrix");
  pv_infer_set_output (ctx, 0, (int) pv_infer_attr_int (node, "output_datatype", PV_ELEM_FLOAT), 2, dims);
  return TRUE;
}

/* RandomNormal, RandomUniform: the shape attribute, dtype default float. */
static gboolean
infer_random (PvInferContext *ctx, const PvNode *node)
{
  const gint64 *shape = NULL;
  int n = pv_infer_attr_ints (node, "shape", &shape);
  int elem = (int) pv_infer_attr_int (node, "dtype", PV_ELEM_FLOAT);
  g_autofree const PvDimExpr **dims = NULL;

  if (shape == NULL)
    {
      set_unknown_rank (ctx, 0, elem);
      return TRUE;
    }
  dims = g_new0 (const PvDimExpr *, MAX (n, 1));
  for (int i = 0; i < n; i++)
    dims[i] = shape[i] >= 0 ? cst (ctx, shape[i]) : pv_infer_fresh (ctx, "random");
  pv_infer_set_output (ctx, 0, elem, n, dims);
  return TRUE;
}

/* RandomNormalLike, RandomUniformLike, Bernoulli: the input's shape, dtype
 * attribute or the input's type. */
static gboolean
infer_random_like (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  int elem;

  if (x == NULL)
    return FALSE;
  elem = (int) pv_infer_attr_int (node, "dtype", x->elem_type);
  if (!has_rank (x))
    {
      set_unknown_rank (ctx, 0, elem);
      return TRUE;
    }
  pv_infer_set_output (ctx, 0, elem, x->rank, x->dims);
  return TRUE;
}

/* Multinomial: [batch_size, sample_size], dtype default int32. */
static gboolean
infer_multinomial (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvDimExpr *dims[2];

  dims[0] = or_fresh (ctx, has_rank (x) && x->rank == 2 ? x->dims[0] : NULL, "multinomial");
  dims[1] = cst (ctx, pv_infer_attr_int (node, "sample_size", 1));
  pv_infer_set_output (ctx, 0, (int) pv_infer_attr_int (node, "dtype", PV_ELEM_INT32), 2, dims);
  return TRUE;
}

/* AffineGrid: theta (N, 2, 3) and size (N, C, H, W) give (N, H, W, 2);
 * theta (N, 3, 4) and size (N, C, D, H, W) give (N, D, H, W, 3). */
static gboolean
infer_affine_grid (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *theta = pv_infer_input (ctx, 0);
  const PvDimExpr *const *size;
  const PvDimExpr *dims[5];
  int n = 0, k;

  (void) node;
  if (theta == NULL)
    return FALSE;
  size = in_data (ctx, 1, &n);
  if (size == NULL)
    n = in_vector_length (ctx, 1);
  if (n != 4 && n != 5)
    {
      set_unknown_rank (ctx, 0, theta->elem_type);
      return TRUE;
    }
  k = n - 2; /* spatial rank */
  dims[0] = size != NULL ? size[0] : has_rank (theta) && theta->rank == 3 ? theta->dims[0] : NULL;
  for (int i = 0; i < k; i++)
    dims[1 + i] = size != NULL ? size[2 + i] : NULL;
  dims[k + 1] = cst (ctx, k);
  for (int i = 0; i <= k; i++)
    dims[i] = or_fresh (ctx, dims[i], "affinegrid");
  pv_infer_set_output (ctx, 0, theta->elem_type, k + 2, dims);
  return TRUE;
}

const PvInferOp pv_infer_ops_tensor[] = {
  { "", "Shape", infer_shape },
  { "", "Size", infer_size },
  { "", "Reshape", infer_reshape },
  { "", "Flatten", infer_flatten },
  { "", "Squeeze", infer_squeeze },
  { "", "Unsqueeze", infer_unsqueeze },
  { "", "Transpose", infer_transpose },
  { "", "Concat", infer_concat },
  { "", "Split", infer_split },
  { "", "Slice", infer_slice },
  { "", "Gather", infer_gather },
  { "", "GatherElements", infer_gather_elements },
  { "", "GatherND", infer_gather_nd },
  { "", "Scatter", infer_same_as_input0 },
  { "", "ScatterElements", infer_same_as_input0 },
  { "", "ScatterND", infer_same_as_input0 },
  { "", "Expand", infer_expand },
  { "", "Tile", infer_tile },
  { "", "Pad", infer_pad },
  { "", "ConstantOfShape", infer_constant_of_shape },
  { "", "Range", infer_range },
  { "", "OneHot", infer_one_hot },
  { "", "NonZero", infer_non_zero },
  { "", "TopK", infer_top_k },
  { "", "Trilu", infer_same_as_input0 },
  { "", "DepthToSpace", infer_depth_to_space },
  { "", "SpaceToDepth", infer_space_to_depth },
  { "", "Resize", infer_resize },
  { "", "Upsample", infer_upsample },
  { "", "Compress", infer_compress },
  { "", "Unique", infer_unique },
  { "", "EyeLike", infer_eye_like },
  { "", "Det", infer_det },
  { "", "ReverseSequence", infer_same_as_input0 },
  { "", "Optional", infer_optional },
  { "", "OptionalGetElement", infer_optional_get_element },
  { "", "OptionalHasElement", infer_optional_has_element },
  { "", "SequenceConstruct", infer_sequence_construct },
  { "", "SequenceAt", infer_sequence_at },
  { "", "SequenceEmpty", infer_sequence_empty },
  { "", "SequenceInsert", infer_sequence_like_input },
  { "", "SequenceErase", infer_sequence_like_input },
  { "", "SequenceLength", infer_sequence_length },
  { "", "SplitToSequence", infer_split_to_sequence },
  { "", "ConcatFromSequence", infer_concat_from_sequence },
  { "", "GridSample", infer_grid_sample },
  { "", "RoiAlign", infer_roi_align },
  { "", "NonMaxSuppression", infer_non_max_suppression },
  { "", "Col2Im", infer_col2im },
  { "", "CenterCropPad", infer_center_crop_pad },
  { "", "DFT", infer_dft },
  { "", "STFT", infer_stft },
  { "", "HannWindow", infer_window },
  { "", "HammingWindow", infer_window },
  { "", "BlackmanWindow", infer_window },
  { "", "MelWeightMatrix", infer_mel_weight_matrix },
  { "", "RandomNormal", infer_random },
  { "", "RandomUniform", infer_random },
  { "", "RandomNormalLike", infer_random_like },
  { "", "RandomUniformLike", infer_random_like },
  { "", "Bernoulli", infer_random_like },
  { "", "Multinomial", infer_multinomial },
  { "", "AffineGrid", infer_affine_grid },
  { "", "RotaryEmbedding", infer_same_as_input0 },
  { "", "TensorScatter", infer_same_as_input0 },
  { NULL },
};
