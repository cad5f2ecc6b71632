#include "pv-same-tensors.h"

static void
check_same_tensor (PvSameTensorsCount *count, const PvTensor *a, const PvTensor *b)
{
  g_assert_true ((a == NULL) == (b == NULL));
  if (a == NULL)
    return;
  count->tensors++;
  g_assert_cmpint (a->elem_type, ==, b->elem_type);
  g_assert_cmpint (a->n_dims, ==, b->n_dims);
  for (int i = 0; i < a->n_dims; i++)
    g_assert_cmpint (a->dims[i], ==, b->dims[i]);
  g_assert_cmpint (a->external, ==, b->external);
  g_assert_cmpstr (a->external_location, ==, b->external_location);
  g_assert_cmpint (a->external_offset, ==, b->external_offset);
  g_assert_cmpuint (a->external_length, ==, b->external_length);
  g_assert_cmpstr (a->external_problem, ==, b->external_problem);
  g_assert_true ((a->data == NULL) == (b->data == NULL));
  if (a->data)
    {
      g_assert_true (g_bytes_equal (a->data, b->data));
      count->with_data++;
    }
}

static void check_same_graph (PvSameTensorsCount *count, const PvGraph *a, const PvGraph *b);

static void
check_same_attribute (PvSameTensorsCount *count, const PvAttribute *a, const PvAttribute *b)
{
  g_assert_cmpint (a->type, ==, b->type);
  g_assert_cmpuint (a->n, ==, b->n);
  check_same_tensor (count, a->t, b->t);
  for (guint k = 0; a->tensors && k < a->n; k++)
    check_same_tensor (count, a->tensors[k], b->tensors[k]);
  if (a->g)
    check_same_graph (count, a->g, b->g);
  for (guint k = 0; a->graphs && k < a->n; k++)
    check_same_graph (count, a->graphs[k], b->graphs[k]);
}

/* @a, loaded as planviz loads it, and @b, unpacked whole, keep the same tensors. */
static void
check_same_graph (PvSameTensorsCount *count, const PvGraph *a, const PvGraph *b)
{
  g_assert_cmpint (a->n_values, ==, b->n_values);
  g_assert_cmpint (a->n_nodes, ==, b->n_nodes);
  for (int i = 0; i < a->n_values; i++)
    check_same_tensor (count, a->values[i].initializer, b->values[i].initializer);
  for (int i = 0; i < a->n_nodes; i++)
    {
      g_assert_cmpint (a->nodes[i].n_attrs, ==, b->nodes[i].n_attrs);
      for (int k = 0; k < a->nodes[i].n_attrs; k++)
        check_same_attribute (count, &a->nodes[i].attrs[k], &b->nodes[i].attrs[k]);
    }
}

void
pv_assert_same_tensors (const PvModel *a, const PvModel *b, PvSameTensorsCount *count)
{
  check_same_graph (count, a->graph, b->graph);
}
