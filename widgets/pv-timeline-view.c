/* pv-timeline-view.c: the timeline as a GTK widget (see the header). */
#include "pv-save-file.h"
#include "pv-timeline-view.h"

#include <math.h>
#include <string.h>

#include "pv-device-menu.h"
#include "pv-timeline-view-private.h"

G_DEFINE_FINAL_TYPE (PvTimelineView, pv_timeline_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MEMORY_VIEW,
  PROP_COLOUR_BY,
  PROP_ARROWS,
  PROP_DIMMED,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];
guint _pv_timeline_view_signals[N_SIGNALS];
#define signals _pv_timeline_view_signals

enum {
  HELD_ZOOM_IN = 1 << 0,
  HELD_ZOOM_OUT = 1 << 1,
  HELD_PAN_LEFT = 1 << 2,
  HELD_PAN_RIGHT = 1 << 3,
};

#define WHEEL_ZOOM_STEP 1.2      /* one wheel notch with Ctrl */
#define KEY_ZOOM_STEP 1.25       /* Ctrl+plus, one tap of W */
#define WHEEL_SCROLL_PX 48.0     /* one notch, vertically */
#define WHEEL_PAN_PX 64.0        /* one notch, horizontally */
#define CLICK_SLOP 4.0           /* a drag shorter than this is a click */
#define DIMMED_OPACITY 0.35

GtkWidget *
pv_timeline_view_new (void)
{
  return g_object_new (PV_TYPE_TIMELINE_VIEW, NULL);
}

/* ---- helpers ---- */

static double
zoom_anchor_x (PvTimelineView *self)
{
  if (self->pointer_inside)
    return self->pointer_x;
  return gtk_widget_get_width (GTK_WIDGET (self)) / 2.0;
}

void
_pv_timeline_view_push_options (PvTimelineView *self)
{
  self->options.selected_nodes = (const int *) self->selected->data;
  self->options.n_selected_nodes = (int) self->selected->len;
  self->options.marked_values = (const int *) self->marked_values->data;
  self->options.n_marked_values = (int) self->marked_values->len;
  self->options.found_nodes = (const int *) self->found_nodes->data;
  self->options.n_found_nodes = (int) self->found_nodes->len;
  if (self->renderer)
    pv_timeline_renderer_set_options (self->renderer, &self->options);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
selection_equal (const PvTimelineSelection *a, const PvTimelineSelection *b)
{
  if (a->kind != b->kind)
    return FALSE;
  return a->kind == PV_TIMELINE_HIT_NONE || a->id == b->id;
}

static PvTimelineSelection
selection_for_hit (const PvTimelineHit *hit)
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
static gboolean
selection_valid (PvTimelineView *self, const PvTimelineSelection *sel)
{
  double t0, t1;
  return sel->kind == PV_TIMELINE_HIT_NONE || selection_span (self, sel, &t0, &t1);
}

static void
update_accessible (PvTimelineView *self)
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
static int
nodes_find (const GArray *nodes, int node)
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

  if (nodes_find (nodes, node) >= 0)
    return;
  while (at < nodes->len && g_array_index (nodes, int, at) < node)
    at++;
  g_array_insert_val (nodes, at, node);
}

/* Makes @sel the selection and @nodes (sorted, unique; NULL: @sel's node
 * when it is a kernel, else none) the selected kernels. */
static void
set_selection_internal_full (PvTimelineView *self, const PvTimelineSelection *sel, const GArray *nodes)
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
  update_accessible (self);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

static void
set_selection_internal (PvTimelineView *self, const PvTimelineSelection *sel)
{
  set_selection_internal_full (self, sel, NULL);
}

static void
set_hover (PvTimelineView *self, const PvTimelineSelection *sel)
{
  if (selection_equal (&self->options.hover, sel))
    return;
  self->options.hover = *sel;
  _pv_timeline_view_push_options (self);
}

static void
update_hover (PvTimelineView *self)
{
  PvTimelineHit hit;
  PvTimelineSelection sel = { PV_TIMELINE_HIT_NONE, -1 };

  if (self->renderer && self->pointer_inside && !self->dragging &&
      pv_timeline_renderer_hit_test (self->renderer, self->pointer_x, self->pointer_y, &hit))
    sel = selection_for_hit (&hit);
  set_hover (self, &sel);
}

