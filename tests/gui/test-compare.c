/* test-compare.c: after a re-plan of the main graph, the bar above the
 * timeline says what changed, against the figures the sessions themselves
 * hold; its check button ghosts the earlier live-bytes curve. */
#include <string.h>

#include "gui-fixture.h"

/* A plan's figures, read straight from its session's records. */
typedef struct {
  guint64 peak_live, load, reserves;
  int buffers, barriers, waits, streams;
  double makespan;
} Numbers;

static void
numbers_of (const PvSession *s, Numbers *n)
{
  memset (n, 0, sizeof *n);
  g_assert_nonnull (s);
  g_assert_nonnull (s->schedule);
  g_assert_nonnull (s->ort);
  for (int c = 0; c < s->schedule->n_curves; c++)
    n->peak_live = MAX (n->peak_live, s->schedule->curves[c].peak_bytes);
  n->load = s->load_bytes;
  n->reserves = s->ort_peak_bytes;
  n->buffers = s->n_ort_arena_values;
  n->barriers = s->ort->n_barriers;
  n->streams = s->ort->n_streams;
  for (int i = 0; i < s->ort->n_streams; i++)
    for (int k = 0; k < s->ort->streams[i].n_steps; k++)
      n->waits += s->ort->streams[i].steps[k].kind == PV_ORT_STEP_WAIT_ON_EP;
  n->makespan = s->schedule->makespan;
}

