/* gui-fixture.c: the window fixture and helpers the GUI tests share. */
#include "gui-fixture.h"
#include "pv-partition-config.h"
#include "pv-test-seed.h"

#include <glib/gstdio.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

PvApplication *app;
const char *data_dir;
const char *screenshot_dir;

static gboolean
wake_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

gboolean
wait_until (Fixture *fx, Condition cond)
{
  return wait_until_ms (fx, cond, WAIT_MS);
}

gboolean
wait_until_ms (Fixture *fx, Condition cond, int ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) ms * 1000 * pv_test_time_scale ();
  guint wake = g_timeout_add (10, wake_cb, NULL);
  gboolean ok;

  while (!(ok = cond (fx)) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wake);
  return ok;
}

/* Runs the main loop for @ms milliseconds. */
void
spin (int ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;
  guint wake = g_timeout_add (5, wake_cb, NULL);

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wake);
}

gboolean
settled (Fixture *fx)
{
  return pv_window_is_settled (fx->window);
}

char *
data_path (const char *name)
{
  return g_build_filename (data_dir, name, NULL);
}

static void
plan_changed_cb (PvDocument *document, Fixture *fx)
{
  fx->plan_changes++;
}

void
open_model (Fixture *fx, const char *model, const char *partition)
{
  g_autofree char *model_path = data_path (model);
  g_autofree char *partition_path = partition ? data_path (partition) : NULL;
  g_autoptr (GFile) file = g_file_new_for_path (model_path);
  g_autoptr (GFile) partition_file = partition_path ? g_file_new_for_path (partition_path) : NULL;

  pv_window_open (fx->window, file, partition_file);
  g_assert_true (wait_until (fx, settled));
  g_assert_null (pv_window_get_error (fx->window));
  g_assert_nonnull (pv_document_get_model (fx->document));
}

static void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_remove (child);
    }
  g_rmdir (path);
}

/* The folder the tests use as XDG_CONFIG_HOME and XDG_DATA_HOME. */
static char *xdg_dir;
static gboolean xdg_dir_is_tmp;

char *
state_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "planviz", "state.ini", NULL);
}

/* Tests never read or write the user's own state and recent files: both
 * XDG folders are fresh ones under PV_GUI_XDG (the build folder), or under
 * a temporary folder when run by hand. Before anything asks GLib for them
 * (it caches them). */
static void
isolate_xdg (void)
{
  const char *scratch = g_getenv ("PV_GUI_XDG");
  g_autofree char *config = NULL, *data = NULL;

  if (scratch && g_path_is_absolute (scratch))
    xdg_dir = g_strdup (scratch);
  else
    {
      xdg_dir = g_dir_make_tmp ("planviz-xdg-XXXXXX", NULL);
      xdg_dir_is_tmp = TRUE;
    }
  g_assert_nonnull (xdg_dir);
  config = g_build_filename (xdg_dir, "config", NULL);
  data = g_build_filename (xdg_dir, "data", NULL);
  remove_tree (config);
  remove_tree (data);
  g_assert_cmpint (g_mkdir_with_parents (config, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (data, 0700), ==, 0);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
}

PvWindow *
new_window (void)
{
  return pv_window_new (GTK_APPLICATION (app), pv_application_get_remember (app));
}

void
fixture_setup (Fixture *fx, gconstpointer data)
{
  const char *model = data ? data : "wide_branches.onnx";
  g_autofree char *state = state_path ();

  /* Every test starts from a window with the defaults. */
  g_remove (state);
  fx->window = new_window ();
  gtk_window_set_default_size (GTK_WINDOW (fx->window), 1400, 880);
  gtk_window_present (GTK_WINDOW (fx->window));
  fx->document = pv_window_get_document (fx->window);
  fx->view = pv_window_get_timeline_view (fx->window);
  fx->editor = pv_window_get_partition_editor (fx->window);
  fx->tmpdir = g_dir_make_tmp ("planviz-gui-XXXXXX", NULL);
  g_assert_nonnull (fx->tmpdir);
  g_signal_connect (fx->document, "plan-changed", G_CALLBACK (plan_changed_cb), fx);
  if (*model)
    open_model (fx, model, NULL);
  else
    g_assert_true (wait_until (fx, settled));
}


static gboolean shot_done;

static void
shot_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GError) error = NULL;

  if (!pv_window_screenshot_finish (PV_WINDOW (object), result, &error))
    g_test_message ("no screenshot: %s", error->message);
  shot_done = TRUE;
}

