/* pv-shape-inference.h: element types, shapes and byte sizes for every value
 * of a model, static where the model allows and symbolic elsewhere.
 *
 * Data in, data out: pv_shape_infer() reads a PvModel and returns a
 * PvShapeInfo; the model is not changed. Op-specific rules live in
 * pv-infer-*.c files, each exporting a table of PvInferOp. */
#pragma once

#include <gio/gio.h>

#include "pv-dim-expr.h"
#include "pv-model.h"
#include "pv-value-shape.h"

G_BEGIN_DECLS

typedef struct {
  /* symbol -> gint64* bound, owned by the caller; may be NULL. Used only by
   * pv_shape_info_eval_bytes(), never during inference. */
  GHashTable *bounds;
  /* graph input name -> GArray of gint64 dims (--input-shape), may be NULL. */
  GHashTable *input_shapes;
  /* graph input name -> PvTensor* whose contents (small integer tensors)
   * are known, as if the input were a constant; may be NULL. */
  GHashTable *input_values;
  /* Ignore the types the model states for node outputs (value_info, graph
   * outputs): only the rules speak. For testing the rules. */
  gboolean ignore_stated_types;
  /* Infer as ONNX Runtime's Graph::Resolve does (its view of shapes, for
   * its planner; see pv-ort-shapes.h): ONNX's rules without data
   * propagation (only initializers that are not graph inputs have known
   * contents), ONNX's broadcast and its merge with stated types, anonymous
   * input dims unnamed; bounds-free: input_shapes and input_values are
   * ignored. Values get no byte size (bytes NULL), and the dims no rule could
   * compute share one symbol (ORT reads them as empty dims). */
  gboolean ort_view;
  /* Checked every few thousand nodes and values, may be NULL: once it is
   * cancelled, inference stops with G_IO_ERROR_CANCELLED. */
  GCancellable *cancellable;
} PvShapeOptions;

typedef struct _PvShapeInfo PvShapeInfo;

/* Runs inference over the main graph and every subgraph. Never fails on an
 * op it does not know: the outputs get an unknown shape and the op is listed
 * in pv_shape_info_uncovered_ops(). Returns NULL with @error only when an
 * --input-shape names no graph input or gives the wrong rank. */
PvShapeInfo *pv_shape_infer (const PvModel *model, const PvShapeOptions *options, GError **error);
/* An info is immutable once inferred; sessions of a graph's subgraphs share
 * it. pv_shape_info_free() drops one reference and frees at the last. */
PvShapeInfo *pv_shape_info_ref (PvShapeInfo *info);
void pv_shape_info_free (PvShapeInfo *info);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvShapeInfo, pv_shape_info_free)

/* The shape of @value_id in @graph (the main graph or one of its subgraphs). */
const PvValueShape *pv_shape_info_get (const PvShapeInfo *info, const PvGraph *graph, int value_id);
/* The shapes of all of @graph's values, indexed by value id; *@n_values_out
 * gets their number (0, and NULL returned, when @graph was not inferred). */
const PvValueShape *pv_shape_info_get_all (const PvShapeInfo *info, const PvGraph *graph, int *n_values_out);

PvDimPool *pv_shape_info_get_pool (const PvShapeInfo *info);

/* Warnings in inference order, e.g. "value “x”: model states [1,3] but
 * inference gives [1,4]; keeping [1,4]". NULL-terminated, owned by @info. */
const char *const *pv_shape_info_warnings (const PvShapeInfo *info);

/* "domain:Op" (or "Op") of every op without a rule, sorted, each with the
 * number of nodes; NULL-terminated arrays owned by @info. */
const char *const *pv_shape_info_uncovered_ops (const PvShapeInfo *info, const guint **counts_out);

/* Evaluates a value's bytes with @bounds (symbol -> gint64*). Returns FALSE
 * when the value has no byte size or a symbol is unbound (@missing_out gets
 * it, may be NULL). */
gboolean pv_shape_info_eval_bytes (const PvShapeInfo *info, const PvGraph *graph, int value_id, GHashTable *bounds,
                                   guint64 *bytes_out, const char **missing_out);

/* ---- for op rules (pv-infer-*.c) ---- */

typedef struct _PvInferContext PvInferContext;

/* Returns FALSE when the node's inputs are too unknown to say anything (its
 * outputs then stay unknown, which is not an error). */
