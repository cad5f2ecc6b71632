/* pv-document-plan.c: the document's planning jobs. One worker thread at a
 * time plans the latest inputs on the document's session basis: the main
 * graph, then every open subgraph body from the new main plan, and hands the
 * main thread finished, immutable sessions and timelines. The main thread
 * never plans. */
#include "pv-document-private.h"

#include <string.h>

#include "pv-tsan-private.h"

/* What a job reads and makes. The worker reads only this: copies of the
 * document's inputs, a reference on its basis, and the model, kernel table
 * and (for a bodies-only job) plan session, which nothing changes while the
 * job runs; a load that replaces them hands them over here (retired) to be
 * freed with the data. Each hand-off of the data between the threads
 * (g_task_run_in_thread, the lock, g_task_return_boolean, the task's last
 * unref) is marked for ThreadSanitizer. */
/* Something the worker may still read, freed with the job's data. */
typedef struct {
  gpointer data;
  GDestroyNotify free;
} Retired;

static void
retired_clear (Retired *r)
{
  r->free (r->data);
}

typedef struct _PlanData {
  PvSessionBasis *base;      /* the document's basis */
  GHashTable *bounds;        /* the latest bounds, when they differ from the base's; else NULL */
  GHashTable *body_bounds;   /* the latest bounds, for the symbols only bodies' sizes mention */
  GHashTable *input_values;  /* the latest input contents (a reference), when the base was inferred
                                without them: the job infers again; else NULL */
  gboolean reinfer;
  guint values_generation;
  char *partition_text;
  PvStreamRegistry registry;
  int gpu_requested;         /* made: nodes the config asks to run on the GPU */
  gboolean plan_main;        /* FALSE: only the bodies, from @parent */
  const PvSession *parent;   /* a bodies-only job's main plan session (the document's) */
  GPtrArray *paths;          /* PvBodyPlan* with names only: the open bodies */
  gboolean want_timeline;    /* a main timeline even for an invalid session */
  guint generation;
  GCancellable *cancellable;
  GWeakRef document;         /* for stage reports */
  GMainContext *context;

  PvSessionBasis *basis;     /* made: the base, or one with the new bounds */
  PvSession *session;
  GError *error;
  PvTimelineModel *timeline;
  gboolean bodies_planned;
  GPtrArray *bodies;         /* PvBodyPlan*, planned */
  GError *body_error;
  gint64 started;

  GArray *retired;           /* Retired: what a load took from the document while this ran */

  GMutex lock;               /* done, for pv_document_plan_now() */
  GCond cond;
  gboolean done;
} PlanData;

static void
plan_data_free (PlanData *data)
{
  /* On whichever thread drops the task last. */
  pv_tsan_acquire (data);
  g_clear_pointer (&data->base, pv_session_basis_unref);
  g_clear_pointer (&data->basis, pv_session_basis_unref);
  g_clear_pointer (&data->bounds, g_hash_table_unref);
  g_clear_pointer (&data->body_bounds, g_hash_table_unref);
  g_clear_pointer (&data->input_values, g_hash_table_unref);
  g_free (data->partition_text);
  g_clear_pointer (&data->paths, g_ptr_array_unref);
  g_clear_pointer (&data->timeline, pv_timeline_model_unref);
  g_clear_pointer (&data->session, pv_session_free);
  g_clear_error (&data->error);
  g_clear_pointer (&data->bodies, g_ptr_array_unref);
  g_clear_error (&data->body_error);
  g_clear_object (&data->cancellable);
  g_weak_ref_clear (&data->document);
  g_clear_pointer (&data->context, g_main_context_unref);
  /* In the order retired: sessions before the kernels and model they borrow. */
  g_clear_pointer (&data->retired, g_array_unref);
  pv_mutex_clear (&data->lock);
  g_cond_clear (&data->cond);
  g_free (data);
}

/* ---- stage reports ---- */

/* PvSessionProgress, on the worker: tells the main thread. */
static void
report_stage (gpointer user_data, PvSessionStage stage)
{
  PlanData *data = user_data;

  _pv_document_report_stage (&data->document, data->context, TRUE, data->generation, pv_session_stage_name (stage));
}

