/* pv-window-progress.c: what the window shows while the document's worker
 * re-plans: after PV_WINDOW_PLANNING_DELAY_MS a banner over the timeline
 * with a spinner, the stage being planned and Cancel, and a dimmed
 * timeline (its plan is of older inputs). Fast re-plans show nothing. */
#include "pv-window-private.h"

void
_pv_window_update_dimmed (PvWindow *self)
{
  gboolean slow = gtk_revealer_get_reveal_child (self->planning_revealer);

  pv_timeline_view_set_dimmed (self->timeline, slow || pv_document_get_stale (self->document));
}

static void plan_stage_cb (PvWindow *self, GParamSpec *pspec, PvDocument *document);

static void
show_banner (PvWindow *self, gboolean show)
{
  /* The stage now, even when the job has not reported one yet (a slow
   * start, under a sanitizer): never the template's placeholder. */
  if (show)
    plan_stage_cb (self, NULL, self->document);
  gtk_revealer_set_reveal_child (self->planning_revealer, show);
  gtk_spinner_set_spinning (self->planning_spinner, show);
  _pv_window_update_dimmed (self);
}

static gboolean
planning_delay_cb (gpointer user_data)
{
  PvWindow *self = user_data;

  self->planning_delay = 0;
  show_banner (self, TRUE);
  return G_SOURCE_REMOVE;
}

static void
planning_cb (PvWindow *self, GParamSpec *pspec, PvDocument *document)
{
  gboolean planning = pv_document_get_planning (document);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-plan", planning);
  if (planning && self->planning_delay == 0 && !gtk_revealer_get_reveal_child (self->planning_revealer))
    self->planning_delay = g_timeout_add (PV_WINDOW_PLANNING_DELAY_MS, planning_delay_cb, self);
  else if (!planning)
    {
      g_clear_handle_id (&self->planning_delay, g_source_remove);
      show_banner (self, FALSE);
    }
}

static void
plan_stage_cb (PvWindow *self, GParamSpec *pspec, PvDocument *document)
{
  const char *stage = pv_document_get_plan_stage (document);
  g_autofree char *text = g_strdup_printf ("Planning: %s…", stage ? stage : "waiting");

  gtk_label_set_text (self->planning_label, text);
}

static void
cancel_plan_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_document_cancel_plan (PV_WINDOW (widget)->document);
}

void
_pv_window_class_progress_init (PvWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_bind_template_child (widget_class, PvWindow, planning_revealer);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, planning_spinner);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, planning_label);
  gtk_widget_class_install_action (widget_class, "win.cancel-plan", NULL, cancel_plan_action);
}

void
_pv_window_progress_init (PvWindow *self)
{
  g_signal_connect_object (self->document, "notify::planning", G_CALLBACK (planning_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::plan-stage", G_CALLBACK (plan_stage_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-plan", FALSE);
}

void
_pv_window_progress_dispose (PvWindow *self)
{
  g_clear_handle_id (&self->planning_delay, g_source_remove);
}

GtkWidget *
pv_window_get_planning_banner (PvWindow *self)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->planning_revealer);
}

GtkLabel *
pv_window_get_planning_label (PvWindow *self)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), NULL);
  return self->planning_label;
}
