/* pv-timeline-renderer-private.h: what the timeline renderer's sources share:
 * geometry, theme, layout records, the renderer's state and the parts each
 * source file draws. Not installed; widgets/ only. */
#pragma once

#include "pv-timeline-renderer.h"

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

#define DEFAULT_FONT "Cantarell, Noto Sans, DejaVu Sans, Sans"

/* ---- colours: a light Adwaita-like theme ---- */

typedef struct {
  double r, g, b;
} Rgb;

#define HEX(x) { ((x) >> 16 & 0xff) / 255.0, ((x) >> 8 & 0xff) / 255.0, ((x) & 0xff) / 255.0 }

/* Op types: Paul Tol's "light" scheme (colour-blind safe, made for dark
 * labels on top), pale grey for "other ops". AllocKinds (NotSet, Allocate,
 * Reuse, PreExisting, AllocateStatically, AllocateOutput, Share,
 * AllocatedExternally): Tol's "bright" scheme, saturated so that it does not
 * read as an op colour. */
static const Rgb palette[PV_TIMELINE_N_COLOURS] = {
  HEX (0x77AADD), HEX (0xEE8866), HEX (0xEEDD88), HEX (0xFFAABB), HEX (0x99DDFF),
  HEX (0x44BB99), HEX (0xBBCC33), HEX (0xAAAA00), HEX (0xDDDDDD),
  HEX (0xDDDDDD), HEX (0x4477AA), HEX (0xEE6677), HEX (0x228833), HEX (0xCCBB44),
  HEX (0xAA3377), HEX (0x66CCEE), HEX (0x999933),
};

/* Dark text reads on it (else white). */
static inline gboolean
is_light (const Rgb *c)
{
  return 0.2126 * c->r + 0.7152 * c->g + 0.0722 * c->b > 0.5;
}

/* The colours that follow the theme: the view's chrome, its text, and the
 * lines drawn over it. Light for GTK's default style and for exports;
 * dark when the widget's style is dark (pal() picks one). */
typedef struct {
  Rgb view_bg, header_bg, section_bg, lane_alt, separator, border;
  Rgb text, dim, faint;
  Rgb load, trigger, notify, alias, arena_held;
} PvTimelinePalette;

extern const PvTimelinePalette pv_timeline_palette_light;
extern const PvTimelinePalette pv_timeline_palette_dark;

static const Rgb c_label = HEX (0x241F31);         /* text on a pale fill, in both */
static const Rgb c_accent = HEX (0x3584E4);
static const Rgb c_hover = HEX (0x1C71D8);
static const Rgb c_curve = HEX (0x3584E4);
static const Rgb c_peak = HEX (0xE01B24);
static const Rgb c_arena_in_use = HEX (0xC64600);    /* ORT's arena: its chunks in use */
static const Rgb c_arena_requested = HEX (0x26A269); /* what kernels asked for */
static const Rgb c_summary = HEX (0xC0BFBC);
static const Rgb c_ghost = HEX (0x77767B);           /* the plan before an edit */

static inline void
set_rgb (cairo_t *cr, const Rgb *c)
{
  cairo_set_source_rgb (cr, c->r, c->g, c->b);
}

static inline void
set_rgba (cairo_t *cr, const Rgb *c, double a)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, a);
}

static inline Rgb
darker (const Rgb *c, double f)
{
  return (Rgb) { c->r * f, c->g * f, c->b * f };
}

static inline guint32
rgb_pixel (const Rgb *c)
{
  return 0xff000000u | (guint32) (c->r * 255 + 0.5) << 16 | (guint32) (c->g * 255 + 0.5) << 8 |
         (guint32) (c->b * 255 + 0.5);
}

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
  PangoFontDescription *fonts[3];
  GHashTable *text_cache;       /* TextKey -> TextEntry: shaped text, reused across frames */
  guint text_serial;            /* bumped when the cache is emptied for another target */
  guint text_target;            /* what the context was last updated for */
  gboolean text_target_known;

  /* the label column, as an image between frames */
  cairo_surface_t *header_cache;
  double header_scroll;
  guint header_generation, header_serial, generation;

  guint32 pixels[PV_TIMELINE_N_COLOURS];   /* the palette as pixels */

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


enum { FONT_NORMAL, FONT_SMALL, FONT_BOLD };

typedef struct {
  PangoLayout *layout;
  int w, h;
} TextEntry;

/* ---- direct pixels ----
 *
 * On an image surface with an unscaled user space (the window's raster,
 * the PNG export, the benchmark), rectangles are written straight into the
 * pixels: cairo's general fill costs about a microsecond per rectangle,
 * which thousands of summary marks cannot afford. Vector targets (SVG, PDF)
 * and transformed contexts take the cairo path. */

