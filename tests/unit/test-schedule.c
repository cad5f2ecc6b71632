/* The schedule simulation: program order, barriers after triggers, live
 * intervals, the live-bytes curve; and the roofline cost model. */
#include "pv-cost-model.h"
#include "pv-model-loader.h"
#include "pv-onnx-builder.h"
#include "pv-session.h"
#include "pv-test-model.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define N PV_ONNX_NAMES

/* x -> a (n0) -> b (n1); x -> c (n2) -> d (n3); b + d -> y (n4). */
static PvModel *
diamond (void)
{
  PvOnnxBuilder *b = pv_onnx_builder_new (8, "t");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);

  pv_onnx_builder_add_opset (b, "", 17);
  pv_onnx_graph_add_input (g, "x", F, "256");
  pv_onnx_graph_add_node (g, "Sigmoid", "n0", N ("x"), N ("a"));
  pv_onnx_graph_add_node (g, "Sigmoid", "n1", N ("a"), N ("b"));
  pv_onnx_graph_add_node (g, "Neg", "n2", N ("x"), N ("c"));
  pv_onnx_graph_add_node (g, "Neg", "n3", N ("c"), N ("d"));
  pv_onnx_graph_add_node (g, "Add", "n4", N ("b", "d"), N ("y"));
  pv_onnx_graph_add_output (g, "y", F, "256");
  return pv_test_load_built (b, "d.onnx");
}

static PvSession *
session (const PvModel *m, const PvKernelTable *k, const char *config)
{
  PvSession *s = pv_test_session_new (m, k, config, NULL);

  g_assert_nonnull (s->schedule);
  return s;
}

static void
test_single_stream (void)
{
  g_autoptr (PvModel) m = diamond ();
  g_autoptr (PvKernelTable) k = pv_kernel_table_new_default (NULL);
  g_autoptr (PvSession) s = session (m, k, NULL);
  const PvSchedule *sch = s->schedule;
  int y = pv_graph_find_value (m->graph, "y"), a = pv_graph_find_value (m->graph, "a");

  /* Five kernels, one unit each, one after the other. */
  g_assert_cmpfloat (sch->makespan, ==, 5.0);
  g_assert_false (sch->deadlock);
  g_assert_cmpint (sch->n_sync_edges, ==, 0);
  /* y is a graph output: live to the end. a lives from n0 to its reader n1. */
  g_assert_cmpfloat (sch->value_spans[y].end, ==, 5.0);
  g_assert_cmpfloat (sch->value_spans[a].start, ==, sch->node_spans[pv_graph_find_node (m->graph, "n0")].start);
  g_assert_cmpfloat (sch->value_spans[a].end, ==, sch->node_spans[pv_graph_find_node (m->graph, "n1")].end);
  g_assert_cmpint (sch->n_curves, ==, 1);
  g_assert_cmpuint (sch->curves[0].peak_bytes, >=, 2 * 1024);
}

static void
test_two_streams (void)
{
  g_autoptr (PvModel) m = diamond ();
  g_autoptr (PvKernelTable) k = pv_kernel_table_new_default (NULL);
  g_autoptr (PvSession) s = session (
    m, k, "{\"type\":\"DeviceBasedPartitioner\",\"streams\":[[\"n0\",\"n1\",\"n4\"],[\"n2\",\"n3\"]],\"devices\":[\"0\",\"0\"]}");
  const PvSchedule *sch = s->schedule;
  int n3 = pv_graph_find_node (m->graph, "n3"), n4 = pv_graph_find_node (m->graph, "n4");
  int n0 = pv_graph_find_node (m->graph, "n0"), n2 = pv_graph_find_node (m->graph, "n2");

  g_assert_cmpint (s->ort->n_streams, ==, 2);
  /* The branches run side by side; the join waits for n3 (a barrier). */
  g_assert_cmpfloat (sch->node_spans[n0].start, ==, 0.0);
  g_assert_cmpfloat (sch->node_spans[n2].start, ==, 0.0);
  g_assert_cmpfloat (sch->node_spans[n4].start, >=, sch->node_spans[n3].end);
  g_assert_cmpfloat (sch->makespan, ==, 3.0);
  g_assert_cmpint (sch->n_sync_edges, >=, 1);
  {
    gboolean found = FALSE;
    for (int e = 0; e < sch->n_sync_edges; e++)
      found |= sch->sync_edges[e][0] == n3 && sch->sync_edges[e][1] == n4;
    g_assert_true (found);
  }
  g_assert_true (s->ort_check->ok && s->slots_check->ok && s->arena_check->ok);
}

static void
test_roofline (void)
{
  PvOnnxBuilder *b = pv_onnx_builder_new (8, "t");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (PvModel) m = NULL;
  g_autoptr (PvShapeInfo) shapes = NULL;
  PvRooflineCost cost;

  pv_onnx_builder_add_opset (b, "", 17);
  pv_onnx_graph_add_input (g, "a", F, "2,3");
  pv_onnx_graph_add_input (g, "w", F, "3,4");
  pv_onnx_graph_add_input (g, "img", F, "1,3,8,8");
  pv_onnx_graph_add_input (g, "k", F, "16,3,3,3");
  pv_onnx_graph_add_node (g, "MatMul", "mm", N ("a", "w"), N ("y"));
  pv_onnx_graph_add_node (g, "Conv", "conv", N ("img", "k"), N ("z"));
  pv_onnx_graph_add_node (g, "Relu", "relu", N ("z"), N ("r"));
  pv_onnx_graph_add_output (g, "y", F, NULL);
  pv_onnx_graph_add_output (g, "r", F, NULL);
  m = pv_test_load_built (b, "r.onnx");
  shapes = pv_shape_infer (m, NULL, NULL);
  /* MatMul: 2*4 outputs x K=3 multiply-adds = 48 FLOPs. */
  g_assert_cmpfloat (pv_node_flops (shapes, m->graph, pv_graph_find_node (m->graph, "mm"), NULL), ==, 48.0);
  /* Conv 3x3 no padding on 8x8: 16x6x6 outputs, 3*3*3 MACs each. */
  g_assert_cmpfloat (pv_node_flops (shapes, m->graph, pv_graph_find_node (m->graph, "conv"), NULL), ==,
                     2.0 * 16 * 6 * 6 * 27);
  /* Relu: one per element. */
  g_assert_cmpfloat (pv_node_flops (shapes, m->graph, pv_graph_find_node (m->graph, "relu"), NULL), ==, 16.0 * 36);
  /* Memory-bound at a low bandwidth, compute-bound at a low FLOP rate. */
  cost = (PvRooflineCost) { shapes, NULL, 1e9, 1.0 };
  g_assert_cmpfloat (pv_roofline_cost (&cost, m->graph, pv_graph_find_node (m->graph, "mm")), ==, (6 + 12 + 8) * 4.0);
  cost = (PvRooflineCost) { shapes, NULL, 1.0, 1e9 };
  g_assert_cmpfloat (pv_roofline_cost (&cost, m->graph, pv_graph_find_node (m->graph, "mm")), ==, 48.0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/schedule/single-stream", test_single_stream);
  g_test_add_func ("/schedule/two-streams", test_two_streams);
  g_test_add_func ("/schedule/roofline", test_roofline);
  return g_test_run ();
}
