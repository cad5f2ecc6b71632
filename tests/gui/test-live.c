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


#include "gui-fixture.h"
#include "gui-xdo.h"
#include "pv-find-bar.h"
#include "pv-live-view.h"
#include "pv-schedule.h"

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

static PvLiveView *
live_view (Fixture *fx)
{
  return PV_LIVE_VIEW (window_widget (fx, PV_TYPE_LIVE_VIEW));
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
  /* Activating a row selects its value in the timeline. */
  {
    GtkWidget *list = find_widget (GTK_WIDGET (live_view (fx)), GTK_TYPE_LIST_BOX);
    GtkListBoxRow *row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 1);
    const int *values;
    guint n = 0;
    values = pv_live_view_get_values (live_view (fx), &n);
    g_assert_nonnull (row);
    g_assert_cmpuint (n, >, 1);
    g_assert_true (gtk_widget_activate (GTK_WIDGET (row)));
    g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->kind, ==, PV_TIMELINE_HIT_VALUE);
    g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->id, ==, values[1]);
  }
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
  save_screenshot (fx);

  /* Back to the main graph: the body's instant means nothing there. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.subgraph-up", NULL));
  g_assert_true (wait_until (fx, settled));
  g_assert_true (pv_timeline_view_get_model (fx->view)->graph == g);
  g_assert_false (pv_live_view_get_instant (live_view (fx), NULL, NULL));
  g_assert_cmpfloat (pv_timeline_view_get_instant (fx->view), <, 0);
  {
    guint n_marked = 0;
    pv_timeline_view_get_marked_values (fx->view, &n_marked);
    g_assert_cmpuint (n_marked, ==, 0);
  }
  /* And the main graph's own peak. */
  s = shown_session (fx);
  curve = pv_schedule_curve (s->schedule, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.live-at-peak", NULL));
  want_time = curve->peak_time;
  g_assert_true (wait_until (fx, instant_shown));
  assert_live_list (fx, curve->peak_time, PV_PLANNER_ORT);
  /* Into the body again for the final screenshot. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.open-subgraph", "(ii)", loop, 0));
  g_assert_true (wait_until (fx, settled));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.live-at-peak", NULL));
  spin (300);
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


/* ---- Find ---- */

static PvFindBar *
find_bar (Fixture *fx)
{
  return PV_FIND_BAR (window_widget (fx, PV_TYPE_FIND_BAR));
}

static gboolean
find_open (Fixture *fx)
{
  return pv_find_bar_get_open (find_bar (fx)) &&
         gtk_widget_has_focus (gtk_root_get_focus (GTK_ROOT (fx->window))) &&
         gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (fx->window)), GTK_WIDGET (find_bar (fx)));
}

/* The bar's slide-in is over: its search bar's revealer shows the entry.
 * Keys sent before are lost, and the slide takes longer than any fixed wait
 * on a loaded machine or under ThreadSanitizer. */
static gboolean
find_revealed (Fixture *fx)
{
  GtkWidget *revealer = find_widget (GTK_WIDGET (find_bar (fx)), GTK_TYPE_REVEALER);

  return revealer != NULL && gtk_revealer_get_child_revealed (GTK_REVEALER (revealer));
}

static guint want_matches;
static const char *want_needle;

static gboolean holds (const char *text, const char *needle);

/* The bar searched @want_needle (its search runs a moment after typing
 * stops) and found @want_matches, the current one selected. */
static gboolean
matches_found (Fixture *fx)
{
  PvTimelineModel *m = pv_timeline_view_get_model (fx->view);
  const PvTimelineSelection *sel = pv_timeline_view_get_selection (fx->view);
  const PvGraph *g = m->graph;
  gboolean selected = (sel->kind == PV_TIMELINE_HIT_KERNEL &&
                       (holds (g->nodes[sel->id].name, want_needle) || holds (g->nodes[sel->id].op_type, want_needle))) ||
                      (sel->kind == PV_TIMELINE_HIT_VALUE && holds (g->values[sel->id].name, want_needle));
  return g_strcmp0 (gtk_editable_get_text (pv_find_bar_get_entry (find_bar (fx))), want_needle) == 0 &&
         pv_find_bar_get_n_matches (find_bar (fx)) == want_matches && pv_find_bar_get_current (find_bar (fx)) >= 0 &&
         selected;
}

static int want_current;

static gboolean
current_is (Fixture *fx)
{
  return pv_find_bar_get_current (find_bar (fx)) == want_current;
}

static gboolean
find_closed (Fixture *fx)
{
  return !pv_find_bar_get_open (find_bar (fx));
}

static gboolean
holds (const char *text, const char *needle)
{
  g_autofree char *a = g_utf8_casefold (text, -1), *b = g_utf8_casefold (needle, -1);
  return strstr (a, b) != NULL;
}

