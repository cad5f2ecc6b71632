/* GUI tests: running kernels on another device from the timeline's menu.
 * "Run on GPU (device 1)" and "Run on CPU" (timeline.run-on-device) move
 * the selected kernels to a new stream of that device or to one running
 * there, through the editor (one undoable change, Ctrl+Z takes it back);
 * with the CUDA registry the new stream's lane runs on the GPU, with the
 * CPU one ORT runs it on the CPU and the banner over the timeline says so. */
#include <string.h>

#include <gdk/x11/gdkx.h>

#include "gui-xdo.h"
#include "pv-partition-config.h"
#include "pv-partition-editor.h"
#include "pv-values-menu.h"
#include "pv-values-view.h"

#define TWO_STREAMS "wide_branches.two-streams.json"
#define MOVED "/branch2/conv1/Conv"  /* on stream 1 of TWO_STREAMS */
#define OTHER "/branch1/conv1/Conv"  /* on stream 0 */

static int
node_id (Fixture *fx, const char *name)
{
  int id = pv_graph_find_node (pv_document_get_model (fx->document)->graph, name);
  g_assert_cmpint (id, >=, 0);
  return id;
}

/* The stream lane the timeline draws @name in. */
static const PvTimelineLane *
lane_of (Fixture *fx, const char *name)
{
  PvTimelineModel *m = pv_timeline_view_get_model (fx->view);
  int k = m->node_kernel[node_id (fx, name)];

  g_assert_cmpint (k, >=, 0);
  return &m->streams[m->kernels[k].lane];
}

static void
select_kernel (Fixture *fx, const char *name)
{
  int id = node_id (fx, name);
  pv_timeline_view_set_selected_nodes (fx->view, &id, 1);
}

static void
assert_text_has (Fixture *fx, const char *part)
{
  g_autofree char *text = pv_partition_editor_dup_text (fx->editor);
  if (strstr (text, part) == NULL)
    g_error ("the config does not have %s:\n%s", part, text);
}

#define DEVICES_2 "\"devices\": [\n    \"0\",\n    \"0\"\n  ]"
#define DEVICES_3 "\"devices\": [\n    \"0\",\n    \"0\",\n    \"1\"\n  ]"

static void
use_registry (Fixture *fx, PvStreamRegistry registry)
{
  guint plans = fx->plan_changes;

  pv_document_set_registry (fx->document, registry);
  wait_for_plan (fx, plans);
}

static gboolean
menu_unmapped (Fixture *fx)
{
  return !menu_mapped (fx);
}

/* "label|label>sub,sub|…" for the menu's sections (items separated by |,
 * a submenu's items after >, its sections' items after ,). */
static void
describe (GMenuModel *model, GString *out)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autoptr (GMenuModel) section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);
      g_autoptr (GMenuModel) submenu = g_menu_model_get_item_link (model, i, G_MENU_LINK_SUBMENU);
      g_autofree char *label = NULL;

      if (section)
        {
          describe (section, out);
          continue;
        }
      g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
      g_string_append_printf (out, "%s%s", out->len && out->str[out->len - 1] != '>' ? "|" : "", label);
      if (submenu)
        {
          g_string_append (out, ">");
          describe (submenu, out);
          g_string_append (out, "<");
        }
    }
}

/* Right-clicks @name's kernel (a real X click) and returns the menu. On a
 * loaded machine a click can miss: once, under ASan beside another suite,
 * no menu came in 80 s after a re-plan (the window re-laid out between
 * reading the kernel's place and the click). Then the place is read again
 * once the window is settled, and the click repeated: three tries. */