static void
scroll_by (PvTimelineView *self, double dy)
{
  const PvTimelineViewport *vp;

  if (self->renderer == NULL)
    return;
  vp = pv_timeline_renderer_get_viewport (self->renderer);
  pv_timeline_renderer_set_scroll_y (self->renderer, vp->scroll_y + dy);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
pan_by (PvTimelineView *self, double dx)
{
  if (self->renderer == NULL)
    return;
  pv_timeline_renderer_pan (self->renderer, dx);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
zoom_at (PvTimelineView *self, double factor, double x)
{
  if (self->renderer == NULL)
    return;
  pv_timeline_renderer_zoom (self->renderer, factor, x);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
content_overflows (PvTimelineView *self)
{
  return self->renderer && pv_timeline_renderer_get_content_height (self->renderer) >
                             pv_timeline_renderer_get_scroll_area_height (self->renderer) + 0.5;
}

/* ---- held keys ---- */

static gboolean
held_tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer user_data)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (widget);
  gint64 now = gdk_frame_clock_get_frame_time (clock);
  double dt = CLAMP ((now - self->last_frame) / 1e6, 0.0, 0.1);
  double held_for = (now - self->held_since) / 1e6;
  /* Speed ramps up over the first second, as Perfetto's does. */
  double boost = 1.0 + 3.0 * CLAMP (held_for - 0.15, 0.0, 1.0);
  double width = gtk_widget_get_width (widget);

  self->last_frame = now;
  if (self->held == 0 || self->renderer == NULL)
    {
      self->tick_id = 0;
      return G_SOURCE_REMOVE;
    }
  if (self->held & HELD_ZOOM_IN)
    zoom_at (self, exp (1.6 * boost * dt), zoom_anchor_x (self));
  if (self->held & HELD_ZOOM_OUT)
    zoom_at (self, exp (-1.6 * boost * dt), zoom_anchor_x (self));
  if (self->held & HELD_PAN_LEFT)
    pan_by (self, -0.45 * width * boost * dt);
  if (self->held & HELD_PAN_RIGHT)
    pan_by (self, 0.45 * width * boost * dt);
  return G_SOURCE_CONTINUE;
}

static guint
held_flag_for_key (guint keyval)
{
  switch (gdk_keyval_to_lower (keyval))
    {
    case GDK_KEY_w: return HELD_ZOOM_IN;
    case GDK_KEY_s: return HELD_ZOOM_OUT;
    case GDK_KEY_a: return HELD_PAN_LEFT;
    case GDK_KEY_d: return HELD_PAN_RIGHT;
    default: return 0;
    }
}

static gboolean
key_pressed_cb (PvTimelineView *self, guint keyval, guint keycode, GdkModifierType state,
                GtkEventControllerKey *controller)
{
  guint flag = held_flag_for_key (keyval);

  g_assert (PV_IS_TIMELINE_VIEW (self));

  if (flag == 0 || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SUPER_MASK)) != 0)
    return GDK_EVENT_PROPAGATE;
  if (self->renderer == NULL)
    return GDK_EVENT_STOP;
  if ((self->held & flag) == 0)
    {
      /* One tap moves a step; holding the key keeps going, faster. */
      double width = gtk_widget_get_width (GTK_WIDGET (self));
      switch (flag)
        {
        case HELD_ZOOM_IN: zoom_at (self, KEY_ZOOM_STEP, zoom_anchor_x (self)); break;
        case HELD_ZOOM_OUT: zoom_at (self, 1.0 / KEY_ZOOM_STEP, zoom_anchor_x (self)); break;
        case HELD_PAN_LEFT: pan_by (self, -0.1 * width); break;
        default: pan_by (self, 0.1 * width); break;
        }
      if (self->held == 0)
        self->held_since = g_get_monotonic_time ();
      self->held |= flag;
    }
  if (self->tick_id == 0)
    {
      GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));
      self->last_frame = clock ? gdk_frame_clock_get_frame_time (clock) : g_get_monotonic_time ();
      self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), held_tick_cb, NULL, NULL);
    }
  return GDK_EVENT_STOP;
}

static void
key_released_cb (PvTimelineView *self, guint keyval, guint keycode, GdkModifierType state,
                 GtkEventControllerKey *controller)
{
  g_assert (PV_IS_TIMELINE_VIEW (self));
  self->held &= ~held_flag_for_key (keyval);
}

static void
focus_leave_cb (PvTimelineView *self, GtkEventControllerFocus *controller)
{
  self->held = 0;
}

/* ---- pointer ---- */

static void
motion_cb (PvTimelineView *self, double x, double y, GtkEventControllerMotion *controller)
{
  self->pointer_x = x;
  self->pointer_y = y;
  self->pointer_inside = TRUE;
  update_hover (self);
}

static void
leave_cb (PvTimelineView *self, GtkEventControllerMotion *controller)
{
  PvTimelineSelection none = { PV_TIMELINE_HIT_NONE, -1 };
  self->pointer_inside = FALSE;
  set_hover (self, &none);
}

