/* test-values.c: the side pane's Values and Inspector pages in the real
 * window (under Xvfb, see run-xvfb.sh).
 *
 * Every test opens data/wide_branches.onnx; expected rows, sizes and names
 * come from the document's plan session, never from copied output. Each
 * test leaves a screenshot with the page it checks on screen.
 *
 * With PV_BIG_MODEL set to a model file (the 100k-node synthetic model of
 * tests/bench/bench-load.sh), /values/bench loads it and reports how long
 * the Values page takes to build its list and to filter it. */
#include <string.h>

#include "gui-fixture.h"
#include "pv-inspector.h"
#include "pv-values-view.h"

/* ---- helpers ---- */

static PvValuesView *
values_view (Fixture *fx)
{
  return PV_VALUES_VIEW (window_widget (fx, PV_TYPE_VALUES_VIEW));
}

static PvInspector *
inspector (Fixture *fx)
{
  return PV_INSPECTOR (window_widget (fx, PV_TYPE_INSPECTOR));
}

/* Shows @page in the side pane, for the screenshot. */
static void
show_page (GtkWidget *page)
{
  GtkWidget *stack = gtk_widget_get_ancestor (page, GTK_TYPE_STACK);

  g_assert_nonnull (stack);
  gtk_stack_set_visible_child (GTK_STACK (stack), page);
  spin (300);
}

static GListModel *
rows (PvValuesView *values)
{
  return G_LIST_MODEL (pv_values_view_get_selection_model (values));
}

static guint
row_of (PvValuesView *values, int value)
{
  GListModel *model = rows (values);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (PvValueRow) row = g_list_model_get_item (model, i);
      if (pv_value_row_get_value (row) == value)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

static const PvGraph *
graph (Fixture *fx)
{
  const PvSession *s = pv_document_get_plan_session (fx->document);
  g_assert_nonnull (s);
  return s->model->graph;
}

/* The first output of the first node of @op_type. */
static int
output_of (Fixture *fx, const char *op_type)
{
  const PvGraph *g = graph (fx);

  for (int n = 0; n < g->n_nodes; n++)
    if (strcmp (g->nodes[n].op_type, op_type) == 0)
      return g->nodes[n].outputs[0];
  g_assert_not_reached ();
  return -1;
}

static gboolean
is_button_labelled (GtkWidget *widget, gconstpointer text)
{
  GtkWidget *label = GTK_IS_BUTTON (widget) ? find_widget (widget, GTK_TYPE_LABEL) : NULL;
  return label && g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), text) == 0;
}

/* The first button under @root whose label (or first label inside) is @text. */
static GtkWidget *
find_button (GtkWidget *root, const char *text)
{
  return find_first (root, is_button_labelled, text);
}

static char *
node_text (const PvGraph *g, int node)
{
  return g_strdup_printf ("%s · %s", g->nodes[node].op_type, g->nodes[node].name);
}

/* ---- tests ---- */

