/* Symbolic dimensions: canonical forms, simplification, unification,
 * evaluation and printing. */
#include "pv-dim-expr.h"
#include "pv-test-seed.h"

#define C(v) pv_dim_const (pool, (v))
#define S(n) pv_dim_symbol (pool, (n))
#define ADD(x, y) pv_dim_add (pool, (x), (y))
#define SUB(x, y) pv_dim_sub (pool, (x), (y))
#define MUL(x, y) pv_dim_mul (pool, (x), (y))
#define FLOOR(x, d) pv_dim_floor_div (pool, (x), (d))
#define CEIL(x, d) pv_dim_ceil_div (pool, (x), (d))
#define DMIN(x, y) pv_dim_min (pool, (x), (y))
#define DMAX(x, y) pv_dim_max (pool, (x), (y))
#define DIV(x, y) pv_dim_div_expr (pool, (x), (y))

#define assert_text(e, text)                                                                                         \
  G_STMT_START                                                                                                       \
  {                                                                                                                  \
    g_autofree char *text_ = pv_dim_to_string (e);                                                                   \
    g_assert_cmpstr (text_, ==, (text));                                                                             \
  }                                                                                                                  \
  G_STMT_END

#define assert_const(e, v)                                                                                           \
  G_STMT_START                                                                                                       \
  {                                                                                                                  \
    gint64 value_ = G_MININT64;                                                                                      \
    g_assert_true (pv_dim_is_const ((e), &value_));                                                                  \
    g_assert_cmpint (value_, ==, (v));                                                                               \
  }                                                                                                                  \
  G_STMT_END

static GHashTable *
bounds_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

static void
bind (GHashTable *bounds, const char *name, gint64 value)
{
  g_hash_table_insert (bounds, g_strdup (name), g_memdup2 (&value, sizeof value));
}

static gint64
eval_ok (const PvDimExpr *e, GHashTable *bounds)
{
  gint64 v = 0;
  const char *missing = "x";
  g_assert_true (pv_dim_eval (e, bounds, &v, &missing));
  g_assert_null (missing);
  return v;
}

static void
test_canonical (void)
{
  g_autoptr (PvDimPool) pool = pv_dim_pool_new ();
  const PvDimExpr *a = S ("a"), *b = S ("b"), *c = S ("c");

  g_assert_true (S ("a") == a);
  g_assert_true (ADD (a, b) == ADD (b, a));
  g_assert_true (MUL (ADD (a, C (1)), b) == ADD (MUL (a, b), b));
  g_assert_true (SUB (MUL (C (2), a), a) == a);
  g_assert_true (SUB (a, a) == C (0));
  g_assert_true (SUB (ADD (a, b), b) == a);

  const PvDimExpr *abc = MUL (MUL (a, b), c);
  g_assert_true (MUL (MUL (a, c), b) == abc);
  g_assert_true (MUL (MUL (b, a), c) == abc);
  g_assert_true (MUL (MUL (b, c), a) == abc);
  g_assert_true (MUL (c, MUL (a, b)) == abc);
  g_assert_true (MUL (c, MUL (b, a)) == abc);

  /* Distribution and expansion. */
  g_assert_true (MUL (a, ADD (b, c)) == ADD (MUL (a, b), MUL (c, a)));
  const PvDimExpr *apb = ADD (a, b);
  g_assert_true (MUL (apb, apb) == ADD (ADD (MUL (a, a), MUL (C (2), MUL (a, b))), MUL (b, b)));
  g_assert_true (MUL (SUB (a, b), apb) == SUB (MUL (a, a), MUL (b, b)));

  /* Queries. */
  g_assert_cmpstr (pv_dim_symbol_name (a), ==, "a");
  g_assert_null (pv_dim_symbol_name (apb));
  g_assert_null (pv_dim_symbol_name (MUL (C (2), a)));
  g_assert_null (pv_dim_symbol_name (ADD (a, C (1))));
  g_assert_null (pv_dim_symbol_name (MUL (a, a)));
  g_assert_null (pv_dim_symbol_name (C (3)));
  g_assert_false (pv_dim_is_const (a, NULL));
  g_assert_true (pv_dim_is_const (C (7), NULL));
  g_assert_null (S (""));
  g_assert_null (S (NULL));

  /* The order is total and agrees with equality. */
  g_assert_cmpint (pv_dim_compare (a, a), ==, 0);
  g_assert_cmpint (pv_dim_compare (a, b), <, 0);
  g_assert_cmpint (pv_dim_compare (b, a), >, 0);
  g_assert_cmpint (pv_dim_compare (a, C (1)), <, 0);
  g_assert_cmpint (pv_dim_compare (NULL, a), <, 0);
}

static void
test_folding (void)
{
  g_autoptr (PvDimPool) pool = pv_dim_pool_new ();
  const PvDimExpr *x = S ("x");

  g_assert_true (ADD (C (2), C (3)) == C (5));
  g_assert_true (SUB (C (2), C (3)) == C (-1));
  g_assert_true (MUL (C (3), C (4)) == C (12));
  g_assert_true (MUL (x, C (1)) == x);
  g_assert_true (MUL (C (1), x) == x);
  g_assert_true (ADD (x, C (0)) == x);
  g_assert_true (ADD (C (0), x) == x);
  g_assert_true (MUL (x, C (0)) == C (0));
  g_assert_true (MUL (C (0), ADD (x, C (5))) == C (0));
  g_assert_true (SUB (ADD (x, C (3)), ADD (x, C (1))) == C (2));
  assert_const (MUL (ADD (C (2), C (3)), SUB (C (10), C (4))), 30);
  g_assert_true (MUL (MUL (C (2), x), C (3)) == MUL (C (6), x));
  g_assert_true (DMIN (C (3), C (5)) == C (3));
  g_assert_true (DMAX (C (3), C (5)) == C (5));
  g_assert_true (FLOOR (C (7), 2) == C (3));
}

