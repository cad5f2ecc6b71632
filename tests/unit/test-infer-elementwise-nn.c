/* Shape rules of pv-infer-elementwise.c and pv-infer-nn.c, each on a small
 * model built for it. Graph outputs are left untyped so that what is checked
 * is what the rules infer, not what the model states. Symbolic results are
 * compared with expressions built in the inference's own pool (hash-consed:
 * pointer equality is expression equality). */
#include <string.h>

#include "pv-element-type.h"
#include "pv-model-loader.h"
#include "pv-onnx-builder.h"
#include "pv-onnx-text.h"
#include "pv-shape-inference.h"
#include "pv-test-model.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define D ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE
#define I64 ONNX__TENSOR_PROTO__DATA_TYPE__INT64
#define I32 ONNX__TENSOR_PROTO__DATA_TYPE__INT32
#define U8 ONNX__TENSOR_PROTO__DATA_TYPE__UINT8
#define N PV_ONNX_NAMES

#define assert_shape(r, name, expected)                          \
  G_STMT_START                                                   \
  {                                                              \
    g_autofree char *got_ = pv_test_shape_text (r, name);        \
    g_assert_cmpstr (got_, ==, expected);                        \
  }                                                              \
  G_STMT_END

/* Several at once: "a=...; b=..." */
#define assert_shapes(r, expected) pv_test_assert_shapes (r, FALSE, expected)
#define assert_data pv_test_assert_data

#define assert_type(r, name, t) g_assert_cmpint (pv_test_inferred_shape (r, name)->elem_type, ==, t)

static const PvDimExpr *
sym (const PvTestInferred *r, const char *name)
{
  return pv_dim_pool_resolve (r->pool, pv_dim_symbol (r->pool, name));
}

static const PvDimExpr *
cst (const PvTestInferred *r, gint64 v)
{
  return pv_dim_const (r->pool, v);
}

/* Untyped graph outputs, @names separated by ' ': nothing stated to merge
 * with. */
static void
out (PvOnnxGraph *g, const char *names)
{
  g_auto (GStrv) list = g_strsplit (names, " ", -1);

  for (int i = 0; list[i]; i++)
    pv_onnx_graph_add_output (g, list[i], 0, NULL);
}

static void
int64s (PvOnnxGraph *g, const char *name, const gint64 *values, gsize n)
{
  gint64 dims[1] = { (gint64) n };
  pv_onnx_graph_add_initializer_int64s (g, name, dims, 1, values);
}

/* ---- elementwise ---- */

static void
test_unary_and_cast (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxNode *n;
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_input (g, "x", F, "batch,3");
  pv_onnx_graph_add_input (g, "like", D, "1");
  pv_onnx_graph_add_nodes (g, "Relu x>relu; IsNaN x>isnan");
  n = pv_onnx_graph_add_node (g, "Cast", NULL, N ("x"), N ("cast"));
  pv_onnx_node_add_attr_int (n, "to", I32);
  pv_onnx_graph_add_nodes (g, "CastLike x,like>castlike; Dropout x>drop,mask; Clip x>clip");
  out (g, "relu isnan cast castlike drop mask clip");
  r = pv_test_infer (b);

  assert_shape (&r, "relu", "[batch,3]");
  assert_type (&r, "relu", PV_ELEM_FLOAT);
  assert_type (&r, "isnan", PV_ELEM_BOOL);
  assert_shape (&r, "isnan", "[batch,3]");
  assert_type (&r, "cast", PV_ELEM_INT32);
  assert_type (&r, "castlike", PV_ELEM_DOUBLE);
  assert_shapes (&r, "castlike=[batch,3]; drop=[batch,3]");
  assert_type (&r, "mask", PV_ELEM_BOOL);
  assert_shapes (&r, "mask=[batch,3]; clip=[batch,3]");
}

