/* pv-ort-kernel-scratch.c: the scratch each CPU kernel of ORT 1.30 takes
 * from the arena (see the header), and the helpers the kernel models share. */
#include "pv-ort-kernel-scratch-private.h"

#include <stdlib.h>
#include <string.h>

#include "pv-element-type.h"

/* ---- helpers ---- */

int
pv_ort_kernel_value_dims (const PvOrtKernelEnv *env, int value, gint64 *dims)
{
  const PvValueShape *shape;

  if (value < 0 || env->shapes == NULL)
    return -1;
  shape = pv_shape_info_get (env->shapes, env->graph, value);
  if (shape == NULL || shape->kind != PV_TYPE_TENSOR || shape->rank < 0 || shape->rank > PV_ORT_KERNEL_MAX_RANK)
    return -1;
  for (int i = 0; i < shape->rank; i++)
    if (!pv_dim_eval (shape->dims[i], env->bounds, &dims[i], NULL) || dims[i] < 0)
      return -1;
  return shape->rank;
}

int
pv_ort_kernel_input_dims (const PvOrtKernelEnv *env, const PvNode *node, int k, gint64 *dims)
{
  if (!pv_ort_kernel_has_input (node, k))
    return -1;
  return pv_ort_kernel_value_dims (env, node->inputs[k], dims);
}

int
pv_ort_kernel_input_type (const PvOrtKernelEnv *env, const PvNode *node, int k)
{
  const PvValueShape *shape;

  if (!pv_ort_kernel_has_input (node, k) || env->shapes == NULL)
    return 0;
  shape = pv_shape_info_get (env->shapes, env->graph, node->inputs[k]);
  return shape ? shape->elem_type : 0;
}

gboolean
pv_ort_kernel_has_input (const PvNode *node, int k)
{
  return k >= 0 && k < node->n_inputs && node->inputs[k] >= 0;
}

gboolean
pv_ort_kernel_has_output (const PvNode *node, int k)
{
  return k >= 0 && k < node->n_outputs && node->outputs[k] >= 0;
}

gint64
pv_ort_kernel_product (const gint64 *dims, int n)
{
  gint64 p = 1;
  for (int i = 0; i < n; i++)
    p *= dims[i];
  return p;
}

static gboolean
push (PvOrtScratch *s, PvOrtScratchStepKind kind, int arg, guint64 bytes)
{
  if (s->n_steps >= PV_ORT_SCRATCH_MAX_STEPS)
    return FALSE;
  s->steps[s->n_steps++] = (PvOrtScratchStep) { kind, arg, bytes };
  return TRUE;
}

gboolean
pv_ort_scratch_outputs (PvOrtScratch *s)
{
  return push (s, PV_ORT_SCRATCH_OUTPUTS, 0, 0);
}

gboolean
pv_ort_scratch_output (PvOrtScratch *s, int k)
{
  return push (s, PV_ORT_SCRATCH_OUTPUT, k, 0);
}

int
pv_ort_scratch_alloc (PvOrtScratch *s, guint64 bytes)
{
  int n = 0;

  for (int i = 0; i < s->n_steps; i++)
    n += s->steps[i].kind == PV_ORT_SCRATCH_ALLOC;
  return push (s, PV_ORT_SCRATCH_ALLOC, 0, bytes) ? n : -1;
}

gboolean
pv_ort_scratch_free (PvOrtScratch *s, int temporary)
{
  return temporary >= 0 && push (s, PV_ORT_SCRATCH_FREE, temporary, 0);
}

/* ---- Conv (conv.cc, MLAS convolve.cpp) ---- */

#define MLAS_SGEMM_THREAD_COMPLEXITY 65536.0
#define MLAS_MAXIMUM_THREAD_COUNT 16
#define MLAS_SGEMM_STRIDEN_THREAD_ALIGN 16
#define MLAS_CONV_WORKING_BUFFER_PER_THREAD 16384  /* MLAS_SGEMM_STRIDEN x MLAS_SGEMM_STRIDEK floats */

/* What MlasConvPrepare() needs of a convolution, from ORT's attributes. */
typedef struct {
  int dims;                         /* spatial rank */
  gint64 batch, groups, in_channels, filters;  /* channels and filters per group */
  gint64 in[3], out[3], kernel[3], dilation[3], stride[3];
  gboolean pads_zero;
} ConvShape;

