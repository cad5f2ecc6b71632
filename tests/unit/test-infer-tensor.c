/* Shape rules of ONNX tensor ops (pv-infer-reshape.c, pv-infer-index.c,
 * pv-infer-sizes.c, pv-infer-sequence.c, pv-infer-signal.c) and of
 * pv-infer-contrib.c (com.microsoft ops), each on a small model built for
 * it. Graph outputs are left untyped, so what is checked is what the rules
 * infer. Shapes are compared as text ("float32[batch,seq-1,768]"); where the
 * text of a symbolic sum could depend on term order, the expected expression
 * is built in the inference's own pool (hash-consed: pointer equality is
 * expression equality). */
#include <string.h>

#include "pv-element-type.h"
#include "pv-model-loader.h"
#include "pv-onnx-builder.h"
#include "pv-onnx-text.h"
#include "pv-shape-inference.h"
#include "pv-test-model.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define I64 ONNX__TENSOR_PROTO__DATA_TYPE__INT64
#define I32 ONNX__TENSOR_PROTO__DATA_TYPE__INT32
#define N PV_ONNX_NAMES
#define MS "com.microsoft"

/* "float32[batch,seq,768]", "int64?" for an unknown rank. */
static char *
shape_text (const PvTestInferred *r, const char *name)
{
  g_autofree char *dims = pv_test_shape_text (r, name);

  return g_strconcat (pv_element_type_name (pv_test_inferred_shape (r, name)->elem_type), dims, NULL);
}

#define assert_shape(r, name, want)                                                                                    \
  do                                                                                                                   \
    {                                                                                                                  \
      g_autofree char *got_ = shape_text (r, name);                                                                    \
      g_assert_cmpstr (got_, ==, want);                                                                                \
    }                                                                                                                  \
  while (0)

/* Several at once: "a=...; b=..." */
#define assert_shapes(r, expected) pv_test_assert_shapes (r, TRUE, expected)
#define assert_data pv_test_assert_data

static const PvDimExpr *
sym (const PvTestInferred *r, const char *name)
{
  return pv_dim_symbol (r->pool, name);
}

static const PvDimExpr *
num (const PvTestInferred *r, gint64 v)
{
  return pv_dim_const (r->pool, v);
}

static void
add_ints (PvOnnxGraph *g, const char *name, int n, const gint64 *values)
{
  gint64 dims[1] = { n };

  pv_onnx_graph_add_initializer_int64s (g, name, dims, 1, values);
}

static void
add_scalar (PvOnnxGraph *g, const char *name, gint64 value)
{
  pv_onnx_graph_add_initializer_int64s (g, name, NULL, 0, &value);
}

static PvOnnxNode *
node (PvOnnxGraph *g, const char *op, const char *const *in, const char *const *out)
{
  return pv_onnx_graph_add_node (g, op, NULL, in, out);
}

/* A node of ORT's contrib domain (com.microsoft). */
static PvOnnxNode *
ms_node (PvOnnxGraph *g, const char *op, const char *const *in, const char *const *out)
{
  PvOnnxNode *n = node (g, op, in, out);

  pv_onnx_node_set_domain (n, MS);
  return n;
}

/* ---- the exporter chain ---- */

/* Shape -> Gather(0) -> Unsqueeze -> Concat([b, -1, 12, 64]) -> Reshape. */
static void
test_exporter_chain (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (13);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const gint64 zero_axis[] = { 0 }, tail[] = { -1, 12, 64 };
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_input (g, "x", F, "batch,seq,768");
  add_scalar (g, "idx0", 0);
  add_ints (g, "axes0", 1, zero_axis);
  add_ints (g, "tail", 3, tail);
  pv_onnx_graph_add_nodes (g, "Shape x>s; Gather s,idx0>b; Unsqueeze b,axes0>b1; Concat b1,tail>target axis=0; "
                              "Reshape x,target>y");
  r = pv_test_infer (b);

  assert_shape (&r, "s", "int64[3]");
  assert_data (&r, "s", "{batch,seq,768}");
  assert_shape (&r, "b", "int64[]");
  assert_data (&r, "b", "{batch}");
  assert_shape (&r, "b1", "int64[1]");
  assert_data (&r, "b1", "{batch}");
  assert_shape (&r, "target", "int64[4]");
  assert_data (&r, "target", "{batch,-1,12,64}");
  assert_shape (&r, "y", "float32[batch,seq,12,64]");
}

