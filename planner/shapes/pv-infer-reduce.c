/* pv-infer-reduce.c: shape rules for ONNX's reductions (Reduce*, with the
 * contents of small full reductions), ArgMax/ArgMin, and Einsum (its
 * equation parsed, ellipses broadcast). */
#include "pv-infer-rules-private.h"

/* ---- reductions ---- */

typedef enum {
  R_NONE,
  R_SUM,
  R_PROD,
  R_MAX,
  R_MIN,
} ReduceData;

/* Contents of a full reduction of a small 1-D or scalar input. */
static void
reduce_data (PvInferContext *ctx, const PvValueShape *x, ReduceData op)
{
  PvDimPool *pool = pv_infer_pool (ctx);
  const PvDimExpr *acc;

  if (op == R_NONE || x->data == NULL || x->n_data < 1 || x->n_data > MAX_DATA || x->rank > 1)
    return;
  acc = x->data[0];
  for (int i = 1; i < x->n_data && acc != NULL; i++)
    switch (op)
      {
      case R_SUM:
        acc = pv_dim_add (pool, acc, x->data[i]);
        break;
      case R_PROD:
        acc = pv_dim_mul (pool, acc, x->data[i]);
        break;
      case R_MAX:
        acc = pv_dim_max (pool, acc, x->data[i]);
        break;
      case R_MIN:
        acc = pv_dim_min (pool, acc, x->data[i]);
        break;
      case R_NONE:
      default:
        acc = NULL;
        break;
      }
  if (acc != NULL)
    pv_infer_set_output_data (ctx, 0, &acc, 1);
}

static gboolean
reduce_common (PvInferContext *ctx, const PvNode *node, ReduceData op)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvValueShape *axes_in = pv_infer_input (ctx, 1);
  gboolean keepdims = pv_infer_attr_int (node, "keepdims", 1) != 0;
  gboolean noop = pv_infer_attr_int (node, "noop_with_empty_axes", 0) != 0;
  PvDimPool *pool = pv_infer_pool (ctx);
  g_autofree const PvDimExpr **dims = NULL;
  g_autofree gboolean *reduced = NULL;
  gint64 *in_axes = NULL;
  const gint64 *attr_axes = NULL;
  const gint64 *axes = NULL;
  int n_axes, n = 0;

  if (x == NULL)
    return FALSE;
  /* axes: an attribute before opset 13 (ReduceSum) or 18 (the others), an
   * optional input since; whichever the node has. */
  if (axes_in != NULL)
    {
      n_axes = pv_infer_input_ints (ctx, 1, &in_axes);
      axes = in_axes;
      if (n_axes < 0 && axes_in->rank == 1 && pv_dim_is_const (axes_in->dims[0], NULL))
        {
          gint64 len;
          pv_dim_is_const (axes_in->dims[0], &len);
          if (len == 0)
            n_axes = 0;
        }
    }
  else
    {
      n_axes = pv_infer_attr_ints (node, "axes", &attr_axes);
      axes = attr_axes;
    }

  if (x->rank < 0)
    return set_like (ctx, 0, x->elem_type, x);

  if (n_axes == 0 && noop)
    {
      set_like (ctx, 0, x->elem_type, x);
      if (x->data != NULL && x->n_data <= MAX_DATA)
        pv_infer_set_output_data (ctx, 0, x->data, x->n_data);
      return TRUE;
    }
  dims = g_new0 (const PvDimExpr *, x->rank + 1);
  if (n_axes < 0)
    {
      /* The axes are not known: which dims become 1 is not known either. */
      gint64 len;
      if (keepdims)
        {
          for (int i = 0; i < x->rank; i++)
            {
              gint64 v;
              dims[i] = pv_dim_is_const (x->dims[i], &v) && v == 1 ? x->dims[i] : fresh_dim (ctx, node);
            }
          pv_infer_set_output (ctx, 0, x->elem_type, x->rank, dims);
        }
      else if (axes_in->rank == 1 && pv_dim_is_const (axes_in->dims[0], &len) && len > 0 && len <= x->rank)
        {
          /* As many dims go as there are (distinct) axes. */
          for (int i = 0; i < x->rank - len; i++)
            dims[i] = fresh_dim (ctx, node);
          pv_infer_set_output (ctx, 0, x->elem_type, x->rank - (int) len, dims);
        }
      else
        pv_infer_set_output (ctx, 0, x->elem_type, -1, NULL);
      return TRUE;
    }

  reduced = g_new0 (gboolean, x->rank + 1);
  if (n_axes == 0)
    for (int i = 0; i < x->rank; i++)
      reduced[i] = TRUE;
  for (int i = 0; i < n_axes; i++)
    {
      int a;
      if (!norm_axis (ctx, node, axes[i], x->rank, &a))
        return FALSE;
      reduced[a] = TRUE;
    }
  for (int i = 0; i < x->rank; i++)
    if (!reduced[i])
      dims[n++] = x->dims[i];
    else if (keepdims)
      dims[n++] = pv_dim_const (pool, 1);
  pv_infer_set_output (ctx, 0, x->elem_type, n, dims);
  if (x->rank <= 1)
    reduce_data (ctx, x, op);
  return TRUE;
}

