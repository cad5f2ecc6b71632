/* ORT's view of shapes (pv-ort-shapes), the quantization and If rules of
 * planviz's own inference, and ORT's session-time rewrites
 * (pv-ort-graph-rewrite). tests/ort holds these against the real ORT; here
 * each rule is pinned on a small model. */
#include <string.h>

#include "pv-element-type.h"
#include "pv-ort-graph-rewrite.h"
#include "pv-ort-shapes.h"
#include "pv-test-model.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define H ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16
#define I64 ONNX__TENSOR_PROTO__DATA_TYPE__INT64
#define I8 ONNX__TENSOR_PROTO__DATA_TYPE__INT8
#define N PV_ONNX_NAMES

/* ORT's view of @name as "[batch,?,64]". */
static char *
ort_shape (const PvOrtShapes *s, const PvModel *m, const char *name)
{
  return pv_ort_value_type_to_string (pv_ort_shapes_get (s, m->graph, pv_graph_find_value (m->graph, name)));
}

/* planviz's own inference of @name as "float32[batch,64]". */
static char *
best_shape (const PvModel *m, const PvShapeInfo *info, const char *name)
{
  const PvValueShape *v = pv_shape_info_get (info, m->graph, pv_graph_find_value (m->graph, name));
  g_autofree char *dims = v->rank < 0 ? g_strdup ("?") : pv_test_dims_text (v->dims, v->rank, "[", "]");
  return g_strdup_printf ("%s%s", pv_element_type_name (v->elem_type), dims);
}

typedef struct {
  PvModel *model;
  PvOrtShapes *ort;
  PvShapeInfo *best;
} Views;

static Views
views_of (PvOnnxBuilder *b, GHashTable *input_values)
{
  Views v = { pv_test_load_built (b, "test.onnx") };
  PvShapeOptions options = { .input_values = input_values };
  g_autoptr (GError) error = NULL;

  v.ort = pv_ort_shapes_new (v.model, NULL, &error);
  g_assert_no_error (error);
  v.best = pv_shape_infer (v.model, &options, &error);
  g_assert_no_error (error);
  return v;
}

static void
views_clear (Views *v)
{
  pv_ort_shapes_unref (v->ort);
  pv_shape_info_free (v->best);
  pv_model_free (v->model);
}

#define ASSERT_ORT(v, name, expected) \
  G_STMT_START { g_autofree char *s_ = ort_shape ((v)->ort, (v)->model, name); g_assert_cmpstr (s_, ==, expected); } G_STMT_END
#define ASSERT_BEST(v, name, expected) \
  G_STMT_START { g_autofree char *s_ = best_shape ((v)->model, (v)->best, name); g_assert_cmpstr (s_, ==, expected); } G_STMT_END

/* ORT has no data propagation: a Reshape to Shape(x) keeps only the rank,
 * where planviz knows every dim. */
static void
test_no_data_propagation (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  Views v;

  pv_onnx_graph_add_input (g, "x", F, "batch,64");
  pv_onnx_graph_add_node (g, "Shape", "shape", N ("x"), N ("s"));
  pv_onnx_graph_add_node (g, "Relu", "relu", N ("x"), N ("r"));
  pv_onnx_graph_add_node (g, "Reshape", "reshape", N ("r", "s"), N ("y"));
  pv_onnx_graph_add_output (g, "y", F, NULL);
  v = views_of (b, NULL);
  ASSERT_ORT (&v, "r", "[batch,64]");
  ASSERT_ORT (&v, "y", "[?,?]");
  ASSERT_BEST (&v, "y", "float32[batch,64]");
  {
    const PvOrtValueType *t = pv_ort_shapes_get (v.ort, v.model->graph, pv_graph_find_value (v.model->graph, "y"));
    const PvValueShape *bs = pv_shape_info_get (v.best, v.model->graph, pv_graph_find_value (v.model->graph, "y"));
    g_autofree char *why = pv_ort_shapes_explain (v.ort, t, bs);
    g_assert_nonnull (strstr (why, "axis 0 is batch"));
  }
  views_clear (&v);
}

/* ONNX's broadcast: a value other than 1 wins, equal dim_params stay, two
 * different ones become empty; its dim arithmetic keeps x*1 only. */
