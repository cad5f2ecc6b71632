/* pv-onnx-text.h: graphs for tests written on one line, on top of
 * pv-onnx-builder.h: "Exp n0 x>a; Add n1 a,x>y" for the nodes and
 * "x:batch,768 y:4" for a list of values of one element type. */
#pragma once

#include "pv-onnx-builder.h"

G_BEGIN_DECLS

/* Append inputs, outputs or value_info entries of one element type,
 * written as "name:shape name:shape" with shapes as for
 * pv_onnx_graph_add_input(): "x:batch,768 s:" gives x and the scalar s; a
 * name without ':' has no shape (NULL). */
void pv_onnx_graph_add_inputs (PvOnnxGraph *graph, int elem_type, const char *text);
void pv_onnx_graph_add_outputs (PvOnnxGraph *graph, int elem_type, const char *text);
void pv_onnx_graph_add_value_infos (PvOnnxGraph *graph, int elem_type, const char *text);

/* Appends the nodes written in @text, for tests that build a graph on one
 * line: items separated by ';', each "op_type name inputs>outputs", the
 * name left out for an unnamed node, the value names separated by ',' (an
 * empty one is a missing optional input or output, as in ONNX), and after
 * them any integer attributes as name=value or name=[value,...], e.g.
 * "Relu n0 x>a; Add n1 a,x>y; Cast y>z to=7; Transpose z>t perm=[1,0]".
 * Returns the first node appended, or NULL when @text holds none. */
PvOnnxNode *pv_onnx_graph_add_nodes (PvOnnxGraph *graph, const char *text);

G_END_DECLS
