/* The slot planner's documented behaviours (reference design 2). */
#include <string.h>

#include "pv-model-loader.h"
#include "pv-onnx-builder.h"
#include "pv-onnx-text.h"
#include "pv-test-model.h"
#include "pv-slot-planner.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define N PV_ONNX_NAMES

/* Sizes from a table "name" -> bytes; absent names are unknown; "str" has none. */
static PvSizeResult
table_oracle (gpointer data, int v, guint64 *bytes_out)
{
  const PvGraph *g = ((gpointer *) data)[0];
  GHashTable *sizes = ((gpointer *) data)[1];
  gpointer size;

  if (g_str_has_prefix (g->values[v].name, "str"))
    return PV_SIZE_NONE;
  if (!g_hash_table_lookup_extended (sizes, g->values[v].name, NULL, &size))
    return PV_SIZE_UNKNOWN;
  *bytes_out = GPOINTER_TO_UINT (size);
  return PV_SIZE_KNOWN;
}

static PvSlotPlan *
plan_with (const PvModel *m, GHashTable *sizes, const int *views, gboolean inputs)
{
  gpointer data[2] = { m->graph, sizes };
  return pv_slot_plan_new (m->graph, views, inputs, table_oracle, data);
}

static int
slot (const PvSlotPlan *p, const PvModel *m, const char *name)
{
  return p->slot_of[pv_graph_find_value (m->graph, name)];
}

/* x -> a -> b -> c -> y, sizes 100, 100, 50, 100. */
static PvModel *
chain_model (void)
{
  return pv_test_load_text ("x:25", "Relu n0 x>a; Relu n1 a>b; Relu n2 b>c; Relu n3 c>y", "y:25");
}

/* Asserts the slots of values, @expected as "name=slot name=slot". */
static void
assert_slots (const PvSlotPlan *p, const PvModel *m, const char *expected)
{
  g_auto (GStrv) items = g_strsplit (expected, " ", -1);
  g_autoptr (GString) got = g_string_new (NULL);

  for (int i = 0; items[i]; i++)
    {
      g_autofree char *name = g_strndup (items[i], strcspn (items[i], "="));
      g_string_append_printf (got, "%s%s=%d", i ? " " : "", name, slot (p, m, name));
    }
  g_assert_cmpstr (got->str, ==, expected);
}

static GHashTable *
sizes_of (const char *first, ...)
{
  GHashTable *t = g_hash_table_new (g_str_hash, g_str_equal);
  va_list args;
  const char *name = first;

  va_start (args, first);
  while (name)
    {
      guint size = va_arg (args, guint);
      g_hash_table_insert (t, (gpointer) name, GUINT_TO_POINTER (size));
      name = va_arg (args, const char *);
    }
  va_end (args);
  return t;
}

static void
test_retire_after_allocate (void)
{
  g_autoptr (PvModel) m = chain_model ();
  g_autoptr (GHashTable) sizes = sizes_of ("x", 100u, "a", 100u, "b", 50u, "c", 100u, "y", 100u, NULL);
  g_autoptr (PvSlotPlan) p = plan_with (m, sizes, NULL, FALSE);

  g_assert_false (p->deferred);
  /* n1 reads a: b cannot take a's slot; it is free only after n1. */
  assert_slots (p, m, "a=0 b=1");
  /* c (100) reuses a's slot 0 (freed after n1); b's slot 1 (50) is too small. */
  g_assert_cmpint (slot (p, m, "c"), ==, 0);
  /* y: b's slot 1 (freed after n2) has 50 < 100: a new slot. */
  g_assert_cmpint (slot (p, m, "y"), ==, 2);
  g_assert_cmpint (p->n_slots, ==, 3);
  g_assert_cmpuint (p->peak_bytes, ==, 250);
  g_assert_cmpuint (p->naive_bytes, ==, 350);
  g_assert_cmpfloat_with_epsilon (p->savings_ratio, 1.0 - 250.0 / 350.0, 1e-9);
  /* Graph inputs are not planned unless asked. */
  g_assert_cmpint (slot (p, m, "x"), ==, -1);
}

