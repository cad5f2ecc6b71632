/* test-subgraph-session.c: pv_session_new_for_subgraph() plans If/Loop/Scan
 * bodies as ONNX Runtime does: the body's own nodes on one stream whatever
 * the partition config says, outer-scope values and body inputs
 * pre-existing, sizes from the parent's shape inference, and every plan
 * passing the checker. Usage: test-subgraph-session [ONNX_TESTS_DIR] (the
 * ONNX backend models with If/Loop/Scan; skipped when absent). */
#include <string.h>

#include "pv-model-loader.h"
#include "pv-onnx-builder.h"
#include "pv-onnx-text.h"
#include "pv-test-model.h"
#include "pv-session.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define I64 ONNX__TENSOR_PROTO__DATA_TYPE__INT64
#define BOOL ONNX__TENSOR_PROTO__DATA_TYPE__BOOL
#define N PV_ONNX_NAMES

static const char *onnx_tests_dir;

/* main: s = x * x; a Loop (3 trips) whose body adds s to its carried value
 * and picks Relu or Neg of the sum in a nested If; an If on the main graph's
 * flag whose branches read s from the outer scope. */
static PvModel *
build_control_flow (void)
{
  g_autoptr (PvOnnxBuilder) b = pv_onnx_builder_new (8, "planviz-test");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b), *body = pv_onnx_graph_new ("body");
  PvOnnxGraph *inner_then = pv_onnx_graph_new ("inner_then"), *inner_else = pv_onnx_graph_new ("inner_else");
  PvOnnxGraph *then_g = pv_onnx_graph_new ("then"), *else_g = pv_onnx_graph_new ("else");
  const gint64 three = 3;
  const guint8 yes = 1;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  PvOnnxNode *n;
  PvModel *model;

  pv_onnx_builder_add_opset (b, "", 17);
  pv_onnx_graph_add_input (g, "x", F, "4");
  pv_onnx_graph_add_input (g, "flag", BOOL, "");
  pv_onnx_graph_add_initializer_int64s (g, "M", NULL, 0, &three);
  pv_onnx_graph_add_initializer (g, "keep_going", BOOL, NULL, 0, &yes, 1);
  pv_onnx_graph_add_node (g, "Mul", "square", N ("x", "x"), N ("s"));

  pv_onnx_graph_add_input (body, "iter", I64, "");
  pv_onnx_graph_add_input (body, "cond_in", BOOL, "");
  pv_onnx_graph_add_input (body, "acc_in", F, "4");
  pv_onnx_graph_add_nodes (body, "Add acc_add acc_in,s>a; Identity cond_copy cond_in>cond_out");
  pv_onnx_graph_add_node (inner_then, "Relu", "inner_relu", N ("a"), N ("t"));
  pv_onnx_graph_add_output (inner_then, "t", F, "4");
  pv_onnx_graph_add_node (inner_else, "Neg", "inner_neg", N ("a"), N ("e"));
  pv_onnx_graph_add_output (inner_else, "e", F, "4");
  pv_onnx_graph_add_if (body, "inner_if", "cond_in", N ("acc_out"), inner_then, inner_else);
  pv_onnx_graph_add_node (body, "Mul", "scan_mul", N ("a", "a"), N ("sq"));
  pv_onnx_graph_add_output (body, "cond_out", BOOL, "");
  pv_onnx_graph_add_outputs (body, F, "acc_out:4 sq:4");
  n = pv_onnx_graph_add_node (g, "Loop", "loop", N ("M", "keep_going", "x"), N ("acc", "history"));
  pv_onnx_node_add_attr_graph (n, "body", body);

  pv_onnx_graph_add_node (then_g, "Sigmoid", "then_sigmoid", N ("s"), N ("ts"));
  pv_onnx_graph_add_output (then_g, "ts", F, "4");
  pv_onnx_graph_add_node (else_g, "Exp", "else_exp", N ("s"), N ("es"));
  pv_onnx_graph_add_output (else_g, "es", F, "4");
  pv_onnx_graph_add_if (g, "top_if", "flag", N ("y"), then_g, else_g);
  pv_onnx_graph_add_node (g, "Add", "out_add", N ("acc", "y"), N ("out"));
  pv_onnx_graph_add_outputs (g, F, "out:4 history:3,4");

  bytes = pv_onnx_builder_pack (b);
  model = pv_model_load_from_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "control-flow",
                                    &error);
  g_assert_no_error (error);
  return model;
}

