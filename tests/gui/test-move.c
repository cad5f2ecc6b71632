/* GUI tests: moving kernels to another stream from the timeline. The
 * selected kernels, the "timeline.move-nodes" action the context menu
 * activates, the config text the editor gets (one undoable change), the
 * re-plan, and the menu itself. */
#include <string.h>

#include <gdk/x11/gdkx.h>

#include "gui-fixture.h"
#include "pv-partition-config.h"

#define TWO_STREAMS "wide_branches.two-streams.json"

static int
node_id (Fixture *fx, const char *name)
{
  int id = pv_graph_find_node (pv_document_get_model (fx->document)->graph, name);
  g_assert_cmpint (id, >=, 0);
  return id;
}

/* The stream lane the timeline draws @name in. */
static int
lane_of (Fixture *fx, const char *name)
{
  PvTimelineModel *m = pv_timeline_view_get_model (fx->view);
  int k = m->node_kernel[node_id (fx, name)];

  g_assert_cmpint (k, >=, 0);
  return m->streams[m->kernels[k].lane].id;
}

static char *
editor_text (Fixture *fx)
{
  return pv_partition_editor_dup_text (fx->editor);
}

/* Which stream of the editor's text lists @name (-1: none), and how often
 * the text lists it. */
static int
listed_in (Fixture *fx, const char *name, int *count)
{
  g_autofree char *text = editor_text (fx);
  g_autofree char *quoted = g_strdup_printf ("\"%s\"", name);

  *count = 0;
  for (const char *p = strstr (text, quoted); p; p = strstr (p + 1, quoted))
    (*count)++;
  return stream_in_text (fx, name);
}

static void
test_move_to_stream (Fixture *fx, gconstpointer data)
{
  const char *name = "/branch2/conv1/Conv";
  PvTimelineSelection sel = { PV_TIMELINE_HIT_KERNEL, -1 };
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (pv_partition_editor_get_buffer (fx->editor));
  g_autofree char *before = NULL, *after = NULL, *undone = NULL;
  const int *nodes;
  guint n, plans;
  int count;

  open_model (fx, "wide_branches.onnx", TWO_STREAMS);
  before = editor_text (fx);
  g_assert_cmpint (lane_of (fx, name), ==, 1);
  g_assert_cmpint (listed_in (fx, name, &count), ==, 1);

  sel.id = node_id (fx, name);
  pv_timeline_view_set_selection (fx->view, &sel);
  nodes = pv_timeline_view_get_selected_nodes (fx->view, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (nodes[0], ==, sel.id);

  /* What "Move to Stream 0 · CPU" activates. */
  plans = fx->plan_changes;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->view), "timeline.move-nodes", "i", 0));
  wait_for_plan (fx, plans);
  g_assert_null (pv_window_get_error (fx->window));
  g_assert_false (pv_document_get_stale (fx->document));
  g_assert_cmpuint (n_streams_planned (fx), ==, 2);
  g_assert_cmpint (lane_of (fx, name), ==, 0);
  g_assert_cmpint (listed_in (fx, name, &count), ==, 0);
  g_assert_cmpint (count, ==, 1);
  after = editor_text (fx);
  g_assert_true (g_str_has_prefix (after, "{\n  \"devices\": [\n")); /* pretty stays pretty */
  g_assert_true (pv_partition_editor_get_modified (fx->editor));
  g_assert_cmpuint (pv_partition_editor_count_marks (fx->editor, PV_PARTITION_MARK_ERROR), ==, 0);
  /* The moved kernel stays selected in the new plan. */
  nodes = pv_timeline_view_get_selected_nodes (fx->view, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (nodes[0], ==, sel.id);

  /* One Ctrl+Z takes the whole move back, and the plan with it. */
  plans = fx->plan_changes;
  g_assert_true (gtk_text_buffer_get_can_undo (buffer));
  gtk_text_buffer_undo (buffer);
  wait_for_plan (fx, plans);
  undone = editor_text (fx);
  g_assert_cmpstr (undone, ==, before);
  g_assert_cmpint (lane_of (fx, name), ==, 1);
}