static gboolean
scroll_cb (PvTimelineView *self, double dx, double dy, GtkEventControllerScroll *controller)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  gboolean wheel = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL;

  if (self->renderer == NULL)
    return GDK_EVENT_PROPAGATE;
  if (state & GDK_CONTROL_MASK)
    {
      double step = wheel ? WHEEL_ZOOM_STEP : 1.012;
      zoom_at (self, pow (step, -dy), self->pointer_x);
      return GDK_EVENT_STOP;
    }
  if (state & GDK_SHIFT_MASK)
    {
      double t = dx;
      dx = dy;
      dy = t;
    }
  if (dx != 0)
    pan_by (self, dx * (wheel ? WHEEL_PAN_PX : 1.0));
  if (dy != 0)
    {
      /* Vertical wheel scrolls the lanes; when they all fit, it pans. */
      if (content_overflows (self))
        scroll_by (self, dy * (wheel ? WHEEL_SCROLL_PX : 1.0));
      else
        pan_by (self, dy * (wheel ? WHEEL_PAN_PX : 1.0));
    }
  update_hover (self);
  return GDK_EVENT_STOP;
}

/* A click: plain selects what is under the pointer; on a kernel, Ctrl
 * toggles it in the selected kernels and Shift adds it. */
static void
select_at (PvTimelineView *self, double x, double y, GdkModifierType state)
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
      sel = selection_for_hit (&hit);
    }
  if (toggle || add)
    {
      g_autoptr (GArray) nodes = NULL;
      int at;

      if (sel.kind != PV_TIMELINE_HIT_KERNEL)
        return; /* only kernels gather; elsewhere a modified click does nothing */
      nodes = g_array_copy (self->selected);
      at = nodes_find (nodes, sel.id);
      if (at >= 0 && toggle && !add)
        {
          g_array_remove_index (nodes, (guint) at);
          /* The selection stays on, or moves to, another selected kernel. */
          if (self->options.selection.kind == PV_TIMELINE_HIT_KERNEL && self->options.selection.id != sel.id &&
              nodes_find (nodes, self->options.selection.id) >= 0)
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
      set_selection_internal_full (self, &sel, nodes);
      return;
    }
  set_selection_internal (self, &sel);
}

/* ---- context menu ---- */

/* The menu for the selected kernels: every stream that does not already
 * run all of them, and a new stream. */
static GMenuModel *
build_move_menu (PvTimelineView *self)
{
  const PvTimelineModel *m = self->model;
  GMenu *menu = g_menu_new ();
  GMenu *section = g_menu_new ();

  for (int s = 0; s < m->n_streams; s++)
    {
      const PvTimelineLane *lane = &m->streams[s];
      g_autoptr (GMenuItem) item = NULL;
      g_autofree char *label = NULL;
      const char *device = pv_device_type_name (lane->device);
      gboolean all_there = TRUE;

      for (guint i = 0; i < self->selected->len && all_there; i++)
        {
          int k = m->node_kernel[g_array_index (self->selected, int, i)];
          all_there = k >= 0 && m->kernels[k].lane == s;
        }
      if (all_there)
        continue;
      label = device ? g_strdup_printf ("Move to Stream %d · %s", lane->id, device)
                     : g_strdup_printf ("Move to Stream %d · device %d", lane->id, lane->device);
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "timeline.move-nodes", g_variant_new_int32 (lane->id));
      g_menu_append_item (section, item);
    }
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_object_unref (section);
  section = g_menu_new ();
  g_menu_append (section, "Move to New Stream", "timeline.move-nodes(-1)");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_object_unref (section);
  section = pv_device_menu_new (m, (const int *) self->selected->data, self->selected->len, "timeline.run-on-device");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_object_unref (section);
  return G_MENU_MODEL (menu);
}

/* Opens the move menu under @at for the selected kernels. With
 * @on_kernel (a right-click), only over a kernel, which becomes the
 * selection first unless it is selected. FALSE when there is nothing to
 * move. */
static gboolean
context_menu_at (PvTimelineView *self, const GdkRectangle *at, gboolean on_kernel)
{
  g_autoptr (GMenuModel) model = NULL;
  PvTimelineHit hit;

  if (self->renderer == NULL || !self->model->has_plan)
    return FALSE;
  if (on_kernel)
    {
      if (!pv_timeline_renderer_hit_test (self->renderer, at->x, at->y, &hit) || hit.kind != PV_TIMELINE_HIT_KERNEL ||
          hit.node < 0)
        return FALSE;
      if (nodes_find (self->selected, hit.node) < 0)
        {
          PvTimelineSelection sel = selection_for_hit (&hit);
          set_selection_internal (self, &sel);
        }
    }
  if (self->selected->len == 0)
    return FALSE;
  /* A new popover for each menu: one whose model is replaced keeps the
   * size of its first menu. */
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  model = build_move_menu (self);
  self->menu = gtk_popover_menu_new_from_model (model);
  gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
  gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
  gtk_widget_set_halign (self->menu, GTK_ALIGN_START);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), at);
  gtk_popover_popup (GTK_POPOVER (self->menu));
  return TRUE;
}

