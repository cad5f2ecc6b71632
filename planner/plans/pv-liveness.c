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

PvLiveness *
pv_liveness_copy (const PvLiveness *liveness)
{
  PvLiveness *copy = g_memdup2 (liveness, sizeof *liveness);
  gsize n = (gsize) MAX (liveness->n_values, 1) * sizeof (int);

  copy->root = g_memdup2 (liveness->root, n);
  copy->def = g_memdup2 (liveness->def, n);
  copy->use_end = g_memdup2 (liveness->use_end, n);
  copy->owners = g_memdup2 (liveness->owners, n);
  return copy;
}

PvLiveness *
pv_liveness_new (const PvGraph *graph, const int *view_root, gboolean include_graph_inputs)
{
  PvLiveness *live = g_new0 (PvLiveness, 1);
  int n = graph->n_values, last_step = graph->n_nodes - 1;
  g_autofree int *order_pos = NULL, *step_begin = NULL, *fill = NULL;

  live->n_values = n;
  live->include_graph_inputs = include_graph_inputs;
  live->n_steps = graph->n_nodes;
  live->root = g_new (int, MAX (n, 1));
  live->def = g_new (int, MAX (n, 1));
  live->use_end = g_new (int, MAX (n, 1));
  live->owners = g_new (int, MAX (n, 1));

  for (int v = 0; v < n; v++)
    {
      const PvValue *value = &graph->values[v];
      gboolean view = view_root && view_root[v] != v && value->producer >= 0;
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
  /* Views resolve to the owner at the end of their chain (or to nothing:
   * a view of a weight, of an excluded input, or a cycle). */
  for (int v = 0; v < n; v++)
    if (live->root[v] == -2)
      live->root[v] = live->root[view_root[v]] == view_root[v] ? view_root[v] : -1;

  /* Owners: graph inputs first (live from the start), then in step order. */
  for (int v = 0; v < n; v++)
    if (live->root[v] == v && graph->values[v].producer < 0)
      {
        live->owners[live->n_owners++] = v;
        live->def[v] = -1;
        live->use_end[v] = -1;
      }
  /* Node outputs that own a buffer, by step and, within a step, by output
   * position: a counting sort by the producer's step (read from the small
   * order arrays rather than a walk over the node table). */
  order_pos = g_new (int, MAX (graph->n_nodes, 1));
  for (int i = 0; i < graph->n_nodes; i++)
    order_pos[graph->order[i]] = i;
  step_begin = g_new0 (int, graph->n_nodes + 1);
  for (int v = 0; v < n; v++)
    if (live->root[v] == v && graph->values[v].producer >= 0)
      step_begin[order_pos[graph->values[v].producer] + 1]++;
  for (int step = 0; step < graph->n_nodes; step++)
    step_begin[step + 1] += step_begin[step];
  fill = g_memdup2 (step_begin, sizeof (int) * (graph->n_nodes + 1));
  {
    int *outputs = live->owners + live->n_owners;
    for (int v = 0; v < n; v++)
      if (live->root[v] == v && graph->values[v].producer >= 0)
        {
          int step = order_pos[graph->values[v].producer], k = fill[step]++;
          for (; k > step_begin[step] &&
                 graph->values[outputs[k - 1]].producer_output > graph->values[v].producer_output; k--)
            outputs[k] = outputs[k - 1];
          outputs[k] = v;
          live->def[v] = live->use_end[v] = step;
        }
    live->n_owners += step_begin[graph->n_nodes];
  }
  /* Uses extend the root's interval: the consumers (explicit and implicit
   * readers) of the root and of every view of it. A use before the
   * definition (no topological order has one) leaves it unchanged. */
  for (int v = 0; v < n; v++)
    {
      int r = live->root[v];
      guint n_consumers;
      const guint *consumers;
      if (r < 0)
        continue;
      consumers = pv_graph_value_consumers (graph, v, &n_consumers);
      for (guint c = 0; c < n_consumers; c++)
        live->use_end[r] = MAX (live->use_end[r], order_pos[consumers[c]]);
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
  g_autofree int *stream_start = g_new0 (int, (gsize) k + 1);
  g_autofree int *last_before = NULL;
  g_autofree int *order_pos = NULL;

  if (k <= 1)
    return;
  /* Nodes' order positions, from the order (cheaper than the node table). */
  order_pos = g_new (int, MAX (graph->n_nodes, 1));
  for (int i = 0; i < graph->n_nodes; i++)
    order_pos[graph->order[i]] = i;
  for (gsize i = 0; i < (gsize) live->n_values * k; i++)
    first_after[i] = 0;
  /* Per stream t and position p: the order position of the last node of t
   * at a position below p (-1: none). A stream's nodes run in global order,
   * so that is the node at the highest such position. */
  for (int t = 0; t < k; t++)
    {
      stream_start[t + 1] = stream_start[t] + pv_happens_before_stream_length (hb, t) + 1;
    }
  last_before = g_new (int, MAX (stream_start[k], 1));
  for (int t = 0; t < k; t++)
    {
      int *row = last_before + stream_start[t], len = stream_start[t + 1] - stream_start[t] - 1;
      row[0] = -1;
      for (int p = 0; p < len; p++)
        {
          int node = pv_happens_before_node_at (hb, t, p);
          row[p + 1] = node >= 0 ? MAX (row[p], order_pos[node]) : row[p];
        }
    }
  /* Per owner and stream: the first position after its definition and all
   * its readers (a reader of a view reads the owner): over the producer and
   * the consumers of every value. */
  for (int v = 0; v < live->n_values; v++)
    {
      int r = live->root[v], *after = &first_after[(gsize) MAX (r, 0) * k];
      guint n_consumers;
      const guint *consumers;
      if (r < 0)
        continue;
      consumers = pv_graph_value_consumers (graph, v, &n_consumers);
      for (int c = graph->values[v].producer >= 0 ? -1 : 0; c < (int) n_consumers; c++)
        {
          const int *row = pv_happens_before_first_after_row (hb, c < 0 ? graph->values[v].producer : (int) consumers[c]);
          for (int t = 0; t < k; t++)
            after[t] = MAX (after[t], row[t]);
        }
    }
  /* An owner defined on stream t after the owner's interval ends may take
   * its bytes: so the interval covers every node of t that is not
   * guaranteed to run after the readers (those below first_after), and no
   * more. Nodes of other streams in between do not matter for t. */
  for (int i = 0; i < live->n_owners; i++)
    {
      int r = live->owners[i], end = live->use_end[r];
      for (int t = 0; t < k; t++)
        {
          int len = stream_start[t + 1] - stream_start[t] - 1;
          int pos = MIN (first_after[(gsize) r * k + t], len);
          end = MAX (end, last_before[stream_start[t] + pos]);
        }
      live->use_end[r] = MIN (end, live->n_steps - 1);
    }
}
