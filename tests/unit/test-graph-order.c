/* ONNX Runtime's node order, node names and OrtValue indices (rules §3–4),
 * each on a graph built for the rule. */
#include "pv-graph-order.h"
#include "pv-model-loader.h"
#include "pv-onnx-builder.h"
#include "pv-onnx-text.h"
#include "pv-test-model.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define I64 ONNX__TENSOR_PROTO__DATA_TYPE__INT64
#define N PV_ONNX_NAMES

/* The order as node names, comma-separated. */
static char *
order_names (const PvGraph *g)
{
  GString *s = g_string_new (NULL);
  for (int i = 0; i < g->n_nodes; i++)
    g_string_append_printf (s, "%s%s", i ? "," : "", g->nodes[g->order[i]].name);
  return g_string_free (s, FALSE);
}

/* @g's order, as node names, is @expected ("n0,n1"). */
static void
assert_order (const PvGraph *g, const char *expected)
{
  g_autofree char *order = order_names (g);
  g_assert_cmpstr (order, ==, expected);
}

static void
test_chain (void)
{
  g_autoptr (PvModel) m = pv_test_load_text ("x:4", "Relu n0 x>a; Relu n1 a>b; Relu n2 b>y", "y:4");

  assert_order (m->graph, "n0,n1,n2");
}

static void
test_independent (void)
{
  g_autoptr (PvModel) m = pv_test_load_text ("x:4", "Relu n0 x>y0; Relu n1 x>y1; Relu n2 x>y2", "y0:4 y1:4 y2:4");

  /* The highest-index leaf is explored first. */
  assert_order (m->graph, "n2,n1,n0");
}

static void
test_fan_out_and_in (void)
{
  g_autoptr (PvModel) out = pv_test_load_text ("x:4", "Relu n0 x>a; Relu n1 a>b; Relu n2 a>c", "b:4 c:4");
  g_autoptr (PvModel) in = pv_test_load_text ("x:4", "Relu n0 x>a; Relu n1 x>b; Add n2 a,b>y", "y:4");

  /* n0 feeds n1 and n2 -> 0,2,1 */
  assert_order (out->graph, "n0,n2,n1");
  /* n0 and n1 feed n2 -> 1,0,2 */
  assert_order (in->graph, "n1,n0,n2");
}

static void
test_unnamed_counters (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (PvModel) m = NULL;

  /* Counters are per op type, count only unnamed nodes, start at 0 and do
   * not avoid names the model uses: ORT writes Relu0, Relu1, Relu1. */
  pv_onnx_graph_add_input (g, "x", F, "4");
  pv_onnx_graph_add_node (g, "Relu", NULL, N ("x"), N ("a"));
  pv_onnx_graph_add_node (g, "Relu", "Relu1", N ("a"), N ("b"));
  pv_onnx_graph_add_node (g, "Relu", "", N ("b"), N ("c"));
  pv_onnx_graph_add_node (g, "Sigmoid", NULL, N ("c"), N ("y"));
  pv_onnx_graph_add_output (g, "y", F, "4");
  m = pv_test_load_built (b, "test.onnx");
  assert_order (m->graph, "Relu0,Relu1,Relu1,Sigmoid0");
  g_assert_true (m->graph->nodes[0].name_generated);
  g_assert_false (m->graph->nodes[1].name_generated);
  /* Lookups by name find the first in order, and the nodes sharing a name
   * share that one as their name owner. */
  g_assert_cmpint (pv_graph_find_node (m->graph, "Relu1"), ==, 1);
  for (int i = 0; i < m->graph->n_nodes; i++)
    {
      g_assert_cmpint (m->graph->name_owners[i], ==, i == 2 ? 1 : i);
      g_assert_true (m->graph->order_names[i] == m->graph->nodes[m->graph->order[i]].name);
    }
}

static void
test_constants_become_initializers (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (PvModel) m = NULL;
  const gint64 dims[] = { 2 }, shape[] = { 2, -1 };
  PvOnnxNode *c;
  int v;
  gint64 value;

  pv_onnx_graph_add_input (g, "x", F, "2,3");
  c = pv_onnx_graph_add_node (g, "Constant", "const_shape", NULL, N ("shape"));
  pv_onnx_node_add_attr_tensor_int64s (c, "value", dims, 1, shape);
  pv_onnx_graph_add_node (g, "Reshape", "reshape", N ("x", "shape"), N ("y"));
  pv_onnx_graph_add_output (g, "y", F, "2,3");
  m = pv_test_load_built (b, "test.onnx");

  g_assert_cmpint (m->graph->n_nodes, ==, 1);
  g_assert_cmpstr (m->graph->nodes[0].name, ==, "reshape");
  g_assert_cmpint (m->n_constant_nodes, ==, 1);
  v = pv_graph_find_value (m->graph, "shape");
  g_assert_cmpint (v, >=, 0);
  g_assert_true (m->graph->values[v].flags & PV_VALUE_INITIALIZER);
  g_assert_true (m->graph->values[v].flags & PV_VALUE_FROM_CONSTANT);
  g_assert_cmpint (m->graph->values[v].producer, ==, -1);
  g_assert_true (pv_tensor_get_int (m->graph->values[v].initializer, 1, &value));
  g_assert_cmpint (value, ==, -1);
  g_assert_cmpint (m->graph->values[v].type.rank, ==, 1);
  g_assert_cmpint (m->graph->values[v].type.dims[0].value, ==, 2);
}