static char *
bytes_text (guint64 bytes)
{
  return bytes < 1024 ? g_strdup_printf ("%" G_GUINT64_FORMAT " B", bytes)
                      : g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

static void
assert_bytes (Fixture *fx, const char *key, guint64 before, guint64 after)
{
  g_autofree char *a = bytes_text (before), *b = bytes_text (after);
  g_autofree char *expected = g_strdup_printf ("%s → %s", a, b);
  g_assert_cmpstr (pv_plan_compare_get_value (pv_window_get_plan_compare (fx->window), key), ==, expected);
}

static void
assert_count (Fixture *fx, const char *key, double before, double after)
{
  g_autofree char *expected = g_strdup_printf ("%g → %g", before, after);
  g_assert_cmpstr (pv_plan_compare_get_value (pv_window_get_plan_compare (fx->window), key), ==, expected);
}

/* The bar shows @before → @after, every figure. */
static void
assert_shows (Fixture *fx, const Numbers *before, const Numbers *after)
{
  g_assert_true (pv_window_get_compare_shown (fx->window));
  assert_bytes (fx, "peak live", before->peak_live, after->peak_live);
  assert_bytes (fx, "LOAD", before->load, after->load);
  assert_bytes (fx, "ORT reserves", before->reserves, after->reserves);
  assert_count (fx, "ORT buffers", before->buffers, after->buffers);
  assert_count (fx, "barriers", before->barriers, after->barriers);
  assert_count (fx, "waits", before->waits, after->waits);
  assert_count (fx, "makespan", before->makespan, after->makespan);
}

static void
edit_to_two_streams (Fixture *fx)
{
  guint plans = fx->plan_changes;

  type_second_stream (fx);
  wait_for_plan (fx, plans);
  g_assert_cmpuint (n_streams_planned (fx), ==, 2);
}

/* A partition edit: before → after from the two sessions; the "after"
 * side agrees with the Summary page and the timeline's curve. */
static void
test_edit (Fixture *fx, gconstpointer data)
{
  PvSummaryView *summary = pv_window_get_summary_view (fx->window);
  Numbers before, after;
  g_autofree char *barriers = NULL;

  g_assert_false (pv_window_get_compare_shown (fx->window));
  g_assert_cmpuint (pv_document_get_comparison (fx->document, NULL, NULL), ==, 0);
  numbers_of (pv_document_get_plan_session (fx->document), &before);
  edit_to_two_streams (fx);
  numbers_of (pv_document_get_plan_session (fx->document), &after);
  g_assert_cmpint (after.streams, ==, 2);
  g_test_message ("one stream → two: peak live %" G_GUINT64_FORMAT " → %" G_GUINT64_FORMAT ", LOAD %" G_GUINT64_FORMAT
                  " → %" G_GUINT64_FORMAT ", buffers %d → %d, barriers %d → %d, waits %d → %d, makespan %g → %g",
                  before.peak_live, after.peak_live, before.load, after.load, before.buffers, after.buffers,
                  before.barriers, after.barriers, before.waits, after.waits, before.makespan, after.makespan);
  assert_shows (fx, &before, &after);
  /* ORT reserves, buffers, barriers and makespan changed; the peak did not. */
  g_assert_cmpuint (pv_plan_compare_get_n_changed (pv_window_get_plan_compare (fx->window)), ==,
                    (before.peak_live != after.peak_live) + (before.load != after.load) +
                    (before.reserves != after.reserves) + (before.buffers != after.buffers) +
                    (before.barriers != after.barriers) + (before.waits != after.waits) +
                    (before.makespan != after.makespan));
  /* Two streams synchronise: the edit changed something the bar shows. */
  g_assert_true (after.barriers + after.waits > before.barriers + before.waits);
  barriers = g_strdup_printf ("%d", after.barriers);
  g_assert_cmpstr (pv_summary_view_get_value (summary, "Barriers"), ==, barriers);
  g_assert_cmpuint (pv_document_get_timeline (fx->document)->curves[0].peak_bytes, ==, after.peak_live);
}

/* The check button hands the earlier timeline to the renderer, which
 * draws its curve; dismissing the bar takes both away. */
static void
test_ghost (Fixture *fx, gconstpointer data)
{
  PvPlanCompare *compare = pv_window_get_plan_compare (fx->window);
  PvTimelineModel *previous;
  const PvTimelineOptions *options;
  Numbers before;

  numbers_of (pv_document_get_plan_session (fx->document), &before);
  edit_to_two_streams (fx);
  previous = pv_document_get_previous_timeline (fx->document);
  g_assert_nonnull (previous);
  g_assert_true (previous != pv_document_get_timeline (fx->document));
  g_assert_cmpint (previous->n_streams, ==, 1);
  g_assert_cmpuint (previous->curves[0].peak_bytes, ==, before.peak_live);
  g_assert_null (pv_timeline_view_get_ghost (fx->view));

  pv_plan_compare_set_show_ghost (compare, TRUE);
  g_assert_true (pv_timeline_view_get_ghost (fx->view) == previous);
  options = pv_timeline_renderer_get_options (pv_timeline_view_get_renderer (fx->view));
  g_assert_true (options->ghost == previous);
  g_assert_true (wait_until (fx, still));
  save_widget_screenshot (GTK_WIDGET (fx->window), "compare-ghost-shown.png");

  /* The renderer draws it: the curve strip differs with and without. */
  {
    PvTimelineModel *model = pv_document_get_timeline (fx->document);
    g_autoptr (PvTimelineRenderer) r = pv_timeline_renderer_new (model);
    PvTimelineOptions o;
    cairo_surface_t *with = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1000, 600);
    cairo_surface_t *without = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1000, 600);
    int differ = 0;
    cairo_t *cr;

    pv_timeline_renderer_set_size (r, 1000, 600);
    pv_timeline_options_init (&o);
    o.memory_view = PV_TIMELINE_MEMORY_ORT_BUFFERS;
    pv_timeline_renderer_set_options (r, &o);
    cr = cairo_create (without);
    pv_timeline_renderer_draw (r, cr);
    cairo_destroy (cr);
    o.ghost = previous;
    pv_timeline_renderer_set_options (r, &o);
    cr = cairo_create (with);
    pv_timeline_renderer_draw (r, cr);
    cairo_destroy (cr);
    cairo_surface_flush (with);
    cairo_surface_flush (without);
    for (int y = 0; y < 600; y++)
      {
        const guint32 *a = (const guint32 *) (cairo_image_surface_get_data (with) + y * cairo_image_surface_get_stride (with));
        const guint32 *b = (const guint32 *) (cairo_image_surface_get_data (without) + y * cairo_image_surface_get_stride (without));
        for (int x = 0; x < 1000; x++)
          differ += (a[x] & 0xffffff) != (b[x] & 0xffffff);
      }
    {
      g_autofree char *png = g_build_filename (screenshot_dir, "compare-ghost-renderer.png", NULL);
      g_assert_cmpint (cairo_surface_write_to_png (with, png), ==, CAIRO_STATUS_SUCCESS);
      g_test_message ("screenshot: %s", png);
    }
    g_test_message ("pixels the ghost curve changes: %d", differ);
    g_assert_cmpint (differ, >, 100);
    cairo_surface_destroy (with);
    cairo_surface_destroy (without);
  }

  g_signal_emit_by_name (compare, "dismissed");
  g_assert_false (pv_window_get_compare_shown (fx->window));
  g_assert_null (pv_timeline_view_get_ghost (fx->view));
  g_assert_null (pv_timeline_renderer_get_options (pv_timeline_view_get_renderer (fx->view))->ghost);
}

