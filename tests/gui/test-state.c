/* test-state.c: what planviz remembers: recent models (Open Recent, the
 * empty page), the window's state, the config last used with each model,
 * and Open Partition Config… */
#include <gdk/x11/gdkx.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "gui-fixture.h"
#include "pv-app-state.h"
#include "pv-recent.h"

/* ---- helpers ---- */

static GtkWidget *
find_by_icon (GtkWidget *root, const char *icon)
{
  if (GTK_IS_MENU_BUTTON (root) && g_strcmp0 (gtk_menu_button_get_icon_name (GTK_MENU_BUTTON (root)), icon) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_by_icon (child, icon);
      if (found)
        return found;
    }
  return NULL;
}

static GtkMenuButton *
main_menu_button (Fixture *fx)
{
  GtkWidget *titlebar = gtk_window_get_titlebar (GTK_WINDOW (fx->window));
  GtkWidget *button = find_by_icon (titlebar, "open-menu-symbolic");

  g_assert_nonnull (button);
  return GTK_MENU_BUTTON (button);
}

/* The Open Recent submenu of the main menu. */
static GMenuModel *
recent_submenu (Fixture *fx)
{
  GMenuModel *menu = gtk_menu_button_get_menu_model (main_menu_button (fx));

  for (int s = 0; s < g_menu_model_get_n_items (menu); s++)
    {
      g_autoptr (GMenuModel) section = g_menu_model_get_item_link (menu, s, G_MENU_LINK_SECTION);
      for (int i = 0; section && i < g_menu_model_get_n_items (section); i++)
        {
          g_autoptr (GMenuModel) submenu = g_menu_model_get_item_link (section, i, G_MENU_LINK_SUBMENU);
          g_autofree char *label = NULL;
          if (submenu && g_menu_model_get_item_attribute (section, i, G_MENU_ATTRIBUTE_LABEL, "s", &label) &&
              strcmp (label, "Open _Recent") == 0)
            return submenu;
        }
    }
  g_assert_not_reached ();
}

static char *
menu_string (GMenuModel *menu, int i, const char *attribute)
{
  char *value = NULL;

  if (!g_menu_model_get_item_attribute (menu, i, attribute, "s", &value))
    return NULL;
  return value;
}

