/* pv-infer-nn.c: shape rules for ONNX's neural-network ops: convolutions and
 * pooling, normalizations, Gemm/MatMul, softmaxes, recurrent layers and
 * CumSum (reductions and Einsum: pv-infer-reduce.c).
 *
 * Window sizes are built symbolically, e.g. a convolution's spatial output is
 * floor((in + pad_begin + pad_end - dilation*(k-1) - 1)/stride) + 1, so that a
 * symbolic input size gives an exact symbolic output. */
#include "pv-infer-rules-private.h"

static gboolean
infer_same (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  (void) node;
  return x != NULL && set_like (ctx, 0, x->elem_type, x);
}

/* ---- convolution and pooling windows ---- */

typedef enum {
  PAD_NOTSET,
  PAD_SAME_UPPER,
  PAD_SAME_LOWER,
  PAD_VALID,
} AutoPad;

static AutoPad
auto_pad (const PvNode *node)
{
  g_autofree char *s = attr_string (node, "auto_pad");

  if (s == NULL)
    return PAD_NOTSET;
  if (strcmp (s, "SAME_UPPER") == 0)
    return PAD_SAME_UPPER;
  if (strcmp (s, "SAME_LOWER") == 0)
    return PAD_SAME_LOWER;
  if (strcmp (s, "VALID") == 0)
    return PAD_VALID;
  return PAD_NOTSET;
}

/* dilation*(k-1)+1 */
static const PvDimExpr *
effective_kernel (PvDimPool *pool, const PvDimExpr *k, gint64 dilation)
{
  return d_addc (pool, d_mulc (pool, d_addc (pool, k, -1), dilation), 1);
}

/* The spatial output size of a sliding window over @in (Conv and pools). */
static const PvDimExpr *
window_out (PvInferContext *ctx, const PvNode *node, AutoPad ap, const PvDimExpr *in, const PvDimExpr *k,
            gint64 dilation, gint64 stride, gint64 pad_begin, gint64 pad_end, gboolean ceil_mode)
{
  PvDimPool *pool = pv_infer_pool (ctx);
  const PvDimExpr *keff, *num, *out;
  gint64 kc;

  if (in == NULL || k == NULL || stride <= 0 || dilation <= 0)
    return fresh_dim (ctx, node);
  if (ap == PAD_SAME_UPPER || ap == PAD_SAME_LOWER)
    return or_fresh (ctx, node, d_ceil_div (pool, in, stride));
  if (ap == PAD_VALID)
    pad_begin = pad_end = 0;
  keff = effective_kernel (pool, k, dilation);
  num = d_sub (pool, d_addc (pool, in, pad_begin + pad_end), keff);
  /* auto_pad VALID gives the same size in ceil and floor mode. */
  if (!ceil_mode || ap == PAD_VALID)
    return or_fresh (ctx, node, d_addc (pool, d_floor_div (pool, num, stride), 1));
  out = d_addc (pool, d_ceil_div (pool, num, stride), 1);
  /* A window that would start in the right padding is dropped: at most
   * ceil((in + pad_begin)/stride) windows. That can bind only when
   * pad_end >= keff + 1 - stride. */
  if (!pv_dim_is_const (keff, &kc) || pad_end >= kc + 1 - stride)
    out = d_min (pool, out, d_ceil_div (pool, d_addc (pool, in, pad_begin), stride));
  return or_fresh (ctx, node, out);
}

/* Conv, ConvInteger, QLinearConv: X at @xi, W at @wi. */
static gboolean
conv_common (PvInferContext *ctx, const PvNode *node, int xi, int wi, int elem)
{
  const PvValueShape *x = pv_infer_input (ctx, xi);
  const PvValueShape *w = pv_infer_input (ctx, wi);
  g_autofree const PvDimExpr **dims = NULL;
  const gint64 *ks = NULL;
  int rank, n_sp, n_ks;
  AutoPad ap = auto_pad (node);

  if (x == NULL)
    return FALSE;
  rank = x->rank >= 0 ? x->rank : (w != NULL ? w->rank : -1);
  if (rank < 0)
    {
      if (elem == 0)
        return FALSE;
      pv_infer_set_output (ctx, 0, elem, -1, NULL);
      return TRUE;
    }
  if (rank < 2)
    return FALSE;
  n_sp = rank - 2;
  n_ks = pv_infer_attr_ints (node, "kernel_shape", &ks);
  dims = g_new0 (const PvDimExpr *, rank);
  dims[0] = x->rank == rank ? x->dims[0] : fresh_dim (ctx, node);
  dims[1] = (w != NULL && w->rank == rank) ? w->dims[0] : fresh_dim (ctx, node);
  for (int i = 0; i < n_sp; i++)
    {
      const PvDimExpr *k = NULL;
      if (ks != NULL && n_ks == n_sp)
        k = pv_dim_const (pv_infer_pool (ctx), ks[i]);
      else if (w != NULL && w->rank == rank)
        k = w->dims[2 + i];
      dims[2 + i] = window_out (ctx, node, ap, x->rank == rank ? x->dims[2 + i] : NULL, k,
                                attr_ints_at (node, "dilations", i, 1), attr_ints_at (node, "strides", i, 1),
                                attr_ints_at (node, "pads", i, 0), attr_ints_at (node, "pads", i + n_sp, 0), FALSE);
    }
  pv_infer_set_output (ctx, 0, elem, rank, dims);
  return TRUE;
}

