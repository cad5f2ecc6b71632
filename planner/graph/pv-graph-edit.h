/* pv-graph-edit.h: changing a finished graph the way ONNX Runtime's
 * session-time graph transformers change theirs (pv-ort-graph-rewrite.h):
 * values and nodes are added at the end, as Graph::AddNode gives them the
 * next NodeIndex; removed nodes leave holes in ORT's NodeIndex, so planviz
 * keeps node ids dense and records each node's NodeIndex in
 * PvNode.ort_index. After the edits, pv_graph_edit_finish() computes
 * consumers, ORT's order, names and OrtValue indices again. Main graphs only:
 * a subgraph's outer-scope links stay valid because value ids never move. */
#pragma once

#include "pv-graph.h"

G_BEGIN_DECLS

/* A new value named @name (interned) of @type (copied; NULL: unknown type),
 * produced by nothing yet. Returns its id. */
int pv_graph_edit_add_value (PvGraph *graph, const char *name, const PvType *type);

/* A new node (the next NodeIndex) in the default domain of @op_type at
 * @opset, with the given input and output value ids (-1 for a missing one);
 * the outputs' producer becomes the node. Returns its id. */
int pv_graph_edit_add_node (PvGraph *graph, const char *name, const char *op_type, int opset, const int *inputs,
                            int n_inputs, const int *outputs, int n_outputs);

/* A new initializer @name holding @tensor (taken), last in the graph's
 * initializer order, as ORT makes one of a Constant in an inlined function
 * body. Returns its value id. */
int pv_graph_edit_add_initializer (PvGraph *graph, const char *name, PvTensor *tensor);

/* Adds (or overwrites) integer list attribute @name of @node. */
void pv_graph_edit_set_attr_ints (PvGraph *graph, int node, const char *name, const gint64 *values, guint n);

/* Adds (or, when present, overwrites) integer attribute @name of @node. */
void pv_graph_edit_set_attr_int (PvGraph *graph, int node, const char *name, gint64 value);

/* Adds (or overwrites) float attribute @name of @node. */
void pv_graph_edit_set_attr_float (PvGraph *graph, int node, const char *name, float value);

/* Output @k of @node becomes @value, which @node now produces. */
void pv_graph_edit_set_output (PvGraph *graph, int node, int k, int value);

/* Removes the nodes with @remove[id] set; ids above them move down (subgraph
 * parent_node links follow), their outputs lose their producer. */
void pv_graph_edit_remove_nodes (PvGraph *graph, const gboolean *remove);

/* Consumers, order, generated names, OrtValue indices and node lists of the
 * edited graph; FALSE as pv_graph_finish_order() fails. */
gboolean pv_graph_edit_finish (PvGraph *graph, GError **error);

G_END_DECLS
