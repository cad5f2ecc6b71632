/* Times a full redraw of the timeline at several zooms, onto an image
 * surface (what the GTK view's snapshot costs):
 *   bench-render [--streams N] [--runs R] [--width W] [--height H] [--selected K] [--png DIR] MODEL.onnx [SYMBOL=N]...
 * The bounds default to batch=1 seq=128. Prints the planning and model
 * build times, then per memory view and zoom "best_ms median_ms". The
 * budget is 16 ms (one frame at 60 Hz) at every zoom. --png DIR writes
 * each picture for a look. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench-util.h"
#include "render-fixture.h"
#include "pv-timeline-renderer.h"

/* This thread's CPU time in ms: unlike wall time, it does not count the
 * time other processes hold the CPU. */
static double
cpu_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int
main (int argc, char **argv)
{
  int runs = 15, width = 1920, height = 1080, streams = 1, only_view = -1, n_selected = 0;
  g_autofree int *selected = NULL;
  double only_zoom = 0;
  g_autofree char *png_dir = NULL;
  GOptionEntry entries[] = {
    { "streams", 's', 0, G_OPTION_ARG_INT, &streams, "Deal the nodes round-robin to N CPU streams", "N" },
    { "runs", 'r', 0, G_OPTION_ARG_INT, &runs, "Draws per zoom (default 15)", "R" },
    { "width", 'W', 0, G_OPTION_ARG_INT, &width, "Surface width (default 1920)", "W" },
    { "height", 'H', 0, G_OPTION_ARG_INT, &height, "Surface height (default 1080)", "H" },
    { "png", 0, 0, G_OPTION_ARG_FILENAME, &png_dir, "Write each picture into DIR", "DIR" },
    { "view", 0, 0, G_OPTION_ARG_INT, &only_view, "Only this memory view (0 slots, 1 ort, 2 arena)", "V" },
    { "zoom", 0, 0, G_OPTION_ARG_DOUBLE, &only_zoom, "Only this zoom factor", "Z" },
    { "selected", 0, 0, G_OPTION_ARG_INT, &n_selected, "Also select K kernels spread over the plan", "K" },
    { NULL },
  };
  static const double zooms[] = { 1, 10, 100, 1000, 10000, 100000 };
  static const char *const view_names[] = { "slots", "ort", "arena" };
  static const char *const default_bounds[] = { "batch=1", "seq=128", NULL };
  g_autoptr (GOptionContext) context = g_option_context_new ("MODEL.onnx [SYMBOL=N]…");
  g_autoptr (GError) error = NULL;
  g_autoptr (RenderFixture) f = NULL;
  g_autoptr (PvTimelineRenderer) r = NULL;
  const char *const *bounds;
  cairo_surface_t *surface;
  double worst = 0;
  gint64 t0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc < 2 || runs < 1)
    {
      g_printerr ("usage: bench-render [--streams N] [--runs R] MODEL.onnx [SYMBOL=N]...\n");
      return 2;
    }
  bounds = argc > 2 ? (const char *const *) argv + 2 : default_bounds;

  t0 = g_get_monotonic_time ();
  f = render_fixture_new (argv[1], bounds, streams, &error);
  if (f == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  printf ("%s: %d nodes, %d values, %d stream%s; load + plan + timeline %.0f ms\n", argv[1], f->model->graph->n_nodes,
          f->model->graph->n_values, f->timeline->n_streams, f->timeline->n_streams == 1 ? "" : "s",
          (g_get_monotonic_time () - t0) / 1000.0);
  {
    PvTimelineSource source;
    double ms[5];
    for (int i = 0; i < 5; i++)
      {
        PvTimelineModel *m;
        gint64 t = g_get_monotonic_time ();
        pv_timeline_source_init_from_session (&source, f->session);
        m = pv_timeline_model_new (&source);
        ms[i] = (g_get_monotonic_time () - t) / 1000.0;
        pv_timeline_model_unref (m);
      }
    bench_sort (ms, 5);
    printf ("timeline model build: %.1f ms best, %.1f ms median\n", ms[0], ms[2]);
    printf ("items: %d kernels, %d marks, %d arrows; bars: %d slots, %d ort, %d arena\n", f->timeline->n_kernels,
            f->timeline->n_marks, f->timeline->n_arrows, f->timeline->memory[0].n_bars, f->timeline->memory[1].n_bars,
            f->timeline->memory[2].n_bars);
  }

  /* Every (n / K)-th node: a multiple selection across the whole plan. */
  n_selected = CLAMP (n_selected, 0, f->model->graph->n_nodes);
  selected = g_new0 (int, MAX (n_selected, 1));
  for (int i = 0; i < n_selected; i++)
    selected[i] = (int) ((gint64) i * f->model->graph->n_nodes / n_selected);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  r = pv_timeline_renderer_new (f->timeline);
  pv_timeline_renderer_set_size (r, width, height);
  printf ("%-6s %-10s %10s %10s %10s %10s   (%d × %d, %d runs; cpu: this thread's CPU time)\n", "view", "zoom",
          "cpu best", "cpu median", "wall best", "wall median", width, height, runs);
  for (int v = 0; v < PV_TIMELINE_N_MEMORY_VIEWS; v++)
    {
      PvTimelineOptions options;
      if (only_view >= 0 && v != only_view)
        continue;
      pv_timeline_options_init (&options);
      options.memory_view = v;
      /* A selection and a hover, as in the window. */
      options.selection.kind = PV_TIMELINE_HIT_KERNEL;
      options.selection.id = f->model->graph->order[f->model->graph->n_nodes / 2];
      options.selected_nodes = selected;
      options.n_selected_nodes = n_selected;
      pv_timeline_renderer_set_options (r, &options);
      for (gsize z = 0; z < G_N_ELEMENTS (zooms); z++)
        {
          double end = f->timeline->t_end, mid = end / 2, span = end / zooms[z];
          g_autofree double *ms = g_new (double, runs);
          g_autofree double *wall = g_new (double, runs);
          char label[32];
          if (span < 0.05 || (only_zoom > 0 && zooms[z] != only_zoom))
            continue;
          pv_timeline_renderer_set_time_range (r, mid - span / 2, mid + span / 2);
          for (int i = 0; i < runs; i++)
            {
              cairo_t *cr = cairo_create (surface);
              gint64 t = g_get_monotonic_time ();
              double c0 = cpu_ms ();
              pv_timeline_renderer_draw (r, cr);
              cairo_surface_flush (surface);
              ms[i] = cpu_ms () - c0;
              wall[i] = (g_get_monotonic_time () - t) / 1000.0;
              cairo_destroy (cr);
            }
          bench_sort (ms, runs);
          bench_sort (wall, runs);
          g_snprintf (label, sizeof label, "1/%g", zooms[z]);
          printf ("%-6s %-10s %10.2f %10.2f %10.2f %10.2f\n", view_names[v], label, ms[0], ms[runs / 2], wall[0],
                  wall[runs / 2]);
          worst = MAX (worst, ms[runs / 2]);
          if (png_dir)
            {
              g_autofree char *path = g_strdup_printf ("%s/bench-%s-z%g.png", png_dir, view_names[v], zooms[z]);
              cairo_surface_write_to_png (surface, path);
            }
        }
    }
  printf ("worst cpu median %.2f ms (budget 16 ms): %s\n", worst, worst < 16 ? "ok" : "OVER");
  cairo_surface_destroy (surface);
  return 0;
}
