/* pv-session.c: every plan of one graph, on the basis it shares. */
#include "pv-session.h"

#include <string.h>

#include "pv-cost-model.h"
#include "pv-happens-before.h"
#include "pv-kernel-adapter.h"
#include "pv-value-aliases.h"

/* Adds the time since *@lap to @stage and restarts the lap. */
static void
stage_done (PvSession *s, PvSessionStage stage, gint64 *lap)
{
  gint64 now = g_get_monotonic_time ();
  s->stage_ms[stage] += (now - *lap) / 1000.0;
  *lap = now;
}

void
pv_session_free (PvSession *session)
{
  if (session == NULL)
    return;
  pv_session_basis_unref (session->basis);
  pv_slot_plan_free (session->slots);
  pv_check_result_free (session->slots_check);
  g_strfreev (session->unbound_symbols);
  pv_arena_plan_free (session->arena);
  g_free (session->arena_values);
  pv_check_result_free (session->arena_check);
  pv_partition_check_free (session->partition_check);
  pv_partition_config_free (session->partition);
  pv_ort_plan_free (session->ort);
  g_free (session->ort_error);
  pv_schedule_free (session->schedule);
  pv_check_result_free (session->ort_check);
  pv_arena_plan_free (session->ort_arena);
  g_free (session->ort_arena_values);
  pv_ort_arena_run_free (session->ort_run);
  g_free (session);
}

/* ---- ORT's plan, schedule and checks ---- */

/* ORT plans a subgraph with an empty partition config path
 * (allocation_planner.cc: `parent_node_ ? PathString{} : partition_config_file`):
 * the default partition, one stream on the device of the node that owns the
 * subgraph (pv_ort_plan_new_subgraph() puts every body node there). */
static gboolean
plan_ort_subgraph (PvSession *s, const PvGraph *g, const PvSessionOptions *options, const PvOrtPlan *parent_plan)
{
  g_autoptr (PvKernelAdapter) adapter = pv_kernel_adapter_new (s->kernels);
  g_autofree int *node_device = g_new (int, MAX (g->n_nodes, 1));
  g_autoptr (GError) error = NULL;
  gint64 lap = g_get_monotonic_time ();

  for (int n = 0; n < g->n_nodes; n++)
    node_device[n] = parent_plan->node_device[g->parent_node];
  s->partition = pv_partition_config_default (g, node_device);
  s->ort = pv_ort_plan_new_subgraph (g, s->ort_shapes, parent_plan, options ? options->registry : PV_REGISTRY_CPU,
                                     pv_kernel_adapter_lookup, adapter, &error);
  stage_done (s, PV_SESSION_STAGE_ORT_PLAN, &lap);
  if (s->ort == NULL)
    s->ort_error = g_strdup (error->message);
  return s->ort != NULL;
}

static gboolean
plan_ort_main (PvSession *s, const PvGraph *g, const PvSessionOptions *options)
{
  g_autofree int *node_stream = g_new0 (int, MAX (g->n_nodes, 1));
  g_autofree int *stream_device = NULL;
  g_autoptr (GError) error = NULL;
  PvStreamPartition partition;
  const PvPartitionConfig *config;
  gint64 lap = g_get_monotonic_time ();

  /* Past the limit a config costs gigabytes to check (the window's way in;
   * the CLI refuses it on reading). */
  if (options && options->partition_text && options->partition_len > pv_partition_config_size_limit (g))
    {
      g_autofree char *size = g_format_size_full (options->partition_len, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *max = g_format_size_full (pv_partition_config_size_limit (g), G_FORMAT_SIZE_IEC_UNITS);
      s->ort_error = g_strdup_printf ("the partition config is %s, larger than the %s planviz reads for this "
                                      "%d-node model", size, max, g->n_nodes);
      return FALSE;
    }
  if (options && options->partition_text)
    s->partition_check = pv_partition_config_check (g, options->partition_text, options->partition_len,
                                                    options->node_devices);
  if (s->partition_check && (s->partition_check->verdict == PV_ORT_REJECTS ||
                             s->partition_check->verdict == PV_ORT_CRASHES))
    {
      s->ort_error = g_strdup (s->partition_check->summary);
      return FALSE;
    }
  if (s->partition_check && s->partition_check->effective && !s->partition_check->effective_is_default)
    config = s->partition_check->effective;
  else
    config = s->partition = pv_partition_config_default (g, options ? options->node_devices : NULL);

  stage_done (s, PV_SESSION_STAGE_CONFIG_CHECK, &lap);
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
    s->ort = pv_ort_plan_new_on_basis (s->basis->ort, &partition,
                                       options ? options->registry : PV_REGISTRY_CPU, &error);
  }
  stage_done (s, PV_SESSION_STAGE_ORT_PLAN, &lap);
  if (s->ort == NULL)
    {
      s->ort_error = g_strdup (error->message);
      return FALSE;
    }
  return TRUE;
}


