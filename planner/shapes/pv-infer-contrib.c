/* pv-infer-contrib.c: shape rules for ONNX Runtime's contrib ops (domain
 * "com.microsoft") that its transformer optimiser emits: fused attention
 * (Attention, MultiHeadAttention, GroupQueryAttention), fused normalisation
 * (SkipLayerNormalization, EmbedLayerNormalization, ...), fused activations
 * and fused MatMul/Gemm/Conv.
 *
 * Written from ORT's contrib operator documentation (ContribOperators.md). */
#include <string.h>

#include "pv-element-type.h"
#include "pv-infer-dims.h"
#include "pv-infer-tensor-private.h"
#include "pv-shape-inference.h"

/* ---- helpers ---- */

static const PvDimExpr *
dim_at (const PvValueShape *s, int rank, int i)
{
  return pv_infer_has_rank (s) && s->rank == rank && i < rank ? s->dims[i] : NULL;
}

/* Output @k: @s's shape (unknown rank when @s has none) with type
 * @elem_type; FALSE when @s is NULL, or rankless with no element type. */
static gboolean
set_like (PvInferContext *ctx, int k, const PvValueShape *s, int elem_type)
{
  if (s == NULL)
    return FALSE;
  if (!pv_infer_has_rank (s))
    {
      if (elem_type == 0)
        return FALSE;
      pv_infer_set_unknown_rank (ctx, k, elem_type);
      return TRUE;
    }
  pv_infer_set_output (ctx, k, elem_type, s->rank, s->dims);
  return TRUE;
}

/* ---- elementwise-like fused ops ---- */

/* Output 0 (and any further output) like input 0. */
static gboolean
infer_like_input0 (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);

  (void) node;
  return set_like (ctx, 0, x, pv_infer_elem_of (x));
}

/* BiasDropout: output like data, mask bool like data. */
static gboolean
infer_bias_dropout (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);

  (void) node;
  if (!set_like (ctx, 0, x, pv_infer_elem_of (x)))
    return FALSE;
  set_like (ctx, 1, x, PV_ELEM_BOOL);
  return TRUE;
}

static gboolean
infer_bias_split_gelu (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  g_autofree const PvDimExpr **dims = NULL;

  (void) node;
  if (x == NULL)
    return FALSE;
  if (!pv_infer_has_rank (x) || x->rank < 1)
    return set_like (ctx, 0, x, x->elem_type);
  dims = g_new0 (const PvDimExpr *, x->rank);
  pv_infer_copy_dims (dims, x);
  dims[x->rank - 1] = or_fresh (ctx, pv_infer_div_exact (ctx, x->dims[x->rank - 1], cst (ctx, 2)), "biassplitgelu");
  pv_infer_set_output (ctx, 0, x->elem_type, x->rank, dims);
  return TRUE;
}

/* Normalisation statistics: input dims with the normalised axes set to 1. */
static void
set_stats (PvInferContext *ctx, int k, const PvValueShape *x, int axis, int elem)
{
  g_autofree const PvDimExpr **dims = NULL;

  if (!pv_infer_has_rank (x))
    {
      pv_infer_set_unknown_rank (ctx, k, elem);
      return;
    }
  dims = g_new0 (const PvDimExpr *, MAX (x->rank, 1));
  for (int i = 0; i < x->rank; i++)
    dims[i] = i < axis ? x->dims[i] : cst (ctx, 1);
  pv_infer_set_output (ctx, k, elem, x->rank, dims);
}

/* SkipLayerNormalization, SkipSimplifiedLayerNormalization: output and
 * input_skip_bias_sum like the input; mean and inv_std_var (float) like the
 * input with the hidden axis reduced to 1. */
