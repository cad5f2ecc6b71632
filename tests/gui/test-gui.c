/* test-gui.c: drives the real planviz window (under Xvfb, see run-xvfb.sh).
 *
 * Every test opens data/wide_branches.onnx in a fresh window, checks what
 * the window's document, timeline model and partition editor say (never
 * pixels), and leaves a screenshot of the window in PV_SCREENSHOT_DIR. */
#include <cjson/cJSON.h>
#include <glib/gstdio.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#include "gui-fixture.h"
#include "pv-inspector.h"
#include "pv-recent.h"
#include "pv-onnx-builder.h"
#include "pv-plan-checker.h"

/* ---- tests ---- */

static void
test_open_lanes (Fixture *fx, gconstpointer data)
{
  PvTimelineModel *model = pv_timeline_view_get_model (fx->view);
  const PvTimelineMemory *buffers;
  PvSummaryView *summary;

  /* The view draws the document's timeline: one CPU stream of 19 kernels,
   * one live-bytes curve, ORT's buffers as memory lanes. */
  g_assert_nonnull (model);
  g_assert_true (model == pv_document_get_timeline (fx->document));
  g_assert_true (model->has_plan);
  g_assert_cmpint (model->n_streams, ==, 1);
  g_assert_cmpint (model->streams[0].kind, ==, PV_TIMELINE_LANE_STREAM);
  g_assert_cmpint (model->streams[0].n, ==, 19);
  g_assert_true (g_str_has_prefix (model->streams[0].label, "stream 0"));
  g_assert_cmpint (model->n_kernels, ==, 19);
  g_assert_cmpint (model->n_curves, ==, 1);
  g_assert_cmpint (model->curve_lanes[0].kind, ==, PV_TIMELINE_LANE_CURVE);
  g_assert_cmpint (model->n_arrows, ==, 0);
  g_assert_cmpuint (model->load_bytes, ==, 256 * 1024);

  buffers = &model->memory[PV_TIMELINE_MEMORY_ORT_BUFFERS];
  g_assert_true (buffers->available);
  g_assert_cmpint (buffers->n_lanes, ==, 9);
  for (int i = 0; i < buffers->n_lanes; i++)
    g_assert_cmpint (buffers->lanes[i].kind, ==, PV_TIMELINE_LANE_BUFFER);
  g_assert_cmpint (pv_timeline_view_get_memory_view (fx->view), ==, PV_TIMELINE_MEMORY_ORT_BUFFERS);
  g_assert_false (pv_timeline_view_get_dimmed (fx->view));
  g_assert_cmpuint (pv_timeline_view_get_frames_drawn (fx->view), >, 0);

  /* The planner dropdown's choice reaches the view and the summary. */
  summary = pv_window_get_summary_view (fx->window);
  g_assert_cmpstr (pv_summary_view_get_value (summary, "Streams"), ==, "1 (CPU)");
  g_assert_cmpstr (pv_summary_view_get_value (summary, "Verdict"), ==, "Safe");
  g_assert_cmpstr (pv_summary_view_get_value (summary, "ORT reserves"), ==, "384.0\u00a0KiB");
  /* What ORT holds leads, from the arena's simulation (tests/ort checks
   * its figures against the runtime). */
  g_assert_nonnull (pv_summary_view_get_value (summary, "ORT holds"));
  g_assert_nonnull (pv_summary_view_get_value (summary, "With memory pattern"));
  g_assert_cmpstr (pv_summary_view_get_value (summary, "Pattern block"), ==, "320.0\u00a0KiB");
  g_assert_cmpint (model->arena.n_points, ==, 19);
  g_assert_cmpstr (pv_summary_view_get_value (summary, "LOAD"), ==, "256.0\u00a0KiB");
  pv_document_set_planner (fx->document, PV_PLANNER_SLOTS);
  g_assert_cmpint (pv_timeline_view_get_memory_view (fx->view), ==, PV_TIMELINE_MEMORY_SLOTS);
  g_assert_true (model->memory[PV_TIMELINE_MEMORY_SLOTS].available);
  g_assert_cmpint (model->memory[PV_TIMELINE_MEMORY_SLOTS].lanes[0].kind, ==, PV_TIMELINE_LANE_SLOT);
  pv_document_set_planner (fx->document, PV_PLANNER_ARENA);
  g_assert_cmpint (pv_timeline_view_get_memory_view (fx->view), ==, PV_TIMELINE_MEMORY_ARENA);
  g_assert_cmpstr (pv_summary_view_get_value (summary, "Peak / LOAD"), ==, "1.000×");
  pv_document_set_planner (fx->document, PV_PLANNER_SLOTS);
  show_summary (fx);
}

/* What ORT holds heads the ORT plan's Summary, and the arena's curves
 * ride on the live-bytes row (the screenshot shows both). */
static void
test_ort_arena (Fixture *fx, gconstpointer data)
{
  PvSummaryView *summary;
  PvTimelineModel *model;
  const PvSession *session;

  open_model (fx, "cnn.onnx", NULL);
  model = pv_timeline_view_get_model (fx->view);
  session = pv_document_get_plan_session (fx->document);
  g_assert_nonnull (session->ort_run);
  g_assert_cmpint (model->arena.n_points, ==, 10);
  g_assert_cmpuint (model->arena.max_held, ==, session->ort_run->held);
  g_assert_cmpuint (model->arena.max_requested, ==, session->ort_run->peak_requested);
  summary = pv_window_get_summary_view (fx->window);
  /* Held bytes do not depend on the thread count for cnn.onnx: 1 MiB and
   * the 2408 bytes reserved before the first node (ORT's figures). */
  g_assert_cmpstr (pv_summary_view_get_value (summary, "ORT holds"), ==, "1.0\u00a0MiB");
  g_assert_cmpstr (pv_summary_view_get_value (summary, "Before the first node"), ==, "2.4\u00a0KiB");
  g_assert_cmpstr (pv_summary_view_get_value (summary, "Pattern block"), ==, "128.0\u00a0KiB");
  show_summary (fx);
}