static void
test_rows (Fixture *fx, gconstpointer data)
{
  PvValuesView *values = values_view (fx);
  const PvSession *s = pv_document_get_plan_session (fx->document);
  const PvGraph *g = graph (fx);
  int v = output_of (fx, "Concat");
  guint pos;
  g_autoptr (PvValueRow) row = NULL;
  g_autofree char *expected_text = NULL, *count = NULL;

  /* One row per value of the plan session, in value order until sorted. */
  g_assert_cmpuint (g_list_model_get_n_items (rows (values)), ==, (guint) g->n_values);
  count = g_strdup_printf ("%d values", g->n_values);
  g_assert_cmpstr (pv_values_view_get_count_text (values), ==, count);

  pos = row_of (values, v);
  g_assert_cmpuint (pos, !=, GTK_INVALID_LIST_POSITION);
  row = g_list_model_get_item (rows (values), pos);
  g_assert_cmpstr (pv_value_row_get_name (row), ==, g->values[v].name);
  g_assert_cmpuint (s->value_bytes[v], >, 0);
  g_assert_cmpuint (pv_value_row_get_bytes (row), ==, s->value_bytes[v]);
  expected_text = g_format_size_full (s->value_bytes[v], G_FORMAT_SIZE_IEC_UNITS);
  g_assert_cmpstr (pv_value_row_get_text (row, PV_VALUE_FIELD_BYTES), ==, expected_text);
  g_assert_true (g_str_has_prefix (pv_value_row_get_text (row, PV_VALUE_FIELD_PRODUCER), "Concat · "));
  g_assert_cmpstr (pv_value_row_get_text (row, PV_VALUE_FIELD_KIND), ==,
                   pv_ort_alloc_kind_name (s->ort->values[g->values[v].ort_index].kind));
  /* ORT's planner is shown: the place column names ORT buffers. */
  g_assert_true (g_str_has_prefix (pv_value_row_get_text (row, PV_VALUE_FIELD_PLACE), "buffer "));
  g_assert_cmpstr (gtk_column_view_column_get_title (pv_values_view_get_column (values, PV_VALUE_FIELD_PLACE)), ==,
                   "Buffer");
  pv_document_set_planner (fx->document, PV_PLANNER_ARENA);
  g_assert_cmpstr (gtk_column_view_column_get_title (pv_values_view_get_column (values, PV_VALUE_FIELD_PLACE)), ==,
                   "Offset");
  g_clear_object (&row);
  row = g_list_model_get_item (rows (values), row_of (values, v));
  g_assert_true (g_str_has_prefix (pv_value_row_get_text (row, PV_VALUE_FIELD_PLACE), "@ "));
  show_page (GTK_WIDGET (values));
}

static gboolean
is_label_showing (GtkWidget *widget, gconstpointer text)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

/* The label under @root showing @text. */
static GtkWidget *
find_label (GtkWidget *root, const char *text)
{
  return find_first (root, is_label_showing, text);
}

/* Is @widget wholly inside @viewport, horizontally? */
static gboolean
shown_across (GtkWidget *widget, GtkWidget *viewport)
{
  graphene_rect_t r;

  g_assert_true (gtk_widget_compute_bounds (widget, viewport, &r));
  return r.origin.x >= 0 && r.origin.x + r.size.width <= gtk_widget_get_width (viewport);
}

/* Seven columns are wider than the side pane: the table scrolls sideways
 * to Kind, Buffer and Live. */
static void
test_columns_scroll (Fixture *fx, gconstpointer data)
{
  PvValuesView *values = values_view (fx);
  GtkWidget *view = GTK_WIDGET (pv_values_view_get_column_view (values));
  GtkWidget *scroller = gtk_widget_get_ancestor (view, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *h = gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (view));
  GtkWidget *value_title, *live_title;

  show_page (GTK_WIDGET (values));
  value_title = find_label (view, "Value");
  live_title = find_label (view, "Live");
  g_assert_nonnull (value_title);
  g_assert_nonnull (live_title);
  g_test_message ("columns %.0f px wide, %.0f px shown", gtk_adjustment_get_upper (h),
                  gtk_adjustment_get_page_size (h));
  g_assert_cmpfloat (gtk_adjustment_get_upper (h), >, gtk_adjustment_get_page_size (h));
  g_assert_true (shown_across (value_title, scroller));
  g_assert_false (shown_across (live_title, scroller));
  gtk_adjustment_set_value (h, gtk_adjustment_get_upper (h) - gtk_adjustment_get_page_size (h));
  spin (300);
  g_assert_true (shown_across (live_title, scroller));
}

