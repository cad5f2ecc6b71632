/* pv-inspector.c: the side pane's Inspector page. The content is rebuilt
 * from scratch on every change: a heading, then sections of key / value
 * grids and link buttons. */
#include "pv-inspector.h"

#include "pv-element-type.h"
#include "pv-format.h"

struct _PvInspector
{
  PvSidePage parent_instance;

  PvTimelineSelection shown;

  GtkWidget *scroller;       /* template child */
  GtkWidget *content;        /* rebuilt on every change */
  char *title;
};

G_DEFINE_FINAL_TYPE (PvInspector, pv_inspector, PV_TYPE_SIDE_PAGE)

GtkWidget *
pv_inspector_new (void)
{
  return g_object_new (PV_TYPE_INSPECTOR, NULL);
}

/* ---- building blocks ---- */

static GtkWidget *
value_label (const char *text, gboolean mono)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_hexpand (label, TRUE);
  if (mono)
    gtk_widget_add_css_class (label, "monospace");
  return label;
}

static void
add_heading (PvInspector *self, const char *kind, const char *name)
{
  GtkWidget *caption = gtk_label_new (kind);
  GtkWidget *title = value_label (name, TRUE);

  gtk_label_set_xalign (GTK_LABEL (caption), 0);
  gtk_widget_add_css_class (caption, "dim-label");
  gtk_widget_add_css_class (caption, "caption-heading");
  gtk_widget_add_css_class (title, "title-4");
  gtk_widget_add_css_class (title, "pv-inspector-title");
  gtk_box_append (GTK_BOX (self->content), caption);
  gtk_box_append (GTK_BOX (self->content), title);
  g_free (self->title);
  self->title = g_strdup_printf ("%s %s", kind, name);
}

static GtkWidget *
add_section (PvInspector *self, const char *title)
{
  GtkWidget *label = gtk_label_new (title);
  GtkWidget *grid = gtk_grid_new ();

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_add_css_class (label, "pv-summary-heading");
  gtk_box_append (GTK_BOX (self->content), label);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_widget_add_css_class (grid, "pv-card");
  gtk_box_append (GTK_BOX (self->content), grid);
  return grid;
}

static int
grid_rows (GtkWidget *grid)
{
  int rows = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (grid); child; child = gtk_widget_get_next_sibling (child))
    {
      int row, height;
      gtk_grid_query_child (GTK_GRID (grid), child, NULL, &row, NULL, &height);
      rows = MAX (rows, row + height);
    }
  return rows;
}

/* A key and a widget on the next row of @grid. */
static void
add_widget_row (GtkWidget *grid, const char *key, GtkWidget *value)
{
  GtkWidget *k = gtk_label_new (key);
  int row = grid_rows (grid);

  gtk_label_set_xalign (GTK_LABEL (k), 0);
  gtk_widget_set_valign (k, GTK_ALIGN_BASELINE);
  gtk_widget_add_css_class (k, "dim-label");
  gtk_grid_attach (GTK_GRID (grid), k, 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), value, 1, row, 1, 1);
}

static void
add_row (GtkWidget *grid, const char *key, const char *value, gboolean mono)
{
  add_widget_row (grid, key, value_label (value, mono));
}

static void
link_clicked_cb (GtkButton *button, PvInspector *self)
{
  PvTimelineSelection sel;

  sel.kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "pv-kind"));
  sel.id = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "pv-id"));
  pv_inspector_select (self, &sel);
}

/* A flat button that selects (@kind, @id), with @detail after its text. */
static GtkWidget *
link_button (PvInspector *self, PvTimelineHitKind kind, int id, const char *text, const char *detail)
{
  GtkWidget *button = gtk_button_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (label, "monospace");
  gtk_box_append (GTK_BOX (box), label);
  if (detail)
    {
      GtkWidget *d = gtk_label_new (detail);
      gtk_widget_add_css_class (d, "dim-label");
      gtk_widget_add_css_class (d, "numeric");
      gtk_box_append (GTK_BOX (box), d);
    }
  gtk_button_set_child (GTK_BUTTON (button), box);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, "pv-link");
  gtk_widget_set_tooltip_text (button, text);
  gtk_widget_set_hexpand (button, TRUE);
  g_object_set_data (G_OBJECT (button), "pv-kind", GINT_TO_POINTER (kind));
  g_object_set_data (G_OBJECT (button), "pv-id", GINT_TO_POINTER (id));
  g_signal_connect_object (button, "clicked", G_CALLBACK (link_clicked_cb), self, 0);
  return button;
}