/* ---- the worker ---- */

PvBodyPlan *
_pv_document_body_path_new (const char *node_name, const char *attr)
{
  PvBodyPlan *body = g_new0 (PvBodyPlan, 1);
  body->node_name = g_strdup (node_name);
  body->attr = g_strdup (attr);
  return body;
}

/* The subgraph index of @attr on @graph's node @node, or -1. */
static int
find_subgraph (const PvGraph *graph, int node, const char *attr)
{
  for (int k = 0; k < graph->nodes[node].n_subgraphs; k++)
    if (g_strcmp0 (graph->nodes[node].subgraphs[k]->parent_attr, attr) == 0)
      return k;
  return -1;
}

/* One body; symbols only it mentions that have no bound yet are bound to
 * 1, as loading binds the main graph's (the document adopts them). */
static PvSession *
plan_body (PlanData *data, const PvSession *parent, int node, int index, const PvSessionOptions *options)
{
  PvSessionOptions body_options = *options;
  g_autoptr (GHashTable) bounds = _pv_document_bounds_copy (data->body_bounds);
  PvSession *session;

  body_options.bounds = bounds;
  session = pv_session_new_for_subgraph_cancellable (parent, node, index, &body_options, data->cancellable,
                                                     &data->body_error);
  if (session == NULL || session->basis->unbound_symbols[0] == NULL)
    return session;
  for (int i = 0; session->basis->unbound_symbols[i]; i++)
    {
      gint64 one = 1;
      g_hash_table_replace (bounds, g_strdup (session->basis->unbound_symbols[i]), g_memdup2 (&one, sizeof one));
    }
  pv_session_free (session);
  return pv_session_new_for_subgraph_cancellable (parent, node, index, &body_options, data->cancellable,
                                                  &data->body_error);
}

/* Plans every open body, each from the level above, starting at @parent;
 * stops at the first that cannot be planned (body_error says why). */
static void
plan_bodies (PlanData *data, const PvSession *parent, const PvSessionOptions *options)
{
  data->bodies = g_ptr_array_new_with_free_func ((GDestroyNotify) _pv_document_body_plan_free);
  data->bodies_planned = TRUE;
  for (guint d = 0; d < data->paths->len; d++)
    {
      const PvBodyPlan *path = g_ptr_array_index (data->paths, d);
      int node = pv_graph_find_node (parent->graph, path->node_name);
      int index = node >= 0 ? find_subgraph (parent->graph, node, path->attr) : -1;
      PvBodyPlan *body;
      PvSession *session;

      if (index < 0)
        {
          g_set_error (&data->body_error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_SUBGRAPH,
                       "“%s” %s is no longer in the model", path->node_name, path->attr);
          return;
        }
      session = plan_body (data, parent, node, index, options);
      if (session == NULL)
        return;
      body = _pv_document_body_path_new (path->node_name, path->attr);
      body->session = session;
      body->timeline = _pv_document_timeline_for (session);
      g_ptr_array_add (data->bodies, body);
      parent = session;
    }
}

static void
log_session (const PvSession *session, gint64 t0, gint64 t1)
{
  g_autoptr (GString) stages = g_string_new (NULL);

  for (int st = 0; st < PV_SESSION_N_STAGES; st++)
    g_string_append_printf (stages, "%s%s %.1f", st ? ", " : "", pv_session_stage_name (st), session->stage_ms[st]);
  g_debug ("re-plan in a thread: session %.1f ms (%s), timeline %.1f ms", (t1 - t0) / 1000.0, stages->str,
           (g_get_monotonic_time () - t1) / 1000.0);
}

/* A basis inferred again with the job's input values (ORT's view, which
 * no input value changes, is shared); symbols that appear with them are
 * bound to 1, as loading binds them. */