/* A model with an op planviz has no shape rule for: the Summary says the
 * plan is deferred and names the op, and gives no figure. */
static void
test_no_shape_rule (Fixture *fx, gconstpointer data)
{
  g_autoptr (PvOnnxBuilder) b = pv_onnx_builder_new (8, "planviz-test");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autofree char *path = g_build_filename (fx->tmpdir, "mystery.onnx", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  PvSummaryView *summary;
  PvOnnxNode *n;

  pv_onnx_builder_add_opset (b, "", 17);
  pv_onnx_builder_add_opset (b, "com.example", 1);
  pv_onnx_graph_add_input (g, "x", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, "64,64");
  pv_onnx_graph_add_node (g, "Relu", "relu", PV_ONNX_NAMES ("x"), PV_ONNX_NAMES ("a"));
  n = pv_onnx_graph_add_node (g, "Mystery", "mystery", PV_ONNX_NAMES ("a"), PV_ONNX_NAMES ("b"));
  pv_onnx_node_set_domain (n, "com.example");
  pv_onnx_graph_add_node (g, "Sigmoid", "sig", PV_ONNX_NAMES ("b"), PV_ONNX_NAMES ("y"));
  pv_onnx_graph_add_output (g, "y", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, NULL);
  g_assert_true (pv_onnx_builder_write (b, path, &error));
  g_assert_no_error (error);
  pv_window_open (fx->window, file, NULL);
  g_assert_true (wait_until (fx, settled));
  g_assert_null (pv_window_get_error (fx->window));
  summary = pv_window_get_summary_view (fx->window);
  g_assert_cmpstr (pv_summary_view_get_value (summary, "Deferred"), ==,
                   "2 values have no known shape or type: no figure is given");
  g_assert_cmpstr (pv_summary_view_get_value (summary, "No shape rule"), ==, "com.example:Mystery (×1)");
  g_assert_null (pv_summary_view_get_value (summary, "ORT reserves"));
  show_summary (fx);
}

static void
test_two_streams_file (Fixture *fx, gconstpointer data)
{
  PvTimelineModel *model;

  open_model (fx, "wide_branches.onnx", "wide_branches.two-streams.json");
  model = pv_timeline_view_get_model (fx->view);
  g_assert_cmpint (model->n_streams, ==, 2);
  g_assert_cmpint (model->streams[0].n + model->streams[1].n, ==, 19);
  g_assert_cmpint (model->n_arrows, >, 0);
  g_assert_false (pv_partition_editor_get_modified (fx->editor));
  g_assert_nonnull (pv_document_get_partition_file (fx->document));

  /* Its two streams leave ORT's multi-stream pass nothing to choose. */
  g_assert_cmpstr (pv_summary_view_get_value (pv_window_get_summary_view (fx->window), "Random choices"), ==,
                   "0 values");
}

/* Two buffers freed on two streams, one value after both to take one: ORT
 * 1.30's walk order (seeded per process) decides which. The Summary counts
 * it and the Inspector says so on it. */
/* A five-node graph on input x[4] ("n0".."n4" of @ops reading @inputs,
 * writing @outputs, y the graph output), written as @name.onnx with
 * @config beside it, opened, planned. */
static void
open_five_nodes (Fixture *fx, const char *name, const char *const ops[5], const char *const inputs[5][3],
                 const char *const outputs[5], const char *config)
{
  g_autoptr (PvOnnxBuilder) b = pv_onnx_builder_new (8, "planviz-test");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autofree char *base = g_build_filename (fx->tmpdir, name, NULL);
  g_autofree char *path = g_strconcat (base, ".onnx", NULL), *config_path = g_strconcat (base, ".json", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFile) partition = g_file_new_for_path (config_path);
  g_autoptr (GError) error = NULL;

  pv_onnx_builder_add_opset (b, "", 17);
  pv_onnx_graph_add_input (g, "x", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, "4");
  for (int i = 0; i < 5; i++)
    {
      char node[4];
      g_snprintf (node, sizeof node, "n%d", i);
      pv_onnx_graph_add_node (g, ops[i], node, inputs[i], (const char *const[]) { outputs[i], NULL });
    }
  pv_onnx_graph_add_output (g, "y", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, "4");
  g_assert_true (pv_onnx_builder_write (b, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (config_path, config, -1, NULL));
  pv_window_open (fx->window, file, partition);
  g_assert_true (wait_until (fx, settled));
  g_assert_null (pv_window_get_error (fx->window));
}

static void
test_random_choice (Fixture *fx, gconstpointer data)
{
  const PvSession *s;
  PvInspector *inspector;
  int n = 0, marked = -1;

  open_five_nodes (fx, "two_givers", (const char *const[]) { "Exp", "Neg", "Add", "Exp", "Exp" },
                   (const char *const[][3]) { { "x" }, { "x" }, { "a", "b" }, { "y1" }, { "d" } },
                   (const char *const[]) { "a", "b", "y1", "d", "y" },
                   "{\"type\":\"DeviceBasedPartitioner\",\"streams\":[[\"n0\",\"n2\",\"n3\",\"n4\"],[\"n1\"]],"
                   "\"devices\":[\"0\",\"0\"]}");
  s = pv_document_get_plan_session (fx->document);
  g_assert_cmpint (s->ort->n_streams, ==, 2);
  for (int i = 0; i < s->ort->n_values; i++)
    if (s->ort->values[i].order_dependent)
      {
        n++;
        marked = s->ort->values[i].value;
      }
  g_assert_cmpint (n, ==, 1);
  g_assert_cmpstr (s->graph->values[marked].name, ==, "d");
  g_assert_cmpstr (pv_summary_view_get_value (pv_window_get_summary_view (fx->window), "Random choices"), ==,
                   "1 value");
  inspector = PV_INSPECTOR (find_widget (GTK_WIDGET (fx->window), PV_TYPE_INSPECTOR));
  pv_inspector_show_value (inspector, marked);
  g_assert_true (g_str_has_prefix (pv_inspector_get_row (inspector, "ORT 1.30"), "chooses this value's buffer at random"));
  gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_ancestor (GTK_WIDGET (inspector), GTK_TYPE_STACK)),
                               GTK_WIDGET (inspector));
}

