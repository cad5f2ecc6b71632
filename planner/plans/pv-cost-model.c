#include "pv-cost-model.h"

#include <string.h>

#include "pv-element-type.h"

/* A dim's value under @bounds; unbound symbols count as 1. */
static double
dim_value (const PvDimExpr *d, GHashTable *bounds)
{
  gint64 v;

  if (pv_dim_eval (d, bounds, &v, NULL) && v >= 0)
    return (double) v;
  return 1.0;
}

static double
elements (const PvValueShape *s, GHashTable *bounds)
{
  double n = 1;

  if (s == NULL || s->kind != PV_TYPE_TENSOR || s->rank < 0)
    return 0;
  for (int i = 0; i < s->rank; i++)
    n *= dim_value (s->dims[i], bounds);
  return n;
}

static const PvValueShape *
shape_of (const PvShapeInfo *shapes, const PvGraph *g, int v)
{
  return v >= 0 ? pv_shape_info_get (shapes, g, v) : NULL;
}

double
pv_node_flops (const PvShapeInfo *shapes, const PvGraph *g, int node_id, GHashTable *bounds)
{
  const PvNode *node = &g->nodes[node_id];
  const PvValueShape *out = node->n_outputs > 0 ? shape_of (shapes, g, node->outputs[0]) : NULL;
  const PvValueShape *a = node->n_inputs > 0 ? shape_of (shapes, g, node->inputs[0]) : NULL;
  const PvValueShape *b = node->n_inputs > 1 ? shape_of (shapes, g, node->inputs[1]) : NULL;
  double n_out = elements (out, bounds);

  if ((strcmp (node->op_type, "MatMul") == 0 || strcmp (node->op_type, "Gemm") == 0 ||
       strcmp (node->op_type, "FusedMatMul") == 0) && a && a->rank >= 1)
    {
      /* Each output element sums over the reduced dim K of A. */
      gboolean trans_a = strcmp (node->op_type, "Gemm") == 0 && pv_infer_attr_int (node, "transA", 0);
      double k = dim_value (a->dims[trans_a ? 0 : a->rank - 1], bounds);
      return 2.0 * n_out * k;
    }
  if ((strcmp (node->op_type, "Conv") == 0 || strcmp (node->op_type, "FusedConv") == 0) && b && b->rank >= 2)
    {
      /* Weights [M, C/group, k...]: each output element does C/group * prod(k). */
      double per_output = 1;
      for (int i = 1; i < b->rank; i++)
        per_output *= dim_value (b->dims[i], bounds);
      return 2.0 * n_out * per_output;
    }
  return n_out;
}

double
pv_roofline_cost (gpointer user_data, const PvGraph *g, int node_id)
{
  const PvRooflineCost *cost = user_data;
  const PvNode *node = &g->nodes[node_id];
  double bytes = 0, flops = pv_node_flops (cost->shapes, g, node_id, cost->bounds), t;

  for (int k = 0; k < node->n_inputs + node->n_outputs; k++)
    {
      int v = k < node->n_inputs ? node->inputs[k] : node->outputs[k - node->n_inputs];
      const PvValueShape *s = shape_of (cost->shapes, g, v);
      guint bits = s ? pv_element_type_bits (s->elem_type) : 0;
      bytes += elements (s, cost->bounds) * bits / 8.0;
    }
  t = MAX (flops / cost->flops_per_us, bytes / cost->bytes_per_us);
  return MAX (t, 0.01);
}
