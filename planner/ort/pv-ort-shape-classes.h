/* pv-ort-shape-classes.h: ORT's view of each value's type and shape
 * (pv-ort-shapes.h), as the planner's SameSize() sees it. Internal to the
 * ORT planner.
 *
 * ORT compares TensorShapeProtos dim by dim every time it asks SameSize().
 * Equal-size values form classes (same element size, same dims), so planviz
 * gives each value a class number once per plan and compares numbers. */
#pragma once

#include "pv-graph.h"
#include "pv-ort-shapes.h"

G_BEGIN_DECLS

typedef struct {
  guint has_shape : 1;   /* NodeArg::Shape() != nullptr */
  guint scalar : 1;      /* has_shape and rank 0 (never reused from the free list) */
  guint non_tensor : 1;  /* IsNonTensor(): sequence, map, optional, sparse */
  guint optional : 1;
  /* SameSize(a, b) is true exactly when a.size_class == b.size_class >= 0.
   * -1: SameSize() is false against every value, itself included (no shape,
   * a string, an unknown element size, or a dim that is neither dim_value
   * nor dim_param). Numbers are dense from 0. Only node outputs get one
   * (graph inputs, initializers and outer-scope values get -1): the planner
   * never asks SameSize() of the others, whose use count never drops to 0
   * (they count once more for being what they are) and which are never
   * kAllocate. */
  int size_class;
} PvOrtShapeClass;

/* One entry per OrtValue index of @graph (graph->n_ort_values); @shapes may
 * be NULL (every shape unknown). *@n_classes_out gets the number of size
 * classes. Free with g_free(). */
PvOrtShapeClass *pv_ort_shape_classes_new (const PvGraph *graph, const PvOrtShapes *shapes, int *n_classes_out);

/* SameSize() of two values. */
static inline gboolean
pv_ort_same_size (const PvOrtShapeClass *a, const PvOrtShapeClass *b)
{
  return a->size_class >= 0 && a->size_class == b->size_class;
}

G_END_DECLS