/* ORT's own plan writes a value in place through an alias while another
 * stream still reads it (tests/ort/MULTISTREAM-HAZARDS.md): the Summary
 * says the plan is unsafe and what that does when ORT runs it. */
static void
test_ort_hazard (Fixture *fx, gconstpointer data)
{
  PvSummaryView *summary = pv_window_get_summary_view (fx->window);

  open_five_nodes (fx, "inplace_over_alias", (const char *const[]) { "Exp", "Identity", "Relu", "Exp", "Add" },
                   (const char *const[][3]) { { "x" }, { "a" }, { "b" }, { "a" }, { "c", "d" } },
                   (const char *const[]) { "a", "b", "c", "d", "y" },
                   "{\"type\":\"DeviceBasedPartitioner\",\"streams\":[[\"n0\",\"n1\",\"n2\",\"n4\"],[\"n3\"]],"
                   "\"devices\":[\"0\",\"0\"]}");
  g_assert_cmpstr (pv_summary_view_get_value (summary, "Verdict"), ==, "Unsafe: 1 hazard");
  g_assert_cmpstr (pv_summary_view_get_value (summary, "In ORT"), ==, pv_violation_effect (PV_VIOLATION_UNORDERED));
  gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_ancestor (GTK_WIDGET (summary), GTK_TYPE_STACK)),
                               GTK_WIDGET (summary));
  spin (300);
  save_widget_screenshot (GTK_WIDGET (fx->window), "ort-hazard-summary.png");
}

static void
test_edit_replans (Fixture *fx, gconstpointer data)
{
  PvTimelineModel *before = pv_timeline_view_get_model (fx->view);
  guint plans = fx->plan_changes;
  PvTimelineModel *after;

  g_assert_cmpuint (n_streams_planned (fx), ==, 1);
  type_second_stream (fx);
  /* Nothing happens while typing; the re-plan follows the pause. */
  g_assert_cmpuint (fx->plan_changes, ==, plans);
  g_assert_true (pv_partition_editor_get_modified (fx->editor));
  wait_for_plan (fx, plans);

  g_assert_cmpuint (n_streams_planned (fx), ==, 2);
  g_assert_false (pv_document_get_stale (fx->document));
  after = pv_timeline_view_get_model (fx->view);
  g_assert_true (after != before);
  g_assert_true (after == pv_document_get_timeline (fx->document));
  g_assert_cmpint (after->n_streams, ==, 2);
  g_assert_cmpint (after->streams[1].n, ==, 4);
  g_assert_cmpuint (pv_partition_editor_count_marks (fx->editor, PV_PARTITION_MARK_ERROR), ==, 0);
  g_assert_true (strstr (gtk_window_get_title (GTK_WINDOW (fx->window)), "•") != NULL);
}

static void
test_broken_json (Fixture *fx, gconstpointer data)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (pv_partition_editor_get_buffer (fx->editor));
  PvTimelineModel *good = pv_timeline_view_get_model (fx->view);
  const PvSession *good_session = pv_document_get_plan_session (fx->document);
  const PvSession *latest;
  guint plans = fx->plan_changes;

  /* A stray comma: ONNX Runtime would discard the config. */
  insert_at_line_end (buffer, "\"/Relu\"", ",");
  wait_for_plan (fx, plans);

  latest = pv_document_get_session (fx->document);
  g_assert_nonnull (latest);
  g_assert_nonnull (latest->partition_check);
  g_assert_true (pv_partition_check_has_errors (latest->partition_check));
  g_assert_cmpuint (pv_partition_editor_count_marks (fx->editor, PV_PARTITION_MARK_ERROR), >=, 1);
  /* The last good plan stays drawn, dimmed. */
  g_assert_true (pv_document_get_stale (fx->document));
  g_assert_true (pv_document_get_plan_session (fx->document) == good_session);
  g_assert_true (pv_timeline_view_get_model (fx->view) == good);
  g_assert_true (pv_timeline_view_get_dimmed (fx->view));
  /* Format refuses broken JSON and leaves it alone. */
  g_assert_false (pv_partition_editor_format (fx->editor, TRUE));

  /* Undo brings the valid config back. */
  plans = fx->plan_changes;
  gtk_text_buffer_undo (buffer);
  wait_for_plan (fx, plans);
  g_assert_false (pv_document_get_stale (fx->document));
  g_assert_false (pv_timeline_view_get_dimmed (fx->view));
  g_assert_cmpuint (pv_partition_editor_count_marks (fx->editor, PV_PARTITION_MARK_ERROR), ==, 0);

  /* Break it again for the screenshot. */
  plans = fx->plan_changes;
  insert_at_line_end (buffer, "\"/Relu\"", ",");
  wait_for_plan (fx, plans);
  g_assert_true (pv_document_get_stale (fx->document));
}

static void
test_refused_config (Fixture *fx, gconstpointer data)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (pv_partition_editor_get_buffer (fx->editor));
  guint plans = fx->plan_changes;
  const PvSession *latest;

  /* Two devices for one stream: ORT refuses to create the session. */
  insert_at_line_end (buffer, "\"0\"", ",\n    \"0\"");
  wait_for_plan (fx, plans);
  latest = pv_document_get_session (fx->document);
  g_assert_nonnull (latest);
  g_assert_cmpint (latest->partition_check->verdict, ==, PV_ORT_REJECTS);
  g_assert_null (latest->ort);
  g_assert_true (pv_document_get_stale (fx->document));
  g_assert_nonnull (pv_timeline_view_get_model (fx->view));
  g_assert_cmpuint (pv_partition_editor_count_marks (fx->editor, PV_PARTITION_MARK_ERROR), >=, 1);
}

