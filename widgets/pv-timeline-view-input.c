/* pv-timeline-view-input.c: how the timeline view moves: zoom, pan and
 * scroll, from the wheel, held W/S/A/D keys, drags (Shift+drag: a range),
 * pinches and clicks; the event controllers that deliver them. */
#include "pv-timeline-view-private.h"

#include <math.h>

enum {
  HELD_ZOOM_IN = 1 << 0,
  HELD_ZOOM_OUT = 1 << 1,
  HELD_PAN_LEFT = 1 << 2,
  HELD_PAN_RIGHT = 1 << 3,
};

#define WHEEL_ZOOM_STEP 1.2      /* one wheel notch with Ctrl */
#define WHEEL_SCROLL_PX 48.0     /* one notch, vertically */
#define WHEEL_PAN_PX 64.0        /* one notch, horizontally */
#define CLICK_SLOP 4.0           /* a drag shorter than this is a click */

/* ---- zoom, pan, scroll ---- */

double
_pv_timeline_view_zoom_anchor_x (PvTimelineView *self)
{
  if (self->pointer_inside)
    return self->pointer_x;
  return gtk_widget_get_width (GTK_WIDGET (self)) / 2.0;
}

void
_pv_timeline_view_scroll_by (PvTimelineView *self, double dy)
{
  const PvTimelineViewport *vp;

  if (self->renderer == NULL)
    return;
  vp = pv_timeline_renderer_get_viewport (self->renderer);
  pv_timeline_renderer_set_scroll_y (self->renderer, vp->scroll_y + dy);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_pv_timeline_view_pan_by (PvTimelineView *self, double dx)
{
  if (self->renderer == NULL)
    return;
  pv_timeline_renderer_pan (self->renderer, dx);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_pv_timeline_view_zoom_at (PvTimelineView *self, double factor, double x)
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
    _pv_timeline_view_zoom_at (self, exp (1.6 * boost * dt), _pv_timeline_view_zoom_anchor_x (self));
  if (self->held & HELD_ZOOM_OUT)
    _pv_timeline_view_zoom_at (self, exp (-1.6 * boost * dt), _pv_timeline_view_zoom_anchor_x (self));
  if (self->held & HELD_PAN_LEFT)
    _pv_timeline_view_pan_by (self, -0.45 * width * boost * dt);
  if (self->held & HELD_PAN_RIGHT)
    _pv_timeline_view_pan_by (self, 0.45 * width * boost * dt);
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
        case HELD_ZOOM_IN: _pv_timeline_view_zoom_at (self, PV_TIMELINE_VIEW_ZOOM_STEP, _pv_timeline_view_zoom_anchor_x (self)); break;
        case HELD_ZOOM_OUT: _pv_timeline_view_zoom_at (self, 1.0 / PV_TIMELINE_VIEW_ZOOM_STEP, _pv_timeline_view_zoom_anchor_x (self)); break;
        case HELD_PAN_LEFT: _pv_timeline_view_pan_by (self, -0.1 * width); break;
        default: _pv_timeline_view_pan_by (self, 0.1 * width); break;
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
  _pv_timeline_view_update_hover (self);
}

static void
leave_cb (PvTimelineView *self, GtkEventControllerMotion *controller)
{
  PvTimelineSelection none = { PV_TIMELINE_HIT_NONE, -1 };
  self->pointer_inside = FALSE;
  _pv_timeline_view_set_hover (self, &none);
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
      _pv_timeline_view_zoom_at (self, pow (step, -dy), self->pointer_x);
      return GDK_EVENT_STOP;
    }
  if (state & GDK_SHIFT_MASK)
    {
      double t = dx;
      dx = dy;
      dy = t;
    }
  if (dx != 0)
    _pv_timeline_view_pan_by (self, dx * (wheel ? WHEEL_PAN_PX : 1.0));
  if (dy != 0)
    {
      /* Vertical wheel scrolls the lanes; when they all fit, it pans. */
      if (content_overflows (self))
        _pv_timeline_view_scroll_by (self, dy * (wheel ? WHEEL_SCROLL_PX : 1.0));
      else
        _pv_timeline_view_pan_by (self, dy * (wheel ? WHEEL_PAN_PX : 1.0));
    }
  _pv_timeline_view_update_hover (self);
  return GDK_EVENT_STOP;
}

/* ---- drags and pinches ---- */

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
      _pv_timeline_view_set_hover (self, &none);
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
        _pv_timeline_view_select_at (self, x + dx, y + dy, state);
      else if (button == GDK_BUTTON_SECONDARY)
        _pv_timeline_view_context_menu_at (self, &(GdkRectangle) { (int) (x + dx), (int) (y + dy), 1, 1 }, TRUE);
      return;
    }
  self->dragging = FALSE;
  if (self->ranging)
    {
      self->ranging = FALSE;
      g_signal_emit (self, _pv_timeline_view_signals[RANGE_CHANGED], 0);
    }
  gtk_widget_set_cursor (GTK_WIDGET (self), NULL);
  _pv_timeline_view_update_hover (self);
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
    x = _pv_timeline_view_zoom_anchor_x (self);
  _pv_timeline_view_zoom_at (self, scale / self->pinch_scale, x);
  self->pinch_scale = scale;
}

void
_pv_timeline_view_input_init (PvTimelineView *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

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
}