/* Widgets with CSS class @css_class under @root, in order. */
static void
collect_by_class (GtkWidget *root, const char *css_class, GPtrArray *found)
{
  if (gtk_widget_has_css_class (root, css_class))
    g_ptr_array_add (found, root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    collect_by_class (child, css_class, found);
}

static const char *
subtitle (Fixture *fx)
{
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();

  collect_by_class (gtk_window_get_titlebar (GTK_WINDOW (fx->window)), "subtitle", labels);
  g_assert_cmpuint (labels->len, ==, 1);
  return gtk_label_get_text (GTK_LABEL (labels->pdata[0]));
}

static GtkDialog *
wait_for_question (Fixture *fx)
{
  for (int tries = 0; tries < 200; tries++)
    {
      GListModel *toplevels = gtk_window_get_toplevels ();
      for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
        {
          g_autoptr (GObject) item = g_list_model_get_item (toplevels, i);
          if (GTK_IS_MESSAGE_DIALOG (item) && gtk_window_get_transient_for (GTK_WINDOW (item)) == GTK_WINDOW (fx->window))
            return GTK_DIALOG (item);
        }
      spin (20);
    }
  return NULL;
}

static char *
file_uri (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  return g_file_get_uri (file);
}

static char *
data_uri (const char *name)
{
  g_autofree char *path = data_path (name);
  return file_uri (path);
}

/* Points the fixture at @window (after the old one closed). */
static void
adopt_window (Fixture *fx, PvWindow *window)
{
  fx->window = window;
  fx->document = pv_window_get_document (window);
  fx->view = pv_window_get_timeline_view (window);
  fx->editor = pv_window_get_partition_editor (window);
}

static gboolean
window_gone (Fixture *fx)
{
  return fx->window == NULL;
}

static void
forget_window (Fixture *fx)
{
  fx->window = NULL;
}

/* Closes the window as the user would (close-request, which saves the
 * state), and waits until it is destroyed. */
static void
close_window (Fixture *fx)
{
  /* gtk_window_close() ignores a window never shown. */
  if (!gtk_widget_get_realized (GTK_WIDGET (fx->window)))
    {
      gtk_window_present (GTK_WINDOW (fx->window));
      g_assert_true (wait_until (fx, settled));
    }
  g_signal_handlers_disconnect_by_data (fx->document, fx);
  g_signal_connect_swapped (fx->window, "destroy", G_CALLBACK (forget_window), fx);
  gtk_window_close (GTK_WINDOW (fx->window));
  g_assert_true (wait_until (fx, window_gone));
}

static GKeyFile *
read_state (void)
{
  g_autofree char *path = state_path ();
  GKeyFile *keys = g_key_file_new ();
  g_autoptr (GError) error = NULL;

  g_key_file_load_from_file (keys, path, G_KEY_FILE_NONE, &error);
  g_assert_no_error (error);
  return keys;
}

/* Pops the main menu up for a screenshot (@main_name), then slides to its
 * Open Recent page for another (@recent_name). */
static void
screenshot_menus (Fixture *fx, const char *main_name, const char *recent_name)
{
  GtkMenuButton *button = main_menu_button (fx);
  GtkWidget *popover, *stack = NULL;

  gtk_menu_button_popup (button);
  spin (400);
  popover = GTK_WIDGET (gtk_menu_button_get_popover (button));
  g_assert_true (gtk_widget_get_mapped (popover));
  if (main_name)
    save_widget_screenshot (popover, main_name);
  /* GtkPopoverMenu keeps its submenus as pages of a GtkStack. */
  for (GtkWidget *w = gtk_widget_get_first_child (popover); w && stack == NULL; w = gtk_widget_get_first_child (w))
    if (GTK_IS_STACK (w))
      stack = w;
  g_assert_nonnull (stack);
  for (GtkWidget *page = gtk_widget_get_first_child (stack); page; page = gtk_widget_get_next_sibling (page))
    if (page != gtk_stack_get_visible_child (GTK_STACK (stack)))
      {
        gtk_stack_set_visible_child (GTK_STACK (stack), page);
        break;
      }
  spin (400);
  save_widget_screenshot (popover, recent_name);
  gtk_menu_button_popdown (button);
  spin (200);
}

/* ---- recent models ---- */

static void
test_recent_none (Fixture *fx, gconstpointer data)
{
  GMenuModel *recent = recent_submenu (fx);
  g_autofree char *label = NULL;
  g_auto (GStrv) uris = pv_recent_dup_models (gtk_recent_manager_get_default (), PV_RECENT_MAX);
  g_autoptr (GPtrArray) buttons = g_ptr_array_new ();

  /* A fresh XDG_DATA_HOME: nothing recent; a greyed-out placeholder. */
  g_assert_cmpstr (uris[0], ==, NULL);
  g_assert_cmpint (g_menu_model_get_n_items (recent), ==, 1);
  label = menu_string (recent, 0, G_MENU_ATTRIBUTE_LABEL);
  g_assert_cmpstr (label, ==, "No Recent Models");
  collect_by_class (GTK_WIDGET (fx->window), "pv-recent-model", buttons);
  g_assert_cmpuint (buttons->len, ==, 0);
  screenshot_menus (fx, NULL, "state-main-menu-no-recent.png");
}

static guint recent_target_n;

static gboolean
menu_has_n (Fixture *fx)
{
  return g_menu_model_get_n_items (recent_submenu (fx)) == (int) recent_target_n;
}

static void
test_recent_menu (Fixture *fx, gconstpointer data)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  g_autofree char *wide = data_uri ("wide_branches.onnx"), *mlp = data_uri ("mlp.onnx"), *cnn = data_uri ("cnn.onnx");
  g_auto (GStrv) uris = NULL;
  g_autofree char *label0 = NULL, *label2 = NULL;
  GMenuModel *recent;

  /* Opening records the model; newest first. */
  open_model (fx, "mlp.onnx", NULL);
  open_model (fx, "cnn.onnx", NULL);
  uris = pv_recent_dup_models (manager, PV_RECENT_MAX);
  g_assert_cmpuint (g_strv_length (uris), ==, 3);
  g_assert_cmpstr (uris[0], ==, cnn);
  g_assert_cmpstr (uris[1], ==, mlp);
  g_assert_cmpstr (uris[2], ==, wide);

  /* The menu follows the recent manager (it says "changed" a bit later). */
  recent_target_n = 3;
  g_assert_true (wait_until (fx, menu_has_n));
  recent = recent_submenu (fx);
  label0 = menu_string (recent, 0, G_MENU_ATTRIBUTE_LABEL);
  label2 = menu_string (recent, 2, G_MENU_ATTRIBUTE_LABEL);
  g_assert_cmpstr (label0, ==, "cnn.onnx");
  /* Menu labels take mnemonics: underscores are doubled. */
  g_assert_cmpstr (label2, ==, "wide__branches.onnx");
  {
    g_autoptr (GVariant) target = g_menu_model_get_item_attribute_value (recent, 0, G_MENU_ATTRIBUTE_TARGET,
                                                                        G_VARIANT_TYPE_STRING);
    g_autofree char *action = menu_string (recent, 0, G_MENU_ATTRIBUTE_ACTION);
    g_assert_nonnull (target);
    g_assert_cmpstr (g_variant_get_string (target, NULL), ==, cnn);
    g_assert_cmpstr (action, ==, "win.open-recent");
  }

  /* Activating an item opens that model. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.open-recent", "s", mlp));
  g_assert_true (wait_until (fx, settled));
  g_assert_cmpstr (pv_document_get_title (fx->document), ==, "mlp.onnx");

  /* Screenshots: the main menu, then its Open Recent page. */
  recent_target_n = 3;
  g_assert_true (wait_until (fx, menu_has_n));
  screenshot_menus (fx, "state-main-menu.png", "state-main-menu-recent.png");
}

static const char *same_label;

static gboolean
first_label_is (Fixture *fx)
{
  g_autofree char *label = menu_string (recent_submenu (fx), 0, G_MENU_ATTRIBUTE_LABEL);
  return g_strcmp0 (label, same_label) == 0;
}

static void
add_foreign (GtkRecentManager *manager, const char *uri)
{
  GtkRecentData data = { NULL, NULL, (char *) "application/octet-stream", (char *) "someone-else",
                         (char *) "someone-else %u", NULL, FALSE };
  g_assert_true (gtk_recent_manager_add_full (manager, uri, &data));
}

