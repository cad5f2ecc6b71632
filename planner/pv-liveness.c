#include "pv-liveness.h"

void
pv_liveness_free (PvLiveness *liveness)
{
  if (liveness == NULL)
    return;
  g_free (liveness->root);
  g_free (liveness->def);
  g_free (liveness->use_end);
  g_free (liveness->owners);
  g_free (liveness);
}

/* The owner behind @v, following views; -1 when @v is not planned here. */
static int
find_root (const PvGraph *graph, const int *view_source, int *root, int v)
{
  int depth = 0;

  while (root[v] == -2)  /* not resolved yet: a view */
    {
      int source = view_source[v];
      if (source < 0 || ++depth > graph->n_values)
        return -1;
      if (root[source] != -2)
        {
          root[v] = root[source];
          break;
        }
      v = source;
    }
  return root[v];
}

PvLiveness *
pv_liveness_new (const PvGraph *graph, const int *view_source, gboolean include_graph_inputs)
{
  PvLiveness *live = g_new0 (PvLiveness, 1);
  int n = graph->n_values, last_step = graph->n_nodes - 1;

  live->n_values = n;
  live->n_steps = graph->n_nodes;
  live->root = g_new (int, MAX (n, 1));
  live->def = g_new (int, MAX (n, 1));
  live->use_end = g_new (int, MAX (n, 1));
  live->owners = g_new (int, MAX (n, 1));

  for (int v = 0; v < n; v++)
    {
      const PvValue *value = &graph->values[v];
      gboolean view = view_source && view_source[v] >= 0 && value->producer >= 0;
      live->def[v] = live->use_end[v] = -1;
      if (value->flags & (PV_VALUE_INITIALIZER | PV_VALUE_OUTER_SCOPE))
        live->root[v] = -1;
      else if (value->flags & PV_VALUE_GRAPH_INPUT)
        live->root[v] = include_graph_inputs ? v : -1;
      else if (value->producer < 0)
        live->root[v] = -1;
      else
        live->root[v] = view ? -2 : v;
    }
  /* Views resolve to their first owner (or to nothing). */
  for (int v = 0; v < n; v++)
    if (live->root[v] == -2)
      live->root[v] = find_root (graph, view_source, live->root, v);

  /* Owners: graph inputs first (live from the start), then in step order. */
  for (int v = 0; v < n; v++)
    if (live->root[v] == v && graph->values[v].producer < 0)
      {
        live->owners[live->n_owners++] = v;
        live->def[v] = -1;
        live->use_end[v] = -1;
      }
  /* Node outputs in step order, and the uses that extend each root's
   * interval (explicit and implicit inputs), in one walk over the nodes. A
   * use can only come after its definition in a topological order; were it
   * before, the definition would reset the interval, as in two passes. */
  for (int step = 0; step < graph->n_nodes; step++)
    {
      const PvNode *node = &graph->nodes[graph->order[step]];
      for (int k = 0; k < node->n_outputs; k++)
        {
          int v = node->outputs[k];
          if (v >= 0 && live->root[v] == v)
            {
              live->owners[live->n_owners++] = v;
              live->def[v] = live->use_end[v] = step;
            }
        }
      for (int k = 0; k < node->n_inputs + node->n_implicit_inputs; k++)
        {
          int v = k < node->n_inputs ? node->inputs[k] : node->implicit_inputs[k - node->n_inputs];
          int r = v >= 0 ? live->root[v] : -1;
          if (r >= 0 && live->use_end[r] < step)
            live->use_end[r] = step;
        }
    }
  /* Graph outputs (or their views) are read after the last step. */
  for (int i = 0; i < graph->n_outputs; i++)
    {
      int r = live->root[graph->outputs[i]];
      if (r >= 0)
        live->use_end[r] = MAX (last_step, 0);
    }
  /* A graph input nobody reads still exists at step 0. */
  for (int i = 0; i < live->n_owners; i++)
    if (live->use_end[live->owners[i]] < 0)
      live->use_end[live->owners[i]] = 0;
  return live;
}

void
pv_liveness_widen_for_streams (PvLiveness *live, const PvGraph *graph, const PvHappensBefore *hb)
{
  int k = pv_happens_before_n_streams (hb);
  g_autofree int *first_after = g_new (int, (gsize) MAX (live->n_values, 1) * k);
  g_autofree int *stream_last = g_new (int, k);
  g_autofree int *order_pos = NULL;

  if (k <= 1)
    return;
  /* Nodes' order positions, from the order (cheaper than the node table). */
  order_pos = g_new (int, MAX (graph->n_nodes, 1));
  for (int i = 0; i < graph->n_nodes; i++)
    order_pos[graph->order[i]] = i;
  for (gsize i = 0; i < (gsize) live->n_values * k; i++)
    first_after[i] = 0;
  for (int t = 0; t < k; t++)
    {
      stream_last[t] = -1;
      for (int p = 0, node; (node = pv_happens_before_node_at (hb, t, p)) >= 0; p++)
        stream_last[t] = MAX (stream_last[t], order_pos[node]);
    }
  /* Per owner and stream: the first position after its definition and all
   * its readers (a reader of a view reads the owner). */
  for (int id = 0; id < graph->n_nodes; id++)
    {
      const PvNode *node = &graph->nodes[id];
      for (int k2 = 0; k2 < node->n_inputs + node->n_implicit_inputs + node->n_outputs; k2++)
        {
          int v = k2 < node->n_inputs ? node->inputs[k2]
                  : k2 < node->n_inputs + node->n_implicit_inputs ? node->implicit_inputs[k2 - node->n_inputs]
                  : node->outputs[k2 - node->n_inputs - node->n_implicit_inputs];
          int r = v >= 0 ? live->root[v] : -1;
          if (r < 0)
            continue;
          for (int t = 0; t < k; t++)
            first_after[(gsize) r * k + t] =
              MAX (first_after[(gsize) r * k + t], pv_happens_before_first_after (hb, id, t));
        }
    }
  for (int i = 0; i < live->n_owners; i++)
    {
      int r = live->owners[i], end = live->use_end[r];
      for (int t = 0; t < k; t++)
        {
          int pos = first_after[(gsize) r * k + t];
          int node = pos == G_MAXINT ? -1 : pv_happens_before_node_at (hb, t, pos);
          /* Nothing on t is guaranteed after it: all of t may overlap it. */
          int limit = node < 0 ? stream_last[t] : order_pos[node] - 1;
          end = MAX (end, limit);
        }
      live->use_end[r] = MIN (end, live->n_steps - 1);
    }
}
