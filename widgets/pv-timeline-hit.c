/* pv-timeline-hit.c: hit testing and describe(): what is under a point, in words for tooltips and accessibility. */
#include "pv-timeline-renderer-private.h"

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
      pv_timeline_bar_rows (row, lane, bar, row_y, &by, &bh);
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
      if (!(self->options.arrows & m->arrows[i].kind) || !pv_timeline_arrow_geometry (self, &m->arrows[i], p))
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
      pv_timeline_mark_position (self, &m->marks[i], row_y, &mx, &my);
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
  pv_timeline_ensure_layout (self);
  if (kernel >= self->model->n_kernels)
    return FALSE;
  return pv_timeline_kernel_rect (self, kernel, x, y, w, h);
}

/* Sets @hit to item @index of @kind: a step of @stream (by @node). */
static gboolean
hit_step (PvTimelineHit *hit, PvTimelineHitKind kind, int index, int node, int stream, int step)
{
  hit->kind = kind;
  hit->index = index;
  hit->node = node;
  hit->stream = stream;
  hit->step = step;
  return TRUE;
}

/* A stream row at screen @row_y: a step mark, else a sync arrow, else a
 * kernel's box. */
static gboolean
hit_stream_row (PvTimelineRenderer *self, const Row *row, double row_y, double x, double y, PvTimelineHit *hit)
{
  const PvTimelineModel *m = self->model;
  const PvTimelineLane *lane = &m->streams[row->lane];
  const PvTimelineMark *mk;
  int i = hit_mark (self, lane, row_y, x, y);

  if (i >= 0)
    {
      mk = &m->marks[i];
      return hit_step (hit, PV_TIMELINE_HIT_MARK, i, mk->node, mk->lane, mk->step);
    }
  i = m->n_arrows > 0 ? hit_arrow (self, x, y) : -1;
  if (i >= 0)
    {
      mk = &m->marks[m->arrows[i].from_mark];
      return hit_step (hit, PV_TIMELINE_HIT_ARROW, i, mk->node, mk->lane, mk->step);
    }
  if (y < row_y + STREAM_BOX_Y - 1 || y > row_y + STREAM_BOX_Y + STREAM_BOX_H + 1)
    return FALSE;
  i = hit_kernel (self, lane, x);
  if (i < 0)
    return FALSE;
  return hit_step (hit, PV_TIMELINE_HIT_KERNEL, i, m->kernels[i].node, m->kernels[i].lane, m->kernels[i].step);
}

/* A live-bytes curve: the level at hit->time. */
static gboolean
hit_curve_row (PvTimelineRenderer *self, const Row *row, PvTimelineHit *hit)
{
  const PvTimelineCurve *c = &self->model->curves[row->lane];
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

/* A memory lane at screen @row_y: the bar under the point. */
static gboolean
hit_memory_row (PvTimelineRenderer *self, const Row *row, double row_y, double x, double y, PvTimelineHit *hit)
{
  const PvTimelineMemory *mem = current_memory (self);
  int i = hit_bar (self, row, row_y, x, y);

  if (i < 0)
    return FALSE;
  hit->kind = PV_TIMELINE_HIT_VALUE;
  hit->index = i;
  hit->value = mem->bars[i].value;
  hit->bytes = mem->bars[i].bytes;
  hit->node = self->model->graph->values[hit->value].producer;
  return TRUE;
}

/* The lane row under screen @y, NULL when none (a section, a message, or
 * below the last); sets *@row_y to its screen y. */
static const Row *
lane_row_at (PvTimelineRenderer *self, double y, double *row_y)
{
  int r = pv_timeline_first_row_at (self, y - self->scroll_top + self->vp.scroll_y);
  const Row *row;

  if (r >= (int) self->rows->len)
    return NULL;
  row = &g_array_index (self->rows, Row, r);
  *row_y = row_screen_y (self, row);
  if (y < *row_y || row->kind == ROW_SECTION || row->kind == ROW_MESSAGE)
    return NULL;
  return row;
}

gboolean
pv_timeline_renderer_hit_test (PvTimelineRenderer *self, double x, double y, PvTimelineHit *hit)
{
  const Row *row;
  double row_y;

  pv_timeline_ensure_layout (self);
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
  row = lane_row_at (self, y, &row_y);
  if (row == NULL)
    return FALSE;
  hit->lane = row->lane;
  hit->lane_kind = row->kind == ROW_STREAM ? PV_TIMELINE_LANE_STREAM
                   : row->kind == ROW_CURVE ? PV_TIMELINE_LANE_CURVE
                   : current_memory (self)->lanes[row->lane].kind;
  if (x < HEADER_W)
    {
      hit->kind = PV_TIMELINE_HIT_LANE_HEADER;
      if (row->kind == ROW_STREAM)
        hit->stream = row->lane;
      return TRUE;
    }
  if (x < self->area_x0 || x >= self->area_x1)
    return FALSE;
  switch (row->kind)
    {
    case ROW_STREAM: return hit_stream_row (self, row, row_y, x, y, hit);
    case ROW_CURVE: return hit_curve_row (self, row, hit);
    case ROW_MEMORY: return hit_memory_row (self, row, row_y, x, y, hit);
    default: return FALSE;
    }
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
        g_autofree char *size = pv_timeline_format_bytes (bar->bytes);
        const char *kind = bar->alloc_kind >= PV_ORT_ALLOC_ALLOCATE
                             ? pv_ort_alloc_kind_name ((PvOrtAllocKind) bar->alloc_kind) : NULL;
        return g_strdup_printf ("%s · %s%s%s%s · live %g–%g", g->values[bar->value].name, size, kind ? " · " : "",
                                kind ? kind : "", (bar->flags & PV_TIMELINE_BAR_VIEW) ? " · view" : "", bar->start,
                                bar->end);
      }
    case PV_TIMELINE_HIT_CURVE:
      {
        g_autofree char *size = pv_timeline_format_bytes (hit->bytes);
        return g_strdup_printf ("%s at t %.4g: %s", m->curve_lanes[hit->lane].label, hit->time, size);
      }
    case PV_TIMELINE_HIT_RULER:
      return g_strdup_printf ("t %.4g", hit->time);
    default:
      return NULL;
    }
}