#define REDUCE_RULE(fn, op)                                             \
  static gboolean fn (PvInferContext *ctx, const PvNode *node)          \
  {                                                                     \
    return reduce_common (ctx, node, op);                               \
  }

REDUCE_RULE (infer_reduce, R_NONE)
REDUCE_RULE (infer_reduce_sum, R_SUM)
REDUCE_RULE (infer_reduce_prod, R_PROD)
REDUCE_RULE (infer_reduce_max, R_MAX)
REDUCE_RULE (infer_reduce_min, R_MIN)

static gboolean
infer_arg_reduce (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  gboolean keepdims = pv_infer_attr_int (node, "keepdims", 1) != 0;
  g_autofree const PvDimExpr **dims = NULL;
  int axis, n = 0;

  if (x == NULL)
    return FALSE;
  if (x->rank < 0)
    {
      pv_infer_set_output (ctx, 0, PV_ELEM_INT64, -1, NULL);
      return TRUE;
    }
  if (!norm_axis (ctx, node, pv_infer_attr_int (node, "axis", 0), x->rank, &axis))
    return FALSE;
  dims = g_new0 (const PvDimExpr *, x->rank + 1);
  for (int i = 0; i < x->rank; i++)
    if (i != axis)
      dims[n++] = x->dims[i];
    else if (keepdims)
      dims[n++] = pv_dim_const (pv_infer_pool (ctx), 1);
  pv_infer_set_output (ctx, 0, PV_ELEM_INT64, n, dims);
  return TRUE;
}

/* ---- Einsum ---- */

#define EINSUM_MAX_ELLIPSIS 32

/* One term of an Einsum equation: labels in order, '.' standing for the
 * ellipsis. FALSE on a malformed term. */
static gboolean
einsum_parse_term (const char *s, GString *out, int *n_letters, gboolean *has_ellipsis)
{
  *n_letters = 0;
  *has_ellipsis = FALSE;
  g_string_truncate (out, 0);
  while (*s)
    {
      if (g_ascii_isalpha (*s))
        {
          g_string_append_c (out, *s++);
          (*n_letters)++;
        }
      else if (strncmp (s, "...", 3) == 0 && !*has_ellipsis)
        {
          g_string_append_c (out, '.');
          *has_ellipsis = TRUE;
          s += 3;
        }
      else
        return FALSE;
    }
  return TRUE;
}

/* What the operands of an Einsum say: each label's dim and count, the
 * ellipsis dims broadcast across operands. */
typedef struct {
  PvInferContext *ctx;
  const PvNode *node;
  const char *raw;              /* the equation as written */
  GString *term;                /* scratch: a term, ellipsis as '.' */
  const PvDimExpr *label_dim[128];
  int label_count[128];
  const PvDimExpr *ell[EINSUM_MAX_ELLIPSIS];
  int ell_rank, elem;
  gboolean any_ell, ell_unknown;
} Einsum;

