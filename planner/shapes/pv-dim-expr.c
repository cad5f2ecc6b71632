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
#include "pv-dim-expr.h"

#include <string.h>

typedef enum
{
  ATOM_SYMBOL,
  ATOM_FLOOR,
  ATOM_MIN,
  ATOM_MAX,
} AtomKind;

typedef struct _PvDimAtom PvDimAtom;
typedef struct _PvDimMono PvDimMono;

typedef struct
{
  const PvDimAtom *atom;
  guint32 exp;                  /* >= 1 */
} PvDimFactor;

struct _PvDimMono
{
  guint hash;
  guint n;                      /* 0: the monomial 1 */
  const PvDimFactor *f;
};

typedef struct
{
  gint64 coef;                  /* != 0 */
  const PvDimMono *mono;        /* never the monomial 1 */
} PvDimTerm;

struct _PvDimExpr
{
  guint hash;
  guint n;
  gint64 constant;
  const PvDimTerm *t;
  /* pv_dim_pool_resolve() memo, valid when resolved_gen == pool->gen. */
  guint resolved_gen;
  const PvDimExpr *resolved;
};

struct _PvDimAtom
{
  AtomKind kind;
  guint hash;
  const char *name;             /* SYMBOL */
  const PvDimExpr *a, *b;       /* FLOOR: a; MIN, MAX: a < b */
  gint64 divisor;               /* FLOOR: > 1 */
  const PvDimMono *mono;        /* atom^1 */
  const PvDimExpr *expr;        /* 1*atom^1 */
  /* Union-find (SYMBOL only). */
  guint64 serial;               /* creation order among the pool's symbols */
  PvDimAtom *parent;            /* NULL for a class root */
  gboolean bound;               /* root only: the class equals @value */
  gint64 value;
};

struct _PvDimPool
{
  GPtrArray *blocks;
  guint8 *cur;
  gsize left;
  GHashTable *symbols;          /* name -> PvDimAtom */
  GHashTable *atoms;            /* compound atoms (set) */
  GHashTable *monos;            /* set */
  GHashTable *exprs;            /* set */
  GHashTable *fresh;            /* prefix -> next index to try */
  const PvDimMono *one;
  const PvDimExpr *zero;
  guint64 n_symbols;
  guint gen;                    /* bumped by each recorded unification */
  gboolean onnx_arithmetic;     /* pv_dim_pool_set_onnx_arithmetic() */
};

/* ---- arena ---- */

#define BLOCK_SIZE (64 * 1024)

static gpointer
arena_alloc (PvDimPool *pool, gsize size)
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
arena_strdup (PvDimPool *pool, const char *s)
{
  gsize len = strlen (s) + 1;
  char *copy = arena_alloc (pool, len);
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

static int cmp_expr (const PvDimExpr *x, const PvDimExpr *y);

static inline int
cmp_i64 (gint64 a, gint64 b)
{
  return (a > b) - (a < b);
}

static int
cmp_atom (const PvDimAtom *x, const PvDimAtom *y)
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
      c = cmp_expr (x->a, y->a);
      return c != 0 ? c : cmp_i64 (x->divisor, y->divisor);
    case ATOM_MIN:
    case ATOM_MAX:
    default:
      c = cmp_expr (x->a, y->a);
      return c != 0 ? c : cmp_expr (x->b, y->b);
    }
}

/* Negative when @x comes first, i.e. is the larger monomial. */
static int
cmp_mono (const PvDimMono *x, const PvDimMono *y)
{
  if (x == y)
    return 0;
  guint n = MIN (x->n, y->n);
  for (guint i = 0; i < n; i++)
    {
      int c = cmp_atom (x->f[i].atom, y->f[i].atom);
      if (c != 0)
        return c;
      if (x->f[i].exp != y->f[i].exp)
        return x->f[i].exp > y->f[i].exp ? -1 : 1;
    }
  return x->n > y->n ? -1 : x->n < y->n ? 1 : 0;
}

