/* pv-timeline-view-selection.c: what the timeline view points at: the
 * selection and the selected kernels (clicks, Ctrl/Shift+click), the hover,
 * tooltips, the accessible description, and the requests to move the
 * selected kernels. */
#include "pv-timeline-view-private.h"

#include <string.h>

static gboolean
selection_equal (const PvTimelineSelection *a, const PvTimelineSelection *b)
{
  if (a->kind != b->kind)
    return FALSE;
  return a->kind == PV_TIMELINE_HIT_NONE || a->id == b->id;
}

PvTimelineSelection
_pv_timeline_view_selection_for_hit (const PvTimelineHit *hit)
{
  PvTimelineSelection sel = { PV_TIMELINE_HIT_NONE, -1 };

  switch (hit->kind)
    {
    case PV_TIMELINE_HIT_KERNEL:
      sel.kind = hit->kind;
      sel.id = hit->node;
      break;
    case PV_TIMELINE_HIT_MARK:
    case PV_TIMELINE_HIT_ARROW:
      sel.kind = hit->kind;
      sel.id = hit->index;
      break;
    case PV_TIMELINE_HIT_VALUE:
      sel.kind = hit->kind;
      sel.id = hit->value;
      break;
    default:
      break;
    }
  if (sel.id < 0)
    sel.kind = PV_TIMELINE_HIT_NONE;
  return sel;
}

/* The time span of what @sel designates; FALSE when it has none. */
static gboolean
selection_span (PvTimelineView *self, const PvTimelineSelection *sel, double *t0, double *t1)
{
  const PvTimelineModel *m = self->model;

  if (m == NULL)
    return FALSE;
  switch (sel->kind)
    {
    case PV_TIMELINE_HIT_KERNEL:
      {
        int k;
        if (sel->id < 0 || sel->id >= m->graph->n_nodes || (k = m->node_kernel[sel->id]) < 0)
          return FALSE;
        *t0 = m->kernels[k].start;
        *t1 = m->kernels[k].end;
        return TRUE;
      }
    case PV_TIMELINE_HIT_MARK:
      if (sel->id < 0 || sel->id >= m->n_marks)
        return FALSE;
      *t0 = m->marks[sel->id].time - 0.5;
      *t1 = m->marks[sel->id].time + 0.5;
      return TRUE;
    case PV_TIMELINE_HIT_ARROW:
      if (sel->id < 0 || sel->id >= m->n_arrows)
        return FALSE;
      *t0 = m->arrows[sel->id].t_min;
      *t1 = m->arrows[sel->id].t_max;
      return TRUE;
    case PV_TIMELINE_HIT_VALUE:
      {
        const PvTimelineMemory *mem = &m->memory[self->options.memory_view];
        int b;
        if (!mem->available || mem->value_bar == NULL || sel->id < 0 || sel->id >= m->graph->n_values ||
            (b = mem->value_bar[sel->id]) < 0)
          return FALSE;
        *t0 = mem->bars[b].start;
        *t1 = mem->bars[b].end;
        return TRUE;
      }
    default:
      return FALSE;
    }
}

/* A selection that still means something in the current model. */
gboolean
_pv_timeline_view_selection_valid (PvTimelineView *self, const PvTimelineSelection *sel)
{
  double t0, t1;
  return sel->kind == PV_TIMELINE_HIT_NONE || selection_span (self, sel, &t0, &t1);
}