/* Padding as ORT's InferPadsAndOutputShape leaves it: explicit pads, or
 * what SAME_UPPER/SAME_LOWER need (VALID and NOTSET without pads: none). */
static gboolean
conv_pads_zero (const PvNode *node, const ConvShape *c)
{
  const PvAttribute *auto_pad = pv_node_find_attr (node, "auto_pad");
  const gint64 *pads;
  int n = pv_infer_attr_ints (node, "pads", &pads);

  if (auto_pad && auto_pad->s && g_str_has_prefix ((const char *) g_bytes_get_data (auto_pad->s, NULL), "SAME"))
    {
      for (int d = 0; d < c->dims; d++)
        {
          gint64 dilated = (c->kernel[d] - 1) * c->dilation[d] + 1;
          if ((c->out[d] - 1) * c->stride[d] + dilated - c->in[d] > 0)
            return FALSE;
        }
      return TRUE;
    }
  if (auto_pad && auto_pad->s && g_bytes_get_size (auto_pad->s) >= 5 &&
      memcmp (g_bytes_get_data (auto_pad->s, NULL), "VALID", 5) == 0)
    return TRUE;
  for (int i = 0; i < n; i++)
    if (pads[i] != 0)
      return FALSE;
  return TRUE;
}

static gboolean
conv_shape (const PvOrtKernelEnv *env, const PvNode *node, ConvShape *c)
{
  gint64 x[PV_ORT_KERNEL_MAX_RANK], w[PV_ORT_KERNEL_MAX_RANK], y[PV_ORT_KERNEL_MAX_RANK];
  int rx = pv_ort_kernel_input_dims (env, node, 0, x);
  int rw = pv_ort_kernel_input_dims (env, node, 1, w);
  int ry = pv_ort_kernel_value_dims (env, node->n_outputs > 0 ? node->outputs[0] : -1, y);
  const gint64 *v;

  if (rx < 3 || rw != rx || ry != rx)
    return FALSE;
  memset (c, 0, sizeof *c);
  c->dims = rx - 2;
  c->batch = x[0];
  c->groups = MAX (pv_infer_attr_int (node, "group", 1), 1);
  c->in_channels = x[1] / c->groups;
  c->filters = w[0] / c->groups;
  for (int d = 0; d < c->dims && d < 3; d++)
    {
      c->in[d] = x[2 + d];
      c->out[d] = y[2 + d];
      c->kernel[d] = w[2 + d];
      c->dilation[d] = c->stride[d] = 1;
    }
  if (pv_infer_attr_ints (node, "kernel_shape", &v) == c->dims)
    for (int d = 0; d < c->dims && d < 3; d++)
      c->kernel[d] = v[d];
  if (pv_infer_attr_ints (node, "dilations", &v) == c->dims)
    for (int d = 0; d < c->dims && d < 3; d++)
      c->dilation[d] = v[d];
  if (pv_infer_attr_ints (node, "strides", &v) == c->dims)
    for (int d = 0; d < c->dims && d < 3; d++)
      c->stride[d] = v[d];
  c->pads_zero = conv_pads_zero (node, c);
  return TRUE;
}

