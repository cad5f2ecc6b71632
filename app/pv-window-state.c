/* pv-window-state.c: the window's size, side pane, planner, registry and
 * view toggles, remembered in pv-app-state when a window closes and given
 * to each new window. */
#include "pv-window-private.h"

#include "pv-app-state.h"

/* The win.* view toggles: window properties of the same names. */
static const char *const toggles[] = {
  "colour-by-kind",
  "show-trigger-arrows",
  "show-notify-arrows",
  "show-reuse-links",
  "show-side-pane",
};

#define MIN_WIDTH 320
#define MIN_HEIGHT 240
#define MAX_SIZE 16384

void
_pv_window_state_save (PvWindow *self)
{
  g_autoptr (PvAppState) state = NULL;
  g_autoptr (GError) error = NULL;
  const char *page;
  int width = 0, height = 0, side;

  if (!self->remember)
    return;
  state = pv_app_state_load (NULL);
  /* GTK 4 keeps the default size at the unmaximized size the user chose. */
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  if (width >= MIN_WIDTH && height >= MIN_HEIGHT)
    {
      pv_app_state_set_int (state, "width", width);
      pv_app_state_set_int (state, "height", height);
    }
  pv_app_state_set_boolean (state, "maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
  /* Only a side pane laid out on screen has a width worth keeping: what
   * lies right of the divider's position (the pane and the handle), as
   * paned_max_position_cb() gives it back. */
  side = gtk_widget_get_width (GTK_WIDGET (self->paned)) - gtk_paned_get_position (self->paned);
  if (self->paned_positioned && gtk_widget_get_mapped (self->side_pane) && side >= PV_SIDE_PANE_MIN)
    pv_app_state_set_double (state, "side-pane-share",
                             (double) side / gtk_widget_get_width (GTK_WIDGET (self->paned)));
  page = gtk_stack_get_visible_child_name (self->side_stack);
  if (page)
    pv_app_state_set_string (state, "side-page", page);
  pv_app_state_set_int (state, "planner", pv_document_get_planner (self->document));
  pv_app_state_set_int (state, "registry", pv_document_get_registry (self->document));
  for (guint i = 0; i < G_N_ELEMENTS (toggles); i++)
    {
      gboolean on = FALSE;
      g_object_get (self, toggles[i], &on, NULL);
      pv_app_state_set_boolean (state, toggles[i], on);
    }
  if (!pv_app_state_save (state, &error))
    g_debug ("cannot save the window state in %s: %s", pv_app_state_get_path (state), error->message);
}

void
_pv_window_state_restore (PvWindow *self)
{
  g_autoptr (PvAppState) state = NULL;
  g_autofree char *page = NULL;
  int width, height, planner, registry;
  double share;

  if (!self->remember)
    return;
  state = pv_app_state_load (NULL);
  /* Values out of range (a hand-edited file) are ignored one by one. */
  width = pv_app_state_get_int (state, "width", 0);
  height = pv_app_state_get_int (state, "height", 0);
  if (width >= MIN_WIDTH && height >= MIN_HEIGHT && width <= MAX_SIZE && height <= MAX_SIZE)
    gtk_window_set_default_size (GTK_WINDOW (self), width, height);
  if (pv_app_state_get_boolean (state, "maximized", FALSE))
    gtk_window_maximize (GTK_WINDOW (self));
  share = pv_app_state_get_double (state, "side-pane-share", 0);
  if (share > 0 && share < 1)
    self->side_pane_share = share;
  page = pv_app_state_dup_string (state, "side-page");
  if (page && gtk_stack_get_child_by_name (self->side_stack, page))
    gtk_stack_set_visible_child_name (self->side_stack, page);
  planner = pv_app_state_get_int (state, "planner", -1);
  if (planner >= PV_PLANNER_ORT && planner <= PV_PLANNER_ARENA)
    pv_document_set_planner (self->document, planner);
  registry = pv_app_state_get_int (state, "registry", -1);
  if (registry >= PV_REGISTRY_CPU && registry <= PV_REGISTRY_CUDA)
    pv_document_set_registry (self->document, registry);
  for (guint i = 0; i < G_N_ELEMENTS (toggles); i++)
    {
      gboolean on = FALSE;
      g_object_get (self, toggles[i], &on, NULL);
      on = pv_app_state_get_boolean (state, toggles[i], on);
      g_object_set (self, toggles[i], on, NULL);
    }
}
