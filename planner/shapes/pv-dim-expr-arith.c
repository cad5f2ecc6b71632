/* pv-dim-expr-arith.c: sums, products, floor and exact division, min and max of PvDimExprs, in canonical
 * form (pv-dim-expr.c has the forms and the pool). */
#include "pv-dim-expr-private.h"

#include <string.h>

/* a + kb * b, merging the two sorted term lists. */
static const PvDimExpr *
add_scaled (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b, gint64 kb)
{
  gint64 constant, v;
  TermBuf tb;
  guint i = 0, j = 0;
  const PvDimExpr *result = NULL;

  if (__builtin_mul_overflow (b->constant, kb, &v) || __builtin_add_overflow (a->constant, v, &constant))
    return NULL;
  _pv_dim_tb_init (&tb);
  while (i < a->n || j < b->n)
    {
      int c = i == a->n ? 1 : j == b->n ? -1 : _pv_dim_cmp_mono (a->t[i].mono, b->t[j].mono);
      if (c < 0)
        {
          _pv_dim_tb_push (&tb, a->t[i].coef, a->t[i].mono);
          i++;
          continue;
        }
      if (__builtin_mul_overflow (b->t[j].coef, kb, &v))
        goto out;
      if (c == 0 && __builtin_add_overflow (a->t[i++].coef, v, &v))
        goto out;
      if (v != 0)
        _pv_dim_tb_push (&tb, v, b->t[j].mono);
      j++;
    }
  result = _pv_dim_intern_expr (pool, tb.v, tb.n, constant);
out:
  _pv_dim_tb_clear (&tb);
  return result;
}

const PvDimExpr *
pv_dim_add (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b)
{
  g_return_val_if_fail (pool != NULL, NULL);
  if (a == NULL || b == NULL)
    return NULL;
  if (b == pool->zero)
    return a;
  if (a == pool->zero)
    return b;
  if (pool->onnx_arithmetic && (a->n != 0 || b->n != 0))
    return _pv_dim_onnx_unknown (pool);
  return add_scaled (pool, a, b, 1);
}

const PvDimExpr *
pv_dim_sub (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b)
{
  g_return_val_if_fail (pool != NULL, NULL);
  if (a == NULL || b == NULL)
    return NULL;
  if (b == pool->zero)
    return a;
  if (pool->onnx_arithmetic && (a->n != 0 || b->n != 0))
    return _pv_dim_onnx_unknown (pool);
  if (a == b)
    return pool->zero;
  return add_scaled (pool, a, b, -1);
}

static const PvDimExpr *
scale (PvDimPool *pool, const PvDimExpr *e, gint64 k)
{
  gint64 constant;
  TermBuf tb;
  const PvDimExpr *result = NULL;

  if (k == 0)
    return pool->zero;
  if (k == 1)
    return e;
  if (__builtin_mul_overflow (e->constant, k, &constant))
    return NULL;
  _pv_dim_tb_init (&tb);
  for (guint i = 0; i < e->n; i++)
    {
      gint64 v;
      if (__builtin_mul_overflow (e->t[i].coef, k, &v))
        goto out;
      _pv_dim_tb_push (&tb, v, e->t[i].mono);
    }
  result = _pv_dim_intern_expr (pool, tb.v, tb.n, constant);
out:
  _pv_dim_tb_clear (&tb);
  return result;
}

/* Product of two monomials; NULL on exponent overflow. */
static const PvDimMono *
mono_mul (PvDimPool *pool, const PvDimMono *x, const PvDimMono *y)
{
  FactorBuf fb;
  guint i = 0, j = 0;
  const PvDimMono *result = NULL;

  if (x == pool->one)
    return y;
  if (y == pool->one)
    return x;
  _pv_dim_fb_init (&fb);
  while (i < x->n || j < y->n)
    {
      int c = i == x->n ? 1 : j == y->n ? -1 : _pv_dim_cmp_atom (x->f[i].atom, y->f[j].atom);
      if (c < 0)
        {
          _pv_dim_fb_push (&fb, x->f[i].atom, x->f[i].exp);
          i++;
        }
      else if (c > 0)
        {
          _pv_dim_fb_push (&fb, y->f[j].atom, y->f[j].exp);
          j++;
        }
      else
        {
          guint32 e;
          if (__builtin_add_overflow (x->f[i].exp, y->f[j].exp, &e))
            goto out;
          _pv_dim_fb_push (&fb, x->f[i].atom, e);
          i++;
          j++;
        }
    }
  result = _pv_dim_intern_mono (pool, fb.v, fb.n);
out:
  _pv_dim_fb_clear (&fb);
  return result;
}