static void
test_recent_filter (Fixture *fx, gconstpointer data)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  g_autofree char *gone_path = g_build_filename (fx->tmpdir, "gone.onnx", NULL);
  g_autofree char *json_path = g_build_filename (fx->tmpdir, "config.json", NULL);
  g_autofree char *foreign_path = g_build_filename (fx->tmpdir, "foreign.onnx", NULL);
  g_autofree char *foreign = file_uri (foreign_path);
  g_autofree char *gone = file_uri (gone_path);
  g_autofree char *json = file_uri (json_path);
  g_autofree char *last = NULL;
  g_auto (GStrv) uris = NULL;

  g_assert_true (g_file_set_contents (gone_path, "", 0, NULL));
  g_assert_true (g_file_set_contents (json_path, "{}", -1, NULL));
  g_assert_true (g_file_set_contents (foreign_path, "", 0, NULL));
  {
    g_autoptr (GFile) gone_file = g_file_new_for_path (gone_path);
    g_autoptr (GFile) json_file = g_file_new_for_path (json_path);
    pv_recent_add_model (manager, gone_file);
    pv_recent_add_model (manager, json_file);
  }
  add_foreign (manager, foreign);
  g_assert_cmpint (g_remove (gone_path), ==, 0);

  /* Twelve more models: only the ten newest are listed. */
  for (int i = 0; i < 12; i++)
    {
      g_autofree char *name = g_strdup_printf ("model-%02d.onnx", i);
      g_autofree char *path = g_build_filename (fx->tmpdir, name, NULL);
      g_autoptr (GFile) file = g_file_new_for_path (path);
      g_assert_true (g_file_set_contents (path, "", 0, NULL));
      pv_recent_add_model (manager, file);
      g_clear_pointer (&last, g_free);
      last = g_file_get_uri (file);
    }
  uris = pv_recent_dup_models (manager, PV_RECENT_MAX);
  g_assert_cmpuint (g_strv_length (uris), ==, PV_RECENT_MAX);
  g_assert_cmpstr (uris[0], ==, last);
  for (int i = 0; uris[i]; i++)
    {
      g_assert_true (g_str_has_suffix (uris[i], ".onnx"));
      g_assert_cmpstr (uris[i], !=, gone);
      g_assert_cmpstr (uris[i], !=, foreign);
      g_assert_cmpstr (uris[i], !=, json);
    }
  recent_target_n = PV_RECENT_MAX;
  g_assert_true (wait_until (fx, menu_has_n));

  /* Two models of one name: the menu names their folders. */
  for (int i = 0; i < 2; i++)
    {
      g_autofree char *folder = g_build_filename (fx->tmpdir, i ? "b" : "a", NULL);
      g_autofree char *path = g_build_filename (folder, "same.onnx", NULL);
      g_autoptr (GFile) file = g_file_new_for_path (path);
      g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
      g_assert_true (g_file_set_contents (path, "", 0, NULL));
      pv_recent_add_model (manager, file);
    }
  same_label = "same.onnx — b";
  g_assert_true (wait_until (fx, first_label_is));
  {
    g_autofree char *second = menu_string (recent_submenu (fx), 1, G_MENU_ATTRIBUTE_LABEL);
    g_assert_cmpstr (second, ==, "same.onnx — a");
  }
}

static char *newest_uri;

/* The empty page lists @newest_uri first. */
static gboolean
recent_buttons_shown (Fixture *fx)
{
  g_autoptr (GPtrArray) buttons = g_ptr_array_new ();
  GVariant *first;

  collect_by_class (GTK_WIDGET (fx->window), "pv-recent-model", buttons);
  if (buttons->len < 3 || !gtk_widget_is_visible (buttons->pdata[0]))
    return FALSE;
  first = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (buttons->pdata[0]));
  return g_strcmp0 (g_variant_get_string (first, NULL), newest_uri) == 0;
}

static void
test_recent_empty_page (Fixture *fx, gconstpointer data)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  const char *names[] = { "transformer.onnx", "mlp.onnx", "wide_branches.onnx" };
  g_autofree char *mlp = data_uri ("mlp.onnx");
  g_autoptr (GPtrArray) buttons = g_ptr_array_new ();
  GtkWidget *mlp_button = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = data_path (names[i]);
      g_autoptr (GFile) file = g_file_new_for_path (path);
      pv_recent_add_model (manager, file);
    }
  /* Newest first, once the recent manager says it changed. */
  newest_uri = data_uri ("wide_branches.onnx");
  g_assert_true (wait_until (fx, recent_buttons_shown));
  g_clear_pointer (&newest_uri, g_free);
  spin (300);
  save_widget_screenshot (GTK_WIDGET (fx->window), "state-empty-page-recent.png");

  /* At most five on the empty page; each opens its model. */
  collect_by_class (GTK_WIDGET (fx->window), "pv-recent-model", buttons);
  g_assert_cmpuint (buttons->len, <=, 5);
  for (guint i = 0; i < buttons->len; i++)
    {
      GVariant *target = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (buttons->pdata[i]));
      g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (buttons->pdata[i])), ==, "win.open-recent");
      if (g_strcmp0 (g_variant_get_string (target, NULL), mlp) == 0)
        mlp_button = buttons->pdata[i];
    }
  g_assert_nonnull (mlp_button);
  g_signal_emit_by_name (mlp_button, "clicked");
  g_assert_true (wait_until (fx, settled));
  g_assert_cmpstr (pv_document_get_title (fx->document), ==, "mlp.onnx");
}