static void
test_useless_node_dropped (void)
{
  g_autoptr (PvModel) m = pv_test_load_text ("x:4", "Relu n0 x>y; NoOp useless >", "y:4");

  g_assert_cmpint (m->graph->n_nodes, ==, 1);
  g_assert_cmpint (pv_graph_find_node (m->graph, "useless"), ==, -1);
}

static void
test_missing_optional_input (void)
{
  g_autoptr (PvModel) m = pv_test_load_text ("x:4 max:", "Clip clip x,,max>y,", "y:4");

  g_assert_cmpint (m->graph->nodes[0].n_inputs, ==, 3);
  g_assert_cmpint (m->graph->nodes[0].inputs[1], ==, -1);
  g_assert_cmpint (m->graph->nodes[0].inputs[2], ==, pv_graph_find_value (m->graph, "max"));
  g_assert_cmpint (m->graph->nodes[0].n_outputs, ==, 2);
  g_assert_cmpint (m->graph->nodes[0].outputs[1], ==, -1);
}

static void
test_ort_value_indices (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (PvModel) m = NULL;
  const gint64 dims[] = { 4 };
  const float w[] = { 1, 2, 3, 4 };
  const char *expected[] = { "x", "unused_input", "a", "w", "b", "y" };

  /* Inputs first (also unused ones), then per node in model order: inputs,
   * outputs; initializers at first use. The unused initializer gets none. */
  pv_onnx_graph_add_inputs (g, F, "x:4 unused_input:4");
  pv_onnx_graph_add_initializer_floats (g, "unused_w", dims, 1, w);
  pv_onnx_graph_add_initializer_floats (g, "w", dims, 1, w);
  pv_onnx_graph_add_nodes (g, "Relu n0 x>a; Add n1 a,w>b; Relu n2 b>y");
  pv_onnx_graph_add_output (g, "y", F, "4");
  m = pv_test_load_built (b, "test.onnx");
  g_assert_cmpint (m->graph->n_ort_values, ==, G_N_ELEMENTS (expected));
  for (gsize i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const PvValue *v = &m->graph->values[m->graph->ort_values[i]];
      g_assert_cmpstr (v->name, ==, expected[i]);
      g_assert_cmpint (v->ort_index, ==, (int) i);
    }
  g_assert_cmpint (m->graph->values[pv_graph_find_value (m->graph, "unused_w")].ort_index, ==, -1);
}

/* An If whose branches read outer values: those become the If's implicit
 * inputs, and their producers are the If's input nodes. */
static void
test_if_outer_scope (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxGraph *then_g = pv_onnx_graph_new ("then"), *else_g = pv_onnx_graph_new ("else");
  g_autoptr (PvModel) m = NULL;
  const PvGraph *main_g, *then_pv;
  const PvNode *if_pv;
  int a, outer_in_then;

  pv_onnx_graph_add_input (g, "x", F, "4");
  pv_onnx_graph_add_input (g, "cond", ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, "");
  pv_onnx_graph_add_nodes (g, "Relu make_a x>a; Sigmoid make_b x>b");
  /* then: a + b (both outer); else: Neg(a). */
  pv_onnx_graph_add_node (then_g, "Add", "then_add", N ("a", "b"), N ("t"));
  pv_onnx_graph_add_output (then_g, "t", F, "4");
  pv_onnx_graph_add_node (else_g, "Neg", "else_neg", N ("a"), N ("e"));
  pv_onnx_graph_add_output (else_g, "e", F, "4");
  pv_onnx_graph_add_if (g, "if", "cond", N ("y"), then_g, else_g);
  pv_onnx_graph_add_output (g, "y", F, "4");
  m = pv_test_load_built (b, "test.onnx");

  main_g = m->graph;
  if_pv = &main_g->nodes[pv_graph_find_node (main_g, "if")];
  g_assert_cmpint (if_pv->n_inputs, ==, 1);
  g_assert_cmpint (if_pv->n_implicit_inputs, ==, 2);
  a = pv_graph_find_value (main_g, "a");
  g_assert_cmpint (if_pv->implicit_inputs[0], ==, a);
  g_assert_cmpint (if_pv->implicit_inputs[1], ==, pv_graph_find_value (main_g, "b"));
  /* make_a and make_b are not leaves (their only consumer is the If through
   * implicit inputs), and the higher-index input is explored first. */
  assert_order (main_g, "make_b,make_a,if");
  g_assert_cmpint (if_pv->n_subgraphs, ==, 2);
  then_pv = if_pv->subgraphs[0];
  g_assert_true (then_pv->parent == main_g);
  g_assert_cmpint (then_pv->depth, ==, 1);
  outer_in_then = pv_graph_find_value (then_pv, "a");
  g_assert_true (then_pv->values[outer_in_then].flags & PV_VALUE_OUTER_SCOPE);
  g_assert_cmpint (then_pv->values[outer_in_then].outer_value, ==, a);
  g_assert_cmpint (pv_graph_max_depth (main_g), ==, 1);
  g_assert_cmpint (pv_graph_count_subgraphs (main_g), ==, 2);
  /* The value a is consumed by make_a's consumers: the If only. */
  {
    guint n;
    const guint *consumers = pv_graph_value_consumers (main_g, a, &n);
    g_assert_cmpuint (n, ==, 1);
    g_assert_cmpuint (consumers[0], ==, (guint) pv_graph_find_node (main_g, "if"));
  }
}

