/* test-subgraph.c: opening If/Loop/Scan bodies in the window.
 *
 * data/control_flow.onnx has a Loop ("/Loop") whose body holds an If
 * ("/cell/If"), and an If ("/head/If") on the main graph. The tests open
 * bodies through the window's actions (as the bar's buttons and
 * double-click do), check what the timeline, the breadcrumb bar and the
 * Summary page show, go back, and re-plan with a body open. Each leaves a
 * screenshot. */
#include <cjson/cJSON.h>
#include <glib/gstdio.h>
#include <string.h>

#include "gui-fixture.h"

#define MODEL "control_flow.onnx"
/* MODEL's main graph on two streams, both on device 0. */
static const char two_streams[] =
  "{\"type\":\"DeviceBasedPartitioner\",\"streams\":[[\"/input/MatMul\",\"/Loop\"],"
  "[\"/ReduceMean\",\"/Greater\",\"/head/If\"]],\"devices\":[\"0\",\"0\"]}";

static const PvGraph *
main_graph (Fixture *fx)
{
  return pv_document_get_model (fx->document)->graph;
}

static int
node_id (const PvGraph *graph, const char *name)
{
  int n = pv_graph_find_node (graph, name);
  g_assert_cmpint (n, >=, 0);
  return n;
}

static void
select_kernel (Fixture *fx, int node)
{
  PvTimelineSelection sel = { PV_TIMELINE_HIT_KERNEL, node };
  pv_timeline_view_set_selection (fx->view, &sel);
  g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->id, ==, node);
}

static void
open_body (Fixture *fx, int node, int index)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.open-subgraph", "(ii)", node, index));
  g_assert_true (wait_until (fx, settled));
  g_assert_null (pv_window_get_error (fx->window));
}

/* The timeline draws exactly @graph's nodes, each once. */
static void
assert_timeline_of (Fixture *fx, const PvGraph *graph)
{
  PvTimelineModel *model = pv_timeline_view_get_model (fx->view);
  g_autofree int *seen = g_new0 (int, MAX (graph->n_nodes, 1));

  g_assert_nonnull (model);
  g_assert_true (model->graph == graph);
  g_assert_true (model->has_plan);
  g_assert_cmpint (model->n_kernels, ==, graph->n_nodes);
  for (int k = 0; k < model->n_kernels; k++)
    {
      g_assert_cmpint (model->kernels[k].node, <, graph->n_nodes);
      seen[model->kernels[k].node]++;
    }
  for (int n = 0; n < graph->n_nodes; n++)
    g_assert_cmpint (seen[n], ==, 1);
}

/* Where the timeline's top edge is in the window. */
static double
timeline_top (Fixture *fx)
{
  double x, y;

  g_assert_true (gtk_widget_translate_coordinates (GTK_WIDGET (fx->view), GTK_WIDGET (fx->window), 0, 0, &x, &y));
  return y;
}

