#include "pv-plan-export.h"

#include <string.h>

#include "pv-json-writer.h"

const char *
pv_planner_kind_name (PvPlannerKind kind)
{
  switch (kind)
    {
    case PV_PLANNER_ORT: return "ort";
    case PV_PLANNER_SLOTS: return "slots";
    case PV_PLANNER_ARENA: return "arena";
    default: return "unknown";
    }
}

gboolean
pv_planner_kind_from_string (const char *name, PvPlannerKind *kind_out)
{
  if (g_strcmp0 (name, "ort") == 0)
    *kind_out = PV_PLANNER_ORT;
  else if (g_strcmp0 (name, "slots") == 0)
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

static void
checker_json (PvJsonWriter *w, const PvGraph *g, const PvCheckResult *check)
{
  pv_json_begin_object (w, "checker");
  pv_json_begin_array (w, "violations");
  for (int i = 0; i < check->n_violations; i++)
    {
      const PvViolation *v = &check->violations[i];
      pv_json_begin_object (w, NULL);
      pv_json_string (w, "kind", violation_kind (v->kind));
      pv_json_string (w, "value", g->values[v->value_a].name);
      if (v->value_b >= 0)
        pv_json_string (w, "other_value", g->values[v->value_b].name);
      pv_json_string (w, "message", v->message);
      pv_json_string (w, "effect", pv_violation_effect (v->kind));
      pv_json_end_object (w);
    }
  pv_json_end_array (w);
  pv_json_bool (w, "ok", check->ok);
  pv_json_end_object (w);
}

static const PvCheckResult *
check_of (const PvSession *s, PvPlannerKind kind)
{
  switch (kind)
    {
    case PV_PLANNER_ORT: return s->ort_check;
    case PV_PLANNER_SLOTS: return s->slots_check;
    default: return s->arena_check;
    }
}

static guint64
peak_of (const PvSession *s, PvPlannerKind kind)
{
  switch (kind)
    {
    case PV_PLANNER_ORT: return s->ort_peak_bytes;
    case PV_PLANNER_SLOTS: return s->slots->peak_bytes;
    default: return s->arena->peak_bytes;
    }
}

static const char *
step_kind_name (PvOrtStepKind kind)
{
  switch (kind)
    {
    case PV_ORT_STEP_BARRIER: return "Barrier";
    case PV_ORT_STEP_WAIT_ON_EP: return "WaitOnEP";
    case PV_ORT_STEP_LAUNCH_KERNEL: return "LaunchKernel";
    case PV_ORT_STEP_ACTIVATE_NOTIFICATION: return "ActivateNotification";
    case PV_ORT_STEP_TRIGGER_DOWNSTREAM: return "TriggerDownstream";
    default: return "unknown";
    }
}

/* The value's live interval in the simulated run, as steps (schedule time,
 * one unit per kernel by default; last_step inclusive): null for values
 * never live in it (weights). */
static void
add_live_steps (PvJsonWriter *w, const PvSession *s, int v)
{
  const PvSpan *span = s->schedule ? &s->schedule->value_spans[v] : NULL;

  if (span == NULL || span->start < 0)
    {
      pv_json_null (w, "first_step");
      pv_json_null (w, "last_step");
      return;
    }
  pv_json_number (w, "first_step", span->start);
  pv_json_number (w, "last_step", span->end == (double) (gint64) span->end ? span->end - 1 : span->end);
}

/* Every node of ORT's plan by NodeIndex: its name in a partition config,
 * op type, stream and outputs (OrtValue indices, null for an omitted one),
 * so that a node's allocations can be matched with ORT's profile, which
 * names nodes by NodeIndex. */
static void
ort_nodes_json (PvJsonWriter *w, const PvSession *s)
{
  const PvGraph *g = s->graph;

  pv_json_begin_array (w, "nodes");
  for (int n = 0; n < g->n_nodes; n++)
    {
      const PvNode *node = &g->nodes[n];
      g_autofree char *profile_name = node->name_generated ? g_strdup_printf ("%s_%d", node->op_type, node->ort_index)
                                                           : NULL;
      pv_json_begin_object (w, NULL);
      pv_json_begin_array (w, "outputs");
      for (int k = 0; k < node->n_outputs; k++)
        if (node->outputs[k] >= 0 && g->values[node->outputs[k]].ort_index >= 0)
          pv_json_number (w, NULL, g->values[node->outputs[k]].ort_index);
        else
          pv_json_null (w, NULL);
      pv_json_end_array (w);
      pv_json_number (w, "index", node->ort_index);
      pv_json_string (w, "name", node->name);
      /* ORT's profiler calls an unnamed node <OpType>_<NodeIndex>. */
      pv_json_string (w, "profile_name", profile_name ? profile_name : node->name);
      pv_json_string (w, "op", node->op_type);
      pv_json_number (w, "stream", s->ort->node_stream[n]);
      pv_json_end_object (w);
    }
  pv_json_end_array (w);
}

/* What ORT's CPU arena does over the first run (issue #13's schema):
 * per LaunchKernel the profiler's statistics, the run's peaks and what
 * the arena holds at its end, the memory pattern's block for the second
 * run, and the ops whose scratch planviz does not model. */
static void
ort_arena_json (PvJsonWriter *w, const PvSession *s)
{
  const PvOrtArenaRun *run = s->ort_run;

  if (run == NULL)
    {
      pv_json_null (w, "ort_arena");
      return;
    }
  pv_json_begin_object (w, "ort_arena");
  pv_json_begin_array (w, "nodes");
  for (int k = 0; k < run->n_records; k++)
    {
      const PvOrtArenaRecord *r = &run->first[k];
      pv_json_begin_object (w, NULL);
      pv_json_string (w, "node", s->graph->nodes[r->node].name);
      pv_json_uint64 (w, "requested_in_use", r->requested_in_use);
      pv_json_uint64 (w, "in_use", r->in_use);
      pv_json_uint64 (w, "held", r->held);
      pv_json_uint64 (w, "in_use_peak", r->in_use_peak);
      pv_json_end_object (w);
    }
  pv_json_end_array (w);
  pv_json_uint64 (w, "peak_requested", run->peak_requested);
  pv_json_uint64 (w, "peak_in_use", run->peak_in_use);
  pv_json_uint64 (w, "held", run->held);
  if (run->has_pattern)
    pv_json_uint64 (w, "pattern_bytes", run->pattern_bytes);
  else
    pv_json_null (w, "pattern_bytes");
  pv_json_begin_array (w, "unmodelled_ops");
  for (int i = 0; run->unmodelled_ops[i]; i++)
    pv_json_string (w, NULL, run->unmodelled_ops[i]);
  pv_json_end_array (w);
  pv_json_end_object (w);
}

/* A value with no elements (a Slice to nothing): 0 bytes, not unknown. */
static gboolean
known_empty (const PvSession *s, int value)
{
  const PvValueShape *shape = s->shapes ? pv_shape_info_get (s->shapes, s->graph, value) : NULL;
  gint64 bytes;

  return shape && shape->bytes && pv_dim_is_const (shape->bytes, &bytes) && bytes == 0;
}

/* ORT's view of a value's shape (pv-ort-shapes.h): dims as numbers
 * (dim_value), strings (dim_param) or null (neither), null without a shape;
 * and why it falls short of planviz's, when it does. */
static void
ort_shape_json (PvJsonWriter *w, const PvSession *s, int value)
{
  const PvOrtValueType *type = pv_ort_shapes_get (s->ort_shapes, s->graph, value);
  g_autofree char *note = pv_ort_shapes_explain (s->ort_shapes, type, pv_shape_info_get (s->shapes, s->graph, value));

  if (type->rank < 0)
    pv_json_null (w, "ort_shape");
  else
    {
      pv_json_begin_array (w, "ort_shape");
      for (int d = 0; d < type->rank; d++)
        if (type->dims[d].kind == PV_ORT_DIM_VALUE)
          pv_json_int64 (w, NULL, type->dims[d].value);
        else if (type->dims[d].kind == PV_ORT_DIM_PARAM)
          pv_json_string (w, NULL, type->dims[d].param);
        else
          pv_json_null (w, NULL);
      pv_json_end_array (w);
    }
  if (note)
    pv_json_string (w, "ort_shape_note", note);
}

/* A deferred plan's values of no known shape and the ops with no shape
 * rule behind them. */
static void
shapeless_json (PvJsonWriter *w, const PvSession *s)
{
  pv_json_begin_array (w, "no_shape_rule");
  for (int i = 0; s->basis->no_shape_rule && s->basis->no_shape_rule[i]; i++)
    pv_json_string (w, NULL, s->basis->no_shape_rule[i]);
  pv_json_end_array (w);
  pv_json_number (w, "shapeless_values", s->basis->n_shapeless);
}

static void
strv_json (PvJsonWriter *w, const char *key, char **strv)
{
  pv_json_begin_array (w, key);
  for (int i = 0; strv && strv[i]; i++)
    pv_json_string (w, NULL, strv[i]);
  pv_json_end_array (w);
}

/* One value of ORT's plan, by OrtValue index. */
static void
ort_value_json (PvJsonWriter *w, const PvSession *s, int i)
{
  const PvOrtValuePlan *vp = &s->ort->values[i];
  g_autofree char *device = pv_ort_device_to_string (&vp->location);

  pv_json_begin_object (w, NULL);
  pv_json_number (w, "index", i);
  pv_json_string (w, "name", s->graph->values[vp->value].name);
  pv_json_string (w, "kind", pv_ort_alloc_kind_name (vp->kind));
  pv_json_number (w, "reused_buffer", vp->reused_buffer);
  /* ORT 1.30 plans it at random between processes (several streams). */
  if (vp->order_dependent)
    pv_json_bool (w, "order_dependent", TRUE);
  pv_json_number (w, "device", vp->location.type);
  pv_json_string (w, "location", device);
  if (s->value_bytes && s->value_bytes[vp->value])
    pv_json_uint64 (w, "bytes", s->value_bytes[vp->value]);
  else if (known_empty (s, vp->value))
    pv_json_number (w, "bytes", 0);
  else
    pv_json_null (w, "bytes");
  add_live_steps (w, s, vp->value);
  ort_shape_json (w, s, vp->value);
  pv_json_end_object (w);
}

static void
ort_streams_json (PvJsonWriter *w, const PvSession *s)
{
  const PvOrtPlan *plan = s->ort;

  pv_json_begin_array (w, "streams");
  for (int st = 0; st < plan->n_streams; st++)
    {
      pv_json_begin_object (w, NULL);
      pv_json_begin_array (w, "steps");
      for (int k = 0; k < plan->streams[st].n_steps; k++)
        {
          const PvOrtStep *step = &plan->streams[st].steps[k];
          pv_json_begin_object (w, NULL);
          pv_json_string (w, "kind", step_kind_name (step->kind));
          if (step->node >= 0)
            pv_json_string (w, "node", s->graph->nodes[step->node].name);
          else
            pv_json_null (w, "node");
          pv_json_number (w, "id", step->id);
          if (s->schedule && s->schedule->step_spans[st][k].start >= 0)
            {
              pv_json_number (w, "start", s->schedule->step_spans[st][k].start);
              pv_json_number (w, "end", s->schedule->step_spans[st][k].end);
            }
          pv_json_end_object (w);
        }
      pv_json_end_array (w);
      pv_json_number (w, "device", plan->streams[st].device.type);
      pv_json_end_object (w);
    }
  pv_json_end_array (w);
}

/* ONNX Runtime's plan: values by OrtValue index, streams and steps, the
 * deallocation plan (issue #4's schema). */
static void
ort_plan_json (PvJsonWriter *w, const PvSession *s)
{
  const PvOrtPlan *plan = s->ort;

  pv_json_begin_array (w, "values");
  for (int i = 0; i < plan->n_values; i++)
    ort_value_json (w, s, i);
  pv_json_end_array (w);
  ort_streams_json (w, s);
  pv_json_begin_array (w, "release_actions");
  for (int i = 0; i < plan->n_release_actions; i++)
    {
      pv_json_begin_object (w, NULL);
      pv_json_number (w, "value", plan->release_actions[i].value_index);
      pv_json_number (w, "ref_count", plan->release_actions[i].ref_count);
      pv_json_end_object (w);
    }
  pv_json_end_array (w);
  pv_json_begin_object (w, "node_release_list");
  for (int n = 0; n < plan->n_nodes; n++)
    if (plan->node_release_start[n + 1] > plan->node_release_start[n])
      {
        pv_json_begin_array (w, s->graph->nodes[n].name);
        for (int k = plan->node_release_start[n]; k < plan->node_release_start[n + 1]; k++)
          pv_json_number (w, NULL, plan->node_release[k]);
        pv_json_end_array (w);
      }
  pv_json_end_object (w);
  strv_json (w, "ort_stdout", plan->notes);
  pv_json_bool (w, "single_stream", plan->single_stream);
  if (!plan->single_stream)
    pv_json_number (w, "order_trials", plan->order_trials);
  ort_nodes_json (w, s);
}

gint64 *
pv_plan_value_places (const PvSession *s, PvPlannerKind kind)
{
  const PvGraph *g = s->graph;
  gint64 *place = g_new (gint64, MAX (g->n_values, 1));

  for (int v = 0; v < g->n_values; v++)
    place[v] = -1;
  switch (kind)
    {
    case PV_PLANNER_ORT:
      for (int v = 0; s->ort && v < g->n_values; v++)
        {
          int oi = g->values[v].ort_index;
          if (oi >= 0 && oi < s->ort->n_values && s->ort->values[oi].kind != PV_ORT_ALLOC_NOT_SET &&
              s->ort->values[oi].kind != PV_ORT_ALLOC_ALLOCATE_STATICALLY)
            place[v] = s->ort->values[oi].reused_buffer;  /* a root */
        }
      break;
    case PV_PLANNER_SLOTS:
      for (int v = 0; s->slots && !s->slots->deferred && v < g->n_values; v++)
        place[v] = s->slots->slot_of[s->view_root[v]];
      break;
    default:
      if (s->arena && s->arena_values)
        {
          g_autofree gint64 *offset_of = g_new (gint64, MAX (g->n_values, 1));
          for (int v = 0; v < g->n_values; v++)
            offset_of[v] = -1;
          for (int i = 0; i < s->n_arena_values; i++)
            offset_of[s->arena_values[i]] = (gint64) s->arena->offsets[i];
          for (int v = 0; v < g->n_values; v++)
            place[v] = offset_of[s->view_root[v]];
        }
      break;
    }
  return place;
}

/* The ORT planner's fields after "model" (and "subgraph"). */
static void
ort_json (PvJsonWriter *w, const PvSession *s)
{
  gboolean complete = !s->slots->deferred;

  if (s->ort == NULL)
    {
      pv_json_string (w, "status", "refused");
      pv_json_string (w, "error", s->ort_error ? s->ort_error : "");
      return;
    }
  pv_json_string (w, "status", complete ? "complete" : "deferred");
  if (complete)
    {
      pv_json_uint64 (w, "peak_bytes", s->ort_peak_bytes);
      pv_json_uint64 (w, "lower_bound_bytes", s->load_bytes);
      pv_json_number (w, "peak_over_lower_bound",
                      s->load_bytes ? (double) s->ort_peak_bytes / (double) s->load_bytes : 1.0);
      pv_json_uint64 (w, "arena_bytes", s->ort_arena->peak_bytes);
    }
  else
    {
      strv_json (w, "unbound_symbols", s->unbound_symbols);
      shapeless_json (w, s);
    }
  ort_plan_json (w, s);
  ort_arena_json (w, s);
  checker_json (w, s->graph, s->ort_check);
}

/* The slot or arena planner's fields of a complete plan. */
static void
own_plan_json (PvJsonWriter *w, const PvSession *s, PvPlannerKind kind)
{
  const PvGraph *g = s->graph;
  const PvLiveness *live = s->slots->liveness;

  pv_json_string (w, "status", "complete");
  pv_json_uint64 (w, "peak_bytes", peak_of (s, kind));
  pv_json_uint64 (w, "lower_bound_bytes", s->load_bytes);
  pv_json_number (w, "peak_over_lower_bound",
                  s->load_bytes ? (double) peak_of (s, kind) / (double) s->load_bytes : 1.0);
  pv_json_uint64 (w, "naive_bytes", s->slots->naive_bytes);
  if (kind == PV_PLANNER_SLOTS)
    {
      pv_json_begin_array (w, "slots");
      for (int i = 0; i < s->slots->n_slots; i++)
        {
          pv_json_begin_object (w, NULL);
          pv_json_number (w, "id", s->slots->slots[i].id);
          pv_json_uint64 (w, "capacity", s->slots->slots[i].capacity);
          pv_json_end_object (w);
        }
      pv_json_end_array (w);
      pv_json_begin_object (w, "assignments");
      for (int i = 0; i < live->n_owners; i++)
        if (s->slots->slot_of[live->owners[i]] >= 0)
          pv_json_number (w, g->values[live->owners[i]].name, s->slots->slot_of[live->owners[i]]);
      pv_json_end_object (w);
      pv_json_number (w, "savings_ratio", s->slots->savings_ratio);
    }
  else
    {
      pv_json_begin_object (w, "offsets");
      for (int i = 0; i < s->n_arena_values; i++)
        pv_json_uint64 (w, g->values[s->arena_values[i]].name, s->arena->offsets[i]);
      pv_json_end_object (w);
      pv_json_number (w, "alignment", (double) PV_DEFAULT_ALIGNMENT);
      pv_json_string (w, "ordering", s->arena->ordering ? s->arena->ordering : "");
      pv_json_uint64 (w, "proven_lower_bound_bytes", s->arena->bound_bytes);
      pv_json_bool (w, "optimal", s->arena->optimal);
    }
  /* Per value: what the timeline draws. */
  pv_json_begin_array (w, "values");
  for (int i = 0; i < live->n_owners; i++)
    {
      int v = live->owners[i];
      if (s->slots->slot_of[v] < 0)
        continue;
      pv_json_begin_object (w, NULL);
      pv_json_string (w, "name", g->values[v].name);
      pv_json_uint64 (w, "bytes", s->slots->bytes[v]);
      pv_json_number (w, "first_step", live->def[v]);
      pv_json_number (w, "last_step", live->use_end[v]);
      pv_json_end_object (w);
    }
  pv_json_end_array (w);
  checker_json (w, g, check_of (s, kind));
}

/* Written as it goes (pv-json-writer.h), in the layout cJSON_Print() gave:
 * the 95.7k-node model's ORT plan is ~110 MB of JSON. */
char *
pv_plan_export_json (const PvSession *s, PvPlannerKind kind)
{
  const PvGraph *g = s->graph;
  PvJsonWriter w;

  pv_json_writer_init (&w);
  pv_json_begin_object (&w, NULL);
  pv_json_string (&w, "planner", pv_planner_kind_name (kind));
  pv_json_string (&w, "model", s->model->source_name);
  if (g->parent)
    {
      /* A body planned on its own (pv_session_new_for_subgraph). */
      g_autofree char *where = g_strdup_printf ("%s %s", g->parent->nodes[g->parent_node].name,
                                                g->parent_attr ? g->parent_attr : "subgraph");
      pv_json_string (&w, "subgraph", where);
    }
  if (kind == PV_PLANNER_ORT)
    ort_json (&w, s);
  else if (s->slots->deferred)
    {
      pv_json_begin_array (&w, "unknown");
      for (int i = 0; i < s->slots->n_unknown; i++)
        pv_json_string (&w, NULL, g->values[s->slots->unknown[i]].name);
      pv_json_end_array (&w);
      strv_json (&w, "unbound_symbols", s->unbound_symbols);
      pv_json_string (&w, "status", "deferred");
      shapeless_json (&w, s);
    }
  else
    own_plan_json (&w, s, kind);
  pv_json_end_object (&w);
  return pv_json_writer_finish (&w);
}

static char *
human_bytes (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

/* What ORT holds: its CPU arena over the first run and the second. */
static void
ort_run_text (GString *out, const PvOrtArenaRun *run)
{
  g_autofree char *requested = human_bytes (run->peak_requested), *in_use = human_bytes (run->peak_in_use);
  g_autofree char *held = human_bytes (run->held), *reserved = human_bytes (run->reserved_bytes);
  g_autofree char *block = human_bytes (run->pattern_bytes), *held2 = human_bytes (run->second_held);

  g_string_append_printf (out, "ORT holds %s after the first run (%" G_GUINT64_FORMAT " bytes): requested at most %s, "
                          "in use at most %s, %s of it before the first node (initializers, pre-packed weights)%s\n",
                          held, run->held, requested, in_use, reserved,
                          run->settings.cpu_arena ? "" : "; no CPU arena: malloc holds what is in use");
  if (run->has_pattern)
    g_string_append_printf (out, "ORT holds %s in the second run (%" G_GUINT64_FORMAT " bytes), with the memory "
                            "pattern's block of %s\n", held2, run->second_held, block);
  else
    g_string_append_printf (out, "ORT holds %s in the second run (no memory pattern)\n", held2);
  if (run->approximate)
    g_string_append (out, "  (several streams: ORT runs them at once, the arena figures are approximate)\n");
  if (run->unmodelled_ops[0])
    {
      g_autofree char *ops = g_strjoinv (", ", run->unmodelled_ops);
      g_string_append_printf (out, "  scratch not modelled (taken as none) for: %s\n", ops);
    }
}

/* Why a plan has no figure: sizes that wait for bounds, and sizes planviz
 * cannot compute at all (ops with no shape rule), never a figure without
 * them. */
static void
deferred_text (GString *out, const PvSession *s)
{
  const PvSessionBasis *b = s->basis;
  int n_symbolic = s->slots->n_unknown - b->n_shapeless;

  g_string_append_printf (out, "deferred: %d values have a size planviz cannot compute yet; no figure is given\n",
                          s->slots->n_unknown);
  if (b->n_shapeless > 0)
    {
      g_autofree char *ops = b->no_shape_rule[0] ? g_strjoinv (", ", b->no_shape_rule) : NULL;
      g_string_append_printf (out, "  %d have no known shape or type%s%s\n", b->n_shapeless,
                              ops ? ": planviz has no shape rule for " : "", ops ? ops : "");
    }
  if (n_symbolic > 0)
    {
      g_string_append_printf (out, "  %d depend on unbound symbols:", n_symbolic);
      for (int i = 0; s->unbound_symbols && s->unbound_symbols[i]; i++)
        g_string_append_printf (out, " %s", s->unbound_symbols[i]);
      g_string_append (out, "\n  bind them with --bound SYMBOL=N\n");
    }
}

/* The values ORT 1.30 plans at random (several streams on a device), the
 * first few by name. */
static void
order_dependent_text (GString *out, const PvSession *s)
{
  const PvOrtPlan *plan = s->ort;
  int n = 0;

  for (int i = 0; i < plan->n_values; i++)
    n += plan->values[i].order_dependent;
  if (n == 0)
    return;
  g_string_append_printf (out, "ORT 1.30 plans %d value%s at random (its multi-stream pass walks hash maps seeded per "
                               "process: another run may allocate %s or reuse another buffer):",
                          n, n == 1 ? "" : "s", n == 1 ? "it" : "them");
  for (int i = 0, shown = 0; i < plan->n_values && shown < 8; i++)
    if (plan->values[i].order_dependent)
      g_string_append_printf (out, "%s %s", shown++ ? "," : "", s->graph->values[plan->values[i].value].name);
  g_string_append (out, n > 8 ? ", …\n" : "\n");
}

char *
pv_plan_export_text (const PvSession *s, PvPlannerKind kind)
{
  const PvGraph *g = s->graph;
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "%s: %s planner\n", s->model->source_name,
                          kind == PV_PLANNER_ORT ? "ONNX Runtime 1.30's" : kind == PV_PLANNER_SLOTS ? "slot" : "arena");
  if (kind == PV_PLANNER_ORT)
    {
      if (s->ort == NULL)
        {
          g_string_append_printf (out, "no plan: %s\n", s->ort_error ? s->ort_error : "");
          return g_string_free (out, FALSE);
        }
      if (s->partition_check)
        g_string_append_printf (out, "partition: %s\n", s->partition_check->summary);
      g_string_append_printf (out, "%d logic stream%s%s\n", s->ort->n_streams, s->ort->n_streams == 1 ? "" : "s",
                              s->ort->single_stream ? "" : " (several on one device: ORT disables in-place reuse per "
                                                           "stream, then reuses by serialized shape size)");
      order_dependent_text (out, s);
      if (!s->slots->deferred)
        {
          g_autofree char *peak = human_bytes (s->ort_peak_bytes), *arena = human_bytes (s->ort_arena->peak_bytes);
          g_autofree char *load = human_bytes (s->load_bytes);
          g_string_append_printf (out, "ORT reserves %s (the sum of its buffers); in one arena %s; lower bound (LOAD) %s\n",
                                  peak, arena, load);
        }
      else
        deferred_text (out, s);
      if (s->ort_run && s->slots->deferred)
        g_string_append (out, "ORT's arena, simulated counting nothing for the values of unknown size (not ORT's figures):\n");
      if (s->ort_run)
        ort_run_text (out, s->ort_run);
      g_string_append_printf (out, "checker: %s\n", s->ort_check->ok ? "safe"
                                                   : "UNSAFE: ONNX Runtime 1.30 makes this plan itself and runs it");
      for (int i = 0; i < s->ort_check->n_violations; i++)
        g_string_append_printf (out, "  %s\n    %s\n", s->ort_check->violations[i].message,
                                pv_violation_effect (s->ort_check->violations[i].kind));
      for (int i = 0; s->ort->notes && s->ort->notes[i]; i++)
        g_string_append_printf (out, "ORT prints: %s\n", s->ort->notes[i]);
      /* Appended in place: the 95.7k-node model's printout is 27 MB. */
      g_string_append_c (out, '\n');
      pv_ort_plan_append_ort_text (s->ort, out);
      return g_string_free (out, FALSE);
    }
  if (s->slots->deferred)
    {
      deferred_text (out, s);
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
      {
        g_autofree char *bound = human_bytes (s->arena->bound_bytes);
        g_string_append_printf (out, "%d buffers in one arena, %d-byte aligned (best ordering: %s); ", s->n_arena_values,
                                PV_DEFAULT_ALIGNMENT, s->arena->ordering);
        if (s->arena->optimal)
          g_string_append_printf (out, "optimal (the best bound, %s, is reached)\n", bound);
        else
          g_string_append_printf (out, "within %.2f%% of the best bound, %s\n",
                                  100.0 * ((double) s->arena->peak_bytes / (double) s->arena->bound_bytes - 1.0), bound);
      }
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