/* The equation's operand terms (spaces dropped), and its output term in
 * @rhs (NULL when implicit). */
static char **
einsum_split (const char *raw, GString *eq, const char **rhs)
{
  char *arrow;
  char **terms;

  *rhs = NULL;
  for (const char *p = raw; *p; p++)
    if (!g_ascii_isspace (*p))
      g_string_append_c (eq, *p);
  if ((arrow = strstr (eq->str, "->")) != NULL)
    {
      *arrow = '\0';
      *rhs = arrow + 2;
    }
  if (eq->str[0] != '\0')
    return g_strsplit (eq->str, ",", -1);
  /* g_strsplit() gives no field for "": the scalar equation "->" has one. */
  terms = g_new0 (char *, 2);
  terms[0] = g_strdup ("");
  return terms;
}

/* Ellipsis dims broadcast right-aligned across operands: @er dims of @in
 * from @pos into the ones seen so far. */
static void
einsum_merge_ellipsis (Einsum *es, const PvValueShape *in, int pos, int er)
{
  int new_rank = MAX (es->ell_rank, er);
  const PvDimExpr *merged[EINSUM_MAX_ELLIPSIS];

  for (int j = 0; j < new_rank; j++)
    {
      int jo = j - (new_rank - es->ell_rank), jn = j - (new_rank - er);
      const PvDimExpr *d = jo >= 0 ? es->ell[jo] : NULL;
      const PvDimExpr *e = jn >= 0 ? in->dims[pos + jn] : NULL;
      if (d == NULL)
        d = e;
      else if (e != NULL && (d = pv_infer_broadcast_dim (es->ctx, d, e)) == NULL)
        d = fresh_dim (es->ctx, es->node);
      merged[j] = d;
    }
  memcpy (es->ell, merged, sizeof (merged[0]) * new_rank);
  es->ell_rank = new_rank;
}

/* Operand @t, of term @text: its labels' dims and counts; FALSE (warned)
 * when the term does not fit the input. */
static gboolean
einsum_operand (Einsum *es, int t, const char *text)
{
  const PvValueShape *in = pv_infer_input (es->ctx, t);
  int pos = 0, er = 0, n_letters;
  gboolean has_ell;

  if (in == NULL)
    return FALSE;
  if (es->elem == 0)
    es->elem = in->elem_type;
  if (!einsum_parse_term (text, es->term, &n_letters, &has_ell))
    {
      pv_infer_warn (es->ctx, "Einsum: cannot parse equation “%s”", es->raw);
      return FALSE;
    }
  es->any_ell |= has_ell;
  for (gsize i = 0; i < es->term->len; i++)
    if (es->term->str[i] != '.')
      es->label_count[(guchar) es->term->str[i]]++;
  if (in->rank < 0)
    {
      es->ell_unknown |= has_ell;
      return TRUE;
    }
  if (has_ell)
    er = in->rank - n_letters;
  if ((has_ell && (er < 0 || er > EINSUM_MAX_ELLIPSIS)) || (!has_ell && in->rank != n_letters))
    {
      pv_infer_warn (es->ctx, "Einsum: operand %d of rank %d does not match “%s”", t, in->rank, text);
      return FALSE;
    }
  for (gsize i = 0; i < es->term->len; i++)
    {
      guchar c = (guchar) es->term->str[i];
      if (c == '.')
        {
          einsum_merge_ellipsis (es, in, pos, er);
          pos += er;
        }
      else
        {
          const PvDimExpr *e = in->dims[pos++];
          if (es->label_dim[c] == NULL)
            es->label_dim[c] = e;
          else if ((es->label_dim[c] = pv_infer_broadcast_dim (es->ctx, es->label_dim[c], e)) == NULL)
            es->label_dim[c] = fresh_dim (es->ctx, es->node);
        }
    }
  return TRUE;
}

typedef enum { EINSUM_OUT_OK, EINSUM_OUT_BAD, EINSUM_OUT_UNKNOWN_RANK } EinsumOut;

/* The output's dims into @out: those @rhs lists, or (implicit, @rhs NULL)
 * the ellipsis dims, then the labels that occur once, in ASCII order. */