/* The same at opset 11 (Unsqueeze axes as attribute), through a Constant. */
static void
test_exporter_chain_opset11 (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (11);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const gint64 zero_axis[] = { 0 }, tail[] = { 64 }, one = 1, tail_dims[] = { 1 };
  PvOnnxNode *n;
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_input (g, "x", F, "batch,seq,768");
  n = node (g, "Constant", NULL, N ("one"));
  pv_onnx_node_add_attr_tensor_int64s (n, "value", NULL, 0, &one);
  n = node (g, "Constant", NULL, N ("tail"));
  pv_onnx_node_add_attr_tensor_int64s (n, "value", tail_dims, 1, tail);
  pv_onnx_graph_add_nodes (g, "Shape x>s; Gather s,one>sq");
  n = node (g, "Unsqueeze", N ("sq"), N ("sq1"));
  pv_onnx_node_add_attr_ints (n, "axes", zero_axis, 1);
  add_ints (g, "m1", 1, (const gint64[]) { -1 });
  pv_onnx_graph_add_nodes (g, "Concat m1,sq1,tail>target axis=0; Reshape x,target>y");
  r = pv_test_infer (b);

  assert_data (&r, "target", "{-1,seq,64}");
  assert_shape (&r, "y", "float32[12*batch,seq,64]");
}

/* ---- Reshape ---- */

static void
test_reshape_zero_and_minus_one (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (13);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_input (g, "x", F, "batch,seq,768");
  add_ints (g, "s1", 4, (const gint64[]) { 0, 0, 12, -1 });
  add_ints (g, "s2", 2, (const gint64[]) { -1, 768 });
  add_ints (g, "s3", 3, (const gint64[]) { 0, -1, 64 });
  pv_onnx_graph_add_nodes (g, "Reshape x,s1>y1; Reshape x,s2>y2; Reshape x,s3>y3");
  r = pv_test_infer (b);

  assert_shapes (&r, "y1=float32[batch,seq,12,64]; y2=float32[batch*seq,768]; y3=float32[batch,12*seq,64]");
}

static void
test_reshape_allowzero_and_inexact (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (14);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_inputs (g, F, "x:0,3,4 z:n,10");
  add_ints (g, "s", 3, (const gint64[]) { 3, 4, 0 });
  add_ints (g, "s7", 2, (const gint64[]) { 7, -1 });
  pv_onnx_graph_add_nodes (g, "Reshape x,s>y allowzero=1; Reshape z,s7>w");
  r = pv_test_infer (b);

  assert_shape (&r, "y", "float32[3,4,0]");
  /* (n*10)/7 is not exact: a fresh symbol, never a guess. */
  assert_shape (&r, "w", "float32[7,reshape_0]");
}

/* ---- Slice ---- */

static void
test_slice_symbolic (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (13);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const PvValueShape *s;
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_input (g, "x", F, "batch,seq,768");
  add_ints (g, "zero", 1, (const gint64[]) { 0 });
  add_ints (g, "one", 1, (const gint64[]) { 1 });
  add_ints (g, "minus1", 1, (const gint64[]) { -1 });
  add_ints (g, "big", 1, (const gint64[]) { G_MAXINT64 });
  add_ints (g, "small", 1, (const gint64[]) { G_MININT64 });
  add_ints (g, "e512", 1, (const gint64[]) { 512 });
  add_ints (g, "e8", 1, (const gint64[]) { 8 });
  add_ints (g, "two", 1, (const gint64[]) { 2 });
  node (g, "Slice", N ("x", "zero", "minus1", "one"), N ("a"));         /* x[:, 0:-1] */
  node (g, "Slice", N ("x", "one", "big", "one"), N ("c"));             /* x[:, 1:] */
  node (g, "Slice", N ("x", "zero", "e512", "one"), N ("d"));           /* x[:, :512] */
  node (g, "Slice", N ("x", "minus1", "small", "one", "minus1"), N ("e")); /* x[:, ::-1] */
  node (g, "Slice", N ("x", "two", "e8", "one"), N ("f"));              /* x[:, 2:8] */
  node (g, "Slice", N ("x", "zero", "big", "one", "two"), N ("h"));     /* x[:, ::2] */
  r = pv_test_infer (b);

  assert_shapes (&r, "a=float32[batch,seq-1,768]; c=float32[batch,seq-1,768]");
  s = pv_test_inferred_shape (&r, "d");
  g_assert_true (s->dims[1] == pv_dim_min (r.pool, sym (&r, "seq"), num (&r, 512)));
  assert_shape (&r, "e", "float32[batch,seq,768]");
  s = pv_test_inferred_shape (&r, "f");
  g_assert_true (s->dims[1] ==
                 pv_dim_max (r.pool, num (&r, 0),
                             pv_dim_sub (r.pool, pv_dim_min (r.pool, num (&r, 8), sym (&r, "seq")), num (&r, 2))));
  s = pv_test_inferred_shape (&r, "h");
  g_assert_true (s->dims[1] == pv_dim_ceil_div (r.pool, sym (&r, "seq"), 2));
}

