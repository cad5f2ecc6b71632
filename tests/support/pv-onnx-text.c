/* pv-onnx-text.c: graphs for tests written on one line. */

#include "pv-onnx-text.h"

#include <string.h>

typedef Onnx__ValueInfoProto *(*AddValueInfo) (PvOnnxGraph *graph, const char *name, int elem_type,
                                               const char *shape);

static void
add_value_infos (PvOnnxGraph *graph, AddValueInfo add, int elem_type, const char *text)
{
  g_auto (GStrv) items = NULL;

  g_return_if_fail (graph && text);
  items = g_strsplit (text, " ", -1);
  for (gsize i = 0; items[i]; i++)
    {
      g_auto (GStrv) name_shape = g_strsplit (items[i], ":", 2);

      if (name_shape[0] && name_shape[0][0])
        add (graph, name_shape[0], elem_type, name_shape[1]);
    }
}

void
pv_onnx_graph_add_inputs (PvOnnxGraph *graph, int elem_type, const char *text)
{
  add_value_infos (graph, pv_onnx_graph_add_input, elem_type, text);
}

void
pv_onnx_graph_add_outputs (PvOnnxGraph *graph, int elem_type, const char *text)
{
  add_value_infos (graph, pv_onnx_graph_add_output, elem_type, text);
}

void
pv_onnx_graph_add_value_infos (PvOnnxGraph *graph, int elem_type, const char *text)
{
  add_value_infos (graph, pv_onnx_graph_add_value_info, elem_type, text);
}

/* One "name=value" of pv_onnx_graph_add_nodes(): an integer, or a list of
 * them in brackets. */
static gboolean
node_add_text_attr (PvOnnxNode *node, const char *text)
{
  g_auto (GStrv) attr = g_strsplit (text, "=", 2);
  gsize len = attr[1] ? strlen (attr[1]) : 0;
  gboolean list = len >= 2 && attr[1][0] == '[' && attr[1][len - 1] == ']';
  g_auto (GStrv) items = NULL;
  g_autofree gint64 *values = NULL;
  gsize n;

  if (len == 0)
    return FALSE;
  if (list)
    attr[1][len - 1] = '\0';
  items = g_strsplit (attr[1] + list, ",", list ? -1 : 1);
  n = g_strv_length (items);
  values = g_new (gint64, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    if (!g_ascii_string_to_signed (items[i], 10, G_MININT64, G_MAXINT64, &values[i], NULL))
      return FALSE;
  if (list)
    pv_onnx_node_add_attr_ints (node, attr[0], values, n);
  else
    pv_onnx_node_add_attr_int (node, attr[0], values[0]);
  return TRUE;
}

PvOnnxNode *
pv_onnx_graph_add_nodes (PvOnnxGraph *graph, const char *text)
{
  g_auto (GStrv) items = NULL;
  gsize first = graph ? graph->n_node : 0;

  g_return_val_if_fail (graph && text, NULL);
  items = g_strsplit (text, ";", -1);
  for (gsize i = 0; items[i]; i++)
    {
      g_auto (GStrv) words = g_strsplit (g_strstrip (items[i]), " ", -1);
      g_auto (GStrv) ends = NULL, inputs = NULL, outputs = NULL;
      gboolean named;
      PvOnnxNode *node;

      if (words[0] == NULL || words[0][0] == '\0')
        continue;
      named = words[1] && !strchr (words[1], '>');
      ends = words[1] && (!named || words[2]) ? g_strsplit (words[named ? 2 : 1], ">", 2) : NULL;
      if (ends == NULL || ends[1] == NULL)
        {
          g_critical ("node \"%s\": not \"op_type [name] inputs>outputs\"", items[i]);
          continue;
        }
      inputs = g_strsplit (ends[0], ",", -1);
      outputs = g_strsplit (ends[1], ",", -1);
      node = pv_onnx_graph_add_node (graph, words[0], named ? words[1] : NULL, (const char *const *) inputs,
                                     (const char *const *) outputs);
      for (gsize k = named ? 3 : 2; words[k]; k++)
        if (!node_add_text_attr (node, words[k]))
          g_critical ("node \"%s\": attribute \"%s\" is not name=integer or name=[integer,...]", items[i], words[k]);
    }
  return graph->n_node > first ? graph->node[first] : NULL;
}