static int
node_id (const PvGraph *g, const char *name)
{
  int n = pv_graph_find_node (g, name);
  g_assert_cmpint (n, >=, 0);
  return n;
}

static const PvOrtValuePlan *
value_plan (const PvSession *s, const char *name)
{
  int v = pv_graph_find_value (s->graph, name);
  g_assert_cmpint (v, >=, 0);
  g_assert_cmpint (s->graph->values[v].ort_index, >=, 0);
  return &s->ort->values[s->graph->values[v].ort_index];
}

static guint64
value_bytes (const PvSession *s, const char *name)
{
  int v = pv_graph_find_value (s->graph, name);
  g_assert_cmpint (v, >=, 0);
  return s->value_bytes[v];
}

/* What every body plan must be: the body's nodes once each on one stream in
 * an order that respects the body's edges, a schedule without deadlock
 * whose kernels start after their producers end, ORT's fixed kinds for
 * inputs, outer-scope values and outputs, and checked plans. */
static void
assert_body_plan (const PvSession *parent, const PvSession *s, int node, int index)
{
  const PvGraph *g = s->graph;
  g_autofree int *position = g_new (int, MAX (g->n_nodes, 1));

  g_assert_true (g == parent->graph->nodes[node].subgraphs[index]);
  g_assert_true (g->parent == parent->graph);
  g_assert_cmpint (s->parent_node, ==, node);
  g_assert_cmpint (s->subgraph_index, ==, index);
  g_assert_null (s->ort_error);
  g_assert_nonnull (s->ort);
  g_assert_true (s->ort->graph == g);
  /* A body without nodes (an If branch passing an outer value through)
   * has no stream, as ORT's default partition of an empty graph. */
  g_assert_cmpint (s->ort->n_streams, ==, g->n_nodes > 0 ? 1 : 0);
  g_assert_nonnull (s->partition);
  g_assert_null (s->partition_check);

  for (int n = 0; n < g->n_nodes; n++)
    position[n] = -1;
  for (int k = 0; g->n_nodes > 0 && k < s->ort->streams[0].n_nodes; k++)
    {
      int n = s->ort->streams[0].nodes[k];
      g_assert_cmpint (position[n], ==, -1);
      position[n] = k;
    }
  for (int n = 0; n < g->n_nodes; n++)
    for (int i = 0; i < g->nodes[n].n_inputs; i++)
      {
        int v = g->nodes[n].inputs[i];
        int producer = v >= 0 && !(g->values[v].flags & PV_VALUE_OUTER_SCOPE) ? g->values[v].producer : -1;
        if (producer < 0)
          continue;
        g_assert_cmpint (position[producer], >=, 0);
        g_assert_cmpint (position[producer], <, position[n]);
        g_assert_cmpfloat (s->schedule->node_spans[producer].end, <=, s->schedule->node_spans[n].start);
      }
  for (int n = 0; n < g->n_nodes; n++)
    g_assert_cmpint (position[n], >=, 0);
  g_assert_false (s->schedule->deadlock);

  for (int v = 0; v < g->n_values; v++)
    {
      const PvValue *value = &g->values[v];
      const PvOrtValuePlan *vp;
      if (value->ort_index < 0)
        continue;
      vp = &s->ort->values[value->ort_index];
      if ((value->flags & (PV_VALUE_GRAPH_INPUT | PV_VALUE_OUTER_SCOPE)) && !(value->flags & PV_VALUE_INITIALIZER))
        g_assert_cmpint (vp->kind, ==, PV_ORT_ALLOC_PRE_EXISTING);
      else if (value->flags & PV_VALUE_GRAPH_OUTPUT && value->producer >= 0)
        g_assert_true (vp->kind == PV_ORT_ALLOC_ALLOCATE_OUTPUT || vp->kind == PV_ORT_ALLOC_SHARE ||
                       vp->kind == PV_ORT_ALLOC_ALLOCATED_EXTERNALLY);
    }

  g_assert_nonnull (s->ort_check);
  if (!s->ort_check->ok)
    g_error ("%s: ORT plan check: %s", g->name, s->ort_check->violations[0].message);
  if (!s->slots->deferred)
    {
      g_assert_true (s->slots_check->ok);
      g_assert_true (s->arena_check->ok);
    }
}

