/* pv-gen-models: write the sample and benchmark ONNX models.
 *
 *   pv-gen-models --samples OUTDIR        the models committed in data/
 *   pv-gen-models --compare DIR           check DIR's samples are up to date
 *   pv-gen-models --synthetic --nodes N [--seed S] [--hidden H] OUT.onnx
 *   pv-gen-models --big-weights MB OUT.onnx
 *   pv-gen-models --external OUT.onnx     (also writes weights.bin next to it)
 *
 * Everything is deterministic: weights come from a fixed LCG, so the samples
 * are byte-for-byte reproducible and data/ can be checked against this tool.
 * Graphs are shaped and named the way torch.onnx exports them ("/fc1/Gemm",
 * "/fc1/Gemm_output_0", Constant nodes feeding Gather and Unsqueeze, ...)
 * because that is what planviz meets in practice; a few nodes are left
 * unnamed, as some exporters do, so that ORT's automatic naming matters.
 */

#include <glib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pv-onnx-builder.h"

#define IR_VERSION 8
#define OPSET 17

#define T_FLOAT ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define T_INT64 ONNX__TENSOR_PROTO__DATA_TYPE__INT64
#define T_BOOL ONNX__TENSOR_PROTO__DATA_TYPE__BOOL

#define IN PV_ONNX_NAMES
#define DIMS(...) ((const gint64[]) { __VA_ARGS__ }), (sizeof ((const gint64[]) { __VA_ARGS__ }) / sizeof (gint64))
#define INTS(...) DIMS (__VA_ARGS__)
#define OUT(node) ((const char *) (node)->output[0])

/* Generation state */

typedef struct
{
  PvOnnxBuilder *builder;
  PvOnnxGraph *graph;      /* where nodes go; switched for subgraph bodies */
  GStringChunk *strings;   /* names live here until the model is written */
  GHashTable *op_counts;   /* "<scope>/<Op>" -> uses, for "_1", "_2" suffixes */
  guint value_counter;     /* for the "onnx::<Op>_<n>" names of unnamed nodes */
  guint64 weights_rng;
  guint64 naming_rng;
  guint unnamed_permille;  /* synthetic graphs: share of nodes left unnamed */
} Gen;

static guint64
lcg_next (guint64 *state)
{
  /* Knuth's MMIX constants; the top bits are the good ones. */
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return *state >> 40;  /* 24 bits */
}

/* Uniform in [-1, 1); exact in float arithmetic, so identical everywhere. */
static float
lcg_uniform (guint64 *state)
{
  return (float) lcg_next (state) / 8388608.0f - 1.0f;
}

static void
gen_init (Gen *g, guint64 seed)
{
  memset (g, 0, sizeof *g);
  g->builder = pv_onnx_builder_new (IR_VERSION, "pv-gen-models");
  /* A fixed version, not planviz's: the samples must not change on release. */
  pv_onnx_builder_set_producer_version (g->builder, "1");
  pv_onnx_builder_add_opset (g->builder, "", OPSET);
  g->graph = pv_onnx_builder_get_graph (g->builder);
  g->strings = g_string_chunk_new (64 * 1024);
  g->op_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g->value_counter = 100;
  g->weights_rng = 0x9E3779B97F4A7C15ULL ^ seed;
  g->naming_rng = 0xD1B54A32D192ED03ULL ^ seed;
}

static PvOnnxBuilder *
gen_finish (Gen *g)
{
  g_string_chunk_free (g->strings);
  g_hash_table_destroy (g->op_counts);
  return g->builder;
}

static const char *G_GNUC_PRINTF (2, 3)
gen_str (Gen *g, const char *format, ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  return g_string_chunk_insert (g->strings, text);
}

/* Adds a node named as torch.onnx names it: "<scope>/<Op>", then
 * "<scope>/<Op>_1", ... with output "<name>_output_0" (or output, if given).
 * scope "" is the top-level module; scope NULL leaves the node unnamed, with
 * an output named "onnx::<Op>_<n>" like older exporters. */
static PvOnnxNode *
node_to (Gen *g, const char *scope, const char *op_type, const char *const *inputs, const char *output)
{
  const char *name = NULL;

  if (scope && g->unnamed_permille &&
      lcg_next (&g->naming_rng) % 1000 < g->unnamed_permille)
    scope = NULL;

  if (scope)
    {
      char *key = g_strdup_printf ("%s/%s", scope, op_type);
      guint uses = GPOINTER_TO_UINT (g_hash_table_lookup (g->op_counts, key));

      name = uses ? gen_str (g, "%s_%u", key, uses) : gen_str (g, "%s", key);
      g_hash_table_replace (g->op_counts, key, GUINT_TO_POINTER (uses + 1));
    }
  if (!output)
    output = name ? gen_str (g, "%s_output_0", name)
                  : gen_str (g, "onnx::%s_%u", op_type, g->value_counter++);

  return pv_onnx_graph_add_node (g->graph, op_type, name, inputs, IN (output));
}

static PvOnnxNode *
node (Gen *g, const char *scope, const char *op_type, const char *const *inputs)
{
  return node_to (g, scope, op_type, inputs, NULL);
}

/* Initializer names for weights torch folds (e.g. a transposed Linear
 * weight): "onnx::MatMul_<n>". */
static const char *
folded_name (Gen *g, const char *consumer)
{
  return gen_str (g, "onnx::%s_%u", consumer, g->value_counter++);
}

/* A float initializer with values offset + scale * U[-1, 1). */
static const char *
weight (Gen *g, const char *name, const gint64 *dims, gsize n_dims, float offset, float scale)
{
  gsize n = 1;
  g_autofree float *values = NULL;

  for (gsize i = 0; i < n_dims; i++)
    n *= (gsize) dims[i];
  values = g_new (float, n);
  for (gsize i = 0; i < n; i++)
    values[i] = offset + scale * lcg_uniform (&g->weights_rng);
  pv_onnx_graph_add_initializer_floats (g->graph, name, dims, n_dims, values);
  return name;
}

