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
   * (-1 when missing): graph->node_io and node_io_at (not owned); see the
   * accessors below. */
  const int *io_at, *io;
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

/* A node's inputs; its implicit inputs follow them (the uses end where
 * the outputs start). */
static inline const int *
pv_ort_view_inputs (const PvOrtGraphView *view, int node)
{
  return &view->io[view->io_at[3 * node]];
}

static inline int
pv_ort_view_n_inputs (const PvOrtGraphView *view, int node)
{
  return view->io_at[3 * node + 1] - view->io_at[3 * node];
}

static inline const int *
pv_ort_view_implicit_inputs (const PvOrtGraphView *view, int node)
{
  return &view->io[view->io_at[3 * node + 1]];
}

static inline int
pv_ort_view_n_implicit_inputs (const PvOrtGraphView *view, int node)
{
  return view->io_at[3 * node + 2] - view->io_at[3 * node + 1];
}

/* Inputs and implicit inputs. */
static inline int
pv_ort_view_n_uses (const PvOrtGraphView *view, int node)
{
  return view->io_at[3 * node + 2] - view->io_at[3 * node];
}

static inline const int *
pv_ort_view_outputs (const PvOrtGraphView *view, int node)
{
  return &view->io[view->io_at[3 * node + 2]];
}

static inline int
pv_ort_view_n_outputs (const PvOrtGraphView *view, int node)
{
  return view->io_at[3 * node + 3] - view->io_at[3 * node + 2];
}

G_END_DECLS
