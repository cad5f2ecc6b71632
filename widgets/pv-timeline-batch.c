/* pv-timeline-batch.c: batched fills and labels, straight into image pixels when possible. */
#include "pv-timeline-renderer-private.h"

/* Direct pixels: see Direct in pv-timeline-renderer-private.h. */
static inline void
direct_fill (const Direct *d, double x, double y, double w, double h, guint32 pixel)
{
  int x0 = MAX ((int) floor (x + 0.5) + d->dx, d->cx0), x1 = MIN ((int) floor (x + w + 0.5) + d->dx, d->cx1);
  int y0 = MAX ((int) floor (y + 0.5) + d->dy, d->cy0), y1 = MIN ((int) floor (y + h + 0.5) + d->dy, d->cy1);
  for (int r = y0; r < y1; r++)
    {
      guint32 *row = d->px + (gsize) r * d->stride;
      for (int k = x0; k < x1; k++)
        row[k] = pixel;
    }
}

static void
flush_batches_direct (PvTimelineRenderer *self, const Direct *d)
{
  for (int c = 0; c < PV_TIMELINE_N_COLOURS; c++)
    {
      GArray *b = self->tint[c];
      Rgb t = tint_of (&pv_timeline_fills[c]);
      guint32 pixel = rgb_pixel (&t);
      for (guint i = 0; i < b->len; i++)
        {
          const Rect *r = &g_array_index (b, Rect, i);
          direct_fill (d, r->x, r->y, r->w, r->h, pixel);
        }
      g_array_set_size (b, 0);
    }
  for (int c = 0; c <= PV_TIMELINE_N_COLOURS; c++)
    {
      GArray *b = self->batch[c];
      guint32 pixel = rgb_pixel (c == SUMMARY_COLOUR ? &pv_timeline_colours.summary : &pv_timeline_fills[c]);
      for (guint i = 0; i < b->len; i++)
        {
          const Rect *r = &g_array_index (b, Rect, i);
          direct_fill (d, r->x, r->y, r->w, r->h, pixel);
        }
      g_array_set_size (b, 0);
    }
  for (int c = 0; c < PV_TIMELINE_N_COLOURS; c++)
    {
      GArray *b = self->outline[c];
      Rgb dark = darker (&pv_timeline_fills[c], 0.55);
      guint32 fill = rgb_pixel (&pv_timeline_fills[c]), edge = rgb_pixel (&dark);
      for (guint i = 0; i < b->len; i++)
        {
          const Rect *r = &g_array_index (b, Rect, i);
          direct_fill (d, r->x, r->y, r->w, r->h, edge);
          if (r->w > 2 && r->h > 2)
            direct_fill (d, r->x + 1, r->y + 1, r->w - 2, r->h - 2, fill);
        }
      g_array_set_size (b, 0);
    }
}

void
pv_timeline_flush_batches (PvTimelineRenderer *self, cairo_t *cr)
{
  Direct d;

  if (pv_timeline_direct_begin (cr, &d, self->area_x0, self->scroll_top, self->area_x1,
                                self->scroll_top + self->scroll_h))
    {
      flush_batches_direct (self, &d);
      pv_timeline_direct_end (&d);
      return;
    }
  for (int c = 0; c < PV_TIMELINE_N_COLOURS; c++)
    {
      GArray *b = self->tint[c];
      if (b->len == 0)
        continue;
      Rgb t = tint_of (&pv_timeline_fills[c]);
      set_rgb (cr, &t);
      for (guint i = 0; i < b->len; i++)
        {
          const Rect *r = &g_array_index (b, Rect, i);
          cairo_rectangle (cr, r->x, r->y, r->w, r->h);
        }
      cairo_fill (cr);
      g_array_set_size (b, 0);
    }
  for (int c = 0; c <= PV_TIMELINE_N_COLOURS; c++)
    {
      GArray *b = self->batch[c];
      if (b->len == 0)
        continue;
      set_rgb (cr, c == SUMMARY_COLOUR ? &pv_timeline_colours.summary : &pv_timeline_fills[c]);
      for (guint i = 0; i < b->len; i++)
        {
          const Rect *r = &g_array_index (b, Rect, i);
          cairo_rectangle (cr, r->x, r->y, r->w, r->h);
        }
      cairo_fill (cr);
      g_array_set_size (b, 0);
    }
  cairo_set_line_width (cr, 1);
  for (int c = 0; c < PV_TIMELINE_N_COLOURS; c++)
    {
      GArray *b = self->outline[c];
      Rgb dark = darker (&pv_timeline_fills[c], 0.55);
      if (b->len == 0)
        continue;
      for (guint i = 0; i < b->len; i++)
        {
          const Rect *r = &g_array_index (b, Rect, i);
          cairo_rectangle (cr, r->x + 0.5, r->y + 0.5, MAX (r->w - 1, 0), MAX (r->h - 1, 0));
        }
      set_rgba (cr, &pv_timeline_fills[c], 1);
      cairo_fill_preserve (cr);
      set_rgb (cr, &dark);
      cairo_stroke (cr);
      g_array_set_size (b, 0);
    }
}

void
pv_timeline_push_label (PvTimelineRenderer *self, double x, double y, double w, double h, const char *text, int len,
                        gboolean start, gboolean on_dark)
{
  Label l = { x, y, w, h, text, len, start, on_dark };
  g_array_append_val (self->labels, l);
}

void
pv_timeline_flush_labels (PvTimelineRenderer *self, cairo_t *cr)
{
  for (guint i = 0; i < self->labels->len; i++)
    {
      const Label *l = &g_array_index (self->labels, Label, i);
      const TextEntry *e = pv_timeline_shaped_text (self, FONT_SMALL, l->text, l->len, -1, PANGO_ELLIPSIZE_NONE);
      if (e->w > l->w)
        {
          /* Too long: the last path component, cut at its end. */
          const char *text = l->text;
          int len = l->len < 0 ? (int) strlen (text) : l->len;
          for (int k = len - 1; l->start_ellipsis && k > 0; k--)
            if (text[k - 1] == '/')
              {
                len -= k;
                text += k;
                break;
              }
          e = pv_timeline_shaped_text (self, FONT_SMALL, text, len, -1, PANGO_ELLIPSIZE_NONE);
          if (e->w > l->w)
            e = pv_timeline_shaped_text (self, FONT_SMALL, text, len, l->w, PANGO_ELLIPSIZE_END);
        }
      if (l->on_dark)
        set_rgb (cr, &pv_timeline_colours.label_on_dark);
      pv_timeline_show_text (cr, e, l->x, l->y + l->h / 2, l->on_dark ? NULL : &pv_timeline_colours.label);
    }
  g_array_set_size (self->labels, 0);
}
