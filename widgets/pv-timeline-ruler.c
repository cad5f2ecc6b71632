/* pv-timeline-ruler.c: the time ruler and its gridlines. */
#include "pv-timeline-renderer-private.h"

static double
tick_step (PvTimelineRenderer *self)
{
  return pv_timeline_nice_step (MAX (90.0 / scale (self), 1e-9));
}

void
pv_timeline_format_tick (char *buf, gsize n, double v, double step)
{
  int decimals = step >= 1 ? 0 : (int) ceil (-log10 (step) - 1e-9);

  /* A tick at zero reached from the left (ceil of a small negative) or by
   * summing steps prints "-0" or "-0.0" otherwise. */
  if (fabs (v) < step / 2)
    v = 0;
  g_snprintf (buf, n, "%.*f", decimals, v);
}

void
pv_timeline_draw_gridlines (PvTimelineRenderer *self, cairo_t *cr)
{
  double step = tick_step (self);
  cairo_set_line_width (cr, 1);
  set_rgba (cr, &pal (self)->separator, 0.7);
  for (double t = ceil (self->vp.t0 / step) * step; t <= self->vp.t1; t += step)
    {
      double x = floor (pv_timeline_renderer_time_to_x (self, t)) + 0.5;
      cairo_move_to (cr, x, self->scroll_top);
      cairo_line_to (cr, x, self->scroll_top + self->scroll_h);
    }
  cairo_stroke (cr);
}

double
pv_timeline_global_peak_time (const PvTimelineModel *m, guint64 *peak)
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

void
pv_timeline_draw_ruler (PvTimelineRenderer *self, cairo_t *cr)
{
  const PvTimelineModel *m = self->model;
  double step = tick_step (self), minor = step / 5;
  char buf[64];
  guint64 peak;
  double peak_t = pv_timeline_global_peak_time (m, &peak);

  set_rgb (cr, &pal (self)->header_bg);
  cairo_rectangle (cr, 0, 0, self->vp.width, RULER_H);
  cairo_fill (cr);
  set_rgb (cr, &pal (self)->border);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, 0, RULER_H - 0.5);
  cairo_line_to (cr, self->vp.width, RULER_H - 0.5);
  cairo_stroke (cr);

  pv_timeline_draw_text (self, cr, FONT_BOLD, m->has_plan ? "schedule time" : "graph order", 10, 11, HEADER_W - 16,
                         PANGO_ELLIPSIZE_END, &pal (self)->text);
  {
    /* Two or three figures: the label has a header column's width. */
    double visible = self->vp.t1 - self->vp.t0;
    g_autofree char *span = visible < 10      ? g_strdup_printf ("1 unit = one kernel · %.2g shown", visible)
                            : visible < 10000 ? g_strdup_printf ("1 unit = one kernel · %.0f shown", visible)
                                              : g_strdup_printf ("1 unit = one kernel · %.3gk shown", visible / 1000);
    pv_timeline_draw_text (self, cr, FONT_SMALL, span, 10, 24, HEADER_W - 16, PANGO_ELLIPSIZE_END, &pal (self)->dim);
  }

  cairo_save (cr);
  cairo_rectangle (cr, self->area_x0 - 1, 0, self->area_x1 - self->area_x0 + RIGHT_PAD, RULER_H);
  cairo_clip (cr);
  cairo_set_line_width (cr, 1);
  set_rgb (cr, &pal (self)->faint);
  if (minor * scale (self) >= 6)
    for (double t = ceil (self->vp.t0 / minor) * minor; t <= self->vp.t1; t += minor)
      {
        double x = floor (pv_timeline_renderer_time_to_x (self, t)) + 0.5;
        cairo_move_to (cr, x, RULER_H - 4);
        cairo_line_to (cr, x, RULER_H);
      }
  cairo_stroke (cr);
  set_rgb (cr, &pal (self)->dim);
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
      pv_timeline_format_tick (buf, sizeof buf, t, step);
      pv_timeline_draw_text (self, cr, FONT_SMALL, buf, x + 3, RULER_H - 17, -1, PANGO_ELLIPSIZE_NONE, &pal (self)->dim);
    }
  if (peak_t >= self->vp.t0 && peak_t <= self->vp.t1)
    {
      double x = pv_timeline_renderer_time_to_x (self, peak_t);
      cairo_move_to (cr, x, RULER_H - 1);
      cairo_line_to (cr, x - 5, RULER_H - 8);
      cairo_line_to (cr, x + 5, RULER_H - 8);
      cairo_close_path (cr);
      set_rgb (cr, &pv_timeline_colours.peak);
      cairo_fill (cr);
    }
  cairo_restore (cr);
}
