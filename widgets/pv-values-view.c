/* pv-values-view.c: the side pane's Values page.
 *
 * Models: PvValueList (the plan session's values, rows made on demand) ->
 * GtkSortListModel (the column view's sorter) -> GtkFilterListModel (the
 * search text) -> GtkSingleSelection. Sorting before filtering means typing
 * in the search entry never re-sorts. */
#include "pv-values-view.h"

#include <string.h>

#include "pv-format.h"

struct _PvValuesView
{
  PvSidePage parent_instance;

  /* template children */
  GtkWidget *box;
  GtkSearchEntry *search;
  GtkLabel *count_label;
  GtkColumnView *column_view;

  GtkColumnViewColumn *columns[PV_VALUE_N_FIELDS];

  PvValueList *list;
  GtkSortListModel *sorted;
  GtkFilterListModel *filtered;
  GtkFilter *filter;
  GtkSingleSelection *selection;
  GHashTable *bound;         /* cell labels showing a row, to refresh in place */

  char *needle;              /* lower-cased filter text, NULL: none */
  char *selected_name;       /* the value the user selected, kept across re-plans */
  char *count_text;
  guint built_for_plan;      /* the document's n_plans the list was made from */
  double list_ms;            /* making the PvValueList */
  double build_ms;           /* all of the last re-population */
  gboolean updating;         /* changing models or selection ourselves */
  gboolean syncing;          /* setting the timeline's selection ourselves */
  gboolean setting_entry;    /* set_filter_text() writing the search entry */
  gboolean scroll_pending;   /* scroll to the selected row once shown */
  guint scroll_idle;         /* the pending scroll attempt */
  guint scroll_tries;        /* frames waited for measured rows */
};

G_DEFINE_FINAL_TYPE (PvValuesView, pv_values_view, PV_TYPE_SIDE_PAGE)

enum {
  VALUE_SELECTED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static const struct {
  const char *title;
  int width;                 /* fixed width; the name column expands. Value,
                              * producer, shape and bytes fit the side pane. */
  float xalign;
  PangoEllipsizeMode ellipsize;
} column_info[PV_VALUE_N_FIELDS] = {
  [PV_VALUE_FIELD_NAME] = { "Value", 190, 0, PANGO_ELLIPSIZE_MIDDLE },
  [PV_VALUE_FIELD_PRODUCER] = { "Producer", 120, 0, PANGO_ELLIPSIZE_END },
  [PV_VALUE_FIELD_SHAPE] = { "Shape", 120, 0, PANGO_ELLIPSIZE_END },
  [PV_VALUE_FIELD_BYTES] = { "Bytes", 80, 1, PANGO_ELLIPSIZE_START },
  [PV_VALUE_FIELD_KIND] = { "Kind", 130, 0, PANGO_ELLIPSIZE_END },
  [PV_VALUE_FIELD_PLACE] = { "Buffer", 80, 1, PANGO_ELLIPSIZE_START },
  [PV_VALUE_FIELD_LIVE] = { "Live", 80, 1, PANGO_ELLIPSIZE_START },
};

GtkWidget *
pv_values_view_new (void)
{
  return g_object_new (PV_TYPE_VALUES_VIEW, NULL);
}

/* ---- counting and finding rows ---- */

static void
update_count (PvValuesView *self)
{
  guint total = self->list ? g_list_model_get_n_items (G_LIST_MODEL (self->list)) : 0;
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
  g_autofree char *a = pv_format_count (shown), *b = pv_format_count (total);

  g_free (self->count_text);
  if (self->list == NULL)
    self->count_text = g_strdup ("No plan");
  else if (self->needle == NULL)
    self->count_text = g_strdup_printf ("%s value%s", b, total == 1 ? "" : "s");
  else
    self->count_text = g_strdup_printf ("%s of %s values", a, b);
  gtk_label_set_text (self->count_label, self->count_text);
}

/* Position of value @value among the rows shown, or GTK_INVALID_LIST_POSITION. */
static guint
find_position (PvValuesView *self, int value)
{
  GListModel *model = G_LIST_MODEL (self->filtered);
  guint n = g_list_model_get_n_items (model);

  if (value < 0)
    return GTK_INVALID_LIST_POSITION;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (PvValueRow) row = g_list_model_get_item (model, i);
      if (pv_value_row_get_value (row) == value)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

/* The column view's inner list view: GTK 4.8 has no
 * gtk_column_view_scroll_to(), but GtkListBase's "list.scroll-to-item"
 * action does the job. */
static GtkWidget *
inner_list_view (PvValuesView *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view)); child;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;
  return NULL;
}

