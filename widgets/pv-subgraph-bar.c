/* pv-subgraph-bar.c: breadcrumbs of the open subgraphs and "Open …"
 * buttons for the selected control-flow kernel. */
#include "pv-subgraph-bar.h"

struct _PvSubgraphBar
{
  GtkWidget parent_instance;

  PvSubgraphNav *nav;
  int selected_node;
  GPtrArray *crumb_texts;    /* char*, one per crumb */

  /* template children */
  GtkWidget *crumbs;         /* box of crumb buttons, separators, the current crumb */
  GtkWidget *open_box;       /* "“/Loop” (Loop)" and its Open buttons */
  GtkWidget *note;           /* what ORT does with the body shown */
  GtkWidget *notice;         /* why the navigation went back to the main graph */
  guint n_open_buttons;
};

G_DEFINE_FINAL_TYPE (PvSubgraphBar, pv_subgraph_bar, GTK_TYPE_WIDGET)

GtkWidget *
pv_subgraph_bar_new (void)
{
  return g_object_new (PV_TYPE_SUBGRAPH_BAR, NULL);
}

static void
remove_children (GtkWidget *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (box)))
    gtk_box_remove (GTK_BOX (box), child);
}

static void
rebuild_crumbs (PvSubgraphBar *self)
{
  guint depth = self->nav ? pv_subgraph_nav_get_depth (self->nav) : 0;

  remove_children (self->crumbs);
  g_ptr_array_set_size (self->crumb_texts, 0);
  if (self->nav == NULL)
    {
      gtk_widget_set_visible (self->note, FALSE);
      gtk_widget_set_visible (self->notice, FALSE);
      return;
    }
  for (guint d = 0; d <= depth; d++)
    {
      g_autofree char *text = pv_subgraph_nav_dup_crumb (self->nav, d);
      GtkWidget *crumb;

      if (d > 0)
        {
          GtkWidget *separator = gtk_label_new ("›");
          gtk_widget_add_css_class (separator, "dim-label");
          gtk_box_append (GTK_BOX (self->crumbs), separator);
        }
      if (d < depth)
        {
          crumb = gtk_button_new_with_label (text);
          gtk_widget_add_css_class (crumb, "flat");
          gtk_actionable_set_action_name (GTK_ACTIONABLE (crumb), "win.subgraph-go-to");
          gtk_actionable_set_action_target (GTK_ACTIONABLE (crumb), "u", d);
          gtk_widget_set_tooltip_text (crumb, d == 0 ? "Back to the main graph" : "Back to this body");
        }
      else
        {
          crumb = gtk_label_new (text);
          gtk_widget_add_css_class (crumb, "pv-crumb-current");
        }
      gtk_label_set_ellipsize (GTK_LABEL (GTK_IS_BUTTON (crumb) ? gtk_button_get_child (GTK_BUTTON (crumb)) : crumb),
                               PANGO_ELLIPSIZE_MIDDLE);
      gtk_box_append (GTK_BOX (self->crumbs), crumb);
      g_ptr_array_add (self->crumb_texts, g_steal_pointer (&text));
    }
  {
    g_autofree char *note = pv_subgraph_nav_dup_ort_note (self->nav);
    const char *notice = pv_subgraph_nav_get_notice (self->nav);
    gtk_widget_set_visible (self->note, note != NULL);
    gtk_widget_set_tooltip_text (self->note, note);
    gtk_label_set_text (GTK_LABEL (self->notice), notice ? notice : "");
    gtk_widget_set_visible (self->notice, notice != NULL);
  }
}

static void
rebuild_open_buttons (PvSubgraphBar *self)
{
  const PvGraph *graph = self->nav ? pv_subgraph_nav_get_graph (self->nav) : NULL;
  const PvNode *node;
  g_autofree char *what = NULL;
  GtkWidget *label;

  remove_children (self->open_box);
  self->n_open_buttons = 0;
  if (graph == NULL)
    return;
  node = self->selected_node >= 0 && self->selected_node < graph->n_nodes ? &graph->nodes[self->selected_node] : NULL;
  if (node == NULL || node->n_subgraphs == 0)
    {
      gboolean any = FALSE;
      for (int n = 0; n < graph->n_nodes && !any; n++)
        any = graph->nodes[n].n_subgraphs > 0;
      label = gtk_label_new (any ? "Select an If, Loop or Scan to open its body" : NULL);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_set_visible (label, any);
      gtk_box_append (GTK_BOX (self->open_box), label);
      return;
    }
  what = g_strdup_printf ("“%s” (%s)", node->name, node->op_type);
  label = gtk_label_new (what);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (self->open_box), label);
  for (int k = 0; k < node->n_subgraphs; k++)
    {
      const PvGraph *sub = node->subgraphs[k];
      g_autofree char *text = g_strdup_printf ("Open %s", sub->parent_attr ? sub->parent_attr : "subgraph");
      g_autofree char *tooltip = g_strdup_printf ("Show the plan of “%s”: %d node%s%s", sub->name, sub->n_nodes,
                                                  sub->n_nodes == 1 ? "" : "s",
                                                  k == 0 ? " (or double-click the kernel)" : "");
      GtkWidget *button = gtk_button_new_with_label (text);

      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.open-subgraph");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "(ii)", self->selected_node, k);
      gtk_widget_set_tooltip_text (button, tooltip);
      gtk_widget_add_css_class (button, "pv-open-subgraph");
      gtk_box_append (GTK_BOX (self->open_box), button);
      self->n_open_buttons++;
    }
}