/* Constant nodes holding int64s, as torch.onnx emits for indices, axes and
 * shape pieces. n_dims 0 is a scalar. */
static const char *
const_i64 (Gen *g, const char *scope, const gint64 *dims, gsize n_dims, const gint64 *values)
{
  PvOnnxNode *n = node (g, scope, "Constant", NULL);

  pv_onnx_node_add_attr_tensor_int64s (n, "value", dims, n_dims, values);
  return OUT (n);
}

static const char *
const_i64_scalar (Gen *g, const char *scope, gint64 value)
{
  return const_i64 (g, scope, NULL, 0, &value);
}

static const char *
const_i64_1d (Gen *g, const char *scope, gint64 value)
{
  return const_i64 (g, scope, DIMS (1), &value);
}

static const char *
const_f32_scalar (Gen *g, const char *scope, float value)
{
  PvOnnxNode *n = node (g, scope, "Constant", NULL);

  pv_onnx_node_add_attr_tensor_floats (n, "value", NULL, 0, &value);
  return OUT (n);
}

/* Layers */

/* nn.Linear on a 2-D input: Gemm with the weight as stored, [out, in]. */
static const char *
linear_gemm (Gen *g, const char *module, const char *x, gint64 in, gint64 out, const char *output)
{
  const char *scope = gen_str (g, "/%s", module);
  const char *w = weight (g, gen_str (g, "%s.weight", module), DIMS (out, in), 0.0f, 1.0f / sqrtf ((float) in));
  const char *b = weight (g, gen_str (g, "%s.bias", module), DIMS (out), 0.0f, 0.1f);
  PvOnnxNode *n = node_to (g, scope, "Gemm", IN (x, w, b), output);

  pv_onnx_node_add_attr_float (n, "alpha", 1.0f);
  pv_onnx_node_add_attr_float (n, "beta", 1.0f);
  pv_onnx_node_add_attr_int (n, "transB", 1);
  return OUT (n);
}

/* nn.Linear on a 3-D input: MatMul with the folded transposed weight
 * [in, out], then Add with the bias first, as torch.onnx writes it. */
static const char *
linear_matmul (Gen *g, const char *module_scope, const char *param_prefix,
               const char *x, gint64 in, gint64 out)
{
  const char *w = weight (g, folded_name (g, "MatMul"), DIMS (in, out), 0.0f, 1.0f / sqrtf ((float) in));
  const char *b = weight (g, gen_str (g, "%sbias", param_prefix), DIMS (out), 0.0f, 0.02f);
  const char *mm = OUT (node (g, module_scope, "MatMul", IN (x, w)));

  return OUT (node (g, module_scope, "Add", IN (b, mm)));
}

static const char *
layer_norm (Gen *g, const char *module_scope, const char *param_prefix, const char *x, gint64 d, const char *output)
{
  const char *scale = weight (g, gen_str (g, "%sweight", param_prefix), DIMS (d), 1.0f, 0.05f);
  const char *bias = weight (g, gen_str (g, "%sbias", param_prefix), DIMS (d), 0.0f, 0.05f);
  PvOnnxNode *n = node_to (g, module_scope, "LayerNormalization", IN (x, scale, bias), output);

  pv_onnx_node_add_attr_int (n, "axis", -1);
  pv_onnx_node_add_attr_float (n, "epsilon", 1e-5f);
  return OUT (n);
}

static const char *
conv (Gen *g, const char *module, const char *x, gint64 in, gint64 out, gint64 k)
{
  const char *scope = gen_str (g, "/%s", module);
  const char *w = weight (g, gen_str (g, "%s.weight", module), DIMS (out, in, k, k),
                          0.0f, 1.0f / sqrtf ((float) (in * k * k)));
  const char *b = weight (g, gen_str (g, "%s.bias", module), DIMS (out), 0.0f, 0.1f);
  PvOnnxNode *n = node (g, scope, "Conv", IN (x, w, b));
  gint64 pad = k / 2;

  pv_onnx_node_add_attr_ints (n, "dilations", INTS (1, 1));
  pv_onnx_node_add_attr_int (n, "group", 1);
  pv_onnx_node_add_attr_ints (n, "kernel_shape", INTS (k, k));
  pv_onnx_node_add_attr_ints (n, "pads", INTS (pad, pad, pad, pad));
  pv_onnx_node_add_attr_ints (n, "strides", INTS (1, 1));
  return OUT (n);
}

static const char *
batch_norm (Gen *g, const char *module, const char *x, gint64 c)
{
  const char *scope = gen_str (g, "/%s", module);
  const char *scale = weight (g, gen_str (g, "%s.weight", module), DIMS (c), 1.0f, 0.1f);
  const char *bias = weight (g, gen_str (g, "%s.bias", module), DIMS (c), 0.0f, 0.1f);
  const char *mean = weight (g, gen_str (g, "%s.running_mean", module), DIMS (c), 0.0f, 0.1f);
  const char *var = weight (g, gen_str (g, "%s.running_var", module), DIMS (c), 1.0f, 0.5f);
  PvOnnxNode *n = node (g, scope, "BatchNormalization", IN (x, scale, bias, mean, var));

  pv_onnx_node_add_attr_float (n, "epsilon", 1e-5f);
  pv_onnx_node_add_attr_float (n, "momentum", 0.9f);
  pv_onnx_node_add_attr_int (n, "training_mode", 0);
  return OUT (n);
}

static const char *
max_pool (Gen *g, const char *scope, const char *x, gint64 k, gint64 stride, gint64 pad)
{
  PvOnnxNode *n = node (g, scope, "MaxPool", IN (x));

  pv_onnx_node_add_attr_int (n, "ceil_mode", 0);
  pv_onnx_node_add_attr_ints (n, "dilations", INTS (1, 1));
  pv_onnx_node_add_attr_ints (n, "kernel_shape", INTS (k, k));
  pv_onnx_node_add_attr_ints (n, "pads", INTS (pad, pad, pad, pad));
  pv_onnx_node_add_attr_ints (n, "strides", INTS (stride, stride));
  return OUT (n);
}

