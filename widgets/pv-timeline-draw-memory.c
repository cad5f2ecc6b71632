/* pv-timeline-draw-memory.c: memory lanes: slots, buffers, the arena. */
#include "pv-timeline-renderer-private.h"

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

/* ---- memory lanes ---- */

static guint8
bar_colour (PvTimelineRenderer *self, const PvTimelineBar *bar)
{
  return self->options.colour_by == PV_TIMELINE_COLOUR_BY_KIND ? bar->kind_colour : bar->op_colour;
}

/* A bar's rectangle in a lane row at screen @y (before snapping in x). */
void
pv_timeline_bar_rows (const Row *row, const PvTimelineLane *lane, const PvTimelineBar *bar, double y, double *by,
                      double *bh)
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

void
pv_timeline_draw_memory_row (PvTimelineRenderer *self, cairo_t *cr, const Row *row, double y)
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
      double step = lane->bytes > 0 ? pv_timeline_nice_byte_step ((double) lane->bytes / MAX (inner_h / 48, 1)) : 0;
      cairo_set_line_width (cr, 1);
      set_rgb (cr, &pal (self)->separator);
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
      direct = pv_timeline_direct_begin (cr, &d, self->area_x0, self->scroll_top, self->area_x1,
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
      pv_timeline_bar_rows (row, lane, bar, y, &by, &bh);
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
                               rgb_pixel (&pv_timeline_fills[colour]));
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
              pv_timeline_push_label (self, lx, by, lw, MIN (bh, 16), name, len, TRUE, !is_light (&pv_timeline_fills[colour]));
            }
        }
    }
  column_flush (self, &col);
  g_free (cov);
  if (direct_used)
    pv_timeline_direct_end (&d);
  if (raster_used)
    {
      cairo_surface_t *surface = cairo_image_surface_create_for_data ((unsigned char *) self->raster,
                                                                      CAIRO_FORMAT_ARGB32, rw, rh, rw * 4);
      cairo_set_source_surface (cr, surface, self->area_x0, ry);
      cairo_paint (cr);
      cairo_surface_destroy (surface);
    }
}

void
pv_timeline_draw_links (PvTimelineRenderer *self, cairo_t *cr)
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
      if (!pv_timeline_row_visible (self, self->memory_row[from->lane], &yf) &&
          !pv_timeline_row_visible (self, self->memory_row[to->lane], &yt))
        continue;
      rf = &g_array_index (self->rows, Row, self->memory_row[from->lane]);
      rt = &g_array_index (self->rows, Row, self->memory_row[to->lane]);
      yf = row_screen_y (self, rf);
      yt = row_screen_y (self, rt);
      pv_timeline_bar_rows (rf, &mem->lanes[from->lane], from, yf, &bf, &hf);
      pv_timeline_bar_rows (rt, &mem->lanes[to->lane], to, yt, &bt, &ht);
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
      set_rgba (cr, &pal (self)->alias, 0.9);
      cairo_move_to (cr, xf, bf + 1);
      cairo_curve_to (cr, xf + 2, bf - 7, x - 2, MIN (bt, bf) - 7, x + 3, bt + 1);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      pv_timeline_arrow_head (cr, x + 3, bt + 1, 1, 2, 5);
    }
}