static void
test_slice_constant_and_contents (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (13);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_inputs (g, F, "x:20,10,5 t:batch,seq,12,64");
  add_ints (g, "st", 3, (const gint64[]) { 0, 0, 3 });
  add_ints (g, "en", 3, (const gint64[]) { 20, 10, 4 });
  add_ints (g, "st2", 2, (const gint64[]) { 20, -3 });   /* start past the end; from the end */
  add_ints (g, "en2", 2, (const gint64[]) { 1000, -1 });
  add_ints (g, "ax2", 2, (const gint64[]) { 0, -1 });
  add_ints (g, "neg_st", 1, (const gint64[]) { 20 });
  add_ints (g, "neg_en", 1, (const gint64[]) { 0 });
  add_ints (g, "neg_ax", 1, (const gint64[]) { 0 });
  add_ints (g, "neg_step", 1, (const gint64[]) { -3 });
  add_ints (g, "two", 1, (const gint64[]) { 2 });
  add_ints (g, "big", 1, (const gint64[]) { G_MAXINT64 });
  pv_onnx_graph_add_nodes (g, "Slice x,st,en>a; Slice x,st2,en2,ax2>c; Slice x,neg_st,neg_en,neg_ax,neg_step>d; "
                              "Shape t>ts; Slice ts,two,big>tail");
  r = pv_test_infer (b);

  assert_shapes (&r, "a=float32[20,10,1]; c=float32[0,10,2]");
  assert_shape (&r, "d", "float32[7,10,5]"); /* 19, 16, ..., 1 */
  assert_shape (&r, "tail", "int64[2]");
  assert_data (&r, "tail", "{12,64}");
}

/* Bounds computed at run time: x[:, :seq] on an axis of length seq, and a
 * position table sliced to the sequence length. */
static void
test_slice_runtime_bounds (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (13);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const PvValueShape *s;
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_input (g, "ids", I64, "batch,seq");
  pv_onnx_graph_add_inputs (g, F, "pos:512,768 mask:batch,1,seq,seq");
  add_ints (g, "zero", 1, (const gint64[]) { 0 });
  add_ints (g, "one", 1, (const gint64[]) { 1 });
  add_ints (g, "three", 1, (const gint64[]) { 3 });
  node (g, "Shape", N ("ids"), N ("s"));
  add_ints (g, "two", 1, (const gint64[]) { 2 });
  pv_onnx_graph_add_nodes (g, "Slice s,one,two>seqv; Slice pos,zero,seqv,zero>p; Slice mask,zero,seqv,three>m");
  r = pv_test_infer (b);

  assert_data (&r, "seqv", "{seq}");
  s = pv_test_inferred_shape (&r, "p");
  g_assert_true (s->dims[0] == pv_dim_min (r.pool, sym (&r, "seq"), num (&r, 512)));
  g_assert_true (s->dims[1] == num (&r, 768));
  assert_shape (&r, "m", "float32[batch,1,seq,seq]");
}

static void
test_slice_opset9_attributes (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (9);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxNode *n;
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_input (g, "x", F, "batch,seq,768");
  n = node (g, "Slice", N ("x"), N ("y"));
  pv_onnx_node_add_attr_ints (n, "starts", (const gint64[]) { 1, 0 }, 2);
  pv_onnx_node_add_attr_ints (n, "ends", (const gint64[]) { G_MAXINT64, 384 }, 2);
  pv_onnx_node_add_attr_ints (n, "axes", (const gint64[]) { 1, 2 }, 2);
  r = pv_test_infer (b);

  assert_shape (&r, "y", "float32[batch,seq-1,384]");
}