static const char *
transpose (Gen *g, const char *scope, const char *x, const gint64 *perm, gsize n_perm)
{
  PvOnnxNode *n = node (g, scope, "Transpose", IN (x));

  pv_onnx_node_add_attr_ints (n, "perm", perm, n_perm);
  return OUT (n);
}

/* x.size(axis): Shape, then Gather with a Constant scalar index. */
static const char *
size_of (Gen *g, const char *scope, const char *x, gint64 axis)
{
  const char *shape = OUT (node (g, scope, "Shape", IN (x)));
  const char *index = const_i64_scalar (g, scope, axis);
  PvOnnxNode *n = node (g, scope, "Gather", IN (shape, index));

  pv_onnx_node_add_attr_int (n, "axis", 0);
  return OUT (n);
}

/* x.view(B, T, a[, b]) with B, T traced from x.size(): each view call gets
 * its own Unsqueeze/Concat over the shared Gather outputs and fresh Constant
 * nodes for axes and literal sizes, as torch.onnx writes it. A NULL scope for
 * the axes constants leaves those nodes unnamed. */
static const char *
view_bt (Gen *g, const char *scope, const char *axes_scope, const char *x,
         const char *batch, const char *seq, gint64 a, gint64 b)
{
  const char *ub = OUT (node (g, scope, "Unsqueeze", IN (batch, const_i64_1d (g, axes_scope, 0))));
  const char *us = OUT (node (g, scope, "Unsqueeze", IN (seq, const_i64_1d (g, axes_scope, 0))));
  const char *ca = const_i64_1d (g, scope, a);
  const char *cb = b > 0 ? const_i64_1d (g, scope, b) : NULL;
  PvOnnxNode *n = node (g, scope, "Concat", IN (ub, us, ca, cb));  /* cb NULL ends the list */

  pv_onnx_node_add_attr_int (n, "axis", 0);
  n = node (g, scope, "Reshape", IN (x, OUT (n)));
  pv_onnx_node_add_attr_int (n, "allowzero", 0);
  return OUT (n);
}

/* One pre-LayerNorm transformer encoder block over [batch, seq, d]:
 *   x + attn (ln1 (x)), then h + mlp (ln2 (h)) with an Erf GELU.
 * mod is the block's module scope ("" or "/layers.3"), params its parameter
 * prefix ("" or "layers.3."). sample adds the unnamed nodes and value_info
 * entries of transformer.onnx. */