static PvSession *
main_session (const PvModel *model, const PvKernelTable *kernels, const char *partition)
{
  PvSession *s = pv_test_session_new (model, kernels, partition, NULL);

  g_assert_nonnull (s->ort);
  g_assert_true (s->graph == model->graph);
  g_assert_cmpint (s->parent_node, ==, -1);
  g_assert_cmpint (s->subgraph_index, ==, -1);
  return s;
}

static void
test_loop_body (void)
{
  g_autoptr (PvModel) model = build_control_flow ();
  g_autoptr (PvKernelTable) kernels = pv_kernel_table_new_default (NULL);
  g_autoptr (PvSession) parent = main_session (model, kernels, NULL);
  g_autoptr (PvSession) body = NULL;
  g_autoptr (GError) error = NULL;
  int loop = node_id (model->graph, "loop");

  body = pv_session_new_for_subgraph (parent, loop, 0, NULL, &error);
  g_assert_no_error (error);
  assert_body_plan (parent, body, loop, 0);
  g_assert_cmpstr (body->graph->parent_attr, ==, "body");
  g_assert_cmpint (body->graph->n_nodes, ==, 4);
  g_assert_cmpint (node_id (body->graph, "acc_add"), >=, 0);
  g_assert_cmpint (pv_graph_find_node (body->graph, "square"), ==, -1);

  /* Sizes come from the parent's inference of the body: acc_in from the
   * Loop's carried input x, s from the outer scope. */
  g_assert_cmpuint (value_bytes (body, "a"), ==, 16);
  g_assert_cmpuint (value_bytes (body, "sq"), ==, 16);
  g_assert_cmpuint (value_bytes (body, "acc_out"), ==, 16);

  g_assert_cmpint (value_plan (body, "s")->kind, ==, PV_ORT_ALLOC_PRE_EXISTING);  /* outer scope */
  g_assert_cmpint (value_plan (body, "acc_in")->kind, ==, PV_ORT_ALLOC_PRE_EXISTING);
  g_assert_cmpint (value_plan (body, "a")->kind, ==, PV_ORT_ALLOC_ALLOCATE);
  /* ORT's Loop-body rule: an Identity of a pre-existing value shares it. */
  g_assert_cmpint (value_plan (body, "cond_out")->kind, ==, PV_ORT_ALLOC_SHARE);
  g_assert_cmpint (value_plan (body, "sq")->kind, ==, PV_ORT_ALLOC_ALLOCATE_OUTPUT);
  g_assert_cmpuint (body->ort_peak_bytes, ==, 16);
}

/* The outer If's branches, and a branch of the If nested in the Loop body:
 * nesting is a subgraph session's subgraph session. */
