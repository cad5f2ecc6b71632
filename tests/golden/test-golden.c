/* Golden pictures of the timeline renderer, and hit tests on the same
 * geometry.
 *
 *   test-golden [--update] [--out DIR] GOLDEN_DIR DATA_DIR
 *
 * Each case renders a sample model and view to a PNG and compares it with
 * GOLDEN_DIR/NAME.png: it passes when at most 0.3 % of the pixels differ by
 * more than 48 in some channel (anti-aliasing and glyph rasterisation may
 * move a little between library builds). A failing case leaves NAME.actual.png
 * and NAME.diff.png in DIR (default: the current directory). --update
 * rewrites the goldens instead; look at them before keeping them. Text uses
 * "DejaVu Sans" so the pictures do not depend on the desktop's font. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render-fixture.h"
#include "pv-timeline-renderer.h"
#include "pv-timeline-renderer-private.h"

typedef struct {
  const char *name;
  const char *model;
  const char *bounds[3];
  int streams;                 /* > 1: round-robin partition */
  PvTimelineMemoryView view;
  PvTimelineColourBy colour;
  int width, height;           /* height 0: natural height */
  double t0, t1;               /* both 0: the whole axis */
  const char *select_value;    /* a value to select, by name */
  const char *hover_node;      /* a node to hover, by name */
} Case;

static const Case cases[] = {
  { "transformer-slots", "transformer.onnx", { "batch=1", "seq=128", NULL }, 1, PV_TIMELINE_MEMORY_SLOTS,
    PV_TIMELINE_COLOUR_BY_OP, 1100, 0, 0, 0, NULL, NULL },
  { "transformer-arena-kind", "transformer.onnx", { "batch=1", "seq=128", NULL }, 1, PV_TIMELINE_MEMORY_ARENA,
    PV_TIMELINE_COLOUR_BY_KIND, 1100, 560, 0, 0, NULL, NULL },
  { "wide-branches-2streams-ort", "wide_branches.onnx", { NULL }, 2, PV_TIMELINE_MEMORY_ORT_BUFFERS,
    PV_TIMELINE_COLOUR_BY_KIND, 1100, 0, 0, 0, NULL, NULL },
  { "cnn-zoom-selected", "cnn.onnx", { NULL }, 1, PV_TIMELINE_MEMORY_SLOTS, PV_TIMELINE_COLOUR_BY_OP, 900, 0, 1.5,
    7.5, "/conv2/Conv_output_0", "Relu0" },
};

static const char *golden_dir, *data_dir, *out_dir = ".";
static gboolean update;

static PvTimelineRenderer *
case_renderer (const Case *c, RenderFixture *f)
{
  PvTimelineRenderer *r = pv_timeline_renderer_new (f->timeline);
  PvTimelineOptions options;
  const PvGraph *g = f->model->graph;

  pv_timeline_options_init (&options);
  options.memory_view = c->view;
  options.colour_by = c->colour;
  options.font_family = "DejaVu Sans";
  if (c->select_value)
    {
      options.selection.kind = PV_TIMELINE_HIT_VALUE;
      options.selection.id = pv_graph_find_value (g, c->select_value);
      g_assert_cmpint (options.selection.id, >=, 0);
    }
  if (c->hover_node)
    {
      options.hover.kind = PV_TIMELINE_HIT_KERNEL;
      options.hover.id = pv_graph_find_node (g, c->hover_node);
      g_assert_cmpint (options.hover.id, >=, 0);
    }
  pv_timeline_renderer_set_options (r, &options);
  pv_timeline_renderer_set_size (r, c->width, c->height > 0 ? c->height : 600);
  if (c->t1 > c->t0)
    pv_timeline_renderer_set_time_range (r, c->t0, c->t1);
  if (c->height == 0)
    pv_timeline_renderer_set_size (r, c->width, pv_timeline_renderer_get_natural_height (r));
  return r;
}