static gboolean
infer_skip_layer_norm (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);

  (void) node;
  if (!set_like (ctx, 0, x, pv_infer_elem_of (x)))
    return FALSE;
  set_stats (ctx, 1, x, pv_infer_has_rank (x) ? x->rank - 1 : 0, PV_ELEM_FLOAT);
  set_stats (ctx, 2, x, pv_infer_has_rank (x) ? x->rank - 1 : 0, PV_ELEM_FLOAT);
  set_like (ctx, 3, x, pv_infer_elem_of (x));
  return TRUE;
}

/* com.microsoft's SimplifiedLayerNormalization (RMSNorm): Y like X; the
 * optional inv_std_var (float) keeps the dims before axis, 1 after. */
static gboolean
infer_simplified_layer_norm (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  gint64 axis = pv_infer_attr_int (node, "axis", -1);

  if (!set_like (ctx, 0, x, pv_infer_elem_of (x)))
    return FALSE;
  if (pv_infer_has_rank (x))
    {
      if (axis < 0)
        axis += x->rank;
      if (axis < 0 || axis > x->rank)
        return TRUE;
    }
  set_stats (ctx, 1, x, (int) axis, PV_ELEM_FLOAT);
  return TRUE;
}

/* ---- EmbedLayerNormalization ---- */

static gboolean
infer_embed_layer_norm (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *ids = pv_infer_input (ctx, 0);
  const PvValueShape *word = pv_infer_input (ctx, 2);
  const PvValueShape *gamma = pv_infer_input (ctx, 5);
  const PvDimExpr *dims[3], *b;
  int elem = pv_infer_elem_of (word);

  (void) node;
  if (ids == NULL)
    return FALSE;
  if (elem == 0)
    elem = pv_infer_elem_of (gamma);
  b = pv_infer_has_rank (ids) && ids->rank == 2 ? ids->dims[0] : NULL;
  dims[0] = or_fresh (ctx, b, "embedlayernormalization");
  dims[1] = or_fresh (ctx, pv_infer_has_rank (ids) && ids->rank == 2 ? ids->dims[1] : NULL, "embedlayernormalization");
  dims[2] = dim_at (word, 2, 1);
  if (dims[2] == NULL)
    dims[2] = dim_at (gamma, 1, 0);
  dims[2] = or_fresh (ctx, dims[2], "embedlayernormalization");
  pv_infer_set_output (ctx, 0, elem, 3, dims);
  pv_infer_set_output (ctx, 1, PV_ELEM_INT32, 1, dims);
  pv_infer_set_output (ctx, 2, elem, 3, dims);
  return TRUE;
}

/* ---- attention ---- */

/* Attention: input (B, S, H_in), weights (H_in, Hq + Hk + Hv). */
static gboolean
infer_attention (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvValueShape *w = pv_infer_input (ctx, 1);
  const PvValueShape *past = pv_infer_input (ctx, 4);
  gint64 num_heads = pv_infer_attr_int (node, "num_heads", 0);
  const gint64 *qkv = NULL;
  int n_qkv = pv_infer_attr_ints (node, "qkv_hidden_sizes", &qkv);
  const PvDimExpr *b, *s, *q_hidden = NULL, *v_hidden = NULL, *dims[5];
  int elem = pv_infer_elem_of (x);

  if (x == NULL)
    return FALSE;
  b = dim_at (x, 3, 0);
  s = dim_at (x, 3, 1);
  if (qkv != NULL && n_qkv == 3)
    {
      q_hidden = cst (ctx, qkv[0]);
      v_hidden = cst (ctx, qkv[2]);
    }
  else if (pv_infer_has_rank (w) && w->rank == 2)
    q_hidden = v_hidden = pv_infer_div_exact (ctx, w->dims[1], cst (ctx, 3));
  else if (pv_infer_has_rank (past) && past->rank == 5 && num_heads > 0)
    q_hidden = v_hidden = d_mul (ctx, past->dims[4], cst (ctx, num_heads));

  dims[0] = or_fresh (ctx, b, "attention");
  dims[1] = or_fresh (ctx, s, "attention");
  dims[2] = or_fresh (ctx, v_hidden, "attention");
  pv_infer_set_output (ctx, 0, elem, 3, (const PvDimExpr *const *) dims);

  if (pv_infer_n_outputs (ctx) > 1)
    {
      const PvDimExpr *pdims[5];
      gboolean share = pv_infer_attr_int (node, "past_present_share_buffer", 0) != 0;
      if (share && pv_infer_has_rank (past) && past->rank == 5)
        {
          pv_infer_set_output (ctx, 1, elem, 5, past->dims);
          return TRUE;
        }
      pdims[0] = cst (ctx, 2);
      pdims[1] = dims[0];
      pdims[2] = num_heads > 0 ? cst (ctx, num_heads) : dim_at (past, 5, 2);
      if (pv_infer_has_rank (past) && past->rank == 5)
        pdims[3] = d_add (ctx, past->dims[3], s);
      else
        pdims[3] = s;
      pdims[4] = num_heads > 0 ? pv_infer_div_exact (ctx, q_hidden, cst (ctx, num_heads)) : NULL;
      if (pdims[4] == NULL)
        pdims[4] = dim_at (past, 5, 4);
      for (int i = 0; i < 5; i++)
        pdims[i] = or_fresh (ctx, pdims[i], "attention");
      pv_infer_set_output (ctx, 1, elem, 5, pdims);
    }
  return TRUE;
}