/* ---- Concat, Gather ---- */

static void
test_concat_symbolic (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (13);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const PvValueShape *s;
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_inputs (g, F, "past:batch,12,past_seq,64 cur:batch,12,seq,64 k:batch,12,seq,64");
  pv_onnx_graph_add_nodes (g, "Concat past,cur>kv axis=-2; Concat cur,k,cur>three axis=2");
  r = pv_test_infer (b);

  s = pv_test_inferred_shape (&r, "kv");
  g_assert_cmpint (s->rank, ==, 4);
  g_assert_true (s->dims[2] == pv_dim_add (r.pool, sym (&r, "past_seq"), sym (&r, "seq")));
  g_assert_true (s->dims[0] == sym (&r, "batch"));
  g_assert_true (s->dims[3] == num (&r, 64));
  assert_shape (&r, "three", "float32[batch,12,3*seq,64]");
}

static void
test_gather_shapes (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (13);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_input (g, "emb", F, "30522,768");
  pv_onnx_graph_add_input (g, "ids", I64, "batch,seq");
  pv_onnx_graph_add_input (g, "x", F, "batch,seq,768");
  add_scalar (g, "last", -1);
  add_ints (g, "pick", 2, (const gint64[]) { 2, 0 });
  pv_onnx_graph_add_nodes (g, "Gather emb,ids>e; Gather x,last>cls axis=1; Shape x>s; Gather s,pick>p");
  r = pv_test_infer (b);

  assert_shapes (&r, "e=float32[batch,seq,768]; cls=float32[batch,768]; p=int64[2]");
  assert_data (&r, "p", "{768,batch}");
}

/* ---- Expand, Range, ConstantOfShape ---- */

static void
test_expand_with_initializer (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (13);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_inputs (g, F, "x:3,1 m:batch,1,1,seq");
  add_ints (g, "s", 3, (const gint64[]) { 2, 1, 6 });
  add_ints (g, "s2", 4, (const gint64[]) { 1, 12, 1, 1 });
  pv_onnx_graph_add_nodes (g, "Expand x,s>y; Expand m,s2>mm");
  r = pv_test_infer (b);

  assert_shapes (&r, "y=float32[2,3,6]; mm=float32[batch,12,1,seq]");
}

static void
test_range (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (13);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_input (g, "x", F, "batch,seq,768");
  add_scalar (g, "zero", 0);
  add_scalar (g, "ten", 10);
  add_scalar (g, "three", 3);
  add_scalar (g, "one", 1);
  add_scalar (g, "five", 5);
  add_scalar (g, "mone", -1);
  pv_onnx_graph_add_nodes (g, "Range zero,ten,three>r1; Shape x>s; Gather s,one>seqlen; Range zero,seqlen,one>pos; "
                              "Range ten,zero,mone>down; Range five,seqlen,one>tail");
  r = pv_test_infer (b);

  assert_shape (&r, "r1", "int64[4]");
  assert_data (&r, "r1", "{0,3,6,9}");
  assert_shapes (&r, "pos=int64[seq]; down=int64[10]");
  assert_data (&r, "down", "{10,9,8,7,6,5,4,3,2,1}");
  {
    const PvValueShape *s = pv_test_inferred_shape (&r, "tail");
    g_assert_true (s->dims[0] == pv_dim_max (r.pool, num (&r, 0), pv_dim_sub (r.pool, sym (&r, "seq"), num (&r, 5))));
  }
}

static void
test_constant_of_shape (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (13);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const gint64 one = 1;
  PvOnnxNode *n;
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_input (g, "x", F, "batch,seq");
  add_ints (g, "s", 2, (const gint64[]) { 2, 3 });
  pv_onnx_graph_add_nodes (g, "Shape x>xs; ConstantOfShape xs>zeros");
  n = node (g, "ConstantOfShape", N ("s"), N ("ones"));
  pv_onnx_node_add_attr_tensor_int64s (n, "value", (const gint64[]) { 1 }, 1, &one);
  r = pv_test_infer (b);

  assert_shapes (&r, "zeros=float32[batch,seq]; ones=int64[2,3]");
  assert_data (&r, "ones", "{1,1,1,1,1,1}");
}

/* ---- data-dependent sizes ---- */

