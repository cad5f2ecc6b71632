/* pv-document.c: one open model and what the window plans for it. */
#include "pv-document.h"

#include <string.h>

#include "pv-model-loader.h"

struct _PvDocument
{
  GObject parent_instance;

  GFile *file;
  GFile *partition_file;
  PvModel *model;
  PvKernelTable *kernels;
  char *title;
  char *partition_text;
  char **symbols;            /* sorted, NULL-terminated */
  GHashTable *bounds;        /* symbol -> gint64* */
  PvShapeInfo *shapes;       /* the inference for model and bounds, shared by re-plans */
  PvPlannerKind planner;
  PvStreamRegistry registry;

  PvSession *session;        /* latest inputs; may equal plan_session */
  GError *plan_error;
  PvSession *plan_session;   /* latest valid */
  PvTimelineModel *timeline; /* of plan_session */
  guint n_plans;

  /* Re-planning runs in a thread, one plan at a time. Every input change
   * bumps plan_generation; a plan is installed only if it was made for the
   * current generation (latest wins). */
  struct _PlanData *plan_running; /* the plan in flight (its task's data), or NULL */
  guint plan_generation;
  GThreadPool *free_pool;    /* frees replaced sessions (tens of ms on big models) */

  GCancellable *load_cancellable;
  char *load_stage;

  guint loading : 1;
  guint stale : 1;
  guint replan_queued : 1;   /* inputs changed while a plan ran */
  guint planning : 1;        /* as last notified */
};

G_DEFINE_FINAL_TYPE (PvDocument, pv_document, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_FILE,
  PROP_PARTITION_FILE,
  PROP_TITLE,
  PROP_LOADING,
  PROP_LOAD_STAGE,
  PROP_PLANNER,
  PROP_REGISTRY,
  PROP_STALE,
  PROP_PLANNING,
  N_PROPS
};

enum {
  LOADED,
  PLAN_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

PvDocument *
pv_document_new (void)
{
  return g_object_new (PV_TYPE_DOCUMENT, NULL);
}

/* ---- planning ---- */

static GHashTable *
bounds_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

/* A session for @model; no symbols bound when @bounds is NULL. */
static PvSession *
make_session (const PvModel *model, const PvKernelTable *kernels, PvShapeInfo *shapes, GHashTable *bounds,
              const char *partition_text, PvStreamRegistry registry, GError **error)
{
  PvSessionOptions options = { 0 };
  PvOrtArenaSettings arena;

  /* ORT's defaults; its intra-op threads default to the machine's cores. */
  pv_ort_arena_settings_init (&arena);
  arena.intra_op_threads = (int) g_get_num_processors ();
  options.ort_arena = &arena;
  options.shapes = shapes;
  options.bounds = bounds;
  options.partition_text = partition_text;
  options.partition_len = partition_text ? strlen (partition_text) : 0;
  options.registry = registry;
  return pv_session_new (model, kernels, &options, error);
}

/* A plan worth drawing: ORT runs the config as written. */
static gboolean
session_is_valid (const PvSession *session)
{
  if (session == NULL || session->ort == NULL || session->schedule == NULL)
    return FALSE;
  return session->partition_check == NULL || !pv_partition_check_has_errors (session->partition_check);
}

static PvTimelineModel *
timeline_for (const PvSession *session)
{
  PvTimelineSource source;
  pv_timeline_source_init_from_session (&source, session);
  return pv_timeline_model_new (&source);
}

/* Replaced sessions are freed off the main thread; they borrow the model,
 * so a load waits for them (drain_free_pool) before freeing the old one. */
static void
free_session_if_unused (PvDocument *self, PvSession *session)
{
  if (session != NULL && session != self->session && session != self->plan_session)
    g_thread_pool_push (self->free_pool, session, NULL);
}

static void
free_pool_func (gpointer data, gpointer user_data)
{
  pv_session_free (data);
}

static GThreadPool *
free_pool_new (void)
{
  return g_thread_pool_new (free_pool_func, NULL, 1, FALSE, NULL);
}

/* Waits until every session pushed so far is freed. */
static void
drain_free_pool (PvDocument *self)
{
  g_thread_pool_free (self->free_pool, FALSE, TRUE);
  self->free_pool = free_pool_new ();
}

static void
clear_sessions (PvDocument *self)
{
  PvSession *session = self->session, *plan = self->plan_session;

  self->session = self->plan_session = NULL;
  if (session)
    pv_session_free (session);
  if (plan && plan != session)
    pv_session_free (plan);
  g_clear_pointer (&self->timeline, pv_timeline_model_unref);
  g_clear_pointer (&self->shapes, pv_shape_info_free);
  g_clear_error (&self->plan_error);
}

static void
set_stale (PvDocument *self, gboolean stale)
{
  stale = !!stale;
  if (self->stale == stale)
    return;
  self->stale = stale;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STALE]);
}