static void
test_broadcast (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_inputs (g, F, "x:batch,1,64 y:seq,1 one:1 a:a,8 bb:b,8");
  pv_onnx_graph_add_input (g, "c", ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, "batch,1,1");
  pv_onnx_graph_add_inputs (g, F, "u three:3 four:4");
  pv_onnx_graph_add_nodes (g, "Add x,y>sum; Add three,four>bad; Mul x,one>prod; Sub a,bb>diff; Less x,y>less; "
                              "Where c,x,y>where; Max x,y,one>max; Pow x,u>pow; PRelu x,one>prelu");
  out (g, "sum prod diff less where max pow prelu bad");
  r = pv_test_infer (b);

  assert_shapes (&r, "sum=[batch,seq,64]; prod=[batch,1,64]");
  assert_type (&r, "less", PV_ELEM_BOOL);
  assert_shape (&r, "less", "[batch,seq,64]");
  assert_type (&r, "where", PV_ELEM_FLOAT);
  assert_shapes (&r, "where=[batch,seq,64]; max=[batch,seq,64]; prelu=[batch,1,64]");
  /* a vs b: unified, so both inputs and the output name one class. */
  g_assert_true (sym (&r, "a") == sym (&r, "b"));
  g_assert_true (pv_test_inferred_shape (&r, "diff")->dims[0] == sym (&r, "a"));
  g_assert_true (pv_test_inferred_shape (&r, "diff")->dims[1] == cst (&r, 8));
  /* An operand of unknown rank: the type is known, the rank is not. */
  assert_shape (&r, "pow", "?");
  assert_type (&r, "pow", PV_ELEM_FLOAT);
  /* 3 vs 4: a warning and an unknowable dim, never a guess. */
  g_assert_nonnull (pv_shape_info_warnings (r.info)[0]);
  g_assert_cmpint (pv_test_inferred_shape (&r, "bad")->rank, ==, 1);
  g_assert_false (pv_dim_is_const (pv_test_inferred_shape (&r, "bad")->dims[0], NULL));
}

static void
test_data_propagation (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const gint64 heads[] = { 1, 1, 12 }, neg[] = { -7, 7 }, two[] = { 2 }, one[] = { 1 };
  const gint64 other[] = { 0, 0, -1 }, l[] = { 2, 3 }, rr[] = { 2, 4 };
  PvOnnxNode *n;
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_input (g, "x", F, "batch,seq,768");
  int64s (g, "heads", heads, 3);
  int64s (g, "neg", neg, 2);
  int64s (g, "two", two, 1);
  int64s (g, "one", one, 1);
  int64s (g, "l", l, 2);
  int64s (g, "rr", rr, 2);
  pv_onnx_graph_add_initializer (g, "cond", ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, (gint64[]) { 3 }, 1,
                                 (const guint8[]) { 1, 0, 1 }, 3);
  int64s (g, "other", other, 3);
  pv_onnx_graph_add_nodes (g, "Shape x>shape; Div shape,heads>per_head; Mul shape,heads>scaled; Add shape,one>plus1; "
                              "Sub shape,shape>zero; Div neg,two>trunc; Div shape,two>inexact; Equal l,rr>eq; "
                              "Equal shape,heads>eq_sym; Where cond,shape,other>where; Neg neg>negated; Abs neg>abs; "
                              "Max shape,one>max");
  pv_onnx_graph_add_initializer_int64s (g, "zero_scalar", NULL, 0, (const gint64[]) { 0 });
  pv_onnx_graph_add_nodes (g, "Clip neg,zero_scalar>clipped; Identity shape>ident");
  n = pv_onnx_graph_add_node (g, "Cast", NULL, N ("shape"), N ("as_float"));
  pv_onnx_node_add_attr_int (n, "to", F);
  n = pv_onnx_graph_add_node (g, "Cast", NULL, N ("as_float"), N ("back"));
  pv_onnx_node_add_attr_int (n, "to", I64);
  n = pv_onnx_graph_add_node (g, "Cast", NULL, N ("neg"), N ("neg_float"));
  pv_onnx_node_add_attr_int (n, "to", F);
  n = pv_onnx_graph_add_node (g, "Cast", NULL, N ("neg_float"), N ("neg_int"));
  pv_onnx_node_add_attr_int (n, "to", I32);
  out (g, "per_head scaled plus1 zero trunc inexact eq eq_sym where negated abs max clipped ident back neg_int");
  r = pv_test_infer (b);

  assert_data (&r, "shape", "{batch,seq,768}");
  assert_data (&r, "per_head", "{batch,seq,64}");
  assert_shape (&r, "per_head", "[3]");
  g_assert_true (pv_test_inferred_shape (&r, "scaled")->data != NULL);
  g_assert_true (pv_test_inferred_shape (&r, "scaled")->data[2] == cst (&r, 9216));
  g_assert_true (pv_test_inferred_shape (&r, "plus1")->data[0] == pv_dim_add (r.pool, sym (&r, "batch"), cst (&r, 1)));
  assert_data (&r, "zero", "{0,0,0}");
  /* Integer Div truncates toward zero, as C. */
  assert_data (&r, "trunc", "{-3,3}");
  /* batch/2 is not exact: no contents. */
  assert_data (&r, "inexact", "none");
  assert_data (&r, "eq", "{1,0}");
  assert_type (&r, "eq", PV_ELEM_BOOL);
  assert_data (&r, "eq_sym", "none");
  assert_data (&r, "where", "{batch,0,768}");
  assert_data (&r, "negated", "{7,-7}");
  assert_data (&r, "abs", "{7,7}");
  g_assert_true (pv_test_inferred_shape (&r, "max")->data[0] == pv_dim_max (r.pool, sym (&r, "batch"), cst (&r, 1)));
  assert_data (&r, "clipped", "{0,7}");
  assert_data (&r, "ident", "{batch,seq,768}");
  /* int -> float keeps symbolic contents; float -> int only constants. */
  assert_data (&r, "as_float", "{batch,seq,768}");
  assert_data (&r, "back", "none");
  assert_type (&r, "back", PV_ELEM_INT64);
  assert_data (&r, "neg_int", "{-7,7}");
  assert_type (&r, "neg_int", PV_ELEM_INT32);
}

