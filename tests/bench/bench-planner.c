/* Times each planner stage on one model, best of N runs:
 *   bench-planner MODEL.onnx [RUNS]
 * Prints one line per stage: "stage  best_ms  median_ms". */
#include <stdio.h>
#include <stdlib.h>

#include "pv-model-loader.h"
#include "pv-shape-inference.h"

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static void
report (const char *stage, double *ms, int runs)
{
  qsort (ms, runs, sizeof (double), compare_doubles);
  printf ("%-24s %10.1f ms best %10.1f ms median (%d runs)\n", stage, ms[0], ms[runs / 2], runs);
}

int
main (int argc, char **argv)
{
  int runs = argc > 2 ? atoi (argv[2]) : 5;
  g_autofree double *load_ms = NULL, *infer_ms = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;

  if (argc < 2 || runs < 1)
    {
      g_printerr ("usage: bench-planner MODEL.onnx [RUNS]\n");
      return 2;
    }
  load_ms = g_new (double, runs);
  infer_ms = g_new (double, runs);
  for (int r = 0; r < runs; r++)
    {
      gint64 t0 = g_get_monotonic_time ();
      g_clear_pointer (&model, pv_model_free);
      model = pv_model_load_from_file (argv[1], &error);
      if (model == NULL)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      load_ms[r] = (g_get_monotonic_time () - t0) / 1000.0;
    }
  printf ("%s: %d nodes, %d values\n", argv[1], model->graph->n_nodes, model->graph->n_values);
  report ("load", load_ms, runs);

  for (int r = 0; r < runs; r++)
    {
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr (PvShapeInfo) info = pv_shape_infer (model, NULL, &error);
      if (info == NULL)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      infer_ms[r] = (g_get_monotonic_time () - t0) / 1000.0;
    }
  report ("shape inference", infer_ms, runs);
  return 0;
}