static PvSessionBasis *
reinfer (PlanData *data)
{
  g_autoptr (GHashTable) bounds = _pv_document_bounds_copy (data->bounds ? data->bounds : data->base->bounds);
  PvSessionBasisOptions options = { 0 };
  g_autoptr (PvSessionBasis) fresh = NULL;

  options.bounds = bounds;
  options.input_values = data->input_values;
  options.ort_shapes = data->base->ort_shapes;
  options.include_graph_inputs = data->base->liveness->include_graph_inputs;
  options.ort_order_trials = _pv_document_order_trials (data->base->model->graph);
  fresh = pv_session_basis_new (data->base->model, data->base->kernels, &options, data->cancellable, &data->error);
  if (fresh == NULL || fresh->unbound_symbols[0] == NULL)
    return g_steal_pointer (&fresh);
  for (int i = 0; fresh->unbound_symbols[i]; i++)
    {
      gint64 one = 1;
      g_hash_table_replace (bounds, g_strdup (fresh->unbound_symbols[i]), g_memdup2 (&one, sizeof one));
    }
  return pv_session_basis_new_with_bounds (fresh, bounds);
}

int *
_pv_document_node_devices (const PvGraph *graph, PvStreamRegistry registry, const char *text, int *n_gpu)
{
  g_autofree int *devices = text ? pv_partition_config_node_devices (graph, text, strlen (text)) : NULL;

  *n_gpu = 0;
  for (int i = 0; devices && i < graph->n_nodes; i++)
    *n_gpu += devices[i] == PV_DEVICE_GPU;
  return registry == PV_REGISTRY_CUDA ? g_steal_pointer (&devices) : NULL;
}

/* The worker's last step: the job is done (for pv_document_plan_now(),
 * which may wait for it) and its task returns. */
static void
finish_job (GTask *task, PlanData *data)
{
  pv_mutex_lock (&data->lock);
  data->done = TRUE;
  g_cond_signal (&data->cond);
  pv_mutex_unlock (&data->lock);
  pv_tsan_release (data);
  g_task_return_boolean (task, TRUE);
}

static void
plan_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  PlanData *data = task_data;
  PvSessionOptions options = { 0 };
  PvOrtArenaSettings arena;
  const PvSession *parent;
  gint64 t0 = g_get_monotonic_time (), t1;
  g_autofree int *node_devices = NULL;

  pv_tsan_acquire (data);
  parent = data->parent;
  node_devices = _pv_document_node_devices (data->base->model->graph, data->registry, data->partition_text,
                                            &data->gpu_requested);
  _pv_document_arena_settings (&arena);
  options.node_devices = node_devices;
  options.ort_arena = &arena;
  options.partition_text = data->partition_text;
  options.partition_len = data->partition_text ? strlen (data->partition_text) : 0;
  options.registry = data->registry;
  options.progress = report_stage;
  options.progress_data = data;
  data->basis = data->reinfer ? reinfer (data)
               : data->bounds ? pv_session_basis_new_with_bounds (data->base, data->bounds)
                              : pv_session_basis_ref (data->base);
  if (data->basis == NULL)
    {
      /* The inference refused the input values: the plan is not made. */
      finish_job (task, data);
      return;
    }
  if (data->plan_main)
    {
      data->session = pv_session_new_on_basis (data->basis, &options, data->cancellable, &data->error);
      t1 = g_get_monotonic_time ();
      if (data->session && (data->want_timeline || _pv_document_session_is_valid (data->session)))
        data->timeline = _pv_document_timeline_for (data->session);
      if (data->session)
        log_session (data->session, t0, t1);
      /* An invalid config leaves the plan session, and so its bodies, as
       * they were. */
      parent = _pv_document_session_is_valid (data->session) ? data->session : NULL;
    }
  if (parent && data->paths->len > 0 && !g_cancellable_is_cancelled (data->cancellable))
    plan_bodies (data, parent, &options);
  finish_job (task, data);
}

/* ---- on the main thread ---- */

static void
free_session_if_unused (PvDocument *self, PvSession *session)
{
  if (session != NULL && session != self->session && session != self->plan_session)
    {
      pv_tsan_release (session);
      g_thread_pool_push (self->free_pool, session, NULL);
    }
}