static void
test_sort (Fixture *fx, gconstpointer data)
{
  PvValuesView *values = values_view (fx);
  GtkColumnView *cv = pv_values_view_get_column_view (values);
  GListModel *model = rows (values);
  guint n = g_list_model_get_n_items (model);
  guint64 previous = G_MAXUINT64;
  g_autofree char *previous_name = NULL;

  gtk_column_view_sort_by_column (cv, pv_values_view_get_column (values, PV_VALUE_FIELD_BYTES), GTK_SORT_DESCENDING);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (PvValueRow) row = g_list_model_get_item (model, i);
      g_assert_cmpuint (pv_value_row_get_bytes (row), <=, previous);
      previous = pv_value_row_get_bytes (row);
    }
  {
    /* Really sorted: the first row is the largest value. */
    const PvSession *s = pv_document_get_plan_session (fx->document);
    guint64 largest = 0;
    g_autoptr (PvValueRow) first = g_list_model_get_item (model, 0);
    for (int v = 0; v < graph (fx)->n_values; v++)
      largest = MAX (largest, s->value_bytes[v]);
    g_assert_cmpuint (pv_value_row_get_bytes (first), ==, largest);
  }

  gtk_column_view_sort_by_column (cv, pv_values_view_get_column (values, PV_VALUE_FIELD_NAME), GTK_SORT_ASCENDING);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (PvValueRow) row = g_list_model_get_item (model, i);
      if (previous_name)
        g_assert_cmpint (strcmp (previous_name, pv_value_row_get_name (row)), <=, 0);
      g_free (previous_name);
      previous_name = g_strdup (pv_value_row_get_name (row));
    }
  gtk_column_view_sort_by_column (cv, pv_values_view_get_column (values, PV_VALUE_FIELD_BYTES), GTK_SORT_DESCENDING);
  show_page (GTK_WIDGET (values));
  /* Re-sorted while shown: the first rows are in view. */
  gtk_column_view_sort_by_column (cv, pv_values_view_get_column (values, PV_VALUE_FIELD_NAME), GTK_SORT_ASCENDING);
  gtk_column_view_sort_by_column (cv, pv_values_view_get_column (values, PV_VALUE_FIELD_BYTES), GTK_SORT_DESCENDING);
  spin (200);
  g_assert_cmpfloat (gtk_adjustment_get_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (cv))), ==, 0);
}

static gboolean
contains_concat (const char *text)
{
  g_autofree char *lower = g_ascii_strdown (text, -1);
  return strstr (lower, "concat") != NULL;
}

static void
test_filter (Fixture *fx, gconstpointer data)
{
  PvValuesView *values = values_view (fx);
  const PvGraph *g = graph (fx);
  GListModel *model = rows (values);
  int expected = 0;
  g_autofree char *count = NULL;

  /* Values whose name, producer node name or op type say "concat". */
  for (int v = 0; v < g->n_values; v++)
    {
      int p = g->values[v].producer;
      if (contains_concat (g->values[v].name) ||
          (p >= 0 && (contains_concat (g->nodes[p].name) || contains_concat (g->nodes[p].op_type))))
        expected++;
    }
  g_assert_cmpint (expected, >, 0);
  g_assert_cmpint (expected, <, g->n_values);

  pv_values_view_set_filter_text (values, "Concat");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, (guint) expected);
  for (guint i = 0; i < (guint) expected; i++)
    {
      g_autoptr (PvValueRow) row = g_list_model_get_item (model, i);
      int p = pv_value_row_get_producer (row);
      g_assert_true (contains_concat (pv_value_row_get_name (row)) ||
                     (p >= 0 && (contains_concat (g->nodes[p].name) || contains_concat (g->nodes[p].op_type))));
    }
  count = g_strdup_printf ("%d of %d values", expected, g->n_values);
  g_assert_cmpstr (pv_values_view_get_count_text (values), ==, count);

  /* Case does not matter; a narrower text narrows. */
  pv_values_view_set_filter_text (values, "cONCAT");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, (guint) expected);
  pv_values_view_set_filter_text (values, "concat_no_such_value");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  pv_values_view_set_filter_text (values, "");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, (guint) g->n_values);

  /* The search entry filters too (after its typing delay). */
  gtk_editable_set_text (GTK_EDITABLE (find_widget (GTK_WIDGET (values), GTK_TYPE_SEARCH_ENTRY)), "Concat");
  for (int i = 0; i < 100 && g_list_model_get_n_items (model) != (guint) expected; i++)
    spin (20);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, (guint) expected);
  show_page (GTK_WIDGET (values));
}