static void
drag_begin_cb (PvTimelineView *self, double x, double y, GtkGestureDrag *gesture)
{
  const PvTimelineViewport *vp;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (self->renderer == NULL)
    return;
  vp = pv_timeline_renderer_get_viewport (self->renderer);
  self->drag_t0 = vp->t0;
  self->drag_t1 = vp->t1;
  self->drag_scroll_y = vp->scroll_y;
  self->dragging = FALSE;
  self->ranging = (gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture)) &
                   GDK_SHIFT_MASK) != 0 &&
                  gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture)) == GDK_BUTTON_PRIMARY;
}

static void
drag_update_cb (PvTimelineView *self, double dx, double dy, GtkGestureDrag *gesture)
{
  if (self->renderer == NULL)
    return;
  if (!self->dragging && hypot (dx, dy) < CLICK_SLOP)
    return;
  if (!self->dragging)
    {
      PvTimelineSelection none = { PV_TIMELINE_HIT_NONE, -1 };
      self->dragging = TRUE;
      set_hover (self, &none);
      gtk_widget_set_cursor_from_name (GTK_WIDGET (self), self->ranging ? "col-resize" : "grabbing");
      if (self->ranging)
        {
          double x, y;
          gtk_gesture_drag_get_start_point (gesture, &x, &y);
          _pv_timeline_view_range_begin (self, x, y);
        }
    }
  if (self->ranging)
    {
      double x, y;
      gtk_gesture_drag_get_start_point (gesture, &x, &y);
      _pv_timeline_view_range_update (self, x + dx);
      return;
    }
  pv_timeline_renderer_set_time_range (self->renderer, self->drag_t0, self->drag_t1);
  pv_timeline_renderer_pan (self->renderer, -dx);
  pv_timeline_renderer_set_scroll_y (self->renderer, self->drag_scroll_y - dy);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
drag_end_cb (PvTimelineView *self, double dx, double dy, GtkGestureDrag *gesture)
{
  double x, y;

  if (!self->dragging)
    {
      guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
      GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
      if (!gtk_gesture_drag_get_start_point (gesture, &x, &y))
        return;
      if (button == GDK_BUTTON_PRIMARY)
        select_at (self, x + dx, y + dy, state);
      else if (button == GDK_BUTTON_SECONDARY)
        context_menu_at (self, &(GdkRectangle) { (int) (x + dx), (int) (y + dy), 1, 1 }, TRUE);
      return;
    }
  self->dragging = FALSE;
  if (self->ranging)
    {
      self->ranging = FALSE;
      g_signal_emit (self, signals[RANGE_CHANGED], 0);
    }
  gtk_widget_set_cursor (GTK_WIDGET (self), NULL);
  update_hover (self);
}

static void
pinch_begin_cb (PvTimelineView *self, GdkEventSequence *sequence, GtkGestureZoom *gesture)
{
  self->pinch_scale = 1.0;
}

static void
pinch_scale_changed_cb (PvTimelineView *self, double scale, GtkGestureZoom *gesture)
{
  double x, y;

  if (scale <= 0 || self->pinch_scale <= 0)
    return;
  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &x, &y))
    x = zoom_anchor_x (self);
  zoom_at (self, scale / self->pinch_scale, x);
  self->pinch_scale = scale;
}

/* ---- actions ---- */

static void
zoom_in_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_timeline_view_zoom (PV_TIMELINE_VIEW (widget), KEY_ZOOM_STEP);
}

static void
zoom_out_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_timeline_view_zoom (PV_TIMELINE_VIEW (widget), 1.0 / KEY_ZOOM_STEP);
}

static void
zoom_fit_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_timeline_view_zoom_fit (PV_TIMELINE_VIEW (widget));
}

static void
focus_selection_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_timeline_view_focus_selection (PV_TIMELINE_VIEW (widget));
}

/* Esc: the range first, if any, then the selection. */
static void
clear_selection_action (GtkWidget *widget, const char *name, GVariant *param)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (widget);

  if (self->options.range_t1 > self->options.range_t0)
    pv_timeline_view_set_range (self, 0, 0);
  else
    pv_timeline_view_clear_selection (self);
}

static void
jump_to_peak_action (GtkWidget *widget, const char *name, GVariant *param)
{
  if (!pv_timeline_view_jump_to_peak (PV_TIMELINE_VIEW (widget)))
    gtk_widget_error_bell (widget);
}

static void
pan_action (GtkWidget *widget, const char *name, GVariant *param)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (widget);
  double dx, dy;

  g_variant_get (param, "(dd)", &dx, &dy);
  if (dx != 0)
    pan_by (self, dx * gtk_widget_get_width (widget));
  if (dy != 0)
    scroll_by (self, dy);
}

static void
move_nodes_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_timeline_view_request_move (PV_TIMELINE_VIEW (widget), g_variant_get_int32 (param));
}

