/* pv-timeline-renderer-private.h: what the timeline renderer's sources share:
 * geometry, layout records, the renderer's state and the parts each source
 * file draws. Colours and fonts are pv-timeline-style.h; writing straight
 * into image pixels is pv-timeline-pixels-private.h. Not installed; widgets/
 * only. */
#pragma once

#include "pv-timeline-renderer.h"
#include "pv-timeline-pixels-private.h"
#include "pv-timeline-style.h"

#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

/* ---- geometry (pixels) ---- */

#define RULER_H 34.0
#define SECTION_H 24.0
#define STREAM_H 38.0
#define STREAM_MARK_Y 8.0      /* centre of the step-mark strip */
#define STREAM_BOX_Y 15.0
#define STREAM_BOX_H 19.0
#define CURVE_H 92.0
#define MEMORY_H 18.0
#define MESSAGE_H 40.0
#define ARENA_MIN_H 220.0
#define ARENA_NATURAL_H 320.0
#define HEADER_W 188.0
#define RIGHT_PAD 18.0
#define LEGEND_ROW_H 22.0
#define LEGEND_PAD 6.0
#define LABEL_MIN_W 30.0       /* narrower boxes get no label */
#define MARK_R 4.0
#define HIT_SLOP 4.0

/* ---- layout records ---- */

typedef enum {
  ROW_SECTION,
  ROW_STREAM,
  ROW_CURVE,
  ROW_MEMORY,
  ROW_MESSAGE,
} RowKind;

typedef struct {
  RowKind kind;
  int lane;           /* index in its kind's lane array */
  double y, h;        /* content coordinates */
  const char *title;  /* sections and messages */
  char *detail;       /* sections: owned */
} Row;

typedef enum {
  LEGEND_SWATCH,
  LEGEND_MARK,
  LEGEND_ARROW,
  LEGEND_LINE,
  LEGEND_VIEW,
  LEGEND_HEADING,
} LegendKind;

typedef struct {
  LegendKind kind;
  int arg;            /* colour index, mark kind, arrow kind, line style */
  char *text;
  double x, y, w;     /* screen position of the item (swatch + text) */
} LegendItem;

typedef struct {
  float x, y, w, h;
} Rect;

typedef struct {
  double x, y, w, h;
  const char *text;
  int len;
  gboolean start_ellipsis;
  gboolean on_dark;            /* white text */
} Label;

struct _PvTimelineRenderer {
  PvTimelineModel *model;
  PvTimelineOptions options;
  char *font_family;
  int *selected_nodes;          /* options.selected_nodes points here */
  int *marked_values, *found_nodes; /* and options.marked_values, found_nodes */
  PvTimelineModel *ghost;       /* options.ghost, referenced */
  PvTimelineViewport vp;

  /* layout */
  gboolean layout_valid;
  GArray *rows;                 /* Row */
  int *stream_row, *curve_row, *memory_row;
  int n_memory_rows;
  double content_h, scroll_top, scroll_h, legend_h;
  double area_x0, area_x1;
  GArray *legend;               /* LegendItem */

  /* text */
  PangoContext *pango;
  PangoFontDescription *fonts[N_FONTS];
  GHashTable *text_cache;       /* TextKey -> TextEntry: shaped text, reused across frames */
  guint text_serial;            /* bumped when the cache is emptied for another target */
  guint text_target;            /* what the context was last updated for */
  gboolean text_target_known;

  /* the label column, as an image between frames */
  cairo_surface_t *header_cache;
  double header_scroll;
  guint header_generation, header_serial, generation;

  guint32 pixels[PV_TIMELINE_N_COLOURS];   /* pv_timeline_fills as pixels */

  /* per-frame scratch */
  GArray *batch[PV_TIMELINE_N_COLOURS + 1];   /* last: summary grey */
  GArray *outline[PV_TIMELINE_N_COLOURS];
  GArray *tint[PV_TIMELINE_N_COLOURS];        /* the unused part of a slot or buffer */
  GArray *labels;
  guint32 *raster;
  gsize raster_size;
};

static inline const PvTimelinePalette *
pal (const PvTimelineRenderer *self)
{
  return self->options.dark ? &pv_timeline_palette_dark : &pv_timeline_palette_light;
}

#define SUMMARY_COLOUR PV_TIMELINE_N_COLOURS


typedef struct {
  PangoLayout *layout;
  int w, h;
} TextEntry;

/* ---- small helpers, inline: they run once per kernel or bar ---- */

static inline double
scale (PvTimelineRenderer *self)
{
  return (self->area_x1 - self->area_x0) / MAX (self->vp.t1 - self->vp.t0, 1e-12);
}

static inline const PvTimelineMemory *
current_memory (PvTimelineRenderer *self)
{
  return &self->model->memory[self->options.memory_view];
}