/* A vertical list of links, appended to the content under @title. */
static GtkWidget *
add_link_list (PvInspector *self, const char *title, int count)
{
  g_autofree char *heading = count >= 0 ? g_strdup_printf ("%s (%d)", title, count) : g_strdup (title);
  GtkWidget *label = gtk_label_new (heading);
  GtkWidget *list = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_add_css_class (label, "pv-summary-heading");
  gtk_widget_add_css_class (list, "pv-link-list");
  gtk_box_append (GTK_BOX (self->content), label);
  gtk_box_append (GTK_BOX (self->content), list);
  return list;
}

static void
add_note (GtkWidget *box, const char *text)
{
  GtkWidget *label = value_label (text, FALSE);

  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_margin_start (label, 12);
  gtk_box_append (GTK_BOX (box), label);
}

static char *
node_text (const PvGraph *g, int node)
{
  return g_strdup_printf ("%s · %s", g->nodes[node].op_type, g->nodes[node].name);
}

static char *
value_bytes_text (const PvSession *s, int v)
{
  return s->value_bytes && s->value_bytes[v] ? pv_format_bytes (s->value_bytes[v], TRUE) : g_strdup ("size unknown");
}

static void
add_value_link (PvInspector *self, GtkWidget *list, const PvSession *s, int v)
{
  g_autofree char *bytes = value_bytes_text (s, v);
  gtk_box_append (GTK_BOX (list), link_button (self, PV_TIMELINE_HIT_VALUE, v, s->graph->values[v].name, bytes));
}

static void
add_node_link (PvInspector *self, GtkWidget *list, const PvGraph *g, int node)
{
  g_autofree char *text = node_text (g, node);
  gtk_box_append (GTK_BOX (list), link_button (self, PV_TIMELINE_HIT_KERNEL, node, text, NULL));
}

/* ---- a value ---- */

static char *
shape_text (const PvSession *s, int v)
{
  const PvValueShape *shape = pv_shape_info_get (s->shapes, s->graph, v);
  GString *out;

  if (shape == NULL || shape->kind == PV_TYPE_UNKNOWN || (shape->kind == PV_TYPE_TENSOR && shape->rank < 0))
    return g_strdup ("unknown");
  if (shape->kind != PV_TYPE_TENSOR)
    return g_strdup ("not a tensor");
  out = g_string_new ("[");
  for (int i = 0; i < shape->rank; i++)
    {
      g_autofree char *d = pv_dim_to_string (shape->dims[i]);
      g_string_append_printf (out, "%s%s", i ? ", " : "", d);
    }
  g_string_append_c (out, ']');
  return g_string_free (out, FALSE);
}

static const char *
dtype_text (const PvSession *s, int v)
{
  const PvValueShape *shape = pv_shape_info_get (s->shapes, s->graph, v);

  if (shape == NULL)
    return "unknown";
  switch (shape->kind)
    {
    case PV_TYPE_TENSOR: return shape->elem_type ? pv_element_type_name (shape->elem_type) : "unknown";
    case PV_TYPE_SEQUENCE: return "sequence";
    case PV_TYPE_MAP: return "map";
    case PV_TYPE_OPTIONAL: return "optional";
    case PV_TYPE_SPARSE_TENSOR: return "sparse tensor";
    default: return "unknown";
    }
}

/* Where the planner shown puts @v: "buffer 12", "slot 3", "offset 4 KiB". */
static char *
place_text (const PvSession *s, PvPlannerKind planner, int v)
{
  const PvGraph *g = s->graph;
  int root = s->view_root[v];

  switch (planner)
    {
    case PV_PLANNER_ORT:
      {
        int oi = g->values[v].ort_index;
        if (s->ort == NULL || oi < 0 || oi >= s->ort->n_values)
          return NULL;
        oi = s->ort->values[oi].reused_buffer;  /* a root (pv-ort-plan.h) */
        return g_strdup_printf ("buffer %d (%s)", oi, g->values[s->ort->values[oi].value].name);
      }
    case PV_PLANNER_SLOTS:
      if (s->slots == NULL || s->slots->deferred || s->slots->slot_of[root] < 0)
        return NULL;
      return g_strdup_printf ("slot %d", s->slots->slot_of[root]);
    default:
      for (int i = 0; s->arena && i < s->n_arena_values; i++)
        if (s->arena_values[i] == root)
          return g_strdup_printf ("offset %" G_GUINT64_FORMAT " bytes", s->arena->offsets[i]);
      return NULL;
    }
}

