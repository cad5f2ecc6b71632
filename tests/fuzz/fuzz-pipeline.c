/* libFuzzer target: the whole pipeline on any bytes as a model, as
 * `planviz-cli plan` and `render` run it (app/pv-cli-session.c): load, the
 * session-time rewrites ORT makes, shape inference, every planner (ORT's
 * plan and arena run, slots, one arena) with the checker, the exports
 * (JSON, text, Chrome trace, ORT's printout) and the timeline drawn on a
 * small cairo surface. Never a crash, leak or undefined behaviour; an error
 * is a GError of the stage's domain; the JSON and trace exports are JSON
 * and valid UTF-8.
 *
 * Work is capped so that the target keeps over 10 executions a second:
 * models with more than MAX_NODES nodes (subgraphs included) are skipped.
 * A plan deferred for want of bounds is made again with each symbolic dim
 * bound to 3, as --bound would. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#include <cjson/cJSON.h>

#include "pv-error.h"
#include "pv-model-loader.h"
#include "pv-ort-graph-rewrite.h"
#include "pv-plan-export.h"
#include "pv-session.h"
#include "pv-timeline-model.h"
#include "pv-timeline-renderer.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define MAX_NODES 64

static PvKernelTable *kernels;

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  g_autoptr (GError) error = NULL;

  kernels = pv_kernel_table_new_default (&error);
  g_assert_no_error (error);
  return 0;
}

static int
count_nodes (const PvGraph *g)
{
  int n = g->n_nodes;

  for (int i = 0; i < g->n_nodes && n <= MAX_NODES; i++)
    for (int s = 0; s < g->nodes[i].n_subgraphs; s++)
      n += count_nodes (g->nodes[i].subgraphs[s]);
  return n;
}

/* A JSON export is JSON, valid UTF-8 whatever bytes the names hold. (The
 * text exports print names as they are, as ORT's own printout does.) */
static void
assert_export (char *text, gboolean json)
{
  if (text == NULL)
    return;
  if (json)
    g_assert_true (g_utf8_validate (text, -1, NULL));
  if (json)
    {
      cJSON *parsed = cJSON_Parse (text);
      g_assert_nonnull (parsed);
      cJSON_Delete (parsed);
    }
  g_free (text);
}

static void
draw (const PvSession *session)
{
  PvTimelineSource source;
  PvTimelineOptions view;
  g_autoptr (PvTimelineModel) timeline = NULL;
  g_autoptr (PvTimelineRenderer) renderer = NULL;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 320, 200);
  cairo_t *cr = cairo_create (surface);

  pv_timeline_source_init_from_session (&source, session);
  timeline = pv_timeline_model_new (&source);
  renderer = pv_timeline_renderer_new (timeline);
  pv_timeline_options_init (&view);
  for (int m = 0; m < PV_TIMELINE_N_MEMORY_VIEWS; m++)
    {
      if (!timeline->memory[m].available)
        continue;
      view.memory_view = m;
      pv_timeline_renderer_set_options (renderer, &view);
      pv_timeline_renderer_set_size (renderer, 320, 200);
      pv_timeline_renderer_draw (renderer, cr);
    }
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = pv_model_load_from_bytes (data, size, "fuzz.onnx", &error);
  g_autoptr (PvOrtShapes) ort_shapes = NULL;
  g_autoptr (PvSession) session = NULL;
  g_autoptr (GHashTable) bounds = NULL;
  PvSessionOptions options = { 0 };

  if (model == NULL)
    {
      g_assert_true (error->domain == PV_MODEL_ERROR);
      return 0;
    }
  if (count_nodes (model->graph) > MAX_NODES)
    return 0;
  if (!pv_ort_graph_rewrite (model, NULL, &ort_shapes, &error))
    {
      g_assert_nonnull (error);
      return 0;
    }
  options.ort_shapes = ort_shapes;
  bounds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  options.bounds = bounds;
  options.include_graph_inputs = size & 1;
  session = pv_session_new (model, kernels, &options, &error);
  if (session && session->slots->deferred && session->unbound_symbols && session->unbound_symbols[0])
    {
      /* Deferred for want of bounds: bind each symbol to 3 and plan again. */
      for (int i = 0; session->unbound_symbols[i]; i++)
        g_hash_table_replace (bounds, g_strdup (session->unbound_symbols[i]), g_memdup2 (&(gint64){ 3 }, sizeof (gint64)));
      g_clear_pointer (&session, pv_session_free);
      session = pv_session_new (model, kernels, &options, &error);
    }
  if (session == NULL)
    {
      g_assert_nonnull (error);
      return 0;
    }
  g_assert_no_error (error);
  for (PvPlannerKind kind = PV_PLANNER_ORT; kind <= PV_PLANNER_ARENA; kind++)
    {
      assert_export (pv_plan_export_json (session, kind), TRUE);
      assert_export (pv_plan_export_text (session, kind), FALSE);
      assert_export (pv_plan_export_trace (session, kind), TRUE);
    }
  if (session->ort)
    assert_export (pv_ort_plan_to_ort_text (session->ort), FALSE);
  draw (session);
  return 0;
}