static void
test_format_reset (Fixture *fx, gconstpointer data)
{
  g_autofree char *pretty = pv_partition_editor_dup_text (fx->editor);
  g_autofree char *compact = NULL, *expected_compact = NULL, *again = NULL;

  g_assert_true (pv_partition_editor_format (fx->editor, FALSE));
  compact = pv_partition_editor_dup_text (fx->editor);
  expected_compact = pv_document_dup_default_partition (fx->document, FALSE);
  /* The compact form of ORT's default is ORT's own bytes. */
  g_assert_cmpstr (compact, ==, expected_compact);
  g_assert_true (pv_partition_editor_format (fx->editor, TRUE));
  again = pv_partition_editor_dup_text (fx->editor);
  g_assert_cmpstr (again, ==, pretty);

  type_second_stream (fx);
  pv_partition_editor_flush (fx->editor);
  g_assert_cmpuint (n_streams_planned (fx), ==, 2);
  pv_partition_editor_reset (fx->editor);
  /* The reset re-plans in a thread; flush waits for that plan. */
  pv_partition_editor_flush (fx->editor);
  g_assert_cmpuint (n_streams_planned (fx), ==, 1);
  g_free (again);
  again = pv_partition_editor_dup_text (fx->editor);
  g_assert_cmpstr (again, ==, pretty);
}

static void
test_save (Fixture *fx, gconstpointer data)
{
  g_autofree char *path = g_build_filename (fx->tmpdir, "two.partition.json", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL, *saved = NULL;
  guint plans = fx->plan_changes;

  type_second_stream (fx);
  wait_for_plan (fx, plans);
  g_assert_true (strstr (gtk_window_get_title (GTK_WINDOW (fx->window)), "•") != NULL);

  g_assert_true (pv_window_save_partition (fx->window, file, &error));
  g_assert_no_error (error);
  g_assert_false (pv_partition_editor_get_modified (fx->editor));
  g_assert_null (strstr (gtk_window_get_title (GTK_WINDOW (fx->window)), "•"));
  g_assert_true (g_file_equal (pv_document_get_partition_file (fx->document), file));

  text = pv_partition_editor_dup_text (fx->editor);
  g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));
  g_assert_cmpstr (saved, ==, text);

  /* Saved again over itself: still atomic, still the same bytes. */
  g_assert_true (pv_window_save_partition (fx->window, file, &error));
  g_clear_pointer (&saved, g_free);
  g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));
  g_assert_cmpstr (saved, ==, text);

  /* The file plans the same way when opened. */
  {
    g_autofree char *model_path = data_path ("wide_branches.onnx");
    g_autoptr (GFile) model = g_file_new_for_path (model_path);
    pv_window_open (fx->window, model, file);
    g_assert_true (wait_until (fx, settled));
    g_assert_cmpuint (n_streams_planned (fx), ==, 2);
    g_assert_false (pv_partition_editor_get_modified (fx->editor));
  }
}