/* A refused (invalid) config and a cancelled plan keep the comparison;
 * the next plan compares with the last plan shown. */
static void
test_refused_and_cancelled (Fixture *fx, gconstpointer data)
{
  g_autofree char *one = pv_document_dup_default_partition (fx->document, TRUE);
  g_autofree char *one_edited = g_strconcat (one, "\n", NULL);
  Numbers single, two;
  guint serial;

  numbers_of (pv_document_get_plan_session (fx->document), &single);
  edit_to_two_streams (fx);
  numbers_of (pv_document_get_plan_session (fx->document), &two);
  serial = pv_document_get_comparison (fx->document, NULL, NULL);
  g_assert_cmpuint (serial, >, 0);

  pv_document_set_partition_text (fx->document, "{\"streams\": [");
  g_assert_true (wait_until (fx, settled));
  g_assert_true (pv_document_get_stale (fx->document));
  g_assert_cmpuint (pv_document_get_comparison (fx->document, NULL, NULL), ==, serial);
  assert_shows (fx, &single, &two);

  pv_document_set_partition_text (fx->document, one);
  pv_document_cancel_plan (fx->document);
  g_assert_true (wait_until (fx, settled));
  g_assert_true (pv_document_get_cancelled (fx->document));
  g_assert_cmpuint (pv_document_get_comparison (fx->document, NULL, NULL), ==, serial);
  assert_shows (fx, &single, &two);

  /* Back to one stream: from the two-stream plan still shown. */
  pv_document_set_partition_text (fx->document, one_edited);
  g_assert_true (wait_until (fx, settled));
  g_assert_cmpuint (n_streams_planned (fx), ==, 1);
  g_assert_cmpuint (pv_document_get_comparison (fx->document, NULL, NULL), >, serial);
  assert_shows (fx, &two, &single);

  /* An edit that changes no figure says so. */
  serial = pv_document_get_comparison (fx->document, NULL, NULL);
  pv_document_set_partition_text (fx->document, one);
  g_assert_true (wait_until (fx, settled));
  g_assert_cmpuint (pv_document_get_comparison (fx->document, NULL, NULL), >, serial);
  assert_shows (fx, &single, &single);
  g_assert_cmpuint (pv_plan_compare_get_n_changed (pv_window_get_plan_compare (fx->window)), ==, 0);
}

/* A bound is an edit too; loading a model forgets the comparison. */
static void
test_bound_then_load (Fixture *fx, gconstpointer data)
{
  Numbers before, after;
  guint plans = fx->plan_changes;

  numbers_of (pv_document_get_plan_session (fx->document), &before);
  pv_document_set_bound (fx->document, "batch", 4);
  wait_for_plan (fx, plans);
  numbers_of (pv_document_get_plan_session (fx->document), &after);
  g_assert_cmpuint (after.load, ==, 4 * before.load);
  assert_shows (fx, &before, &after);
  pv_plan_compare_set_show_ghost (pv_window_get_plan_compare (fx->window), TRUE);
  g_assert_nonnull (pv_timeline_view_get_ghost (fx->view));
  g_assert_true (wait_until (fx, still));
  save_widget_screenshot (GTK_WIDGET (fx->window), "compare-bound-ghost.png");

  open_model (fx, "wide_branches.onnx", NULL);
  g_assert_cmpuint (pv_document_get_comparison (fx->document, NULL, NULL), ==, 0);
  g_assert_null (pv_document_get_previous_timeline (fx->document));
  g_assert_false (pv_window_get_compare_shown (fx->window));
  g_assert_null (pv_timeline_view_get_ghost (fx->view));
}

int
main (int argc, char **argv)
{
  gui_fixture_init (&argc, &argv);
  ADD ("/compare/edit", test_edit, NULL);
  ADD ("/compare/ghost", test_ghost, NULL);
  ADD ("/compare/refused-and-cancelled", test_refused_and_cancelled, NULL);
  ADD ("/compare/bound-then-load", test_bound_then_load, "transformer.onnx");
  return gui_fixture_run ();
}