static gboolean
infer_conv (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  return conv_common (ctx, node, 0, 1, x ? x->elem_type : 0);
}

static gboolean
infer_conv_integer (PvInferContext *ctx, const PvNode *node)
{
  return conv_common (ctx, node, 0, 1, PV_ELEM_INT32);
}

/* The output type of the QLinear ops: y_zero_point's (input 7), else x's. */
static int
qlinear_out_type (PvInferContext *ctx)
{
  const PvValueShape *yzp = pv_infer_input (ctx, 7);
  const PvValueShape *x = pv_infer_input (ctx, 0);
  if (yzp != NULL && yzp->elem_type != 0)
    return yzp->elem_type;
  return x ? x->elem_type : 0;
}

static gboolean
infer_qlinear_conv (PvInferContext *ctx, const PvNode *node)
{
  return conv_common (ctx, node, 0, 3, qlinear_out_type (ctx));
}

static gboolean
infer_conv_transpose (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvValueShape *w = pv_infer_input (ctx, 1);
  PvDimPool *pool = pv_infer_pool (ctx);
  g_autofree const PvDimExpr **dims = NULL;
  const gint64 *ks = NULL, *os = NULL;
  int rank, n_sp, n_ks, n_os;
  gint64 group = pv_infer_attr_int (node, "group", 1);
  AutoPad ap = auto_pad (node);

  if (x == NULL)
    return FALSE;
  rank = x->rank >= 0 ? x->rank : (w != NULL ? w->rank : -1);
  if (rank < 0)
    {
      if (x->elem_type == 0)
        return FALSE;
      pv_infer_set_output (ctx, 0, x->elem_type, -1, NULL);
      return TRUE;
    }
  if (rank < 2)
    return FALSE;
  n_sp = rank - 2;
  n_ks = pv_infer_attr_ints (node, "kernel_shape", &ks);
  n_os = pv_infer_attr_ints (node, "output_shape", &os);
  dims = g_new0 (const PvDimExpr *, rank);
  dims[0] = x->rank == rank ? x->dims[0] : fresh_dim (ctx, node);
  dims[1] = or_fresh (ctx, node, (w != NULL && w->rank == rank) ? d_mulc (pool, w->dims[1], group) : NULL);
  for (int i = 0; i < n_sp; i++)
    {
      const PvDimExpr *in = x->rank == rank ? x->dims[2 + i] : NULL;
      const PvDimExpr *k = NULL, *out = NULL;
      gint64 stride = attr_ints_at (node, "strides", i, 1);
      gint64 dilation = attr_ints_at (node, "dilations", i, 1);

      if (os != NULL && (n_os == n_sp || n_os == rank))
        {
          /* output_shape: the spatial sizes (a full shape is accepted too). */
          dims[2 + i] = pv_dim_const (pool, os[n_os == rank ? 2 + i : i]);
          continue;
        }
      if (ks != NULL && n_ks == n_sp)
        k = pv_dim_const (pool, ks[i]);
      else if (w != NULL && w->rank == rank)
        k = w->dims[2 + i];
      if (in != NULL && (ap == PAD_SAME_UPPER || ap == PAD_SAME_LOWER))
        out = d_mulc (pool, in, stride);
      else if (in != NULL && k != NULL)
        {
          gint64 pb = ap == PAD_VALID ? 0 : attr_ints_at (node, "pads", i, 0);
          gint64 pe = ap == PAD_VALID ? 0 : attr_ints_at (node, "pads", i + n_sp, 0);
          gint64 op = attr_ints_at (node, "output_padding", i, 0);
          /* stride*(in-1) + output_padding + dilation*(k-1)+1 - pads */
          out = d_add (pool, d_mulc (pool, d_addc (pool, in, -1), stride), effective_kernel (pool, k, dilation));
          out = d_addc (pool, out, op - pb - pe);
        }
      dims[2 + i] = or_fresh (ctx, node, out);
    }
  pv_infer_set_output (ctx, 0, x->elem_type, rank, dims);
  return TRUE;
}

