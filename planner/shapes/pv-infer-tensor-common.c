/* pv-infer-tensor-common.c: helpers shared by the shape rules of ONNX's
 * tensor ops (see pv-infer-tensor-private.h). */
#include "pv-infer-dims.h"
#include "pv-infer-tensor-private.h"

/* Output ranks taken from the length of a shape-like input are believed up
 * to this; a longer vector is no shape (and must not size an allocation). */
#define PV_RANK_LIMIT 1024

const PvDimExpr *
pv_infer_div_exact (PvInferContext *ctx, const PvDimExpr *a, const PvDimExpr *b)
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

const PvDimExpr *
pv_infer_dims_product (PvInferContext *ctx, const PvDimExpr *const *dims, int from, int to)
{
  const PvDimExpr *p = cst (ctx, 1);

  for (int i = from; i < to && p != NULL; i++)
    p = d_mul (ctx, p, dims[i]);
  return p;
}

void
pv_infer_copy_dims (const PvDimExpr **dims, const PvValueShape *s)
{
  for (int i = 0; i < s->rank; i++)
    dims[i] = s->dims[i];
}

gboolean
pv_infer_has_rank (const PvValueShape *s)
{
  return s != NULL && s->rank >= 0;
}

int
pv_infer_elem_of (const PvValueShape *s)
{
  return s != NULL ? s->elem_type : 0;
}

gboolean
pv_infer_norm_axis (gint64 axis, int rank, int *out)
{
  if (axis < -(gint64) rank || axis >= rank)
    return FALSE;
  *out = (int) (axis < 0 ? axis + rank : axis);
  return TRUE;
}

gboolean
pv_infer_const_dims (const PvValueShape *s, gint64 *out)
{
  if (!pv_infer_has_rank (s) || s->rank > PV_MAX_RANK)
    return FALSE;
  for (int i = 0; i < s->rank; i++)
    if (!is_const (s->dims[i], &out[i]) || out[i] < 0)
      return FALSE;
  return TRUE;
}

const PvDimExpr *const *
pv_infer_in_data (PvInferContext *ctx, int k, int *n_out)
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

const PvDimExpr *
pv_infer_in_scalar (PvInferContext *ctx, int k)
{
  int n = 0;
  const PvDimExpr *const *d = pv_infer_in_data (ctx, k, &n);

  return d != NULL && n == 1 ? d[0] : NULL;
}

int
pv_infer_in_vector_length (PvInferContext *ctx, int k)
{
  const PvValueShape *s = pv_infer_input (ctx, k);
  gint64 n;

  if (!pv_infer_has_rank (s))
    return -1;
  if (s->rank == 0)
    return 1;
  if (s->rank == 1 && is_const (s->dims[0], &n) && n >= 0 && n <= PV_RANK_LIMIT)
    return (int) n;
  return -1;
}

void
pv_infer_set_contents (PvInferContext *ctx, int k, const PvDimExpr *const *data, int n)
{
  if (data == NULL || n < 0 || n > PV_CONTENTS_MAX)
    return;
  for (int i = 0; i < n; i++)
    if (data[i] == NULL)
      return;
  pv_infer_set_output_data (ctx, k, data, n);
}

void
pv_infer_set_unknown_rank (PvInferContext *ctx, int k, int elem_type)
{
  pv_infer_set_output (ctx, k, elem_type, -1, NULL);
}

gboolean
pv_infer_pass_unknown_rank (PvInferContext *ctx, const PvValueShape *x)
{
  if (x == NULL)
    return FALSE;
  pv_infer_set_unknown_rank (ctx, 0, x->elem_type);
  return TRUE;
}

gboolean
pv_infer_like_input_dtype (PvInferContext *ctx, const PvNode *node, int fresh_rank, const char *fresh_name)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  g_autofree const PvDimExpr **dims = NULL;
  int elem;

  if (x == NULL)
    return FALSE;
  elem = (int) pv_infer_attr_int (node, "dtype", x->elem_type);
  if (pv_infer_has_rank (x))
    pv_infer_set_output (ctx, 0, elem, x->rank, x->dims);
  else if (fresh_rank < 0)
    pv_infer_set_unknown_rank (ctx, 0, elem);
  else
    {
      dims = g_new (const PvDimExpr *, MAX (fresh_rank, 1));
      for (int i = 0; i < fresh_rank; i++)
        dims[i] = pv_infer_fresh (ctx, fresh_name);
      pv_infer_set_output (ctx, 0, elem, fresh_rank, dims);
    }
  return TRUE;
}

gboolean
pv_infer_set_like (PvInferContext *ctx, int k, const PvValueShape *s)
{
  if (s == NULL)
    return FALSE;
  if (!pv_infer_has_rank (s))
    {
      if (s->elem_type == 0)
        return FALSE;
      pv_infer_set_unknown_rank (ctx, k, s->elem_type);
      return TRUE;
    }
  pv_infer_set_output (ctx, k, s->elem_type, s->rank, s->dims);
  return TRUE;
}

int
pv_infer_ints_attr_or_input (PvInferContext *ctx, const PvNode *node, const char *attr, int k, int since_input,
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
      if (pv_infer_in_vector_length (ctx, k) == 0)
        return 0;
      return -1;
    }
}

void
pv_infer_strides_of (const gint64 *dims, int rank, gint64 *strides)
{
  gint64 s = 1;

  for (int i = rank - 1; i >= 0; i--)
    {
      strides[i] = s;
      s *= dims[i];
    }
}

gboolean
pv_infer_numel_small (const gint64 *dims, int rank, gint64 *n_out)
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

void
pv_infer_next_index (gint64 *idx, const gint64 *dims, int rank)
{
  for (int i = rank - 1; i >= 0; i--)
    if (++idx[i] < dims[i])
      return;
    else
      idx[i] = 0;
}

void
pv_infer_set_strided_contents (PvInferContext *ctx, int k, const PvValueShape *x, const gint64 *out_dims, int rank,
                               gint64 n_out, gint64 base, const gint64 *strides)
{
  g_autofree const PvDimExpr **data = g_new0 (const PvDimExpr *, MAX (n_out, 1));
  gint64 idx[PV_MAX_RANK] = { 0 };

  for (gint64 o = 0; o < n_out; o++)
    {
      gint64 src = base;
      for (int i = 0; i < rank; i++)
        src += idx[i] * strides[i];
      data[o] = x->data[src];
      pv_infer_next_index (idx, out_dims, rank);
    }
  pv_infer_set_contents (ctx, k, data, (int) n_out);
}

gboolean
pv_infer_same_as_input0 (PvInferContext *ctx, const PvNode *node)
{
  (void) node;
  return pv_infer_set_like (ctx, 0, pv_infer_input (ctx, 0));
}