static void
test_export (Fixture *fx, gconstpointer data)
{
  static const struct {
    PvExportKind kind;
    const char *name;
  } kinds[] = {
    { PV_EXPORT_PNG, "t.png" },
    { PV_EXPORT_SVG, "t.svg" },
    { PV_EXPORT_PDF, "t.pdf" },
    { PV_EXPORT_PLAN_JSON, "t.plan.json" },
    { PV_EXPORT_TRACE_JSON, "t.trace.json" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autofree char *path = g_build_filename (fx->tmpdir, kinds[i].name, NULL);
      g_autoptr (GFile) file = g_file_new_for_path (path);
      g_autoptr (GError) error = NULL;

      g_assert_true (pv_window_export (fx->window, kinds[i].kind, file, &error));
      g_assert_no_error (error);
      switch (kinds[i].kind)
        {
        case PV_EXPORT_PNG: g_assert_true (file_starts_with (path, "\x89PNG\r\n\x1a\n", 8)); break;
        case PV_EXPORT_SVG: g_assert_true (file_starts_with (path, "<?xml", 5)); break;
        case PV_EXPORT_PDF: g_assert_true (file_starts_with (path, "%PDF-", 5)); break;
        default:
          {
            g_autofree char *contents = NULL;
            cJSON *root;
            g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
            root = cJSON_Parse (contents);
            g_assert_nonnull (root);
            if (kinds[i].kind == PV_EXPORT_PLAN_JSON)
              {
                g_assert_cmpstr (cJSON_GetStringValue (cJSON_GetObjectItem (root, "planner")), ==, "ort");
                g_assert_cmpstr (cJSON_GetStringValue (cJSON_GetObjectItem (root, "status")), ==, "complete");
              }
            else
              g_assert_true (cJSON_IsArray (cJSON_GetObjectItem (root, "traceEvents")));
            cJSON_Delete (root);
          }
        }
    }
}

/* A PNG's width and height (IHDR) and the text of its tEXt chunk @key
 * (NULL when absent); FALSE when the chunks do not add up. */
static gboolean
read_png (const char *path, guint32 *width, guint32 *height, const char *key, char **text)
{
  g_autofree guchar *png = NULL;
  gsize len = 0, at = 8;

  *text = NULL;
  if (!g_file_get_contents (path, (char **) &png, &len, NULL) || len < 33 || memcmp (png + 12, "IHDR", 4) != 0)
    return FALSE;
  *width = gui_be32 (png + 16);
  *height = gui_be32 (png + 20);
  while (at + 12 <= len)
    {
      guint32 n = gui_be32 (png + at);
      if (n > len - at - 12)
        return FALSE;
      if (memcmp (png + at + 4, "tEXt", 4) == 0 && n > strlen (key) &&
          memcmp (png + at + 8, key, strlen (key) + 1) == 0 && *text == NULL)
        *text = g_strndup ((const char *) png + at + 9 + strlen (key), n - strlen (key) - 1);
      at += 12 + (gsize) n;
    }
  return at == len;
}

/* Pictures at 1x and 2x (the save dialog's Scale choice), with the model
 * and the config named in the title and the PNG's tEXt chunks. */
static void
test_export_scale (Fixture *fx, gconstpointer data)
{
  guint32 w[2], h[2];
  g_autofree char *model = NULL, *config = NULL, *title = NULL;

  open_model (fx, "wide_branches.onnx", "wide_branches.two-streams.json");
  for (int scale = 1; scale <= 2; scale++)
    {
      g_autofree char *name = g_strdup_printf ("export-%dx.png", scale);
      g_autofree char *path = g_build_filename (fx->tmpdir, name, NULL);
      g_autofree char *shot = g_build_filename (screenshot_dir, "gui-export-1x.png", NULL);
      g_autoptr (GFile) file = g_file_new_for_path (path);
      g_autoptr (GError) error = NULL;
      g_autofree char *contents = NULL;
      gsize len;

      pv_window_set_export_scale (fx->window, scale);
      g_assert_cmpint (pv_window_get_export_scale (fx->window), ==, scale);
      g_assert_true (pv_window_export (fx->window, PV_EXPORT_PNG, file, &error));
      g_assert_no_error (error);
      g_clear_pointer (&model, g_free);
      g_clear_pointer (&config, g_free);
      g_assert_true (read_png (path, &w[scale - 1], &h[scale - 1], "Model", &model));
      g_assert_true (read_png (path, &w[scale - 1], &h[scale - 1], "Config", &config));
      g_assert_cmpstr (model, ==, "wide_branches.onnx");
      g_assert_cmpstr (config, ==, "wide_branches.two-streams.json");
      /* Kept for a look. */
      if (scale == 1 && g_file_get_contents (path, &contents, &len, NULL))
        g_file_set_contents (shot, contents, (gssize) len, NULL);
    }
  g_assert_cmpuint (w[1], ==, 2 * w[0]);
  g_assert_cmpuint (h[1], ==, 2 * h[0]);
  {
    g_autofree char *path = g_build_filename (fx->tmpdir, "export-1x.png", NULL);
    guint32 ww, hh;
    g_assert_true (read_png (path, &ww, &hh, "Title", &title));
    g_assert_true (g_str_has_prefix (title, "wide_branches.onnx \xb7 wide_branches.two-streams.json \xb7 ort planner \xb7 "
                                            "peak live "));
  }
}

static void
test_navigation (Fixture *fx, gconstpointer data)
{
  PvTimelineRenderer *renderer = pv_timeline_view_get_renderer (fx->view);
  PvTimelineModel *model = pv_timeline_view_get_model (fx->view);
  const PvTimelineViewport *vp = pv_timeline_renderer_get_viewport (renderer);
  PvTimelineSelection sel = { PV_TIMELINE_HIT_KERNEL, -1 };
  double span = vp->t1 - vp->t0;
  PvTimelineHit hit;
  double x, y;

  /* Zoom in and out, fit again. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->view), "timeline.zoom-in", NULL));
  g_assert_cmpfloat (vp->t1 - vp->t0, <, span);
  pv_timeline_view_zoom_fit (fx->view);
  g_assert_cmpfloat (vp->t0, <=, 0.0);
  g_assert_cmpfloat (vp->t1, >=, model->t_end);

  /* Select a kernel through the renderer's hit test, as a click does. */
  sel.id = model->kernels[model->n_kernels / 2].node;
  pv_timeline_view_set_selection (fx->view, &sel);
  g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->kind, ==, PV_TIMELINE_HIT_KERNEL);
  g_assert_true (pv_timeline_view_focus_selection (fx->view));
  g_assert_cmpfloat (vp->t1 - vp->t0, <, span);
  x = pv_timeline_renderer_time_to_x (renderer, (model->kernels[model->n_kernels / 2].start +
                                                 model->kernels[model->n_kernels / 2].end) / 2);
  /* Find the stream lane's row by probing down the kernel's column. */
  for (y = 0; y < vp->height; y += 2)
    if (pv_timeline_renderer_hit_test (renderer, x, y, &hit) && hit.kind == PV_TIMELINE_HIT_KERNEL)
      break;
  g_assert_cmpint (hit.kind, ==, PV_TIMELINE_HIT_KERNEL);
  g_assert_cmpint (hit.node, ==, sel.id);

  /* Pan keeps the span; Esc's action clears the selection. */
  span = vp->t1 - vp->t0;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->view), "timeline.pan", "(dd)", 0.1, 0.0));
  g_assert_cmpfloat_with_epsilon (vp->t1 - vp->t0, span, 1e-9);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->view), "timeline.clear-selection", NULL));
  g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->kind, ==, PV_TIMELINE_HIT_NONE);
  pv_timeline_view_set_selection (fx->view, &sel);
  pv_timeline_view_zoom_fit (fx->view);
}

static void
test_bounds (Fixture *fx, gconstpointer data)
{
  const char *const *symbols;
  const PvSession *session;
  guint64 peak;
  guint plans;

  open_model (fx, "transformer.onnx", NULL);
  symbols = pv_document_get_symbols (fx->document);
  g_assert_true (g_strv_contains (symbols, "batch"));
  g_assert_true (g_strv_contains (symbols, "seq"));
  g_assert_cmpint (pv_document_get_bound (fx->document, "batch"), ==, 1);
  session = pv_document_get_plan_session (fx->document);
  g_assert_false (session->slots->deferred);
  peak = session->ort_peak_bytes;

  plans = fx->plan_changes;
  pv_document_set_bound (fx->document, "seq", 128);
  /* The re-plan runs in a thread: exactly one plan arrives. */
  wait_for_plan (fx, plans);
  g_assert_cmpuint (fx->plan_changes, ==, plans + 1);
  session = pv_document_get_plan_session (fx->document);
  g_assert_cmpuint (session->ort_peak_bytes, >, peak);
  show_summary (fx);

  /* The Bounds popover has one spin button per symbol. */
  {
    GtkWidget *button = find_menu_button (gtk_window_get_titlebar (GTK_WINDOW (fx->window)), "_Bounds");
    GtkPopover *popover;
    g_assert_nonnull (button);
    popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (button));
    gtk_menu_button_popup (GTK_MENU_BUTTON (button));
    for (int i = 0; i < 100 && !(gtk_widget_get_mapped (GTK_WIDGET (popover)) &&
                                 gtk_widget_get_width (GTK_WIDGET (popover)) > 0); i++)
      spin (20);
    spin (200);
    g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (popover)));
    save_widget_screenshot (GTK_WIDGET (popover), "gui-bounds-popover.png");
    gtk_menu_button_popdown (GTK_MENU_BUTTON (button));
  }
}