static void queue_scroll (PvValuesView *self);

/* Selects the row of @value (without telling the timeline) and scrolls to
 * it; FALSE when it is not shown. */
static gboolean
select_value (PvValuesView *self, int value, gboolean scroll)
{
  guint pos = find_position (self, value);

  self->updating = TRUE;
  gtk_single_selection_set_selected (self->selection, pos);
  self->updating = FALSE;
  if (pos == GTK_INVALID_LIST_POSITION)
    return FALSE;
  if (scroll)
    queue_scroll (self);
  return TRUE;
}

/* Shows the selected row, or the first rows. scroll-to-item also makes
 * the row GTK's focus tracker, which slows every later filter change: for
 * the top, move the adjustment. */
static void
scroll_now (PvValuesView *self)
{
  GtkWidget *list_view = inner_list_view (self);
  guint pos = gtk_single_selection_get_selected (self->selection);

  if (pos != GTK_INVALID_LIST_POSITION)
    gtk_widget_activate_action (list_view, "list.scroll-to-item", "u", pos);
  else
    gtk_adjustment_set_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->column_view)), 0);
}

static gboolean
scroll_idle_cb (gpointer data)
{
  PvValuesView *self = data;
  GtkWidget *list_view = inner_list_view (self);

  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->column_view));

  if (!self->scroll_pending || list_view == NULL || !gtk_widget_get_mapped (list_view))
    {
      self->scroll_idle = 0;
      return G_SOURCE_REMOVE;
    }
  /* Rows not measured yet (a loaded machine, a fresh sort): GTK would warn
   * and ignore the scroll, so try again on a later frame. */
  if (gtk_adjustment_get_upper (adjustment) <= 0 && self->scroll_tries++ < 60)
    return G_SOURCE_CONTINUE;
  self->scroll_idle = 0;
  self->scroll_tries = 0;
  self->scroll_pending = FALSE;
  scroll_now (self);
  return G_SOURCE_REMOVE;
}

/* Scrolls once the list has laid out its new rows (GTK 4.8's list view
 * cannot scroll to rows it has not measured yet: a default-priority idle
 * runs after the frame clock's layout); a hidden page scrolls when shown. */
static void
queue_scroll (PvValuesView *self)
{
  self->scroll_pending = TRUE;
  if (self->scroll_idle == 0 && gtk_widget_get_mapped (GTK_WIDGET (self)))
    self->scroll_idle = g_timeout_add (16, scroll_idle_cb, self);
}

/* After the first layout of the shown page (default idle runs after the
 * frame clock's layout). */
static void
pv_values_view_map (GtkWidget *widget)
{
  PvValuesView *self = PV_VALUES_VIEW (widget);

  GTK_WIDGET_CLASS (pv_values_view_parent_class)->map (widget);
  if (self->scroll_pending && self->scroll_idle == 0)
    self->scroll_idle = g_timeout_add (16, scroll_idle_cb, self);
}

/* Selects the value called selected_name again, if it is still there. */
static void
restore_selection (PvValuesView *self)
{
  int value = self->list && self->selected_name ? pv_value_list_find_name (self->list, self->selected_name) : -1;

  select_value (self, value, TRUE);
}

/* ---- filtering ---- */

static gboolean
filter_func (gpointer item, gpointer user_data)
{
  PvValuesView *self = user_data;
  return pv_value_row_matches (item, self->needle);
}