/* Keeps the latest session's shape inference for the next re-plans: only
 * a bound or a new model changes it (they clear it). */
static void
remember_shapes (PvDocument *self)
{
  if (self->shapes == NULL && self->session && self->session->shapes)
    self->shapes = pv_shape_info_ref (self->session->shapes);
}

/* Installs a new latest session (and, when valid, a new plan session).
 * @timeline is the session's, built off the main thread, or NULL. */
static void
install_session (PvDocument *self, PvSession *session, GError *error, PvTimelineModel *timeline)
{
  PvSession *old_session = self->session;

  g_clear_error (&self->plan_error);
  self->plan_error = error;
  self->session = session;
  free_session_if_unused (self, old_session);
  remember_shapes (self);

  if (session_is_valid (session))
    {
      PvSession *old_plan = self->plan_session;
      g_clear_pointer (&self->timeline, pv_timeline_model_unref);
      self->plan_session = session;
      self->timeline = timeline ? g_steal_pointer (&timeline) : timeline_for (session);
      free_session_if_unused (self, old_plan);
      set_stale (self, FALSE);
    }
  else
    {
      /* Without any valid plan yet, draw what there is (program order). */
      if (self->plan_session == NULL && session)
        {
          g_clear_pointer (&self->timeline, pv_timeline_model_unref);
          self->timeline = timeline ? g_steal_pointer (&timeline) : timeline_for (session);
        }
      set_stale (self, TRUE);
    }
  g_clear_pointer (&timeline, pv_timeline_model_unref);
  self->n_plans++;
  g_signal_emit (self, signals[PLAN_CHANGED], 0);
}

/* A partition config's text: the whole file, UTF-8 without NULs. */
static gboolean
read_partition_text (GFile *file, GCancellable *cancellable, char **text, GError **error)
{
  g_autofree char *contents = NULL;
  gsize len = 0;

  if (!g_file_load_contents (file, cancellable, &contents, &len, NULL, error))
    return FALSE;
  if (!g_utf8_validate (contents, len, NULL) || strlen (contents) != len)
    {
      g_autofree char *name = g_file_get_parse_name (file);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: not a text file (the partition config must be UTF-8 JSON)", name);
      return FALSE;
    }
  *text = g_steal_pointer (&contents);
  return TRUE;
}

/* ---- re-planning in a thread ---- */

/* What a re-plan reads and makes. The worker reads only this: copies of
 * the document's inputs, and the model and kernel table, which nothing
 * changes once loaded (a load that replaces them while the plan runs hands
 * them over here to be freed with the data). */
typedef struct _PlanData {
  const PvModel *model;
  const PvKernelTable *kernels;
  PvShapeInfo *shapes;       /* the document's inference for these bounds, or NULL */
  GHashTable *bounds;
  char *partition_text;
  PvStreamRegistry registry;
  gboolean want_timeline;    /* a timeline even for an invalid session */
  guint generation;

  PvSession *session;
  GError *error;
  PvTimelineModel *timeline;

  PvModel *retired_model;
  PvKernelTable *retired_kernels;

  GMutex lock;               /* done, for pv_document_plan_now() */
  GCond cond;
  gboolean done;
} PlanData;