static RenderFixture *
case_fixture (const Case *c)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (data_dir, c->model, NULL);
  RenderFixture *f = render_fixture_new (path, c->bounds, c->streams, &error);
  g_assert_no_error (error);
  g_assert_nonnull (f);
  return f;
}

static cairo_surface_t *
render (PvTimelineRenderer *r)
{
  const PvTimelineViewport *vp = pv_timeline_renderer_get_viewport (r);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, vp->width, vp->height);
  cairo_t *cr = cairo_create (s);
  pv_timeline_renderer_draw (r, cr);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

/* Pixels differing by more than @threshold in some channel; fills @diff. */
static gsize
compare (cairo_surface_t *a, cairo_surface_t *b, int threshold, cairo_surface_t *diff)
{
  int w = cairo_image_surface_get_width (a), h = cairo_image_surface_get_height (a);
  int sa = cairo_image_surface_get_stride (a), sb = cairo_image_surface_get_stride (b);
  int sd = cairo_image_surface_get_stride (diff);
  const guint8 *pa = cairo_image_surface_get_data (a), *pb = cairo_image_surface_get_data (b);
  guint8 *pd = cairo_image_surface_get_data (diff);
  gsize bad = 0;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const guint8 *p = pa + y * sa + x * 4, *q = pb + y * sb + x * 4;
        guint32 *d = (guint32 *) (pd + y * sd + x * 4);
        int m = 0;
        for (int k = 0; k < 4; k++)
          m = MAX (m, ABS ((int) p[k] - (int) q[k]));
        if (m > threshold)
          {
            bad++;
            *d = 0xffff0000;
          }
        else
          {
            guint8 grey = (guint8) (200 + p[1] / 5);
            *d = 0xff000000u | grey << 16 | grey << 8 | grey;
          }
      }
  cairo_surface_mark_dirty (diff);
  return bad;
}

static void
test_golden (gconstpointer data)
{
  const Case *c = data;
  g_autoptr (RenderFixture) f = case_fixture (c);
  g_autoptr (PvTimelineRenderer) r = case_renderer (c, f);
  g_autofree char *golden = g_strdup_printf ("%s/%s.png", golden_dir, c->name);
  cairo_surface_t *actual = render (r), *expected, *diff;
  int w = cairo_image_surface_get_width (actual), h = cairo_image_surface_get_height (actual);
  gsize bad, limit;

  if (update)
    {
      g_assert_cmpint (cairo_surface_write_to_png (actual, golden), ==, CAIRO_STATUS_SUCCESS);
      g_test_message ("wrote %s (%d × %d)", golden, w, h);
      cairo_surface_destroy (actual);
      return;
    }
  expected = cairo_image_surface_create_from_png (golden);
  if (cairo_surface_status (expected) != CAIRO_STATUS_SUCCESS)
    {
      g_autofree char *out = g_strdup_printf ("%s/%s.actual.png", out_dir, c->name);
      cairo_surface_write_to_png (actual, out);
      cairo_surface_destroy (expected);
      cairo_surface_destroy (actual);
      g_test_fail_printf ("no golden %s (wrote %s; run test-golden --update GOLDEN_DIR DATA_DIR)", golden, out);
      return;
    }
  if (cairo_image_surface_get_width (expected) != w || cairo_image_surface_get_height (expected) != h)
    {
      g_autofree char *out = g_strdup_printf ("%s/%s.actual.png", out_dir, c->name);
      cairo_surface_write_to_png (actual, out);
      g_test_fail_printf ("%s: size %d × %d, golden %d × %d (wrote %s)", c->name, w, h,
                          cairo_image_surface_get_width (expected), cairo_image_surface_get_height (expected), out);
      cairo_surface_destroy (expected);
      cairo_surface_destroy (actual);
      return;
    }
  diff = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  bad = compare (actual, expected, 48, diff);
  limit = (gsize) w * h * 3 / 1000;
  if (bad > limit)
    {
      g_autofree char *out = g_strdup_printf ("%s/%s.actual.png", out_dir, c->name);
      g_autofree char *out_diff = g_strdup_printf ("%s/%s.diff.png", out_dir, c->name);
      cairo_surface_write_to_png (actual, out);
      cairo_surface_write_to_png (diff, out_diff);
      g_test_fail_printf ("%s: %" G_GSIZE_FORMAT " pixels differ (limit %" G_GSIZE_FORMAT "); see %s and %s", c->name,
                          bad, limit, out, out_diff);
    }
  else
    g_test_message ("%s: %" G_GSIZE_FORMAT " pixels differ (limit %" G_GSIZE_FORMAT ")", c->name, bad, limit);
  cairo_surface_destroy (diff);
  cairo_surface_destroy (expected);
  cairo_surface_destroy (actual);
}

