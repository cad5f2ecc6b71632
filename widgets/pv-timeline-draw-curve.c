/* pv-timeline-draw-curve.c: live-bytes curves and their byte axes. */
#include "pv-timeline-renderer-private.h"

/* ---- live-bytes curves ---- */

double
pv_timeline_nice_step (double raw)
{
  double p = pow (10, floor (log10 (raw)));
  double f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

/* A step for byte grids: 1, 2, 5 × a power of ten of a 1024-power unit,
 * below 1000 of it: past 500 KiB the next step is 1 MiB, not 1000 KiB
 * (whose multiples read 2.9, 3.9, 4.9 MiB). */
double
pv_timeline_nice_byte_step (double raw)
{
  double unit = 1, step;

  while (raw >= unit * 1024 && unit < 1e18)
    unit *= 1024;
  step = pv_timeline_nice_step (MAX (raw / unit, 1e-9));
  return step >= 1000 ? unit * 1024 : step * unit;
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

/* One curve row as it is drawn: its vertical extent, its pixel columns,
 * its byte scale and the label boxes placed so far. */
typedef struct {
  const PvTimelineCurve *c;
  double top, bottom, height;
  int x0, x1, w;
  guint64 ymax;
  Box used[8];
  int n_used;
} CurvePlot;

/* The screen y of @bytes on @p's scale, on a pixel's centre. */
static double
plot_line_y (const CurvePlot *p, guint64 bytes)
{
  return floor (p->bottom - (double) bytes / p->ymax * p->height) + 0.5;
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
    const TextEntry *e = pv_timeline_shaped_text (self, FONT_SMALL, text, -1, -1, PANGO_ELLIPSIZE_NONE);
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
  set_rgba (cr, &pal (self)->view_bg, 0.85);
  cairo_rectangle (cr, b.x0, b.y0, w + 4, h);
  cairo_fill (cr);
  pv_timeline_draw_text_right (self, cr, FONT_SMALL, text, self->area_x1 - 4, (b.y0 + b.y1) / 2, colour);
}

/* The top of a curve's scale: its peak, and with one device LOAD and
 * what the plan reserves, so all three lines fit. */
guint64
pv_timeline_curve_ymax (PvTimelineRenderer *self, int curve)
{
  const PvTimelineModel *m = self->model;
  const PvTimelineMemory *mem = current_memory (self);
  guint64 ymax = m->curves[curve].peak_bytes;
  const PvTimelineCurve *ghost = pv_timeline_ghost_curve (self, m->curves[curve].device);

  /* One scale for both plans: the earlier curve is not cut off. */
  if (ghost)
    ymax = MAX (ymax, ghost->peak_bytes);
  if (m->n_curves == 1)
    {
      ymax = MAX (ymax, m->load_bytes);
      /* ORT's arena, unless it would flatten the curve (labelled off the
       * scale then). */
      if (m->arena.n_points > 0 && m->arena.max_held <= 4 * MAX (ymax, 1))
        ymax = MAX (ymax, m->arena.max_held);
      /* A plan far above what is live would flatten the curve: it is
       * then labelled off the scale instead. */
      if (mem->available && mem->peak_bytes <= 4 * ymax)
        ymax = MAX (ymax, mem->peak_bytes);
    }
  return ymax;
}

const PvTimelineCurve *
pv_timeline_ghost_curve (PvTimelineRenderer *self, int device)
{
  const PvTimelineModel *g = self->options.ghost;

  for (int c = 0; g && c < g->n_curves; c++)
    if (g->curves[c].device == device && g->curves[c].n_points > 0)
      return &g->curves[c];
  return NULL;
}

/* The highest values of @n_series step series over the same @times in
 * each pixel column of the visible span, in one pass: @colmax[s * (w + 1)
 * + k] for series s, -1 where it has no point yet. */
static void
column_max (PvTimelineRenderer *self, const double *times, const guint64 *const *values, int n_series, int n,
            double *colmax, int w)
{
  int x0 = (int) self->area_x0, lo = 0, hi = n;
  double t0 = self->vp.t0, sc = scale (self);

  for (int i = 0; i < n_series * (w + 1); i++)
    colmax[i] = -1;
  while (lo < hi)
    {
      int mid = lo + (hi - lo) / 2;
      if (times[mid] <= t0)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (int i = MAX (lo - 1, 0); i < n; i++)
    {
      double xa = self->area_x0 + (times[i] - t0) * sc;
      double xb = i + 1 < n ? self->area_x0 + (times[i + 1] - t0) * sc : self->area_x1 + 1;
      int ca, cb;
      if (xa > self->area_x1)
        break;
      ca = CLAMP ((int) floor (MAX (xa, self->area_x0)) - x0, 0, w);
      cb = CLAMP ((int) floor (MIN (xb, self->area_x1)) - x0, 0, w);
      for (int s = 0; s < n_series; s++)
        {
          double v = (double) values[s][i], *col = colmax + s * (w + 1);
          for (int k = ca; k <= cb; k++)
            col[k] = MAX (col[k], v);
        }
    }
}

/* ORT's arena over the first run: held, in use and requested as step
 * lines, labelled together at the held line with their most. */
static void
draw_arena_lines (PvTimelineRenderer *self, cairo_t *cr, CurvePlot *p)
{
  const PvTimelineArena *a = &self->model->arena;
  int x0 = p->x0, w = p->w;
  double top = p->top, bottom = p->bottom, height = p->height;
  guint64 ymax = p->ymax;
  g_autofree double *cols = g_new (double, 3 * (w + 1));
  const guint64 *values[] = { a->held, a->in_use, a->requested };
  const Rgb *colours[] = { &pal (self)->arena_held, &pv_timeline_colours.arena_in_use, &pv_timeline_colours.arena_requested };
  g_autofree char *held = pv_timeline_format_bytes (a->max_held);
  g_autofree char *in_use = pv_timeline_format_bytes (a->max_in_use);
  g_autofree char *requested = pv_timeline_format_bytes (a->max_requested);
  g_autofree char *text = NULL;
  gboolean off = a->max_held > ymax;

  column_max (self, a->times, values, G_N_ELEMENTS (values), a->n_points, cols, w);
  for (gsize s = 0; s < G_N_ELEMENTS (values); s++)
    {
      gboolean open = FALSE;
      const double *col = cols + s * (w + 1);
      cairo_new_path (cr);
      for (int k = 0; k < w; k++)
        {
          double py;
          if (col[k] < 0)
            {
              open = FALSE;
              continue;
            }
          py = floor (bottom - MIN (col[k], (double) ymax) / ymax * height) + 0.5;
          if (open)
            cairo_line_to (cr, x0 + k, py);
          else
            cairo_move_to (cr, x0 + k, py);
          cairo_line_to (cr, x0 + k + 1, py);
          open = TRUE;
        }
      cairo_set_line_width (cr, 1.5);
      set_rgb (cr, colours[s]);
      cairo_stroke (cr);
    }
  text = g_strdup_printf ("ORT arena: holds %s · in use ≤ %s · requested ≤ %s%s", held, in_use, requested,
                          off ? " ↑ (off the scale)" : "");
  draw_hline_label (self, cr, off ? floor (top) + 0.5 : plot_line_y (p, a->max_held), text, &pal (self)->arena_held,
                    p->used, &p->n_used);
}

/* The earlier plan's curve: its per-column maximum as a faint grey area
 * with a dotted outline, drawn under the curve's own area (a step line
 * alone would read as another horizontal line, like LOAD's). */
static void
draw_ghost (PvTimelineRenderer *self, cairo_t *cr, const PvTimelineCurve *ghost, const CurvePlot *p)
{
  static const double dash[] = { 2, 2 };
  int x0 = p->x0, w = p->w;
  double bottom = p->bottom, height = p->height;
  guint64 ymax = p->ymax;
  g_autofree double *col = g_new (double, w + 1);
  const guint64 *values[] = { ghost->bytes };

  column_max (self, ghost->times, values, 1, ghost->n_points, col, w);
  for (int pass = 0; pass < 2; pass++)
    {
      int first = -1, last = -1;
      cairo_new_path (cr);
      for (int k = 0; k < w; k++)
        {
          double py;
          if (col[k] < 0)
            continue;
          py = floor (bottom - MIN (col[k], (double) ymax) / ymax * height) + 0.5;
          if (first < 0)
            {
              first = k;
              cairo_move_to (cr, x0 + k, pass == 0 ? bottom : py);
            }
          cairo_line_to (cr, x0 + k, py);
          cairo_line_to (cr, x0 + k + 1, py);
          last = k;
        }
      if (first < 0)
        return;
      if (pass == 0)
        {
          cairo_line_to (cr, x0 + last + 1, bottom);
          cairo_close_path (cr);
          set_rgba (cr, &pv_timeline_colours.ghost, 0.14);
          cairo_fill (cr);
          continue;
        }
      cairo_set_dash (cr, dash, 2, 0);
      cairo_set_line_width (cr, 1.5);
      set_rgba (cr, &pv_timeline_colours.ghost, 0.95);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }
}

/* Horizontal grid at nice byte values. */
static void
draw_byte_grid (PvTimelineRenderer *self, cairo_t *cr, const CurvePlot *p)
{
  double step = pv_timeline_nice_byte_step ((double) p->ymax / 3.0);

  cairo_set_line_width (cr, 1);
  for (double v = step; v < p->ymax; v += step)
    {
      double gy = floor (p->bottom - v / p->ymax * p->height) + 0.5;
      set_rgb (cr, &pal (self)->separator);
      cairo_move_to (cr, self->area_x0, gy);
      cairo_line_to (cr, self->area_x1, gy);
      cairo_stroke (cr);
    }
}

/* Per pixel column, the highest (@colmax, -1 where no point) and lowest
 * (@colmin) level held in it. */
static void
curve_columns (PvTimelineRenderer *self, const CurvePlot *p, double *colmax, double *colmin)
{
  const PvTimelineCurve *c = p->c;
  double t0 = self->vp.t0, sc = scale (self);
  int lo = 0, hi = c->n_points;

  for (int i = 0; i <= p->w; i++)
    colmax[i] = -1, colmin[i] = G_MAXDOUBLE;
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
      ca = (int) floor (MAX (xa, self->area_x0)) - p->x0;
      cb = (int) floor (MIN (xb, self->area_x1)) - p->x0;
      ca = CLAMP (ca, 0, p->w);
      cb = CLAMP (cb, 0, p->w);
      for (int k = ca; k <= cb; k++)
        {
          colmax[k] = MAX (colmax[k], (double) c->bytes[i]);
          colmin[k] = MIN (colmin[k], (double) c->bytes[i]);
        }
    }
}

/* Area and outline straight into the pixels (the step curve is
 * axis-aligned, so nothing needs anti-aliasing); FALSE when the target
 * does not allow it. */
static gboolean
fill_curve_direct (PvTimelineRenderer *self, cairo_t *cr, const CurvePlot *p, const double *colmax,
                   const double *colmin)
{
  const Rgb *curve = &pv_timeline_colours.curve;
  Rgb line = { 0.9 * curve->r + 0.1, 0.9 * curve->g + 0.1, 0.9 * curve->b + 0.1 };
  guint32 fill = rgb_pixel (curve), edge = rgb_pixel (&line);
  double bottom = p->bottom, height = p->height;
  int prev = -1, ib = (int) floor (bottom);
  Direct d;

  if (!pv_timeline_direct_begin (cr, &d, self->area_x0, MAX (p->top - 2, self->scroll_top), self->area_x1,
                                 MIN (bottom + 1, self->scroll_top + self->scroll_h)))
    return FALSE;
  for (int k = 0; k < p->w; k++)
    {
      int py, pmin;
      if (colmax[k] < 0)
        {
          prev = -1;
          continue;
        }
      py = (int) floor (bottom - colmax[k] / p->ymax * height + 0.5);
      /* Where the level swings inside one column, the swing is a darker
       * band: max envelope on top, min below. */
      pmin = (int) floor (bottom - colmin[k] / p->ymax * height + 0.5);
      direct_blend_column (&d, p->x0 + k, pmin, ib, fill, 0.22);
      if (pmin > py + 1)
        direct_blend_column (&d, p->x0 + k, py + 1, pmin, fill, 0.45);
      /* The outline: this column's level, joined to the last one's. */
      if (prev >= 0 && prev != py && colmin[k] >= colmax[k])
        direct_blend_column (&d, p->x0 + k, MIN (prev, py), MAX (prev, py) + 1, edge, 1.0);
      else
        direct_blend_column (&d, p->x0 + k, py, py + 1, edge, 1.0);
      prev = py;
    }
  pv_timeline_direct_end (&d);
  return TRUE;
}

/* The same area and outline as a cairo path (vector targets). */
static void
fill_curve_path (cairo_t *cr, const CurvePlot *p, const double *colmax)
{
  double bottom = p->bottom;
  gboolean open = FALSE;

  cairo_new_path (cr);
  for (int k = 0; k < p->w; k++)
    {
      double v = colmax[k];
      double py = bottom - MAX (v, 0) / p->ymax * p->height;
      if (v < 0)
        {
          if (open)
            {
              cairo_line_to (cr, p->x0 + k, bottom);
              cairo_close_path (cr);
              open = FALSE;
            }
          continue;
        }
      if (!open)
        {
          cairo_move_to (cr, p->x0 + k, bottom);
          open = TRUE;
        }
      cairo_line_to (cr, p->x0 + k, py);
      cairo_line_to (cr, p->x0 + k + 1, py);
    }
  if (open)
    {
      cairo_line_to (cr, p->x1, bottom);
      cairo_close_path (cr);
    }
  set_rgba (cr, &pv_timeline_colours.curve, 0.22);
  cairo_fill_preserve (cr);
  set_rgba (cr, &pv_timeline_colours.curve, 0.9);
  cairo_set_line_width (cr, 1.2);
  cairo_stroke (cr);
}

/* A line across the time area at @y. */
static void
stroke_hline (PvTimelineRenderer *self, cairo_t *cr, double y)
{
  cairo_move_to (cr, self->area_x0, y);
  cairo_line_to (cr, self->area_x1, y);
  cairo_stroke (cr);
}

/* LOAD (dashed), with one device: sets *@y and *@text (its label). */
static void
draw_load_line (PvTimelineRenderer *self, cairo_t *cr, const CurvePlot *p, double *y, char **text)
{
  static const double dash[] = { 5, 3 };
  const PvTimelineModel *m = self->model;
  g_autofree char *v = pv_timeline_format_bytes (m->load_bytes);

  *y = plot_line_y (p, m->load_bytes);
  *text = g_strdup_printf ("LOAD %s (lower bound)", v);
  cairo_set_dash (cr, dash, 2, 0);
  cairo_set_line_width (cr, 1.2);
  set_rgb (cr, &pal (self)->load);
  stroke_hline (self, cr, *y);
  cairo_set_dash (cr, NULL, 0, 0);
}

/* What the memory view's plan reserves (solid), at the top when off the
 * scale: sets *@y and *@text (its label). */
static void
draw_reserve_line (PvTimelineRenderer *self, cairo_t *cr, const CurvePlot *p, double *y, char **text)
{
  static const char *const names[] = { "slots reserve", "ORT reserves", "arena reserves" };
  const PvTimelineMemory *mem = current_memory (self);
  g_autofree char *v = pv_timeline_format_bytes (mem->peak_bytes);
  gboolean off = mem->peak_bytes > p->ymax;

  *y = off ? floor (p->top) + 0.5 : plot_line_y (p, mem->peak_bytes);
  *text = g_strdup_printf ("%s %s%s", names[self->options.memory_view], v, off ? " ↑ (off the scale)" : "");
  cairo_set_line_width (cr, 1.2);
  set_rgba (cr, &pv_timeline_colours.peak, 0.75);
  stroke_hline (self, cr, *y);
}

/* The peak: a marker and its label, beside it where it fits. */
static void
draw_peak_marker (PvTimelineRenderer *self, cairo_t *cr, CurvePlot *p)
{
  const PvTimelineCurve *c = p->c;
  const Rgb *peak = &pv_timeline_colours.peak;
  double px = pv_timeline_renderer_time_to_x (self, c->peak_time);
  double py = p->bottom - (double) c->peak_bytes / p->ymax * p->height;
  g_autofree char *v = NULL, *text = NULL;
  const TextEntry *e;
  double lx;

  if (px < self->area_x0 - 1 || px > self->area_x1 + 1)
    return;
  v = pv_timeline_format_bytes (c->peak_bytes);
  text = g_strdup_printf (self->model->sizes_incomplete ? "peak ≥ %s (some sizes unknown)" : "peak %s", v);
  cairo_move_to (cr, px, py - 1);
  cairo_line_to (cr, px - 5, py - 8);
  cairo_line_to (cr, px + 5, py - 8);
  cairo_close_path (cr);
  set_rgb (cr, peak);
  cairo_fill (cr);
  e = pv_timeline_shaped_text (self, FONT_SMALL, text, -1, -1, PANGO_ELLIPSIZE_NONE);
  lx = px + 8 + e->w < self->area_x1 - 4 ? px + 8 : px - 8 - e->w;
  set_rgba (cr, &pal (self)->view_bg, 0.85);
  cairo_rectangle (cr, lx - 2, py - 5 - e->h / 2.0, e->w + 4, e->h);
  cairo_fill (cr);
  p->used[p->n_used++] = (Box) { lx - 2, py - 5 - e->h / 2.0, lx + e->w + 2, py - 5 + e->h / 2.0 };
  pv_timeline_draw_text (self, cr, FONT_SMALL, text, lx, py - 5, -1, PANGO_ELLIPSIZE_NONE, peak);
}

/* LOAD and what the plan reserves, dashed and solid; then the peak; then
 * the lines' labels around the peak's; then ORT's arena and the earlier
 * plan's peak. */
static void
draw_reference_lines (PvTimelineRenderer *self, cairo_t *cr, CurvePlot *p)
{
  const PvTimelineModel *m = self->model;
  const PvTimelineMemory *mem = current_memory (self);
  const PvTimelineCurve *ghost = pv_timeline_ghost_curve (self, p->c->device);
  gboolean single = m->n_curves == 1;
  double line_y[2] = { -1, -1 };
  char *line_text[2] = { NULL, NULL };

  if (single && m->load_bytes > 0)
    draw_load_line (self, cr, p, &line_y[0], &line_text[0]);
  if (single && mem->available && mem->peak_bytes > 0)
    draw_reserve_line (self, cr, p, &line_y[1], &line_text[1]);
  draw_peak_marker (self, cr, p);
  for (int i = 0; i < 2; i++)
    if (line_text[i])
      {
        draw_hline_label (self, cr, line_y[i], line_text[i], i == 0 ? &pal (self)->load : &pv_timeline_colours.peak,
                          p->used, &p->n_used);
        g_free (line_text[i]);
      }
  if (single && m->arena.n_points > 0)
    draw_arena_lines (self, cr, p);
  if (ghost)
    {
      g_autofree char *v = pv_timeline_format_bytes (ghost->peak_bytes);
      g_autofree char *text = g_strdup_printf ("before the edit: peak %s", v);
      draw_hline_label (self, cr, plot_line_y (p, ghost->peak_bytes), text, &pal (self)->dim, p->used, &p->n_used);
    }
}

void
pv_timeline_draw_curve_row (PvTimelineRenderer *self, cairo_t *cr, const Row *row, double y)
{
  const PvTimelineCurve *ghost;
  g_autofree double *colmax = NULL, *colmin = NULL;
  CurvePlot p = { 0 };

  p.c = &self->model->curves[row->lane];
  p.top = y + 10;
  p.bottom = y + row->h - 6;
  p.height = p.bottom - p.top;
  p.x0 = (int) self->area_x0;
  p.x1 = (int) ceil (self->area_x1);
  p.w = p.x1 - p.x0;
  p.ymax = pv_timeline_curve_ymax (self, row->lane);
  if (p.ymax == 0 || p.c->n_points == 0 || p.w <= 0)
    return;

  draw_byte_grid (self, cr, &p);
  /* Behind the curve: the plan before the edit. */
  ghost = pv_timeline_ghost_curve (self, p.c->device);
  if (ghost)
    draw_ghost (self, cr, ghost, &p);
  colmax = g_new0 (double, p.w + 1);
  colmin = g_new0 (double, p.w + 1);
  curve_columns (self, &p, colmax, colmin);
  if (!fill_curve_direct (self, cr, &p, colmax, colmin))
    fill_curve_path (cr, &p, colmax);
  draw_reference_lines (self, cr, &p);
}