static void
show_value (PvInspector *self, const PvSession *s, int v)
{
  const PvGraph *g = s->graph;
  const PvValue *value = &g->values[v];
  PvPlannerKind planner = pv_document_get_planner (pv_side_page_get_document (PV_SIDE_PAGE (self)));
  int oi = value->ort_index;
  const PvOrtValuePlan *vp = s->ort && oi >= 0 && oi < s->ort->n_values ? &s->ort->values[oi] : NULL;
  g_autofree char *shape = shape_text (s, v), *place = place_text (s, planner, v);
  GtkWidget *grid, *list;
  const guint *consumers;
  guint n_consumers = 0;

  add_heading (self, "Value", value->name);
  grid = add_section (self, "Details");
  add_row (grid, "Type", dtype_text (s, v), TRUE);
  add_row (grid, "Shape", shape, TRUE);
  if (s->value_bytes && s->value_bytes[v])
    {
      g_autofree char *bytes = pv_format_bytes (s->value_bytes[v], TRUE);
      add_row (grid, "Bytes", bytes, FALSE);
    }
  else
    add_row (grid, "Bytes", "unknown (bind the model's symbols)", FALSE);
  if (vp)
    add_row (grid, "Alloc kind", pv_ort_alloc_kind_name (vp->kind), FALSE);
  if (vp && vp->order_dependent)
    add_row (grid, "ORT 1.30",
             "chooses this value's buffer at random: its multi-stream pass walks hash maps seeded per process, so "
             "another run may allocate it or reuse another buffer (this plan is one of its choices)",
             FALSE);
  add_row (grid, planner == PV_PLANNER_ORT ? "Buffer" : planner == PV_PLANNER_SLOTS ? "Slot" : "Arena",
           place ? place : "not planned", FALSE);
  if (s->schedule && s->schedule->value_spans[v].start >= 0)
    {
      g_autofree char *live = g_strdup_printf ("%g – %g (schedule time)", s->schedule->value_spans[v].start,
                                               s->schedule->value_spans[v].end);
      add_row (grid, "Live", live, FALSE);
    }
  if (value->flags & (PV_VALUE_GRAPH_INPUT | PV_VALUE_GRAPH_OUTPUT | PV_VALUE_INITIALIZER))
    add_row (grid, "Role",
             (value->flags & PV_VALUE_INITIALIZER) ? "initializer"
             : (value->flags & PV_VALUE_GRAPH_INPUT) ? "graph input" : "graph output", FALSE);

  list = add_link_list (self, "Producer", -1);
  if (value->producer >= 0)
    add_node_link (self, list, g, value->producer);
  else
    add_note (list, "none: a graph input or an initializer");

  consumers = pv_graph_value_consumers (g, v, &n_consumers);
  list = add_link_list (self, "Consumers", (int) n_consumers);
  for (guint i = 0; i < n_consumers; i++)
    add_node_link (self, list, g, (int) consumers[i]);
  if (n_consumers == 0)
    add_note (list, "none");

  list = add_link_list (self, "Reuse", -1);
  if (s->view_source && s->view_source[v] >= 0)
    {
      add_note (list, "a view of (kernel Alias):");
      add_value_link (self, list, s, s->view_source[v]);
    }
  if (s->inplace_source && s->inplace_source[v] >= 0)
    {
      add_note (list, "may overwrite in place (MayInplace):");
      add_value_link (self, list, s, s->inplace_source[v]);
    }
  if (vp && vp->reused_buffer != oi && vp->reused_buffer >= 0 && vp->reused_buffer < s->ort->n_values)
    {
      add_note (list, vp->kind == PV_ORT_ALLOC_SHARE ? "ONNX Runtime shares the buffer of:"
                                                     : "ONNX Runtime reuses the buffer of:");
      add_value_link (self, list, s, s->ort->values[vp->reused_buffer].value);
    }
  if (gtk_widget_get_first_child (list) == NULL)
    add_note (list, "none: its own buffer");
}

/* ---- kernels and step marks ---- */

static const char *
mark_title (PvTimelineMarkKind kind)
{
  switch (kind)
    {
    case PV_TIMELINE_MARK_BARRIER: return "Barrier";
    case PV_TIMELINE_MARK_WAIT: return "Wait";
    case PV_TIMELINE_MARK_NOTIFY: return "Notification";
    default: return "Trigger";
    }
}

