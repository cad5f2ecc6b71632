/* pv-timeline-draw-selection.c: hover, selection and selected-node outlines;
 * the instant, the range, the live values and the search's finds. */
#include "pv-timeline-renderer-private.h"

/* ---- highlights ---- */

gboolean
pv_timeline_kernel_rect (PvTimelineRenderer *self, int kernel, double *x, double *y, double *w, double *h)
{
  const PvTimelineKernel *k;
  double ry;
  if (kernel < 0)
    return FALSE;
  k = &self->model->kernels[kernel];
  if (!pv_timeline_row_visible (self, self->stream_row[k->lane], &ry))
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
  if (!pv_timeline_row_visible (self, self->memory_row[bar->lane], &ry))
    return FALSE;
  row = &g_array_index (self->rows, Row, self->memory_row[bar->lane]);
  pv_timeline_bar_rows (row, &mem->lanes[bar->lane], bar, ry, y, h);
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

void
pv_timeline_draw_highlight (PvTimelineRenderer *self, cairo_t *cr, const PvTimelineSelection *sel, gboolean hover)
{
  const PvTimelineModel *m = self->model;
  const PvTimelineMemory *mem = current_memory (self);
  const Rgb *colour = hover ? &pv_timeline_colours.hover : &pv_timeline_colours.accent;
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
        if (pv_timeline_kernel_rect (self, m->node_kernel[sel->id], &x, &y, &w, &h))
          outline_rect (cr, x, y, w, h, colour, width, FALSE);
        break;
      }
    case PV_TIMELINE_HIT_VALUE:
      {
        const PvValue *value;
        if (sel->id < 0 || sel->id >= m->graph->n_values)
          return;
        value = &m->graph->values[sel->id];
        if (value->producer >= 0 && pv_timeline_kernel_rect (self, m->node_kernel[value->producer], &x, &y, &w, &h))
          outline_rect (cr, x, y, w, h, colour, width, FALSE);
        if (pv_timeline_kernel_rect (self, last_reader (m, sel->id), &x, &y, &w, &h))
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
        if (!pv_timeline_row_visible (self, self->stream_row[mk->lane], &ry))
          return;
        pv_timeline_mark_position (self, mk, ry, &mx, &my);
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
        if (sel->id < 0 || sel->id >= m->n_arrows || !pv_timeline_arrow_geometry (self, &m->arrows[sel->id], p))
          return;
        pv_timeline_stroke_arrow (cr, p, colour, hover ? 2.2 : 3, 1);
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
void
pv_timeline_draw_selected_kernels (PvTimelineRenderer *self, cairo_t *cr)
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
      if (!pv_timeline_kernel_rect (self, k, &x, &y, &w, &h) || x + w < 0 || x > width)
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
  set_rgb (cr, &pv_timeline_colours.accent);
  cairo_stroke (cr);
}

/* Bars of the marked values: a filled tint and a frame, so that a live set
 * of hundreds reads as one pattern. */
static void
draw_marked_values (PvTimelineRenderer *self, cairo_t *cr)
{
  const PvTimelineMemory *mem = current_memory (self);
  const int n_values = self->model->graph->n_values;
  double x, y, w, h;

  if (!mem->available || mem->value_bar == NULL)
    return;
  for (int i = 0; i < self->options.n_marked_values; i++)
    {
      int v = self->options.marked_values[i];
      if (v < 0 || v >= n_values || !bar_rect (self, mem->value_bar[v], &x, &y, &w, &h) || x + w < 0 ||
          x > self->vp.width)
        continue;
      set_rgba (cr, &pv_timeline_colours.instant, 0.18);
      cairo_rectangle (cr, x, y, w, h);
      cairo_fill (cr);
      outline_rect (cr, x, y, w, h, &pv_timeline_colours.instant, 1.5, FALSE);
    }
}

static void
draw_found_nodes (PvTimelineRenderer *self, cairo_t *cr)
{
  const PvTimelineModel *m = self->model;
  double x, y, w, h;

  for (int i = 0; i < self->options.n_found_nodes; i++)
    {
      int node = self->options.found_nodes[i];
      if (node < 0 || node >= m->graph->n_nodes ||
          !pv_timeline_kernel_rect (self, m->node_kernel[node], &x, &y, &w, &h) || x + w < 0 || x > self->vp.width)
        continue;
      set_rgba (cr, &pv_timeline_colours.found, 0.45);
      cairo_rectangle (cr, x, y, MAX (w, 3), h);
      cairo_fill (cr);
      outline_rect (cr, x, y, w, h, &pv_timeline_colours.found, 2, FALSE);
    }
}

void
pv_timeline_draw_focus (PvTimelineRenderer *self, cairo_t *cr, double bottom)
{
  const PvTimelineOptions *o = &self->options;

  if (o->range_t1 > o->range_t0)
    {
      double x0 = pv_timeline_renderer_time_to_x (self, o->range_t0);
      double x1 = pv_timeline_renderer_time_to_x (self, o->range_t1);
      set_rgba (cr, &pv_timeline_colours.accent, 0.14);
      cairo_rectangle (cr, x0, self->scroll_top, MAX (x1 - x0, 1), bottom - self->scroll_top);
      cairo_fill (cr);
      set_rgba (cr, &pv_timeline_colours.accent, 0.7);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, floor (x0) + 0.5, self->scroll_top);
      cairo_line_to (cr, floor (x0) + 0.5, bottom);
      cairo_move_to (cr, floor (x1) + 0.5, self->scroll_top);
      cairo_line_to (cr, floor (x1) + 0.5, bottom);
      cairo_stroke (cr);
    }
  draw_found_nodes (self, cr);
  draw_marked_values (self, cr);
  if (o->instant >= 0 && o->instant >= self->vp.t0 && o->instant <= self->vp.t1)
    {
      double x = floor (pv_timeline_renderer_time_to_x (self, o->instant)) + 0.5;
      set_rgba (cr, &pv_timeline_colours.instant, 0.9);
      cairo_set_line_width (cr, 2);
      cairo_move_to (cr, x, self->scroll_top);
      cairo_line_to (cr, x, bottom);
      cairo_stroke (cr);
    }
}