static void
test_recent_guard (Fixture *fx, gconstpointer data)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (pv_partition_editor_get_buffer (fx->editor));
  g_autofree char *mlp = data_uri ("mlp.onnx");
  GtkDialog *dialog;

  /* Unsaved config changes: asks first; Cancel keeps everything. */
  insert_at_line_end (buffer, "\"/Relu\"", " ");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.open-recent", "s", mlp));
  dialog = wait_for_question (fx);
  g_assert_nonnull (dialog);
  gtk_dialog_response (dialog, GTK_RESPONSE_CANCEL);
  spin (100);
  g_assert_cmpstr (pv_document_get_title (fx->document), ==, "wide_branches.onnx");
  g_assert_true (pv_partition_editor_get_modified (fx->editor));

  /* Discard: opens it. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.open-recent", "s", mlp));
  dialog = wait_for_question (fx);
  g_assert_nonnull (dialog);
  gtk_dialog_response (dialog, GTK_RESPONSE_REJECT);
  g_assert_true (wait_until (fx, settled));
  g_assert_cmpstr (pv_document_get_title (fx->document), ==, "mlp.onnx");
  g_assert_false (pv_partition_editor_get_modified (fx->editor));
}

/* ---- window state ---- */

static int target_width;

/* The size the window was given (its default size follows resizes). */
static gboolean
window_width_reached (Fixture *fx)
{
  int width = 0, height = 0;

  gtk_window_get_default_size (GTK_WINDOW (fx->window), &width, &height);
  return width == target_width && gtk_widget_get_width (GTK_WIDGET (fx->window)) > target_width - 40;
}

/* Right of the divider: the side pane and the handle. */
static int
side_pane_width (Fixture *fx)
{
  GtkWidget *paned = gtk_widget_get_ancestor (GTK_WIDGET (fx->editor), GTK_TYPE_PANED);
  return gtk_widget_get_width (paned) - gtk_paned_get_position (GTK_PANED (paned));
}

static const char *
side_page (Fixture *fx)
{
  GtkWidget *stack = gtk_widget_get_ancestor (GTK_WIDGET (fx->editor), GTK_TYPE_STACK);
  return gtk_stack_get_visible_child_name (GTK_STACK (stack));
}

static gboolean
get_flag (Fixture *fx, const char *name)
{
  gboolean on = FALSE;
  g_object_get (fx->window, name, &on, NULL);
  return on;
}

static void
test_window_state (Fixture *fx, gconstpointer data)
{
  GtkWidget *paned = gtk_widget_get_ancestor (GTK_WIDGET (fx->editor), GTK_TYPE_PANED);
  g_autoptr (GKeyFile) keys = NULL;
  g_autofree char *page = NULL;
  int saved_side, paned_width, width = 0, height = 0;
  PvWindow *window;

  /* Change everything the state keeps. The size as a window manager
   * would (there is none under Xvfb): an X resize request. */
  g_assert_true (GDK_IS_X11_DISPLAY (gtk_widget_get_display (GTK_WIDGET (fx->window))));
  XResizeWindow (gdk_x11_display_get_xdisplay (gtk_widget_get_display (GTK_WIDGET (fx->window))),
                 gdk_x11_surface_get_xid (gtk_native_get_surface (GTK_NATIVE (fx->window))), 1300, 820);
  target_width = 1300;
  g_assert_true (wait_until (fx, window_width_reached));
  gtk_paned_set_position (GTK_PANED (paned), gtk_widget_get_width (paned) - 600);
  spin (200);
  saved_side = side_pane_width (fx);
  paned_width = gtk_widget_get_width (paned);
  g_assert_cmpint (saved_side, ==, 600);
  pv_document_set_planner (fx->document, PV_PLANNER_SLOTS);
  pv_document_set_registry (fx->document, PV_REGISTRY_CUDA);
  show_summary (fx);
  g_object_set (fx->window, "colour-by-kind", TRUE, "show-reuse-links", FALSE, "show-notify-arrows", FALSE, NULL);
  g_assert_true (wait_until (fx, settled));

  /* Closing writes it. */
  close_window (fx);
  keys = read_state ();
  g_assert_cmpint (g_key_file_get_integer (keys, "window", "width", NULL), ==, 1300);
  g_assert_cmpint (g_key_file_get_integer (keys, "window", "height", NULL), ==, 820);
  g_assert_false (g_key_file_get_boolean (keys, "window", "maximized", NULL));
  g_assert_cmpfloat_with_epsilon (g_key_file_get_double (keys, "window", "side-pane-share", NULL),
                                  (double) saved_side / paned_width, 1e-9);
  g_assert_cmpint (g_key_file_get_integer (keys, "window", "planner", NULL), ==, PV_PLANNER_SLOTS);
  g_assert_cmpint (g_key_file_get_integer (keys, "window", "registry", NULL), ==, PV_REGISTRY_CUDA);
  page = g_key_file_get_value (keys, "window", "side-page", NULL);
  g_assert_cmpstr (page, ==, "summary");
  g_assert_true (g_key_file_get_boolean (keys, "window", "colour-by-kind", NULL));
  g_assert_false (g_key_file_get_boolean (keys, "window", "show-reuse-links", NULL));
  g_assert_false (g_key_file_get_boolean (keys, "window", "show-notify-arrows", NULL));
  g_assert_true (g_key_file_get_boolean (keys, "window", "show-trigger-arrows", NULL));

  /* A new window starts from it. */
  window = new_window ();
  adopt_window (fx, window);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 1300);
  g_assert_cmpint (height, ==, 820);
  g_assert_cmpint (pv_document_get_planner (fx->document), ==, PV_PLANNER_SLOTS);
  g_assert_cmpint (pv_document_get_registry (fx->document), ==, PV_REGISTRY_CUDA);
  g_assert_cmpint (pv_timeline_view_get_memory_view (fx->view), ==, PV_TIMELINE_MEMORY_SLOTS);
  g_assert_cmpint (pv_timeline_view_get_colour_by (fx->view), ==, PV_TIMELINE_COLOUR_BY_KIND);
  g_assert_cmpuint (pv_timeline_view_get_arrows (fx->view) & (PV_TIMELINE_ARROW_REUSE | PV_TIMELINE_ARROW_NOTIFY),
                    ==, 0);
  g_assert_true (get_flag (fx, "show-trigger-arrows"));
  g_assert_true (get_flag (fx, "show-side-pane"));
  g_assert_cmpstr (side_page (fx), ==, "summary");
  gtk_window_present (GTK_WINDOW (window));
  target_width = 1300;
  g_assert_true (wait_until (fx, window_width_reached));
  open_model (fx, "wide_branches.onnx", NULL);
  spin (200);
  /* Exactly: no pixel lost per session. */
  g_assert_cmpint (side_pane_width (fx), ==, saved_side);
  g_assert_cmpint (pv_document_get_planner (fx->document), ==, PV_PLANNER_SLOTS);

  /* A narrower window: the side pane keeps its share, not its pixels. */
  paned = gtk_widget_get_ancestor (GTK_WIDGET (fx->editor), GTK_TYPE_PANED);
  XResizeWindow (gdk_x11_display_get_xdisplay (gtk_widget_get_display (GTK_WIDGET (fx->window))),
                 gdk_x11_surface_get_xid (gtk_native_get_surface (GTK_NATIVE (fx->window))), 1000, 820);
  target_width = 1000;
  g_assert_true (wait_until (fx, window_width_reached));
  spin (200);
  g_test_message ("side pane: %d of %d px, then %d of %d px", saved_side, paned_width, side_pane_width (fx),
                  gtk_widget_get_width (paned));
  g_assert_cmpfloat (fabs ((double) side_pane_width (fx) / gtk_widget_get_width (paned) - (double) saved_side / paned_width),
                     <, 0.01);
}

