/* pv-graph-order.h: the order, names and value indices ONNX Runtime gives a
 * graph, which partition configs and allocation plans are written in. */
#pragma once

#include "pv-graph.h"

G_BEGIN_DECLS

/* Completes a graph whose nodes, values and consumers are set:
 * - refuses two nodes with the same non-empty name (ORT refuses the model) and
 *   cycles (naming the nodes on one cycle);
 * - graph->order: ORT's DEFAULT order, a reverse DFS from the leaf nodes (no
 *   output edges, implicit-input edges included) taken in id order, inputs
 *   visited in ascending id order, nodes emitted in post-order;
 * - names unnamed nodes <OpType><n>, one counter per op type over the unnamed
 *   nodes in that order, starting at 0, without checking collisions (as ORT);
 * - graph->ort_values / value->ort_index: OrtValue indices (graph inputs in
 *   model order, then per node in id order its inputs, implicit inputs and
 *   outputs, then graph outputs; first appearance wins);
 * - graph->node_by_name, graph->name_owners and graph->order_names;
 * - graph->node_io and graph->node_producers (see pv-graph.h). */
gboolean pv_graph_finish_order (PvGraph *graph, GError **error);

/* The distinct producer nodes of @node's inputs and implicit inputs, ascending;
 * returns the count written to @out (room for n_inputs + n_implicit_inputs). */
int pv_node_input_nodes (const PvGraph *graph, const PvNode *node, int *out);

/* The distinct consumer nodes of any of @node's outputs (implicit-input
 * consumers included), ascending, as ORT walks output edges; returns the
 * count written to @out (room for every node). @mark is all FALSE, one per
 * node, and is left so. */
int pv_node_output_nodes (const PvGraph *graph, const PvNode *node, int *out, gboolean *mark);

G_END_DECLS
