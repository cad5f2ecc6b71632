/* pv-live-view.c: the live set at an instant and a span's figures (see the header). */
#include "pv-live-view.h"

#include "pv-live-export.h"
#include "pv-ort-plan.h"
#include "pv-schedule.h"

#define MAX_ROWS 1000      /* rows drawn; the rest are counted */
#define MAX_NAMES 40       /* born / dying names listed for a span */

struct _PvLiveView
{
  PvSidePage parent_instance;

  /* What is asked for: the graph shown (NULL: the main graph), the
   * instant (time < 0: none) and the span (t1 <= t0: none). */
  const PvGraph *graph;
  int device, range_device;
  double time, t0, t1;

  /* What is shown. */
  gboolean has_instant;
  GArray *values;             /* live value ids, largest first */
  guint64 total;
  GHashTable *row_texts;      /* value id -> row text */
  GHashTable *range_texts;    /* figure name -> text */

  /* template children */
  GtkWidget *scroller;
  GtkLabel *hint_label;
  GtkWidget *instant_box;
  GtkLabel *instant_heading;
  GtkLabel *total_label;
  GtkListBox *live_list;
  GtkWidget *range_box;
  GtkLabel *range_heading;
  GtkGrid *range_grid;
  GtkLabel *range_values;
};

G_DEFINE_FINAL_TYPE (PvLiveView, pv_live_view, PV_TYPE_SIDE_PAGE)

enum {
  CHANGED,
  VALUE_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Bytes are worded as `planviz-cli live` words them (GLib's IEC text,
 * "512 bytes" below one KiB), not as the other pages (pv_format_bytes). */
#define LIVE_SIZE_FLAGS G_FORMAT_SIZE_IEC_UNITS

/* The plan session of the graph asked for, NULL when it is not planned. */
static const PvSession *
shown_session (PvLiveView *self)
{
  PvDocument *document = pv_side_page_get_document (PV_SIDE_PAGE (self));

  if (document == NULL)
    return NULL;
  return pv_document_find_session (document, self->graph);
}

static void
clear_list (PvLiveView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->live_list))))
    gtk_list_box_remove (self->live_list, child);
  g_array_set_size (self->values, 0);
  g_hash_table_remove_all (self->row_texts);
  self->total = 0;
  self->has_instant = FALSE;
}

/* Where the planner puts @v: "ORT buffer 3 (kAllocate)", "slot 2", "offset 4096". */
static char *
place_text (const PvSession *s, PvPlannerKind kind, const gint64 *places, int v)
{
  int oi = s->graph->values[v].ort_index;
  const char *alloc = s->ort && oi >= 0 ? pv_ort_alloc_kind_name (s->ort->values[oi].kind) : NULL;

  switch (kind)
    {
    case PV_PLANNER_ORT:
      if (places[v] < 0)
        return g_strdup (alloc ? alloc : "no ORT buffer");
      return g_strdup_printf ("ORT buffer %" G_GINT64_FORMAT " (%s)", places[v], alloc ? alloc : "?");
    case PV_PLANNER_SLOTS:
      return places[v] >= 0 ? g_strdup_printf ("slot %" G_GINT64_FORMAT, places[v]) : g_strdup ("no slot");
    default:
      return places[v] >= 0 ? g_strdup_printf ("offset %" G_GINT64_FORMAT, places[v]) : g_strdup ("no offset");
    }
}

static GtkWidget *
make_label (const char *text, const char *css, double xalign)
{
  GtkWidget *label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), (float) xalign);
  if (css)
    gtk_widget_add_css_class (label, css);
  return label;
}

/* One row: bytes, share, the value's name, then producer, place, steps
 * and readers to come on a dim line. */