static gboolean
is_input_entry (GtkWidget *widget, gconstpointer input)
{
  return GTK_IS_ENTRY (widget) && g_strcmp0 (g_object_get_data (G_OBJECT (widget), "pv-input"), input) == 0;
}

/* The first GtkEntry below @root that edits graph input @input's value. */
static GtkWidget *
find_input_entry (GtkWidget *root, const char *input)
{
  return find_first (root, is_input_entry, input);
}

/* An If on the sample rate input: the Bounds popover takes its value, and
 * the If's output then has the taken branch's shape. */
static void
test_input_value (Fixture *fx, gconstpointer data)
{
  GtkWidget *button, *entry;
  GtkPopover *popover;
  const PvSession *session;
  const PvValueShape *out;
  g_autofree char *dims = NULL;
  guint plans;

  open_model (fx, "if_sample_rate.onnx", NULL);
  button = find_menu_button (gtk_window_get_titlebar (GTK_WINDOW (fx->window)), "_Bounds");
  g_assert_nonnull (button);
  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (button));
  entry = find_input_entry (GTK_WIDGET (popover), "sr");
  g_assert_nonnull (entry);
  session = pv_document_get_session (fx->document);
  out = pv_shape_info_get (session->shapes, session->graph, pv_graph_find_value (session->graph, "/If_output_0"));
  dims = pv_dim_to_string (out->dims[1]);
  g_assert_cmpstr (dims, !=, "samples");
  g_clear_pointer (&dims, g_free);

  /* Not a number: marked, nothing re-planned. */
  plans = fx->plan_changes;
  gtk_editable_set_text (GTK_EDITABLE (entry), "16k");
  g_assert_true (gtk_widget_has_css_class (entry, "error"));
  g_assert_null (pv_document_get_input_value (fx->document, "sr"));

  gtk_editable_set_text (GTK_EDITABLE (entry), "16000");
  g_assert_false (gtk_widget_has_css_class (entry, "error"));
  wait_for_plan (fx, plans);
  session = pv_document_get_session (fx->document);
  out = pv_shape_info_get (session->shapes, session->graph, pv_graph_find_value (session->graph, "/If_output_0"));
  dims = pv_dim_to_string (out->dims[1]);
  g_assert_cmpstr (dims, ==, "samples");
  g_assert_cmpstr (pv_document_get_input_value (fx->document, "sr"), ==, "16000");
  /* Sizes now depend on the input's own symbol, bound like the others. */
  g_assert_true (g_strv_contains (pv_document_get_symbols (fx->document), "samples"));
  g_assert_false (g_strv_contains (pv_document_get_symbols (fx->document), "if_0"));
  g_assert_false (session->slots->deferred);
  g_assert_true (entry == find_input_entry (GTK_WIDGET (popover), "sr"));

  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  for (int i = 0; i < 100 && !(gtk_widget_get_mapped (GTK_WIDGET (popover)) &&
                               gtk_widget_get_width (GTK_WIDGET (popover)) > 0); i++)
    spin (20);
  spin (200);
  save_widget_screenshot (GTK_WIDGET (popover), "gui-input-value-popover.png");
  gtk_menu_button_popdown (GTK_MENU_BUTTON (button));
}

static void
test_close_guard (Fixture *fx, gconstpointer data)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (pv_partition_editor_get_buffer (fx->editor));
  GtkWidget *dialog = NULL;
  GListModel *toplevels;
  g_autoptr (GtkWindow) window = g_object_ref (GTK_WINDOW (fx->window));

  insert_at_line_end (buffer, "\"/Relu\"", " ");
  gtk_window_close (window);
  spin (100);
  /* Still open, asking. */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));
  toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels) && dialog == NULL; i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (toplevels, i);
      if (GTK_IS_MESSAGE_DIALOG (item) && gtk_window_get_transient_for (GTK_WINDOW (item)) == window)
        dialog = GTK_WIDGET (item);
    }
  g_assert_nonnull (dialog);
  /* Screenshots with the question, then discard. */
  save_screenshot (fx);
  save_widget_screenshot (dialog, "gui-close-guard-dialog.png");
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_REJECT);
  spin (100);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window)));
  g_signal_handlers_disconnect_by_data (fx->document, fx);
  fx->window = NULL;
}

/* Whether planviz's Recent list holds @file. */
static gboolean
recent_lists (GFile *file)
{
  g_auto (GStrv) uris = pv_recent_dup_models (gtk_recent_manager_get_default (), G_MAXUINT);
  g_autofree char *uri = g_file_get_uri (file);

  return g_strv_contains ((const char *const *) uris, uri);
}

