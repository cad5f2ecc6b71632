/* pv-window-live.c: the window's Live page: what is live at the instant
 * clicked on the live-bytes curve (or at the peak: P, win.live-at-peak),
 * what a Shift+dragged span costs; the timeline marks both. */
#include "pv-window-private.h"

/* The graph the timeline shows: NULL for the main graph (whichever graph
 * its next plan has), else the open body's. */
static const PvGraph *
shown_graph (PvWindow *self)
{
  PvTimelineModel *model = _pv_window_shown_timeline (self);
  return model && pv_subgraph_nav_get_depth (self->nav) > 0 ? model->graph : NULL;
}

static void
show_live_page (PvWindow *self)
{
  g_object_set (self, "show-side-pane", TRUE, NULL);
  gtk_stack_set_visible_child_name (self->side_stack, "live");
}

static void
instant_activated_cb (PvWindow *self, double time, int device, PvTimelineView *view)
{
  pv_live_view_show_instant (self->live, shown_graph (self), device, time);
  show_live_page (self);
}

static void
range_changed_cb (PvWindow *self, PvTimelineView *view)
{
  double t0, t1;

  if (!pv_timeline_view_get_range (view, &t0, &t1))
    t0 = t1 = 0;
  pv_live_view_show_range (self->live, shown_graph (self), pv_timeline_view_get_range_device (view), t0, t1);
  if (t1 > t0)
    show_live_page (self);
}

/* The live list changed (a new instant, a re-plan): the timeline marks it. */
static void
live_changed_cb (PvWindow *self, PvLiveView *live)
{
  const int *values;
  guint n = 0;
  double time = -1;

  values = pv_live_view_get_values (live, &n);
  pv_live_view_get_instant (live, &time, NULL);
  pv_timeline_view_set_instant (self->timeline, time, values, n);
}

static void
value_activated_cb (PvWindow *self, int value, PvLiveView *live)
{
  PvTimelineSelection sel = { PV_TIMELINE_HIT_VALUE, value };
  pv_timeline_view_set_selection (self->timeline, &sel);
}

static void
live_at_peak_action (GtkWidget *widget, const char *name, GVariant *param)
{
  PvWindow *self = PV_WINDOW (widget);

  if (!pv_timeline_view_jump_to_peak (self->timeline))
    gtk_widget_error_bell (widget);
}

void
_pv_window_live_graph_changed (PvWindow *self)
{
  pv_live_view_show_instant (self->live, NULL, 0, -1);
  pv_live_view_show_range (self->live, NULL, 0, 0, 0);
  pv_timeline_view_set_range (self->timeline, 0, 0);
}

void
_pv_window_class_live_init (PvWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  g_type_ensure (PV_TYPE_LIVE_VIEW);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, live);
  gtk_widget_class_install_action (widget_class, "win.live-at-peak", NULL, live_at_peak_action);
}

void
_pv_window_live_init (PvWindow *self)
{
  pv_side_page_set_document (PV_SIDE_PAGE (self->live), self->document);
  g_signal_connect_object (self->timeline, "instant-activated", G_CALLBACK (instant_activated_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "range-changed", G_CALLBACK (range_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->live, "changed", G_CALLBACK (live_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->live, "value-activated", G_CALLBACK (value_activated_cb), self, G_CONNECT_SWAPPED);
}
