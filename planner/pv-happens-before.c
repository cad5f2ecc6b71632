#include "pv-happens-before.h"

struct _PvHappensBefore {
  int n_nodes;
  int n_streams;
  int *stream;     /* node -> stream */
  int *position;   /* node -> position in its stream */
  int *reach;      /* node * n_streams + s -> first position of s reached strictly after node */
  GArray **nodes;  /* per stream: node ids by position */
};

void
pv_happens_before_free (PvHappensBefore *hb)
{
  if (hb == NULL)
    return;
  for (int s = 0; s < hb->n_streams; s++)
    g_array_unref (hb->nodes[s]);
  g_free (hb->nodes);
  g_free (hb->stream);
  g_free (hb->position);
  g_free (hb->reach);
  g_free (hb);
}

/* reach[u] by dynamic programming in reverse of graph->order, a topological
 * order of data, stream and sync edges alike. */
PvHappensBefore *
pv_happens_before_new (const PvGraph *g, const int *node_stream, const int *node_position, const int (*edges)[2],
                       int n_edges)
{
  PvHappensBefore *hb = g_new0 (PvHappensBefore, 1);
  int n = g->n_nodes, k;
  g_autofree int *next_in_stream = g_new (int, MAX (n, 1));
  g_autofree int *last_seen = NULL;
  GArray **sync_out = g_new0 (GArray *, MAX (n, 1));

  hb->n_nodes = n;
  hb->n_streams = 1;
  hb->stream = g_new0 (int, MAX (n, 1));
  hb->position = g_new0 (int, MAX (n, 1));
  for (int i = 0; i < n; i++)
    {
      hb->stream[i] = node_stream ? node_stream[i] : 0;
      hb->position[i] = node_position ? node_position[i] : g->nodes[i].order_position;
      hb->n_streams = MAX (hb->n_streams, hb->stream[i] + 1);
    }
  k = hb->n_streams;
  hb->nodes = g_new (GArray *, k);
  for (int s = 0; s < k; s++)
    hb->nodes[s] = g_array_new (FALSE, TRUE, sizeof (int));
  for (int i = 0; i < n; i++)
    {
      GArray *list = hb->nodes[hb->stream[i]];
      if ((int) list->len <= hb->position[i])
        g_array_set_size (list, hb->position[i] + 1);
      g_array_index (list, int, hb->position[i]) = i;
    }
  last_seen = g_new (int, k);
  for (int s = 0; s < k; s++)
    last_seen[s] = -1;
  for (int i = n - 1; i >= 0; i--)
    {
      int id = g->order[i];
      next_in_stream[id] = last_seen[hb->stream[id]];
      last_seen[hb->stream[id]] = id;
    }
  for (int e = 0; e < n_edges; e++)
    {
      int from = edges[e][0], to = edges[e][1];
      if (from < 0 || from >= n || to < 0 || to >= n)
        continue;
      if (sync_out[from] == NULL)
        sync_out[from] = g_array_new (FALSE, FALSE, sizeof (int));
      g_array_append_val (sync_out[from], to);
    }
  hb->reach = g_new (int, (gsize) MAX (n, 1) * k);
  for (int i = n - 1; i >= 0; i--)
    {
      int u = g->order[i], *r = &hb->reach[(gsize) u * k];
      for (int s = 0; s < k; s++)
        r[s] = G_MAXINT;
      for (int j = -1; j < (sync_out[u] ? (int) sync_out[u]->len : 0); j++)
        {
          int w = j < 0 ? next_in_stream[u] : g_array_index (sync_out[u], int, j);
          if (w < 0)
            continue;
          r[hb->stream[w]] = MIN (r[hb->stream[w]], hb->position[w]);
          for (int s = 0; s < k; s++)
            r[s] = MIN (r[s], hb->reach[(gsize) w * k + s]);
        }
    }
  for (int i = 0; i < n; i++)
    if (sync_out[i])
      g_array_unref (sync_out[i]);
  g_free (sync_out);
  return hb;
}

int
pv_happens_before_n_streams (const PvHappensBefore *hb)
{
  return hb->n_streams;
}

int
pv_happens_before_stream (const PvHappensBefore *hb, int node)
{
  return hb->stream[node];
}

gboolean
pv_happens_before (const PvHappensBefore *hb, int u, int d)
{
  if (u < 0)
    return TRUE;
  if (d < 0)
    return FALSE;
  return hb->reach[(gsize) u * hb->n_streams + hb->stream[d]] <= hb->position[d];
}

int
pv_happens_before_first_after (const PvHappensBefore *hb, int u, int stream)
{
  if (u < 0)
    return 0;
  return hb->reach[(gsize) u * hb->n_streams + stream];
}

int
pv_happens_before_node_at (const PvHappensBefore *hb, int stream, int position)
{
  if (stream < 0 || stream >= hb->n_streams || position < 0 || position >= (int) hb->nodes[stream]->len)
    return -1;
  return g_array_index (hb->nodes[stream], int, position);
}