/* MlasConvPrepare()'s WorkingBufferSize, in floats. */
static guint64
mlas_conv_working_floats (const ConvShape *c, int threads)
{
  gint64 in[2], kernel[2];
  guint64 output_size = 1, k = (guint64) c->in_channels;
  gboolean strides_one = TRUE, dilations_one = TRUE;
  gint64 target;
  guint64 stride_n;

  for (int d = 0; d < c->dims; d++)
    {
      output_size *= (guint64) c->out[d];
      k *= (guint64) c->kernel[d];
      strides_one &= c->stride[d] == 1;
      dilations_one &= c->dilation[d] == 1;
    }
  /* 1-D convolutions run as 2-D ones of height 1. */
  in[0] = c->dims == 1 ? 1 : c->in[0], in[1] = c->dims == 1 ? c->in[0] : c->in[1];
  kernel[0] = c->dims == 1 ? 1 : c->kernel[0], kernel[1] = c->dims == 1 ? c->kernel[0] : c->kernel[1];
  if (strides_one && c->pads_zero)
    {
      if (k == (guint64) c->in_channels)
        return 0;  /* pointwise: GEMM on the input itself */
      if (c->dims <= 2 && dilations_one && c->in_channels == 1 &&
          (kernel[1] == in[1] || (kernel[0] == in[0] && kernel[1] == 1)))
        return 0;  /* the kernel spans a whole row or column */
    }
  if ((guint64) c->filters > output_size)
    return output_size * k;  /* full expansion, then one GEMM */
  {
    double complexity = (double) c->filters * (double) output_size * (double) k;
    target = complexity < MLAS_SGEMM_THREAD_COMPLEXITY * MLAS_MAXIMUM_THREAD_COUNT
               ? (gint64) (complexity / MLAS_SGEMM_THREAD_COMPLEXITY) + 1 : MLAS_MAXIMUM_THREAD_COUNT;
  }
  target = MIN (target, threads);
  stride_n = (output_size + (guint64) target - 1) / (guint64) target;
  if (target > 1)
    {
      stride_n = (stride_n + MLAS_SGEMM_STRIDEN_THREAD_ALIGN - 1) & ~(guint64) (MLAS_SGEMM_STRIDEN_THREAD_ALIGN - 1);
      if (stride_n >= output_size)
        target = 1;
      else if (stride_n * (guint64) (target - 1) >= output_size)
        target--;
    }
  return (guint64) target * MLAS_CONV_WORKING_BUFFER_PER_THREAD;
}

/* Conv<float>: the output, then MLAS's working buffer (ranks 1-3) or an
 * im2col buffer of kernel_dim x output image (higher ranks). */
static gboolean
scratch_conv (const PvOrtKernelEnv *env, const PvNode *node, PvOrtScratch *out)
{
  ConvShape c;
  gint64 x[PV_ORT_KERNEL_MAX_RANK], w[PV_ORT_KERNEL_MAX_RANK], y[PV_ORT_KERNEL_MAX_RANK];
  int rx;

  if (pv_ort_kernel_input_type (env, node, 0) != PV_ELEM_FLOAT)
    return FALSE;
  rx = pv_ort_kernel_input_dims (env, node, 0, x);
  if (rx > 5 && pv_ort_kernel_input_dims (env, node, 1, w) == rx &&
      pv_ort_kernel_value_dims (env, node->outputs[0], y) == rx)
    {
      gint64 groups = MAX (pv_infer_attr_int (node, "group", 1), 1);
      gint64 kernel_dim = x[1] / groups * pv_ort_kernel_product (w + 2, rx - 2);
      pv_ort_scratch_outputs (out);
      pv_ort_scratch_alloc (out, (guint64) (kernel_dim * pv_ort_kernel_product (y + 2, rx - 2)) * 4);
      return TRUE;
    }
  if (!conv_shape (env, node, &c))
    return FALSE;
  pv_ort_scratch_outputs (out);
  pv_ort_scratch_alloc (out, mlas_conv_working_floats (&c, MAX (env->threads, 1)) * 4);
  return TRUE;
}

/* ConvTranspose<float>: the output, then a column buffer of kernel_dim x
 * input image. */
static gboolean
scratch_conv_transpose (const PvOrtKernelEnv *env, const PvNode *node, PvOrtScratch *out)
{
  gint64 x[PV_ORT_KERNEL_MAX_RANK], w[PV_ORT_KERNEL_MAX_RANK];
  int rx = pv_ort_kernel_input_dims (env, node, 0, x);
  gint64 groups = MAX (pv_infer_attr_int (node, "group", 1), 1);
  gint64 kernel_dim;

  if (pv_ort_kernel_input_type (env, node, 0) != PV_ELEM_FLOAT || rx < 3 ||
      pv_ort_kernel_input_dims (env, node, 1, w) != rx)
    return FALSE;
  kernel_dim = w[1] * pv_ort_kernel_product (w + 2, rx - 2);  /* output channels per group x kernel */
  (void) groups;
  pv_ort_scratch_outputs (out);
  pv_ort_scratch_alloc (out, (guint64) (kernel_dim * pv_ort_kernel_product (x + 2, rx - 2)) * 4);
  return TRUE;
}

/* LRN<float>: the output, a scale buffer the size of X and a padded square
 * of (C + size - 1) x H x W floats. */
