/* pv-infer-control.c: If, Loop and Scan. Bodies are inferred with their
 * graph inputs set from the node's inputs and outer-scope values visible. */
#include "pv-shape-inference.h"

#include "pv-element-type.h"

/* Two branch results for one output: equal dims stay, differing ones become
 * a fresh symbol (the value depends on the branch taken). */
static void
set_merged (PvInferContext *ctx, int k, const PvValueShape *a, const PvValueShape *b, const char *prefix)
{
  const PvValueShape *known = a && a->kind != PV_TYPE_UNKNOWN ? a : b;
  const PvValueShape *other = known == a ? b : a;
  int elem_type;

  if (known == NULL || known->kind == PV_TYPE_UNKNOWN)
    return;
  elem_type = known->elem_type ? known->elem_type : (other ? other->elem_type : 0);
  if (known->kind != PV_TYPE_TENSOR)
    {
      pv_infer_set_output_kind (ctx, k, known->kind, elem_type);
      return;
    }
  if (known->rank < 0 || (other && other->kind == PV_TYPE_TENSOR && other->rank >= 0 && other->rank != known->rank))
    {
      pv_infer_set_output (ctx, k, elem_type, -1, NULL);
      return;
    }
  {
    g_autofree const PvDimExpr **dims = g_new (const PvDimExpr *, MAX (known->rank, 1));
    gboolean other_known = other && other->kind == PV_TYPE_TENSOR && other->rank == known->rank;
    for (int i = 0; i < known->rank; i++)
      dims[i] = !other_known || other->dims[i] == known->dims[i] ? known->dims[i] : pv_infer_fresh (ctx, prefix);
    pv_infer_set_output (ctx, k, elem_type, known->rank, dims);
  }
}

static const PvGraph *
subgraph_attr (const PvNode *node, const char *name)
{
  const PvAttribute *a = pv_node_find_attr (node, name);
  return a && a->type == PV_ATTR_GRAPH ? a->g : NULL;
}

/* Do two branch results disagree on a shape (so the If's output depends on
 * the branch taken)? */
static gboolean
branches_differ (const PvValueShape *a, const PvValueShape *b)
{
  if (a == NULL || b == NULL || a->kind != PV_TYPE_TENSOR || b->kind != PV_TYPE_TENSOR)
    return FALSE;
  if (a->rank != b->rank)
    return TRUE;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i])
      return TRUE;
  return FALSE;
}

/* The graph inputs (not initializers) @value depends on, as "“a”, “b”";
 * NULL when none (a few hops are followed). */
static char *
condition_inputs (const PvGraph *g, int value)
{
  g_autoptr (GString) names = g_string_new (NULL);
  g_autoptr (GArray) todo = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree gboolean *seen = g_new0 (gboolean, MAX (g->n_values, 1));
  int visits = 0;

  if (value >= 0)
    g_array_append_val (todo, value);
  while (todo->len > 0 && visits++ < 256)
    {
      int v = g_array_index (todo, int, todo->len - 1);
      const PvValue *pv = &g->values[v];
      g_array_set_size (todo, todo->len - 1);
      if (seen[v])
        continue;
      seen[v] = TRUE;
      if ((pv->flags & PV_VALUE_GRAPH_INPUT) && !(pv->flags & PV_VALUE_INITIALIZER))
        g_string_append_printf (names, "%s“%s”", names->len ? ", " : "", pv->name);
      if (pv->producer >= 0)
        for (int k = 0; k < g->nodes[pv->producer].n_inputs; k++)
          if (g->nodes[pv->producer].inputs[k] >= 0)
            g_array_append_val (todo, g->nodes[pv->producer].inputs[k]);
    }
  return names->len ? g_strdup (names->str) : NULL;
}

/* The If's condition when shape-value propagation or --input-value knows it. */
static gboolean
known_condition (PvInferContext *ctx, gboolean *taken)
{
  const PvValueShape *cond = pv_infer_input (ctx, 0);
  gint64 c;

  /* ORT's view never folds: ORT plans both branches. */
  if (pv_infer_ort_view (ctx) || cond == NULL || cond->n_data != 1 || !pv_dim_is_const (cond->data[0], &c))
    return FALSE;
  *taken = c != 0;
  return TRUE;
}