static void
test_move_to_new_stream (Fixture *fx, gconstpointer data)
{
  const char *names[] = { "/branch1/conv1/Conv", "/branch1/relu1/Relu" };
  int ids[2];
  const int *nodes;
  guint n, plans;
  int count;

  open_model (fx, "wide_branches.onnx", TWO_STREAMS);
  g_assert_cmpint (lane_of (fx, names[0]), ==, 0);
  g_assert_cmpint (lane_of (fx, names[1]), ==, 0);
  ids[0] = node_id (fx, names[0]);
  ids[1] = node_id (fx, names[1]);
  pv_timeline_view_set_selected_nodes (fx->view, ids, 2);
  nodes = pv_timeline_view_get_selected_nodes (fx->view, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (nodes[0], ==, MIN (ids[0], ids[1]));
  g_assert_cmpint (nodes[1], ==, MAX (ids[0], ids[1]));
  g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->kind, ==, PV_TIMELINE_HIT_KERNEL);

  plans = fx->plan_changes;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->view), "timeline.move-nodes", "i", -1));
  wait_for_plan (fx, plans);
  g_assert_null (pv_window_get_error (fx->window));
  g_assert_cmpuint (n_streams_planned (fx), ==, 3);
  g_assert_cmpint (pv_timeline_view_get_model (fx->view)->n_streams, ==, 3);
  for (int i = 0; i < 2; i++)
    {
      g_assert_cmpint (lane_of (fx, names[i]), ==, 2);
      g_assert_cmpint (listed_in (fx, names[i], &count), ==, 2);
      g_assert_cmpint (count, ==, 1);
    }

  /* Esc clears every selected kernel. */
  gtk_widget_grab_focus (GTK_WIDGET (fx->view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->view), "timeline.clear-selection", NULL));
  pv_timeline_view_get_selected_nodes (fx->view, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->kind, ==, PV_TIMELINE_HIT_NONE);
}

static void
test_move_invalid_text (Fixture *fx, gconstpointer data)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (pv_partition_editor_get_buffer (fx->editor));
  int id = node_id (fx, "/Relu");
  g_autofree char *broken = NULL;
  guint plans = fx->plan_changes;

  /* A comma too many: the plan shown goes stale, the move refuses. */
  insert_at_line_end (buffer, "\"0\"", ",");
  wait_for_plan (fx, plans);
  g_assert_true (pv_document_get_stale (fx->document));
  broken = editor_text (fx);
  pv_timeline_view_set_selected_nodes (fx->view, &id, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->view), "timeline.move-nodes", "i", -1));
  g_assert_nonnull (pv_window_get_error (fx->window));
  g_assert_true (g_str_has_prefix (pv_window_get_error (fx->window),
                                   "Cannot move the node. The partition config is not valid JSON (line 4"));
  {
    g_autofree char *now = editor_text (fx);
    g_assert_cmpstr (now, ==, broken);
  }
}

/* Valid JSON that ORT refuses (a node in no stream): the timeline shows
 * the older plan, so the move refuses too. */
static void
test_move_stale (Fixture *fx, gconstpointer data)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (pv_partition_editor_get_buffer (fx->editor));
  GtkTextIter start, match_start, match_end;
  g_autofree char *refused = NULL, *now = NULL;
  int id;
  guint plans;

  open_model (fx, "wide_branches.onnx", TWO_STREAMS);
  id = node_id (fx, "/branch2/conv1/Conv");
  /* "/Relu" becomes "/Relu-x", a name the graph lacks. */
  plans = fx->plan_changes;
  gtk_text_buffer_get_start_iter (buffer, &start);
  g_assert_true (gtk_text_iter_forward_search (&start, "\"/Relu\"", GTK_TEXT_SEARCH_TEXT_ONLY, &match_start,
                                               &match_end, NULL));
  gtk_text_iter_backward_char (&match_end);
  gtk_text_buffer_insert (buffer, &match_end, "-x", -1);
  wait_for_plan (fx, plans);
  g_assert_true (pv_document_get_stale (fx->document));
  refused = editor_text (fx);

  pv_timeline_view_set_selected_nodes (fx->view, &id, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->view), "timeline.move-nodes", "i", 0));
  g_assert_nonnull (pv_window_get_error (fx->window));
  g_assert_nonnull (strstr (pv_window_get_error (fx->window), "Fix the config first"));
  now = editor_text (fx);
  g_assert_cmpstr (now, ==, refused);
}