static void
test_broadcast_and_arithmetic (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxNode *conv;
  float w[8 * 3 * 9] = { 0 };
  Views v;

  pv_onnx_graph_add_input (g, "a", F, "batch,4");
  pv_onnx_graph_add_input (g, "b", F, "seq,4");
  pv_onnx_graph_add_input (g, "c", F, "1,4");
  pv_onnx_graph_add_input (g, "img", F, "1,3,h,w");
  pv_onnx_graph_add_initializer_floats (g, "w", (gint64[]) { 8, 3, 3, 3 }, 4, w);
  pv_onnx_graph_add_node (g, "Add", "ab", N ("a", "b"), N ("ab"));
  pv_onnx_graph_add_node (g, "Add", "ac", N ("a", "c"), N ("ac"));
  pv_onnx_graph_add_node (g, "Flatten", "flat", N ("a"), N ("flat"));
  conv = pv_onnx_graph_add_node (g, "Conv", "conv", N ("img", "w"), N ("conv"));
  pv_onnx_node_add_attr_ints (conv, "pads", (gint64[]) { 1, 1, 1, 1 }, 4);
  pv_onnx_graph_add_output (g, "ab", F, NULL);
  pv_onnx_graph_add_output (g, "ac", F, NULL);
  pv_onnx_graph_add_output (g, "flat", F, NULL);
  pv_onnx_graph_add_output (g, "conv", F, NULL);
  v = views_of (b, NULL);
  ASSERT_ORT (&v, "ab", "[?,4]");
  ASSERT_ORT (&v, "ac", "[batch,4]");
  ASSERT_ORT (&v, "flat", "[batch,4]");
  /* (h + 2 - 3) / 1 + 1 is h to planviz, nothing to ONNX. */
  ASSERT_ORT (&v, "conv", "[1,8,?,?]");
  ASSERT_BEST (&v, "conv", "float32[1,8,h,w]");
  views_clear (&v);
}

/* A stated dim_param wins over an empty inferred dim, an inferred value over
 * a stated dim_param; values that contradict leave the dim empty. */
static void
test_merge_with_stated (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  Views v;

  pv_onnx_graph_add_input (g, "x", F, "batch,64");
  pv_onnx_graph_add_input (g, "s", I64, "2");
  pv_onnx_graph_add_node (g, "Reshape", "r1", N ("x", "s"), N ("y1"));
  pv_onnx_graph_add_node (g, "Relu", "r2", N ("x"), N ("y2"));
  pv_onnx_graph_add_node (g, "Relu", "r3", N ("x"), N ("y3"));
  pv_onnx_graph_add_value_info (g, "y1", F, "batch,n");
  pv_onnx_graph_add_value_info (g, "y2", F, "rows,64");
  pv_onnx_graph_add_value_info (g, "y3", F, "batch,32");
  pv_onnx_graph_add_node (g, "Concat", "out", N ("y1", "y2", "y3"), N ("o"));
  pv_onnx_node_add_attr_int (g->node[g->n_node - 1], "axis", 0);
  pv_onnx_graph_add_output (g, "o", F, NULL);
  v = views_of (b, NULL);
  ASSERT_ORT (&v, "y1", "[batch,n]");
  ASSERT_ORT (&v, "y2", "[rows,64]");
  ASSERT_ORT (&v, "y3", "[batch,?]");
  views_clear (&v);
}

/* DynamicQuantizeLinear, QuantizeLinear's zero-point type, DequantizeLinear's
 * scale type from opset 19, QLinearAdd's broadcast. */
static void
test_quantization_rules (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (19);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxNode *add;
  Views v;

  pv_onnx_builder_add_opset (b, "com.microsoft", 1);
  pv_onnx_graph_add_input (g, "x", F, "batch,8");
  pv_onnx_graph_add_input (g, "zp", I8, "");
  pv_onnx_graph_add_input (g, "hs", H, "");
  pv_onnx_graph_add_input (g, "xs", F, "");
  pv_onnx_graph_add_input (g, "row", I8, "1,8");
  pv_onnx_graph_add_node (g, "DynamicQuantizeLinear", "dq", N ("x"), N ("q", "qs", "qzp"));
  pv_onnx_graph_add_node (g, "QuantizeLinear", "ql", N ("x", "xs", "zp"), N ("q8"));
  pv_onnx_graph_add_node (g, "DequantizeLinear", "deq", N ("q8", "hs", "zp"), N ("h"));
  add = pv_onnx_graph_add_node (g, "QLinearAdd", "qadd", N ("q8", "xs", "zp", "row", "xs", "zp", "xs", "zp"), N ("qa"));
  pv_onnx_node_set_domain (add, "com.microsoft");
  for (const char *const *o = N ("q", "qs", "qzp", "h", "qa"); *o; o++)
    pv_onnx_graph_add_output (g, *o, 0, NULL);
  v = views_of (b, NULL);
  ASSERT_BEST (&v, "q", "uint8[batch,8]");
  ASSERT_BEST (&v, "qs", "float32[]");
  ASSERT_BEST (&v, "qzp", "uint8[]");
  ASSERT_BEST (&v, "q8", "int8[batch,8]");
  ASSERT_BEST (&v, "h", "float16[batch,8]");
  ASSERT_BEST (&v, "qa", "int8[batch,8]");
  views_clear (&v);
}

/* An If on Equal(Gather(Shape(x), 1), 3) takes its then branch in planviz's
 * view; ORT's merges both branches. On an input's value it needs the value. */
