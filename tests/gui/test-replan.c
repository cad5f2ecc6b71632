/* test-replan.c: re-plans run in a thread and the latest inputs win. */
#include <string.h>

#include "gui-fixture.h"

static char *
read_data (const char *name)
{
  g_autofree char *path = data_path (name);
  g_autoptr (GError) error = NULL;
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  return text;
}

/* Two changes in a row: the first plan is dropped, only the second one is
 * installed, once. */
static void
test_latest_wins (Fixture *fx, gconstpointer data)
{
  g_autofree char *two = read_data ("wide_branches.two-streams.json");
  g_autofree char *one = pv_document_dup_default_partition (fx->document, TRUE);
  g_autofree char *two_edited = g_strconcat (two, "\n", NULL);
  guint plans = pv_document_get_n_plans (fx->document);
  guint signals = fx->plan_changes;

  g_assert_cmpuint (n_streams_planned (fx), ==, 1);
  pv_document_set_partition_text (fx->document, two);
  g_assert_true (pv_document_get_planning (fx->document));
  g_assert_false (pv_window_is_settled (fx->window));
  /* Not planned yet: the session is still the old one. */
  g_assert_cmpuint (pv_document_get_n_plans (fx->document), ==, plans);
  g_assert_cmpuint (n_streams_planned (fx), ==, 1);

  pv_document_set_partition_text (fx->document, one);
  pv_document_set_partition_text (fx->document, two_edited);
  g_assert_true (wait_until (fx, settled));
  g_assert_false (pv_document_get_planning (fx->document));
  g_assert_cmpuint (pv_document_get_n_plans (fx->document), ==, plans + 1);
  g_assert_cmpuint (fx->plan_changes, ==, signals + 1);
  g_assert_cmpuint (n_streams_planned (fx), ==, 2);
  g_assert_cmpstr (pv_document_get_partition_text (fx->document), ==, two_edited);
  g_assert_false (pv_document_get_stale (fx->document));

  /* The explicit way to have the plan at once. */
  pv_document_set_partition_text (fx->document, one);
  pv_document_plan_now (fx->document);
  g_assert_false (pv_document_get_planning (fx->document));
  g_assert_cmpuint (pv_document_get_n_plans (fx->document), ==, plans + 2);
  g_assert_cmpuint (n_streams_planned (fx), ==, 1);
  /* Nothing more arrives from the plan it waited for. */
  spin (200);
  g_assert_cmpuint (pv_document_get_n_plans (fx->document), ==, plans + 2);
  g_assert_cmpuint (fx->plan_changes, ==, signals + 2);
}

typedef struct {
  GThread *main;
  guint reports;
  guint off_main;  /* reports that reached the document on another thread */
} StageReports;

static void
stage_changed_cb (GObject *document, GParamSpec *pspec, gpointer user_data)
{
  StageReports *seen = user_data;

  g_atomic_int_inc (&seen->reports);
  if (g_thread_self () != seen->main)
    g_atomic_int_inc (&seen->off_main);
}

/* The worker's stage reports change the document (and emit notify::plan-stage)
 * on the main thread only, also while that thread is not running the main
 * loop: here it waits in pv_document_plan_now(). (Reports sent with
 * g_main_context_invoke_full() ran on the worker when the main context had
 * no owner at that moment: a data race on the stage, and signal handlers of
 * the window run on a worker.) */
static void
test_stage_reports_on_main_thread (Fixture *fx, gconstpointer data)
{
  g_autofree char *two = read_data ("wide_branches.two-streams.json");
  g_autofree char *one = pv_document_dup_default_partition (fx->document, TRUE);
  StageReports seen = { g_thread_self (), 0, 0 };
  gulong handler = g_signal_connect (fx->document, "notify::plan-stage", G_CALLBACK (stage_changed_cb), &seen);

  pv_document_set_partition_text (fx->document, two);
  pv_document_plan_now (fx->document);
  spin (200);
  g_assert_cmpuint (n_streams_planned (fx), ==, 2);
  g_assert_cmpuint (g_atomic_int_get (&seen.off_main), ==, 0);

  /* The same, with the main loop running: the reports are shown. */
  pv_document_set_partition_text (fx->document, one);
  g_assert_true (wait_until (fx, settled));
  g_assert_cmpuint (n_streams_planned (fx), ==, 1);
  g_test_message ("%u stage reports, %u off the main thread", g_atomic_int_get (&seen.reports),
                  g_atomic_int_get (&seen.off_main));
  g_assert_cmpuint (g_atomic_int_get (&seen.reports), >, 0);
  g_assert_cmpuint (g_atomic_int_get (&seen.off_main), ==, 0);
  g_signal_handler_disconnect (fx->document, handler);
}