/* ---- hit testing ---- */

/* Scans the column at @x for a hit of @kind satisfying @match. */
static gboolean
scan_column (PvTimelineRenderer *r, double x, PvTimelineHitKind kind, int want_id, PvTimelineHit *out)
{
  const PvTimelineViewport *vp = pv_timeline_renderer_get_viewport (r);
  for (int y = 0; y < vp->height; y++)
    {
      PvTimelineHit hit;
      if (!pv_timeline_renderer_hit_test (r, x, y + 0.5, &hit) || hit.kind != kind)
        continue;
      if ((kind == PV_TIMELINE_HIT_KERNEL && hit.node == want_id) ||
          (kind == PV_TIMELINE_HIT_VALUE && hit.value == want_id) || want_id < 0)
        {
          *out = hit;
          return TRUE;
        }
    }
  return FALSE;
}

static void
test_hit_kernels_and_values (void)
{
  const Case *c = &cases[0];
  g_autoptr (RenderFixture) f = case_fixture (c);
  g_autoptr (PvTimelineRenderer) r = case_renderer (c, f);
  const PvTimelineModel *m = f->timeline;
  const PvTimelineMemory *mem = &m->memory[PV_TIMELINE_MEMORY_SLOTS];
  PvTimelineHit hit;
  g_autofree char *text = NULL;

  g_assert_true (mem->available);
  g_assert_cmpint (m->n_streams, ==, 1);
  g_assert_cmpint (m->n_kernels, ==, f->model->graph->n_nodes);
  /* Every kernel is found at its middle, with its node. */
  for (int k = 0; k < m->n_kernels; k += 7)
    {
      double x = pv_timeline_renderer_time_to_x (r, (m->kernels[k].start + m->kernels[k].end) / 2);
      g_assert_true (scan_column (r, x, PV_TIMELINE_HIT_KERNEL, m->kernels[k].node, &hit));
      g_assert_cmpint (hit.index, ==, k);
      g_assert_cmpint (hit.stream, ==, 0);
    }
  /* Value bars: the owner whose life is longest, at its middle. */
  {
    int best = -1;
    for (int i = 0; i < mem->n_bars; i++)
      if (!(mem->bars[i].flags & PV_TIMELINE_BAR_VIEW) &&
          (best < 0 || mem->bars[i].end - mem->bars[i].start > mem->bars[best].end - mem->bars[best].start))
        best = i;
    g_assert_cmpint (best, >=, 0);
    g_assert_true (scan_column (r, pv_timeline_renderer_time_to_x (r, (mem->bars[best].start + mem->bars[best].end) / 2),
                                PV_TIMELINE_HIT_VALUE, mem->bars[best].value, &hit));
    g_assert_cmpint (hit.index, ==, best);
    text = pv_timeline_renderer_describe (r, &hit);
    g_assert_nonnull (strstr (text, f->model->graph->values[mem->bars[best].value].name));
  }
  /* Chrome. */
  g_assert_true (pv_timeline_renderer_hit_test (r, 500, 5, &hit));
  g_assert_cmpint (hit.kind, ==, PV_TIMELINE_HIT_RULER);
  g_assert_true (scan_column (r, 20, PV_TIMELINE_HIT_LANE_HEADER, -1, &hit));
  g_assert_true (scan_column (r, 600, PV_TIMELINE_HIT_CURVE, -1, &hit));
  g_assert_cmpuint (hit.bytes, <=, m->curves[0].peak_bytes);
  g_assert_false (pv_timeline_renderer_hit_test (r, -5, 100, &hit));
  g_assert_cmpint (hit.kind, ==, PV_TIMELINE_HIT_NONE);
}

