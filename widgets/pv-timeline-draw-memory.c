/* pv-timeline-draw-memory.c: memory lanes: slots, buffers, the arena. */
#include "pv-timeline-renderer-private.h"

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

/* One memory row as it is drawn: where bars narrower than a pixel go (the
 * arena's straight into the target's pixels, or into a raster painted
 * once; slots' and buffers' into one summary per pixel column). */
typedef struct {
  const Row *row;
  const PvTimelineLane *lane;
  double y;
  gboolean arena;
  Column col;
  gboolean direct, direct_used;
  Direct d;
  guint64 *cov;                 /* the rows of pixel column cov_col written so far */
  int n_cov, cov_col;
  int rw, rh;                   /* self->raster: rw × rh at (area_x0, ry) */
  double ry;
  gboolean raster_used;
} MemoryPaint;

/* The arena's offsets grid: faint lines at nice byte offsets. */
static void
draw_offset_grid (PvTimelineRenderer *self, cairo_t *cr, const MemoryPaint *mp)
{
  const PvTimelineLane *lane = mp->lane;
  double inner_top = mp->y + 6, inner_h = mp->row->h - 12;
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
}

/* The arena's narrow bars are one pixel wide each: written straight into
 * the target's pixels when it is an image, else into a raster painted
 * once. */
static void
arena_targets_begin (PvTimelineRenderer *self, cairo_t *cr, MemoryPaint *mp)
{
  mp->direct = pv_timeline_direct_begin (cr, &mp->d, self->area_x0, self->scroll_top, self->area_x1,
                                         self->scroll_top + self->scroll_h);
  if (mp->direct)
    {
      mp->n_cov = MAX ((mp->d.cy1 - mp->d.cy0 + 63) / 64, 1);
      mp->cov = g_new0 (guint64, mp->n_cov);
    }
  mp->ry = MAX (mp->y, self->scroll_top);
  mp->rh = (int) ceil (MIN (mp->y + mp->row->h, self->scroll_top + self->scroll_h) - mp->ry);
  mp->rw = (int) ceil (self->area_x1 - self->area_x0);
  if (!mp->direct && mp->rh > 0 && mp->rw > 0)
    {
      gsize need = (gsize) mp->rw * mp->rh;
      if (need > self->raster_size)
        {
          g_free (self->raster);
          self->raster = g_new (guint32, need);
          self->raster_size = need;
        }
      memset (self->raster, 0, need * sizeof (guint32));
    }
}

/* An arena bar narrower than a pixel at @x0, into the target's pixels. */
static inline void
narrow_bar_direct (PvTimelineRenderer *self, MemoryPaint *mp, double x0, double by, double bh, guint8 colour)
{
  const Direct *d = &mp->d;
  int px = (int) floor (x0) + d->dx;
  guint32 pixel = self->pixels[colour];
  int r0, r1;

  if (px < d->cx0 || px >= d->cx1)
    return;
  r0 = MAX ((int) by + d->dy, d->cy0) - d->cy0;
  r1 = MIN ((int) (by + bh) + d->dy, d->cy1) - d->cy0;
  /* Crowded columns: a bar whose rows earlier bars of this column already
   * wrote is skipped. */
  if (px != mp->cov_col)
    {
      memset (mp->cov, 0, sizeof (guint64) * mp->n_cov);
      mp->cov_col = px;
    }
  if (r1 > r0 && !rows_covered (mp->cov, r0, r1))
    {
      guint32 *p = d->px + (gsize) (r0 + d->cy0) * d->stride + px;
      for (int r = r0; r < r1; r++, p += d->stride)
        *p = pixel;
      rows_cover (mp->cov, r0, r1);
    }
  mp->direct_used = TRUE;
}

/* A bar narrower than a pixel, starting at @x0 (views are left to their
 * owners). */
static inline void
draw_narrow_bar (PvTimelineRenderer *self, MemoryPaint *mp, const PvTimelineBar *bar, double x0, double by,
                 double bh, guint8 colour)
{
  if (mp->arena && mp->direct)
    narrow_bar_direct (self, mp, x0, by, bh, colour);
  else if (mp->arena)
    {
      if (mp->rh > 0 && mp->rw > 0)
        {
          raster_span (self, mp->rw, mp->rh, (int) floor (x0 - self->area_x0), (int) (by - mp->ry),
                       (int) (by + bh - mp->ry), rgb_pixel (&pv_timeline_fills[colour]));
          mp->raster_used = TRUE;
        }
    }
  else
    column_add (self, &mp->col, x0, (float) bar->bytes, colour, by, bh);
}

/* Bar @i's name inside [@a, @b), up to an in-place successor that starts
 * on top of it. */
