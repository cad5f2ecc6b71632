/* pv-plan-trace.c: a plan as Chrome trace events (pv_plan_export_trace). */
#include "pv-plan-export.h"
#include "pv-json-writer.h"

#include <cjson/cJSON.h>
#include <string.h>

/* ---- Chrome trace events ---- */

#define US_PER_UNIT 1000.0

static void
trace_meta (cJSON *events, int pid, int tid, const char *what, const char *name)
{
  cJSON *e = cJSON_CreateObject ();
  cJSON *args = cJSON_AddObjectToObject (e, "args");
  cJSON_AddStringToObject (e, "ph", "M");
  cJSON_AddStringToObject (e, "name", what);
  cJSON_AddNumberToObject (e, "pid", pid);
  cJSON_AddNumberToObject (e, "tid", tid);
  cJSON_AddStringToObject (args, "name", name);
  cJSON_AddItemToArray (events, e);
}

static void
trace_slice (cJSON *events, int pid, int tid, double start, double end, const char *name, const char *cat)
{
  cJSON *e = cJSON_CreateObject ();
  cJSON_AddStringToObject (e, "ph", "X");
  cJSON_AddStringToObject (e, "name", name);
  cJSON_AddStringToObject (e, "cat", cat);
  cJSON_AddNumberToObject (e, "pid", pid);
  cJSON_AddNumberToObject (e, "tid", tid);
  cJSON_AddNumberToObject (e, "ts", start * US_PER_UNIT);
  cJSON_AddNumberToObject (e, "dur", MAX (end - start, 0.01) * US_PER_UNIT);
  cJSON_AddItemToArray (events, e);
}

static void
trace_flow (cJSON *events, const char *ph, int id, int tid, double ts, const char *name)
{
  cJSON *e = cJSON_CreateObject ();
  cJSON_AddStringToObject (e, "ph", ph);
  cJSON_AddStringToObject (e, "name", name);
  cJSON_AddStringToObject (e, "cat", "sync");
  cJSON_AddNumberToObject (e, "id", id);
  cJSON_AddNumberToObject (e, "pid", 1);
  cJSON_AddNumberToObject (e, "tid", tid);
  cJSON_AddNumberToObject (e, "ts", ts * US_PER_UNIT);
  if (ph[0] == 'f')
    cJSON_AddStringToObject (e, "bp", "e");
  cJSON_AddItemToArray (events, e);
}

/* One track per buffer of the plan @kind names (ORT's buffers, slots or
 * arena rows), each value a slice on its buffer's track while it lives. */
static void
trace_memory_tracks (cJSON *events, const PvSession *s, PvPlannerKind kind)
{
  const PvGraph *g = s->graph;
  const PvSchedule *sched = s->schedule;
  /* Arena rows: one per distinct offset, numbered in first-seen order. */
  g_autoptr (GHashTable) rows = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autofree int *arena_index = g_new (int, MAX (g->n_values, 1));

  for (int v = 0; v < g->n_values; v++)
    arena_index[v] = -1;
  for (int i = 0; i < s->n_arena_values; i++)
    arena_index[s->arena_values[i]] = i;
  for (int v = 0; v < g->n_values; v++)
    {
      gint64 track = -1;
      const PvSpan *span = &sched->value_spans[v];
      if (span->start < 0)
        continue;
      if (kind == PV_PLANNER_SLOTS)
        track = s->slots->slot_of[v];
      else if (kind == PV_PLANNER_ORT && g->values[v].ort_index >= 0)
        {
          const PvOrtValuePlan *vp = &s->ort->values[g->values[v].ort_index];
          if (vp->kind == PV_ORT_ALLOC_ALLOCATE || vp->kind == PV_ORT_ALLOC_REUSE ||
              vp->kind == PV_ORT_ALLOC_ALLOCATE_OUTPUT)
            track = vp->reused_buffer;
        }
      else if (kind == PV_PLANNER_ARENA && arena_index[v] >= 0)
        {
          gint64 offset = (gint64) s->arena->offsets[arena_index[v]];
          gpointer row = g_hash_table_lookup (rows, &offset);
          if (row == NULL)
            {
              row = GINT_TO_POINTER (g_hash_table_size (rows) + 1);
              g_hash_table_insert (rows, g_memdup2 (&offset, sizeof offset), row);
            }
          track = GPOINTER_TO_INT (row) - 1;
        }
      if (track < 0)
        continue;
      trace_slice (events, 2, (int) track, span->start, MAX (span->end, span->start + 0.5), g->values[v].name,
                   "value");
    }
}

