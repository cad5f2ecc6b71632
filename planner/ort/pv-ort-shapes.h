/* pv-ort-shapes.h: ONNX Runtime's view of every value's type and shape.
 *
 * ORT's planner (allocation kinds, in-place reuse, free-list reuse,
 * SameSize, the multi-stream rewrite's serialized-size matching) compares
 * the TensorShapeProto each NodeArg holds once Graph::Resolve has run at
 * session creation, before any input is seen. That proto is what ONNX's
 * per-op inference functions give (ORT 1.30 calls them without data
 * propagation: only constant initializers have known contents), merged into
 * the type the model states for the value (ONNX's mergeInShapeInfo: a stated
 * dim_value or dim_param wins over an inferred dim without a value, an
 * inferred dim_value wins over a stated dim_param; on a contradiction ORT
 * keeps only the dims both agree on), and a dim ONNX cannot compute has
 * neither dim_value nor dim_param: SameShape() never matches it, not even
 * with itself.
 *
 * planviz's own inference (pv-shape-inference.h) knows more (symbolic
 * expressions, data propagation through Shape/Gather/Concat, bounds); byte
 * sizes, LOAD, the slot and arena planners and the checker use that. This
 * record is ORT's view only, made by the same rules run in their ORT mode
 * (PvShapeOptions.ort_view), and read only by the ORT planner and by
 * whatever explains the difference to users (pv_ort_shapes_explain()).
 * Immutable once made; reference-counted, so sessions of subgraphs share
 * their parent's. */
#pragma once

#include "pv-model.h"
#include "pv-shape-inference.h"

G_BEGIN_DECLS

typedef enum {
  PV_ORT_DIM_EMPTY,   /* neither dim_value nor dim_param */
  PV_ORT_DIM_VALUE,   /* dim_value */
  PV_ORT_DIM_PARAM,   /* dim_param, a name the model states */
} PvOrtDimKind;

typedef struct {
  PvOrtDimKind kind;
  gint64 value;        /* PV_ORT_DIM_VALUE */
  const char *param;   /* PV_ORT_DIM_PARAM, owned by the record */
} PvOrtDim;

/* A NodeArg's TypeProto as far as the planner reads it. */
typedef struct {
  PvTypeKind kind;     /* PV_TYPE_UNKNOWN: the NodeArg has no type */
  int elem_type;       /* PvElementType of the tensor (or of an optional's / sequence's tensor); 0 unknown */
  int rank;            /* -1: NodeArg::Shape() is null (no shape, or not a tensor) */
  const PvOrtDim *dims; /* rank entries */
} PvOrtValueType;

typedef struct _PvOrtShapes PvOrtShapes;

/* Infers ORT's view of every value of @model (main graph and subgraphs).
 * Bounds, --input-shape and input values do not enter it: ORT plans before
 * it sees inputs. NULL only when inference itself fails (with @error), or
 * with G_IO_ERROR_CANCELLED once @cancellable (may be NULL) is cancelled. */
PvOrtShapes *pv_ort_shapes_new (const PvModel *model, GCancellable *cancellable, GError **error);
PvOrtShapes *pv_ort_shapes_ref (PvOrtShapes *shapes);
void pv_ort_shapes_unref (PvOrtShapes *shapes);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvOrtShapes, pv_ort_shapes_unref)

/* ORT's type of @value_id in @graph (the model's main graph or one of its
 * subgraphs); a type of kind UNKNOWN for a graph the record does not hold. */
const PvOrtValueType *pv_ort_shapes_get (const PvOrtShapes *shapes, const PvGraph *graph, int value_id);

/* "[batch,?,64]" ("?" for an empty dim), "[]" for a scalar, "?" without a
 * shape. Caller frees. */
char *pv_ort_value_type_to_string (const PvOrtValueType *type);

/* Why ORT's view of a value is weaker than planviz's @best (its inferred
 * shape), e.g. "ONNX Runtime sees [?,?,64]: it cannot prove axis 0 equals
 * batch, so SameSize fails: …"; NULL when ORT's view falls short of
 * planviz's on no dim that matters. Caller frees. */
char *pv_ort_shapes_explain (const PvOrtShapes *shapes, const PvOrtValueType *ort, const PvValueShape *best);

G_END_DECLS