typedef gboolean (*PvInferFunc) (PvInferContext *ctx, const PvNode *node);

typedef struct {
  const char *domain;         /* "" for ONNX */
  const char *op_type;
  PvInferFunc infer;
} PvInferOp;

PvDimPool *pv_infer_pool (PvInferContext *ctx);
/* Input @k of the node being inferred; NULL when the input is missing
 * (optional, empty name) or k is out of range. Never NULL for a present
 * input: an unknown one has kind UNKNOWN and rank -1. */
const PvValueShape *pv_infer_input (PvInferContext *ctx, int k);
int pv_infer_n_inputs (PvInferContext *ctx);
/* The graph of the node being inferred. */
const PvGraph *pv_infer_graph (PvInferContext *ctx);
/* Inference for ORT's view (PvShapeOptions.ort_view): rules then say what
 * ONNX's own inference says, e.g. an If never takes one branch. */
gboolean pv_infer_ort_view (PvInferContext *ctx);
int pv_infer_n_outputs (PvInferContext *ctx);

/* Sets output @k (ignored when the output is omitted). @dims are copied;
 * rank -1 means unknown rank. */
void pv_infer_set_output (PvInferContext *ctx, int k, int elem_type, int rank, const PvDimExpr *const *dims);
/* Marks output @k (set just before) as of a wrong size (a PvShapeError):
 * the session refuses to plan it. */
void pv_infer_set_size_error (PvInferContext *ctx, int k, int code);
/* Sets output @k as a non-tensor (sequence, optional, map) of @elem_type. */
void pv_infer_set_output_kind (PvInferContext *ctx, int k, PvTypeKind kind, int elem_type);
/* Known contents of output @k (after set_output); copied. */
void pv_infer_set_output_data (PvInferContext *ctx, int k, const PvDimExpr *const *data, int n);

/* Broadcasts two dims (numpy rules): 1 vs d -> d, equal -> it, two symbols
 * -> unified; returns NULL on a contradiction (two different constants > 1),
 * after recording a warning. */
const PvDimExpr *pv_infer_broadcast_dim (PvInferContext *ctx, const PvDimExpr *a, const PvDimExpr *b);
/* A fresh symbol for a dim that cannot be known, named "<prefix>_<n>". */
const PvDimExpr *pv_infer_fresh (PvInferContext *ctx, const char *prefix);
void pv_infer_warn (PvInferContext *ctx, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* Attribute helpers with defaults. */
gint64 pv_infer_attr_int (const PvNode *node, const char *name, gint64 fallback);
float pv_infer_attr_float (const PvNode *node, const char *name, float fallback);
/* Ints attribute; returns its count (0 and *out NULL when absent). */
int pv_infer_attr_ints (const PvNode *node, const char *name, const gint64 **out);
/* Integer contents of input @k (data known and every element constant);
 * returns the count or -1. @out is valid during the rule. */
int pv_infer_input_ints (PvInferContext *ctx, int k, gint64 **out);
/* The subgraphs of control-flow nodes: infers @graph with its graph inputs
 * set from @input_shapes (n_inputs entries, may contain NULL for unknown) and
 * outer-scope values from the enclosing graph; returns the shapes of its
 * graph outputs (graph->n_outputs entries, owned by the info). */
const PvValueShape *const *pv_infer_subgraph (PvInferContext *ctx, const PvGraph *graph,
                                              const PvValueShape *const *input_shapes, int n_inputs);

/* The op tables, one per family file. Each ends with a { NULL } entry. */
extern const PvInferOp pv_infer_ops_elementwise[];
extern const PvInferOp pv_infer_ops_cast[];
extern const PvInferOp pv_infer_ops_reshape[];
extern const PvInferOp pv_infer_ops_index[];
extern const PvInferOp pv_infer_ops_sizes[];
extern const PvInferOp pv_infer_ops_sequence[];
extern const PvInferOp pv_infer_ops_signal[];
extern const PvInferOp pv_infer_ops_nn[];
extern const PvInferOp pv_infer_ops_reduce[];
extern const PvInferOp pv_infer_ops_control[];
extern const PvInferOp pv_infer_ops_contrib[];
extern const PvInferOp pv_infer_ops_quant[];
extern const PvInferOp pv_infer_ops_nchwc[];
/* MLAS's NCHWc channel block on this machine (8 or 16). */
gint64 pv_infer_nchwc_block_size (void);

G_END_DECLS
