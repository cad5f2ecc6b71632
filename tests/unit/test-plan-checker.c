/* The plan checker: accepts safe plans, catches planted faults, and holds
 * every slot and arena plan of thousands of random graphs. */
#include <stdio.h>
#include <string.h>

#include "pv-model-loader.h"
#include "pv-arena-planner.h"
#include "pv-onnx-builder.h"
#include "pv-onnx-text.h"
#include "pv-test-model.h"
#include "pv-plan-checker.h"
#include "pv-random-graph.h"
#include "pv-slot-planner.h"
#include "pv-test-seed.h"
#include "pv-value-aliases.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define N PV_ONNX_NAMES

/* x -> a -> b -> c -> y (graph output) */
static PvModel *
chain (void)
{
  PvOnnxBuilder *b = pv_onnx_builder_new (8, "t");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  pv_onnx_builder_add_opset (b, "", 17);
  pv_onnx_graph_add_input (g, "x", F, "4");
  pv_onnx_graph_add_nodes (g, "Relu n0 x>a; Relu n1 a>b; Relu n2 b>c; Relu n3 c>y");
  pv_onnx_graph_add_output (g, "y", F, "4");
  return pv_test_load_built (b, "test.onnx");
}

typedef struct {
  PvPlacement *place;
  guint64 *need;
} Plan;

static Plan
empty_plan (const PvModel *m)
{
  Plan p = { g_new (PvPlacement, m->graph->n_values), g_new0 (guint64, m->graph->n_values) };
  for (int v = 0; v < m->graph->n_values; v++)
    p.place[v] = (PvPlacement) { -1, 0, 0 };
  return p;
}

/* Places values, @text as "name region offset size" items separated by
 * "; ", each needing 16 bytes. */
static void
put (const PvModel *m, Plan *p, const char *text)
{
  g_auto (GStrv) items = g_strsplit (text, "; ", -1);

  for (int i = 0; items[i]; i++)
    {
      char name[64];
      int region, v;
      guint64 offset, size;

      g_assert_cmpint (sscanf (items[i], "%63s %d %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, name, &region, &offset,
                               &size), ==, 4);
      v = pv_graph_find_value (m->graph, name);
      p->place[v] = (PvPlacement) { region, offset, size };
      p->need[v] = 16;
    }
}

static void
plan_clear (Plan *p)
{
  g_free (p->place);
  g_free (p->need);
}

/* Checks @p, and that the same check in an order built beforehand (as a
 * session shares one among its checks) finds exactly the same. */
static PvCheckResult *
check (const PvModel *m, const Plan *p, const PvCheckSchedule *schedule, const int *inplace)
{
  PvCheckResult *r = pv_plan_check (m->graph, schedule, p->place, NULL, inplace, p->need, 0);
  g_autoptr (PvHappensBefore) order =
    pv_happens_before_new (m->graph, schedule ? schedule->node_stream : NULL, schedule ? schedule->node_position : NULL,
                           schedule ? schedule->sync_edges : NULL, schedule ? schedule->n_sync_edges : 0);
  g_autoptr (PvCheckResult) again = pv_plan_check_in_order (m->graph, order, p->place, NULL, inplace, p->need, 0);

  g_assert_cmpint (again->ok, ==, r->ok);
  g_assert_cmpint (again->n_violations, ==, r->n_violations);
  for (int i = 0; i < r->n_violations; i++)
    {
      const PvViolation *x = &r->violations[i], *y = &again->violations[i];
      g_assert_cmpint (x->kind, ==, y->kind);
      g_assert_cmpint (x->value_a, ==, y->value_a);
      g_assert_cmpint (x->value_b, ==, y->value_b);
      g_assert_cmpint (x->step_a, ==, y->step_a);
      g_assert_cmpint (x->step_b, ==, y->step_b);
      g_assert_cmpstr (x->message, ==, y->message);
    }
  return r;
}