/* Installs a job's main session (and, when valid, a new plan session). */
static void
install_session (PvDocument *self, PlanData *data)
{
  PvSession *old_session = self->session;
  PvSession *session = g_steal_pointer (&data->session);

  g_clear_error (&self->plan_error);
  self->plan_error = g_steal_pointer (&data->error);
  self->session = session;
  free_session_if_unused (self, old_session);
  if (_pv_document_session_is_valid (session))
    {
      PvSession *old_plan = self->plan_session;
      /* The plan shown until now is what the comparison starts from. */
      if (old_plan && old_plan != session)
        _pv_document_remember_previous (self, old_plan, g_steal_pointer (&self->timeline));
      g_clear_pointer (&self->timeline, pv_timeline_model_unref);
      self->plan_session = session;
      self->gpu_requested = data->gpu_requested;
      self->timeline = data->timeline ? g_steal_pointer (&data->timeline) : _pv_document_timeline_for (session);
      free_session_if_unused (self, old_plan);
      _pv_document_set_stale (self, FALSE);
    }
  else
    {
      /* Without any valid plan yet, draw what there is (program order). */
      if (self->plan_session == NULL && session)
        {
          g_clear_pointer (&self->timeline, pv_timeline_model_unref);
          self->timeline = data->timeline ? g_steal_pointer (&data->timeline) : _pv_document_timeline_for (session);
        }
      _pv_document_set_stale (self, TRUE);
    }
}

/* The bodies a job planned replace the open ones; a level that failed
 * closes it and the levels below it. */
static void
install_bodies (PvDocument *self, PlanData *data)
{
  g_clear_pointer (&self->bodies, g_ptr_array_unref);
  self->bodies = g_steal_pointer (&data->bodies);
  g_clear_error (&self->body_error);
  self->body_error = g_steal_pointer (&data->body_error);
}

static void start_job (PvDocument *self, gboolean plan_main);

/* Input values can make symbols appear or vanish: the document's bounds
 * follow the basis a job inferred (new ones bound to 1);
 * _pv_document_update_symbols() then lists them. */
static void
adopt_bounds (PvDocument *self)
{
  const char *const *symbols = (const char *const *) self->basis->symbols;

  for (int i = 0; symbols[i]; i++)
    if (!g_hash_table_contains (self->bounds, symbols[i]))
      {
        const gint64 *bound = g_hash_table_lookup (self->basis->bounds, symbols[i]);
        gint64 one = 1;
        g_hash_table_replace (self->bounds, g_strdup (symbols[i]), g_memdup2 (bound ? bound : &one, sizeof one));
      }
}

/* Same symbols, same values. */
static gboolean
bounds_equal (GHashTable *a, GHashTable *b)
{
  GHashTableIter iter;
  gpointer key, value;

  if (g_hash_table_size (a) != g_hash_table_size (b))
    return FALSE;
  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const gint64 *other = g_hash_table_lookup (b, key);
      if (other == NULL || *other != *(const gint64 *) value)
        return FALSE;
    }
  return TRUE;
}

/* A job finished (and no longer runs): install what it made if its inputs
 * are still the latest, then start what was queued. */
static void
finish_plan (PvDocument *self, PlanData *data)
{
  gboolean current = data->generation == self->plan_generation;
  gboolean cancelled = g_cancellable_is_cancelled (data->cancellable);

  if (current && !cancelled)
    {
      gint64 t0 = g_get_monotonic_time ();
      /* (An inference that refused the input values leaves the basis.) */
      if (data->basis)
        {
          g_clear_pointer (&self->basis, pv_session_basis_unref);
          self->basis = g_steal_pointer (&data->basis);
          if (data->reinfer)
            self->basis_values_generation = data->values_generation;
          adopt_bounds (self);
        }
      if (data->plan_main)
        install_session (self, data);
      if (data->bodies_planned)
        install_bodies (self, data);
      /* The basis's symbols and the open bodies' own. */
      _pv_document_update_symbols (self);
      self->cancelled = FALSE;
      self->n_plans++;
      g_signal_emit (self, _pv_document_signals[PV_DOCUMENT_SIGNAL_PLAN_CHANGED], 0);
      g_debug ("plan installed in %.1f ms (plan-changed handlers included), %.1f ms after the job started",
               (g_get_monotonic_time () - t0) / 1000.0, (g_get_monotonic_time () - data->started) / 1000.0);
    }
  if (self->plan_running == NULL && (self->replan_queued || self->bodies_queued))
    {
      gboolean plan_main = self->replan_queued;
      self->replan_queued = self->bodies_queued = FALSE;
      start_job (self, plan_main);
    }
  if (self->plan_running == NULL)
    g_clear_pointer (&self->plan_stage, g_free);
  _pv_document_update_planning (self);
}