static void
plan_data_free (PlanData *data)
{
  g_clear_pointer (&data->shapes, pv_shape_info_free);
  g_clear_pointer (&data->bounds, g_hash_table_unref);
  g_free (data->partition_text);
  g_clear_pointer (&data->timeline, pv_timeline_model_unref);
  g_clear_pointer (&data->session, pv_session_free);
  g_clear_error (&data->error);
  /* The sessions and timelines of the retired model went with the load. */
  g_clear_pointer (&data->retired_kernels, pv_kernel_table_free);
  g_clear_pointer (&data->retired_model, pv_model_free);
  g_mutex_clear (&data->lock);
  g_cond_clear (&data->cond);
  g_free (data);
}

static GHashTable *
bounds_copy (GHashTable *bounds)
{
  GHashTable *copy = bounds_new ();
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, bounds);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (copy, g_strdup (key), g_memdup2 (value, sizeof (gint64)));
  return copy;
}

static void
plan_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  PlanData *data = task_data;
  gint64 t0 = g_get_monotonic_time (), t1;

  data->session = make_session (data->model, data->kernels, data->shapes, data->bounds, data->partition_text,
                                data->registry,
                                &data->error);
  t1 = g_get_monotonic_time ();
  if (data->session && (data->want_timeline || session_is_valid (data->session)))
    data->timeline = timeline_for (data->session);
  if (data->session)
    {
      g_autoptr (GString) stages = g_string_new (NULL);
      for (int st = 0; st < PV_SESSION_N_STAGES; st++)
        g_string_append_printf (stages, "%s%s %.1f", st ? ", " : "", pv_session_stage_name (st),
                                data->session->stage_ms[st]);
      g_debug ("re-plan in a thread: session %.1f ms (shapes %s; %s), timeline %.1f ms", (t1 - t0) / 1000.0,
               data->shapes ? "shared" : "inferred", stages->str, (g_get_monotonic_time () - t1) / 1000.0);
    }
  g_mutex_lock (&data->lock);
  data->done = TRUE;
  g_cond_signal (&data->cond);
  g_mutex_unlock (&data->lock);
  g_task_return_boolean (task, TRUE);
}

static void
update_planning (PvDocument *self)
{
  gboolean planning = self->plan_running != NULL || self->replan_queued;

  if (self->planning == planning)
    return;
  self->planning = planning;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLANNING]);
}

static void start_plan (PvDocument *self);

/* A plan finished (and is no longer running): install it if its inputs
 * are still the latest, then plan what was queued. */
static void
finish_plan (PvDocument *self, PlanData *data)
{
  if (data->generation == self->plan_generation)
    {
      gint64 t0 = g_get_monotonic_time ();
      install_session (self, g_steal_pointer (&data->session), g_steal_pointer (&data->error),
                       g_steal_pointer (&data->timeline));
      g_debug ("plan installed in %.1f ms (plan-changed handlers included)", (g_get_monotonic_time () - t0) / 1000.0);
    }
  if (self->replan_queued && self->plan_running == NULL)
    {
      self->replan_queued = FALSE;
      start_plan (self);
    }
  update_planning (self);
}

static void
plan_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  PvDocument *self = PV_DOCUMENT (object);
  PlanData *data = g_task_get_task_data (G_TASK (result));

  /* pv_document_plan_now() may have finished this plan already. */
  if (self->plan_running != data)
    return;
  self->plan_running = NULL;
  finish_plan (self, data);
}

static void
start_plan (PvDocument *self)
{
  g_autoptr (GTask) task = g_task_new (self, NULL, plan_done_cb, NULL);
  PlanData *data = g_new0 (PlanData, 1);

  data->model = self->model;
  data->kernels = self->kernels;
  data->shapes = self->shapes ? pv_shape_info_ref (self->shapes) : NULL;
  data->bounds = bounds_copy (self->bounds);
  data->partition_text = g_strdup (self->partition_text);
  data->registry = self->registry;
  data->want_timeline = self->plan_session == NULL;
  data->generation = self->plan_generation;
  g_mutex_init (&data->lock);
  g_cond_init (&data->cond);
  self->plan_running = data;
  g_task_set_source_tag (task, start_plan);
  g_task_set_task_data (task, data, (GDestroyNotify) plan_data_free);
  g_task_run_in_thread (task, plan_thread);
}