static void write_state (const char *contents, gssize len);

/* A share too large for a window is clamped: the timeline keeps a quarter. */
static void
test_window_state_clamped (Fixture *fx, gconstpointer data)
{
  GtkWidget *paned;

  gtk_window_destroy (GTK_WINDOW (fx->window));
  write_state ("[window]\nwidth=1200\nheight=800\nside-pane-share=0.97\n", -1);
  adopt_window (fx, new_window ());
  gtk_window_present (GTK_WINDOW (fx->window));
  target_width = 1200;
  g_assert_true (wait_until (fx, window_width_reached));
  open_model (fx, "wide_branches.onnx", NULL);
  spin (200);
  paned = gtk_widget_get_ancestor (GTK_WIDGET (fx->editor), GTK_TYPE_PANED);
  g_test_message ("side pane: %d of %d px", side_pane_width (fx), gtk_widget_get_width (paned));
  g_assert_cmpint (side_pane_width (fx), <=, gtk_widget_get_width (paned) * 3 / 4 + 1);
  g_assert_cmpint (side_pane_width (fx), >=, 200);
}

static void
test_window_state_hidden_pane (Fixture *fx, gconstpointer data)
{
  g_autoptr (GKeyFile) keys = NULL;

  /* The side pane hidden with F9 stays hidden; its width is not lost. */
  g_object_set (fx->window, "show-side-pane", FALSE, NULL);
  close_window (fx);
  keys = read_state ();
  g_assert_false (g_key_file_get_boolean (keys, "window", "show-side-pane", NULL));
  g_assert_false (g_key_file_has_key (keys, "window", "side-pane-share", NULL));
  adopt_window (fx, new_window ());
  g_assert_false (get_flag (fx, "show-side-pane"));
  gtk_window_present (GTK_WINDOW (fx->window));
  open_model (fx, "wide_branches.onnx", NULL);
}

static void
write_state (const char *contents, gssize len)
{
  g_autofree char *path = state_path ();
  g_autofree char *folder = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, len, NULL));
}

static void
assert_defaults (Fixture *fx)
{
  int width = 0, height = 0;

  gtk_window_get_default_size (GTK_WINDOW (fx->window), &width, &height);
  g_assert_cmpint (width, ==, 1400);
  g_assert_cmpint (height, ==, 900);
  g_assert_cmpint (pv_document_get_planner (fx->document), ==, PV_PLANNER_ORT);
  g_assert_cmpint (pv_document_get_registry (fx->document), ==, PV_REGISTRY_CPU);
  g_assert_false (get_flag (fx, "colour-by-kind"));
  g_assert_true (get_flag (fx, "show-side-pane"));
  g_assert_true (get_flag (fx, "show-reuse-links"));
  g_assert_cmpstr (side_page (fx), ==, "partition");
}