/* Types @text key by key (xdotool's `type` drops keys under Xvfb). */
static void
type_text (const char *text)
{
  g_autoptr (GString) keys = g_string_new (NULL);

  for (const char *c = text; *c; c++)
    {
      const char *name = *c == '/' ? "slash" : *c == '.' ? "period" : *c == '_' ? "underscore" : *c == ':' ? "colon"
                         : *c == '-' ? "minus" : NULL;
      if (name)
        g_string_append_printf (keys, " %s", name);
      else
        g_string_append_printf (keys, " %c", *c);
    }
  xdo ("key --delay 20%s", keys->str);
}

/* Types @needle into the open bar; checks the matches against the drawn
 * model's kernels and values (those with a bar in the memory view shown),
 * and that the current one is selected and on screen. */
static void
find_and_check (Fixture *fx, const char *needle)
{
  PvTimelineModel *m = pv_timeline_view_get_model (fx->view);
  const PvTimelineMemory *mem = &m->memory[pv_timeline_view_get_memory_view (fx->view)];
  const PvGraph *g = m->graph;
  const PvTimelineSelection *sel;
  const PvTimelineViewport *vp;
  guint n_kernels = 0, n_values = 0, n_found = 0;
  double t0, t1;

  for (int k = 0; k < m->n_kernels; k++)
    n_kernels += holds (g->nodes[m->kernels[k].node].name, needle) || holds (g->nodes[m->kernels[k].node].op_type, needle);
  for (int v = 0; v < g->n_values; v++)
    n_values += mem->available && mem->value_bar[v] >= 0 && holds (g->values[v].name, needle);
  g_test_message ("“%s”: %u kernels, %u values", needle, n_kernels, n_values);
  g_assert_cmpuint (n_kernels, >, 0);
  xdo ("key ctrl+a BackSpace");
  type_text (needle);
  want_matches = n_kernels + n_values;
  want_needle = needle;
  if (!wait_until (fx, matches_found))
    g_error ("entry “%s” (focus %s): %u matches, want %u", gtk_editable_get_text (pv_find_bar_get_entry (find_bar (fx))),
             gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (fx->window)), GTK_WIDGET (find_bar (fx))) ? "in the bar" : G_OBJECT_TYPE_NAME (gtk_widget_get_parent (gtk_root_get_focus (GTK_ROOT (fx->window)))),
             pv_find_bar_get_n_matches (find_bar (fx)), want_matches);
  pv_timeline_view_get_found_nodes (fx->view, &n_found);
  g_assert_cmpuint (n_found, ==, n_kernels);
  sel = pv_timeline_view_get_selection (fx->view);
  g_assert_true (sel->kind == PV_TIMELINE_HIT_KERNEL || sel->kind == PV_TIMELINE_HIT_VALUE);
  if (sel->kind == PV_TIMELINE_HIT_KERNEL)
    {
      g_assert_true (holds (g->nodes[sel->id].name, needle) || holds (g->nodes[sel->id].op_type, needle));
      t0 = m->kernels[m->node_kernel[sel->id]].start;
      t1 = m->kernels[m->node_kernel[sel->id]].end;
    }
  else
    {
      g_assert_true (holds (g->values[sel->id].name, needle));
      t0 = mem->bars[mem->value_bar[sel->id]].start;
      t1 = mem->bars[mem->value_bar[sel->id]].end;
    }
  vp = pv_timeline_renderer_get_viewport (pv_timeline_view_get_renderer (fx->view));
  g_assert_cmpfloat (t0, >=, vp->t0);
  g_assert_cmpfloat (t1, <=, vp->t1);
}

/* Ctrl+F, a node's name, then an op type; Enter, Shift+Enter, Ctrl+G step
 * through the matches; Esc closes the bar and its tint. */