static void
plan_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  PvDocument *self = PV_DOCUMENT (object);
  PlanData *data = g_task_get_task_data (G_TASK (result));

  pv_tsan_acquire (data);
  /* pv_document_plan_now() may have finished this job already. */
  if (self->plan_running == data)
    {
      self->plan_running = NULL;
      finish_plan (self, data);
    }
  /* The worker's reference on the task may be the last. */
  pv_tsan_release (data);
}

static void
start_job (PvDocument *self, gboolean plan_main)
{
  g_autoptr (GTask) task = g_task_new (self, NULL, plan_done_cb, NULL);
  PlanData *data = g_new0 (PlanData, 1);

  data->base = pv_session_basis_ref (self->basis);
  if (!bounds_equal (self->bounds, self->basis->bounds))
    data->bounds = _pv_document_bounds_copy (self->bounds);
  data->body_bounds = _pv_document_bounds_copy (self->bounds);
  /* The basis was inferred with the input values of its generation. */
  if (self->values_generation != self->basis_values_generation)
    {
      data->reinfer = TRUE;
      data->input_values = self->input_values ? g_hash_table_ref (self->input_values) : NULL;
      data->values_generation = self->values_generation;
    }
  data->partition_text = g_strdup (self->partition_text);
  data->registry = self->registry;
  data->plan_main = plan_main || self->plan_session == NULL;
  data->parent = data->plan_main ? NULL : self->plan_session;
  data->paths = _pv_document_dup_body_paths (self);
  data->want_timeline = self->plan_session == NULL;
  data->generation = self->plan_generation;
  data->cancellable = g_cancellable_new ();
  g_weak_ref_init (&data->document, self);
  data->context = g_main_context_ref_thread_default ();
  data->retired = g_array_new (FALSE, FALSE, sizeof (Retired));
  g_array_set_clear_func (data->retired, (GDestroyNotify) retired_clear);
  data->started = g_get_monotonic_time ();
  pv_mutex_init (&data->lock);
  g_cond_init (&data->cond);
  self->plan_running = data;
  g_task_set_source_tag (task, start_job);
  g_task_set_task_data (task, data, (GDestroyNotify) plan_data_free);
  pv_tsan_release (data);
  g_task_run_in_thread (task, plan_thread);
}

/* The main graph and the open bodies (@main), or the bodies alone: a new
 * generation, planned now or after the job in flight, which is cancelled
 * (its result would be dropped; a bodies job of older open bodies would
 * install the wrong ones). */
static void
replan (PvDocument *self, gboolean main)
{
  if (self->model == NULL || self->basis == NULL)
    return;
  self->plan_generation++;
  if (self->plan_running)
    {
      g_cancellable_cancel (self->plan_running->cancellable);
      if (!main && !self->replan_queued)
        self->bodies_queued = TRUE;
      /* A cancelled main job leaves the latest inputs unplanned. */
      if (main || self->plan_running->plan_main)
        self->replan_queued = TRUE;
    }
  else
    start_job (self, main);
  _pv_document_update_planning (self);
}

void
_pv_document_replan (PvDocument *self)
{
  replan (self, TRUE);
}

void
_pv_document_replan_bodies (PvDocument *self)
{
  replan (self, FALSE);
}