static GtkWidget *
right_click_kernel (Fixture *fx, const char *name)
{
  for (int attempt = 1; attempt <= 3; attempt++)
    {
      PvTimelineRenderer *r = pv_timeline_view_get_renderer (fx->view);
      PvTimelineModel *m = pv_timeline_view_get_model (fx->view);
      double x, y, w, h;
      int wx, wy;

      g_assert_true (wait_until (fx, settled));
      g_assert_true (pv_timeline_renderer_get_kernel_rect (r, m->node_kernel[node_id (fx, name)], &x, &y, &w, &h));
      view_to_window (fx, x + w / 2, y + h / 2, &wx, &wy);
      xdo ("mousemove --window %lu %d %d click 3", window_xid (fx), wx, wy);
      if (wait_until_ms (fx, menu_mapped, 5000))
        return find_popover_menu (GTK_WIDGET (fx->view));
      g_test_message ("right-click %d on %s at (%d, %d) opened no menu", attempt, name, wx, wy);
    }
  g_test_message ("three right-clicks on %s opened no menu", name);
  g_assert_true (menu_mapped (fx));
  return NULL;
}

static char *
menu_text (GtkWidget *menu)
{
  GString *out = g_string_new (NULL);
  describe (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (menu)), out);
  return g_string_free (out, FALSE);
}

/* The menu item (a GtkModelButton) labelled @text under @root, mapped. */
static GtkWidget *
find_item (GtkWidget *root, const char *text)
{
  if (g_str_equal (G_OBJECT_TYPE_NAME (root), "GtkModelButton") && gtk_widget_get_mapped (root))
    {
      g_autofree char *label = NULL;
      g_object_get (root, "text", &label, NULL);
      if (g_strcmp0 (label, text) == 0)
        return root;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_item (c, text);
      if (found)
        return found;
    }
  return NULL;
}

static GtkWidget *item_wanted_root;
static const char *item_wanted;

static gboolean
item_shown (Fixture *fx)
{
  GtkWidget *item = find_item (item_wanted_root, item_wanted);
  return item && gtk_widget_get_width (item) > 0;
}

/* Clicks the item labelled @text of @menu (a real click on the popover's
 * own X window). */
static void
click_item (Fixture *fx, GtkWidget *menu, const char *text)
{
  GtkNative *native = GTK_NATIVE (menu);
  GtkWidget *item;
  graphene_point_t in, out;
  double sx = 0, sy = 0;

  item_wanted_root = menu;
  item_wanted = text;
  g_assert_true (wait_until (fx, item_shown));
  spin (300); /* a submenu slides in */
  item = find_item (menu, text);
  in = GRAPHENE_POINT_INIT (gtk_widget_get_width (item) / 2.0, gtk_widget_get_height (item) / 2.0);
  g_assert_true (gtk_widget_compute_point (item, GTK_WIDGET (native), &in, &out));
  gtk_native_get_surface_transform (native, &sx, &sy);
  xdo ("mousemove --window %lu %d %d click 1", gdk_x11_surface_get_xid (gtk_native_get_surface (native)),
       (int) (out.x + sx), (int) (out.y + sy));
}

/* The menu item's action, as a click on it activates it. */
static void
activate_run_on (Fixture *fx, GtkWidget *menu, int device, int stream)
{
  guint plans = fx->plan_changes;

  g_assert_true (gtk_widget_activate_action (menu, "timeline.run-on-device", "(ii)", device, stream));
  gtk_popover_popdown (GTK_POPOVER (menu));
  wait_for_plan (fx, plans);
  g_assert_null (pv_window_get_error (fx->window));
  g_assert_false (pv_document_get_stale (fx->document));
}

/* Ctrl+Z, typed into the editor (a real key press). */
static void
undo_by_key (Fixture *fx)
{
  guint plans = fx->plan_changes;

  gtk_widget_grab_focus (GTK_WIDGET (pv_partition_editor_get_view (fx->editor)));
  spin (100);
  xdo ("key --window %lu ctrl+z", window_xid (fx));
  wait_for_plan (fx, plans);
}

