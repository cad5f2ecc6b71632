/* pv-dim-expr.c: symbolic tensor dimensions, hash-consed in canonical form.
 *
 * Three kinds of interned objects live in a pool, each in its own hash table
 * keyed by a structural hash (children are compared by pointer, which is
 * exact because the children are interned first):
 *
 *   atom      a symbol (interned by name), floor(e/c), min(a,b) or max(a,b);
 *   monomial  a product of atoms with positive exponents, factors sorted by
 *             the atom order; the empty monomial is the pool's "one";
 *   PvDimExpr a polynomial: terms (coefficient != 0, monomial) sorted by the
 *             monomial order, plus a constant.
 *
 * Orders are structural so that printing never depends on addresses or on
 * the order in which things were created:
 *
 *   atoms     symbols first, by name (bytewise); then floor, min, max, each by
 *             operands (and divisor);
 *   monomials lexicographic on exponent vectors ("pure lex" with the atom
 *             order): a^2 > a*b > a > b^2 > b; larger ones come first. This is
 *             a monomial order (compatible with multiplication), so terms[0]
 *             is the leading term that polynomial division needs;
 *   exprs     term by term (monomial, then coefficient), more terms first (so
 *             constants sort last), then the constant.
 *
 * Memory: every object is bump-allocated from blocks owned by the pool and
 * freed with it. The union-find state of a symbol lives in its atom; the memo
 * of pv_dim_pool_resolve() lives in each expression (neither is part of the
 * identity). */
#include "pv-dim-expr-private.h"

#include <string.h>

/* ---- the pool's memory ---- */

#define BLOCK_SIZE (64 * 1024)

static gpointer
pool_alloc (PvDimPool *pool, gsize size)
{
  size = (size + 15) & ~(gsize) 15;
  if (size > BLOCK_SIZE / 4)
    {
      /* Big objects get a block of their own; the current one stays. */
      guint8 *big = g_malloc (size);
      g_ptr_array_add (pool->blocks, big);
      return big;
    }
  if (size > pool->left)
    {
      pool->cur = g_malloc (BLOCK_SIZE);
      pool->left = BLOCK_SIZE;
      g_ptr_array_add (pool->blocks, pool->cur);
    }
  gpointer p = pool->cur;
  pool->cur += size;
  pool->left -= size;
  return p;
}

static char *
pool_strdup (PvDimPool *pool, const char *s)
{
  gsize len = strlen (s) + 1;
  char *copy = pool_alloc (pool, len);
  memcpy (copy, s, len);
  return copy;
}

/* ---- hashing ---- */

static inline guint64
hmix (guint64 h, guint64 v)
{
  v *= 0xff51afd7ed558ccdULL;
  v ^= v >> 32;
  h ^= v;
  h *= 0x9e3779b97f4a7c15ULL;
  return h ^ (h >> 29);
}

static inline guint
hfold (guint64 h)
{
  return (guint) (h ^ (h >> 32));
}

static guint
atom_hash_fn (gconstpointer p)
{
  return ((const PvDimAtom *) p)->hash;
}

static gboolean
atom_equal_fn (gconstpointer p, gconstpointer q)
{
  const PvDimAtom *x = p, *y = q;
  return x->kind == y->kind && x->a == y->a && x->b == y->b && x->divisor == y->divisor;
}

static guint
mono_hash_fn (gconstpointer p)
{
  return ((const PvDimMono *) p)->hash;
}

static gboolean
mono_equal_fn (gconstpointer p, gconstpointer q)
{
  const PvDimMono *x = p, *y = q;
  if (x->hash != y->hash || x->n != y->n)
    return FALSE;
  for (guint i = 0; i < x->n; i++)
    if (x->f[i].atom != y->f[i].atom || x->f[i].exp != y->f[i].exp)
      return FALSE;
  return TRUE;
}

static guint
expr_hash_fn (gconstpointer p)
{
  return ((const PvDimExpr *) p)->hash;
}

static gboolean
expr_equal_fn (gconstpointer p, gconstpointer q)
{
  const PvDimExpr *x = p, *y = q;
  if (x->hash != y->hash || x->n != y->n || x->constant != y->constant)
    return FALSE;
  for (guint i = 0; i < x->n; i++)
    if (x->t[i].coef != y->t[i].coef || x->t[i].mono != y->t[i].mono)
      return FALSE;
  return TRUE;
}

/* ---- total orders ---- */