/* The simulated run of ORT's plan (needs the view map and the sizes). */
static void
schedule_ort (PvSession *s, const PvGraph *g, const PvSessionOptions *options, GHashTable *bounds)
{
  gint64 lap = g_get_monotonic_time ();

  {
    g_autofree int *value_device = g_new0 (int, MAX (g->n_values, 1));
    for (int i = 0; i < s->ort->n_values; i++)
      value_device[s->ort->values[i].value] = s->ort->values[i].location.type;
    /* The curve counts what owns memory, as LOAD does: no views, no inputs
     * unless planned. */
    g_autofree guint64 *owned = g_new0 (guint64, MAX (g->n_values, 1));
    for (int v = 0; v < g->n_values; v++)
      if (g->values[v].producer >= 0 && s->view_root[v] == v)
        owned[v] = s->value_bytes[v];
    /* 1 TFLOP/s and 100 GB/s: a laptop-class CPU; only ratios matter. */
    PvRooflineCost roofline = { s->shapes, bounds, 1e6, 1e5 };
    s->schedule = pv_schedule_new (s->ort, owned, value_device, s->view_root,
                                   options && options->roofline_cost ? pv_roofline_cost : NULL, &roofline);
  }
  stage_done (s, PV_SESSION_STAGE_SCHEDULE, &lap);
}

/* What ORT's CPU arena does over the first two runs of the main graph. */
static void
simulate_ort_run (PvSession *s, const PvGraph *g, const PvSessionOptions *options)
{
  gint64 lap = g_get_monotonic_time ();
  PvOrtArenaSettings settings;
  g_autofree guint8 *known = g_new0 (guint8, MAX (g->n_values, 1));
  PvOrtKernelEnv env = { g, s->shapes, s->basis->bounds, 1 };
  PvOrtArenaInput input = { s->ort, &env, s->value_bytes, known, &settings };

  if (options && options->ort_arena)
    settings = *options->ort_arena;
  else
    pv_ort_arena_settings_init (&settings);
  settings.intra_op_threads = env.threads = MAX (settings.intra_op_threads, 1);
  for (int v = 0; v < g->n_values; v++)
    known[v] = s->basis->size_kind[v] == PV_SIZE_KNOWN;
  s->ort_run = pv_ort_arena_run_new (&input, NULL);
  stage_done (s, PV_SESSION_STAGE_ORT_RUN, &lap);
}

/* ORT's buffers as placements, every value planned into its root buffer
 * (@place), and what each value needs of it (@need); n_values each. Sums
 * ORT's peak on the way. */
static void
ort_placements (PvSession *s, const PvGraph *g, PvPlacement *place, guint64 *need)
{
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
}

/* The checker on ORT's plan (ort_placements()), in @order when given, else
 * in the one @check_schedule makes. */
static void
check_ort (PvSession *s, const PvGraph *g, const PvCheckSchedule *check_schedule, const PvHappensBefore *order,
           const PvPlacement *place, const guint64 *need)
{
  gint64 lap = g_get_monotonic_time ();
  /* Views are what ORT's plan aliased: on several streams ORT disables
   * aliasing and an Identity copies into a buffer of its own. */
  g_autofree int *ort_views = g_new (int, MAX (g->n_values, 1));
  g_autofree int *ort_roots = NULL;

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
  ort_roots = pv_value_view_roots (ort_views, g->n_values);
  s->ort_check = order ? pv_plan_check_in_order (g, order, place, ort_roots, s->inplace_source, need, 100)
                       : pv_plan_check (g, check_schedule, place, ort_roots, s->inplace_source, need, 100);
  stage_done (s, PV_SESSION_STAGE_ORT_CHECK, &lap);
}

/* ORT's buffers (@place, from ort_placements()) as lifetimes to pack in
 * one arena, into @buffers: each root buffer lives from the first
 * definition to the last read among the values it holds (in the slot
 * planner's lifetimes, @live). Sets the session's ort_arena_values. */