/* ---- nn ---- */

static void
test_conv (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const gint64 two[] = { 2, 2 }, pads[] = { 1, 1, 1, 1 };
  PvOnnxNode *n;
  g_auto (PvTestInferred) r = { 0 };
  const PvDimExpr *one, *h, *w;

  pv_onnx_graph_add_inputs (g, F, "x:N,3,H,W w:16,3,3,3 xc:1,1,7,5 wc:2,1,3,3 xt:1,1,3,3 wt:1,2,3,3");
  n = pv_onnx_graph_add_node (g, "Conv", NULL, N ("x", "w"), N ("y"));
  pv_onnx_node_add_attr_ints (n, "strides", two, 2);
  pv_onnx_node_add_attr_ints (n, "pads", pads, 4);
  n = pv_onnx_graph_add_node (g, "Conv", NULL, N ("x", "w"), N ("same"));
  pv_onnx_node_add_attr_ints (n, "strides", two, 2);
  pv_onnx_node_add_attr_string (n, "auto_pad", "SAME_UPPER");
  n = pv_onnx_graph_add_node (g, "Conv", NULL, N ("xc", "wc"), N ("yc"));
  pv_onnx_node_add_attr_ints (n, "strides", two, 2);
  pv_onnx_node_add_attr_ints (n, "pads", pads, 4);
  n = pv_onnx_graph_add_node (g, "Conv", NULL, N ("xc", "wc"), N ("dil"));
  pv_onnx_node_add_attr_ints (n, "dilations", two, 2);
  pv_onnx_graph_add_nodes (g, "ConvTranspose xt,wt>yt strides=[3,2] output_padding=[1,1]");
  n = pv_onnx_graph_add_node (g, "ConvTranspose", NULL, N ("xt", "wt"), N ("yt_same"));
  pv_onnx_node_add_attr_ints (n, "strides", two, 2);
  pv_onnx_node_add_attr_string (n, "auto_pad", "SAME_UPPER");
  pv_onnx_graph_add_nodes (g, "ConvTranspose xt,wt>yt_shape strides=[3,2] output_shape=[10,8]");
  out (g, "y same yc dil yt yt_same yt_shape");
  r = pv_test_infer (b);

  /* floor((H + 1 + 1 - 3)/2) + 1 = floor((H-1)/2) + 1 */
  one = cst (&r, 1);
  h = pv_dim_add (r.pool, pv_dim_floor_div (r.pool, pv_dim_sub (r.pool, sym (&r, "H"), one), 2), one);
  w = pv_dim_add (r.pool, pv_dim_floor_div (r.pool, pv_dim_sub (r.pool, sym (&r, "W"), one), 2), one);
  {
    const PvValueShape *y = pv_test_inferred_shape (&r, "y");
    g_assert_cmpint (y->rank, ==, 4);
    g_assert_true (y->dims[0] == sym (&r, "N"));
    g_assert_true (y->dims[1] == cst (&r, 16));
    g_assert_true (y->dims[2] == h);
    g_assert_true (y->dims[3] == w);
  }
  g_assert_true (pv_test_inferred_shape (&r, "same")->dims[2] == pv_dim_ceil_div (r.pool, sym (&r, "H"), 2));
  assert_shapes (&r, "yc=[1,2,4,3]; dil=[1,2,3,1]");
  /* stride*(in-1) + output_padding + k - pads: 3*2+1+3 = 10, 2*2+1+3 = 8 */
  assert_shapes (&r, "yt=[1,2,10,8]; yt_same=[1,2,6,6]; yt_shape=[1,2,10,8]");
}

