/* pv-graph-edit.c: adding and removing nodes of a finished graph. */
#include "pv-graph-edit.h"

#include <string.h>

#include "pv-bump-alloc.h"
#include "pv-graph-order.h"

static const char *
intern (PvGraph *graph, const char *s)
{
  return g_string_chunk_insert_const (graph->strings, s ? s : "");
}

int
pv_graph_edit_add_value (PvGraph *graph, const char *name, const PvType *type)
{
  PvValue *v;
  int id = graph->n_values;

  graph->values = g_renew (PvValue, graph->values, graph->n_values + 1);
  v = &graph->values[graph->n_values++];
  memset (v, 0, sizeof *v);
  v->name = intern (graph, name);
  v->producer = -1;
  v->outer_value = -1;
  v->ort_index = -1;
  v->type.rank = -1;
  if (type)
    {
      v->type = *type;
      if (type->rank > 0)
        {
          v->type.dims = pv_bump_alloc (graph->arena, sizeof (PvDim) * type->rank);
          memcpy (v->type.dims, type->dims, sizeof (PvDim) * type->rank);
        }
    }
  pv_name_index_set (graph->value_by_name, v->name, id);
  return id;
}

static int *
arena_ints (PvGraph *graph, const int *src, int n)
{
  int *out = pv_bump_alloc (graph->arena, sizeof (int) * MAX (n, 1));
  if (n > 0)
    memcpy (out, src, sizeof (int) * n);
  return out;
}

int
pv_graph_edit_add_node (PvGraph *graph, const char *name, const char *op_type, int opset, const int *inputs,
                        int n_inputs, const int *outputs, int n_outputs)
{
  PvNode *node;
  int id = graph->n_nodes, next_index = 0;

  for (int n = 0; n < graph->n_nodes; n++)
    next_index = MAX (next_index, graph->nodes[n].ort_index + 1);
  graph->nodes = g_renew (PvNode, graph->nodes, graph->n_nodes + 1);
  node = &graph->nodes[graph->n_nodes++];
  memset (node, 0, sizeof *node);
  node->name = intern (graph, name);
  node->op_type = intern (graph, op_type);
  node->domain = intern (graph, "");
  node->opset = opset;
  node->inputs = arena_ints (graph, inputs, n_inputs);
  node->n_inputs = n_inputs;
  node->outputs = arena_ints (graph, outputs, n_outputs);
  node->n_outputs = n_outputs;
  node->implicit_inputs = arena_ints (graph, NULL, 0);
  node->attrs = pv_bump_alloc (graph->arena, sizeof (PvAttribute));
  memset (node->attrs, 0, sizeof (PvAttribute));
  node->subgraphs = pv_bump_alloc (graph->arena, sizeof (PvGraph *));
  node->type_source = -1;
  node->ort_index = next_index;
  for (int k = 0; k < n_outputs; k++)
    if (outputs[k] >= 0)
      {
        graph->values[outputs[k]].producer = id;
        graph->values[outputs[k]].producer_output = k;
      }
  return id;
}

/* @node's attribute @name, added (zeroed) when absent. */
static PvAttribute *
attr_slot (PvGraph *graph, int node_id, const char *name)
{
  PvNode *node = &graph->nodes[node_id];
  PvAttribute *attrs;

  for (int a = 0; a < node->n_attrs; a++)
    if (strcmp (node->attrs[a].name, name) == 0)
      return &node->attrs[a];
  attrs = pv_bump_alloc (graph->arena, sizeof (PvAttribute) * (node->n_attrs + 1));
  if (node->n_attrs > 0)
    memcpy (attrs, node->attrs, sizeof (PvAttribute) * node->n_attrs);
  memset (&attrs[node->n_attrs], 0, sizeof (PvAttribute));
  attrs[node->n_attrs].name = intern (graph, name);
  node->attrs = attrs;
  return &node->attrs[node->n_attrs++];
}

void
pv_graph_edit_set_attr_int (PvGraph *graph, int node_id, const char *name, gint64 value)
{
  PvAttribute *a = attr_slot (graph, node_id, name);
  a->type = PV_ATTR_INT;
  a->i = value;
}

void
pv_graph_edit_set_attr_ints (PvGraph *graph, int node_id, const char *name, const gint64 *values, guint n)
{
  PvAttribute *a = attr_slot (graph, node_id, name);
  a->type = PV_ATTR_INTS;
  a->n = n;
  g_free (a->ints);
  /* Attribute lists are the graph's to free (pv_graph_free). */
  a->ints = g_memdup2 (values, sizeof (gint64) * n);
}

int
pv_graph_edit_add_initializer (PvGraph *graph, const char *name, PvTensor *tensor)
{
  PvType type = { PV_TYPE_TENSOR, tensor->elem_type, tensor->n_dims, NULL };
  g_autofree PvDim *dims = g_new0 (PvDim, MAX (tensor->n_dims, 1));
  int id;

  for (int d = 0; d < tensor->n_dims; d++)
    dims[d] = (PvDim) { PV_DIM_VALUE, tensor->dims[d], NULL };
  type.dims = dims;
  id = pv_graph_edit_add_value (graph, name, &type);
  graph->values[id].flags |= PV_VALUE_INITIALIZER | PV_VALUE_FROM_CONSTANT;
  graph->values[id].initializer = tensor;
  graph->initializers = g_renew (int, graph->initializers, graph->n_initializers + 1);
  graph->initializers[graph->n_initializers++] = id;
  return id;
}

void
pv_graph_edit_set_attr_float (PvGraph *graph, int node_id, const char *name, float value)
{
  PvAttribute *a = attr_slot (graph, node_id, name);
  a->type = PV_ATTR_FLOAT;
  a->f = value;
}

void
pv_graph_edit_set_output (PvGraph *graph, int node, int k, int value)
{
  graph->nodes[node].outputs[k] = value;
  graph->values[value].producer = node;
  graph->values[value].producer_output = k;
}

void
pv_graph_edit_remove_nodes (PvGraph *graph, const gboolean *remove)
{
  g_autofree int *new_id = g_new (int, MAX (graph->n_nodes, 1));
  int n = 0;

  for (int i = 0; i < graph->n_nodes; i++)
    new_id[i] = remove[i] ? -1 : n++;
  for (int i = 0; i < graph->n_nodes; i++)
    {
      PvNode *node = &graph->nodes[i];
      if (remove[i])
        {
          pv_node_clear_attrs (node);
          continue;
        }
      for (int s = 0; s < node->n_subgraphs; s++)
        node->subgraphs[s]->parent_node = new_id[i];
      graph->nodes[new_id[i]] = *node;
    }
  for (int v = 0; v < graph->n_values; v++)
    if (graph->values[v].producer >= 0)
      graph->values[v].producer = new_id[graph->values[v].producer];
  graph->n_nodes = n;
}

gboolean
pv_graph_edit_finish (PvGraph *graph, GError **error)
{
  for (int n = 0; n < graph->n_nodes; n++)
    if (graph->nodes[n].name_generated)
      {
        graph->nodes[n].name = intern (graph, "");
        graph->nodes[n].name_generated = FALSE;
      }
  for (int v = 0; v < graph->n_values; v++)
    graph->values[v].ort_index = -1;
  g_clear_pointer (&graph->order, g_free);
  g_clear_pointer (&graph->ort_values, g_free);
  g_clear_pointer (&graph->node_by_name, pv_name_index_free);
  g_clear_pointer (&graph->name_owners, g_free);
  g_clear_pointer (&graph->order_names, g_free);
  pv_graph_build_consumers (graph);
  return pv_graph_finish_order (graph, error);
}
