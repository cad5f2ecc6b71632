/* pv-shape-onnx-private.h: the pieces of ONNX's own shape inference that
 * differ from planviz's, for the inference driver's ORT view
 * (PvShapeOptions.ort_view). In that view a dim is what a TensorShapeProto
 * dim can be: a constant (dim_value), a symbol the model states somewhere
 * (dim_param), or anything else, which stands for a dim with neither. */
#pragma once

#include "pv-dim-expr.h"
#include "pv-graph.h"
#include "pv-value-shape.h"

G_BEGIN_DECLS

typedef enum {
  PV_ONNX_DIM_EMPTY,   /* neither dim_value nor dim_param */
  PV_ONNX_DIM_VALUE,
  PV_ONNX_DIM_PARAM,
} PvOnnxDimKind;

/* What @e is as a TensorShapeProto dim; @model_symbols is the set of
 * dim_params the model states (const char* names). */
PvOnnxDimKind pv_onnx_dim_kind (GHashTable *model_symbols, const PvDimExpr *e);

/* Every dim_param a type of @graph or its subgraphs states (graph inputs,
 * outputs, value_info), added to @out (names owned by the model). */
void pv_onnx_collect_model_symbols (const PvGraph *graph, GHashTable *out);

/* ONNX's multidirectional broadcast of two dims: a value other than 1 wins,
 * 1 gives way, two equal dim_params stay, anything else is empty (@empty,
 * a fresh symbol). NULL when two values other than 1 differ. */
const PvDimExpr *pv_onnx_broadcast_dim (GHashTable *model_symbols, const PvDimExpr *a, const PvDimExpr *b,
                                        const PvDimExpr *(*empty) (gpointer data), gpointer data);

/* ONNX's mergeInShapeInfo of an inferred shape into the one the model
 * states (as NodeArg::UpdateTypeAndShape does it in ORT, not strict):
 * @inferred gets the result. A stated value or dim_param wins over an
 * inferred dim without a value; an inferred value wins over a stated
 * dim_param. When the two cannot be merged (ranks or values differ), ORT
 * falls back to UnionShapeInfo: dims that differ become empty (@empty), a
 * rank that differs leaves no shape (rank -1). @inferred->dims must be
 * writable. Returns FALSE when the fallback was taken. */
gboolean pv_onnx_merge_shape (GHashTable *model_symbols, PvValueShape *inferred, const PvValueShape *stated,
                              const PvDimExpr *(*empty) (gpointer data), gpointer data);

/* Where ONNX's rule for @node (its op at its opset) says less than
 * planviz's, @values (the graph's, by value id; output dims writable) are
 * made to say what ONNX says: Dropout before opset 10 infers no shape for its
 * mask, reductions over axes that are no constant and a Loop's carried
 * outputs have no shape, and a Loop's scan outputs an
 * empty (@empty) first dim. */
void pv_onnx_adjust_outputs (const PvNode *node, PvValueShape *values, const PvDimExpr *(*empty) (gpointer data),
                             gpointer data);

G_END_DECLS