static void
test_if_branches_and_nesting (void)
{
  g_autoptr (PvModel) model = build_control_flow ();
  g_autoptr (PvKernelTable) kernels = pv_kernel_table_new_default (NULL);
  g_autoptr (PvSession) parent = main_session (model, kernels, NULL);
  g_autoptr (PvSession) then_s = NULL, else_s = NULL, body = NULL, inner = NULL;
  g_autoptr (GError) error = NULL;
  int top_if = node_id (model->graph, "top_if"), inner_if;

  then_s = pv_session_new_for_subgraph (parent, top_if, 0, NULL, &error);
  g_assert_no_error (error);
  else_s = pv_session_new_for_subgraph (parent, top_if, 1, NULL, &error);
  g_assert_no_error (error);
  assert_body_plan (parent, then_s, top_if, 0);
  assert_body_plan (parent, else_s, top_if, 1);
  g_assert_cmpstr (then_s->graph->parent_attr, ==, "then_branch");
  g_assert_cmpstr (else_s->graph->parent_attr, ==, "else_branch");
  g_assert_cmpint (node_id (then_s->graph, "then_sigmoid"), ==, 0);
  g_assert_cmpint (node_id (else_s->graph, "else_exp"), ==, 0);
  g_assert_cmpuint (value_bytes (then_s, "ts"), ==, 16);
  g_assert_cmpint (value_plan (then_s, "s")->kind, ==, PV_ORT_ALLOC_PRE_EXISTING);
  g_assert_cmpint (value_plan (then_s, "ts")->kind, ==, PV_ORT_ALLOC_ALLOCATE_OUTPUT);

  body = pv_session_new_for_subgraph (parent, node_id (model->graph, "loop"), 0, NULL, &error);
  g_assert_no_error (error);
  inner_if = node_id (body->graph, "inner_if");
  inner = pv_session_new_for_subgraph (body, inner_if, 1, NULL, &error);
  g_assert_no_error (error);
  assert_body_plan (body, inner, inner_if, 1);
  g_assert_cmpint (inner->graph->depth, ==, 2);
  g_assert_cmpint (node_id (inner->graph, "inner_neg"), ==, 0);
  /* a is the Loop body's value, outer scope to the branch. */
  g_assert_cmpint (value_plan (inner, "a")->kind, ==, PV_ORT_ALLOC_PRE_EXISTING);
  g_assert_cmpuint (value_bytes (inner, "e"), ==, 16);

  /* The body plan keeps what it needs: the parents may go first. */
  g_clear_pointer (&body, pv_session_free);
  g_clear_pointer (&parent, pv_session_free);
  g_assert_cmpuint (value_bytes (inner, "e"), ==, 16);
  g_assert_nonnull (pv_shape_info_get (inner->shapes, inner->graph, pv_graph_find_value (inner->graph, "e")));
}

/* ORT ignores the partition config for subgraphs: a main graph on two
 * streams still has single-stream bodies. */
static void
test_partition_ignored (void)
{
  static const char config[] =
    "{\"type\":\"DeviceBasedPartitioner\",\"streams\":[[\"square\",\"top_if\"],[\"loop\",\"out_add\"]],"
    "\"devices\":[\"0\",\"0\"]}";
  g_autoptr (PvModel) model = build_control_flow ();
  g_autoptr (PvKernelTable) kernels = pv_kernel_table_new_default (NULL);
  g_autoptr (PvSession) parent = main_session (model, kernels, config);
  g_autoptr (PvSession) body = NULL;
  g_autoptr (GError) error = NULL;
  PvSessionOptions options = { 0 };
  int loop = node_id (model->graph, "loop");

  g_assert_cmpint (parent->ort->n_streams, ==, 2);
  /* Even a config passed for the body is not used. */
  options.partition_text = config;
  options.partition_len = strlen (config);
  body = pv_session_new_for_subgraph (parent, loop, 0, &options, &error);
  g_assert_no_error (error);
  assert_body_plan (parent, body, loop, 0);
  g_assert_cmpint (body->partition->n_streams, ==, 1);
}

/* Scan 9+: the body sees one slice of each scan input (the scan axis
 * dropped, as pv-infer-control.c infers it) and the state as it is. */