static void
push_bar_label (PvTimelineRenderer *self, const MemoryPaint *mp, int i, double a, double b, double by, double bh,
                guint8 colour)
{
  const PvTimelineMemory *mem = current_memory (self);
  const PvTimelineLane *lane = mp->lane;
  const PvTimelineBar *bar = &mem->bars[i];
  double lx = MAX (a, self->area_x0) + 4, lw = MIN (b, self->area_x1) - lx - 7;
  const char *name;
  int len;

  for (int k = i + 1; !mp->arena && k < lane->first + lane->n && mem->bars[k].start < bar->end; k++)
    if (!(mem->bars[k].flags & PV_TIMELINE_BAR_VIEW) && mem->bars[k].start > bar->start)
      {
        lw = MIN (lw, self->area_x0 + (mem->bars[k].start - self->vp.t0) * scale (self) - lx - 6);
        break;
      }
  if (lw < LABEL_MIN_W - 6)
    return;
  name = self->model->graph->values[bar->value].name;
  len = pv_timeline_short_name_span (&name);
  pv_timeline_push_label (self, lx, by, lw, MIN (bh, 16), name, len, TRUE, !is_light (&pv_timeline_fills[colour]));
}

/* Bar @i over the pixels [@a, @b): a view outlined on top of its owner
 * (or alone, where it outlives the owner's own readers); an owner filled,
 * in a slot its share solid from the bottom and the rest pale; then its
 * label where it fits. */
static void
draw_wide_bar (PvTimelineRenderer *self, const MemoryPaint *mp, int i, double a, double b, double by, double bh,
               guint8 colour)
{
  const PvTimelineBar *bar = &current_memory (self)->bars[i];
  const PvTimelineLane *lane = mp->lane;

  if (b - a > 3)
    b -= 1;
  if (bar->flags & PV_TIMELINE_BAR_VIEW)
    {
      push_rect (self->outline[colour], a, by, b - a, bh);
      return;
    }
  if (!mp->arena && lane->bytes > 0 && bar->bytes < lane->bytes)
    {
      double used = MAX (floor (bh * (double) bar->bytes / (double) lane->bytes + 0.5), 3);
      push_rect (self->tint[colour], a, by, b - a, bh - used);
      push_rect (self->batch[colour], a, by + bh - used, b - a, used);
    }
  else
    push_rect (self->batch[colour], a, by, b - a, bh);
  if (b - a >= LABEL_MIN_W + 18 && bh >= 12)
    push_bar_label (self, mp, i, a, b, by, bh, colour);
}

/* Hands what the narrow bars went into over to the target. */
static void
memory_paint_end (PvTimelineRenderer *self, cairo_t *cr, MemoryPaint *mp)
{
  column_flush (self, &mp->col);
  g_free (mp->cov);
  if (mp->direct_used)
    pv_timeline_direct_end (&mp->d);
  if (mp->raster_used)
    {
      cairo_surface_t *surface = cairo_image_surface_create_for_data ((unsigned char *) self->raster,
                                                                      CAIRO_FORMAT_ARGB32, mp->rw, mp->rh, mp->rw * 4);
      cairo_set_source_surface (cr, surface, self->area_x0, mp->ry);
      cairo_paint (cr);
      cairo_surface_destroy (surface);
    }
}

void
pv_timeline_draw_memory_row (PvTimelineRenderer *self, cairo_t *cr, const Row *row, double y)
{
  const PvTimelineMemory *mem = current_memory (self);
  const PvTimelineLane *lane = &mem->lanes[row->lane];
  double t0 = self->vp.t0, t1 = self->vp.t1, sc = scale (self);
  MemoryPaint mp = { 0 };

  mp.row = row;
  mp.lane = lane;
  mp.y = y;
  mp.arena = lane->kind == PV_TIMELINE_LANE_ARENA;
  mp.col.col = NO_COLUMN;
  mp.cov_col = G_MININT;
  if (mp.arena)
    {
      draw_offset_grid (self, cr, &mp);
      arena_targets_begin (self, cr, &mp);
    }
  for (int i = pv_timeline_first_reaching (mem->bar_max_end, lane->first, lane->n, t0);
       i < lane->first + lane->n && mem->bars[i].start <= t1; i++)
    {
      const PvTimelineBar *bar = &mem->bars[i];
      double x0 = self->area_x0 + (bar->start - t0) * sc, x1 = self->area_x0 + (bar->end - t0) * sc, a, b, by, bh;
      guint8 colour = bar_colour (self, bar);
      if (bar->end < t0)
        continue;
      pv_timeline_bar_rows (row, lane, bar, y, &by, &bh);
      if (snap_span (self, x0, x1, &a, &b))
        draw_wide_bar (self, &mp, i, a, b, by, bh, colour);
      else if (!(bar->flags & PV_TIMELINE_BAR_VIEW))  /* a narrow view: its owner covers it */
        draw_narrow_bar (self, &mp, bar, x0, by, bh, colour);
    }
  memory_paint_end (self, cr, &mp);
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
