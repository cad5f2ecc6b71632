/* pv-dim-expr-eval.c: values of PvDimExprs under bounds, their symbols, and
 * their text. */
#include "pv-dim-expr-private.h"

#include <string.h>

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
