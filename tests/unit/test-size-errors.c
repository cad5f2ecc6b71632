/* test-size-errors.c: sizes are exact or refused. A value whose size
 * overflows 64 bits, comes out negative, or that a Reshape gives another
 * element count is an error naming it; never a dropped value and a zero peak.
 * A dim stated negative in the model is dropped, as ONNX and ORT do. */
#include <string.h>

#include "pv-error.h"
#include "pv-kernel-table.h"
#include "pv-session.h"
#include "pv-test-model.h"
#include "pv-onnx-text.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define N PV_ONNX_NAMES

/* x (shape @x_shape) through @nodes to y (no shape stated), loaded as @name. */
static PvModel *
load_chain (const char *x_shape, const char *nodes, const char *name)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);

  pv_onnx_graph_add_input (g, "x", F, x_shape);
  pv_onnx_graph_add_nodes (g, nodes);
  pv_onnx_graph_add_output (g, "y", F, NULL);
  return pv_test_load_built (b, name);
}

/* x (shape @x_shape) -> Relu -> r -> Relu -> y. */
static PvModel *
relu_model (const char *x_shape)
{
  return load_chain (x_shape, "Relu first x>r; Relu second r>y", "sizes.onnx");
}

static PvSession *
plan (const PvModel *model, GHashTable *bounds, GError **error)
{
  static PvKernelTable *kernels;
  PvSessionOptions options = { .bounds = bounds };

  if (kernels == NULL)
    kernels = pv_kernel_table_new_default (NULL);
  return pv_session_new (model, kernels, &options, error);
}

static void
expect_refused (const PvModel *model, GHashTable *bounds, int code, const char *fragment)
{
  g_autoptr (GError) error = NULL;
  PvSession *session = plan (model, bounds, &error);

  g_assert_null (session);
  g_assert_error (error, PV_SHAPE_ERROR, code);
  g_test_message ("%s", error->message);
  if (strstr (error->message, fragment) == NULL)
    g_error ("“%s” not in “%s”", fragment, error->message);
}

/* 2^40 x 2^40 floats: 2^82 bytes. It was dropped: "peak_bytes": 0. */
static void
test_overflow (void)
{
  g_autoptr (PvModel) model = relu_model ("1099511627776,1099511627776");

  expect_refused (model, NULL, PV_SHAPE_ERROR_OVERFLOW, "value “x”: its size overflows 64 bits");
}

/* The same at a bound: it was planned as deferred with no unbound symbol. */
static void
test_overflow_at_bounds (void)
{
  g_autoptr (PvModel) model = relu_model ("batch,1099511627776");
  g_autoptr (GHashTable) bounds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  gint64 big = G_GINT64_CONSTANT (1) << 40, small = 2;

  g_hash_table_insert (bounds, g_strdup ("batch"), g_memdup2 (&small, sizeof small));
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (PvSession) session = plan (model, bounds, &error);
    g_assert_no_error (error);
    g_assert_false (session->slots->deferred);
    g_assert_cmpuint (session->slots->peak_bytes, >=, 2 * 4 * (guint64) big);
  }
  g_hash_table_insert (bounds, g_strdup ("batch"), g_memdup2 (&big, sizeof big));
  expect_refused (model, bounds, PV_SHAPE_ERROR_OVERFLOW, "value “x”: its size overflows 64 bits at these bounds");
}

/* Each value fits, their sum does not: planners add sizes up. 2^59 floats
 * are 2^61 bytes; r, r2, r3 and y add up to 2^63. */
static void
test_total_overflow (void)
{
  g_autoptr (PvModel) model = load_chain ("576460752303423488", "Relu a x>r; Relu b r>r2; Relu c r2>r3; Relu d r3>y",
                                          "total.onnx");

  expect_refused (model, NULL, PV_SHAPE_ERROR_OVERFLOW, "the values' sizes add up to more than 2^63 bytes");
}

/* A dim stated as -5 is dropped (ORT's RemoveInvalidValues): unknown, never
 * -60 bytes. */