static inline int
cmp_i64 (gint64 a, gint64 b)
{
  return (a > b) - (a < b);
}

int
_pv_dim_cmp_atom (const PvDimAtom *x, const PvDimAtom *y)
{
  int c;

  if (x == y)
    return 0;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  switch (x->kind)
    {
    case ATOM_SYMBOL:
      return strcmp (x->name, y->name);
    case ATOM_FLOOR:
      c = _pv_dim_cmp_expr (x->a, y->a);
      return c != 0 ? c : cmp_i64 (x->divisor, y->divisor);
    case ATOM_MIN:
    case ATOM_MAX:
    default:
      c = _pv_dim_cmp_expr (x->a, y->a);
      return c != 0 ? c : _pv_dim_cmp_expr (x->b, y->b);
    }
}

/* Negative when @x comes first, i.e. is the larger monomial. */
int
_pv_dim_cmp_mono (const PvDimMono *x, const PvDimMono *y)
{
  if (x == y)
    return 0;
  guint n = MIN (x->n, y->n);
  for (guint i = 0; i < n; i++)
    {
      int c = _pv_dim_cmp_atom (x->f[i].atom, y->f[i].atom);
      if (c != 0)
        return c;
      if (x->f[i].exp != y->f[i].exp)
        return x->f[i].exp > y->f[i].exp ? -1 : 1;
    }
  return x->n > y->n ? -1 : x->n < y->n ? 1 : 0;
}

int
_pv_dim_cmp_expr (const PvDimExpr *x, const PvDimExpr *y)
{
  if (x == y)
    return 0;
  guint n = MIN (x->n, y->n);
  for (guint i = 0; i < n; i++)
    {
      int c = _pv_dim_cmp_mono (x->t[i].mono, y->t[i].mono);
      if (c != 0)
        return c;
      c = cmp_i64 (x->t[i].coef, y->t[i].coef);
      if (c != 0)
        return c;
    }
  if (x->n != y->n)
    return x->n > y->n ? -1 : 1;
  return cmp_i64 (x->constant, y->constant);
}

static int
cmp_term_qsort (const void *p, const void *q)
{
  return _pv_dim_cmp_mono (((const PvDimTerm *) p)->mono, ((const PvDimTerm *) q)->mono);
}

/* ---- small growable buffers, on the stack while they fit ---- */


void
_pv_dim_tb_init (TermBuf *b)
{
  b->v = b->inline_v;
  b->n = 0;
  b->cap = G_N_ELEMENTS (b->inline_v);
}

void
_pv_dim_tb_push (TermBuf *b, gint64 coef, const PvDimMono *mono)
{
  if (b->n == b->cap)
    {
      b->cap *= 2;
      if (b->v == b->inline_v)
        b->v = g_memdup2 (b->inline_v, sizeof b->inline_v[0] * b->n);
      b->v = g_renew (PvDimTerm, b->v, b->cap);
    }
  b->v[b->n].coef = coef;
  b->v[b->n].mono = mono;
  b->n++;
}

void
_pv_dim_tb_clear (TermBuf *b)
{
  if (b->v != b->inline_v)
    g_free (b->v);
}


void
_pv_dim_fb_init (FactorBuf *b)
{
  b->v = b->inline_v;
  b->n = 0;
  b->cap = G_N_ELEMENTS (b->inline_v);
}

void
_pv_dim_fb_push (FactorBuf *b, const PvDimAtom *atom, guint32 exp)
{
  if (b->n == b->cap)
    {
      b->cap *= 2;
      if (b->v == b->inline_v)
        b->v = g_memdup2 (b->inline_v, sizeof b->inline_v[0] * b->n);
      b->v = g_renew (PvDimFactor, b->v, b->cap);
    }
  b->v[b->n].atom = atom;
  b->v[b->n].exp = exp;
  b->n++;
}

void
_pv_dim_fb_clear (FactorBuf *b)
{
  if (b->v != b->inline_v)
    g_free (b->v);
}

/* ---- interning ---- */

