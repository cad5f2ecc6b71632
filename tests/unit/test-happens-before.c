/* Happens-before on random executions: every answer matches a search of
 * the stream-order and sync edges from the node. */
#include "pv-happens-before.h"
#include "pv-test-seed.h"

/* A graph with @n nodes and no values: all pv_happens_before_new() reads is
 * the node count and the execution order. */
static PvGraph *
bare_graph (GRand *rand, int n)
{
  PvGraph *g = g_new0 (PvGraph, 1);

  g->n_nodes = n;
  g->nodes = g_new0 (PvNode, MAX (n, 1));
  g->order = g_new (int, MAX (n, 1));
  for (int i = 0; i < n; i++)
    g->order[i] = i;
  for (int i = n - 1; i > 0; i--)
    {
      int j = g_rand_int_range (rand, 0, i + 1), t = g->order[i];
      g->order[i] = g->order[j];
      g->order[j] = t;
    }
  for (int i = 0; i < n; i++)
    g->nodes[g->order[i]].order_position = i;
  return g;
}

static void
bare_graph_free (PvGraph *g)
{
  g_free (g->nodes);
  g_free (g->order);
  g_free (g);
}

static void
test_matches_search (void)
{
  g_autoptr (GRand) rand = pv_test_rand_new (11);

  for (int round = 0; round < 300; round++)
    {
      int n = g_rand_int_range (rand, 1, 50), k = g_rand_int_range (rand, 1, 5);
      int n_edges = g_rand_int_range (rand, 0, 2 * n);
      gboolean one_stream = round % 5 == 0;  /* NULL streams and positions */
      PvGraph *g = bare_graph (rand, n);
      g_autofree int *stream = g_new (int, MAX (n, 1));
      g_autofree int *position = g_new (int, MAX (n, 1));
      g_autofree int *count = g_new0 (int, MAX (k, 1));
      g_autofree int (*edges)[2] = g_malloc (sizeof (int[2]) * MAX (n_edges, 1));
      g_autofree gboolean *seen = g_new (gboolean, MAX (n, 1));
      g_autofree int *stack = g_new (int, MAX (n, 1));
      g_autoptr (PvHappensBefore) hb = NULL;

      if (one_stream)
        k = 1;
      for (int i = 0; i < n; i++)
        {
          int u = g->order[i];
          stream[u] = one_stream ? 0 : g_rand_int_range (rand, 0, k);
          position[u] = count[stream[u]]++;
        }
      /* Sync edges go forward in the order; a few name no node and are
       * ignored. */
      for (int e = 0; e < n_edges; e++)
        {
          int a = g_rand_int_range (rand, 0, n), b = g_rand_int_range (rand, 0, n);
          edges[e][0] = g->order[MIN (a, b)];
          edges[e][1] = g->order[MAX (a, b)];
          if (a == b)
            edges[e][g_rand_int_range (rand, 0, 2)] = g_rand_boolean (rand) ? -1 : n;
        }
      hb = pv_happens_before_new (g, one_stream ? NULL : stream, one_stream ? NULL : position, edges, n_edges);
      /* Streams up to the last one used. */
      k = 1;
      for (int u = 0; u < n; u++)
        k = MAX (k, stream[u] + 1);
      g_assert_cmpint (pv_happens_before_n_streams (hb), ==, k);

      for (int s = 0; s < k; s++)
        {
          for (int p = 0; p < count[s]; p++)
            {
              int node = pv_happens_before_node_at (hb, s, p);
              g_assert_cmpint (node, >=, 0);
              g_assert_cmpint (stream[node], ==, s);
              g_assert_cmpint (position[node], ==, p);
            }
          g_assert_cmpint (pv_happens_before_node_at (hb, s, count[s]), ==, -1);
        }
      for (int u = 0; u < n; u++)
        {
          int n_stack = 0;
          g_assert_cmpint (pv_happens_before_stream (hb, u), ==, stream[u]);
          /* Everything reachable from u by one edge or more. */
          for (int v = 0; v < n; v++)
            seen[v] = FALSE;
          stack[n_stack++] = u;
          while (n_stack > 0)
            {
              int x = stack[--n_stack], next = -1;
              for (int i = g->nodes[x].order_position + 1; i < n && next < 0; i++)
                if (stream[g->order[i]] == stream[x])
                  next = g->order[i];
              if (next >= 0 && !seen[next])
                seen[next] = TRUE, stack[n_stack++] = next;
              for (int e = 0; e < n_edges; e++)
                if (edges[e][0] == x && edges[e][1] >= 0 && edges[e][1] < n && !seen[edges[e][1]])
                  seen[edges[e][1]] = TRUE, stack[n_stack++] = edges[e][1];
            }
          for (int d = 0; d < n; d++)
            g_assert_cmpint (pv_happens_before (hb, u, d), ==, seen[d]);
          for (int s = 0; s < k; s++)
            {
              int first = G_MAXINT;
              for (int d = 0; d < n; d++)
                if (seen[d] && stream[d] == s)
                  first = MIN (first, position[d]);
              g_assert_cmpint (pv_happens_before_first_after (hb, u, s), ==, first);
              g_assert_cmpint (pv_happens_before_first_after_row (hb, u)[s], ==, first);
            }
          g_assert_true (pv_happens_before (hb, -1, u));
          g_assert_false (pv_happens_before (hb, u, -1));
        }
      bare_graph_free (g);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/happens-before/matches-search", test_matches_search);
  return g_test_run ();
}
