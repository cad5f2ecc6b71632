/* pv-infer-elementwise.c: shape rules for ONNX's elementwise ops: unary
 * same-shape ops, Clip, Dropout, numpy-broadcasting binary and variadic ops, Where.
 *
 * Besides shapes, these ops carry known contents (PvValueShape.data) through:
 * exporters compute shape vectors at run time (Shape -> Gather -> Mul ->
 * Concat -> Reshape), so Add/Sub/Mul/Div/Equal/Where/Max/Min/Neg/Abs/Identity
 * (and Cast, pv-infer-cast.c) propagate contents for outputs of at most MAX_DATA elements. */
#include "pv-infer-rules-private.h"

/* Contents are computed only for ranks up to this (all extra dims are 1s). */
#define MAX_DATA_RANK 16

/* ---- small helpers ---- */

static gboolean
const_shape (const PvValueShape *v, gint64 *dims, gint64 *n_out)
{
  gint64 n = 1;

  if (v->rank < 0 || v->rank > MAX_DATA_RANK)
    return FALSE;
  for (int i = 0; i < v->rank; i++)
    {
      if (!pv_dim_is_const (v->dims[i], &dims[i]) || dims[i] < 0)
        return FALSE;
      if (dims[i] != 0 && n > G_MAXINT32 / dims[i])
        n = G_MAXINT32;
      else
        n *= dims[i];
    }
  *n_out = n;
  return TRUE;
}

/* The element of @in that broadcasts to each of the @n_out elements of an
 * output of shape @out_dims; FALSE when @in's contents are not known. */
static gboolean
broadcast_elems (const PvValueShape *in, int out_rank, const gint64 *out_dims, gint64 n_out,
                 const PvDimExpr **elems)
{
  gint64 in_dims[MAX_DATA_RANK];
  gint64 n_in;

  if (in == NULL || in->data == NULL || in->rank > out_rank)
    return FALSE;
  if (!const_shape (in, in_dims, &n_in) || n_in != in->n_data)
    return FALSE;
  for (gint64 o = 0; o < n_out; o++)
    {
      gint64 rem = o, flat = 0, stride = 1;
      for (int ax = out_rank - 1; ax >= 0; ax--)
        {
          gint64 idx = rem % out_dims[ax];
          int j = ax - (out_rank - in->rank);
          rem /= out_dims[ax];
          if (j >= 0)
            {
              flat += (in_dims[j] == 1 ? 0 : idx) * stride;
              stride *= in_dims[j];
            }
        }
      if (flat >= in->n_data)
        return FALSE;
      elems[o] = in->data[flat];
    }
  return TRUE;
}

/* Integer dims of an output shape for contents; FALSE when not constant or
 * bigger than MAX_DATA elements. */
static gboolean
data_out_shape (int rank, const PvDimExpr *const *dims, gint64 *out_dims, gint64 *n_out)
{
  gint64 n = 1;

  if (rank < 0 || rank > MAX_DATA_RANK)
    return FALSE;
  for (int i = 0; i < rank; i++)
    {
      if (!pv_dim_is_const (dims[i], &out_dims[i]) || out_dims[i] < 0)
        return FALSE;
      n *= out_dims[i];
      if (n > MAX_DATA)
        return FALSE;
    }
  *n_out = n;
  return TRUE;
}

/* ---- elementwise arithmetic on contents ---- */

typedef enum {
  D_NONE,
  D_ADD,
  D_SUB,
  D_MUL,
  D_DIV,
  D_MOD,      /* fmod = 0: sign of the divisor */
  D_FMOD,     /* fmod = 1: sign of the dividend */
  D_EQ,
  D_LT,
  D_LE,
  D_GT,
  D_GE,
  D_AND,
  D_OR,
  D_XOR,
  D_MAX,
  D_MIN,
} DataOp;

