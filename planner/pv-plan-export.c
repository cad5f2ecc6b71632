#include "pv-plan-export.h"

#include <cjson/cJSON.h>
#include <string.h>

gboolean
pv_planner_kind_from_string (const char *name, PvPlannerKind *kind_out)
{
  if (g_strcmp0 (name, "slots") == 0)
    *kind_out = PV_PLANNER_SLOTS;
  else if (g_strcmp0 (name, "arena") == 0)
    *kind_out = PV_PLANNER_ARENA;
  else
    return FALSE;
  return TRUE;
}

static const char *
violation_kind (PvViolationKind kind)
{
  switch (kind)
    {
    case PV_VIOLATION_NO_MEMORY: return "no-memory";
    case PV_VIOLATION_OVERLAP: return "overlap";
    case PV_VIOLATION_UNORDERED: return "unordered";
    default: return "unknown";
    }
}

static cJSON *
checker_json (const PvGraph *g, const PvCheckResult *check)
{
  cJSON *obj = cJSON_CreateObject ();
  cJSON *list = cJSON_AddArrayToObject (obj, "violations");

  cJSON_AddBoolToObject (obj, "ok", check->ok);
  for (int i = 0; i < check->n_violations; i++)
    {
      const PvViolation *v = &check->violations[i];
      cJSON *item = cJSON_CreateObject ();
      cJSON_AddStringToObject (item, "kind", violation_kind (v->kind));
      cJSON_AddStringToObject (item, "value", g->values[v->value_a].name);
      if (v->value_b >= 0)
        cJSON_AddStringToObject (item, "other_value", g->values[v->value_b].name);
      cJSON_AddStringToObject (item, "message", v->message);
      cJSON_AddItemToArray (list, item);
    }
  return obj;
}

static const PvCheckResult *
check_of (const PvSession *s, PvPlannerKind kind)
{
  return kind == PV_PLANNER_SLOTS ? s->slots_check : s->arena_check;
}

static guint64
peak_of (const PvSession *s, PvPlannerKind kind)
{
  return kind == PV_PLANNER_SLOTS ? s->slots->peak_bytes : s->arena->peak_bytes;
}

char *
pv_plan_export_json (const PvSession *s, PvPlannerKind kind)
{
  const PvGraph *g = s->model->graph;
  cJSON *root = cJSON_CreateObject ();
  char *text;

  cJSON_AddStringToObject (root, "planner", kind == PV_PLANNER_SLOTS ? "slots" : "arena");
  cJSON_AddStringToObject (root, "model", s->model->source_name);
  if (s->slots->deferred)
    {
      cJSON *unknown = cJSON_AddArrayToObject (root, "unknown");
      cJSON *symbols = cJSON_AddArrayToObject (root, "unbound_symbols");
      cJSON_AddStringToObject (root, "status", "deferred");
      for (int i = 0; i < s->slots->n_unknown; i++)
        cJSON_AddItemToArray (unknown, cJSON_CreateString (g->values[s->slots->unknown[i]].name));
      for (int i = 0; s->unbound_symbols && s->unbound_symbols[i]; i++)
        cJSON_AddItemToArray (symbols, cJSON_CreateString (s->unbound_symbols[i]));
    }
  else
    {
      cJSON *values = cJSON_CreateArray ();
      cJSON_AddStringToObject (root, "status", "complete");
      cJSON_AddNumberToObject (root, "peak_bytes", (double) peak_of (s, kind));
      cJSON_AddNumberToObject (root, "lower_bound_bytes", (double) s->load_bytes);
      cJSON_AddNumberToObject (root, "peak_over_lower_bound",
                               s->load_bytes ? (double) peak_of (s, kind) / (double) s->load_bytes : 1.0);
      cJSON_AddNumberToObject (root, "naive_bytes", (double) s->slots->naive_bytes);
      if (kind == PV_PLANNER_SLOTS)
        {
          cJSON *slots = cJSON_AddArrayToObject (root, "slots");
          cJSON *assignments = cJSON_AddObjectToObject (root, "assignments");
          cJSON_AddNumberToObject (root, "savings_ratio", s->slots->savings_ratio);
          for (int i = 0; i < s->slots->n_slots; i++)
            {
              cJSON *slot = cJSON_CreateObject ();
              cJSON_AddNumberToObject (slot, "id", s->slots->slots[i].id);
              cJSON_AddNumberToObject (slot, "capacity", (double) s->slots->slots[i].capacity);
              cJSON_AddItemToArray (slots, slot);
            }
          for (int i = 0; i < s->slots->liveness->n_owners; i++)
            {
              int v = s->slots->liveness->owners[i];
              if (s->slots->slot_of[v] >= 0)
                cJSON_AddNumberToObject (assignments, g->values[v].name, s->slots->slot_of[v]);
            }
        }
      else
        {
          cJSON *offsets = cJSON_AddObjectToObject (root, "offsets");
          cJSON_AddNumberToObject (root, "alignment", (double) PV_DEFAULT_ALIGNMENT);
          cJSON_AddStringToObject (root, "ordering", s->arena->ordering ? s->arena->ordering : "");
          for (int i = 0; i < s->n_arena_values; i++)
            cJSON_AddNumberToObject (offsets, g->values[s->arena_values[i]].name, (double) s->arena->offsets[i]);
        }
      /* Per value: what the timeline draws. */
      for (int i = 0; i < s->slots->liveness->n_owners; i++)
        {
          int v = s->slots->liveness->owners[i];
          cJSON *item;
          if (s->slots->slot_of[v] < 0)
            continue;
          item = cJSON_CreateObject ();
          cJSON_AddStringToObject (item, "name", g->values[v].name);
          cJSON_AddNumberToObject (item, "bytes", (double) s->slots->bytes[v]);
          cJSON_AddNumberToObject (item, "first_step", s->slots->liveness->def[v]);
          cJSON_AddNumberToObject (item, "last_step", s->slots->liveness->use_end[v]);
          cJSON_AddItemToArray (values, item);
        }
      cJSON_AddItemToObject (root, "values", values);
      cJSON_AddItemToObject (root, "checker", checker_json (g, check_of (s, kind)));
    }
  text = cJSON_Print (root);
  cJSON_Delete (root);
  {
    char *copy = g_strdup (text);
    cJSON_free (text);
    return copy;
  }
}