static void
test_floor_ceil (void)
{
  g_autoptr (PvDimPool) pool = pv_dim_pool_new ();
  const PvDimExpr *x = S ("x"), *H = S ("H");

  /* Constants, including negatives: floor rounds down, ceil up. */
  assert_const (FLOOR (C (7), 2), 3);
  assert_const (FLOOR (C (-7), 2), -4);
  assert_const (FLOOR (C (-8), 2), -4);
  assert_const (FLOOR (C (-1), 3), -1);
  assert_const (FLOOR (C (0), 3), 0);
  assert_const (CEIL (C (7), 2), 4);
  assert_const (CEIL (C (-7), 2), -3);
  assert_const (CEIL (C (8), 2), 4);
  assert_const (CEIL (C (G_MAXINT64), 2), G_MAXINT64 / 2 + 1);
  assert_const (FLOOR (C (G_MININT64), 2), G_MININT64 / 2);

  /* Divisors must be positive; 1 is the identity. */
  g_assert_null (FLOOR (x, 0));
  g_assert_null (FLOOR (x, -2));
  g_assert_null (CEIL (x, 0));
  g_assert_true (FLOOR (x, 1) == x);
  g_assert_true (CEIL (x, 1) == x);

  /* Exact division and pulling out the divisible part. */
  g_assert_true (FLOOR (ADD (MUL (C (4), x), C (6)), 2) == ADD (MUL (C (2), x), C (3)));
  g_assert_true (FLOOR (ADD (MUL (C (6), x), C (1)), 3) == MUL (C (2), x));
  g_assert_true (FLOOR (ADD (MUL (C (6), x), C (4)), 3) == ADD (MUL (C (2), x), C (1)));
  g_assert_true (FLOOR (SUB (C (1), MUL (C (6), x)), 3) == MUL (C (-2), x));
  g_assert_true (FLOOR (ADD (MUL (C (6), x), H), 3) == ADD (MUL (C (2), x), FLOOR (H, 3)));
  g_assert_true (FLOOR (SUB (H, C (4)), 2) == SUB (FLOOR (H, 2), C (2)));
  g_assert_true (CEIL (MUL (C (4), x), 2) == MUL (C (2), x));
  /* Common factors cancel; nested floors merge. */
  g_assert_true (FLOOR (ADD (MUL (C (2), x), C (2)), 4) == FLOOR (ADD (x, C (1)), 2));
  g_assert_true (FLOOR (FLOOR (H, 2), 2) == FLOOR (H, 4));
  g_assert_true (FLOOR (ADD (FLOOR (H, 2), C (1)), 3) == FLOOR (ADD (H, C (2)), 6));
  g_assert_true (CEIL (CEIL (H, 2), 2) == CEIL (H, 4));

  assert_text (FLOOR (SUB (H, C (3)), 2), "floor((H-3)/2)");
  assert_text (FLOOR (H, 2), "floor(H/2)");
  assert_text (CEIL (H, 2), "floor((H+1)/2)");
  assert_text (FLOOR (MUL (C (-1), x), 3), "floor(-x/3)");
  assert_text (FLOOR (MUL (C (2), x), 3), "floor(2*x/3)");
  g_assert_true (FLOOR (SUB (H, C (3)), 2) == FLOOR (ADD (H, C (-3)), 2));
  g_assert_true (FLOOR (SUB (H, C (3)), 2) != FLOOR (SUB (H, C (3)), 3));

  /* Evaluation of floor with negative numerators. */
  g_autoptr (GHashTable) bounds = bounds_new ();
  bind (bounds, "H", -7);
  g_assert_cmpint (eval_ok (FLOOR (H, 2), bounds), ==, -4);
  g_assert_cmpint (eval_ok (CEIL (H, 2), bounds), ==, -3);
}

static void
test_conv_formula (void)
{
  g_autoptr (PvDimPool) pool = pv_dim_pool_new ();
  const PvDimExpr *H = S ("H");
  gint64 pad = 1, kernel = 3, stride = 2;

  /* floor((H + 2*pad - kernel) / stride) + 1 */
  const PvDimExpr *out = ADD (FLOOR (SUB (ADD (H, MUL (C (2), C (pad))), C (kernel)), stride), C (1));
  assert_text (out, "floor((H-1)/2)+1");

  g_autoptr (GHashTable) bounds = bounds_new ();
  bind (bounds, "H", 224);
  g_assert_cmpint (eval_ok (out, bounds), ==, 112);

  const PvDimExpr *no_pad = ADD (FLOOR (SUB (H, C (3)), 2), C (1));
  assert_text (no_pad, "floor((H-3)/2)+1");
  g_assert_cmpint (eval_ok (no_pad, bounds), ==, 111);

  /* Same-padding output size: ceil(H / stride). */
  g_assert_cmpint (eval_ok (CEIL (H, 2), bounds), ==, 112);
}