static void
run_on_device_action (GtkWidget *widget, const char *name, GVariant *param)
{
  int device, stream;

  g_variant_get (param, "(ii)", &device, &stream);
  pv_timeline_view_request_run_on_device (PV_TIMELINE_VIEW (widget), device, stream);
}

/* Menu key, Shift+F10: the menu under the selected kernel (or in the
 * middle when it is out of sight). */
static void
context_menu_action (GtkWidget *widget, const char *name, GVariant *param)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  GdkRectangle at = { width / 2, height / 2, 1, 1 };
  double kx, ky, kw, kh;

  if (self->renderer == NULL)
    return;
  if (self->options.selection.kind == PV_TIMELINE_HIT_KERNEL &&
      pv_timeline_renderer_get_kernel_rect (self->renderer, self->model->node_kernel[self->options.selection.id],
                                            &kx, &ky, &kw, &kh) &&
      kx + kw > 0 && kx < width && ky + kh > 0 && ky < height)
    {
      at.x = (int) MAX (kx, 0);
      at.y = (int) ky;
      at.width = (int) MAX (MIN (kx + kw, width) - at.x, 1);
      at.height = (int) kh;
    }
  if (!context_menu_at (self, &at, FALSE))
    gtk_widget_error_bell (widget);
}

static void
show_shortcuts_action (GtkWidget *widget, const char *name, GVariant *param)
{
  gtk_widget_activate_action (widget, "win.show-help-overlay", NULL);
}

/* ---- GtkWidget ---- */

/* The renderer's palette follows the style's text colour: light text is
 * a dark style (Adwaita:dark, gtk-application-prefer-dark-theme). GTK
 * redraws the view when its style changes. */
static void
follow_style (PvTimelineView *self)
{
  GdkRGBA fg;
  gboolean dark;

  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), &fg);
  dark = 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5;
  if (dark != self->options.dark)
    {
      self->options.dark = dark;
      pv_timeline_renderer_set_options (self->renderer, &self->options);
    }
}

static void
pv_timeline_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->renderer == NULL || width <= 0 || height <= 0)
    return;
  follow_style (self);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  /* Dimmed in cairo, not with an opacity node: GTK 4.8's cairo renderer
   * crashed (a write in cairo_paint) fading a banner over an opacity node
   * holding a large timeline. */
  if (self->dimmed)
    cairo_push_group (cr);
  pv_timeline_renderer_draw (self->renderer, cr);
  if (self->dimmed)
    {
      cairo_pop_group_to_source (cr);
      cairo_paint_with_alpha (cr, DIMMED_OPACITY);
    }
  cairo_destroy (cr);
  self->frames_drawn++;
}

static void
pv_timeline_view_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (widget);
  const PvTimelineViewport *vp;

  /* A popover child is sized and placed by its parent's allocation. */
  if (self->menu)
    gtk_popover_present (GTK_POPOVER (self->menu));
  if (self->renderer == NULL)
    return;
  vp = pv_timeline_renderer_get_viewport (self->renderer);
  if (vp->width != width || vp->height != height)
    {
      double scroll_y = vp->scroll_y;
      pv_timeline_renderer_set_size (self->renderer, width, height);
      pv_timeline_renderer_set_scroll_y (self->renderer, scroll_y);
    }
}

static void
pv_timeline_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural,
                          int *minimum_baseline, int *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 320;
      *natural = 900;
    }
  else
    {
      *minimum = 200;
      *natural = 600;
    }
}

static gboolean
pv_timeline_view_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard_mode, GtkTooltip *tooltip)
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

static void
pv_timeline_view_unrealize (GtkWidget *widget)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (widget);

  if (self->tick_id)
    {
      gtk_widget_remove_tick_callback (widget, self->tick_id);
      self->tick_id = 0;
    }
  self->held = 0;
  GTK_WIDGET_CLASS (pv_timeline_view_parent_class)->unrealize (widget);
}

/* ---- GObject ---- */

static void
pv_timeline_view_dispose (GObject *object)
{
  PvTimelineView *self = (PvTimelineView *) object;

  g_clear_pointer (&self->menu, gtk_widget_unparent);
  G_OBJECT_CLASS (pv_timeline_view_parent_class)->dispose (object);
}

static void
pv_timeline_view_finalize (GObject *object)
{
  PvTimelineView *self = (PvTimelineView *) object;

  g_clear_pointer (&self->selected, g_array_unref);
  _pv_timeline_view_focus_finalize (self);
  g_clear_pointer (&self->renderer, pv_timeline_renderer_free);
  g_clear_pointer (&self->model, pv_timeline_model_unref);
  G_OBJECT_CLASS (pv_timeline_view_parent_class)->finalize (object);
}