/* The inputs changed: plan them in a thread, now or after the plan in
 * flight (whose result is then dropped). */
static void
replan (PvDocument *self)
{
  if (self->model == NULL)
    return;
  self->plan_generation++;
  if (self->plan_running)
    self->replan_queued = TRUE;
  else
    start_plan (self);
  update_planning (self);
}

/* ---- loading ---- */

typedef struct {
  GFile *file;
  GFile *partition_file;
  PvStreamRegistry registry;
  GWeakRef document;         /* for stage reports */

  PvModel *model;
  PvKernelTable *kernels;
  char *partition_text;
  char **symbols;
  GHashTable *bounds;
  PvSession *session;
  GError *plan_error;
  PvSession *fallback;       /* ORT's default partition, when the config is invalid */
  PvTimelineModel *timeline;
} LoadData;

static void
load_data_free (LoadData *data)
{
  g_clear_object (&data->file);
  g_clear_object (&data->partition_file);
  g_weak_ref_clear (&data->document);
  g_clear_pointer (&data->timeline, pv_timeline_model_unref);
  g_clear_pointer (&data->session, pv_session_free);
  g_clear_pointer (&data->fallback, pv_session_free);
  g_clear_error (&data->plan_error);
  g_clear_pointer (&data->bounds, g_hash_table_unref);
  g_clear_pointer (&data->symbols, g_strfreev);
  g_clear_pointer (&data->partition_text, g_free);
  g_clear_pointer (&data->kernels, pv_kernel_table_free);
  g_clear_pointer (&data->model, pv_model_free);
  g_free (data);
}

typedef struct {
  GWeakRef document;
  char *stage;
} StageReport;

static gboolean
stage_report_cb (gpointer user_data)
{
  StageReport *report = user_data;
  g_autoptr (PvDocument) self = g_weak_ref_get (&report->document);

  if (self && self->loading && g_strcmp0 (self->load_stage, report->stage) != 0)
    {
      g_free (self->load_stage);
      self->load_stage = g_strdup (report->stage);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOAD_STAGE]);
    }
  return G_SOURCE_REMOVE;
}

static void
stage_report_free (gpointer user_data)
{
  StageReport *report = user_data;
  g_weak_ref_clear (&report->document);
  g_free (report->stage);
  g_free (report);
}

static void
report_stage (GTask *task, LoadData *data, const char *stage)
{
  StageReport *report = g_new0 (StageReport, 1);
  g_autoptr (GObject) self = g_weak_ref_get (&data->document);

  g_weak_ref_init (&report->document, self);
  report->stage = g_strdup (stage);
  g_main_context_invoke_full (g_task_get_context (task), G_PRIORITY_DEFAULT, stage_report_cb, report,
                              stage_report_free);
}

static PvModel *
load_model (GFile *file, GCancellable *cancellable, GError **error)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *contents = NULL;
  g_autofree char *name = NULL;
  gsize len = 0;

  if (path)
    return pv_model_load_from_file (path, error);
  /* Not a local file (a GVfs location): read it whole. */
  if (!g_file_load_contents (file, cancellable, &contents, &len, NULL, error))
    return NULL;
  name = g_file_get_parse_name (file);
  return pv_model_load_from_bytes ((const guint8 *) contents, len, name, error);
}

