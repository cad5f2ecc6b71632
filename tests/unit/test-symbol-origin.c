/* test-symbol-origin.c: where symbolic dims come from (pv-symbol-origin)
 * and a session's headline figures (pv-session-figures), on a generated
 * model whose answers are known by construction. */
#include "pv-model-loader.h"
#include "pv-onnx-builder.h"
#include "pv-onnx-text.h"
#include "pv-test-model.h"
#include "pv-session-figures.h"
#include "pv-symbol-origin.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define BOOL ONNX__TENSOR_PROTO__DATA_TYPE__BOOL
#define N PV_ONNX_NAMES

/* main: x [batch,4], y [2,seq]; nz = NonZero (x); r = Relu (x); an If on c
 * whose then_branch makes its own NonZero of x, and whose branches give r. */
static PvModel *
build (void)
{
  g_autoptr (PvOnnxBuilder) b = pv_onnx_builder_new (8, "planviz-test");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxGraph *then_g = pv_onnx_graph_new ("then"), *else_g = pv_onnx_graph_new ("else");
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  PvModel *model;

  pv_onnx_builder_add_opset (b, "", 17);
  pv_onnx_graph_add_input (g, "c", BOOL, "");
  pv_onnx_graph_add_inputs (g, F, "x:batch,4 y:2,seq");
  pv_onnx_graph_add_nodes (g, "NonZero /nz x>nz; Relu /relu x>r; Neg /neg y>ny");
  pv_onnx_graph_add_nodes (then_g, "NonZero /body_nz r>bnz; Identity /then_id r>t");
  pv_onnx_graph_add_output (then_g, "t", F, "batch,4");
  pv_onnx_graph_add_node (else_g, "Identity", "/else_id", N ("r"), N ("e"));
  pv_onnx_graph_add_output (else_g, "e", F, "batch,4");
  pv_onnx_graph_add_if (g, "/if", "c", N ("out"), then_g, else_g);
  pv_onnx_graph_add_output (g, "out", F, "batch,4");
  pv_onnx_graph_add_output (g, "nz", ONNX__TENSOR_PROTO__DATA_TYPE__INT64, NULL);
  pv_onnx_graph_add_output (g, "ny", F, "2,seq");
  bytes = pv_onnx_builder_pack (b);
  model = pv_model_load_from_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "origins", &error);
  g_assert_no_error (error);
  return model;
}

/* The symbol that is dim @axis of value @name in @s's graph. */
static const char *
dim_symbol (const PvSession *s, const char *name, int axis)
{
  int v = pv_graph_find_value (s->graph, name);
  const PvValueShape *shape;

  g_assert_cmpint (v, >=, 0);
  shape = pv_shape_info_get (s->shapes, s->graph, v);
  g_assert_cmpint (shape->rank, >, axis);
  g_assert_nonnull (pv_dim_symbol_name (shape->dims[axis]));
  return pv_dim_symbol_name (shape->dims[axis]);
}

static PvSession *
plan (const PvModel *model, const PvKernelTable *kernels, GHashTable *bounds)
{
  return pv_test_session_new (model, kernels, NULL, bounds);
}

static void
test_origins (void)
{
  g_autoptr (PvModel) model = build ();
  g_autoptr (PvKernelTable) kernels = pv_kernel_table_new_default (NULL);
  g_autoptr (PvSession) s = plan (model, kernels, NULL);
  g_autoptr (PvSession) body = NULL;
  g_autoptr (GHashTable) origins = NULL, body_origins = NULL;
  g_autoptr (GError) error = NULL;
  const char *made = dim_symbol (s, "nz", 1), *body_made;
  const char *wanted[] = { "batch", "seq", made, "no_such_symbol", NULL };
  g_autofree char *made_text = NULL;

  origins = pv_symbol_origins_new (s->basis, wanted);
  g_assert_cmpstr (g_hash_table_lookup (origins, "batch"), ==, "x axis 0");
  g_assert_cmpstr (g_hash_table_lookup (origins, "seq"), ==, "y axis 1");
  g_assert_cmpstr (g_hash_table_lookup (origins, made), ==, "made by NonZero “/nz”");
  g_assert_false (g_hash_table_contains (origins, "no_such_symbol"));
  g_assert_cmpuint (g_hash_table_size (origins), ==, 3);

  /* A body: its own NonZero's symbol, and batch from the graph around it. */
  body = pv_session_new_for_subgraph (s, pv_graph_find_node (s->graph, "/if"), 0, NULL, &error);
  g_assert_no_error (error);
  body_made = dim_symbol (body, "bnz", 1);
  g_assert_cmpstr (body_made, !=, made);
  {
    const char *body_wanted[] = { "batch", body_made, NULL };
    body_origins = pv_symbol_origins_new (body->basis, body_wanted);
  }
  g_assert_cmpstr (g_hash_table_lookup (body_origins, "batch"), ==, "x axis 0");
  made_text = g_strdup_printf ("made by NonZero “%s”", "/body_nz");
  g_assert_cmpstr (g_hash_table_lookup (body_origins, body_made), ==, made_text);
  /* Only the body's sizes mention it: the main basis does not. */
  g_assert_false (g_strv_contains ((const char *const *) s->basis->symbols, body_made));
  g_assert_true (g_strv_contains ((const char *const *) body->basis->unbound_symbols, body_made));
}