static void
test_find (Fixture *fx, gconstpointer data)
{
  PvTimelineModel *m = pv_timeline_view_get_model (fx->view);
  const PvGraph *g = m->graph;
  const char *name = NULL, *op = g->nodes[m->kernels[0].node].op_type;
  const int *found;
  guint n_found = 0, n_op = 0;
  int n;

  /* The last kernel whose name no other node's name or op type holds. */
  for (int k = m->n_kernels - 1; k >= 0 && name == NULL; k--)
    {
      const char *candidate = g->nodes[m->kernels[k].node].name;
      gboolean unique = TRUE;
      for (int j = 0; j < g->n_nodes && unique; j++)
        unique = j == m->kernels[k].node || (!holds (g->nodes[j].name, candidate) && !holds (g->nodes[j].op_type, candidate));
      if (unique)
        name = candidate;
    }
  g_assert_nonnull (name);

  focus_timeline (fx);
  /* Zoomed in at the start: the last kernel is off screen until found. */
  pv_timeline_view_zoom (fx->view, 6);
  xdo ("key ctrl+f");
  g_assert_true (wait_until (fx, find_open));
  g_assert_true (wait_until (fx, find_revealed));
  /* By name: that kernel, selected (it comes first: kernels before values). */
  find_and_check (fx, name);
  found = pv_timeline_view_get_found_nodes (fx->view, &n_found);
  g_assert_cmpuint (n_found, ==, 1);
  g_assert_cmpstr (g->nodes[found[0]].name, ==, name);
  g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->kind, ==, PV_TIMELINE_HIT_KERNEL);
  g_assert_cmpstr (g->nodes[pv_timeline_view_get_selection (fx->view)->id].name, ==, name);
  /* By op type: every kernel of it among the finds. */
  find_and_check (fx, op);
  found = pv_timeline_view_get_found_nodes (fx->view, &n_found);
  for (int k = 0; k < m->n_kernels; k++)
    if (strcmp (g->nodes[m->kernels[k].node].op_type, op) == 0)
      {
        gboolean in = FALSE;
        for (guint i = 0; i < n_found; i++)
          in |= found[i] == m->kernels[k].node;
        g_assert_true (in);
        n_op++;
      }
  g_assert_cmpuint (n_op, >, 0);
  find_and_check (fx, "relu");
  n = (int) pv_find_bar_get_n_matches (find_bar (fx));
  g_assert_cmpint (n, >, 2);
  want_current = (pv_find_bar_get_current (find_bar (fx)) + 1) % n;
  xdo ("key Return");
  g_assert_true (wait_until (fx, current_is));
  want_current = (want_current + 1) % n;
  xdo ("key ctrl+g");
  g_assert_true (wait_until (fx, current_is));
  want_current = (want_current + n - 1) % n;
  xdo ("key shift+Return");
  g_assert_true (wait_until (fx, current_is));
  save_screenshot (fx);
  xdo ("key Escape");
  g_assert_true (wait_until (fx, find_closed));
  pv_timeline_view_get_found_nodes (fx->view, &n_found);
  g_assert_cmpuint (n_found, ==, 0);
  /* Again, for the final screenshot (closing the bar emptied it). */
  xdo ("key ctrl+f");
  g_assert_true (wait_until (fx, find_open));
  g_assert_true (wait_until (fx, find_revealed));
  find_and_check (fx, "relu");
  spin (200);
}

/* DenseNet-121 (light, from the shared ONNX test models): 223 values live
 * at its peak, listed and summed for each planner. */
static void
test_densenet (Fixture *fx, gconstpointer data)
{
  const char *shared = g_getenv ("PV_SHARED_DIR");
  g_autofree char *path = shared ? g_build_filename (shared, "onnx-tests", "light", "light_densenet121.onnx", NULL)
                                 : NULL;
  g_autoptr (GFile) file = NULL;
  static const PvPlannerKind kinds[] = { PV_PLANNER_ORT, PV_PLANNER_SLOTS, PV_PLANNER_ARENA };
  const PvLiveCurve *curve;
  guint n = 0;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip ("light_densenet121.onnx is not in PV_SHARED_DIR");
      return;
    }
  file = g_file_new_for_path (path);
  pv_window_open (fx->window, file, NULL);
  g_assert_true (wait_until (fx, settled));
  g_assert_null (pv_window_get_error (fx->window));
  curve = pv_schedule_curve (shown_session (fx)->schedule, 0);
  g_assert_nonnull (curve);
  focus_timeline (fx);
  xdo ("key p");
  want_time = curve->peak_time;
  g_assert_true (wait_until (fx, instant_shown));
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      pv_document_set_planner (fx->document, kinds[i]);
      g_assert_true (wait_until (fx, settled));
      g_assert_true (wait_until (fx, instant_shown));
      assert_live_list (fx, curve->peak_time, kinds[i]);
    }
  pv_live_view_get_values (live_view (fx), &n);
  g_test_message ("densenet121: %u values live at the peak, t %g", n, curve->peak_time);
  pv_document_set_planner (fx->document, PV_PLANNER_ORT);
  g_assert_true (wait_until (fx, settled));
  show_live_page (fx);
  spin (1500);
}

int
main (int argc, char **argv)
{
  int status;

  if (!gui_xdo_init ())
    return 0;
  gui_fixture_init (&argc, &argv);
  ADD ("/live/peak-click", test_peak_click, NULL);
  ADD ("/live/curve-click", test_curve_click, "cnn.onnx");
  ADD ("/live/key-p", test_key_p, "mlp.onnx");
  ADD ("/live/body", test_body, "control_flow.onnx");
  ADD ("/live/range", test_range, "cnn.onnx");
  ADD ("/live/find", test_find, NULL);
  ADD ("/live/densenet", test_densenet, "");
  status = gui_fixture_run ();
  gui_xdo_shutdown ();
  return status;
}