static void
test_div_expr (void)
{
  g_autoptr (PvDimPool) pool = pv_dim_pool_new ();
  const PvDimExpr *batch = S ("batch"), *seq = S ("seq"), *past = S ("past");
  const PvDimExpr *a = S ("a"), *b = S ("b"), *c = S ("c");

  g_assert_true (DIV (MUL (MUL (batch, seq), C (768)), MUL (seq, C (768))) == batch);
  g_assert_true (DIV (MUL (MUL (batch, seq), C (768)), C (768)) == MUL (batch, seq));
  g_assert_true (DIV (MUL (MUL (batch, seq), C (768)), C (64)) == MUL (C (12), MUL (batch, seq)));
  g_assert_null (DIV (MUL (MUL (batch, seq), C (768)), C (500)));
  g_assert_null (DIV (a, b));
  g_assert_null (DIV (MUL (C (6), a), MUL (C (4), a)));
  g_assert_null (DIV (a, MUL (a, b)));
  g_assert_true (DIV (a, a) == C (1));
  g_assert_true (DIV (C (0), a) == C (0));
  g_assert_null (DIV (a, C (0)));
  g_assert_null (DIV (C (5), C (0)));

  /* Constants. */
  g_assert_true (DIV (C (12), C (4)) == C (3));
  g_assert_true (DIV (C (-12), C (4)) == C (-3));
  g_assert_true (DIV (C (12), C (-4)) == C (-3));
  g_assert_null (DIV (C (12), C (5)));
  g_assert_null (DIV (C (G_MININT64), C (-1)));
  g_assert_true (DIV (ADD (MUL (C (4), a), C (6)), C (-2)) == SUB (C (-3), MUL (C (2), a)));

  /* Multi-term divisors: constant multiples and exact polynomial division. */
  const PvDimExpr *apb = ADD (a, b);
  g_assert_true (DIV (ADD (MUL (C (2), a), MUL (C (2), b)), apb) == C (2));
  g_assert_true (DIV (MUL (apb, c), apb) == c);
  g_assert_true (DIV (SUB (MUL (a, a), MUL (b, b)), SUB (a, b)) == apb);
  g_assert_null (DIV (ADD (apb, C (1)), apb));
  g_assert_null (DIV (MUL (a, a), apb));
  const PvDimExpr *total = MUL (MUL (batch, ADD (past, seq)), C (768));
  g_assert_true (DIV (total, MUL (ADD (past, seq), C (64))) == MUL (C (12), batch));
  g_assert_true (DIV (total, MUL (batch, C (768))) == ADD (past, seq));
  const PvDimExpr *q = ADD (MUL (a, b), ADD (c, C (3)));
  const PvDimExpr *d = ADD (SUB (MUL (C (2), a), c), C (1));
  g_assert_true (DIV (MUL (q, d), d) == q);
  g_assert_true (DIV (MUL (q, d), q) == d);

  /* floor/min/max are opaque variables. */
  const PvDimExpr *f = FLOOR (a, 2);
  g_assert_true (DIV (MUL (f, ADD (b, C (1))), ADD (b, C (1))) == f);
  g_assert_null (DIV (a, f));
}

static void
test_min_max (void)
{
  g_autoptr (PvDimPool) pool = pv_dim_pool_new ();
  const PvDimExpr *a = S ("a"), *b = S ("b");

  g_assert_true (DMIN (C (3), C (5)) == C (3));
  g_assert_true (DMAX (C (-3), C (-5)) == C (-3));
  g_assert_true (DMIN (a, a) == a);
  g_assert_true (DMAX (a, a) == a);
  g_assert_true (DMIN (a, b) == DMIN (b, a));
  g_assert_true (DMAX (a, b) == DMAX (b, a));
  g_assert_true (DMIN (a, b) != DMAX (a, b));
  g_assert_true (DMIN (a, C (8)) == DMIN (C (8), a));
  g_assert_true (DMAX (a, ADD (a, C (1))) == ADD (a, C (1)));
  g_assert_true (DMIN (ADD (a, C (1)), a) == a);
  g_assert_null (DMIN (a, NULL));
  g_assert_null (pv_dim_symbol_name (DMIN (a, b)));
  assert_text (DMIN (a, C (8)), "min(a,8)");
  assert_text (DMIN (C (8), a), "min(a,8)");
  assert_text (DMAX (b, a), "max(a,b)");
  assert_text (ADD (DMIN (a, b), C (1)), "min(a,b)+1");
  assert_text (MUL (C (2), DMAX (ADD (a, C (1)), MUL (b, C (3)))), "2*max(a+1,3*b)");

  g_autoptr (GHashTable) bounds = bounds_new ();
  bind (bounds, "a", 10);
  bind (bounds, "b", 4);
  g_assert_cmpint (eval_ok (DMIN (a, C (8)), bounds), ==, 8);
  g_assert_cmpint (eval_ok (DMAX (a, b), bounds), ==, 10);
  g_assert_cmpint (eval_ok (DMIN (a, b), bounds), ==, 4);
}

