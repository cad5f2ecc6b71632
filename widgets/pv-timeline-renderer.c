/* pv-timeline-renderer.c: lays out and draws a PvTimelineModel (see the header). */
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
static gboolean
is_light (const Rgb *c)
{
  return 0.2126 * c->r + 0.7152 * c->g + 0.0722 * c->b > 0.5;
}

static const char *const kind_names[PV_TIMELINE_N_KIND_COLOURS] = {
  "not set", "Allocate", "Reuse", "PreExisting", "AllocateStatically", "AllocateOutput", "Share", "AllocatedExternally",
};

static const Rgb c_view_bg = HEX (0xFFFFFF);
static const Rgb c_header_bg = HEX (0xFAFAFA);
static const Rgb c_section_bg = HEX (0xF3F2F1);
static const Rgb c_lane_alt = HEX (0xF8F8F7);
static const Rgb c_separator = HEX (0xE3E2E0);
static const Rgb c_border = HEX (0xD3D2CF);
static const Rgb c_text = HEX (0x241F31);
static const Rgb c_dim = HEX (0x5E5C64);
static const Rgb c_faint = HEX (0x9A9996);
static const Rgb c_accent = HEX (0x3584E4);
static const Rgb c_hover = HEX (0x1C71D8);
static const Rgb c_trigger = HEX (0x1A5FB4);   /* trigger -> barrier */
static const Rgb c_notify = HEX (0xC64600);    /* notification -> wait */
static const Rgb c_alias = HEX (0x813D9C);
static const Rgb c_curve = HEX (0x3584E4);
static const Rgb c_peak = HEX (0xE01B24);
static const Rgb c_load = HEX (0x3D3846);
static const Rgb c_summary = HEX (0xC0BFBC);

static void
set_rgb (cairo_t *cr, const Rgb *c)
{
  cairo_set_source_rgb (cr, c->r, c->g, c->b);
}

static void
set_rgba (cairo_t *cr, const Rgb *c, double a)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, a);
}

static Rgb
darker (const Rgb *c, double f)
{
  return (Rgb) { c->r * f, c->g * f, c->b * f };
}

static guint32
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

#define SUMMARY_COLOUR PV_TIMELINE_N_COLOURS

/* ---- viewport ---- */

static void
invalidate (PvTimelineRenderer *self)
{
  self->layout_valid = FALSE;
  self->generation++;
}

static double
scale (PvTimelineRenderer *self)
{
  return (self->area_x1 - self->area_x0) / MAX (self->vp.t1 - self->vp.t0, 1e-12);
}

double
pv_timeline_renderer_time_to_x (PvTimelineRenderer *self, double t)
{
  return self->area_x0 + (t - self->vp.t0) * scale (self);
}

double
pv_timeline_renderer_x_to_time (PvTimelineRenderer *self, double x)
{
  return self->vp.t0 + (x - self->area_x0) / scale (self);
}

static void
update_area (PvTimelineRenderer *self)
{
  self->area_x0 = HEADER_W;
  self->area_x1 = MAX (self->vp.width - RIGHT_PAD, self->area_x0 + 10);
}

void
pv_timeline_options_init (PvTimelineOptions *options)
{
  memset (options, 0, sizeof *options);
  options->memory_view = PV_TIMELINE_MEMORY_SLOTS;
  options->colour_by = PV_TIMELINE_COLOUR_BY_OP;
  options->arrows = PV_TIMELINE_ARROW_ALL;
  options->selection.kind = PV_TIMELINE_HIT_NONE;
  options->hover.kind = PV_TIMELINE_HIT_NONE;
  options->show_legend = TRUE;
}

enum { FONT_NORMAL, FONT_SMALL, FONT_BOLD };

static void
setup_fonts (PvTimelineRenderer *self)
{
  const char *family = self->font_family ? self->font_family : DEFAULT_FONT;

  for (int i = 0; i < 3; i++)
    g_clear_pointer (&self->fonts[i], pango_font_description_free);
  self->fonts[FONT_NORMAL] = pango_font_description_new ();
  pango_font_description_set_family (self->fonts[FONT_NORMAL], family);
  pango_font_description_set_size (self->fonts[FONT_NORMAL], 8 * PANGO_SCALE);  /* 10.7 px at 96 dpi */
  self->fonts[FONT_SMALL] = pango_font_description_copy (self->fonts[FONT_NORMAL]);
  pango_font_description_set_size (self->fonts[FONT_SMALL], (int) (7.5 * PANGO_SCALE));
  self->fonts[FONT_BOLD] = pango_font_description_copy (self->fonts[FONT_NORMAL]);
  pango_font_description_set_weight (self->fonts[FONT_BOLD], PANGO_WEIGHT_BOLD);
  if (self->text_cache)
    g_hash_table_remove_all (self->text_cache);
}

/* ---- the text cache: shaping is the costly part of text ---- */

typedef struct {
  guint8 font;
  guint8 ellipsize;
  int width;                    /* pixels, -1: natural */
  int len;
  char text[];
} TextKey;

typedef struct {
  PangoLayout *layout;
  int w, h;
} TextEntry;

#define TEXT_CACHE_MAX 6000

static guint
text_key_hash (gconstpointer p)
{
  const TextKey *k = p;
  guint h = 5381u + k->font * 33u + k->ellipsize * 1031u + (guint) k->width * 2654435761u;
  for (int i = 0; i < k->len; i++)
    h = h * 33u + (guchar) k->text[i];
  return h;
}

static gboolean
text_key_equal (gconstpointer a, gconstpointer b)
{
  const TextKey *x = a, *y = b;
  return x->font == y->font && x->ellipsize == y->ellipsize && x->width == y->width && x->len == y->len &&
         memcmp (x->text, y->text, x->len) == 0;
}

static void
text_entry_free (gpointer p)
{
  TextEntry *e = p;
  g_object_unref (e->layout);
  g_free (e);
}

/* @text shaped in @font, ellipsized to @width (< 0: natural width). */
static const TextEntry *
shaped (PvTimelineRenderer *self, int font, const char *text, int len, double width, PangoEllipsizeMode ellipsize)
{
  TextKey *key;
  TextEntry *entry;
  gsize n = len < 0 ? strlen (text) : (gsize) len;
  char stack[sizeof (TextKey) + 128];

  key = n < 128 ? (TextKey *) stack : g_malloc (sizeof (TextKey) + n);
  key->font = (guint8) font;
  key->ellipsize = (guint8) (width >= 0 ? ellipsize : PANGO_ELLIPSIZE_NONE);
  key->width = width >= 0 ? (int) floor (width) : -1;
  key->len = (int) n;
  memcpy (key->text, text, n);
  entry = g_hash_table_lookup (self->text_cache, key);
  if (entry == NULL)
    {
      TextKey *owned = g_malloc (sizeof (TextKey) + n);
      memcpy (owned, key, sizeof (TextKey) + n);
      if (g_hash_table_size (self->text_cache) >= TEXT_CACHE_MAX)
        g_hash_table_remove_all (self->text_cache);
      entry = g_new0 (TextEntry, 1);
      entry->layout = pango_layout_new (self->pango);
      pango_layout_set_font_description (entry->layout, self->fonts[font]);
      pango_layout_set_text (entry->layout, text, (int) n);
      if (key->width >= 0)
        {
          pango_layout_set_ellipsize (entry->layout, ellipsize);
          pango_layout_set_width (entry->layout, key->width * PANGO_SCALE);
        }
      pango_layout_get_pixel_size (entry->layout, &entry->w, &entry->h);
      g_hash_table_insert (self->text_cache, owned, entry);
    }
  if ((char *) key != stack)
    g_free (key);
  return entry;
}