static GtkWidget *
make_row (PvLiveView *self, const PvSession *s, PvPlannerKind kind, const gint64 *places, int v, GPtrArray *readers)
{
  const PvGraph *g = s->graph;
  int producer = g->values[v].producer;
  guint64 bytes = s->schedule->value_bytes[v];
  const PvSpan *span = &s->schedule->value_spans[v];
  g_autofree char *size = g_format_size_full (bytes, LIVE_SIZE_FLAGS), *place = place_text (s, kind, places, v);
  double percent = self->total ? 100.0 * (double) bytes / self->total : 0.0;
  /* A small value is not nothing: "<0.1%" rather than "0.0%". */
  g_autofree char *share = percent > 0 && percent < 0.05 ? g_strdup ("<0.1%") : g_strdup_printf ("%.1f%%", percent);
  g_autofree char *by = producer >= 0 ? g_strdup_printf ("%s %s", g->nodes[producer].op_type, g->nodes[producer].name)
                                      : g_strdup ("graph input");
  g_autofree char *to_come = NULL, *detail = NULL;
  GtkWidget *row = gtk_list_box_row_new (), *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 1), *name, *line;

  g_ptr_array_add (readers, NULL);
  to_come = readers->len > 1 ? g_strjoinv (", ", (char **) readers->pdata) : g_strdup ("none (graph output)");
  detail = g_strdup_printf ("by %s · %s · t %g–%g · readers to come: %s", by, place, span->start, span->end, to_come);
  gtk_box_append (GTK_BOX (box), make_label (size, "numeric", 1));
  gtk_widget_set_size_request (gtk_widget_get_last_child (box), 72, -1);
  gtk_box_append (GTK_BOX (box), make_label (share, "numeric", 1));
  gtk_widget_set_size_request (gtk_widget_get_last_child (box), 48, -1);
  name = make_label (g->values[v].name, NULL, 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_MIDDLE);
  line = make_label (detail, "dim-label", 0);
  gtk_widget_add_css_class (line, "caption");
  gtk_label_set_wrap (GTK_LABEL (line), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (line), PANGO_WRAP_WORD_CHAR);
  gtk_box_append (GTK_BOX (text), name);
  gtk_box_append (GTK_BOX (text), line);
  gtk_widget_set_hexpand (text, TRUE);
  gtk_box_append (GTK_BOX (box), text);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_widget_set_tooltip_text (row, g->values[v].name);
  g_object_set_data (G_OBJECT (row), "pv-value", GINT_TO_POINTER (v + 1)); /* 0: no value */
  g_hash_table_insert (self->row_texts, GINT_TO_POINTER (v),
                       g_strdup_printf ("%s  %s  %s  %s", size, share, g->values[v].name, detail));
  return row;
}

/* Why there is no list for the instant, or NULL (and the curve). */
static const char *
instant_problem (PvLiveView *self, const PvSession *s, const PvLiveCurve **curve)
{
  if (s == NULL)
    return "There is no plan of this graph yet.";
  if (s->schedule == NULL)
    return "ONNX Runtime would not run this config: there is no simulated run.";
  *curve = pv_schedule_curve (s->schedule, self->device);
  if (*curve == NULL)
    return "No value lives on this device.";
  return NULL;
}

static void
rebuild_instant (PvLiveView *self)
{
  const PvSession *s = shown_session (self);
  const PvLiveCurve *curve = NULL;
  const char *problem;
  g_autofree int *live = NULL;
  g_autofree gint64 *places = NULL;
  g_autofree char *total = NULL, *peak = NULL, *heading = NULL, *line = NULL;
  GPtrArray **readers;
  PvPlannerKind kind;
  int n_live = 0;
  gboolean at_peak;

  clear_list (self);
  gtk_widget_set_visible (self->instant_box, self->time >= 0);
  if (self->time < 0)
    return;
  if ((problem = instant_problem (self, s, &curve)))
    {
      gtk_label_set_text (self->instant_heading, "Live at an instant");
      gtk_label_set_text (self->total_label, problem);
      return;
    }
  kind = pv_document_get_planner (pv_side_page_get_document (PV_SIDE_PAGE (self)));
  live = pv_schedule_live_at (s->schedule, self->device, self->time, &n_live);
  places = pv_plan_value_places (s, kind);
  self->total = pv_live_curve_bytes_at (curve, self->time);
  self->has_instant = TRUE;
  g_array_append_vals (self->values, live, (guint) n_live);
  at_peak = self->time == curve->peak_time;
  total = g_format_size_full (self->total, LIVE_SIZE_FLAGS);
  peak = g_format_size_full (curve->peak_bytes, LIVE_SIZE_FLAGS);
  heading = g_strdup_printf ("Live at t %g%s on %s", self->time, at_peak ? " (the peak)" : "",
                             self->device ? "GPU" : "CPU");
  if (self->total >= 1024)
    {
      char *exact = g_strdup_printf ("%s (%" G_GUINT64_FORMAT " bytes)", total, self->total);
      g_free (total);
      total = exact;
    }
  line = g_strdup_printf ("%s in %d values; peak live %s at t %g", total, n_live, peak, curve->peak_time);
  gtk_label_set_text (self->instant_heading, heading);
  gtk_label_set_text (self->total_label, line);
  readers = pv_live_readers_to_come (s, live, n_live, self->time);
  for (int i = 0; i < n_live; i++)
    {
      if (i < MAX_ROWS)
        gtk_list_box_append (self->live_list, make_row (self, s, kind, places, live[i], readers[i]));
      g_ptr_array_unref (readers[i]);
    }
  g_free (readers);
  if (n_live > MAX_ROWS)
    {
      g_autofree char *more = g_strdup_printf ("and %d smaller values", n_live - MAX_ROWS);
      gtk_list_box_append (self->live_list, make_label (more, "dim-label", 0));
    }
}