static void
test_include_graph_inputs (void)
{
  g_autoptr (PvModel) m = chain_model ();
  g_autoptr (GHashTable) sizes = sizes_of ("x", 100u, "a", 100u, "b", 50u, "c", 100u, "y", 100u, NULL);
  g_autoptr (PvSlotPlan) p = plan_with (m, sizes, NULL, TRUE);

  /* x holds slot 0 from the start and retires after n0: b... no, a cannot
   * take it (n0 reads x); b (50) fits into x's 100 after n0. */
  assert_slots (p, m, "x=0 a=1 b=0");
  g_assert_cmpuint (p->naive_bytes, ==, 450);
}

static void
test_best_fit_tie_breaks (void)
{
  g_autoptr (PvModel) m = NULL;
  g_autoptr (GHashTable) sizes = NULL;
  g_autoptr (PvSlotPlan) p = NULL;

  /* p, q, r defined; all consumed by "join"; then two outputs compete. */
  m = pv_test_load_text ("x:1", "Relu n0 x>p; Relu n1 p>q; Relu n2 q>r; Sum join p,q,r>s; Relu n4 s>t", "t:1");
  sizes = sizes_of ("p", 300u, "q", 200u, "r", 200u, "s", 10u, "t", 150u, NULL);
  p = plan_with (m, sizes, NULL, FALSE);
  assert_slots (p, m, "p=0 q=1 r=2 s=3");
  /* After join: slots 0 (300), 1 (200), 2 (200) free. t (150): smallest
   * capacity that fits is 200, and between slots 1 and 2 the smaller id. */
  g_assert_cmpint (slot (p, m, "t"), ==, 1);
}

static void
test_graph_outputs_not_recycled (void)
{
  g_autoptr (PvModel) m = NULL;
  g_autoptr (GHashTable) sizes = NULL;
  g_autoptr (PvSlotPlan) p = NULL;

  /* early is a graph output whose last reader is n1: without its graph
   * output status, a or late could take its slot. */
  m = pv_test_load_text ("x:1", "Relu n0 x>early; Neg n1 early>a; Relu n2 a>b; Relu n3 b>late", "early:1 late:1");
  sizes = sizes_of ("early", 64u, "a", 64u, "b", 64u, "late", 64u, NULL);
  p = plan_with (m, sizes, NULL, FALSE);
  /* b would reuse early's slot after n1 if early were an ordinary value. */
  g_assert_cmpint (slot (p, m, "early"), !=, slot (p, m, "a"));
  g_assert_cmpint (slot (p, m, "early"), !=, slot (p, m, "b"));
  g_assert_cmpint (slot (p, m, "early"), !=, slot (p, m, "late"));
  g_assert_cmpint (p->n_slots, ==, 3);
  g_assert_cmpint (p->liveness->use_end[pv_graph_find_value (m->graph, "early")], ==, m->graph->n_nodes - 1);
}

static void
test_views_share_root (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (PvModel) m = NULL;
  g_autoptr (GHashTable) sizes = NULL;
  g_autoptr (PvSlotPlan) p = NULL;
  g_autofree int *views = NULL;
  int root, view, use;

  pv_onnx_graph_add_input (g, "x", F, "4");
  pv_onnx_graph_add_input (g, "shape", ONNX__TENSOR_PROTO__DATA_TYPE__INT64, "1");
  pv_onnx_graph_add_nodes (g, "Relu n0 x>root; Reshape n1 root,shape>view; Relu n2 x>other; Add n3 view,other>y");
  pv_onnx_graph_add_output (g, "y", F, "4");
  m = pv_test_load_built (b, "test.onnx");
  views = g_new (int, m->graph->n_values);
  for (int v = 0; v < m->graph->n_values; v++)
    views[v] = -1;
  root = pv_graph_find_value (m->graph, "root");
  view = pv_graph_find_value (m->graph, "view");
  views[view] = root;
  sizes = sizes_of ("root", 16u, "view", 16u, "other", 16u, "y", 16u, NULL);
  p = plan_with (m, sizes, views, FALSE);
  g_assert_cmpint (p->slot_of[view], ==, -1);
  g_assert_cmpint (p->liveness->root[view], ==, root);
  /* The view's consumer n3 keeps the root alive to n3. */
  use = p->liveness->use_end[root];
  g_assert_cmpint (m->graph->order[use], ==, pv_graph_find_node (m->graph, "n3"));
  g_assert_cmpint (slot (p, m, "other"), !=, slot (p, m, "root"));
  g_assert_cmpuint (p->naive_bytes, ==, 48);
}