/* x / y when y divides x, else NULL. */
static const PvDimMono *
mono_div (PvDimPool *pool, const PvDimMono *x, const PvDimMono *y)
{
  FactorBuf fb;
  guint i = 0, j = 0;
  const PvDimMono *result = NULL;

  if (y == pool->one)
    return x;
  _pv_dim_fb_init (&fb);
  for (; i < x->n; i++)
    {
      guint32 e = x->f[i].exp;
      if (j < y->n && x->f[i].atom == y->f[j].atom)
        {
          if (y->f[j].exp > e)
            goto out;
          e -= y->f[j].exp;
          j++;
        }
      if (e > 0)
        _pv_dim_fb_push (&fb, x->f[i].atom, e);
    }
  if (j == y->n)
    result = _pv_dim_intern_mono (pool, fb.v, fb.n);
out:
  _pv_dim_fb_clear (&fb);
  return result;
}

const PvDimExpr *
pv_dim_mul (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b)
{
  TermBuf tb;
  gint64 constant, v;
  const PvDimExpr *result = NULL;

  g_return_val_if_fail (pool != NULL, NULL);
  if (a == NULL || b == NULL)
    return NULL;
  if (pool->onnx_arithmetic && (a->n != 0 || b->n != 0))
    return a->n == 0 && a->constant == 1 ? b : b->n == 0 && b->constant == 1 ? a : _pv_dim_onnx_unknown (pool);
  if (a->n == 0)
    return scale (pool, b, a->constant);
  if (b->n == 0)
    return scale (pool, a, b->constant);
  if (__builtin_mul_overflow (a->constant, b->constant, &constant))
    return NULL;

  _pv_dim_tb_init (&tb);
  for (guint i = 0; i < a->n; i++)
    {
      for (guint j = 0; j < b->n; j++)
        {
          const PvDimMono *m = mono_mul (pool, a->t[i].mono, b->t[j].mono);
          if (m == NULL || __builtin_mul_overflow (a->t[i].coef, b->t[j].coef, &v))
            goto out;
          _pv_dim_tb_push (&tb, v, m);
        }
      if (b->constant != 0)
        {
          if (__builtin_mul_overflow (a->t[i].coef, b->constant, &v))
            goto out;
          _pv_dim_tb_push (&tb, v, a->t[i].mono);
        }
    }
  if (a->constant != 0)
    for (guint j = 0; j < b->n; j++)
      {
        if (__builtin_mul_overflow (a->constant, b->t[j].coef, &v))
          goto out;
        _pv_dim_tb_push (&tb, v, b->t[j].mono);
      }
  result = _pv_dim_normalize (pool, &tb, constant);
out:
  _pv_dim_tb_clear (&tb);
  return result;
}

/* The FLOOR atom when @e is exactly 1*floor(...)^1 + constant, else NULL. */
static const PvDimAtom *
single_floor (const PvDimExpr *e)
{
  if (e->n != 1 || e->t[0].coef != 1 || e->t[0].mono->n != 1 || e->t[0].mono->f[0].exp != 1)
    return NULL;
  const PvDimAtom *atom = e->t[0].mono->f[0].atom;
  return atom->kind == ATOM_FLOOR ? atom : NULL;
}