static void
test_row_selects_timeline (Fixture *fx, gconstpointer data)
{
  PvValuesView *values = values_view (fx);
  PvInspector *insp = inspector (fx);
  const PvGraph *g = graph (fx);
  int v = output_of (fx, "Concat");
  const PvTimelineSelection *sel;
  const guint *consumers;
  guint n_consumers = 0;
  g_autofree char *producer = node_text (g, g->values[v].producer), *title = NULL;
  GtkWidget *button;

  gtk_single_selection_set_selected (pv_values_view_get_selection_model (values), row_of (values, v));
  sel = pv_timeline_view_get_selection (fx->view);
  g_assert_cmpint (sel->kind, ==, PV_TIMELINE_HIT_VALUE);
  g_assert_cmpint (sel->id, ==, v);

  /* The inspector shows it, with its producer and consumers as links. */
  title = g_strdup_printf ("Value %s", g->values[v].name);
  g_assert_cmpstr (pv_inspector_get_title (insp), ==, title);
  g_assert_nonnull (find_button (GTK_WIDGET (insp), producer));
  consumers = pv_graph_value_consumers (g, v, &n_consumers);
  g_assert_cmpuint (n_consumers, >, 0);
  for (guint i = 0; i < n_consumers; i++)
    {
      g_autofree char *text = node_text (g, (int) consumers[i]);
      g_assert_nonnull (find_button (GTK_WIDGET (insp), text));
    }

  /* A consumer link selects that kernel; the table keeps its row. */
  {
    g_autofree char *text = node_text (g, (int) consumers[0]);
    button = find_button (GTK_WIDGET (insp), text);
    g_signal_emit_by_name (button, "clicked");
  }
  sel = pv_timeline_view_get_selection (fx->view);
  g_assert_cmpint (sel->kind, ==, PV_TIMELINE_HIT_KERNEL);
  g_assert_cmpint (sel->id, ==, (int) consumers[0]);
  g_assert_true (g_str_has_prefix (pv_inspector_get_title (insp), "Kernel "));
  g_assert_cmpint (pv_values_view_get_selected_value (values), ==, v);

  /* Its output link goes back to the value. */
  button = find_button (GTK_WIDGET (insp), g->values[g->nodes[consumers[0]].outputs[0]].name);
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  sel = pv_timeline_view_get_selection (fx->view);
  g_assert_cmpint (sel->kind, ==, PV_TIMELINE_HIT_VALUE);
  g_assert_cmpint (sel->id, ==, g->nodes[consumers[0]].outputs[0]);
  g_assert_cmpint (pv_values_view_get_selected_value (values), ==, sel->id);

  /* An initializer is not drawn in the timeline: the inspector shows it
   * anyway, and its consumer links still work. */
  {
    int w = 0;
    g_autofree char *w_title = NULL;
    while (w < g->n_values && !(g->values[w].flags & PV_VALUE_INITIALIZER))
      w++;
    g_assert_cmpint (w, <, g->n_values);
    w_title = g_strdup_printf ("Value %s", g->values[w].name);
    gtk_single_selection_set_selected (pv_values_view_get_selection_model (values), row_of (values, w));
    g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->kind, ==, PV_TIMELINE_HIT_NONE);
    g_assert_cmpstr (pv_inspector_get_title (insp), ==, w_title);
  }

  /* Back to the Concat output for the screenshot. */
  gtk_single_selection_set_selected (pv_values_view_get_selection_model (values), row_of (values, v));
  show_page (GTK_WIDGET (insp));
}