static void
ort_arena_buffers (PvSession *s, const PvGraph *g, const PvPlacement *place, const PvLiveness *live, GArray *buffers)
{
  GArray *roots = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree int *first = g_new (int, MAX (s->ort->n_values, 1));
  g_autofree int *last = g_new (int, MAX (s->ort->n_values, 1));

  for (int i = 0; i < s->ort->n_values; i++)
    first[i] = G_MAXINT, last[i] = -1;
  for (int v = 0; v < g->n_values; v++)
    {
      int r = place[v].region;
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
  s->n_ort_arena_values = (int) roots->len;
  s->ort_arena_values = (int *) g_array_free (roots, FALSE);
}


/* The slot plan as placements: one region per slot, checked in @order. */
static void
check_slots (PvSession *s, const PvGraph *g, const PvHappensBefore *order)
{
  g_autofree PvPlacement *place = g_new (PvPlacement, MAX (g->n_values, 1));
  g_autofree guint64 *need = g_new0 (guint64, MAX (g->n_values, 1));
  gint64 lap = g_get_monotonic_time ();

  for (int v = 0; v < g->n_values; v++)
    {
      int slot = s->slots->slot_of[v];
      place[v] = slot >= 0 ? (PvPlacement) { slot, 0, s->slots->slots[slot].capacity } : (PvPlacement) { -1, 0, 0 };
      need[v] = slot >= 0 ? s->slots->bytes[v] : 0;
    }
  s->slots_check = pv_plan_check_in_order (g, order, place, s->view_root, NULL, need, 100);
  stage_done (s, PV_SESSION_STAGE_SLOTS_CHECK, &lap);
}

/* Arena offsets for the slot planner's owners and lifetimes, checked in
 * @order. */
static void
plan_arena (PvSession *s, const PvGraph *g, guint64 alignment, const PvHappensBefore *order)
{
  const PvLiveness *live = s->slots->liveness;
  g_autofree PvBufferLife *buffers = g_new (PvBufferLife, MAX (live->n_owners, 1));
  g_autofree PvPlacement *place = g_new (PvPlacement, MAX (g->n_values, 1));
  g_autofree guint64 *need = g_new0 (guint64, MAX (g->n_values, 1));
  gint64 lap = g_get_monotonic_time ();

  s->arena_values = g_new (int, MAX (live->n_owners, 1));
  for (int i = 0; i < live->n_owners; i++)
    {
      int v = live->owners[i];
      if (s->slots->slot_of[v] < 0)
        continue;
      buffers[s->n_arena_values] = (PvBufferLife) { s->slots->bytes[v], live->def[v], live->use_end[v] };
      s->arena_values[s->n_arena_values++] = v;
    }
  s->arena = pv_arena_plan_new (buffers, s->n_arena_values, alignment);
  s->load_bytes = pv_buffers_load (buffers, s->n_arena_values, 1);
  stage_done (s, PV_SESSION_STAGE_ARENA, &lap);
  for (int v = 0; v < g->n_values; v++)
    place[v] = (PvPlacement) { -1, 0, 0 };
  for (int i = 0; i < s->n_arena_values; i++)
    {
      int v = s->arena_values[i];
      place[v] = (PvPlacement) { 0, s->arena->offsets[i], s->slots->bytes[v] };
      need[v] = s->slots->bytes[v];
    }
  s->arena_check = pv_plan_check_in_order (g, order, place, s->view_root, NULL, need, 100);
  stage_done (s, PV_SESSION_STAGE_ARENA_CHECK, &lap);
}

/* ORT's arena and check: what they read, and which line takes the check
 * (whichever is free first). Both lines pack the arena's orderings. */
typedef struct {
  const PvCheckSchedule *schedule;
  const PvHappensBefore *order;  /* NULL: the check makes it from schedule */
  const PvPlacement *place;
  const guint64 *need;
  PvArenaPacking *packing;
  gint check_taken;              /* atomic */
} OrtWork;

static void
take_ort_check (PvSession *s, const PvGraph *g, OrtWork *work)
{
  if (g_atomic_int_compare_and_exchange (&work->check_taken, FALSE, TRUE))
    check_ort (s, g, work->schedule, work->order, work->place, work->need);
}

/* ORT's arena packed beside the main line of plan_graph() on a second
 * core (then the check of ORT's plan, if still untaken): it reads what is
 * made before it starts and writes fields of its own. */
typedef struct {
  PvSession *s;
  const PvSessionOptions *options;
  gboolean ort_run;          /* simulate ORT's CPU arena first (main graphs) */
  GCancellable *cancellable;
  OrtWork *ort;
  GThread *thread;
} Job;

static gpointer
run_job (gpointer data)
{
  Job *job = data;
  gint64 lap;

  /* ORT's CPU arena first (main graphs only): the caller's line packs the
   * orderings meanwhile. */
  if (job->ort_run && !g_cancellable_is_cancelled (job->cancellable))
    simulate_ort_run (job->s, job->s->graph, job->options);
  lap = g_get_monotonic_time ();
  pv_arena_packing_work (job->ort->packing);
  stage_done (job->s, PV_SESSION_STAGE_ORT_ARENA, &lap);
  take_ort_check (job->s, job->s->graph, job->ort);
  return NULL;
}

/* Starts @job on a thread of its own, or runs it now when none can be made. */
static void
job_start (Job *job)
{
  job->thread = g_thread_try_new ("pv-session", run_job, job, NULL);
  if (job->thread == NULL)
    run_job (job);
}

static void
job_finish (Job *job)
{
  if (job->thread)
    g_thread_join (g_steal_pointer (&job->thread));
}

static void
progress (const PvSessionOptions *options, PvSessionStage stage)
{
  if (options && options->progress)
    options->progress (options->progress_data, stage);
}

/* Where each node runs (its stream and its place in it) and how the streams
 * synchronise, for the checks; @node_position has room for every node. */
static PvCheckSchedule
ort_check_schedule (const PvSession *s, int *node_position)
{
  for (int st = 0; st < s->ort->n_streams; st++)
    for (int k = 0; k < s->ort->streams[st].n_nodes; k++)
      node_position[s->ort->streams[st].nodes[k]] = k;
  return (PvCheckSchedule) { s->ort->node_stream, node_position, (const int (*)[2]) s->ort->sync_edges,
                             s->ort->n_sync_edges };
}

/* The slot plan on @live (taken), then, unless deferred, its check and the
 * arena plan in @order (made here on one stream). */
static void
plan_slots_and_arena (PvSession *s, const PvSessionOptions *options, PvLiveness *live, PvHappensBefore **order,
                      gboolean streams, GCancellable *cancellable, gint64 *lap)
{
  const PvGraph *g = s->graph;

  progress (options, PV_SESSION_STAGE_SLOTS);
  s->slots = pv_slot_plan_new_for_liveness (g, live, pv_session_basis_size, s->basis);
  stage_done (s, PV_SESSION_STAGE_SLOTS, lap);
  if (s->slots->deferred)
    {
      s->unbound_symbols = g_strdupv (s->basis->unbound_symbols);
      return;
    }
  if (g_cancellable_is_cancelled (cancellable))
    return;
  if (*order == NULL)
    *order = pv_happens_before_new (g, NULL, NULL, NULL, 0);
  progress (options, PV_SESSION_STAGE_SLOTS_CHECK);
  check_slots (s, g, *order);
  if (g_cancellable_is_cancelled (cancellable))
    return;
  progress (options, PV_SESSION_STAGE_ARENA);
  plan_arena (s, g, options && options->alignment ? options->alignment : PV_DEFAULT_ALIGNMENT, *order);
  /* With streams, the bound is what the simulated run holds at once. */
  if (streams)
    {
      s->load_bytes = 0;
      for (int c = 0; c < s->schedule->n_curves; c++)
        s->load_bytes = MAX (s->load_bytes, s->schedule->curves[c].peak_bytes);
    }
  *lap = g_get_monotonic_time ();
}

/* Every plan of @s->graph on its basis (@s has it).
 *
 * Two lines of work: ORT's plan, the simulated run, then the slot plan, its
 * checks and arena on the caller's thread; beside them, once the lifetimes
 * exist, ORT's arena. The check of ORT's plan goes to the line free first,
 * and the caller's line, once done, packs the orderings of ORT's arena
 * still left. Between stages, @cancellable stops it. */
static PvSession *
plan_graph (PvSession *session, const PvSessionOptions *options, const PvOrtPlan *parent_plan,
            GCancellable *cancellable, GError **error, gint64 t0)
{
  g_autoptr (PvSession) s = session;
  const PvGraph *g = s->graph;
  gint64 lap;
  g_autofree PvPlacement *ort_place = g_new (PvPlacement, MAX (g->n_values, 1));
  g_autofree guint64 *ort_need = g_new0 (guint64, MAX (g->n_values, 1));
  g_autofree int *node_position = g_new0 (int, MAX (g->n_nodes, 1));
  PvCheckSchedule ort_schedule = { 0 };
  OrtWork ort_work = { &ort_schedule, NULL, ort_place, ort_need, NULL, FALSE };
  g_autoptr (GArray) ort_buffers = g_array_new (FALSE, FALSE, sizeof (PvBufferLife));
  PvLiveness *live = pv_liveness_copy (s->basis->liveness);
  Job ort_arena = { s, options, parent_plan == NULL, cancellable, &ort_work, NULL };
  /* The order the slot planner and the checks work in: ORT's streams when
   * there are several (one for all of them); on one stream, program order
   * for the slot and arena plans (ORT's plan is checked in its own). */
  g_autoptr (PvHappensBefore) order = NULL;
  gboolean streams;

  /* A wrong size (overflow, negative, impossible Reshape) is refused: a
   * plan without that value would be a wrong plan that looks right. */
  if (s->basis->size_error != NULL)
    {
      g_propagate_error (error, g_error_copy (s->basis->size_error));
      pv_liveness_free (live);
      return NULL;
    }

  /* ORT's plan first (it needs no bounds: ORT compares shapes
   * symbolically); its streams decide how the other plans must be checked. */
  progress (options, PV_SESSION_STAGE_CONFIG_CHECK);
  if (parent_plan)
    plan_ort_subgraph (s, g, options, parent_plan);
  else
    plan_ort_main (s, g, options);
  lap = g_get_monotonic_time ();
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      pv_liveness_free (live);
      return NULL;
    }
  if (s->ort)
    ort_schedule = ort_check_schedule (s, node_position);
  streams = s->ort && s->ort->n_streams > 1;
  if (streams)
    {
      order = pv_happens_before_new (g, ort_schedule.node_stream, ort_schedule.node_position, ort_schedule.sync_edges,
                                     ort_schedule.n_sync_edges);
      pv_liveness_widen_for_streams (live, g, order);
    }
  /* ORT's arena needs only the lifetimes: it starts beside the simulated
   * run and the slot plan. */
  if (s->ort)
    {
      ort_placements (s, g, ort_place, ort_need);
      ort_arena_buffers (s, g, ort_place, live, ort_buffers);
      ort_work.order = order;
      ort_work.packing = pv_arena_packing_new ((const PvBufferLife *) ort_buffers->data, (int) ort_buffers->len,
                                                options && options->alignment ? options->alignment
                                                                              : PV_DEFAULT_ALIGNMENT);
      job_start (&ort_arena);
      /* The slot stage counts the happens-before above, not the run. */
      stage_done (s, PV_SESSION_STAGE_SLOTS, &lap);
      progress (options, PV_SESSION_STAGE_SCHEDULE);
      if (!g_cancellable_is_cancelled (cancellable))
        schedule_ort (s, g, options, s->basis->bounds);
      lap = g_get_monotonic_time ();
    }
  if (!g_cancellable_is_cancelled (cancellable))
    plan_slots_and_arena (s, options, live, &order, streams, cancellable, &lap);
  else
    pv_liveness_free (live);
  /* Then this line helps with what is left of ORT's arena (a cancelled
   * plan waits for the other line all the same: it reads the session). */
  if (s->ort)
    {
      if (!g_cancellable_is_cancelled (cancellable))
        {
          take_ort_check (s, g, &ort_work);
          pv_arena_packing_work (ort_work.packing);
        }
      else
        pv_arena_packing_abandon (ort_work.packing);
      job_finish (&ort_arena);
      s->ort_arena = pv_arena_packing_finish (ort_work.packing);
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  s->plan_ms = (g_get_monotonic_time () - t0) / 1000.0;
  s->planned_on = g_thread_self ();
  return g_steal_pointer (&s);
}

/* A session of @basis's graph, before planning. */
static PvSession *
session_on (PvSessionBasis *basis)
{
  PvSession *s = g_new0 (PvSession, 1);

  s->basis = pv_session_basis_ref (basis);
  s->model = basis->model;
  s->kernels = basis->kernels;
  s->graph = basis->graph;
  s->parent_node = s->subgraph_index = -1;
  s->shapes = basis->shapes;
  s->ort_shapes = basis->ort_shapes;
  s->view_source = basis->view_source;
  s->view_root = basis->view_root;
  s->inplace_source = basis->inplace_source;
  s->value_bytes = basis->value_bytes;
  return s;
}

PvSession *
pv_session_new_on_basis (PvSessionBasis *basis, const PvSessionOptions *options, GCancellable *cancellable,
                         GError **error)
{
  g_return_val_if_fail (basis != NULL && basis->ort != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return plan_graph (session_on (basis), options, NULL, cancellable, error, g_get_monotonic_time ());
}

PvSession *
pv_session_new (const PvModel *model, const PvKernelTable *kernels, const PvSessionOptions *options, GError **error)
{
  g_autoptr (PvSessionBasis) basis = NULL;
  PvSessionBasisOptions basis_options = { 0 };
  PvSession *s;
  gint64 t0 = g_get_monotonic_time ();

  if (options)
    basis_options = (PvSessionBasisOptions) { .bounds = options->bounds, .input_shapes = options->input_shapes,
                                              .include_graph_inputs = options->include_graph_inputs,
                                              .shapes = options->shapes, .input_values = options->input_values,
                                              .ort_shapes = options->ort_shapes, .progress = options->progress,
                                              .progress_data = options->progress_data };
  basis = pv_session_basis_new (model, kernels, &basis_options, NULL, error);
  if (basis == NULL)
    return NULL;
  s = plan_graph (session_on (basis), options, NULL, NULL, error, t0);
  if (s)
    s->stage_ms[PV_SESSION_STAGE_VALUE_MAPS] = basis->stage_ms;
  return s;
}

/* @basis (a body's) with @bounds' values for the symbols @parent's sizes
 * do not mention (the body's own); NULL when that changes nothing. */
static PvSessionBasis *
with_body_bounds (const PvSessionBasis *basis, const PvSessionBasis *parent, GHashTable *bounds)
{
  g_autoptr (GHashTable) merged = NULL;
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, bounds);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const gint64 *old = g_hash_table_lookup (basis->bounds, key);
      if (g_strv_contains ((const char *const *) parent->symbols, key) || (old && *old == *(const gint64 *) value))
        continue;
      if (merged == NULL)
        {
          GHashTableIter copy;
          gpointer k, v;
          merged = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          g_hash_table_iter_init (&copy, basis->bounds);
          while (g_hash_table_iter_next (&copy, &k, &v))
            g_hash_table_replace (merged, g_strdup (k), g_memdup2 (v, sizeof (gint64)));
        }
      g_hash_table_replace (merged, g_strdup (key), g_memdup2 (value, sizeof (gint64)));
    }
  return merged ? pv_session_basis_new_with_bounds (basis, merged) : NULL;
}