static void
test_run_on_gpu (Fixture *fx, gconstpointer data)
{
  g_autofree char *before = NULL, *after = NULL, *labels = NULL;
  const PvTimelineLane *lane;
  const PvSession *session;
  GtkWidget *menu;
  int id;

  open_model (fx, "wide_branches.onnx", TWO_STREAMS);
  use_registry (fx, PV_REGISTRY_CUDA);
  before = pv_partition_editor_dup_text (fx->editor);
  g_assert_cmpint (lane_of (fx, MOVED)->id, ==, 1);
  g_assert_null (pv_window_get_device_note (fx->window));
  spin (300);

  /* No stream runs on the GPU yet: one item; the kernel is on the CPU
   * already, so no "Run on CPU". */
  menu = right_click_kernel (fx, MOVED);
  labels = menu_text (menu);
  g_assert_cmpstr (labels, ==, "Move to Stream 0 · CPU|Move to New Stream|Run on GPU (device 1)");
  spin (300);
  save_widget_screenshot (menu, "devices-menu-popover.png");
  activate_run_on (fx, menu, PV_DEVICE_GPU, -1);

  /* The config: a third stream, device "1", listing the kernel alone. */
  assert_text_has (fx, DEVICES_3);
  assert_text_has (fx, "  [\n      \"" MOVED "\"\n    ]\n  ],");
  g_assert_cmpint (stream_in_text (fx, MOVED), ==, 2);
  g_assert_true (pv_partition_editor_get_modified (fx->editor));
  g_assert_cmpuint (pv_partition_editor_count_marks (fx->editor, PV_PARTITION_MARK_WARNING), ==, 0);
  /* The timeline: a GPU lane for it; ORT's plan runs stream 2 on the GPU
   * and the CPU stream that reads its output waits on its notification. */
  g_assert_cmpint (pv_timeline_view_get_model (fx->view)->n_streams, ==, 3);
  lane = lane_of (fx, MOVED);
  g_assert_cmpint (lane->id, ==, 2);
  g_assert_cmpint (lane->device, ==, PV_ORT_DEVICE_GPU);
  g_assert_cmpstr (lane->label, ==, "stream 2 · GPU");
  session = pv_document_get_plan_session (fx->document);
  id = node_id (fx, MOVED);
  g_assert_cmpint (session->ort->node_stream[id], ==, 2);
  g_assert_cmpint (session->ort->streams[2].device.type, ==, PV_ORT_DEVICE_GPU);
  g_assert_cmpint (session->ort->streams[1].steps[1].kind, ==, PV_ORT_STEP_WAIT_ON_EP);
  g_assert_nonnull (strstr (pv_window_get_device_note (fx->window), "1 node runs on the GPU (device 1)"));
  g_assert_nonnull (strstr (pv_window_get_device_note (fx->window), "does not have those copies"));
  /* The moved kernel stays selected. */
  g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->id, ==, id);
  spin (400);
  save_widget_screenshot (GTK_WIDGET (fx->window), "devices-moved-to-gpu.png");

  /* Ctrl+Z takes the whole move back, and the plan with it. */
  undo_by_key (fx);
  after = pv_partition_editor_dup_text (fx->editor);
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpint (pv_timeline_view_get_model (fx->view)->n_streams, ==, 2);
  g_assert_cmpint (lane_of (fx, MOVED)->id, ==, 1);
  g_assert_cmpint (lane_of (fx, MOVED)->device, ==, PV_ORT_DEVICE_CPU);
  g_assert_null (pv_window_get_device_note (fx->window));
}

/* A GPU stream exists: "Run on GPU" is a submenu with it, and moving a
 * second kernel there puts both on one GPU stream. */
