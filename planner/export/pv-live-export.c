/* pv-live-export.c: the values live at an instant, as JSON and text. */
#include "pv-live-export.h"

#include <cjson/cJSON.h>
#include <math.h>

#include "pv-error.h"
#include "pv-json-writer.h"

/* The live set at the instant, with what the exporters print of it. */
typedef struct {
  const PvSession *s;
  const PvLiveCurve *curve;
  double time;
  guint64 total;
  int *values;
  int n_values;
  gint64 *places;     /* value -> buffer / slot / offset */
  GPtrArray **readers; /* per live value: the names of the nodes still to read it */
} Live;

static void
live_clear (Live *live)
{
  for (int i = 0; i < live->n_values; i++)
    g_ptr_array_unref (live->readers[i]);
  g_free (live->readers);
  g_free (live->values);
  g_free (live->places);
}

static gboolean
live_init (Live *live, const PvSession *s, PvPlannerKind kind, const PvLiveInstant *at, GError **error)
{
  *live = (Live) { s };
  if (s->schedule == NULL)
    {
      g_set_error (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_PARENT_PLAN, "there is no simulated run: %s",
                   s->ort_error ? s->ort_error : "ONNX Runtime would not run this");
      return FALSE;
    }
  if (s->slots && s->slots->deferred && s->basis->n_shapeless > 0)
    {
      g_autofree char *ops = s->basis->no_shape_rule[0] ? g_strjoinv (", ", s->basis->no_shape_rule) : g_strdup ("none");
      g_set_error (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_SUBGRAPH,
                   "the sizes of %d values are unknown (no known shape or type; ops with no shape rule: %s)",
                   s->basis->n_shapeless, ops);
      return FALSE;
    }
  if (s->slots && s->slots->deferred)
    {
      g_autofree char *symbols = s->unbound_symbols ? g_strjoinv (", ", s->unbound_symbols) : g_strdup ("");
      g_set_error (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_SUBGRAPH,
                   "the sizes of %d values depend on symbols without a value (%s): give them one with --bound",
                   s->slots->n_unknown, symbols);
      return FALSE;
    }
  live->curve = pv_schedule_curve (s->schedule, at->device);
  if (live->curve == NULL)
    {
      g_set_error (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_SUBGRAPH, "no value lives on device %d%s", at->device,
                   s->slots && s->slots->deferred ? " (sizes need bounds: --bound)" : "");
      return FALSE;
    }
  live->time = at->at_peak ? live->curve->peak_time : at->time;
  live->total = pv_live_curve_bytes_at (live->curve, live->time);
  live->values = pv_schedule_live_at (s->schedule, at->device, live->time, &live->n_values);
  live->places = pv_plan_value_places (s, kind);
  live->readers = pv_live_readers_to_come (s, live->values, live->n_values, live->time);
  return TRUE;
}

/* What the planner says the value is: ORT's alloc kind, or slot / offset. */
static const char *
kind_of (const Live *live, PvPlannerKind kind, int v)
{
  const PvSession *s = live->s;
  int oi = s->graph->values[v].ort_index;

  switch (kind)
    {
    case PV_PLANNER_ORT:
      return s->ort && oi >= 0 ? pv_ort_alloc_kind_name (s->ort->values[oi].kind) : "none";
    case PV_PLANNER_SLOTS:
      return "slot";
    default:
      return "offset";
    }
}

/* Adds @name to @names unless it is there: a set beside the array once
 * it is long (a value read by thousands of nodes). */
static void
add_reader (GPtrArray *names, GHashTable **seen, const char *name)
{
  if (*seen == NULL && names->len >= 16)
    {
      *seen = g_hash_table_new (g_direct_hash, g_direct_equal);
      for (guint i = 0; i < names->len; i++)
        g_hash_table_add (*seen, g_ptr_array_index (names, i));
    }
  if (*seen ? !g_hash_table_add (*seen, (gpointer) name) : g_ptr_array_find (names, name, NULL))
    return;
  g_ptr_array_add (names, (gpointer) name);
}

GPtrArray **
pv_live_readers_to_come (const PvSession *s, const int *live, int n_live, double time)
{
  const PvGraph *g = s->graph;
  g_autofree int *row_of = g_new (int, MAX (g->n_values, 1));
  g_autofree GHashTable **seen = g_new0 (GHashTable *, MAX (n_live, 1));
  GPtrArray **readers = g_new0 (GPtrArray *, MAX (n_live, 1));

  for (int v = 0; v < g->n_values; v++)
    row_of[v] = -1;
  for (int i = 0; i < n_live; i++)
    {
      row_of[live[i]] = i;
      readers[i] = g_ptr_array_new ();
    }
  for (int u = 0; u < g->n_values; u++)
    {
      int root = s->view_root ? s->view_root[u] : u, row;
      guint n;
      const guint *consumers;
      if (root < 0 || (row = row_of[root]) < 0)
        continue;
      consumers = pv_graph_value_consumers (g, u, &n);
      for (guint c = 0; c < n; c++)
        if (s->schedule->node_spans[consumers[c]].end > time)
          add_reader (readers[row], &seen[row], g->nodes[consumers[c]].name);
    }
  for (int i = 0; i < n_live; i++)
    g_clear_pointer (&seen[i], g_hash_table_destroy);
  return readers;
}

/* Schedule steps of a span: whole numbers with unit kernel costs. */
static void
span_steps (const PvSpan *span, double *first, double *last)
{
  *first = span->start;
  *last = span->end == floor (span->end) && span->start == floor (span->start) ? span->end - 1 : span->end;
}