static const char *
encoder_block (Gen *g, const char *mod, const char *params, const char *x,
               gint64 d, gint64 heads, gint64 ff, const char *output, gboolean sample)
{
  gint64 hd = d / heads;
  const char *attn = gen_str (g, "%s/attn", mod);
  const char *act = gen_str (g, "%s/mlp/act", mod);
  const char *ln1, *q, *k, *v, *batch, *seq, *scores, *probs, *ctx, *h, *ln2, *m, *gelu;
  PvOnnxNode *n;

  ln1 = layer_norm (g, gen_str (g, "%s/ln1", mod), gen_str (g, "%sln1.", params), x, d, NULL);
  q = linear_matmul (g, gen_str (g, "%s/attn/q_proj", mod), gen_str (g, "%sattn.q_proj.", params), ln1, d, d);
  k = linear_matmul (g, gen_str (g, "%s/attn/k_proj", mod), gen_str (g, "%sattn.k_proj.", params), ln1, d, d);
  v = linear_matmul (g, gen_str (g, "%s/attn/v_proj", mod), gen_str (g, "%sattn.v_proj.", params), ln1, d, d);

  /* B, T = x.size(0), x.size(1) */
  batch = size_of (g, attn, ln1, 0);
  seq = size_of (g, attn, ln1, 1);

  /* [B, T, d] -> [B, heads, T, hd]; k goes straight to [B, heads, hd, T]
   * because torch.onnx fuses the two transposes of k.transpose(-2, -1). */
  q = view_bt (g, attn, attn, q, batch, seq, heads, hd);
  if (sample)
    pv_onnx_graph_add_value_info (g->graph, q, T_FLOAT, gen_str (g, "batch,seq,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT, heads, hd));
  q = transpose (g, attn, q, INTS (0, 2, 1, 3));
  k = transpose (g, attn, view_bt (g, attn, sample ? NULL : attn, k, batch, seq, heads, hd), INTS (0, 2, 3, 1));
  v = transpose (g, attn, view_bt (g, attn, attn, v, batch, seq, heads, hd), INTS (0, 2, 1, 3));

  scores = OUT (node (g, attn, "MatMul", IN (q, k)));
  scores = OUT (node (g, attn, "Div", IN (scores, const_f32_scalar (g, attn, sqrtf ((float) hd)))));
  n = node (g, sample ? NULL : attn, "Softmax", IN (scores));
  pv_onnx_node_add_attr_int (n, "axis", -1);
  probs = OUT (n);
  if (sample)
    pv_onnx_graph_add_value_info (g->graph, probs, T_FLOAT, gen_str (g, "batch,%" G_GINT64_FORMAT ",seq,seq", heads));
  ctx = OUT (node (g, attn, "MatMul", IN (probs, v)));
  ctx = transpose (g, attn, ctx, INTS (0, 2, 1, 3));
  ctx = view_bt (g, attn, attn, ctx, batch, seq, d, 0);
  ctx = linear_matmul (g, gen_str (g, "%s/attn/out_proj", mod), gen_str (g, "%sattn.out_proj.", params), ctx, d, d);
  h = OUT (node (g, mod, "Add", IN (x, ctx)));

  ln2 = layer_norm (g, gen_str (g, "%s/ln2", mod), gen_str (g, "%sln2.", params), h, d, NULL);
  m = linear_matmul (g, gen_str (g, "%s/mlp/fc1", mod), gen_str (g, "%smlp.fc1.", params), ln2, d, ff);
  /* GELU(x) = x * (1 + erf (x / sqrt 2)) * 0.5, the opset < 20 export. */
  gelu = OUT (node (g, act, "Div", IN (m, const_f32_scalar (g, act, (float) G_SQRT2))));
  gelu = OUT (node (g, act, "Erf", IN (gelu)));
  gelu = OUT (node (g, act, "Add", IN (gelu, const_f32_scalar (g, act, 1.0f))));
  gelu = OUT (node (g, act, "Mul", IN (m, gelu)));
  gelu = OUT (node (g, act, "Mul", IN (gelu, const_f32_scalar (g, act, 0.5f))));
  m = linear_matmul (g, gen_str (g, "%s/mlp/fc2", mod), gen_str (g, "%smlp.fc2.", params), gelu, ff, d);
  return OUT (node_to (g, mod, "Add", IN (h, m), output));
}

/* Sample models */

static PvOnnxBuilder *
build_mlp (void)
{
  Gen g;
  const char *h;

  gen_init (&g, 1);
  pv_onnx_graph_add_input (g.graph, "input", T_FLOAT, "batch,784");
  h = linear_gemm (&g, "fc1", "input", 784, 64, NULL);
  h = OUT (node (&g, "/act1", "Relu", IN (h)));
  h = linear_gemm (&g, "fc2", h, 64, 64, NULL);
  h = OUT (node (&g, NULL, "Relu", IN (h)));
  h = linear_gemm (&g, "fc3", h, 64, 32, NULL);
  h = OUT (node (&g, "/act3", "Relu", IN (h)));
  h = linear_gemm (&g, "head", h, 32, 10, NULL);
  pv_onnx_node_add_attr_int (node_to (&g, NULL, "Softmax", IN (h), "output"), "axis", 1);
  pv_onnx_graph_add_output (g.graph, "output", T_FLOAT, "batch,10");
  return gen_finish (&g);
}

static PvOnnxBuilder *
build_cnn (void)
{
  Gen g;
  const char *h;

  gen_init (&g, 2);
  pv_onnx_graph_add_input (g.graph, "input", T_FLOAT, "1,3,32,32");
  h = conv (&g, "conv1", "input", 3, 16, 3);
  h = batch_norm (&g, "bn1", h, 16);
  h = OUT (node (&g, "/relu1", "Relu", IN (h)));
  h = max_pool (&g, "/pool", h, 2, 2, 0);
  h = conv (&g, "conv2", h, 16, 32, 3);
  h = batch_norm (&g, "bn2", h, 32);
  h = OUT (node (&g, NULL, "Relu", IN (h)));
  h = OUT (node (&g, "/gap", "GlobalAveragePool", IN (h)));
  pv_onnx_node_add_attr_int (node (&g, "", "Flatten", IN (h)), "axis", 1);
  h = OUT (g.graph->node[g.graph->n_node - 1]);
  linear_gemm (&g, "fc", h, 32, 10, "output");
  pv_onnx_graph_add_output (g.graph, "output", T_FLOAT, "1,10");
  return gen_finish (&g);
}

static PvOnnxBuilder *
build_transformer (void)
{
  Gen g;

  gen_init (&g, 3);
  pv_onnx_graph_add_input (g.graph, "x", T_FLOAT, "batch,seq,64");
  encoder_block (&g, "", "", "x", 64, 4, 256, "output", TRUE);
  pv_onnx_graph_add_output (g.graph, "output", T_FLOAT, "batch,seq,64");
  return gen_finish (&g);
}

static PvOnnxBuilder *
build_if_outer_scope (void)
{
  Gen g;
  PvOnnxGraph *root, *then_branch, *else_branch;
  const char *h, *cond, *y, *w;
  PvOnnxNode *n;

  gen_init (&g, 4);
  root = g.graph;
  pv_onnx_graph_add_input (root, "x", T_FLOAT, "batch,8");
  h = linear_matmul (&g, "/fc", "fc.", "x", 8, 8);
  weight (&g, "gate.bias", DIMS (8), 0.0f, 0.1f);

  /* cond = x.sum () > 0 */
  n = node (&g, "", "ReduceSum", IN ("x"));
  pv_onnx_node_add_attr_int (n, "keepdims", 0);
  cond = OUT (node (&g, "", "Greater", IN (OUT (n), const_f32_scalar (&g, "", 0.0f))));

  /* Both branches read h and gate.bias from the outer scope: neither is a
   * branch input, which is what makes them outer-scope values. */
  g.graph = then_branch = pv_onnx_graph_new ("then_branch");
  y = OUT (node (&g, "/then", "Add", IN (h, "gate.bias")));
  y = OUT (node (&g, "/then", "Relu", IN (y)));
  pv_onnx_graph_add_output (then_branch, y, T_FLOAT, "batch,8");

  g.graph = else_branch = pv_onnx_graph_new ("else_branch");
  y = OUT (node (&g, "/else", "Mul", IN (h, const_f32_scalar (&g, "/else", 0.5f))));
  y = OUT (node (&g, NULL, "Sub", IN (y, "gate.bias")));
  pv_onnx_graph_add_output (else_branch, y, T_FLOAT, "batch,8");

  g.graph = root;
  n = node (&g, "", "If", IN (cond));
  pv_onnx_node_add_attr_graph (n, "else_branch", else_branch);
  pv_onnx_node_add_attr_graph (n, "then_branch", then_branch);
  y = OUT (n);

  w = weight (&g, folded_name (&g, "MatMul"), DIMS (8, 4), 0.0f, 0.35f);
  node_to (&g, "/head", "MatMul", IN (y, w), "output");
  pv_onnx_graph_add_output (root, "output", T_FLOAT, "batch,4");
  return gen_finish (&g);
}

/* An If on an input's value, as audio models test their sample rate: 16 kHz
 * audio passes on, anything else is doubled in length (another shape). Only
 * --input-value sr=16000 (or the Bounds popover) tells the shapes. */
static PvOnnxBuilder *
build_if_sample_rate (void)
{
  Gen g;
  PvOnnxGraph *root, *then_branch, *else_branch;
  const char *cond, *y;
  PvOnnxNode *n;

  gen_init (&g, 8);
  root = g.graph;
  pv_onnx_graph_add_input (root, "audio", T_FLOAT, "1,samples");
  pv_onnx_graph_add_input (root, "sr", T_INT64, "");
  cond = OUT (node (&g, "/rate", "Equal", IN ("sr", const_i64_scalar (&g, "/rate", 16000))));

  g.graph = then_branch = pv_onnx_graph_new ("then_branch");
  y = OUT (node (&g, "/keep", "Identity", IN ("audio")));
  pv_onnx_graph_add_output (then_branch, y, T_FLOAT, "1,samples");

  g.graph = else_branch = pv_onnx_graph_new ("else_branch");
  n = node (&g, "/resample", "Concat", IN ("audio", "audio"));
  pv_onnx_node_add_attr_int (n, "axis", 1);
  pv_onnx_graph_add_output (else_branch, OUT (n), T_FLOAT, "1,?");

  g.graph = root;
  n = node (&g, "", "If", IN (cond));
  pv_onnx_node_add_attr_graph (n, "else_branch", else_branch);
  pv_onnx_node_add_attr_graph (n, "then_branch", then_branch);
  y = OUT (node (&g, "/features", "Abs", IN (OUT (n))));
  node_to (&g, "/features", "Sqrt", IN (y), "features");
  pv_onnx_graph_add_output (root, "features", T_FLOAT, "1,?");
  return gen_finish (&g);
}

static PvOnnxBuilder *
build_wide_branches (void)
{
  Gen g;
  const char *b0, *b1, *b2, *b3, *h;
  PvOnnxNode *n;

  gen_init (&g, 5);
  pv_onnx_graph_add_input (g.graph, "input", T_FLOAT, "1,16,32,32");

  /* Four independent Inception-style branches: a multi-stream partitioner
   * can run them concurrently. */
  b0 = conv (&g, "branch0/conv", "input", 16, 8, 1);
  b0 = OUT (node (&g, "/branch0/relu", "Relu", IN (b0)));

  b1 = conv (&g, "branch1/conv1", "input", 16, 8, 1);
  b1 = OUT (node (&g, "/branch1/relu1", "Relu", IN (b1)));
  b1 = conv (&g, "branch1/conv2", b1, 8, 8, 3);
  b1 = OUT (node (&g, "/branch1/relu2", "Relu", IN (b1)));

  b2 = conv (&g, "branch2/conv1", "input", 16, 8, 1);
  b2 = OUT (node (&g, "/branch2/relu1", "Relu", IN (b2)));
  b2 = conv (&g, "branch2/conv2", b2, 8, 8, 3);
  b2 = OUT (node (&g, NULL, "Relu", IN (b2)));
  b2 = conv (&g, "branch2/conv3", b2, 8, 8, 3);
  b2 = OUT (node (&g, "/branch2/relu3", "Relu", IN (b2)));

  b3 = max_pool (&g, "/branch3/pool", "input", 3, 1, 1);
  b3 = conv (&g, "branch3/conv", b3, 16, 8, 1);
  b3 = OUT (node (&g, NULL, "Relu", IN (b3)));

  n = node (&g, "", "Concat", IN (b0, b1, b2, b3));
  pv_onnx_node_add_attr_int (n, "axis", 1);
  h = conv (&g, "fuse", OUT (n), 32, 16, 1);
  h = OUT (node (&g, "", "Add", IN (h, "input")));
  node_to (&g, "", "Relu", IN (h), "output");
  pv_onnx_graph_add_output (g.graph, "output", T_FLOAT, "1,16,32,32");
  return gen_finish (&g);
}

static PvOnnxBuilder *
build_loop (void)
{
  Gen g;
  PvOnnxGraph *root, *body;
  const char *scaled, *acc, *cond, *carry, *i_f, *scan;
  PvOnnxNode *n;
  const guint8 keep_going = 1;

  gen_init (&g, 6);
  root = g.graph;
  pv_onnx_graph_add_input (root, "x", T_FLOAT, "4");
  pv_onnx_graph_add_initializer_int64s (root, "max_trip_count", NULL, 0, (const gint64[]) { 3 });
  pv_onnx_graph_add_initializer (root, "keep_going", T_BOOL, NULL, 0, &keep_going, 1);
  scaled = OUT (node (&g, "", "Mul", IN ("x", const_f32_scalar (&g, "", 0.5f))));

  g.graph = body = pv_onnx_graph_new ("loop_body");
  pv_onnx_graph_add_input (body, "iteration_num", T_INT64, "");
  pv_onnx_graph_add_input (body, "cond_in", T_BOOL, "");
  pv_onnx_graph_add_input (body, "acc_in", T_FLOAT, "4");
  pv_onnx_graph_add_input (body, "carry_in", T_FLOAT, "4");
  /* scaled comes from the outer graph without being a body input. */
  acc = OUT (node (&g, "/body", "Add", IN ("acc_in", scaled)));
  cond = OUT (node (&g, "/body", "Identity", IN ("cond_in")));
  /* A loop-carried value passed through unchanged by an Identity. */
  carry = OUT (node (&g, NULL, "Identity", IN ("carry_in")));
  n = node (&g, "/body", "Cast", IN ("iteration_num"));
  pv_onnx_node_add_attr_int (n, "to", T_FLOAT);
  i_f = OUT (n);
  scan = OUT (node (&g, "/body", "Mul", IN (acc, i_f)));
  pv_onnx_graph_add_output (body, cond, T_BOOL, "");
  pv_onnx_graph_add_output (body, acc, T_FLOAT, "4");
  pv_onnx_graph_add_output (body, carry, T_FLOAT, "4");
  pv_onnx_graph_add_output (body, scan, T_FLOAT, "4");

  g.graph = root;
  n = pv_onnx_graph_add_node (root, "Loop", "/Loop",
                              IN ("max_trip_count", "keep_going", "x", "x"),
                              IN ("/Loop_output_0", "/Loop_output_1", "history"));
  pv_onnx_node_add_attr_graph (n, "body", body);
  node_to (&g, "", "Add", IN ("/Loop_output_0", "/Loop_output_1"), "output");
  pv_onnx_graph_add_output (root, "output", T_FLOAT, "4");
  pv_onnx_graph_add_output (root, "history", T_FLOAT, "?,4");
  return gen_finish (&g);
}

/* A small recurrent cell: a Loop whose body holds an If (nested control
 * flow), then an If on the main graph. Bodies read weights and values from
 * the outer scope, as exporters emit them. */
static PvOnnxBuilder *
build_control_flow (void)
{
  Gen g;
  PvOnnxGraph *root, *body, *then_branch, *else_branch;
  const char *h0, *w_rec, *m, *a, *r, *positive, *cond, *state, *y, *flag;
  PvOnnxNode *n;
  const guint8 keep_going = 1;

  gen_init (&g, 8);
  root = g.graph;
  pv_onnx_graph_add_input (root, "x", T_FLOAT, "1,16");
  pv_onnx_graph_add_initializer_int64s (root, "trip_count", NULL, 0, (const gint64[]) { 4 });
  pv_onnx_graph_add_initializer (root, "keep_going", T_BOOL, NULL, 0, &keep_going, 1);
  h0 = OUT (node (&g, "/input", "MatMul", IN ("x", weight (&g, "input.weight", DIMS (16, 16), 0.0f, 0.25f))));
  w_rec = weight (&g, "cell.weight", DIMS (16, 16), 0.0f, 0.25f);

  /* The Loop body: state = relu-or-halve (state @ W + h0). */
  g.graph = body = pv_onnx_graph_new ("loop_body");
  pv_onnx_graph_add_input (body, "iteration_num", T_INT64, "");
  pv_onnx_graph_add_input (body, "cond_in", T_BOOL, "");
  pv_onnx_graph_add_input (body, "state_in", T_FLOAT, "1,16");
  m = OUT (node (&g, "/cell", "MatMul", IN ("state_in", w_rec)));
  a = OUT (node (&g, "/cell", "Add", IN (m, h0)));
  n = node (&g, "/cell", "ReduceSum", IN (a));
  pv_onnx_node_add_attr_int (n, "keepdims", 0);
  r = OUT (n);
  positive = OUT (node (&g, "/cell", "Greater", IN (r, const_f32_scalar (&g, "/cell", 0.0f))));
  cond = OUT (node (&g, "/cell", "Identity", IN ("cond_in")));

  g.graph = then_branch = pv_onnx_graph_new ("cell_then");
  y = OUT (node (&g, "/cell/then", "Relu", IN (a)));
  pv_onnx_graph_add_output (then_branch, y, T_FLOAT, "1,16");
  g.graph = else_branch = pv_onnx_graph_new ("cell_else");
  y = OUT (node (&g, "/cell/else", "Mul", IN (a, const_f32_scalar (&g, "/cell/else", 0.5f))));
  y = OUT (node (&g, "/cell/else", "Tanh", IN (y)));
  pv_onnx_graph_add_output (else_branch, y, T_FLOAT, "1,16");

  g.graph = body;
  n = node (&g, "/cell", "If", IN (positive));
  pv_onnx_node_add_attr_graph (n, "then_branch", then_branch);
  pv_onnx_node_add_attr_graph (n, "else_branch", else_branch);
  state = OUT (n);
  y = OUT (node (&g, "/cell", "Sigmoid", IN (state)));
  pv_onnx_graph_add_output (body, cond, T_BOOL, "");
  pv_onnx_graph_add_output (body, state, T_FLOAT, "1,16");
  pv_onnx_graph_add_output (body, y, T_FLOAT, "1,16");

  g.graph = root;
  n = pv_onnx_graph_add_node (root, "Loop", "/Loop", IN ("trip_count", "keep_going", h0),
                              IN ("/Loop_output_0", "gates"));
  pv_onnx_node_add_attr_graph (n, "body", body);

  /* Then a head chosen by the input's mean. */
  n = node (&g, "", "ReduceMean", IN ("x"));
  pv_onnx_node_add_attr_int (n, "keepdims", 0);
  flag = OUT (node (&g, "", "Greater", IN (OUT (n), const_f32_scalar (&g, "", 0.0f))));
  g.graph = then_branch = pv_onnx_graph_new ("head_then");
  n = node (&g, "/head/then", "Softmax", IN ("/Loop_output_0"));
  pv_onnx_node_add_attr_int (n, "axis", -1);
  pv_onnx_graph_add_output (then_branch, OUT (n), T_FLOAT, "1,16");
  g.graph = else_branch = pv_onnx_graph_new ("head_else");
  y = OUT (node (&g, "/head/else", "Sigmoid", IN ("/Loop_output_0")));
  pv_onnx_graph_add_output (else_branch, y, T_FLOAT, "1,16");
  g.graph = root;
  n = pv_onnx_graph_add_node (root, "If", "/head/If", IN (flag), IN ("output"));
  pv_onnx_node_add_attr_graph (n, "then_branch", then_branch);
  pv_onnx_node_add_attr_graph (n, "else_branch", else_branch);
  pv_onnx_graph_add_output (root, "output", T_FLOAT, "1,16");
  pv_onnx_graph_add_output (root, "gates", T_FLOAT, "4,1,16");
  return gen_finish (&g);
}

typedef PvOnnxBuilder *(*SampleBuildFunc) (void);

static const struct
{
  const char *file;
  SampleBuildFunc build;
} samples[] = {
  { "mlp.onnx", build_mlp },
  { "cnn.onnx", build_cnn },
  { "transformer.onnx", build_transformer },
  { "if_outer_scope.onnx", build_if_outer_scope },
  { "wide_branches.onnx", build_wide_branches },
  { "loop.onnx", build_loop },
  { "control_flow.onnx", build_control_flow },
  { "if_sample_rate.onnx", build_if_sample_rate },
};

/* Benchmark models */

static PvOnnxBuilder *
build_synthetic (gint64 n_nodes, guint64 seed, gint64 hidden)
{
  Gen g;
  PvOnnxGraph *graph;
  const char *h;
  gint64 block_nodes = 0;
  gsize before;

  gen_init (&g, seed);
  graph = g.graph;
  g.unnamed_permille = 30;
  pv_onnx_graph_add_input (graph, "x", T_FLOAT, gen_str (&g, "batch,seq,%" G_GINT64_FORMAT, hidden));
  h = "x";

  /* Whole blocks while they fit, leaving room for the final LayerNorm. */
  for (guint i = 0; i == 0 || (gint64) graph->n_node + block_nodes + 1 <= n_nodes; i++)
    {
      before = graph->n_node;
      h = encoder_block (&g, gen_str (&g, "/layers.%u", i), gen_str (&g, "layers.%u.", i),
                         h, hidden, 4, 4 * hidden, NULL, FALSE);
      block_nodes = graph->n_node - before;
    }

  /* Then cheap elementwise nodes, so the count is exactly n_nodes. */
  if ((gint64) graph->n_node + 1 < n_nodes)
    {
      const char *scale = weight (&g, "tail.scale", DIMS (hidden), 1.0f, 0.01f);
      const char *shift = weight (&g, "tail.shift", DIMS (hidden), 0.0f, 0.01f);

      for (guint i = 0; (gint64) graph->n_node + 1 < n_nodes; i++)
        h = OUT (node (&g, "/tail", i % 2 ? "Add" : "Mul", IN (h, i % 2 ? shift : scale)));
    }

  layer_norm (&g, "/norm", "norm.", h, hidden, "output");
  pv_onnx_graph_add_output (graph, "output", T_FLOAT, gen_str (&g, "batch,seq,%" G_GINT64_FORMAT, hidden));
  return gen_finish (&g);
}

/* Weights of roughly mb MiB in four [d, d] Gemm layers, generated straight
 * into the builder's payload buffers, which pv_onnx_builder_write() streams
 * out: the weights exist once in memory. */
static PvOnnxBuilder *
build_big_weights (gint64 mb)
{
  const guint n_layers = 4;
  gint64 d = (gint64) floor (sqrt ((double) mb * 1024 * 1024 / (n_layers * sizeof (float))));
  Gen g;
  const char *h = "input";

  gen_init (&g, 7);
  d = MAX (d, 1);
  pv_onnx_graph_add_input (g.graph, "input", T_FLOAT, gen_str (&g, "batch,%" G_GINT64_FORMAT, d));
  for (guint i = 0; i < n_layers; i++)
    {
      gsize n = (gsize) d * (gsize) d;
      const char *w = gen_str (&g, "layers.%u.weight", i);
      guint8 *raw = pv_onnx_graph_add_initializer_alloc (g.graph, w, T_FLOAT, DIMS (d, d), n * sizeof (float));
      const char *b;
      PvOnnxNode *gemm;

      for (gsize j = 0; j < n; j++)
        {
          float value = lcg_uniform (&g.weights_rng) * 0.01f;
          guint32 bits;

          memcpy (&bits, &value, sizeof bits);
          bits = GUINT32_TO_LE (bits);
          memcpy (raw + j * sizeof bits, &bits, sizeof bits);
        }
      b = weight (&g, gen_str (&g, "layers.%u.bias", i), DIMS (d), 0.0f, 0.01f);
      gemm = node_to (&g, gen_str (&g, "/layers.%u", i), "Gemm", IN (h, w, b),
                      i + 1 == n_layers ? "output" : NULL);
      pv_onnx_node_add_attr_float (gemm, "alpha", 1.0f);
      pv_onnx_node_add_attr_float (gemm, "beta", 1.0f);
      pv_onnx_node_add_attr_int (gemm, "transB", 1);
      h = OUT (gemm);
      if (i + 1 < n_layers)
        h = OUT (node (&g, gen_str (&g, "/act%u", i), "Relu", IN (h)));
    }
  pv_onnx_graph_add_output (g.graph, "output", T_FLOAT, gen_str (&g, "batch,%" G_GINT64_FORMAT, d));
  return gen_finish (&g);
}

/* ONNX aligns external tensors so that they can be memory-mapped. */
#define EXTERNAL_ALIGN 4096

static const char *
external_weight (Gen *g, GByteArray *file, const char *name, const gint64 *dims, gsize n_dims, float scale)
{
  gsize n = 1, offset, end;

  for (gsize i = 0; i < n_dims; i++)
    n *= (gsize) dims[i];
  offset = (file->len + EXTERNAL_ALIGN - 1) / EXTERNAL_ALIGN * EXTERNAL_ALIGN;
  end = file->len;
  g_byte_array_set_size (file, offset + n * sizeof (float));
  memset (file->data + end, 0, offset - end);  /* padding; set_size leaves it undefined */
  for (gsize i = 0; i < n; i++)
    {
      float value = scale * lcg_uniform (&g->weights_rng);
      guint32 bits;

      memcpy (&bits, &value, sizeof bits);
      bits = GUINT32_TO_LE (bits);
      memcpy (file->data + offset + i * sizeof bits, &bits, sizeof bits);
    }
  pv_onnx_graph_add_external_initializer (g->graph, name, T_FLOAT, dims, n_dims, "weights.bin",
                                          (gint64) offset, (gint64) (n * sizeof (float)));
  return name;
}

static PvOnnxBuilder *
build_external (GByteArray *file)
{
  Gen g;
  const char *h = "input";
  const gint64 sizes[] = { 256, 256, 128, 10 };

  gen_init (&g, 8);
  pv_onnx_graph_add_input (g.graph, "input", T_FLOAT, "batch,256");
  for (guint i = 0; i + 1 < G_N_ELEMENTS (sizes); i++)
    {
      gboolean last = i + 2 == G_N_ELEMENTS (sizes);
      const char *w = external_weight (&g, file, gen_str (&g, "fc%u.weight", i + 1),
                                       DIMS (sizes[i + 1], sizes[i]), 0.06f);
      const char *b = external_weight (&g, file, gen_str (&g, "fc%u.bias", i + 1),
                                       DIMS (sizes[i + 1]), 0.1f);
      PvOnnxNode *gemm = node_to (&g, gen_str (&g, "/fc%u", i + 1), "Gemm", IN (h, w, b),
                                  last ? "output" : NULL);

      pv_onnx_node_add_attr_float (gemm, "alpha", 1.0f);
      pv_onnx_node_add_attr_float (gemm, "beta", 1.0f);
      pv_onnx_node_add_attr_int (gemm, "transB", 1);
      h = OUT (gemm);
      if (!last)
        h = OUT (node (&g, gen_str (&g, "/act%u", i + 1), "Relu", IN (h)));
    }
  pv_onnx_graph_add_output (g.graph, "output", T_FLOAT, "batch,10");
  return gen_finish (&g);
}

/* Command line */

static gboolean
write_samples (const char *dir, GError **error)
{
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "Could not create %s: %s", dir, g_strerror (saved));
      return FALSE;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autoptr (PvOnnxBuilder) builder = samples[i].build ();
      g_autofree char *path = g_build_filename (dir, samples[i].file, NULL);

      if (!pv_onnx_builder_write (builder, path, error))
        return FALSE;
    }
  return TRUE;
}