static int
cmp_expr (const PvDimExpr *x, const PvDimExpr *y)
{
  if (x == y)
    return 0;
  guint n = MIN (x->n, y->n);
  for (guint i = 0; i < n; i++)
    {
      int c = cmp_mono (x->t[i].mono, y->t[i].mono);
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
  return cmp_mono (((const PvDimTerm *) p)->mono, ((const PvDimTerm *) q)->mono);
}

/* ---- small growable buffers, on the stack while they fit ---- */

typedef struct
{
  PvDimTerm *v;
  guint n, cap;
  PvDimTerm inline_v[16];
} TermBuf;

static void
tb_init (TermBuf *b)
{
  b->v = b->inline_v;
  b->n = 0;
  b->cap = G_N_ELEMENTS (b->inline_v);
}

static void
tb_push (TermBuf *b, gint64 coef, const PvDimMono *mono)
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

static void
tb_clear (TermBuf *b)
{
  if (b->v != b->inline_v)
    g_free (b->v);
}

typedef struct
{
  PvDimFactor *v;
  guint n, cap;
  PvDimFactor inline_v[16];
} FactorBuf;

static void
fb_init (FactorBuf *b)
{
  b->v = b->inline_v;
  b->n = 0;
  b->cap = G_N_ELEMENTS (b->inline_v);
}

static void
fb_push (FactorBuf *b, const PvDimAtom *atom, guint32 exp)
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

static void
fb_clear (FactorBuf *b)
{
  if (b->v != b->inline_v)
    g_free (b->v);
}

/* ---- interning ---- */

/* @f sorted by cmp_atom, atoms distinct, exponents >= 1. */
static const PvDimMono *
intern_mono (PvDimPool *pool, const PvDimFactor *f, guint n)
{
  guint64 h = hmix (0x6d6f6e6fULL, n);
  for (guint i = 0; i < n; i++)
    h = hmix (hmix (h, f[i].atom->hash), f[i].exp);

  PvDimMono key = { hfold (h), n, f };
  const PvDimMono *found = g_hash_table_lookup (pool->monos, &key);
  if (found != NULL)
    return found;

  PvDimMono *m = arena_alloc (pool, sizeof *m + n * sizeof (PvDimFactor));
  PvDimFactor *copy = (PvDimFactor *) (m + 1);
  if (n > 0)
    memcpy (copy, f, n * sizeof (PvDimFactor));
  *m = key;
  m->f = copy;
  g_hash_table_add (pool->monos, m);
  return m;
}

/* @t sorted by cmp_mono, monomials distinct and not "one", coefficients != 0. */
static const PvDimExpr *
intern_expr (PvDimPool *pool, const PvDimTerm *t, guint n, gint64 constant)
{
  guint64 h = hmix (hmix (0x65787072ULL, n), (guint64) constant);
  for (guint i = 0; i < n; i++)
    h = hmix (hmix (h, (guint64) t[i].coef), t[i].mono->hash);

  PvDimExpr key = { hfold (h), n, constant, t, 0, NULL };
  const PvDimExpr *found = g_hash_table_lookup (pool->exprs, &key);
  if (found != NULL)
    return found;

  PvDimExpr *e = arena_alloc (pool, sizeof *e + n * sizeof (PvDimTerm));
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
  atom->mono = intern_mono (pool, &f, 1);
  PvDimTerm t = { 1, atom->mono };
  atom->expr = intern_expr (pool, &t, 1, 0);
}

static PvDimAtom *
intern_symbol (PvDimPool *pool, const char *name)
{
  PvDimAtom *atom = g_hash_table_lookup (pool->symbols, name);
  if (atom != NULL)
    return atom;

  atom = arena_alloc (pool, sizeof *atom);
  memset (atom, 0, sizeof *atom);
  atom->kind = ATOM_SYMBOL;
  atom->name = arena_strdup (pool, name);
  atom->hash = hfold (hmix (ATOM_SYMBOL, g_str_hash (name)));
  atom->serial = pool->n_symbols++;
  g_hash_table_insert (pool->symbols, (gpointer) atom->name, atom);
  atom_finish (pool, atom);
  return atom;
}

static const PvDimAtom *
intern_compound (PvDimPool *pool, AtomKind kind, const PvDimExpr *a, const PvDimExpr *b, gint64 divisor)
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

  PvDimAtom *atom = arena_alloc (pool, sizeof *atom);
  *atom = key;
  g_hash_table_add (pool->atoms, atom);
  atom_finish (pool, atom);
  return atom;
}