static char *
mark_text (const PvTimelineModel *m, int k)
{
  const PvTimelineMark *mk = &m->marks[k];
  return g_strdup_printf ("%s %d · stream %d step %d · %s", pv_timeline_mark_kind_name (mk->kind), mk->id, mk->lane,
                          mk->step, m->graph->nodes[mk->node].name);
}

/* Links to the marks at the other end of @k's arrows; their number. */
static int
add_other_ends (PvInspector *self, GtkWidget *list, const PvTimelineModel *m, int k)
{
  int n = 0;

  for (int i = 0; i < m->n_arrows; i++)
    {
      int other = m->arrows[i].from_mark == k ? m->arrows[i].to_mark
                : m->arrows[i].to_mark == k ? m->arrows[i].from_mark : -1;
      g_autofree char *text = NULL;
      if (other < 0)
        continue;
      text = mark_text (m, other);
      gtk_box_append (GTK_BOX (list), link_button (self, PV_TIMELINE_HIT_MARK, other, text, NULL));
      n++;
    }
  return n;
}

static const char *
other_end_title (PvTimelineMarkKind kind)
{
  switch (kind)
    {
    case PV_TIMELINE_MARK_BARRIER: return "Released by";
    case PV_TIMELINE_MARK_WAIT: return "Waits for";
    case PV_TIMELINE_MARK_NOTIFY: return "Waited on by";
    default: return "Releases";
    }
}

static void
show_mark (PvInspector *self, const PvTimelineModel *m, int k)
{
  const PvTimelineMark *mk = &m->marks[k];
  g_autofree char *title = g_strdup_printf ("%s %d", pv_timeline_mark_kind_name (mk->kind), mk->id);
  g_autofree char *step = g_strdup_printf ("%d", mk->step), *time = g_strdup_printf ("%g", mk->time);
  GtkWidget *grid, *list;

  add_heading (self, mark_title (mk->kind), title);
  grid = add_section (self, "Details");
  add_row (grid, "Stream", m->streams[mk->lane].label, FALSE);
  add_row (grid, "Step", step, FALSE);
  add_row (grid, "Time", time, FALSE);
  list = add_link_list (self, "Step of", -1);
  add_node_link (self, list, m->graph, mk->node);
  list = add_link_list (self, other_end_title (mk->kind), -1);
  if (add_other_ends (self, list, m, k) == 0)
    add_note (list, "no step on another stream");
}

static void
show_arrow (PvInspector *self, const PvTimelineModel *m, int a)
{
  const PvTimelineArrow *arrow = &m->arrows[a];
  g_autofree char *from = mark_text (m, arrow->from_mark), *to = mark_text (m, arrow->to_mark);
  GtkWidget *list;

  add_heading (self, "Arrow", arrow->kind == PV_TIMELINE_ARROW_TRIGGER ? "trigger → barrier" : "notify → wait");
  list = add_link_list (self, "From", -1);
  gtk_box_append (GTK_BOX (list), link_button (self, PV_TIMELINE_HIT_MARK, arrow->from_mark, from, NULL));
  list = add_link_list (self, "To", -1);
  gtk_box_append (GTK_BOX (list), link_button (self, PV_TIMELINE_HIT_MARK, arrow->to_mark, to, NULL));
}

static void
show_kernel (PvInspector *self, const PvSession *s, const PvTimelineModel *m, int node)
{
  const PvGraph *g = s->graph;
  const PvNode *n = &g->nodes[node];
  int k = m->node_kernel[node];
  GtkWidget *grid, *list;
  int n_sync = 0;

  add_heading (self, "Kernel", n->name);
  grid = add_section (self, "Details");
  add_row (grid, "Op type", n->op_type, TRUE);
  if (n->domain[0])
    add_row (grid, "Domain", n->domain, TRUE);
  if (k >= 0 && m->has_plan)
    {
      const PvTimelineKernel *kernel = &m->kernels[k];
      g_autofree char *step = g_strdup_printf ("%d", kernel->step);
      g_autofree char *span = g_strdup_printf ("%g – %g", kernel->start, kernel->end);
      add_row (grid, "Stream", m->streams[kernel->lane].label, FALSE);
      add_row (grid, "Step", step, FALSE);
      add_row (grid, "Runs", span, FALSE);
    }

  list = add_link_list (self, "Inputs", n->n_inputs);
  for (int i = 0; i < n->n_inputs; i++)
    if (n->inputs[i] >= 0)
      add_value_link (self, list, s, n->inputs[i]);
  list = add_link_list (self, "Outputs", n->n_outputs);
  for (int i = 0; i < n->n_outputs; i++)
    if (n->outputs[i] >= 0)
      add_value_link (self, list, s, n->outputs[i]);

  /* Its sync steps: the marks of its stream that belong to this node. */
  list = add_link_list (self, "Synchronisation", -1);
  for (int i = 0; k >= 0 && m->has_plan && i < m->streams[m->kernels[k].lane].n_marks; i++)
    {
      int mi = m->streams[m->kernels[k].lane].first_mark + i;
      g_autofree char *text = NULL;
      if (m->marks[mi].node != node)
        continue;
      text = g_strdup_printf ("%s %d (step %d)", pv_timeline_mark_kind_name (m->marks[mi].kind), m->marks[mi].id,
                              m->marks[mi].step);
      gtk_box_append (GTK_BOX (list), link_button (self, PV_TIMELINE_HIT_MARK, mi, text, NULL));
      add_note (list, other_end_title (m->marks[mi].kind));
      if (add_other_ends (self, list, m, mi) == 0)
        add_note (list, "no step on another stream");
      n_sync++;
    }
  if (n_sync == 0)
    add_note (list, "none: no barrier, wait, notification or trigger");
}