/* The popover with its shadow: the bounds of what it draws, which reach
 * past its allocation. */
static void
save_popover_png (GtkWidget *popover, const char *name)
{
  g_autofree char *path = g_build_filename (screenshot_dir, name, NULL);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (popover);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  graphene_rect_t bounds;

  gdk_paintable_snapshot (paintable, snapshot, gdk_paintable_get_intrinsic_width (paintable),
                          gdk_paintable_get_intrinsic_height (paintable));
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  gsk_render_node_get_bounds (node, &bounds);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (popover)), node, &bounds);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}

/* The whole X screen, popups included (ImageMagick's import, when there). */
static void
save_screen_png (const char *name)
{
  g_autofree char *import = g_find_program_in_path ("import");
  g_autofree char *path = g_build_filename (screenshot_dir, name, NULL);
  g_autoptr (GError) error = NULL;
  const char *argv[] = { import, "-window", "root", path, NULL };
  int status = 0;

  if (import == NULL)
    {
      g_test_message ("no screen shot %s: ImageMagick's import is not installed", name);
      return;
    }
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status,
                     &error) ||
      !g_spawn_check_wait_status (status, &error))
    g_test_message ("no screen shot %s: %s", name, error->message);
  else
    g_test_message ("screenshot: %s", path);
}

static gboolean
menu_unmapped (Fixture *fx)
{
  return !menu_mapped (fx);
}

static void
test_context_menu (Fixture *fx, gconstpointer data)
{
  PvTimelineSelection sel = { PV_TIMELINE_HIT_KERNEL, -1 };
  GtkWidget *menu;
  GMenuModel *model;
  GString *labels = g_string_new (NULL);
  g_autofree char *all = NULL;

  open_model (fx, "wide_branches.onnx", TWO_STREAMS);
  sel.id = node_id (fx, "/branch2/conv2/Conv");
  pv_timeline_view_set_selection (fx->view, &sel);
  gtk_widget_grab_focus (GTK_WIDGET (fx->view));
  /* What the Menu key and Shift+F10 do. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->view), "timeline.context-menu", NULL));
  g_assert_true (wait_until (fx, menu_mapped));
  menu = find_popover_menu (GTK_WIDGET (fx->view));
  model = gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (menu));
  for (int s = 0; s < g_menu_model_get_n_items (model); s++)
    {
      g_autoptr (GMenuModel) section = g_menu_model_get_item_link (model, s, G_MENU_LINK_SECTION);
      for (int i = 0; section && i < g_menu_model_get_n_items (section); i++)
        {
          g_autofree char *label = NULL;
          g_menu_model_get_item_attribute (section, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
          g_string_append_printf (labels, "%s|", label);
        }
    }
  all = g_string_free (labels, FALSE);
  /* The kernel runs on stream 1: the menu offers stream 0 and a new one,
   * and (no stream runs on the GPU) a new stream on the GPU. */
  g_assert_cmpstr (all, ==, "Move to Stream 0 · CPU|Move to New Stream|Run on GPU (device 1)|");
  spin (300);
  save_popover_png (menu, "move-context-menu-popover.png");
  save_screen_png ("move-context-menu-screen.png");
  gtk_popover_popdown (GTK_POPOVER (menu));
}