static void
test_fresh_symbols (void)
{
  g_autoptr (PvDimPool) pool = pv_dim_pool_new ();

  g_assert_cmpstr (pv_dim_symbol_name (pv_dim_fresh_symbol (pool, "nonzero")), ==, "nonzero_0");
  g_assert_cmpstr (pv_dim_symbol_name (pv_dim_fresh_symbol (pool, "nonzero")), ==, "nonzero_1");
  g_assert_cmpstr (pv_dim_symbol_name (pv_dim_fresh_symbol (pool, "unique")), ==, "unique_0");
  /* Names already in the pool are skipped. */
  S ("nonzero_2");
  S ("nonzero_3");
  S ("topk_0");
  g_assert_cmpstr (pv_dim_symbol_name (pv_dim_fresh_symbol (pool, "nonzero")), ==, "nonzero_4");
  g_assert_cmpstr (pv_dim_symbol_name (pv_dim_fresh_symbol (pool, "topk")), ==, "topk_1");
  g_assert_cmpstr (pv_dim_symbol_name (pv_dim_fresh_symbol (pool, "nonzero")), ==, "nonzero_5");
  /* A fresh symbol is an ordinary symbol afterwards. */
  g_assert_cmpstr (pv_dim_symbol_name (S ("nonzero_0")), ==, "nonzero_0");
  g_assert_null (pv_dim_fresh_symbol (pool, NULL));
}

static void
test_unify (void)
{
  g_autoptr (PvDimPool) pool = pv_dim_pool_new ();
  const PvDimExpr *a = S ("a"), *b = S ("b"), *c = S ("c");

  g_assert_true (pv_dim_pool_resolve (pool, SUB (a, b)) == SUB (a, b));
  g_assert_true (pv_dim_pool_unify (pool, a, b));
  g_assert_true (pv_dim_pool_resolve (pool, SUB (a, b)) == C (0));
  g_assert_true (pv_dim_pool_resolve (pool, b) == a);
  g_assert_true (pv_dim_pool_resolve (pool, MUL (a, b)) == MUL (a, a));
  g_assert_true (pv_dim_pool_resolve (pool, FLOOR (ADD (a, b), 2)) == a);
  g_assert_true (pv_dim_pool_resolve (pool, DMIN (a, b)) == a);
  g_assert_true (pv_dim_pool_resolve (pool, DMAX (ADD (b, C (1)), a)) == ADD (a, C (1)));
  g_assert_cmpstr (pv_dim_pool_representative (pool, "b"), ==, "a");
  g_assert_cmpstr (pv_dim_pool_representative (pool, "a"), ==, "a");
  g_assert_cmpstr (pv_dim_pool_representative (pool, "c"), ==, "c");
  g_assert_cmpstr (pv_dim_pool_representative (pool, "never-seen"), ==, "never-seen");

  /* Binding to a constant; conflicting constants are refused. */
  g_assert_true (pv_dim_pool_unify (pool, c, C (3)));
  g_assert_true (pv_dim_pool_resolve (pool, MUL (c, a)) == MUL (C (3), a));
  g_assert_true (pv_dim_pool_unify (pool, c, C (3)));
  g_assert_false (pv_dim_pool_unify (pool, c, C (4)));
  g_assert_false (pv_dim_pool_unify (pool, C (4), c));
  g_assert_true (pv_dim_pool_resolve (pool, c) == C (3));
  g_assert_false (pv_dim_pool_unify (pool, C (1), C (2)));
  g_assert_true (pv_dim_pool_unify (pool, C (2), C (2)));
  /* e and e+k can never be equal. */
  g_assert_false (pv_dim_pool_unify (pool, a, ADD (b, C (1))));
  /* Other pairs are accepted and not recorded. */
  const PvDimExpr *d = S ("d"), *e = S ("e");
  g_assert_true (pv_dim_pool_unify (pool, ADD (d, e), S ("f")));
  g_assert_true (pv_dim_pool_resolve (pool, S ("f")) == S ("f"));
  g_assert_true (pv_dim_pool_unify (pool, NULL, d));

  /* Classes bound to different constants cannot merge; the same can. */
  g_assert_true (pv_dim_pool_unify (pool, d, C (5)));
  g_assert_true (pv_dim_pool_unify (pool, e, C (6)));
  g_assert_false (pv_dim_pool_unify (pool, d, e));
  g_assert_true (pv_dim_pool_unify (pool, S ("g"), C (5)));
  g_assert_true (pv_dim_pool_unify (pool, S ("g"), d));
  /* A bound class keeps its constant when merged with an unbound one. */
  const PvDimExpr *h = S ("h");
  g_assert_true (pv_dim_pool_unify (pool, h, e));
  g_assert_true (pv_dim_pool_resolve (pool, h) == C (6));
  g_assert_cmpstr (pv_dim_pool_representative (pool, "h"), ==, "e");
  g_assert_false (pv_dim_pool_unify (pool, h, C (7)));
  g_assert_true (pv_dim_pool_resolve (pool, ADD (h, a)) == ADD (a, C (6)));
}

static void
test_representative (void)
{
  g_autoptr (PvDimPool) pool = pv_dim_pool_new ();

  /* The class member created first names the class, whatever the argument
   * order and however the classes grew. */
  const PvDimExpr *batch = S ("batch"), *N = S ("N"), *n0 = pv_dim_fresh_symbol (pool, "nonzero");
  const PvDimExpr *p = S ("p"), *q = S ("q");
  g_assert_true (pv_dim_pool_unify (pool, N, batch));
  g_assert_cmpstr (pv_dim_pool_representative (pool, "N"), ==, "batch");
  g_assert_true (pv_dim_pool_unify (pool, n0, N));
  g_assert_cmpstr (pv_dim_pool_representative (pool, "nonzero_0"), ==, "batch");
  g_assert_true (pv_dim_pool_unify (pool, q, p));
  g_assert_cmpstr (pv_dim_pool_representative (pool, "q"), ==, "p");
  g_assert_true (pv_dim_pool_unify (pool, q, n0));
  g_assert_cmpstr (pv_dim_pool_representative (pool, "p"), ==, "batch");
  g_assert_cmpstr (pv_dim_pool_representative (pool, "q"), ==, "batch");
  g_assert_true (pv_dim_pool_resolve (pool, ADD (MUL (N, q), p)) == ADD (MUL (batch, batch), batch));
  assert_text (pv_dim_pool_resolve (pool, ADD (MUL (N, q), p)), "batch^2+batch");
  g_assert_true (pv_dim_pool_unify (pool, N, C (2)));
  g_assert_true (pv_dim_pool_resolve (pool, ADD (MUL (N, q), p)) == C (6));
  g_assert_cmpstr (pv_dim_pool_representative (pool, "q"), ==, "batch");
}