static void
test_existing_gpu_stream (Fixture *fx, gconstpointer data)
{
  g_autofree char *labels = NULL, *back_labels = NULL;
  GtkWidget *menu;

  open_model (fx, "wide_branches.onnx", TWO_STREAMS);
  use_registry (fx, PV_REGISTRY_CUDA);
  select_kernel (fx, MOVED);
  gtk_widget_grab_focus (GTK_WIDGET (fx->view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->view), "timeline.context-menu", NULL));
  g_assert_true (wait_until (fx, menu_mapped));
  activate_run_on (fx, find_popover_menu (GTK_WIDGET (fx->view)), PV_DEVICE_GPU, -1);
  g_assert_true (wait_until (fx, menu_unmapped));
  spin (300);

  menu = right_click_kernel (fx, OTHER);
  labels = menu_text (menu);
  g_assert_cmpstr (labels, ==,
                   "Move to Stream 1 · CPU|Move to Stream 2 · GPU|Move to New Stream|"
                   "Run on GPU (device 1)>New Stream on GPU|Stream 2 (1 kernel)<");
  spin (300);
  save_widget_screenshot (menu, "devices-menu-existing-popover.png");
  /* Real clicks: the submenu, then the GPU stream in it. */
  {
    guint plans = fx->plan_changes;
    click_item (fx, menu, "Run on GPU (device 1)");
    item_wanted = "Stream 2 (1 kernel)";
    g_assert_true (wait_until (fx, item_shown));
    spin (400);
    save_widget_screenshot (menu, "devices-menu-existing-submenu.png");
    click_item (fx, menu, "Stream 2 (1 kernel)");
    wait_for_plan (fx, plans);
    g_assert_null (pv_window_get_error (fx->window));
  }

  assert_text_has (fx, DEVICES_3);
  /* In the order ORT runs them. */
  assert_text_has (fx, "  [\n      \"" MOVED "\",\n      \"" OTHER "\"\n    ]\n  ],");
  g_assert_cmpint (stream_in_text (fx, OTHER), ==, 2);
  g_assert_cmpint (stream_in_text (fx, MOVED), ==, 2);
  g_assert_cmpint (pv_timeline_view_get_model (fx->view)->n_streams, ==, 3);
  g_assert_true (lane_of (fx, OTHER) == lane_of (fx, MOVED));
  g_assert_cmpint (lane_of (fx, OTHER)->device, ==, PV_ORT_DEVICE_GPU);
  g_assert_cmpstr (lane_of (fx, OTHER)->detail, ==, "2 kernels");
  g_assert_nonnull (strstr (pv_window_get_device_note (fx->window), "2 nodes run on the GPU"));
  spin (400);
  save_widget_screenshot (GTK_WIDGET (fx->window), "devices-moved-to-existing.png");

  /* Ctrl+Z with the timeline focused takes the second move back;
   * Ctrl+Shift+Z does it again. */
  {
    guint plans = fx->plan_changes;
    gtk_widget_grab_focus (GTK_WIDGET (fx->view));
    spin (100);
    xdo ("key --window %lu ctrl+z", window_xid (fx));
    wait_for_plan (fx, plans);
    g_assert_cmpint (stream_in_text (fx, OTHER), ==, 0);
    g_assert_cmpint (stream_in_text (fx, MOVED), ==, 2);
    g_assert_cmpint (lane_of (fx, OTHER)->device, ==, PV_ORT_DEVICE_CPU);
    g_assert_cmpstr (lane_of (fx, MOVED)->detail, ==, "1 kernel");
    plans = fx->plan_changes;
    xdo ("key --window %lu ctrl+shift+z", window_xid (fx));
    wait_for_plan (fx, plans);
    g_assert_cmpint (stream_in_text (fx, OTHER), ==, 2);
  }

  /* Both back to a CPU stream: the emptied GPU stream goes with its
   * device entry. */
  {
    int ids[2] = { node_id (fx, OTHER), node_id (fx, MOVED) };
    pv_timeline_view_set_selected_nodes (fx->view, ids, 2);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->view), "timeline.context-menu", NULL));
  g_assert_true (wait_until (fx, menu_mapped));
  menu = find_popover_menu (GTK_WIDGET (fx->view));
  back_labels = menu_text (menu);
  g_assert_cmpstr (back_labels, ==,
                   "Move to Stream 0 · CPU|Move to Stream 1 · CPU|Move to New Stream|"
                   "Run on CPU (device 0)>New Stream on CPU|Stream 0 (6 kernels)|Stream 1 (11 kernels)<");
  activate_run_on (fx, menu, PV_DEVICE_CPU, 0);
  assert_text_has (fx, DEVICES_2);
  g_assert_cmpint (stream_in_text (fx, OTHER), ==, 0);
  g_assert_cmpint (stream_in_text (fx, MOVED), ==, 0);
  g_assert_cmpint (lane_of (fx, MOVED)->device, ==, PV_ORT_DEVICE_CPU);
  g_assert_null (pv_window_get_device_note (fx->window));
}