/* ---- the content ---- */

static gboolean
shown_valid (PvInspector *self, const PvSession *s, const PvTimelineModel *m)
{
  int id = self->shown.id;

  switch (self->shown.kind)
    {
    case PV_TIMELINE_HIT_VALUE: return s && id >= 0 && id < s->graph->n_values;
    case PV_TIMELINE_HIT_KERNEL: return s && m && id >= 0 && id < s->graph->n_nodes && m->graph == s->graph;
    case PV_TIMELINE_HIT_MARK: return m && m->has_plan && id >= 0 && id < m->n_marks;
    case PV_TIMELINE_HIT_ARROW: return m && m->has_plan && id >= 0 && id < m->n_arrows;
    default: return FALSE;
    }
}

static void
rebuild (PvInspector *self)
{
  PvDocument *document = pv_side_page_get_document (PV_SIDE_PAGE (self));
  PvTimelineView *timeline = pv_side_page_get_timeline (PV_SIDE_PAGE (self));
  PvTimelineModel *m = timeline ? pv_timeline_view_get_model (timeline) : NULL;
  /* The level shown: selections are ids of its graph. */
  const PvSession *s = document ? pv_document_find_session (document, m ? m->graph : NULL) : NULL;

  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;
  gboolean had_focus = focus && self->content && gtk_widget_is_ancestor (focus, self->content);

  /* The focus (a link just clicked) leaves the page before it goes: GTK
   * 4.8's viewport otherwise asks about the freed button later. */
  if (had_focus)
    gtk_root_set_focus (root, NULL);
  if (self->content)
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), NULL);
  g_clear_pointer (&self->title, g_free);
  self->content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_add_css_class (self->content, "pv-summary");
  gtk_widget_add_css_class (self->content, "pv-inspector");

  if (!shown_valid (self, s, m))
    {
      GtkWidget *label = gtk_label_new ("Nothing selected — click a kernel or a value in the timeline");
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_CENTER);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_set_vexpand (label, TRUE);
      gtk_widget_set_valign (label, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (self->content), label);
      self->shown.kind = PV_TIMELINE_HIT_NONE;
      self->shown.id = -1;
    }
  else
    switch (self->shown.kind)
      {
      case PV_TIMELINE_HIT_VALUE: show_value (self, s, self->shown.id); break;
      case PV_TIMELINE_HIT_KERNEL: show_kernel (self, s, m, self->shown.id); break;
      case PV_TIMELINE_HIT_MARK: show_mark (self, m, self->shown.id); break;
      default: show_arrow (self, m, self->shown.id); break;
      }
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->content);
  if (had_focus)
    gtk_widget_child_focus (self->content, GTK_DIR_TAB_FORWARD);
}

/* The timeline's selection changed, or the document (its plan, its
 * planner): show the selection. */
static void
follow_selection (PvInspector *self)
{
  PvTimelineView *timeline = pv_side_page_get_timeline (PV_SIDE_PAGE (self));

  if (timeline)
    self->shown = *pv_timeline_view_get_selection (timeline);
  rebuild (self);
}

/* ---- public API ---- */

