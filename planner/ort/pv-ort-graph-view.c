/* pv-ort-graph-view.c: the ORT planner's compact view of a graph. */
#include "pv-ort-graph-view.h"

void
pv_ort_graph_view_init (PvOrtGraphView *view, const PvGraph *graph)
{
  /* The node lists come with the graph (pv_graph_finish_order()). */
  view->io_at = graph->node_io_at;
  view->io = graph->node_io;
  view->input_nodes_start = graph->node_producers_start;
  view->input_nodes = graph->node_producers;

  view->flags = g_new (guint8, MAX (graph->n_ort_values, 1));
  view->producer = g_new (int, MAX (graph->n_ort_values, 1));
  for (int i = 0; i < graph->n_ort_values; i++)
    {
      const PvValue *value = &graph->values[graph->ort_values[i]];
      view->flags[i] = (guint8) (value->flags & 0x7f);
      view->producer[i] = (value->flags & PV_VALUE_OUTER_SCOPE) ? -1 : value->producer;
      if (value->n_consumers > 0)
        view->flags[i] |= PV_ORT_VIEW_CONSUMED;
    }
}

void
pv_ort_graph_view_clear (PvOrtGraphView *view)
{
  g_clear_pointer (&view->flags, g_free);
  g_clear_pointer (&view->producer, g_free);
}