static void
test_eval (void)
{
  g_autoptr (PvDimPool) pool = pv_dim_pool_new ();
  g_autoptr (GHashTable) bounds = bounds_new ();
  const PvDimExpr *e = ADD (MUL (S ("a"), S ("b")), DMIN (S ("c"), C (4)));
  const char *missing = NULL;
  gint64 v = -1;

  bind (bounds, "a", 3);
  g_assert_false (pv_dim_eval (e, bounds, &v, &missing));
  g_assert_cmpstr (missing, ==, "b");
  bind (bounds, "b", 5);
  g_assert_false (pv_dim_eval (e, bounds, &v, &missing));
  g_assert_cmpstr (missing, ==, "c");
  g_assert_false (pv_dim_eval (e, bounds, NULL, NULL));
  bind (bounds, "c", 9);
  g_assert_true (pv_dim_eval (e, bounds, &v, &missing));
  g_assert_cmpint (v, ==, 19);
  g_assert_null (missing);

  g_assert_true (pv_dim_eval (C (42), NULL, &v, NULL));
  g_assert_cmpint (v, ==, 42);
  g_assert_false (pv_dim_eval (S ("a"), NULL, &v, &missing));
  g_assert_cmpstr (missing, ==, "a");
  g_assert_false (pv_dim_eval (NULL, bounds, &v, &missing));
  g_assert_null (missing);

  /* Powers, and overflow during evaluation. */
  g_assert_cmpint (eval_ok (MUL (MUL (S ("a"), S ("a")), S ("a")), bounds), ==, 27);
  bind (bounds, "big", G_MAXINT64 / 2 + 1);
  missing = "x";
  g_assert_false (pv_dim_eval (MUL (C (2), S ("big")), bounds, &v, &missing));
  g_assert_null (missing);
  g_assert_false (pv_dim_eval (MUL (S ("big"), S ("big")), bounds, &v, &missing));
  g_assert_false (pv_dim_eval (ADD (S ("big"), S ("big")), bounds, &v, &missing));
  g_assert_cmpint (eval_ok (SUB (S ("big"), C (1)), bounds), ==, G_MAXINT64 / 2);
  bind (bounds, "one", -1);
  const PvDimExpr *p = C (1);
  for (int i = 0; i < 7; i++)
    p = MUL (p, p == C (1) ? S ("one") : p);
  g_assert_cmpint (eval_ok (p, bounds), ==, 1); /* one^64 */

  /* Unifications apply through resolve only. */
  g_assert_true (pv_dim_pool_unify (pool, S ("z"), S ("a")));
  g_assert_false (pv_dim_eval (S ("z"), bounds, &v, &missing));
  g_assert_cmpint (eval_ok (pv_dim_pool_resolve (pool, S ("z")), bounds), ==, 3);
}

static void
test_overflow (void)
{
  g_autoptr (PvDimPool) pool = pv_dim_pool_new ();
  const PvDimExpr *x = S ("x"), *big = C (G_MAXINT64);

  g_assert_null (ADD (big, C (1)));
  g_assert_nonnull (ADD (big, C (0)));
  g_assert_null (SUB (C (G_MININT64), C (1)));
  g_assert_null (SUB (C (0), C (G_MININT64)));
  g_assert_null (MUL (big, C (2)));
  g_assert_null (MUL (C (G_MININT64), C (-1)));
  g_assert_null (MUL (MUL (x, big), C (2)));
  g_assert_null (MUL (MUL (x, big), MUL (x, C (2))));
  g_assert_null (ADD (MUL (x, big), x));
  g_assert_null (SUB (MUL (x, C (G_MININT64)), x));
  g_assert_null (MUL (ADD (x, big), ADD (x, C (2))));
  g_assert_null (CEIL (ADD (x, big), 2));
  g_assert_nonnull (FLOOR (ADD (x, big), 2));
  g_assert_null (DIV (MUL (x, C (G_MININT64)), C (-1)));

  /* NULL propagates. */
  g_assert_null (ADD (NULL, x));
  g_assert_null (MUL (x, NULL));
  g_assert_null (SUB (NULL, NULL));
  g_assert_null (FLOOR (NULL, 2));
  g_assert_null (CEIL (NULL, 2));
  g_assert_null (DMAX (NULL, x));
  g_assert_null (DIV (NULL, x));
  g_assert_null (DIV (x, NULL));
  g_assert_null (pv_dim_pool_resolve (pool, NULL));
  g_assert_false (pv_dim_is_const (NULL, NULL));
  g_assert_null (pv_dim_symbol_name (NULL));
  assert_text (NULL, "?");

  /* Extremes that do fit. */
  assert_text (C (G_MININT64), "-9223372036854775808");
  assert_text (MUL (x, C (G_MININT64)), "-9223372036854775808*x");
  assert_text (ADD (x, C (G_MININT64)), "x-9223372036854775808");

  /* Overflow when resolving. */
  const PvDimExpr *y = S ("y");
  const PvDimExpr *e = MUL (MUL (x, y), C (G_MAXINT64 / 4));
  g_assert_nonnull (e);
  g_assert_true (pv_dim_pool_unify (pool, y, C (8)));
  g_assert_null (pv_dim_pool_resolve (pool, e));
}

