/* pv-infer-dims.h: shorthand for op rules building dims in the inference
 * pool. Every constructor returns NULL when an operand is NULL (unknowable,
 * or an int64 overflow), so chains need no checks in between. */
#pragma once

#include "pv-shape-inference.h"

static inline const PvDimExpr *
cst (PvInferContext *ctx, gint64 v)
{
  return pv_dim_const (pv_infer_pool (ctx), v);
}

/* @e, or a fresh symbol "<prefix>_<n>" when it could not be computed. */
static inline const PvDimExpr *
or_fresh (PvInferContext *ctx, const PvDimExpr *e, const char *prefix)
{
  return e != NULL ? e : pv_infer_fresh (ctx, prefix);
}

static inline gboolean
is_const (const PvDimExpr *e, gint64 *v)
{
  return e != NULL && pv_dim_is_const (e, v);
}

static inline const PvDimExpr *
d_add (PvInferContext *ctx, const PvDimExpr *a, const PvDimExpr *b)
{
  return pv_dim_add (pv_infer_pool (ctx), a, b);
}

static inline const PvDimExpr *
d_sub (PvInferContext *ctx, const PvDimExpr *a, const PvDimExpr *b)
{
  return pv_dim_sub (pv_infer_pool (ctx), a, b);
}

static inline const PvDimExpr *
d_mul (PvInferContext *ctx, const PvDimExpr *a, const PvDimExpr *b)
{
  return pv_dim_mul (pv_infer_pool (ctx), a, b);
}

static inline const PvDimExpr *
d_max (PvInferContext *ctx, const PvDimExpr *a, const PvDimExpr *b)
{
  return pv_dim_max (pv_infer_pool (ctx), a, b);
}

static inline const PvDimExpr *
d_min (PvInferContext *ctx, const PvDimExpr *a, const PvDimExpr *b)
{
  return pv_dim_min (pv_infer_pool (ctx), a, b);
}
