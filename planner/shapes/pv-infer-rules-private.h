/* pv-infer-rules-private.h: the small helpers the shape rules share
 * (pv-infer-elementwise.c, pv-infer-cast.c, pv-infer-nn.c, pv-infer-reduce.c):
 * fresh dims, NULL-propagating dim arithmetic, attributes, axes, types. */
#pragma once

#include <string.h>

#include "pv-element-type.h"
#include "pv-shape-inference.h"

G_BEGIN_DECLS

/* Known contents are kept only for values of at most this many elements. */
#define MAX_DATA 64

static inline const PvDimExpr *
fresh_dim (PvInferContext *ctx, const PvNode *node)
{
  char prefix[64];
  g_strlcpy (prefix, node->op_type, sizeof prefix);
  for (char *p = prefix; *p; p++)
    *p = g_ascii_tolower (*p);
  return pv_infer_fresh (ctx, prefix);
}

static inline const PvDimExpr *
or_fresh (PvInferContext *ctx, const PvNode *node, const PvDimExpr *e)
{
  return e != NULL ? e : fresh_dim (ctx, node);
}

/* NULL-propagating arithmetic (the algebra returns NULL on overflow). */
static inline const PvDimExpr *
d_add (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b)
{
  return a && b ? pv_dim_add (pool, a, b) : NULL;
}

static inline const PvDimExpr *
d_sub (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b)
{
  return a && b ? pv_dim_sub (pool, a, b) : NULL;
}

static inline const PvDimExpr *
d_addc (PvDimPool *pool, const PvDimExpr *a, gint64 c)
{
  return a ? pv_dim_add (pool, a, pv_dim_const (pool, c)) : NULL;
}

static inline const PvDimExpr *
d_mulc (PvDimPool *pool, const PvDimExpr *a, gint64 c)
{
  return a ? pv_dim_mul (pool, pv_dim_const (pool, c), a) : NULL;
}

static inline const PvDimExpr *
d_floor_div (PvDimPool *pool, const PvDimExpr *a, gint64 c)
{
  return a ? pv_dim_floor_div (pool, a, c) : NULL;
}

static inline const PvDimExpr *
d_ceil_div (PvDimPool *pool, const PvDimExpr *a, gint64 c)
{
  return a ? pv_dim_ceil_div (pool, a, c) : NULL;
}

static inline const PvDimExpr *
d_min (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b)
{
  return a && b ? pv_dim_min (pool, a, b) : NULL;
}

/* A string attribute as a new string, or NULL. */
static inline char *
attr_string (const PvNode *node, const char *name)
{
  const PvAttribute *a = pv_node_find_attr (node, name);
  gsize len;
  const char *s;

  if (a == NULL || a->type != PV_ATTR_STRING || a->s == NULL)
    return NULL;
  s = g_bytes_get_data (a->s, &len);
  return g_strndup (s ? s : "", len);
}

/* Entry @i of an ints attribute, or @fallback when absent or too short. */
static inline gint64
attr_ints_at (const PvNode *node, const char *name, int i, gint64 fallback)
{
  const gint64 *v = NULL;
  int n = pv_infer_attr_ints (node, name, &v);
  return (v != NULL && i >= 0 && i < n) ? v[i] : fallback;
}

static inline gboolean
set_like (PvInferContext *ctx, int k, int elem_type, const PvValueShape *in)
{
  if (in->rank < 0)
    {
      if (elem_type == 0)
        return FALSE;
      pv_infer_set_output (ctx, k, elem_type, -1, NULL);
      return TRUE;
    }
  pv_infer_set_output (ctx, k, elem_type, in->rank, in->dims);
  return TRUE;
}

/* Normalises @axis for @rank; FALSE (with a warning) when out of range. */
static inline gboolean
norm_axis (PvInferContext *ctx, const PvNode *node, gint64 axis, int rank, int *out)
{
  if (axis < -rank || axis >= rank)
    {
      pv_infer_warn (ctx, "%s: axis %" G_GINT64_FORMAT " is out of range for rank %d", node->op_type, axis, rank);
      return FALSE;
    }
  *out = (int) (axis < 0 ? axis + rank : axis);
  return TRUE;
}

/* Integer (and bool) and floating-point element types. */
static inline gboolean
is_int_type (int t)
{
  switch (t)
    {
    case PV_ELEM_UINT8:
    case PV_ELEM_INT8:
    case PV_ELEM_UINT16:
    case PV_ELEM_INT16:
    case PV_ELEM_INT32:
    case PV_ELEM_INT64:
    case PV_ELEM_UINT32:
    case PV_ELEM_UINT64:
    case PV_ELEM_BOOL:
      return TRUE;
    default:
      return FALSE;
    }
}

static inline gboolean
is_float_type (int t)
{
  return t == PV_ELEM_FLOAT || t == PV_ELEM_DOUBLE || t == PV_ELEM_FLOAT16 || t == PV_ELEM_BFLOAT16;
}

G_END_DECLS
