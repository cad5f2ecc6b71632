/* pv-timeline-view-private.h: PvTimelineView's insides, shared by
 * pv-timeline-view.c (the GObject, drawing, the model and options) and
 * pv-timeline-view-input.c (zoom, pan, scroll, drags), -selection.c
 * (selection, hover, tooltips), -actions.c (actions, keys, the move menu)
 * and -focus.c (the instant, the range and the search's finds). */
#pragma once

#include "pv-timeline-view.h"

G_BEGIN_DECLS

struct _PvTimelineView
{
  GtkWidget parent_instance;

  PvTimelineModel *model;
  PvTimelineRenderer *renderer;
  PvTimelineOptions options;
  /* The selected kernels: node ids, ascending. Holds the selection's node
   * when the selection is a kernel; Ctrl/Shift+click add more. */
  GArray *selected;
  /* The open (or last) move menu, a child of the view. */
  GtkWidget *menu;

  /* Pointer, for zooming at it and hover. */
  double pointer_x, pointer_y;

  /* Drag to pan: the viewport when the drag began. */
  double drag_t0, drag_t1, drag_scroll_y;

  /* Pinch: the gesture's scale at the last update. */
  double pinch_scale;

  /* W/S/A/D held: accelerate while the key is down (Perfetto). */
  guint held;
  gint64 held_since;
  gint64 last_frame;
  guint tick_id;

  guint frames_drawn;

  /* The instant's live values and the search's kernels (ids), which the
   * options point into; Shift+drag: the range's first time. */
  GArray *marked_values, *found_nodes;
  double range_anchor;
  int range_device;

  guint pointer_inside : 1;
  guint ranging : 1;
  guint dragging : 1;
  guint dimmed : 1;
};

enum {
  SELECTION_CHANGED,
  MOVE_NODES_REQUESTED,
  RUN_ON_DEVICE_REQUESTED,
  INSTANT_ACTIVATED,
  RANGE_CHANGED,
  N_SIGNALS
};

extern guint _pv_timeline_view_signals[N_SIGNALS];

/* Hands the options (and the arrays they point into) to the renderer. */
void _pv_timeline_view_push_options (PvTimelineView *self);

/* pv-timeline-view-input.c */
/* Adds the event controllers: motion, wheel, keys, focus, drag, pinch. */
void _pv_timeline_view_input_init (PvTimelineView *self);
/* Where keys and actions zoom: the pointer when it is over the view, else
 * the middle. */
double _pv_timeline_view_zoom_anchor_x (PvTimelineView *self);
/* Each redraws when there is a renderer, and does nothing without one. */
void _pv_timeline_view_scroll_by (PvTimelineView *self, double dy);
void _pv_timeline_view_pan_by (PvTimelineView *self, double dx);
void _pv_timeline_view_zoom_at (PvTimelineView *self, double factor, double x);

/* pv-timeline-view-selection.c */
/* What selecting @hit means: a kernel by node, a mark or arrow by index, a
 * value by id; none for anything else. */
PvTimelineSelection _pv_timeline_view_selection_for_hit (const PvTimelineHit *hit);
/* A selection that still means something in the current model. */
gboolean _pv_timeline_view_selection_valid (PvTimelineView *self, const PvTimelineSelection *sel);
/* Makes @sel the selection (and its node, if a kernel, the selected
 * kernels); emits selection-changed when that changes anything. */
void _pv_timeline_view_set_selection (PvTimelineView *self, const PvTimelineSelection *sel);
void _pv_timeline_view_set_hover (PvTimelineView *self, const PvTimelineSelection *sel);
/* The hover follows what is under the pointer (nothing while dragging). */
void _pv_timeline_view_update_hover (PvTimelineView *self);
void _pv_timeline_view_update_accessible (PvTimelineView *self);
/* Index of @node in the sorted node ids @nodes, or -1. */
int _pv_timeline_view_nodes_find (const GArray *nodes, int node);
/* A click at (@x, @y): plain selects what is under it (a click on a curve
 * sets the instant); on a kernel, Ctrl toggles it in the selected kernels
 * and Shift adds it. */
void _pv_timeline_view_select_at (PvTimelineView *self, double x, double y, GdkModifierType state);
gboolean _pv_timeline_view_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard_mode,
                                          GtkTooltip *tooltip);

/* pv-timeline-view-actions.c */
/* Installs the timeline.* actions and binds their keys. */
void _pv_timeline_view_install_actions (GtkWidgetClass *widget_class);
/* Opens the move menu for the selected kernels under @at. @on_kernel (a
 * right-click): only over a kernel, which becomes the selection unless it
 * is selected. FALSE when there is nothing to move. */
gboolean _pv_timeline_view_context_menu_at (PvTimelineView *self, const GdkRectangle *at, gboolean on_kernel);

/* pv-timeline-view-focus.c */
void _pv_timeline_view_focus_init (PvTimelineView *self);
void _pv_timeline_view_focus_finalize (PvTimelineView *self);
/* A plain click on the live-bytes curve: the instant under it (the peak
 * when the pointer is within a few pixels of the peak marker). */
void _pv_timeline_view_activate_curve (PvTimelineView *self, const PvTimelineHit *hit, double x);
/* Shift+drag from (@x, @y): the range follows the pointer; it is of the
 * curve's device when it starts on a live-bytes curve, else the first's. */
void _pv_timeline_view_range_begin (PvTimelineView *self, double x, double y);
void _pv_timeline_view_range_update (PvTimelineView *self, double x);
/* A new model: the instant and range stay if they fit its axis, found
 * kernels and marked values are dropped. */
void _pv_timeline_view_focus_model_changed (PvTimelineView *self);

G_END_DECLS