/* An invalid text queued behind a valid one: the valid plan stays drawn,
 * marked stale. */
static void
test_stale_after_queue (Fixture *fx, gconstpointer data)
{
  g_autofree char *two = read_data ("wide_branches.two-streams.json");
  PvTimelineModel *timeline;

  pv_document_set_partition_text (fx->document, two);
  pv_document_set_partition_text (fx->document, "{\"streams\": [");
  g_assert_true (wait_until (fx, settled));
  g_assert_true (pv_document_get_stale (fx->document));
  /* The two-stream plan was superseded before it was installed. */
  timeline = pv_timeline_view_get_model (fx->view);
  g_assert_nonnull (timeline);
  g_assert_true (timeline->has_plan);
  g_assert_cmpint (timeline->n_streams, ==, 1);
}

/* A model opened while a re-plan of the old one runs: the old model lives
 * until the plan is done, the plan is dropped. */
static void
test_open_while_planning (Fixture *fx, gconstpointer data)
{
  g_autofree char *two = read_data ("wide_branches.two-streams.json");
  g_autofree char *path = data_path ("transformer.onnx");
  g_autoptr (GFile) file = g_file_new_for_path (path);

  pv_document_set_partition_text (fx->document, two);
  g_assert_true (pv_document_get_planning (fx->document));
  /* Straight to the document: the window would flush (and so wait for
   * the plan) first. */
  pv_document_load_async (fx->document, file, NULL, NULL, NULL, NULL);
  g_assert_true (wait_until (fx, settled));
  g_assert_cmpstr (pv_document_get_title (fx->document), ==, "transformer.onnx");
  g_assert_false (pv_document_get_planning (fx->document));
  g_assert_nonnull (pv_document_get_plan_session (fx->document));
  g_assert_true (pv_document_get_plan_session (fx->document)->model == pv_document_get_model (fx->document));
}

static gboolean
banner_shown (Fixture *fx)
{
  GtkRevealer *revealer = GTK_REVEALER (pv_window_get_planning_banner (fx->window));
  return gtk_revealer_get_reveal_child (revealer);
}

static gboolean
not_planning (Fixture *fx)
{
  return !pv_document_get_planning (fx->document);
}

/* A config of @k streams, the default order dealt round-robin. */
static char *
round_robin (const PvGraph *g, int k)
{
  g_autoptr (PvPartitionConfig) def = pv_partition_config_default (g, NULL);
  g_autoptr (PvPartitionConfig) config = g_new0 (PvPartitionConfig, 1);

  config->n_streams = k;
  config->streams = g_new0 (PvStream, k);
  for (int st = 0; st < k; st++)
    config->streams[st].nodes = g_new (int, def->streams[0].n_nodes / k + 1);
  for (int i = 0; i < def->streams[0].n_nodes; i++)
    {
      PvStream *stream = &config->streams[i % k];
      stream->nodes[stream->n_nodes++] = def->streams[0].nodes[i];
    }
  /* Indented, as the editor shows configs (a megabyte on one line is
   * more than GtkSourceView lays out in time). */
  return pv_partition_config_to_json (g, config, TRUE);
}

static gboolean
loading_shown (Fixture *fx)
{
  return pv_document_get_loading (fx->document) && pv_document_get_load_stage (fx->document) != NULL
         && gtk_widget_get_visible (GTK_WIDGET (pv_window_get_loading_label (fx->window)))
         && gtk_widget_get_mapped (GTK_WIDGET (pv_window_get_loading_label (fx->window)));
}

static gboolean
not_loading (Fixture *fx)
{
  return !pv_document_get_loading (fx->document);
}

/* A slow load (of @file, the 95.7k-node model) shows its stage; Cancel
 * stops it inside the stage it is in, and the model shown stays. */
