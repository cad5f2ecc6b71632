/* pv-find-bar.c: Find over the timeline (see the header). */
#include "pv-find-bar.h"

#include <string.h>

typedef struct {
  PvTimelineHitKind kind;   /* KERNEL (id: node) or VALUE (id: value) */
  int id;
  double start;
} Match;

struct _PvFindBar
{
  GtkWidget parent_instance;

  PvTimelineView *timeline;   /* weak: the window owns both */
  GArray *matches;            /* Match, by start */
  int current;

  /* template children */
  GtkSearchBar *search_bar;
  GtkSearchEntry *entry;
  GtkLabel *count_label;
};

G_DEFINE_FINAL_TYPE (PvFindBar, pv_find_bar, GTK_TYPE_WIDGET)

static gboolean
holds (const char *text, const char *needle)
{
  g_autofree char *lower = text ? g_ascii_strdown (text, -1) : NULL;
  return lower && strstr (lower, needle) != NULL;
}

static int
compare_matches (gconstpointer a, gconstpointer b)
{
  const Match *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind == PV_TIMELINE_HIT_KERNEL ? -1 : 1;
  return x->id - y->id;
}

/* Every kernel and value of @m that @needle (lower case) names. */
static void
collect (PvFindBar *self, const PvTimelineModel *m, const char *needle)
{
  const PvGraph *g = m->graph;
  const PvTimelineMemory *mem = &m->memory[pv_timeline_view_get_memory_view (self->timeline)];

  for (int k = 0; k < m->n_kernels; k++)
    {
      const PvNode *node = &g->nodes[m->kernels[k].node];
      if (holds (node->name, needle) || holds (node->op_type, needle))
        g_array_append_val (self->matches, ((Match) { PV_TIMELINE_HIT_KERNEL, m->kernels[k].node,
                                                      m->kernels[k].start }));
    }
  if (!mem->available || mem->value_bar == NULL)
    return;
  for (int v = 0; v < g->n_values; v++)
    if (mem->value_bar[v] >= 0 && holds (g->values[v].name, needle))
      g_array_append_val (self->matches,
                          ((Match) { PV_TIMELINE_HIT_VALUE, v, mem->bars[mem->value_bar[v]].start }));
  g_array_sort (self->matches, compare_matches);
}

static void
update_count (PvFindBar *self)
{
  g_autofree char *text = NULL;
  const char *needle = gtk_editable_get_text (GTK_EDITABLE (self->entry));

  if (needle[0] == '\0')
    text = g_strdup ("");
  else if (self->matches->len == 0)
    text = g_strdup ("no match");
  else
    text = g_strdup_printf ("%d of %u", self->current + 1, self->matches->len);
  gtk_label_set_text (self->count_label, text);
}

/* Selects the current match and pans it into view. */
static void
show_current (PvFindBar *self)
{
  const Match *match;
  PvTimelineModel *m;
  PvTimelineSelection sel;

  update_count (self);
  if (self->current < 0 || (guint) self->current >= self->matches->len ||
      (m = pv_timeline_view_get_model (self->timeline)) == NULL)
    return;
  match = &g_array_index (self->matches, Match, self->current);
  sel = (PvTimelineSelection) { match->kind, match->id };
  pv_timeline_view_set_selection (self->timeline, &sel);
  if (match->kind == PV_TIMELINE_HIT_KERNEL)
    {
      const PvTimelineKernel *k = &m->kernels[m->node_kernel[match->id]];
      pv_timeline_view_reveal (self->timeline, k->start, k->end);
    }
  else
    {
      const PvTimelineMemory *mem = &m->memory[pv_timeline_view_get_memory_view (self->timeline)];
      const PvTimelineBar *bar = &mem->bars[mem->value_bar[match->id]];
      pv_timeline_view_reveal (self->timeline, bar->start, bar->end);
    }
}

/* Searches the model drawn; @keep: stay on the same item if it still
 * matches (a re-plan), else start at the first match in view. */
static void
search (PvFindBar *self, gboolean keep)
{
  g_autofree char *needle = g_ascii_strdown (gtk_editable_get_text (GTK_EDITABLE (self->entry)), -1);
  PvTimelineModel *m = self->timeline ? pv_timeline_view_get_model (self->timeline) : NULL;
  Match was = { PV_TIMELINE_HIT_NONE, -1, 0 };
  g_autoptr (GArray) nodes = g_array_new (FALSE, FALSE, sizeof (int));

  if (keep && self->current >= 0 && (guint) self->current < self->matches->len)
    was = g_array_index (self->matches, Match, self->current);
  g_array_set_size (self->matches, 0);
  self->current = -1;
  if (m && needle[0] != '\0' && gtk_search_bar_get_search_mode (self->search_bar))
    collect (self, m, needle);
  for (guint i = 0; i < self->matches->len; i++)
    {
      const Match *match = &g_array_index (self->matches, Match, i);
      if (match->kind == PV_TIMELINE_HIT_KERNEL)
        g_array_append_val (nodes, match->id);
      if (match->kind == was.kind && match->id == was.id)
        self->current = (int) i;
    }
  if (self->timeline)
    pv_timeline_view_set_found_nodes (self->timeline, (const int *) nodes->data, nodes->len);
  if (self->current < 0 && self->matches->len > 0)
    {
      const PvTimelineViewport *vp = pv_timeline_renderer_get_viewport (pv_timeline_view_get_renderer (self->timeline));
      self->current = 0;
      for (guint i = 0; i < self->matches->len; i++)
        if (g_array_index (self->matches, Match, i).start >= vp->t0)
          {
            self->current = (int) i;
            break;
          }
    }
  if (keep)
    update_count (self);
  else
    show_current (self);
}