static void
test_state_corrupt (Fixture *fx, gconstpointer data)
{
  g_autofree char *path = state_path ();
  static const char garbage[] = "\xff\xfe[window\nwidth=\x01\x02\n\0planner=2\n";
  g_autoptr (GKeyFile) keys = NULL;

  gtk_window_destroy (GTK_WINDOW (fx->window));

  /* Not a key file: ignored (a debug message, no warning: warnings are
   * fatal in tests). Closing replaces it with a good one. */
  write_state (garbage, sizeof garbage - 1);
  adopt_window (fx, new_window ());
  assert_defaults (fx);
  close_window (fx);
  keys = read_state ();
  g_assert_cmpint (g_key_file_get_integer (keys, "window", "planner", NULL), ==, PV_PLANNER_ORT);

  /* Values out of range or of the wrong type: each ignored. */
  write_state ("[window]\nwidth=-5\nheight=99999999\nplanner=7\nregistry=-1\nside-page=nope\n"
               "side-pane-share=nan\ncolour-by-kind=maybe\nshow-reuse-links=12\nmaximized=perhaps\n"
               "[partition-configs]\nx=not a uri\n", -1);
  adopt_window (fx, new_window ());
  assert_defaults (fx);
  gtk_window_present (GTK_WINDOW (fx->window));
  /* A config entry that is not a file URI is not used. */
  open_model (fx, "wide_branches.onnx", NULL);
  g_assert_null (pv_document_get_partition_file (fx->document));
  close_window (fx);

  /* Windows line ends, a doubled '\r' and a last line without '\n': read as
   * meant ("values", not "values\r"), and saved so that the next start
   * reads the same. */
  write_state ("[window]\r\nwidth=1200\r\r\nheight=800\r\nside-page=values\r", -1);
  for (int round = 0; round < 2; round++)
    {
      int width = 0, height = 0;

      adopt_window (fx, new_window ());
      gtk_window_get_default_size (GTK_WINDOW (fx->window), &width, &height);
      g_assert_cmpint (width, ==, 1200);
      g_assert_cmpint (height, ==, 800);
      g_assert_cmpstr (side_page (fx), ==, "values");
      close_window (fx);
    }

  /* Unreadable (a folder in its place): ignored, and saving fails quietly. */
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_mkdir (path, 0700), ==, 0);
  adopt_window (fx, new_window ());
  assert_defaults (fx);
  close_window (fx);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_DIR));
  g_assert_cmpint (g_rmdir (path), ==, 0);

  adopt_window (fx, new_window ());
  gtk_window_present (GTK_WINDOW (fx->window));
  g_assert_true (wait_until (fx, settled));
}

/* ---- the config last used with a model ---- */

static void
reopen (Fixture *fx, const char *model, GFile *partition)
{
  g_autofree char *path = data_path (model);
  g_autoptr (GFile) file = g_file_new_for_path (path);

  pv_window_open (fx->window, file, partition);
  g_assert_true (wait_until (fx, settled));
  g_assert_null (pv_window_get_error (fx->window));
}

static void
test_config_remembered (Fixture *fx, gconstpointer data)
{
  g_autofree char *saved_path = g_build_filename (fx->tmpdir, "two.json", NULL);
  g_autofree char *model_path = data_path ("wide_branches.onnx");
  g_autofree char *data_config_path = data_path ("wide_branches.two-streams.json");
  g_autoptr (GFile) saved = g_file_new_for_path (saved_path);
  g_autoptr (GFile) model = g_file_new_for_path (model_path);
  g_autoptr (GFile) data_config = g_file_new_for_path (data_config_path);
  g_autoptr (GError) error = NULL;
  guint before = fx->plan_changes;

  /* Saving remembers the pair... */
  type_second_stream (fx);
  wait_for_plan (fx, before);
  g_assert_true (pv_window_save_partition (fx->window, saved, &error));
  g_assert_no_error (error);
  {
    g_autoptr (PvAppState) state = pv_app_state_load (NULL);
    g_autoptr (GFile) config = pv_app_state_dup_model_config (state, model);
    g_assert_nonnull (config);
    g_assert_true (g_file_equal (config, saved));
  }

  /* ...and opening the model without a config uses it. */
  reopen (fx, "mlp.onnx", NULL);
  g_assert_null (pv_document_get_partition_file (fx->document));
  reopen (fx, "wide_branches.onnx", NULL);
  g_assert_nonnull (pv_document_get_partition_file (fx->document));
  g_assert_true (g_file_equal (pv_document_get_partition_file (fx->document), saved));
  g_assert_cmpuint (n_streams_planned (fx), ==, 2);
  g_assert_cmpstr (subtitle (fx), ==, "partition two.json");

  /* A config given explicitly wins, and becomes the one remembered. */
  reopen (fx, "wide_branches.onnx", data_config);
  g_assert_true (g_file_equal (pv_document_get_partition_file (fx->document), data_config));
  {
    g_autoptr (PvAppState) state = pv_app_state_load (NULL);
    g_autoptr (GFile) config = pv_app_state_dup_model_config (state, model);
    g_assert_true (g_file_equal (config, data_config));
  }

  /* Saving over a 0600 file keeps it 0600 (pv_save_file). */
  g_assert_cmpint (g_chmod (saved_path, 0600), ==, 0);
  g_assert_true (pv_window_save_partition (fx->window, saved, &error));
  {
    GStatBuf st;
    g_assert_cmpint (g_stat (saved_path, &st), ==, 0);
    g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  }

  /* A remembered path that has become a FIFO is never waited on: ORT's
   * default config at once. */
  g_assert_cmpint (g_remove (saved_path), ==, 0);
  g_assert_cmpint (mkfifo (saved_path, 0600), ==, 0);
  reopen (fx, "wide_branches.onnx", NULL);
  g_assert_null (pv_document_get_partition_file (fx->document));
  g_assert_cmpuint (n_streams_planned (fx), ==, 1);

  /* A remembered file that is gone: ORT's default config. */
  g_assert_cmpint (g_remove (saved_path), ==, 0);
  g_assert_true (pv_window_save_partition (fx->window, saved, &error));
  g_assert_cmpint (g_remove (saved_path), ==, 0);
  reopen (fx, "wide_branches.onnx", NULL);
  g_assert_null (pv_document_get_partition_file (fx->document));
  g_assert_cmpuint (n_streams_planned (fx), ==, 1);
  g_assert_cmpstr (subtitle (fx), ==, "ONNX Runtime's default partition");
  g_assert_null (pv_window_get_error (fx->window));

  /* A remembered file that is no longer text: the model still opens,
   * with the default config, and the error bar says why. */
  g_assert_true (pv_window_save_partition (fx->window, saved, &error));
  g_assert_true (g_file_set_contents (saved_path, "\xff\xfe\x00 binary", 10, NULL));
  pv_window_open (fx->window, model, NULL);
  g_assert_true (wait_until (fx, settled));
  g_assert_cmpstr (pv_document_get_title (fx->document), ==, "wide_branches.onnx");
  g_assert_null (pv_document_get_partition_file (fx->document));
  g_assert_nonnull (pv_window_get_error (fx->window));
  g_test_message ("error bar: %s", pv_window_get_error (fx->window));
  g_assert_nonnull (strstr (pv_window_get_error (fx->window), "two.json"));
  g_assert_nonnull (strstr (pv_window_get_error (fx->window), "default partition"));
}