/* The CPU registry is a CPU-only ORT: the config asks for the GPU, ORT
 * runs the stream on the CPU, the editor and the banner say so, and the
 * banner's button switches to the CUDA registry. */
static void
test_cpu_registry (Fixture *fx, gconstpointer data)
{
  const PvTimelineLane *lane;

  open_model (fx, "wide_branches.onnx", TWO_STREAMS);
  g_assert_cmpint (pv_document_get_registry (fx->document), ==, PV_REGISTRY_CPU);
  select_kernel (fx, MOVED);
  gtk_widget_grab_focus (GTK_WIDGET (fx->view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->view), "timeline.context-menu", NULL));
  g_assert_true (wait_until (fx, menu_mapped));
  activate_run_on (fx, find_popover_menu (GTK_WIDGET (fx->view)), PV_DEVICE_GPU, -1);

  assert_text_has (fx, DEVICES_3);
  lane = lane_of (fx, MOVED);
  g_assert_cmpint (lane->id, ==, 2);
  g_assert_cmpint (lane->device, ==, PV_ORT_DEVICE_CPU);
  g_assert_cmpstr (lane->label, ==, "stream 2 · CPU");
  /* The checker's finding, as `planviz-cli check` prints it. */
  g_assert_cmpuint (pv_partition_editor_count_marks (fx->editor, PV_PARTITION_MARK_WARNING), ==, 1);
  {
    const PvPartitionCheck *check = pv_document_get_plan_session (fx->document)->partition_check;
    g_assert_cmpint (check->n_findings, ==, 1);
    g_assert_cmpstr (check->findings[0].message, ==,
                     "devices[2] is \"1\" (GPU), but streams[2] runs on CPU (0), the device of its first node \""
                     MOVED "\"");
  }
  g_assert_nonnull (strstr (pv_window_get_device_note (fx->window),
                            "The config puts 1 node on the GPU (device 1), but with the CPU registry"));
  spin (400);
  save_widget_screenshot (GTK_WIDGET (fx->window), "devices-cpu-registry-banner.png");

  /* The banner's button. */
  {
    guint plans = fx->plan_changes;
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.use-cuda-registry", NULL));
    wait_for_plan (fx, plans);
  }
  g_assert_cmpint (pv_document_get_registry (fx->document), ==, PV_REGISTRY_CUDA);
  g_assert_cmpint (lane_of (fx, MOVED)->device, ==, PV_ORT_DEVICE_GPU);
  g_assert_cmpuint (pv_partition_editor_count_marks (fx->editor, PV_PARTITION_MARK_WARNING), ==, 0);
  g_assert_nonnull (strstr (pv_window_get_device_note (fx->window), "runs on the GPU"));
}

/* A mapped cell label of the Values page showing @row. */
static GtkWidget *
cell_of (GtkWidget *root, PvValueRow *row)
{
  if (GTK_IS_LABEL (root) && g_object_get_data (G_OBJECT (root), "pv-row") == row && gtk_widget_get_mapped (root))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = cell_of (c, row);
      if (found)
        return found;
    }
  return NULL;
}