void
pv_values_view_set_filter_text (PvValuesView *self, const char *text)
{
  g_autofree char *needle = NULL;
  GtkFilterChange change = GTK_FILTER_CHANGE_DIFFERENT;
  gint64 t0 = g_get_monotonic_time ();

  g_return_if_fail (PV_IS_VALUES_VIEW (self));

  /* Setting the entry's text empties it first, which it reports at once. */
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search)), text ? text : "") != 0)
    {
      self->setting_entry = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->search), text ? text : "");
      self->setting_entry = FALSE;
    }
  if (text && text[0])
    needle = g_ascii_strdown (text, -1);
  if (g_strcmp0 (needle, self->needle) == 0)
    return;
  if (needle && self->needle)
    change = strstr (needle, self->needle) ? GTK_FILTER_CHANGE_MORE_STRICT
           : strstr (self->needle, needle) ? GTK_FILTER_CHANGE_LESS_STRICT
                                           : GTK_FILTER_CHANGE_DIFFERENT;
  g_free (self->needle);
  self->needle = g_steal_pointer (&needle);
  if (self->needle && self->list)
    pv_value_list_prepare_search (self->list);

  self->updating = TRUE;
  if (self->needle == NULL)
    gtk_filter_list_model_set_filter (self->filtered, NULL);
  else if (gtk_filter_list_model_get_filter (self->filtered) == NULL)
    gtk_filter_list_model_set_filter (self->filtered, self->filter);
  else
    gtk_filter_changed (self->filter, change);
  self->updating = FALSE;
  restore_selection (self);
  update_count (self);
  g_debug ("values: filter \"%s\" in %.1f ms", text ? text : "", (g_get_monotonic_time () - t0) / 1000.0);
}

/* A header click re-sorted: GTK keeps the top row in place, which hides
 * the new first rows. Show the selected row, or the first. */
static void
sorter_changed_cb (PvValuesView *self)
{
  if (!self->updating)
    queue_scroll (self);
}

static void
search_changed_cb (PvValuesView *self, GtkSearchEntry *entry)
{
  if (self->setting_entry)
    return;
  pv_values_view_set_filter_text (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

/* ---- populating ---- */

static void
update_place_title (PvValuesView *self)
{
  PvDocument *document = pv_side_page_get_document (PV_SIDE_PAGE (self));
  PvPlannerKind planner = document ? pv_document_get_planner (document) : PV_PLANNER_ORT;

  gtk_column_view_column_set_title (self->columns[PV_VALUE_FIELD_PLACE],
                                    planner == PV_PLANNER_ORT ? "Buffer"
                                    : planner == PV_PLANNER_SLOTS ? "Slot" : "Offset");
}

/* Cheap on purpose: a few hundred cells are bound at a time, and all of
 * them again after every filter keystroke. */
static void
set_cell_text (GtkLabel *label, PvValueRow *row)
{
  PvValueField field = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (label), "pv-field"));
  const char *text = pv_value_row_get_text (row, field);

  if (strcmp (gtk_label_get_text (label), text) != 0)
    gtk_label_set_text (label, text);
}

/* Long names, producers and shapes are ellipsized: the whole text as a
 * tooltip, made when asked for. */
static gboolean
cell_query_tooltip_cb (GtkWidget *label, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  if (!pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))))
    return FALSE;
  gtk_tooltip_set_text (tooltip, gtk_label_get_text (GTK_LABEL (label)));
  return TRUE;
}

/* After pv_value_list_update(): the cells on screen re-read their rows,
 * the sort runs again (numbers changed), the filter when some kind
 * changed, and the selection stays on its row. */
static void
refresh_in_place (PvValuesView *self, gboolean search_changed)
{
  GHashTableIter iter;
  gpointer label;

  g_hash_table_iter_init (&iter, self->bound);
  while (g_hash_table_iter_next (&iter, &label, NULL))
    set_cell_text (label, g_object_get_data (label, "pv-row"));

  self->updating = TRUE;
  if (gtk_sorter_get_order (gtk_column_view_get_sorter (self->column_view)) != GTK_SORTER_ORDER_NONE)
    gtk_sorter_changed (gtk_column_view_get_sorter (self->column_view), GTK_SORTER_CHANGE_DIFFERENT);
  if (self->needle && search_changed)
    {
      pv_value_list_prepare_search (self->list);
      gtk_filter_changed (self->filter, GTK_FILTER_CHANGE_DIFFERENT);
    }
  self->updating = FALSE;
  /* Re-sorting moves rows under the list's scroll position. */
  if (pv_values_view_get_selected_value (self) < 0)
    restore_selection (self);
  else
    select_value (self, pv_values_view_get_selected_value (self), TRUE);
  self->built_for_plan = pv_document_get_n_plans (pv_side_page_get_document (PV_SIDE_PAGE (self)));
  update_place_title (self);
  update_count (self);
}