static char *
human_bytes (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

char *
pv_plan_export_text (const PvSession *s, PvPlannerKind kind)
{
  const PvGraph *g = s->model->graph;
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "%s: %s planner\n", s->model->source_name, kind == PV_PLANNER_SLOTS ? "slot" : "arena");
  if (s->slots->deferred)
    {
      g_string_append_printf (out, "deferred: %d values have a size that depends on unbound symbols:", s->slots->n_unknown);
      for (int i = 0; s->unbound_symbols && s->unbound_symbols[i]; i++)
        g_string_append_printf (out, " %s", s->unbound_symbols[i]);
      g_string_append (out, "\nbind them with --bound SYMBOL=N\n");
      return g_string_free (out, FALSE);
    }
  {
    g_autofree char *peak = human_bytes (peak_of (s, kind)), *load = human_bytes (s->load_bytes);
    g_autofree char *naive = human_bytes (s->slots->naive_bytes);
    const PvCheckResult *check = check_of (s, kind);
    g_string_append_printf (out, "peak %s (%" G_GUINT64_FORMAT " bytes), lower bound (LOAD) %s, peak/LOAD %.4f, naive %s\n",
                            peak, peak_of (s, kind), load,
                            s->load_bytes ? (double) peak_of (s, kind) / (double) s->load_bytes : 1.0, naive);
    if (kind == PV_PLANNER_SLOTS)
      g_string_append_printf (out, "%d slots, %.1f%% saved against one buffer per value\n", s->slots->n_slots,
                              100.0 * s->slots->savings_ratio);
    else
      g_string_append_printf (out, "%d buffers in one arena, %d-byte aligned (best ordering: %s)\n",
                              s->n_arena_values, PV_DEFAULT_ALIGNMENT, s->arena->ordering);
    g_string_append_printf (out, "checker: %s\n", check->ok ? "safe" : "UNSAFE");
    for (int i = 0; i < check->n_violations; i++)
      g_string_append_printf (out, "  %s\n", check->violations[i].message);
  }
  g_autofree int *arena_index = g_new (int, MAX (g->n_values, 1));
  for (int v = 0; v < g->n_values; v++)
    arena_index[v] = -1;
  for (int k = 0; k < s->n_arena_values; k++)
    arena_index[s->arena_values[k]] = k;
  g_string_append_printf (out, "\n%-44s %12s %8s %8s  %s\n", "value", "bytes", "first", "last",
                          kind == PV_PLANNER_SLOTS ? "slot" : "offset");
  for (int i = 0; i < s->slots->liveness->n_owners; i++)
    {
      int v = s->slots->liveness->owners[i];
      if (s->slots->slot_of[v] < 0)
        continue;
      g_string_append_printf (out, "%-44s %12" G_GUINT64_FORMAT " %8d %8d  ", g->values[v].name, s->slots->bytes[v],
                              s->slots->liveness->def[v], s->slots->liveness->use_end[v]);
      if (kind == PV_PLANNER_SLOTS)
        g_string_append_printf (out, "%d\n", s->slots->slot_of[v]);
      else
        g_string_append_printf (out, "%" G_GUINT64_FORMAT "\n", s->arena->offsets[arena_index[v]]);
    }
  return g_string_free (out, FALSE);
}
