#include "pv-session.h"

#include "pv-value-aliases.h"

void
pv_session_free (PvSession *session)
{
  if (session == NULL)
    return;
  pv_shape_info_free (session->shapes);
  g_free (session->view_source);
  g_free (session->inplace_source);
  pv_slot_plan_free (session->slots);
  pv_check_result_free (session->slots_check);
  g_strfreev (session->unbound_symbols);
  pv_offset_plan_free (session->arena);
  g_free (session->arena_values);
  pv_check_result_free (session->arena_check);
  g_free (session);
}

/* The slot plan as placements: one region per slot. */
static void
check_slots (PvSession *s, const PvGraph *g)
{
  g_autofree PvPlacement *place = g_new (PvPlacement, MAX (g->n_values, 1));
  g_autofree guint64 *need = g_new0 (guint64, MAX (g->n_values, 1));

  for (int v = 0; v < g->n_values; v++)
    {
      int slot = s->slots->slot_of[v];
      place[v] = slot >= 0 ? (PvPlacement) { slot, 0, s->slots->slots[slot].capacity } : (PvPlacement) { -1, 0, 0 };
      need[v] = slot >= 0 ? s->slots->bytes[v] : 0;
    }
  s->slots_check = pv_plan_check (g, NULL, place, s->view_source, NULL, need, 100);
}

/* Arena offsets for the slot planner's owners and lifetimes. */
static void
plan_arena (PvSession *s, const PvGraph *g, guint64 alignment)
{
  const PvLiveness *live = s->slots->liveness;
  g_autofree PvBufferLife *buffers = g_new (PvBufferLife, MAX (live->n_owners, 1));
  g_autofree PvPlacement *place = g_new (PvPlacement, MAX (g->n_values, 1));
  g_autofree guint64 *need = g_new0 (guint64, MAX (g->n_values, 1));

  s->arena_values = g_new (int, MAX (live->n_owners, 1));
  for (int i = 0; i < live->n_owners; i++)
    {
      int v = live->owners[i];
      if (s->slots->slot_of[v] < 0)
        continue;
      buffers[s->n_arena_values] = (PvBufferLife) { s->slots->bytes[v], live->def[v], live->use_end[v] };
      s->arena_values[s->n_arena_values++] = v;
    }
  s->arena = pv_offset_plan_new (buffers, s->n_arena_values, alignment);
  s->load_bytes = pv_buffers_load (buffers, s->n_arena_values, 1);
  for (int v = 0; v < g->n_values; v++)
    place[v] = (PvPlacement) { -1, 0, 0 };
  for (int i = 0; i < s->n_arena_values; i++)
    {
      int v = s->arena_values[i];
      place[v] = (PvPlacement) { 0, s->arena->offsets[i], s->slots->bytes[v] };
      need[v] = s->slots->bytes[v];
    }
  s->arena_check = pv_plan_check (g, NULL, place, s->view_source, NULL, need, 100);
}

PvSession *
pv_session_new (const PvModel *model, const PvKernelTable *kernels, const PvSessionOptions *options, GError **error)
{
  g_autoptr (PvSession) s = g_new0 (PvSession, 1);
  const PvGraph *g = model->graph;
  PvShapeOptions shape_options = { 0 };
  PvShapeSizes sizes;
  gint64 t0 = g_get_monotonic_time ();
  GHashTable *bounds = options ? options->bounds : NULL;

  s->model = model;
  s->kernels = kernels;
  shape_options.bounds = bounds;
  shape_options.input_shapes = options ? options->input_shapes : NULL;
  s->shapes = pv_shape_infer (model, &shape_options, error);
  if (s->shapes == NULL)
    return NULL;
  s->view_source = pv_value_view_map (g, kernels);
  s->inplace_source = pv_value_inplace_map (g, kernels);

  sizes = (PvShapeSizes) { s->shapes, g, bounds };
  s->slots = pv_slot_plan_new (g, s->view_source, options && options->include_graph_inputs, pv_shape_sizes_oracle,
                               &sizes);
  if (s->slots->deferred)
    {
      guint64 ignored;
      pv_slot_plan_peak_at_bounds (g, s->shapes, s->view_source, options && options->include_graph_inputs, bounds,
                                   &ignored, &s->unbound_symbols);
    }
  else
    {
      check_slots (s, g);
      plan_arena (s, g, options && options->alignment ? options->alignment : PV_DEFAULT_ALIGNMENT);
    }
  s->plan_ms = (g_get_monotonic_time () - t0) / 1000.0;
  return g_steal_pointer (&s);
}