/* @f sorted by cmp_atom, atoms distinct, exponents >= 1. */
const PvDimMono *
_pv_dim_intern_mono (PvDimPool *pool, const PvDimFactor *f, guint n)
{
  guint64 h = hmix (0x6d6f6e6fULL, n);
  for (guint i = 0; i < n; i++)
    h = hmix (hmix (h, f[i].atom->hash), f[i].exp);

  PvDimMono key = { hfold (h), n, f };
  const PvDimMono *found = g_hash_table_lookup (pool->monos, &key);
  if (found != NULL)
    return found;

  PvDimMono *m = pool_alloc (pool, sizeof *m + n * sizeof (PvDimFactor));
  PvDimFactor *copy = (PvDimFactor *) (m + 1);
  if (n > 0)
    memcpy (copy, f, n * sizeof (PvDimFactor));
  *m = key;
  m->f = copy;
  g_hash_table_add (pool->monos, m);
  return m;
}

/* @t sorted by cmp_mono, monomials distinct and not "one", coefficients != 0. */
const PvDimExpr *
_pv_dim_intern_expr (PvDimPool *pool, const PvDimTerm *t, guint n, gint64 constant)
{
  guint64 h = hmix (hmix (0x65787072ULL, n), (guint64) constant);
  for (guint i = 0; i < n; i++)
    h = hmix (hmix (h, (guint64) t[i].coef), t[i].mono->hash);

  PvDimExpr key = { hfold (h), n, constant, t, 0, NULL };
  const PvDimExpr *found = g_hash_table_lookup (pool->exprs, &key);
  if (found != NULL)
    return found;

  PvDimExpr *e = pool_alloc (pool, sizeof *e + n * sizeof (PvDimTerm));
  PvDimTerm *copy = (PvDimTerm *) (e + 1);
  if (n > 0)
    memcpy (copy, t, n * sizeof (PvDimTerm));
  *e = key;
  e->t = copy;
  g_hash_table_add (pool->exprs, e);
  return e;
}

static void
atom_finish (PvDimPool *pool, PvDimAtom *atom)
{
  PvDimFactor f = { atom, 1 };
  atom->mono = _pv_dim_intern_mono (pool, &f, 1);
  PvDimTerm t = { 1, atom->mono };
  atom->expr = _pv_dim_intern_expr (pool, &t, 1, 0);
}

static PvDimAtom *
intern_symbol (PvDimPool *pool, const char *name)
{
  PvDimAtom *atom = g_hash_table_lookup (pool->symbols, name);
  if (atom != NULL)
    return atom;

  atom = pool_alloc (pool, sizeof *atom);
  memset (atom, 0, sizeof *atom);
  atom->kind = ATOM_SYMBOL;
  atom->name = pool_strdup (pool, name);
  atom->hash = hfold (hmix (ATOM_SYMBOL, g_str_hash (name)));
  atom->serial = pool->n_symbols++;
  g_hash_table_insert (pool->symbols, (gpointer) atom->name, atom);
  atom_finish (pool, atom);
  return atom;
}

const PvDimAtom *
_pv_dim_intern_compound (PvDimPool *pool, AtomKind kind, const PvDimExpr *a, const PvDimExpr *b, gint64 divisor)
{
  PvDimAtom key = { 0 };
  key.kind = kind;
  key.a = a;
  key.b = b;
  key.divisor = divisor;
  key.hash = hfold (hmix (hmix (hmix (kind, a->hash), b != NULL ? b->hash : 0), (guint64) divisor));

  const PvDimAtom *found = g_hash_table_lookup (pool->atoms, &key);
  if (found != NULL)
    return found;

  PvDimAtom *atom = pool_alloc (pool, sizeof *atom);
  *atom = key;
  g_hash_table_add (pool->atoms, atom);
  atom_finish (pool, atom);
  return atom;
}

/* Sorts, combines like terms, drops zeros and folds the monomial "one" into
 * the constant. NULL on overflow. */
const PvDimExpr *
_pv_dim_normalize (PvDimPool *pool, TermBuf *tb, gint64 constant)
{
  guint w = 0;

  if (tb->n > 1)
    qsort (tb->v, tb->n, sizeof (PvDimTerm), cmp_term_qsort);
  for (guint i = 0; i < tb->n; i++)
    {
      PvDimTerm term = tb->v[i];
      if (term.mono == pool->one)
        {
          if (__builtin_add_overflow (constant, term.coef, &constant))
            return NULL;
        }
      else if (w > 0 && tb->v[w - 1].mono == term.mono)
        {
          if (__builtin_add_overflow (tb->v[w - 1].coef, term.coef, &tb->v[w - 1].coef))
            return NULL;
        }
      else
        tb->v[w++] = term;
    }
  guint n = 0;
  for (guint i = 0; i < w; i++)
    if (tb->v[i].coef != 0)
      tb->v[n++] = tb->v[i];
  return _pv_dim_intern_expr (pool, tb->v, n, constant);
}

