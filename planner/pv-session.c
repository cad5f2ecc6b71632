#include "pv-session.h"

#include <string.h>

#include "pv-cost-model.h"
#include "pv-happens-before.h"
#include "pv-kernel-adapter.h"
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
  pv_partition_check_free (session->partition_check);
  pv_partition_config_free (session->partition);
  pv_ort_plan_free (session->ort);
  g_free (session->ort_error);
  pv_schedule_free (session->schedule);
  g_free (session->value_bytes);
  pv_check_result_free (session->ort_check);
  pv_offset_plan_free (session->ort_arena);
  g_free (session->ort_arena_values);
  g_free (session);
}

/* ---- ORT's plan, schedule and checks ---- */

static void
plan_ort (PvSession *s, const PvGraph *g, const PvSessionOptions *options, GHashTable *bounds)
{
  g_autoptr (PvKernelAdapter) adapter = pv_kernel_adapter_new (s->kernels);
  g_autofree int *node_stream = g_new0 (int, MAX (g->n_nodes, 1));
  g_autofree int *stream_device = NULL;
  g_autoptr (GError) error = NULL;
  PvStreamPartition partition;
  const PvPartitionConfig *config;

  if (options && options->partition_text)
    s->partition_check = pv_partition_config_check (g, options->partition_text, options->partition_len,
                                                    options->node_devices);
  if (s->partition_check && (s->partition_check->verdict == PV_ORT_REJECTS ||
                             s->partition_check->verdict == PV_ORT_CRASHES))
    {
      s->ort_error = g_strdup (s->partition_check->summary);
      return;
    }
  if (s->partition_check && s->partition_check->effective && !s->partition_check->effective_is_default)
    config = s->partition_check->effective;
  else
    config = s->partition = pv_partition_config_default (g, options ? options->node_devices : NULL);

  stream_device = g_new0 (int, MAX (config->n_streams, 1));
  for (int st = 0; st < config->n_streams; st++)
    {
      stream_device[st] = config->streams[st].device;
      for (int k = 0; k < config->streams[st].n_nodes; k++)
        node_stream[config->streams[st].nodes[k]] = st;
    }
  {
    g_autofree int *node_device = g_new0 (int, MAX (g->n_nodes, 1));
    if (options && options->node_devices)
      memcpy (node_device, options->node_devices, sizeof (int) * g->n_nodes);
    partition = (PvStreamPartition) { MAX (config->n_streams, 1), stream_device, node_stream, node_device };
    s->ort = pv_ort_plan_new (g, s->shapes, &partition, options ? options->registry : PV_REGISTRY_CPU,
                              pv_kernel_adapter_lookup, adapter, &error);
  }
  if (s->ort == NULL)
    {
      s->ort_error = g_strdup (error->message);
      return;
    }

  /* Sizes of every value that has one. */
  s->value_bytes = g_new0 (guint64, MAX (g->n_values, 1));
  for (int v = 0; v < g->n_values; v++)
    pv_shape_info_eval_bytes (s->shapes, g, v, bounds, &s->value_bytes[v], NULL);
  {
    g_autofree int *value_device = g_new0 (int, MAX (g->n_values, 1));
    for (int i = 0; i < s->ort->n_values; i++)
      value_device[s->ort->values[i].value] = s->ort->values[i].location.type;
    /* The curve counts what owns memory, as LOAD does: no views, no inputs
     * unless planned. */
    g_autofree guint64 *owned = g_new0 (guint64, MAX (g->n_values, 1));
    for (int v = 0; v < g->n_values; v++)
      if (g->values[v].producer >= 0 && s->view_source[v] < 0)
        owned[v] = s->value_bytes[v];
    /* 1 TFLOP/s and 100 GB/s: a laptop-class CPU; only ratios matter. */
    PvRooflineCost roofline = { s->shapes, bounds, 1e6, 1e5 };
    s->schedule = pv_schedule_new (s->ort, owned, value_device,
                                   options && options->roofline_cost ? pv_roofline_cost : NULL, &roofline);
  }

}

/* The checker on ORT's plan, and ORT's buffers packed in one arena. Needs
 * the slot planner's liveness for the packing. */