static void
test_non_zero_and_top_k (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (13);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_inputs (g, F, "x:3,4 scores:batch,100");
  add_ints (g, "k", 1, (const gint64[]) { 5 });
  pv_onnx_graph_add_nodes (g, "NonZero x>nz; TopK scores,k>values,indices");
  r = pv_test_infer (b);

  assert_shapes (&r, "nz=int64[2,nonzero_0]; values=float32[batch,5]; indices=int64[batch,5]");
}

static void
test_top_k_opset1 (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (9);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_input (g, "scores", F, "batch,100,7");
  pv_onnx_graph_add_nodes (g, "TopK scores>values,indices k=3 axis=1");
  r = pv_test_infer (b);

  assert_shapes (&r, "values=float32[batch,3,7]; indices=int64[batch,3,7]");
}

/* ---- Squeeze, Unsqueeze ---- */

static void
test_squeeze_unsqueeze_opset11 (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (11);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_inputs (g, F, "x:batch,1,768 c:1,3,1,5 u:3,4");
  pv_onnx_graph_add_nodes (g, "Squeeze x>sq axes=[-2]; Squeeze c>all; Squeeze x>unknown; Unsqueeze u>un axes=[0,-1]");
  r = pv_test_infer (b);

  assert_shapes (&r, "sq=float32[batch,768]; all=float32[3,5]");
  /* No axes and a symbolic dim: which dims go is unknown. */
  assert_shapes (&r, "unknown=float32?; un=float32[1,3,4,1]");
}

static void
test_squeeze_unsqueeze_opset13 (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (13);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_input (g, "x", F, "batch,1,768");
  pv_onnx_graph_add_input (g, "m", I64, "batch,seq");
  add_ints (g, "ax1", 1, (const gint64[]) { 1 });
  add_ints (g, "ax12", 2, (const gint64[]) { 1, 2 });
  pv_onnx_graph_add_nodes (g, "Squeeze x,ax1>sq; Unsqueeze m,ax12>mask4");
  r = pv_test_infer (b);

  assert_shapes (&r, "sq=float32[batch,768]; mask4=int64[batch,1,1,seq]");
}

/* ---- Split ---- */

static void
test_split_opsets (void)
{
  g_auto (PvTestInferred) r = { 0 };

  {
    PvOnnxBuilder *b = pv_test_builder_new (11);
    PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
    pv_onnx_graph_add_inputs (g, F, "x:batch,6 qkv:batch,seq,2304");
    pv_onnx_graph_add_nodes (g, "Split x>a,c axis=1 split=[2,4]; Split qkv>q,k,v axis=-1");
    r = pv_test_infer (b);
    assert_shapes (&r, "a=float32[batch,2]; c=float32[batch,4]; q=float32[batch,seq,768]; v=float32[batch,seq,768]");
    pv_test_inferred_clear (&r);
  }
  {
    PvOnnxBuilder *b = pv_test_builder_new (13);
    PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
    pv_onnx_graph_add_input (g, "x", F, "batch,6");
    add_ints (g, "sp", 2, (const gint64[]) { 1, 5 });
    pv_onnx_node_add_attr_int (node (g, "Split", N ("x", "sp"), N ("a", "c")), "axis", 1);
    r = pv_test_infer (b);
    assert_shapes (&r, "a=float32[batch,1]; c=float32[batch,5]");
    pv_test_inferred_clear (&r);
  }
  {
    PvOnnxBuilder *b = pv_test_builder_new (18);
    PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
    pv_onnx_graph_add_inputs (g, F, "x:batch,7 h:batch,hidden");
    pv_onnx_graph_add_nodes (g, "Split x>a,c,d axis=1 num_outputs=3; Split h>h1,h2 axis=1 num_outputs=2");
    r = pv_test_infer (b);
    assert_shapes (&r, "a=float32[batch,3]; c=float32[batch,3]; d=float32[batch,1]");
    {
      const PvValueShape *s1 = pv_test_inferred_shape (&r, "h1"), *s2 = pv_test_inferred_shape (&r, "h2");
      const PvDimExpr *chunk = pv_dim_ceil_div (r.pool, sym (&r, "hidden"), 2);
      g_assert_true (s1->dims[1] == chunk);
      g_assert_true (s2->dims[1] == pv_dim_sub (r.pool, sym (&r, "hidden"), chunk));
    }
    pv_test_inferred_clear (&r);
  }
}