static void
test_printing (void)
{
  g_autoptr (PvDimPool) pool = pv_dim_pool_new ();
  const PvDimExpr *a = S ("a"), *b = S ("b"), *x = S ("x"), *H = S ("H");

  assert_text (C (768), "768");
  assert_text (C (-5), "-5");
  assert_text (C (0), "0");
  assert_text (x, "x");
  assert_text (MUL (S ("batch"), S ("seq")), "batch*seq");
  assert_text (MUL (S ("seq"), S ("batch")), "batch*seq");
  assert_text (ADD (S ("seq"), S ("past")), "past+seq");
  assert_text (MUL (C (768), MUL (S ("seq"), S ("batch"))), "768*batch*seq");
  assert_text (SUB (H, C (3)), "H-3");
  assert_text (ADD (C (3), H), "H+3");
  assert_text (SUB (MUL (C (2), a), b), "2*a-b");
  assert_text (SUB (b, MUL (C (2), a)), "-2*a+b");
  assert_text (SUB (C (0), x), "-x");
  assert_text (SUB (C (1), x), "-x+1");
  assert_text (MUL (x, x), "x^2");
  assert_text (MUL (ADD (x, C (1)), ADD (x, C (1))), "x^2+2*x+1");
  assert_text (MUL (MUL (a, b), MUL (a, C (-3))), "-3*a^2*b");
  assert_text (ADD (ADD (MUL (a, b), a), ADD (b, MUL (b, b))), "a*b+a+b^2+b");
  assert_text (ADD (FLOOR (SUB (H, C (3)), 2), C (1)), "floor((H-3)/2)+1");
  assert_text (SUB (MUL (C (3), FLOOR (x, 2)), x), "-x+3*floor(x/2)");
  assert_text (FLOOR (MUL (a, b), 4), "floor(a*b/4)");
  assert_text (FLOOR (DMIN (a, b), 2), "floor(min(a,b)/2)");
  assert_text (MUL (FLOOR (x, 2), FLOOR (x, 2)), "floor(x/2)^2");
  assert_text (ADD (DMAX (a, b), DMIN (a, b)), "min(a,b)+max(a,b)");
  assert_text (ADD (FLOOR (a, 2), a), "a+floor(a/2)");
  assert_text (DMIN (ADD (a, b), a), "min(a+b,a)");
  assert_text (DMIN (MUL (C (2), a), a), "min(a,2*a)");
  /* Symbols that are not identifiers print as they are. */
  assert_text (MUL (C (2), S ("input:1")), "2*input:1");
  assert_text (ADD (S ("unk 2"), C (1)), "unk 2+1");
  assert_text (MUL (S ("Ä"), S ("B")), "B*Ä");
}

/* Expressions built in different orders, in pools with different histories,
 * print the same. */
static GPtrArray *
build_family (PvDimPool *pool, gboolean reversed)
{
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);
  const char *names[] = { "batch", "seq", "past", "H", "W", "c_in", "nonzero_0" };
  const PvDimExpr *s[G_N_ELEMENTS (names)];

  if (reversed)
    {
      /* Create symbols in the other order, plus unrelated clutter. */
      for (int i = G_N_ELEMENTS (names) - 1; i >= 0; i--)
        {
          s[i] = S (names[i]);
          FLOOR (MUL (s[i], C (i + 3)), 7);
          DMIN (s[i], C (i));
        }
    }
  else
    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      s[i] = S (names[i]);

#define PAIR(f, x, y) (reversed ? f (y, x) : f (x, y))
  const PvDimExpr *batch = s[0], *seq = s[1], *past = s[2], *H = s[3], *W = s[4], *cin = s[5], *nz = s[6];
  const PvDimExpr *total = PAIR (ADD, seq, past);
  const PvDimExpr *hw = PAIR (MUL, FLOOR (SUB (H, C (3)), 2), FLOOR (ADD (W, C (1)), 2));
  const PvDimExpr *list[] = {
    total,
    PAIR (MUL, PAIR (MUL, batch, total), C (768)),
    PAIR (MUL, hw, PAIR (MUL, batch, cin)),
    PAIR (DMIN, PAIR (DMAX, H, W), PAIR (ADD, nz, C (1))),
    PAIR (ADD, PAIR (DMIN, seq, past), PAIR (DMAX, past, seq)),
    SUB (PAIR (MUL, total, total), PAIR (MUL, seq, seq)),
    FLOOR (PAIR (ADD, PAIR (DMIN, H, W), PAIR (DMAX, cin, nz)), 3),
    CEIL (PAIR (ADD, PAIR (MUL, H, W), cin), 4),
    PAIR (ADD, hw, PAIR (DMIN, hw, PAIR (MUL, H, W))),
    PAIR (MUL, PAIR (DMAX, H, C (1)), PAIR (DMIN, W, C (1))),
  };
#undef PAIR
  for (guint i = 0; i < G_N_ELEMENTS (list); i++)
    {
      g_assert_nonnull (list[i]);
      g_ptr_array_add (texts, pv_dim_to_string (list[i]));
    }
  return texts;
}