void
pv_inspector_select (PvInspector *self, const PvTimelineSelection *selection)
{
  PvTimelineView *timeline;
  const PvTimelineSelection *now;

  g_return_if_fail (PV_IS_INSPECTOR (self));
  g_return_if_fail (selection != NULL);

  timeline = pv_side_page_get_timeline (PV_SIDE_PAGE (self));
  if (timeline)
    {
      pv_timeline_view_set_selection (timeline, selection);
      now = pv_timeline_view_get_selection (timeline);
      if (now->kind == selection->kind && now->id == selection->id)
        {
          pv_timeline_view_focus_selection (timeline);
          return;  /* follow_selection showed it */
        }
    }
  /* Not drawn in the timeline (an initializer, a value outside the memory
   * view shown): show it here only. */
  self->shown = *selection;
  rebuild (self);
}

void
pv_inspector_show_value (PvInspector *self, int value)
{
  g_return_if_fail (PV_IS_INSPECTOR (self));

  if (self->shown.kind == PV_TIMELINE_HIT_VALUE && self->shown.id == value)
    return;
  self->shown.kind = PV_TIMELINE_HIT_VALUE;
  self->shown.id = value;
  rebuild (self);
}

PvTimelineSelection
pv_inspector_get_shown (PvInspector *self)
{
  PvTimelineSelection none = { PV_TIMELINE_HIT_NONE, -1 };

  g_return_val_if_fail (PV_IS_INSPECTOR (self), none);
  return self->shown;
}

const char *
pv_inspector_get_title (PvInspector *self)
{
  g_return_val_if_fail (PV_IS_INSPECTOR (self), NULL);
  return self->title;
}

/* ---- GObject ---- */

static void
pv_inspector_timeline_changed (PvSidePage *page)
{
  if (pv_side_page_get_timeline (page))
    follow_selection (PV_INSPECTOR (page));
}

static void
pv_inspector_document_changed (PvSidePage *page)
{
  follow_selection (PV_INSPECTOR (page));
}

static void
pv_inspector_dispose (GObject *object)
{
  PvInspector *self = (PvInspector *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), PV_TYPE_INSPECTOR);
  self->content = NULL;
  G_OBJECT_CLASS (pv_inspector_parent_class)->dispose (object);
}

static void
pv_inspector_finalize (GObject *object)
{
  PvInspector *self = (PvInspector *) object;

  g_free (self->title);
  G_OBJECT_CLASS (pv_inspector_parent_class)->finalize (object);
}

static void
pv_inspector_class_init (PvInspectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pv_inspector_dispose;
  object_class->finalize = pv_inspector_finalize;
  PV_SIDE_PAGE_CLASS (klass)->document_changed = pv_inspector_document_changed;
  PV_SIDE_PAGE_CLASS (klass)->timeline_changed = pv_inspector_timeline_changed;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/planviz/Planviz/ui/pv-inspector.ui");
  gtk_widget_class_bind_template_child (widget_class, PvInspector, scroller);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "pvinspector");
}

static void
pv_inspector_init (PvInspector *self)
{
  PvSidePage *page = PV_SIDE_PAGE (self);

  self->shown.kind = PV_TIMELINE_HIT_NONE;
  self->shown.id = -1;
  g_signal_group_connect_swapped (pv_side_page_get_document_signals (page), "plan-changed",
                                  G_CALLBACK (follow_selection), self);
  g_signal_group_connect_swapped (pv_side_page_get_document_signals (page), "notify::planner",
                                  G_CALLBACK (follow_selection), self);
  g_signal_group_connect_swapped (pv_side_page_get_timeline_signals (page), "selection-changed",
                                  G_CALLBACK (follow_selection), self);
  gtk_widget_init_template (GTK_WIDGET (self));
  rebuild (self);
}

const char *
pv_inspector_get_row (PvInspector *self, const char *key)
{
  g_return_val_if_fail (PV_IS_INSPECTOR (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  for (GtkWidget *grid = self->content ? gtk_widget_get_first_child (self->content) : NULL; grid;
       grid = gtk_widget_get_next_sibling (grid))
    {
      if (!GTK_IS_GRID (grid))
        continue;
      for (int row = 0; row < grid_rows (grid); row++)
        {
          GtkWidget *k = gtk_grid_get_child_at (GTK_GRID (grid), 0, row);
          GtkWidget *v = gtk_grid_get_child_at (GTK_GRID (grid), 1, row);
          if (GTK_IS_LABEL (k) && strcmp (gtk_label_get_text (GTK_LABEL (k)), key) == 0)
            return GTK_IS_LABEL (v) ? gtk_label_get_text (GTK_LABEL (v)) : NULL;
        }
    }
  return NULL;
}
