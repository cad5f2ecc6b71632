/* pv-timeline-legend.c: the legend. */
#include "pv-timeline-renderer-private.h"

static const char *const kind_names[PV_TIMELINE_N_KIND_COLOURS] = {
  "not set", "Allocate", "Reuse", "PreExisting", "AllocateStatically", "AllocateOutput", "Share", "AllocatedExternally",
};

static void
push_legend (PvTimelineRenderer *self, LegendKind kind, int arg, const char *text)
{
  LegendItem item = { kind, arg, g_strdup (text), 0, 0, 0 };
  g_array_append_val (self->legend, item);
}

static gboolean
view_has_kind (const PvTimelineMemory *mem, int colour)
{
  for (int i = 0; i < mem->n_bars; i++)
    if (mem->bars[i].kind_colour == colour)
      return TRUE;
  return FALSE;
}

static gboolean
view_has_flag (const PvTimelineMemory *mem, guint8 flag)
{
  for (int i = 0; i < mem->n_bars; i++)
    if (mem->bars[i].flags & flag)
      return TRUE;
  return FALSE;
}

/* Legend items, flowed into rows; returns the legend height. */
double
pv_timeline_layout_legend (PvTimelineRenderer *self)
{
  const PvTimelineModel *m = self->model;
  const PvTimelineMemory *mem = current_memory (self);
  gboolean has_mark[4] = { FALSE };
  gboolean has_arrow[2] = { FALSE };
  double x, y, right = self->vp.width - 10;
  guint heading;

  push_legend (self, LEGEND_HEADING, 0,
               self->options.colour_by == PV_TIMELINE_COLOUR_BY_OP ? "Op type" : "Kernels by op type");
  for (int i = 0; i < m->n_ops; i++)
    push_legend (self, LEGEND_SWATCH, m->ops[i].colour, m->ops[i].op_type ? m->ops[i].op_type : "other ops");
  if (self->options.colour_by == PV_TIMELINE_COLOUR_BY_KIND && mem->available)
    {
      push_legend (self, LEGEND_HEADING, 1, "Values by AllocKind");
      for (int k = 0; k < PV_TIMELINE_N_KIND_COLOURS; k++)
        if (view_has_kind (mem, PV_TIMELINE_KIND_COLOUR_BASE + k))
          push_legend (self, LEGEND_SWATCH, PV_TIMELINE_KIND_COLOUR_BASE + k, kind_names[k]);
    }
  for (int i = 0; i < m->n_marks; i++)
    has_mark[m->marks[i].kind] = TRUE;
  for (int i = 0; i < m->n_arrows; i++)
    has_arrow[m->arrows[i].kind == PV_TIMELINE_ARROW_NOTIFY] = TRUE;
  if (has_mark[0] || has_mark[1] || has_mark[2] || has_mark[3])
    push_legend (self, LEGEND_HEADING, 2, "Steps");
  for (int k = 0; k < 4; k++)
    if (has_mark[k])
      push_legend (self, LEGEND_MARK, k, pv_timeline_mark_kind_name (k));
  if (has_arrow[0] && (self->options.arrows & PV_TIMELINE_ARROW_TRIGGER))
    push_legend (self, LEGEND_ARROW, PV_TIMELINE_ARROW_TRIGGER, "trigger → barrier");
  if (has_arrow[1] && (self->options.arrows & PV_TIMELINE_ARROW_NOTIFY))
    push_legend (self, LEGEND_ARROW, PV_TIMELINE_ARROW_NOTIFY, "notify → wait");
  heading = self->legend->len;
  push_legend (self, LEGEND_HEADING, 3, "Memory");
  if (mem->available && view_has_flag (mem, PV_TIMELINE_BAR_VIEW))
    push_legend (self, LEGEND_VIEW, 0, "view (shares the buffer)");
  if (mem->available && (self->options.arrows & PV_TIMELINE_ARROW_REUSE) && mem->n_links > 0)
    push_legend (self, LEGEND_ARROW, PV_TIMELINE_ARROW_REUSE, "in-place reuse");
  if (m->n_curves > 0)
    push_legend (self, LEGEND_LINE, 0, "peak");
  if (m->load_bytes > 0)
    push_legend (self, LEGEND_LINE, 1, "LOAD (lower bound)");
  if (mem->available && mem->peak_bytes > 0)
    push_legend (self, LEGEND_LINE, 2, "plan reserves");
  if (m->arena.n_points > 0 && m->n_curves == 1)
    {
      push_legend (self, LEGEND_LINE, 3, "ORT holds");
      push_legend (self, LEGEND_LINE, 4, "ORT in use");
      push_legend (self, LEGEND_LINE, 5, "ORT requested");
    }
  if (self->options.ghost && self->options.ghost->n_curves > 0)
    push_legend (self, LEGEND_LINE, 6, "before the edit");
  if (self->legend->len == heading + 1)
    {
      /* A heading with nothing under it. */
      g_free (g_array_index (self->legend, LegendItem, heading).text);
      g_array_set_size (self->legend, heading);
    }

  x = 10;
  y = 0;
  for (guint i = 0; i < self->legend->len; i++)
    {
      LegendItem *item = &g_array_index (self->legend, LegendItem, i);
      double tw = pv_timeline_text_width (self, item->kind == LEGEND_HEADING ? FONT_BOLD : FONT_SMALL, item->text);
      double sw = item->kind == LEGEND_HEADING ? 0 : item->kind == LEGEND_ARROW || item->kind == LEGEND_LINE ? 22 : 14;
      double gap = item->kind == LEGEND_HEADING && i > 0 ? 14 : 0;
      double need;
      item->w = sw + (sw > 0 ? 4 : 0) + tw;
      need = item->w;
      /* A heading stays with its first item. */
      if (item->kind == LEGEND_HEADING && i + 1 < self->legend->len)
        {
          LegendItem *next = &g_array_index (self->legend, LegendItem, i + 1);
          need += 12 + 26 + pv_timeline_text_width (self, FONT_SMALL, next->text);
        }
      if (x + gap + need > right && x > 10)
        {
          x = 10;
          y += LEGEND_ROW_H;
          gap = 0;
        }
      x += gap;
      item->x = x;
      item->y = y;
      x += item->w + 12;
    }
  return y + LEGEND_ROW_H + LEGEND_PAD;
}

