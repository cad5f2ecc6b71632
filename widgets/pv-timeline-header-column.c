/* pv-timeline-header-column.c: the lane label column. */
#include "pv-timeline-renderer-private.h"

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
      pv_timeline_draw_text (self, cr, FONT_NORMAL, lane->label, 12, y + 12, w, PANGO_ELLIPSIZE_END, &pal (self)->text);
      if (lane->detail)
        pv_timeline_draw_text (self, cr, FONT_SMALL, lane->detail, 12, y + 26, w,
                               lane->kind == PV_TIMELINE_LANE_BUFFER ? PANGO_ELLIPSIZE_START : PANGO_ELLIPSIZE_END,
                               &pal (self)->dim);
    }
  else
    {
      double right = HEADER_W - 8, lw;
      if ((lane->kind == PV_TIMELINE_LANE_SLOT || lane->kind == PV_TIMELINE_LANE_BUFFER) && lane->bytes > 0)
        {
          g_autofree char *size = pv_timeline_format_bytes (lane->bytes);
          right -= pv_timeline_draw_text_right (self, cr, FONT_SMALL, size, right, y + row->h / 2, &pal (self)->dim) + 8;
        }
      lw = pv_timeline_draw_text (self, cr, FONT_SMALL, lane->label, 12, y + row->h / 2, right - 12,
                                  PANGO_ELLIPSIZE_END, &pal (self)->text);
      if (lane->detail && right - (12 + lw + 6) > 24)
        pv_timeline_draw_text (self, cr, FONT_SMALL, lane->detail, 12 + lw + 6, y + row->h / 2, right - (12 + lw + 6),
                               PANGO_ELLIPSIZE_START, &pal (self)->faint);
    }
  if (lane->kind == PV_TIMELINE_LANE_CURVE)
    {
      /* The byte scale, beside the grid lines drawn in the curve. */
      double top = y + 10, bottom = y + row->h - 6, height = bottom - top;
      guint64 ymax = pv_timeline_curve_ymax (self, row->lane);
      double step = ymax ? pv_timeline_nice_byte_step ((double) ymax / 3.0) : 0;
      for (double v = step; step > 0 && v < ymax; v += step)
        {
          double gy = floor (bottom - v / ymax * height) + 0.5;
          g_autofree char *text = format_bytes_axis (v);
          if (gy < y + 34)
            continue;
          pv_timeline_draw_text_right (self, cr, FONT_SMALL, text, HEADER_W - 8, gy, &pal (self)->faint);
        }
    }
  if (lane->kind == PV_TIMELINE_LANE_ARENA && lane->bytes > 0)
    {
      /* Offsets along the arena's height. */
      double inner_top = y + 6, inner_h = row->h - 12;
      double step = pv_timeline_nice_byte_step ((double) lane->bytes / MAX (inner_h / 48, 1));
      for (double v = 0; v <= (double) lane->bytes; v += step)
        {
          double gy = inner_top + v / (double) lane->bytes * inner_h;
          g_autofree char *text = format_bytes_axis (v);
          if (gy < y + 34)
            continue;
          pv_timeline_draw_text_right (self, cr, FONT_SMALL, text, HEADER_W - 8, gy, &pal (self)->faint);
        }
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
      set_rgb (cr, row->kind == ROW_SECTION ? &pal (self)->section_bg : &pal (self)->header_bg);
      cairo_rectangle (cr, 0, y, HEADER_W, row->h);
      cairo_fill (cr);
      set_rgb (cr, row->kind == ROW_SECTION ? &pal (self)->border : &pal (self)->separator);
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
  set_rgb (cr, &pal (self)->border);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, HEADER_W - 0.5, self->scroll_top);
  cairo_line_to (cr, HEADER_W - 0.5, bottom);
  cairo_stroke (cr);
}

void
pv_timeline_draw_header_column (PvTimelineRenderer *self, cairo_t *cr, int first, int last)
{
  Direct d;
  int h = (int) ceil (self->scroll_h);

  /* Lane labels change only with scrolling, size and options: keep them
   * as an image between frames (zooming and hovering redraw a lot). */
  if (!pv_timeline_direct_begin (cr, &d, 0, self->scroll_top, HEADER_W, self->scroll_top + self->scroll_h))
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
      set_rgb (hc, &pal (self)->view_bg);
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
    pv_timeline_direct_end (&d);
  }
}