static void
test_open_body (Fixture *fx, gconstpointer data)
{
  PvSubgraphBar *bar = pv_window_get_subgraph_bar (fx->window);
  PvSubgraphNav *nav = pv_window_get_subgraph_nav (fx->window);
  PvSummaryView *summary = pv_window_get_summary_view (fx->window);
  const PvGraph *g = main_graph (fx), *body;
  int loop = node_id (g, "/Loop");
  double top;

  /* The main graph: 5 kernels, a bar with one crumb. */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (bar)));
  assert_timeline_of (fx, g);
  g_assert_true (pv_timeline_view_get_model (fx->view) == pv_document_get_timeline (fx->document));
  g_assert_cmpuint (pv_subgraph_bar_get_n_crumbs (bar), ==, 1);
  g_assert_cmpstr (pv_subgraph_bar_get_crumb (bar, 0), ==, MODEL);
  gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.subgraph-up", NULL);
  g_assert_cmpuint (pv_subgraph_nav_get_depth (nav), ==, 0);

  /* Selecting the Loop offers its body; other kernels offer nothing. The
   * timeline stays where it was: the bar keeps its height. */
  select_kernel (fx, node_id (g, "/input/MatMul"));
  g_assert_cmpuint (pv_subgraph_bar_get_n_open_buttons (bar), ==, 0);
  spin (100);
  top = timeline_top (fx);
  select_kernel (fx, loop);
  g_assert_cmpuint (pv_subgraph_bar_get_n_open_buttons (bar), ==, 1);
  spin (100);
  g_assert_cmpfloat (timeline_top (fx), ==, top);

  open_body (fx, loop, 0);
  body = g->nodes[loop].subgraphs[0];
  g_assert_cmpuint (pv_subgraph_nav_get_depth (nav), ==, 1);
  assert_timeline_of (fx, body);
  g_assert_true (pv_timeline_view_get_model (fx->view) != pv_document_get_timeline (fx->document));
  g_assert_cmpint (pv_graph_find_node (body, "/cell/If"), >=, 0);
  g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->kind, ==, PV_TIMELINE_HIT_NONE);

  g_assert_cmpuint (pv_subgraph_bar_get_n_crumbs (bar), ==, 2);
  g_assert_cmpstr (pv_subgraph_bar_get_crumb (bar, 0), ==, MODEL);
  g_assert_cmpstr (pv_subgraph_bar_get_crumb (bar, 1), ==, "/Loop body");

  /* The Summary page shows the body's plan and says what ORT does. */
  g_assert_cmpstr (pv_summary_view_get_value (summary, "Streams"), ==, "1 (CPU)");
  g_assert_cmpstr (pv_summary_view_get_value (summary, "Kernels"), ==, "7");
  g_assert_cmpstr (pv_summary_view_get_value (summary, "Verdict"), ==, "Safe");
  g_assert_true (g_str_has_prefix (pv_summary_view_get_value (summary, "ONNX Runtime"), "Not used for subgraphs"));
  show_summary (fx);

  /* Exports are of the graph shown. */
  {
    g_autofree char *path = g_build_filename (fx->tmpdir, "body.json", NULL);
    g_autoptr (GFile) file = g_file_new_for_path (path);
    g_autoptr (GError) error = NULL;
    g_autofree char *text = NULL;
    cJSON *root;

    g_assert_true (pv_window_export (fx->window, PV_EXPORT_PLAN_JSON, file, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    root = cJSON_Parse (text);
    g_assert_nonnull (root);
    g_assert_cmpstr (cJSON_GetStringValue (cJSON_GetObjectItem (root, "subgraph")), ==, "/Loop body");
    g_assert_nonnull (strstr (text, "/cell/Sigmoid"));
    g_assert_null (strstr (text, "/head/If"));
    cJSON_Delete (root);
    g_remove (path);
  }
  /* The picture's title names the body under the model. */
  {
    g_autofree char *path = g_build_filename (fx->tmpdir, "body.svg", NULL);
    g_autoptr (GFile) file = g_file_new_for_path (path);
    g_autoptr (GError) error = NULL;
    g_autofree char *text = NULL, *title = g_strdup_printf ("<title>%s › /Loop body · ", MODEL);

    g_assert_true (pv_window_export (fx->window, PV_EXPORT_SVG, file, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    g_assert_nonnull (strstr (text, title));
    g_remove (path);
  }
}

static void
test_nested_and_back (Fixture *fx, gconstpointer data)
{
  PvSubgraphBar *bar = pv_window_get_subgraph_bar (fx->window);
  PvSubgraphNav *nav = pv_window_get_subgraph_nav (fx->window);
  PvSummaryView *summary = pv_window_get_summary_view (fx->window);
  const PvGraph *g = main_graph (fx), *body, *branch;
  int loop = node_id (g, "/Loop"), inner;

  open_body (fx, loop, 0);
  body = pv_subgraph_nav_get_graph (nav);
  inner = node_id (body, "/cell/If");
  select_kernel (fx, inner);
  g_assert_cmpuint (pv_subgraph_bar_get_n_open_buttons (bar), ==, 2);
  open_body (fx, inner, 1);
  branch = body->nodes[inner].subgraphs[1];
  assert_timeline_of (fx, branch);
  g_assert_cmpuint (pv_subgraph_bar_get_n_crumbs (bar), ==, 3);
  g_assert_cmpstr (pv_subgraph_bar_get_crumb (bar, 2), ==, "/cell/If else_branch");

  /* Up one level (Alt+Left, Backspace), then the first crumb. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.subgraph-up", NULL));
  assert_timeline_of (fx, body);
  g_assert_cmpuint (pv_subgraph_bar_get_n_crumbs (bar), ==, 2);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.subgraph-go-to", "u", 0));
  g_assert_cmpuint (pv_subgraph_nav_get_depth (nav), ==, 0);
  assert_timeline_of (fx, g);
  g_assert_true (pv_timeline_view_get_model (fx->view) == pv_document_get_timeline (fx->document));
  g_assert_cmpuint (pv_subgraph_bar_get_n_crumbs (bar), ==, 1);
  g_assert_cmpstr (pv_summary_view_get_value (summary, "Kernels"), ==, "5");
  g_assert_cmpstr (pv_summary_view_get_value (summary, "ONNX Runtime"), !=, NULL);
  g_assert_false (g_str_has_prefix (pv_summary_view_get_value (summary, "ONNX Runtime"), "Not used"));

  /* Bad parameters are refused with a message, nothing changes. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.open-subgraph", "(ii)",
                                             node_id (g, "/input/MatMul"), 0));
  g_assert_nonnull (pv_window_get_error (fx->window));
  g_assert_cmpuint (pv_subgraph_nav_get_depth (nav), ==, 0);
  pv_window_show_error (fx->window, NULL);

  /* Back into the nested branch for the screenshot. */
  open_body (fx, loop, 0);
  open_body (fx, inner, 0);
  g_assert_cmpstr (pv_subgraph_bar_get_crumb (bar, 2), ==, "/cell/If then_branch");
  g_assert_true (wait_until (fx, settled));
}

/* The second press of a double-click on a Loop kernel opens its body. */
static void
test_double_click (Fixture *fx, gconstpointer data)
{
  PvSubgraphNav *nav = pv_window_get_subgraph_nav (fx->window);
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (fx->view));
  GtkGesture *click = NULL;
  int loop = node_id (main_graph (fx), "/Loop");

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && click == NULL; i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (controllers, i);
      if (GTK_IS_GESTURE_CLICK (item))
        click = GTK_GESTURE (item);
    }
  g_assert_nonnull (click);

  /* Single presses and non-control-flow kernels open nothing. */
  select_kernel (fx, node_id (main_graph (fx), "/input/MatMul"));
  g_signal_emit_by_name (click, "pressed", 2, 10.0, 10.0);
  g_assert_cmpuint (pv_subgraph_nav_get_depth (nav), ==, 0);
  select_kernel (fx, loop);
  g_signal_emit_by_name (click, "pressed", 1, 10.0, 10.0);
  g_assert_cmpuint (pv_subgraph_nav_get_depth (nav), ==, 0);
  g_signal_emit_by_name (click, "pressed", 2, 10.0, 10.0);
  /* The document's worker plans the body; it shows once planned. */
  g_assert_true (wait_until (fx, settled));
  g_assert_cmpuint (pv_subgraph_nav_get_depth (nav), ==, 1);
  assert_timeline_of (fx, main_graph (fx)->nodes[loop].subgraphs[0]);
}

typedef struct {
  PvTimelineView *view;
  PvTimelineModel *last;
  guint replaced;          /* times the timeline shown became another one */
} Replacements;

static void
count_replacement (Replacements *r)
{
  PvTimelineModel *now = pv_timeline_view_get_model (r->view);
  if (now != r->last)
    r->replaced++;
  r->last = now;
}

/* An edit of the main config with a body open: one job of the document's
 * worker plans the main graph and the body, and the body's timeline is
 * replaced once, by that job's result. No plan comes from the main thread. */
static void
test_body_replanned_by_worker (Fixture *fx, gconstpointer data)
{
  PvSubgraphNav *nav = pv_window_get_subgraph_nav (fx->window);
  const PvGraph *g = main_graph (fx);
  int loop = node_id (g, "/Loop");
  Replacements r = { fx->view, NULL, 0 };
  const PvSession *old_body;
  guint plans;
  gulong handler;

  open_body (fx, loop, 0);
  old_body = pv_subgraph_nav_get_session (nav);
  g_assert_true (old_body->planned_on != g_thread_self ());
  r.last = pv_timeline_view_get_model (fx->view);
  plans = pv_document_get_n_plans (fx->document);
  handler = g_signal_connect_swapped (nav, "changed", G_CALLBACK (count_replacement), &r);
  pv_document_set_partition_text (fx->document, two_streams);
  g_assert_true (wait_until (fx, settled));
  g_signal_handler_disconnect (nav, handler);

  g_assert_cmpuint (pv_document_get_n_plans (fx->document), ==, plans + 1);
  g_assert_cmpuint (r.replaced, ==, 1);
  g_assert_cmpuint (pv_subgraph_nav_get_depth (nav), ==, 1);
  assert_timeline_of (fx, g->nodes[loop].subgraphs[0]);
  g_assert_true (pv_timeline_view_get_model (fx->view) == pv_document_get_body_timeline (fx->document, 1));
  g_assert_true (pv_subgraph_nav_get_session (nav) != old_body);
  g_assert_true (pv_subgraph_nav_get_session (nav)->planned_on != g_thread_self ());
  g_assert_true (pv_document_get_plan_session (fx->document)->planned_on != g_thread_self ());
  g_assert_cmpint (pv_document_get_plan_session (fx->document)->ort->n_streams, ==, 2);
}

/* Re-plans of the main graph re-plan the open body; the partition config
 * never reaches it. */
static void
test_replan (Fixture *fx, gconstpointer data)
{
  PvSubgraphNav *nav = pv_window_get_subgraph_nav (fx->window);
  PvSummaryView *summary = pv_window_get_summary_view (fx->window);
  const PvGraph *g = main_graph (fx);
  int head = node_id (g, "/head/If");
  PvTimelineModel *before;
  guint plans;

  /* (Opening the body installs its plan: a plan-changed of its own.) */
  open_body (fx, head, 0);
  plans = fx->plan_changes;
  before = pv_timeline_view_get_model (fx->view);
  pv_document_set_partition_text (fx->document, two_streams);
  pv_document_plan_now (fx->document);
  g_assert_cmpuint (fx->plan_changes, ==, plans + 1);
  g_assert_cmpint (pv_document_get_plan_session (fx->document)->ort->n_streams, ==, 2);
  g_assert_cmpuint (pv_subgraph_nav_get_depth (nav), ==, 1);
  g_assert_true (pv_timeline_view_get_model (fx->view) != before);
  assert_timeline_of (fx, g->nodes[head].subgraphs[0]);
  g_assert_cmpint (pv_timeline_view_get_model (fx->view)->n_streams, ==, 1);
  g_assert_cmpstr (pv_summary_view_get_value (summary, "Streams"), ==, "1 (CPU)");
  g_assert_null (pv_window_get_error (fx->window));
  g_assert_true (wait_until (fx, settled));
  show_summary (fx);
}

/* A reload where the node is gone returns to the main graph and says so;
 * another file simply starts at its main graph. */
static void
test_node_vanishes (Fixture *fx, gconstpointer data)
{
  PvSubgraphNav *nav = pv_window_get_subgraph_nav (fx->window);
  g_autofree char *copy = g_build_filename (fx->tmpdir, "model.onnx", NULL);
  g_autofree char *source = data_path (MODEL), *other = data_path ("if_outer_scope.onnx");
  g_autofree char *contents = NULL;
  g_autoptr (GFile) file = g_file_new_for_path (copy);
  gsize len;

  g_assert_true (g_file_get_contents (source, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (copy, contents, len, NULL));
  pv_window_open (fx->window, file, NULL);
  g_assert_true (wait_until (fx, settled));
  open_body (fx, node_id (main_graph (fx), "/Loop"), 0);

  /* Same file name, different model: “/Loop” is gone. */
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (other, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (copy, contents, len, NULL));
  pv_window_open (fx->window, file, NULL);
  g_assert_true (wait_until (fx, settled));
  g_assert_cmpuint (pv_subgraph_nav_get_depth (nav), ==, 0);
  g_assert_nonnull (pv_subgraph_nav_get_notice (nav));
  g_assert_nonnull (strstr (pv_subgraph_nav_get_notice (nav), "“/Loop” body is no longer in the model"));
  g_assert_null (pv_window_get_error (fx->window));
  assert_timeline_of (fx, main_graph (fx));
  g_assert_true (wait_until (fx, settled));
  spin (300);
  save_widget_screenshot (GTK_WIDGET (fx->window), "subgraph-node-vanishes-notice.png");

  /* Another file: back to its main graph without a message. */
  open_model (fx, MODEL, NULL);
  open_body (fx, node_id (main_graph (fx), "/Loop"), 0);
  open_model (fx, "wide_branches.onnx", NULL);
  g_assert_cmpuint (pv_subgraph_nav_get_depth (nav), ==, 0);
  g_assert_null (pv_subgraph_nav_get_notice (nav));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (pv_window_get_subgraph_bar (fx->window))));
  assert_timeline_of (fx, main_graph (fx));
  g_remove (copy);
}

int
main (int argc, char **argv)
{
  gui_fixture_init (&argc, &argv);

  ADD ("/subgraph/open-body", test_open_body, MODEL);
  ADD ("/subgraph/nested-and-back", test_nested_and_back, MODEL);
  ADD ("/subgraph/double-click", test_double_click, MODEL);
  ADD ("/subgraph/replan", test_replan, MODEL);
  ADD ("/subgraph/body-replanned-by-worker", test_body_replanned_by_worker, MODEL);
  ADD ("/subgraph/node-vanishes", test_node_vanishes, MODEL);
  return gui_fixture_run ();
}
