/* pv-dim-expr-solve.c: unification of symbols (union-find in their atoms) and
 * resolution of expressions to their classes' representatives. */
#include "pv-dim-expr-private.h"

#include <string.h>

/* ---- unification ---- */

static PvDimAtom *
uf_find (PvDimAtom *x)
{
  PvDimAtom *root = x;
  while (root->parent != NULL)
    root = root->parent;
  while (x != root)
    {
      PvDimAtom *next = x->parent;
      x->parent = root;
      x = next;
    }
  return root;
}

/* Merges two classes; the root created first stays root. */
static gboolean
uf_union (PvDimPool *pool, PvDimAtom *x, PvDimAtom *y)
{
  x = uf_find (x);
  y = uf_find (y);
  if (x == y)
    return TRUE;
  if (x->bound && y->bound && x->value != y->value)
    return FALSE;
  if (y->serial < x->serial)
    {
      PvDimAtom *tmp = x;
      x = y;
      y = tmp;
    }
  y->parent = x;
  if (!x->bound && y->bound)
    {
      x->bound = TRUE;
      x->value = y->value;
    }
  pool->gen++;
  return TRUE;
}

static PvDimAtom *
symbol_atom (const PvDimExpr *e)
{
  const PvDimAtom *atom = _pv_dim_single_atom (e);
  return atom != NULL && atom->kind == ATOM_SYMBOL ? (PvDimAtom *) atom : NULL;
}

gboolean
pv_dim_pool_unify (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b)
{
  PvDimAtom *x, *y;

  g_return_val_if_fail (pool != NULL, FALSE);
  if (a == NULL || b == NULL || a == b)
    return TRUE;
  /* Two symbols: merge the classes even when they are bound, so that names
   * follow the representative rule. */
  x = symbol_atom (a);
  y = symbol_atom (b);
  if (x != NULL && y != NULL)
    return uf_union (pool, x, y);

  /* Otherwise on the resolved forms, where a symbol is an unbound root. */
  a = pv_dim_pool_resolve (pool, a);
  b = pv_dim_pool_resolve (pool, b);
  if (a == NULL || b == NULL || a == b)
    return TRUE;
  if (_pv_dim_same_terms (a, b))
    return FALSE;               /* different constants, or e and e+k with k != 0 */
  x = symbol_atom (a);
  y = symbol_atom (b);
  if (x != NULL && y != NULL)
    return uf_union (pool, x, y);
  if (y != NULL)
    {
      const PvDimExpr *tmp = a;
      a = b;
      b = tmp;
      x = y;
    }
  if (x == NULL || b->n != 0)
    return TRUE;                /* not recorded */
  x->bound = TRUE;
  x->value = b->constant;
  pool->gen++;
  return TRUE;
}

static const PvDimExpr *
expr_pow (PvDimPool *pool, const PvDimExpr *base, guint32 exp)
{
  const PvDimExpr *result = pv_dim_const (pool, 1);

  while (exp != 0 && result != NULL && base != NULL)
    {
      if (exp & 1)
        result = pv_dim_mul (pool, result, base);
      exp >>= 1;
      if (exp != 0)
        base = pv_dim_mul (pool, base, base);
    }
  return base != NULL ? result : NULL;
}

static const PvDimExpr *
resolve_atom (PvDimPool *pool, const PvDimAtom *atom)
{
  const PvDimExpr *a, *b;

  switch (atom->kind)
    {
    case ATOM_SYMBOL:
      {
        PvDimAtom *root = uf_find ((PvDimAtom *) atom);
        return root->bound ? pv_dim_const (pool, root->value) : root->expr;
      }
    case ATOM_FLOOR:
      a = pv_dim_pool_resolve (pool, atom->a);
      return a == atom->a ? atom->expr : pv_dim_floor_div (pool, a, atom->divisor);
    case ATOM_MIN:
    case ATOM_MAX:
    default:
      a = pv_dim_pool_resolve (pool, atom->a);
      b = pv_dim_pool_resolve (pool, atom->b);
      if (a == atom->a && b == atom->b)
        return atom->expr;
      return _pv_dim_min_max (pool, atom->kind, a, b);
    }
}

static const PvDimExpr *
resolve_uncached (PvDimPool *pool, const PvDimExpr *e)
{
  gboolean changed = FALSE;

  for (guint i = 0; i < e->n && !changed; i++)
    for (guint j = 0; j < e->t[i].mono->n && !changed; j++)
      {
        const PvDimAtom *atom = e->t[i].mono->f[j].atom;
        changed = resolve_atom (pool, atom) != atom->expr;
      }
  if (!changed)
    return e;

  const PvDimExpr *sum = pv_dim_const (pool, e->constant);
  for (guint i = 0; i < e->n && sum != NULL; i++)
    {
      const PvDimExpr *term = pv_dim_const (pool, e->t[i].coef);
      for (guint j = 0; j < e->t[i].mono->n && term != NULL; j++)
        {
          const PvDimFactor *f = &e->t[i].mono->f[j];
          term = pv_dim_mul (pool, term, expr_pow (pool, resolve_atom (pool, f->atom), f->exp));
        }
      sum = pv_dim_add (pool, sum, term);
    }
  return sum;
}

const PvDimExpr *
pv_dim_pool_resolve (PvDimPool *pool, const PvDimExpr *e)
{
  g_return_val_if_fail (pool != NULL, NULL);
  if (e == NULL || pool->gen == 0 || e->n == 0)
    return e;

  PvDimExpr *memo = (PvDimExpr *) e;
  if (memo->resolved_gen != pool->gen)
    {
      memo->resolved = resolve_uncached (pool, e);
      memo->resolved_gen = pool->gen;
    }
  return memo->resolved;
}

const char *
pv_dim_pool_representative (PvDimPool *pool, const char *symbol)
{
  g_return_val_if_fail (pool != NULL, symbol);
  if (symbol == NULL)
    return NULL;
  PvDimAtom *atom = g_hash_table_lookup (pool->symbols, symbol);
  return atom != NULL ? uf_find (atom)->name : symbol;
}