/* AveragePool, MaxPool, LpPool. */
static gboolean
pool_common (PvInferContext *ctx, const PvNode *node, gboolean has_indices)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  g_autofree const PvDimExpr **dims = NULL;
  const gint64 *ks = NULL;
  int n_sp, n_ks;
  gboolean ceil_mode = pv_infer_attr_int (node, "ceil_mode", 0) != 0;
  AutoPad ap = auto_pad (node);

  if (x == NULL)
    return FALSE;
  if (x->rank < 0)
    {
      if (!set_like (ctx, 0, x->elem_type, x))
        return FALSE;
      if (has_indices)
        pv_infer_set_output (ctx, 1, PV_ELEM_INT64, -1, NULL);
      return TRUE;
    }
  if (x->rank < 2)
    return FALSE;
  n_sp = x->rank - 2;
  n_ks = pv_infer_attr_ints (node, "kernel_shape", &ks);
  dims = g_new0 (const PvDimExpr *, x->rank);
  dims[0] = x->dims[0];
  dims[1] = x->dims[1];
  for (int i = 0; i < n_sp; i++)
    {
      const PvDimExpr *k = (ks != NULL && n_ks == n_sp) ? pv_dim_const (pv_infer_pool (ctx), ks[i]) : NULL;
      dims[2 + i] = window_out (ctx, node, ap, x->dims[2 + i], k, attr_ints_at (node, "dilations", i, 1),
                                attr_ints_at (node, "strides", i, 1), attr_ints_at (node, "pads", i, 0),
                                attr_ints_at (node, "pads", i + n_sp, 0), ceil_mode);
    }
  pv_infer_set_output (ctx, 0, x->elem_type, x->rank, dims);
  if (has_indices)
    pv_infer_set_output (ctx, 1, PV_ELEM_INT64, x->rank, dims);
  return TRUE;
}

static gboolean
infer_pool (PvInferContext *ctx, const PvNode *node)
{
  return pool_common (ctx, node, FALSE);
}

static gboolean
infer_max_pool (PvInferContext *ctx, const PvNode *node)
{
  return pool_common (ctx, node, TRUE);
}

static gboolean
infer_global_pool (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  g_autofree const PvDimExpr **dims = NULL;
  (void) node;

  if (x == NULL)
    return FALSE;
  if (x->rank < 2)
    return x->rank < 0 && set_like (ctx, 0, x->elem_type, x);
  dims = g_new0 (const PvDimExpr *, x->rank);
  for (int i = 0; i < x->rank; i++)
    dims[i] = i < 2 ? x->dims[i] : pv_dim_const (pv_infer_pool (ctx), 1);
  pv_infer_set_output (ctx, 0, x->elem_type, x->rank, dims);
  return TRUE;
}

/* ---- normalizations ---- */

static gboolean
infer_batch_norm (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvValueShape *mean = pv_infer_input (ctx, 3);
  int n_out = pv_infer_n_outputs (ctx);
  (void) node;

  if (x == NULL || !set_like (ctx, 0, x->elem_type, x))
    return FALSE;
  /* running_mean/var (opset 14+), or mean, var, saved_mean, saved_var
   * (opset 7-13): shaped like the mean input, [C]. */
  for (int k = 1; k < n_out; k++)
    {
      int elem = (mean != NULL && mean->elem_type != 0) ? mean->elem_type : x->elem_type;
      if (mean != NULL && mean->rank >= 0)
        set_like (ctx, k, elem, mean);
      else if (x->rank >= 2)
        pv_infer_set_output (ctx, k, elem, 1, &x->dims[1]);
      else if (elem != 0)
        pv_infer_set_output (ctx, k, elem, -1, NULL);
    }
  return TRUE;
}