static void
test_determinism (void)
{
  g_autoptr (PvDimPool) pool1 = pv_dim_pool_new ();
  g_autoptr (PvDimPool) pool2 = pv_dim_pool_new ();
  g_autoptr (GPtrArray) t1 = build_family (pool1, FALSE);
  g_autoptr (GPtrArray) t2 = build_family (pool2, TRUE);

  g_assert_cmpuint (t1->len, ==, t2->len);
  for (guint i = 0; i < t1->len; i++)
    g_assert_cmpstr (t1->pdata[i], ==, t2->pdata[i]);
  g_assert_cmpstr (t1->pdata[1], ==, "768*batch*past+768*batch*seq");
  g_assert_cmpstr (t1->pdata[3], ==, "min(nonzero_0+1,max(H,W))");
  g_assert_cmpstr (t1->pdata[5], ==, "past^2+2*past*seq");
}

static void
test_collect_symbols (void)
{
  g_autoptr (PvDimPool) pool = pv_dim_pool_new ();
  g_autoptr (GHashTable) set = g_hash_table_new (g_str_hash, g_str_equal);
  const PvDimExpr *e = ADD (MUL (S ("a"), FLOOR (ADD (S ("b"), C (1)), 2)), DMIN (S ("c"), DMAX (S ("a"), S ("d"))));

  pv_dim_collect_symbols (e, set);
  g_assert_cmpuint (g_hash_table_size (set), ==, 4);
  g_assert_true (g_hash_table_contains (set, "a"));
  g_assert_true (g_hash_table_contains (set, "b"));
  g_assert_true (g_hash_table_contains (set, "c"));
  g_assert_true (g_hash_table_contains (set, "d"));
  pv_dim_collect_symbols (C (3), set);
  pv_dim_collect_symbols (NULL, set);
  g_assert_cmpuint (g_hash_table_size (set), ==, 4);
}

/* ---- randomized: simplification keeps values, commuted builds are equal ---- */

enum
{
  OP_CONST,
  OP_SYM,
  OP_ADD,
  OP_SUB,
  OP_MUL,
  OP_FLOOR,
  OP_CEIL,
  OP_MIN,
  OP_MAX,
  N_OPS
};

typedef struct Node Node;
struct Node
{
  int op;
  gint64 k;                     /* constant, symbol index or divisor */
  Node *l, *r;
};

static const char *const rand_syms[] = { "a", "b", "c" };

static Node *
node_random (GRand *rand, int depth)
{
  Node *n = g_new0 (Node, 1);

  n->op = depth == 0 ? g_rand_int_range (rand, OP_CONST, OP_SYM + 1) : g_rand_int_range (rand, OP_CONST, N_OPS);
  switch (n->op)
    {
    case OP_CONST:
      n->k = g_rand_int_range (rand, -6, 7);
      break;
    case OP_SYM:
      n->k = g_rand_int_range (rand, 0, G_N_ELEMENTS (rand_syms));
      break;
    case OP_FLOOR:
    case OP_CEIL:
      n->k = g_rand_int_range (rand, 1, 5);
      n->l = node_random (rand, depth - 1);
      break;
    default:
      n->l = node_random (rand, depth - 1);
      n->r = node_random (rand, depth - 1);
      break;
    }
  return n;
}

static void
node_free (Node *n)
{
  if (n == NULL)
    return;
  node_free (n->l);
  node_free (n->r);
  g_free (n);
}

static gint64
floor_i (gint64 a, gint64 d)
{
  gint64 q = a / d;
  return (a % d != 0 && a < 0) ? q - 1 : q;
}

static gint64
node_eval (const Node *n, const gint64 *vals)
{
  switch (n->op)
    {
    case OP_CONST:
      return n->k;
    case OP_SYM:
      return vals[n->k];
    case OP_ADD:
      return node_eval (n->l, vals) + node_eval (n->r, vals);
    case OP_SUB:
      return node_eval (n->l, vals) - node_eval (n->r, vals);
    case OP_MUL:
      return node_eval (n->l, vals) * node_eval (n->r, vals);
    case OP_FLOOR:
      return floor_i (node_eval (n->l, vals), n->k);
    case OP_CEIL:
      return -floor_i (-node_eval (n->l, vals), n->k);
    case OP_MIN:
      return MIN (node_eval (n->l, vals), node_eval (n->r, vals));
    default:
      return MAX (node_eval (n->l, vals), node_eval (n->r, vals));
    }
}

/* @swap builds commutative operations the other way round. */
static const PvDimExpr *
node_build (PvDimPool *pool, const Node *n, gboolean swap)
{
  const PvDimExpr *l = n->l != NULL ? node_build (pool, n->l, swap) : NULL;
  const PvDimExpr *r = n->r != NULL ? node_build (pool, n->r, swap) : NULL;
  const PvDimExpr *x = swap ? r : l, *y = swap ? l : r;

  switch (n->op)
    {
    case OP_CONST:
      return C (n->k);
    case OP_SYM:
      return S (rand_syms[n->k]);
    case OP_ADD:
      return ADD (x, y);
    case OP_SUB:
      return SUB (l, r);
    case OP_MUL:
      return MUL (x, y);
    case OP_FLOOR:
      return FLOOR (l, n->k);
    case OP_CEIL:
      return CEIL (l, n->k);
    case OP_MIN:
      return DMIN (x, y);
    default:
      return DMAX (x, y);
    }
}