/* Sorts, combines like terms, drops zeros and folds the monomial "one" into
 * the constant. NULL on overflow. */
static const PvDimExpr *
normalize (PvDimPool *pool, TermBuf *tb, gint64 constant)
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
  return intern_expr (pool, tb->v, n, constant);
}

/* ---- integer helpers ---- */

static gint64
floor_div_i64 (gint64 n, gint64 d) /* d > 0 */
{
  gint64 q = n / d;
  if (n % d != 0 && n < 0)
    q--;
  return q;
}

static guint64
abs_u64 (gint64 v)
{
  return v < 0 ? -(guint64) v : (guint64) v;
}

static guint64
gcd_u64 (guint64 a, guint64 b)
{
  while (b != 0)
    {
      guint64 r = a % b;
      a = b;
      b = r;
    }
  return a;
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
  pool->one = intern_mono (pool, NULL, 0);
  pool->zero = intern_expr (pool, NULL, 0, 0);
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
static const PvDimExpr *
onnx_unknown (PvDimPool *pool)
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
  return value == 0 ? pool->zero : intern_expr (pool, NULL, 0, value);
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
    key = arena_strdup (pool, prefix);

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
  tb_init (&tb);
  while (i < a->n || j < b->n)
    {
      int c = i == a->n ? 1 : j == b->n ? -1 : cmp_mono (a->t[i].mono, b->t[j].mono);
      if (c < 0)
        {
          tb_push (&tb, a->t[i].coef, a->t[i].mono);
          i++;
          continue;
        }
      if (__builtin_mul_overflow (b->t[j].coef, kb, &v))
        goto out;
      if (c == 0 && __builtin_add_overflow (a->t[i++].coef, v, &v))
        goto out;
      if (v != 0)
        tb_push (&tb, v, b->t[j].mono);
      j++;
    }
  result = intern_expr (pool, tb.v, tb.n, constant);
out:
  tb_clear (&tb);
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
    return onnx_unknown (pool);
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
    return onnx_unknown (pool);
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
  tb_init (&tb);
  for (guint i = 0; i < e->n; i++)
    {
      gint64 v;
      if (__builtin_mul_overflow (e->t[i].coef, k, &v))
        goto out;
      tb_push (&tb, v, e->t[i].mono);
    }
  result = intern_expr (pool, tb.v, tb.n, constant);
out:
  tb_clear (&tb);
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
  fb_init (&fb);
  while (i < x->n || j < y->n)
    {
      int c = i == x->n ? 1 : j == y->n ? -1 : cmp_atom (x->f[i].atom, y->f[j].atom);
      if (c < 0)
        {
          fb_push (&fb, x->f[i].atom, x->f[i].exp);
          i++;
        }
      else if (c > 0)
        {
          fb_push (&fb, y->f[j].atom, y->f[j].exp);
          j++;
        }
      else
        {
          guint32 e;
          if (__builtin_add_overflow (x->f[i].exp, y->f[j].exp, &e))
            goto out;
          fb_push (&fb, x->f[i].atom, e);
          i++;
          j++;
        }
    }
  result = intern_mono (pool, fb.v, fb.n);
out:
  fb_clear (&fb);
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
  fb_init (&fb);
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
        fb_push (&fb, x->f[i].atom, e);
    }
  if (j == y->n)
    result = intern_mono (pool, fb.v, fb.n);