static void
test_scan_body (void)
{
  g_autoptr (PvOnnxBuilder) b = pv_onnx_builder_new (8, "planviz-test");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b), *body = pv_onnx_graph_new ("scan_body");
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;
  g_autoptr (PvKernelTable) kernels = pv_kernel_table_new_default (NULL);
  g_autoptr (PvSession) parent = NULL, s = NULL;
  PvOnnxNode *n;
  int scan;

  pv_onnx_builder_add_opset (b, "", 17);
  pv_onnx_graph_add_inputs (g, F, "init:8 xs:5,8");
  pv_onnx_graph_add_inputs (body, F, "state_in x_t");
  pv_onnx_graph_add_nodes (body, "Add step_add state_in,x_t>state_out; Tanh step_tanh state_out>y_t");
  pv_onnx_graph_add_outputs (body, F, "state_out y_t");
  n = pv_onnx_graph_add_node (g, "Scan", "scan", N ("init", "xs"), N ("final", "ys"));
  pv_onnx_node_add_attr_int (n, "num_scan_inputs", 1);
  pv_onnx_node_add_attr_graph (n, "body", body);
  pv_onnx_graph_add_outputs (g, F, "final:8 ys:5,8");
  bytes = pv_onnx_builder_pack (b);
  model = pv_model_load_from_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "scan", &error);
  g_assert_no_error (error);

  parent = main_session (model, kernels, NULL);
  scan = node_id (model->graph, "scan");
  s = pv_session_new_for_subgraph (parent, scan, 0, NULL, &error);
  g_assert_no_error (error);
  assert_body_plan (parent, s, scan, 0);
  g_assert_cmpuint (value_bytes (s, "x_t"), ==, 32);   /* [8] of xs [5,8] */
  g_assert_cmpuint (value_bytes (s, "state_out"), ==, 32);
  g_assert_cmpint (value_plan (s, "x_t")->kind, ==, PV_ORT_ALLOC_PRE_EXISTING);
  g_assert_cmpint (value_plan (s, "state_out")->kind, ==, PV_ORT_ALLOC_ALLOCATE_OUTPUT);
  g_assert_cmpint (value_plan (s, "y_t")->kind, ==, PV_ORT_ALLOC_ALLOCATE_OUTPUT);
  /* Not a Loop body: no kShare rule. */
  for (int i = 0; i < s->ort->n_values; i++)
    g_assert_cmpint (s->ort->values[i].kind, !=, PV_ORT_ALLOC_SHARE);
}

static void
test_errors (void)
{
  g_autoptr (PvModel) model = build_control_flow ();
  g_autoptr (PvKernelTable) kernels = pv_kernel_table_new_default (NULL);
  g_autoptr (PvSession) parent = main_session (model, kernels, NULL);
  g_autoptr (GError) error = NULL;
  PvSession *s;

  s = pv_session_new_for_subgraph (parent, node_id (model->graph, "square"), 0, NULL, &error);
  g_assert_null (s);
  g_assert_error (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_SUBGRAPH);
  g_assert_nonnull (strstr (error->message, "“square” (Mul) has no subgraph 0"));
  g_clear_error (&error);

  s = pv_session_new_for_subgraph (parent, node_id (model->graph, "top_if"), 2, NULL, &error);
  g_assert_null (s);
  g_assert_error (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_SUBGRAPH);
  g_clear_error (&error);

  s = pv_session_new_for_subgraph (parent, model->graph->n_nodes, 0, NULL, &error);
  g_assert_null (s);
  g_assert_error (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_SUBGRAPH);
  g_clear_error (&error);

  /* A parent ORT would not run (a config naming no node of the model). */
  {
    static const char bad[] = "{\"type\":\"DeviceBasedPartitioner\",\"streams\":[[\"nope\"]],\"devices\":[\"0\"]}";
    PvSessionOptions options = { 0 };
    g_autoptr (PvSession) refused = NULL;
    options.partition_text = bad;
    options.partition_len = strlen (bad);
    refused = pv_session_new (model, kernels, &options, &error);
    g_assert_no_error (error);
    g_assert_null (refused->ort);
    s = pv_session_new_for_subgraph (refused, node_id (model->graph, "loop"), 0, NULL, &error);
    g_assert_null (s);
    g_assert_error (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_PARENT_PLAN);
  }
}