/* Kernels of both streams selected: the menu offers both streams. */
static void
test_multi_select (Fixture *fx, gconstpointer data)
{
  const char *names[] = { "/branch1/relu1/Relu", "/branch2/conv2/Conv", "/branch0/conv/Conv" };
  int ids[3];
  GtkWidget *menu;
  GMenuModel *model;
  const int *nodes;
  guint n;

  open_model (fx, "wide_branches.onnx", TWO_STREAMS);
  for (int i = 0; i < 3; i++)
    ids[i] = node_id (fx, names[i]);
  pv_timeline_view_set_selected_nodes (fx->view, ids, 3);
  nodes = pv_timeline_view_get_selected_nodes (fx->view, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_true (nodes[0] < nodes[1] && nodes[1] < nodes[2]);
  /* The last one given is the selection (the details follow it). */
  g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->id, ==, ids[2]);

  gtk_widget_grab_focus (GTK_WIDGET (fx->view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->view), "timeline.context-menu", NULL));
  g_assert_true (wait_until (fx, menu_mapped));
  menu = find_popover_menu (GTK_WIDGET (fx->view));
  model = gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (menu));
  {
    g_autoptr (GMenuModel) streams = g_menu_model_get_item_link (model, 0, G_MENU_LINK_SECTION);
    g_assert_cmpint (g_menu_model_get_n_items (streams), ==, 2);
  }
  gtk_popover_popdown (GTK_POPOVER (menu));

  /* A plain selection leaves one kernel selected. */
  {
    PvTimelineSelection sel = { PV_TIMELINE_HIT_KERNEL, ids[0] };
    pv_timeline_view_set_selection (fx->view, &sel);
    nodes = pv_timeline_view_get_selected_nodes (fx->view, &n);
    g_assert_cmpuint (n, ==, 1);
    g_assert_cmpint (nodes[0], ==, ids[0]);
  }
  /* Back to three for the screenshot: each box outlined. */
  pv_timeline_view_set_selected_nodes (fx->view, ids, 3);
}

/* ---- real clicks, through the X server (xdotool) ---- */

static guint wanted_selected;

static gboolean
selected_count_reached (Fixture *fx)
{
  guint n;
  pv_timeline_view_get_selected_nodes (fx->view, &n);
  return n == wanted_selected;
}

/* Clicks @button on @name's kernel with @modifier ("ctrl", "shift" or
 * NULL) held, as a user would. */
static void
click_kernel (Fixture *fx, const char *name, const char *modifier, int button)
{
  PvTimelineView *view = fx->view;
  PvTimelineRenderer *r = pv_timeline_view_get_renderer (view);
  PvTimelineModel *m = pv_timeline_view_get_model (view);
  GtkNative *native = GTK_NATIVE (fx->window);
  g_autofree char *xid = g_strdup_printf ("%lu", gdk_x11_surface_get_xid (gtk_native_get_surface (native)));
  g_autofree char *bx = NULL, *by = NULL, *b = g_strdup_printf ("%d", button);
  double x, y, w, h, wx, wy, sx, sy;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  int status;

  g_assert_true (pv_timeline_renderer_get_kernel_rect (r, m->node_kernel[node_id (fx, name)], &x, &y, &w, &h));
  g_assert_true (gtk_widget_translate_coordinates (GTK_WIDGET (view), GTK_WIDGET (fx->window), x + w / 2, y + h / 2,
                                                   &wx, &wy));
  gtk_native_get_surface_transform (native, &sx, &sy);
  bx = g_strdup_printf ("%d", (int) (wx + sx));
  by = g_strdup_printf ("%d", (int) (wy + sy));
  g_ptr_array_add (argv, "xdotool");
  g_ptr_array_add (argv, "mousemove");
  g_ptr_array_add (argv, "--window");
  g_ptr_array_add (argv, xid);
  g_ptr_array_add (argv, bx);
  g_ptr_array_add (argv, by);
  if (modifier)
    {
      g_ptr_array_add (argv, "keydown");
      g_ptr_array_add (argv, (gpointer) modifier);
    }
  g_ptr_array_add (argv, "click");
  g_ptr_array_add (argv, b);
  if (modifier)
    {
      g_ptr_array_add (argv, "keyup");
      g_ptr_array_add (argv, (gpointer) modifier);
    }
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static void
expect_selected (Fixture *fx, guint n, int primary)
{
  wanted_selected = n;
  g_assert_true (wait_until (fx, selected_count_reached));
  spin (100);
  g_assert_true (selected_count_reached (fx));
  if (primary >= 0)
    {
      g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->kind, ==, PV_TIMELINE_HIT_KERNEL);
      g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->id, ==, primary);
    }
}