static void
load_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  LoadData *data = task_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (PvSession) probe = NULL;
  g_autofree char *basename = g_file_get_basename (data->file);
  g_autofree char *stage = g_strdup_printf ("Reading %s…", basename);

  report_stage (task, data, stage);
  data->model = load_model (data->file, cancellable, &error);
  if (data->model == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  data->kernels = pv_kernel_table_new_default (&error);
  if (data->kernels == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  if (data->partition_file)
    {
      if (!read_partition_text (data->partition_file, cancellable, &data->partition_text, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }
  else
    {
      g_autoptr (PvPartitionConfig) config = pv_partition_config_default (data->model->graph, NULL);
      data->partition_text = pv_partition_config_to_json (data->model->graph, config, TRUE);
      if (data->partition_text == NULL)
        data->partition_text = g_strdup ("");
    }

  /* Which symbols sizes depend on: plan once with none bound. */
  report_stage (task, data, "Inferring shapes…");
  probe = make_session (data->model, data->kernels, NULL, NULL, NULL, data->registry, NULL);
  data->bounds = bounds_new ();
  if (probe && probe->unbound_symbols)
    {
      data->symbols = g_strdupv (probe->unbound_symbols);
      for (int i = 0; data->symbols[i]; i++)
        {
          gint64 one = 1;
          g_hash_table_replace (data->bounds, g_strdup (data->symbols[i]), g_memdup2 (&one, sizeof one));
        }
    }
  else
    data->symbols = g_new0 (char *, 1);
  if (g_task_return_error_if_cancelled (task))
    return;

  report_stage (task, data, "Planning…");
  data->session = make_session (data->model, data->kernels, NULL, data->bounds, data->partition_text, data->registry,
                                &data->plan_error);
  if (!session_is_valid (data->session))
    {
      /* Nothing valid to fall back on yet: show ORT's default partition. */
      data->fallback = make_session (data->model, data->kernels, data->session ? data->session->shapes : NULL,
                                     data->bounds, NULL, data->registry, NULL);
      if (!session_is_valid (data->fallback))
        g_clear_pointer (&data->fallback, pv_session_free);
    }
  if (data->fallback)
    data->timeline = timeline_for (data->fallback);
  else if (data->session)
    /* Valid, or ORT would run no config of this model (a node without a
     * kernel): then the timeline shows the program order and the slot
     * and arena plans. */
    data->timeline = timeline_for (data->session);
  if (g_task_return_error_if_cancelled (task))
    return;
  g_task_return_boolean (task, TRUE);
}

static void
set_loading (PvDocument *self, gboolean loading)
{
  loading = !!loading;
  if (self->loading == loading)
    return;
  self->loading = loading;
  if (!loading)
    g_clear_pointer (&self->load_stage, g_free);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOAD_STAGE]);
}

static void
load_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  PvDocument *self = PV_DOCUMENT (object);
  GTask *outer = user_data;
  GTask *inner = G_TASK (result);
  LoadData *data = g_task_get_task_data (inner);
  g_autoptr (GError) error = NULL;
  PvModel *old_model;
  PvKernelTable *old_kernels;

  /* Only the newest load may finish; an older one was cancelled. */
  if (g_task_get_cancellable (inner) == self->load_cancellable)
    {
      g_clear_object (&self->load_cancellable);
      set_loading (self, FALSE);
    }
  if (!g_task_propagate_boolean (inner, &error))
    {
      g_task_return_error (outer, g_steal_pointer (&error));
      g_object_unref (outer);
      return;
    }

  g_object_freeze_notify (G_OBJECT (self));

  /* The old timeline and sessions borrow the old model: drop them first,
   * let the views move to the new timeline, then free the old model. */
  old_model = g_steal_pointer (&self->model);
  old_kernels = g_steal_pointer (&self->kernels);
  clear_sessions (self);

  self->model = g_steal_pointer (&data->model);
  self->kernels = g_steal_pointer (&data->kernels);
  g_set_object (&self->file, data->file);
  g_set_object (&self->partition_file, data->partition_file);
  g_free (self->title);
  self->title = g_file_get_basename (data->file);
  g_free (self->partition_text);
  self->partition_text = g_steal_pointer (&data->partition_text);
  g_strfreev (self->symbols);
  self->symbols = g_steal_pointer (&data->symbols);
  g_clear_pointer (&self->bounds, g_hash_table_unref);
  self->bounds = g_steal_pointer (&data->bounds);

  self->session = g_steal_pointer (&data->session);
  g_clear_pointer (&self->shapes, pv_shape_info_free);
  remember_shapes (self);
  self->plan_error = g_steal_pointer (&data->plan_error);
  self->plan_session = data->fallback ? g_steal_pointer (&data->fallback)
                                      : (session_is_valid (self->session) ? self->session : NULL);
  self->timeline = g_steal_pointer (&data->timeline);
  self->stale = !session_is_valid (self->session);
  self->n_plans++;

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PARTITION_FILE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STALE]);
  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, signals[LOADED], 0);
  g_signal_emit (self, signals[PLAN_CHANGED], 0);

  /* A re-plan in flight was made for the old model: it is dropped, and the
   * old model lives until its thread is done. */
  self->plan_generation++;
  self->replan_queued = FALSE;
  if (self->plan_running)
    {
      self->plan_running->retired_model = g_steal_pointer (&old_model);
      self->plan_running->retired_kernels = g_steal_pointer (&old_kernels);
    }
  drain_free_pool (self);
  g_clear_pointer (&old_kernels, pv_kernel_table_free);
  g_clear_pointer (&old_model, pv_model_free);
  update_planning (self);

  g_task_return_boolean (outer, TRUE);
  g_object_unref (outer);
}