static gboolean
infer_if (PvInferContext *ctx, const PvNode *node)
{
  const PvGraph *then_g = subgraph_attr (node, "then_branch"), *else_g = subgraph_attr (node, "else_branch");
  const PvValueShape *const *then_out, *const *else_out;
  gboolean taken, folded, warned = FALSE;

  if (then_g == NULL || else_g == NULL)
    return FALSE;
  /* Both branches are inferred: each gets a session of its own. */
  then_out = pv_infer_subgraph (ctx, then_g, NULL, 0);
  else_out = pv_infer_subgraph (ctx, else_g, NULL, 0);
  folded = known_condition (ctx, &taken);
  for (int k = 0; k < node->n_outputs; k++)
    {
      const PvValueShape *t = then_out && k < then_g->n_outputs ? then_out[k] : NULL;
      const PvValueShape *e = else_out && k < else_g->n_outputs ? else_out[k] : NULL;
      if (folded)
        {
          set_merged (ctx, k, taken ? t : e, NULL, "if");
          continue;
        }
      if (!warned && branches_differ (t, e))
        {
          g_autofree char *inputs = condition_inputs (pv_infer_graph (ctx), node->inputs[0]);
          pv_infer_warn (ctx, "its condition is not known from shapes%s%s%s, and its branches give output %d "
                         "different shapes: they stay symbolic", inputs ? " (it depends on graph input " : "",
                         inputs ? inputs : "", inputs ? "; give it with --input-value NAME=V)" : "", k);
          warned = TRUE;
        }
      set_merged (ctx, k, t, e, "if");
    }
  return TRUE;
}

/* A scalar of @elem_type, as loop bodies receive their iteration number and
 * condition. */
static PvValueShape
scalar (int elem_type)
{
  PvValueShape s = { 0 };
  s.kind = PV_TYPE_TENSOR;
  s.elem_type = elem_type;
  s.rank = 0;
  return s;
}

/* Does @body's condition output always stay true when it starts true: is it
 * the condition input, passed through Identity nodes, or a constant true? */
static gboolean
body_keeps_going (const PvGraph *body)
{
  int v;

  if (body->n_outputs < 1 || body->n_inputs < 2)
    return FALSE;
  v = body->outputs[0];
  for (int hops = 0; hops <= body->n_nodes; hops++)
    {
      const PvValue *value = &body->values[v];
      gint64 x;
      if (v == body->inputs[1])
        return TRUE;
      if ((value->flags & PV_VALUE_INITIALIZER) && value->initializer && pv_tensor_get_int (value->initializer, 0, &x))
        return x != 0;
      if (value->producer < 0 || g_strcmp0 (body->nodes[value->producer].op_type, "Identity") != 0
          || body->nodes[value->producer].n_inputs < 1 || body->nodes[value->producer].inputs[0] < 0)
        return FALSE;
      v = body->nodes[value->producer].inputs[0];
    }
  return FALSE;
}

/* Is the Loop's condition input absent or a constant true, and its body's
 * condition never false: then M iterations run. */
static gboolean
runs_all_iterations (PvInferContext *ctx, const PvGraph *body)
{
  const PvValueShape *cond = pv_infer_input (ctx, 1);
  gint64 c;

  if (cond == NULL)
    return TRUE;
  return cond->n_data == 1 && pv_dim_is_const (cond->data[0], &c) && c != 0 && body_keeps_going (body);
}

static gboolean
infer_loop (PvInferContext *ctx, const PvNode *node)
{
  const PvGraph *body = subgraph_attr (node, "body");
  int n_carried = node->n_inputs - 2, n_body_in;
  g_autofree const PvValueShape **body_in = NULL;
  PvValueShape iter = scalar (PV_ELEM_INT64), cond = scalar (PV_ELEM_BOOL);
  const PvValueShape *const *body_out;
  const PvValueShape *trip = pv_infer_input (ctx, 0);
  const PvDimExpr *iterations = NULL;
  gint64 m;

  if (body == NULL || n_carried < 0)
    return FALSE;
  n_body_in = 2 + n_carried;
  body_in = g_new0 (const PvValueShape *, n_body_in);
  body_in[0] = &iter;
  body_in[1] = &cond;
  for (int i = 0; i < n_carried; i++)
    body_in[2 + i] = pv_infer_input (ctx, 2 + i);
  body_out = pv_infer_subgraph (ctx, body, body_in, n_body_in);
  if (body_out == NULL)
    return FALSE;

  /* Loop-carried values: the final one has the body's shape where it agrees
   * with the initial one. */
  for (int i = 0; i < n_carried && 1 + i < body->n_outputs; i++)
    set_merged (ctx, i, body_out[1 + i], pv_infer_input (ctx, 2 + i), "loop");

  /* The trip count is known only when M is a constant and no condition can
   * stop the loop early. */
  if (trip && trip->n_data == 1 && pv_dim_is_const (trip->data[0], &m) && runs_all_iterations (ctx, body))
    iterations = trip->data[0];
  for (int k = n_carried; k < node->n_outputs && 1 + k < body->n_outputs; k++)
    {
      const PvValueShape *slice = body_out[1 + k];
      if (slice == NULL || slice->kind != PV_TYPE_TENSOR || slice->rank < 0)
        {
          if (slice && slice->kind != PV_TYPE_UNKNOWN)
            pv_infer_set_output (ctx, k, slice->elem_type, -1, NULL);
          continue;
        }
      {
        g_autofree const PvDimExpr **dims = g_new (const PvDimExpr *, slice->rank + 1);
        dims[0] = iterations ? iterations : pv_infer_fresh (ctx, "loop");
        for (int i = 0; i < slice->rank; i++)
          dims[1 + i] = slice->dims[i];
        pv_infer_set_output (ctx, k, slice->elem_type, slice->rank + 1, dims);
      }
    }
  return TRUE;
}