static void
test_timeline_selects_row (Fixture *fx, gconstpointer data)
{
  PvValuesView *values = values_view (fx);
  const PvGraph *g = graph (fx);
  PvTimelineMemory *mem = &pv_timeline_view_get_model (fx->view)->memory[pv_timeline_view_get_memory_view (fx->view)];
  PvTimelineSelection sel = { PV_TIMELINE_HIT_VALUE, -1 };
  PvTimelineSelection kernel = { PV_TIMELINE_HIT_KERNEL, 0 };

  /* The last value drawn in the memory view, sorted by bytes so that its
   * row is somewhere else than its value id. */
  gtk_column_view_sort_by_column (pv_values_view_get_column_view (values),
                                  pv_values_view_get_column (values, PV_VALUE_FIELD_BYTES), GTK_SORT_ASCENDING);
  g_assert_cmpint (mem->n_bars, >, 1);
  sel.id = mem->bars[mem->n_bars - 1].value;
  pv_timeline_view_set_selection (fx->view, &sel);
  g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->id, ==, sel.id);
  g_assert_cmpint (pv_values_view_get_selected_value (values), ==, sel.id);
  g_assert_cmpuint (gtk_single_selection_get_selected (pv_values_view_get_selection_model (values)), ==,
                    row_of (values, sel.id));
  g_assert_cmpstr (pv_inspector_get_title (inspector (fx)) + strlen ("Value "), ==, g->values[sel.id].name);

  /* A kernel keeps the row; the inspector follows the timeline. */
  pv_timeline_view_set_selection (fx->view, &kernel);
  g_assert_cmpint (pv_values_view_get_selected_value (values), ==, sel.id);
  g_assert_true (g_str_has_prefix (pv_inspector_get_title (inspector (fx)), "Kernel "));
  pv_timeline_view_clear_selection (fx->view);
  g_assert_null (pv_inspector_get_title (inspector (fx)));
  /* Esc on the timeline (clearing its selection) clears the row too. */
  g_assert_cmpint (pv_values_view_get_selected_value (values), ==, -1);
  g_assert_cmpuint (gtk_single_selection_get_selected (pv_values_view_get_selection_model (values)), ==,
                    GTK_INVALID_LIST_POSITION);
  /* Esc in the page (its binding) clears both. */
  pv_timeline_view_set_selection (fx->view, &sel);
  g_assert_cmpint (pv_values_view_get_selected_value (values), ==, sel.id);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (values), "values.clear-selection", NULL));
  g_assert_cmpint (pv_values_view_get_selected_value (values), ==, -1);
  g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->kind, ==, PV_TIMELINE_HIT_NONE);

  pv_timeline_view_set_selection (fx->view, &sel);
  show_page (GTK_WIDGET (values));

  /* Shown, the table has scrolled to the row (it is near the end). */
  {
    GtkAdjustment *adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (pv_values_view_get_column_view (values)));
    guint n = g_list_model_get_n_items (rows (values)), pos = row_of (values, sel.id);
    double row_height = gtk_adjustment_get_upper (adj) / n;
    g_assert_cmpuint (pos, >, n / 2);
    /* The scroll waits for the page's first layout: give a loaded machine time. */
    for (int i = 0; i < 200 && gtk_adjustment_get_value (adj) <= 0; i++)
      spin (20);
    g_assert_cmpfloat (gtk_adjustment_get_value (adj), >, 0);
    g_assert_cmpfloat (pos * row_height, >=, gtk_adjustment_get_value (adj) - 1);
    g_assert_cmpfloat ((pos + 1) * row_height, <=,
                       gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj) + 1);
  }
}

static void
test_marks (Fixture *fx, gconstpointer data)
{
  PvInspector *insp = inspector (fx);
  PvTimelineModel *m;
  PvTimelineSelection sel = { PV_TIMELINE_HIT_MARK, -1 };
  guint before = fx->plan_changes;

  type_second_stream (fx);
  wait_for_plan (fx, before);
  m = pv_timeline_view_get_model (fx->view);
  g_assert_cmpint (m->n_streams, ==, 2);
  g_assert_cmpint (m->n_arrows, >, 0);

  /* A waiting mark shows the step it waits for, as a link. */
  sel.id = m->arrows[0].to_mark;
  pv_timeline_view_set_selection (fx->view, &sel);
  {
    const PvTimelineMark *to = &m->marks[m->arrows[0].to_mark], *from = &m->marks[m->arrows[0].from_mark];
    g_autofree char *other = g_strdup_printf ("%s %d · stream %d step %d · %s", pv_timeline_mark_kind_name (from->kind),
                                              from->id, from->lane, from->step, m->graph->nodes[from->node].name);
    g_autofree char *title = g_strdup_printf ("%s %d", pv_timeline_mark_kind_name (to->kind), to->id);
    GtkWidget *button;
    g_assert_true (g_str_has_suffix (pv_inspector_get_title (insp), title));
    button = find_button (GTK_WIDGET (insp), other);
    g_assert_nonnull (button);
    g_signal_emit_by_name (button, "clicked");
    g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->kind, ==, PV_TIMELINE_HIT_MARK);
    g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->id, ==, m->arrows[0].from_mark);

    /* The kernel of the waiting step lists its sync steps. */
    sel.kind = PV_TIMELINE_HIT_KERNEL;
    sel.id = to->node;
    pv_inspector_select (insp, &sel);
    g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->kind, ==, PV_TIMELINE_HIT_KERNEL);
    g_assert_nonnull (find_button (GTK_WIDGET (insp), other));
  }
  show_page (GTK_WIDGET (insp));
}

