/* pv-infer-cast.c: shape rules for Cast and CastLike, which carry known
 * contents across element types exactly as ONNX Runtime's CPU kernels
 * convert them (integer wrap-around, floats only when exactly
 * representable), so that shape vectors survive an exporter's casts. */
#include "pv-infer-rules-private.h"

/* Is the integer @v exactly representable in a binary float with @digits
 * significand bits and largest finite value @max? */
static gboolean
int_fits_float (gint64 v, int digits, double max)
{
  guint64 u;

  if (v == G_MININT64)
    return digits >= 1 && (double) G_MININT64 >= -max;
  u = (guint64) (v < 0 ? -v : v);
  if ((double) u > max)
    return FALSE;
  while (u != 0 && (u & 1) == 0)
    u >>= 1;
  return digits >= 64 || u < ((guint64) 1 << digits);
}

static gboolean
float_type_info (int t, int *digits, double *max)
{
  switch (t)
    {
    case PV_ELEM_FLOAT:
      *digits = 24, *max = 3.4028234663852886e38;
      return TRUE;
    case PV_ELEM_DOUBLE:
      *digits = 53, *max = 1.7976931348623157e308;
      return TRUE;
    case PV_ELEM_FLOAT16:
      *digits = 11, *max = 65504.0;
      return TRUE;
    case PV_ELEM_BFLOAT16:
      *digits = 8, *max = 3.3895313892515355e38;
      return TRUE;
    default:
      return FALSE;
    }
}

/* The integer types whose values fit in a gint64, with their ranges
 * (uint64's cut at G_MAXINT64). */
static const struct
{
  int type;
  gint64 lo, hi;
} int_types[] = {
  { PV_ELEM_INT8, G_MININT8, G_MAXINT8 },    { PV_ELEM_UINT8, 0, G_MAXUINT8 },
  { PV_ELEM_INT16, G_MININT16, G_MAXINT16 }, { PV_ELEM_UINT16, 0, G_MAXUINT16 },
  { PV_ELEM_INT32, G_MININT32, G_MAXINT32 }, { PV_ELEM_UINT32, 0, G_MAXUINT32 },
  { PV_ELEM_INT64, G_MININT64, G_MAXINT64 }, { PV_ELEM_UINT64, 0, G_MAXINT64 },
};

/* Integer range of @t for a float -> int conversion (out of range is
 * undefined behaviour, so no contents then). */
static gboolean
int_range (int t, gint64 *lo, gint64 *hi)
{
  for (gsize i = 0; i < G_N_ELEMENTS (int_types); i++)
    if (int_types[i].type == t)
      {
        *lo = int_types[i].lo, *hi = int_types[i].hi;
        return TRUE;
      }
  return FALSE;
}

/* Wraps the integer @v to integer type @t as a C conversion would (modulo
 * 2^bits into the type's range); FALSE when @t is not an integer type
 * whose values fit in a gint64. */
static gboolean
wrap_int (gint64 v, int t, gint64 *out)
{
  gint64 lo, hi;

  if (t == PV_ELEM_BOOL)
    *out = v != 0;
  else if (!int_range (t, &lo, &hi) || (t == PV_ELEM_UINT64 && v < 0))
    return FALSE;
  else if (t == PV_ELEM_INT64 || t == PV_ELEM_UINT64)
    *out = v;
  else /* a span of 2^bits, bits < 64: unsigned arithmetic is exact modulo 2^64 */
    *out = (gint64) ((guint64) lo + ((guint64) v - (guint64) lo) % ((guint64) hi - (guint64) lo + 1));
  return TRUE;
}

/* One element of a Cast from @src to @dst, or NULL when not known. */
static const PvDimExpr *
cast_elem (PvDimPool *pool, int src, int dst, const PvDimExpr *e)
{
  gint64 v, w, lo, hi;
  gboolean is_const = pv_dim_is_const (e, &v);
  int digits;
  double max;

  if (is_int_type (src))
    {
      if (is_int_type (dst))
        {
          if (is_const)
            return wrap_int (v, dst, &w) ? pv_dim_const (pool, w) : NULL;
          /* Symbolic values (dims) fit in any 32/64-bit integer. */
          if (dst == PV_ELEM_INT64 || dst == PV_ELEM_INT32 || dst == PV_ELEM_UINT64 || dst == PV_ELEM_UINT32)
            return src == PV_ELEM_BOOL ? NULL : e;
          return NULL;
        }
      if (float_type_info (dst, &digits, &max))
        {
          if (is_const)
            return int_fits_float (v, digits, max) ? e : NULL;
          return (dst == PV_ELEM_FLOAT || dst == PV_ELEM_DOUBLE) ? e : NULL;
        }
      return NULL;
    }
  if (is_float_type (src))
    {
      /* Float contents are integral; only constants convert. */
      if (dst == PV_ELEM_BOOL)
        return is_const ? pv_dim_const (pool, v != 0) : NULL;
      if (is_int_type (dst))
        return is_const && int_range (dst, &lo, &hi) && v >= lo && v <= hi ? e : NULL;
      if (float_type_info (dst, &digits, &max))
        {
          if (is_const)
            return int_fits_float (v, digits, max) ? e : NULL;
          return (dst == PV_ELEM_FLOAT || dst == PV_ELEM_DOUBLE) ? e : NULL;
        }
    }
  return NULL;
}

static gboolean
cast_common (PvInferContext *ctx, int dst)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvDimExpr *out[MAX_DATA];

  if (x == NULL || !set_like (ctx, 0, dst, x))
    return FALSE;
  if (x->data == NULL || x->n_data > MAX_DATA || x->rank < 0 || dst == 0)
    return TRUE;
  for (int i = 0; i < x->n_data; i++)
    if ((out[i] = cast_elem (pv_infer_pool (ctx), x->elem_type, dst, x->data[i])) == NULL)
      return TRUE;
  pv_infer_set_output_data (ctx, 0, out, x->n_data);
  return TRUE;
}

static gboolean
infer_cast (PvInferContext *ctx, const PvNode *node)
{
  return cast_common (ctx, (int) pv_infer_attr_int (node, "to", 0));
}

static gboolean
infer_cast_like (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *like = pv_infer_input (ctx, 1);
  (void) node;
  return cast_common (ctx, like ? like->elem_type : 0);
}

const PvInferOp pv_infer_ops_cast[] = {
  { "", "Cast", infer_cast },
  { "", "CastLike", infer_cast_like },
  { NULL, NULL, NULL },
};