/* What MultiHeadAttention's inputs say of its dims (NULL: unknown). */
typedef struct {
  const PvDimExpr *b, *s;          /* batch, query length */
  const PvDimExpr *qk_hidden, *v_hidden;
  const PvDimExpr *kv_len;         /* key/value length */
  const PvDimExpr *head, *v_head;  /* per-head sizes */
  const PvDimExpr *nh;             /* num_heads */
  gboolean kv_is_bnsh;             /* key given as (B, N, L, H): cross attention */
} MhaDims;

/* MultiHeadAttention's dims from query @q, key @k, value @v and num_heads
 * @nh (NULL when not given). */
static void
mha_dims (PvInferContext *ctx, const PvValueShape *q, const PvValueShape *k, const PvValueShape *v,
          const PvDimExpr *nh, MhaDims *m)
{
  *m = (MhaDims) { .nh = nh };
  if (pv_infer_has_rank (q) && q->rank == 3)
    {
      m->b = q->dims[0];
      m->s = q->dims[1];
      m->qk_hidden = q->dims[2];
    }
  else if (pv_infer_has_rank (q) && q->rank == 5)
    {
      /* packed QKV */
      m->b = q->dims[0];
      m->s = q->dims[1];
      m->kv_len = m->s;
      m->head = m->v_head = q->dims[4];
      m->qk_hidden = m->v_hidden = d_mul (ctx, q->dims[2], q->dims[4]);
    }

  if (pv_infer_has_rank (k) && k->rank == 3)
    m->kv_len = k->dims[1];
  else if (pv_infer_has_rank (k) && k->rank == 5)
    {
      /* packed KV */
      m->kv_len = k->dims[1];
      m->v_head = k->dims[4];
      m->v_hidden = d_mul (ctx, k->dims[2], k->dims[4]);
    }
  else if (pv_infer_has_rank (k) && k->rank == 4)
    {
      m->kv_is_bnsh = TRUE;
      m->kv_len = k->dims[2];
      m->head = k->dims[3];
    }

  if (pv_infer_has_rank (v) && v->rank == 3)
    m->v_hidden = v->dims[2];
  else if (pv_infer_has_rank (v) && v->rank == 4)
    {
      m->v_head = v->dims[3];
      m->v_hidden = d_mul (ctx, v->dims[1], v->dims[3]);
    }
  if (m->head == NULL && m->nh != NULL)
    m->head = pv_infer_div_exact (ctx, m->qk_hidden, m->nh);
  if (m->v_head == NULL && m->nh != NULL)
    m->v_head = pv_infer_div_exact (ctx, m->v_hidden, m->nh);
  if (m->v_hidden == NULL && k == NULL && v == NULL)
    m->v_hidden = m->qk_hidden;
}