/* Returns the number of samples in dir that differ from what this tool
 * writes, reporting each on stderr. */
static guint
compare_samples (const char *dir)
{
  guint stale = 0;

  for (gsize i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autoptr (PvOnnxBuilder) builder = samples[i].build ();
      g_autoptr (GBytes) expected = pv_onnx_builder_pack (builder);
      g_autofree char *path = g_build_filename (dir, samples[i].file, NULL);
      g_autofree char *contents = NULL;
      g_autoptr (GError) error = NULL;
      gsize length;

      if (!g_file_get_contents (path, &contents, &length, &error))
        {
          g_printerr ("%s\n", error->message);
          stale++;
        }
      else if (length != g_bytes_get_size (expected) ||
               memcmp (contents, g_bytes_get_data (expected, NULL), length) != 0)
        {
          g_printerr ("%s differs from what pv-gen-models writes\n", path);
          stale++;
        }
      else
        g_print ("%s: up to date\n", path);
    }
  if (stale)
    g_printerr ("Regenerate with: pv-gen-models --samples %s\n", dir);
  return stale;
}

static gboolean
write_external (const char *path, GError **error)
{
  g_autoptr (GByteArray) file = g_byte_array_new ();
  g_autoptr (PvOnnxBuilder) builder = build_external (file);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *weights = g_build_filename (dir, "weights.bin", NULL);

  return pv_onnx_builder_write (builder, path, error) &&
         g_file_set_contents (weights, (const char *) file->data, file->len, error);
}

