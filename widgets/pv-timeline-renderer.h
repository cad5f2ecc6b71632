/* pv-timeline-renderer.h: draws a PvTimelineModel onto any cairo_t.
 *
 * Pure cairo + pango (no GTK): the GTK timeline view, `planviz-cli render`
 * and the golden tests all draw through it. A renderer holds a viewport
 * (visible time range, vertical scroll, size in pixels) and options (memory
 * view, colouring, arrow kinds, selection, hover). Drawing culls to the
 * viewport and merges items narrower than a pixel into one summary mark per
 * pixel column (the largest item of the column wins, so it is also what
 * hit-testing returns there).
 *
 * Screen layout, top to bottom: a pinned time ruler; then, scrolled
 * vertically, the stream lanes, the live-bytes strip per device and the
 * memory lanes of the chosen view; a pinned legend at the bottom. Lane
 * labels sit in a column on the left. */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "pv-timeline-model.h"

G_BEGIN_DECLS

typedef enum {
  PV_TIMELINE_COLOUR_BY_OP,     /* kernels and values by (producer) op type */
  PV_TIMELINE_COLOUR_BY_KIND,   /* values by ORT AllocKind; kernels stay by op */
} PvTimelineColourBy;

typedef enum {
  PV_TIMELINE_HIT_NONE,
  PV_TIMELINE_HIT_KERNEL,       /* index: kernel; node, stream, step */
  PV_TIMELINE_HIT_MARK,         /* index: step mark; node, stream, step */
  PV_TIMELINE_HIT_ARROW,        /* index: arrow; node = source step's node */
  PV_TIMELINE_HIT_VALUE,        /* index: bar in the current memory view; value, bytes */
  PV_TIMELINE_HIT_CURVE,        /* lane: curve; time, bytes (live at that time) */
  PV_TIMELINE_HIT_LANE_HEADER,  /* lane row's label; row kind in lane_kind */
  PV_TIMELINE_HIT_RULER,        /* time */
  PV_TIMELINE_HIT_LEGEND,
} PvTimelineHitKind;

typedef struct {
  PvTimelineHitKind kind;
  int index;                    /* into the model array of that kind, -1 */
  PvTimelineLaneKind lane_kind;
  int lane;                     /* lane index within its kind, -1 */
  int node, value, stream, step; /* -1 when not applicable */
  double time;                  /* schedule time under the pointer */
  guint64 bytes;
} PvTimelineHit;

/* What is selected (or hovered). @id: node id for KERNEL, mark index for
 * MARK, arrow index for ARROW, value id for VALUE (stable across memory
 * views). */
typedef struct {
  PvTimelineHitKind kind;
  int id;
} PvTimelineSelection;

typedef struct {
  PvTimelineMemoryView memory_view;
  PvTimelineColourBy colour_by;
  guint arrows;                 /* PvTimelineArrowFlags shown */
  PvTimelineSelection selection;
  /* More selected kernels, outlined like the selection: node ids, sorted
   * ascending (the renderer keeps its own copy). */
  const int *selected_nodes;
  int n_selected_nodes;
  PvTimelineSelection hover;
  /* An instant (schedule time) marked across every lane; < 0: none. */
  double instant;
  /* A span shaded across the lanes; none unless range_t1 > range_t0. */
  double range_t0, range_t1;
  /* Values whose bars are highlighted (the live set at the instant), and
   * kernels a search found: ids, any order (the renderer copies them). */
  const int *marked_values;
  int n_marked_values;
  const int *found_nodes;
  int n_found_nodes;
  /* An earlier plan of the same graph (the one an edit replaced): its
   * live-bytes curves are drawn dim and dashed behind these, on the same
   * scale; NULL: none. The renderer holds a reference. */
  PvTimelineModel *ghost;
  gboolean show_legend;
  gboolean dark;                /* colours for a dark style (exports stay light) */
  const char *font_family;      /* NULL: "Cantarell, Noto Sans, DejaVu Sans, Sans" */
} PvTimelineOptions;

typedef struct {
  double t0, t1;                /* visible schedule-time range */
  double scroll_y;              /* pixels the scrolled part is moved up */
  int width, height;
} PvTimelineViewport;

typedef struct _PvTimelineRenderer PvTimelineRenderer;

/* Defaults: the slots view, colour by op, every arrow kind, legend on, the
 * whole time range, 1200 × 800 pixels. */
PvTimelineRenderer *pv_timeline_renderer_new (PvTimelineModel *model);
void pv_timeline_renderer_free (PvTimelineRenderer *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvTimelineRenderer, pv_timeline_renderer_free)
void pv_timeline_renderer_set_model (PvTimelineRenderer *self, PvTimelineModel *model);

void pv_timeline_options_init (PvTimelineOptions *options);
const PvTimelineOptions *pv_timeline_renderer_get_options (PvTimelineRenderer *self);
void pv_timeline_renderer_set_options (PvTimelineRenderer *self, const PvTimelineOptions *options);

const PvTimelineViewport *pv_timeline_renderer_get_viewport (PvTimelineRenderer *self);
void pv_timeline_renderer_set_size (PvTimelineRenderer *self, int width, int height);
/* Clamped to the model's axis (with a small margin) and a minimum span. */
void pv_timeline_renderer_set_time_range (PvTimelineRenderer *self, double t0, double t1);
void pv_timeline_renderer_set_scroll_y (PvTimelineRenderer *self, double scroll_y);
/* Zooms by @factor (> 1 zooms in) keeping the time under @x in place. */
void pv_timeline_renderer_zoom (PvTimelineRenderer *self, double factor, double x);
void pv_timeline_renderer_pan (PvTimelineRenderer *self, double dx_pixels);
/* Shows [t0, t1] with a margin (Perfetto's `f`). */
void pv_timeline_renderer_focus (PvTimelineRenderer *self, double t0, double t1);

/* Height of everything that scrolls, and the height it scrolls within. */
double pv_timeline_renderer_get_content_height (PvTimelineRenderer *self);
double pv_timeline_renderer_get_scroll_area_height (PvTimelineRenderer *self);
/* The height that shows every row without scrolling at @width. */
int pv_timeline_renderer_get_natural_height (PvTimelineRenderer *self);

double pv_timeline_renderer_time_to_x (PvTimelineRenderer *self, double t);
double pv_timeline_renderer_x_to_time (PvTimelineRenderer *self, double x);

/* Where kernel @kernel (index into the model's kernels) is drawn, in view
 * pixels; FALSE when its lane is scrolled out of sight. The box may lie
 * left or right of the viewport. */
gboolean pv_timeline_renderer_get_kernel_rect (PvTimelineRenderer *self, int kernel, double *x, double *y, double *w,
                                               double *h);

/* Draws the whole viewport at (0, 0) of @cr's user space. */
void pv_timeline_renderer_draw (PvTimelineRenderer *self, cairo_t *cr);

/* What is under (@x, @y), on the same geometry as the last layout (it is
 * recomputed if the viewport or options changed). Returns FALSE and sets
 * hit->kind = NONE when nothing is there. */
gboolean pv_timeline_renderer_hit_test (PvTimelineRenderer *self, double x, double y, PvTimelineHit *hit);

/* One line describing a hit ("MatMul /layers.0/… · t 12–13"), for tooltips. */
char *pv_timeline_renderer_describe (PvTimelineRenderer *self, const PvTimelineHit *hit);

G_END_DECLS
