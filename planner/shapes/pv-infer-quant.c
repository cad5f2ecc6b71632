/* pv-infer-quant.c: quantization and the quantized ops that are not a Conv
 * or a MatMul (those share pv-infer-nn.c's rules): QuantizeLinear and
 * DequantizeLinear (per tensor, per axis and blocked: the output always has
 * the input's shape), DynamicQuantizeLinear, and com.microsoft's QLinear*
 * element-wise, concat and pooling ops and QGemm. */
#include "pv-shape-inference.h"

#include "pv-element-type.h"
#include "pv-infer-tensor-private.h"

/* The scalar (rank 0) output @k of @elem_type. */
static void
set_scalar (PvInferContext *ctx, int k, int elem_type)
{
  pv_infer_set_output (ctx, k, elem_type, 0, NULL);
}

/* Output 0 shaped like input 0 with element type @elem_type. */
static gboolean
like_input0 (PvInferContext *ctx, int elem_type)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);

  if (x == NULL || (!pv_infer_has_rank (x) && x->kind == PV_TYPE_UNKNOWN))
    return FALSE;
  if (!pv_infer_has_rank (x))
    pv_infer_set_unknown_rank (ctx, 0, elem_type);
  else
    pv_infer_set_output (ctx, 0, elem_type, x->rank, x->dims);
  return TRUE;
}

/* QuantizeLinear: y_zero_point's type, else output_dtype (opset 21+), else
 * uint8. */
static gboolean
infer_quantize_linear (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *zp = pv_infer_input (ctx, 2);
  int elem = zp && zp->elem_type ? zp->elem_type : (int) pv_infer_attr_int (node, "output_dtype", 0);

  return like_input0 (ctx, elem ? elem : PV_ELEM_UINT8);
}

/* DequantizeLinear: float32 before opset 19; then x_scale's type (float,
 * float16, bfloat16), or output_dtype (opset 23+) when set. */
static gboolean
infer_dequantize_linear (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *scale = pv_infer_input (ctx, 1);
  int elem = (int) pv_infer_attr_int (node, "output_dtype", 0);

  if (elem == 0)
    elem = node->domain[0] == '\0' && node->opset < 19 ? PV_ELEM_FLOAT
           : scale && scale->elem_type ? scale->elem_type : PV_ELEM_FLOAT;
  return like_input0 (ctx, elem);
}

/* DynamicQuantizeLinear: y (uint8, x's shape), y_scale (float scalar),
 * y_zero_point (uint8 scalar). */
static gboolean
infer_dynamic_quantize_linear (PvInferContext *ctx, const PvNode *node)
{
  (void) node;
  if (!like_input0 (ctx, PV_ELEM_UINT8))
    return FALSE;
  set_scalar (ctx, 1, PV_ELEM_FLOAT);
  set_scalar (ctx, 2, PV_ELEM_UINT8);
  return TRUE;
}

/* Broadcast of inputs @a and @b into output 0 of @elem_type. */
static gboolean
broadcast2 (PvInferContext *ctx, int a_k, int b_k, int elem_type)
{
  const PvValueShape *a = pv_infer_input (ctx, a_k), *b = pv_infer_input (ctx, b_k);
  g_autofree const PvDimExpr **dims = NULL;
  int rank;

  if (a == NULL || b == NULL)
    return FALSE;
  if (!pv_infer_has_rank (a) || !pv_infer_has_rank (b))
    {
      pv_infer_set_unknown_rank (ctx, 0, elem_type);
      return TRUE;
    }
  rank = MAX (a->rank, b->rank);
  dims = g_new0 (const PvDimExpr *, MAX (rank, 1));
  for (int i = 0; i < rank; i++)
    {
      int ia = i - (rank - a->rank), ib = i - (rank - b->rank);
      const PvDimExpr *d = ia < 0 ? b->dims[ib] : ib < 0 ? a->dims[ia] : pv_infer_broadcast_dim (ctx, a->dims[ia], b->dims[ib]);
      dims[i] = d ? d : pv_infer_fresh (ctx, "qlinear");
    }
  pv_infer_set_output (ctx, 0, elem_type, rank, dims);
  return TRUE;
}

/* QLinearAdd, QLinearMul: (A, A_scale, A_zp, B, B_scale, B_zp, C_scale, C_zp). */
static gboolean
infer_qlinear_binary (PvInferContext *ctx, const PvNode *node)
{
  (void) node;
  return broadcast2 (ctx, 0, 3, pv_infer_elem_of (pv_infer_input (ctx, 0)));
}

/* QLinearSigmoid, QLinearLeakyRelu, QLinearSoftmax: X's type and shape. */
static gboolean
infer_qlinear_unary (PvInferContext *ctx, const PvNode *node)
{
  (void) node;
  return like_input0 (ctx, pv_infer_elem_of (pv_infer_input (ctx, 0)));
}