static void
check_ort (PvSession *s, const PvGraph *g, const PvSessionOptions *options)
{
  /* ORT's buffers as placements: every value planned into its root buffer. */
  {
    g_autofree PvPlacement *place = g_new (PvPlacement, MAX (g->n_values, 1));
    g_autofree guint64 *need = g_new0 (guint64, MAX (g->n_values, 1));
    g_autofree int *node_position = g_new0 (int, MAX (g->n_nodes, 1));
    GArray *buffers = g_array_new (FALSE, FALSE, sizeof (PvBufferLife));
    GArray *roots = g_array_new (FALSE, FALSE, sizeof (int));
    PvCheckSchedule check_schedule;

    for (int v = 0; v < g->n_values; v++)
      place[v] = (PvPlacement) { -1, 0, 0 };
    for (int i = 0; i < s->ort->n_values; i++)
      {
        const PvOrtValuePlan *vp = &s->ort->values[i];
        const PvOrtValuePlan *root = &s->ort->values[vp->reused_buffer];
        gboolean owned = root->kind == PV_ORT_ALLOC_ALLOCATE || root->kind == PV_ORT_ALLOC_ALLOCATE_OUTPUT;
        if (!owned || (vp->kind != PV_ORT_ALLOC_ALLOCATE && vp->kind != PV_ORT_ALLOC_REUSE &&
                       vp->kind != PV_ORT_ALLOC_ALLOCATE_OUTPUT))
          continue;
        /* Unknown sizes (unbound symbols) still share whole buffers. */
        place[vp->value] = (PvPlacement) { vp->reused_buffer, 0, MAX (s->value_bytes[root->value], 1) };
        need[vp->value] = s->value_bytes[vp->value];
        if (vp->reused_buffer == i && root->kind == PV_ORT_ALLOC_ALLOCATE)
          s->ort_peak_bytes += s->value_bytes[vp->value];
      }
    for (int st = 0; st < s->ort->n_streams; st++)
      for (int k = 0; k < s->ort->streams[st].n_nodes; k++)
        node_position[s->ort->streams[st].nodes[k]] = k;
    check_schedule = (PvCheckSchedule) { s->ort->node_stream, node_position,
                                         (const int (*)[2]) s->schedule->sync_edges, s->schedule->n_sync_edges };
    /* Views are what ORT's plan aliased: on several streams ORT disables
     * aliasing and an Identity copies into a buffer of its own. */
    {
      g_autofree int *ort_views = g_new (int, MAX (g->n_values, 1));
      for (int v = 0; v < g->n_values; v++)
        ort_views[v] = -1;
      for (int i = 0; i < s->ort->n_values; i++)
        {
          const PvOrtValuePlan *vp = &s->ort->values[i];
          const PvNode *producer;
          if (vp->reuse_rule != PV_ORT_REUSE_ALIAS && vp->reuse_rule != PV_ORT_REUSE_VARIADIC_ALIAS)
            continue;
          /* The aliased input is the producer's input in the same buffer (not
           * the buffer's first occupant, which may be long dead). */
          producer = &g->nodes[g->values[vp->value].producer];
          for (int k = 0; k < producer->n_inputs && ort_views[vp->value] < 0; k++)
            {
              int w = producer->inputs[k];
              if (w >= 0 && g->values[w].ort_index >= 0 &&
                  s->ort->values[g->values[w].ort_index].reused_buffer == vp->reused_buffer)
                ort_views[vp->value] = w;
            }
        }
      s->ort_check = pv_plan_check (g, &check_schedule, place, ort_views, s->inplace_source, need, 100);
    }

    /* What ORT's buffers would cost in one arena: each root buffer lives from
     * the first definition to the last read among the values it holds. */
    {
      g_autofree int *first = g_new (int, MAX (s->ort->n_values, 1));
      g_autofree int *last = g_new (int, MAX (s->ort->n_values, 1));
      for (int i = 0; i < s->ort->n_values; i++)
        first[i] = G_MAXINT, last[i] = -1;
      for (int v = 0; v < g->n_values; v++)
        {
          int r = place[v].region;
          const PvLiveness *live = s->slots->liveness;
          int def, end;
          if (r < 0)
            continue;
          def = g->values[v].producer >= 0 ? g->nodes[g->values[v].producer].order_position : -1;
          end = live->root[v] >= 0 && live->use_end[live->root[v]] >= 0 ? live->use_end[live->root[v]] : def;
          first[r] = MIN (first[r], def);
          last[r] = MAX (last[r], MAX (end, def));
        }
      for (int i = 0; i < s->ort->n_values; i++)
        if (last[i] >= 0 && s->ort->values[i].kind == PV_ORT_ALLOC_ALLOCATE)
          {
            PvBufferLife b = { s->value_bytes[s->ort->values[i].value], first[i], last[i] };
            int value = s->ort->values[i].value;
            g_array_append_val (buffers, b);
            g_array_append_val (roots, value);
          }
      s->ort_arena = pv_offset_plan_new ((PvBufferLife *) buffers->data, (int) buffers->len,
                                         options && options->alignment ? options->alignment : PV_DEFAULT_ALIGNMENT);
      s->n_ort_arena_values = (int) roots->len;
      s->ort_arena_values = (int *) g_array_free (roots, FALSE);
      g_array_unref (buffers);
    }
  }
}