static void
test_deferred (void)
{
  g_autoptr (PvModel) m = chain_model ();
  /* b and y unknown; str-prefixed would be unsized. */
  g_autoptr (GHashTable) sizes = sizes_of ("a", 100u, "c", 100u, NULL);
  g_autoptr (PvSlotPlan) p = plan_with (m, sizes, NULL, FALSE);

  g_assert_true (p->deferred);
  g_assert_cmpint (p->n_unknown, ==, 2);
  g_assert_cmpint (p->unknown[0], <, p->unknown[1]);
  g_assert_cmpstr (m->graph->values[p->unknown[0]].name, ==, "b");
  g_assert_cmpstr (m->graph->values[p->unknown[1]].name, ==, "y");
  g_assert_cmpuint (p->peak_bytes, ==, 0);
}

/* Admission control over shape inference: deferred names the unbound symbols. */
static void
test_peak_at_bounds (void)
{
  g_autoptr (PvModel) m = NULL;
  g_autoptr (PvShapeInfo) shapes = NULL;
  g_autoptr (GHashTable) bounds = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_auto (GStrv) unbound = NULL;
  g_autoptr (GError) error = NULL;
  guint64 peak = 0;
  gint64 two = 2, ten = 10;

  m = pv_test_load_text ("x:batch,seq", "Relu n0 x>a; Relu n1 a>y", "y:batch,seq");
  shapes = pv_shape_infer (m, NULL, &error);
  g_assert_no_error (error);
  g_hash_table_insert (bounds, "batch", g_memdup2 (&two, sizeof two));
  g_assert_false (pv_slot_plan_peak_at_bounds (m->graph, shapes, NULL, FALSE, bounds, &peak, &unbound));
  g_assert_cmpstrv (unbound, ((const char *const[]) { "seq", NULL }));
  g_hash_table_insert (bounds, "seq", g_memdup2 (&ten, sizeof ten));
  g_assert_true (pv_slot_plan_peak_at_bounds (m->graph, shapes, NULL, FALSE, bounds, &peak, NULL));
  g_assert_cmpuint (peak, ==, 2 * 2 * 10 * 4);
}

static void
test_deterministic (void)
{
  g_autoptr (PvModel) m = chain_model ();
  g_autoptr (GHashTable) sizes = sizes_of ("x", 100u, "a", 100u, "b", 50u, "c", 100u, "y", 100u, NULL);
  g_autoptr (PvSlotPlan) p1 = plan_with (m, sizes, NULL, FALSE);
  g_autoptr (PvSlotPlan) p2 = plan_with (m, sizes, NULL, FALSE);

  g_assert_cmpint (p1->n_slots, ==, p2->n_slots);
  for (int v = 0; v < m->graph->n_values; v++)
    g_assert_cmpint (p1->slot_of[v], ==, p2->slot_of[v]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/slots/retire-after-allocate", test_retire_after_allocate);
  g_test_add_func ("/slots/include-graph-inputs", test_include_graph_inputs);
  g_test_add_func ("/slots/best-fit-tie-breaks", test_best_fit_tie_breaks);
  g_test_add_func ("/slots/graph-outputs-not-recycled", test_graph_outputs_not_recycled);
  g_test_add_func ("/slots/views-share-root", test_views_share_root);
  g_test_add_func ("/slots/deferred", test_deferred);
  g_test_add_func ("/slots/peak-at-bounds", test_peak_at_bounds);
  g_test_add_func ("/slots/deterministic", test_deterministic);
  return g_test_run ();
}