/* Bounds given for a body's own symbols plan it; the parent's win for its. */
static void
test_body_bounds (void)
{
  g_autoptr (PvModel) model = build ();
  g_autoptr (PvKernelTable) kernels = pv_kernel_table_new_default (NULL);
  g_autoptr (GHashTable) bounds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GHashTable) body_bounds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (PvSession) s = NULL, body = NULL;
  g_autoptr (GError) error = NULL;
  PvSessionOptions options = { 0 };
  const gint64 two = 2, three = 3, seven = 7, nine = 9;
  const char *body_made;
  int bnz, t;

  g_hash_table_replace (bounds, g_strdup ("batch"), g_memdup2 (&two, sizeof two));
  g_hash_table_replace (bounds, g_strdup ("seq"), g_memdup2 (&three, sizeof three));
  s = plan (model, kernels, NULL);
  g_hash_table_replace (bounds, g_strdup (dim_symbol (s, "nz", 1)), g_memdup2 (&three, sizeof three));
  g_clear_pointer (&s, pv_session_free);
  s = plan (model, kernels, bounds);
  g_assert_false (s->slots->deferred);
  body = pv_session_new_for_subgraph (s, pv_graph_find_node (s->graph, "/if"), 0, NULL, &error);
  g_assert_no_error (error);
  body_made = dim_symbol (body, "bnz", 1);
  g_assert_true (body->slots->deferred);
  g_hash_table_replace (body_bounds, g_strdup (body_made), g_memdup2 (&seven, sizeof seven));
  /* Not the parent's to change: batch stays 2. */
  g_hash_table_replace (body_bounds, g_strdup ("batch"), g_memdup2 (&nine, sizeof nine));
  g_clear_pointer (&body, pv_session_free);
  options.bounds = body_bounds;
  body = pv_session_new_for_subgraph (s, pv_graph_find_node (s->graph, "/if"), 0, &options, &error);
  g_assert_no_error (error);
  g_assert_false (body->slots->deferred);
  bnz = pv_graph_find_value (body->graph, "bnz");
  t = pv_graph_find_value (body->graph, "t");
  g_assert_cmpuint (body->value_bytes[bnz], ==, 8 * 2 * 7);
  g_assert_cmpuint (body->value_bytes[t], ==, 4 * 2 * 4);
}

/* The figures are the session's records: counted here from its steps and
 * curve points. */
static void
test_figures (void)
{
  g_autoptr (PvModel) model = build ();
  g_autoptr (PvKernelTable) kernels = pv_kernel_table_new_default (NULL);
  g_autoptr (PvSession) s = plan (model, kernels, NULL);
  PvSessionFigures f, none;
  guint64 highest = 0;
  int launches = 0;

  pv_session_figures_init (&f, s);
  g_assert_true (f.deferred);
  g_assert_true (f.has_ort);
  g_assert_true (f.has_makespan);
  g_assert_cmpint (f.n_streams, ==, 1);
  g_assert_cmpint (f.n_barriers, ==, 0);
  g_assert_cmpint (f.n_waits, ==, 0);
  for (int k = 0; k < s->ort->streams[0].n_steps; k++)
    launches += s->ort->streams[0].steps[k].kind == PV_ORT_STEP_LAUNCH_KERNEL;
  g_assert_cmpint (f.n_kernels, ==, launches);
  g_assert_cmpint (f.n_kernels, ==, s->graph->n_nodes);
  g_assert_cmpint (f.n_ort_buffers, ==, s->n_ort_arena_values);
  g_assert_cmpuint (f.ort_reserves, ==, s->ort_peak_bytes);
  g_assert_cmpuint (f.load_bytes, ==, s->load_bytes);
  for (int c = 0; c < s->schedule->n_curves; c++)
    for (int i = 0; i < s->schedule->curves[c].n_points; i++)
      highest = MAX (highest, s->schedule->curves[c].points[i].bytes);
  g_assert_cmpuint (f.peak_live, ==, highest);
  g_assert_cmpfloat (f.makespan, ==, s->schedule->makespan);

  pv_session_figures_init (&none, NULL);
  g_assert_false (none.has_ort);
  g_assert_cmpuint (none.peak_live, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/symbol-origin/origins", test_origins);
  g_test_add_func ("/symbol-origin/body-bounds", test_body_bounds);
  g_test_add_func ("/session-figures/figures", test_figures);
  return g_test_run ();
}