static const PvDimExpr *
data_binop (PvDimPool *pool, DataOp op, const PvDimExpr *a, const PvDimExpr *b, gboolean int_division)
{
  gint64 x = 0, y = 0;
  gboolean both = pv_dim_is_const (a, &x) && pv_dim_is_const (b, &y);

  switch (op)
    {
    case D_ADD:
      return pv_dim_add (pool, a, b);
    case D_SUB:
      return pv_dim_sub (pool, a, b);
    case D_MUL:
      return pv_dim_mul (pool, a, b);
    case D_DIV:
      if (both)
        {
          if (y == 0 || (x == G_MININT64 && y == -1))
            return NULL;
          if (!int_division && x % y != 0)
            return NULL;   /* a non-integral float: contents not kept */
          return pv_dim_const (pool, x / y);  /* C truncation, as ONNX Div on ints */
        }
      return pv_dim_div_expr (pool, a, b);
    case D_MOD:
    case D_FMOD:
      {
        gint64 r;
        if (!both || y == 0 || (x == G_MININT64 && y == -1))
          return NULL;
        r = x % y;
        if (op == D_MOD && r != 0 && ((r < 0) != (y < 0)))
          r += y;
        return pv_dim_const (pool, r);
      }
    case D_EQ:
      if (a == b)
        return pv_dim_const (pool, 1);
      return both ? pv_dim_const (pool, x == y) : NULL;
    case D_LT:
      return both ? pv_dim_const (pool, x < y) : NULL;
    case D_LE:
      return both ? pv_dim_const (pool, x <= y) : NULL;
    case D_GT:
      return both ? pv_dim_const (pool, x > y) : NULL;
    case D_GE:
      return both ? pv_dim_const (pool, x >= y) : NULL;
    case D_AND:
      return both ? pv_dim_const (pool, x != 0 && y != 0) : NULL;
    case D_OR:
      return both ? pv_dim_const (pool, x != 0 || y != 0) : NULL;
    case D_XOR:
      return both ? pv_dim_const (pool, (x != 0) != (y != 0)) : NULL;
    case D_MAX:
      return pv_dim_max (pool, a, b);
    case D_MIN:
      return pv_dim_min (pool, a, b);
    case D_NONE:
    default:
      return NULL;
    }
}

/* Output 0's contents from folding @op over the broadcast contents of @ins. */
static void
broadcast_data (PvInferContext *ctx, const PvValueShape *const *ins, int n, int out_rank,
                const PvDimExpr *const *out_dims, DataOp op, gboolean int_division)
{
  PvDimPool *pool = pv_infer_pool (ctx);
  gint64 od[MAX_DATA_RANK];
  gint64 n_out;
  const PvDimExpr *acc[MAX_DATA], *e[MAX_DATA];

  if (op == D_NONE || n < 1 || !data_out_shape (out_rank, out_dims, od, &n_out))
    return;
  if (!broadcast_elems (ins[0], out_rank, od, n_out, acc))
    return;
  for (int i = 1; i < n; i++)
    {
      if (!broadcast_elems (ins[i], out_rank, od, n_out, e))
        return;
      for (gint64 o = 0; o < n_out; o++)
        if ((acc[o] = data_binop (pool, op, acc[o], e[o], int_division)) == NULL)
          return;
    }
  pv_infer_set_output_data (ctx, 0, acc, (int) n_out);
}

/* The broadcast shape of @ins (numpy rules); NULL with *rank_out -1 when a
 * rank is unknown. Contradictions become fresh symbols (the framework warns). */
static const PvDimExpr **
broadcast_shapes (PvInferContext *ctx, const PvNode *node, const PvValueShape *const *ins, int n, int *rank_out)
{
  int rank = 0;
  const PvDimExpr **dims;

  for (int i = 0; i < n; i++)
    {
      if (ins[i]->rank < 0)
        {
          *rank_out = -1;
          return NULL;
        }
      rank = MAX (rank, ins[i]->rank);
    }
  dims = g_new0 (const PvDimExpr *, rank + 1);
  for (int ax = 0; ax < rank; ax++)
    {
      const PvDimExpr *d = NULL;
      for (int i = 0; i < n; i++)
        {
          int j = ax - (rank - ins[i]->rank);
          if (j < 0)
            continue;
          if (d == NULL)
            d = ins[i]->dims[j];
          else if ((d = pv_infer_broadcast_dim (ctx, d, ins[i]->dims[j])) == NULL)
            d = fresh_dim (ctx, node);
        }
      dims[ax] = d;
    }
  *rank_out = rank;
  return dims;
}

/* Sets output 0 to @ins broadcast together, of element type @elem, and
 * returns its dims (*@rank_out of them); with a rank unknown, NULL and
 * *@rank_out -1, and the output (of unknown rank) is set only when @elem
 * is known. */
static const PvDimExpr **
broadcast_output (PvInferContext *ctx,
                  const PvNode *node,
                  const PvValueShape *const *ins,
                  int n,
                  int elem,
                  int *rank_out)
{
  const PvDimExpr **dims = broadcast_shapes (ctx, node, ins, n, rank_out);

  if (*rank_out >= 0 || elem != 0)
    pv_infer_set_output (ctx, 0, elem, *rank_out, dims);
  return dims;
}