static void
test_pool (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_inputs (g, F, "x:1,1,4,4 small:1,3,2,2 img:N,C,H,W");
  pv_onnx_graph_add_nodes (g, "MaxPool x>ceil,idx kernel_shape=[3,3] strides=[2,2] ceil_mode=1; "
                              "MaxPool x>floor kernel_shape=[3,3] strides=[2,2]");
  /* The last ceil window would start in the right padding: dropped. */
  pv_onnx_graph_add_nodes (g, "AveragePool small>last kernel_shape=[3,3] strides=[3,3] pads=[1,1,1,1] ceil_mode=1; "
                              "AveragePool img>half kernel_shape=[2,2] strides=[2,2]; "
                              "MaxPool img>ceil_sym kernel_shape=[3,3] strides=[2,2] ceil_mode=1; "
                              "GlobalAveragePool img>gap");
  out (g, "ceil idx floor last half gap ceil_sym");
  r = pv_test_infer (b);

  assert_shapes (&r, "ceil=[1,1,2,2]; idx=[1,1,2,2]");
  assert_type (&r, "idx", PV_ELEM_INT64);
  assert_shapes (&r, "floor=[1,1,1,1]; last=[1,3,1,1]");
  /* floor((H-2)/2)+1 == floor(H/2) */
  g_assert_true (pv_test_inferred_shape (&r, "half")->dims[2] == pv_dim_floor_div (r.pool, sym (&r, "H"), 2));
  assert_shape (&r, "gap", "[N,C,1,1]");
  /* ceil((H-3)/2)+1: no window can start in padding, so no min() */
  g_assert_true (pv_test_inferred_shape (&r, "ceil_sym")->dims[3]
                 == pv_dim_add (r.pool, pv_dim_ceil_div (r.pool, pv_dim_sub (r.pool, sym (&r, "W"), cst (&r, 3)), 2),
                                cst (&r, 1)));
}

static void
test_normalization (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxNode *n;
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_inputs (g, F, "x:N,C,H,W s:C t:batch,seq,768 g:768");
  pv_onnx_graph_add_inputs (g, D, "td:batch,seq,768 gd:768");
  n = pv_onnx_graph_add_node (g, "BatchNormalization", NULL, N ("x", "s", "s", "s", "s"),
                              N ("bn", "running_mean", "running_var"));
  pv_onnx_node_add_attr_int (n, "training_mode", 1);
  pv_onnx_graph_add_nodes (g, "LayerNormalization t,g,g>ln,mean,inv; LayerNormalization td,gd>lnd,meand axis=1; "
                              "InstanceNormalization x,s,s>inorm");
  out (g, "bn running_mean running_var ln mean inv lnd meand inorm");
  r = pv_test_infer (b);

  assert_shapes (&r, "bn=[N,C,H,W]; running_mean=[C]; running_var=[C]; ln=[batch,seq,768]; mean=[batch,seq,1]");
  assert_type (&r, "inv", PV_ELEM_FLOAT);
  assert_type (&r, "lnd", PV_ELEM_DOUBLE);
  assert_shape (&r, "meand", "[batch,1,1]");
  assert_type (&r, "meand", PV_ELEM_DOUBLE);
  assert_shape (&r, "inorm", "[N,C,H,W]");
}

