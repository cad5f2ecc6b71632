/* pv-value-shape.h: what shape inference (pv-shape-inference.h) knows about
 * one value: its type, rank, dims, known contents and byte size. A record
 * of its own so that the pieces inference is built from (ONNX's dim
 * semantics, pv-shape-onnx-private.h) read it without the driver. */
#pragma once

#include <glib.h>

#include "pv-dim-expr.h"
#include "pv-graph.h"

G_BEGIN_DECLS

/* What is known about one value. */
typedef struct {
  PvTypeKind kind;            /* PV_TYPE_UNKNOWN when nothing is known */
  int elem_type;              /* PvElementType; 0 when unknown */
  int rank;                   /* -1: unknown rank */
  const PvDimExpr **dims;     /* rank entries, never NULL: unknowable dims are fresh symbols */
  /* Known contents of a small integer (or float) tensor: shape vectors,
   * scalars, axes. n_data == number of elements; NULL when not known. Float
   * contents are kept only when integral (Range/Resize scales use doubles). */
  const PvDimExpr **data;
  int n_data;
  /* Byte size: elements x element size, NULL when the value has no byte size
   * (strings, sequences, maps, optionals, unknown type or rank). */
  const PvDimExpr *bytes;
  /* 0, or 1 + a PvShapeError: the size is wrong, not unknown (its element
   * count overflows 64 bits, or a Reshape changes it). The session refuses
   * to plan such a value rather than drop it. */
  int size_error;
  gboolean inferred;          /* an op rule produced it (FALSE: stated or unknown) */
  /* The initializer (or Constant) tensor behind the value, NULL otherwise:
   * rules read float contents (Resize scales) through pv_tensor_get_double(). */
  const PvTensor *tensor;
} PvValueShape;

G_END_DECLS