void
pv_timeline_draw_legend (PvTimelineRenderer *self, cairo_t *cr)
{
  double top = self->vp.height - self->legend_h;

  set_rgb (cr, &pal (self)->header_bg);
  cairo_rectangle (cr, 0, top, self->vp.width, self->legend_h);
  cairo_fill (cr);
  set_rgb (cr, &pal (self)->border);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, 0, top + 0.5);
  cairo_line_to (cr, self->vp.width, top + 0.5);
  cairo_stroke (cr);
  for (guint i = 0; i < self->legend->len; i++)
    {
      const LegendItem *it = &g_array_index (self->legend, LegendItem, i);
      double cy = top + LEGEND_PAD / 2 + it->y + LEGEND_ROW_H / 2, x = it->x, tx = x + 18;
      switch (it->kind)
        {
        case LEGEND_HEADING:
          pv_timeline_draw_text (self, cr, FONT_BOLD, it->text, x, cy, -1, PANGO_ELLIPSIZE_NONE, &pal (self)->dim);
          continue;
        case LEGEND_SWATCH:
          cairo_rectangle (cr, x, cy - 6, 14, 12);
          set_rgb (cr, &pv_timeline_fills[it->arg]);
          cairo_fill_preserve (cr);
          {
            Rgb d = darker (&pv_timeline_fills[it->arg], 0.7);
            set_rgb (cr, &d);
            cairo_set_line_width (cr, 1);
            cairo_stroke (cr);
          }
          break;
        case LEGEND_MARK:
          pv_timeline_draw_mark (self, cr, it->arg, x + 7, cy);
          break;
        case LEGEND_VIEW:
          cairo_rectangle (cr, x + 0.5, cy - 6 + 0.5, 13, 11);
          set_rgb (cr, &pv_timeline_fills[0]);
          cairo_fill (cr);
          cairo_rectangle (cr, x + 2.5, cy - 3 + 0.5, 9, 5);
          set_rgb (cr, &pv_timeline_fills[0]);
          cairo_fill_preserve (cr);
          {
            Rgb d = darker (&pv_timeline_fills[0], 0.55);
            set_rgb (cr, &d);
            cairo_set_line_width (cr, 1);
            cairo_stroke (cr);
          }
          break;
        case LEGEND_ARROW:
          {
            const Rgb *c = it->arg == PV_TIMELINE_ARROW_NOTIFY ? &pal (self)->notify
                           : it->arg == PV_TIMELINE_ARROW_TRIGGER ? &pal (self)->trigger : &pal (self)->alias;
            set_rgb (cr, c);
            cairo_set_line_width (cr, 1.4);
            cairo_move_to (cr, x, cy + 4);
            cairo_curve_to (cr, x + 8, cy + 4, x + 10, cy - 4, x + 17, cy - 4);
            cairo_stroke (cr);
            pv_timeline_arrow_head (cr, x + 22, cy - 4, 1, 0, 6);
            tx = x + 26;
            break;
          }
        case LEGEND_LINE:
          if (it->arg == 0)
            {
              cairo_move_to (cr, x + 11, cy + 4);
              cairo_line_to (cr, x + 5, cy - 4);
              cairo_line_to (cr, x + 17, cy - 4);
              cairo_close_path (cr);
              set_rgb (cr, &pv_timeline_colours.peak);
              cairo_fill (cr);
            }
          else
            {
              static const double dash[] = { 5, 3 }, dots[] = { 2, 2 };
              if (it->arg == 1)
                cairo_set_dash (cr, dash, 2, 0);
              else if (it->arg == 6)
                cairo_set_dash (cr, dots, 2, 0);
              set_rgb (cr, it->arg == 1 ? &pal (self)->load : it->arg == 3 ? &pal (self)->arena_held : it->arg == 4 ? &pv_timeline_colours.arena_in_use
                           : it->arg == 5 ? &pv_timeline_colours.arena_requested : it->arg == 6 ? &pv_timeline_colours.ghost : &pv_timeline_colours.peak);
              cairo_set_line_width (cr, 1.4);
              cairo_move_to (cr, x, cy + 0.5);
              cairo_line_to (cr, x + 22, cy + 0.5);
              cairo_stroke (cr);
              cairo_set_dash (cr, NULL, 0, 0);
            }
          tx = x + 26;
          break;
        }
      pv_timeline_draw_text (self, cr, FONT_SMALL, it->text, tx, cy, -1, PANGO_ELLIPSIZE_NONE, &pal (self)->text);
    }
}