static void
test_load_error (Fixture *fx, gconstpointer data)
{
  g_autofree char *path = g_build_filename (fx->tmpdir, "broken.onnx", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  PvTimelineModel *before = pv_timeline_view_get_model (fx->view);

  /* Not a model: the window says why and keeps what it showed. The file
   * chooser records what it opens in Recent; a model that failed leaves. */
  g_assert_true (g_file_set_contents (path, "\x08\x07\x12\xff\xff\xff not protobuf", -1, NULL));
  pv_recent_add_model (gtk_recent_manager_get_default (), file);
  g_assert_true (recent_lists (file));
  pv_window_open (fx->window, file, NULL);
  g_assert_true (wait_until (fx, settled));
  g_assert_false (recent_lists (file));
  g_assert_nonnull (pv_window_get_error (fx->window));
  g_assert_nonnull (strstr (pv_window_get_error (fx->window), "broken.onnx"));
  g_assert_cmpstr (pv_document_get_title (fx->document), ==, "wide_branches.onnx");
  g_assert_true (pv_timeline_view_get_model (fx->view) == before);

  /* The error bar goes away when dismissed. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.dismiss-error", NULL));
  g_assert_null (pv_window_get_error (fx->window));
  pv_window_show_error (fx->window, pv_window_get_error (fx->window) ? NULL : "broken.onnx: not an ONNX model (shown again for the screenshot)");
}

/* A model over the node limit is refused with what it would cost, stays in
 * Recent, and "Open Anyway" plans it; the limit stays for the next load. */
static void
test_node_limit (Fixture *fx, gconstpointer data)
{
  g_autofree char *path = data_path ("transformer.onnx");
  g_autoptr (GFile) file = g_file_new_for_path (path);
  PvTimelineModel *before = pv_timeline_view_get_model (fx->view);

  pv_document_set_max_nodes (fx->document, 5);
  pv_recent_add_model (gtk_recent_manager_get_default (), file);
  pv_window_open (fx->window, file, NULL);
  g_assert_true (wait_until (fx, settled));
  g_assert_nonnull (pv_window_get_error (fx->window));
  g_test_message ("%s", pv_window_get_error (fx->window));
  g_assert_nonnull (strstr (pv_window_get_error (fx->window), "transformer.onnx: 70 nodes (subgraphs included), "
                                                               "more than the limit of 5"));
  g_assert_true (recent_lists (file));
  g_assert_cmpstr (pv_document_get_title (fx->document), ==, "wide_branches.onnx");
  g_assert_true (pv_timeline_view_get_model (fx->view) == before);
  spin (1000); /* the error bar slides in */
  save_widget_screenshot (GTK_WIDGET (fx->window), "gui-open-node-limit-refused.png");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.open-anyway", NULL));
  g_assert_true (wait_until (fx, settled));
  g_assert_null (pv_window_get_error (fx->window));
  g_assert_cmpstr (pv_document_get_title (fx->document), ==, "transformer.onnx");
  g_assert_cmpint (pv_timeline_view_get_model (fx->view)->n_kernels, ==, 49);
  g_assert_cmpuint (pv_document_get_max_nodes (fx->document), ==, 5);
}

static void
test_load_cancel (Fixture *fx, gconstpointer data)
{
  g_autofree char *path = data_path ("transformer.onnx");
  g_autoptr (GFile) file = g_file_new_for_path (path);

  pv_window_open (fx->window, file, NULL);
  g_assert_true (pv_document_get_loading (fx->document));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.cancel-load", NULL));
  g_assert_true (wait_until (fx, settled));
  g_assert_false (pv_document_get_loading (fx->document));
  g_assert_null (pv_window_get_error (fx->window));
  g_assert_cmpstr (pv_document_get_title (fx->document), ==, "wide_branches.onnx");

  /* Loading again goes through. */
  pv_window_open (fx->window, file, NULL);
  g_assert_true (wait_until (fx, settled));
  g_assert_cmpstr (pv_document_get_title (fx->document), ==, "transformer.onnx");
  g_assert_cmpint (pv_timeline_view_get_model (fx->view)->n_kernels, ==, 49);
}

static void
test_empty (Fixture *fx, gconstpointer data)
{
  g_assert_true (pv_window_is_empty (fx->window));
  g_assert_null (pv_timeline_view_get_model (fx->view));
  g_assert_null (pv_document_get_session (fx->document));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fx->window)), ==, "planviz");
  /* Nothing to export yet. */
  {
    g_autoptr (GFile) file = g_file_new_build_filename (fx->tmpdir, "t.json", NULL);
    g_autoptr (GError) error = NULL;
    g_assert_false (pv_window_export (fx->window, PV_EXPORT_PLAN_JSON, file, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED);
  }
  g_assert_cmpuint (fx->plan_changes, ==, 0);
}