/* ---- pool ---- */

PvDimPool *
pv_dim_pool_new (void)
{
  PvDimPool *pool = g_new0 (PvDimPool, 1);

  pool->blocks = g_ptr_array_new_with_free_func (g_free);
  pool->symbols = g_hash_table_new (g_str_hash, g_str_equal);
  pool->atoms = g_hash_table_new (atom_hash_fn, atom_equal_fn);
  pool->monos = g_hash_table_new (mono_hash_fn, mono_equal_fn);
  pool->exprs = g_hash_table_new (expr_hash_fn, expr_equal_fn);
  pool->fresh = g_hash_table_new (g_str_hash, g_str_equal);
  pool->one = _pv_dim_intern_mono (pool, NULL, 0);
  pool->zero = _pv_dim_intern_expr (pool, NULL, 0, 0);
  return pool;
}

void
pv_dim_pool_set_onnx_arithmetic (PvDimPool *pool, gboolean on)
{
  g_return_if_fail (pool != NULL);
  pool->onnx_arithmetic = on;
}

/* ONNX's result for arithmetic on a dim without a value: neither value nor
 * name. */
const PvDimExpr *
_pv_dim_onnx_unknown (PvDimPool *pool)
{
  return pv_dim_fresh_symbol (pool, "unk");
}

void
pv_dim_pool_free (PvDimPool *pool)
{
  if (pool == NULL)
    return;
  g_hash_table_unref (pool->symbols);
  g_hash_table_unref (pool->atoms);
  g_hash_table_unref (pool->monos);
  g_hash_table_unref (pool->exprs);
  g_hash_table_unref (pool->fresh);
  g_ptr_array_unref (pool->blocks);
  g_free (pool);
}

/* ---- constructors ---- */

const PvDimExpr *
pv_dim_const (PvDimPool *pool, gint64 value)
{
  g_return_val_if_fail (pool != NULL, NULL);
  return value == 0 ? pool->zero : _pv_dim_intern_expr (pool, NULL, 0, value);
}

const PvDimExpr *
pv_dim_symbol (PvDimPool *pool, const char *name)
{
  g_return_val_if_fail (pool != NULL, NULL);
  if (name == NULL || name[0] == '\0')
    return NULL;
  return intern_symbol (pool, name)->expr;
}

const PvDimExpr *
pv_dim_fresh_symbol (PvDimPool *pool, const char *prefix)
{
  g_return_val_if_fail (pool != NULL, NULL);
  if (prefix == NULL)
    return NULL;

  gpointer key, value;
  gsize n = 0;
  if (g_hash_table_lookup_extended (pool->fresh, prefix, &key, &value))
    n = GPOINTER_TO_SIZE (value);
  else
    key = pool_strdup (pool, prefix);

  GString *name = g_string_new (NULL);
  for (;; n++)
    {
      g_string_printf (name, "%s_%" G_GSIZE_FORMAT, prefix, n);
      if (!g_hash_table_contains (pool->symbols, name->str))
        break;
    }
  const PvDimExpr *e = intern_symbol (pool, name->str)->expr;
  g_hash_table_insert (pool->fresh, key, GSIZE_TO_POINTER (n + 1));
  g_string_free (name, TRUE);
  return e;
}

/* ---- queries ---- */

gboolean
pv_dim_is_const (const PvDimExpr *e, gint64 *value_out)
{
  if (e == NULL || e->n != 0)
    return FALSE;
  if (value_out != NULL)
    *value_out = e->constant;
  return TRUE;
}

const PvDimAtom *
_pv_dim_single_atom (const PvDimExpr *e)
{
  if (e == NULL || e->n != 1 || e->constant != 0 || e->t[0].coef != 1 || e->t[0].mono->n != 1
      || e->t[0].mono->f[0].exp != 1)
    return NULL;
  return e->t[0].mono->f[0].atom;
}

const char *
pv_dim_symbol_name (const PvDimExpr *e)
{
  const PvDimAtom *atom = _pv_dim_single_atom (e);
  return atom != NULL && atom->kind == ATOM_SYMBOL ? atom->name : NULL;
}

int
pv_dim_compare (const PvDimExpr *a, const PvDimExpr *b)
{
  if (a == NULL || b == NULL)
    return (a != NULL) - (b != NULL);
  return _pv_dim_cmp_expr (a, b);
}