static void
test_safe_chain (void)
{
  g_autoptr (PvModel) m = chain ();
  Plan p = empty_plan (m);
  g_autoptr (PvCheckResult) r = NULL;

  /* a and c share a region: a is dead (last read by n1) before n2 writes c. */
  put (m, &p, "a 0 0 16; b 1 0 16; c 0 0 16; y 2 0 16");
  r = check (m, &p, NULL, NULL);
  g_assert_true (r->ok);
  g_assert_cmpint (r->n_violations, ==, 0);
  plan_clear (&p);
}

/* x -> Relu r<i> -> v<i> for 200 branches, all read by one Sum: the 200
 * values are live at once, so the sweep keeps more than its short list
 * holds (64) and goes on in its tree. Distinct offsets pass; a value moved
 * onto another is caught early in the sweep (v5 on v3) and late (v150 on
 * v10), as one overlap each time. */
static void
test_wide_sweep (void)
{
  const int n = 200;
  PvOnnxBuilder *b = pv_onnx_builder_new (8, "t");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (GString) nodes = g_string_new (NULL);
  g_autoptr (GString) sum = g_string_new ("Sum s ");
  g_autoptr (PvModel) m = NULL;
  Plan p;

  pv_onnx_builder_add_opset (b, "", 17);
  pv_onnx_graph_add_input (g, "x", F, "4");
  for (int i = 0; i < n; i++)
    {
      g_string_append_printf (nodes, "Relu r%d x>v%d; ", i, i);
      g_string_append_printf (sum, "%sv%d", i ? "," : "", i);
    }
  g_string_append (sum, ">y");
  g_string_append (nodes, sum->str);
  pv_onnx_graph_add_nodes (g, nodes->str);
  pv_onnx_graph_add_output (g, "y", F, "4");
  m = pv_test_load_built (b, "wide.onnx");
  p = empty_plan (m);
  for (int i = 0; i < n; i++)
    {
      g_autofree char *item = g_strdup_printf ("v%d 0 %d 16", i, 16 * i);
      put (m, &p, item);
    }
  put (m, &p, "y 1 0 16");
  {
    g_autoptr (PvCheckResult) r = check (m, &p, NULL, NULL);
    g_assert_true (r->ok);
  }
  for (int planted = 0; planted < 2; planted++)
    {
      int moved = planted ? 150 : 5, onto = planted ? 10 : 3;
      g_autofree char *item = g_strdup_printf ("v%d 0 %d 16", moved, 16 * onto);
      g_autofree char *back = g_strdup_printf ("v%d 0 %d 16", moved, 16 * moved);
      g_autofree char *bytes = g_strdup_printf ("share bytes %d–%d of region 0", 16 * onto, 16 * onto + 16);
      g_autofree char *a = g_strdup_printf ("“v%d”", moved);
      g_autofree char *c = g_strdup_printf ("“v%d”", onto);
      g_autoptr (PvCheckResult) r = NULL;

      put (m, &p, item);
      r = check (m, &p, NULL, NULL);
      g_assert_false (r->ok);
      g_assert_cmpint (r->n_violations, ==, 1);
      g_assert_cmpint (r->violations[0].kind, ==, PV_VIOLATION_OVERLAP);
      g_test_message ("%s", r->violations[0].message);
      g_assert_nonnull (strstr (r->violations[0].message, bytes));
      g_assert_nonnull (strstr (r->violations[0].message, a));
      g_assert_nonnull (strstr (r->violations[0].message, c));
      put (m, &p, back);
    }
  plan_clear (&p);
}