/* MultiHeadAttention: query (B, S, D) or packed QKV (B, S, N, 3, H); key
 * (B, L, D), packed KV (B, L, N, 2, H) or BNSH (B, N, L, H); value (B, L, Dv)
 * or BNSH (B, N, L, Hv). */
static gboolean
infer_multi_head_attention (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *q = pv_infer_input (ctx, 0);
  const PvValueShape *k = pv_infer_input (ctx, 1);
  const PvValueShape *v = pv_infer_input (ctx, 2);
  const PvValueShape *past_k = pv_infer_input (ctx, 6);
  const PvValueShape *past_v = pv_infer_input (ctx, 7);
  gint64 n = pv_infer_attr_int (node, "num_heads", 0);
  const PvDimExpr *nh = n > 0 ? cst (ctx, n) : NULL, *dims[4];
  int elem = pv_infer_elem_of (q);
  MhaDims m;

  if (q == NULL)
    return FALSE;
  mha_dims (ctx, q, k, v, nh, &m);

  dims[0] = or_fresh (ctx, m.b, "multiheadattention");
  dims[1] = or_fresh (ctx, m.s, "multiheadattention");
  dims[2] = or_fresh (ctx, m.v_hidden, "multiheadattention");
  pv_infer_set_output (ctx, 0, elem, 3, dims);

  /* present_key / present_value: (B, N, total, head) with total = past + L;
   * a BNSH key/value (cross attention) is already the whole state. */
  for (int o = 1; o <= 2; o++)
    {
      const PvValueShape *past = o == 1 ? past_k : past_v;
      const PvValueShape *kv = o == 1 ? k : v;
      const PvDimExpr *pd[4];
      if (o >= pv_infer_n_outputs (ctx))
        break;
      if (m.kv_is_bnsh && pv_infer_has_rank (kv) && kv->rank == 4 && !pv_infer_has_rank (past))
        {
          pv_infer_set_output (ctx, o, elem, 4, kv->dims);
          continue;
        }
      pd[0] = dims[0];
      pd[1] = m.nh != NULL ? m.nh : dim_at (past, 4, 1);
      pd[2] = pv_infer_has_rank (past) && past->rank == 4 ? d_add (ctx, past->dims[2], m.kv_len) : m.kv_len;
      pd[3] = o == 1 ? m.head : m.v_head;
      if (pd[3] == NULL)
        pd[3] = dim_at (past, 4, 3);
      for (int i = 0; i < 4; i++)
        pd[i] = or_fresh (ctx, pd[i], "multiheadattention");
      pv_infer_set_output (ctx, o, elem, 4, pd);
    }

  /* qk: (B, N, S, total) */
  if (pv_infer_n_outputs (ctx) > 3)
    {
      const PvDimExpr *qd[4];
      qd[0] = dims[0];
      qd[1] = or_fresh (ctx, m.nh, "multiheadattention");
      qd[2] = dims[1];
      qd[3] = pv_infer_has_rank (past_k) && past_k->rank == 4 ? d_add (ctx, past_k->dims[2], m.kv_len) : m.kv_len;
      qd[3] = or_fresh (ctx, qd[3], "multiheadattention");
      pv_infer_set_output (ctx, 3, elem, 4, qd);
    }
  return TRUE;
}

/* GroupQueryAttention: query (B, S, N*H) or packed (B, S, (N + 2*Nkv)*H);
 * caches BNSH (B, Nkv, len, H). */
