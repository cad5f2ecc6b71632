#include "pv-happens-before.h"

#include <string.h>

struct _PvHappensBefore {
  int n_nodes;
  int n_streams;
  int *stream;       /* node -> stream */
  int *position;     /* node -> position in its stream */
  int *reach;        /* node * n_streams + s -> first position of s reached strictly after node */
  int *stream_start; /* n_streams + 1: where each stream's nodes begin in by_position */
  int *by_position;  /* per stream, node ids by position (-1 for a position no node has) */
};

void
pv_happens_before_free (PvHappensBefore *hb)
{
  if (hb == NULL)
    return;
  g_free (hb->stream);
  g_free (hb->position);
  g_free (hb->reach);
  g_free (hb->stream_start);
  g_free (hb->by_position);
  g_free (hb);
}

/* reach[u] by dynamic programming in reverse of graph->order, a topological
 * order of data, stream and sync edges alike. */
PvHappensBefore *
pv_happens_before_new (const PvGraph *g, const int *node_stream, const int *node_position, const int (*edges)[2],
                       int n_edges)
{
  PvHappensBefore *hb = g_new0 (PvHappensBefore, 1);
  int n = g->n_nodes, k = 1;
  g_autofree int *last_seen = NULL;
  g_autofree int *sync_start = g_new0 (int, (gsize) MAX (n, 0) + 2);  /* sync edges by source node */
  g_autofree int *sync_to = g_new (int, MAX (n_edges, 1));

  hb->n_nodes = n;
  hb->stream = g_new0 (int, MAX (n, 1));
  hb->position = g_new (int, MAX (n, 1));
  /* Without positions, a node's place in graph->order (its order_position,
   * read from the order: cheaper than a walk over the node table). */
  if (node_position)
    memcpy (hb->position, node_position, sizeof (int) * n);
  else
    for (int i = 0; i < n; i++)
      hb->position[g->order[i]] = i;
  if (node_stream)
    for (int i = 0; i < n; i++)
      {
        hb->stream[i] = node_stream[i];
        k = MAX (k, node_stream[i] + 1);
      }
  hb->n_streams = k;
  /* Each stream's nodes by position: a stream spans its largest position. */
  hb->stream_start = g_new0 (int, (gsize) k + 1);
  for (int i = 0; i < n; i++)
    hb->stream_start[hb->stream[i] + 1] = MAX (hb->stream_start[hb->stream[i] + 1], hb->position[i] + 1);
  for (int s = 0; s < k; s++)
    hb->stream_start[s + 1] += hb->stream_start[s];
  hb->by_position = g_new (int, MAX (hb->stream_start[k], 1));
  for (int p = 0; p < hb->stream_start[k]; p++)
    hb->by_position[p] = -1;
  for (int i = 0; i < n; i++)
    hb->by_position[hb->stream_start[hb->stream[i]] + hb->position[i]] = i;
  /* Sync edges grouped by source (in their given order), skipping bad ones. */
  for (int e = 0; e < n_edges; e++)
    if (edges[e][0] >= 0 && edges[e][0] < n && edges[e][1] >= 0 && edges[e][1] < n)
      sync_start[edges[e][0] + 2]++;
  for (int i = 0; i < n; i++)
    sync_start[i + 2] += sync_start[i + 1];
  for (int e = 0; e < n_edges; e++)
    if (edges[e][0] >= 0 && edges[e][0] < n && edges[e][1] >= 0 && edges[e][1] < n)
      sync_to[sync_start[edges[e][0] + 1]++] = edges[e][1];
  hb->reach = g_new (int, (gsize) MAX (n, 1) * k);
  last_seen = g_new (int, k);  /* per stream: the node after, in the order */
  for (int s = 0; s < k; s++)
    last_seen[s] = -1;
  for (int i = n - 1; i >= 0; i--)
    {
      int u = g->order[i], next = last_seen[hb->stream[u]];
      /* Per stream, the minimum over u's successors w (the next node on its
       * stream, its sync targets) of w's position and reach[w]: one stream
       * at a time, so that the minimum stays in a register. */
      for (int s = 0; s < k; s++)
        {
          int m = G_MAXINT;
          for (int j = sync_start[u] - 1; j < sync_start[u + 1]; j++)
            {
              int w = j < sync_start[u] ? next : sync_to[j];
              if (w < 0)
                continue;
              m = MIN (m, hb->reach[(gsize) w * k + s]);
              if (hb->stream[w] == s)
                m = MIN (m, hb->position[w]);
            }
          hb->reach[(gsize) u * k + s] = m;
        }
      last_seen[hb->stream[u]] = u;
    }
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

const int *
pv_happens_before_first_after_row (const PvHappensBefore *hb, int u)
{
  return &hb->reach[(gsize) u * hb->n_streams];
}

int
pv_happens_before_node_at (const PvHappensBefore *hb, int stream, int position)
{
  if (stream < 0 || stream >= hb->n_streams || position < 0 ||
      position >= hb->stream_start[stream + 1] - hb->stream_start[stream])
    return -1;
  return hb->by_position[hb->stream_start[stream] + position];
}

int
pv_happens_before_stream_length (const PvHappensBefore *hb, int stream)
{
  if (stream < 0 || stream >= hb->n_streams)
    return 0;
  return hb->stream_start[stream + 1] - hb->stream_start[stream];
}
