/* test-live.c: the Live page in the real window (under Xvfb, see
 * run-xvfb.sh): what is live at an instant clicked on the live-bytes curve
 * or jumped to with P, and what a Shift+dragged span costs.
 *
 * xdotool sends the clicks, drags and keys through the X server (the test
 * is skipped without it). Expected rows and figures come from the
 * document's plan session (pv_schedule_live_at, pv_schedule_range) and from
 * sums over its values made here, never from copied output. */
#include <math.h>
#include <string.h>

#include <gdk/x11/gdkx.h>

#include "gui-fixture.h"
#include "pv-live-view.h"
#include "pv-schedule.h"

static char *xdotool;

/* ---- xdotool (as test-input.c) ---- */

static gulong
window_xid (Fixture *fx)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (fx->window));

  g_assert_true (GDK_IS_X11_SURFACE (surface));
  return gdk_x11_surface_get_xid (surface);
}

static void xdo (const char *format, ...) G_GNUC_PRINTF (1, 2);

static void
xdo (const char *format, ...)
{
  g_autofree char *args = NULL, *command = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  int status = -1;
  va_list ap;

  va_start (ap, format);
  args = g_strdup_vprintf (format, ap);
  va_end (ap);
  command = g_strdup_printf ("%s %s", xdotool, args);
  g_spawn_command_line_sync (command, NULL, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("`%s` failed: %s", command, err);
}

/* A point of the timeline view in the X window's coordinates. */
static void
view_to_window (Fixture *fx, double x, double y, int *wx, int *wy)
{
  graphene_point_t in = GRAPHENE_POINT_INIT (x, y), out;
  double sx = 0, sy = 0;

  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (fx->view), GTK_WIDGET (fx->window), &in, &out));
  gtk_native_get_surface_transform (GTK_NATIVE (fx->window), &sx, &sy);
  *wx = (int) lround (out.x + sx);
  *wy = (int) lround (out.y + sy);
}

static gboolean
timeline_focused (Fixture *fx)
{
  return gtk_widget_has_focus (GTK_WIDGET (fx->view));
}

static void
focus_timeline (Fixture *fx)
{
  xdo ("windowfocus --sync %lu", window_xid (fx));
  gtk_widget_grab_focus (GTK_WIDGET (fx->view));
  g_assert_true (wait_until (fx, timeline_focused));
}

/* ---- helpers ---- */

static GtkWidget *
find_widget (GtkWidget *root, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type);
      if (found)
        return found;
    }
  return NULL;
}

static PvLiveView *
live_view (Fixture *fx)
{
  GtkWidget *w = find_widget (GTK_WIDGET (fx->window), PV_TYPE_LIVE_VIEW);
  g_assert_nonnull (w);
  return PV_LIVE_VIEW (w);
}

/* The session of the graph the timeline shows. */
static const PvSession *
shown_session (Fixture *fx)
{
  PvTimelineModel *model = pv_timeline_view_get_model (fx->view);
  const PvSession *s;

  g_assert_nonnull (model);
  s = pv_document_find_session (fx->document, model->graph);
  g_assert_nonnull (s);
  g_assert_nonnull (s->schedule);
  return s;
}

/* A point on the first live-bytes curve at @time, found with the
 * renderer's hit test down the column. */
static gboolean
curve_point (Fixture *fx, double time, double *x, double *y)
{
  PvTimelineRenderer *r = pv_timeline_view_get_renderer (fx->view);
  const PvTimelineViewport *vp = pv_timeline_renderer_get_viewport (r);
  double top = -1, cy;

  *x = pv_timeline_renderer_time_to_x (r, time);
  for (cy = 0; cy < vp->height; cy += 1)
    {
      PvTimelineHit hit;
      gboolean on = pv_timeline_renderer_hit_test (r, *x, cy, &hit) && hit.kind == PV_TIMELINE_HIT_CURVE &&
                    hit.lane == 0;
      if (on && top < 0)
        top = cy;
      else if (!on && top >= 0)
        break;
    }
  if (top < 0)
    return FALSE;
  *y = (top + cy - 1) / 2;
  return TRUE;
}

static double want_time;

static gboolean
instant_shown (Fixture *fx)
{
  double time = -1;
  return pv_live_view_get_instant (live_view (fx), &time, NULL) && time == want_time;
}

static gboolean
any_instant_shown (Fixture *fx)
{
  return pv_live_view_get_instant (live_view (fx), NULL, NULL);
}

static void
click_view (Fixture *fx, double x, double y)
{
  int wx, wy;

  view_to_window (fx, x, y, &wx, &wy);
  xdo ("mousemove --window %lu --sync %d %d click 1", window_xid (fx), wx, wy);
}