static void
test_replan_keeps_selection (Fixture *fx, gconstpointer data)
{
  PvValuesView *values = values_view (fx);
  const PvGraph *g = graph (fx);
  int v = output_of (fx, "Concat");
  const char *name = g->values[v].name;
  guint before = fx->plan_changes;
  PvTimelineModel *old_model = pv_timeline_view_get_model (fx->view);

  gtk_column_view_sort_by_column (pv_values_view_get_column_view (values),
                                  pv_values_view_get_column (values, PV_VALUE_FIELD_BYTES), GTK_SORT_DESCENDING);
  pv_values_view_set_filter_text (values, "c");
  gtk_single_selection_set_selected (pv_values_view_get_selection_model (values), row_of (values, v));
  g_assert_cmpint (pv_values_view_get_selected_value (values), ==, v);

  type_second_stream (fx);
  wait_for_plan (fx, before);
  g_assert_true (pv_timeline_view_get_model (fx->view) != old_model);
  g_assert_cmpint (pv_timeline_view_get_model (fx->view)->n_streams, ==, 2);

  /* Same value selected, same filter and sort, rows from the new plan. */
  g_assert_cmpint (pv_values_view_get_selected_value (values), ==, pv_graph_find_value (graph (fx), name));
  {
    GListModel *model = rows (values);
    guint64 previous = G_MAXUINT64;
    for (guint i = 0; i < g_list_model_get_n_items (model); i++)
      {
        g_autoptr (PvValueRow) row = g_list_model_get_item (model, i);
        g_assert_true (pv_value_row_matches (row, "c"));
        g_assert_cmpuint (pv_value_row_get_bytes (row), <=, previous);
        previous = pv_value_row_get_bytes (row);
      }
  }
  /* The rows show the new plan: the buffer ORT now gives the value. */
  {
    const PvSession *s = pv_document_get_plan_session (fx->document);
    int oi = graph (fx)->values[v].ort_index;
    g_autoptr (PvValueRow) row = g_list_model_get_item (rows (values), row_of (values, v));
    g_autofree char *place = NULL;
    while (s->ort->values[oi].reused_buffer != oi && s->ort->values[oi].reused_buffer >= 0)
      oi = s->ort->values[oi].reused_buffer;
    place = g_strdup_printf ("buffer %d", oi);
    g_assert_cmpstr (pv_value_row_get_text (row, PV_VALUE_FIELD_PLACE), ==, place);
    g_assert_cmpstr (pv_value_row_get_text (row, PV_VALUE_FIELD_KIND), ==,
                     pv_ort_alloc_kind_name (s->ort->values[graph (fx)->values[v].ort_index].kind));
  }
  g_assert_true (g_str_has_suffix (pv_values_view_get_count_text (values), " values"));
  g_assert_true (strstr (pv_values_view_get_count_text (values), " of ") != NULL);
  /* The timeline kept the value too, and the inspector shows it. */
  g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->kind, ==, PV_TIMELINE_HIT_VALUE);
  g_assert_cmpint (pv_inspector_get_shown (inspector (fx)).id, ==, v);
  show_page (GTK_WIDGET (values));
}

/* Re-populates the page by switching planners; returns the best of five
 * page times, and of the list times in @list_best. */