static gboolean
infer_group_query_attention (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *q = pv_infer_input (ctx, 0);
  const PvValueShape *k = pv_infer_input (ctx, 1);
  const PvValueShape *past_k = pv_infer_input (ctx, 3);
  const PvValueShape *past_v = pv_infer_input (ctx, 4);
  const PvDimExpr *total = pv_infer_in_scalar (ctx, 6);
  gint64 n = pv_infer_attr_int (node, "num_heads", 0);
  gint64 n_kv = pv_infer_attr_int (node, "kv_num_heads", 0);
  const PvDimExpr *b = NULL, *s = NULL, *head = NULL, *dims[3];
  int elem = pv_infer_elem_of (q);

  if (q == NULL)
    return FALSE;
  if (pv_infer_has_rank (q) && q->rank == 3)
    {
      b = q->dims[0];
      s = q->dims[1];
      if (k != NULL && n > 0)
        head = pv_infer_div_exact (ctx, q->dims[2], cst (ctx, n));
      else if (k == NULL && n > 0 && n_kv >= 0)
        head = pv_infer_div_exact (ctx, q->dims[2], cst (ctx, n + 2 * n_kv));
    }
  if (head == NULL)
    head = dim_at (past_k, 4, 3);
  dims[0] = or_fresh (ctx, b, "groupqueryattention");
  dims[1] = or_fresh (ctx, s, "groupqueryattention");
  dims[2] = or_fresh (ctx, n > 0 ? d_mul (ctx, head, cst (ctx, n)) : NULL, "groupqueryattention");
  pv_infer_set_output (ctx, 0, elem, 3, dims);

  for (int o = 1; o <= 2; o++)
    {
      const PvValueShape *past = o == 1 ? past_k : past_v;
      const PvDimExpr *pd[4], *len = NULL;
      int cache_elem = pv_infer_elem_of (past) != 0 ? pv_infer_elem_of (past) : elem;
      if (o >= pv_infer_n_outputs (ctx))
        break;
      /* The cache holds max(past length, total length): with a shared
       * buffer the past length already is the maximum. */
      if (pv_infer_has_rank (past) && past->rank == 4)
        {
          gint64 pv, tv;
          if (total != NULL && is_const (past->dims[2], &pv) && is_const (total, &tv))
            len = cst (ctx, MAX (pv, tv));
          else if (total != NULL)
            len = pv_dim_max (pv_infer_pool (ctx), past->dims[2], total);
        }
      else if (total != NULL)
        len = total;
      else if (pv_infer_has_rank (k) && k->rank == 3)
        len = k->dims[1];
      else
        len = s;
      pd[0] = dims[0];
      pd[1] = n_kv > 0 ? cst (ctx, n_kv) : dim_at (past, 4, 1);
      pd[2] = len;
      pd[3] = head;
      for (int i = 0; i < 4; i++)
        pd[i] = or_fresh (ctx, pd[i], "groupqueryattention");
      pv_infer_set_output (ctx, o, cache_elem, 4, pd);
    }
  return TRUE;
}

/* ---- MatMul family ---- */

/* Multiplies A (batch.., M, K) by B (batch.., K, N) with numpy batch
 * broadcasting; 1-D operands as in MatMul. @a_dims/@b_dims are the operands
 * after their transpositions. */
static gboolean
set_matmul_output (PvInferContext *ctx, int k, int elem, const PvDimExpr *const *a, int ra,
                   const PvDimExpr *const *b, int rb, const char *prefix)
{
  const PvDimExpr *out[PV_MAX_RANK + 2];
  int batch_a = ra >= 2 ? ra - 2 : 0, batch_b = rb >= 2 ? rb - 2 : 0;
  int batch = MAX (batch_a, batch_b), n = 0;

  if (ra < 1 || rb < 1 || batch > PV_MAX_RANK)
    return FALSE;
  for (int i = 0; i < batch; i++)
    {
      int ia = i - (batch - batch_a), ib = i - (batch - batch_b);
      const PvDimExpr *da = ia >= 0 ? a[ia] : NULL, *db = ib >= 0 ? b[ib] : NULL;
      if (da == NULL)
        out[n++] = db;
      else if (db == NULL)
        out[n++] = da;
      else
        out[n++] = or_fresh (ctx, pv_infer_broadcast_dim (ctx, da, db), prefix);
    }
  if (ra >= 2)
    out[n++] = a[ra - 2];
  if (rb >= 2)
    out[n++] = b[rb - 1];
  pv_infer_set_output (ctx, k, elem, n, out);
  return TRUE;
}