static void
test_stated_negative_dim (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  Onnx__ValueInfoProto *vi = pv_onnx_graph_add_input (g, "x", F, "?,3");
  Onnx__TensorShapeProto__Dimension *dim = vi->type->tensor_type->shape->dim[0];
  g_autoptr (PvModel) model = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (PvSession) session = NULL;
  const PvValueShape *x;
  gint64 v;

  /* dim_value -5: the builder's text form cannot say it. */
  dim->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
  dim->dim_value = -5;
  pv_onnx_graph_add_node (g, "Relu", "first", N ("x"), N ("r"));
  pv_onnx_graph_add_output (g, "r", F, NULL);
  model = pv_test_load_built (b, "negative.onnx");
  session = plan (model, NULL, &error);
  g_assert_no_error (error);
  x = pv_shape_info_get (session->shapes, model->graph, pv_graph_find_value (model->graph, "x"));
  g_assert_cmpint (x->rank, ==, 2);
  g_assert_false (pv_dim_is_const (x->dims[0], &v));
  g_assert_true (pv_dim_is_const (x->dims[1], &v) && v == 3);
  g_assert_true (session->slots->deferred);
}

/* A computed negative dim: Pad x [2] by -3 at the front gives [-1]. It
 * was planned as -4 bytes. */
static void
test_computed_negative (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (PvModel) model = NULL;

  pv_onnx_graph_add_input (g, "x", F, "2");
  pv_onnx_graph_add_initializer_int64s (g, "pads", (const gint64[]) { 2 }, 1, (const gint64[]) { -3, 0 });
  pv_onnx_graph_add_nodes (g, "Pad pad x,pads>p; Relu relu p>y");
  pv_onnx_graph_add_output (g, "y", F, NULL);
  model = pv_test_load_built (b, "pad.onnx");
  expect_refused (model, NULL, PV_SHAPE_ERROR_NEGATIVE, "value “p”: its size comes out negative (-4 bytes)");
}

/* x [2,3] -> Reshape (shape initializer @shape) -> r -> Relu -> y. */
static PvModel *
reshape_model (const gint64 *shape, gsize n, gboolean allowzero)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxNode *node;

  pv_onnx_graph_add_input (g, "x", F, "2,3");
  pv_onnx_graph_add_initializer_int64s (g, "shape", (const gint64[]) { (gint64) n }, 1, shape);
  node = pv_onnx_graph_add_node (g, "Reshape", "reshape", N ("x", "shape"), N ("r"));
  if (allowzero)
    pv_onnx_node_add_attr_int (node, "allowzero", 1);
  pv_onnx_graph_add_node (g, "Relu", "relu", N ("r"), N ("y"));
  pv_onnx_graph_add_output (g, "y", F, NULL);
  return pv_test_load_built (b, "reshape.onnx");
}

static void
test_impossible_reshape (void)
{
  struct {
    gint64 shape[2];
    gsize n;
    gboolean allowzero, ok;
  } cases[] = {
    { { 0 }, 1, TRUE, FALSE },      /* 6 elements to 0 */
    { { 4 }, 1, FALSE, FALSE },     /* 6 to 4 */
    { { 4, -1 }, 2, FALSE, FALSE }, /* 4 does not divide 6 */
    { { 0, -1 }, 2, TRUE, FALSE },  /* 0 x ? = 6 */
    { { 3, 2 }, 2, FALSE, TRUE },
    { { -1, 2 }, 2, FALSE, TRUE },
    { { 0, 3 }, 2, FALSE, TRUE },   /* 0 copies x's 2 */
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (PvModel) model = reshape_model (cases[i].shape, cases[i].n, cases[i].allowzero);
      if (cases[i].ok)
        {
          g_autoptr (GError) error = NULL;
          g_autoptr (PvSession) session = plan (model, NULL, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (session->slots->peak_bytes, >=, 24);
        }
      else
        expect_refused (model, NULL, PV_SHAPE_ERROR_RESHAPE,
                        "value “r”: its Reshape asks for a shape of another element count");
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/size-errors/overflow", test_overflow);
  g_test_add_func ("/size-errors/overflow-at-bounds", test_overflow_at_bounds);
  g_test_add_func ("/size-errors/total-overflow", test_total_overflow);
  g_test_add_func ("/size-errors/stated-negative-dim", test_stated_negative_dim);
  g_test_add_func ("/size-errors/computed-negative", test_computed_negative);
  g_test_add_func ("/size-errors/impossible-reshape", test_impossible_reshape);
  return g_test_run ();
}