out:
  fb_clear (&fb);
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
    return a->n == 0 && a->constant == 1 ? b : b->n == 0 && b->constant == 1 ? a : onnx_unknown (pool);
  if (a->n == 0)
    return scale (pool, b, a->constant);
  if (b->n == 0)
    return scale (pool, a, b->constant);
  if (__builtin_mul_overflow (a->constant, b->constant, &constant))
    return NULL;

  tb_init (&tb);
  for (guint i = 0; i < a->n; i++)
    {
      for (guint j = 0; j < b->n; j++)
        {
          const PvDimMono *m = mono_mul (pool, a->t[i].mono, b->t[j].mono);
          if (m == NULL || __builtin_mul_overflow (a->t[i].coef, b->t[j].coef, &v))
            goto out;
          tb_push (&tb, v, m);
        }
      if (b->constant != 0)
        {
          if (__builtin_mul_overflow (a->t[i].coef, b->constant, &v))
            goto out;
          tb_push (&tb, v, a->t[i].mono);
        }
    }
  if (a->constant != 0)
    for (guint j = 0; j < b->n; j++)
      {
        if (__builtin_mul_overflow (a->constant, b->t[j].coef, &v))
          goto out;
        tb_push (&tb, v, b->t[j].mono);
      }
  result = normalize (pool, &tb, constant);
out:
  tb_clear (&tb);
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
    return onnx_unknown (pool);

  /* floor((divisor*q + r) / divisor) = q + floor(r / divisor) for integral q:
   * every term (and the constant) divisible by the divisor moves out. */
  tb_init (&q);
  tb_init (&r);
  rc = a->constant;
  if (rc % divisor == 0)
    {
      qc = rc / divisor;
      rc = 0;
    }
  for (guint i = 0; i < a->n; i++)
    {
      if (a->t[i].coef % divisor == 0)
        tb_push (&q, a->t[i].coef / divisor, a->t[i].mono);
      else
        tb_push (&r, a->t[i].coef, a->t[i].mono);
    }
  if (r.n == 0)
    {
      /* Only (part of) the constant is left: qc and rc are not both != 0. */
      result = intern_expr (pool, q.v, q.n, qc + floor_div_i64 (rc, divisor));
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
  rest = intern_expr (pool, r.v, r.n, rc);

  /* floor((floor(e/c) + k) / d) = floor((e + k*c) / (c*d)). */
  const PvDimAtom *inner = single_floor (rest);
  gint64 kc, cd;
  if (inner != NULL && !__builtin_mul_overflow (rc, inner->divisor, &kc)
      && !__builtin_mul_overflow (inner->divisor, divisor, &cd))
    floored = pv_dim_floor_div (pool, pv_dim_add (pool, inner->a, pv_dim_const (pool, kc)), cd);
  else
    floored = intern_compound (pool, ATOM_FLOOR, rest, NULL, divisor)->expr;
  if (floored != NULL)
    result = pv_dim_add (pool, intern_expr (pool, q.v, q.n, qc), floored);
out:
  tb_clear (&q);
  tb_clear (&r);
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
    return divisor == 1 ? a : onnx_unknown (pool);
  return pv_dim_floor_div (pool, pv_dim_add (pool, a, pv_dim_const (pool, divisor - 1)), divisor);
}

/* Same terms, possibly different constants. */
static gboolean
same_terms (const PvDimExpr *a, const PvDimExpr *b)
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
      const PvDimExpr *te = m == pool->one ? pv_dim_const (pool, t.coef) : intern_expr (pool, &t, 1, 0);
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
    return onnx_unknown (pool);
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
      tb_init (&tb);
      for (guint i = 0; i < a->n; i++)
        {
          if ((d == -1 && a->t[i].coef == G_MININT64) || a->t[i].coef % d != 0)
            goto out;
          tb_push (&tb, a->t[i].coef / d, a->t[i].mono);
        }
      /* Dividing by a negative constant keeps the monomials' order. */
      result = intern_expr (pool, tb.v, tb.n, a->constant / d);
    out:
      tb_clear (&tb);
      return result;
    }
  return div_poly (pool, a, b);
}

static const PvDimExpr *
min_max (PvDimPool *pool, AtomKind kind, const PvDimExpr *a, const PvDimExpr *b)
{
  if (a == NULL || b == NULL)
    return NULL;
  if (a == b)
    return a;
  /* Both constant, or a constant apart: the smaller (larger) one. */
  if (same_terms (a, b))
    return (kind == ATOM_MIN) == (a->constant < b->constant) ? a : b;
  if (cmp_expr (a, b) > 0)
    {
      const PvDimExpr *tmp = a;
      a = b;
      b = tmp;
    }
  return intern_compound (pool, kind, a, b, 0)->expr;
}