/* ---- Resize ---- */

static void
test_resize_scales (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (13);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const gint64 four[] = { 4 };
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_inputs (g, F, "x:1,3,h,w c:1,3,5,7");
  pv_onnx_graph_add_initializer_floats (g, "up", four, 1, (const float[]) { 1.0f, 1.0f, 2.0f, 2.0f });
  pv_onnx_graph_add_initializer_floats (g, "down", four, 1, (const float[]) { 1.0f, 1.0f, 0.6f, 0.6f });
  add_ints (g, "sizes", 4, (const gint64[]) { 1, 3, 32, 48 });
  pv_onnx_graph_add_nodes (g, "Resize x,,up>y; Resize c,,down>z; Resize x,,,sizes>s; Resize x,,down>unknown");
  r = pv_test_infer (b);

  assert_shapes (&r, "y=float32[1,3,2*h,2*w]; z=float32[1,3,3,4]; s=float32[1,3,32,48]");
  /* floor(h * 0.6) is not representable: fresh. */
  assert_shape (&r, "unknown", "float32[1,3,resize_0,resize_1]");
}

static void
test_upsample_opset9 (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (9);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const gint64 four[] = { 4 };
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_input (g, "x", F, "n,3,h,w");
  pv_onnx_graph_add_initializer_floats (g, "sc", four, 1, (const float[]) { 1.0f, 1.0f, 2.0f, 3.0f });
  node (g, "Upsample", N ("x", "sc"), N ("y"));
  r = pv_test_infer (b);

  assert_shape (&r, "y", "float32[n,3,2*h,3*w]");
}

/* ---- layout ops ---- */

static void
test_transpose_flatten_pad_tile (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (13);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxNode *n;
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_inputs (g, F, "x:batch,seq,12,64 img:n,3,h,w");
  add_ints (g, "pads", 8, (const gint64[]) { 0, 0, 1, 2, 0, 0, 1, 2 });
  add_ints (g, "reps", 4, (const gint64[]) { 1, 2, 1, 1 });
  n = node (g, "Transpose", N ("x"), N ("t"));
  pv_onnx_node_add_attr_ints (n, "perm", (const gint64[]) { 0, 2, 1, 3 }, 4);
  pv_onnx_graph_add_nodes (g, "Transpose x>rev; Flatten x>f axis=2; Pad img,pads>p; Tile img,reps>tl");
  r = pv_test_infer (b);

  assert_shapes (&r, "t=float32[batch,12,seq,64]; rev=float32[64,12,seq,batch]; f=float32[batch*seq,768]; "
                     "p=float32[n,3,h+2,w+4]; tl=float32[n,6,h,w]");
}

static void
test_shape_start_end (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (15);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxNode *n;
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_input (g, "x", F, "batch,seq,768");
  n = node (g, "Shape", N ("x"), N ("s"));
  pv_onnx_node_add_attr_int (n, "start", -2);
  node (g, "Size", N ("x"), N ("n"));
  r = pv_test_infer (b);

  assert_shape (&r, "s", "int64[2]");
  assert_data (&r, "s", "{seq,768}");
  assert_shape (&r, "n", "int64[]");
  assert_data (&r, "n", "{768*batch*seq}");
}

static void
test_pad_one_hot_and_misc (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (18);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxNode *n;
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_input (g, "x", F, "n,3,h,w");
  pv_onnx_graph_add_input (g, "ind", I64, "batch,seq");
  pv_onnx_graph_add_inputs (g, F, "vals:2 boxes:1,6,4 scores:1,1,6");
  add_ints (g, "pads", 4, (const gint64[]) { 1, 2, 3, 4 });
  add_ints (g, "axes", 2, (const gint64[]) { -1, 2 });
  add_scalar (g, "depth", 10);
  pv_onnx_graph_add_nodes (g, "Pad x,pads,,axes>p; OneHot ind,depth,vals>oh axis=1; "
                              "NonMaxSuppression boxes,scores>sel; SequenceConstruct x,x>sq; SequenceLength sq>len");
  n = node (g, "Compress", N ("x", "vals"), N ("cmp"));
  pv_onnx_node_add_attr_int (n, "axis", 1);
  r = pv_test_infer (b);

  /* axes (-1, 2): w gets 1 + 3, h gets 2 + 4 */
  assert_shapes (&r, "p=float32[n,3,h+6,w+4]; oh=float32[batch,10,seq]; sel=int64[nonmaxsuppression_0,3]");
  g_assert_cmpint (pv_test_inferred_shape (&r, "sq")->kind, ==, PV_TYPE_SEQUENCE);
  assert_shapes (&r, "len=int64[]; cmp=float32[n,compress_0,h,w]");
}