/* Live bytes per device as counters. */
static void
trace_live_bytes (cJSON *events, const PvSchedule *sched)
{
  for (int c = 0; c < sched->n_curves; c++)
    for (int i = 0; i < sched->curves[c].n_points; i++)
      {
        cJSON *e = cJSON_CreateObject ();
        cJSON *args = cJSON_AddObjectToObject (e, "args");
        g_autofree char *series = g_strdup_printf ("device %d", sched->curves[c].device);
        cJSON_AddStringToObject (e, "ph", "C");
        cJSON_AddStringToObject (e, "name", "live bytes");
        cJSON_AddNumberToObject (e, "pid", 1);
        cJSON_AddNumberToObject (e, "ts", sched->curves[c].points[i].time * US_PER_UNIT);
        cJSON_AddItemToObject (args, series, pv_cjson_uint64 (sched->curves[c].points[i].bytes));
        cJSON_AddItemToArray (events, e);
      }
}

char *
pv_plan_export_trace (const PvSession *s, PvPlannerKind kind)
{
  const PvGraph *g = s->graph;
  const PvSchedule *sched = s->schedule;
  cJSON *root = cJSON_CreateObject ();
  cJSON *events = cJSON_AddArrayToObject (root, "traceEvents");
  char *text, *copy;

  cJSON_AddStringToObject (root, "displayTimeUnit", "ms");
  if (s->ort == NULL || sched == NULL)
    {
      cJSON_AddStringToObject (root, "error", s->ort_error ? s->ort_error : "no execution plan");
      goto done;
    }
  trace_meta (events, 1, 0, "process_name", "streams");
  trace_meta (events, 2, 0, "process_name", kind == PV_PLANNER_ARENA ? "arena rows" :
                                            kind == PV_PLANNER_SLOTS ? "slots" : "ONNX Runtime buffers");
  for (int st = 0; st < s->ort->n_streams; st++)
    {
      g_autofree char *name = g_strdup_printf ("stream %d · %s", st, s->ort->streams[st].device.type ? "GPU" : "CPU");
      trace_meta (events, 1, st, "thread_name", name);
      for (int k = 0; k < s->ort->streams[st].n_steps; k++)
        {
          const PvOrtStep *step = &s->ort->streams[st].steps[k];
          const PvSpan *span = &sched->step_spans[st][k];
          if (span->start < 0)
            continue;
          if (step->kind == PV_ORT_STEP_LAUNCH_KERNEL)
            trace_slice (events, 1, st, span->start, span->end, g->nodes[step->node].name, g->nodes[step->node].op_type);
        }
    }
  /* Synchronisation as flow arrows: producer's end to the waiting kernel. */
  for (int e = 0; e < sched->n_sync_edges; e++)
    {
      int from = sched->sync_edges[e][0], to = sched->sync_edges[e][1];
      if (from < 0 || to < 0)
        continue;
      trace_flow (events, "s", e + 1, s->ort->node_stream[from], sched->node_spans[from].end - 0.001, "sync");
      trace_flow (events, "f", e + 1, s->ort->node_stream[to], sched->node_spans[to].start, "sync");
    }
  /* Memory tracks. */
  if (!s->slots->deferred)
    trace_memory_tracks (events, s, kind);
  trace_live_bytes (events, sched);
done:
  text = cJSON_PrintUnformatted (root);
  cJSON_Delete (root);
  copy = pv_json_dup_valid_utf8 (text);
  cJSON_free (text);
  return copy;
}
