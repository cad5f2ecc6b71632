#include "pv-random-graph.h"

#include "pv-model-loader.h"
#include "pv-onnx-builder.h"
#include "pv-test-model.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT

/* A random DAG: each node reads 1-3 earlier values (fan-in), some values are
 * read many times (fan-out), some nodes are Reshape views of their input. */
PvModel *
pv_random_graph_new (GRand *rand, GHashTable *sizes, int **views_out)
{
  return pv_random_graph_new_with_bytes (rand, sizes, views_out, NULL);
}

PvModel *
pv_random_graph_new_with_bytes (GRand *rand, GHashTable *sizes, int **views_out, GBytes **bytes_out)
{
  PvOnnxBuilder *b = pv_onnx_builder_new (8, "t");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  int n_nodes = g_rand_int_range (rand, 2, 30);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) view_names = g_ptr_array_new ();
  PvModel *m;
  int *views;

  pv_onnx_builder_add_opset (b, "", 17);
  pv_onnx_graph_add_input (g, "x", F, "4");
  g_ptr_array_add (names, g_strdup ("x"));
  for (int i = 0; i < n_nodes; i++)
    {
      int fan_in = g_rand_int_range (rand, 1, 4);
      const char *inputs[4] = { NULL };
      g_autofree char *node = g_strdup_printf ("n%d", i);
      char *out = g_strdup_printf ("v%d", i);
      int kind = g_rand_int_range (rand, 0, 6);
      gboolean view = kind == 0;          /* Identity: an alias */
      gboolean in_place = kind == 1;      /* Relu: may work in place */
      if (view || in_place)
        fan_in = 1;
      for (int k = 0; k < fan_in; k++)
        {
          /* Prefer recent values, sometimes reach far back. */
          int pick = g_rand_boolean (rand) ? (int) names->len - 1 - g_rand_int_range (rand, 0, MIN (3, (int) names->len))
                                           : g_rand_int_range (rand, 0, names->len);
          inputs[k] = names->pdata[MAX (pick, 0)];
        }
      pv_onnx_graph_add_node (g, view ? "Identity" : in_place ? "Relu" : "Sum", node, inputs,
                              (const char *const[]) { out, NULL });
      g_hash_table_insert (sizes, g_strdup (out), GUINT_TO_POINTER (g_rand_int_range (rand, 1, 5) * 64));
      if (view)
        g_ptr_array_add (view_names, out);
      g_ptr_array_add (names, out);
    }
  /* The last value and a random earlier one are graph outputs. */
  pv_onnx_graph_add_output (g, names->pdata[names->len - 1], F, "4");
  if (names->len > 3 && g_rand_boolean (rand))
    pv_onnx_graph_add_output (g, names->pdata[g_rand_int_range (rand, 1, names->len - 1)], F, "4");
  if (bytes_out)
    *bytes_out = pv_onnx_builder_pack (b);
  m = pv_test_load_built (b, "random.onnx");
  views = g_new (int, m->graph->n_values);
  for (int v = 0; v < m->graph->n_values; v++)
    views[v] = -1;
  for (guint i = 0; i < view_names->len; i++)
    {
      int v = pv_graph_find_value (m->graph, view_names->pdata[i]);
      const PvNode *node = &m->graph->nodes[m->graph->values[v].producer];
      views[v] = node->inputs[0];
    }
  *views_out = views;
  return m;
}


char *
pv_random_partition_config (GRand *rand, const PvGraph *g, int *n_streams_out)
{
  int wanted = g_rand_int_range (rand, 1, 5);  /* not inside MIN(): it evaluates twice */
  int n_streams = MIN (wanted, g->n_nodes);
  g_autofree int *stream = g_new (int, g->n_nodes);
  GString *json = g_string_new ("{\"type\":\"DeviceBasedPartitioner\",\"streams\":[");

  for (int i = 0; i < g->n_nodes; i++)
    stream[i] = i < n_streams ? i : g_rand_int_range (rand, 0, n_streams);
  for (int s = 0; s < n_streams; s++)
    {
      gboolean first = TRUE;
      g_string_append (json, s ? ",[" : "[");
      for (int i = 0; i < g->n_nodes; i++)
        if (stream[i] == s)
          {
            g_string_append_printf (json, "%s\"%s\"", first ? "" : ",", g->nodes[i].name);
            first = FALSE;
          }
      g_string_append (json, "]");
    }
  g_string_append (json, "],\"devices\":[");
  for (int s = 0; s < n_streams; s++)
    g_string_append (json, s ? ",\"0\"" : "\"0\"");
  g_string_append (json, "]}");
  *n_streams_out = n_streams;
  return g_string_free (json, FALSE);
}