static int
axis_at (const gint64 *axes, int n_axes, int i, int rank)
{
  gint64 a = i < n_axes ? axes[i] : 0;
  return (int) (a < 0 ? a + rank : a);
}

/* Scan 9+: state inputs then scan inputs; each scan input loses its scan
 * axis in the body, each scan output gains one of the sequence length.
 * Scan 8 has an optional sequence_lens first and batch axis 0 everywhere. */
static gboolean
infer_scan (PvInferContext *ctx, const PvNode *node)
{
  const PvGraph *body = subgraph_attr (node, "body");
  int n_scan = (int) pv_infer_attr_int (node, "num_scan_inputs", 0);
  gboolean v8 = node->opset < 9;
  int first = v8 ? 1 : 0, n_state = node->n_inputs - first - n_scan;
  const gint64 *in_axes, *out_axes;
  int n_in_axes = pv_infer_attr_ints (node, "scan_input_axes", &in_axes);
  int n_out_axes = pv_infer_attr_ints (node, "scan_output_axes", &out_axes);
  g_autofree const PvValueShape **body_in = NULL;
  g_autofree PvValueShape *slices = NULL;
  const PvValueShape *const *body_out;
  const PvDimExpr *seq_len = NULL, *batch = NULL;

  if (body == NULL || n_scan <= 0 || n_state < 0)
    return FALSE;
  body_in = g_new0 (const PvValueShape *, n_state + n_scan);
  slices = g_new0 (PvValueShape, n_scan);
  for (int i = 0; i < n_state; i++)
    {
      const PvValueShape *state = pv_infer_input (ctx, first + i);
      body_in[i] = state;
      if (v8 && state && state->rank > 0)
        {
          /* The body sees one batch entry: drop axis 0. */
          PvValueShape *s = g_newa (PvValueShape, 1);
          *s = *state;
          batch = state->dims[0];
          s->rank = state->rank - 1;
          s->dims = state->dims + 1;
          s->data = NULL;
          s->n_data = 0;
          body_in[i] = s;
        }
    }
  for (int j = 0; j < n_scan; j++)
    {
      const PvValueShape *in = pv_infer_input (ctx, first + n_state + j);
      int axis, drop = v8 ? 2 : 1;
      if (in == NULL || in->kind != PV_TYPE_TENSOR || in->rank < drop)
        continue;
      axis = v8 ? 1 : axis_at (in_axes, n_in_axes, j, in->rank);
      if (axis < 0 || axis >= in->rank)
        continue;
      if (seq_len == NULL)
        seq_len = in->dims[axis];
      if (v8)
        batch = in->dims[0];
      slices[j].kind = PV_TYPE_TENSOR;
      slices[j].elem_type = in->elem_type;
      slices[j].rank = in->rank - drop;
      slices[j].dims = g_newa (const PvDimExpr *, MAX (slices[j].rank, 1));
      for (int i = 0, w = 0; i < in->rank; i++)
        if (i != axis && !(v8 && i == 0))
          slices[j].dims[w++] = in->dims[i];
      body_in[n_state + j] = &slices[j];
    }
  body_out = pv_infer_subgraph (ctx, body, body_in, n_state + n_scan);
  if (body_out == NULL)
    return FALSE;
  if (seq_len == NULL)
    seq_len = pv_infer_fresh (ctx, "scan");

  for (int k = 0; k < node->n_outputs && k < body->n_outputs; k++)
    {
      const PvValueShape *o = body_out[k];
      gboolean is_state = k < n_state;
      int extra = (v8 ? 1 : 0) + (is_state ? 0 : 1), axis, rank;
      if (o == NULL || o->kind != PV_TYPE_TENSOR || o->rank < 0)
        continue;
      rank = o->rank + extra;
      {
        g_autofree const PvDimExpr **dims = g_new (const PvDimExpr *, rank);
        int r = 0;
        axis = is_state ? -1 : (v8 ? 1 : axis_at (out_axes, n_out_axes, k - n_state, rank));
        for (int i = 0; i < rank; i++)
          {
            if (v8 && i == 0)
              dims[i] = batch ? batch : pv_infer_fresh (ctx, "scan");
            else if (i == axis)
              dims[i] = seq_len;
            else
              dims[i] = o->dims[r++];
          }
        pv_infer_set_output (ctx, k, o->elem_type, rank, dims);
      }
    }
  return TRUE;
}

const PvInferOp pv_infer_ops_control[] = {
  { "", "If", infer_if },
  { "", "Loop", infer_loop },
  { "", "Scan", infer_scan },
  { NULL },
};