/* ---- unary ---- */

static gboolean
infer_same (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  (void) node;
  return x != NULL && set_like (ctx, 0, x->elem_type, x);
}

static gboolean
infer_to_bool (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  (void) node;
  return x != NULL && set_like (ctx, 0, PV_ELEM_BOOL, x);
}

typedef const PvDimExpr *(*MapFunc) (PvDimPool *pool, const PvDimExpr *e);

/* Output 0 like input 0, with contents mapped through @fn (NULL: copied). */
static gboolean
unary_with_data (PvInferContext *ctx, MapFunc fn)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvDimExpr *out[MAX_DATA];

  if (x == NULL || !set_like (ctx, 0, x->elem_type, x))
    return FALSE;
  if (x->data == NULL || x->n_data > MAX_DATA || x->rank < 0)
    return TRUE;
  for (int i = 0; i < x->n_data; i++)
    if ((out[i] = fn ? fn (pv_infer_pool (ctx), x->data[i]) : x->data[i]) == NULL)
      return TRUE;
  pv_infer_set_output_data (ctx, 0, out, x->n_data);
  return TRUE;
}

static const PvDimExpr *
map_neg (PvDimPool *pool, const PvDimExpr *e)
{
  return pv_dim_mul (pool, pv_dim_const (pool, -1), e);
}

static const PvDimExpr *
map_abs (PvDimPool *pool, const PvDimExpr *e)
{
  gint64 v;
  if (!pv_dim_is_const (e, &v) || v == G_MININT64)
    return NULL;
  return pv_dim_const (pool, v < 0 ? -v : v);
}

static gboolean
infer_identity (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  (void) node;
  if (x == NULL)
    return FALSE;
  if (x->kind == PV_TYPE_SEQUENCE || x->kind == PV_TYPE_OPTIONAL || x->kind == PV_TYPE_MAP)
    {
      pv_infer_set_output_kind (ctx, 0, x->kind, x->elem_type);
      return TRUE;
    }
  return unary_with_data (ctx, NULL);
}

static gboolean
infer_neg (PvInferContext *ctx, const PvNode *node)
{
  (void) node;
  return unary_with_data (ctx, map_neg);
}

static gboolean
infer_abs (PvInferContext *ctx, const PvNode *node)
{
  (void) node;
  return unary_with_data (ctx, map_abs);
}

/* ---- Clip, Dropout ---- */

/* A scalar bound of Clip: from input @k (opset >= 11) or attribute @attr. */
static gboolean
clip_bound (PvInferContext *ctx, const PvNode *node, int k, const char *attr, const PvDimExpr **out)
{
  const PvValueShape *b = pv_infer_input (ctx, k);
  const PvAttribute *a = pv_node_find_attr (node, attr);

  *out = NULL;
  if (b != NULL)
    {
      if (b->data == NULL || b->n_data != 1)
        return FALSE;
      *out = b->data[0];
      return TRUE;
    }
  if (a != NULL && a->type == PV_ATTR_FLOAT)
    {
      /* Bounds beyond any integer contents (FLT_MAX) change nothing. */
      if (!(a->f > -4.0e18f && a->f < 4.0e18f))
        return TRUE;
      if (a->f != (float) (gint64) a->f)
        return FALSE;
      *out = pv_dim_const (pv_infer_pool (ctx), (gint64) a->f);
    }
  return TRUE;
}

static gboolean
infer_clip (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  PvDimPool *pool = pv_infer_pool (ctx);
  const PvDimExpr *lo, *hi, *out[MAX_DATA];

  if (x == NULL || !set_like (ctx, 0, x->elem_type, x))
    return FALSE;
  if (x->data == NULL || x->n_data > MAX_DATA || x->rank < 0)
    return TRUE;
  if (!clip_bound (ctx, node, 1, "min", &lo) || !clip_bound (ctx, node, 2, "max", &hi))
    return TRUE;
  for (int i = 0; i < x->n_data; i++)
    {
      const PvDimExpr *e = x->data[i];
      if (e != NULL && lo != NULL)
        e = pv_dim_max (pool, e, lo);
      if (e != NULL && hi != NULL)
        e = pv_dim_min (pool, e, hi);
      if ((out[i] = e) == NULL)
        return TRUE;
    }
  pv_infer_set_output_data (ctx, 0, out, x->n_data);
  return TRUE;
}