static gboolean
infer_layer_norm (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvAttribute *stash = pv_node_find_attr (node, "stash_type");
  g_autofree const PvDimExpr **dims = NULL;
  int axis, stat_elem;

  if (x == NULL || !set_like (ctx, 0, x->elem_type, x))
    return FALSE;
  /* Mean and InvStdDev: stash_type (float by default); ONNX Runtime keeps
   * double for double inputs. */
  if (x->elem_type == PV_ELEM_DOUBLE)
    stat_elem = PV_ELEM_DOUBLE;
  else if (stash != NULL && stash->type == PV_ATTR_INT && stash->i > 0)
    stat_elem = (int) stash->i;
  else
    stat_elem = PV_ELEM_FLOAT;
  if (x->rank < 0)
    {
      pv_infer_set_output (ctx, 1, stat_elem, -1, NULL);
      pv_infer_set_output (ctx, 2, stat_elem, -1, NULL);
      return TRUE;
    }
  if (!norm_axis (ctx, node, pv_infer_attr_int (node, "axis", -1), x->rank, &axis))
    return TRUE;
  dims = g_new0 (const PvDimExpr *, x->rank + 1);
  for (int i = 0; i < x->rank; i++)
    dims[i] = i < axis ? x->dims[i] : pv_dim_const (pv_infer_pool (ctx), 1);
  pv_infer_set_output (ctx, 1, stat_elem, x->rank, dims);
  pv_infer_set_output (ctx, 2, stat_elem, x->rank, dims);
  return TRUE;
}

/* ---- Gemm, MatMul ---- */

static gboolean
infer_gemm (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *a = pv_infer_input (ctx, 0);
  const PvValueShape *b = pv_infer_input (ctx, 1);
  const PvDimExpr *dims[2];
  gboolean ta = pv_infer_attr_int (node, "transA", 0) != 0;
  gboolean tb = pv_infer_attr_int (node, "transB", 0) != 0;

  if (a == NULL || b == NULL || (a->rank < 0 && b->rank < 0 && a->elem_type == 0))
    return FALSE;
  dims[0] = a->rank == 2 ? a->dims[ta ? 1 : 0] : fresh_dim (ctx, node);
  dims[1] = b->rank == 2 ? b->dims[tb ? 0 : 1] : fresh_dim (ctx, node);
  pv_infer_set_output (ctx, 0, a->elem_type ? a->elem_type : b->elem_type, 2, dims);
  return TRUE;
}

/* numpy matmul: 1-D operands get a 1 prepended (A) or appended (B) that the
 * output drops; the batch dims broadcast. */
static gboolean
matmul_common (PvInferContext *ctx, const PvNode *node, int ai, int bi, int elem)
{
  const PvValueShape *a = pv_infer_input (ctx, ai);
  const PvValueShape *b = pv_infer_input (ctx, bi);
  g_autofree const PvDimExpr **dims = NULL;
  int ra, rb, batch_a, batch_b, batch, n = 0;

  if (a == NULL || b == NULL)
    return FALSE;
  if (a->rank < 0 || b->rank < 0)
    {
      if (elem == 0)
        return FALSE;
      pv_infer_set_output (ctx, 0, elem, -1, NULL);
      return TRUE;
    }
  ra = a->rank, rb = b->rank;
  if (ra == 0 || rb == 0)
    {
      pv_infer_warn (ctx, "%s: scalar operand", node->op_type);
      return FALSE;
    }
  batch_a = ra >= 2 ? ra - 2 : 0;
  batch_b = rb >= 2 ? rb - 2 : 0;
  batch = MAX (batch_a, batch_b);
  dims = g_new0 (const PvDimExpr *, batch + 2);
  for (int i = 0; i < batch; i++)
    {
      int ia = i - (batch - batch_a), ib = i - (batch - batch_b);
      const PvDimExpr *d;
      if (ia < 0)
        d = b->dims[ib];
      else if (ib < 0)
        d = a->dims[ia];
      else if ((d = pv_infer_broadcast_dim (ctx, a->dims[ia], b->dims[ib])) == NULL)
        d = fresh_dim (ctx, node);
      dims[n++] = d;
    }
  if (ra >= 2)
    dims[n++] = a->dims[ra - 2];
  if (rb >= 2)
    dims[n++] = b->dims[rb - 1];
  pv_infer_set_output (ctx, 0, elem, n, dims);
  return TRUE;
}

static gboolean
infer_matmul (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *a = pv_infer_input (ctx, 0);
  const PvValueShape *b = pv_infer_input (ctx, 1);
  int elem = a && a->elem_type ? a->elem_type : (b ? b->elem_type : 0);
  return matmul_common (ctx, node, 0, 1, elem);
}

static gboolean
infer_matmul_integer (PvInferContext *ctx, const PvNode *node)
{
  return matmul_common (ctx, node, 0, 1, PV_ELEM_INT32);
}

static gboolean
infer_qlinear_matmul (PvInferContext *ctx, const PvNode *node)
{
  return matmul_common (ctx, node, 0, 3, qlinear_out_type (ctx));
}

/* ---- RNN, GRU, LSTM ---- */

