/* test-frames.c: frame times of the timeline view in the real window while
 * it zooms and pans, on a big model (PV_FRAMES_MODEL, e.g. the 70k-node
 * synthetic graph; the test skips without it). A frame time is the time
 * from a zoom or pan to the view having drawn the next frame: layout,
 * snapshot and the cairo renderer, as the user waits for it. */
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

static void
test_zoom_pan (Fixture *fx, gconstpointer data)
{
  const char *path = g_getenv ("PV_FRAMES_MODEL");
  g_autoptr (GFile) file = NULL;
  double ms[N_STEPS];

  if (path == NULL)
    {
      g_test_skip ("PV_FRAMES_MODEL is not set");
      return;
    }
  file = g_file_new_for_path (path);
  pv_window_open (fx->window, file, NULL);
  /* A 70k-node model loads for a while, more so under sanitizers. */
  for (int i = 0; i < 10 && !(pv_document_get_model (fx->document) && settled (fx)); i++)
    wait_until (fx, settled);
  g_assert_nonnull (pv_document_get_model (fx->document));
  g_assert_true (settled (fx));
  g_test_message ("%s: %d nodes", path, pv_document_get_model (fx->document)->graph->n_nodes);

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

int
main (int argc, char **argv)
{
  gui_fixture_init (&argc, &argv);
  ADD ("/frames/zoom-pan", test_zoom_pan, "");
  return gui_fixture_run ();
}
