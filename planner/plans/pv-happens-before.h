/* pv-happens-before.h: which node runs before which, across streams.
 *
 * Built from an execution's program order (each stream runs its nodes in
 * global topological order) and its synchronisation edges (a trigger
 * releasing a barrier, a notification releasing a wait). Node u
 * happens-before node d when a chain of stream order and sync edges leads
 * from the end of u to the start of d. */
#pragma once

#include "pv-graph.h"

G_BEGIN_DECLS

typedef struct _PvHappensBefore PvHappensBefore;

/* @node_stream NULL: one stream in graph->order. @node_position NULL: a
 * node's position in graph->order. Edges are (from node, to node). */
PvHappensBefore *pv_happens_before_new (const PvGraph *graph, const int *node_stream, const int *node_position,
                                        const int (*edges)[2], int n_edges);
void pv_happens_before_free (PvHappensBefore *hb);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvHappensBefore, pv_happens_before_free)

int pv_happens_before_n_streams (const PvHappensBefore *hb);
int pv_happens_before_stream (const PvHappensBefore *hb, int node);
/* Does @u finish before @d starts? -1 stands for "before the first step". */
gboolean pv_happens_before (const PvHappensBefore *hb, int u, int d);
/* The first position on @stream that @u happens-before, G_MAXINT if none. */
int pv_happens_before_first_after (const PvHappensBefore *hb, int u, int stream);
/* The same for every stream at once: pv_happens_before_n_streams() entries,
 * owned by @hb (@u is a node, not -1). */
const int *pv_happens_before_first_after_row (const PvHappensBefore *hb, int u);
/* How many positions @stream spans (its largest position + 1). */
int pv_happens_before_stream_length (const PvHappensBefore *hb, int stream);
/* The node at @position on @stream; -1 past its end, or at a position no
 * node has (node_position left gaps). */
int pv_happens_before_node_at (const PvHappensBefore *hb, int stream, int position);

G_END_DECLS