static gboolean
infer_dropout (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvValueShape *training = pv_infer_input (ctx, 2);
  gint64 *t = NULL;

  if (x == NULL || !set_like (ctx, 0, x->elem_type, x))
    return FALSE;
  /* The mask is bool since opset 10, of the input's type before. */
  set_like (ctx, 1, (node->opset != 0 && node->opset < 10) ? x->elem_type : PV_ELEM_BOOL, x);
  /* In inference mode Dropout is the identity: contents pass through. */
  if (x->data != NULL && x->rank >= 0 && x->n_data <= MAX_DATA
      && (training == NULL || (pv_infer_input_ints (ctx, 2, &t) == 1 && t[0] == 0)))
    pv_infer_set_output_data (ctx, 0, x->data, x->n_data);
  return TRUE;
}

/* ---- broadcasting ops ---- */

typedef enum {
  OUT_FIRST,   /* the element type of the first typed input */
  OUT_BOOL,
} OutType;

static gboolean
broadcast_common (PvInferContext *ctx, const PvNode *node, int n_fixed, DataOp op, OutType out_type)
{
  int n = n_fixed > 0 ? n_fixed : pv_infer_n_inputs (ctx);
  g_autofree const PvValueShape **ins = g_new0 (const PvValueShape *, MAX (n, 1));
  g_autofree const PvDimExpr **dims = NULL;
  int m = 0, rank, elem = 0;

  for (int i = 0; i < n; i++)
    {
      const PvValueShape *in = pv_infer_input (ctx, i);
      if (in == NULL)
        {
          if (n_fixed > 0)
            return FALSE;
          continue;
        }
      ins[m++] = in;
      if (elem == 0)
        elem = in->elem_type;
    }
  if (m == 0)
    return FALSE;
  if (out_type == OUT_BOOL)
    elem = PV_ELEM_BOOL;
  dims = broadcast_output (ctx, node, ins, m, elem, &rank);
  if (rank < 0)
    return elem != 0;
  if (op == D_MOD && pv_infer_attr_int (node, "fmod", 0) != 0)
    op = D_FMOD;
  broadcast_data (ctx, ins, m, rank, dims, op, is_int_type (ins[0]->elem_type));
  return TRUE;
}

#define BROADCAST_RULE(fn, n, op, out)                                  \
  static gboolean fn (PvInferContext *ctx, const PvNode *node)          \
  {                                                                     \
    return broadcast_common (ctx, node, n, op, out);                    \
  }

BROADCAST_RULE (infer_add, 2, D_ADD, OUT_FIRST)
BROADCAST_RULE (infer_sub, 2, D_SUB, OUT_FIRST)
BROADCAST_RULE (infer_mul, 2, D_MUL, OUT_FIRST)
BROADCAST_RULE (infer_div, 2, D_DIV, OUT_FIRST)
BROADCAST_RULE (infer_mod, 2, D_MOD, OUT_FIRST)
BROADCAST_RULE (infer_binary, 2, D_NONE, OUT_FIRST)
BROADCAST_RULE (infer_and, 2, D_AND, OUT_BOOL)
BROADCAST_RULE (infer_or, 2, D_OR, OUT_BOOL)
BROADCAST_RULE (infer_xor, 2, D_XOR, OUT_BOOL)
BROADCAST_RULE (infer_equal, 2, D_EQ, OUT_BOOL)
BROADCAST_RULE (infer_less, 2, D_LT, OUT_BOOL)
BROADCAST_RULE (infer_less_equal, 2, D_LE, OUT_BOOL)
BROADCAST_RULE (infer_greater, 2, D_GT, OUT_BOOL)
BROADCAST_RULE (infer_greater_equal, 2, D_GE, OUT_BOOL)
BROADCAST_RULE (infer_max, -1, D_MAX, OUT_FIRST)
BROADCAST_RULE (infer_min, -1, D_MIN, OUT_FIRST)
BROADCAST_RULE (infer_sum, -1, D_ADD, OUT_FIRST)
BROADCAST_RULE (infer_mean, -1, D_NONE, OUT_FIRST)

