/* Liveness on random graphs (views, graph inputs, several streams) against
 * a plain walk over the nodes in execution order. */
#include "pv-liveness.h"
#include "pv-random-graph.h"
#include "pv-test-model.h"
#include "pv-test-seed.h"
#include "pv-value-aliases.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define N PV_ONNX_NAMES

typedef struct {
  int *root, *def, *use_end, *owners;
  int n_owners;
} Reference;

static void
reference_free (Reference *ref)
{
  g_free (ref->root);
  g_free (ref->def);
  g_free (ref->use_end);
  g_free (ref->owners);
}

/* Roots as documented; owners: graph inputs by id, then each step's outputs
 * in output order; a root lives from its step to its last reader's, or to
 * the end for graph outputs. */
static Reference
reference_liveness (const PvGraph *g, const int *views, gboolean inputs)
{
  int n = g->n_values;
  Reference ref = { g_new (int, n), g_new (int, n), g_new (int, n), g_new (int, n), 0 };

  for (int v = 0; v < n; v++)
    {
      const PvValue *value = &g->values[v];
      int r = v, hops = 0;
      ref.def[v] = ref.use_end[v] = -1;
      /* Follow views to their first value that is not one. */
      while (views && views[r] >= 0 && g->values[r].producer >= 0 && hops++ <= n)
        r = views[r];
      value = &g->values[r];
      if (hops > n || (value->flags & (PV_VALUE_INITIALIZER | PV_VALUE_OUTER_SCOPE)))
        ref.root[v] = -1;
      else if (value->flags & PV_VALUE_GRAPH_INPUT)
        ref.root[v] = inputs ? r : -1;
      else
        ref.root[v] = value->producer < 0 ? -1 : r;
    }
  for (int v = 0; v < n; v++)
    if (ref.root[v] == v && g->values[v].producer < 0)
      ref.owners[ref.n_owners++] = v;
  for (int step = 0; step < g->n_nodes; step++)
    {
      const PvNode *node = &g->nodes[g->order[step]];
      for (int k = 0; k < node->n_outputs; k++)
        if (node->outputs[k] >= 0 && ref.root[node->outputs[k]] == node->outputs[k])
          {
            ref.owners[ref.n_owners++] = node->outputs[k];
            ref.def[node->outputs[k]] = ref.use_end[node->outputs[k]] = step;
          }
    }
  for (int step = 0; step < g->n_nodes; step++)
    {
      const PvNode *node = &g->nodes[g->order[step]];
      for (int k = 0; k < node->n_inputs + node->n_implicit_inputs; k++)
        {
          int v = k < node->n_inputs ? node->inputs[k] : node->implicit_inputs[k - node->n_inputs];
          if (v >= 0 && ref.root[v] >= 0)
            ref.use_end[ref.root[v]] = MAX (ref.use_end[ref.root[v]], step);
        }
    }
  for (int i = 0; i < g->n_outputs; i++)
    if (ref.root[g->outputs[i]] >= 0)
      ref.use_end[ref.root[g->outputs[i]]] = g->n_nodes - 1;
  for (int i = 0; i < ref.n_owners; i++)
    ref.use_end[ref.owners[i]] = MAX (ref.use_end[ref.owners[i]], 0);
  return ref;
}

/* Each owner lives on until, on every stream, a node that runs after its
 * definition and all its readers (node ids by order position). */
/* What widening must give, straight from its promise: an owner stays live
 * through every node that some node touching it (its producer, a reader of
 * it or of a view of it) does not happen-before, and no longer; so any owner
 * defined after the interval is ordered after all of them. */
static void
reference_widen (Reference *ref, const PvGraph *g, const PvHappensBefore *hb)
{
  if (pv_happens_before_n_streams (hb) <= 1)
    return;
  for (int i = 0; i < ref->n_owners; i++)
    {
      int r = ref->owners[i], end = ref->use_end[r];
      for (int u = 0; u < g->n_nodes; u++)
        {
          const PvNode *nd = &g->nodes[u];
          gboolean touches = FALSE;
          for (int j = 0; j < nd->n_inputs + nd->n_implicit_inputs + nd->n_outputs; j++)
            {
              int v = j < nd->n_inputs ? nd->inputs[j]
                      : j < nd->n_inputs + nd->n_implicit_inputs ? nd->implicit_inputs[j - nd->n_inputs]
                      : nd->outputs[j - nd->n_inputs - nd->n_implicit_inputs];
              touches |= v >= 0 && ref->root[v] == r;
            }
          for (int w = 0; touches && w < g->n_nodes; w++)
            if (!pv_happens_before (hb, u, w))
              end = MAX (end, g->nodes[w].order_position);
        }
      ref->use_end[r] = MIN (end, g->n_nodes - 1);
    }
}