static void
retire (PlanData *data, gpointer p, GDestroyNotify free_func)
{
  Retired r = { p, free_func };
  g_array_append_val (data->retired, r);
}

void
_pv_document_clear_plans (PvDocument *self)
{
  PvSession *session = self->session, *plan = self->plan_session;
  PlanData *data = self->plan_running;

  self->session = self->plan_session = NULL;
  /* A bodies job in flight reads the plan session: it frees it. */
  if (data && data->parent && (data->parent == session || data->parent == plan))
    {
      retire (data, (gpointer) data->parent, (GDestroyNotify) pv_session_free);
      if (session == data->parent)
        session = NULL;
      if (plan == data->parent)
        plan = NULL;
    }
  if (session)
    pv_session_free (session);
  if (plan && plan != session)
    pv_session_free (plan);
  g_clear_pointer (&self->timeline, pv_timeline_model_unref);
  _pv_document_clear_previous (self);
  g_clear_pointer (&self->bodies, g_ptr_array_unref);
  g_clear_pointer (&self->basis, pv_session_basis_unref);
  _pv_document_symbols_changed (self);
  g_clear_error (&self->plan_error);
  g_clear_error (&self->body_error);
}

void
_pv_document_retire_for_load (PvDocument *self, PvModel *model, PvKernelTable *kernels)
{
  PlanData *data = self->plan_running;

  self->plan_generation++;
  self->replan_queued = self->bodies_queued = FALSE;
  if (data == NULL)
    {
      pv_kernel_table_free (kernels);
      pv_model_free (model);
      return;
    }
  g_cancellable_cancel (data->cancellable);
  retire (data, kernels, (GDestroyNotify) pv_kernel_table_free);
  retire (data, model, (GDestroyNotify) pv_model_free);
}

GPtrArray *
_pv_document_dup_body_paths (PvDocument *self)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func ((GDestroyNotify) _pv_document_body_plan_free);

  for (guint d = 0; self->bodies && d < self->bodies->len; d++)
    {
      const PvBodyPlan *body = g_ptr_array_index (self->bodies, d);
      g_ptr_array_add (paths, _pv_document_body_path_new (body->node_name, body->attr));
    }
  return paths;
}

gboolean
_pv_document_is_planning (PvDocument *self)
{
  /* A cancelled job still runs to its next stage, but nobody waits for it. */
  gboolean running = self->plan_running != NULL && !g_cancellable_is_cancelled (self->plan_running->cancellable);

  return running || self->replan_queued || self->bodies_queued;
}

void
_pv_document_update_planning (PvDocument *self)
{
  gboolean planning = _pv_document_is_planning (self);

  if (self->planning == planning)
    return;
  self->planning = planning;
  g_object_notify_by_pspec (G_OBJECT (self), _pv_document_properties[PV_DOCUMENT_PROP_PLANNING]);
}

/* ---- public API ---- */

void
pv_document_plan_now (PvDocument *self)
{
  PlanData *data;

  g_return_if_fail (PV_IS_DOCUMENT (self));

  /* Wait for the job in flight; then, if inputs changed meanwhile, for a
   * job of the latest ones. The worker plans; this thread only waits. */
  while ((data = self->plan_running) != NULL)
    {
      pv_mutex_lock (&data->lock);
      while (!data->done)
        pv_cond_wait (&data->cond, &data->lock);
      pv_mutex_unlock (&data->lock);
      /* Its task's callback, still to come, then finds it finished. */
      self->plan_running = NULL;
      finish_plan (self, data);
    }
  _pv_document_update_planning (self);
}

void
pv_document_cancel_plan (PvDocument *self)
{
  g_return_if_fail (PV_IS_DOCUMENT (self));

  if (self->plan_running == NULL && !self->replan_queued && !self->bodies_queued)
    return;
  if (self->plan_running)
    g_cancellable_cancel (self->plan_running->cancellable);
  self->replan_queued = self->bodies_queued = FALSE;
  self->plan_generation++;
  self->cancelled = TRUE;
  _pv_document_set_stale (self, TRUE);
  _pv_document_update_planning (self);
}