static void
repopulate (PvValuesView *self)
{
  PvDocument *document = pv_side_page_get_document (PV_SIDE_PAGE (self));
  const PvSession *session = document ? pv_document_get_plan_session (document) : NULL;
  gint64 t0 = g_get_monotonic_time ();
  PvPlannerKind planner = document ? pv_document_get_planner (document) : PV_PLANNER_ORT;
  g_autoptr (PvValueList) old = NULL;
  gboolean search_changed = FALSE;

  /* A re-plan of the same graph: same rows, new numbers. */
  if (session && self->list && pv_value_list_update (self->list, session, planner, &search_changed))
    {
      refresh_in_place (self, search_changed);
      self->list_ms = self->build_ms = (g_get_monotonic_time () - t0) / 1000.0;
      g_debug ("values: %u rows updated in place in %.1f ms", g_list_model_get_n_items (G_LIST_MODEL (self->list)),
               self->build_ms);
      return;
    }
  old = g_steal_pointer (&self->list);
  if (old)
    pv_value_list_detach (old);
  if (session)
    {
      self->list = pv_value_list_new (session, planner);
      if (self->needle)
        pv_value_list_prepare_search (self->list);
    }
  self->list_ms = (g_get_monotonic_time () - t0) / 1000.0;
  self->built_for_plan = document ? pv_document_get_n_plans (document) : 0;

  self->updating = TRUE;
  gtk_sort_list_model_set_model (self->sorted, G_LIST_MODEL (self->list));
  self->updating = FALSE;
  restore_selection (self);
  update_place_title (self);
  update_count (self);
  self->build_ms = (g_get_monotonic_time () - t0) / 1000.0;
  g_debug ("values: %u rows: list %.1f ms, with sort, filter and view %.1f ms",
           self->list ? g_list_model_get_n_items (G_LIST_MODEL (self->list)) : 0, self->list_ms, self->build_ms);
}

static void
pv_values_view_document_changed (PvSidePage *page)
{
  repopulate (PV_VALUES_VIEW (page));
}

/* ---- selection in step with the timeline ---- */

static void
selected_cb (PvValuesView *self)
{
  PvTimelineView *timeline = pv_side_page_get_timeline (PV_SIDE_PAGE (self));
  PvValueRow *row;
  PvTimelineSelection sel = { PV_TIMELINE_HIT_VALUE, -1 };

  if (self->updating)
    return;
  row = gtk_single_selection_get_selected_item (self->selection);
  /* Re-sorting moves the selected row without changing it. */
  if (row == NULL || g_strcmp0 (pv_value_row_get_name (row), self->selected_name) == 0)
    return;
  g_free (self->selected_name);
  self->selected_name = g_strdup (pv_value_row_get_name (row));
  if (timeline == NULL)
    {
      g_signal_emit (self, signals[VALUE_SELECTED], 0, pv_value_row_get_value (row));
      return;
    }
  sel.id = pv_value_row_get_value (row);
  self->syncing = TRUE;
  pv_timeline_view_set_selection (timeline, &sel);
  pv_timeline_view_focus_selection (timeline);
  self->syncing = FALSE;
  g_signal_emit (self, signals[VALUE_SELECTED], 0, sel.id);
}

static void
timeline_selection_cb (PvValuesView *self)
{
  PvDocument *document = pv_side_page_get_document (PV_SIDE_PAGE (self));
  PvTimelineView *timeline = pv_side_page_get_timeline (PV_SIDE_PAGE (self));
  const PvTimelineSelection *sel;

  /* Ours, or the timeline dropping its selection while the document
   * re-plans: plan-changed restores the row by name next. */
  if (self->syncing || self->list == NULL ||
      (document && pv_document_get_n_plans (document) != self->built_for_plan))
    return;
  sel = pv_timeline_view_get_selection (timeline);
  /* Esc on the timeline: no value is selected any more (a kernel chosen
   * keeps the row, as a place to come back to). */
  if (sel->kind == PV_TIMELINE_HIT_NONE)
    {
      select_value (self, -1, FALSE);
      g_clear_pointer (&self->selected_name, g_free);
      return;
    }
  if (sel->kind != PV_TIMELINE_HIT_VALUE || sel->id < 0 ||
      (guint) sel->id >= g_list_model_get_n_items (G_LIST_MODEL (self->list)))
    return;
  if (select_value (self, sel->id, TRUE))
    {
      g_autoptr (PvValueRow) row = g_list_model_get_item (G_LIST_MODEL (self->list), sel->id);
      g_free (self->selected_name);
      self->selected_name = g_strdup (pv_value_row_get_name (row));
    }
}