PvTimelineRenderer *
pv_timeline_renderer_new (PvTimelineModel *model)
{
  PvTimelineRenderer *self = g_new0 (PvTimelineRenderer, 1);
  cairo_font_options_t *fo;

  g_return_val_if_fail (model != NULL, NULL);
  self->model = pv_timeline_model_ref (model);
  pv_timeline_options_init (&self->options);
  self->vp = (PvTimelineViewport) { 0, model->t_end, 0, 1200, 800 };
  self->rows = g_array_new (FALSE, TRUE, sizeof (Row));
  self->legend = g_array_new (FALSE, TRUE, sizeof (LegendItem));
  self->labels = g_array_new (FALSE, FALSE, sizeof (Label));
  for (int i = 0; i <= PV_TIMELINE_N_COLOURS; i++)
    self->batch[i] = g_array_new (FALSE, FALSE, sizeof (Rect));
  for (int i = 0; i < PV_TIMELINE_N_COLOURS; i++)
    {
      self->outline[i] = g_array_new (FALSE, FALSE, sizeof (Rect));
      self->tint[i] = g_array_new (FALSE, FALSE, sizeof (Rect));
    }

  self->pango = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  fo = cairo_font_options_create ();
  /* Unhinted metrics: the same text widths on PNG, SVG and PDF. */
  cairo_font_options_set_hint_metrics (fo, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (fo, CAIRO_HINT_STYLE_SLIGHT);
  cairo_font_options_set_antialias (fo, CAIRO_ANTIALIAS_GRAY);
  pango_cairo_context_set_font_options (self->pango, fo);
  cairo_font_options_destroy (fo);
  pango_cairo_context_set_resolution (self->pango, 96);
  for (int i = 0; i < PV_TIMELINE_N_COLOURS; i++)
    self->pixels[i] = rgb_pixel (&palette[i]);
  self->text_cache = g_hash_table_new_full (text_key_hash, text_key_equal, g_free, text_entry_free);
  setup_fonts (self);
  update_area (self);
  return self;
}

static void
clear_rows (PvTimelineRenderer *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    g_free (g_array_index (self->rows, Row, i).detail);
  g_array_set_size (self->rows, 0);
  for (guint i = 0; i < self->legend->len; i++)
    g_free (g_array_index (self->legend, LegendItem, i).text);
  g_array_set_size (self->legend, 0);
}

void
pv_timeline_renderer_free (PvTimelineRenderer *self)
{
  if (self == NULL)
    return;
  clear_rows (self);
  g_free (self->selected_nodes);
  g_array_unref (self->rows);
  g_array_unref (self->legend);
  g_array_unref (self->labels);
  for (int i = 0; i <= PV_TIMELINE_N_COLOURS; i++)
    g_array_unref (self->batch[i]);
  for (int i = 0; i < PV_TIMELINE_N_COLOURS; i++)
    {
      g_array_unref (self->outline[i]);
      g_array_unref (self->tint[i]);
    }
  g_free (self->stream_row);
  g_free (self->curve_row);
  g_free (self->memory_row);
  g_free (self->raster);
  g_clear_pointer (&self->header_cache, cairo_surface_destroy);
  g_object_unref (self->pango);
  g_hash_table_unref (self->text_cache);
  for (int i = 0; i < 3; i++)
    pango_font_description_free (self->fonts[i]);
  g_free (self->font_family);
  pv_timeline_model_unref (self->model);
  g_free (self);
}

PvTimelineModel *
pv_timeline_renderer_get_model (PvTimelineRenderer *self)
{
  return self->model;
}

void
pv_timeline_renderer_set_model (PvTimelineRenderer *self, PvTimelineModel *model)
{
  g_return_if_fail (model != NULL);
  pv_timeline_model_ref (model);
  pv_timeline_model_unref (self->model);
  self->model = model;
  self->vp.t0 = 0;
  self->vp.t1 = model->t_end;
  self->vp.scroll_y = 0;
  invalidate (self);
}

const PvTimelineOptions *
pv_timeline_renderer_get_options (PvTimelineRenderer *self)
{
  return &self->options;
}

void
pv_timeline_renderer_set_options (PvTimelineRenderer *self, const PvTimelineOptions *options)
{
  const char *family = options->font_family;

  if (g_strcmp0 (family, self->font_family) != 0)
    {
      g_free (self->font_family);
      self->font_family = g_strdup (family);
      setup_fonts (self);
    }
  g_free (self->selected_nodes);
  self->selected_nodes = options->n_selected_nodes > 0
                           ? g_memdup2 (options->selected_nodes, sizeof (int) * (gsize) options->n_selected_nodes)
                           : NULL;
  self->options = *options;
  self->options.font_family = self->font_family;
  self->options.selected_nodes = self->selected_nodes;
  self->options.n_selected_nodes = self->selected_nodes ? options->n_selected_nodes : 0;
  if ((unsigned) self->options.memory_view >= PV_TIMELINE_N_MEMORY_VIEWS)
    self->options.memory_view = PV_TIMELINE_MEMORY_SLOTS;
  invalidate (self);
}

const PvTimelineViewport *
pv_timeline_renderer_get_viewport (PvTimelineRenderer *self)
{
  return &self->vp;
}

void
pv_timeline_renderer_set_size (PvTimelineRenderer *self, int width, int height)
{
  self->vp.width = MAX (width, 1);
  self->vp.height = MAX (height, 1);
  update_area (self);
  invalidate (self);
}

void
pv_timeline_renderer_set_time_range (PvTimelineRenderer *self, double t0, double t1)
{
  double end = self->model->t_end;
  double margin = end * 0.02 + 0.5;
  double min_span = 0.05;
  double span;

  if (!(t1 > t0))
    t1 = t0 + min_span;
  span = CLAMP (t1 - t0, min_span, end + 2 * margin);
  if (t0 < -margin)
    t0 = -margin;
  if (t0 + span > end + margin)
    t0 = end + margin - span;
  self->vp.t0 = t0;
  self->vp.t1 = t0 + span;
}

void
pv_timeline_renderer_zoom (PvTimelineRenderer *self, double factor, double x)
{
  double t = pv_timeline_renderer_x_to_time (self, x);
  double t0 = self->vp.t0, t1 = self->vp.t1;

  if (!(factor > 0))
    return;
  pv_timeline_renderer_set_time_range (self, t - (t - t0) / factor, t + (t1 - t) / factor);
}

void
pv_timeline_renderer_pan (PvTimelineRenderer *self, double dx_pixels)
{
  double dt = dx_pixels / scale (self);
  pv_timeline_renderer_set_time_range (self, self->vp.t0 + dt, self->vp.t1 + dt);
}

void
pv_timeline_renderer_focus (PvTimelineRenderer *self, double t0, double t1)
{
  double pad = MAX ((t1 - t0) * 0.1, 0.5);
  pv_timeline_renderer_set_time_range (self, t0 - pad, t1 + pad);
}

/* ---- text ---- */

static double
text_width (PvTimelineRenderer *self, int font, const char *text)
{
  return shaped (self, font, text, -1, -1, PANGO_ELLIPSIZE_NONE)->w;
}

static void
show (cairo_t *cr, const TextEntry *e, double x, double cy, const Rgb *colour)
{
  if (colour)
    set_rgb (cr, colour);
  cairo_move_to (cr, x, floor (cy - e->h / 2.0 + 0.5));
  pango_cairo_show_layout (cr, e->layout);
}

/* Draws @text with its left edge at @x, vertically centred on @cy;
 * ellipsized to @width when >= 0. Returns the drawn width. */
static double
draw_text (PvTimelineRenderer *self, cairo_t *cr, int font, const char *text, double x, double cy, double width,
           PangoEllipsizeMode ellipsize, const Rgb *colour)
{
  const TextEntry *e = shaped (self, font, text, -1, -1, PANGO_ELLIPSIZE_NONE);
  /* Shape an ellipsized copy only when the natural one does not fit. */
  if (width >= 0 && e->w > width)
    e = shaped (self, font, text, -1, width, ellipsize);
  show (cr, e, x, cy, colour);
  return e->w;
}

static double
draw_text_right (PvTimelineRenderer *self, cairo_t *cr, int font, const char *text, double right, double cy,
                 const Rgb *colour)
{
  const TextEntry *e = shaped (self, font, text, -1, -1, PANGO_ELLIPSIZE_NONE);
  show (cr, e, right - e->w, cy, colour);
  return e->w;
}

static char *
format_bytes (guint64 bytes)
{
  if (bytes < 1024)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " B", bytes);
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

/* The tail of a value name worth a label (see pv_timeline_short_name). */
static int
short_name_span (const char **name)
{
  const char *s = *name, *end = s + strlen (s), *tail;
  int slashes = 0;
  if (end - s > 9 && strcmp (end - 9, "_output_0") == 0)
    end -= 9;
  tail = end;
  while (tail > s)
    {
      if (tail[-1] == '/' && ++slashes == 2)
        break;
      tail--;
    }
  if (tail == end)
    tail = s, end = s + strlen (s);
  *name = tail;
  return (int) (end - tail);
}

/* "512 KiB", "1.5 MiB": axis labels, without needless decimals. */
static char *
format_bytes_axis (double bytes)
{
  static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
  int u = 0;
  while (bytes >= 1024 && u < 4)
    {
      bytes /= 1024;
      u++;
    }
  if (fabs (bytes - floor (bytes + 0.5)) < 1e-6)
    return g_strdup_printf ("%.0f %s", bytes, units[u]);
  return g_strdup_printf ("%.1f %s", bytes, units[u]);
}

/* ---- layout ---- */

static const PvTimelineMemory *
current_memory (PvTimelineRenderer *self)
{
  return &self->model->memory[self->options.memory_view];
}

static Row *
push_row (PvTimelineRenderer *self, RowKind kind, int lane, double *y, double h, const char *title, char *detail)
{
  Row row = { kind, lane, *y, h, title, detail };
  g_array_append_val (self->rows, row);
  *y += h;
  return &g_array_index (self->rows, Row, self->rows->len - 1);
}

static void
push_legend (PvTimelineRenderer *self, LegendKind kind, int arg, const char *text)
{
  LegendItem item = { kind, arg, g_strdup (text), 0, 0, 0 };
  g_array_append_val (self->legend, item);
}

static gboolean
view_has_kind (const PvTimelineMemory *mem, int colour)
{
  for (int i = 0; i < mem->n_bars; i++)
    if (mem->bars[i].kind_colour == colour)
      return TRUE;
  return FALSE;
}

static gboolean
view_has_flag (const PvTimelineMemory *mem, guint8 flag)
{
  for (int i = 0; i < mem->n_bars; i++)
    if (mem->bars[i].flags & flag)
      return TRUE;
  return FALSE;
}

/* Legend items, flowed into rows; returns the legend height. */
static double
layout_legend (PvTimelineRenderer *self)
{
  const PvTimelineModel *m = self->model;
  const PvTimelineMemory *mem = current_memory (self);
  gboolean has_mark[4] = { FALSE };
  gboolean has_arrow[2] = { FALSE };
  double x, y, right = self->vp.width - 10;
  guint heading;

  push_legend (self, LEGEND_HEADING, 0,
               self->options.colour_by == PV_TIMELINE_COLOUR_BY_OP ? "Op type" : "Kernels by op type");
  for (int i = 0; i < m->n_ops; i++)
    push_legend (self, LEGEND_SWATCH, m->ops[i].colour, m->ops[i].op_type ? m->ops[i].op_type : "other ops");
  if (self->options.colour_by == PV_TIMELINE_COLOUR_BY_KIND && mem->available)
    {
      push_legend (self, LEGEND_HEADING, 1, "Values by AllocKind");
      for (int k = 0; k < PV_TIMELINE_N_KIND_COLOURS; k++)
        if (view_has_kind (mem, PV_TIMELINE_KIND_COLOUR_BASE + k))
          push_legend (self, LEGEND_SWATCH, PV_TIMELINE_KIND_COLOUR_BASE + k, kind_names[k]);
    }
  for (int i = 0; i < m->n_marks; i++)
    has_mark[m->marks[i].kind] = TRUE;
  for (int i = 0; i < m->n_arrows; i++)
    has_arrow[m->arrows[i].kind == PV_TIMELINE_ARROW_NOTIFY] = TRUE;
  if (has_mark[0] || has_mark[1] || has_mark[2] || has_mark[3])
    push_legend (self, LEGEND_HEADING, 2, "Steps");
  for (int k = 0; k < 4; k++)
    if (has_mark[k])
      push_legend (self, LEGEND_MARK, k, pv_timeline_mark_kind_name (k));
  if (has_arrow[0] && (self->options.arrows & PV_TIMELINE_ARROW_TRIGGER))
    push_legend (self, LEGEND_ARROW, PV_TIMELINE_ARROW_TRIGGER, "trigger → barrier");
  if (has_arrow[1] && (self->options.arrows & PV_TIMELINE_ARROW_NOTIFY))
    push_legend (self, LEGEND_ARROW, PV_TIMELINE_ARROW_NOTIFY, "notify → wait");
  heading = self->legend->len;
  push_legend (self, LEGEND_HEADING, 3, "Memory");
  if (mem->available && view_has_flag (mem, PV_TIMELINE_BAR_VIEW))
    push_legend (self, LEGEND_VIEW, 0, "view (shares the buffer)");
  if (mem->available && (self->options.arrows & PV_TIMELINE_ARROW_REUSE) && mem->n_links > 0)
    push_legend (self, LEGEND_ARROW, PV_TIMELINE_ARROW_REUSE, "in-place reuse");
  if (m->n_curves > 0)
    push_legend (self, LEGEND_LINE, 0, "peak");
  if (m->load_bytes > 0)
    push_legend (self, LEGEND_LINE, 1, "LOAD (lower bound)");
  if (mem->available && mem->peak_bytes > 0)
    push_legend (self, LEGEND_LINE, 2, "plan reserves");
  if (self->legend->len == heading + 1)
    {
      /* A heading with nothing under it. */
      g_free (g_array_index (self->legend, LegendItem, heading).text);
      g_array_set_size (self->legend, heading);
    }

  x = 10;
  y = 0;
  for (guint i = 0; i < self->legend->len; i++)
    {
      LegendItem *item = &g_array_index (self->legend, LegendItem, i);
      double tw = text_width (self, item->kind == LEGEND_HEADING ? FONT_BOLD : FONT_SMALL, item->text);
      double sw = item->kind == LEGEND_HEADING ? 0 : item->kind == LEGEND_ARROW || item->kind == LEGEND_LINE ? 22 : 14;
      double gap = item->kind == LEGEND_HEADING && i > 0 ? 14 : 0;
      double need;
      item->w = sw + (sw > 0 ? 4 : 0) + tw;
      need = item->w;
      /* A heading stays with its first item. */
      if (item->kind == LEGEND_HEADING && i + 1 < self->legend->len)
        {
          LegendItem *next = &g_array_index (self->legend, LegendItem, i + 1);
          need += 12 + 26 + text_width (self, FONT_SMALL, next->text);
        }
      if (x + gap + need > right && x > 10)
        {
          x = 10;
          y += LEGEND_ROW_H;
          gap = 0;
        }
      x += gap;
      item->x = x;
      item->y = y;
      x += item->w + 12;
    }
  return y + LEGEND_ROW_H + LEGEND_PAD;
}

/* Rows for the current model, options and size. @natural: the arena gets
 * its natural height instead of filling the view. */
static void
layout_rows (PvTimelineRenderer *self, gboolean natural)
{
  const PvTimelineModel *m = self->model;
  const PvTimelineMemory *mem = current_memory (self);
  double y = 0;
  g_autofree char *load = m->load_bytes ? format_bytes (m->load_bytes) : NULL;

  clear_rows (self);
  g_free (self->stream_row);
  g_free (self->curve_row);
  g_free (self->memory_row);
  self->stream_row = g_new (int, MAX (m->n_streams, 1));
  self->curve_row = g_new (int, MAX (m->n_curves, 1));
  self->n_memory_rows = mem->available ? mem->n_lanes : 0;
  self->memory_row = g_new (int, MAX (self->n_memory_rows, 1));

  {
    int n_kernels = m->n_kernels;
    char *detail;
    if (!m->has_plan)
      detail = g_strdup_printf ("no ONNX Runtime plan: graph order, one step per kernel");
    else
      detail = g_strdup_printf ("%d logic stream%s · %d kernel%s · %d sync arrow%s%s", m->n_streams,
                                m->n_streams == 1 ? "" : "s", n_kernels, n_kernels == 1 ? "" : "s", m->n_arrows,
                                m->n_arrows == 1 ? "" : "s", m->deadlock ? " · DEADLOCK: some steps never run" : "");
    push_row (self, ROW_SECTION, 0, &y, SECTION_H, "Streams", detail);
  }
  for (int i = 0; i < m->n_streams; i++)
    {
      self->stream_row[i] = (int) self->rows->len;
      push_row (self, ROW_STREAM, i, &y, STREAM_H, NULL, NULL);
    }
  if (m->n_curves > 0)
    {
      char *detail = load ? g_strdup_printf ("bytes held by live values over time · LOAD %s", load)
                          : g_strdup ("bytes held by live values over time");
      push_row (self, ROW_SECTION, 1, &y, SECTION_H, "Live bytes", detail);
    }
  for (int i = 0; i < m->n_curves; i++)
    {
      self->curve_row[i] = (int) self->rows->len;
      push_row (self, ROW_CURVE, i, &y, CURVE_H, NULL, NULL);
    }
  {
    static const char *const names[] = { "Memory: slots", "Memory: ONNX Runtime buffers", "Memory: arena" };
    char *detail = NULL;
    if (mem->available && mem->peak_bytes > 0 && m->load_bytes > 0)
      {
        g_autofree char *peak = format_bytes (mem->peak_bytes);
        double over = 100.0 * ((double) mem->peak_bytes / (double) m->load_bytes - 1.0);
        detail = g_strdup_printf ("%s · %+.1f%% over LOAD", mem->title, over);
        (void) peak;
      }
    else if (mem->available)
      detail = g_strdup (mem->title);
    push_row (self, ROW_SECTION, 2, &y, SECTION_H, names[self->options.memory_view], detail);
  }
  if (!mem->available)
    push_row (self, ROW_MESSAGE, 0, &y, MESSAGE_H, mem->unavailable, NULL);
  else
    for (int i = 0; i < mem->n_lanes; i++)
      {
        double h = MEMORY_H;
        self->memory_row[i] = (int) self->rows->len;
        if (mem->lanes[i].kind == PV_TIMELINE_LANE_ARENA)
          {
            double avail = self->scroll_h - y - 6;
            h = natural ? ARENA_NATURAL_H : MAX (ARENA_MIN_H, floor (avail));
          }
        push_row (self, ROW_MEMORY, i, &y, h, NULL, NULL);
      }
  self->content_h = y + 6;
}

static void
ensure_layout (PvTimelineRenderer *self)
{
  if (self->layout_valid)
    return;
  update_area (self);
  clear_rows (self);
  self->legend_h = self->options.show_legend ? layout_legend (self) : 0;
  self->scroll_top = RULER_H;
  self->scroll_h = MAX (self->vp.height - RULER_H - self->legend_h, 10);
  {
    /* layout_rows clears the legend with the rows: keep it. */
    GArray *legend = self->legend;
    self->legend = g_array_new (FALSE, TRUE, sizeof (LegendItem));
    layout_rows (self, FALSE);
    g_array_unref (self->legend);
    self->legend = legend;
  }
  self->vp.scroll_y = CLAMP (self->vp.scroll_y, 0, MAX (self->content_h - self->scroll_h, 0));
  self->layout_valid = TRUE;
}

void
pv_timeline_renderer_set_scroll_y (PvTimelineRenderer *self, double scroll_y)
{
  ensure_layout (self);
  self->vp.scroll_y = CLAMP (scroll_y, 0, MAX (self->content_h - self->scroll_h, 0));
}

double
pv_timeline_renderer_get_content_height (PvTimelineRenderer *self)
{
  ensure_layout (self);
  return self->content_h;
}

double
pv_timeline_renderer_get_scroll_area_height (PvTimelineRenderer *self)
{
  ensure_layout (self);
  return self->scroll_h;
}

int
pv_timeline_renderer_get_natural_height (PvTimelineRenderer *self)
{
  double content;
  ensure_layout (self);
  {
    GArray *legend = self->legend;
    self->legend = g_array_new (FALSE, TRUE, sizeof (LegendItem));
    layout_rows (self, TRUE);
    g_array_unref (self->legend);
    self->legend = legend;
  }
  content = self->content_h;
  invalidate (self);
  return (int) ceil (RULER_H + content + self->legend_h);
}

static double
row_screen_y (PvTimelineRenderer *self, const Row *row)
{
  return self->scroll_top + row->y - self->vp.scroll_y;
}

/* First row whose bottom is below content y @cy. */
static int
first_row_at (PvTimelineRenderer *self, double cy)
{
  int lo = 0, hi = (int) self->rows->len;
  while (lo < hi)
    {
      int mid = lo + (hi - lo) / 2;
      const Row *r = &g_array_index (self->rows, Row, mid);
      if (r->y + r->h > cy)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

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

static gboolean
direct_begin (cairo_t *cr, Direct *d, double x0, double y0, double x1, double y1)
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

static void
direct_end (Direct *d)
{
  cairo_surface_mark_dirty (d->surface);
}

static inline void
direct_fill (const Direct *d, double x, double y, double w, double h, guint32 pixel)
{
  int x0 = MAX ((int) floor (x + 0.5) + d->dx, d->cx0), x1 = MIN ((int) floor (x + w + 0.5) + d->dx, d->cx1);
  int y0 = MAX ((int) floor (y + 0.5) + d->dy, d->cy0), y1 = MIN ((int) floor (y + h + 0.5) + d->dy, d->cy1);
  for (int r = y0; r < y1; r++)
    {
      guint32 *row = d->px + (gsize) r * d->stride;
      for (int k = x0; k < x1; k++)
        row[k] = pixel;
    }
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

static void
push_rect (GArray *batch, double x, double y, double w, double h)
{
  Rect r = { (float) x, (float) y, (float) w, (float) h };
  g_array_append_val (batch, r);
}

static Rgb
tint_of (const Rgb *c)
{
  return (Rgb) { 0.45 * c->r + 0.55, 0.45 * c->g + 0.55, 0.45 * c->b + 0.55 };
}

static void
flush_batches_direct (PvTimelineRenderer *self, const Direct *d)
{
  for (int c = 0; c < PV_TIMELINE_N_COLOURS; c++)
    {
      GArray *b = self->tint[c];
      Rgb t = tint_of (&palette[c]);
      guint32 pixel = rgb_pixel (&t);
      for (guint i = 0; i < b->len; i++)
        {
          const Rect *r = &g_array_index (b, Rect, i);
          direct_fill (d, r->x, r->y, r->w, r->h, pixel);
        }
      g_array_set_size (b, 0);
    }
  for (int c = 0; c <= PV_TIMELINE_N_COLOURS; c++)
    {
      GArray *b = self->batch[c];
      guint32 pixel = rgb_pixel (c == SUMMARY_COLOUR ? &c_summary : &palette[c]);
      for (guint i = 0; i < b->len; i++)
        {
          const Rect *r = &g_array_index (b, Rect, i);
          direct_fill (d, r->x, r->y, r->w, r->h, pixel);
        }
      g_array_set_size (b, 0);
    }
  for (int c = 0; c < PV_TIMELINE_N_COLOURS; c++)
    {
      GArray *b = self->outline[c];
      Rgb dark = darker (&palette[c], 0.55);
      guint32 fill = rgb_pixel (&palette[c]), edge = rgb_pixel (&dark);
      for (guint i = 0; i < b->len; i++)
        {
          const Rect *r = &g_array_index (b, Rect, i);
          direct_fill (d, r->x, r->y, r->w, r->h, edge);
          if (r->w > 2 && r->h > 2)
            direct_fill (d, r->x + 1, r->y + 1, r->w - 2, r->h - 2, fill);
        }
      g_array_set_size (b, 0);
    }
}

static void
flush_batches (PvTimelineRenderer *self, cairo_t *cr)
{
  Direct d;

  if (direct_begin (cr, &d, self->area_x0, self->scroll_top, self->area_x1, self->scroll_top + self->scroll_h))
    {
      flush_batches_direct (self, &d);
      direct_end (&d);
      return;
    }
  for (int c = 0; c < PV_TIMELINE_N_COLOURS; c++)
    {
      GArray *b = self->tint[c];
      if (b->len == 0)
        continue;
      Rgb t = tint_of (&palette[c]);
      set_rgb (cr, &t);
      for (guint i = 0; i < b->len; i++)
        {
          const Rect *r = &g_array_index (b, Rect, i);
          cairo_rectangle (cr, r->x, r->y, r->w, r->h);
        }
      cairo_fill (cr);
      g_array_set_size (b, 0);
    }
  for (int c = 0; c <= PV_TIMELINE_N_COLOURS; c++)
    {
      GArray *b = self->batch[c];
      if (b->len == 0)
        continue;
      set_rgb (cr, c == SUMMARY_COLOUR ? &c_summary : &palette[c]);
      for (guint i = 0; i < b->len; i++)
        {
          const Rect *r = &g_array_index (b, Rect, i);
          cairo_rectangle (cr, r->x, r->y, r->w, r->h);
        }
      cairo_fill (cr);
      g_array_set_size (b, 0);
    }
  cairo_set_line_width (cr, 1);
  for (int c = 0; c < PV_TIMELINE_N_COLOURS; c++)
    {
      GArray *b = self->outline[c];
      Rgb dark = darker (&palette[c], 0.55);
      if (b->len == 0)
        continue;
      for (guint i = 0; i < b->len; i++)
        {
          const Rect *r = &g_array_index (b, Rect, i);
          cairo_rectangle (cr, r->x + 0.5, r->y + 0.5, MAX (r->w - 1, 0), MAX (r->h - 1, 0));
        }
      set_rgba (cr, &palette[c], 1);
      cairo_fill_preserve (cr);
      set_rgb (cr, &dark);
      cairo_stroke (cr);
      g_array_set_size (b, 0);
    }
}

static void
push_label (PvTimelineRenderer *self, double x, double y, double w, double h, const char *text, int len,
            gboolean start, gboolean on_dark)
{
  Label l = { x, y, w, h, text, len, start, on_dark };
  g_array_append_val (self->labels, l);
}

static void
flush_labels (PvTimelineRenderer *self, cairo_t *cr)
{
  for (guint i = 0; i < self->labels->len; i++)
    {
      const Label *l = &g_array_index (self->labels, Label, i);
      const TextEntry *e = shaped (self, FONT_SMALL, l->text, l->len, -1, PANGO_ELLIPSIZE_NONE);
      if (e->w > l->w)
        {
          /* Too long: the last path component, cut at its end. */
          const char *text = l->text;
          int len = l->len < 0 ? (int) strlen (text) : l->len;
          for (int k = len - 1; l->start_ellipsis && k > 0; k--)
            if (text[k - 1] == '/')
              {
                len -= k;
                text += k;
                break;
              }
          e = shaped (self, FONT_SMALL, text, len, -1, PANGO_ELLIPSIZE_NONE);
          if (e->w > l->w)
            e = shaped (self, FONT_SMALL, text, len, l->w, PANGO_ELLIPSIZE_END);
        }
      if (l->on_dark)
        cairo_set_source_rgb (cr, 1, 1, 1);
      show (cr, e, l->x, l->y + l->h / 2, l->on_dark ? NULL : &c_text);
    }
  g_array_set_size (self->labels, 0);
}

/* One pixel column's summary: the heaviest item starting in it. */
typedef struct {
  int col;
  float weight;
  guint8 colour;
  double y, h;
} Column;

#define NO_COLUMN G_MININT

static void
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

static void
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
static gboolean
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

/* ---- stream lanes ---- */

static void
mark_position (PvTimelineRenderer *self, const PvTimelineMark *mk, double lane_y, double *x, double *y)
{
  /* Outgoing marks sit just before the boundary, incoming ones just after. */
  double off = mk->kind == PV_TIMELINE_MARK_NOTIFY || mk->kind == PV_TIMELINE_MARK_TRIGGER ? -5 : 5;
  *x = pv_timeline_renderer_time_to_x (self, mk->time) + off;
  *y = lane_y + STREAM_MARK_Y;
}

static void
mark_path (cairo_t *cr, PvTimelineMarkKind kind, double x, double y, double r)
{
  switch (kind)
    {
    case PV_TIMELINE_MARK_BARRIER: /* diamond */
      cairo_move_to (cr, x, y - r - 0.5);
      cairo_line_to (cr, x + r + 0.5, y);
      cairo_line_to (cr, x, y + r + 0.5);
      cairo_line_to (cr, x - r - 0.5, y);
      cairo_close_path (cr);
      break;
    case PV_TIMELINE_MARK_WAIT: /* ring */
      cairo_new_sub_path (cr);
      cairo_arc (cr, x, y, r - 0.5, 0, 2 * G_PI);
      break;
    case PV_TIMELINE_MARK_NOTIFY: /* up triangle */
      cairo_move_to (cr, x, y - r);
      cairo_line_to (cr, x + r, y + r * 0.8);
      cairo_line_to (cr, x - r, y + r * 0.8);
      cairo_close_path (cr);
      break;
    case PV_TIMELINE_MARK_TRIGGER: /* right triangle */
      cairo_move_to (cr, x + r, y);
      cairo_line_to (cr, x - r * 0.8, y - r);
      cairo_line_to (cr, x - r * 0.8, y + r);
      cairo_close_path (cr);
      break;
    }
}

static const Rgb *
mark_colour (PvTimelineMarkKind kind)
{
  return kind == PV_TIMELINE_MARK_BARRIER || kind == PV_TIMELINE_MARK_TRIGGER ? &c_trigger : &c_notify;
}

static void
draw_mark (cairo_t *cr, PvTimelineMarkKind kind, double x, double y)
{
  mark_path (cr, kind, x, y, MARK_R);
  if (kind == PV_TIMELINE_MARK_WAIT)
    {
      cairo_set_line_width (cr, 1.6);
      set_rgb (cr, mark_colour (kind));
      cairo_stroke (cr);
    }
  else
    {
      set_rgb (cr, mark_colour (kind));
      cairo_fill (cr);
    }
}

static void
draw_stream_boxes (PvTimelineRenderer *self, const Row *row, double y)
{
  const PvTimelineModel *m = self->model;
  const PvTimelineLane *lane = &m->streams[row->lane];
  const PvGraph *g = m->graph;
  double t0 = self->vp.t0, t1 = self->vp.t1, sc = scale (self);
  double by = y + STREAM_BOX_Y;
  Column col = { NO_COLUMN };

  for (int i = pv_timeline_first_reaching (m->kernel_max_end, lane->first, lane->n, t0);
       i < lane->first + lane->n && m->kernels[i].start <= t1; i++)
    {
      const PvTimelineKernel *k = &m->kernels[i];
      double x0 = self->area_x0 + (k->start - t0) * sc, x1 = self->area_x0 + (k->end - t0) * sc, a, b;
      if (k->end < t0)
        continue;
      if (!snap_span (self, x0, x1, &a, &b))
        {
          column_add (self, &col, x0, k->weight, k->colour, by, STREAM_BOX_H);
          continue;
        }
      if (b - a > 3)
        b -= 1;  /* a hairline gap between neighbours */
      push_rect (self->batch[k->colour], a, by, b - a, STREAM_BOX_H);
      if (b - a >= LABEL_MIN_W)
        {
          const PvNode *node = &g->nodes[k->node];
          double lx = MAX (a, self->area_x0) + 4, lw = MIN (b, self->area_x1) - lx - 5;
          if (lw >= LABEL_MIN_W - 10)
            push_label (self, lx, by, lw, STREAM_BOX_H, b - a >= 140 ? node->name : node->op_type, -1,
                        FALSE, FALSE);
        }
    }
  column_flush (self, &col);
}

static void
draw_stream_marks (PvTimelineRenderer *self, cairo_t *cr, const Row *row, double y)
{
  const PvTimelineModel *m = self->model;
  const PvTimelineLane *lane = &m->streams[row->lane];
  double t0 = self->vp.t0, t1 = self->vp.t1, sc = scale (self);
  double last_x[4] = { -1e9, -1e9, -1e9, -1e9 };

  /* Step marks: one per kind per pixel. */
  if (lane->n_marks > 0)
    {
      int lo = lane->first_mark, hi = lane->first_mark + lane->n_marks;
      while (lo < hi)
        {
          int mid = lo + (hi - lo) / 2;
          if (m->marks[mid].time < t0 - 8 / sc)
            lo = mid + 1;
          else
            hi = mid;
        }
      int end = lo;
      while (end < lane->first_mark + lane->n_marks && m->marks[end].time <= t1 + 8 / sc)
        end++;
      if (end - lo > (self->area_x1 - self->area_x0) / 3)
        {
          /* Crowded: a short tick per kind and pixel column, two fills. */
          GArray *ticks[2] = { self->batch[0], self->batch[1] };  /* empty between flushes */
          for (int i = lo; i < end; i++)
            {
              const PvTimelineMark *mk = &m->marks[i];
              double x, my;
              mark_position (self, mk, y, &x, &my);
              if (fabs (x - last_x[mk->kind]) < 1)
                continue;
              last_x[mk->kind] = x;
              push_rect (ticks[mark_colour (mk->kind) == &c_notify], floor (x), my - 4, 1, 8);
            }
          for (int k = 0; k < 2; k++)
            {
              for (guint i = 0; i < ticks[k]->len; i++)
                {
                  const Rect *r = &g_array_index (ticks[k], Rect, i);
                  cairo_rectangle (cr, r->x, r->y, r->w, r->h);
                }
              set_rgb (cr, k ? &c_notify : &c_trigger);
              cairo_fill (cr);
              g_array_set_size (ticks[k], 0);
            }
          return;
        }
      for (int i = lo; i < end; i++)
        {
          const PvTimelineMark *mk = &m->marks[i];
          double x, my;
          mark_position (self, mk, y, &x, &my);
          if (fabs (x - last_x[mk->kind]) < 2.5)
            continue;
          last_x[mk->kind] = x;
          draw_mark (cr, mk->kind, x, my);
        }
    }
}

/* ---- live-bytes curves ---- */

static double
nice_step (double raw)
{
  double p = pow (10, floor (log10 (raw)));
  double f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

/* A step for byte grids: 1, 2, 5 × a power of 1024's units. */
static double
nice_byte_step (double raw)
{
  double unit = 1;
  while (raw >= unit * 1024 && unit < 1e18)
    unit *= 1024;
  return nice_step (MAX (raw / unit, 1e-9)) * unit;
}

typedef struct {
  double x0, y0, x1, y1;
} Box;

static gboolean
box_free (const Box *b, const Box *used, int n)
{
  for (int i = 0; i < n; i++)
    if (b->x0 < used[i].x1 && used[i].x0 < b->x1 && b->y0 < used[i].y1 && used[i].y0 < b->y1)
      return FALSE;
  return TRUE;
}

/* A label for a horizontal line at @y, at the right end, beside the line
 * where it does not cover another label. */
static void
draw_hline_label (PvTimelineRenderer *self, cairo_t *cr, double y, const char *text, const Rgb *colour, Box *used,
                  int *n_used)
{
  static const double offsets[] = { -7, 7, -19, 19, -31 };
  int w, h;
  Box b = { 0 };

  {
    const TextEntry *e = shaped (self, FONT_SMALL, text, -1, -1, PANGO_ELLIPSIZE_NONE);
    w = e->w;
    h = e->h;
  }
  for (gsize i = 0; i < G_N_ELEMENTS (offsets); i++)
    {
      double cy = y + offsets[i];
      b = (Box) { self->area_x1 - w - 6, cy - h / 2.0, self->area_x1, cy + h / 2.0 };
      if (box_free (&b, used, *n_used))
        break;
    }
  used[(*n_used)++] = b;
  cairo_set_source_rgba (cr, 1, 1, 1, 0.85);
  cairo_rectangle (cr, b.x0, b.y0, w + 4, h);
  cairo_fill (cr);
  draw_text_right (self, cr, FONT_SMALL, text, self->area_x1 - 4, (b.y0 + b.y1) / 2, colour);
}

/* The top of a curve's scale: its peak, and with one device LOAD and
 * what the plan reserves, so all three lines fit. */
static guint64
curve_ymax (PvTimelineRenderer *self, int curve)
{
  const PvTimelineModel *m = self->model;
  const PvTimelineMemory *mem = current_memory (self);
  guint64 ymax = m->curves[curve].peak_bytes;
  if (m->n_curves == 1)
    {
      ymax = MAX (ymax, m->load_bytes);
      /* A plan far above what is live would flatten the curve: it is
       * then labelled off the scale instead. */
      if (mem->available && mem->peak_bytes <= 4 * ymax)
        ymax = MAX (ymax, mem->peak_bytes);
    }
  return ymax;
}

static void
draw_curve_row (PvTimelineRenderer *self, cairo_t *cr, const Row *row, double y)
{
  const PvTimelineModel *m = self->model;
  const PvTimelineCurve *c = &m->curves[row->lane];
  const PvTimelineMemory *mem = current_memory (self);
  double top = y + 10, bottom = y + row->h - 6, height = bottom - top;
  int x0 = (int) self->area_x0, x1 = (int) ceil (self->area_x1), w = x1 - x0;
  double t0 = self->vp.t0, sc = scale (self);
  guint64 ymax = curve_ymax (self, row->lane);
  g_autofree double *colmax = NULL, *colmin = NULL;
  int lo, hi;
  Box used[4];
  int n_used = 0;
  gboolean single = m->n_curves == 1;

  if (ymax == 0 || c->n_points == 0 || w <= 0)
    return;

  /* Horizontal grid at nice byte values. */
  {
    double step = nice_byte_step ((double) ymax / 3.0);
    cairo_set_line_width (cr, 1);
    for (double v = step; v < ymax; v += step)
      {
        double gy = floor (bottom - v / ymax * height) + 0.5;
        set_rgb (cr, &c_separator);
        cairo_move_to (cr, self->area_x0, gy);
        cairo_line_to (cr, self->area_x1, gy);
        cairo_stroke (cr);
      }
  }

  /* Per pixel column, the highest level held in it. */
  colmax = g_new0 (double, w + 1);
  colmin = g_new0 (double, w + 1);
  for (int i = 0; i <= w; i++)
    colmax[i] = -1, colmin[i] = G_MAXDOUBLE;
  lo = 0, hi = c->n_points;
  while (lo < hi)
    {
      int mid = lo + (hi - lo) / 2;
      if (c->times[mid] <= t0)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (int i = MAX (lo - 1, 0); i < c->n_points; i++)
    {
      double xa = self->area_x0 + (c->times[i] - t0) * sc;
      double xb = i + 1 < c->n_points ? self->area_x0 + (c->times[i + 1] - t0) * sc : self->area_x1 + 1;
      int ca, cb;
      if (xa > self->area_x1)
        break;
      ca = (int) floor (MAX (xa, self->area_x0)) - x0;
      cb = (int) floor (MIN (xb, self->area_x1)) - x0;
      ca = CLAMP (ca, 0, w);
      cb = CLAMP (cb, 0, w);
      for (int k = ca; k <= cb; k++)
        {
          colmax[k] = MAX (colmax[k], (double) c->bytes[i]);
          colmin[k] = MIN (colmin[k], (double) c->bytes[i]);
        }
    }

  /* Area and outline: straight into the pixels when the target allows
   * (the step curve is axis-aligned, so nothing needs anti-aliasing). */
  {
    Direct d;
    if (direct_begin (cr, &d, self->area_x0, MAX (top - 2, self->scroll_top), self->area_x1,
                      MIN (bottom + 1, self->scroll_top + self->scroll_h)))
      {
        Rgb line = { 0.9 * c_curve.r + 0.1, 0.9 * c_curve.g + 0.1, 0.9 * c_curve.b + 0.1 };
        guint32 fill = rgb_pixel (&c_curve), edge = rgb_pixel (&line);
        int prev = -1, ib = (int) floor (bottom);
        for (int k = 0; k < w; k++)
          {
            int py;
            if (colmax[k] < 0)
              {
                prev = -1;
                continue;
              }
            py = (int) floor (bottom - colmax[k] / ymax * height + 0.5);
            {
              /* Where the level swings inside one column, the swing is a
               * darker band: max envelope on top, min below. */
              int pmin = (int) floor (bottom - colmin[k] / ymax * height + 0.5);
              direct_blend_column (&d, x0 + k, pmin, ib, fill, 0.22);
              if (pmin > py + 1)
                direct_blend_column (&d, x0 + k, py + 1, pmin, fill, 0.45);
            }
            /* The outline: this column's level, joined to the last one's. */
            if (prev >= 0 && prev != py && colmin[k] >= colmax[k])
              direct_blend_column (&d, x0 + k, MIN (prev, py), MAX (prev, py) + 1, edge, 1.0);
            else
              direct_blend_column (&d, x0 + k, py, py + 1, edge, 1.0);
            prev = py;
          }
        direct_end (&d);
        goto lines;
      }
  }
  cairo_new_path (cr);
  {
    gboolean open = FALSE;
    for (int k = 0; k < w; k++)
      {
        double v = colmax[k];
        double py = bottom - MAX (v, 0) / ymax * height;
        if (v < 0)
          {
            if (open)
              {
                cairo_line_to (cr, x0 + k, bottom);
                cairo_close_path (cr);
                open = FALSE;
              }
            continue;
          }
        if (!open)
          {
            cairo_move_to (cr, x0 + k, bottom);
            open = TRUE;
          }
        cairo_line_to (cr, x0 + k, py);
        cairo_line_to (cr, x0 + k + 1, py);
      }
    if (open)
      {
        cairo_line_to (cr, x1, bottom);
        cairo_close_path (cr);
      }
  }
  set_rgba (cr, &c_curve, 0.22);
  cairo_fill_preserve (cr);
  set_rgba (cr, &c_curve, 0.9);
  cairo_set_line_width (cr, 1.2);
  cairo_stroke (cr);

lines:
  /* LOAD and what the plan reserves, dashed and solid; then the peak; then
   * the lines' labels around the peak's. */
  {
    static const char *const names[] = { "slots reserve", "ORT allocates", "arena reserves" };
    static const double dash[] = { 5, 3 };
    double line_y[2] = { -1, -1 };
    char *line_text[2] = { NULL, NULL };

    if (single && m->load_bytes > 0)
      {
        g_autofree char *v = format_bytes (m->load_bytes);
        line_y[0] = floor (bottom - (double) m->load_bytes / ymax * height) + 0.5;
        line_text[0] = g_strdup_printf ("LOAD %s (lower bound)", v);
        cairo_set_dash (cr, dash, 2, 0);
        cairo_set_line_width (cr, 1.2);
        set_rgb (cr, &c_load);
        cairo_move_to (cr, self->area_x0, line_y[0]);
        cairo_line_to (cr, self->area_x1, line_y[0]);
        cairo_stroke (cr);
        cairo_set_dash (cr, NULL, 0, 0);
      }
    if (single && mem->available && mem->peak_bytes > 0)
      {
        g_autofree char *v = format_bytes (mem->peak_bytes);
        gboolean off = mem->peak_bytes > ymax;
        line_y[1] = off ? floor (top) + 0.5 : floor (bottom - (double) mem->peak_bytes / ymax * height) + 0.5;
        line_text[1] = g_strdup_printf ("%s %s%s", names[self->options.memory_view], v, off ? " ↑ (off the scale)" : "");
        cairo_set_line_width (cr, 1.2);
        set_rgba (cr, &c_peak, 0.75);
        cairo_move_to (cr, self->area_x0, line_y[1]);
        cairo_line_to (cr, self->area_x1, line_y[1]);
        cairo_stroke (cr);
      }
    {
      double px = pv_timeline_renderer_time_to_x (self, c->peak_time);
      double py = bottom - (double) c->peak_bytes / ymax * height;
      if (px >= self->area_x0 - 1 && px <= self->area_x1 + 1)
        {
          g_autofree char *v = format_bytes (c->peak_bytes);
          g_autofree char *text = g_strdup_printf ("peak %s", v);
          int tw, th;
          double lx;
          cairo_move_to (cr, px, py - 1);
          cairo_line_to (cr, px - 5, py - 8);
          cairo_line_to (cr, px + 5, py - 8);
          cairo_close_path (cr);
          set_rgb (cr, &c_peak);
          cairo_fill (cr);
          {
            const TextEntry *e = shaped (self, FONT_SMALL, text, -1, -1, PANGO_ELLIPSIZE_NONE);
            tw = e->w;
            th = e->h;
          }
          lx = px + 8 + tw < self->area_x1 - 4 ? px + 8 : px - 8 - tw;
          cairo_set_source_rgba (cr, 1, 1, 1, 0.85);
          cairo_rectangle (cr, lx - 2, py - 5 - th / 2.0, tw + 4, th);
          cairo_fill (cr);
          draw_text (self, cr, FONT_SMALL, text, lx, py - 5, -1, PANGO_ELLIPSIZE_NONE, &c_peak);
          used[n_used++] = (Box) { lx - 2, py - 5 - th / 2.0, lx + tw + 2, py - 5 + th / 2.0 };
        }
    }
    for (int i = 0; i < 2; i++)
      if (line_text[i])
        {
          draw_hline_label (self, cr, line_y[i], line_text[i], i == 0 ? &c_load : &c_peak, used, &n_used);
          g_free (line_text[i]);
        }
  }
}

/* ---- memory lanes ---- */

static guint8
bar_colour (PvTimelineRenderer *self, const PvTimelineBar *bar)
{
  return self->options.colour_by == PV_TIMELINE_COLOUR_BY_KIND ? bar->kind_colour : bar->op_colour;
}

/* A bar's rectangle in a lane row at screen @y (before snapping in x). */
static void
bar_rows (const Row *row, const PvTimelineLane *lane, const PvTimelineBar *bar, double y, double *by, double *bh)
{
  if (lane->kind == PV_TIMELINE_LANE_ARENA)
    {
      double inner_top = y + 6, inner_h = row->h - 12;
      double s = lane->bytes > 0 ? inner_h / (double) lane->bytes : 0;
      double y0 = floor (inner_top + (double) bar->offset * s + 0.5);
      double y1 = floor (inner_top + (double) (bar->offset + bar->bytes) * s + 0.5);
      *by = y0;
      *bh = MAX (y1 - y0, 1);
    }
  else
    {
      *by = y + 2;
      *bh = row->h - 4;
    }
}

static void
raster_span (PvTimelineRenderer *self, int w, int h, int col, int r0, int r1, guint32 pixel)
{
  if (col < 0 || col >= w)
    return;
  r0 = MAX (r0, 0);
  r1 = MIN (r1, h);
  for (int r = r0; r < r1; r++)
    self->raster[(gsize) r * w + col] = pixel;
}

/* Row bitmaps of one pixel column: [r0, r1) all set? */
static inline guint64
rows_mask (int w, int r0, int r1)
{
  int lo = MAX (r0 - w * 64, 0), hi = MIN (r1 - w * 64, 64);
  guint64 upper = hi >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << hi) - 1;
  return upper & ~((G_GUINT64_CONSTANT (1) << lo) - 1);
}

static inline gboolean
rows_covered (const guint64 *cov, int r0, int r1)
{
  for (int w = r0 >> 6; w <= (r1 - 1) >> 6; w++)
    {
      guint64 m = rows_mask (w, r0, r1);
      if ((cov[w] & m) != m)
        return FALSE;
    }
  return TRUE;
}

static inline void
rows_cover (guint64 *cov, int r0, int r1)
{
  for (int w = r0 >> 6; w <= (r1 - 1) >> 6; w++)
    cov[w] |= rows_mask (w, r0, r1);
}

static void
draw_memory_row (PvTimelineRenderer *self, cairo_t *cr, const Row *row, double y)
{
  const PvTimelineMemory *mem = current_memory (self);
  const PvTimelineLane *lane = &mem->lanes[row->lane];
  const PvGraph *g = self->model->graph;
  double t0 = self->vp.t0, t1 = self->vp.t1, sc = scale (self);
  gboolean arena = lane->kind == PV_TIMELINE_LANE_ARENA;
  Column col = { NO_COLUMN };
  int rw = 0, rh = 0;
  double ry = 0;
  gboolean raster_used = FALSE, direct = FALSE, direct_used = FALSE;
  Direct d = { 0 };
  guint64 *cov = NULL;
  int n_cov = 0, cov_col = G_MININT;

  if (arena)
    {
      /* Offsets grid: faint lines at nice byte offsets. */
      double inner_top = y + 6, inner_h = row->h - 12;
      double step = lane->bytes > 0 ? nice_byte_step ((double) lane->bytes / MAX (inner_h / 48, 1)) : 0;
      cairo_set_line_width (cr, 1);
      set_rgb (cr, &c_separator);
      for (double v = 0; step > 0 && v <= (double) lane->bytes; v += step)
        {
          double gy = floor (inner_top + v / (double) lane->bytes * inner_h) + 0.5;
          cairo_move_to (cr, self->area_x0, gy);
          cairo_line_to (cr, self->area_x1, gy);
        }
      cairo_stroke (cr);
      /* Narrow bars are one pixel wide each: written straight into the
       * target's pixels when it is an image, else into a raster painted
       * once. */
      direct = direct_begin (cr, &d, self->area_x0, self->scroll_top, self->area_x1,
                             self->scroll_top + self->scroll_h);
      if (direct)
        {
          n_cov = MAX ((d.cy1 - d.cy0 + 63) / 64, 1);
          cov = g_new0 (guint64, n_cov);
        }
      ry = MAX (y, self->scroll_top);
      rh = (int) ceil (MIN (y + row->h, self->scroll_top + self->scroll_h) - ry);
      rw = (int) ceil (self->area_x1 - self->area_x0);
      if (!direct && rh > 0 && rw > 0)
        {
          gsize need = (gsize) rw * rh;
          if (need > self->raster_size)
            {
              g_free (self->raster);
              self->raster = g_new (guint32, need);
              self->raster_size = need;
            }
          memset (self->raster, 0, need * sizeof (guint32));
        }
    }

  for (int i = pv_timeline_first_reaching (mem->bar_max_end, lane->first, lane->n, t0);
       i < lane->first + lane->n && mem->bars[i].start <= t1; i++)
    {
      const PvTimelineBar *bar = &mem->bars[i];
      double x0 = self->area_x0 + (bar->start - t0) * sc, x1 = self->area_x0 + (bar->end - t0) * sc, a, b, by, bh;
      guint8 colour = bar_colour (self, bar);
      gboolean view = (bar->flags & PV_TIMELINE_BAR_VIEW) != 0;
      if (bar->end < t0)
        continue;
      bar_rows (row, lane, bar, y, &by, &bh);
      if (!snap_span (self, x0, x1, &a, &b))
        {
          if (view)
            continue;  /* its owner covers it */
          if (arena && direct)
            {
              int px = (int) floor (x0) + d.dx;
              if (px >= d.cx0 && px < d.cx1)
                {
                  guint32 pixel = self->pixels[colour];
                  int r0 = MAX ((int) by + d.dy, d.cy0) - d.cy0, r1 = MIN ((int) (by + bh) + d.dy, d.cy1) - d.cy0;
                  /* Crowded columns: a bar whose rows earlier bars of this
                   * column already wrote is skipped. */
                  if (px != cov_col)
                    {
                      memset (cov, 0, sizeof (guint64) * n_cov);
                      cov_col = px;
                    }
                  if (r1 > r0 && !rows_covered (cov, r0, r1))
                    {
                      guint32 *p = d.px + (gsize) (r0 + d.cy0) * d.stride + px;
                      for (int r = r0; r < r1; r++, p += d.stride)
                        *p = pixel;
                      rows_cover (cov, r0, r1);
                    }
                  direct_used = TRUE;
                }
            }
          else if (arena)
            {
              if (rh > 0 && rw > 0)
                {
                  raster_span (self, rw, rh, (int) floor (x0 - self->area_x0), (int) (by - ry), (int) (by + bh - ry),
                               rgb_pixel (&palette[colour]));
                  raster_used = TRUE;
                }
            }
          else
            column_add (self, &col, x0, (float) bar->bytes, colour, by, bh);
          continue;
        }
      if (view)
        {
          /* A view: outlined, on top of its owner (or alone, where it
           * outlives the owner's own readers). */
          if (b - a > 3)
            b -= 1;
          push_rect (self->outline[colour], a, by, b - a, bh);
          continue;
        }
      if (b - a > 3)
        b -= 1;
      if (!arena && lane->bytes > 0 && bar->bytes < lane->bytes)
        {
          /* The value's share of its slot: solid from the bottom, the rest pale. */
          double used = MAX (floor (bh * (double) bar->bytes / (double) lane->bytes + 0.5), 3);
          push_rect (self->tint[colour], a, by, b - a, bh - used);
          push_rect (self->batch[colour], a, by + bh - used, b - a, used);
        }
      else
        push_rect (self->batch[colour], a, by, b - a, bh);
      if (b - a >= LABEL_MIN_W + 18 && bh >= 12)
        {
          double lx = MAX (a, self->area_x0) + 4, lw = MIN (b, self->area_x1) - lx - 7;
          /* An in-place successor starts on top of this bar: stop there. */
          for (int k = i + 1; !arena && k < lane->first + lane->n && mem->bars[k].start < bar->end; k++)
            if (!(mem->bars[k].flags & PV_TIMELINE_BAR_VIEW) && mem->bars[k].start > bar->start)
              {
                lw = MIN (lw, self->area_x0 + (mem->bars[k].start - t0) * sc - lx - 6);
                break;
              }
          if (lw >= LABEL_MIN_W - 6)
            {
              const char *name = g->values[bar->value].name;
              int len = short_name_span (&name);
              push_label (self, lx, by, lw, MIN (bh, 16), name, len, TRUE, !is_light (&palette[colour]));
            }
        }
    }
  column_flush (self, &col);
  g_free (cov);
  if (direct_used)
    direct_end (&d);
  if (raster_used)
    {
      cairo_surface_t *surface = cairo_image_surface_create_for_data ((unsigned char *) self->raster,
                                                                      CAIRO_FORMAT_ARGB32, rw, rh, rw * 4);
      cairo_set_source_surface (cr, surface, self->area_x0, ry);
      cairo_paint (cr);
      cairo_surface_destroy (surface);
    }
}

/* ---- links and arrows ---- */

static gboolean
row_visible (PvTimelineRenderer *self, int row_index, double *y)
{
  const Row *row;
  if (row_index < 0 || row_index >= (int) self->rows->len)
    return FALSE;
  row = &g_array_index (self->rows, Row, row_index);
  *y = row_screen_y (self, row);
  return *y + row->h > self->scroll_top && *y < self->scroll_top + self->scroll_h;
}

static void
arrow_head (cairo_t *cr, double x, double y, double dx, double dy, double size)
{
  double len = hypot (dx, dy);
  if (len < 1e-6)
    dx = 1, dy = 0, len = 1;
  dx /= len;
  dy /= len;
  cairo_move_to (cr, x, y);
  cairo_line_to (cr, x - size * dx - size * 0.5 * dy, y - size * dy + size * 0.5 * dx);
  cairo_line_to (cr, x - size * dx + size * 0.5 * dy, y - size * dy - size * 0.5 * dx);
  cairo_close_path (cr);
  cairo_fill (cr);
}

static gboolean
arrow_geometry (PvTimelineRenderer *self, const PvTimelineArrow *a, double p[4][2])
{
  const PvTimelineModel *m = self->model;
  const PvTimelineMark *from = &m->marks[a->from_mark], *to = &m->marks[a->to_mark];
  double y0, y1, x0, x1, my0, my1, bend;
  if (!row_visible (self, self->stream_row[from->lane], &y0) && !row_visible (self, self->stream_row[to->lane], &y1))
    return FALSE;
  y0 = row_screen_y (self, &g_array_index (self->rows, Row, self->stream_row[from->lane]));
  y1 = row_screen_y (self, &g_array_index (self->rows, Row, self->stream_row[to->lane]));
  mark_position (self, from, y0, &x0, &my0);
  mark_position (self, to, y1, &x1, &my1);
  /* Leave from the mark's edge, arrive at the target's edge. */
  my0 += my1 > my0 ? MARK_R : -MARK_R;
  my1 += my1 > my0 ? -MARK_R - 1 : MARK_R + 1;
  bend = MAX (fabs (my1 - my0) * 0.45, 10);
  p[0][0] = x0, p[0][1] = my0;
  p[1][0] = x0, p[1][1] = my0 + (my1 > my0 ? bend : -bend);
  p[2][0] = x1, p[2][1] = my1 - (my1 > my0 ? bend : -bend);
  p[3][0] = x1, p[3][1] = my1;
  return TRUE;
}

static void
stroke_arrow (cairo_t *cr, double p[4][2], const Rgb *colour, double width, double alpha)
{
  set_rgba (cr, colour, alpha);
  cairo_set_line_width (cr, width);
  cairo_move_to (cr, p[0][0], p[0][1]);
  cairo_curve_to (cr, p[1][0], p[1][1], p[2][0], p[2][1], p[3][0], p[3][1]);
  cairo_stroke (cr);
  arrow_head (cr, p[3][0], p[3][1], p[3][0] - p[2][0], p[3][1] - p[2][1], 5 + width);
}

static void
draw_arrows (PvTimelineRenderer *self, cairo_t *cr)
{
  const PvTimelineModel *m = self->model;
  double t0 = self->vp.t0, t1 = self->vp.t1, sc = scale (self);
  double last[2][2] = { { -1e9, -1e9 }, { -1e9, -1e9 } };
  int first, end;

  if (m->n_arrows == 0)
    return;
  first = pv_timeline_first_reaching (m->arrow_max_end, 0, m->n_arrows, t0 - 10 / sc);
  end = first;
  while (end < m->n_arrows && m->arrows[end].t_min <= t1 + 10 / sc)
    end++;
  if (end - first > (self->area_x1 - self->area_x0) / 8)
    {
      Direct d;
      gboolean direct = direct_begin (cr, &d, self->area_x0, self->scroll_top, self->area_x1,
                                      self->scroll_top + self->scroll_h);
      /* Crowded: a thin vertical line per kind and pixel column, at the
       * source's time, straight into the pixels when the target allows. */
      int w = (int) (self->area_x1 - self->area_x0) + 2;
      g_autofree guint8 *seen = g_new0 (guint8, w);
      g_autofree double *lane_y = g_new (double, MAX (m->n_streams, 1));
      for (int l = 0; l < m->n_streams; l++)
        lane_y[l] = row_screen_y (self, &g_array_index (self->rows, Row, self->stream_row[l])) + STREAM_MARK_Y;
      for (int k = 0; k < 2; k++)
        {
          PvTimelineArrowFlags kind = k ? PV_TIMELINE_ARROW_NOTIFY : PV_TIMELINE_ARROW_TRIGGER;
          guint32 pixel = rgb_pixel (k ? &c_notify : &c_trigger);
          if (!(self->options.arrows & kind))
            continue;
          memset (seen, 0, w);
          cairo_new_path (cr);
          for (int i = first; i < end; i++)
            {
              const PvTimelineArrow *a = &m->arrows[i];
              const PvTimelineMark *from, *to;
              double x, y0, y1;
              int col;
              if (a->kind != kind || a->t_max < t0 - 10 / sc)
                continue;
              from = &m->marks[a->from_mark];
              to = &m->marks[a->to_mark];
              x = floor (self->area_x0 + (from->time - t0) * sc);
              col = (int) (x - self->area_x0);
              if (col < 0 || col >= w || seen[col])
                continue;
              seen[col] = 1;
              y0 = MIN (lane_y[from->lane], lane_y[to->lane]);
              y1 = MAX (lane_y[from->lane], lane_y[to->lane]);
              if (direct)
                direct_blend_column (&d, (int) x, (int) y0, (int) y1 + 1, pixel, 0.45);
              else
                {
                  cairo_move_to (cr, x + 0.5, y0);
                  cairo_line_to (cr, x + 0.5, y1);
                }
            }
          if (!direct)
            {
              set_rgba (cr, k ? &c_notify : &c_trigger, 0.45);
              cairo_set_line_width (cr, 1);
              cairo_stroke (cr);
            }
        }
      if (direct)
        direct_end (&d);
      return;
    }
  for (int i = first; i < end; i++)
    {
      const PvTimelineArrow *a = &m->arrows[i];
      int k = a->kind == PV_TIMELINE_ARROW_NOTIFY;
      double p[4][2];
      if (!(self->options.arrows & a->kind) || a->t_max < t0 - 10 / sc)
        continue;
      if (!arrow_geometry (self, a, p))
        continue;
      /* One arrow per pixel pair of ends. */
      if (fabs (p[0][0] - last[k][0]) < 1.5 && fabs (p[3][0] - last[k][1]) < 1.5)
        continue;
      last[k][0] = p[0][0];
      last[k][1] = p[3][0];
      stroke_arrow (cr, p, k ? &c_notify : &c_trigger, 1.1, 0.55);
    }
}

static void
draw_links (PvTimelineRenderer *self, cairo_t *cr)
{
  const PvTimelineMemory *mem = current_memory (self);
  double sc = scale (self);
  double last_x = -1e9, last_y = -1e9;

  if (!(self->options.arrows & PV_TIMELINE_ARROW_REUSE) || !mem->available || sc < 3)
    return;
  cairo_set_line_width (cr, 1.2);
  for (int i = 0; i < mem->n_links; i++)
    {
      const PvTimelineLink *l = &mem->links[i];
      const PvTimelineBar *from = &mem->bars[l->from_bar], *to = &mem->bars[l->to_bar];
      const Row *rf, *rt;
      double yf, yt, x, bf, hf, bt, ht, xf;
      if (to->start < self->vp.t0 || to->start > self->vp.t1)
        continue;
      /* A view drawn inside its owner needs no link. */
      if (l->kind == PV_TIMELINE_LINK_ALIAS && from->lane == to->lane)
        continue;
      if (!row_visible (self, self->memory_row[from->lane], &yf) && !row_visible (self, self->memory_row[to->lane], &yt))
        continue;
      rf = &g_array_index (self->rows, Row, self->memory_row[from->lane]);
      rt = &g_array_index (self->rows, Row, self->memory_row[to->lane]);
      yf = row_screen_y (self, rf);
      yt = row_screen_y (self, rt);
      bar_rows (rf, &mem->lanes[from->lane], from, yf, &bf, &hf);
      bar_rows (rt, &mem->lanes[to->lane], to, yt, &bt, &ht);
      x = pv_timeline_renderer_time_to_x (self, to->start);
      if (fabs (x - last_x) < 2 && fabs (bt - last_y) < 2)
        continue;
      last_x = x, last_y = bt;
      /* A hop over the hand-over point: from the earlier value's top edge to
       * the later one's. */
      xf = MAX (x - 14, pv_timeline_renderer_time_to_x (self, from->start) + 2);
      if (l->kind == PV_TIMELINE_LINK_ALIAS)
        {
          static const double dash[] = { 3, 2 };
          cairo_set_dash (cr, dash, 2, 0);
        }
      set_rgba (cr, &c_alias, 0.9);
      cairo_move_to (cr, xf, bf + 1);
      cairo_curve_to (cr, xf + 2, bf - 7, x - 2, MIN (bt, bf) - 7, x + 3, bt + 1);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      arrow_head (cr, x + 3, bt + 1, 1, 2, 5);
    }
}

/* ---- highlights ---- */

static gboolean
kernel_rect (PvTimelineRenderer *self, int kernel, double *x, double *y, double *w, double *h)
{
  const PvTimelineKernel *k;
  double ry;
  if (kernel < 0)
    return FALSE;
  k = &self->model->kernels[kernel];
  if (!row_visible (self, self->stream_row[k->lane], &ry))
    return FALSE;
  *x = floor (pv_timeline_renderer_time_to_x (self, k->start) + 0.5);
  *w = MAX (floor (pv_timeline_renderer_time_to_x (self, k->end) + 0.5) - *x, 1);
  *y = ry + STREAM_BOX_Y;
  *h = STREAM_BOX_H;
  return TRUE;
}

static gboolean
bar_rect (PvTimelineRenderer *self, int bar_index, double *x, double *y, double *w, double *h)
{
  const PvTimelineMemory *mem = current_memory (self);
  const PvTimelineBar *bar;
  const Row *row;
  double ry;
  if (bar_index < 0 || !mem->available)
    return FALSE;
  bar = &mem->bars[bar_index];
  if (!row_visible (self, self->memory_row[bar->lane], &ry))
    return FALSE;
  row = &g_array_index (self->rows, Row, self->memory_row[bar->lane]);
  bar_rows (row, &mem->lanes[bar->lane], bar, ry, y, h);
  *x = floor (pv_timeline_renderer_time_to_x (self, bar->start) + 0.5);
  *w = MAX (floor (pv_timeline_renderer_time_to_x (self, bar->end) + 0.5) - *x, 1);
  return TRUE;
}

static void
outline_rect (cairo_t *cr, double x, double y, double w, double h, const Rgb *colour, double width, gboolean dashed)
{
  /* Narrow items still get a visible frame. */
  if (w < 5)
    {
      x -= (5 - w) / 2;
      w = 5;
    }
  if (dashed)
    {
      static const double dash[] = { 3, 2 };
      cairo_set_dash (cr, dash, 2, 0);
    }
  cairo_set_line_width (cr, width);
  set_rgb (cr, colour);
  cairo_rectangle (cr, x - width / 2, y - width / 2, w + width, h + width);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

/* The consumer of @value (or of a view of it) that ends last. */
static int
last_reader (const PvTimelineModel *m, int value)
{
  const PvGraph *g = m->graph;
  guint n = 0;
  const guint *consumers = pv_graph_value_consumers (g, value, &n);
  int best = -1;
  double best_end = -1;
  for (guint i = 0; i < n; i++)
    {
      int k = m->node_kernel[consumers[i]];
      if (k >= 0 && m->kernels[k].end > best_end)
        {
          best_end = m->kernels[k].end;
          best = k;
        }
    }
  return best;
}

static void
draw_highlight (PvTimelineRenderer *self, cairo_t *cr, const PvTimelineSelection *sel, gboolean hover)
{
  const PvTimelineModel *m = self->model;
  const PvTimelineMemory *mem = current_memory (self);
  const Rgb *colour = hover ? &c_hover : &c_accent;
  double width = hover ? 1.5 : 2.5;
  double x, y, w, h;

  switch (sel->kind)
    {
    case PV_TIMELINE_HIT_KERNEL:
      {
        const PvNode *node;
        if (sel->id < 0 || sel->id >= m->graph->n_nodes)
          return;
        node = &m->graph->nodes[sel->id];
        if (mem->available)
          {
            for (int k = 0; k < node->n_inputs; k++)
              if (node->inputs[k] >= 0 && bar_rect (self, mem->value_bar[node->inputs[k]], &x, &y, &w, &h))
                outline_rect (cr, x, y, w, h, colour, 1.2, TRUE);
            for (int k = 0; k < node->n_outputs; k++)
              if (node->outputs[k] >= 0 && bar_rect (self, mem->value_bar[node->outputs[k]], &x, &y, &w, &h))
                outline_rect (cr, x, y, w, h, colour, width, FALSE);
          }
        if (kernel_rect (self, m->node_kernel[sel->id], &x, &y, &w, &h))
          outline_rect (cr, x, y, w, h, colour, width, FALSE);
        break;
      }
    case PV_TIMELINE_HIT_VALUE:
      {
        const PvValue *value;
        if (sel->id < 0 || sel->id >= m->graph->n_values)
          return;
        value = &m->graph->values[sel->id];
        if (value->producer >= 0 && kernel_rect (self, m->node_kernel[value->producer], &x, &y, &w, &h))
          outline_rect (cr, x, y, w, h, colour, width, FALSE);
        if (kernel_rect (self, last_reader (m, sel->id), &x, &y, &w, &h))
          outline_rect (cr, x, y, w, h, colour, 1.2, TRUE);
        if (mem->available && bar_rect (self, mem->value_bar[sel->id], &x, &y, &w, &h))
          outline_rect (cr, x, y, w, h, colour, width, FALSE);
        break;
      }
    case PV_TIMELINE_HIT_MARK:
      {
        const PvTimelineMark *mk;
        double ry, mx, my;
        if (sel->id < 0 || sel->id >= m->n_marks)
          return;
        mk = &m->marks[sel->id];
        if (!row_visible (self, self->stream_row[mk->lane], &ry))
          return;
        mark_position (self, mk, ry, &mx, &my);
        cairo_new_sub_path (cr);
        cairo_arc (cr, mx, my, MARK_R + 3, 0, 2 * G_PI);
        cairo_set_line_width (cr, width);
        set_rgb (cr, colour);
        cairo_stroke (cr);
        break;
      }
    case PV_TIMELINE_HIT_ARROW:
      {
        double p[4][2];
        if (sel->id < 0 || sel->id >= m->n_arrows || !arrow_geometry (self, &m->arrows[sel->id], p))
          return;
        stroke_arrow (cr, p, colour, hover ? 2.2 : 3, 1);
        break;
      }
    default:
      break;
    }
}

/* The other kernels of a multiple selection: the box outline only (the
 * selection itself also marks its values), all in one stroke. Kernels
 * narrower than a pixel share their column's frame: at most one frame per
 * pixel column and lane, however many kernels are selected. */
static void
draw_selected_kernels (PvTimelineRenderer *self, cairo_t *cr)
{
  const PvTimelineModel *m = self->model;
  const double line = 2.5;
  g_autofree guint8 *taken = NULL; /* lane × pixel column, when many are selected */
  int width = self->vp.width;
  gboolean any = FALSE;
  double x, y, w, h;

  if (self->options.n_selected_nodes > 64)
    taken = g_new0 (guint8, (gsize) MAX (m->n_streams, 1) * (gsize) (width + 1));
  for (int i = 0; i < self->options.n_selected_nodes; i++)
    {
      int node = self->options.selected_nodes[i], k;
      if (node < 0 || node >= m->graph->n_nodes || (k = m->node_kernel[node]) < 0 ||
          (self->options.selection.kind == PV_TIMELINE_HIT_KERNEL && self->options.selection.id == node))
        continue;
      if (!kernel_rect (self, k, &x, &y, &w, &h) || x + w < 0 || x > width)
        continue;
      if (taken && w <= 1)
        {
          guint8 *cell = &taken[(gsize) m->kernels[k].lane * (gsize) (width + 1) + (gsize) CLAMP ((int) x, 0, width)];
          if (*cell)
            continue;
          *cell = 1;
        }
      /* Narrow items still get a visible frame (as outline_rect does). */
      if (w < 5)
        {
          x -= (5 - w) / 2;
          w = 5;
        }
      cairo_rectangle (cr, x - line / 2, y - line / 2, w + line, h + line);
      any = TRUE;
    }
  if (!any)
    return;
  cairo_set_line_width (cr, line);
  set_rgb (cr, &c_accent);
  cairo_stroke (cr);
}

/* ---- chrome: ruler, headers, legend ---- */

static double
tick_step (PvTimelineRenderer *self)
{
  return nice_step (MAX (90.0 / scale (self), 1e-9));
}

static void
format_tick (char *buf, gsize n, double v, double step)
{
  int decimals = step >= 1 ? 0 : (int) ceil (-log10 (step) - 1e-9);
  g_snprintf (buf, n, "%.*f", decimals, v);
}

static void
draw_gridlines (PvTimelineRenderer *self, cairo_t *cr)
{
  double step = tick_step (self);
  cairo_set_line_width (cr, 1);
  set_rgba (cr, &c_separator, 0.7);
  for (double t = ceil (self->vp.t0 / step) * step; t <= self->vp.t1; t += step)
    {
      double x = floor (pv_timeline_renderer_time_to_x (self, t)) + 0.5;
      cairo_move_to (cr, x, self->scroll_top);
      cairo_line_to (cr, x, self->scroll_top + self->scroll_h);
    }
  cairo_stroke (cr);
}

static double
global_peak_time (const PvTimelineModel *m, guint64 *peak)
{
  double t = -1;
  *peak = 0;
  for (int c = 0; c < m->n_curves; c++)
    if (m->curves[c].peak_bytes > *peak)
      {
        *peak = m->curves[c].peak_bytes;
        t = m->curves[c].peak_time;
      }
  return t;
}

static void
draw_ruler (PvTimelineRenderer *self, cairo_t *cr)
{
  const PvTimelineModel *m = self->model;
  double step = tick_step (self), minor = step / 5;
  char buf[64];
  guint64 peak;
  double peak_t = global_peak_time (m, &peak);

  set_rgb (cr, &c_header_bg);
  cairo_rectangle (cr, 0, 0, self->vp.width, RULER_H);
  cairo_fill (cr);
  set_rgb (cr, &c_border);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, 0, RULER_H - 0.5);
  cairo_line_to (cr, self->vp.width, RULER_H - 0.5);
  cairo_stroke (cr);

  draw_text (self, cr, FONT_BOLD, m->has_plan ? "schedule time" : "graph order", 10, 11, HEADER_W - 16,
             PANGO_ELLIPSIZE_END, &c_text);
  {
    double visible = self->vp.t1 - self->vp.t0;
    g_autofree char *span = g_strdup_printf ("1 unit = one kernel · %.6g shown", visible);
    draw_text (self, cr, FONT_SMALL, span, 10, 24, HEADER_W - 16, PANGO_ELLIPSIZE_END, &c_dim);
  }

  cairo_save (cr);
  cairo_rectangle (cr, self->area_x0 - 1, 0, self->area_x1 - self->area_x0 + RIGHT_PAD, RULER_H);
  cairo_clip (cr);
  cairo_set_line_width (cr, 1);
  set_rgb (cr, &c_faint);
  if (minor * scale (self) >= 6)
    for (double t = ceil (self->vp.t0 / minor) * minor; t <= self->vp.t1; t += minor)
      {
        double x = floor (pv_timeline_renderer_time_to_x (self, t)) + 0.5;
        cairo_move_to (cr, x, RULER_H - 4);
        cairo_line_to (cr, x, RULER_H);
      }
  cairo_stroke (cr);
  set_rgb (cr, &c_dim);
  for (double t = ceil (self->vp.t0 / step) * step; t <= self->vp.t1; t += step)
    {
      double x = floor (pv_timeline_renderer_time_to_x (self, t)) + 0.5;
      cairo_move_to (cr, x, RULER_H - 10);
      cairo_line_to (cr, x, RULER_H);
    }
  cairo_stroke (cr);
  for (double t = ceil (self->vp.t0 / step) * step; t <= self->vp.t1; t += step)
    {
      double x = floor (pv_timeline_renderer_time_to_x (self, t)) + 0.5;
      format_tick (buf, sizeof buf, t, step);
      draw_text (self, cr, FONT_SMALL, buf, x + 3, RULER_H - 17, -1, PANGO_ELLIPSIZE_NONE, &c_dim);
    }
  if (peak_t >= self->vp.t0 && peak_t <= self->vp.t1)
    {
      double x = pv_timeline_renderer_time_to_x (self, peak_t);
      cairo_move_to (cr, x, RULER_H - 1);
      cairo_line_to (cr, x - 5, RULER_H - 8);
      cairo_line_to (cr, x + 5, RULER_H - 8);
      cairo_close_path (cr);
      set_rgb (cr, &c_peak);
      cairo_fill (cr);
    }
  cairo_restore (cr);
}

static void
draw_row_header (PvTimelineRenderer *self, cairo_t *cr, const Row *row, double y)
{
  const PvTimelineModel *m = self->model;
  const PvTimelineMemory *mem = current_memory (self);
  const PvTimelineLane *lane = NULL;
  double w = HEADER_W - 20;

  switch (row->kind)
    {
    case ROW_STREAM: lane = &m->streams[row->lane]; break;
    case ROW_CURVE: lane = &m->curve_lanes[row->lane]; break;
    case ROW_MEMORY: lane = &mem->lanes[row->lane]; break;
    default: return;
    }
  if (row->h >= 30)
    {
      draw_text (self, cr, FONT_NORMAL, lane->label, 12, y + 12, w, PANGO_ELLIPSIZE_END, &c_text);
      if (lane->detail)
        draw_text (self, cr, FONT_SMALL, lane->detail, 12, y + 26, w,
                   lane->kind == PV_TIMELINE_LANE_BUFFER ? PANGO_ELLIPSIZE_START : PANGO_ELLIPSIZE_END, &c_dim);
    }
  else
    {
      double right = HEADER_W - 8, lw;
      if ((lane->kind == PV_TIMELINE_LANE_SLOT || lane->kind == PV_TIMELINE_LANE_BUFFER) && lane->bytes > 0)
        {
          g_autofree char *size = format_bytes (lane->bytes);
          right -= draw_text_right (self, cr, FONT_SMALL, size, right, y + row->h / 2, &c_dim) + 8;
        }
      lw = draw_text (self, cr, FONT_SMALL, lane->label, 12, y + row->h / 2, right - 12, PANGO_ELLIPSIZE_END,
                      &c_text);
      if (lane->detail && right - (12 + lw + 6) > 24)
        draw_text (self, cr, FONT_SMALL, lane->detail, 12 + lw + 6, y + row->h / 2, right - (12 + lw + 6),
                   PANGO_ELLIPSIZE_START, &c_faint);
    }
  if (lane->kind == PV_TIMELINE_LANE_CURVE)
    {
      /* The byte scale, beside the grid lines drawn in the curve. */
      double top = y + 10, bottom = y + row->h - 6, height = bottom - top;
      guint64 ymax = curve_ymax (self, row->lane);
      double step = ymax ? nice_byte_step ((double) ymax / 3.0) : 0;
      for (double v = step; step > 0 && v < ymax; v += step)
        {
          double gy = floor (bottom - v / ymax * height) + 0.5;
          g_autofree char *text = format_bytes_axis (v);
          if (gy < y + 34)
            continue;
          draw_text_right (self, cr, FONT_SMALL, text, HEADER_W - 8, gy, &c_faint);
        }
    }
  if (lane->kind == PV_TIMELINE_LANE_ARENA && lane->bytes > 0)
    {
      /* Offsets along the arena's height. */
      double inner_top = y + 6, inner_h = row->h - 12;
      double step = nice_byte_step ((double) lane->bytes / MAX (inner_h / 48, 1));
      for (double v = 0; v <= (double) lane->bytes; v += step)
        {
          double gy = inner_top + v / (double) lane->bytes * inner_h;
          g_autofree char *text = format_bytes_axis (v);
          if (gy < y + 34)
            continue;
          draw_text_right (self, cr, FONT_SMALL, text, HEADER_W - 8, gy, &c_faint);
        }
    }
}

static void
draw_legend (PvTimelineRenderer *self, cairo_t *cr)
{
  double top = self->vp.height - self->legend_h;

  set_rgb (cr, &c_header_bg);
  cairo_rectangle (cr, 0, top, self->vp.width, self->legend_h);
  cairo_fill (cr);
  set_rgb (cr, &c_border);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, 0, top + 0.5);
  cairo_line_to (cr, self->vp.width, top + 0.5);
  cairo_stroke (cr);
  for (guint i = 0; i < self->legend->len; i++)
    {
      const LegendItem *it = &g_array_index (self->legend, LegendItem, i);
      double cy = top + LEGEND_PAD / 2 + it->y + LEGEND_ROW_H / 2, x = it->x, tx = x + 18;
      switch (it->kind)
        {
        case LEGEND_HEADING:
          draw_text (self, cr, FONT_BOLD, it->text, x, cy, -1, PANGO_ELLIPSIZE_NONE, &c_dim);
          continue;
        case LEGEND_SWATCH:
          cairo_rectangle (cr, x, cy - 6, 14, 12);
          set_rgb (cr, &palette[it->arg]);
          cairo_fill_preserve (cr);
          {
            Rgb d = darker (&palette[it->arg], 0.7);
            set_rgb (cr, &d);
            cairo_set_line_width (cr, 1);
            cairo_stroke (cr);
          }
          break;
        case LEGEND_MARK:
          draw_mark (cr, it->arg, x + 7, cy);
          break;
        case LEGEND_VIEW:
          cairo_rectangle (cr, x + 0.5, cy - 6 + 0.5, 13, 11);
          set_rgb (cr, &palette[0]);
          cairo_fill (cr);
          cairo_rectangle (cr, x + 2.5, cy - 3 + 0.5, 9, 5);
          set_rgb (cr, &palette[0]);
          cairo_fill_preserve (cr);
          {
            Rgb d = darker (&palette[0], 0.55);
            set_rgb (cr, &d);
            cairo_set_line_width (cr, 1);
            cairo_stroke (cr);
          }
          break;
        case LEGEND_ARROW:
          {
            const Rgb *c = it->arg == PV_TIMELINE_ARROW_NOTIFY ? &c_notify
                           : it->arg == PV_TIMELINE_ARROW_TRIGGER ? &c_trigger : &c_alias;
            set_rgb (cr, c);
            cairo_set_line_width (cr, 1.4);
            cairo_move_to (cr, x, cy + 4);
            cairo_curve_to (cr, x + 8, cy + 4, x + 10, cy - 4, x + 17, cy - 4);
            cairo_stroke (cr);
            arrow_head (cr, x + 22, cy - 4, 1, 0, 6);
            tx = x + 26;
            break;
          }
        case LEGEND_LINE:
          if (it->arg == 0)
            {
              cairo_move_to (cr, x + 11, cy + 4);
              cairo_line_to (cr, x + 5, cy - 4);
              cairo_line_to (cr, x + 17, cy - 4);
              cairo_close_path (cr);
              set_rgb (cr, &c_peak);
              cairo_fill (cr);
            }
          else
            {
              static const double dash[] = { 5, 3 };
              if (it->arg == 1)
                cairo_set_dash (cr, dash, 2, 0);
              set_rgb (cr, it->arg == 1 ? &c_load : &c_peak);
              cairo_set_line_width (cr, 1.4);
              cairo_move_to (cr, x, cy + 0.5);
              cairo_line_to (cr, x + 22, cy + 0.5);
              cairo_stroke (cr);
              cairo_set_dash (cr, NULL, 0, 0);
            }
          tx = x + 26;
          break;
        }
      draw_text (self, cr, FONT_SMALL, it->text, tx, cy, -1, PANGO_ELLIPSIZE_NONE, &c_text);
    }
}

/* The label column of the scrolled rows, section rows' backgrounds included. */
static void
paint_header_column (PvTimelineRenderer *self, cairo_t *cr, int first, int last)
{
  double bottom = self->scroll_top + self->scroll_h;

  for (int i = first; i < last; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      double y = row_screen_y (self, row);
      set_rgb (cr, row->kind == ROW_SECTION ? &c_section_bg : &c_header_bg);
      cairo_rectangle (cr, 0, y, HEADER_W, row->h);
      cairo_fill (cr);
      set_rgb (cr, row->kind == ROW_SECTION ? &c_border : &c_separator);
      cairo_set_line_width (cr, 1);
      if (row->kind == ROW_SECTION)
        {
          cairo_move_to (cr, 0, y + 0.5);
          cairo_line_to (cr, HEADER_W, y + 0.5);
        }
      if (row->kind != ROW_MEMORY || row->h > MEMORY_H)
        {
          cairo_move_to (cr, 0, y + row->h - 0.5);
          cairo_line_to (cr, HEADER_W, y + row->h - 0.5);
        }
      cairo_stroke (cr);
      if (row->kind != ROW_SECTION && row->kind != ROW_MESSAGE)
        draw_row_header (self, cr, row, y);
    }
  set_rgb (cr, &c_border);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, HEADER_W - 0.5, self->scroll_top);
  cairo_line_to (cr, HEADER_W - 0.5, bottom);
  cairo_stroke (cr);
}

static void
draw_header_column (PvTimelineRenderer *self, cairo_t *cr, int first, int last)
{
  Direct d;
  int h = (int) ceil (self->scroll_h);

  /* Lane labels change only with scrolling, size and options: keep them
   * as an image between frames (zooming and hovering redraw a lot). */
  if (!direct_begin (cr, &d, 0, self->scroll_top, HEADER_W, self->scroll_top + self->scroll_h))
    {
      paint_header_column (self, cr, first, last);
      return;
    }
  if (self->header_cache == NULL || self->header_scroll != self->vp.scroll_y ||
      self->header_generation != self->generation || self->header_serial != self->text_serial)
    {
      cairo_t *hc;
      if (self->header_cache == NULL || cairo_image_surface_get_height (self->header_cache) != h)
        {
          g_clear_pointer (&self->header_cache, cairo_surface_destroy);
          self->header_cache = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) HEADER_W, MAX (h, 1));
        }
      hc = cairo_create (self->header_cache);
      set_rgb (hc, &c_view_bg);
      cairo_paint (hc);
      cairo_translate (hc, 0, -self->scroll_top);
      paint_header_column (self, hc, first, last);
      cairo_destroy (hc);
      cairo_surface_flush (self->header_cache);
      self->header_scroll = self->vp.scroll_y;
      self->header_generation = self->generation;
      self->header_serial = self->text_serial;
    }
  {
    /* A straight copy. */
    const guint32 *src = (const guint32 *) cairo_image_surface_get_data (self->header_cache);
    int sstride = cairo_image_surface_get_stride (self->header_cache) / 4;
    int top = (int) self->scroll_top;
    for (int r = MAX (d.cy0, top + d.dy); r < MIN (d.cy1, top + d.dy + h); r++)
      {
        const guint32 *s = src + (gsize) (r - top - d.dy) * sstride;
        guint32 *t = d.px + (gsize) r * d.stride;
        for (int k = MAX (d.cx0, d.dx); k < MIN (d.cx1, d.dx + (int) HEADER_W); k++)
          t[k] = s[k - d.dx] | 0xff000000u;
      }
    direct_end (&d);
  }
}

/* ---- draw ---- */

void
pv_timeline_renderer_draw (PvTimelineRenderer *self, cairo_t *cr)
{
  const PvTimelineModel *m = self->model;
  int first, last;
  double bottom;
  guint64 peak;
  double peak_t;

  ensure_layout (self);
  {
    /* Pango re-shapes every layout whenever its context is updated, even
     * to the same state: update it only for another kind of target. */
    cairo_surface_t *target = cairo_get_target (cr);
    cairo_font_options_t *fo = cairo_font_options_create ();
    cairo_matrix_t mtx;
    guint key;
    cairo_surface_get_font_options (target, fo);
    cairo_get_matrix (cr, &mtx);
    key = cairo_font_options_hash (fo) * 31u + (guint) cairo_surface_get_type (target) * 7u;
    key = key * 31u + (guint) (mtx.xx * 1024) + (guint) (mtx.yy * 1024) * 17u + (guint) (mtx.xy * 1024) * 131u +
          (guint) (mtx.yx * 1024) * 257u;
    cairo_font_options_destroy (fo);
    if (!self->text_target_known || key != self->text_target)
      {
        pango_cairo_update_context (cr, self->pango);
        g_hash_table_remove_all (self->text_cache);
        self->text_target = key;
        self->text_target_known = TRUE;
        self->text_serial++;
      }
  }

  cairo_save (cr);
  set_rgb (cr, &c_view_bg);
  cairo_rectangle (cr, 0, 0, self->vp.width, self->vp.height);
  cairo_fill (cr);

  /* The scrolled part. */
  cairo_save (cr);
  cairo_rectangle (cr, 0, self->scroll_top, self->vp.width, self->scroll_h);
  cairo_clip (cr);
  bottom = self->scroll_top + self->scroll_h;
  first = first_row_at (self, self->vp.scroll_y);
  last = first;
  while (last < (int) self->rows->len && row_screen_y (self, &g_array_index (self->rows, Row, last)) < bottom)
    last++;

  /* Backgrounds. */
  for (int i = first; i < last; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      double y = row_screen_y (self, row);
      if (row->kind == ROW_SECTION)
        {
          set_rgb (cr, &c_section_bg);
          cairo_rectangle (cr, 0, y, self->vp.width, row->h);
          cairo_fill (cr);
          set_rgb (cr, &c_border);
          cairo_set_line_width (cr, 1);
          cairo_move_to (cr, 0, y + 0.5);
          cairo_line_to (cr, self->vp.width, y + 0.5);
          cairo_move_to (cr, 0, y + row->h - 0.5);
          cairo_line_to (cr, self->vp.width, y + row->h - 0.5);
          cairo_stroke (cr);
        }
      else
        {
          if (row->kind == ROW_MEMORY && row->lane % 2 == 1)
            {
              set_rgb (cr, &c_lane_alt);
              cairo_rectangle (cr, HEADER_W, y, self->vp.width - HEADER_W, row->h);
              cairo_fill (cr);
            }
          set_rgb (cr, &c_separator);
          cairo_set_line_width (cr, 1);
          if (row->kind != ROW_MEMORY || row->h > MEMORY_H)
            {
              cairo_move_to (cr, 0, y + row->h - 0.5);
              cairo_line_to (cr, self->vp.width, y + row->h - 0.5);
              cairo_stroke (cr);
            }
        }
    }

  /* Lane contents, clipped to the time area. */
  cairo_save (cr);
  cairo_rectangle (cr, self->area_x0, self->scroll_top, self->area_x1 - self->area_x0, self->scroll_h);
  cairo_clip (cr);
  draw_gridlines (self, cr);
  for (int i = first; i < last; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      double y = row_screen_y (self, row);
      if (row->kind == ROW_MEMORY)
        draw_memory_row (self, cr, row, y);
      else if (row->kind == ROW_STREAM)
        draw_stream_boxes (self, row, y);
    }
  /* Boxes and bars in one fill per colour, then what goes on top. */
  flush_batches (self, cr);
  flush_labels (self, cr);
  for (int i = first; i < last; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      double y = row_screen_y (self, row);
      if (row->kind == ROW_STREAM)
        draw_stream_marks (self, cr, row, y);
      else if (row->kind == ROW_CURVE)
        draw_curve_row (self, cr, row, y);
    }
  peak_t = global_peak_time (m, &peak);
  if (peak_t >= self->vp.t0 && peak_t <= self->vp.t1 && m->n_curves > 0)
    {
      /* The peak instant, through the curves and the memory lanes. */
      const Row *curve_row = &g_array_index (self->rows, Row, self->curve_row[0]);
      double x = floor (pv_timeline_renderer_time_to_x (self, peak_t)) + 0.5;
      static const double dash[] = { 4, 3 };
      cairo_set_dash (cr, dash, 2, 0);
      cairo_set_line_width (cr, 1);
      set_rgba (cr, &c_peak, 0.55);
      cairo_move_to (cr, x, row_screen_y (self, curve_row));
      cairo_line_to (cr, x, bottom);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }
  draw_links (self, cr);
  draw_arrows (self, cr);
  draw_highlight (self, cr, &self->options.hover, TRUE);
  draw_highlight (self, cr, &self->options.selection, FALSE);
  draw_selected_kernels (self, cr);
  cairo_restore (cr);

  /* Lane headers: from the cache when the target allows. */
  draw_header_column (self, cr, first, last);
  for (int i = first; i < last; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      double y = row_screen_y (self, row);
      if (row->kind == ROW_SECTION)
        {
          double tw = draw_text (self, cr, FONT_BOLD, row->title, 10, y + row->h / 2, -1, PANGO_ELLIPSIZE_NONE,
                                 &c_text);
          if (row->detail)
            draw_text (self, cr, FONT_SMALL, row->detail, 10 + tw + 10, y + row->h / 2,
                       self->vp.width - tw - 30, PANGO_ELLIPSIZE_END, &c_dim);
        }
      else if (row->kind == ROW_MESSAGE)
        draw_text (self, cr, FONT_NORMAL, row->title, HEADER_W + 12, y + row->h / 2, self->area_x1 - HEADER_W - 12,
                   PANGO_ELLIPSIZE_END, &c_dim);
    }
  cairo_restore (cr);

  draw_ruler (self, cr);
  if (self->options.show_legend)
    draw_legend (self, cr);
  cairo_restore (cr);
}

/* ---- hit testing: the same rules as drawing ---- */

static void
hit_reset (PvTimelineHit *hit)
{
  *hit = (PvTimelineHit) { PV_TIMELINE_HIT_NONE, -1, PV_TIMELINE_LANE_STREAM, -1, -1, -1, -1, -1, 0, 0 };
}

static int
hit_kernel (PvTimelineRenderer *self, const PvTimelineLane *lane, double x)
{
  const PvTimelineModel *m = self->model;
  int col = (int) floor (x), best = -1;
  double t_lo = pv_timeline_renderer_x_to_time (self, col - 1), t_hi = pv_timeline_renderer_x_to_time (self, col + 2);

  for (int i = pv_timeline_first_reaching (m->kernel_max_end, lane->first, lane->n, t_lo);
       i < lane->first + lane->n && m->kernels[i].start <= t_hi; i++)
    {
      const PvTimelineKernel *k = &m->kernels[i];
      double x0 = pv_timeline_renderer_time_to_x (self, k->start), x1 = pv_timeline_renderer_time_to_x (self, k->end);
      double a, b;
      if (snap_span (self, x0, x1, &a, &b))
        {
          if (b - a > 3)
            b -= 1;
          if (x >= a && x < b)
            return i;
        }
      else if ((int) floor (x0) == col && (best < 0 || k->weight > m->kernels[best].weight))
        best = i;
    }
  return best;
}

static int
hit_bar (PvTimelineRenderer *self, const Row *row, double row_y, double x, double y)
{
  const PvTimelineMemory *mem = current_memory (self);
  const PvTimelineLane *lane = &mem->lanes[row->lane];
  int col = (int) floor (x), best = -1, wide = -1;
  double t_lo = pv_timeline_renderer_x_to_time (self, col - 1), t_hi = pv_timeline_renderer_x_to_time (self, col + 2);

  for (int i = pv_timeline_first_reaching (mem->bar_max_end, lane->first, lane->n, t_lo);
       i < lane->first + lane->n && mem->bars[i].start <= t_hi; i++)
    {
      const PvTimelineBar *bar = &mem->bars[i];
      double x0 = pv_timeline_renderer_time_to_x (self, bar->start), x1 = pv_timeline_renderer_time_to_x (self, bar->end);
      double a, b, by, bh;
      gboolean view = (bar->flags & PV_TIMELINE_BAR_VIEW) != 0;
      bar_rows (row, lane, bar, row_y, &by, &bh);
      if (y < by - 1 || y > by + bh + 1)
        continue;
      if (snap_span (self, x0, x1, &a, &b))
        {
          if (b - a > 3)
            b -= 1;
          if (x >= a && x < b)
            {
              if (view)
                return i;  /* drawn on top of its owner */
              wide = i;
            }
        }
      else if (!view && (int) floor (x0) == col && (best < 0 || bar->bytes > mem->bars[best].bytes))
        best = i;
    }
  return wide >= 0 ? wide : best;
}

static double
bezier_distance (double p[4][2], double x, double y)
{
  double best = G_MAXDOUBLE;
  for (int i = 0; i <= 24; i++)
    {
      double t = i / 24.0, u = 1 - t;
      double bx = u * u * u * p[0][0] + 3 * u * u * t * p[1][0] + 3 * u * t * t * p[2][0] + t * t * t * p[3][0];
      double by = u * u * u * p[0][1] + 3 * u * u * t * p[1][1] + 3 * u * t * t * p[2][1] + t * t * t * p[3][1];
      best = MIN (best, hypot (bx - x, by - y));
    }
  return best;
}

static int
hit_arrow (PvTimelineRenderer *self, double x, double y)
{
  const PvTimelineModel *m = self->model;
  double t_lo = pv_timeline_renderer_x_to_time (self, x - 24), t_hi = pv_timeline_renderer_x_to_time (self, x + 24);
  double best_d = HIT_SLOP;
  int best = -1;

  for (int i = pv_timeline_first_reaching (m->arrow_max_end, 0, m->n_arrows, t_lo);
       i < m->n_arrows && m->arrows[i].t_min <= t_hi; i++)
    {
      double p[4][2], d;
      if (!(self->options.arrows & m->arrows[i].kind) || !arrow_geometry (self, &m->arrows[i], p))
        continue;
      d = bezier_distance (p, x, y);
      if (d <= best_d)
        {
          best_d = d;
          best = i;
        }
    }
  return best;
}

static int
hit_mark (PvTimelineRenderer *self, const PvTimelineLane *lane, double row_y, double x, double y)
{
  const PvTimelineModel *m = self->model;
  int best = -1;
  double best_d = MARK_R + 2.5;

  for (int i = lane->first_mark; i < lane->first_mark + lane->n_marks; i++)
    {
      double mx, my, d;
      if (m->marks[i].time < self->vp.t0 - 1 || m->marks[i].time > self->vp.t1 + 1)
        continue;
      mark_position (self, &m->marks[i], row_y, &mx, &my);
      d = hypot (mx - x, my - y);
      if (d <= best_d)
        {
          best_d = d;
          best = i;
        }
    }
  return best;
}

gboolean
pv_timeline_renderer_get_kernel_rect (PvTimelineRenderer *self, int kernel, double *x, double *y, double *w, double *h)
{
  ensure_layout (self);
  if (kernel >= self->model->n_kernels)
    return FALSE;
  return kernel_rect (self, kernel, x, y, w, h);
}

gboolean
pv_timeline_renderer_hit_test (PvTimelineRenderer *self, double x, double y, PvTimelineHit *hit)
{
  const PvTimelineModel *m = self->model;
  const PvTimelineMemory *mem;
  const Row *row;
  int r;
  double row_y;

  ensure_layout (self);
  mem = current_memory (self);
  hit_reset (hit);
  hit->time = pv_timeline_renderer_x_to_time (self, x);
  if (x < 0 || y < 0 || x >= self->vp.width || y >= self->vp.height)
    return FALSE;
  if (y < RULER_H)
    {
      hit->kind = PV_TIMELINE_HIT_RULER;
      return TRUE;
    }
  if (self->options.show_legend && y >= self->vp.height - self->legend_h)
    {
      hit->kind = PV_TIMELINE_HIT_LEGEND;
      return TRUE;
    }
  r = first_row_at (self, y - self->scroll_top + self->vp.scroll_y);
  if (r >= (int) self->rows->len)
    return FALSE;
  row = &g_array_index (self->rows, Row, r);
  row_y = row_screen_y (self, row);
  if (y < row_y)
    return FALSE;
  if (row->kind == ROW_SECTION || row->kind == ROW_MESSAGE)
    return FALSE;
  hit->lane = row->lane;
  hit->lane_kind = row->kind == ROW_STREAM ? PV_TIMELINE_LANE_STREAM
                   : row->kind == ROW_CURVE ? PV_TIMELINE_LANE_CURVE
                   : mem->lanes[row->lane].kind;
  if (x < HEADER_W)
    {
      hit->kind = PV_TIMELINE_HIT_LANE_HEADER;
      if (row->kind == ROW_STREAM)
        hit->stream = row->lane;
      return TRUE;
    }
  if (x < self->area_x0 || x >= self->area_x1)
    return FALSE;

  if (row->kind == ROW_STREAM)
    {
      const PvTimelineLane *lane = &m->streams[row->lane];
      int i = hit_mark (self, lane, row_y, x, y);
      if (i >= 0)
        {
          const PvTimelineMark *mk = &m->marks[i];
          hit->kind = PV_TIMELINE_HIT_MARK;
          hit->index = i;
          hit->node = mk->node;
          hit->stream = mk->lane;
          hit->step = mk->step;
          return TRUE;
        }
    }
  if (row->kind == ROW_STREAM && m->n_arrows > 0)
    {
      int i = hit_arrow (self, x, y);
      if (i >= 0)
        {
          const PvTimelineMark *from = &m->marks[m->arrows[i].from_mark];
          hit->kind = PV_TIMELINE_HIT_ARROW;
          hit->index = i;
          hit->node = from->node;
          hit->stream = from->lane;
          hit->step = from->step;
          return TRUE;
        }
    }
  if (row->kind == ROW_STREAM)
    {
      const PvTimelineLane *lane = &m->streams[row->lane];
      int i;
      if (y < row_y + STREAM_BOX_Y - 1 || y > row_y + STREAM_BOX_Y + STREAM_BOX_H + 1)
        return FALSE;
      i = hit_kernel (self, lane, x);
      if (i < 0)
        return FALSE;
      hit->kind = PV_TIMELINE_HIT_KERNEL;
      hit->index = i;
      hit->node = m->kernels[i].node;
      hit->stream = m->kernels[i].lane;
      hit->step = m->kernels[i].step;
      return TRUE;
    }
  if (row->kind == ROW_CURVE)
    {
      const PvTimelineCurve *c = &m->curves[row->lane];
      int lo = 0, hi = c->n_points;
      while (lo < hi)
        {
          int mid = lo + (hi - lo) / 2;
          if (c->times[mid] <= hit->time)
            lo = mid + 1;
          else
            hi = mid;
        }
      hit->kind = PV_TIMELINE_HIT_CURVE;
      hit->bytes = lo > 0 ? c->bytes[lo - 1] : 0;
      return TRUE;
    }
  if (row->kind == ROW_MEMORY)
    {
      int i = hit_bar (self, row, row_y, x, y);
      if (i < 0)
        return FALSE;
      hit->kind = PV_TIMELINE_HIT_VALUE;
      hit->index = i;
      hit->value = mem->bars[i].value;
      hit->bytes = mem->bars[i].bytes;
      hit->node = m->graph->values[hit->value].producer;
      return TRUE;
    }
  return FALSE;
}

char *
pv_timeline_renderer_describe (PvTimelineRenderer *self, const PvTimelineHit *hit)
{
  const PvTimelineModel *m = self->model;
  const PvGraph *g = m->graph;

  switch (hit->kind)
    {
    case PV_TIMELINE_HIT_KERNEL:
      {
        const PvTimelineKernel *k = &m->kernels[hit->index];
        const PvNode *node = &g->nodes[k->node];
        return g_strdup_printf ("%s %s · stream %d, step %d · t %g–%g", node->op_type, node->name, k->lane, k->step,
                                k->start, k->end);
      }
    case PV_TIMELINE_HIT_MARK:
      {
        const PvTimelineMark *mk = &m->marks[hit->index];
        return g_strdup_printf ("%s %d (%s %s) · stream %d, step %d · t %g", pv_timeline_mark_kind_name (mk->kind),
                                mk->id, mk->kind == PV_TIMELINE_MARK_BARRIER || mk->kind == PV_TIMELINE_MARK_WAIT
                                          ? "before" : "after",
                                g->nodes[mk->node].name, mk->lane, mk->step, mk->time);
      }
    case PV_TIMELINE_HIT_ARROW:
      {
        const PvTimelineArrow *a = &m->arrows[hit->index];
        const PvTimelineMark *from = &m->marks[a->from_mark], *to = &m->marks[a->to_mark];
        return g_strdup_printf ("%s: %s (stream %d) → %s (stream %d)",
                                a->kind == PV_TIMELINE_ARROW_NOTIFY ? "notify → wait" : "trigger → barrier",
                                g->nodes[from->node].name, from->lane, g->nodes[to->node].name, to->lane);
      }
    case PV_TIMELINE_HIT_VALUE:
      {
        const PvTimelineMemory *mem = current_memory (self);
        const PvTimelineBar *bar = &mem->bars[hit->index];
        g_autofree char *size = format_bytes (bar->bytes);
        const char *kind = bar->alloc_kind >= PV_ORT_ALLOC_ALLOCATE
                             ? pv_ort_alloc_kind_name ((PvOrtAllocKind) bar->alloc_kind) : NULL;
        return g_strdup_printf ("%s · %s%s%s%s · live %g–%g", g->values[bar->value].name, size, kind ? " · " : "",
                                kind ? kind : "", (bar->flags & PV_TIMELINE_BAR_VIEW) ? " · view" : "", bar->start,
                                bar->end);
      }
    case PV_TIMELINE_HIT_CURVE:
      {
        g_autofree char *size = format_bytes (hit->bytes);
        return g_strdup_printf ("%s at t %.4g: %s", m->curve_lanes[hit->lane].label, hit->time, size);
      }
    case PV_TIMELINE_HIT_RULER:
      return g_strdup_printf ("t %.4g", hit->time);
    default:
      return NULL;
    }
}
