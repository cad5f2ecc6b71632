/* pv-timeline-renderer.c: lays out and draws a PvTimelineModel (see the header):
 * the public API, the renderer's state, layout and the draw entry point. */
#include "pv-timeline-renderer-private.h"

/* ---- viewport ---- */

static void
invalidate (PvTimelineRenderer *self)
{
  self->layout_valid = FALSE;
  self->generation++;
}

double
pv_timeline_renderer_time_to_x (PvTimelineRenderer *self, double t)
{
  return self->area_x0 + (t - self->vp.t0) * scale (self);
}

double
pv_timeline_renderer_x_to_time (PvTimelineRenderer *self, double x)
{
  return self->vp.t0 + (x - self->area_x0) / scale (self);
}

static void
update_area (PvTimelineRenderer *self)
{
  self->area_x0 = HEADER_W;
  self->area_x1 = MAX (self->vp.width - RIGHT_PAD, self->area_x0 + 10);
}

void
pv_timeline_options_init (PvTimelineOptions *options)
{
  memset (options, 0, sizeof *options);
  options->memory_view = PV_TIMELINE_MEMORY_SLOTS;
  options->colour_by = PV_TIMELINE_COLOUR_BY_OP;
  options->arrows = PV_TIMELINE_ARROW_ALL;
  options->selection.kind = PV_TIMELINE_HIT_NONE;
  options->hover.kind = PV_TIMELINE_HIT_NONE;
  options->show_legend = TRUE;
  options->instant = -1;
}

static void
setup_fonts (PvTimelineRenderer *self)
{
  pv_timeline_style_set_fonts (self->fonts, self->font_family);
  if (self->text_cache)
    g_hash_table_remove_all (self->text_cache);
}

