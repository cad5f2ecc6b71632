/* pv-test-model.c: models built in tests, loaded (and inferred) in one call. */
#include "pv-test-model.h"

#include <string.h>

#include "pv-element-type.h"
#include "pv-onnx-text.h"

PvOnnxBuilder *
pv_test_builder_new (gint64 opset)
{
  PvOnnxBuilder *builder = pv_onnx_builder_new (8, "planviz-test");

  pv_onnx_builder_add_opset (builder, "", opset);
  return builder;
}

PvModel *
pv_test_load_built (PvOnnxBuilder *builder, const char *name)
{
  g_autoptr (GBytes) bytes = pv_onnx_builder_pack (builder);
  g_autoptr (GError) error = NULL;
  PvModel *model = pv_model_load_from_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), name, &error);

  g_assert_no_error (error);
  g_assert_nonnull (model);
  pv_onnx_builder_free (builder);
  return model;
}

PvModel *
pv_test_load_text (const char *inputs, const char *nodes, const char *outputs)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);

  pv_onnx_graph_add_inputs (g, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, inputs);
  pv_onnx_graph_add_nodes (g, nodes);
  pv_onnx_graph_add_outputs (g, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, outputs);
  return pv_test_load_built (b, "test.onnx");
}

PvSession *
pv_test_session_new (const PvModel *model, const PvKernelTable *kernels, const char *partition, GHashTable *bounds)
{
  PvSessionOptions options = { 0 };
  g_autoptr (GError) error = NULL;
  PvSession *s;

  options.partition_text = partition;
  options.partition_len = partition ? strlen (partition) : 0;
  options.bounds = bounds;
  s = pv_session_new (model, kernels, &options, &error);
  g_assert_no_error (error);
  g_assert_nonnull (s);
  return s;
}

PvTestInferred
pv_test_infer (PvOnnxBuilder *builder)
{
  g_autoptr (GError) error = NULL;
  PvTestInferred inferred;

  inferred.model = pv_test_load_built (builder, "test.onnx");
  inferred.info = pv_shape_infer (inferred.model, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (inferred.info);
  inferred.pool = pv_shape_info_get_pool (inferred.info);
  return inferred;
}

void
pv_test_inferred_clear (PvTestInferred *inferred)
{
  g_clear_pointer (&inferred->info, pv_shape_info_free);
  g_clear_pointer (&inferred->model, pv_model_free);
  inferred->pool = NULL;
}

const PvValueShape *
pv_test_inferred_shape (const PvTestInferred *inferred, const char *name)
{
  int v = pv_graph_find_value (inferred->model->graph, name);
  const PvValueShape *shape;

  g_assert_cmpint (v, >=, 0);
  shape = pv_shape_info_get (inferred->info, inferred->model->graph, v);
  g_assert_nonnull (shape);
  return shape;
}

char *
pv_test_dims_text (const PvDimExpr *const *dims, int n, const char *open, const char *close)
{
  GString *text = g_string_new (open);

  for (int i = 0; i < n; i++)
    {
      g_autofree char *dim = pv_dim_to_string (dims[i]);
      g_string_append_printf (text, "%s%s", i ? "," : "", dim);
    }
  g_string_append (text, close);
  return g_string_free (text, FALSE);
}

char *
pv_test_shape_text (const PvTestInferred *inferred, const char *name)
{
  const PvValueShape *s = pv_test_inferred_shape (inferred, name);

  return s->rank < 0 ? g_strdup ("?") : pv_test_dims_text (s->dims, s->rank, "[", "]");
}

char *
pv_test_shapes_text (const PvTestInferred *inferred, gboolean typed, const char *expected)
{
  g_auto (GStrv) items = g_strsplit (expected, "; ", -1);
  GString *got = g_string_new (NULL);

  for (int i = 0; items[i]; i++)
    {
      g_autofree char *name = g_strndup (items[i], strcspn (items[i], "="));
      g_autofree char *dims = pv_test_shape_text (inferred, name);
      const char *type = typed ? pv_element_type_name (pv_test_inferred_shape (inferred, name)->elem_type) : "";

      g_string_append_printf (got, "%s%s=%s%s", i ? "; " : "", name, type, dims);
    }
  return g_string_free (got, FALSE);
}

char *
pv_test_data_text (const PvTestInferred *inferred, const char *name)
{
  const PvValueShape *s = pv_test_inferred_shape (inferred, name);

  return s->data == NULL ? g_strdup ("none") : pv_test_dims_text (s->data, s->n_data, "{", "}");
}
