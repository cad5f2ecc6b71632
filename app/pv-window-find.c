/* pv-window-find.c: Find over the timeline: win.find (Ctrl+F) opens the
 * bar, win.find-next / win.find-previous (Ctrl+G, Ctrl+Shift+G) step
 * through its matches wherever the focus is. */
#include "pv-window-private.h"

static void
find_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_find_bar_open (PV_WINDOW (widget)->find_bar);
}

static void
find_step_action (GtkWidget *widget, const char *name, GVariant *param)
{
  PvWindow *self = PV_WINDOW (widget);

  if (!pv_find_bar_get_open (self->find_bar))
    pv_find_bar_open (self->find_bar);
  else
    pv_find_bar_step (self->find_bar, g_str_equal (name, "win.find-next") ? 1 : -1);
}

void
_pv_window_class_find_init (PvWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  g_type_ensure (PV_TYPE_FIND_BAR);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, find_bar);
  gtk_widget_class_install_action (widget_class, "win.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "win.find-next", NULL, find_step_action);
  gtk_widget_class_install_action (widget_class, "win.find-previous", NULL, find_step_action);
}

void
_pv_window_find_init (PvWindow *self)
{
  pv_find_bar_set_timeline (self->find_bar, self->timeline);
}
