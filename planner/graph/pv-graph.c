#include "pv-graph.h"

#include "pv-bump-alloc.h"
#include "pv-element-type.h"

static void
attribute_clear (PvAttribute *attr)
{
  g_clear_pointer (&attr->s, g_bytes_unref);
  g_clear_pointer (&attr->t, pv_tensor_free);
  g_clear_pointer (&attr->g, pv_graph_free);
  g_free (attr->floats);
  g_free (attr->ints);
  for (guint i = 0; attr->strings && i < attr->n; i++)
    g_bytes_unref (attr->strings[i]);
  g_free (attr->strings);
  for (guint i = 0; attr->tensors && i < attr->n; i++)
    pv_tensor_free (attr->tensors[i]);
  g_free (attr->tensors);
  for (guint i = 0; attr->graphs && i < attr->n; i++)
    pv_graph_free (attr->graphs[i]);
  g_free (attr->graphs);
}

void
pv_node_clear_attrs (PvNode *node)
{
  for (int a = 0; a < node->n_attrs; a++)
    attribute_clear (&node->attrs[a]);
  node->n_attrs = 0;
}

void
pv_graph_free (PvGraph *graph)
{
  if (graph == NULL)
    return;

  for (int i = 0; i < graph->n_nodes; i++)
    {
      PvNode *node = &graph->nodes[i];
      /* The arrays themselves live in the graph's arena. */
      for (int a = 0; a < node->n_attrs; a++)
        attribute_clear (&node->attrs[a]);
    }
  g_free (graph->nodes);

  for (int i = 0; i < graph->n_values; i++)
    pv_tensor_free (graph->values[i].initializer);
  g_free (graph->values);
  g_free (graph->inputs);
  g_free (graph->outputs);
  g_free (graph->initializers);
  g_free (graph->consumer_ids);
  g_free (graph->order);
  g_free (graph->ort_values);
  g_clear_pointer (&graph->value_by_name, pv_name_index_free);
  g_clear_pointer (&graph->node_by_name, pv_name_index_free);
  g_free (graph->name_owners);
  g_free (graph->order_names);
  if (graph->owns_strings && graph->strings != NULL)
    g_string_chunk_free (graph->strings);
  g_clear_pointer (&graph->arena, pv_bump_alloc_free);
  g_free (graph);
}

/* Consumers of every value as CSR: distinct nodes, ascending ids. */
void
pv_graph_build_consumers (PvGraph *graph)
{
  g_autofree int *last_node = g_new (int, MAX (graph->n_values, 1));
  guint total = 0, *fill;

  g_clear_pointer (&graph->consumer_ids, g_free);

  for (int v = 0; v < graph->n_values; v++)
    last_node[v] = -1;
  for (int pass = 0; pass < 2; pass++)
    {
      for (int v = 0; v < graph->n_values; v++)
        last_node[v] = -1;
      for (int n = 0; n < graph->n_nodes; n++)
        {
          const PvNode *node = &graph->nodes[n];
          for (int k = 0; k < node->n_inputs + node->n_implicit_inputs; k++)
            {
              int v = k < node->n_inputs ? node->inputs[k] : node->implicit_inputs[k - node->n_inputs];
              if (v < 0 || last_node[v] == n)
                continue;
              last_node[v] = n;
              if (pass == 0)
                graph->values[v].n_consumers++;
              else
                graph->consumer_ids[graph->values[v].consumers_start + graph->values[v].n_consumers++] = (guint) n;
            }
        }
      if (pass == 0)
        {
          for (int v = 0; v < graph->n_values; v++)
            {
              graph->values[v].consumers_start = total;
              total += graph->values[v].n_consumers;
              graph->values[v].n_consumers = 0;
            }
          graph->consumer_ids = g_new (guint, MAX (total, 1));
        }
    }
  fill = NULL;
  (void) fill;
}

int
pv_graph_find_value (const PvGraph *graph, const char *name)
{
  return pv_name_index_lookup (graph->value_by_name, name);
}

int
pv_graph_find_node (const PvGraph *graph, const char *name)
{
  if (graph->node_by_name == NULL)
    return -1;
  return pv_name_index_lookup (graph->node_by_name, name);
}

const guint *
pv_graph_value_consumers (const PvGraph *graph, int value_id, guint *n_out)
{
  const PvValue *value = &graph->values[value_id];

  *n_out = value->n_consumers;
  return graph->consumer_ids + value->consumers_start;
}

const PvAttribute *
pv_node_find_attr (const PvNode *node, const char *name)
{
  for (int i = 0; i < node->n_attrs; i++)
    if (g_strcmp0 (node->attrs[i].name, name) == 0)
      return &node->attrs[i];
  return NULL;
}

int
pv_graph_max_depth (const PvGraph *graph)
{
  int depth = 0;

  for (int i = 0; i < graph->n_nodes; i++)
    for (int s = 0; s < graph->nodes[i].n_subgraphs; s++)
      {
        /* Once per subgraph: MAX() would evaluate the call twice, 2^depth calls. */
        int sub = 1 + pv_graph_max_depth (graph->nodes[i].subgraphs[s]);
        depth = MAX (depth, sub);
      }
  return depth;
}

int
pv_graph_count_subgraphs (const PvGraph *graph)
{
  int count = 0;

  for (int i = 0; i < graph->n_nodes; i++)
    for (int s = 0; s < graph->nodes[i].n_subgraphs; s++)
      count += 1 + pv_graph_count_subgraphs (graph->nodes[i].subgraphs[s]);
  return count;
}

char *
pv_type_shape_to_string (const PvType *type)
{
  GString *out;

  if (type->rank < 0)
    return g_strdup ("?");
  out = g_string_new ("[");
  for (int i = 0; i < type->rank; i++)
    {
      const PvDim *dim = &type->dims[i];
      if (i > 0)
        g_string_append_c (out, ',');
      switch (dim->kind)
        {
        case PV_DIM_VALUE:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, dim->value);
          break;
        case PV_DIM_SYMBOL:
          g_string_append (out, dim->symbol);
          break;
        case PV_DIM_ANONYMOUS:
          g_string_append_c (out, '?');
          break;
        }
    }
  g_string_append_c (out, ']');
  return g_string_free (out, FALSE);
}

char *
pv_type_to_string (const PvType *type)
{
  const char *elem = type->elem_type ? pv_element_type_name (type->elem_type) : "?";

  switch (type->kind)
    {
    case PV_TYPE_TENSOR: return g_strdup (elem);
    case PV_TYPE_SPARSE_TENSOR: return g_strdup_printf ("sparse(%s)", elem);
    case PV_TYPE_SEQUENCE: return g_strdup_printf ("seq(%s)", elem);
    case PV_TYPE_OPTIONAL: return g_strdup_printf ("optional(%s)", elem);
    case PV_TYPE_MAP: return g_strdup ("map");
    case PV_TYPE_UNKNOWN:
    default: return g_strdup ("?");
    }
}
