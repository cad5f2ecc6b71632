/* test-optimised-plan.c: plans of graphs ONNX Runtime optimised (its saved
 * optimizedModelFilePath models): the NCHWc layout ops have shapes, and a
 * plan whose values have sizes planviz cannot compute (an op with no shape
 * rule) says so and gives no figure. */
#include <string.h>

#include "pv-onnx-builder.h"
#include "pv-plan-export.h"
#include "pv-session.h"
#include "pv-test-model.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define N PV_ONNX_NAMES

static char *
shape_text (const PvSession *s, const char *name)
{
  const PvGraph *g = s->graph;
  for (int v = 0; v < g->n_values; v++)
    if (strcmp (g->values[v].name, name) == 0)
      {
        const PvValueShape *vs = pv_shape_info_get (s->shapes, g, v);
        return pv_test_dims_text (vs->dims, vs->rank, "[", "]");
      }
  g_assert_not_reached ();
}

/* x [1,3,8,8] -> ReorderInput (channels to the block) -> NCHWc Conv (W
 * padded to 16 outputs, 3x3 stride 2 pad 1) -> MaxPool 2x2 -> Upsample x2
 * -> GlobalAveragePool -> ReorderOutput (10 channels). */
static void
test_nchwc_shapes (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (13);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  static const gint64 wdims[] = { 16, 16, 3, 3 };
  static const gint64 ks[] = { 3, 3 }, st[] = { 2, 2 }, pads[] = { 1, 1, 1, 1 }, k2[] = { 2, 2 };
  static const gint64 scales[] = { 1, 1, 2, 2 };
  g_autoptr (PvModel) m = NULL;
  g_autoptr (PvKernelTable) kernels = pv_kernel_table_new_default (NULL);
  g_autoptr (PvSession) s = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *r = NULL, *c = NULL, *p = NULL, *u = NULL, *gp = NULL, *y = NULL;
  gint64 block = pv_infer_nchwc_block_size ();
  PvOnnxNode *n;

  pv_onnx_builder_add_opset (b, "com.microsoft.nchwc", 1);
  pv_onnx_graph_add_input (g, "x", F, "1,3,8,8");
  pv_onnx_graph_add_initializer_alloc (g, "w", F, wdims, 4, 16 * 16 * 9 * sizeof (float));
  n = pv_onnx_graph_add_node (g, "ReorderInput", "ri", N ("x"), N ("r"));
  pv_onnx_node_set_domain (n, "com.microsoft.nchwc");
  n = pv_onnx_graph_add_node (g, "Conv", "conv", N ("r", "w"), N ("c"));
  pv_onnx_node_set_domain (n, "com.microsoft.nchwc");
  pv_onnx_node_add_attr_ints (n, "kernel_shape", ks, 2);
  pv_onnx_node_add_attr_ints (n, "strides", st, 2);
  pv_onnx_node_add_attr_ints (n, "pads", pads, 4);
  pv_onnx_node_add_attr_string (n, "activation", "Relu");
  n = pv_onnx_graph_add_node (g, "MaxPool", "pool", N ("c"), N ("p"));
  pv_onnx_node_set_domain (n, "com.microsoft.nchwc");
  pv_onnx_node_add_attr_ints (n, "kernel_shape", k2, 2);
  pv_onnx_node_add_attr_ints (n, "strides", k2, 2);
  n = pv_onnx_graph_add_node (g, "Upsample", "up", N ("p"), N ("u"));
  pv_onnx_node_set_domain (n, "com.microsoft.nchwc");
  pv_onnx_node_add_attr_ints (n, "scales", scales, 4);
  n = pv_onnx_graph_add_node (g, "GlobalAveragePool", "gap", N ("u"), N ("gp"));
  pv_onnx_node_set_domain (n, "com.microsoft.nchwc");
  n = pv_onnx_graph_add_node (g, "ReorderOutput", "ro", N ("gp"), N ("y"));
  pv_onnx_node_set_domain (n, "com.microsoft.nchwc");
  pv_onnx_node_add_attr_int (n, "channels", 10);
  pv_onnx_graph_add_output (g, "y", F, NULL);
  m = pv_test_load_built (b, "nchwc.onnx");
  s = pv_session_new (m, kernels, NULL, &error);
  g_assert_no_error (error);
  r = shape_text (s, "r");
  g_assert_cmpstr (r, ==, block == 16 ? "[1,16,8,8]" : "[1,8,8,8]");
  c = shape_text (s, "c");
  g_assert_cmpstr (c, ==, "[1,16,4,4]");
  p = shape_text (s, "p");
  g_assert_cmpstr (p, ==, "[1,16,2,2]");
  u = shape_text (s, "u");
  g_assert_cmpstr (u, ==, "[1,16,4,4]");
  gp = shape_text (s, "gp");
  g_assert_cmpstr (gp, ==, "[1,16,1,1]");
  y = shape_text (s, "y");
  g_assert_cmpstr (y, ==, "[1,10,1,1]");
  g_assert_false (s->slots->deferred);
  g_assert_cmpint (s->basis->n_shapeless, ==, 0);
}

/* x -> Relu -> an op with no shape rule -> Relu -> y: both later values have
 * no size; the plan is deferred and names the op, in text and JSON. */
static void
test_no_shape_rule_is_not_silent (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (PvModel) m = NULL;
  g_autoptr (PvKernelTable) kernels = pv_kernel_table_new_default (NULL);
  g_autoptr (PvSession) s = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL, *json = NULL, *slots = NULL;
  PvOnnxNode *n;

  pv_onnx_builder_add_opset (b, "com.example", 1);
  pv_onnx_graph_add_input (g, "x", F, "64,64");
  pv_onnx_graph_add_node (g, "Relu", "relu", N ("x"), N ("a"));
  n = pv_onnx_graph_add_node (g, "Mystery", "mystery", N ("a"), N ("b"));
  pv_onnx_node_set_domain (n, "com.example");
  pv_onnx_graph_add_node (g, "Relu", "relu2", N ("b"), N ("c"));
  pv_onnx_graph_add_node (g, "Sigmoid", "sig", N ("c"), N ("y"));
  pv_onnx_graph_add_output (g, "y", F, NULL);
  m = pv_test_load_built (b, "mystery.onnx");
  s = pv_session_new (m, kernels, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (s->slots->deferred);
  g_assert_cmpint (s->basis->n_shapeless, >=, 2);
  g_assert_nonnull (s->basis->no_shape_rule[0]);
  g_assert_nonnull (strstr (s->basis->no_shape_rule[0], "Mystery"));
  g_assert_null (s->basis->no_shape_rule[1]);
  text = pv_plan_export_text (s, PV_PLANNER_ORT);
  g_test_message ("%s", text);
  g_assert_null (strstr (text, "ORT reserves"));
  g_assert_nonnull (strstr (text, "deferred:"));
  g_assert_nonnull (strstr (text, "no shape rule for"));
  g_assert_nonnull (strstr (text, "Mystery (×1)"));
  slots = pv_plan_export_text (s, PV_PLANNER_SLOTS);
  g_assert_nonnull (strstr (slots, "no shape rule for"));
  json = pv_plan_export_json (s, PV_PLANNER_ORT);
  g_assert_nonnull (strstr (json, "\"status\":\t\"deferred\""));
  g_assert_nonnull (strstr (json, "\"no_shape_rule\""));
  g_assert_null (strstr (json, "\"peak_bytes\""));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/optimised-plan/nchwc-shapes", test_nchwc_shapes);
  g_test_add_func ("/optimised-plan/no-shape-rule", test_no_shape_rule_is_not_silent);
  return g_test_run ();
}