static gboolean
shot_finished (Fixture *fx)
{
  return shot_done;
}

void
save_screenshot (Fixture *fx)
{
  g_autofree char *name = g_strdelimit (g_strdup (g_test_get_path () + 1), "/", '-');
  g_autofree char *file_name = g_strdup_printf ("%s.png", name);
  g_autofree char *path = g_build_filename (screenshot_dir, file_name, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);

  /* Let animations (revealers, stack) finish. */
  spin (300);
  wait_until (fx, settled);
  shot_done = FALSE;
  pv_window_screenshot_async (fx->window, file, shot_cb, NULL);
  if (wait_until (fx, shot_finished))
    g_test_message ("screenshot: %s", path);
}

/* Any toplevel (a dialog) as PNG in the screenshot folder. */
void
save_widget_screenshot (GtkWidget *widget, const char *name)
{
  g_autofree char *path = g_build_filename (screenshot_dir, name, NULL);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL || width <= 0 || height <= 0)
    {
      g_test_message ("no screenshot of %s: nothing drawn yet", name);
      return;
    }
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}

void
fixture_teardown (Fixture *fx, gconstpointer data)
{
  if (fx->window)
    {
      save_screenshot (fx);
      g_signal_handlers_disconnect_by_data (fx->document, fx);
      gtk_window_destroy (GTK_WINDOW (fx->window));
    }
  spin (50);
  remove_tree (fx->tmpdir);
  g_free (fx->tmpdir);
}

guint
n_streams_planned (Fixture *fx)
{
  const PvSession *session = pv_document_get_session (fx->document);
  return session && session->ort ? (guint) session->ort->n_streams : 0;
}

void
insert_at_line_end (GtkTextBuffer *buffer, const char *after, const char *text)
{
  GtkTextIter start, match_start, match_end;

  gtk_text_buffer_get_start_iter (buffer, &start);
  g_assert_true (gtk_text_iter_forward_search (&start, after, GTK_TEXT_SEARCH_TEXT_ONLY, &match_start, &match_end,
                                               NULL));
  gtk_text_buffer_insert (buffer, &match_end, text, -1);
}

static guint target_plans;

static gboolean
plans_reached (Fixture *fx)
{
  return fx->plan_changes >= target_plans && settled (fx);
}

/* Waits for the next plan-changed after an edit (the editor waits for
 * typing to stop first). */
void
wait_for_plan (Fixture *fx, guint before)
{
  target_plans = before + 1;
  g_assert_true (wait_until (fx, plans_reached));
}

/* Makes the editor's text a two-stream config by typing into it. */
void
type_second_stream (Fixture *fx)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (pv_partition_editor_get_buffer (fx->editor));

  insert_at_line_end (buffer, "\"0\"", ",\n    \"0\"");
  /* After the first stream's closing bracket ("    ]"), a second stream:
   * nodes listed twice run in the last stream that lists them. */
  insert_at_line_end (buffer, "\"/Relu\"\n    ]",
                      ",\n    [\n      \"/branch0/conv/Conv\",\n      \"/branch0/relu/Relu\",\n"
                      "      \"/branch1/conv1/Conv\",\n      \"/branch1/relu1/Relu\"\n    ]");
}

/* Every revealer under @w is done sliding. */
static gboolean
revealers_done (GtkWidget *w)
{
  if (GTK_IS_REVEALER (w) && gtk_widget_get_mapped (w) &&
      gtk_revealer_get_child_revealed (GTK_REVEALER (w)) != gtk_revealer_get_reveal_child (GTK_REVEALER (w)))
    return FALSE;
  for (GtkWidget *child = gtk_widget_get_first_child (w); child; child = gtk_widget_get_next_sibling (child))
    if (!revealers_done (child))
      return FALSE;
  return TRUE;
}

gboolean
still (Fixture *fx)
{
  return settled (fx) && revealers_done (GTK_WIDGET (fx->window));
}

GtkWidget *
find_first (GtkWidget *root, gboolean (*match) (GtkWidget *, gconstpointer), gconstpointer data)
{
  if (match (root, data))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_first (child, match, data);
      if (found)
        return found;
    }
  return NULL;
}

static gboolean
is_of_type (GtkWidget *widget, gconstpointer type)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, GPOINTER_TO_SIZE (type));
}

GtkWidget *
find_widget (GtkWidget *root, GType type)
{
  return find_first (root, is_of_type, GSIZE_TO_POINTER (type));
}

GtkWidget *
find_popover_menu (GtkWidget *root)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER_MENU (child))
      return child;
  return NULL;
}