static void
nav_changed_cb (PvSubgraphBar *self, PvSubgraphNav *nav)
{
  /* Node ids belong to the graph shown before. */
  self->selected_node = -1;
  rebuild_crumbs (self);
  rebuild_open_buttons (self);
}

void
pv_subgraph_bar_set_nav (PvSubgraphBar *self, PvSubgraphNav *nav)
{
  g_return_if_fail (PV_IS_SUBGRAPH_BAR (self));
  g_return_if_fail (nav == NULL || PV_IS_SUBGRAPH_NAV (nav));

  if (self->nav)
    g_signal_handlers_disconnect_by_data (self->nav, self);
  g_set_object (&self->nav, nav);
  if (nav)
    g_signal_connect_object (nav, "changed", G_CALLBACK (nav_changed_cb), self, G_CONNECT_SWAPPED);
  nav_changed_cb (self, nav);
}

void
pv_subgraph_bar_set_selected_node (PvSubgraphBar *self, int node)
{
  g_return_if_fail (PV_IS_SUBGRAPH_BAR (self));

  if (self->selected_node == node)
    return;
  self->selected_node = node;
  rebuild_open_buttons (self);
}

guint
pv_subgraph_bar_get_n_crumbs (PvSubgraphBar *self)
{
  g_return_val_if_fail (PV_IS_SUBGRAPH_BAR (self), 0);
  return self->crumb_texts->len;
}

const char *
pv_subgraph_bar_get_crumb (PvSubgraphBar *self, guint index)
{
  g_return_val_if_fail (PV_IS_SUBGRAPH_BAR (self), NULL);
  return index < self->crumb_texts->len ? g_ptr_array_index (self->crumb_texts, index) : NULL;
}

guint
pv_subgraph_bar_get_n_open_buttons (PvSubgraphBar *self)
{
  g_return_val_if_fail (PV_IS_SUBGRAPH_BAR (self), 0);
  return self->n_open_buttons;
}

/* ---- GObject ---- */

static void
pv_subgraph_bar_dispose (GObject *object)
{
  PvSubgraphBar *self = PV_SUBGRAPH_BAR (object);
  GtkWidget *child;

  if (self->nav)
    g_signal_handlers_disconnect_by_data (self->nav, self);
  g_clear_object (&self->nav);
  gtk_widget_dispose_template (GTK_WIDGET (self), PV_TYPE_SUBGRAPH_BAR);
  /* The "Graph" label is no bound child. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (pv_subgraph_bar_parent_class)->dispose (object);
}

static void
pv_subgraph_bar_finalize (GObject *object)
{
  PvSubgraphBar *self = PV_SUBGRAPH_BAR (object);

  g_ptr_array_unref (self->crumb_texts);
  G_OBJECT_CLASS (pv_subgraph_bar_parent_class)->finalize (object);
}

static void
pv_subgraph_bar_class_init (PvSubgraphBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pv_subgraph_bar_dispose;
  object_class->finalize = pv_subgraph_bar_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/planviz/Planviz/ui/pv-subgraph-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, PvSubgraphBar, crumbs);
  gtk_widget_class_bind_template_child (widget_class, PvSubgraphBar, open_box);
  gtk_widget_class_bind_template_child (widget_class, PvSubgraphBar, note);
  gtk_widget_class_bind_template_child (widget_class, PvSubgraphBar, notice);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "pvsubgraphbar");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_TOOLBAR);
}

static void
pv_subgraph_bar_init (PvSubgraphBar *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  self->selected_node = -1;
  self->crumb_texts = g_ptr_array_new_with_free_func (g_free);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (widget)), 12);
  gtk_widget_init_template (widget);
}