static void
add_figure (PvLiveView *self, int row, const char *key, const char *value)
{
  GtkWidget *k = make_label (key, "dim-label", 0), *v = make_label (value, "numeric", 0);

  gtk_label_set_selectable (GTK_LABEL (v), TRUE);
  gtk_grid_attach (self->range_grid, k, 0, row, 1, 1);
  gtk_grid_attach (self->range_grid, v, 1, row, 1, 1);
  g_hash_table_insert (self->range_texts, g_strdup (key), g_strdup (value));
}

static void
add_bytes_figure (PvLiveView *self, int row, const char *key, guint64 bytes, const char *more)
{
  g_autofree char *size = g_format_size_full (bytes, LIVE_SIZE_FLAGS);
  g_autofree char *text = g_strdup_printf ("%s (%" G_GUINT64_FORMAT " bytes)%s", size, bytes, more ? more : "");
  add_figure (self, row, key, text);
}

/* "Born: a, b, … (and 12 more)" over the first MAX_NAMES of @values. */
static void
append_names (GString *out, const char *title, const PvGraph *g, const int *values, int n)
{
  g_string_append_printf (out, "%s%s (%d):", out->len ? "\n" : "", title, n);
  for (int i = 0; i < n && i < MAX_NAMES; i++)
    g_string_append_printf (out, "%s %s", i ? "," : "", g->values[values[i]].name);
  if (n > MAX_NAMES)
    g_string_append_printf (out, " and %d more", n - MAX_NAMES);
}

static void
rebuild_range (PvLiveView *self)
{
  const PvSession *s = shown_session (self);
  g_autoptr (PvScheduleRange) range = NULL;
  g_autoptr (GString) names = g_string_new (NULL);
  g_autofree char *heading = NULL, *count = NULL, *at = NULL, *ends = NULL, *start = NULL, *end = NULL;
  GtkWidget *child;
  int row = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->range_grid))))
    gtk_grid_remove (self->range_grid, child);
  g_hash_table_remove_all (self->range_texts);
  gtk_label_set_text (self->range_values, "");
  gtk_widget_set_visible (self->range_box, self->t1 > self->t0);
  if (self->t1 <= self->t0)
    return;
  heading = g_strdup_printf ("Span t %g–%g", self->t0, self->t1);
  gtk_label_set_text (self->range_heading, heading);
  if (s == NULL || s->schedule == NULL || pv_schedule_curve (s->schedule, self->range_device) == NULL)
    {
      gtk_label_set_text (self->range_values, "There is no simulated run of this plan to sum up.");
      return;
    }
  range = pv_schedule_range (s->schedule, s->graph, self->range_device, self->t0, self->t1);
  count = g_strdup_printf ("%d", range->n_kernels);
  add_figure (self, row++, "Kernels run", count);
  add_bytes_figure (self, row++, "Allocated", range->allocated, NULL);
  add_bytes_figure (self, row++, "Freed", range->freed, NULL);
  at = g_strdup_printf (" at t %g", range->peak_time);
  add_bytes_figure (self, row++, "Peak in span", range->peak_bytes, at);
  start = g_format_size_full (range->start_bytes, LIVE_SIZE_FLAGS);
  end = g_format_size_full (range->end_bytes, LIVE_SIZE_FLAGS);
  ends = g_strdup_printf ("%s → %s", start, end);
  add_figure (self, row++, "Live at start → end", ends);
  g_free (count);
  count = g_strdup_printf ("%d", range->n_born);
  add_figure (self, row++, "Values born", count);
  g_free (count);
  count = g_strdup_printf ("%d", range->n_dying);
  add_figure (self, row++, "Values dying", count);
  append_names (names, "Born", s->graph, range->born, range->n_born);
  append_names (names, "Dying", s->graph, range->dying, range->n_dying);
  gtk_label_set_text (self->range_values, names->str);
}

static void
rebuild (PvLiveView *self)
{
  rebuild_instant (self);
  rebuild_range (self);
  gtk_widget_set_visible (GTK_WIDGET (self->hint_label), self->time < 0 && self->t1 <= self->t0);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* A re-plan or another planner: the same instant and span, new figures.
 * A body no longer planned (closed, or gone from the model) drops them. */
static void
document_changed_cb (PvLiveView *self)
{
  if (self->graph && shown_session (self) == NULL)
    {
      self->graph = NULL;
      self->time = -1;
      self->t0 = self->t1 = 0;
    }
  rebuild (self);
}

static void
row_activated_cb (PvLiveView *self, GtkListBoxRow *row, GtkListBox *box)
{
  int v = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), "pv-value")) - 1;
  if (v >= 0)
    g_signal_emit (self, signals[VALUE_ACTIVATED], 0, v);
}

GtkWidget *
pv_live_view_new (void)
{
  return g_object_new (PV_TYPE_LIVE_VIEW, NULL);
}