void
_pv_timeline_view_update_accessible (PvTimelineView *self)
{
  g_autofree char *description = NULL;

  if (self->model == NULL)
    description = g_strdup ("No model open");
  else
    {
      g_autofree char *selected = NULL;
      if (self->renderer && self->options.selection.kind != PV_TIMELINE_HIT_NONE)
        {
          PvTimelineHit hit = { 0 };
          hit.kind = self->options.selection.kind;
          hit.index = hit.node = hit.value = hit.stream = hit.step = hit.lane = -1;
          switch (hit.kind)
            {
            case PV_TIMELINE_HIT_KERNEL:
              hit.node = self->options.selection.id;
              hit.index = self->model->node_kernel[hit.node];
              break;
            case PV_TIMELINE_HIT_VALUE:
              /* describe() reads the bar (index) of the memory view shown. */
              hit.value = self->options.selection.id;
              hit.index = self->model->memory[self->options.memory_view].value_bar[hit.value];
              break;
            default: hit.index = self->options.selection.id; break;
            }
          if (hit.index >= 0)
            selected = pv_timeline_renderer_describe (self->renderer, &hit);
        }
      description = g_strdup_printf ("%d stream%s, %d kernels%s%s%s", self->model->n_streams,
                                     self->model->n_streams == 1 ? "" : "s", self->model->n_kernels,
                                     self->dimmed ? ", outdated" : "", selected ? "; selected: " : "",
                                     selected ? selected : "");
      if (self->selected->len > 1)
        {
          char *more = g_strdup_printf ("%s (%u kernels selected)", description, self->selected->len);
          g_free (description);
          description = more;
        }
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

/* Index of @node in the sorted node ids @nodes, or -1. */
int
_pv_timeline_view_nodes_find (const GArray *nodes, int node)
{
  guint lo = 0, hi = nodes->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      int v = g_array_index (nodes, int, mid);
      if (v == node)
        return (int) mid;
      if (v < node)
        lo = mid + 1;
      else
        hi = mid;
    }
  return -1;
}

/* Adds @node to the sorted node ids @nodes unless it is there. */
static void
nodes_add (GArray *nodes, int node)
{
  guint at = 0;

  if (_pv_timeline_view_nodes_find (nodes, node) >= 0)
    return;
  while (at < nodes->len && g_array_index (nodes, int, at) < node)
    at++;
  g_array_insert_val (nodes, at, node);
}

/* Makes @sel the selection and @nodes (sorted, unique; NULL: @sel's node
 * when it is a kernel, else none) the selected kernels. */
static void
set_selection_full (PvTimelineView *self, const PvTimelineSelection *sel, const GArray *nodes)
{
  g_autoptr (GArray) wanted = g_array_new (FALSE, FALSE, sizeof (int));
  gboolean same_nodes;

  if (nodes)
    g_array_append_vals (wanted, nodes->data, nodes->len);
  else if (sel->kind == PV_TIMELINE_HIT_KERNEL)
    g_array_append_val (wanted, sel->id);
  /* An empty GArray's data may be NULL, which memcmp must not get. */
  same_nodes = wanted->len == self->selected->len &&
               (wanted->len == 0 || memcmp (wanted->data, self->selected->data, sizeof (int) * wanted->len) == 0);
  if (selection_equal (&self->options.selection, sel) && same_nodes)
    return;
  self->options.selection = *sel;
  g_array_set_size (self->selected, 0);
  g_array_append_vals (self->selected, wanted->data, wanted->len);
  _pv_timeline_view_push_options (self);
  _pv_timeline_view_update_accessible (self);
  g_signal_emit (self, _pv_timeline_view_signals[SELECTION_CHANGED], 0);
}

void
_pv_timeline_view_set_selection (PvTimelineView *self, const PvTimelineSelection *sel)
{
  set_selection_full (self, sel, NULL);
}

void
_pv_timeline_view_set_hover (PvTimelineView *self, const PvTimelineSelection *sel)
{
  if (selection_equal (&self->options.hover, sel))
    return;
  self->options.hover = *sel;
  _pv_timeline_view_push_options (self);
}

void
_pv_timeline_view_update_hover (PvTimelineView *self)
{
  PvTimelineHit hit;
  PvTimelineSelection sel = { PV_TIMELINE_HIT_NONE, -1 };

  if (self->renderer && self->pointer_inside && !self->dragging &&
      pv_timeline_renderer_hit_test (self->renderer, self->pointer_x, self->pointer_y, &hit))
    sel = _pv_timeline_view_selection_for_hit (&hit);
  _pv_timeline_view_set_hover (self, &sel);
}

/* A click: plain selects what is under the pointer; on a kernel, Ctrl
 * toggles it in the selected kernels and Shift adds it. */
void
_pv_timeline_view_select_at (PvTimelineView *self, double x, double y, GdkModifierType state)
{
  PvTimelineHit hit;
  PvTimelineSelection sel = { PV_TIMELINE_HIT_NONE, -1 };
  gboolean toggle = (state & GDK_CONTROL_MASK) != 0, add = (state & GDK_SHIFT_MASK) != 0;

  if (self->renderer == NULL)
    return;
  if (pv_timeline_renderer_hit_test (self->renderer, x, y, &hit))
    {
      if (hit.kind == PV_TIMELINE_HIT_CURVE && !toggle && !add)
        {
          _pv_timeline_view_activate_curve (self, &hit, x);
          return;
        }
      /* Clicks on the ruler, lane labels or legend keep the selection. */
      if (hit.kind == PV_TIMELINE_HIT_RULER || hit.kind == PV_TIMELINE_HIT_LANE_HEADER ||
          hit.kind == PV_TIMELINE_HIT_LEGEND)
        return;
      sel = _pv_timeline_view_selection_for_hit (&hit);
    }
  if (toggle || add)
    {
      g_autoptr (GArray) nodes = NULL;
      int at;

      if (sel.kind != PV_TIMELINE_HIT_KERNEL)
        return; /* only kernels gather; elsewhere a modified click does nothing */
      nodes = g_array_copy (self->selected);
      at = _pv_timeline_view_nodes_find (nodes, sel.id);
      if (at >= 0 && toggle && !add)
        {
          g_array_remove_index (nodes, (guint) at);
          /* The selection stays on, or moves to, another selected kernel. */
          if (self->options.selection.kind == PV_TIMELINE_HIT_KERNEL && self->options.selection.id != sel.id &&
              _pv_timeline_view_nodes_find (nodes, self->options.selection.id) >= 0)
            sel = self->options.selection;
          else if (nodes->len > 0)
            sel.id = g_array_index (nodes, int, nodes->len - 1);
          else
            {
              sel.kind = PV_TIMELINE_HIT_NONE;
              sel.id = -1;
            }
        }
      else
        nodes_add (nodes, sel.id);
      set_selection_full (self, &sel, nodes);
      return;
    }
  _pv_timeline_view_set_selection (self, &sel);
}

gboolean
_pv_timeline_view_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard_mode, GtkTooltip *tooltip)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (widget);
  PvTimelineHit hit;
  g_autofree char *text = NULL;

  double kx, ky, kw, kh;

  /* The move menu is a child of the view: its own area would otherwise
   * ask the view for a tooltip and cover the menu with it. */
  if (self->renderer == NULL || keyboard_mode || self->dragging ||
      (self->menu && gtk_widget_get_visible (self->menu)))
    return FALSE;
  if (!pv_timeline_renderer_hit_test (self->renderer, x, y, &hit))
    return FALSE;
  text = pv_timeline_renderer_describe (self->renderer, &hit);
  if (text == NULL || *text == '\0')
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  /* GTK places a tooltip once, where it appeared; leaving its tip area
   * hides it and the next one appears at the pointer. A kernel's area is
   * its box; a curve or a bar says something else every few pixels. */
  if (hit.kind == PV_TIMELINE_HIT_KERNEL && pv_timeline_renderer_get_kernel_rect (self->renderer, hit.index, &kx, &ky, &kw, &kh))
    gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) { (int) kx, (int) ky, MAX ((int) kw, 1), MAX ((int) kh, 1) });
  else
    gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) { x - 6, y - 6, 13, 13 });
  return TRUE;
}