static void
test_matmul_gemm (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_inputs (g, F, "x:batch,seq,64 w:64,128 v:64 q:1,heads,seq,64 k:batch,1,64,seq a:K,M bt:N,K");
  pv_onnx_graph_add_inputs (g, U8, "xi:M,K wi:K,N");
  pv_onnx_graph_add_nodes (g, "MatMul x,w>mm; MatMul v,w>vec_mat; MatMul x,v>mat_vec; MatMul v,v>dot; "
                              "MatMul q,k>scores; Gemm a,bt>gemm transA=1 transB=1; MatMulInteger xi,wi>mmi");
  out (g, "mm vec_mat mat_vec dot scores gemm mmi");
  r = pv_test_infer (b);

  assert_shapes (&r, "mm=[batch,seq,128]; vec_mat=[128]; mat_vec=[batch,seq]; dot=[]");
  /* batch dims broadcast: [1,heads] vs [batch,1] */
  assert_shapes (&r, "scores=[batch,heads,seq,seq]; gemm=[M,N]; mmi=[M,N]");
  assert_type (&r, "mmi", PV_ELEM_INT32);
}

static void
test_reductions (void)
{
  g_auto (PvTestInferred) r = { 0 };
  PvOnnxBuilder *b;
  PvOnnxGraph *g;
  PvOnnxNode *n;
  const gint64 axes1[] = { 1 }, axes_neg[] = { -1, 0 };

  /* opset 11: axes is an attribute for every reduction. */
  b = pv_test_builder_new (11);
  g = pv_onnx_builder_get_graph (b);
  pv_onnx_graph_add_input (g, "x", F, "batch,seq,768");
  n = pv_onnx_graph_add_node (g, "ReduceSum", NULL, N ("x"), N ("sum"));
  pv_onnx_node_add_attr_ints (n, "axes", axes1, 1);
  n = pv_onnx_graph_add_node (g, "ReduceMean", NULL, N ("x"), N ("mean"));
  pv_onnx_node_add_attr_ints (n, "axes", axes_neg, 2);
  pv_onnx_node_add_attr_int (n, "keepdims", 0);
  pv_onnx_graph_add_nodes (g, "ReduceMax x>all; ArgMax x>argmax axis=-1 keepdims=0");
  out (g, "sum mean all argmax");
  r = pv_test_infer (b);
  assert_shapes (&r, "sum=[batch,1,768]; mean=[seq]; all=[1,1,1]; argmax=[batch,seq]");
  assert_type (&r, "argmax", PV_ELEM_INT64);
  pv_test_inferred_clear (&r);

  /* opset 13: ReduceSum takes axes as an input, ReduceMean still an attribute. */
  b = pv_test_builder_new (13);
  g = pv_onnx_builder_get_graph (b);
  pv_onnx_graph_add_input (g, "x", F, "batch,seq,768");
  pv_onnx_graph_add_input (g, "dyn", I64, "2");
  int64s (g, "axes", axes1, 1);
  pv_onnx_graph_add_nodes (g, "ReduceSum x,axes>sum; ReduceSum x>noop noop_with_empty_axes=1");
  n = pv_onnx_graph_add_node (g, "ReduceMean", NULL, N ("x"), N ("mean"));
  pv_onnx_node_add_attr_ints (n, "axes", axes1, 1);
  pv_onnx_node_add_attr_int (n, "keepdims", 0);
  pv_onnx_graph_add_nodes (g, "ReduceSum x,dyn>unknown_keep; ReduceSum x,dyn>unknown_drop keepdims=0");
  out (g, "sum noop mean unknown_keep unknown_drop");
  r = pv_test_infer (b);
  assert_shapes (&r, "sum=[batch,1,768]; noop=[batch,seq,768]; mean=[batch,768]");
  {
    /* Axes unknown: the rank stays, each dim is unknowable. */
    const PvValueShape *s = pv_test_inferred_shape (&r, "unknown_keep");
    g_assert_cmpint (s->rank, ==, 3);
    g_assert_nonnull (pv_dim_symbol_name (s->dims[0]));
    g_assert_false (s->dims[0] == sym (&r, "batch"));
    g_assert_false (pv_dim_is_const (s->dims[2], NULL));
    /* Two axes go when keepdims=0. */
    g_assert_cmpint (pv_test_inferred_shape (&r, "unknown_drop")->rank, ==, 1);
  }
  pv_test_inferred_clear (&r);

  /* opset 18: axes is an input for every reduction. */
  b = pv_test_builder_new (18);
  g = pv_onnx_builder_get_graph (b);
  pv_onnx_graph_add_input (g, "x", F, "batch,seq,768");
  int64s (g, "axes", axes_neg, 2);
  pv_onnx_graph_add_nodes (g, "ReduceMean x,axes>mean keepdims=0; ReduceL2 x,axes>l2; ReduceMax x>all");
  out (g, "mean l2 all");
  r = pv_test_infer (b);
  assert_shapes (&r, "mean=[seq]; l2=[1,seq,1]; all=[1,1,1]");
}

