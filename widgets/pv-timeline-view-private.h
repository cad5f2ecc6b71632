/* pv-timeline-view-private.h: PvTimelineView's insides, shared by
 * pv-timeline-view.c and pv-timeline-view-focus.c (the instant, the range
 * and the search's finds). */
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
