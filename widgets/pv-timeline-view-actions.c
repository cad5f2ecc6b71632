/* pv-timeline-view-actions.c: the timeline view's actions (timeline.*),
 * their keys, and the move menu (right-click, Menu, Shift+F10). */
#include "pv-timeline-view-private.h"

#include "pv-device-menu.h"

const char *const pv_timeline_view_zoom_in_accels[] = { "<Control>plus", "<Control>equal", "<Control>KP_Add", NULL };
const char *const pv_timeline_view_zoom_out_accels[] = { "<Control>minus", "<Control>KP_Subtract", NULL };
const char *const pv_timeline_view_zoom_fit_accels[] = { "<Control>0", "<Control>KP_0", NULL };

/* ---- the move menu ---- */

/* The menu for the selected kernels: every stream that does not already
 * run all of them, and a new stream. */
static GMenuModel *
build_move_menu (PvTimelineView *self)
{
  const PvTimelineModel *m = self->model;
  GMenu *menu = g_menu_new ();
  GMenu *section = g_menu_new ();

  for (int s = 0; s < m->n_streams; s++)
    {
      const PvTimelineLane *lane = &m->streams[s];
      g_autoptr (GMenuItem) item = NULL;
      g_autofree char *label = NULL;
      const char *device = pv_device_type_name (lane->device);
      gboolean all_there = TRUE;

      for (guint i = 0; i < self->selected->len && all_there; i++)
        {
          int k = m->node_kernel[g_array_index (self->selected, int, i)];
          all_there = k >= 0 && m->kernels[k].lane == s;
        }
      if (all_there)
        continue;
      label = device ? g_strdup_printf ("Move to Stream %d · %s", lane->id, device)
                     : g_strdup_printf ("Move to Stream %d · device %d", lane->id, lane->device);
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "timeline.move-nodes", g_variant_new_int32 (lane->id));
      g_menu_append_item (section, item);
    }
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_object_unref (section);
  section = g_menu_new ();
  g_menu_append (section, "Move to New Stream", "timeline.move-nodes(-1)");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_object_unref (section);
  section = pv_device_menu_new (m, (const int *) self->selected->data, self->selected->len, "timeline.run-on-device");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_object_unref (section);
  return G_MENU_MODEL (menu);
}

/* Opens the move menu under @at for the selected kernels. With
 * @on_kernel (a right-click), only over a kernel, which becomes the
 * selection first unless it is selected. FALSE when there is nothing to
 * move. */
gboolean
_pv_timeline_view_context_menu_at (PvTimelineView *self, const GdkRectangle *at, gboolean on_kernel)
{
  g_autoptr (GMenuModel) model = NULL;
  PvTimelineHit hit;

  if (self->renderer == NULL || !self->model->has_plan)
    return FALSE;
  if (on_kernel)
    {
      if (!pv_timeline_renderer_hit_test (self->renderer, at->x, at->y, &hit) || hit.kind != PV_TIMELINE_HIT_KERNEL ||
          hit.node < 0)
        return FALSE;
      if (_pv_timeline_view_nodes_find (self->selected, hit.node) < 0)
        {
          PvTimelineSelection sel = _pv_timeline_view_selection_for_hit (&hit);
          _pv_timeline_view_set_selection (self, &sel);
        }
    }
  if (self->selected->len == 0)
    return FALSE;
  /* A new popover for each menu: one whose model is replaced keeps the
   * size of its first menu. */
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  model = build_move_menu (self);
  self->menu = gtk_popover_menu_new_from_model (model);
  gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
  gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
  gtk_widget_set_halign (self->menu, GTK_ALIGN_START);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), at);
  gtk_popover_popup (GTK_POPOVER (self->menu));
  return TRUE;
}

/* ---- actions ---- */

static void
zoom_in_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_timeline_view_zoom (PV_TIMELINE_VIEW (widget), PV_TIMELINE_VIEW_ZOOM_STEP);
}

static void
zoom_out_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_timeline_view_zoom (PV_TIMELINE_VIEW (widget), 1.0 / PV_TIMELINE_VIEW_ZOOM_STEP);
}

static void
zoom_fit_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_timeline_view_zoom_fit (PV_TIMELINE_VIEW (widget));
}

static void
focus_selection_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_timeline_view_focus_selection (PV_TIMELINE_VIEW (widget));
}

/* Esc: the range first, if any, then the selection. */
static void
clear_selection_action (GtkWidget *widget, const char *name, GVariant *param)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (widget);

  if (self->options.range_t1 > self->options.range_t0)
    pv_timeline_view_set_range (self, 0, 0);
  else
    pv_timeline_view_clear_selection (self);
}

