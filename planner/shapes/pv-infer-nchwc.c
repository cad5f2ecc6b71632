/* pv-infer-nchwc.c: shape rules for ONNX Runtime's NCHWc layout ops (domain
 * "com.microsoft.nchwc"), which its level-3 ("all") NchwcTransformer puts in
 * a saved optimised model: ReorderInput, ReorderOutput and Upsample here;
 * the NCHWc Conv and pools share the ONNX rules (pv-infer-nn.c), as ORT's
 * schemas share ONNX's convPoolShapeInference.
 *
 * Written from ORT's nchwc_schema_defs.cc. ReorderInput pads the channel
 * dim up to MLAS's NCHWc block size, which depends on the CPU: a saved
 * "all" model is only valid on the machine that made it, so the block is the
 * one MLAS picks on this machine. */
#include "pv-infer-dims.h"
#include "pv-shape-inference.h"

/* MLAS's NchwcBlockSize: 16 with AVX-512F kernels, 8 with AVX/AVX2 (and the
 * fallback, where ORT does not run the NCHWc transformer at all). */
gint64
pv_infer_nchwc_block_size (void)
{
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init ();
  if (__builtin_cpu_supports ("avx512f"))
    return 16;
#endif
  return 8;
}

/* The output dims of a reorder of @x, to fill in, or NULL when @x has no
 * channel axis (rank < 2): the output's rank is then unknown, and set so. */
static const PvDimExpr **
reorder_dims (PvInferContext *ctx, const PvValueShape *x)
{
  if (x->rank < 2)
    {
      pv_infer_set_output (ctx, 0, x->elem_type, -1, NULL);
      return NULL;
    }
  return g_new0 (const PvDimExpr *, x->rank);
}

static gboolean
infer_reorder_input (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  gboolean last = pv_infer_attr_int (node, "channels_last", 0) != 0;
  g_autofree const PvDimExpr **dims = NULL;
  gint64 c, b = pv_infer_nchwc_block_size ();
  const PvDimExpr *cd;
  int r;

  if (x == NULL)
    return FALSE;
  if ((dims = reorder_dims (ctx, x)) == NULL)
    return TRUE;
  r = x->rank;
  dims[0] = x->dims[0];
  cd = x->dims[last ? r - 1 : 1];
  dims[1] = is_const (cd, &c) ? cst (ctx, (c + b - 1) / b * b) : pv_infer_fresh (ctx, "nchwc");
  for (int i = 0; i < r - 2; i++)
    dims[2 + i] = x->dims[(last ? 1 : 2) + i];
  pv_infer_set_output (ctx, 0, x->elem_type, r, dims);
  return TRUE;
}

static gboolean
infer_reorder_output (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  gboolean last = pv_infer_attr_int (node, "channels_last", 0) != 0;
  gint64 channels = pv_infer_attr_int (node, "channels", 0);
  g_autofree const PvDimExpr **dims = NULL;
  int r, k = 0;

  if (x == NULL || channels <= 0)
    return FALSE;
  if ((dims = reorder_dims (ctx, x)) == NULL)
    return TRUE;
  r = x->rank;
  dims[k++] = x->dims[0];
  if (!last)
    dims[k++] = cst (ctx, channels);
  for (int i = 0; i < r - 2; i++)
    dims[k++] = x->dims[2 + i];
  if (last)
    dims[k++] = cst (ctx, channels);
  pv_infer_set_output (ctx, 0, x->elem_type, r, dims);
  return TRUE;
}

/* Integer scales per dim, as an attribute (not an input as in ONNX). */
static gboolean
infer_nchwc_upsample (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const gint64 *scales = NULL;
  int n = pv_infer_attr_ints (node, "scales", &scales);
  g_autofree const PvDimExpr **dims = NULL;

  if (x == NULL)
    return FALSE;
  if (x->rank < 2 || n != x->rank)
    {
      pv_infer_set_output (ctx, 0, x->elem_type, -1, NULL);
      return TRUE;
    }
  dims = g_new0 (const PvDimExpr *, x->rank);
  for (int i = 0; i < x->rank; i++)
    dims[i] = or_fresh (ctx, scales[i] > 0 ? d_mul (ctx, x->dims[i], cst (ctx, scales[i])) : NULL, "nchwc");
  pv_infer_set_output (ctx, 0, x->elem_type, x->rank, dims);
  return TRUE;
}

const PvInferOp pv_infer_ops_nchwc[] = {
  { "com.microsoft.nchwc", "ReorderInput", infer_reorder_input },
  { "com.microsoft.nchwc", "ReorderOutput", infer_reorder_output },
  { "com.microsoft.nchwc", "Upsample", infer_nchwc_upsample },
  { NULL },
};