/* Every subgraph at any depth of @s's graph, planned and checked. Returns
 * the number of bodies planned. */
static int
plan_every_body (const PvSession *s)
{
  int planned = 0;

  for (int n = 0; n < s->graph->n_nodes; n++)
    for (int k = 0; k < s->graph->nodes[n].n_subgraphs; k++)
      {
        g_autoptr (GError) error = NULL;
        g_autoptr (PvSession) body = pv_session_new_for_subgraph (s, n, k, NULL, &error);
        g_assert_no_error (error);
        assert_body_plan (s, body, n, k);
        planned += 1 + plan_every_body (body);
      }
  return planned;
}

static int
plan_model_file (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = pv_model_load_from_file (path, &error);
  g_autoptr (PvKernelTable) kernels = pv_kernel_table_new_default (NULL);
  g_autoptr (PvSession) s = NULL;

  g_assert_no_error (error);
  s = pv_session_new (model, kernels, NULL, &error);
  g_assert_no_error (error);
  if (s->ort == NULL)
    g_error ("%s: %s", path, s->ort_error);
  return plan_every_body (s);
}

/* The committed samples with control flow (always present). */
static void
test_samples (void)
{
  static const char *const samples[] = { "if_outer_scope.onnx", "loop.onnx", "control_flow.onnx" };

  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "..", "data", samples[i], NULL);
      g_assert_cmpint (plan_model_file (path), >=, 1);
    }
}

/* ONNX's backend tests with If, Loop and Scan. */
static void
test_onnx_backend (void)
{
  static const char *const prefixes[] = { "test_if", "test_loop", "test_scan" };
  g_autofree char *node_dir = NULL;
  g_autoptr (GDir) dir = NULL;
  const char *name;
  int models = 0, bodies = 0;

  if (onnx_tests_dir == NULL)
    {
      g_test_skip ("no ONNX backend test directory given");
      return;
    }
  node_dir = g_build_filename (onnx_tests_dir, "node", NULL);
  dir = g_dir_open (node_dir, 0, NULL);
  if (dir == NULL)
    {
      g_test_skip ("ONNX's backend tests are absent (../shared/onnx-tests)");
      return;
    }
  while ((name = g_dir_read_name (dir)))
    for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
      if (g_str_has_prefix (name, prefixes[i]))
        {
          g_autofree char *path = g_build_filename (node_dir, name, "model.onnx", NULL);
          if (!g_file_test (path, G_FILE_TEST_EXISTS))
            continue;
          bodies += plan_model_file (path);
          models++;
        }
  g_test_message ("%d models, %d bodies planned", models, bodies);
  g_assert_cmpint (models, >, 0);
  g_assert_cmpint (bodies, >=, models);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  onnx_tests_dir = argc > 1 ? argv[1] : g_getenv ("PV_ONNX_TESTS");

  g_test_add_func ("/subgraph-session/loop-body", test_loop_body);
  g_test_add_func ("/subgraph-session/if-branches-and-nesting", test_if_branches_and_nesting);
  g_test_add_func ("/subgraph-session/partition-ignored", test_partition_ignored);
  g_test_add_func ("/subgraph-session/scan-body", test_scan_body);
  g_test_add_func ("/subgraph-session/errors", test_errors);
  g_test_add_func ("/subgraph-session/samples", test_samples);
  g_test_add_func ("/subgraph-session/onnx-backend", test_onnx_backend);
  return g_test_run ();
}
