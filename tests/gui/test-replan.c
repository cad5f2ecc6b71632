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

int
main (int argc, char **argv)
{
  gui_fixture_init (&argc, &argv);
  ADD ("/replan/latest-wins", test_latest_wins, NULL);
  ADD ("/replan/stale-after-queue", test_stale_after_queue, NULL);
  ADD ("/replan/open-while-planning", test_open_while_planning, NULL);
  return gui_fixture_run ();
}