static void
pv_timeline_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_MEMORY_VIEW: g_value_set_int (value, self->options.memory_view); break;
    case PROP_COLOUR_BY: g_value_set_int (value, self->options.colour_by); break;
    case PROP_ARROWS: g_value_set_uint (value, self->options.arrows); break;
    case PROP_DIMMED: g_value_set_boolean (value, self->dimmed); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pv_timeline_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_MEMORY_VIEW: pv_timeline_view_set_memory_view (self, g_value_get_int (value)); break;
    case PROP_COLOUR_BY: pv_timeline_view_set_colour_by (self, g_value_get_int (value)); break;
    case PROP_ARROWS: pv_timeline_view_set_arrows (self, g_value_get_uint (value)); break;
    case PROP_DIMMED: pv_timeline_view_set_dimmed (self, g_value_get_boolean (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pv_timeline_view_class_init (PvTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pv_timeline_view_dispose;
  object_class->finalize = pv_timeline_view_finalize;
  object_class->get_property = pv_timeline_view_get_property;
  object_class->set_property = pv_timeline_view_set_property;

  widget_class->snapshot = pv_timeline_view_snapshot;
  widget_class->size_allocate = pv_timeline_view_size_allocate;
  widget_class->measure = pv_timeline_view_measure;
  widget_class->query_tooltip = pv_timeline_view_query_tooltip;
  widget_class->unrealize = pv_timeline_view_unrealize;

  properties[PROP_MEMORY_VIEW] =
    g_param_spec_int ("memory-view", NULL, NULL, 0, PV_TIMELINE_N_MEMORY_VIEWS - 1, PV_TIMELINE_MEMORY_SLOTS,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_COLOUR_BY] =
    g_param_spec_int ("colour-by", NULL, NULL, PV_TIMELINE_COLOUR_BY_OP, PV_TIMELINE_COLOUR_BY_KIND,
                      PV_TIMELINE_COLOUR_BY_OP, (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_ARROWS] =
    g_param_spec_uint ("arrows", NULL, NULL, 0, PV_TIMELINE_ARROW_ALL, PV_TIMELINE_ARROW_ALL,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_DIMMED] =
    g_param_spec_boolean ("dimmed", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  /**
   * PvTimelineView::move-nodes-requested:
   * @nodes: the names of the nodes to move
   * @stream: the stream to move them to, -1 for a new stream
   *
   * The move menu (or pv_timeline_view_request_move()) asks for the
   * selected kernels to run on another stream; the window edits the
   * partition config.
   */
  signals[MOVE_NODES_REQUESTED] =
    g_signal_new ("move-nodes-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRV, G_TYPE_INT);
  /**
   * PvTimelineView::run-on-device-requested:
   * @nodes: the names of the nodes to move
   * @device: the device type to run them on (0 CPU, 1 GPU)
   * @stream: an existing stream of that device, -1 for a new stream on it
   *
   * The menu's "Run on" items (or pv_timeline_view_request_run_on_device())
   * ask for the selected kernels to run on another device; the window
   * edits the partition config.
   */
  signals[RUN_ON_DEVICE_REQUESTED] =
    g_signal_new ("run-on-device-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_STRV, G_TYPE_INT, G_TYPE_INT);
  /**
   * PvTimelineView::instant-activated:
   * @time: the schedule time
   * @device: the device of the curve clicked (the first curve's for P)
   *
   * A click on a live-bytes curve or its peak marker, or P (jump to the
   * peak): the window shows what is live then and calls
   * pv_timeline_view_set_instant().
   */
  signals[INSTANT_ACTIVATED] =
    g_signal_new ("instant-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_DOUBLE, G_TYPE_INT);
  /**
   * PvTimelineView::range-changed:
   *
   * Shift+drag selected a span, or Esc (pv_timeline_view_set_range() with
   * an empty span) cleared it: pv_timeline_view_get_range() says which.
   */
  signals[RANGE_CHANGED] =
    g_signal_new ("range-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_in_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-fit", NULL, zoom_fit_action);
  gtk_widget_class_install_action (widget_class, "timeline.focus-selection", NULL, focus_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.clear-selection", NULL, clear_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan", "(dd)", pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.show-shortcuts", NULL, show_shortcuts_action);
  gtk_widget_class_install_action (widget_class, "timeline.move-nodes", "i", move_nodes_action);
  gtk_widget_class_install_action (widget_class, "timeline.run-on-device", "(ii)", run_on_device_action);
  gtk_widget_class_install_action (widget_class, "timeline.context-menu", NULL, context_menu_action);
  gtk_widget_class_install_action (widget_class, "timeline.jump-to-peak", NULL, jump_to_peak_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, GDK_CONTROL_MASK, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, GDK_CONTROL_MASK, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "timeline.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_0, GDK_CONTROL_MASK, "timeline.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "timeline.focus-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_p, 0, "timeline.jump-to-peak", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "timeline.clear-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.pan", "(dd)", -0.1, 0.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.pan", "(dd)", 0.1, 0.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "timeline.pan", "(dd)", 0.0, -40.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "timeline.pan", "(dd)", 0.0, 40.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Up, 0, "timeline.pan", "(dd)", 0.0, -300.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Down, 0, "timeline.pan", "(dd)", 0.0, 300.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "timeline.context-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "timeline.context-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_question, 0, "timeline.show-shortcuts", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_question, GDK_SHIFT_MASK, "timeline.show-shortcuts",
                                      NULL);

  gtk_widget_class_set_css_name (widget_class, "pvtimelineview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
pv_timeline_view_init (PvTimelineView *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  pv_timeline_options_init (&self->options);
  self->selected = g_array_new (FALSE, FALSE, sizeof (int));
  _pv_timeline_view_focus_init (self);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect_object (controller, "motion", G_CALLBACK (motion_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (controller, "enter", G_CALLBACK (motion_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (controller, "leave", G_CALLBACK (leave_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), g_steal_pointer (&controller));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect_object (controller, "scroll", G_CALLBACK (scroll_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), g_steal_pointer (&controller));

  controller = gtk_event_controller_key_new ();
  g_signal_connect_object (controller, "key-pressed", G_CALLBACK (key_pressed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (controller, "key-released", G_CALLBACK (key_released_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), g_steal_pointer (&controller));

  controller = gtk_event_controller_focus_new ();
  g_signal_connect_object (controller, "leave", G_CALLBACK (focus_leave_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), g_steal_pointer (&controller));

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect_object (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gesture, "drag-update", G_CALLBACK (drag_update_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gesture, "drag-end", G_CALLBACK (drag_end_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (g_steal_pointer (&gesture)));

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect_object (gesture, "begin", G_CALLBACK (pinch_begin_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gesture, "scale-changed", G_CALLBACK (pinch_scale_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (g_steal_pointer (&gesture)));

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, "Memory timeline", -1);
  update_accessible (self);
}

/* ---- public API ---- */

PvTimelineModel *
pv_timeline_view_get_model (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), NULL);
  return self->model;
}

PvTimelineRenderer *
pv_timeline_view_get_renderer (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), NULL);
  return self->renderer;
}

void
pv_timeline_view_set_model (PvTimelineView *self, PvTimelineModel *model)
{
  PvTimelineSelection none = { PV_TIMELINE_HIT_NONE, -1 };
  gboolean keep_range = FALSE, selection_lost;
  double t0 = 0, t1 = 0, scroll_y = 0;

  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  if (model == self->model)
    return;
  if (model)
    pv_timeline_model_ref (model);

  /* Keep a zoomed-in range when the axis is about the same; a view that
   * showed everything shows everything again. */
  if (self->renderer && self->model && model)
    {
      const PvTimelineViewport *vp = pv_timeline_renderer_get_viewport (self->renderer);
      double old_end = self->model->t_end;
      gboolean was_fit = vp->t0 <= 0.5 && vp->t1 >= old_end - 0.5;
      t0 = vp->t0;
      t1 = vp->t1;
      scroll_y = vp->scroll_y;
      keep_range = !was_fit && t0 < model->t_end;
    }

  g_clear_pointer (&self->model, pv_timeline_model_unref);
  self->model = model;
  self->frames_drawn = 0;

  if (model == NULL)
    g_clear_pointer (&self->renderer, pv_timeline_renderer_free);
  else
    {
      int width = gtk_widget_get_width (GTK_WIDGET (self));
      int height = gtk_widget_get_height (GTK_WIDGET (self));

      if (self->renderer == NULL)
        self->renderer = pv_timeline_renderer_new (model);
      else
        pv_timeline_renderer_set_model (self->renderer, model);
      if (width > 0 && height > 0)
        pv_timeline_renderer_set_size (self->renderer, width, height);
      if (keep_range)
        pv_timeline_renderer_set_time_range (self->renderer, t0, t1);
      pv_timeline_renderer_set_scroll_y (self->renderer, scroll_y);
    }

  self->options.hover = none;
  selection_lost = !selection_valid (self, &self->options.selection) ||
                   self->options.selection.kind == PV_TIMELINE_HIT_MARK ||
                   self->options.selection.kind == PV_TIMELINE_HIT_ARROW;
  if (selection_lost)
    self->options.selection = none;
  /* Selected kernels the new model does not draw are dropped. */
  for (guint i = self->selected->len; i-- > 0;)
    {
      int node = g_array_index (self->selected, int, i);
      if (model == NULL || node >= model->graph->n_nodes || model->node_kernel[node] < 0)
        {
          g_array_remove_index (self->selected, i);
          selection_lost = TRUE;
        }
    }
  _pv_timeline_view_focus_model_changed (self);
  _pv_timeline_view_push_options (self);
  update_accessible (self);
  if (selection_lost)
    g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

PvTimelineMemoryView
pv_timeline_view_get_memory_view (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), PV_TIMELINE_MEMORY_SLOTS);
  return self->options.memory_view;
}

void
pv_timeline_view_set_memory_view (PvTimelineView *self, PvTimelineMemoryView view)
{
  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));
  g_return_if_fail ((guint) view < PV_TIMELINE_N_MEMORY_VIEWS);

  if (self->options.memory_view == view)
    return;
  self->options.memory_view = view;
  if (self->renderer)
    {
      const PvTimelineViewport *vp = pv_timeline_renderer_get_viewport (self->renderer);
      double scroll_y = vp->scroll_y;
      _pv_timeline_view_push_options (self);
      pv_timeline_renderer_set_scroll_y (self->renderer, scroll_y);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MEMORY_VIEW]);
}

PvTimelineColourBy
pv_timeline_view_get_colour_by (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), PV_TIMELINE_COLOUR_BY_OP);
  return self->options.colour_by;
}

void
pv_timeline_view_set_colour_by (PvTimelineView *self, PvTimelineColourBy colour_by)
{
  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  if (self->options.colour_by == colour_by)
    return;
  self->options.colour_by = colour_by;
  _pv_timeline_view_push_options (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOUR_BY]);
}

guint
pv_timeline_view_get_arrows (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), 0);
  return self->options.arrows;
}

void
pv_timeline_view_set_arrows (PvTimelineView *self, guint arrows)
{
  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  arrows &= PV_TIMELINE_ARROW_ALL;
  if (self->options.arrows == arrows)
    return;
  self->options.arrows = arrows;
  _pv_timeline_view_push_options (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ARROWS]);
}

gboolean
pv_timeline_view_get_dimmed (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), FALSE);
  return self->dimmed;
}

void
pv_timeline_view_set_dimmed (PvTimelineView *self, gboolean dimmed)
{
  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  dimmed = !!dimmed;
  if (self->dimmed == dimmed)
    return;
  self->dimmed = dimmed;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIMMED]);
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

  if (selection == NULL || !selection_valid (self, selection))
    selection = &none;
  set_selection_internal (self, selection);
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
  set_selection_internal_full (self, &sel, set);
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
    g_signal_emit (self, signals[MOVE_NODES_REQUESTED], 0, names, stream);
}

void
pv_timeline_view_request_run_on_device (PvTimelineView *self, int device, int stream)
{
  g_auto (GStrv) names = NULL;

  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  names = selected_names (self);
  if (names)
    g_signal_emit (self, signals[RUN_ON_DEVICE_REQUESTED], 0, names, device, stream);
}

void
pv_timeline_view_clear_selection (PvTimelineView *self)
{
  pv_timeline_view_set_selection (self, NULL);
}

void
pv_timeline_view_zoom (PvTimelineView *self, double factor)
{
  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));
  zoom_at (self, factor, zoom_anchor_x (self));
}