/* FusedMatMul / TransposeMatMul: transA/transB swap the last two dims;
 * transBatchA/B move the first dim behind the batch dims. */
static void
fused_operand (const PvValueShape *s, gboolean trans, gboolean trans_batch, const PvDimExpr **out)
{
  int r = s->rank, n = 0;
  const PvDimExpr *m, *kk;

  if (r < 2)
    {
      for (int i = 0; i < r; i++)
        out[i] = s->dims[i];
      return;
    }
  if (trans_batch)
    {
      for (int i = 1; i < r - 1; i++)
        out[n++] = s->dims[i];
      m = s->dims[0];
    }
  else
    {
      for (int i = 0; i < r - 2; i++)
        out[n++] = s->dims[i];
      m = s->dims[r - 2];
    }
  kk = s->dims[r - 1];
  out[n++] = trans ? kk : m;
  out[n++] = trans ? m : kk;
}

static gboolean
infer_fused_matmul (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *a = pv_infer_input (ctx, 0);
  const PvValueShape *b = pv_infer_input (ctx, 1);
  const PvDimExpr *ad[PV_MAX_RANK], *bd[PV_MAX_RANK];

  if (a == NULL || b == NULL)
    return FALSE;
  if (!pv_infer_has_rank (a) || !pv_infer_has_rank (b) || a->rank > PV_MAX_RANK || b->rank > PV_MAX_RANK)
    {
      pv_infer_set_unknown_rank (ctx, 0, a->elem_type);
      return TRUE;
    }
  fused_operand (a, pv_infer_attr_int (node, "transA", 0) != 0, pv_infer_attr_int (node, "transBatchA", 0) != 0, ad);
  fused_operand (b, pv_infer_attr_int (node, "transB", 0) != 0, pv_infer_attr_int (node, "transBatchB", 0) != 0, bd);
  if (!set_matmul_output (ctx, 0, a->elem_type, ad, a->rank, bd, b->rank, "fusedmatmul"))
    pv_infer_set_unknown_rank (ctx, 0, a->elem_type);
  return TRUE;
}

/* Plain MatMul shapes with another output type (quantised MatMuls). */
static gboolean
infer_matmul_typed (PvInferContext *ctx, int a_k, int b_k, int elem, const char *prefix)
{
  const PvValueShape *a = pv_infer_input (ctx, a_k);
  const PvValueShape *b = pv_infer_input (ctx, b_k);

  if (a == NULL || b == NULL)
    return FALSE;
  if (!pv_infer_has_rank (a) || !pv_infer_has_rank (b) ||
      !set_matmul_output (ctx, 0, elem, (const PvDimExpr *const *) a->dims, a->rank,
                          (const PvDimExpr *const *) b->dims, b->rank, prefix))
    pv_infer_set_unknown_rank (ctx, 0, elem);
  return TRUE;
}

static gboolean
infer_matmul_integer_to_float (PvInferContext *ctx, const PvNode *node)
{
  int elem = pv_infer_elem_of (pv_infer_input (ctx, 2));

  (void) node;
  return infer_matmul_typed (ctx, 0, 1, elem != 0 ? elem : PV_ELEM_FLOAT, "matmulintegertofloat");
}

static gboolean
infer_dynamic_quantize_matmul (PvInferContext *ctx, const PvNode *node)
{
  (void) node;
  return infer_matmul_typed (ctx, 0, 1, PV_ELEM_FLOAT, "dynamicquantizematmul");
}