typedef struct {
  cairo_surface_t *surface;
  guint32 *px;
  int stride;                   /* in pixels */
  int dx, dy;                   /* user -> device */
  int cx0, cy0, cx1, cy1;       /* clip, device pixels, exclusive ends */
} Direct;

/* Sets up @d for writing pixels in [@x0, @x1) × [@y0, @y1) (user space) and
 * the current clip; FALSE when @cr's target or transform does not allow it.
 * Inline so that callers see it keeps no pointer to @d: @d then stays in
 * registers through their pixel loops (a call they cannot see costs the
 * per-pixel loops their vectorisation). */
static inline gboolean
pv_timeline_direct_begin (cairo_t *cr, Direct *d, double x0, double y0, double x1, double y1)
{
  cairo_surface_t *s = cairo_get_target (cr);
  cairo_matrix_t m;
  double sx, sy, ox, oy;
  cairo_rectangle_list_t *clip;
  gboolean ok = TRUE;

  if (cairo_surface_get_type (s) != CAIRO_SURFACE_TYPE_IMAGE ||
      (cairo_image_surface_get_format (s) != CAIRO_FORMAT_ARGB32 &&
       cairo_image_surface_get_format (s) != CAIRO_FORMAT_RGB24))
    return FALSE;
  cairo_get_matrix (cr, &m);
  cairo_surface_get_device_scale (s, &sx, &sy);
  cairo_surface_get_device_offset (s, &ox, &oy);
  if (m.xx != 1 || m.yy != 1 || m.xy != 0 || m.yx != 0 || sx != 1 || sy != 1 || m.x0 + ox != floor (m.x0 + ox) ||
      m.y0 + oy != floor (m.y0 + oy))
    return FALSE;
  d->dx = (int) (m.x0 + ox);
  d->dy = (int) (m.y0 + oy);
  d->cx0 = MAX ((int) ceil (x0), 0) + d->dx;
  d->cy0 = MAX ((int) ceil (y0), 0) + d->dy;
  d->cx1 = (int) floor (x1) + d->dx;
  d->cy1 = (int) floor (y1) + d->dy;
  /* The caller's clip, when it is one rectangle. */
  clip = cairo_copy_clip_rectangle_list (cr);
  if (clip->status != CAIRO_STATUS_SUCCESS || clip->num_rectangles > 1)
    ok = FALSE;
  else if (clip->num_rectangles == 1)
    {
      const cairo_rectangle_t *r = &clip->rectangles[0];
      d->cx0 = MAX (d->cx0, (int) ceil (r->x) + d->dx);
      d->cy0 = MAX (d->cy0, (int) ceil (r->y) + d->dy);
      d->cx1 = MIN (d->cx1, (int) floor (r->x + r->width) + d->dx);
      d->cy1 = MIN (d->cy1, (int) floor (r->y + r->height) + d->dy);
    }
  else
    d->cx1 = d->cx0;  /* clipped away */
  cairo_rectangle_list_destroy (clip);
  if (!ok)
    return FALSE;
  cairo_surface_flush (s);
  d->surface = s;
  d->px = (guint32 *) cairo_image_surface_get_data (s);
  d->stride = cairo_image_surface_get_stride (s) / 4;
  d->cx0 = MAX (d->cx0, 0);
  d->cy0 = MAX (d->cy0, 0);
  d->cx1 = MIN (d->cx1, cairo_image_surface_get_width (s));
  d->cy1 = MIN (d->cy1, cairo_image_surface_get_height (s));
  return d->px != NULL;
}

/* Tells cairo the pixels changed. */
static inline void
pv_timeline_direct_end (Direct *d)
{
  cairo_surface_mark_dirty (d->surface);
}

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

/* Blends @pixel (opaque) with @alpha over what is there. */
static inline void
direct_blend_column (const Direct *d, int x, int y0, int y1, guint32 pixel, double alpha)
{
  guint a = (guint) (alpha * 256);
  x += d->dx;
  if (x < d->cx0 || x >= d->cx1)
    return;
  y0 = MAX (y0 + d->dy, d->cy0);
  y1 = MIN (y1 + d->dy, d->cy1);
  for (int r = y0; r < y1; r++)
    {
      guint32 *p = d->px + (gsize) r * d->stride + x, v = *p;
      guint32 rb = ((((pixel & 0xff00ff) * a) + ((v & 0xff00ff) * (256 - a))) >> 8) & 0xff00ff;
      guint32 g = ((((pixel & 0x00ff00) * a) + ((v & 0x00ff00) * (256 - a))) >> 8) & 0x00ff00;
      *p = 0xff000000u | rb | g;
    }
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
/* "512 B", "1.5 MiB": newly allocated. */
char *pv_timeline_format_bytes (guint64 bytes);

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