static void
test_random (void)
{
  g_autoptr (PvDimPool) pool = pv_dim_pool_new ();
  g_autoptr (PvDimPool) other = pv_dim_pool_new ();
  g_autoptr (GHashTable) bounds = bounds_new ();
  GRand *rand = pv_test_rand_new (20240611);

  for (int iter = 0; iter < 3000; iter++)
    {
      Node *n = node_random (rand, g_rand_int_range (rand, 1, 5));
      Node *m = node_random (rand, g_rand_int_range (rand, 0, 3));
      const PvDimExpr *e = node_build (pool, n, FALSE);
      const PvDimExpr *f = node_build (pool, m, FALSE);

      g_assert_nonnull (e);
      g_assert_true (node_build (pool, n, TRUE) == e);
      {
        g_autofree char *t1 = pv_dim_to_string (e);
        g_autofree char *t2 = pv_dim_to_string (node_build (other, n, TRUE));
        g_assert_cmpstr (t1, ==, t2);
      }
      for (int trial = 0; trial < 4; trial++)
        {
          gint64 vals[G_N_ELEMENTS (rand_syms)];
          for (guint i = 0; i < G_N_ELEMENTS (rand_syms); i++)
            {
              vals[i] = g_rand_int_range (rand, -9, 10);
              bind (bounds, rand_syms[i], vals[i]);
            }
          g_assert_cmpint (eval_ok (e, bounds), ==, node_eval (n, vals));
        }

      /* e*f / f == e whenever f is not 0. */
      if (f != C (0))
        {
          const PvDimExpr *ef = MUL (e, f);
          g_assert_true (DIV (ef, f) == e);
          const PvDimExpr *q = DIV (ADD (ef, C (1)), f);
          if (q != NULL)
            g_assert_true (MUL (q, f) == ADD (ef, C (1)));
        }
      node_free (n);
      node_free (m);
    }

  /* Resolution agrees with evaluating under the unification. */
  for (int iter = 0; iter < 300; iter++)
    {
      g_autoptr (PvDimPool) p = pv_dim_pool_new ();
      Node *n = node_random (rand, 4);
      /* "a" is created first, so it represents the class {a, c}. */
      for (guint i = 0; i < G_N_ELEMENTS (rand_syms); i++)
        pv_dim_symbol (p, rand_syms[i]);
      const PvDimExpr *e = node_build (p, n, FALSE);
      g_assert_true (pv_dim_pool_unify (p, pv_dim_symbol (p, "c"), pv_dim_symbol (p, "a")));
      g_assert_true (pv_dim_pool_unify (p, pv_dim_symbol (p, "b"), pv_dim_const (p, 2)));
      const PvDimExpr *r = pv_dim_pool_resolve (p, e);
      g_assert_nonnull (r);
      g_autoptr (GHashTable) only_a = bounds_new ();
      gint64 va = g_rand_int_range (rand, -9, 10);
      gint64 vals[] = { va, 2, va };
      bind (only_a, "a", va);
      g_assert_cmpint (eval_ok (r, only_a), ==, node_eval (n, vals));
      g_assert_true (pv_dim_pool_resolve (p, r) == r);
      node_free (n);
    }
  g_rand_free (rand);
}

/* Many constructor calls in one pool, as a 100k-node graph would make. */
static void
test_stress (void)
{
  g_autoptr (PvDimPool) pool = pv_dim_pool_new ();
  const PvDimExpr *batch = S ("batch"), *acc = C (0);
  char name[32];

  for (int i = 0; i < 20000; i++)
    {
      g_snprintf (name, sizeof name, "d%d", i % 500);
      const PvDimExpr *h = S (name);
      const PvDimExpr *o = ADD (FLOOR (SUB (ADD (h, C (2)), C (3)), 1 + i % 4), C (1));
      const PvDimExpr *bytes = MUL (MUL (MUL (batch, o), o), C (4 * (i % 7 + 1)));
      g_assert_nonnull (bytes);
      g_assert_true (DIV (bytes, MUL (batch, o)) == MUL (o, C (4 * (i % 7 + 1))));
      if (i % 100 == 0)
        acc = ADD (acc, DMAX (bytes, C (64)));
      pv_dim_fresh_symbol (pool, "nonzero");
    }
  g_assert_nonnull (acc);
  g_assert_cmpstr (pv_dim_symbol_name (pv_dim_fresh_symbol (pool, "nonzero")), ==, "nonzero_20000");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dim-expr/canonical", test_canonical);
  g_test_add_func ("/dim-expr/folding", test_folding);
  g_test_add_func ("/dim-expr/floor-ceil", test_floor_ceil);
  g_test_add_func ("/dim-expr/conv-formula", test_conv_formula);
  g_test_add_func ("/dim-expr/div-expr", test_div_expr);
  g_test_add_func ("/dim-expr/min-max", test_min_max);
  g_test_add_func ("/dim-expr/fresh-symbols", test_fresh_symbols);
  g_test_add_func ("/dim-expr/unify", test_unify);
  g_test_add_func ("/dim-expr/representative", test_representative);
  g_test_add_func ("/dim-expr/eval", test_eval);
  g_test_add_func ("/dim-expr/overflow", test_overflow);
  g_test_add_func ("/dim-expr/printing", test_printing);
  g_test_add_func ("/dim-expr/determinism", test_determinism);
  g_test_add_func ("/dim-expr/collect-symbols", test_collect_symbols);
  g_test_add_func ("/dim-expr/random", test_random);
  g_test_add_func ("/dim-expr/stress", test_stress);
  return g_test_run ();
}