static double
best_repopulate (Fixture *fx, PvValuesView *values, double *list_best)
{
  double best = G_MAXDOUBLE, list_ms;

  *list_best = G_MAXDOUBLE;
  for (int i = 0; i < 5; i++)
    {
      PvPlannerKind planner = pv_document_get_planner (fx->document);
      pv_document_set_planner (fx->document, planner == PV_PLANNER_SLOTS ? PV_PLANNER_ARENA : PV_PLANNER_SLOTS);
      best = MIN (best, pv_values_view_get_build_ms (values, &list_ms));
      *list_best = MIN (*list_best, list_ms);
    }
  return best;
}

static double
timed_filter (PvValuesView *values, const char *text)
{
  gint64 t0 = g_get_monotonic_time ();
  pv_values_view_set_filter_text (values, text);
  return (g_get_monotonic_time () - t0) / 1000.0;
}

static void
test_bench (Fixture *fx, gconstpointer data)
{
  const char *path = g_getenv ("PV_BIG_MODEL");
  PvValuesView *values = values_view (fx);
  g_autoptr (GFile) file = NULL;
  guint before = fx->plan_changes;
  gint64 t0;
  double list_ms, page_ms, sort_ms, filter_ms, narrow_ms, clear_ms;
  guint n;

  if (path == NULL)
    {
      g_test_skip ("set PV_BIG_MODEL to a large model to measure");
      return;
    }
  file = g_file_new_for_path (path);
  pv_window_open (fx->window, file, NULL);
  wait_for_plan (fx, before);
  n = (guint) graph (fx)->n_values;
  g_assert_cmpuint (g_list_model_get_n_items (rows (values)), ==, n);
  page_ms = pv_values_view_get_build_ms (values, &list_ms);
  g_test_message ("values: %u rows; loaded: list %.1f ms, page %.1f ms", n, list_ms, page_ms);
  show_page (GTK_WIDGET (values));

  page_ms = best_repopulate (fx, values, &list_ms);
  g_test_message ("values: best of 5 re-plans: list %.1f ms, page %.1f ms (unsorted, unfiltered)", list_ms,
                  page_ms);
  t0 = g_get_monotonic_time ();
  gtk_column_view_sort_by_column (pv_values_view_get_column_view (values),
                                  pv_values_view_get_column (values, PV_VALUE_FIELD_BYTES), GTK_SORT_DESCENDING);
  sort_ms = (g_get_monotonic_time () - t0) / 1000.0;
  filter_ms = timed_filter (values, "MatMul");
  g_assert_cmpuint (g_list_model_get_n_items (rows (values)), >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (rows (values)), <, n);
  narrow_ms = timed_filter (values, "MatMul_output");
  g_test_message ("values: sort by bytes %.1f ms; filter \"MatMul\" %.1f ms; narrowed to \"MatMul_output\" "
                  "%.1f ms (%s)", sort_ms, filter_ms, narrow_ms, pv_values_view_get_count_text (values));
  page_ms = best_repopulate (fx, values, &list_ms);
  g_test_message ("values: re-populated sorted and filtered: list %.1f ms (with search texts), page %.1f ms",
                  list_ms, page_ms);
  clear_ms = timed_filter (values, "");
  g_test_message ("values: filter cleared %.1f ms", clear_ms);
  g_assert_cmpuint (g_list_model_get_n_items (rows (values)), ==, n);
}

int
main (int argc, char **argv)
{
  gui_fixture_init (&argc, &argv);

  ADD ("/values/rows", test_rows, NULL);
  ADD ("/values/columns-scroll", test_columns_scroll, NULL);
  ADD ("/values/sort", test_sort, NULL);
  ADD ("/values/filter", test_filter, NULL);
  ADD ("/values/row-selects-timeline", test_row_selects_timeline, NULL);
  ADD ("/values/timeline-selects-row", test_timeline_selects_row, NULL);
  ADD ("/values/replan", test_replan_keeps_selection, NULL);
  ADD ("/inspector/marks", test_marks, NULL);
  ADD ("/values/bench", test_bench, NULL);

  return gui_fixture_run ();
}
