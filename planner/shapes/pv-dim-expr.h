/* pv-dim-expr.h: symbolic tensor dimensions.
 *
 * A dimension is an integer expression over named symbols (the model's
 * dim_params such as "batch", generated ones such as "input:1" or
 * "nonzero_0"): integer constants, sums, products, floor- and ceil-division
 * by positive constants, min and max. Expressions live in a PvDimPool and are
 * hash-consed in a canonical simplified form, so two expressions are equal
 * exactly when their pointers are equal:
 *
 *   - a sum is a sorted list of (coefficient, monomial) terms plus a constant;
 *     a monomial is a sorted product of atoms with exponents; atoms are
 *     symbols and the non-polynomial forms floor(e/c), min(a,b), max(a,b);
 *   - ceil(e/c) is stored as floor((e+c-1)/c);
 *   - everything constant folds; floor(e/c) with every coefficient of e
 *     divisible by c divides exactly; min/max of equal operands is the operand.
 *     More precisely floor((c*q + r)/c) = q + floor(r/c), where q collects the
 *     terms (and the constant) divisible by c; floor(g*r/(g*c)) = floor(r/c);
 *     floor(floor(e/c)/d) = floor(e/(c*d)); min/max of operands that differ
 *     by a constant (e, e+k) is the smaller/larger one.
 *
 * All orders are structural, never by address or creation order, so text is
 * the same across runs and however an expression was built: atoms are
 * symbols (bytewise by name), then floor, min and max (by operands); terms
 * are in lexicographic monomial order (a^2, a*b, a, b^2, b, ...), symbols
 * before floor/min/max, the constant last; min/max operands are sorted the
 * same way (pv_dim_compare()).
 *
 * int64 arithmetic is checked: every constructor returns NULL on int64
 * overflow (of a coefficient, the constant or an exponent), and NULL for a
 * NULL operand, so NULL flows through as "unknown".
 *
 * Symbols can be unified (a = b): pv_dim_pool_unify() records it and
 * pv_dim_pool_resolve() rewrites an expression with every symbol replaced by
 * its class representative: of the symbols in a class, the one created first
 * in the pool (by pv_dim_symbol() or pv_dim_fresh_symbol()) names it.
 *
 * Pools are not thread-safe; each inference run owns one. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PvDimPool PvDimPool;
typedef struct _PvDimExpr PvDimExpr;   /* immutable, owned by its pool */

PvDimPool *pv_dim_pool_new (void);
void pv_dim_pool_free (PvDimPool *pool);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvDimPool, pv_dim_pool_free)

/* From now on, arithmetic on dims follows ONNX's TensorShapeProto dims
 * (for ONNX Runtime's view of shapes): values compute as usual, x*1, x/1,
 * x+0 and x-0 stay x, and anything else with a non-constant operand is a
 * fresh symbol ("unk_<n>"), a dim ONNX knows nothing about. */
void pv_dim_pool_set_onnx_arithmetic (PvDimPool *pool, gboolean on);

/* Constructors; all return canonical expressions owned by @pool, NULL on
 * int64 overflow or when an operand is NULL. */
const PvDimExpr *pv_dim_const (PvDimPool *pool, gint64 value);
/* Any non-empty name, printed as is ("batch", "input:1"); NULL for NULL or "". */
const PvDimExpr *pv_dim_symbol (PvDimPool *pool, const char *name);
/* A new symbol "<prefix>_<n>" that no expression in the pool uses yet
 * (e.g. "nonzero_0", "nonzero_1"), for dims that cannot be known. Numbers
 * count up per prefix from 0, skipping names already created. */
const PvDimExpr *pv_dim_fresh_symbol (PvDimPool *pool, const char *prefix);
const PvDimExpr *pv_dim_add (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b);
const PvDimExpr *pv_dim_sub (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b);
const PvDimExpr *pv_dim_mul (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b);
/* floor(a / divisor) and ceil(a / divisor); @divisor must be > 0 (returns
 * NULL otherwise). Division by a non-constant is not representable: callers
 * use pv_dim_div_expr(), which succeeds only when the result is exact. */
const PvDimExpr *pv_dim_floor_div (PvDimPool *pool, const PvDimExpr *a, gint64 divisor);
const PvDimExpr *pv_dim_ceil_div (PvDimPool *pool, const PvDimExpr *a, gint64 divisor);
/* a / b when b divides a exactly as polynomials (e.g. (batch*seq*768)/(seq*768)
 * = batch, (a*c+b*c)/(a+b) = c), or both are constants and b divides a; NULL
 * otherwise (including b == 0). floor/min/max atoms count as opaque
 * variables here. */
const PvDimExpr *pv_dim_div_expr (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b);
const PvDimExpr *pv_dim_min (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b);
const PvDimExpr *pv_dim_max (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b);

/* Queries. */
gboolean pv_dim_is_const (const PvDimExpr *e, gint64 *value_out); /* value_out may be NULL */
/* The symbol name when @e is exactly one symbol, else NULL. */
const char *pv_dim_symbol_name (const PvDimExpr *e);
/* The canonical total order (<0, 0, >0), the one printing uses: structural,
 * stable across runs; 0 exactly when a == b. NULL sorts first. */
int pv_dim_compare (const PvDimExpr *a, const PvDimExpr *b);

/* Unification, on the resolved forms of @a and @b. Returns FALSE (and records
 * nothing) when the two cannot be equal: two different constants (e.g. two
 * classes bound to different constants), or e and e+k with k != 0. Unifying
 * two symbols merges their classes (the representative is the class member
 * created first in the pool); a symbol with a constant binds its class to
 * it. Other expression pairs (and NULL) are accepted and not recorded. */
gboolean pv_dim_pool_unify (PvDimPool *pool, const PvDimExpr *a, const PvDimExpr *b);
/* @e with unified symbols replaced by their representative (or constant),
 * re-simplified (a-b is 0 after unify(a,b)); memoized until the next
 * recorded unification. NULL on int64 overflow. */
const PvDimExpr *pv_dim_pool_resolve (PvDimPool *pool, const PvDimExpr *e);
/* The representative name of @symbol's class ("batch" for "N" after
 * unify(N, batch) when "batch" was created first), or @symbol itself (also
 * for a name the pool has never seen). The class may also be bound to a
 * constant: pv_dim_pool_resolve() tells. */
const char *pv_dim_pool_representative (PvDimPool *pool, const char *symbol);

/* Evaluation: every symbol looked up in @bounds (char* -> GINT_TO_POINTER is
 * not enough for 64-bit, so values are gint64* owned by the caller). Returns
 * FALSE when a symbol is unbound or a value overflows; @missing_out (may be
 * NULL) then receives the first unbound symbol (NULL on overflow or a NULL
 * @e). Unifications are not applied: evaluate pv_dim_pool_resolve (pool, e)
 * to honour them. */
gboolean pv_dim_eval (const PvDimExpr *e, GHashTable *bounds, gint64 *value_out, const char **missing_out);

/* The symbols @e mentions added to @out (a set of const char*, e.g.
 * g_hash_table_new (g_str_hash, g_str_equal)); the names are owned by the
 * pool. */
void pv_dim_collect_symbols (const PvDimExpr *e, GHashTable *out);

/* Readable canonical text: "past+seq", "batch*seq", "floor((H-3)/2)+1",
 * "min(a,8)", "768", "2*a-b", "-x", "x^2+2*x+1"; "?" for NULL. Terms follow
 * the canonical order above (so "seq+past" prints as "past+seq"), the
 * constant comes last. Caller frees. */
char *pv_dim_to_string (const PvDimExpr *e);

G_END_DECLS