void
pv_timeline_view_zoom_fit (PvTimelineView *self)
{
  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  if (self->renderer == NULL)
    return;
  pv_timeline_renderer_set_time_range (self->renderer, 0, self->model->t_end);
  gtk_widget_queue_draw (GTK_WIDGET (self));
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

guint
pv_timeline_view_get_frames_drawn (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), 0);
  return self->frames_drawn;
}

gboolean
pv_timeline_view_export (PvTimelineView *self, GFile *file, PvTimelineExportFormat format, int scale,
                         const PvTimelineExportInfo *info, GError **error)
{
  g_autoptr (PvTimelineRenderer) renderer = NULL;
  g_autoptr (GBytes) bytes = NULL;
  const PvTimelineViewport *vp;
  PvTimelineOptions options;
  int width, height;

  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (scale == 1 || scale == 2, FALSE);

  if (self->model == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "There is no timeline to export");
      return FALSE;
    }

  /* What the view shows, every row, without the pointer's hover. */
  vp = pv_timeline_renderer_get_viewport (self->renderer);
  width = MAX (vp->width, 800);
  renderer = pv_timeline_renderer_new (self->model);
  options = self->options;
  options.hover.kind = PV_TIMELINE_HIT_NONE;
  /* A document's figure: light whatever the window's style. */
  options.dark = FALSE;
  pv_timeline_renderer_set_options (renderer, &options);
  pv_timeline_renderer_set_size (renderer, width, 600);
  pv_timeline_renderer_set_time_range (renderer, vp->t0, vp->t1);
  height = MAX (pv_timeline_renderer_get_natural_height (renderer), 200);
  pv_timeline_renderer_set_size (renderer, width, height);
  pv_timeline_renderer_set_time_range (renderer, vp->t0, vp->t1);

  bytes = pv_timeline_export (renderer, format, scale, info, error);
  return bytes && pv_save_gfile (file, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), error);
}
