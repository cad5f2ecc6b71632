/* pv-ort-graph-view.c: building the ORT planner's compact view of a graph. */
#include "pv-ort-graph-view.h"

#include <string.h>

void
pv_ort_graph_view_init (PvOrtGraphView *view, const PvGraph *graph)
{
  int n = graph->n_nodes, total = 0, at = 0, n_edges = 0;

  view->flags = g_new (guint8, MAX (graph->n_ort_values, 1));
  view->producer = g_new (int, MAX (graph->n_ort_values, 1));
  for (int i = 0; i < graph->n_ort_values; i++)
    {
      const PvValue *value = &graph->values[graph->ort_values[i]];
      view->flags[i] = (guint8) (value->flags & 0x7f);
      view->producer[i] = (value->flags & PV_VALUE_OUTER_SCOPE) ? -1 : value->producer;
    }

  view->io_start = g_new (int, n + 1);
  for (int k = 0; k < n; k++)
    {
      view->io_start[k] = total;
      total += graph->nodes[k].n_inputs + graph->nodes[k].n_implicit_inputs + graph->nodes[k].n_outputs;
    }
  view->io_start[n] = total;
  view->io = g_new (int, MAX (total, 1));
  for (int k = 0; k < n; k++)
    {
      const PvNode *node = &graph->nodes[k];
      for (int j = 0; j < node->n_inputs; j++)
        view->io[at++] = node->inputs[j] >= 0 ? graph->values[node->inputs[j]].ort_index : -1;
      for (int j = 0; j < node->n_implicit_inputs; j++)
        view->io[at++] = node->implicit_inputs[j] >= 0 ? graph->values[node->implicit_inputs[j]].ort_index : -1;
      for (int j = 0; j < node->n_outputs; j++)
        view->io[at++] = node->outputs[j] >= 0 ? graph->values[node->outputs[j]].ort_index : -1;
    }

  /* Producer nodes: what pv_node_input_nodes() gives, from the arrays above. */
  view->input_nodes_start = g_new (int, n + 1);
  for (int k = 0; k < n; k++)
    n_edges += graph->nodes[k].n_inputs + graph->nodes[k].n_implicit_inputs;
  view->input_nodes = g_new (int, MAX (n_edges, 1));
  at = 0;
  for (int k = 0; k < n; k++)
    {
      const PvNode *node = &graph->nodes[k];
      const int *uses = &view->io[view->io_start[k]];
      int first = at;

      view->input_nodes_start[k] = first;
      for (int j = 0; j < node->n_inputs + node->n_implicit_inputs; j++)
        {
          int producer;
          if (uses[j] < 0)
            continue;
          view->flags[uses[j]] |= PV_ORT_VIEW_CONSUMED;
          producer = view->producer[uses[j]];
          if (producer < 0)
            continue;
          /* insert keeping the run ascending and distinct (a few inputs) */
          {
            int pos = at;
            while (pos > first && view->input_nodes[pos - 1] > producer)
              pos--;
            if (pos > first && view->input_nodes[pos - 1] == producer)
              continue;
            memmove (&view->input_nodes[pos + 1], &view->input_nodes[pos], sizeof (int) * (at - pos));
            view->input_nodes[pos] = producer;
            at++;
          }
        }
    }
  view->input_nodes_start[n] = at;
}

void
pv_ort_graph_view_clear (PvOrtGraphView *view)
{
  g_clear_pointer (&view->io_start, g_free);
  g_clear_pointer (&view->io, g_free);
  g_clear_pointer (&view->input_nodes_start, g_free);
  g_clear_pointer (&view->input_nodes, g_free);
  g_clear_pointer (&view->flags, g_free);
  g_clear_pointer (&view->producer, g_free);
}