/* values.clear-selection (Esc in the page): no row selected, and no value
 * on the timeline. */
static void
clear_selection_action (GtkWidget *widget, const char *name, GVariant *param)
{
  PvValuesView *self = PV_VALUES_VIEW (widget);
  PvTimelineView *timeline = pv_side_page_get_timeline (PV_SIDE_PAGE (self));

  select_value (self, -1, FALSE);
  g_clear_pointer (&self->selected_name, g_free);
  if (timeline && pv_timeline_view_get_selection (timeline)->kind == PV_TIMELINE_HIT_VALUE)
    pv_timeline_view_clear_selection (timeline);
}

/* ---- cells ---- */

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  PvValueField field = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "pv-field"));
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), column_info[field].xalign);
  gtk_label_set_ellipsize (GTK_LABEL (label), column_info[field].ellipsize);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  if (field == PV_VALUE_FIELD_NAME || field == PV_VALUE_FIELD_SHAPE)
    gtk_widget_add_css_class (label, "monospace");
  if (field == PV_VALUE_FIELD_BYTES || field == PV_VALUE_FIELD_PLACE || field == PV_VALUE_FIELD_LIVE)
    gtk_widget_add_css_class (label, "numeric");
  if (field == PV_VALUE_FIELD_NAME || field == PV_VALUE_FIELD_PRODUCER || field == PV_VALUE_FIELD_SHAPE)
    {
      gtk_widget_set_has_tooltip (label, TRUE);
      g_signal_connect (label, "query-tooltip", G_CALLBACK (cell_query_tooltip_cb), NULL);
    }
  g_object_set_data (G_OBJECT (label), "pv-field", GINT_TO_POINTER (field));
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, PvValuesView *self)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  PvValueRow *row = gtk_list_item_get_item (item);

  g_object_set_data (G_OBJECT (label), "pv-row", row);
  g_hash_table_add (self->bound, label);
  set_cell_text (GTK_LABEL (label), row);
}

static void
unbind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, PvValuesView *self)
{
  GtkWidget *label = gtk_list_item_get_child (item);

  g_hash_table_remove (self->bound, label);
  g_object_set_data (G_OBJECT (label), "pv-row", NULL);
}

static void
teardown_cell (GtkSignalListItemFactory *factory, GtkListItem *item, PvValuesView *self)
{
  GtkWidget *label = gtk_list_item_get_child (item);

  if (label && self->bound)
    g_hash_table_remove (self->bound, label);
}

static int
compare_rows (gconstpointer a, gconstpointer b, gpointer data)
{
  return gtk_ordering_from_cmpfunc (pv_value_row_compare ((PvValueRow *) a, (PvValueRow *) b,
                                                          GPOINTER_TO_INT (data)));
}

static void
add_columns (PvValuesView *self)
{
  for (int f = 0; f < PV_VALUE_N_FIELDS; f++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr (GtkSorter) sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows, GINT_TO_POINTER (f), NULL));
      GtkColumnViewColumn *column;

      g_object_set_data (G_OBJECT (factory), "pv-field", GINT_TO_POINTER (f));
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), self);
      g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), self);
      g_signal_connect (factory, "teardown", G_CALLBACK (teardown_cell), self);
      column = gtk_column_view_column_new (column_info[f].title, factory);
      gtk_column_view_column_set_sorter (column, sorter);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_fixed_width (column, column_info[f].width);
      gtk_column_view_column_set_expand (column, f == PV_VALUE_FIELD_NAME);
      gtk_column_view_append_column (self->column_view, column);
      self->columns[f] = column;
      g_object_unref (column);
    }
}

/* ---- public API ---- */

GtkSingleSelection *
pv_values_view_get_selection_model (PvValuesView *self)
{
  g_return_val_if_fail (PV_IS_VALUES_VIEW (self), NULL);
  return self->selection;
}

GtkColumnView *
pv_values_view_get_column_view (PvValuesView *self)
{
  g_return_val_if_fail (PV_IS_VALUES_VIEW (self), NULL);
  return self->column_view;
}