static PvValuesView *values_shown;

static gboolean
values_menu_mapped (Fixture *fx)
{
  GtkWidget *menu = pv_values_menu_get_popover (values_shown);
  return menu && gtk_widget_get_mapped (menu) && gtk_widget_get_width (menu) > 0;
}

/* The Values page's row menu: a real right-click on the row of the
 * kernel's output, and the Menu key on the selected row. */
static void
test_values_menu (Fixture *fx, gconstpointer data)
{
  PvValuesView *values;
  GListModel *rows;
  g_autoptr (PvValueRow) row = NULL;
  g_autofree char *labels = NULL;
  const PvGraph *g;
  GtkWidget *menu, *cell;
  graphene_point_t in, out;
  double sx = 0, sy = 0;
  int value, id;
  guint pos = GTK_INVALID_LIST_POSITION, plans;

  open_model (fx, "wide_branches.onnx", TWO_STREAMS);
  use_registry (fx, PV_REGISTRY_CUDA);
  values = values_shown = PV_VALUES_VIEW (find_widget (GTK_WIDGET (fx->window), PV_TYPE_VALUES_VIEW));
  gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_ancestor (GTK_WIDGET (values), GTK_TYPE_STACK)),
                               GTK_WIDGET (values));
  g = pv_document_get_model (fx->document)->graph;
  id = node_id (fx, MOVED);
  value = g->nodes[id].outputs[0];
  rows = G_LIST_MODEL (pv_values_view_get_selection_model (values));
  for (guint i = 0; i < g_list_model_get_n_items (rows) && pos == GTK_INVALID_LIST_POSITION; i++)
    {
      g_autoptr (PvValueRow) r = g_list_model_get_item (rows, i);
      if (pv_value_row_get_value (r) == value)
        pos = i;
    }
  g_assert_cmpuint (pos, !=, GTK_INVALID_LIST_POSITION);
  row = g_list_model_get_item (rows, pos);
  g_assert_cmpint (pv_value_row_get_producer (row), ==, id);
  spin (400);

  /* Right-click on its cell. */
  cell = cell_of (GTK_WIDGET (pv_values_view_get_column_view (values)), row);
  g_assert_nonnull (cell);
  in = GRAPHENE_POINT_INIT (gtk_widget_get_width (cell) / 2.0, gtk_widget_get_height (cell) / 2.0);
  g_assert_true (gtk_widget_compute_point (cell, GTK_WIDGET (fx->window), &in, &out));
  gtk_native_get_surface_transform (GTK_NATIVE (fx->window), &sx, &sy);
  xdo ("mousemove --window %lu %d %d click 3", window_xid (fx), (int) (out.x + sx), (int) (out.y + sy));
  g_assert_true (wait_until (fx, values_menu_mapped));
  menu = pv_values_menu_get_popover (values);
  labels = menu_text (menu);
  g_assert_cmpstr (labels, ==, "Run on GPU (device 1)");
  {
    g_autoptr (GMenuModel) section =
      g_menu_model_get_item_link (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (menu)), 0, G_MENU_LINK_SECTION);
    g_autofree char *heading = NULL;
    g_assert_nonnull (section);
    g_menu_model_get_item_attribute (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (menu)), 0,
                                     G_MENU_ATTRIBUTE_LABEL, "s", &heading);
    g_assert_cmpstr (heading, ==, "Producer " MOVED);
  }
  spin (300);
  save_widget_screenshot (menu, "devices-values-menu-popover.png");
  plans = fx->plan_changes;
  g_assert_true (gtk_widget_activate_action (menu, "values.run-on-device", "(ii)", PV_DEVICE_GPU, -1));
  gtk_popover_popdown (GTK_POPOVER (menu));
  wait_for_plan (fx, plans);
  g_assert_null (pv_window_get_error (fx->window));
  assert_text_has (fx, DEVICES_3);
  g_assert_cmpint (stream_in_text (fx, MOVED), ==, 2);
  g_assert_cmpint (lane_of (fx, MOVED)->device, ==, PV_ORT_DEVICE_GPU);
  /* The producer is selected in the timeline. */
  g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->id, ==, id);
  spin (400);
  save_widget_screenshot (GTK_WIDGET (fx->window), "devices-values-moved.png");

  /* Menu on the selected row: it now runs on the GPU, so "Run on CPU". */
  gtk_single_selection_set_selected (pv_values_view_get_selection_model (values), pos);
  gtk_widget_grab_focus (GTK_WIDGET (pv_values_view_get_column_view (values)));
  spin (100);
  xdo ("key --window %lu Menu", window_xid (fx));
  g_assert_true (wait_until (fx, values_menu_mapped));
  g_clear_pointer (&labels, g_free);
  labels = menu_text (pv_values_menu_get_popover (values));
  g_assert_cmpstr (labels, ==, "Run on CPU (device 0)>New Stream on CPU|Stream 0 (7 kernels)|Stream 1 (11 kernels)<");
  gtk_popover_popdown (GTK_POPOVER (pv_values_menu_get_popover (values)));
}