static inline double
row_screen_y (PvTimelineRenderer *self, const Row *row)
{
  return self->scroll_top + row->y - self->vp.scroll_y;
}

/* ---- batching ---- */

static inline void
push_rect (GArray *batch, double x, double y, double w, double h)
{
  Rect r = { (float) x, (float) y, (float) w, (float) h };
  g_array_append_val (batch, r);
}

/* One pixel column's summary: the heaviest item starting in it. */
typedef struct {
  int col;
  float weight;
  guint8 colour;
  double y, h;
} Column;

#define NO_COLUMN G_MININT

static inline void
column_flush (PvTimelineRenderer *self, Column *c)
{
  if (c->col != NO_COLUMN)
    {
      GArray *batch = self->batch[c->colour];
      Rect *last = batch->len ? &g_array_index (batch, Rect, batch->len - 1) : NULL;
      /* Runs of one colour become one rectangle. */
      if (last && last->x + last->w == c->col && last->y == (float) c->y && last->h == (float) c->h)
        last->w += 1;
      else
        push_rect (batch, c->col, c->y, 1, c->h);
    }
  c->col = NO_COLUMN;
}

static inline void
column_add (PvTimelineRenderer *self, Column *c, double x, float weight, guint8 colour, double y, double h)
{
  int col = (int) floor (x);
  if (col != c->col)
    {
      column_flush (self, c);
      *c = (Column) { col, weight, colour, y, h };
    }
  else if (weight > c->weight)
    {
      c->weight = weight;
      c->colour = colour;
    }
}

/* Snaps [x0, x1) to pixels. Returns FALSE when narrower than one pixel. */
static inline gboolean
snap_span (PvTimelineRenderer *self, double x0, double x1, double *a, double *b)
{
  double lo = self->area_x0 - 4, hi = self->area_x1 + 4;
  double sa = floor (CLAMP (x0, lo, hi) + 0.5), sb = floor (CLAMP (x1, lo, hi) + 0.5);
  if (x1 - x0 < 1.0 || sb - sa < 1)
    return FALSE;
  *a = sa;
  *b = sb;
  return TRUE;
}

/* ---- pv-timeline-renderer.c: layout ---- */

/* Lays out rows and legend for the current model, options and size, unless still valid. */
void pv_timeline_ensure_layout (PvTimelineRenderer *self);
/* Index of the first row whose bottom is below content y @cy (rows->len if none). */
int pv_timeline_first_row_at (PvTimelineRenderer *self, double cy);
/* Whether row @row_index is (partly) in the scrolled area; sets *@y to its screen y. */
gboolean pv_timeline_row_visible (PvTimelineRenderer *self, int row_index, double *y);

/* ---- pv-timeline-text.c: text, shaped once and cached across frames ---- */

/* An empty cache for PvTimelineRenderer.text_cache. */
GHashTable *pv_timeline_text_cache_new (void);
/* @text (@len bytes, or < 0: NUL-terminated) shaped in @font, ellipsized to @width
 * (< 0: natural width); owned by the cache, valid until it is emptied. */
const TextEntry *pv_timeline_shaped_text (PvTimelineRenderer *self, int font, const char *text, int len, double width,
                                          PangoEllipsizeMode ellipsize);
double pv_timeline_text_width (PvTimelineRenderer *self, int font, const char *text);
/* Shows @e with its left edge at @x, vertically centred on @cy; @colour NULL: the current source. */
void pv_timeline_show_text (cairo_t *cr, const TextEntry *e, double x, double cy, const Rgb *colour);
/* Draws @text with its left edge at @x, vertically centred on @cy; ellipsized
 * to @width when >= 0. Returns the drawn width. */
double pv_timeline_draw_text (PvTimelineRenderer *self, cairo_t *cr, int font, const char *text, double x, double cy,
                              double width, PangoEllipsizeMode ellipsize, const Rgb *colour);
/* Same, right-aligned at @right, never ellipsized. */
double pv_timeline_draw_text_right (PvTimelineRenderer *self, cairo_t *cr, int font, const char *text, double right,
                                    double cy, const Rgb *colour);

/* ---- pv-timeline-batch.c: batched fills and labels ---- */

/* Fills and empties the tint, colour and outline batches, in that order. */
void pv_timeline_flush_batches (PvTimelineRenderer *self, cairo_t *cr);
/* Queues a label for [x, x + w) × [y, y + h); @text must outlive the frame.
 * @start: when too long, keep its last path component. @on_dark: white text. */
void pv_timeline_push_label (PvTimelineRenderer *self, double x, double y, double w, double h, const char *text,
                             int len, gboolean start, gboolean on_dark);
/* Draws and empties the queued labels. */
void pv_timeline_flush_labels (PvTimelineRenderer *self, cairo_t *cr);

/* ---- pv-timeline-draw-streams.c: stream lanes ---- */

