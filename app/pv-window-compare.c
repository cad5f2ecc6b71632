/* pv-window-compare.c: what the latest re-plan of the main graph changed.
 * The document keeps the figures and timeline of the plan it replaced;
 * this shows them (PvPlanCompare) and hands the old timeline to the view
 * as its ghost while the bar's check button asks for it. */
#include "pv-window-private.h"

/* The ghost is of the main graph: not drawn behind an open body. */
static void
update_ghost (PvWindow *self)
{
  PvTimelineModel *main = pv_document_get_timeline (self->document);
  gboolean on = gtk_revealer_get_reveal_child (self->compare_revealer) &&
                pv_plan_compare_get_show_ghost (self->compare) && main != NULL &&
                pv_timeline_view_get_model (self->timeline) == main;

  pv_timeline_view_set_ghost (self->timeline, on ? pv_document_get_previous_timeline (self->document) : NULL);
}

static void
plan_changed_cb (PvWindow *self, PvDocument *document)
{
  PvSessionFigures before, after;
  guint serial = pv_document_get_comparison (document, &before, &after);

  if (serial == 0)
    gtk_revealer_set_reveal_child (self->compare_revealer, FALSE);
  else if (serial != self->compare_serial)
    {
      pv_plan_compare_set_figures (self->compare, &before, &after);
      gtk_revealer_set_reveal_child (self->compare_revealer, TRUE);
    }
  self->compare_serial = serial;
  update_ghost (self);
}

static void
dismissed_cb (PvWindow *self, PvPlanCompare *compare)
{
  gtk_revealer_set_reveal_child (self->compare_revealer, FALSE);
  update_ghost (self);
}

static void
ghost_cb (PvWindow *self, GParamSpec *pspec, PvPlanCompare *compare)
{
  update_ghost (self);
}

void
_pv_window_class_compare_init (PvWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  g_type_ensure (PV_TYPE_PLAN_COMPARE);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, compare_revealer);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, compare);
}

void
_pv_window_compare_init (PvWindow *self)
{
  g_signal_connect_object (self->document, "plan-changed", G_CALLBACK (plan_changed_cb), self, G_CONNECT_SWAPPED);
  /* An open body, or back to the main graph. */
  g_signal_connect_object (self->nav, "changed", G_CALLBACK (update_ghost), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->compare, "dismissed", G_CALLBACK (dismissed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->compare, "notify::show-ghost", G_CALLBACK (ghost_cb), self, G_CONNECT_SWAPPED);
}

PvPlanCompare *
pv_window_get_plan_compare (PvWindow *self)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), NULL);
  return self->compare;
}

gboolean
pv_window_get_compare_shown (PvWindow *self)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), FALSE);
  return gtk_revealer_get_reveal_child (self->compare_revealer);
}