static gboolean
scratch_lrn (const PvOrtKernelEnv *env, const PvNode *node, PvOrtScratch *out)
{
  gint64 x[PV_ORT_KERNEL_MAX_RANK];
  gint64 size = pv_infer_attr_int (node, "size", 1);

  if (pv_ort_kernel_input_dims (env, node, 0, x) != 4)
    return FALSE;
  pv_ort_scratch_outputs (out);
  pv_ort_scratch_alloc (out, (guint64) pv_ort_kernel_product (x, 4) * 4);
  pv_ort_scratch_alloc (out, (guint64) ((x[1] + size - 1) * x[2] * x[3]) * 4);
  return TRUE;
}

/* BatchNormalization: nothing in inference; training mode's saved
 * statistics are not modelled. */
static gboolean
scratch_batch_norm (const PvOrtKernelEnv *env, const PvNode *node, PvOrtScratch *out)
{
  return pv_infer_attr_int (node, "training_mode", 0) == 0;
}

/* Max, Min, Mean, Sum: with three inputs or more, one temporary of the
 * output's size for the running result (two inputs broadcast straight into
 * the output). */
static gboolean
scratch_variadic (const PvOrtKernelEnv *env, const PvNode *node, PvOrtScratch *out)
{
  guint64 bytes;

  if (node->n_inputs < 3)
    return TRUE;
  if (node->n_outputs < 1 || node->outputs[0] < 0 ||
      !pv_shape_info_eval_bytes (env->shapes, env->graph, node->outputs[0], env->bounds, &bytes, NULL))
    return FALSE;
  pv_ort_scratch_outputs (out);
  pv_ort_scratch_alloc (out, bytes);
  return TRUE;
}

/* Softmax, LogSoftmax: nothing on the last axis (and before opset 13,
 * which flattens to 2-D); another axis is transposed through temporaries,
 * not modelled. */
static gboolean
scratch_softmax (const PvOrtKernelEnv *env, const PvNode *node, PvOrtScratch *out)
{
  gint64 x[PV_ORT_KERNEL_MAX_RANK];
  int rank = pv_ort_kernel_input_dims (env, node, 0, x);
  gint64 axis = pv_infer_attr_int (node, "axis", node->opset >= 13 ? -1 : 1);

  if (node->opset < 13)
    return TRUE;
  if (rank < 0)
    return FALSE;
  return (axis < 0 ? axis + rank : axis) == rank - 1;
}

/* ---- the table ---- */

typedef gboolean (*ScratchModel) (const PvOrtKernelEnv *env, const PvNode *node, PvOrtScratch *out);

typedef struct {
  const char *op_type;
  ScratchModel model;  /* NULL: outputs only */
} ScratchOp;

/* ONNX-domain CPU kernels that take nothing from the arena but their
 * outputs (element-wise ops, data movement, Gemm/MatMul, pooling through
 * MLAS without buffers; reductions, normalizations, scatters and the
 * others whose in-use peak matched ORT's on every backend node test of
 * theirs), and the modelled ones; sorted by op type (a unit
 * test checks) for bsearch(). */