/* The rows and total of the Live page against the plan: the schedule's
 * live set, the curve's value, and a sum over every value made here. */
static void
assert_live_list (Fixture *fx, double time, PvPlannerKind kind)
{
  PvLiveView *live = live_view (fx);
  const PvSession *s = shown_session (fx);
  const PvSchedule *sch = s->schedule;
  const PvLiveCurve *curve = pv_schedule_curve (sch, 0);
  g_autofree int *expected = NULL;
  g_autofree gint64 *places = pv_plan_value_places (s, kind);
  const int *values;
  guint n = 0, n_marked = 0;
  int n_expected = 0, n_independent = 0;
  guint64 sum = 0, independent = 0;

  g_assert_nonnull (curve);
  expected = pv_schedule_live_at (sch, 0, time, &n_expected);
  values = pv_live_view_get_values (live, &n);
  g_assert_cmpuint (n, ==, (guint) n_expected);
  g_assert_cmpuint (n, >, 0);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *row = pv_live_view_dup_row_text (live, values[i]);
      g_autofree char *place = NULL;
      g_assert_cmpint (values[i], ==, expected[i]);
      if (i > 0)
        g_assert_cmpuint (sch->value_bytes[values[i - 1]], >=, sch->value_bytes[values[i]]);
      sum += sch->value_bytes[values[i]];
      g_assert_nonnull (row);
      g_assert_nonnull (strstr (row, s->graph->values[values[i]].name));
      if (s->graph->values[values[i]].producer >= 0)
        g_assert_nonnull (strstr (row, s->graph->nodes[s->graph->values[values[i]].producer].name));
      if (places[values[i]] >= 0)
        {
          place = g_strdup_printf (kind == PV_PLANNER_ORT     ? "ORT buffer %" G_GINT64_FORMAT
                                   : kind == PV_PLANNER_SLOTS ? "slot %" G_GINT64_FORMAT
                                                              : "offset %" G_GINT64_FORMAT,
                                   places[values[i]]);
          g_assert_nonnull (strstr (row, place));
        }
    }
  /* Every value the curve counts and whose live interval holds @time. */
  for (int v = 0; v < s->graph->n_values; v++)
    if (sch->value_bytes[v] > 0 && sch->value_device[v] == 0 && sch->value_spans[v].start >= 0 &&
        sch->value_spans[v].start <= time && time < sch->value_spans[v].end)
      {
        independent += sch->value_bytes[v];
        n_independent++;
      }
  g_assert_cmpint (n_independent, ==, (int) n);
  g_assert_cmpuint (sum, ==, independent);
  g_assert_cmpuint (pv_live_view_get_total (live), ==, sum);
  g_assert_cmpuint (pv_live_curve_bytes_at (curve, time), ==, sum);
  /* The timeline marks the instant and those values' bars. */
  g_assert_cmpfloat (pv_timeline_view_get_instant (fx->view), ==, time);
  pv_timeline_view_get_marked_values (fx->view, &n_marked);
  g_assert_cmpuint (n_marked, ==, n);
  g_test_message ("t %g: %u values, %" G_GUINT64_FORMAT " bytes", time, n, sum);
}

static void
show_live_page (Fixture *fx)
{
  GtkWidget *stack = gtk_widget_get_ancestor (GTK_WIDGET (live_view (fx)), GTK_TYPE_STACK);
  g_assert_true (gtk_stack_get_visible_child (GTK_STACK (stack)) == GTK_WIDGET (live_view (fx)));
  spin (300);
}

/* ---- tests ---- */

/* Click the peak marker: the live list at the peak, for every planner. */
static void
test_peak_click (Fixture *fx, gconstpointer data)
{
  const PvSession *s = shown_session (fx);
  const PvLiveCurve *curve = pv_schedule_curve (s->schedule, 0);
  static const PvPlannerKind kinds[] = { PV_PLANNER_ORT, PV_PLANNER_SLOTS, PV_PLANNER_ARENA };
  double x, y;

  g_assert_true (curve_point (fx, curve->peak_time, &x, &y));
  /* Within the marker's snap, not on it: it still means the peak. */
  click_view (fx, x + 2, y);
  want_time = curve->peak_time;
  g_assert_true (wait_until (fx, instant_shown));
  show_live_page (fx);
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      pv_document_set_planner (fx->document, kinds[i]);
      g_assert_true (wait_until (fx, settled));
      g_assert_true (wait_until (fx, instant_shown));
      assert_live_list (fx, curve->peak_time, kinds[i]);
    }
  pv_document_set_planner (fx->document, PV_PLANNER_ORT);
  g_assert_true (wait_until (fx, settled));
  spin (200);
}