PvSession *
pv_session_new_for_subgraph_cancellable (const PvSession *parent, int node, int subgraph_index,
                                         const PvSessionOptions *options, GCancellable *cancellable, GError **error)
{
  g_autoptr (PvSessionBasis) basis = NULL;
  PvSession *s;
  gint64 t0 = g_get_monotonic_time ();

  g_return_val_if_fail (parent != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  basis = pv_session_basis_new_for_subgraph (parent->basis, node, subgraph_index, error);
  if (basis == NULL)
    return NULL;
  if (options && options->bounds)
    {
      PvSessionBasis *bound = with_body_bounds (basis, parent->basis, options->bounds);
      if (bound)
        {
          pv_session_basis_unref (basis);
          basis = bound;
        }
    }
  if (parent->ort == NULL)
    {
      /* ORT creates subgraph session states only once the outer one is made. */
      const PvNode *owner = &parent->graph->nodes[node];
      g_set_error (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_PARENT_PLAN,
                   "ONNX Runtime would not run the graph that holds “%s”: %s", owner->name,
                   parent->ort_error ? parent->ort_error : "it has no plan");
      return NULL;
    }
  s = session_on (basis);
  s->parent_node = node;
  s->subgraph_index = subgraph_index;
  s = plan_graph (s, options, parent->ort, cancellable, error, t0);
  if (s)
    s->stage_ms[PV_SESSION_STAGE_VALUE_MAPS] = basis->stage_ms;
  return s;
}

PvSession *
pv_session_new_for_subgraph (const PvSession *parent, int node, int subgraph_index, const PvSessionOptions *options,
                             GError **error)
{
  return pv_session_new_for_subgraph_cancellable (parent, node, subgraph_index, options, NULL, error);
}
