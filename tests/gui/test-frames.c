/* test-frames.c: frame times of the timeline view in the real window while
 * it zooms and pans, on a big model (PV_FRAMES_MODEL, e.g. the 70k-node
 * synthetic graph; the tests skip without it). A frame time is the time
 * from a zoom or pan to the view having drawn the next frame: layout,
 * snapshot and the cairo renderer, as the user waits for it. Also the
 * latency of re-plans after partition edits, and the longest the main loop
 * stalls meanwhile. */
#include <stdlib.h>

#include "gui-fixture.h"

#define N_STEPS 90

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static guint frames_target;

static gboolean
frame_drawn (Fixture *fx)
{
  return pv_timeline_view_get_frames_drawn (fx->view) >= frames_target;
}

/* Opens PV_FRAMES_MODEL; FALSE (skipped) without it. */
static gboolean
open_big_model (Fixture *fx)
{
  const char *path = g_getenv ("PV_FRAMES_MODEL");
  g_autoptr (GFile) file = NULL;

  if (path == NULL)
    {
      g_test_skip ("PV_FRAMES_MODEL is not set");
      return FALSE;
    }
  file = g_file_new_for_path (path);
  pv_window_open (fx->window, file, NULL);
  /* A 70k-node model loads for a while, more so under sanitizers. */
  for (int i = 0; i < 10 && !(pv_document_get_model (fx->document) && settled (fx)); i++)
    wait_until (fx, settled);
  g_assert_nonnull (pv_document_get_model (fx->document));
  g_assert_true (settled (fx));
  g_test_message ("%s: %d nodes", path, pv_document_get_model (fx->document)->graph->n_nodes);
  return TRUE;
}

static void
test_zoom_pan (Fixture *fx, gconstpointer data)
{
  double ms[N_STEPS];

  if (!open_big_model (fx))
    return;

  for (int i = 0; i < N_STEPS; i++)
    {
      gint64 t0;

      frames_target = pv_timeline_view_get_frames_drawn (fx->view) + 1;
      t0 = g_get_monotonic_time ();
      if (i < N_STEPS / 3)
        pv_timeline_view_zoom (fx->view, 1.3);
      else if (i < 2 * N_STEPS / 3)
        g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->view), "timeline.pan", "(dd)",
                                                   i % 2 ? 0.1 : -0.05, 20.0));
      else
        pv_timeline_view_zoom (fx->view, 1 / 1.3);
      g_assert_true (wait_until (fx, frame_drawn));
      ms[i] = (g_get_monotonic_time () - t0) / 1000.0;
    }
  qsort (ms, N_STEPS, sizeof (double), compare_doubles);
  g_test_message ("frame times over %d zoom/pan steps: min %.1f ms, median %.1f ms, p95 %.1f ms, max %.1f ms",
                  N_STEPS, ms[0], ms[N_STEPS / 2], ms[(int) (N_STEPS * 0.95)], ms[N_STEPS - 1]);
}

#define N_REPLANS 10

typedef struct {
  gint64 last;
  gint64 max_gap;
} Ticks;

static gboolean
tick_cb (gpointer user_data)
{
  Ticks *ticks = user_data;
  gint64 now = g_get_monotonic_time ();

  ticks->max_gap = MAX (ticks->max_gap, now - ticks->last);
  ticks->last = now;
  return G_SOURCE_CONTINUE;
}

/* ORT's default config of the open model with its one stream dealt
 * round-robin into two CPU streams: a different plan from the default. */
static char *
two_stream_config (Fixture *fx)
{
  const PvGraph *g = pv_document_get_model (fx->document)->graph;
  g_autoptr (PvPartitionConfig) def = pv_partition_config_default (g, NULL);
  g_autoptr (PvPartitionConfig) two = g_new0 (PvPartitionConfig, 1);

  g_assert_cmpint (def->n_streams, ==, 1);
  two->n_streams = 2;
  two->streams = g_new0 (PvStream, 2);
  for (int st = 0; st < 2; st++)
    two->streams[st].nodes = g_new (int, def->streams[0].n_nodes / 2 + 1);
  for (int k = 0; k < def->streams[0].n_nodes; k++)
    {
      PvStream *stream = &two->streams[k % 2];
      stream->nodes[stream->n_nodes++] = def->streams[0].nodes[k];
    }
  return pv_partition_config_to_json (g, two, TRUE);
}

/* Sets each of @texts in turn as the editor would and times each until the
 * plan is on screen, with the longest main-loop stall meanwhile. */
static void
time_replans (Fixture *fx, const char *what, const char *const *texts, int n_texts)
{
  double ms[N_REPLANS];
  Ticks ticks = { 0 };
  guint tick;

  ticks.last = g_get_monotonic_time ();
  tick = g_timeout_add (5, tick_cb, &ticks);
  for (int i = 0; i < N_REPLANS; i++)
    {
      guint plans = fx->plan_changes;
      gint64 t0 = g_get_monotonic_time ();

      pv_document_set_partition_text (fx->document, texts[(i + 1) % n_texts]);
      wait_for_plan (fx, plans);
      ms[i] = (g_get_monotonic_time () - t0) / 1000.0;
      g_assert_false (pv_document_get_stale (fx->document));
    }
  g_source_remove (tick);
  qsort (ms, N_REPLANS, sizeof (double), compare_doubles);
  g_test_message ("%s: edit to plan on screen over %d edits: min %.1f ms, median %.1f ms, max %.1f ms; "
                  "longest main-loop stall %.1f ms",
                  what, N_REPLANS, ms[0], ms[N_REPLANS / 2], ms[N_REPLANS - 1], ticks.max_gap / 1000.0);
}

/* Edits as the editor sends them: between one and two streams (every edit
 * a new plan), and a trailing newline on and off (the same streams). */
static void
test_replan_latency (Fixture *fx, gconstpointer data)
{
  g_autofree char *text = NULL, *edited = NULL, *two = NULL;

  if (!open_big_model (fx))
    return;
  text = g_strdup (pv_document_get_partition_text (fx->document));
  edited = g_strconcat (text, "\n", NULL);
  two = two_stream_config (fx);
  {
    const char *streams[] = { text, two };
    const char *blank[] = { text, edited };
    time_replans (fx, "1 <-> 2 streams", streams, 2);
    g_assert_cmpint (pv_document_get_timeline (fx->document)->n_streams, ==, 1);
    time_replans (fx, "same streams, text edited", blank, 2);
  }
}

int
main (int argc, char **argv)
{
  gui_fixture_init (&argc, &argv);
  ADD ("/frames/zoom-pan", test_zoom_pan, "");
  ADD ("/frames/replan-latency", test_replan_latency, "");
  return gui_fixture_run ();
}