const PvDimExpr *
pv_dim_floor_div (PvDimPool *pool, const PvDimExpr *a, gint64 divisor)
{
  TermBuf q, r;
  gint64 qc = 0, rc;
  const PvDimExpr *result = NULL, *rest, *floored;

  g_return_val_if_fail (pool != NULL, NULL);
  if (a == NULL || divisor <= 0)
    return NULL;
  if (divisor == 1)
    return a;
  if (a->n == 0)
    return pv_dim_const (pool, floor_div_i64 (a->constant, divisor));
  if (pool->onnx_arithmetic)
    return _pv_dim_onnx_unknown (pool);

  /* floor((divisor*q + r) / divisor) = q + floor(r / divisor) for integral q:
   * every term (and the constant) divisible by the divisor moves out. */
  _pv_dim_tb_init (&q);
  _pv_dim_tb_init (&r);
  rc = a->constant;
  if (rc % divisor == 0)
    {
      qc = rc / divisor;
      rc = 0;
    }
  for (guint i = 0; i < a->n; i++)
    {
      if (a->t[i].coef % divisor == 0)
        _pv_dim_tb_push (&q, a->t[i].coef / divisor, a->t[i].mono);
      else
        _pv_dim_tb_push (&r, a->t[i].coef, a->t[i].mono);
    }
  if (r.n == 0)
    {
      /* Only (part of) the constant is left: qc and rc are not both != 0. */
      result = _pv_dim_intern_expr (pool, q.v, q.n, qc + floor_div_i64 (rc, divisor));
      goto out;
    }

  /* floor(g*x / (g*d)) = floor(x / d). Every r term is not divisible by the
   * divisor, so g < divisor and the new divisor stays > 1. */
  guint64 g = (guint64) divisor;
  for (guint i = 0; i < r.n && g > 1; i++)
    g = gcd_u64 (g, abs_u64 (r.v[i].coef));
  if (rc != 0)
    g = gcd_u64 (g, abs_u64 (rc));
  if (g > 1)
    {
      for (guint i = 0; i < r.n; i++)
        r.v[i].coef /= (gint64) g;
      rc /= (gint64) g;
      divisor /= (gint64) g;
    }
  rest = _pv_dim_intern_expr (pool, r.v, r.n, rc);

  /* floor((floor(e/c) + k) / d) = floor((e + k*c) / (c*d)). */
  const PvDimAtom *inner = single_floor (rest);
  gint64 kc, cd;
  if (inner != NULL && !__builtin_mul_overflow (rc, inner->divisor, &kc)
      && !__builtin_mul_overflow (inner->divisor, divisor, &cd))
    floored = pv_dim_floor_div (pool, pv_dim_add (pool, inner->a, pv_dim_const (pool, kc)), cd);
  else
    floored = _pv_dim_intern_compound (pool, ATOM_FLOOR, rest, NULL, divisor)->expr;
  if (floored != NULL)
    result = pv_dim_add (pool, _pv_dim_intern_expr (pool, q.v, q.n, qc), floored);
out:
  _pv_dim_tb_clear (&q);
  _pv_dim_tb_clear (&r);
  return result;
}

const PvDimExpr *
pv_dim_ceil_div (PvDimPool *pool, const PvDimExpr *a, gint64 divisor)
{
  g_return_val_if_fail (pool != NULL, NULL);
  if (a == NULL || divisor <= 0)
    return NULL;
  if (a->n == 0)
    {
      /* Directly, so that ceil(INT64_MAX / d) does not overflow. */
      gint64 q = a->constant / divisor;
      if (a->constant % divisor != 0 && a->constant > 0)
        q++;
      return pv_dim_const (pool, q);
    }
  if (pool->onnx_arithmetic)
    return divisor == 1 ? a : _pv_dim_onnx_unknown (pool);
  return pv_dim_floor_div (pool, pv_dim_add (pool, a, pv_dim_const (pool, divisor - 1)), divisor);
}

/* Same terms, possibly different constants. */
gboolean
_pv_dim_same_terms (const PvDimExpr *a, const PvDimExpr *b)
{
  if (a->n != b->n)
    return FALSE;
  for (guint i = 0; i < a->n; i++)
    if (a->t[i].coef != b->t[i].coef || a->t[i].mono != b->t[i].mono)
      return FALSE;
  return TRUE;
}