void
pv_document_load_async (PvDocument *self, GFile *file, GFile *partition_file, GCancellable *cancellable,
                        GAsyncReadyCallback callback, gpointer user_data)
{
  GTask *outer;
  g_autoptr (GTask) inner = NULL;
  LoadData *data;

  g_return_if_fail (PV_IS_DOCUMENT (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (partition_file == NULL || G_IS_FILE (partition_file));

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, pv_document_load_async);

  /* A new load replaces one in flight. */
  if (self->load_cancellable)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = cancellable ? g_object_ref (cancellable) : g_cancellable_new ();

  data = g_new0 (LoadData, 1);
  data->file = g_object_ref (file);
  data->partition_file = partition_file ? g_object_ref (partition_file) : NULL;
  data->registry = self->registry;
  g_weak_ref_init (&data->document, self);

  set_loading (self, TRUE);
  inner = g_task_new (self, self->load_cancellable, load_done_cb, outer);
  g_task_set_source_tag (inner, load_thread);
  g_task_set_task_data (inner, data, (GDestroyNotify) load_data_free);
  g_task_run_in_thread (inner, load_thread);
}

gboolean
pv_document_load_finish (PvDocument *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ---- GObject ---- */

static void
pv_document_dispose (GObject *object)
{
  PvDocument *self = (PvDocument *) object;

  if (self->load_cancellable)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  G_OBJECT_CLASS (pv_document_parent_class)->dispose (object);
}

static void
pv_document_finalize (GObject *object)
{
  PvDocument *self = (PvDocument *) object;

  clear_sessions (self);
  g_thread_pool_free (g_steal_pointer (&self->free_pool), FALSE, TRUE);
  g_clear_pointer (&self->kernels, pv_kernel_table_free);
  g_clear_pointer (&self->model, pv_model_free);
  g_clear_object (&self->file);
  g_clear_object (&self->partition_file);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->partition_text, g_free);
  g_clear_pointer (&self->symbols, g_strfreev);
  g_clear_pointer (&self->bounds, g_hash_table_unref);
  g_clear_pointer (&self->load_stage, g_free);
  G_OBJECT_CLASS (pv_document_parent_class)->finalize (object);
}

static void
pv_document_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  PvDocument *self = PV_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_FILE: g_value_set_object (value, self->file); break;
    case PROP_PARTITION_FILE: g_value_set_object (value, self->partition_file); break;
    case PROP_TITLE: g_value_set_string (value, self->title); break;
    case PROP_LOADING: g_value_set_boolean (value, self->loading); break;
    case PROP_LOAD_STAGE: g_value_set_string (value, self->load_stage); break;
    case PROP_PLANNER: g_value_set_int (value, self->planner); break;
    case PROP_REGISTRY: g_value_set_int (value, self->registry); break;
    case PROP_STALE: g_value_set_boolean (value, self->stale); break;
    case PROP_PLANNING: g_value_set_boolean (value, self->planning); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pv_document_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  PvDocument *self = PV_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_PLANNER: pv_document_set_planner (self, g_value_get_int (value)); break;
    case PROP_REGISTRY: pv_document_set_registry (self, g_value_get_int (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pv_document_class_init (PvDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pv_document_dispose;
  object_class->finalize = pv_document_finalize;
  object_class->get_property = pv_document_get_property;
  object_class->set_property = pv_document_set_property;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_PARTITION_FILE] =
    g_param_spec_object ("partition-file", NULL, NULL, G_TYPE_FILE, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_LOAD_STAGE] =
    g_param_spec_string ("load-stage", NULL, NULL, NULL, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_PLANNER] =
    g_param_spec_int ("planner", NULL, NULL, PV_PLANNER_ORT, PV_PLANNER_ARENA, PV_PLANNER_ORT,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_REGISTRY] =
    g_param_spec_int ("registry", NULL, NULL, PV_REGISTRY_CPU, PV_REGISTRY_CUDA, PV_REGISTRY_CPU,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_STALE] =
    g_param_spec_boolean ("stale", NULL, NULL, FALSE, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_PLANNING] =
    g_param_spec_boolean ("planning", NULL, NULL, FALSE, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A new model (and partition text) is in place; plan-changed follows. */
  signals[LOADED] =
    g_signal_new ("loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* The session changed (and maybe the plan session and timeline). */
  signals[PLAN_CHANGED] =
    g_signal_new ("plan-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE,
                  0);
}

static void
pv_document_init (PvDocument *self)
{
  self->planner = PV_PLANNER_ORT;
  self->registry = PV_REGISTRY_CPU;
  self->bounds = bounds_new ();
  self->symbols = g_new0 (char *, 1);
  self->partition_text = g_strdup ("");
  self->free_pool = free_pool_new ();
}

/* ---- public API ---- */

gboolean
pv_document_get_loading (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), FALSE);
  return self->loading;
}

const char *
pv_document_get_load_stage (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  return self->load_stage;
}

GFile *
pv_document_get_file (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  return self->file;
}

const PvModel *
pv_document_get_model (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  return self->model;
}

const char *
pv_document_get_title (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  return self->title;
}

GFile *
pv_document_get_partition_file (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  return self->partition_file;
}

const char *
pv_document_get_partition_text (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  return self->partition_text;
}

void
pv_document_set_partition_text (PvDocument *self, const char *text)
{
  g_return_if_fail (PV_IS_DOCUMENT (self));

  if (text == NULL)
    text = "";
  if (g_strcmp0 (text, self->partition_text) == 0)
    return;
  g_free (self->partition_text);
  self->partition_text = g_strdup (text);
  replan (self);
}

char *
pv_document_dup_default_partition (PvDocument *self, gboolean pretty)
{
  g_autoptr (PvPartitionConfig) config = NULL;

  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);

  if (self->model == NULL)
    return NULL;
  config = pv_partition_config_default (self->model->graph, NULL);
  return pv_partition_config_to_json (self->model->graph, config, pretty);
}

gboolean
pv_document_load_partition (PvDocument *self, GFile *file, GError **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (PV_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->model == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "Open a model before its partition config");
      return FALSE;
    }
  if (!read_partition_text (file, NULL, &text, error))
    return FALSE;
  if (g_set_object (&self->partition_file, file))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PARTITION_FILE]);
  pv_document_set_partition_text (self, text);
  return TRUE;
}

