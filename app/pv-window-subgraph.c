/* pv-window-subgraph.c: the window's subgraph navigation: its actions
 * (win.open-subgraph, win.subgraph-go-to, win.subgraph-up), the bar above
 * the timeline, double-click on an If/Loop/Scan kernel, and what the
 * timeline and the Summary page show when a body is open. */
#include "pv-window-private.h"

static void
update_bar_visible (PvWindow *self)
{
  const PvModel *model = pv_document_get_model (self->document);
  gboolean subgraphs = model != NULL && pv_graph_count_subgraphs (model->graph) > 0;

  /* The bar also says why a body was closed, if the new model has none. */
  gtk_widget_set_visible (GTK_WIDGET (self->subgraph_bar),
                          subgraphs || pv_subgraph_nav_get_notice (self->nav) != NULL);
}

static void
update_actions (PvWindow *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.subgraph-up", pv_subgraph_nav_get_depth (self->nav) > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.open-subgraph",
                                 pv_subgraph_nav_get_session (self->nav) != NULL);
}

PvTimelineModel *
_pv_window_shown_timeline (PvWindow *self)
{
  return pv_subgraph_nav_get_timeline (self->nav);
}

char *
_pv_window_export_shown (PvWindow *self, PvExportKind kind)
{
  const PvSession *session = pv_subgraph_nav_get_session (self->nav);
  PvPlannerKind planner = pv_document_get_planner (self->document);

  if (session == NULL)
    return NULL;
  return kind == PV_EXPORT_TRACE_JSON ? pv_plan_export_trace (session, planner)
                                      : pv_plan_export_json (session, planner);
}

static void
nav_changed_cb (PvWindow *self, PvSubgraphNav *nav)
{
  guint depth = pv_subgraph_nav_get_depth (nav);
  PvTimelineModel *shown = pv_timeline_view_get_model (self->timeline);
  PvTimelineModel *timeline = pv_subgraph_nav_get_timeline (nav);

  /* Selections are node ids of the graph shown before: kept across a
   * re-plan of the same graph, dropped for another graph. */
  if (shown && timeline && shown->graph != timeline->graph)
    {
      pv_timeline_view_clear_selection (self->timeline);
      _pv_window_live_graph_changed (self);
    }
  if (timeline != shown)
    {
      pv_timeline_view_set_model (self->timeline, timeline);
      pv_find_bar_refresh (self->find_bar);
    }
  if (depth > 0)
    {
      g_autofree char *title = pv_subgraph_nav_dup_crumb (nav, depth);
      g_autofree char *note = pv_subgraph_nav_dup_ort_note (nav);
      pv_summary_view_show_subgraph (self->summary, pv_subgraph_nav_get_graph (nav), title, note);
    }
  else
    pv_summary_view_show_subgraph (self->summary, NULL, NULL, NULL);
  update_bar_visible (self);
  update_actions (self);
}

static void
selection_changed_cb (PvWindow *self, PvTimelineView *timeline)
{
  const PvTimelineSelection *selection = pv_timeline_view_get_selection (timeline);

  pv_subgraph_bar_set_selected_node (self->subgraph_bar,
                                     selection->kind == PV_TIMELINE_HIT_KERNEL ? selection->id : -1);
}

static void
open_subgraph (PvWindow *self, int node, int index)
{
  g_autoptr (GError) error = NULL;

  if (!pv_subgraph_nav_open (self->nav, node, index, &error))
    pv_window_show_error (self, error->message);
}

/* The first click of a double-click selected the kernel under the
 * pointer; the second opens its first body. */
static void
double_click_cb (PvWindow *self, int n_press, double x, double y, GtkGestureClick *gesture)
{
  const PvTimelineSelection *selection = pv_timeline_view_get_selection (self->timeline);
  const PvGraph *graph = pv_subgraph_nav_get_graph (self->nav);

  if (n_press != 2 || selection->kind != PV_TIMELINE_HIT_KERNEL || graph == NULL || selection->id < 0 ||
      selection->id >= graph->n_nodes || graph->nodes[selection->id].n_subgraphs == 0)
    return;
  open_subgraph (self, selection->id, 0);
}

static void
document_changed_cb (PvWindow *self)
{
  update_bar_visible (self);
  update_actions (self);
}

/* ---- actions ---- */

static void
open_subgraph_action (GtkWidget *widget, const char *name, GVariant *param)
{
  int node, index;

  g_variant_get (param, "(ii)", &node, &index);
  open_subgraph (PV_WINDOW (widget), node, index);
}

static void
subgraph_go_to_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_subgraph_nav_go_to (PV_WINDOW (widget)->nav, g_variant_get_uint32 (param));
}

static void
subgraph_up_action (GtkWidget *widget, const char *name, GVariant *param)
{
  PvSubgraphNav *nav = PV_WINDOW (widget)->nav;
  guint depth = pv_subgraph_nav_get_depth (nav);

  if (depth > 0)
    pv_subgraph_nav_go_to (nav, depth - 1);
}

void
_pv_window_class_subgraph_init (PvWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  g_type_ensure (PV_TYPE_SUBGRAPH_BAR);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, subgraph_bar);
  gtk_widget_class_install_action (widget_class, "win.open-subgraph", "(ii)", open_subgraph_action);
  gtk_widget_class_install_action (widget_class, "win.subgraph-go-to", "u", subgraph_go_to_action);
  gtk_widget_class_install_action (widget_class, "win.subgraph-up", NULL, subgraph_up_action);
  /* Bubble phase: text fields (the partition editor) keep their Backspace. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "win.subgraph-up", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "win.subgraph-up", NULL);
}

void
_pv_window_subgraph_init (PvWindow *self)
{
  GtkGesture *click;

  self->nav = pv_subgraph_nav_new (self->document);
  g_signal_connect_object (self->nav, "changed", G_CALLBACK (nav_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "plan-changed", G_CALLBACK (document_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "selection-changed", G_CALLBACK (selection_changed_cb), self,
                           G_CONNECT_SWAPPED);
  pv_subgraph_bar_set_nav (self->subgraph_bar, self->nav);

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect_object (click, "pressed", G_CALLBACK (double_click_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->timeline), GTK_EVENT_CONTROLLER (click));
  update_bar_visible (self);
  update_actions (self);
}

void
_pv_window_subgraph_dispose (PvWindow *self)
{
  if (self->nav)
    g_signal_handlers_disconnect_by_data (self->nav, self);
  g_clear_object (&self->nav);
}

PvSubgraphNav *
pv_window_get_subgraph_nav (PvWindow *self)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), NULL);
  return self->nav;
}

PvSubgraphBar *
pv_window_get_subgraph_bar (PvWindow *self)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), NULL);
  return self->subgraph_bar;
}