/* ---- com.microsoft ---- */

static PvOnnxBuilder *
new_ms_builder (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  pv_onnx_builder_add_opset (b, MS, 1);
  return b;
}

static void
test_attention (void)
{
  PvOnnxBuilder *b = new_ms_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxNode *n;
  const PvValueShape *s;
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_inputs (g, F, "x:batch,seq,768 w:768,2304 bias:2304");
  pv_onnx_graph_add_input (g, "mask", I32, "batch,seq");
  pv_onnx_graph_add_input (g, "past", F, "2,batch,12,past_seq,64");
  n = ms_node (g, "Attention", N ("x", "w", "bias", "mask"), N ("y"));
  pv_onnx_node_add_attr_int (n, "num_heads", 12);
  n = ms_node (g, "Attention", N ("x", "w", "bias", "mask", "past"), N ("y2", "present"));
  pv_onnx_node_add_attr_int (n, "num_heads", 12);
  n = ms_node (g, "Attention", N ("x", "w"), N ("y3"));
  pv_onnx_node_add_attr_int (n, "num_heads", 12);
  pv_onnx_node_add_attr_ints (n, "qkv_hidden_sizes", (const gint64[]) { 768, 768, 512 }, 3);
  r = pv_test_infer (b);

  assert_shapes (&r, "y=float32[batch,seq,768]; y2=float32[batch,seq,768]");
  s = pv_test_inferred_shape (&r, "present");
  g_assert_cmpint (s->rank, ==, 5);
  g_assert_true (s->dims[0] == num (&r, 2));
  g_assert_true (s->dims[1] == sym (&r, "batch"));
  g_assert_true (s->dims[2] == num (&r, 12));
  g_assert_true (s->dims[3] == pv_dim_add (r.pool, sym (&r, "past_seq"), sym (&r, "seq")));
  g_assert_true (s->dims[4] == num (&r, 64));
  assert_shape (&r, "y3", "float32[batch,seq,512]");
}

static void
test_embed_layer_norm (void)
{
  PvOnnxBuilder *b = new_ms_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_inputs (g, I32, "ids:batch,seq seg:batch,seq");
  pv_onnx_graph_add_inputs (g, F, "word:30522,768 pos:512,768 segemb:2,768 gamma:768 beta:768");
  pv_onnx_graph_add_input (g, "mask", I32, "batch,seq");
  ms_node (g, "EmbedLayerNormalization", N ("ids", "seg", "word", "pos", "segemb", "gamma", "beta", "mask"),
           N ("out", "mask_index", "sum"));
  r = pv_test_infer (b);

  assert_shapes (&r, "out=float32[batch,seq,768]; mask_index=int32[batch]; sum=float32[batch,seq,768]");
}

static void
test_contrib_misc (void)
{
  PvOnnxBuilder *b = new_ms_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxNode *n;
  const PvValueShape *s;
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_inputs (g, F, "x:batch,seq,768 skip:batch,seq,768 gamma:768 bias:768 wt:3072,768 "
                                  "pk:batch,12,past_seq,64 img:n,s,1280 cb:2560");
  ms_node (g, "SkipLayerNormalization", N ("x", "skip", "gamma", "", "bias"), N ("ln", "mean", "isv", "sum"));
  n = ms_node (g, "FusedMatMul", N ("x", "wt"), N ("mm"));
  pv_onnx_node_add_attr_int (n, "transB", 1);
  ms_node (g, "FastGelu", N ("mm", "bias"), N ("fg"));
  n = ms_node (g, "MultiHeadAttention", N ("x", "x", "x", "", "", "", "pk", "pk"), N ("mha", "pres_k", "pres_v"));
  pv_onnx_node_add_attr_int (n, "num_heads", 12);
  ms_node (g, "BiasSplitGelu", N ("img", "cb"), N ("bsg"));
  r = pv_test_infer (b);

  assert_shapes (&r, "ln=float32[batch,seq,768]; mean=float32[batch,seq,1]; sum=float32[batch,seq,768]; "
                     "mm=float32[batch,seq,3072]; fg=float32[batch,seq,3072]; mha=float32[batch,seq,768]");
  s = pv_test_inferred_shape (&r, "pres_k");
  g_assert_cmpint (s->rank, ==, 4);
  g_assert_true (s->dims[2] == pv_dim_add (r.pool, sym (&r, "past_seq"), sym (&r, "seq")));
  g_assert_true (s->dims[3] == num (&r, 64));
  assert_shape (&r, "bsg", "float32[n,s,640]");
}