static void
test_overlap_caught (void)
{
  g_autoptr (PvModel) m = chain ();
  Plan p = empty_plan (m);
  g_autoptr (PvCheckResult) r = NULL;

  /* b is written by n1 while a is still read by n1: not in place. */
  put (m, &p, "a 0 0 16; b 0 8 16; c 1 0 16; y 2 0 16");
  r = check (m, &p, NULL, NULL);
  g_assert_false (r->ok);
  g_assert_cmpint (r->n_violations, ==, 1);
  g_assert_cmpint (r->violations[0].kind, ==, PV_VIOLATION_OVERLAP);
  g_assert_cmpstr (r->violations[0].message, ==,
                   "values “a” and “b” share bytes 8–16 of region 0, but “a” is still read by node “n1” when "
                   "node “n1” writes “b”");
  g_clear_pointer (&r, pv_check_result_free);

  /* The same sharing is fine when n1's kernel may work in place. */
  {
    g_autofree int *inplace = g_new (int, m->graph->n_values);
    for (int v = 0; v < m->graph->n_values; v++)
      inplace[v] = -1;
    inplace[pv_graph_find_value (m->graph, "b")] = pv_graph_find_value (m->graph, "a");
    r = check (m, &p, NULL, inplace);
    g_assert_true (r->ok);
  }
  plan_clear (&p);
}

static void
test_graph_output_reused_caught (void)
{
  PvOnnxBuilder *b = pv_onnx_builder_new (8, "t");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (PvModel) m = NULL;
  g_autoptr (PvCheckResult) r = NULL;
  Plan p;

  pv_onnx_builder_add_opset (b, "", 17);
  pv_onnx_graph_add_input (g, "x", F, "4");
  pv_onnx_graph_add_nodes (g, "Relu n0 x>out; Neg n1 out>a; Neg n2 a>y");
  pv_onnx_graph_add_outputs (g, F, "out:4 y:4");
  m = pv_test_load_built (b, "test.onnx");
  p = empty_plan (m);
  /* y shares out's bytes: out's last reader is n1, but it is a graph output. */
  put (m, &p, "out 0 0 16; a 1 0 16; y 0 0 16");
  r = check (m, &p, NULL, NULL);
  g_assert_false (r->ok);
  g_assert_cmpint (r->violations[0].value_a, ==, pv_graph_find_value (m->graph, "out"));
  g_assert_cmpint (r->violations[0].value_b, ==, pv_graph_find_value (m->graph, "y"));
  g_assert_nonnull (strstr (r->violations[0].message, "is a graph output"));
  plan_clear (&p);
}

static void
test_no_memory_caught (void)
{
  g_autoptr (PvModel) m = chain ();
  Plan p = empty_plan (m);
  g_autoptr (PvCheckResult) r = NULL;

  put (m, &p, "a 0 0 16; b 1 0 8; c 2 0 16");  /* b's 8 bytes are too small */
  p.need[pv_graph_find_value (m->graph, "y")] = 16;  /* needs bytes, has none */
  r = check (m, &p, NULL, NULL);
  g_assert_false (r->ok);
  g_assert_cmpint (r->n_violations, ==, 2);
  g_assert_cmpint (r->violations[0].kind, ==, PV_VIOLATION_NO_MEMORY);
  g_assert_cmpstr (r->violations[0].message, ==, "value “b” needs 16 bytes but its memory holds only 8");
  g_assert_cmpstr (r->violations[1].message, ==, "value “y” needs 16 bytes but has no memory");
  plan_clear (&p);
}

/* Two streams: n0 -> a on stream 0 is read by n1 on stream 1; c on stream 0
 * reuses a's bytes. Safe only if n1 happens-before n2. */