static PvOnnxBuilder *
if_model (gboolean on_input)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxGraph *then_g = pv_onnx_graph_new ("then"), *else_g = pv_onnx_graph_new ("else");
  PvOnnxNode *tr;

  pv_onnx_graph_add_input (g, "x", F, "1,3,8");
  pv_onnx_graph_add_initializer_int64s (g, "three", NULL, 0, (gint64[]) { 3 });
  if (on_input)
    {
      pv_onnx_graph_add_input (g, "mode", I64, "");
      pv_onnx_graph_add_node (g, "Equal", "eq", N ("mode", "three"), N ("cond"));
    }
  else
    {
      pv_onnx_graph_add_initializer_int64s (g, "one", NULL, 0, (gint64[]) { 1 });
      pv_onnx_graph_add_node (g, "Shape", "shape", N ("x"), N ("s"));
      pv_onnx_node_add_attr_int (pv_onnx_graph_add_node (g, "Gather", "gather", N ("s", "one"), N ("d")), "axis", 0);
      pv_onnx_graph_add_node (g, "Equal", "eq", N ("d", "three"), N ("cond"));
    }
  pv_onnx_graph_add_node (then_g, "Identity", "pass", N ("x"), N ("t"));
  pv_onnx_graph_add_output (then_g, "t", F, NULL);
  tr = pv_onnx_graph_add_node (else_g, "Transpose", "tr", N ("x"), N ("e"));
  pv_onnx_node_add_attr_ints (tr, "perm", (gint64[]) { 0, 2, 1 }, 3);
  pv_onnx_graph_add_output (else_g, "e", F, NULL);
  pv_onnx_graph_add_if (g, "if", "cond", N ("y"), then_g, else_g);
  pv_onnx_graph_add_output (g, "y", F, NULL);
  return b;
}

static void
test_if_folding (void)
{
  Views v = views_of (if_model (FALSE), NULL);
  g_autoptr (GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) pv_tensor_free);
  PvTensor *mode = g_new0 (PvTensor, 1);
  gint64 eight = 8;
  const char *const *warnings;
  gboolean named = FALSE;

  ASSERT_BEST (&v, "y", "float32[1,3,8]");
  ASSERT_ORT (&v, "y", "[1,?,?]");
  views_clear (&v);

  /* Unknown mode: the branches differ, the If is named with its input. */
  v = views_of (if_model (TRUE), NULL);
  warnings = pv_shape_info_warnings (v.best);
  for (int i = 0; warnings[i]; i++)
    named |= strstr (warnings[i], "“if”") && strstr (warnings[i], "“mode”");
  g_assert_true (named);
  views_clear (&v);

  mode->elem_type = PV_ELEM_INT64;
  mode->dims = g_new0 (gint64, 1);
  mode->data = g_bytes_new (&eight, sizeof eight);
  g_hash_table_insert (values, "mode", mode);
  v = views_of (if_model (TRUE), values);
  ASSERT_BEST (&v, "y", "float32[1,8,3]");
  views_clear (&v);
}

/* float16: Add has no float16 CPU kernel, Transpose has one. x -> Add ->
 * Transpose -> Add -> y: both Adds run in float32, the Transpose between
 * them is forced to float32 too, and the Casts between them cancel out. */
static void
test_insert_cast_rewrite (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (PvModel) m = NULL;
  g_autoptr (GError) error = NULL;
  const PvGraph *mg;
  GString *nodes = g_string_new (NULL);
  g_autofree char *text = NULL;

  pv_onnx_graph_add_input (g, "x", H, "2,3");
  pv_onnx_graph_add_node (g, "Add", "add1", N ("x", "x"), N ("a"));
  pv_onnx_graph_add_node (g, "Transpose", "tr", N ("a"), N ("t"));
  pv_onnx_graph_add_node (g, "Add", "add2", N ("t", "t"), N ("y"));
  pv_onnx_graph_add_output (g, "y", H, NULL);
  m = pv_test_load_built (b, "fp16.onnx");
  g_assert_true (pv_ort_graph_rewrite (m, NULL, NULL, &error));
  g_assert_no_error (error);
  mg = m->graph;
  for (int i = 0; i < mg->n_nodes; i++)
    {
      const PvNode *node = &mg->nodes[mg->order[i]];
      g_string_append_printf (nodes, "%s%s:%d", i ? " " : "", node->name, node->ort_index);
    }
  text = g_string_free (nodes, FALSE);
  /* Casts: x in (3), a out (4), a in for tr (5), t out (6), t in (7), y out
   * (8); 4-7 cancel out, leaving NodeIndex holes. */
  g_assert_cmpstr (text, ==, "InsertedPrecisionFreeCast_x:3 add1:0 tr:1 add2:2 InsertedPrecisionFreeCast_y:8");
  g_assert_nonnull (m->session_rewrites);
  g_assert_nonnull (strstr (m->session_rewrites[0], "3 nodes run in float32, 1 of them"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ort-shapes/no-data-propagation", test_no_data_propagation);
  g_test_add_func ("/ort-shapes/broadcast-and-arithmetic", test_broadcast_and_arithmetic);
  g_test_add_func ("/ort-shapes/merge-with-stated", test_merge_with_stated);
  g_test_add_func ("/shapes/quantization", test_quantization_rules);
  g_test_add_func ("/shapes/if-folding", test_if_folding);
  g_test_add_func ("/ort-rewrite/insert-cast", test_insert_cast_rewrite);
  return g_test_run ();
}