/* An outer value used two levels down is an implicit input at both levels. */
static void
test_nested_outer_scope (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxGraph *outer_then = pv_onnx_graph_new ("outer_then"), *outer_else = pv_onnx_graph_new ("outer_else");
  PvOnnxGraph *inner_then = pv_onnx_graph_new ("inner_then"), *inner_else = pv_onnx_graph_new ("inner_else");
  g_autoptr (PvModel) m = NULL;
  const PvNode *outer_if, *inner_if;
  const PvGraph *level1;

  pv_onnx_graph_add_input (g, "x", F, "4");
  pv_onnx_graph_add_input (g, "c", ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, "");
  pv_onnx_graph_add_node (g, "Relu", "make_a", N ("x"), N ("a"));
  pv_onnx_graph_add_node (inner_then, "Neg", "deep_neg", N ("a"), N ("t2"));
  pv_onnx_graph_add_output (inner_then, "t2", F, "4");
  pv_onnx_graph_add_node (inner_else, "Identity", "deep_id", N ("x"), N ("e2"));
  pv_onnx_graph_add_output (inner_else, "e2", F, "4");
  pv_onnx_graph_add_if (outer_then, "inner_if", "c", N ("t1"), inner_then, inner_else);
  pv_onnx_graph_add_output (outer_then, "t1", F, "4");
  pv_onnx_graph_add_node (outer_else, "Identity", "id", N ("x"), N ("e1"));
  pv_onnx_graph_add_output (outer_else, "e1", F, "4");
  pv_onnx_graph_add_if (g, "outer_if", "c", N ("y"), outer_then, outer_else);
  pv_onnx_graph_add_output (g, "y", F, "4");
  m = pv_test_load_built (b, "test.onnx");

  outer_if = &m->graph->nodes[pv_graph_find_node (m->graph, "outer_if")];
  level1 = outer_if->subgraphs[0];
  inner_if = &level1->nodes[pv_graph_find_node (level1, "inner_if")];
  /* inner_if uses a and x from two levels up: implicit inputs in level1... */
  g_assert_cmpint (inner_if->n_implicit_inputs, ==, 2);
  g_assert_true (level1->values[inner_if->implicit_inputs[0]].flags & PV_VALUE_OUTER_SCOPE);
  /* ...and the outer If gets them too (a, x, plus c read by inner_if). */
  g_assert_cmpint (outer_if->n_implicit_inputs, ==, 3);
  g_assert_cmpint (pv_graph_max_depth (m->graph), ==, 2);
}

/* ORT's CPU provider has no CastLike kernel: a session inlines it as an
 * unnamed Cast of input 0, numbered after every other node. */
static void
test_cast_like_inlined (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (PvModel) m = NULL;
  const PvNode *cast;

  pv_onnx_graph_add_input (g, "x", F, "4");
  pv_onnx_graph_add_input (g, "like", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16, "1");
  pv_onnx_graph_add_nodes (g, "CastLike cl x,t>c; Relu target like>t; Relu after c>y");
  pv_onnx_graph_add_output (g, "y", F, "4");
  m = pv_test_load_built (b, "test.onnx");
  /* ids: target 0, after 1, Cast 2. "target" lost its only edge: a leaf. */
  cast = &m->graph->nodes[2];
  g_assert_cmpstr (cast->op_type, ==, "Cast");
  g_assert_cmpstr (cast->inlined_from, ==, "CastLike");
  g_assert_cmpint (cast->n_inputs, ==, 1);
  g_assert_cmpint (cast->type_source, ==, pv_graph_find_value (m->graph, "t"));
  assert_order (m->graph, "Cast0,after,target");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/order/chain", test_chain);
  g_test_add_func ("/order/independent", test_independent);
  g_test_add_func ("/order/fan-out-and-in", test_fan_out_and_in);
  g_test_add_func ("/order/if-outer-scope", test_if_outer_scope);
  g_test_add_func ("/order/nested-outer-scope", test_nested_outer_scope);
  g_test_add_func ("/names/unnamed-counters", test_unnamed_counters);
  g_test_add_func ("/graph/cast-like-inlined", test_cast_like_inlined);
  g_test_add_func ("/graph/constants-become-initializers", test_constants_become_initializers);
  g_test_add_func ("/graph/useless-node-dropped", test_useless_node_dropped);
  g_test_add_func ("/graph/missing-optional-input", test_missing_optional_input);
  g_test_add_func ("/values/ort-indices", test_ort_value_indices);
  return g_test_run ();
}