/* QLinearConcat: (Y_scale, Y_zero_point, then X, X_scale, X_zp per input). */
static gboolean
infer_qlinear_concat (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *first = pv_infer_input (ctx, 2);
  g_autofree const PvDimExpr **dims = NULL;
  int axis;

  if (first == NULL)
    return FALSE;
  if (!pv_infer_has_rank (first) || !pv_infer_norm_axis (pv_infer_attr_int (node, "axis", 0), first->rank, &axis))
    {
      pv_infer_set_unknown_rank (ctx, 0, first->elem_type);
      return TRUE;
    }
  dims = g_new0 (const PvDimExpr *, MAX (first->rank, 1));
  pv_infer_copy_dims (dims, first);
  for (int k = 5; k < pv_infer_n_inputs (ctx); k += 3)
    {
      const PvValueShape *x = pv_infer_input (ctx, k);
      if (x == NULL || x->rank != first->rank)
        {
          dims[axis] = pv_infer_fresh (ctx, "concat");
          break;
        }
      dims[axis] = pv_dim_add (pv_infer_pool (ctx), dims[axis], x->dims[axis]);
    }
  if (dims[axis] == NULL)
    dims[axis] = pv_infer_fresh (ctx, "concat");
  pv_infer_set_output (ctx, 0, first->elem_type, first->rank, dims);
  return TRUE;
}

/* QLinearGlobalAveragePool: spatial dims become 1; channels_last puts C last. */
static gboolean
infer_qlinear_global_pool (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  gboolean last = pv_infer_attr_int (node, "channels_last", 0) != 0;
  g_autofree const PvDimExpr **dims = NULL;

  if (x == NULL)
    return FALSE;
  if (!pv_infer_has_rank (x) || x->rank < 2)
    return like_input0 (ctx, x->elem_type);
  dims = g_new0 (const PvDimExpr *, x->rank);
  for (int i = 0; i < x->rank; i++)
    {
      gboolean kept = i == 0 || (last ? i == x->rank - 1 : i == 1);
      dims[i] = kept ? x->dims[i] : pv_dim_const (pv_infer_pool (ctx), 1);
    }
  pv_infer_set_output (ctx, 0, x->elem_type, x->rank, dims);
  return TRUE;
}

/* QGemm: (A, a_scale, a_zp, B, b_scale, b_zp, C, y_scale, y_zp); float
 * output without y_scale, else y_zp's type (A's without one). */
static gboolean
infer_qgemm (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *a = pv_infer_input (ctx, 0), *b = pv_infer_input (ctx, 3);
  const PvValueShape *yscale = pv_infer_input (ctx, 7), *yzp = pv_infer_input (ctx, 8);
  gboolean ta = pv_infer_attr_int (node, "transA", 0) != 0, tb = pv_infer_attr_int (node, "transB", 0) != 0;
  const PvDimExpr *dims[2];
  int elem = yscale == NULL ? PV_ELEM_FLOAT : yzp && yzp->elem_type ? yzp->elem_type : pv_infer_elem_of (a);

  if (a == NULL || b == NULL)
    return FALSE;
  dims[0] = a->rank == 2 ? a->dims[ta ? 1 : 0] : pv_infer_fresh (ctx, "qgemm");
  dims[1] = b->rank == 2 ? b->dims[tb ? 0 : 1] : pv_infer_fresh (ctx, "qgemm");
  pv_infer_set_output (ctx, 0, elem, 2, dims);
  return TRUE;
}

const PvInferOp pv_infer_ops_quant[] = {
  { "", "QuantizeLinear", infer_quantize_linear },
  { "", "DequantizeLinear", infer_dequantize_linear },
  { "", "DynamicQuantizeLinear", infer_dynamic_quantize_linear },
  { "com.microsoft", "QuantizeLinear", infer_quantize_linear },
  { "com.microsoft", "DequantizeLinear", infer_dequantize_linear },
  { "com.microsoft", "QLinearAdd", infer_qlinear_binary },
  { "com.microsoft", "QLinearMul", infer_qlinear_binary },
  { "com.microsoft", "QLinearSigmoid", infer_qlinear_unary },
  { "com.microsoft", "QLinearLeakyRelu", infer_qlinear_unary },
  { "com.microsoft", "QLinearSoftmax", infer_qlinear_unary },
  { "com.microsoft", "QLinearConcat", infer_qlinear_concat },
  { "com.microsoft", "QLinearGlobalAveragePool", infer_qlinear_global_pool },
  { "com.microsoft", "QGemm", infer_qgemm },
  { NULL },
};
