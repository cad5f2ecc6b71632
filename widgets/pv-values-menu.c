/* pv-values-menu.c: "Run on GPU / CPU" for a value's producer, from the
 * Values page. */
#include "pv-values-menu.h"

#include "pv-device-menu.h"

typedef struct {
  PvValuesView *values;  /* not owned: the menu lives on it */
  GtkWidget *popover;    /* a child of the values view */
  int node;              /* the producer the menu is for */
} ValuesMenu;

static void
values_menu_free (ValuesMenu *vm)
{
  g_clear_pointer (&vm->popover, gtk_widget_unparent);
  g_free (vm);
}

/* The popover is a child of the view: gone before the view's dispose
 * checks for children. */
static void
values_destroy_cb (PvValuesView *values, ValuesMenu *vm)
{
  g_clear_pointer (&vm->popover, gtk_widget_unparent);
}

static ValuesMenu *
get_menu (PvValuesView *values)
{
  return g_object_get_data (G_OBJECT (values), "pv-values-menu");
}

static void
run_on_device_activate (GSimpleAction *action, GVariant *param, gpointer data)
{
  ValuesMenu *vm = data;
  PvTimelineView *timeline = pv_side_page_get_timeline (PV_SIDE_PAGE (vm->values));
  int device, stream;

  if (timeline == NULL || vm->node < 0)
    return;
  g_variant_get (param, "(ii)", &device, &stream);
  pv_timeline_view_set_selected_nodes (timeline, &vm->node, 1);
  pv_timeline_view_request_run_on_device (timeline, device, stream);
}

gboolean
pv_values_menu_popup (PvValuesView *values, PvValueRow *row, double x, double y)
{
  ValuesMenu *vm = get_menu (values);
  PvTimelineView *timeline = pv_side_page_get_timeline (PV_SIDE_PAGE (values));
  PvDocument *document = pv_side_page_get_document (PV_SIDE_PAGE (values));
  PvTimelineModel *m = timeline ? pv_timeline_view_get_model (timeline) : NULL;
  const PvModel *model = document ? pv_document_get_model (document) : NULL;
  int node = row ? pv_value_row_get_producer (row) : -1;
  g_autoptr (GMenu) menu = NULL, section = NULL;
  g_autofree char *heading = NULL;

  g_return_val_if_fail (vm != NULL, FALSE);

  /* Node ids of the main graph, drawn in the timeline. */
  if (m == NULL || model == NULL || m->graph != model->graph || node < 0 || node >= m->graph->n_nodes ||
      m->node_kernel[node] < 0)
    return FALSE;
  section = pv_device_menu_new (m, &node, 1, "values.run-on-device");
  if (g_menu_model_get_n_items (G_MENU_MODEL (section)) == 0)
    return FALSE;
  menu = g_menu_new ();
  heading = g_strdup_printf ("Producer %s", m->graph->nodes[node].name);
  g_menu_append_section (menu, heading, G_MENU_MODEL (section));
  vm->node = node;
  /* A new popover for each menu, as the timeline does: one whose model is
   * replaced keeps the size of its first menu. */
  g_clear_pointer (&vm->popover, gtk_widget_unparent);
  vm->popover = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
  gtk_widget_set_parent (vm->popover, GTK_WIDGET (values));
  gtk_popover_set_has_arrow (GTK_POPOVER (vm->popover), FALSE);
  gtk_widget_set_halign (vm->popover, GTK_ALIGN_START);
  gtk_popover_set_pointing_to (GTK_POPOVER (vm->popover), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (vm->popover));
  return TRUE;
}

GtkWidget *
pv_values_menu_get_popover (PvValuesView *values)
{
  ValuesMenu *vm = get_menu (values);
  return vm ? vm->popover : NULL;
}

/* The row a cell label under (@x, @y) of the column view shows. */
static PvValueRow *
row_at (GtkWidget *column_view, double x, double y)
{
  for (GtkWidget *w = gtk_widget_pick (column_view, x, y, GTK_PICK_DEFAULT); w && w != column_view;
       w = gtk_widget_get_parent (w))
    {
      PvValueRow *row = g_object_get_data (G_OBJECT (w), "pv-row");
      if (row)
        return row;
    }
  return NULL;
}

static void
pressed_cb (GtkGestureClick *gesture, int n_press, double x, double y, ValuesMenu *vm)
{
  GtkWidget *column_view = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  PvValueRow *row = row_at (column_view, x, y);
  graphene_point_t p;

  if (row == NULL ||
      !gtk_widget_compute_point (column_view, GTK_WIDGET (vm->values), &GRAPHENE_POINT_INIT ((float) x, (float) y),
                                 &p))
    return;
  if (pv_values_menu_popup (vm->values, row, p.x, p.y))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

/* Menu, Shift+F10: the menu for the selected row, at the top of the list. */
static gboolean
menu_key_cb (GtkWidget *widget, GVariant *args, gpointer data)
{
  ValuesMenu *vm = data;
  GtkSingleSelection *selection = pv_values_view_get_selection_model (vm->values);
  PvValueRow *row = gtk_single_selection_get_selected_item (selection);
  graphene_point_t p;

  if (!gtk_widget_compute_point (widget, GTK_WIDGET (vm->values), &GRAPHENE_POINT_INIT (24, 24), &p))
    p = GRAPHENE_POINT_INIT (24, 24);
  if (!pv_values_menu_popup (vm->values, row, p.x, p.y))
    gtk_widget_error_bell (widget);
  return TRUE;
}

void
pv_values_menu_attach (PvValuesView *values)
{
  GtkWidget *column_view = GTK_WIDGET (pv_values_view_get_column_view (values));
  ValuesMenu *vm = g_new0 (ValuesMenu, 1);
  g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr (GSimpleAction) action = g_simple_action_new ("run-on-device", G_VARIANT_TYPE ("(ii)"));
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *keys = gtk_shortcut_controller_new ();
  GtkShortcutAction *open = NULL;

  g_return_if_fail (get_menu (values) == NULL);

  vm->values = values;
  vm->node = -1;
  g_object_set_data_full (G_OBJECT (values), "pv-values-menu", vm, (GDestroyNotify) values_menu_free);
  g_signal_connect (values, "destroy", G_CALLBACK (values_destroy_cb), vm);
  g_signal_connect (action, "activate", G_CALLBACK (run_on_device_activate), vm);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (action));
  gtk_widget_insert_action_group (GTK_WIDGET (values), "values", G_ACTION_GROUP (group));

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), vm);
  gtk_widget_add_controller (column_view, GTK_EVENT_CONTROLLER (click));

  open = gtk_callback_action_new (menu_key_cb, vm, NULL);
  gtk_shortcut_controller_add_shortcut (
    GTK_SHORTCUT_CONTROLLER (keys),
    gtk_shortcut_new (gtk_alternative_trigger_new (gtk_keyval_trigger_new (GDK_KEY_Menu, 0),
                                                   gtk_keyval_trigger_new (GDK_KEY_F10, GDK_SHIFT_MASK)),
                      open));
  gtk_widget_add_controller (column_view, keys);
}