const PvDimExpr *
pv_dim_min (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b)
{
  g_return_val_if_fail (pool != NULL, NULL);
  if (pool->onnx_arithmetic && a && b && (a->n != 0 || b->n != 0))
    return onnx_unknown (pool);
  return min_max (pool, ATOM_MIN, a, b);
}

const PvDimExpr *
pv_dim_max (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b)
{
  g_return_val_if_fail (pool != NULL, NULL);
  if (pool->onnx_arithmetic && a && b && (a->n != 0 || b->n != 0))
    return onnx_unknown (pool);
  return min_max (pool, ATOM_MAX, a, b);
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

static const PvDimAtom *
single_atom (const PvDimExpr *e)
{
  if (e == NULL || e->n != 1 || e->constant != 0 || e->t[0].coef != 1 || e->t[0].mono->n != 1
      || e->t[0].mono->f[0].exp != 1)
    return NULL;
  return e->t[0].mono->f[0].atom;
}

const char *
pv_dim_symbol_name (const PvDimExpr *e)
{
  const PvDimAtom *atom = single_atom (e);
  return atom != NULL && atom->kind == ATOM_SYMBOL ? atom->name : NULL;
}

int
pv_dim_compare (const PvDimExpr *a, const PvDimExpr *b)
{
  if (a == NULL || b == NULL)
    return (a != NULL) - (b != NULL);
  return cmp_expr (a, b);
}

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
  const PvDimAtom *atom = single_atom (e);
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
  if (same_terms (a, b))
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
      return min_max (pool, atom->kind, a, b);
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

/* ---- evaluation ---- */

typedef struct
{
  GHashTable *bounds;
  const char *missing;
} EvalState;

static gboolean eval_expr (const PvDimExpr *e, EvalState *st, gint64 *out);

static gboolean
pow_i64 (gint64 base, guint32 exp, gint64 *out)
{
  gint64 r = 1;

  if (base == 0 || base == 1)
    {
      *out = exp == 0 ? 1 : base;
      return TRUE;
    }
  if (base == -1)
    {
      *out = (exp & 1) ? -1 : 1;
      return TRUE;
    }
  /* |base| >= 2: overflows within 64 steps. */
  for (guint32 i = 0; i < exp; i++)
    if (__builtin_mul_overflow (r, base, &r))
      return FALSE;
  *out = r;
  return TRUE;
}

static gboolean
eval_atom (const PvDimAtom *atom, EvalState *st, gint64 *out)
{
  gint64 a, b;

  switch (atom->kind)
    {
    case ATOM_SYMBOL:
      {
        const gint64 *v = st->bounds != NULL ? g_hash_table_lookup (st->bounds, atom->name) : NULL;
        if (v == NULL)
          {
            st->missing = atom->name;
            return FALSE;
          }
        *out = *v;
        return TRUE;
      }
    case ATOM_FLOOR:
      if (!eval_expr (atom->a, st, &a))
        return FALSE;
      *out = floor_div_i64 (a, atom->divisor);
      return TRUE;
    case ATOM_MIN:
    case ATOM_MAX:
    default:
      if (!eval_expr (atom->a, st, &a) || !eval_expr (atom->b, st, &b))
        return FALSE;
      *out = (atom->kind == ATOM_MIN) == (a < b) ? a : b;
      return TRUE;
    }
}

static gboolean
eval_expr (const PvDimExpr *e, EvalState *st, gint64 *out)
{
  gint64 sum = e->constant;

  for (guint i = 0; i < e->n; i++)
    {
      gint64 term = e->t[i].coef;
      for (guint j = 0; j < e->t[i].mono->n; j++)
        {
          const PvDimFactor *f = &e->t[i].mono->f[j];
          gint64 v;
          if (!eval_atom (f->atom, st, &v) || !pow_i64 (v, f->exp, &v) || __builtin_mul_overflow (term, v, &term))
            return FALSE;
        }
      if (__builtin_add_overflow (sum, term, &sum))
        return FALSE;
    }
  *out = sum;
  return TRUE;
}

gboolean
pv_dim_eval (const PvDimExpr *e, GHashTable *bounds, gint64 *value_out, const char **missing_out)
{
  EvalState st = { bounds, NULL };
  gint64 v = 0;
  gboolean ok = e != NULL && eval_expr (e, &st, &v);

  if (missing_out != NULL)
    *missing_out = ok ? NULL : st.missing;
  if (ok && value_out != NULL)
    *value_out = v;
  return ok;
}

static void collect_expr (const PvDimExpr *e, GHashTable *out);

static void
collect_atom (const PvDimAtom *atom, GHashTable *out)
{
  switch (atom->kind)
    {
    case ATOM_SYMBOL:
      g_hash_table_add (out, (gpointer) atom->name);
      break;
    case ATOM_FLOOR:
      collect_expr (atom->a, out);
      break;
    case ATOM_MIN:
    case ATOM_MAX:
    default:
      collect_expr (atom->a, out);
      collect_expr (atom->b, out);
      break;
    }
}

static void
collect_expr (const PvDimExpr *e, GHashTable *out)
{
  for (guint i = 0; i < e->n; i++)
    for (guint j = 0; j < e->t[i].mono->n; j++)
      collect_atom (e->t[i].mono->f[j].atom, out);
}

void
pv_dim_collect_symbols (const PvDimExpr *e, GHashTable *out)
{
  g_return_if_fail (out != NULL);
  if (e != NULL)
    collect_expr (e, out);
}

/* ---- printing ---- */

static void print_expr (GString *s, const PvDimExpr *e);

static void
print_atom (GString *s, const PvDimAtom *atom)
{
  switch (atom->kind)
    {
    case ATOM_SYMBOL:
      g_string_append (s, atom->name);
      break;
    case ATOM_FLOOR:
      {
        gboolean sum = atom->a->n + (atom->a->constant != 0) > 1;
        g_string_append (s, sum ? "floor((" : "floor(");
        print_expr (s, atom->a);
        g_string_append_printf (s, "%s/%" G_GINT64_FORMAT ")", sum ? ")" : "", atom->divisor);
        break;
      }
    case ATOM_MIN:
    case ATOM_MAX:
    default:
      g_string_append (s, atom->kind == ATOM_MIN ? "min(" : "max(");
      print_expr (s, atom->a);
      g_string_append_c (s, ',');
      print_expr (s, atom->b);
      g_string_append_c (s, ')');
      break;
    }
}

static void
print_expr (GString *s, const PvDimExpr *e)
{
  if (e->n == 0)
    {
      g_string_append_printf (s, "%" G_GINT64_FORMAT, e->constant);
      return;
    }
  for (guint i = 0; i < e->n; i++)
    {
      gint64 coef = e->t[i].coef;
      if (coef < 0)
        g_string_append_c (s, '-');
      else if (i > 0)
        g_string_append_c (s, '+');
      if (coef != 1 && coef != -1)
        g_string_append_printf (s, "%" G_GUINT64_FORMAT "*", abs_u64 (coef));
      for (guint j = 0; j < e->t[i].mono->n; j++)
        {
          const PvDimFactor *f = &e->t[i].mono->f[j];
          if (j > 0)
            g_string_append_c (s, '*');
          print_atom (s, f->atom);
          if (f->exp != 1)
            g_string_append_printf (s, "^%u", (unsigned) f->exp);
        }
    }
  if (e->constant != 0)
    g_string_append_printf (s, "%c%" G_GUINT64_FORMAT, e->constant < 0 ? '-' : '+', abs_u64 (e->constant));
}

char *
pv_dim_to_string (const PvDimExpr *e)
{
  if (e == NULL)
    return g_strdup ("?");
  GString *s = g_string_new (NULL);
  print_expr (s, e);
  return g_string_free (s, FALSE);
}
