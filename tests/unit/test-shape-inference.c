/* The inference driver: graph-input symbols, --input-shape, merging with
 * stated types, warnings, unification, sizes, bounds. */
#include <string.h>

#include "pv-model-loader.h"
#include "pv-onnx-builder.h"
#include "pv-onnx-text.h"
#include "pv-test-model.h"
#include "pv-shape-inference.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define N PV_ONNX_NAMES

static char *
shape_of (const PvShapeInfo *info, const PvModel *m, const char *name)
{
  const PvValueShape *s = pv_shape_info_get (info, m->graph, pv_graph_find_value (m->graph, name));

  return s->rank < 0 ? g_strdup ("?") : pv_test_dims_text (s->dims, s->rank, "[", "]");
}

static char *
bytes_of (const PvShapeInfo *info, const PvModel *m, const char *name)
{
  const PvValueShape *s = pv_shape_info_get (info, m->graph, pv_graph_find_value (m->graph, name));
  return s->bytes ? pv_dim_to_string (s->bytes) : g_strdup ("none");
}

/* Anonymous input dims get stable names; a second input's symbol unifies. */
static void
test_input_symbols (void)
{
  g_autoptr (PvModel) m = pv_test_load_text ("input:?,3 other:n,3", "Add add input,other>y", "y");
  g_autoptr (PvShapeInfo) info = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *x = NULL, *y = NULL;

  info = pv_shape_infer (m, NULL, &error);
  g_assert_no_error (error);
  x = shape_of (info, m, "input");
  y = shape_of (info, m, "y");
  /* input:0 was created first, so it names the class. */
  g_assert_cmpstr (x, ==, "[input:0,3]");
  g_assert_cmpstr (y, ==, "[input:0,3]");
}

static void
test_input_shape_override (void)
{
  g_autoptr (PvModel) m = pv_test_load_text ("ids:batch,seq mask:batch,seq", "Mul mul ids,mask>y", "y:batch,seq");
  g_autoptr (PvShapeInfo) info = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) shapes = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_array_unref);
  PvShapeOptions options = { 0 };
  GArray *dims = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 d[] = { 2, 512 };
  g_autofree char *y = NULL, *bytes = NULL;

  g_array_append_vals (dims, d, 2);
  g_hash_table_insert (shapes, "ids", dims);
  options.input_shapes = shapes;
  info = pv_shape_infer (m, &options, &error);
  g_assert_no_error (error);
  /* batch and seq are bound through ids, so mask and y follow. */
  y = shape_of (info, m, "y");
  g_assert_cmpstr (y, ==, "[2,512]");
  bytes = bytes_of (info, m, "mask");
  g_assert_cmpstr (bytes, ==, "4096");
  g_clear_pointer (&info, pv_shape_info_free);

  /* A rank that does not fit, and a name that is no input, are errors. */
  g_array_set_size (dims, 3);
  info = pv_shape_infer (m, &options, &error);
  g_assert_null (info);
  g_assert_nonnull (strstr (error->message, "--input-shape ids has 3 dims, but the model declares rank 2"));
  g_clear_error (&error);
  g_hash_table_remove_all (shapes);
  g_hash_table_insert (shapes, "nope", g_array_new (FALSE, FALSE, sizeof (gint64)));
  info = pv_shape_infer (m, &options, &error);
  g_assert_null (info);
  g_assert_nonnull (strstr (error->message, "“nope”, which is not a graph input"));
}

/* What the model states fills gaps; a contradiction is a warning. */
static void
test_merge_with_stated (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (PvModel) m = NULL;
  g_autoptr (PvShapeInfo) info = NULL;
  g_autoptr (GError) error = NULL;
  const char *const *warnings;
  const char *const *uncovered;
  const guint *counts;
  g_autofree char *u = NULL, *r = NULL;

  pv_onnx_graph_add_input (g, "x", F, "2,3");
  /* An op without a rule: its stated value_info is all there is. */
  pv_onnx_graph_add_node (g, "MysteryOp", "mystery", N ("x"), N ("u"));
  pv_onnx_graph_add_value_info (g, "u", F, "2,7");
  /* Relu's rule says [2,7]; the model claims [2,8]. */
  pv_onnx_graph_add_node (g, "Relu", "relu", N ("u"), N ("r"));
  pv_onnx_graph_add_output (g, "r", F, "2,8");
  m = pv_test_load_built (b, "test.onnx");
  info = pv_shape_infer (m, NULL, &error);
  g_assert_no_error (error);
  u = shape_of (info, m, "u");
  r = shape_of (info, m, "r");
  g_assert_cmpstr (u, ==, "[2,7]");
  g_assert_cmpstr (r, ==, "[2,7]");
  warnings = pv_shape_info_warnings (info);
  g_assert_nonnull (warnings[0]);
  g_assert_cmpstr (warnings[0], ==, "value “r”: the model states 8 for axis 1 but inference gives 7; keeping 7");
  g_assert_null (warnings[1]);
  uncovered = pv_shape_info_uncovered_ops (info, &counts);
  g_assert_cmpstr (uncovered[0], ==, "MysteryOp");
  g_assert_cmpuint (counts[0], ==, 1);
  g_assert_null (uncovered[1]);
}