static void
test_hit_arrows_and_marks (void)
{
  const Case *c = &cases[2];
  g_autoptr (RenderFixture) f = case_fixture (c);
  g_autoptr (PvTimelineRenderer) r = case_renderer (c, f);
  const PvTimelineModel *m = f->timeline;
  const PvTimelineViewport *vp = pv_timeline_renderer_get_viewport (r);
  gboolean arrow = FALSE, mark = FALSE;

  g_assert_cmpint (m->n_streams, ==, 2);
  g_assert_cmpint (m->n_arrows, >, 0);
  g_assert_cmpint (m->n_marks, >, 0);
  for (int x = 190; x < vp->width && !(arrow && mark); x++)
    for (int y = 34; y < 140 && !(arrow && mark); y++)
      {
        PvTimelineHit hit;
        g_autofree char *text = NULL;
        if (!pv_timeline_renderer_hit_test (r, x, y, &hit))
          continue;
        if (hit.kind == PV_TIMELINE_HIT_ARROW)
          {
            g_assert_cmpint (hit.index, >=, 0);
            g_assert_cmpint (hit.index, <, m->n_arrows);
            arrow = TRUE;
          }
        else if (hit.kind == PV_TIMELINE_HIT_MARK)
          {
            g_assert_cmpint (hit.index, <, m->n_marks);
            g_assert_cmpint (hit.stream, ==, m->marks[hit.index].lane);
            mark = TRUE;
          }
        else
          continue;
        text = pv_timeline_renderer_describe (r, &hit);
        g_assert_nonnull (text);
      }
  g_assert_true (arrow);
  g_assert_true (mark);
}

/* Zoomed out until kernels are narrower than a pixel: each column's hit is
 * the kernel the summary mark stands for, which starts in that column. */
static void
test_hit_summary_columns (void)
{
  const Case *c = &cases[0];
  g_autoptr (RenderFixture) f = case_fixture (c);
  g_autoptr (PvTimelineRenderer) r = case_renderer (c, f);
  const PvTimelineModel *m = f->timeline;
  int found = 0;

  pv_timeline_renderer_set_size (r, 188 + 18 + 20, 600);
  pv_timeline_renderer_set_time_range (r, 0, m->t_end);
  for (int x = 188; x < 188 + 20; x++)
    {
      PvTimelineHit hit;
      if (!scan_column (r, x + 0.5, PV_TIMELINE_HIT_KERNEL, -1, &hit))
        continue;
      g_assert_cmpint ((int) floor (pv_timeline_renderer_time_to_x (r, m->kernels[hit.index].start)), <=, x);
      g_assert_cmpint ((int) floor (pv_timeline_renderer_time_to_x (r, m->kernels[hit.index].end)), >=, x);
      found++;
    }
  g_assert_cmpint (found, >=, 15);
}

/* Byte grid steps are 1, 2, 5, 10 … 500 of a unit, then 1 of the next:
 * every multiple prints as a round figure. */