static void
search_changed_cb (PvFindBar *self)
{
  search (self, FALSE);
}

/* Enter: the next match. */
static void
activate_cb (PvFindBar *self)
{
  pv_find_bar_step (self, 1);
}

/* Shift+Enter, before the entry takes it as Enter: the previous match. */
static gboolean
entry_key_cb (PvFindBar *self, guint keyval, guint keycode, GdkModifierType state, GtkEventControllerKey *key)
{
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter || keyval == GDK_KEY_ISO_Enter) &&
      (state & GDK_SHIFT_MASK))
    {
      pv_find_bar_step (self, -1);
      return GDK_EVENT_STOP;
    }
  return GDK_EVENT_PROPAGATE;
}

static void
next_match_cb (PvFindBar *self)
{
  pv_find_bar_step (self, 1);
}

static void
previous_match_cb (PvFindBar *self)
{
  pv_find_bar_step (self, -1);
}

/* Closing the bar clears the tint; opening it searches its text again. */
static void
search_mode_cb (PvFindBar *self)
{
  search (self, FALSE);
}

GtkWidget *
pv_find_bar_new (void)
{
  return g_object_new (PV_TYPE_FIND_BAR, NULL);
}

void
pv_find_bar_set_timeline (PvFindBar *self, PvTimelineView *timeline)
{
  g_return_if_fail (PV_IS_FIND_BAR (self));
  self->timeline = timeline;
  search (self, FALSE);
}

void
pv_find_bar_open (PvFindBar *self)
{
  g_return_if_fail (PV_IS_FIND_BAR (self));
  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
  gtk_editable_select_region (GTK_EDITABLE (self->entry), 0, -1);
}

gboolean
pv_find_bar_get_open (PvFindBar *self)
{
  g_return_val_if_fail (PV_IS_FIND_BAR (self), FALSE);
  return gtk_search_bar_get_search_mode (self->search_bar);
}

gboolean
pv_find_bar_step (PvFindBar *self, int step)
{
  int n;

  g_return_val_if_fail (PV_IS_FIND_BAR (self), FALSE);
  n = (int) self->matches->len;
  if (n == 0)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return FALSE;
    }
  self->current = ((self->current < 0 ? (step > 0 ? -1 : 0) : self->current) + step + n) % n;
  show_current (self);
  return TRUE;
}

void
pv_find_bar_refresh (PvFindBar *self)
{
  g_return_if_fail (PV_IS_FIND_BAR (self));
  search (self, TRUE);
}

guint
pv_find_bar_get_n_matches (PvFindBar *self)
{
  g_return_val_if_fail (PV_IS_FIND_BAR (self), 0);
  return self->matches->len;
}

int
pv_find_bar_get_current (PvFindBar *self)
{
  g_return_val_if_fail (PV_IS_FIND_BAR (self), -1);
  return self->current;
}

GtkEditable *
pv_find_bar_get_entry (PvFindBar *self)
{
  g_return_val_if_fail (PV_IS_FIND_BAR (self), NULL);
  return GTK_EDITABLE (self->entry);
}

static void
pv_find_bar_dispose (GObject *object)
{
  PvFindBar *self = PV_FIND_BAR (object);

  self->timeline = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), PV_TYPE_FIND_BAR);
  G_OBJECT_CLASS (pv_find_bar_parent_class)->dispose (object);
}

static void
pv_find_bar_finalize (GObject *object)
{
  g_array_unref (PV_FIND_BAR (object)->matches);
  G_OBJECT_CLASS (pv_find_bar_parent_class)->finalize (object);
}

static void
pv_find_bar_class_init (PvFindBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pv_find_bar_dispose;
  object_class->finalize = pv_find_bar_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/planviz/Planviz/ui/pv-find-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, PvFindBar, search_bar);
  gtk_widget_class_bind_template_child (widget_class, PvFindBar, entry);
  gtk_widget_class_bind_template_child (widget_class, PvFindBar, count_label);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, next_match_cb);
  gtk_widget_class_bind_template_callback (widget_class, previous_match_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_mode_cb);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "pvfindbar");
}

static void
pv_find_bar_init (PvFindBar *self)
{
  GtkEventController *key;

  self->matches = g_array_new (FALSE, FALSE, sizeof (Match));
  self->current = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
  key = gtk_event_controller_key_new ();

  gtk_event_controller_set_propagation_phase (key, GTK_PHASE_CAPTURE);
  g_signal_connect_object (key, "key-pressed", G_CALLBACK (entry_key_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->entry), key);
  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->entry));
}