const PvTimelineSelection *
pv_timeline_view_get_selection (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), NULL);
  return &self->options.selection;
}

void
pv_timeline_view_set_selection (PvTimelineView *self, const PvTimelineSelection *selection)
{
  PvTimelineSelection none = { PV_TIMELINE_HIT_NONE, -1 };

  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  if (selection == NULL || !_pv_timeline_view_selection_valid (self, selection))
    selection = &none;
  _pv_timeline_view_set_selection (self, selection);
}

const int *
pv_timeline_view_get_selected_nodes (PvTimelineView *self, guint *n_nodes)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), NULL);
  g_return_val_if_fail (n_nodes != NULL, NULL);

  *n_nodes = self->selected->len;
  return (const int *) self->selected->data;
}

void
pv_timeline_view_set_selected_nodes (PvTimelineView *self, const int *nodes, guint n_nodes)
{
  g_autoptr (GArray) set = g_array_new (FALSE, FALSE, sizeof (int));
  PvTimelineSelection sel = { PV_TIMELINE_HIT_NONE, -1 };

  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));
  g_return_if_fail (nodes != NULL || n_nodes == 0);

  for (guint i = 0; i < n_nodes && self->model; i++)
    if (nodes[i] >= 0 && nodes[i] < self->model->graph->n_nodes && self->model->node_kernel[nodes[i]] >= 0)
      {
        nodes_add (set, nodes[i]);
        sel.kind = PV_TIMELINE_HIT_KERNEL;
        sel.id = nodes[i];
      }
  set_selection_full (self, &sel, set);
}

/* The names of the selected kernels, NULL when there are none. */
static GStrv
selected_names (PvTimelineView *self)
{
  g_autoptr (GStrvBuilder) builder = NULL;

  if (self->model == NULL || self->selected->len == 0)
    return NULL;
  builder = g_strv_builder_new ();
  for (guint i = 0; i < self->selected->len; i++)
    g_strv_builder_add (builder, self->model->graph->nodes[g_array_index (self->selected, int, i)].name);
  return g_strv_builder_end (builder);
}

void
pv_timeline_view_request_move (PvTimelineView *self, int stream)
{
  g_auto (GStrv) names = NULL;

  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  names = selected_names (self);
  if (names)
    g_signal_emit (self, _pv_timeline_view_signals[MOVE_NODES_REQUESTED], 0, names, stream);
}

void
pv_timeline_view_request_run_on_device (PvTimelineView *self, int device, int stream)
{
  g_auto (GStrv) names = NULL;

  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  names = selected_names (self);
  if (names)
    g_signal_emit (self, _pv_timeline_view_signals[RUN_ON_DEVICE_REQUESTED], 0, names, device, stream);
}

void
pv_timeline_view_clear_selection (PvTimelineView *self)
{
  pv_timeline_view_set_selection (self, NULL);
}

gboolean
pv_timeline_view_focus_selection (PvTimelineView *self)
{
  double t0, t1;

  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), FALSE);

  if (self->renderer == NULL || !selection_span (self, &self->options.selection, &t0, &t1))
    return FALSE;
  pv_timeline_renderer_focus (self->renderer, t0, t1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}