static void
test_axis_byte_steps (void)
{
  static const struct { double raw, step; } steps[] = {
    { 3, 5 }, { 700, 1024 }, { 1000.0 * 1024, 1024.0 * 1024 }, { 600.0 * 1024, 1024.0 * 1024 },
    { 400.0 * 1024, 500.0 * 1024 }, { 2.77 * 1024 * 1024, 5.0 * 1024 * 1024 },
    { 999.0 * 1024 * 1024, 1024.0 * 1024 * 1024 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    g_assert_cmpfloat (pv_timeline_nice_byte_step (steps[i].raw), ==, steps[i].step);
  for (double raw = 1; raw < 1e13; raw *= 1.37)
    {
      double step = pv_timeline_nice_byte_step (raw), unit = 1;
      while (step >= unit * 1024)
        unit *= 1024;
      g_assert_cmpfloat (step, >=, raw);
      g_assert_cmpfloat (step / unit, <, 1000);
      g_assert_cmpfloat (fmod (step / unit, 1), ==, 0);
    }
}

/* A tick at zero prints "0" whichever side it was reached from. */
static void
test_axis_zero_tick (void)
{
  char buf[32];

  pv_timeline_format_tick (buf, sizeof buf, -0.0, 5);
  g_assert_cmpstr (buf, ==, "0");
  pv_timeline_format_tick (buf, sizeof buf, ceil (-0.3 / 0.5) * 0.5, 0.5);
  g_assert_cmpstr (buf, ==, "0.0");
  pv_timeline_format_tick (buf, sizeof buf, 0.1 + 0.2 - 0.3 - 1e-17, 0.1);
  g_assert_cmpstr (buf, ==, "0.0");
  pv_timeline_format_tick (buf, sizeof buf, -2.5, 0.5);
  g_assert_cmpstr (buf, ==, "-2.5");
}

static void
test_zoom_clamps (void)
{
  const Case *c = &cases[0];
  g_autoptr (RenderFixture) f = case_fixture (c);
  g_autoptr (PvTimelineRenderer) r = case_renderer (c, f);
  const PvTimelineViewport *vp = pv_timeline_renderer_get_viewport (r);
  double t_mid, x_mid = 600;

  t_mid = pv_timeline_renderer_x_to_time (r, x_mid);
  pv_timeline_renderer_zoom (r, 4, x_mid);
  g_assert_cmpfloat (fabs (pv_timeline_renderer_x_to_time (r, x_mid) - t_mid), <, 1e-9);
  for (int i = 0; i < 60; i++)
    pv_timeline_renderer_zoom (r, 2, x_mid);
  g_assert_cmpfloat (vp->t1 - vp->t0, >=, 0.05 - 1e-12);
  for (int i = 0; i < 60; i++)
    pv_timeline_renderer_zoom (r, 0.5, x_mid);
  g_assert_cmpfloat (vp->t0, >=, -f->timeline->t_end);
  pv_timeline_renderer_pan (r, -1e9);
  g_assert_cmpfloat (vp->t0, >, -f->timeline->t_end);
  pv_timeline_renderer_set_scroll_y (r, 1e9);
  g_assert_cmpfloat (vp->scroll_y, <=, pv_timeline_renderer_get_content_height (r));
}

int
main (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("GOLDEN_DIR DATA_DIR");
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  GOptionEntry entries[] = {
    { "update", 0, 0, G_OPTION_ARG_NONE, &update, "Rewrite the golden PNGs", NULL },
    { "out", 0, 0, G_OPTION_ARG_FILENAME, &out, "Where failing cases leave their pictures", "DIR" },
    { NULL },
  };

  g_test_init (&argc, &argv, NULL);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 3)
    {
      g_printerr ("usage: test-golden [--update] [--out DIR] GOLDEN_DIR DATA_DIR\n");
      return 2;
    }
  golden_dir = argv[1];
  data_dir = argv[2];
  if (out)
    out_dir = out;
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/golden/%s", cases[i].name);
      g_test_add_data_func (path, &cases[i], test_golden);
    }
  if (!update)
    {
      g_test_add_func ("/hit/kernels-and-values", test_hit_kernels_and_values);
      g_test_add_func ("/hit/arrows-and-marks", test_hit_arrows_and_marks);
      g_test_add_func ("/hit/summary-columns", test_hit_summary_columns);
      g_test_add_func ("/viewport/zoom-clamps", test_zoom_clamps);
      g_test_add_func ("/axis/byte-steps", test_axis_byte_steps);
      g_test_add_func ("/axis/zero-tick", test_axis_zero_tick);
    }
  return g_test_run ();
}