static void
test_clicks (Fixture *fx, gconstpointer data)
{
  const char *a = "/branch3/conv/Conv", *b = "/branch2/conv2/Conv", *c = "/branch2/conv3/Conv";
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  GtkWidget *menu;
  GMenuModel *model;

  if (xdotool == NULL)
    {
      g_test_skip ("xdotool is not installed");
      return;
    }
  open_model (fx, "wide_branches.onnx", TWO_STREAMS);
  spin (300);
  click_kernel (fx, a, NULL, 1);
  expect_selected (fx, 1, node_id (fx, a));
  click_kernel (fx, b, "ctrl", 1);
  expect_selected (fx, 2, node_id (fx, b));
  click_kernel (fx, c, "shift", 1);
  expect_selected (fx, 3, node_id (fx, c));
  /* Ctrl+click again takes one out; the selection stays on c. */
  click_kernel (fx, b, "ctrl", 1);
  expect_selected (fx, 2, node_id (fx, c));
  /* Shift+click on a selected kernel keeps it. */
  click_kernel (fx, a, "shift", 1);
  expect_selected (fx, 2, node_id (fx, a));
  /* A plain click starts over. */
  click_kernel (fx, b, NULL, 1);
  expect_selected (fx, 1, node_id (fx, b));
  click_kernel (fx, a, "ctrl", 1);
  expect_selected (fx, 2, node_id (fx, a));

  /* Right-click on a selected kernel: the menu for both; a (stream 0) and
   * b (stream 1) leave no stream out. */
  click_kernel (fx, b, NULL, 3);
  g_assert_true (wait_until (fx, menu_mapped));
  expect_selected (fx, 2, -1);
  menu = find_popover_menu (GTK_WIDGET (fx->view));
  model = gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (menu));
  {
    g_autoptr (GMenuModel) streams = g_menu_model_get_item_link (model, 0, G_MENU_LINK_SECTION);
    g_assert_cmpint (g_menu_model_get_n_items (streams), ==, 2);
  }
  spin (300);
  save_screen_png ("move-clicks-menu-screen.png");
  gtk_popover_popdown (GTK_POPOVER (menu));
  g_assert_true (wait_until (fx, menu_unmapped));
  spin (200);

  /* Right-click on a kernel outside the selection selects just it. */
  click_kernel (fx, c, NULL, 3);
  g_assert_true (wait_until (fx, menu_mapped));
  expect_selected (fx, 1, node_id (fx, c));
  gtk_popover_popdown (GTK_POPOVER (find_popover_menu (GTK_WIDGET (fx->view))));
}

int
main (int argc, char **argv)
{
  gui_fixture_init (&argc, &argv);

  ADD ("/move/to-stream", test_move_to_stream, NULL);
  ADD ("/move/to-new-stream", test_move_to_new_stream, NULL);
  ADD ("/move/invalid-text", test_move_invalid_text, NULL);
  ADD ("/move/stale", test_move_stale, NULL);
  ADD ("/move/context-menu", test_context_menu, NULL);
  ADD ("/move/multi-select", test_multi_select, NULL);
  ADD ("/move/clicks", test_clicks, NULL);

  return gui_fixture_run ();
}
