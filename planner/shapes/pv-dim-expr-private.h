/* pv-dim-expr-private.h: the insides of PvDimExpr that its parts share:
 * pv-dim-expr.c (pool, hashing, orders, interning, constructors, queries),
 * pv-dim-expr-arith.c (arithmetic), pv-dim-expr-solve.c (unification and
 * resolution), pv-dim-expr-eval.c (evaluation and printing). Not for
 * callers outside planner/shapes: they include pv-dim-expr.h. */
#pragma once

#include "pv-dim-expr.h"

G_BEGIN_DECLS

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

/* Small growable buffers, on the stack while they fit. */
typedef struct
{
  PvDimTerm *v;
  guint n, cap;
  PvDimTerm inline_v[16];
} TermBuf;

typedef struct
{
  PvDimFactor *v;
  guint n, cap;
  PvDimFactor inline_v[16];
} FactorBuf;

/* Integer helpers. */
static inline gint64
floor_div_i64 (gint64 n, gint64 d) /* d > 0 */
{
  gint64 q = n / d;
  if (n % d != 0 && n < 0)
    q--;
  return q;
}

static inline guint64
abs_u64 (gint64 v)
{
  return v < 0 ? -(guint64) v : (guint64) v;
}

static inline guint64
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

/* Shared by the parts (pv-dim-expr.c defines them): orders, buffers,
 * interning and the canonical form. */
int _pv_dim_cmp_atom (const PvDimAtom *x, const PvDimAtom *y);
int _pv_dim_cmp_expr (const PvDimExpr *x, const PvDimExpr *y);
int _pv_dim_cmp_mono (const PvDimMono *x, const PvDimMono *y);
void _pv_dim_fb_clear (FactorBuf *b);
void _pv_dim_fb_init (FactorBuf *b);
void _pv_dim_fb_push (FactorBuf *b, const PvDimAtom *atom, guint32 exp);
const PvDimAtom *_pv_dim_intern_compound (PvDimPool *pool, AtomKind kind, const PvDimExpr *a, const PvDimExpr *b,
                                          gint64 divisor);
const PvDimExpr *_pv_dim_intern_expr (PvDimPool *pool, const PvDimTerm *t, guint n, gint64 constant);
const PvDimMono *_pv_dim_intern_mono (PvDimPool *pool, const PvDimFactor *f, guint n);
const PvDimExpr *_pv_dim_normalize (PvDimPool *pool, TermBuf *tb, gint64 constant);
const PvDimExpr *_pv_dim_onnx_unknown (PvDimPool *pool);
void _pv_dim_tb_clear (TermBuf *b);
void _pv_dim_tb_init (TermBuf *b);
void _pv_dim_tb_push (TermBuf *b, gint64 coef, const PvDimMono *mono);
const PvDimExpr *_pv_dim_min_max (PvDimPool *pool, AtomKind kind, const PvDimExpr *a, const PvDimExpr *b);
gboolean _pv_dim_same_terms (const PvDimExpr *a, const PvDimExpr *b);
const PvDimAtom *_pv_dim_single_atom (const PvDimExpr *e);

G_END_DECLS