static void
test_shortcuts (Fixture *fx, gconstpointer data)
{
  GtkWindow *window;

  /* The shortcuts window comes from gtk/help-overlay.ui. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.show-help-overlay", NULL));
  window = wait_for_toplevel (GTK_TYPE_SHORTCUTS_WINDOW);
  g_assert_nonnull (window);
  save_widget_screenshot (GTK_WIDGET (window), "gui-shortcuts-window.png");
  gtk_window_close (window);
}

static void
test_about (Fixture *fx, gconstpointer data)
{
  GtkWindow *window;

  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  window = wait_for_toplevel (GTK_TYPE_ABOUT_DIALOG);
  g_assert_nonnull (window);
  g_assert_cmpstr (gtk_about_dialog_get_program_name (GTK_ABOUT_DIALOG (window)), ==, "planviz");
  save_widget_screenshot (GTK_WIDGET (window), "gui-about-dialog.png");
  gtk_window_destroy (window);
}

static void
test_cli_screenshot (void)
{
  const char *planviz = g_getenv ("PV_PLANVIZ");
  g_autofree char *model = data_path ("wide_branches.onnx");
  g_autofree char *partition = data_path ("wide_branches.two-streams.json");
  g_autofree char *out = g_build_filename (screenshot_dir, "planviz-screenshot.png", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  int status = -1;
  const char *argv[] = { planviz, model, "--partition", partition, "--screenshot", out, "--size", "1600x1000", NULL };

  if (planviz == NULL)
    {
      g_test_skip ("PV_PLANVIZ is not set");
      return;
    }
  g_remove (out);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("planviz --screenshot failed: %s", err);
  g_assert_true (file_starts_with (out, "\x89PNG\r\n\x1a\n", 8));
}

/* ---- main ---- */

/* ORT writes its config on one line (2.6 MB on a 95k-node model), which
 * GtkSourceView cannot highlight (a critical) and GtkTextView lays out for
 * seconds: the editor shows the same JSON, one name per line, and a long
 * line pasted later turns highlighting off instead. */
static void
test_one_line_config (Fixture *fx, gconstpointer data)
{
  g_autofree char *path = data_path ("wide_branches.two-streams.json");
  g_autofree char *text = NULL, *compact = NULL, *one_line = NULL, *shown = NULL, *dir = NULL, *out = NULL;
  g_autofree char *padding = g_strnfill (5000, ' ');
  g_autofree char *long_line = g_strnfill (6000, 'x');
  g_autoptr (GFile) model = NULL;
  g_autoptr (GFile) config = NULL;
  GtkSourceBuffer *buffer = pv_partition_editor_get_buffer (fx->editor);
  cJSON *original, *edited;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  original = cJSON_Parse (text);
  compact = cJSON_PrintUnformatted (original);
  one_line = g_strconcat ("{", padding, compact + 1, NULL);
  dir = g_dir_make_tmp ("pv-one-line-XXXXXX", NULL);
  out = g_build_filename (dir, "ort-written.json", NULL);
  g_assert_true (g_file_set_contents (out, one_line, -1, NULL));
  g_free (path);
  path = data_path ("wide_branches.onnx");
  model = g_file_new_for_path (path);
  config = g_file_new_for_path (out);
  pv_window_open (fx->window, model, config);
  g_assert_true (wait_until (fx, settled));

  shown = pv_partition_editor_dup_text (fx->editor);
  g_assert_false (pv_partition_text_has_long_line (shown));
  edited = cJSON_Parse (shown);
  g_assert_true (cJSON_Compare (original, edited, TRUE));
  g_assert_true (gtk_source_buffer_get_highlight_syntax (buffer));
  g_assert_false (pv_partition_editor_get_modified (fx->editor));
  g_assert_cmpuint (n_streams_planned (fx), ==, 2);
  save_widget_screenshot (GTK_WIDGET (fx->window), "gui-one-line-config.png");

  gtk_text_buffer_insert_at_cursor (GTK_TEXT_BUFFER (buffer), long_line, -1);
  g_assert_false (gtk_source_buffer_get_highlight_syntax (buffer));
  spin (200);
  cJSON_Delete (original);
  cJSON_Delete (edited);
  g_remove (out);
  g_rmdir (dir);
}

static gboolean
timeline_dark (Fixture *fx)
{
  return pv_timeline_renderer_get_options (pv_timeline_view_get_renderer (fx->view))->dark;
}

static gboolean
timeline_light (Fixture *fx)
{
  return !timeline_dark (fx);
}

/* A dark style (as GNOME's dark preference sets it) darkens the timeline;
 * exports stay light. */
static void
test_dark_style (Fixture *fx, gconstpointer data)
{
  GtkSettings *settings = gtk_widget_get_settings (GTK_WIDGET (fx->window));
  g_autofree char *path = g_build_filename (fx->tmpdir, "dark.svg", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_autofree char *svg = NULL;

  g_assert_true (timeline_light (fx));
  g_object_set (settings, "gtk-application-prefer-dark-theme", TRUE, NULL);
  g_assert_true (wait_until (fx, timeline_dark));
  spin (200);
  save_widget_screenshot (GTK_WIDGET (fx->window), "gui-view-dark-style.png");
  g_assert_true (pv_window_export (fx->window, PV_EXPORT_SVG, file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &svg, NULL, NULL));
  /* The light view background, not the dark one. */
  g_assert_null (strstr (svg, "rgb(11.764706%,11.764706%,11.764706%)"));
  g_assert_nonnull (strstr (svg, "rgb(100%,100%,100%)"));
  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
  g_assert_true (wait_until (fx, timeline_light));
}

int
main (int argc, char **argv)
{
  gui_fixture_init (&argc, &argv);

  ADD ("/gui/empty", test_empty, "");
  ADD ("/gui/dialogs/shortcuts", test_shortcuts, NULL);
  ADD ("/gui/dialogs/about", test_about, NULL);
  ADD ("/gui/open/lanes", test_open_lanes, NULL);
  ADD ("/gui/open/two-streams", test_two_streams_file, NULL);
  ADD ("/gui/open/random-choice", test_random_choice, NULL);
  ADD ("/gui/open/ort-hazard", test_ort_hazard, NULL);
  ADD ("/gui/open/ort-arena", test_ort_arena, NULL);
  ADD ("/gui/open/error", test_load_error, NULL);
  ADD ("/gui/open/no-shape-rule", test_no_shape_rule, NULL);
  ADD ("/gui/open/cancel", test_load_cancel, NULL);
  ADD ("/gui/open/node-limit", test_node_limit, NULL);
  ADD ("/gui/edit/replans", test_edit_replans, NULL);
  ADD ("/gui/edit/broken-json", test_broken_json, NULL);
  ADD ("/gui/edit/refused", test_refused_config, NULL);
  ADD ("/gui/edit/format-reset", test_format_reset, NULL);
  ADD ("/gui/edit/one-line-config", test_one_line_config, NULL);
  ADD ("/gui/save", test_save, NULL);
  ADD ("/gui/export", test_export, NULL);
  ADD ("/gui/export/scale-and-title", test_export_scale, NULL);
  ADD ("/gui/view/navigation", test_navigation, NULL);
  ADD ("/gui/view/dark", test_dark_style, NULL);
  ADD ("/gui/bounds", test_bounds, NULL);
  ADD ("/gui/input-value", test_input_value, NULL);
  ADD ("/gui/close-guard", test_close_guard, NULL);
  g_test_add_func ("/gui/cli/screenshot", test_cli_screenshot);

  return gui_fixture_run ();
}