static gboolean
infer_where (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *ins[3];
  g_autofree const PvDimExpr **dims = NULL;
  gint64 od[MAX_DATA_RANK], n_out, c;
  const PvDimExpr *cond[MAX_DATA], *xs[MAX_DATA], *ys[MAX_DATA], *out[MAX_DATA];
  gboolean have_x, have_y;
  int rank, elem;

  for (int i = 0; i < 3; i++)
    if ((ins[i] = pv_infer_input (ctx, i)) == NULL)
      return FALSE;
  elem = ins[1]->elem_type ? ins[1]->elem_type : ins[2]->elem_type;
  dims = broadcast_output (ctx, node, ins, 3, elem, &rank);
  if (rank < 0)
    return elem != 0;

  if (!data_out_shape (rank, dims, od, &n_out) || !broadcast_elems (ins[0], rank, od, n_out, cond))
    return TRUE;
  have_x = broadcast_elems (ins[1], rank, od, n_out, xs);
  have_y = broadcast_elems (ins[2], rank, od, n_out, ys);
  for (gint64 o = 0; o < n_out; o++)
    {
      if (!pv_dim_is_const (cond[o], &c))
        return TRUE;
      if (c != 0 ? !have_x : !have_y)
        return TRUE;
      out[o] = c != 0 ? xs[o] : ys[o];
    }
  pv_infer_set_output_data (ctx, 0, out, (int) n_out);
  return TRUE;
}

const PvInferOp pv_infer_ops_elementwise[] = {
  /* unary, same shape and type */
  { "", "Abs", infer_abs },
  { "", "Acos", infer_same },
  { "", "Acosh", infer_same },
  { "", "Asin", infer_same },
  { "", "Asinh", infer_same },
  { "", "Atan", infer_same },
  { "", "Atanh", infer_same },
  { "", "BitwiseNot", infer_same },
  { "", "Ceil", infer_same },
  { "", "Celu", infer_same },
  { "", "Cos", infer_same },
  { "", "Cosh", infer_same },
  { "", "Elu", infer_same },
  { "", "Erf", infer_same },
  { "", "Exp", infer_same },
  { "", "Floor", infer_same },
  { "", "Gelu", infer_same },
  { "", "HardSigmoid", infer_same },
  { "", "HardSwish", infer_same },
  { "", "Identity", infer_identity },
  { "", "IsInf", infer_to_bool },
  { "", "IsNaN", infer_to_bool },
  { "", "LeakyRelu", infer_same },
  { "", "Log", infer_same },
  { "", "Mish", infer_same },
  { "", "Neg", infer_neg },
  { "", "Not", infer_same },
  { "", "Reciprocal", infer_same },
  { "", "Relu", infer_same },
  { "", "Round", infer_same },
  { "", "Selu", infer_same },
  { "", "Shrink", infer_same },
  { "", "Sigmoid", infer_same },
  { "", "Sign", infer_same },
  { "", "Sin", infer_same },
  { "", "Sinh", infer_same },
  { "", "Softplus", infer_same },
  { "", "Softsign", infer_same },
  { "", "Swish", infer_same },
  { "", "Sqrt", infer_same },
  { "", "Tan", infer_same },
  { "", "Tanh", infer_same },
  { "", "ThresholdedRelu", infer_same },
  { "", "Clip", infer_clip },
  { "", "Dropout", infer_dropout },
  /* binary, numpy broadcasting */
  { "", "Add", infer_add },
  { "", "Sub", infer_sub },
  { "", "Mul", infer_mul },
  { "", "Div", infer_div },
  { "", "Pow", infer_binary },
  { "", "Mod", infer_mod },
  /* PRelu broadcasts the slope to X (unidirectionally): Y is shaped like X. */
  { "", "PRelu", infer_same },
  { "", "SwiGLU", infer_binary },   /* A and B of one shape (opset 28) */
  { "", "BitShift", infer_binary },
  { "", "BitwiseAnd", infer_binary },
  { "", "BitwiseOr", infer_binary },
  { "", "BitwiseXor", infer_binary },
  { "", "And", infer_and },
  { "", "Or", infer_or },
  { "", "Xor", infer_xor },
  { "", "Equal", infer_equal },
  { "", "Greater", infer_greater },
  { "", "GreaterOrEqual", infer_greater_equal },
  { "", "Less", infer_less },
  { "", "LessOrEqual", infer_less_equal },
  /* variadic */
  { "", "Max", infer_max },
  { "", "Min", infer_min },
  { "", "Mean", infer_mean },
  { "", "Sum", infer_sum },
  { "", "Where", infer_where },
  { NULL, NULL, NULL },
};