/* The slot plan as placements: one region per slot. */
static void
check_slots (PvSession *s, const PvGraph *g, const PvCheckSchedule *schedule)
{
  g_autofree PvPlacement *place = g_new (PvPlacement, MAX (g->n_values, 1));
  g_autofree guint64 *need = g_new0 (guint64, MAX (g->n_values, 1));

  for (int v = 0; v < g->n_values; v++)
    {
      int slot = s->slots->slot_of[v];
      place[v] = slot >= 0 ? (PvPlacement) { slot, 0, s->slots->slots[slot].capacity } : (PvPlacement) { -1, 0, 0 };
      need[v] = slot >= 0 ? s->slots->bytes[v] : 0;
    }
  s->slots_check = pv_plan_check (g, schedule, place, s->view_source, NULL, need, 100);
}

/* Arena offsets for the slot planner's owners and lifetimes. */
static void
plan_arena (PvSession *s, const PvGraph *g, guint64 alignment, const PvCheckSchedule *schedule)
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
  s->arena_check = pv_plan_check (g, schedule, place, s->view_source, NULL, need, 100);
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

  /* ORT's plan first (it needs no bounds: ORT compares shapes
   * symbolically); its streams decide how the other plans must be checked. */
  plan_ort (s, g, options, bounds);
  {
    g_autofree int *node_position = g_new0 (int, MAX (g->n_nodes, 1));
    g_autoptr (PvHappensBefore) hb = NULL;
    PvCheckSchedule schedule = { 0 }, *sched = NULL;
    gboolean inputs = options && options->include_graph_inputs;

    if (s->ort && s->ort->n_streams > 1)
      {
        for (int st = 0; st < s->ort->n_streams; st++)
          for (int k = 0; k < s->ort->streams[st].n_nodes; k++)
            node_position[s->ort->streams[st].nodes[k]] = k;
        schedule = (PvCheckSchedule) { s->ort->node_stream, node_position,
                                       (const int (*)[2]) s->schedule->sync_edges, s->schedule->n_sync_edges };
        sched = &schedule;
        hb = pv_happens_before_new (g, schedule.node_stream, schedule.node_position, schedule.sync_edges,
                                    schedule.n_sync_edges);
      }
    sizes = (PvShapeSizes) { s->shapes, g, bounds };
    s->slots = pv_slot_plan_new_for_streams (g, s->view_source, inputs, hb, pv_shape_sizes_oracle, &sizes);
    if (s->slots->deferred)
      s->unbound_symbols = pv_slot_plan_unbound_symbols (s->slots, g, s->shapes, bounds);
    else
      {
        check_slots (s, g, sched);
        plan_arena (s, g, options && options->alignment ? options->alignment : PV_DEFAULT_ALIGNMENT, sched);
        /* With streams, the bound is what the simulated run holds at once. */
        if (sched)
          {
            s->load_bytes = 0;
            for (int c = 0; c < s->schedule->n_curves; c++)
              s->load_bytes = MAX (s->load_bytes, s->schedule->curves[c].peak_bytes);
          }
      }
    if (s->ort)
      check_ort (s, g, options);
  }
  s->plan_ms = (g_get_monotonic_time () - t0) / 1000.0;
  return g_steal_pointer (&s);
}
