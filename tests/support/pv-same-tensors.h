/* pv-same-tensors.h: asserts that two loads of one model keep the same
 * tensors: initializers, Constant values and tensor attributes, in every
 * subgraph; type, dims, where the data lives and the data kept. */
#pragma once

#include "pv-model-loader.h"

G_BEGIN_DECLS

typedef struct {
  int tensors;    /* tensors compared */
  int with_data;  /* of which with data kept */
} PvSameTensorsCount;

/* Asserts (g_assert) that @a and @b, loaded from the same bytes, hold the
 * same graphs' tensors; adds what it compared to @count. */
void pv_assert_same_tensors (const PvModel *a, const PvModel *b, PvSameTensorsCount *count);

G_END_DECLS