static void
assert_same (const PvLiveness *live, const Reference *ref, int n)
{
  g_assert_cmpint (live->n_owners, ==, ref->n_owners);
  for (int i = 0; i < ref->n_owners; i++)
    g_assert_cmpint (live->owners[i], ==, ref->owners[i]);
  for (int v = 0; v < n; v++)
    {
      g_assert_cmpint (live->root[v], ==, ref->root[v]);
      if (ref->root[v] == v)
        {
          g_assert_cmpint (live->def[v], ==, ref->def[v]);
          g_assert_cmpint (live->use_end[v], ==, ref->use_end[v]);
        }
    }
}

static void
test_matches_walk (void)
{
  g_autoptr (GRand) rand = pv_test_rand_new (5);

  for (int round = 0; round < 400; round++)
    {
      g_autoptr (GHashTable) sizes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autofree int *views = NULL;
      g_autoptr (PvModel) m = pv_random_graph_new (rand, sizes, &views);
      const PvGraph *g = m->graph;
      gboolean inputs = g_rand_boolean (rand);
      int k = g_rand_int_range (rand, 1, 4), n_edges = g_rand_int_range (rand, 0, g->n_nodes);
      g_autofree int *stream = g_new (int, g->n_nodes);
      g_autofree int *position = g_new (int, g->n_nodes);
      g_autofree int *count = g_new0 (int, k);
      g_autofree int (*edges)[2] = g_malloc (sizeof (int[2]) * MAX (n_edges, 1));
      g_autoptr (PvHappensBefore) hb = NULL;
      g_autofree int *roots = pv_value_view_roots (views, g->n_values);
      PvLiveness *live = pv_liveness_new (g, roots, inputs);
      Reference ref = reference_liveness (g, views, inputs);

      assert_same (live, &ref, g->n_values);

      /* The same on random streams with random forward sync edges. */
      for (int i = 0; i < g->n_nodes; i++)
        {
          int u = g->order[i];
          stream[u] = g_rand_int_range (rand, 0, k);
          position[u] = count[stream[u]]++;
        }
      for (int e = 0; e < n_edges; e++)
        {
          int a = g_rand_int_range (rand, 0, g->n_nodes), b = g_rand_int_range (rand, 0, g->n_nodes);
          edges[e][0] = g->order[MIN (a, b)];
          edges[e][1] = g->order[MAX (a, b)];
        }
      hb = pv_happens_before_new (g, stream, position, edges, n_edges);
      pv_liveness_widen_for_streams (live, g, hb);
      reference_widen (&ref, g, hb);
      assert_same (live, &ref, g->n_values);

      pv_liveness_free (live);
      reference_free (&ref);
    }
}

/* Nodes with several outputs: owners in output order. */
static void
test_multi_output (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *gb = pv_onnx_builder_get_graph (b);
  g_autoptr (PvModel) m = NULL;
  PvLiveness *live;
  Reference ref;

  pv_onnx_graph_add_input (gb, "x", F, "6");
  pv_onnx_graph_add_input (gb, "k", ONNX__TENSOR_PROTO__DATA_TYPE__INT64, "1");
  pv_onnx_graph_add_node (gb, "Split", "split", N ("x"), N ("a", "b", "c"));
  pv_onnx_graph_add_node (gb, "Relu", "r", N ("c"), N ("d"));
  pv_onnx_graph_add_node (gb, "TopK", "top", N ("d", "k"), N ("v", "i"));
  pv_onnx_graph_add_node (gb, "Add", "add", N ("a", "b"), N ("e"));
  pv_onnx_graph_add_output (gb, "e", F, "2");
  pv_onnx_graph_add_output (gb, "v", F, "1");
  m = pv_test_load_built (b, "test.onnx");
  for (int inputs = 0; inputs < 2; inputs++)
    {
      live = pv_liveness_new (m->graph, NULL, inputs);
      ref = reference_liveness (m->graph, NULL, inputs);
      assert_same (live, &ref, m->graph->n_values);
      g_assert_cmpint (live->n_owners, ==, 7 + inputs * 2);
      pv_liveness_free (live);
      reference_free (&ref);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/liveness/matches-walk", test_matches_walk);
  g_test_add_func ("/liveness/multi-output", test_multi_output);
  return g_test_run ();
}
