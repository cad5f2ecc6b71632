/* Times a re-plan as the window does one after a partition edit: the config
 * text checked and every plan made on the session basis (pv_session_new_on_basis:
 * ORT's plan, the slot and arena planners, the schedule and the checks), then
 * the timeline records built from the session. The model is loaded and its
 * basis (shape inference, kernel maps, sizes, lifetimes) made once, as in
 * the window: a partition edit does not change them.
 *   bench-replan MODEL.onnx [RUNS [CONFIG.json...]]
 * Prints min, median and p95 in ms for 1, 2, 3 and 4 streams (round-robin),
 * one kernel moved to a new stream, the odd layers on a second stream (both
 * also as a ratio to one stream) and each CONFIG given, and what
 * freeing a session and its timeline costs (the main thread does that when
 * a newer plan replaces them), then the median of each stage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-util.h"
#include "pv-memory-policy.h"
#include "pv-model-loader.h"
#include "pv-session.h"
#include "pv-timeline-model.h"

static void
report (const char *what, double *ms, int runs)
{
  bench_sort (ms, runs);
  printf ("%-32s %8.2f ms min %8.2f ms median %8.2f ms p95 (%d runs)\n", what, ms[0], ms[runs / 2],
          ms[MIN (runs - 1, (int) (runs * 0.95))], runs);
}

/* A config of @n_streams CPU streams: the node at position k of ORT's
 * default order goes to stream @stream_of[k] (each stream keeps that order). */
static char *
config_of_streams (const PvGraph *g, const PvPartitionConfig *def, const int *stream_of, int n_streams)
{
  g_autoptr (PvPartitionConfig) config = g_new0 (PvPartitionConfig, 1);

  config->n_streams = n_streams;
  config->streams = g_new0 (PvStream, n_streams);
  for (int st = 0; st < n_streams; st++)
    config->streams[st].nodes = g_new (int, def->streams[0].n_nodes);
  for (int k = 0; k < def->streams[0].n_nodes; k++)
    {
      PvStream *stream = &config->streams[stream_of[k]];
      stream->nodes[stream->n_nodes++] = def->streams[0].nodes[k];
    }
  return pv_partition_config_to_json (g, config, TRUE);
}

/* The partition edits timed, in ORT's default order: round-robin over
 * @n_streams; one kernel (the middle one) moved to a new stream, as the
 * window's "Move to New Stream" does; the odd layers ("/layers.N/" with N
 * odd, and the renamed nodes that follow one) on a second stream. */
typedef enum { EDIT_ROUND_ROBIN, EDIT_ONE_MOVED, EDIT_ODD_LAYERS } Edit;

static char *
edited_config (const PvGraph *g, Edit edit, int n_streams)
{
  g_autoptr (PvPartitionConfig) def = pv_partition_config_default (g, NULL);
  int n = def->n_streams == 1 ? def->streams[0].n_nodes : 0;
  g_autofree int *stream_of = g_new0 (int, MAX (n, 1));
  int layer_stream = 0;

  if (n == 0 || (edit == EDIT_ROUND_ROBIN && n_streams == 1))
    return pv_partition_config_to_json (g, def, TRUE);
  for (int k = 0; k < n; k++)
    {
      const char *name = g->nodes[def->streams[0].nodes[k]].name;
      const char *layer = name ? strstr (name, "/layers.") : NULL;

      if (edit == EDIT_ROUND_ROBIN)
        stream_of[k] = k % n_streams;
      else if (edit == EDIT_ONE_MOVED)
        stream_of[k] = k == n / 2;
      else
        {
          if (layer)
            layer_stream = atoi (layer + strlen ("/layers.")) % 2;
          stream_of[k] = layer_stream;
        }
    }
  return config_of_streams (g, def, stream_of, edit == EDIT_ROUND_ROBIN ? n_streams : 2);
}

typedef struct {
  BenchCancel cancel;
  PvSessionBasis *basis;
  PvSessionOptions *options;
} CancelRun;

static gpointer
cancel_run_thread (gpointer data)
{
  CancelRun *run = data;
  g_autoptr (GError) error = NULL;
  PvSession *session = pv_session_new_on_basis (run->basis, run->options, run->cancel.cancellable, &error);

  run->cancel.returned = g_get_monotonic_time ();
  pv_session_free (session);
  return NULL;
}

/* How long a re-plan of @options takes to stop once cancelled: cancelled
 * at 10%, 20%, … 90% of @median_ms, the time from the cancel to the
 * planning call's return. */
static void
bench_cancel (PvSessionBasis *basis, PvSessionOptions *options, const char *label, double median_ms)
{
  CancelRun run = { { NULL, 0 }, basis, options };
  double ms[9];

  bench_cancel_latencies (cancel_run_thread, &run.cancel, median_ms, ms);
  {
    g_autofree char *what = g_strdup_printf ("cancel, %s", label);
    report (what, ms, 9);
  }
}

/* @runs re-plans of @text (named @label in the report), their median
 * session time in @median_ms; FALSE when it gives no valid plan. */