static cJSON *
value_json (const Live *live, PvPlannerKind kind, int v, const GPtrArray *coming)
{
  const PvSession *s = live->s;
  const PvGraph *g = s->graph;
  cJSON *item = cJSON_CreateObject ();
  cJSON *readers = NULL;
  int producer = g->values[v].producer;
  double first, last;

  span_steps (&s->schedule->value_spans[v], &first, &last);
  cJSON_AddStringToObject (item, "name", g->values[v].name);
  cJSON_AddItemToObject (item, "bytes", pv_cjson_uint64 (s->schedule->value_bytes[v]));
  cJSON_AddNumberToObject (item, "share", live->total ? (double) s->schedule->value_bytes[v] / live->total : 0);
  cJSON_AddStringToObject (item, "producer", producer >= 0 ? g->nodes[producer].name : "");
  cJSON_AddStringToObject (item, "op", producer >= 0 ? g->nodes[producer].op_type : "");
  cJSON_AddStringToObject (item, "kind", kind_of (live, kind, v));
  if (live->places[v] >= 0)
    cJSON_AddNumberToObject (item, "buffer", (double) live->places[v]);
  else
    cJSON_AddNullToObject (item, "buffer");
  cJSON_AddNumberToObject (item, "first_step", first);
  cJSON_AddNumberToObject (item, "last_step", last);
  readers = cJSON_AddArrayToObject (item, "readers_to_come");
  for (guint i = 0; i < coming->len; i++)
    cJSON_AddItemToArray (readers, cJSON_CreateString (g_ptr_array_index (coming, i)));
  return item;
}

static char *
print_json (cJSON *root)
{
  char *text = cJSON_Print (root);
  char *copy = pv_json_dup_valid_utf8 (text);

  cJSON_free (text);
  cJSON_Delete (root);
  return copy;
}

char *
pv_live_export_json (const PvSession *session, PvPlannerKind kind, const PvLiveInstant *at, GError **error)
{
  Live live;
  cJSON *root, *values;

  if (!live_init (&live, session, kind, at, error))
    return NULL;
  root = cJSON_CreateObject ();
  cJSON_AddStringToObject (root, "planner", pv_planner_kind_name (kind));
  cJSON_AddStringToObject (root, "model", session->model->source_name);
  cJSON_AddNumberToObject (root, "device", at->device);
  cJSON_AddNumberToObject (root, "step", floor (live.time));
  cJSON_AddNumberToObject (root, "time", live.time);
  cJSON_AddBoolToObject (root, "at_peak", at->at_peak || live.time == live.curve->peak_time);
  cJSON_AddItemToObject (root, "bytes", pv_cjson_uint64 (live.total));
  cJSON_AddItemToObject (root, "peak_live_bytes", pv_cjson_uint64 (live.curve->peak_bytes));
  cJSON_AddNumberToObject (root, "n_values", live.n_values);
  values = cJSON_AddArrayToObject (root, "values");
  for (int i = 0; i < live.n_values; i++)
    cJSON_AddItemToArray (values, value_json (&live, kind, live.values[i], live.readers[i]));
  live_clear (&live);
  return print_json (root);
}

char *
pv_live_export_text (const PvSession *session, PvPlannerKind kind, const PvLiveInstant *at, GError **error)
{
  const PvGraph *g = session->graph;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autofree char *total = NULL, *peak = NULL;
  Live live;

  if (!live_init (&live, session, kind, at, error))
    return NULL;
  total = g_format_size_full (live.total, G_FORMAT_SIZE_IEC_UNITS);
  peak = g_format_size_full (live.curve->peak_bytes, G_FORMAT_SIZE_IEC_UNITS);
  g_string_append_printf (out, "%s: live at step %g%s on %s: %s in %d values (peak live %s at step %g)\n",
                          session->model->source_name, live.time,
                          live.time == live.curve->peak_time ? " (the peak)" : "",
                          at->device ? "GPU" : "CPU", total, live.n_values, peak, live.curve->peak_time);
  g_string_append_printf (out, "%12s %6s  %-40s %-32s %-14s %s\n", "bytes", "share", "value", "producer",
                          kind == PV_PLANNER_ORT ? "ORT's buffer" : kind == PV_PLANNER_SLOTS ? "slot" : "arena offset",
                          "readers to come");
  for (int i = 0; i < live.n_values; i++)
    {
      int v = live.values[i], producer = g->values[v].producer;
      const GPtrArray *coming = live.readers[i];
      g_autofree char *where = live.places[v] >= 0 ? g_strdup_printf ("%s %" G_GINT64_FORMAT, kind_of (&live, kind, v),
                                                                      live.places[v])
                                                   : g_strdup (kind_of (&live, kind, v));
      g_string_append_printf (out, "%12" G_GUINT64_FORMAT " %5.1f%%  %-40s %-32s %-14s", session->schedule->value_bytes[v],
                              live.total ? 100.0 * session->schedule->value_bytes[v] / live.total : 0.0,
                              g->values[v].name, producer >= 0 ? g->nodes[producer].name : "", where);
      for (guint k = 0; k < coming->len; k++)
        g_string_append_printf (out, "%s%s", k ? ", " : " ", (const char *) g_ptr_array_index (coming, k));
      g_string_append_c (out, '\n');
    }
  live_clear (&live);
  return g_string_free (g_steal_pointer (&out), FALSE);
}