static void
test_group_query_attention (void)
{
  PvOnnxBuilder *b = new_ms_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxNode *n;
  g_auto (PvTestInferred) r = { 0 };

  /* Packed QKV: (32 + 2*8) heads of 128. */
  pv_onnx_graph_add_inputs (g, F, "qkv:batch,seq,6144 pk:batch,8,max_seq,128 pv:batch,8,max_seq,128");
  pv_onnx_graph_add_inputs (g, I32, "seqlens:batch total:");
  n = ms_node (g, "GroupQueryAttention", N ("qkv", "", "", "pk", "pv", "seqlens", "total"),
               N ("o", "pres_k", "pres_v"));
  pv_onnx_node_add_attr_int (n, "num_heads", 32);
  pv_onnx_node_add_attr_int (n, "kv_num_heads", 8);
  r = pv_test_infer (b);

  assert_shape (&r, "o", "float32[batch,seq,4096]");
  {
    const PvValueShape *s = pv_test_inferred_shape (&r, "pres_k");
    g_assert_cmpint (s->rank, ==, 4);
    g_assert_true (s->dims[1] == num (&r, 8));
    g_assert_true (s->dims[3] == num (&r, 128));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/infer-tensor/exporter-chain", test_exporter_chain);
  g_test_add_func ("/infer-tensor/exporter-chain-opset11", test_exporter_chain_opset11);
  g_test_add_func ("/infer-tensor/reshape/zero-and-minus-one", test_reshape_zero_and_minus_one);
  g_test_add_func ("/infer-tensor/reshape/allowzero-and-inexact", test_reshape_allowzero_and_inexact);
  g_test_add_func ("/infer-tensor/slice/symbolic", test_slice_symbolic);
  g_test_add_func ("/infer-tensor/slice/constant-and-contents", test_slice_constant_and_contents);
  g_test_add_func ("/infer-tensor/slice/runtime-bounds", test_slice_runtime_bounds);
  g_test_add_func ("/infer-tensor/slice/opset9-attributes", test_slice_opset9_attributes);
  g_test_add_func ("/infer-tensor/concat/symbolic", test_concat_symbolic);
  g_test_add_func ("/infer-tensor/gather", test_gather_shapes);
  g_test_add_func ("/infer-tensor/expand", test_expand_with_initializer);
  g_test_add_func ("/infer-tensor/range", test_range);
  g_test_add_func ("/infer-tensor/constant-of-shape", test_constant_of_shape);
  g_test_add_func ("/infer-tensor/non-zero-and-top-k", test_non_zero_and_top_k);
  g_test_add_func ("/infer-tensor/top-k-opset9", test_top_k_opset1);
  g_test_add_func ("/infer-tensor/squeeze-unsqueeze/opset11", test_squeeze_unsqueeze_opset11);
  g_test_add_func ("/infer-tensor/squeeze-unsqueeze/opset13", test_squeeze_unsqueeze_opset13);
  g_test_add_func ("/infer-tensor/split", test_split_opsets);
  g_test_add_func ("/infer-tensor/resize", test_resize_scales);
  g_test_add_func ("/infer-tensor/upsample", test_upsample_opset9);
  g_test_add_func ("/infer-tensor/layout", test_transpose_flatten_pad_tile);
  g_test_add_func ("/infer-tensor/shape-start-end", test_shape_start_end);
  g_test_add_func ("/infer-tensor/pad-one-hot-misc", test_pad_one_hot_and_misc);
  g_test_add_func ("/infer-contrib/attention", test_attention);
  g_test_add_func ("/infer-contrib/embed-layer-norm", test_embed_layer_norm);
  g_test_add_func ("/infer-contrib/misc", test_contrib_misc);
  g_test_add_func ("/infer-contrib/group-query-attention", test_group_query_attention);
  return g_test_run ();
}