static gboolean
infer_gemm_fast_gelu (PvInferContext *ctx, const PvNode *node)
{
  (void) node;
  return infer_matmul_typed (ctx, 0, 1, pv_infer_elem_of (pv_infer_input (ctx, 0)), "gemmfastgelu");
}

/* MatMulNBits: A (..., K) times quantised B (N x K) gives (..., N). */
static gboolean
infer_matmul_nbits (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *a = pv_infer_input (ctx, 0);
  const PvAttribute *n_attr = pv_node_find_attr (node, "N");
  g_autofree const PvDimExpr **dims = NULL;

  if (a == NULL || !pv_infer_has_rank (a) || a->rank < 1)
    return pv_infer_pass_unknown_rank (ctx, a);
  dims = g_new0 (const PvDimExpr *, a->rank);
  pv_infer_copy_dims (dims, a);
  dims[a->rank - 1] = or_fresh (ctx, n_attr != NULL ? cst (ctx, n_attr->i) : NULL, "matmulnbits");
  pv_infer_set_output (ctx, 0, a->elem_type, a->rank, dims);
  return TRUE;
}

static gboolean
infer_fused_gemm (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *a = pv_infer_input (ctx, 0);
  const PvValueShape *b = pv_infer_input (ctx, 1);
  gboolean ta = pv_infer_attr_int (node, "transA", 0) != 0, tb = pv_infer_attr_int (node, "transB", 0) != 0;
  const PvDimExpr *dims[2];

  if (a == NULL)
    return FALSE;
  dims[0] = pv_infer_has_rank (a) && a->rank == 2 ? a->dims[ta ? 1 : 0] : NULL;
  dims[1] = pv_infer_has_rank (b) && b->rank == 2 ? b->dims[tb ? 0 : 1] : NULL;
  dims[0] = or_fresh (ctx, dims[0], "fusedgemm");
  dims[1] = or_fresh (ctx, dims[1], "fusedgemm");
  pv_infer_set_output (ctx, 0, a->elem_type, 2, dims);
  return TRUE;
}

/* ---- FusedConv ---- */

/* One spatial output dim of a convolution. */
static const PvDimExpr *
conv_out_dim (PvInferContext *ctx, const PvDimExpr *in, gint64 kernel, gint64 stride, gint64 dilation,
              gint64 pad_begin, gint64 pad_end, const char *auto_pad)
{
  gint64 span;

  if (stride <= 0 || kernel <= 0 || dilation <= 0 || kernel > G_MAXINT32 || dilation > G_MAXINT32 ||
      stride > G_MAXINT32 || ABS (pad_begin) > G_MAXINT32 || ABS (pad_end) > G_MAXINT32)
    return NULL;
  span = dilation * (kernel - 1) + 1;
  if (auto_pad != NULL && (g_str_equal (auto_pad, "SAME_UPPER") || g_str_equal (auto_pad, "SAME_LOWER")))
    return pv_dim_ceil_div (pv_infer_pool (ctx), in, stride);
  if (auto_pad != NULL && g_str_equal (auto_pad, "VALID"))
    pad_begin = pad_end = 0;
  return d_add (ctx,
                pv_dim_floor_div (pv_infer_pool (ctx), d_add (ctx, in, cst (ctx, pad_begin + pad_end - span)), stride),
                cst (ctx, 1));
}