static void
cancel_slow_load (Fixture *fx, GFile *file)
{
  g_autofree char *title = g_strdup (pv_document_get_title (fx->document));
  gint64 t0;
  double ms;

  pv_window_open (fx->window, file, NULL);
  g_assert_true (wait_until (fx, loading_shown));
  g_test_message ("loading: %s", gtk_label_get_text (pv_window_get_loading_label (fx->window)));
  g_assert_cmpstr (gtk_label_get_text (pv_window_get_loading_label (fx->window)), ==,
                   pv_document_get_load_stage (fx->document));
  /* The stack crossfades to the loading page (200 ms, GTK's default). */
  spin (250);
  save_widget_screenshot (GTK_WIDGET (fx->window), "load-slow-progress.png");
  if (!pv_document_get_loading (fx->document))
    {
      g_test_message ("the load finished before Cancel could be pressed");
      return;
    }
  t0 = g_get_monotonic_time ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.cancel-load", NULL));
  g_assert_true (wait_until (fx, not_loading));
  ms = (g_get_monotonic_time () - t0) / 1000.0;
  /* The worker stops within a millisecond or so of work (tests/bench
   * measures it); the loader alone runs 300 ms here, longer under ASan. */
  g_test_message ("cancelled: the load stopped %.1f ms after Cancel", ms);
  g_assert_cmpfloat (ms, <, 250.0 * pv_test_time_scale ());
  g_assert_true (wait_until (fx, settled));
  g_assert_null (pv_window_get_error (fx->window));
  g_assert_cmpstr (pv_document_get_title (fx->document), ==, title);
}

/* A slow re-plan (the 95.7k-node model on 256 streams) shows its stage
 * over a dimmed timeline; Cancel stops it, keeps the plan on screen and
 * says so; a later edit plans again. */
static void
test_slow_progress_and_cancel (Fixture *fx, gconstpointer data)
{
  const char *gen = g_getenv ("PV_GEN_MODELS");
  g_autofree char *path = g_build_filename (fx->tmpdir, "synthetic-95k.onnx", NULL);
  const char *argv[] = { gen, "--synthetic", "--nodes", "136700", path, NULL };
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *many = NULL, *two = NULL;
  const PvSession *before;
  int status;
  gint64 t0;

  if (gen == NULL)
    {
      g_test_skip ("PV_GEN_MODELS is not set");
      return;
    }
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                               &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  cancel_slow_load (fx, file);
  pv_window_open (fx->window, file, NULL);
  g_assert_true (wait_until (fx, settled));
  g_assert_cmpint (pv_document_get_model (fx->document)->graph->n_nodes, ==, 95708);
  before = pv_document_get_plan_session (fx->document);
  many = round_robin (pv_document_get_model (fx->document)->graph, 256);
  two = round_robin (pv_document_get_model (fx->document)->graph, 2);

  pv_document_set_partition_text (fx->document, many);
  g_assert_true (wait_until (fx, banner_shown));
  g_assert_true (pv_document_get_planning (fx->document));
  g_assert_true (pv_timeline_view_get_dimmed (fx->view));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (pv_window_get_planning_label (fx->window)), "Planning: "));
  /* A few frames for the banner to be drawn (the plan takes ~400 ms more). */
  spin (50);
  if (pv_document_get_planning (fx->document))
    save_widget_screenshot (GTK_WIDGET (fx->window), "replan-slow-progress.png");

  t0 = g_get_monotonic_time ();
  if (!pv_document_get_planning (fx->document))
    {
      g_test_skip ("the re-plan finished before Cancel could be pressed");
      return;
    }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.cancel-plan", NULL));
  g_assert_false (pv_document_get_planning (fx->document));
  g_assert_true (wait_until (fx, settled));
  g_test_message ("cancelled: the window settled %.1f ms after Cancel", (g_get_monotonic_time () - t0) / 1000.0);
  g_assert_false (banner_shown (fx));
  g_assert_true (pv_document_get_cancelled (fx->document));
  g_assert_true (pv_document_get_stale (fx->document));
  g_assert_true (pv_document_get_plan_session (fx->document) == before);
  g_assert_cmpint (n_streams_planned (fx), ==, 1);

  /* The next edit plans again, and is drawn. */
  pv_document_set_partition_text (fx->document, two);
  g_assert_true (wait_until (fx, not_planning));
  g_assert_true (wait_until (fx, settled));
  g_assert_false (pv_document_get_cancelled (fx->document));
  g_assert_false (pv_document_get_stale (fx->document));
  g_assert_cmpint (n_streams_planned (fx), ==, 2);
  g_assert_false (pv_timeline_view_get_dimmed (fx->view));
}

int
main (int argc, char **argv)
{
  gui_fixture_init (&argc, &argv);
  ADD ("/replan/latest-wins", test_latest_wins, NULL);
  ADD ("/replan/stale-after-queue", test_stale_after_queue, NULL);
  ADD ("/replan/stage-reports-on-main-thread", test_stage_reports_on_main_thread, NULL);
  ADD ("/replan/open-while-planning", test_open_while_planning, NULL);
  ADD ("/replan/slow-progress-and-cancel", test_slow_progress_and_cancel, NULL);
  return gui_fixture_run ();
}