static gboolean
bench_config (PvSessionBasis *basis, PvSessionOptions *options, const char *text, const char *label, int runs,
              double *median_ms)
{
  g_autofree double *session_ms = g_new (double, runs);
  g_autofree double *total_ms = g_new (double, runs);
  g_autofree double *free_ms = g_new (double, runs);
  g_autofree double *stage_ms = g_new (double, (gsize) runs * PV_SESSION_N_STAGES);
  g_autoptr (GError) error = NULL;
  int n_streams = 0;

  options->partition_text = text;
  options->partition_len = strlen (text);
  for (int r = 0; r < runs; r++)
    {
      gint64 t0 = g_get_monotonic_time (), t1, t2;
      PvSession *session = pv_session_new_on_basis (basis, options, NULL, &error);
      PvTimelineSource source;
      PvTimelineModel *timeline;

      if (session == NULL || session->ort == NULL ||
          (session->partition_check && pv_partition_check_has_errors (session->partition_check)))
        {
          g_printerr ("%s: no valid plan (%s)\n", label,
                      session ? (session->ort_error ? session->ort_error : "config has errors") : error->message);
          return FALSE;
        }
      t1 = g_get_monotonic_time ();
      pv_timeline_source_init_from_session (&source, session);
      timeline = pv_timeline_model_new (&source);
      t2 = g_get_monotonic_time ();
      n_streams = session->ort->n_streams;
      for (int st = 0; st < PV_SESSION_N_STAGES; st++)
        stage_ms[st * runs + r] = session->stage_ms[st];
      pv_timeline_model_unref (timeline);
      pv_session_free (session);
      session_ms[r] = (t1 - t0) / 1000.0;
      total_ms[r] = (t2 - t0) / 1000.0;
      free_ms[r] = (g_get_monotonic_time () - t2) / 1000.0;
    }
  {
    g_autofree char *what = g_strdup_printf ("session, %s", label);
    report (what, session_ms, runs);
    g_free (what);
    what = g_strdup_printf ("session + timeline, %s", label);
    report (what, total_ms, runs);
    g_free (what);
    what = g_strdup_printf ("free, %s", label);
    report (what, free_ms, runs);
  }
  *median_ms = session_ms[runs / 2];
  bench_cancel (basis, options, label, *median_ms);
  printf ("  %d ORT stream%s; median per stage:", n_streams, n_streams == 1 ? "" : "s");
  for (int st = 0; st < PV_SESSION_N_STAGES; st++)
    {
      double *ms = stage_ms + st * runs;
      bench_sort (ms, runs);
      printf ("%s %s %.2f", st ? "," : "", pv_session_stage_name (st), ms[runs / 2]);
    }
  printf (" ms\n");
  return TRUE;
}

int
main (int argc, char **argv)
{
  int runs = argc > 2 ? atoi (argv[2]) : 30;
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;
  g_autoptr (PvKernelTable) kernels = NULL;
  g_autoptr (PvSessionBasis) probe = NULL;
  g_autoptr (PvSessionBasis) basis = NULL;
  g_autoptr (GHashTable) bounds = g_hash_table_new (g_str_hash, g_str_equal);
  PvSessionOptions options = { 0 };
  PvSessionBasisOptions basis_options = { 0 };
  gint64 one = 1, t0;
  double one_stream_ms = 0, ms = 0;

  if (argc < 2 || runs < 1)
    {
      g_printerr ("usage: bench-replan MODEL.onnx [RUNS [CONFIG.json...]]\n");
      return 2;
    }
  /* As planviz does. */
  pv_memory_policy_keep_freed ();
  model = pv_model_load_from_file (argv[1], &error);
  kernels = model ? pv_kernel_table_new_default (&error) : NULL;
  if (kernels == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  printf ("%s: %d nodes, %d values\n", argv[1], model->graph->n_nodes, model->graph->n_values);

  /* As the window does: the basis once (inference, maps, lifetimes), every
   * symbol sizes depend on bound to 1; each edit re-plans on it. */
  t0 = g_get_monotonic_time ();
  /* As the window: ORT's random walk orders replayed within a budget of
   * 50,000 nodes' worth (pv-document-private.h), none below 4. */
  basis_options.ort_order_trials = MIN (50000 / MAX (model->graph->n_nodes, 1), PV_ORT_DEFAULT_ORDER_TRIALS);
  if (basis_options.ort_order_trials < 4)
    basis_options.ort_order_trials = -1;
  probe = pv_session_basis_new (model, kernels, &basis_options, NULL, &error);
  if (probe == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  for (int i = 0; probe->unbound_symbols[i]; i++)
    g_hash_table_insert (bounds, probe->unbound_symbols[i], &one);
  basis = pv_session_basis_new_with_bounds (probe, bounds);
  printf ("%-32s %8.2f ms (inference, maps, lifetimes; bounds %.2f ms)\n", "basis", (g_get_monotonic_time () - t0) / 1000.0,
          basis->stage_ms);
  options.registry = PV_REGISTRY_CPU;

  for (int n_streams = 1; n_streams <= 4; n_streams++)
    {
      g_autofree char *text = edited_config (model->graph, EDIT_ROUND_ROBIN, n_streams);
      g_autofree char *label = g_strdup_printf ("%d stream%s", n_streams, n_streams > 1 ? "s" : "");
      if (!bench_config (basis, &options, text, label, runs, n_streams == 1 ? &one_stream_ms : &ms))
        return 1;
    }
  for (Edit edit = EDIT_ONE_MOVED; edit <= EDIT_ODD_LAYERS; edit++)
    {
      const char *label = edit == EDIT_ONE_MOVED ? "one kernel moved" : "odd layers";
      g_autofree char *text = edited_config (model->graph, edit, 2);
      if (!bench_config (basis, &options, text, label, runs, &ms))
        return 1;
      printf ("  %s / 1 stream: %.2f (target <= 1.5)\n", label, ms / one_stream_ms);
    }
  for (int i = 3; i < argc; i++)
    {
      g_autofree char *text = NULL;
      g_autofree char *label = g_path_get_basename (argv[i]);
      if (!g_file_get_contents (argv[i], &text, NULL, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      if (!bench_config (basis, &options, text, label, runs, &ms))
        return 1;
    }
  return 0;
}