/* A subgraph body ignores the config in ORT (its nodes run on the owner's
 * device): its kernels' menu has no "Run on" items; the main graph's has. */
static void
test_body_has_no_device_items (Fixture *fx, gconstpointer data)
{
  const PvGraph *g, *body;
  g_autofree char *main_labels = NULL, *body_labels = NULL;
  GtkWidget *menu;
  int loop, kernel;

  open_model (fx, "control_flow.onnx", NULL);
  use_registry (fx, PV_REGISTRY_CUDA);
  g = pv_document_get_model (fx->document)->graph;
  loop = pv_graph_find_node (g, "/Loop");
  g_assert_cmpint (loop, >=, 0);
  select_kernel (fx, "/input/MatMul");
  gtk_widget_grab_focus (GTK_WIDGET (fx->view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->view), "timeline.context-menu", NULL));
  g_assert_true (wait_until (fx, menu_mapped));
  menu = find_popover_menu (GTK_WIDGET (fx->view));
  main_labels = menu_text (menu);
  g_assert_nonnull (strstr (main_labels, "Run on GPU (device 1)"));
  gtk_popover_popdown (GTK_POPOVER (menu));
  g_assert_true (wait_until (fx, menu_unmapped));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.open-subgraph", "(ii)", loop, 0));
  g_assert_true (wait_until (fx, settled));
  body = g->nodes[loop].subgraphs[0];
  g_assert_true (pv_timeline_view_get_model (fx->view)->graph == body);
  kernel = pv_graph_find_node (body, "/cell/If");
  g_assert_cmpint (kernel, >=, 0);
  pv_timeline_view_set_selected_nodes (fx->view, &kernel, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->view), "timeline.context-menu", NULL));
  g_assert_true (wait_until (fx, menu_mapped));
  menu = find_popover_menu (GTK_WIDGET (fx->view));
  body_labels = menu_text (menu);
  g_assert_null (strstr (body_labels, "Run on"));
  gtk_popover_popdown (GTK_POPOVER (menu));
}

int
main (int argc, char **argv)
{
  int status;

  gui_fixture_init (&argc, &argv);
  if (!gui_xdo_init ())
    return 0;

  ADD ("/devices/run-on-gpu", test_run_on_gpu, NULL);
  ADD ("/devices/existing-gpu-stream", test_existing_gpu_stream, NULL);
  ADD ("/devices/cpu-registry", test_cpu_registry, NULL);
  ADD ("/devices/values-menu", test_values_menu, NULL);
  ADD ("/devices/body", test_body_has_no_device_items, NULL);

  status = gui_fixture_run ();
  gui_xdo_shutdown ();
  return status;
}