/* Click the curve elsewhere: the instant under the pointer. */
static void
test_curve_click (Fixture *fx, gconstpointer data)
{
  const PvSession *s = shown_session (fx);
  PvTimelineRenderer *r = pv_timeline_view_get_renderer (fx->view);
  const PvLiveCurve *curve = pv_schedule_curve (s->schedule, 0);
  double t = curve->peak_time > 2 ? 1.5 : s->schedule->makespan - 0.5, x, y;
  PvTimelineHit hit;

  g_assert_true (curve_point (fx, t, &x, &y));
  g_assert_true (pv_timeline_renderer_hit_test (r, x, y, &hit));
  click_view (fx, x, y);
  g_assert_true (wait_until (fx, any_instant_shown));
  g_assert_true (pv_live_view_get_instant (live_view (fx), &t, NULL));
  /* The click lands on a whole pixel: within a pixel's time of the hit. */
  g_assert_cmpfloat (fabs (t - hit.time), <=,
                     1.5 * (pv_timeline_renderer_x_to_time (r, x + 1) - pv_timeline_renderer_x_to_time (r, x)));
  g_assert_cmpfloat (t, !=, curve->peak_time);
  assert_live_list (fx, t, PV_PLANNER_ORT);
  show_live_page (fx);
}

/* P on the timeline and win.live-at-peak: the peak. */
static void
test_key_p (Fixture *fx, gconstpointer data)
{
  const PvSession *s = shown_session (fx);
  const PvLiveCurve *curve = pv_schedule_curve (s->schedule, 0);

  focus_timeline (fx);
  xdo ("key p");
  want_time = curve->peak_time;
  g_assert_true (wait_until (fx, instant_shown));
  assert_live_list (fx, curve->peak_time, PV_PLANNER_ORT);
  pv_live_view_show_instant (live_view (fx), NULL, 0, -1);
  g_assert_false (instant_shown (fx));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.live-at-peak", NULL));
  g_assert_true (wait_until (fx, instant_shown));
  show_live_page (fx);
}

