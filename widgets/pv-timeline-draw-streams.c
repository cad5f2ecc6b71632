/* pv-timeline-draw-streams.c: stream lanes: kernel boxes, step marks, sync arrows. */
#include "pv-timeline-renderer-private.h"

/* ---- stream lanes ---- */

void
pv_timeline_mark_position (PvTimelineRenderer *self, const PvTimelineMark *mk, double lane_y, double *x, double *y)
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
mark_colour (const PvTimelineRenderer *self, PvTimelineMarkKind kind)
{
  return kind == PV_TIMELINE_MARK_BARRIER || kind == PV_TIMELINE_MARK_TRIGGER ? &pal (self)->trigger : &pal (self)->notify;
}

void
pv_timeline_draw_mark (PvTimelineRenderer *self, cairo_t *cr, PvTimelineMarkKind kind, double x, double y)
{
  mark_path (cr, kind, x, y, MARK_R);
  if (kind == PV_TIMELINE_MARK_WAIT)
    {
      cairo_set_line_width (cr, 1.6);
      set_rgb (cr, mark_colour (self, kind));
      cairo_stroke (cr);
    }
  else
    {
      set_rgb (cr, mark_colour (self, kind));
      cairo_fill (cr);
    }
}

void
pv_timeline_draw_stream_boxes (PvTimelineRenderer *self, const Row *row, double y)
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
            pv_timeline_push_label (self, lx, by, lw, STREAM_BOX_H, b - a >= 140 ? node->name : node->op_type, -1,
                                    FALSE, FALSE);
        }
    }
  column_flush (self, &col);
}

void
pv_timeline_draw_stream_marks (PvTimelineRenderer *self, cairo_t *cr, const Row *row, double y)
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
              pv_timeline_mark_position (self, mk, y, &x, &my);
              if (fabs (x - last_x[mk->kind]) < 1)
                continue;
              last_x[mk->kind] = x;
              push_rect (ticks[mark_colour (self, mk->kind) == &pal (self)->notify], floor (x), my - 4, 1, 8);
            }
          for (int k = 0; k < 2; k++)
            {
              for (guint i = 0; i < ticks[k]->len; i++)
                {
                  const Rect *r = &g_array_index (ticks[k], Rect, i);
                  cairo_rectangle (cr, r->x, r->y, r->w, r->h);
                }
              set_rgb (cr, k ? &pal (self)->notify : &pal (self)->trigger);
              cairo_fill (cr);
              g_array_set_size (ticks[k], 0);
            }
          return;
        }
      for (int i = lo; i < end; i++)
        {
          const PvTimelineMark *mk = &m->marks[i];
          double x, my;
          pv_timeline_mark_position (self, mk, y, &x, &my);
          if (fabs (x - last_x[mk->kind]) < 2.5)
            continue;
          last_x[mk->kind] = x;
          pv_timeline_draw_mark (self, cr, mk->kind, x, my);
        }
    }
}

/* ---- sync arrows ---- */

void
pv_timeline_arrow_head (cairo_t *cr, double x, double y, double dx, double dy, double size)
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

gboolean
pv_timeline_arrow_geometry (PvTimelineRenderer *self, const PvTimelineArrow *a, double p[4][2])
{
  const PvTimelineModel *m = self->model;
  const PvTimelineMark *from = &m->marks[a->from_mark], *to = &m->marks[a->to_mark];
  double y0, y1, x0, x1, my0, my1, bend;
  if (!pv_timeline_row_visible (self, self->stream_row[from->lane], &y0) &&
      !pv_timeline_row_visible (self, self->stream_row[to->lane], &y1))
    return FALSE;
  y0 = row_screen_y (self, &g_array_index (self->rows, Row, self->stream_row[from->lane]));
  y1 = row_screen_y (self, &g_array_index (self->rows, Row, self->stream_row[to->lane]));
  pv_timeline_mark_position (self, from, y0, &x0, &my0);
  pv_timeline_mark_position (self, to, y1, &x1, &my1);
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

void
pv_timeline_stroke_arrow (cairo_t *cr, double p[4][2], const Rgb *colour, double width, double alpha)
{
  set_rgba (cr, colour, alpha);
  cairo_set_line_width (cr, width);
  cairo_move_to (cr, p[0][0], p[0][1]);
  cairo_curve_to (cr, p[1][0], p[1][1], p[2][0], p[2][1], p[3][0], p[3][1]);
  cairo_stroke (cr);
  pv_timeline_arrow_head (cr, p[3][0], p[3][1], p[3][0] - p[2][0], p[3][1] - p[2][1], 5 + width);
}

void
pv_timeline_draw_arrows (PvTimelineRenderer *self, cairo_t *cr)
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
      Direct d = { 0 };
      gboolean direct = pv_timeline_direct_begin (cr, &d, self->area_x0, self->scroll_top, self->area_x1,
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
          guint32 pixel = rgb_pixel (k ? &pal (self)->notify : &pal (self)->trigger);
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
              set_rgba (cr, k ? &pal (self)->notify : &pal (self)->trigger, 0.45);
              cairo_set_line_width (cr, 1);
              cairo_stroke (cr);
            }
        }
      if (direct)
        pv_timeline_direct_end (&d);
      return;
    }
  for (int i = first; i < end; i++)
    {
      const PvTimelineArrow *a = &m->arrows[i];
      int k = a->kind == PV_TIMELINE_ARROW_NOTIFY;
      double p[4][2];
      if (!(self->options.arrows & a->kind) || a->t_max < t0 - 10 / sc)
        continue;
      if (!pv_timeline_arrow_geometry (self, a, p))
        continue;
      /* One arrow per pixel pair of ends. */
      if (fabs (p[0][0] - last[k][0]) < 1.5 && fabs (p[3][0] - last[k][1]) < 1.5)
        continue;
      last[k][0] = p[0][0];
      last[k][1] = p[3][0];
      pv_timeline_stroke_arrow (cr, p, k ? &pal (self)->notify : &pal (self)->trigger, 1.1, 0.55);
    }
}