gboolean
pv_document_save_partition (PvDocument *self, GFile *file, const char *text, GError **error)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  /* g_file_replace_contents writes a temporary file and renames it over
   * the old one: a crash never leaves half a config behind. */
  if (!g_file_replace_contents (file, text, strlen (text), NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL,
                                NULL, error))
    return FALSE;
  if (g_set_object (&self->partition_file, file))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PARTITION_FILE]);
  return TRUE;
}

PvPlannerKind
pv_document_get_planner (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), PV_PLANNER_ORT);
  return self->planner;
}

void
pv_document_set_planner (PvDocument *self, PvPlannerKind planner)
{
  g_return_if_fail (PV_IS_DOCUMENT (self));
  g_return_if_fail (planner <= PV_PLANNER_ARENA);

  /* Every session holds all three plans: nothing to re-plan. */
  if (self->planner == planner)
    return;
  self->planner = planner;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLANNER]);
}

PvStreamRegistry
pv_document_get_registry (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), PV_REGISTRY_CPU);
  return self->registry;
}

void
pv_document_set_registry (PvDocument *self, PvStreamRegistry registry)
{
  g_return_if_fail (PV_IS_DOCUMENT (self));
  g_return_if_fail (registry <= PV_REGISTRY_CUDA);

  if (self->registry == registry)
    return;
  self->registry = registry;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REGISTRY]);
  replan (self);
}