static void
jump_to_peak_action (GtkWidget *widget, const char *name, GVariant *param)
{
  if (!pv_timeline_view_jump_to_peak (PV_TIMELINE_VIEW (widget)))
    gtk_widget_error_bell (widget);
}

static void
pan_action (GtkWidget *widget, const char *name, GVariant *param)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (widget);
  double dx, dy;

  g_variant_get (param, "(dd)", &dx, &dy);
  if (dx != 0)
    _pv_timeline_view_pan_by (self, dx * gtk_widget_get_width (widget));
  if (dy != 0)
    _pv_timeline_view_scroll_by (self, dy);
}

static void
move_nodes_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_timeline_view_request_move (PV_TIMELINE_VIEW (widget), g_variant_get_int32 (param));
}

static void
run_on_device_action (GtkWidget *widget, const char *name, GVariant *param)
{
  int device, stream;

  g_variant_get (param, "(ii)", &device, &stream);
  pv_timeline_view_request_run_on_device (PV_TIMELINE_VIEW (widget), device, stream);
}

/* Menu key, Shift+F10: the menu under the selected kernel (or in the
 * middle when it is out of sight). */
static void
context_menu_action (GtkWidget *widget, const char *name, GVariant *param)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  GdkRectangle at = { width / 2, height / 2, 1, 1 };
  double kx, ky, kw, kh;

  if (self->renderer == NULL)
    return;
  if (self->options.selection.kind == PV_TIMELINE_HIT_KERNEL &&
      pv_timeline_renderer_get_kernel_rect (self->renderer, self->model->node_kernel[self->options.selection.id],
                                            &kx, &ky, &kw, &kh) &&
      kx + kw > 0 && kx < width && ky + kh > 0 && ky < height)
    {
      at.x = (int) MAX (kx, 0);
      at.y = (int) ky;
      at.width = (int) MAX (MIN (kx + kw, width) - at.x, 1);
      at.height = (int) kh;
    }
  if (!_pv_timeline_view_context_menu_at (self, &at, FALSE))
    gtk_widget_error_bell (widget);
}

static void
show_shortcuts_action (GtkWidget *widget, const char *name, GVariant *param)
{
  gtk_widget_activate_action (widget, "win.show-help-overlay", NULL);
}

/* Binds each of @accels (GTK accelerator strings) to @action. */
static void
add_bindings (GtkWidgetClass *widget_class, const char *const *accels, const char *action)
{
  for (int i = 0; accels[i]; i++)
    {
      guint key;
      GdkModifierType mods;
      if (gtk_accelerator_parse (accels[i], &key, &mods))
        gtk_widget_class_add_binding_action (widget_class, key, mods, action, NULL);
      else
        g_critical ("not an accelerator: %s", accels[i]);
    }
}

void
_pv_timeline_view_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_in_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-fit", NULL, zoom_fit_action);
  gtk_widget_class_install_action (widget_class, "timeline.focus-selection", NULL, focus_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.clear-selection", NULL, clear_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan", "(dd)", pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.show-shortcuts", NULL, show_shortcuts_action);
  gtk_widget_class_install_action (widget_class, "timeline.move-nodes", "i", move_nodes_action);
  gtk_widget_class_install_action (widget_class, "timeline.run-on-device", "(ii)", run_on_device_action);
  gtk_widget_class_install_action (widget_class, "timeline.context-menu", NULL, context_menu_action);
  gtk_widget_class_install_action (widget_class, "timeline.jump-to-peak", NULL, jump_to_peak_action);

  add_bindings (widget_class, pv_timeline_view_zoom_in_accels, "timeline.zoom-in");
  add_bindings (widget_class, pv_timeline_view_zoom_out_accels, "timeline.zoom-out");
  add_bindings (widget_class, pv_timeline_view_zoom_fit_accels, "timeline.zoom-fit");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "timeline.focus-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_p, 0, "timeline.jump-to-peak", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "timeline.clear-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.pan", "(dd)", -0.1, 0.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.pan", "(dd)", 0.1, 0.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "timeline.pan", "(dd)", 0.0, -40.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "timeline.pan", "(dd)", 0.0, 40.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Up, 0, "timeline.pan", "(dd)", 0.0, -300.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Down, 0, "timeline.pan", "(dd)", 0.0, 300.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "timeline.context-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "timeline.context-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_question, 0, "timeline.show-shortcuts", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_question, GDK_SHIFT_MASK, "timeline.show-shortcuts",
                                      NULL);
}
