/* pv-timeline-style.h: how the timeline looks: every colour the renderer
 * draws with (the op and AllocKind fills, the chrome of the light and dark
 * styles, the colours both share) and its fonts. Not installed; widgets/
 * only. */
#pragma once

#include <cairo.h>
#include <glib.h>
#include <pango/pango.h>

#include "pv-timeline-model.h"

G_BEGIN_DECLS

typedef struct {
  double r, g, b;
} Rgb;

/* The fills of kernels and bars, by colour index (pv-timeline-model.h):
 * the op colours, then the AllocKind colours. */
extern const Rgb pv_timeline_fills[PV_TIMELINE_N_COLOURS];

/* The colours that follow the style: the view's chrome, its text, and the
 * lines drawn over it. Light for GTK's default style and for exports; dark
 * when the widget's style is dark. */
typedef struct {
  Rgb view_bg, header_bg, section_bg, lane_alt, separator, border;
  Rgb text, dim, faint;
  Rgb load, trigger, notify, alias, arena_held;
} PvTimelinePalette;

extern const PvTimelinePalette pv_timeline_palette_light;
extern const PvTimelinePalette pv_timeline_palette_dark;

/* The colours that are the same in both styles. */
typedef struct {
  Rgb label;                          /* text on a pale fill */
  Rgb label_on_dark;                  /* text on a saturated fill */
  Rgb accent, hover;                  /* the selection and the range; the hover */
  Rgb curve, peak;                    /* live bytes; the peak and what the plan reserves */
  Rgb arena_in_use, arena_requested;  /* ORT's arena: its chunks in use; what kernels asked for */
  Rgb summary;                        /* a pixel column of many narrow items */
  Rgb ghost;                          /* the plan before an edit */
  Rgb instant, found;                 /* the instant and its live values; the search's finds */
} PvTimelineColours;

extern const PvTimelineColours pv_timeline_colours;

/* Dark text reads on @c (else white). */
static inline gboolean
is_light (const Rgb *c)
{
  return 0.2126 * c->r + 0.7152 * c->g + 0.0722 * c->b > 0.5;
}

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

/* @c scaled by @f: the outline of a fill. */
static inline Rgb
darker (const Rgb *c, double f)
{
  return (Rgb) { c->r * f, c->g * f, c->b * f };
}

/* The pale part of a fill: the unused part of a slot or buffer. */
static inline Rgb
tint_of (const Rgb *c)
{
  return (Rgb) { 0.45 * c->r + 0.55, 0.45 * c->g + 0.55, 0.45 * c->b + 0.55 };
}

/* @c as an opaque ARGB32 pixel. */
static inline guint32
rgb_pixel (const Rgb *c)
{
  return 0xff000000u | (guint32) (c->r * 255 + 0.5) << 16 | (guint32) (c->g * 255 + 0.5) << 8 |
         (guint32) (c->b * 255 + 0.5);
}

/* ---- fonts ---- */

/* The family when the options name none. */
#define PV_TIMELINE_DEFAULT_FONT "Cantarell, Noto Sans, DejaVu Sans, Sans"

enum { FONT_NORMAL, FONT_SMALL, FONT_BOLD, N_FONTS };

/* Frees what @fonts holds and fills it with the renderer's fonts in
 * @family (NULL: the default). */
void pv_timeline_style_set_fonts (PangoFontDescription *fonts[N_FONTS], const char *family);
/* The exported picture's title font in @family (NULL: the default); free
 * it with pango_font_description_free(). */
PangoFontDescription *pv_timeline_style_title_font (const char *family);

G_END_DECLS