/* ---- Open Partition Config… ---- */

static char *
editor_text (Fixture *fx)
{
  return pv_partition_editor_dup_text (fx->editor);
}

static void
test_open_partition (Fixture *fx, gconstpointer data)
{
  g_autofree char *good_path = data_path ("wide_branches.two-streams.json");
  g_autofree char *bad_path = g_build_filename (fx->tmpdir, "latin1.json", NULL);
  g_autofree char *broken_path = g_build_filename (fx->tmpdir, "broken.json", NULL);
  g_autofree char *missing_path = g_build_filename (fx->tmpdir, "missing.json", NULL);
  g_autofree char *model_path = data_path ("wide_branches.onnx");
  g_autoptr (GFile) good = g_file_new_for_path (good_path);
  g_autoptr (GFile) bad = g_file_new_for_path (bad_path);
  g_autoptr (GFile) broken = g_file_new_for_path (broken_path);
  g_autoptr (GFile) missing = g_file_new_for_path (missing_path);
  g_autoptr (GFile) model = g_file_new_for_path (model_path);
  g_autofree char *good_text = NULL, *text = NULL, *before = NULL;
  const char *broken_text = "{\n  \"streams\": [ [\"0\"\n";
  g_autoptr (GError) error = NULL;
  GtkDialog *dialog;

  g_assert_true (g_file_get_contents (good_path, &good_text, NULL, NULL));

  /* A good config: into the editor, unmodified, planned, named. */
  g_assert_true (pv_window_load_partition (fx->window, good, &error));
  g_assert_no_error (error);
  g_assert_true (wait_until (fx, settled));
  text = editor_text (fx);
  g_assert_cmpstr (text, ==, good_text);
  g_assert_false (pv_partition_editor_get_modified (fx->editor));
  g_assert_true (g_file_equal (pv_document_get_partition_file (fx->document), good));
  g_assert_cmpuint (n_streams_planned (fx), ==, 2);
  g_assert_false (pv_document_get_stale (fx->document));
  g_assert_cmpstr (subtitle (fx), ==, "partition wide_branches.two-streams.json");
  {
    g_autoptr (PvAppState) state = pv_app_state_load (NULL);
    g_autoptr (GFile) config = pv_app_state_dup_model_config (state, model);
    g_assert_true (g_file_equal (config, good));
  }

  /* Not UTF-8, or missing: an error, nothing changed. */
  before = editor_text (fx);
  g_assert_true (g_file_set_contents (bad_path, "{ \"streams\": [[\"caf\xe9\"]] }", -1, NULL));
  g_assert_false (pv_window_load_partition (fx->window, bad, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  g_assert_false (pv_window_load_partition (fx->window, missing, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_free (text);
  text = editor_text (fx);
  g_assert_cmpstr (text, ==, before);
  g_assert_true (g_file_equal (pv_document_get_partition_file (fx->document), good));

  /* The guarded path shows the error in the bar. */
  pv_window_open_partition (fx->window, bad);
  g_assert_nonnull (pv_window_get_error (fx->window));
  g_assert_nonnull (strstr (pv_window_get_error (fx->window), "latin1.json"));
  pv_window_show_error (fx->window, NULL);

  /* Invalid JSON loads (to be fixed in the editor); the plan goes stale. */
  g_assert_true (g_file_set_contents (broken_path, broken_text, -1, NULL));
  g_assert_true (pv_window_load_partition (fx->window, broken, &error));
  g_assert_true (wait_until (fx, settled));
  g_free (text);
  text = editor_text (fx);
  g_assert_cmpstr (text, ==, broken_text);
  g_assert_true (pv_document_get_stale (fx->document));
  g_assert_nonnull (pv_timeline_view_get_model (fx->view));
  g_assert_true (g_file_equal (pv_document_get_partition_file (fx->document), broken));
  g_assert_cmpstr (subtitle (fx), ==, "partition broken.json");

  /* Unsaved changes: asks first. Cancel keeps them; discard loads. */
  insert_at_line_end (GTK_TEXT_BUFFER (pv_partition_editor_get_buffer (fx->editor)), "[\"0\"", "]");
  pv_window_open_partition (fx->window, good);
  dialog = wait_for_question (fx);
  g_assert_nonnull (dialog);
  gtk_dialog_response (dialog, GTK_RESPONSE_CANCEL);
  spin (100);
  g_assert_true (pv_partition_editor_get_modified (fx->editor));
  g_assert_true (g_file_equal (pv_document_get_partition_file (fx->document), broken));
  pv_window_open_partition (fx->window, good);
  dialog = wait_for_question (fx);
  g_assert_nonnull (dialog);
  gtk_dialog_response (dialog, GTK_RESPONSE_REJECT);
  g_assert_true (wait_until (fx, settled));
  g_free (text);
  text = editor_text (fx);
  g_assert_cmpstr (text, ==, good_text);
  g_assert_false (pv_partition_editor_get_modified (fx->editor));
  g_assert_false (pv_document_get_stale (fx->document));
}

static void
test_open_partition_chooser (Fixture *fx, gconstpointer data)
{
  g_auto (GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.open-partition");
  GtkWindow *chooser;
  GtkFileFilter *filter;

  g_assert_nonnull (accels[0]);
  g_assert_cmpstr (accels[0], ==, "<Shift><Control>o");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.open-partition", NULL));
  chooser = wait_for_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);
  g_assert_nonnull (chooser);
  g_assert_cmpstr (gtk_window_get_title (chooser), ==, "Open a Partition Config");
  filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (chooser));
  g_assert_nonnull (filter);
  g_assert_cmpstr (gtk_file_filter_get_name (filter), ==, "JSON Files");
  save_widget_screenshot (GTK_WIDGET (chooser), "state-open-partition-chooser.png");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  spin (200);
  g_assert_null (pv_document_get_partition_file (fx->document));
}

/* Export > PNG: the save dialog offers "Double Size (2x)" (off at first),
 * and ticking it writes the picture at twice the pixels and is kept for the
 * next export. */
static void
test_export_scale_choice (Fixture *fx, gconstpointer data)
{
  g_autofree char *path = g_build_filename (fx->tmpdir, "chosen.png", NULL);
  g_autofree char *contents = NULL;
  GtkWindow *chooser;
  gsize len = 0;

  g_assert_cmpint (pv_window_get_export_scale (fx->window), ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.export", "s", "png"));
  chooser = wait_for_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);
  g_assert_nonnull (chooser);
  g_assert_cmpstr (gtk_window_get_title (chooser), ==, "Export the Timeline as PNG");
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (chooser), "double"), ==, "false");
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (chooser), "double", "true");
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (chooser), "double"), ==, "true");
  spin (200);
  save_widget_screenshot (GTK_WIDGET (chooser), "state-export-scale-chooser.png");
  {
    g_autoptr (GFile) folder = g_file_new_for_path (fx->tmpdir);
    g_assert_true (gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL));
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "chosen.png");
    spin (200);
  }
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  for (int i = 0; i < 100 && !g_file_test (path, G_FILE_TEST_EXISTS); i++)
    spin (50);
  g_assert_null (pv_window_get_error (fx->window));
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpuint (len, >, 24);
  g_assert_true (memcmp (contents, "\x89PNG", 4) == 0);
  g_assert_cmpint (pv_window_get_export_scale (fx->window), ==, 2);
  /* The view's width (at least 800) doubled. */
  g_assert_cmpuint (gui_be32 (contents + 16), >=, 1600);
  g_assert_cmpuint (gui_be32 (contents + 16) % 2, ==, 0);

  /* The next export's dialog starts from the last choice. */
  spin (300);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.export", "s", "svg"));
  chooser = wait_for_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);
  g_assert_nonnull (chooser);
  g_assert_cmpstr (gtk_window_get_title (chooser), ==, "Export the Timeline as SVG");
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (chooser), "double"), ==, "true");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  spin (200);
  g_assert_cmpint (pv_window_get_export_scale (fx->window), ==, 2);
}

/* ---- main ---- */

int
main (int argc, char **argv)
{
  gui_fixture_init (&argc, &argv);

  /* First: the recent list is empty only before any model was opened. */
  ADD ("/state/recent/none", test_recent_none, "");
  ADD ("/state/recent/menu", test_recent_menu, NULL);
  ADD ("/state/recent/filter", test_recent_filter, NULL);
  ADD ("/state/recent/empty-page", test_recent_empty_page, "");
  ADD ("/state/recent/guard", test_recent_guard, NULL);
  ADD ("/state/window/restore", test_window_state, NULL);
  ADD ("/state/window/hidden-pane", test_window_state_hidden_pane, NULL);
  ADD ("/state/window/clamped", test_window_state_clamped, "");
  ADD ("/state/window/corrupt", test_state_corrupt, "");
  ADD ("/state/config/remembered", test_config_remembered, NULL);
  ADD ("/state/config/open", test_open_partition, NULL);
  ADD ("/state/config/open-chooser", test_open_partition_chooser, NULL);
  ADD ("/state/export/scale-choice", test_export_scale_choice, NULL);
  return gui_fixture_run ();
}
