#include "pv-session.h"

#include <string.h>

#include "pv-cost-model.h"
#include "pv-happens-before.h"
#include "pv-kernel-adapter.h"
#include "pv-value-aliases.h"


const char *
pv_session_stage_name (PvSessionStage stage)
{
  static const char *const names[PV_SESSION_N_STAGES] = {
    "value maps", "config check", "ORT plan", "schedule", "slots", "slots check",
    "arena", "arena check", "ORT check", "ORT arena", "ORT run",
  };
  g_return_val_if_fail (stage < PV_SESSION_N_STAGES, NULL);
  return names[stage];
}

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
  pv_shape_info_free (session->shapes);
  g_free (session->view_source);
  g_free (session->inplace_source);
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
  g_free (session->value_bytes);
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
plan_ort_subgraph (PvSession *s, const PvGraph *g, const PvSessionOptions *options, const PvOrtPlan *parent_plan,
                   PvKernelAdapter *adapter)
{
  g_autofree int *node_device = g_new (int, MAX (g->n_nodes, 1));
  g_autoptr (GError) error = NULL;
  gint64 lap = g_get_monotonic_time ();

  for (int n = 0; n < g->n_nodes; n++)
    node_device[n] = parent_plan->node_device[g->parent_node];
  s->partition = pv_partition_config_default (g, node_device);
  s->ort = pv_ort_plan_new_subgraph (g, s->shapes, parent_plan, options ? options->registry : PV_REGISTRY_CPU,
                                     pv_kernel_adapter_lookup, adapter, &error);
  stage_done (s, PV_SESSION_STAGE_ORT_PLAN, &lap);
  if (s->ort == NULL)
    s->ort_error = g_strdup (error->message);
  return s->ort != NULL;
}

/* The ORT plan basis of the main graph, made beside the config check: the
 * main line waits for it once the config is read. */
typedef struct {
  GMutex lock;
  GCond made;
  PvOrtPlanBasis *basis;  /* set once made */
} BasisLatch;

static void
basis_latch_set (BasisLatch *latch, PvOrtPlanBasis *basis)
{
  g_mutex_lock (&latch->lock);
  latch->basis = basis;
  g_cond_signal (&latch->made);
  g_mutex_unlock (&latch->lock);
}

static const PvOrtPlanBasis *
basis_latch_wait (BasisLatch *latch)
{
  const PvOrtPlanBasis *basis;

  g_mutex_lock (&latch->lock);
  while (latch->basis == NULL)
    g_cond_wait (&latch->made, &latch->lock);
  basis = latch->basis;
  g_mutex_unlock (&latch->lock);
  return basis;
}