static gboolean
infer_fused_conv (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvValueShape *w = pv_infer_input (ctx, 1);
  const gint64 *kernel_a = NULL, *strides = NULL, *dilations = NULL, *pads = NULL;
  int n_kernel = pv_infer_attr_ints (node, "kernel_shape", &kernel_a);
  int n_strides = pv_infer_attr_ints (node, "strides", &strides);
  int n_dil = pv_infer_attr_ints (node, "dilations", &dilations);
  int n_pads = pv_infer_attr_ints (node, "pads", &pads);
  const PvAttribute *ap = pv_node_find_attr (node, "auto_pad");
  g_autofree char *auto_pad = NULL;
  g_autofree const PvDimExpr **dims = NULL;
  int r, sp;

  if (x == NULL || !pv_infer_has_rank (x) || x->rank < 3)
    return pv_infer_pass_unknown_rank (ctx, x);
  if (ap != NULL && ap->type == PV_ATTR_STRING && ap->s != NULL)
    auto_pad = g_strndup (g_bytes_get_data (ap->s, NULL), g_bytes_get_size (ap->s));
  r = x->rank;
  sp = r - 2;
  dims = g_new0 (const PvDimExpr *, r);
  dims[0] = x->dims[0];
  dims[1] = pv_infer_has_rank (w) && w->rank == r ? w->dims[0] : NULL;
  for (int i = 0; i < sp; i++)
    {
      gint64 kv = 0;
      if (kernel_a != NULL && n_kernel == sp)
        kv = kernel_a[i];
      else if (!(pv_infer_has_rank (w) && w->rank == r && is_const (w->dims[i + 2], &kv)))
        kv = 0;
      if (kv > 0)
        dims[i + 2] = conv_out_dim (ctx, x->dims[i + 2], kv, strides && n_strides == sp ? strides[i] : 1,
                                    dilations && n_dil == sp ? dilations[i] : 1, pads && n_pads == 2 * sp ? pads[i] : 0,
                                    pads && n_pads == 2 * sp ? pads[i + sp] : 0, auto_pad);
    }
  for (int i = 0; i < r; i++)
    dims[i] = or_fresh (ctx, dims[i], "fusedconv");
  pv_infer_set_output (ctx, 0, x->elem_type, r, dims);
  return TRUE;
}

const PvInferOp pv_infer_ops_contrib[] = {
  { "com.microsoft", "Attention", infer_attention },
  { "com.microsoft", "MultiHeadAttention", infer_multi_head_attention },
  { "com.microsoft", "GroupQueryAttention", infer_group_query_attention },
  { "com.microsoft", "SkipLayerNormalization", infer_skip_layer_norm },
  { "com.microsoft", "SkipSimplifiedLayerNormalization", infer_skip_layer_norm },
  { "com.microsoft", "SimplifiedLayerNormalization", infer_simplified_layer_norm },
  { "com.microsoft", "EmbedLayerNormalization", infer_embed_layer_norm },
  { "com.microsoft", "BiasGelu", infer_like_input0 },
  { "com.microsoft", "FastGelu", infer_like_input0 },
  { "com.microsoft", "QuickGelu", infer_like_input0 },
  { "com.microsoft", "Gelu", infer_like_input0 },
  { "com.microsoft", "BiasAdd", infer_like_input0 },
  { "com.microsoft", "BiasSoftmax", infer_like_input0 },
  { "com.microsoft", "BiasDropout", infer_bias_dropout },
  { "com.microsoft", "BiasSplitGelu", infer_bias_split_gelu },
  { "com.microsoft", "RotaryEmbedding", infer_like_input0 },
  { "com.microsoft", "GroupNorm", infer_like_input0 },
  { "com.microsoft", "Inverse", infer_like_input0 },
  { "com.microsoft", "FusedMatMul", infer_fused_matmul },
  { "com.microsoft", "TransposeMatMul", infer_fused_matmul },
  { "com.microsoft", "FusedGemm", infer_fused_gemm },
  { "com.microsoft", "FusedConv", infer_fused_conv },
  { "com.microsoft", "MatMulNBits", infer_matmul_nbits },
  { "com.microsoft", "MatMulIntegerToFloat", infer_matmul_integer_to_float },
  { "com.microsoft", "DynamicQuantizeMatMul", infer_dynamic_quantize_matmul },
  { "com.microsoft", "GemmFastGelu", infer_gemm_fast_gelu },
  { NULL },
};
