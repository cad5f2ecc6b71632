/* GUI tests: moving kernels to another stream from the timeline. The
 * selected kernels, the "timeline.move-nodes" action the context menu
 * activates, the config text the editor gets (one undoable change), the
 * re-plan, and the menu itself. */
#include <string.h>

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
  const PvGraph *graph = pv_document_get_model (fx->document)->graph;
  g_autoptr (PvPartitionCheck) check = pv_partition_config_check (graph, text, strlen (text), NULL);
  int id = node_id (fx, name);

  *count = 0;
  for (const char *p = strstr (text, quoted); p; p = strstr (p + 1, quoted))
    (*count)++;
  g_assert_cmpint (check->verdict, ==, PV_ORT_ACCEPTS);
  for (int s = 0; s < check->effective->n_streams; s++)
    for (int k = 0; k < check->effective->streams[s].n_nodes; k++)
      if (check->effective->streams[s].nodes[k] == id)
        return s;
  return -1;
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

static GtkWidget *
find_popover_menu (GtkWidget *root)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER_MENU (child))
      return child;
  return NULL;
}

static gboolean
menu_mapped (Fixture *fx)
{
  GtkWidget *menu = find_popover_menu (GTK_WIDGET (fx->view));
  return menu && gtk_widget_get_mapped (menu) && gtk_widget_get_width (menu) > 0;
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
  /* The kernel runs on stream 1: the menu offers stream 0 and a new one. */
  g_assert_cmpstr (all, ==, "Move to Stream 0 · CPU|Move to New Stream|");
  spin (300);
  save_widget_screenshot (menu, "move-context-menu-popover.png");
  gtk_popover_popdown (GTK_POPOVER (menu));
}

int
main (int argc, char **argv)
{
  gui_fixture_init (&argc, &argv);

  ADD ("/move/to-stream", test_move_to_stream, NULL);
  ADD ("/move/to-new-stream", test_move_to_new_stream, NULL);
  ADD ("/move/invalid-text", test_move_invalid_text, NULL);
  ADD ("/move/context-menu", test_context_menu, NULL);

  return gui_fixture_run ();
}
