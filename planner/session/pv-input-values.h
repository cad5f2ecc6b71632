/* pv-input-values.h: known contents for graph inputs (--input-value, the
 * window's Bounds popover), e.g. the sample rate an If tests: shape
 * inference then treats the input as a constant (PvShapeOptions.input_values)
 * and folds what depends on it. ORT's view of shapes never sees them. */
#pragma once

#include "pv-model.h"
#include "pv-tensor.h"

G_BEGIN_DECLS

/* A tensor of @input's element type from @text: one number gives a scalar
 * (or a 1-element vector for an input of rank 1), "a,b,c" a vector. NULL
 * with @error (PV_MODEL_ERROR_INVALID) when @input is no graph input of
 * @model (or is an initializer), its type is no number type, or a value does
 * not fit it. */
PvTensor *pv_input_value_parse (const PvModel *model, const char *input, const char *text, GError **error);

/* "NAME=V" strings into graph input name -> PvTensor* (owned by the table);
 * NULL with @error naming the bad entry. */
GHashTable *pv_input_values_parse (const PvModel *model, const char *const *specs, GError **error);

G_END_DECLS