PvTimelineRenderer *
pv_timeline_renderer_new (PvTimelineModel *model)
{
  PvTimelineRenderer *self = g_new0 (PvTimelineRenderer, 1);
  cairo_font_options_t *fo;

  g_return_val_if_fail (model != NULL, NULL);
  self->model = pv_timeline_model_ref (model);
  pv_timeline_options_init (&self->options);
  self->vp = (PvTimelineViewport) { 0, model->t_end, 0, 1200, 800 };
  self->rows = g_array_new (FALSE, TRUE, sizeof (Row));
  self->legend = g_array_new (FALSE, TRUE, sizeof (LegendItem));
  self->labels = g_array_new (FALSE, FALSE, sizeof (Label));
  for (int i = 0; i <= PV_TIMELINE_N_COLOURS; i++)
    self->batch[i] = g_array_new (FALSE, FALSE, sizeof (Rect));
  for (int i = 0; i < PV_TIMELINE_N_COLOURS; i++)
    {
      self->outline[i] = g_array_new (FALSE, FALSE, sizeof (Rect));
      self->tint[i] = g_array_new (FALSE, FALSE, sizeof (Rect));
    }

  self->pango = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  fo = cairo_font_options_create ();
  /* Unhinted metrics: the same text widths on PNG, SVG and PDF. */
  cairo_font_options_set_hint_metrics (fo, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (fo, CAIRO_HINT_STYLE_SLIGHT);
  cairo_font_options_set_antialias (fo, CAIRO_ANTIALIAS_GRAY);
  pango_cairo_context_set_font_options (self->pango, fo);
  cairo_font_options_destroy (fo);
  pango_cairo_context_set_resolution (self->pango, 96);
  for (int i = 0; i < PV_TIMELINE_N_COLOURS; i++)
    self->pixels[i] = rgb_pixel (&pv_timeline_fills[i]);
  self->text_cache = pv_timeline_text_cache_new ();
  setup_fonts (self);
  update_area (self);
  return self;
}

static void
clear_rows (PvTimelineRenderer *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    g_free (g_array_index (self->rows, Row, i).detail);
  g_array_set_size (self->rows, 0);
  for (guint i = 0; i < self->legend->len; i++)
    g_free (g_array_index (self->legend, LegendItem, i).text);
  g_array_set_size (self->legend, 0);
}

void
pv_timeline_renderer_free (PvTimelineRenderer *self)
{
  if (self == NULL)
    return;
  clear_rows (self);
  if (self->ghost)
    pv_timeline_model_unref (self->ghost);
  g_free (self->selected_nodes);
  g_free (self->marked_values);
  g_free (self->found_nodes);
  g_array_unref (self->rows);
  g_array_unref (self->legend);
  g_array_unref (self->labels);
  for (int i = 0; i <= PV_TIMELINE_N_COLOURS; i++)
    g_array_unref (self->batch[i]);
  for (int i = 0; i < PV_TIMELINE_N_COLOURS; i++)
    {
      g_array_unref (self->outline[i]);
      g_array_unref (self->tint[i]);
    }
  g_free (self->stream_row);
  g_free (self->curve_row);
  g_free (self->memory_row);
  g_free (self->raster);
  g_clear_pointer (&self->header_cache, cairo_surface_destroy);
  g_object_unref (self->pango);
  g_hash_table_unref (self->text_cache);
  for (int i = 0; i < N_FONTS; i++)
    pango_font_description_free (self->fonts[i]);
  g_free (self->font_family);
  pv_timeline_model_unref (self->model);
  g_free (self);
}
void
pv_timeline_renderer_set_model (PvTimelineRenderer *self, PvTimelineModel *model)
{
  g_return_if_fail (model != NULL);
  pv_timeline_model_ref (model);
  pv_timeline_model_unref (self->model);
  self->model = model;
  self->vp.t0 = 0;
  self->vp.t1 = model->t_end;
  self->vp.scroll_y = 0;
  invalidate (self);
}

const PvTimelineOptions *
pv_timeline_renderer_get_options (PvTimelineRenderer *self)
{
  return &self->options;
}

void
pv_timeline_renderer_set_options (PvTimelineRenderer *self, const PvTimelineOptions *options)
{
  const char *family = options->font_family;

  if (g_strcmp0 (family, self->font_family) != 0)
    {
      g_free (self->font_family);
      self->font_family = g_strdup (family);
      setup_fonts (self);
    }
  g_free (self->selected_nodes);
  self->selected_nodes = options->n_selected_nodes > 0
                           ? g_memdup2 (options->selected_nodes, sizeof (int) * (gsize) options->n_selected_nodes)
                           : NULL;
  g_free (self->marked_values);
  self->marked_values = options->n_marked_values > 0
                          ? g_memdup2 (options->marked_values, sizeof (int) * (gsize) options->n_marked_values)
                          : NULL;
  g_free (self->found_nodes);
  self->found_nodes = options->n_found_nodes > 0
                        ? g_memdup2 (options->found_nodes, sizeof (int) * (gsize) options->n_found_nodes)
                        : NULL;
  if (options->ghost != self->ghost)
    {
      if (options->ghost)
        pv_timeline_model_ref (options->ghost);
      if (self->ghost)
        pv_timeline_model_unref (self->ghost);
      self->ghost = options->ghost;
    }
  self->options = *options;
  self->options.ghost = self->ghost;
  self->options.marked_values = self->marked_values;
  self->options.n_marked_values = self->marked_values ? options->n_marked_values : 0;
  self->options.found_nodes = self->found_nodes;
  self->options.n_found_nodes = self->found_nodes ? options->n_found_nodes : 0;
  self->options.font_family = self->font_family;
  self->options.selected_nodes = self->selected_nodes;
  self->options.n_selected_nodes = self->selected_nodes ? options->n_selected_nodes : 0;
  if ((unsigned) self->options.memory_view >= PV_TIMELINE_N_MEMORY_VIEWS)
    self->options.memory_view = PV_TIMELINE_MEMORY_SLOTS;
  invalidate (self);
}

const PvTimelineViewport *
pv_timeline_renderer_get_viewport (PvTimelineRenderer *self)
{
  return &self->vp;
}

void
pv_timeline_renderer_set_size (PvTimelineRenderer *self, int width, int height)
{
  self->vp.width = MAX (width, 1);
  self->vp.height = MAX (height, 1);
  update_area (self);
  invalidate (self);
}

void
pv_timeline_renderer_set_time_range (PvTimelineRenderer *self, double t0, double t1)
{
  double end = self->model->t_end;
  double margin = end * 0.02 + 0.5;
  double min_span = 0.05;
  double span;

  if (!(t1 > t0))
    t1 = t0 + min_span;
  span = CLAMP (t1 - t0, min_span, end + 2 * margin);
  if (t0 < -margin)
    t0 = -margin;
  if (t0 + span > end + margin)
    t0 = end + margin - span;
  self->vp.t0 = t0;
  self->vp.t1 = t0 + span;
}

void
pv_timeline_renderer_zoom (PvTimelineRenderer *self, double factor, double x)
{
  double t = pv_timeline_renderer_x_to_time (self, x);
  double t0 = self->vp.t0, t1 = self->vp.t1;

  if (!(factor > 0))
    return;
  pv_timeline_renderer_set_time_range (self, t - (t - t0) / factor, t + (t1 - t) / factor);
}

void
pv_timeline_renderer_pan (PvTimelineRenderer *self, double dx_pixels)
{
  double dt = dx_pixels / scale (self);
  pv_timeline_renderer_set_time_range (self, self->vp.t0 + dt, self->vp.t1 + dt);
}

void
pv_timeline_renderer_focus (PvTimelineRenderer *self, double t0, double t1)
{
  double pad = MAX ((t1 - t0) * 0.1, 0.5);
  pv_timeline_renderer_set_time_range (self, t0 - pad, t1 + pad);
}

/* ---- layout ---- */

static Row *
push_row (PvTimelineRenderer *self, RowKind kind, int lane, double *y, double h, const char *title, char *detail)
{
  Row row = { kind, lane, *y, h, title, detail };
  g_array_append_val (self->rows, row);
  *y += h;
  return &g_array_index (self->rows, Row, self->rows->len - 1);
}

/* Rows for the current model, options and size. @natural: the arena gets
 * its natural height instead of filling the view. */
static void
layout_rows (PvTimelineRenderer *self, gboolean natural)
{
  const PvTimelineModel *m = self->model;
  const PvTimelineMemory *mem = current_memory (self);
  double y = 0;
  g_autofree char *load = m->load_bytes ? pv_timeline_format_bytes (m->load_bytes) : NULL;

  clear_rows (self);
  g_free (self->stream_row);
  g_free (self->curve_row);
  g_free (self->memory_row);
  self->stream_row = g_new (int, MAX (m->n_streams, 1));
  self->curve_row = g_new (int, MAX (m->n_curves, 1));
  self->n_memory_rows = mem->available ? mem->n_lanes : 0;
  self->memory_row = g_new (int, MAX (self->n_memory_rows, 1));

  {
    int n_kernels = m->n_kernels;
    char *detail;
    if (!m->has_plan)
      detail = g_strdup_printf ("no ONNX Runtime plan: graph order, one step per kernel");
    else
      detail = g_strdup_printf ("%d logic stream%s · %d kernel%s · %d sync arrow%s%s", m->n_streams,
                                m->n_streams == 1 ? "" : "s", n_kernels, n_kernels == 1 ? "" : "s", m->n_arrows,
                                m->n_arrows == 1 ? "" : "s", m->deadlock ? " · DEADLOCK: some steps never run" : "");
    push_row (self, ROW_SECTION, 0, &y, SECTION_H, "Streams", detail);
  }
  for (int i = 0; i < m->n_streams; i++)
    {
      self->stream_row[i] = (int) self->rows->len;
      push_row (self, ROW_STREAM, i, &y, STREAM_H, NULL, NULL);
    }
  if (m->n_curves > 0)
    {
      char *detail = load ? g_strdup_printf ("bytes held by live values over time · LOAD %s", load)
                          : g_strdup ("bytes held by live values over time");
      push_row (self, ROW_SECTION, 1, &y, SECTION_H, "Live bytes", detail);
    }
  for (int i = 0; i < m->n_curves; i++)
    {
      self->curve_row[i] = (int) self->rows->len;
      push_row (self, ROW_CURVE, i, &y, CURVE_H, NULL, NULL);
    }
  {
    static const char *const names[] = { "Memory: slots", "Memory: ONNX Runtime buffers", "Memory: arena" };
    char *detail = NULL;
    if (mem->available && mem->peak_bytes > 0 && m->load_bytes > 0)
      {
        g_autofree char *peak = pv_timeline_format_bytes (mem->peak_bytes);
        double over = 100.0 * ((double) mem->peak_bytes / (double) m->load_bytes - 1.0);
        detail = g_strdup_printf ("%s · %+.1f%% over LOAD", mem->title, over);
        (void) peak;
      }
    else if (mem->available)
      detail = g_strdup (mem->title);
    push_row (self, ROW_SECTION, 2, &y, SECTION_H, names[self->options.memory_view], detail);
  }
  if (!mem->available)
    push_row (self, ROW_MESSAGE, 0, &y, MESSAGE_H, mem->unavailable, NULL);
  else
    for (int i = 0; i < mem->n_lanes; i++)
      {
        double h = MEMORY_H;
        self->memory_row[i] = (int) self->rows->len;
        if (mem->lanes[i].kind == PV_TIMELINE_LANE_ARENA)
          {
            double avail = self->scroll_h - y - 6;
            h = natural ? ARENA_NATURAL_H : MAX (ARENA_MIN_H, floor (avail));
          }
        push_row (self, ROW_MEMORY, i, &y, h, NULL, NULL);
      }
  self->content_h = y + 6;
}

void
pv_timeline_ensure_layout (PvTimelineRenderer *self)
{
  if (self->layout_valid)
    return;
  update_area (self);
  clear_rows (self);
  self->legend_h = self->options.show_legend ? pv_timeline_layout_legend (self) : 0;
  self->scroll_top = RULER_H;
  self->scroll_h = MAX (self->vp.height - RULER_H - self->legend_h, 10);
  {
    /* layout_rows clears the legend with the rows: keep it. */
    GArray *legend = self->legend;
    self->legend = g_array_new (FALSE, TRUE, sizeof (LegendItem));
    layout_rows (self, FALSE);
    g_array_unref (self->legend);
    self->legend = legend;
  }
  self->vp.scroll_y = CLAMP (self->vp.scroll_y, 0, MAX (self->content_h - self->scroll_h, 0));
  self->layout_valid = TRUE;
}

void
pv_timeline_renderer_set_scroll_y (PvTimelineRenderer *self, double scroll_y)
{
  pv_timeline_ensure_layout (self);
  self->vp.scroll_y = CLAMP (scroll_y, 0, MAX (self->content_h - self->scroll_h, 0));
}

double
pv_timeline_renderer_get_content_height (PvTimelineRenderer *self)
{
  pv_timeline_ensure_layout (self);
  return self->content_h;
}

double
pv_timeline_renderer_get_scroll_area_height (PvTimelineRenderer *self)
{
  pv_timeline_ensure_layout (self);
  return self->scroll_h;
}

int
pv_timeline_renderer_get_natural_height (PvTimelineRenderer *self)
{
  double content;
  pv_timeline_ensure_layout (self);
  {
    GArray *legend = self->legend;
    self->legend = g_array_new (FALSE, TRUE, sizeof (LegendItem));
    layout_rows (self, TRUE);
    g_array_unref (self->legend);
    self->legend = legend;
  }
  content = self->content_h;
  invalidate (self);
  return (int) ceil (RULER_H + content + self->legend_h);
}

/* First row whose bottom is below content y @cy. */
int
pv_timeline_first_row_at (PvTimelineRenderer *self, double cy)
{
  int lo = 0, hi = (int) self->rows->len;
  while (lo < hi)
    {
      int mid = lo + (hi - lo) / 2;
      const Row *r = &g_array_index (self->rows, Row, mid);
      if (r->y + r->h > cy)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

gboolean
pv_timeline_row_visible (PvTimelineRenderer *self, int row_index, double *y)
{
  const Row *row;
  if (row_index < 0 || row_index >= (int) self->rows->len)
    return FALSE;
  row = &g_array_index (self->rows, Row, row_index);
  *y = row_screen_y (self, row);
  return *y + row->h > self->scroll_top && *y < self->scroll_top + self->scroll_h;
}

/* ---- draw ---- */

/* Pango re-shapes every layout whenever its context is updated, even to
 * the same state: update it only for another kind of target than the last
 * (its font options, surface type and transform). */
static void
update_text_target (PvTimelineRenderer *self, cairo_t *cr)
{
  cairo_surface_t *target = cairo_get_target (cr);
  cairo_font_options_t *fo = cairo_font_options_create ();
  cairo_matrix_t mtx;
  guint key;

  cairo_surface_get_font_options (target, fo);
  cairo_get_matrix (cr, &mtx);
  key = cairo_font_options_hash (fo) * 31u + (guint) cairo_surface_get_type (target) * 7u;
  key = key * 31u + (guint) (mtx.xx * 1024) + (guint) (mtx.yy * 1024) * 17u + (guint) (mtx.xy * 1024) * 131u +
        (guint) (mtx.yx * 1024) * 257u;
  cairo_font_options_destroy (fo);
  if (!self->text_target_known || key != self->text_target)
    {
      pango_cairo_update_context (cr, self->pango);
      g_hash_table_remove_all (self->text_cache);
      self->text_target = key;
      self->text_target_known = TRUE;
      self->text_serial++;
    }
}

/* A horizontal hairline across the view at @y (a pixel's centre). */
static void
view_hline (PvTimelineRenderer *self, cairo_t *cr, double y)
{
  cairo_move_to (cr, 0, y);
  cairo_line_to (cr, self->vp.width, y);
}

/* Rows' backgrounds: sections shaded between two borders, every other
 * memory lane tinted, separators under stream, curve and tall lanes. */
static void
draw_row_backgrounds (PvTimelineRenderer *self, cairo_t *cr, int first, int last)
{
  for (int i = first; i < last; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      double y = row_screen_y (self, row);
      if (row->kind == ROW_SECTION)
        {
          set_rgb (cr, &pal (self)->section_bg);
          cairo_rectangle (cr, 0, y, self->vp.width, row->h);
          cairo_fill (cr);
          set_rgb (cr, &pal (self)->border);
          cairo_set_line_width (cr, 1);
          view_hline (self, cr, y + 0.5);
          view_hline (self, cr, y + row->h - 0.5);
          cairo_stroke (cr);
          continue;
        }
      if (row->kind == ROW_MEMORY && row->lane % 2 == 1)
        {
          set_rgb (cr, &pal (self)->lane_alt);
          cairo_rectangle (cr, HEADER_W, y, self->vp.width - HEADER_W, row->h);
          cairo_fill (cr);
        }
      set_rgb (cr, &pal (self)->separator);
      cairo_set_line_width (cr, 1);
      if (row->kind != ROW_MEMORY || row->h > MEMORY_H)
        {
          view_hline (self, cr, y + row->h - 0.5);
          cairo_stroke (cr);
        }
    }
}

/* The highest peak's instant, dashed through the curves and the memory
 * lanes down to @bottom. */
static void
draw_peak_instant (PvTimelineRenderer *self, cairo_t *cr, double bottom)
{
  static const double dash[] = { 4, 3 };
  const PvTimelineModel *m = self->model;
  guint64 peak;
  double peak_t = pv_timeline_global_peak_time (m, &peak), x;
  const Row *curve_row;

  if (!(peak_t >= self->vp.t0 && peak_t <= self->vp.t1 && m->n_curves > 0))
    return;
  curve_row = &g_array_index (self->rows, Row, self->curve_row[0]);
  x = floor (pv_timeline_renderer_time_to_x (self, peak_t)) + 0.5;
  cairo_set_dash (cr, dash, 2, 0);
  cairo_set_line_width (cr, 1);
  set_rgba (cr, &pv_timeline_colours.peak, 0.55);
  cairo_move_to (cr, x, row_screen_y (self, curve_row));
  cairo_line_to (cr, x, bottom);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

/* What rows [@first, @last) hold, clipped to the time area: boxes and bars
 * in one fill per colour, then what goes on top of them. */
static void
draw_lane_contents (PvTimelineRenderer *self, cairo_t *cr, int first, int last, double bottom)
{
  cairo_save (cr);
  cairo_rectangle (cr, self->area_x0, self->scroll_top, self->area_x1 - self->area_x0, self->scroll_h);
  cairo_clip (cr);
  pv_timeline_draw_gridlines (self, cr);
  for (int i = first; i < last; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      double y = row_screen_y (self, row);
      if (row->kind == ROW_MEMORY)
        pv_timeline_draw_memory_row (self, cr, row, y);
      else if (row->kind == ROW_STREAM)
        pv_timeline_draw_stream_boxes (self, row, y);
    }
  pv_timeline_flush_batches (self, cr);
  pv_timeline_flush_labels (self, cr);
  for (int i = first; i < last; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      double y = row_screen_y (self, row);
      if (row->kind == ROW_STREAM)
        pv_timeline_draw_stream_marks (self, cr, row, y);
      else if (row->kind == ROW_CURVE)
        pv_timeline_draw_curve_row (self, cr, row, y);
    }
  draw_peak_instant (self, cr, bottom);
  pv_timeline_draw_links (self, cr);
  pv_timeline_draw_arrows (self, cr);
  pv_timeline_draw_focus (self, cr, bottom);
  pv_timeline_draw_highlight (self, cr, &self->options.hover, TRUE);
  pv_timeline_draw_highlight (self, cr, &self->options.selection, FALSE);
  pv_timeline_draw_selected_kernels (self, cr);
  cairo_restore (cr);
}

/* Section titles (bold, then their detail) and messages, over the header
 * column. */
static void
draw_row_titles (PvTimelineRenderer *self, cairo_t *cr, int first, int last)
{
  for (int i = first; i < last; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      double y = row_screen_y (self, row);
      if (row->kind == ROW_SECTION)
        {
          double tw = pv_timeline_draw_text (self, cr, FONT_BOLD, row->title, 10, y + row->h / 2, -1,
                                             PANGO_ELLIPSIZE_NONE, &pal (self)->text);
          if (row->detail)
            pv_timeline_draw_text (self, cr, FONT_SMALL, row->detail, 10 + tw + 10, y + row->h / 2,
                                   self->vp.width - tw - 30, PANGO_ELLIPSIZE_END, &pal (self)->dim);
        }
      else if (row->kind == ROW_MESSAGE)
        pv_timeline_draw_text (self, cr, FONT_NORMAL, row->title, HEADER_W + 12, y + row->h / 2,
                               self->area_x1 - HEADER_W - 12, PANGO_ELLIPSIZE_END, &pal (self)->dim);
    }
}

void
pv_timeline_renderer_draw (PvTimelineRenderer *self, cairo_t *cr)
{
  int first, last;
  double bottom;

  pv_timeline_ensure_layout (self);
  update_text_target (self, cr);

  cairo_save (cr);
  set_rgb (cr, &pal (self)->view_bg);
  cairo_rectangle (cr, 0, 0, self->vp.width, self->vp.height);
  cairo_fill (cr);

  /* The scrolled part: the rows in sight. */
  cairo_save (cr);
  cairo_rectangle (cr, 0, self->scroll_top, self->vp.width, self->scroll_h);
  cairo_clip (cr);
  bottom = self->scroll_top + self->scroll_h;
  first = pv_timeline_first_row_at (self, self->vp.scroll_y);
  last = first;
  while (last < (int) self->rows->len && row_screen_y (self, &g_array_index (self->rows, Row, last)) < bottom)
    last++;
  draw_row_backgrounds (self, cr, first, last);
  draw_lane_contents (self, cr, first, last, bottom);
  /* Lane headers: from the cache when the target allows. */
  pv_timeline_draw_header_column (self, cr, first, last);
  draw_row_titles (self, cr, first, last);
  cairo_restore (cr);

  pv_timeline_draw_ruler (self, cr);
  if (self->options.show_legend)
    pv_timeline_draw_legend (self, cr);
  cairo_restore (cr);
}