static void
test_recurrent (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (14);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxNode *n;
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_inputs (g, F, "x:seq,batch,32 w:2,256,32 r:2,256,64 xb:batch,seq,32 wg:1,48,32 rg:1,48,16");
  n = pv_onnx_graph_add_node (g, "LSTM", NULL, N ("x", "w", "r"), N ("y", "y_h", "y_c"));
  pv_onnx_node_add_attr_int (n, "hidden_size", 64);
  pv_onnx_node_add_attr_string (n, "direction", "bidirectional");
  pv_onnx_graph_add_nodes (g, "GRU xb,wg,rg>gy,gy_h layout=1");
  out (g, "y y_h y_c gy gy_h");
  r = pv_test_infer (b);

  assert_shapes (&r, "y=[seq,2,batch,64]; y_h=[2,batch,64]; y_c=[2,batch,64]");
  /* layout 1, hidden_size from R when the attribute is absent */
  assert_shapes (&r, "gy=[batch,seq,1,16]; gy_h=[batch,1,16]");
}

static void
test_einsum_softmax (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxNode *n;
  g_auto (PvTestInferred) r = { 0 };

  pv_onnx_graph_add_inputs (g, F, "a:B,I,J bm:B,J,K d:2,3,5,5 m:I,J m2:J,K sq:4,4");
  n = pv_onnx_graph_add_node (g, "Einsum", NULL, N ("a", "bm"), N ("bmm"));
  pv_onnx_node_add_attr_string (n, "equation", "bij, bjk -> bik");
  n = pv_onnx_graph_add_node (g, "Einsum", NULL, N ("d"), N ("diag"));
  pv_onnx_node_add_attr_string (n, "equation", "...ii->...i");
  n = pv_onnx_graph_add_node (g, "Einsum", NULL, N ("m", "m2"), N ("implicit"));
  pv_onnx_node_add_attr_string (n, "equation", "ij,jk");
  n = pv_onnx_graph_add_node (g, "Einsum", NULL, N ("sq"), N ("trace"));
  pv_onnx_node_add_attr_string (n, "equation", "ii");
  pv_onnx_graph_add_nodes (g, "Softmax a>sm axis=-1; CumSum a,m>cs");
  out (g, "bmm diag implicit trace sm cs");
  r = pv_test_infer (b);

  assert_shapes (&r, "bmm=[B,I,K]; diag=[2,3,5]; implicit=[I,K]; trace=[]; sm=[B,I,J]; cs=[B,I,J]");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/infer/elementwise/unary-cast", test_unary_and_cast);
  g_test_add_func ("/infer/elementwise/broadcast", test_broadcast);
  g_test_add_func ("/infer/elementwise/data", test_data_propagation);
  g_test_add_func ("/infer/nn/conv", test_conv);
  g_test_add_func ("/infer/nn/pool", test_pool);
  g_test_add_func ("/infer/nn/normalization", test_normalization);
  g_test_add_func ("/infer/nn/matmul-gemm", test_matmul_gemm);
  g_test_add_func ("/infer/nn/reductions", test_reductions);
  g_test_add_func ("/infer/nn/recurrent", test_recurrent);
  g_test_add_func ("/infer/nn/einsum-softmax", test_einsum_softmax);
  return g_test_run ();
}