/* Sizes: sub-byte types round up per tensor; strings have none; bounds
 * evaluate symbolic sizes and name what is missing. */
static void
test_sizes_and_bounds (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (PvModel) m = NULL;
  g_autoptr (PvShapeInfo) info = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) bounds = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autofree char *b4 = NULL, *bs = NULL, *bx = NULL;
  const char *missing = NULL;
  guint64 bytes = 0;
  gint64 eight = 8;

  pv_onnx_graph_add_input (g, "q", ONNX__TENSOR_PROTO__DATA_TYPE__INT4, "3,3");
  pv_onnx_graph_add_input (g, "s", ONNX__TENSOR_PROTO__DATA_TYPE__STRING, "4");
  pv_onnx_graph_add_input (g, "x", F, "batch,seq,2");
  pv_onnx_graph_add_nodes (g, "Identity a q>q2; Identity b s>s2; Relu c x>x2");
  pv_onnx_graph_add_output (g, "q2", ONNX__TENSOR_PROTO__DATA_TYPE__INT4, NULL);
  pv_onnx_graph_add_output (g, "s2", ONNX__TENSOR_PROTO__DATA_TYPE__STRING, NULL);
  pv_onnx_graph_add_output (g, "x2", F, NULL);
  m = pv_test_load_built (b, "test.onnx");
  info = pv_shape_infer (m, NULL, &error);
  g_assert_no_error (error);
  b4 = bytes_of (info, m, "q2");
  bs = bytes_of (info, m, "s2");
  bx = bytes_of (info, m, "x2");
  g_assert_cmpstr (b4, ==, "5");  /* 9 nibbles */
  g_assert_cmpstr (bs, ==, "none");
  g_assert_cmpstr (bx, ==, "8*batch*seq");

  g_hash_table_insert (bounds, "batch", g_memdup2 (&eight, sizeof eight));
  g_assert_false (pv_shape_info_eval_bytes (info, m->graph, pv_graph_find_value (m->graph, "x2"), bounds, &bytes,
                                            &missing));
  g_assert_cmpstr (missing, ==, "seq");
  g_hash_table_insert (bounds, "seq", g_memdup2 (&eight, sizeof eight));
  g_assert_true (pv_shape_info_eval_bytes (info, m->graph, pv_graph_find_value (m->graph, "x2"), bounds, &bytes,
                                           &missing));
  g_assert_cmpuint (bytes, ==, 8 * 8 * 8);
}

/* Exporters' Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain with
 * Constant nodes resolves to symbolic dims. */
static void
test_exporter_reshape_chain (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (PvModel) m = NULL;
  g_autoptr (PvShapeInfo) info = NULL;
  g_autoptr (GError) error = NULL;
  const gint64 scalar_dims[] = { 0 }, vec1[] = { 1 };
  const gint64 zero = 0, one = 1, axes0 = 0, heads = 4, head = 16;
  PvOnnxNode *c;
  g_autofree char *y = NULL;

  pv_onnx_graph_add_input (g, "x", F, "batch,seq,64");
  pv_onnx_graph_add_node (g, "Shape", "shape", N ("x"), N ("s"));
  c = pv_onnx_graph_add_node (g, "Constant", NULL, NULL, N ("i0"));
  pv_onnx_node_add_attr_tensor_int64s (c, "value", scalar_dims, 0, &zero);
  c = pv_onnx_graph_add_node (g, "Constant", NULL, NULL, N ("i1"));
  pv_onnx_node_add_attr_tensor_int64s (c, "value", scalar_dims, 0, &one);
  c = pv_onnx_graph_add_node (g, "Constant", NULL, NULL, N ("ax"));
  pv_onnx_node_add_attr_tensor_int64s (c, "value", vec1, 1, &axes0);
  c = pv_onnx_graph_add_node (g, "Constant", NULL, NULL, N ("h"));
  pv_onnx_node_add_attr_tensor_int64s (c, "value", vec1, 1, &heads);
  c = pv_onnx_graph_add_node (g, "Constant", NULL, NULL, N ("d"));
  pv_onnx_node_add_attr_tensor_int64s (c, "value", vec1, 1, &head);
  pv_onnx_graph_add_nodes (g, "Gather g0 s,i0>b; Gather g1 s,i1>t; Unsqueeze u0 b,ax>bu; Unsqueeze u1 t,ax>tu; "
                              "Concat cat bu,tu,h,d>shape4 axis=0");
  pv_onnx_graph_add_node (g, "Reshape", "reshape", N ("x", "shape4"), N ("y"));
  pv_onnx_graph_add_output (g, "y", F, NULL);
  m = pv_test_load_built (b, "test.onnx");
  info = pv_shape_infer (m, NULL, &error);
  g_assert_no_error (error);
  y = shape_of (info, m, "y");
  g_assert_cmpstr (y, ==, "[batch,seq,4,16]");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shapes/input-symbols", test_input_symbols);
  g_test_add_func ("/shapes/input-shape-override", test_input_shape_override);
  g_test_add_func ("/shapes/merge-with-stated", test_merge_with_stated);
  g_test_add_func ("/shapes/sizes-and-bounds", test_sizes_and_bounds);
  g_test_add_func ("/shapes/exporter-reshape-chain", test_exporter_reshape_chain);
  return g_test_run ();
}