static void
test_cross_stream (void)
{
  PvOnnxBuilder *b = pv_onnx_builder_new (8, "t");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (PvModel) m = NULL;
  g_autoptr (PvCheckResult) r = NULL;
  g_autofree int *stream = NULL, *position = NULL;
  int n0, n1, n2, n3;
  Plan p;

  pv_onnx_builder_add_opset (b, "", 17);
  pv_onnx_graph_add_input (g, "x", F, "4");
  /* Model order n0, n2, n1, n3 makes ORT's order n0, n1, n2, n3. */
  pv_onnx_graph_add_node (g, "Relu", "n0", N ("x"), N ("a"));
  pv_onnx_graph_add_node (g, "Neg", "n2", N ("x"), N ("c"));    /* stream 0 */
  pv_onnx_graph_add_node (g, "Relu", "n1", N ("a"), N ("b"));   /* stream 1 */
  pv_onnx_graph_add_node (g, "Add", "n3", N ("b", "c"), N ("y"));
  pv_onnx_graph_add_output (g, "y", F, "4");
  m = pv_test_load_built (b, "test.onnx");
  n0 = pv_graph_find_node (m->graph, "n0");
  n1 = pv_graph_find_node (m->graph, "n1");
  n2 = pv_graph_find_node (m->graph, "n2");
  n3 = pv_graph_find_node (m->graph, "n3");
  stream = g_new0 (int, m->graph->n_nodes);
  position = g_new0 (int, m->graph->n_nodes);
  stream[n1] = 1;
  /* stream 0 runs n0, n2, n3 in this order; stream 1 runs n1 */
  position[n0] = 0;
  position[n2] = 1;
  position[n3] = 2;
  position[n1] = 0;
  g_assert_cmpint (m->graph->order[0], ==, n0);
  g_assert_cmpint (m->graph->order[1], ==, n1);
  p = empty_plan (m);
  put (m, &p, "a 0 0 16; c 0 0 16; b 1 0 16; y 2 0 16");
  {
    /* Only the data edges: n0 -> n1 (a) and n1 -> n3 (b). Nothing orders
     * n1's read of a before n2's write of c. */
    const int edges[][2] = { { n0, n1 }, { n1, n3 } };
    PvCheckSchedule schedule = { stream, position, edges, 2 };
    r = check (m, &p, &schedule, NULL);
    g_assert_false (r->ok);
    g_test_message ("%s", r->violations[0].message);
    g_assert_cmpint (r->violations[0].kind, ==, PV_VIOLATION_UNORDERED);
    g_assert_nonnull (strstr (r->violations[0].message, "on another stream, with no synchronisation"));
    g_clear_pointer (&r, pv_check_result_free);
  }
  {
    /* A barrier before n2 waiting for n1 makes it safe. */
    const int edges[][2] = { { n0, n1 }, { n1, n3 }, { n1, n2 } };
    PvCheckSchedule schedule = { stream, position, edges, 3 };
    r = check (m, &p, &schedule, NULL);
    g_assert_true (r->ok);
  }
  plan_clear (&p);
}

/* ---- random graphs ---- */

typedef struct {
  GHashTable *sizes;  /* value name -> bytes */
  const PvGraph *graph;
} RandomSizes;

static PvSizeResult
random_sizes (gpointer data, int v, guint64 *bytes_out)
{
  RandomSizes *rs = data;
  gpointer size;
  if (!g_hash_table_lookup_extended (rs->sizes, rs->graph->values[v].name, NULL, &size))
    return PV_SIZE_NONE;
  *bytes_out = GPOINTER_TO_UINT (size);
  return PV_SIZE_KNOWN;
}

