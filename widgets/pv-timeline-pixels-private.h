/* pv-timeline-pixels-private.h: writing straight into an image surface's
 * pixels, where cairo's general fill would cost too much. Inline only: the
 * callers' pixel loops keep the record in registers. Not installed;
 * widgets/ only. */
#pragma once

#include <cairo.h>
#include <glib.h>
#include <math.h>

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