static gboolean
plan_ort_main (PvSession *s, const PvGraph *g, const PvSessionOptions *options, BasisLatch *latch)
{
  g_autofree int *node_stream = g_new0 (int, MAX (g->n_nodes, 1));
  g_autofree int *stream_device = NULL;
  g_autoptr (GError) error = NULL;
  PvStreamPartition partition;
  const PvPartitionConfig *config;
  gint64 lap = g_get_monotonic_time ();

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
    s->ort = pv_ort_plan_new_on_basis (basis_latch_wait (latch), &partition,
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


/* Every value's size, evaluated once per session for the schedule, the
 * slot planner and the checks (PvSizeOracle over the table). */
typedef struct {
  PvSizeResult *kind;
  guint64 *bytes;
} SizeTable;

static void
size_table_fill (SizeTable *t, const PvSession *s, const PvGraph *g, GHashTable *bounds)
{
  PvShapeSizes sizes = { s->shapes, g, bounds };

  t->kind = g_new (PvSizeResult, MAX (g->n_values, 1));
  t->bytes = g_new0 (guint64, MAX (g->n_values, 1));
  for (int v = 0; v < g->n_values; v++)
    t->kind[v] = pv_shape_sizes_oracle (&sizes, v, &t->bytes[v]);
}

static PvSizeResult
size_table_oracle (gpointer data, int value_id, guint64 *bytes_out)
{
  const SizeTable *t = data;
  if (t->kind[value_id] == PV_SIZE_KNOWN)
    *bytes_out = t->bytes[value_id];
  return t->kind[value_id];
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
      if (g->values[v].producer >= 0 && s->view_source[v] < 0)
        owned[v] = s->value_bytes[v];
    /* 1 TFLOP/s and 100 GB/s: a laptop-class CPU; only ratios matter. */
    PvRooflineCost roofline = { s->shapes, bounds, 1e6, 1e5 };
    s->schedule = pv_schedule_new (s->ort, owned, value_device,
                                   options && options->roofline_cost ? pv_roofline_cost : NULL, &roofline);
  }
  stage_done (s, PV_SESSION_STAGE_SCHEDULE, &lap);
}

/* What ORT's CPU arena does over the first two runs of the main graph
 * (@sizes: every value's size kind). */
static void
simulate_ort_run (PvSession *s, const PvGraph *g, const PvSessionOptions *options, const SizeTable *sizes)
{
  gint64 lap = g_get_monotonic_time ();
  PvOrtArenaSettings settings;
  g_autofree guint8 *known = g_new0 (guint8, MAX (g->n_values, 1));
  PvOrtKernelEnv env = { g, s->shapes, options ? options->bounds : NULL, 1 };
  PvOrtArenaInput input = { s->ort, &env, s->value_bytes, known, &settings };

  if (options && options->ort_arena)
    settings = *options->ort_arena;
  else
    pv_ort_arena_settings_init (&settings);
  settings.intra_op_threads = env.threads = MAX (settings.intra_op_threads, 1);
  for (int v = 0; v < g->n_values; v++)
    known[v] = sizes->kind[v] == PV_SIZE_KNOWN;
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
  s->ort_check = order ? pv_plan_check_in_order (g, order, place, ort_views, s->inplace_source, need, 100)
                       : pv_plan_check (g, check_schedule, place, ort_views, s->inplace_source, need, 100);
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
  s->slots_check = pv_plan_check_in_order (g, order, place, s->view_source, NULL, need, 100);
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
  s->arena_check = pv_plan_check_in_order (g, order, place, s->view_source, NULL, need, 100);
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

/* Work that runs beside the main line of plan_graph() on a second core:
 * it reads what is made before it starts and writes fields of its own. */
typedef enum { JOB_VALUE_MAPS, JOB_ORT_ARENA } JobKind;

typedef struct {
  JobKind kind;
  PvSession *s;
  const PvGraph *g;
  const PvSessionOptions *options;
  SizeTable *sizes;          /* JOB_VALUE_MAPS; JOB_ORT_ARENA: for ORT's run, NULL for a subgraph */
  PvLiveness **live;         /* JOB_VALUE_MAPS */
  BasisLatch *basis;         /* JOB_VALUE_MAPS, for the main graph */
  PvKernelAdapter *adapter;  /* JOB_VALUE_MAPS */
  OrtWork *ort;              /* JOB_ORT_ARENA */
  GThread *thread;
} Job;

static gpointer
run_job (gpointer data)
{
  Job *job = data;

  switch (job->kind)
    {
    case JOB_VALUE_MAPS:
      {
        gint64 lap = g_get_monotonic_time ();
        /* First what ORT's plan waits for. */
        if (job->basis)
          basis_latch_set (job->basis, pv_ort_plan_basis_new (job->g, job->s->shapes, pv_kernel_adapter_lookup,
                                                              job->adapter));
        pv_value_alias_maps (job->g, job->s->kernels, &job->s->view_source, &job->s->inplace_source);
        size_table_fill (job->sizes, job->s, job->g, job->options ? job->options->bounds : NULL);
        /* The lifetimes in program order (streams widen them later). */
        *job->live = pv_liveness_new (job->g, job->s->view_source,
                                      job->options && job->options->include_graph_inputs);
        stage_done (job->s, PV_SESSION_STAGE_VALUE_MAPS, &lap);
      }
      break;
    case JOB_ORT_ARENA:
      {
        gint64 lap;
        /* ORT's CPU arena first (main graphs only): the caller's line packs
         * the orderings meanwhile. */
        if (job->sizes)
          simulate_ort_run (job->s, job->g, job->options, job->sizes);
        lap = g_get_monotonic_time ();
        pv_arena_packing_work (job->ort->packing);
        stage_done (job->s, PV_SESSION_STAGE_ORT_ARENA, &lap);
        take_ort_check (job->s, job->g, job->ort);
      }
      break;
    }
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

/* Every plan of @s->graph; @s has its model, kernels and shapes.
 *
 * Two lines of work: ORT's plan, the simulated run, then the slot plan, its
 * checks and arena on the caller's thread; beside them, first the value
 * maps, sizes and lifetimes, then ORT's arena. The check of ORT's plan goes
 * to the line free first, and the caller's line, once done, packs the
 * orderings of ORT's arena still left. */
static PvSession *
plan_graph (PvSession *session, const PvSessionOptions *options, const PvOrtPlan *parent_plan, gint64 t0)
{
  g_autoptr (PvSession) s = session;
  const PvGraph *g = s->graph;
  GHashTable *bounds = options ? options->bounds : NULL;
  gint64 lap;
  g_autofree PvPlacement *ort_place = g_new (PvPlacement, MAX (g->n_values, 1));
  g_autofree guint64 *ort_need = g_new0 (guint64, MAX (g->n_values, 1));
  g_autofree int *node_position = g_new0 (int, MAX (g->n_nodes, 1));
  PvCheckSchedule ort_schedule = { 0 };
  SizeTable sizes = { NULL, NULL };
  OrtWork ort_work = { &ort_schedule, NULL, ort_place, ort_need, NULL, FALSE };
  g_autoptr (GArray) ort_buffers = g_array_new (FALSE, FALSE, sizeof (PvBufferLife));
  PvLiveness *live = NULL;
  g_autoptr (PvKernelAdapter) adapter = pv_kernel_adapter_new (s->kernels);
  BasisLatch latch = { 0 };
  Job maps = { JOB_VALUE_MAPS, s, g, options, &sizes, &live, parent_plan ? NULL : &latch, adapter, NULL, NULL };
  Job ort_arena = { JOB_ORT_ARENA, s, g, options, parent_plan ? NULL : &sizes, NULL, NULL, NULL, &ort_work, NULL };
  /* The order the slot planner and the checks work in: ORT's streams when
   * there are several (one for all of them); on one stream, program order
   * for the slot and arena plans (ORT's plan is checked in its own). */
  g_autoptr (PvHappensBefore) order = NULL;
  gboolean streams;

  /* ORT's plan first (it needs no bounds: ORT compares shapes
   * symbolically); its streams decide how the other plans must be checked.
   * Meanwhile the other line makes the basis of ORT's plan, then the kernel
   * maps, sizes and lifetimes: only the schedule and what follows need
   * them. */
  g_mutex_init (&latch.lock);
  g_cond_init (&latch.made);
  job_start (&maps);
  if (parent_plan)
    plan_ort_subgraph (s, g, options, parent_plan, adapter);
  else
    plan_ort_main (s, g, options, &latch);
  job_finish (&maps);
  pv_ort_plan_basis_free (latch.basis);
  g_mutex_clear (&latch.lock);
  g_cond_clear (&latch.made);
  /* Sizes of every value that has one (0 for the others). */
  s->value_bytes = sizes.bytes;
  lap = g_get_monotonic_time ();
  if (s->ort)
    {
      /* Where each node runs: its stream and its place in it, and how the
       * streams synchronise. */
      for (int st = 0; st < s->ort->n_streams; st++)
        for (int k = 0; k < s->ort->streams[st].n_nodes; k++)
          node_position[s->ort->streams[st].nodes[k]] = k;
      ort_schedule = (PvCheckSchedule) { s->ort->node_stream, node_position,
                                         (const int (*)[2]) s->ort->sync_edges, s->ort->n_sync_edges };
    }
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
      schedule_ort (s, g, options, bounds);
      lap = g_get_monotonic_time ();
    }
  s->slots = pv_slot_plan_new_for_liveness (g, live, size_table_oracle, &sizes);
  stage_done (s, PV_SESSION_STAGE_SLOTS, &lap);
  if (s->slots->deferred)
    s->unbound_symbols = pv_slot_plan_unbound_symbols (s->slots, g, s->shapes, bounds);
  else
    {
      if (order == NULL)
        order = pv_happens_before_new (g, NULL, NULL, NULL, 0);
      check_slots (s, g, order);
      plan_arena (s, g, options && options->alignment ? options->alignment : PV_DEFAULT_ALIGNMENT, order);
      /* With streams, the bound is what the simulated run holds at once. */
      if (streams)
        {
          s->load_bytes = 0;
          for (int c = 0; c < s->schedule->n_curves; c++)
            s->load_bytes = MAX (s->load_bytes, s->schedule->curves[c].peak_bytes);
        }
    }
  /* Then this line helps with what is left of ORT's arena. */
  if (s->ort)
    {
      take_ort_check (s, g, &ort_work);
      pv_arena_packing_work (ort_work.packing);
      job_finish (&ort_arena);
      s->ort_arena = pv_arena_packing_finish (ort_work.packing);
    }
  g_free (sizes.kind);
  s->plan_ms = (g_get_monotonic_time () - t0) / 1000.0;
  return g_steal_pointer (&s);
}

PvSession *
pv_session_new (const PvModel *model, const PvKernelTable *kernels, const PvSessionOptions *options, GError **error)
{
  g_autoptr (PvSession) s = g_new0 (PvSession, 1);
  PvShapeOptions shape_options = { 0 };
  gint64 t0 = g_get_monotonic_time ();

  s->model = model;
  s->kernels = kernels;
  s->graph = model->graph;
  s->parent_node = s->subgraph_index = -1;
  shape_options.bounds = options ? options->bounds : NULL;
  shape_options.input_shapes = options ? options->input_shapes : NULL;
  /* Shapes depend on the model and bounds only: a partition edit keeps them. */
  s->shapes = options && options->shapes ? pv_shape_info_ref (options->shapes)
                                         : pv_shape_infer (model, &shape_options, error);
  if (s->shapes == NULL)
    return NULL;
  return plan_graph (g_steal_pointer (&s), options, NULL, t0);
}

PvSession *
pv_session_new_for_subgraph (const PvSession *parent, int node, int subgraph_index, const PvSessionOptions *options,
                             GError **error)
{
  g_autoptr (PvSession) s = NULL;
  const PvGraph *g;
  const PvNode *owner;
  gint64 t0 = g_get_monotonic_time ();

  g_return_val_if_fail (parent != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (node < 0 || node >= parent->graph->n_nodes)
    {
      g_set_error (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_SUBGRAPH, "graph “%s” has no node %d", parent->graph->name,
                   node);
      return NULL;
    }
  owner = &parent->graph->nodes[node];
  if (subgraph_index < 0 || subgraph_index >= owner->n_subgraphs)
    {
      g_set_error (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_SUBGRAPH, "node “%s” (%s) has no subgraph %d (it has %d)",
                   owner->name, owner->op_type, subgraph_index, owner->n_subgraphs);
      return NULL;
    }
  if (parent->ort == NULL)
    {
      /* ORT creates subgraph session states only once the outer one is made. */
      g_set_error (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_PARENT_PLAN,
                   "ONNX Runtime would not run the graph that holds “%s”: %s", owner->name,
                   parent->ort_error ? parent->ort_error : "it has no plan");
      return NULL;
    }
  g = owner->subgraphs[subgraph_index];
  s = g_new0 (PvSession, 1);
  s->model = parent->model;
  s->kernels = parent->kernels;
  s->graph = g;
  s->parent_node = node;
  s->subgraph_index = subgraph_index;
  s->shapes = pv_shape_info_ref (parent->shapes);
  return plan_graph (g_steal_pointer (&s), options, parent->ort, t0);
}