static void
test_random_plans_pass_and_faults_are_caught (void)
{
  g_autoptr (GRand) rand = pv_test_rand_new (7);
  int graphs = g_test_slow () ? 10000 : 10000, caught = 0, planted = 0;

  for (int round = 0; round < graphs; round++)
    {
      g_autoptr (GHashTable) sizes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autofree int *views = NULL;
      g_autoptr (PvModel) m = pv_random_graph_new (rand, sizes, &views);
      RandomSizes rs = { sizes, m->graph };
      g_autoptr (PvSlotPlan) slots = pv_slot_plan_new (m->graph, views, FALSE, random_sizes, &rs);
      g_autofree int *roots = pv_value_view_roots (views, m->graph->n_values);
      const PvLiveness *live = slots->liveness;
      int n = m->graph->n_values;
      g_autofree PvPlacement *place = g_new (PvPlacement, n);
      g_autofree guint64 *need = g_new0 (guint64, n);
      g_autofree PvBufferLife *buffers = g_new (PvBufferLife, MAX (live->n_owners, 1));
      g_autofree int *owner_of_buffer = g_new (int, MAX (live->n_owners, 1));
      g_autoptr (PvCheckResult) r = NULL;
      g_autoptr (PvArenaPlan) arena = NULL;
      int nb = 0;

      g_assert_false (slots->deferred);
      /* The slot plan. */
      for (int v = 0; v < n; v++)
        {
          int s = slots->slot_of[v];
          place[v] = s >= 0 ? (PvPlacement) { s, 0, slots->slots[s].capacity } : (PvPlacement) { -1, 0, 0 };
          need[v] = s >= 0 ? slots->bytes[v] : 0;
        }
      r = pv_plan_check (m->graph, NULL, place, roots, NULL, need, 0);
      if (!r->ok)
        g_error ("round %d: slot plan rejected: %s", round, r->violations[0].message);
      g_assert_cmpuint (slots->peak_bytes, <=, slots->naive_bytes);
      g_clear_pointer (&r, pv_check_result_free);

      /* The arena plan over the same owners. */
      for (int i = 0; i < live->n_owners; i++)
        {
          int v = live->owners[i];
          buffers[nb] = (PvBufferLife) { slots->bytes[v], live->def[v], live->use_end[v] };
          owner_of_buffer[nb++] = v;
        }
      arena = pv_arena_plan_new (buffers, nb, 64);
      g_assert_cmpuint (arena->peak_bytes, >=, pv_buffers_load (buffers, nb, 64));
      g_assert_cmpuint (slots->peak_bytes, >=, pv_buffers_load (buffers, nb, 1));
      for (int i = 0; i < nb; i++)
        place[owner_of_buffer[i]] = (PvPlacement) { 0, arena->offsets[i], slots->bytes[owner_of_buffer[i]] };
      r = pv_plan_check (m->graph, NULL, place, roots, NULL, need, 0);
      if (!r->ok)
        g_error ("round %d: arena plan rejected: %s", round, r->violations[0].message);
      g_clear_pointer (&r, pv_check_result_free);

      /* Plant a fault: move one owner onto another owner live at the same time. */
      for (int i = 0; i < nb && planted <= round; i++)
        for (int j = 0; j < nb; j++)
          if (i != j && buffers[i].first <= buffers[j].last && buffers[j].first <= buffers[i].last)
            {
              place[owner_of_buffer[i]].offset = place[owner_of_buffer[j]].offset;
              planted++;
              r = pv_plan_check (m->graph, NULL, place, roots, NULL, need, 0);
              caught += !r->ok;
              if (r->ok)
                g_error ("round %d: planted overlap of %s and %s not caught", round,
                         m->graph->values[owner_of_buffer[i]].name, m->graph->values[owner_of_buffer[j]].name);
              i = nb;
              break;
            }
    }
  g_test_message ("%d random graphs; %d planted faults, %d caught", graphs, planted, caught);
  g_assert_cmpint (planted, >, graphs / 2);
  g_assert_cmpint (caught, ==, planted);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/checker/safe-chain", test_safe_chain);
  g_test_add_func ("/checker/overlap-caught", test_overlap_caught);
  g_test_add_func ("/checker/wide-sweep", test_wide_sweep);
  g_test_add_func ("/checker/graph-output-reused-caught", test_graph_output_reused_caught);
  g_test_add_func ("/checker/no-memory-caught", test_no_memory_caught);
  g_test_add_func ("/checker/cross-stream", test_cross_stream);
  g_test_add_func ("/checker/random-plans", test_random_plans_pass_and_faults_are_caught);
  return g_test_run ();
}