GtkColumnViewColumn *
pv_values_view_get_column (PvValuesView *self, PvValueField field)
{
  g_return_val_if_fail (PV_IS_VALUES_VIEW (self), NULL);
  g_return_val_if_fail ((guint) field < PV_VALUE_N_FIELDS, NULL);
  return self->columns[field];
}

const char *
pv_values_view_get_count_text (PvValuesView *self)
{
  g_return_val_if_fail (PV_IS_VALUES_VIEW (self), NULL);
  return self->count_text;
}

int
pv_values_view_get_selected_value (PvValuesView *self)
{
  PvValueRow *row;

  g_return_val_if_fail (PV_IS_VALUES_VIEW (self), -1);
  row = gtk_single_selection_get_selected_item (self->selection);
  return row ? pv_value_row_get_value (row) : -1;
}

double
pv_values_view_get_build_ms (PvValuesView *self, double *list_ms)
{
  g_return_val_if_fail (PV_IS_VALUES_VIEW (self), 0);
  if (list_ms)
    *list_ms = self->list_ms;
  return self->build_ms;
}

/* ---- GObject ---- */

static void
pv_values_view_dispose (GObject *object)
{
  PvValuesView *self = (PvValuesView *) object;

  g_clear_handle_id (&self->scroll_idle, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), PV_TYPE_VALUES_VIEW);
  g_clear_object (&self->selection);
  g_clear_object (&self->filter);
  g_clear_object (&self->list);
  G_OBJECT_CLASS (pv_values_view_parent_class)->dispose (object);
}

static void
pv_values_view_finalize (GObject *object)
{
  PvValuesView *self = (PvValuesView *) object;

  g_free (self->needle);
  g_free (self->selected_name);
  g_free (self->count_text);
  g_clear_pointer (&self->bound, g_hash_table_unref);
  G_OBJECT_CLASS (pv_values_view_parent_class)->finalize (object);
}

static void
pv_values_view_class_init (PvValuesViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pv_values_view_dispose;
  object_class->finalize = pv_values_view_finalize;
  PV_SIDE_PAGE_CLASS (klass)->document_changed = pv_values_view_document_changed;

  /* The user selected the row of a value (by id), after the timeline was
   * told (it refuses values it does not draw, such as initializers). */
  signals[VALUE_SELECTED] =
    g_signal_new ("value-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_INT);

  widget_class->map = pv_values_view_map;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/planviz/Planviz/ui/pv-values-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PvValuesView, box);
  gtk_widget_class_bind_template_child (widget_class, PvValuesView, search);
  gtk_widget_class_bind_template_child (widget_class, PvValuesView, count_label);
  gtk_widget_class_bind_template_child (widget_class, PvValuesView, column_view);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "pvvaluesview");
  gtk_widget_class_install_action (widget_class, "values.clear-selection", NULL, clear_selection_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "values.clear-selection", NULL);
}

static void
pv_values_view_init (PvValuesView *self)
{
  PvSidePage *page = PV_SIDE_PAGE (self);

  self->bound = g_hash_table_new (NULL, NULL);
  g_signal_group_connect_swapped (pv_side_page_get_document_signals (page), "plan-changed", G_CALLBACK (repopulate),
                                  self);
  g_signal_group_connect_swapped (pv_side_page_get_document_signals (page), "notify::planner",
                                  G_CALLBACK (repopulate), self);
  g_signal_group_connect_swapped (pv_side_page_get_timeline_signals (page), "selection-changed",
                                  G_CALLBACK (timeline_selection_cb), self);
  gtk_widget_init_template (GTK_WIDGET (self));
  add_columns (self);

  self->sorted = gtk_sort_list_model_new (NULL, g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  /* After the sort model's own handler (connected first). */
  g_signal_connect_object (gtk_column_view_get_sorter (self->column_view), "changed", G_CALLBACK (sorter_changed_cb),
                           self, G_CONNECT_SWAPPED);
  self->filter = GTK_FILTER (gtk_custom_filter_new (filter_func, self, NULL));
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (self->sorted), NULL);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->filtered));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_object (self->selection, "notify::selected", G_CALLBACK (selected_cb), self, G_CONNECT_SWAPPED);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

  update_place_title (self);
  update_count (self);
}