int
main (int argc, char **argv)
{
  g_autofree char *samples_dir = NULL;
  g_autofree char *compare_dir = NULL;
  gboolean synthetic = FALSE, external = FALSE;
  gint64 n_nodes = 0, seed = 0, hidden = 16, big_mb = 0;
  const GOptionEntry entries[] = {
    { "samples", 0, 0, G_OPTION_ARG_FILENAME, &samples_dir, "Write the sample models into DIR", "DIR" },
    { "compare", 0, 0, G_OPTION_ARG_FILENAME, &compare_dir, "Check that DIR holds the current sample models", "DIR" },
    { "synthetic", 0, 0, G_OPTION_ARG_NONE, &synthetic, "Write a synthetic transformer-like graph to OUT", NULL },
    { "nodes", 0, 0, G_OPTION_ARG_INT64, &n_nodes, "Number of nodes of the synthetic graph", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Seed of the synthetic graph's weights and naming (0)", "S" },
    { "hidden", 0, 0, G_OPTION_ARG_INT64, &hidden, "Hidden size of the synthetic graph, a multiple of 4 (16)", "H" },
    { "big-weights", 0, 0, G_OPTION_ARG_INT64, &big_mb, "Write a model of about MB MiB of inline weights to OUT", "MB" },
    { "external", 0, 0, G_OPTION_ARG_NONE, &external, "Write a model with external weights to OUT (and weights.bin beside it)", NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("[OUT.onnx] - write ONNX models for planviz tests");
  g_autoptr (GError) error = NULL;
  g_autoptr (PvOnnxBuilder) builder = NULL;
  int modes;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }

  modes = (samples_dir != NULL) + (compare_dir != NULL) + synthetic + (big_mb != 0) + external;
  if (modes != 1)
    {
      g_printerr ("Give exactly one of --samples, --compare, --synthetic, --big-weights, --external\n");
      return 2;
    }

  if (samples_dir || compare_dir)
    {
      if (argc != 1)
        {
          g_printerr ("Unexpected argument: %s\n", argv[1]);
          return 2;
        }
      if (compare_dir)
        return compare_samples (compare_dir) ? 1 : 0;
      if (!write_samples (samples_dir, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      return 0;
    }

  if (argc != 2)
    {
      g_printerr ("Give one output file\n");
      return 2;
    }

  if (external)
    {
      if (!write_external (argv[1], &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      g_print ("%s: weights in weights.bin beside it\n", argv[1]);
      return 0;
    }

  if (synthetic)
    {
      if (n_nodes < 1 || hidden < 4 || hidden % 4 != 0)
        {
          g_printerr ("--synthetic needs --nodes N >= 1 and --hidden a positive multiple of 4\n");
          return 2;
        }
      builder = build_synthetic (n_nodes, (guint64) seed, hidden);
    }
  else
    {
      /* protobuf (and so ONNX) cannot parse messages of 2 GiB or more. */
      if (big_mb < 1 || big_mb > 2000)
        {
          g_printerr ("--big-weights needs 1 <= MB <= 2000 (protobuf's 2 GiB limit)\n");
          return 2;
        }
      builder = build_big_weights (big_mb);
    }

  if (!pv_onnx_builder_write (builder, argv[1], &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  g_print ("%s: %zu nodes, %zu initializers\n", argv[1],
           pv_onnx_builder_get_graph (builder)->n_node,
           pv_onnx_builder_get_graph (builder)->n_initializer);
  return 0;
}
