/* pv-ort-kernel-prepack.c: what a session reserves in ORT's CPU arena
 * before its first run: copied small initializers and pre-packed weights
 * (see pv-ort-kernel-scratch.h). */
#include "pv-ort-kernel-scratch-private.h"

#include <string.h>

#include "pv-element-type.h"

/* Initializers larger than this stay in the model's memory (ORT's
 * kSmallTensorExternalDataThreshold); smaller ones are copied. */
#define SMALL_INITIALIZER_BYTES 127

guint64
pv_ort_mlas_pack_b_bytes (guint64 n, guint64 k)
{
  guint64 aligned_n = (n + 15) & ~(guint64) 15;
  return (aligned_n * k * 4 + 63) & ~(guint64) 63;
}

/* A constant initializer, as ORT's GetConstantInitializer sees it: graph
 * inputs may override initializers from IR version 4 on. */
static gboolean
is_constant (const PvGraph *graph, int value)
{
  guint flags;

  if (value < 0)
    return FALSE;
  flags = graph->values[value].flags;
  return (flags & PV_VALUE_INITIALIZER) &&
         (!(flags & PV_VALUE_GRAPH_INPUT) || graph->constants_listed_as_inputs);
}

/* GemmPackBFp32: a constant 2-D fp32 B. */
static guint64
prepack_gemm_b (const PvOrtKernelEnv *env, const PvNode *node, gboolean trans_b)
{
  gint64 b[PV_ORT_KERNEL_MAX_RANK];

  if (!pv_ort_kernel_has_input (node, 1) || !is_constant (env->graph, node->inputs[1]) ||
      pv_ort_kernel_input_type (env, node, 1) != PV_ELEM_FLOAT || pv_ort_kernel_input_dims (env, node, 1, b) != 2)
    return 0;
  return trans_b ? pv_ort_mlas_pack_b_bytes ((guint64) b[0], (guint64) b[1])
                 : pv_ort_mlas_pack_b_bytes ((guint64) b[1], (guint64) b[0]);
}

/* ConvTranspose<float>::PrePack: the filter transposed per group. */
static guint64
prepack_conv_transpose (const PvOrtKernelEnv *env, const PvNode *node)
{
  gint64 w[PV_ORT_KERNEL_MAX_RANK];
  int rank;
  gint64 groups = MAX (pv_infer_attr_int (node, "group", 1), 1), k, n;

  if (!pv_ort_kernel_has_input (node, 1) || !is_constant (env->graph, node->inputs[1]) ||
      pv_ort_kernel_input_type (env, node, 1) != PV_ELEM_FLOAT)
    return 0;
  rank = pv_ort_kernel_input_dims (env, node, 1, w);
  if (rank <= 2)
    return 0;
  k = w[0] / groups;
  n = pv_ort_kernel_product (w + 1, rank - 1);
  if (n * k == 0 || n == 1 || k == 1)
    return 0;
  return (guint64) (n * k * groups) * 4;
}

/* DeepCpuLstmOp / DeepCpuGruOp TryPackWeights: W and R, each
 * [directions, gates x hidden, K], packed per direction. */
static guint64
prepack_recurrent (const PvOrtKernelEnv *env, const PvNode *node, gint64 gates)
{
  gint64 hidden = pv_infer_attr_int (node, "hidden_size", 0);
  guint64 total = 0;

  for (int k = 1; k <= 2; k++)
    {
      gint64 w[PV_ORT_KERNEL_MAX_RANK];
      if (!pv_ort_kernel_has_input (node, k) || !is_constant (env->graph, node->inputs[k]) ||
          pv_ort_kernel_input_type (env, node, k) != PV_ELEM_FLOAT || pv_ort_kernel_input_dims (env, node, k, w) != 3)
        continue;
      if (w[1] != gates * hidden)
        continue;
      total += pv_ort_mlas_pack_b_bytes ((guint64) w[1], (guint64) w[2]) * (guint64) w[0];
    }
  return total;
}

/* LayerNormImpl::PrePack for MLFloat16: constant scale and bias converted
 * to float32 (ConvertMLFloat16ToFloatIfNeeded, reserved). */
static guint64
prepack_layer_norm (const PvOrtKernelEnv *env, const PvNode *node)
{
  guint64 total = 0;

  for (int k = 1; k <= 2; k++)
    {
      gint64 d[PV_ORT_KERNEL_MAX_RANK];
      int rank;
      if (!pv_ort_kernel_has_input (node, k) || !is_constant (env->graph, node->inputs[k]) ||
          pv_ort_kernel_input_type (env, node, k) != PV_ELEM_FLOAT16)
        continue;
      rank = pv_ort_kernel_input_dims (env, node, k, d);
      if (rank >= 0)
        total += (guint64) pv_ort_kernel_product (d, rank) * 4;
    }
  return total;
}

guint64
pv_ort_kernel_prepack_bytes (const PvOrtKernelEnv *env, const PvNode *node)
{
  g_return_val_if_fail (env != NULL && node != NULL, 0);
  /* Most nodes pre-pack nothing: one look at the first letter. */
  if (node->domain[0] != '\0' || !strchr ("GMCL", node->op_type[0]))
    return 0;
  if (g_str_equal (node->op_type, "Gemm"))
    return prepack_gemm_b (env, node, pv_infer_attr_int (node, "transB", 0) != 0);
  if (g_str_equal (node->op_type, "MatMul"))
    return prepack_gemm_b (env, node, FALSE);
  if (g_str_equal (node->op_type, "ConvTranspose"))
    return prepack_conv_transpose (env, node);
  if (g_str_equal (node->op_type, "LayerNormalization"))
    return prepack_layer_norm (env, node);
  if (g_str_equal (node->op_type, "LSTM"))
    return prepack_recurrent (env, node, 4);
  return 0;
}

/* Bytes of initializers @graph copies, and of its nodes' pre-packs, then
 * the same for every subgraph (each has a session state of its own). */
guint64
pv_ort_session_reserved_bytes (const PvOrtKernelEnv *env, const PvGraph *graph)
{
  PvOrtKernelEnv sub = *env;
  guint64 total = 0;

  g_return_val_if_fail (env != NULL && graph != NULL, 0);
  sub.graph = graph;
  for (int i = 0; i < graph->n_initializers; i++)
    {
      int v = graph->initializers[i];
      guint64 bytes;
      if (graph->values[v].n_consumers == 0 || !(graph->values[v].flags & PV_VALUE_INITIALIZER))
        continue;
      if (env->shapes && pv_shape_info_eval_bytes (env->shapes, graph, v, env->bounds, &bytes, NULL) &&
          bytes <= SMALL_INITIALIZER_BYTES)
        total += bytes;
    }
  for (int n = 0; n < graph->n_nodes; n++)
    {
      total += pv_ort_kernel_prepack_bytes (&sub, &graph->nodes[n]);
      for (int s = 0; s < graph->nodes[n].n_subgraphs; s++)
        total += pv_ort_session_reserved_bytes (&sub, graph->nodes[n].subgraphs[s]);
    }
  return total;
}