/* A Loop's body: its own session's live set. */
static void
test_body (Fixture *fx, gconstpointer data)
{
  const PvGraph *g = pv_document_get_plan_session (fx->document)->graph;
  const PvSession *s;
  const PvLiveCurve *curve;
  int loop = -1;

  for (int n = 0; n < g->n_nodes; n++)
    if (strcmp (g->nodes[n].op_type, "Loop") == 0)
      loop = n;
  g_assert_cmpint (loop, >=, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.open-subgraph", "(ii)", loop, 0));
  g_assert_true (wait_until (fx, settled));
  s = shown_session (fx);
  g_assert_true (s->graph == g->nodes[loop].subgraphs[0]);
  curve = pv_schedule_curve (s->schedule, 0);
  g_assert_nonnull (curve);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.live-at-peak", NULL));
  want_time = curve->peak_time;
  g_assert_true (wait_until (fx, instant_shown));
  assert_live_list (fx, curve->peak_time, PV_PLANNER_ORT);
  show_live_page (fx);
}

static gboolean
range_selected (Fixture *fx)
{
  double t0, t1;
  return pv_timeline_view_get_range (fx->view, &t0, &t1) && pv_live_view_get_range_value (live_view (fx), "Freed");
}

static gboolean
range_cleared (Fixture *fx)
{
  double t0, t1;
  return !pv_timeline_view_get_range (fx->view, &t0, &t1) &&
         pv_live_view_get_range_value (live_view (fx), "Freed") == NULL;
}

static void
assert_bytes_figure (Fixture *fx, const char *key, guint64 bytes)
{
  const char *text = pv_live_view_get_range_value (live_view (fx), key);
  g_autofree char *exact = g_strdup_printf ("(%" G_GUINT64_FORMAT " bytes)", bytes);

  g_assert_nonnull (text);
  g_test_message ("%s: %s", key, text);
  g_assert_nonnull (strstr (text, exact));
}

/* Shift+drag across the middle of the run: the span's figures against the
 * timeline's kernels and curve and a sum over the plan's values; Esc
 * clears it. */
static void
test_range (Fixture *fx, gconstpointer data)
{
  const PvSession *s = shown_session (fx);
  const PvSchedule *sch = s->schedule;
  PvTimelineModel *model = pv_timeline_view_get_model (fx->view);
  const PvTimelineCurve *curve = &model->curves[0];
  double xa, xb, y, t0, t1;
  int wa, wb, wy, n_kernels = 0, n_born = 0, n_dying = 0;
  guint64 allocated = 0, freed = 0, peak = 0;
  g_autofree char *count = NULL;

  g_assert_true (curve_point (fx, sch->makespan * 0.3, &xa, &y));
  g_assert_true (curve_point (fx, sch->makespan * 0.7, &xb, &y));
  view_to_window (fx, xa, y, &wa, &wy);
  view_to_window (fx, xb, y, &wb, &wy);
  focus_timeline (fx);
  xdo ("mousemove --window %lu --sync %d %d keydown shift mousedown 1 sleep 0.05 mousemove --window %lu --sync %d %d "
       "sleep 0.05 mousemove --window %lu --sync %d %d sleep 0.05 mouseup 1 keyup shift",
       window_xid (fx), wa, wy, window_xid (fx), (wa + wb) / 2, wy, window_xid (fx), wb, wy);
  g_assert_true (wait_until (fx, range_selected));
  g_assert_true (pv_timeline_view_get_range (fx->view, &t0, &t1));
  g_test_message ("span %g–%g", t0, t1);
  g_assert_cmpfloat (t0, <, t1);
  /* The pointer went from 30% to 70% of the run: the span is about that. */
  g_assert_cmpfloat (fabs (t0 - sch->makespan * 0.3), <, sch->makespan * 0.05);
  g_assert_cmpfloat (fabs (t1 - sch->makespan * 0.7), <, sch->makespan * 0.05);

  for (int k = 0; k < model->n_kernels; k++)
    n_kernels += model->kernels[k].start >= t0 && model->kernels[k].start < t1;
  for (int v = 0; v < s->graph->n_values; v++)
    {
      const PvSpan *span = &sch->value_spans[v];
      if (sch->value_bytes[v] == 0 || sch->value_device[v] != curve->device || span->start < 0)
        continue;
      if (span->start >= t0 && span->start < t1)
        allocated += sch->value_bytes[v], n_born++;
      if (span->end >= t0 && span->end < t1)
        freed += sch->value_bytes[v], n_dying++;
    }
  /* The curve's highest point from t0 up to t1 (its value at t0 included). */
  for (int i = 0; i < curve->n_points; i++)
    if ((curve->times[i] > t0 && curve->times[i] < t1) || (curve->times[i] <= t0 && (i + 1 == curve->n_points ||
                                                                                     curve->times[i + 1] > t0)))
      peak = MAX (peak, curve->bytes[i]);
  count = g_strdup_printf ("%d", n_kernels);
  g_assert_cmpstr (pv_live_view_get_range_value (live_view (fx), "Kernels run"), ==, count);
  g_free (count);
  count = g_strdup_printf ("%d", n_born);
  g_assert_cmpstr (pv_live_view_get_range_value (live_view (fx), "Values born"), ==, count);
  g_free (count);
  count = g_strdup_printf ("%d", n_dying);
  g_assert_cmpstr (pv_live_view_get_range_value (live_view (fx), "Values dying"), ==, count);
  assert_bytes_figure (fx, "Allocated", allocated);
  assert_bytes_figure (fx, "Freed", freed);
  assert_bytes_figure (fx, "Peak in span", peak);
  g_assert_cmpint (n_kernels, >, 0);
  show_live_page (fx);
  save_screenshot (fx);

  xdo ("key Escape");
  g_assert_true (wait_until (fx, range_cleared));
  /* Drag again to leave the span on the final screenshot. */
  xdo ("mousemove --window %lu --sync %d %d keydown shift mousedown 1 sleep 0.05 mousemove --window %lu --sync %d %d "
       "sleep 0.05 mouseup 1 keyup shift", window_xid (fx), wa, wy, window_xid (fx), wb, wy);
  g_assert_true (wait_until (fx, range_selected));
}

int
main (int argc, char **argv)
{
  int status;

  xdotool = g_find_program_in_path ("xdotool");
  if (xdotool == NULL)
    {
      printf ("1..0 # SKIP xdotool is not installed (apt-get install xdotool)\n");
      return 0;  /* TAP: the 1..0 SKIP plan is the skip */
    }
  gui_fixture_init (&argc, &argv);
  ADD ("/live/peak-click", test_peak_click, NULL);
  ADD ("/live/curve-click", test_curve_click, "cnn.onnx");
  ADD ("/live/key-p", test_key_p, "mlp.onnx");
  ADD ("/live/body", test_body, "control_flow.onnx");
  ADD ("/live/range", test_range, "cnn.onnx");
  status = gui_fixture_run ();
  g_free (xdotool);
  return status;
}
