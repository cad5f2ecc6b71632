/* pv-ort-graph-view.h: the graph as ORT's planner walks it, in compact
 * arrays: per node its values as OrtValue indices and its producer nodes,
 * per OrtValue index its flags and producer. Internal to the ORT planner.
 *
 * Every stage of a plan walks the nodes' inputs and outputs several times;
 * reading them from PvNode and PvValue (large records spread over the
 * graph) costs a cache miss per look. The node lists are the graph's own
 * (pv_graph_finish_order() makes them); the per-value arrays are made once
 * per plan. */
#pragma once

#include "pv-graph.h"

G_BEGIN_DECLS

/* PvValueFlags, plus: */
#define PV_ORT_VIEW_CONSUMED (1u << 7)  /* some node of the graph reads the value (explicitly or implicitly) */

typedef struct {
  /* Per node, its inputs, implicit inputs and outputs as OrtValue indices
   * (-1 when missing), from io[io_start[node]]; io_start has n_nodes + 1
   * entries (graph->node_io, not owned). */
  const int *io_start, *io;
  /* Per node, the distinct nodes producing its inputs and implicit inputs,
   * ascending (pv_node_input_nodes()): input_nodes[input_nodes_start[node]
   * .. input_nodes_start[node + 1]) (graph->node_producers, not owned). */
  const int *input_nodes_start, *input_nodes;
  /* Per OrtValue index: PvValueFlags | PV_ORT_VIEW_CONSUMED, and the
   * producing node in this graph (-1: graph input, initializer, outer
   * scope). */
  guint8 *flags;
  int *producer;
} PvOrtGraphView;

void pv_ort_graph_view_init (PvOrtGraphView *view, const PvGraph *graph);
void pv_ort_graph_view_clear (PvOrtGraphView *view);

static inline const int *
pv_ort_view_inputs (const PvOrtGraphView *view, int node)
{
  return &view->io[view->io_start[node]];
}

/* A node's implicit inputs follow its @n_inputs inputs. */
static inline const int *
pv_ort_view_outputs (const PvOrtGraphView *view, const PvNode *node, int node_id)
{
  return &view->io[view->io_start[node_id] + node->n_inputs + node->n_implicit_inputs];
}

G_END_DECLS