/* Another document: nothing asked for yet. */
static void
pv_live_view_document_changed (PvSidePage *page)
{
  PvLiveView *self = PV_LIVE_VIEW (page);

  self->graph = NULL;
  self->time = -1;
  self->t0 = self->t1 = 0;
  rebuild (self);
}

void
pv_live_view_show_instant (PvLiveView *self, const PvGraph *graph, int device, double time)
{
  g_return_if_fail (PV_IS_LIVE_VIEW (self));

  if (graph != self->graph)
    self->t0 = self->t1 = 0;   /* a span of another graph */
  self->graph = graph;
  self->device = device;
  self->time = time >= 0 ? time : -1;
  rebuild (self);
}

void
pv_live_view_show_range (PvLiveView *self, const PvGraph *graph, int device, double t0, double t1)
{
  g_return_if_fail (PV_IS_LIVE_VIEW (self));

  if (graph != self->graph)
    self->time = -1;
  self->graph = graph;
  self->range_device = device;
  self->t0 = t1 > t0 ? t0 : 0;
  self->t1 = t1 > t0 ? t1 : 0;
  rebuild (self);
}

gboolean
pv_live_view_get_instant (PvLiveView *self, double *time, int *device)
{
  g_return_val_if_fail (PV_IS_LIVE_VIEW (self), FALSE);
  if (time)
    *time = self->time;
  if (device)
    *device = self->device;
  return self->has_instant;
}

const int *
pv_live_view_get_values (PvLiveView *self, guint *n_values)
{
  g_return_val_if_fail (PV_IS_LIVE_VIEW (self), NULL);
  *n_values = self->values->len;
  return (const int *) self->values->data;
}

guint64
pv_live_view_get_total (PvLiveView *self)
{
  g_return_val_if_fail (PV_IS_LIVE_VIEW (self), 0);
  return self->total;
}

char *
pv_live_view_dup_row_text (PvLiveView *self, int value)
{
  g_return_val_if_fail (PV_IS_LIVE_VIEW (self), NULL);
  return g_strdup (g_hash_table_lookup (self->row_texts, GINT_TO_POINTER (value)));
}

const char *
pv_live_view_get_range_value (PvLiveView *self, const char *key)
{
  g_return_val_if_fail (PV_IS_LIVE_VIEW (self), NULL);
  return g_hash_table_lookup (self->range_texts, key);
}

static void
pv_live_view_dispose (GObject *object)
{
  PvLiveView *self = PV_LIVE_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), PV_TYPE_LIVE_VIEW);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  G_OBJECT_CLASS (pv_live_view_parent_class)->dispose (object);
}

static void
pv_live_view_finalize (GObject *object)
{
  PvLiveView *self = PV_LIVE_VIEW (object);

  g_array_unref (self->values);
  g_hash_table_unref (self->row_texts);
  g_hash_table_unref (self->range_texts);
  G_OBJECT_CLASS (pv_live_view_parent_class)->finalize (object);
}

static void
pv_live_view_class_init (PvLiveViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pv_live_view_dispose;
  object_class->finalize = pv_live_view_finalize;
  PV_SIDE_PAGE_CLASS (klass)->document_changed = pv_live_view_document_changed;
  /* The instant or span shown changed (or its figures, after a re-plan). */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 0);
  /* A row was activated: the value id, for the window to select. */
  signals[VALUE_ACTIVATED] = g_signal_new ("value-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                           NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/planviz/Planviz/ui/pv-live-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PvLiveView, scroller);
  gtk_widget_class_bind_template_child (widget_class, PvLiveView, hint_label);
  gtk_widget_class_bind_template_child (widget_class, PvLiveView, instant_box);
  gtk_widget_class_bind_template_child (widget_class, PvLiveView, instant_heading);
  gtk_widget_class_bind_template_child (widget_class, PvLiveView, total_label);
  gtk_widget_class_bind_template_child (widget_class, PvLiveView, live_list);
  gtk_widget_class_bind_template_child (widget_class, PvLiveView, range_box);
  gtk_widget_class_bind_template_child (widget_class, PvLiveView, range_heading);
  gtk_widget_class_bind_template_child (widget_class, PvLiveView, range_grid);
  gtk_widget_class_bind_template_child (widget_class, PvLiveView, range_values);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "pvliveview");
}

static void
pv_live_view_init (PvLiveView *self)
{
  GSignalGroup *document_signals = pv_side_page_get_document_signals (PV_SIDE_PAGE (self));

  self->values = g_array_new (FALSE, FALSE, sizeof (int));
  g_signal_group_connect_swapped (document_signals, "plan-changed", G_CALLBACK (document_changed_cb), self);
  g_signal_group_connect_swapped (document_signals, "notify::planner", G_CALLBACK (document_changed_cb), self);
  self->row_texts = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->range_texts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->time = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
}