/* Polynomial division with the leading term, exact or NULL. */
static const PvDimExpr *
div_poly (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b)
{
  const PvDimExpr *q = pool->zero, *r = a;
  const PvDimTerm *lead = &b->t[0];

  /* Each step removes the leading term of r, and terms only get smaller; the
   * bound keeps pathological inputs cheap. */
  for (int step = 0; step < 1024; step++)
    {
      if (r == NULL || q == NULL)
        return NULL;
      if (r == pool->zero)
        return q;
      if (r->n == 0)
        return NULL;            /* a nonzero constant remains */
      gint64 coef = r->t[0].coef;
      if ((lead->coef == -1 && coef == G_MININT64) || coef % lead->coef != 0)
        return NULL;
      const PvDimMono *m = mono_div (pool, r->t[0].mono, lead->mono);
      if (m == NULL)
        return NULL;
      PvDimTerm t = { coef / lead->coef, m };
      const PvDimExpr *te = m == pool->one ? pv_dim_const (pool, t.coef) : _pv_dim_intern_expr (pool, &t, 1, 0);
      q = pv_dim_add (pool, q, te);
      r = pv_dim_sub (pool, r, pv_dim_mul (pool, te, b));
    }
  return NULL;
}

const PvDimExpr *
pv_dim_div_expr (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b)
{
  g_return_val_if_fail (pool != NULL, NULL);
  if (a == NULL || b == NULL || b == pool->zero)
    return NULL;
  if (pool->onnx_arithmetic && (a->n != 0 || b->n != 0))
    return _pv_dim_onnx_unknown (pool);
  if (a == b)
    return pv_dim_const (pool, 1);
  if (b->n == 0)
    {
      gint64 d = b->constant;
      TermBuf tb;
      const PvDimExpr *result = NULL;

      if (d == 1)
        return a;
      if (d == -1 && a->constant == G_MININT64)
        return NULL;
      if (a->constant % d != 0)
        return NULL;
      _pv_dim_tb_init (&tb);
      for (guint i = 0; i < a->n; i++)
        {
          if ((d == -1 && a->t[i].coef == G_MININT64) || a->t[i].coef % d != 0)
            goto out;
          _pv_dim_tb_push (&tb, a->t[i].coef / d, a->t[i].mono);
        }
      /* Dividing by a negative constant keeps the monomials' order. */
      result = _pv_dim_intern_expr (pool, tb.v, tb.n, a->constant / d);
    out:
      _pv_dim_tb_clear (&tb);
      return result;
    }
  return div_poly (pool, a, b);
}

const PvDimExpr *
_pv_dim_min_max (PvDimPool *pool, AtomKind kind, const PvDimExpr *a, const PvDimExpr *b)
{
  if (a == NULL || b == NULL)
    return NULL;
  if (a == b)
    return a;
  /* Both constant, or a constant apart: the smaller (larger) one. */
  if (_pv_dim_same_terms (a, b))
    return (kind == ATOM_MIN) == (a->constant < b->constant) ? a : b;
  if (_pv_dim_cmp_expr (a, b) > 0)
    {
      const PvDimExpr *tmp = a;
      a = b;
      b = tmp;
    }
  return _pv_dim_intern_compound (pool, kind, a, b, 0)->expr;
}

const PvDimExpr *
pv_dim_min (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b)
{
  g_return_val_if_fail (pool != NULL, NULL);
  if (pool->onnx_arithmetic && a && b && (a->n != 0 || b->n != 0))
    return _pv_dim_onnx_unknown (pool);
  return _pv_dim_min_max (pool, ATOM_MIN, a, b);
}

const PvDimExpr *
pv_dim_max (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b)
{
  g_return_val_if_fail (pool != NULL, NULL);
  if (pool->onnx_arithmetic && a && b && (a->n != 0 || b->n != 0))
    return _pv_dim_onnx_unknown (pool);
  return _pv_dim_min_max (pool, ATOM_MAX, a, b);
}