gboolean
menu_mapped (Fixture *fx)
{
  GtkWidget *menu = find_popover_menu (GTK_WIDGET (fx->view));
  return menu && gtk_widget_get_mapped (menu) && gtk_widget_get_width (menu) > 0;
}

GtkWidget *
window_widget (Fixture *fx, GType type)
{
  GtkWidget *w = find_widget (GTK_WIDGET (fx->window), type);

  g_assert_nonnull (w);
  return w;
}

int
stream_in_text (Fixture *fx, const char *name)
{
  g_autofree char *text = pv_partition_editor_dup_text (fx->editor);
  const PvGraph *graph = pv_document_get_model (fx->document)->graph;
  g_autoptr (PvPartitionCheck) check = pv_partition_config_check (graph, text, strlen (text), NULL);
  int id = pv_graph_find_node (graph, name);

  g_assert_cmpint (id, >=, 0);
  g_assert_cmpint (check->verdict, ==, PV_ORT_ACCEPTS);
  for (int s = 0; s < check->effective->n_streams; s++)
    for (int k = 0; k < check->effective->streams[s].n_nodes; k++)
      if (check->effective->streams[s].nodes[k] == id)
        return s;
  return -1;
}

static gboolean
is_menu_button_labelled (GtkWidget *widget, gconstpointer label)
{
  return GTK_IS_MENU_BUTTON (widget) && g_strcmp0 (gtk_menu_button_get_label (GTK_MENU_BUTTON (widget)), label) == 0;
}

GtkWidget *
find_menu_button (GtkWidget *root, const char *label)
{
  return find_first (root, is_menu_button_labelled, label);
}

/* Shows the Summary page of the side pane (for the screenshot). */
void
show_summary (Fixture *fx)
{
  GtkWidget *summary = GTK_WIDGET (pv_window_get_summary_view (fx->window));
  GtkWidget *stack = gtk_widget_get_ancestor (summary, GTK_TYPE_STACK);

  g_assert_nonnull (stack);
  gtk_stack_set_visible_child (GTK_STACK (stack), summary);
}

GtkWindow *
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (toplevels, i);
      if (G_TYPE_CHECK_INSTANCE_TYPE (item, type) && gtk_widget_get_mapped (GTK_WIDGET (item)))
        return GTK_WINDOW (item);
    }
  return NULL;
}

GtkWindow *
wait_for_toplevel (GType type)
{
  GtkWindow *window = NULL;

  for (int i = 0; i < 200 && (window = find_toplevel (type)) == NULL; i++)
    spin (20);
  if (window)
    spin (300);
  return window;
}

gboolean
file_starts_with (const char *path, const char *magic, gsize len)
{
  g_autofree char *contents = NULL;
  gsize size = 0;

  return g_file_get_contents (path, &contents, &size, NULL) && size >= len && memcmp (contents, magic, len) == 0;
}

static gboolean
log_filter (const char *domain, GLogLevelFlags level, const char *message, gpointer data)
{
  /* Without a session bus (a bare CI machine) GTK says so; not fatal. */
  if (strstr (message, "session bus") || strstr (message, "dbus"))
    return FALSE;
  return TRUE;
}

void
gui_fixture_init (int *argc, char ***argv)
{
  isolate_xdg ();
  g_assert_true (g_str_has_prefix (g_get_user_config_dir (), xdg_dir));
  /* g_test_rand_* (the stress test's edits) draws from a fixed seed,
   * printed; PV_TEST_SEED changes it. */
  pv_test_init (argc, argv, 1);
  g_test_log_set_fatal_handler (log_filter, NULL);
  gtk_init ();
  gtk_source_init ();

  data_dir = g_getenv ("PV_DATA_DIR");
  screenshot_dir = g_getenv ("PV_SCREENSHOT_DIR");
  if (data_dir == NULL)
    data_dir = "data";
  if (screenshot_dir == NULL)
    screenshot_dir = "screenshots";
  g_mkdir_with_parents (screenshot_dir, 0755);

  app = pv_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE | G_APPLICATION_HANDLES_OPEN);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
}

int
gui_fixture_run (void)
{
  int status = g_test_run ();

  g_clear_object (&app);
  gtk_source_finalize ();
  if (xdg_dir_is_tmp)
    remove_tree (xdg_dir);
  g_clear_pointer (&xdg_dir, g_free);
  return status;
}

guint32
gui_be32 (const void *p)
{
  guint32 v;

  memcpy (&v, p, sizeof v);
  return GUINT32_FROM_BE (v);
}