static EinsumOut
einsum_output (Einsum *es, const char *rhs, GPtrArray *out)
{
  int n_letters;
  gboolean has_ell;

  if (rhs == NULL)
    {
      if (es->any_ell && es->ell_unknown)
        return EINSUM_OUT_UNKNOWN_RANK;
      for (int j = 0; es->any_ell && j < es->ell_rank; j++)
        g_ptr_array_add (out, (gpointer) es->ell[j]);
      for (int c = 0; c < 128; c++)
        if (es->label_count[c] == 1)
          g_ptr_array_add (out, (gpointer) or_fresh (es->ctx, es->node, es->label_dim[c]));
      return EINSUM_OUT_OK;
    }
  if (!einsum_parse_term (rhs, es->term, &n_letters, &has_ell))
    {
      pv_infer_warn (es->ctx, "Einsum: cannot parse equation “%s”", es->raw);
      return EINSUM_OUT_BAD;
    }
  for (gsize i = 0; i < es->term->len; i++)
    {
      guchar c = (guchar) es->term->str[i];
      if (c == '.')
        {
          if (es->ell_unknown)
            return EINSUM_OUT_UNKNOWN_RANK;
          for (int j = 0; j < es->ell_rank; j++)
            g_ptr_array_add (out, (gpointer) es->ell[j]);
        }
      else if (es->label_count[c] == 0)
        {
          pv_infer_warn (es->ctx, "Einsum: output label '%c' is not in any operand of “%s”", c, es->raw);
          return EINSUM_OUT_BAD;
        }
      else
        g_ptr_array_add (out, (gpointer) or_fresh (es->ctx, es->node, es->label_dim[c]));
    }
  return EINSUM_OUT_OK;
}

static gboolean
infer_einsum (PvInferContext *ctx, const PvNode *node)
{
  g_autofree char *raw = attr_string (node, "equation");
  g_autoptr (GString) eq = g_string_new (NULL);
  g_autoptr (GString) term = g_string_new (NULL);
  g_autoptr (GPtrArray) out = g_ptr_array_new ();
  g_auto (GStrv) terms = NULL;
  Einsum es = { ctx, node, raw, term };
  const char *rhs;
  int n_in;

  if (raw == NULL)
    return FALSE;
  terms = einsum_split (raw, eq, &rhs);
  n_in = pv_infer_n_inputs (ctx);
  if ((int) g_strv_length (terms) != n_in)
    {
      pv_infer_warn (ctx, "Einsum: equation “%s” has %u operands for %d inputs", raw, g_strv_length (terms), n_in);
      return FALSE;
    }
  for (int t = 0; t < n_in; t++)
    if (!einsum_operand (&es, t, terms[t]))
      return FALSE;
  switch (einsum_output (&es, rhs, out))
    {
    case EINSUM_OUT_BAD:
      return FALSE;
    case EINSUM_OUT_UNKNOWN_RANK:
      if (es.elem == 0)
        return FALSE;
      pv_infer_set_output (ctx, 0, es.elem, -1, NULL);
      return TRUE;
    default:
      pv_infer_set_output (ctx, 0, es.elem, (int) out->len, (const PvDimExpr *const *) out->pdata);
      return TRUE;
    }
}

const PvInferOp pv_infer_ops_reduce[] = {
  { "", "ReduceL1", infer_reduce },
  { "", "ReduceL2", infer_reduce },
  { "", "ReduceLogSum", infer_reduce },
  { "", "ReduceLogSumExp", infer_reduce },
  { "", "ReduceMax", infer_reduce_max },
  { "", "ReduceMean", infer_reduce },
  { "", "ReduceMin", infer_reduce_min },
  { "", "ReduceProd", infer_reduce_prod },
  { "", "ReduceSum", infer_reduce_sum },
  { "", "ReduceSumSquare", infer_reduce },
  { "", "ArgMax", infer_arg_reduce },
  { "", "ArgMin", infer_arg_reduce },
  { "", "Einsum", infer_einsum },
  { NULL, NULL, NULL },
};