/* Where step mark @mk of a lane at screen @lane_y is drawn. */
void pv_timeline_mark_position (PvTimelineRenderer *self, const PvTimelineMark *mk, double lane_y, double *x,
                                double *y);
/* One step mark (legend and lanes). */
void pv_timeline_draw_mark (PvTimelineRenderer *self, cairo_t *cr, PvTimelineMarkKind kind, double x, double y);
/* Queues the kernel boxes and labels of a stream row (see pv_timeline_flush_batches). */
void pv_timeline_draw_stream_boxes (PvTimelineRenderer *self, const Row *row, double y);
/* Draws the step marks of a stream row. */
void pv_timeline_draw_stream_marks (PvTimelineRenderer *self, cairo_t *cr, const Row *row, double y);
/* A filled arrow head at (@x, @y) pointing along (@dx, @dy). */
void pv_timeline_arrow_head (cairo_t *cr, double x, double y, double dx, double dy, double size);
/* The Bézier control points of sync arrow @a; FALSE when neither end's lane is visible. */
gboolean pv_timeline_arrow_geometry (PvTimelineRenderer *self, const PvTimelineArrow *a, double p[4][2]);
void pv_timeline_stroke_arrow (cairo_t *cr, double p[4][2], const Rgb *colour, double width, double alpha);
/* Draws the sync arrows between visible stream lanes. */
void pv_timeline_draw_arrows (PvTimelineRenderer *self, cairo_t *cr);

/* ---- pv-timeline-draw-curve.c: live-bytes curves ---- */

/* 1, 2 or 5 × a power of ten, >= @raw. */
double pv_timeline_nice_step (double raw);
/* 1, 2 or 5 × a power of ten (below 1000) × a power of 1024, >= @raw:
 * for byte grids. */
double pv_timeline_nice_byte_step (double raw);
/* The top of curve @curve's byte scale. */
guint64 pv_timeline_curve_ymax (PvTimelineRenderer *self, int curve);
/* The ghost's curve of @device (options.ghost), NULL when none. */
const PvTimelineCurve *pv_timeline_ghost_curve (PvTimelineRenderer *self, int device);
void pv_timeline_draw_curve_row (PvTimelineRenderer *self, cairo_t *cr, const Row *row, double y);

/* ---- pv-timeline-draw-memory.c: memory lanes (slots, buffers, the arena) ---- */

/* A bar's vertical extent in a lane row at screen @y. */
void pv_timeline_bar_rows (const Row *row, const PvTimelineLane *lane, const PvTimelineBar *bar, double y, double *by,
                           double *bh);
void pv_timeline_draw_memory_row (PvTimelineRenderer *self, cairo_t *cr, const Row *row, double y);
/* Draws the in-place reuse links between memory bars. */
void pv_timeline_draw_links (PvTimelineRenderer *self, cairo_t *cr);

/* ---- pv-timeline-draw-selection.c: hover, selection, selected nodes ---- */

/* Kernel @kernel's box on screen; FALSE when its lane is not visible. */
gboolean pv_timeline_kernel_rect (PvTimelineRenderer *self, int kernel, double *x, double *y, double *w, double *h);
/* Outlines what @sel names and what it touches (a kernel's input and
 * output bars, …); @hover: thinner, in the hover colour. */
void pv_timeline_draw_highlight (PvTimelineRenderer *self, cairo_t *cr, const PvTimelineSelection *sel,
                                 gboolean hover);
void pv_timeline_draw_selected_kernels (PvTimelineRenderer *self, cairo_t *cr);
/* The options' range (shaded), instant (a line down to @bottom), marked
 * values' bars and found kernels. */
void pv_timeline_draw_focus (PvTimelineRenderer *self, cairo_t *cr, double bottom);

/* ---- pv-timeline-ruler.c: the time ruler ---- */

void pv_timeline_draw_gridlines (PvTimelineRenderer *self, cairo_t *cr);
/* The time of the highest live-bytes peak over all curves (sets *@peak), or < 0 without curves. */
double pv_timeline_global_peak_time (const PvTimelineModel *m, guint64 *peak);
void pv_timeline_draw_ruler (PvTimelineRenderer *self, cairo_t *cr);
/* A time tick's label at @step's precision into @buf ("0", never "-0"). */
void pv_timeline_format_tick (char *buf, gsize n, double v, double step);

/* ---- pv-timeline-legend.c ---- */

/* Fills self->legend, flowed into rows; returns the legend height. */
double pv_timeline_layout_legend (PvTimelineRenderer *self);
void pv_timeline_draw_legend (PvTimelineRenderer *self, cairo_t *cr);

/* ---- pv-timeline-header-column.c: the lane label column ---- */

/* Draws the headers of rows [@first, @last), from an image kept between frames when the target allows. */
void pv_timeline_draw_header_column (PvTimelineRenderer *self, cairo_t *cr, int first, int last);