const char *const *
pv_document_get_symbols (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  return (const char *const *) self->symbols;
}

gint64
pv_document_get_bound (PvDocument *self, const char *symbol)
{
  const gint64 *value;

  g_return_val_if_fail (PV_IS_DOCUMENT (self), 0);
  g_return_val_if_fail (symbol != NULL, 0);

  value = g_hash_table_lookup (self->bounds, symbol);
  return value ? *value : 0;
}

void
pv_document_set_bound (PvDocument *self, const char *symbol, gint64 value)
{
  const gint64 *old;

  g_return_if_fail (PV_IS_DOCUMENT (self));
  g_return_if_fail (symbol != NULL);
  g_return_if_fail (value >= 0);

  old = g_hash_table_lookup (self->bounds, symbol);
  if (old && *old == value)
    return;
  g_hash_table_replace (self->bounds, g_strdup (symbol), g_memdup2 (&value, sizeof value));
  g_clear_pointer (&self->shapes, pv_shape_info_free);
  replan (self);
}

const PvSession *
pv_document_get_session (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  return self->session;
}

const GError *
pv_document_get_plan_error (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  return self->plan_error;
}

const PvSession *
pv_document_get_plan_session (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  return self->plan_session;
}

PvTimelineModel *
pv_document_get_timeline (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  return self->timeline;
}

gboolean
pv_document_get_stale (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), FALSE);
  return self->stale;
}

gboolean
pv_document_get_planning (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), FALSE);
  return self->plan_running != NULL || self->replan_queued;
}

void
pv_document_plan_now (PvDocument *self)
{
  PlanData *data;

  g_return_if_fail (PV_IS_DOCUMENT (self));

  data = self->plan_running;
  if (data)
    {
      /* Its task's callback, still to come, then finds it finished. */
      g_mutex_lock (&data->lock);
      while (!data->done)
        g_cond_wait (&data->cond, &data->lock);
      g_mutex_unlock (&data->lock);
      self->plan_running = NULL;
      if (data->generation == self->plan_generation)
        {
          finish_plan (self, data);
          return;
        }
    }
  if (self->replan_queued)
    {
      GError *error = NULL;
      PvSession *session;

      self->replan_queued = FALSE;
      session = make_session (self->model, self->kernels, self->shapes, self->bounds, self->partition_text,
                              self->registry,
                              &error);
      install_session (self, session, error, NULL);
    }
  update_planning (self);
}

guint
pv_document_get_n_plans (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), 0);
  return self->n_plans;
}

char *
pv_document_export_plan_json (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);

  if (self->plan_session == NULL)
    return NULL;
  return pv_plan_export_json (self->plan_session, self->planner);
}

char *
pv_document_export_trace_json (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);

  if (self->plan_session == NULL)
    return NULL;
  return pv_plan_export_trace (self->plan_session, self->planner);
}