static const ScratchOp scratch_ops[] = {
  { "Abs", NULL }, { "Acos", NULL }, { "Acosh", NULL }, { "Add", NULL }, { "And", NULL }, { "ArgMax", NULL },
  { "ArgMin", NULL }, { "Asin", NULL }, { "Asinh", NULL }, { "Atan", NULL }, { "Atanh", NULL },
  { "AveragePool", NULL }, { "BatchNormalization", scratch_batch_norm }, { "BitShift", NULL }, { "Cast", NULL },
  { "Ceil", NULL }, { "Celu", NULL }, { "Clip", NULL }, { "Concat", NULL }, { "ConstantOfShape", NULL },
  { "Conv", scratch_conv }, { "ConvTranspose", scratch_conv_transpose }, { "Cos", NULL }, { "Cosh", NULL },
  { "CumSum", NULL }, { "DepthToSpace", NULL }, { "DequantizeLinear", NULL }, { "Div", NULL }, { "Dropout", NULL },
  { "Elu", NULL }, { "Equal", NULL }, { "Erf", NULL }, { "Exp", NULL }, { "Expand", NULL }, { "EyeLike", NULL },
  { "Flatten", NULL }, { "Floor", NULL }, { "GRU", pv_ort_scratch_gru }, { "Gather", NULL },
  { "GatherElements", NULL }, { "GatherND", NULL }, { "Gemm", NULL }, { "GlobalAveragePool", NULL },
  { "GlobalMaxPool", NULL }, { "Greater", NULL }, { "GreaterOrEqual", NULL }, { "GridSample", NULL },
  { "HardSigmoid", NULL }, { "HardSwish", NULL }, { "Identity", NULL }, { "InstanceNormalization", NULL },
  { "IsInf", NULL }, { "IsNaN", NULL }, { "LRN", scratch_lrn }, { "LSTM", pv_ort_scratch_lstm },
  { "LayerNormalization", NULL }, { "LeakyRelu", NULL }, { "Less", NULL }, { "LessOrEqual", NULL }, { "Log", NULL },
  { "LogSoftmax", scratch_softmax }, { "LpNormalization", NULL }, { "LpPool", NULL }, { "MatMul", NULL },
  { "Max", scratch_variadic }, { "MaxPool", NULL }, { "Mean", scratch_variadic }, { "Min", scratch_variadic },
  { "Mod", NULL }, { "Mul", NULL }, { "Neg", NULL }, { "NonMaxSuppression", NULL }, { "Not", NULL },
  { "OneHot", NULL }, { "Or", NULL }, { "PRelu", NULL }, { "Pad", NULL }, { "Pow", NULL },
  { "QuantizeLinear", NULL }, { "RMSNormalization", NULL }, { "Range", NULL }, { "Reciprocal", NULL },
  { "ReduceL1", NULL }, { "ReduceL2", NULL }, { "ReduceLogSum", NULL }, { "ReduceLogSumExp", NULL },
  { "ReduceMax", NULL }, { "ReduceMean", NULL }, { "ReduceMin", NULL }, { "ReduceProd", NULL },
  { "ReduceSum", NULL }, { "ReduceSumSquare", NULL }, { "Relu", NULL }, { "Reshape", NULL },
  { "RotaryEmbedding", NULL }, { "Scatter", NULL }, { "ScatterElements", NULL }, { "ScatterND", NULL },
  { "Selu", NULL }, { "Shape", NULL }, { "Shrink", NULL }, { "Sigmoid", NULL }, { "Sign", NULL }, { "Sin", NULL },
  { "Sinh", NULL }, { "Size", NULL }, { "Slice", NULL }, { "Softmax", scratch_softmax }, { "Softplus", NULL },
  { "Softsign", NULL }, { "SpaceToDepth", NULL }, { "Split", NULL }, { "Sqrt", NULL }, { "Squeeze", NULL },
  { "Sub", NULL }, { "Sum", scratch_variadic }, { "Tan", NULL }, { "Tanh", NULL }, { "ThresholdedRelu", NULL },
  { "Tile", NULL }, { "Transpose", NULL }, { "Unique", NULL }, { "Unsqueeze", NULL }, { "Xor", NULL },
};

static int
compare_op (const void *key, const void *entry)
{
  return strcmp (key, ((const ScratchOp *) entry)->op_type);
}

gboolean
pv_ort_kernel_scratch (const PvOrtKernelEnv *env, const PvNode *node, PvOrtScratch *out)
{
  const ScratchOp *op;
  gboolean modelled;

  g_return_val_if_fail (env != NULL && node != NULL && out != NULL, FALSE);
  out->n_steps = 0;
  if (node->domain[0] != '\0')
    return FALSE;
  op = bsearch (node->op_type, scratch_ops, G_N_ELEMENTS (scratch_ops), sizeof scratch_ops[0], compare_op);
  if (op == NULL)
    return FALSE;
  if (op->model == NULL)
    return TRUE;
  modelled = op->model (env, node, out);
  if (!modelled)
    out->n_steps = 0;
  return modelled;
}

gboolean
pv_ort_kernel_scratch_table_sorted (void)
{
  for (gsize i = 1; i < G_N_ELEMENTS (scratch_ops); i++)
    if (strcmp (scratch_ops[i - 1].op_type, scratch_ops[i].op_type) >= 0)
      return FALSE;
  return TRUE;
}