static gboolean
rnn_common (PvInferContext *ctx, const PvNode *node, int gates)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvValueShape *w = pv_infer_input (ctx, 1);
  const PvValueShape *r = pv_infer_input (ctx, 2);
  PvDimPool *pool = pv_infer_pool (ctx);
  g_autofree char *direction = attr_string (node, "direction");
  gboolean batch_first = pv_infer_attr_int (node, "layout", 0) != 0;
  const PvDimExpr *seq, *batch, *nd, *hidden, *y[4], *yh[3];
  const PvAttribute *hs = pv_node_find_attr (node, "hidden_size");

  if (x == NULL)
    return FALSE;
  if (x->rank == 3)
    {
      seq = x->dims[batch_first ? 1 : 0];
      batch = x->dims[batch_first ? 0 : 1];
    }
  else
    {
      seq = fresh_dim (ctx, node);
      batch = fresh_dim (ctx, node);
    }
  nd = pv_dim_const (pool, direction != NULL && strcmp (direction, "bidirectional") == 0 ? 2 : 1);
  if (hs != NULL && hs->type == PV_ATTR_INT)
    hidden = pv_dim_const (pool, hs->i);
  else if (r != NULL && r->rank == 3)
    hidden = r->dims[2];
  else if (w != NULL && w->rank == 3)
    hidden = or_fresh (ctx, node, pv_dim_floor_div (pool, w->dims[1], gates));
  else
    hidden = fresh_dim (ctx, node);

  if (batch_first)
    {
      y[0] = batch, y[1] = seq, y[2] = nd, y[3] = hidden;
      yh[0] = batch, yh[1] = nd, yh[2] = hidden;
    }
  else
    {
      y[0] = seq, y[1] = nd, y[2] = batch, y[3] = hidden;
      yh[0] = nd, yh[1] = batch, yh[2] = hidden;
    }
  pv_infer_set_output (ctx, 0, x->elem_type, 4, y);
  pv_infer_set_output (ctx, 1, x->elem_type, 3, yh);
  if (gates == 4)
    pv_infer_set_output (ctx, 2, x->elem_type, 3, yh);
  return TRUE;
}

static gboolean
infer_rnn (PvInferContext *ctx, const PvNode *node)
{
  return rnn_common (ctx, node, 1);
}

static gboolean
infer_gru (PvInferContext *ctx, const PvNode *node)
{
  return rnn_common (ctx, node, 3);
}

static gboolean
infer_lstm (PvInferContext *ctx, const PvNode *node)
{
  return rnn_common (ctx, node, 4);
}

const PvInferOp pv_infer_ops_nn[] = {
  { "", "Conv", infer_conv },
  { "", "ConvInteger", infer_conv_integer },
  { "", "QLinearConv", infer_qlinear_conv },
  { "", "ConvTranspose", infer_conv_transpose },
  { "", "AveragePool", infer_pool },
  { "", "LpPool", infer_pool },
  { "", "MaxPool", infer_max_pool },
  { "", "GlobalAveragePool", infer_global_pool },
  { "", "GlobalMaxPool", infer_global_pool },
  { "", "GlobalLpPool", infer_global_pool },
  /* ORT's NCHWc layout (its saved "all" models): the same rules, on blocked
   * channels (W's dim 0 is already padded to the block). */
  { "com.microsoft.nchwc", "Conv", infer_conv },
  { "com.microsoft.nchwc", "AveragePool", infer_pool },
  { "com.microsoft.nchwc", "MaxPool", infer_pool },
  { "com.microsoft.nchwc", "GlobalAveragePool", infer_global_pool },
  { "com.microsoft.nchwc", "GlobalMaxPool", infer_global_pool },
  { "", "BatchNormalization", infer_batch_norm },
  { "", "InstanceNormalization", infer_same },
  { "", "LayerNormalization", infer_layer_norm },
  { "", "GroupNormalization", infer_same },
  { "", "LRN", infer_same },
  { "", "MeanVarianceNormalization", infer_same },
  { "", "LpNormalization", infer_same },
  { "", "RMSNormalization", infer_same },
  { "", "Gemm", infer_gemm },
  { "", "MatMul", infer_matmul },
  { "", "MatMulInteger", infer_matmul_integer },
  { "", "QLinearMatMul", infer_qlinear_matmul },
  { "", "Softmax", infer_same },
  { "", "LogSoftmax", infer_same },
  { "", "Hardmax", infer_same },
  { "", "RNN", infer_rnn },
  { "", "GRU", infer_gru },
  { "", "LSTM", infer_lstm },
  { "", "CumSum", infer_same },
  { NULL, NULL, NULL },
};
