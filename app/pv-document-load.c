/* pv-document-load.c: loading a model in a worker: the file, the kernel
 * table, the partition text, the session basis (inference, maps, sizes,
 * lifetimes; every symbol sizes depend on bound to 1) and the first plan on
 * it. No probe session: the basis says which symbols need a bound. */
#include "pv-document-private.h"

#include <string.h>

#include <glib/gstdio.h>

#include "pv-model-loader.h"
#include "pv-ort-graph-rewrite.h"
#include "pv-partition-config.h"
#include "pv-read-file.h"
#include "pv-tsan-private.h"

typedef struct {
  GFile *file;
  GFile *partition_file;
  PvStreamRegistry registry;
  guint64 max_nodes;
  int gpu_requested;         /* made: nodes the config asks to run on the GPU */
  GWeakRef document;         /* for stage reports */

  PvModel *model;
  PvOrtShapes *ort_shapes;   /* ORT's view, inferred by the rewrite, for the basis */
  PvKernelTable *kernels;
  char *partition_text;
  char **symbols;
  GHashTable *bounds;
  PvSessionBasis *basis;
  PvSession *session;
  GError *plan_error;
  PvSession *fallback;       /* ORT's default partition, when the config is invalid */
  PvTimelineModel *timeline;
} LoadData;

/* The data's hand-offs between the threads (g_task_run_in_thread,
 * g_task_return_*, the task's last unref) are marked for ThreadSanitizer. */

static void
load_data_free (LoadData *data)
{
  /* On whichever thread drops the task last. */
  pv_tsan_acquire (data);
  g_clear_object (&data->file);
  g_clear_object (&data->partition_file);
  g_weak_ref_clear (&data->document);
  g_clear_pointer (&data->timeline, pv_timeline_model_unref);
  g_clear_pointer (&data->session, pv_session_free);
  g_clear_pointer (&data->fallback, pv_session_free);
  g_clear_pointer (&data->basis, pv_session_basis_unref);
  g_clear_error (&data->plan_error);
  g_clear_pointer (&data->bounds, g_hash_table_unref);
  g_clear_pointer (&data->symbols, g_strfreev);
  g_clear_pointer (&data->partition_text, g_free);
  g_clear_pointer (&data->kernels, pv_kernel_table_free);
  g_clear_pointer (&data->ort_shapes, pv_ort_shapes_unref);
  g_clear_pointer (&data->model, pv_model_free);
  g_free (data);
}

static void
report_stage (GTask *task, LoadData *data, const char *stage)
{
  _pv_document_report_stage (&data->document, g_task_get_context (task), FALSE, 0, stage);
}

/* The session's stages, as load stages ("Planning: ORT plan…"). */
static void
report_session_stage (gpointer user_data, PvSessionStage stage)
{
  GTask *task = user_data;
  g_autofree char *text = stage == PV_SESSION_STAGE_VALUE_MAPS
                            ? g_strdup ("Inferring shapes…")
                            : g_strdup_printf ("Planning: %s…", pv_session_stage_name (stage));

  report_stage (task, g_task_get_task_data (task), text);
}

/* A partition config's text: the whole file, UTF-8 without NULs. */
gboolean
_pv_document_read_partition_text (GFile *file, const PvGraph *graph, GCancellable *cancellable, char **text,
                                  GError **error)
{
  g_autofree char *contents = NULL;
  const char *path = g_file_peek_path (file);
  gsize limit = pv_partition_config_size_limit (graph);
  gsize len = 0;
  GStatBuf st;

  if (path != NULL && g_stat (path, &st) == 0 && S_ISREG (st.st_mode) && (guint64) st.st_size > limit)
    {
      g_autofree char *name = g_file_get_parse_name (file);
      g_autofree char *size = g_format_size_full (st.st_size, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *max = g_format_size_full (limit, G_FORMAT_SIZE_IEC_UNITS);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s, larger than the %s planviz reads as a partition "
                   "config of this %d-node model", name, size, max, graph->n_nodes);
      return FALSE;
    }
  /* A local file: bounded, and never a device or a FIFO (a remembered
   * config path may point anywhere). Errors stay in G_IO_ERROR, as GIO's. */
  if (path != NULL)
    {
      g_autoptr (GError) local = NULL;
      if (!pv_read_file (path, limit, &contents, &len, &local))
        {
          g_set_error_literal (error, G_IO_ERROR, g_io_error_from_file_error (local->code), local->message);
          return FALSE;
        }
    }
  else if (!g_file_load_contents (file, cancellable, &contents, &len, NULL, error))
    return FALSE;
  if (!g_utf8_validate (contents, len, NULL) || strlen (contents) != len)
    {
      g_autofree char *name = g_file_get_parse_name (file);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: not a text file (the partition config must be UTF-8 JSON)", name);
      return FALSE;
    }
  *text = g_steal_pointer (&contents);
  /* ORT writes its config on one line, too long to show and highlight:
   * the editor gets the same JSON, pretty-printed. */
  if (pv_partition_text_has_long_line (*text))
    {
      char *pretty = pv_partition_text_reformat (*text);
      if (pretty)
        g_free (*text), *text = pretty;
    }
  return TRUE;
}

static PvModel *
load_model (GFile *file, guint64 max_nodes, GCancellable *cancellable, GError **error)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *contents = NULL;
  g_autofree char *name = NULL;
  gsize len = 0;

  if (path)
    return pv_model_load_from_file_full (path, max_nodes, cancellable, error);
  /* Not a local file (a GVfs location): read it whole. */
  if (!g_file_load_contents (file, cancellable, &contents, &len, NULL, error))
    return NULL;
  name = g_file_get_parse_name (file);
  return pv_model_load_from_bytes ((const guint8 *) contents, len, name, error);
}

/* The model, kernel table and partition text of @data. */
static gboolean
read_inputs (GTask *task, LoadData *data, GCancellable *cancellable, GError **error)
{
  g_autofree char *basename = g_file_get_basename (data->file);
  g_autofree char *stage = g_strdup_printf ("Reading %s…", basename);

  report_stage (task, data, stage);
  data->model = load_model (data->file, data->max_nodes, cancellable, error);
  /* The graph ORT plans: its session-time rewrites (float16 Casts, …). */
  if (data->model == NULL || !pv_ort_graph_rewrite (data->model, cancellable, &data->ort_shapes, error))
    return FALSE;
  data->kernels = pv_kernel_table_new_default (error);
  if (data->kernels == NULL || g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (data->partition_file)
    return _pv_document_read_partition_text (data->partition_file, data->model->graph, cancellable,
                                             &data->partition_text, error);
  {
    g_autoptr (PvPartitionConfig) config = pv_partition_config_default (data->model->graph, NULL);
    data->partition_text = pv_partition_config_to_json (data->model->graph, config, TRUE);
    if (data->partition_text == NULL)
      data->partition_text = g_strdup ("");
  }
  return TRUE;
}

/* The basis with every symbol sizes depend on bound to 1, and the plans
 * of the config (or of ORT's default, when the config is invalid). */
static gboolean
plan_inputs (GTask *task, LoadData *data, GCancellable *cancellable, GError **error)
{
  PvSessionBasisOptions basis_options = { 0 };
  PvSessionOptions options = { 0 };
  PvOrtArenaSettings arena;
  g_autoptr (PvSessionBasis) unbound = NULL;
  g_autofree int *node_devices = NULL;

  _pv_document_arena_settings (&arena);
  options.ort_arena = &arena;
  basis_options.progress = report_session_stage;
  basis_options.progress_data = task;
  basis_options.ort_shapes = data->ort_shapes;
  basis_options.ort_order_trials = _pv_document_order_trials (data->model->graph);
  unbound = pv_session_basis_new (data->model, data->kernels, &basis_options, cancellable, error);
  if (unbound == NULL)
    return FALSE;
  data->symbols = g_strdupv (unbound->unbound_symbols);
  data->bounds = _pv_document_bounds_new ();
  for (int i = 0; data->symbols[i]; i++)
    {
      gint64 one = 1;
      g_hash_table_replace (data->bounds, g_strdup (data->symbols[i]), g_memdup2 (&one, sizeof one));
    }
  data->basis = pv_session_basis_new_with_bounds (unbound, data->bounds);

  node_devices = _pv_document_node_devices (data->basis->model->graph, data->registry, data->partition_text,
                                            &data->gpu_requested);
  options.partition_text = data->partition_text;
  options.partition_len = strlen (data->partition_text);
  options.registry = data->registry;
  options.node_devices = node_devices;
  options.progress = report_session_stage;
  options.progress_data = task;
  data->session = pv_session_new_on_basis (data->basis, &options, cancellable, &data->plan_error);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (!_pv_document_session_is_valid (data->session))
    {
      /* Nothing valid to fall back on yet: show ORT's default partition. */
      options.partition_text = NULL;
      options.partition_len = 0;
      options.node_devices = NULL;
      data->fallback = pv_session_new_on_basis (data->basis, &options, cancellable, NULL);
      if (!_pv_document_session_is_valid (data->fallback))
        g_clear_pointer (&data->fallback, pv_session_free);
    }
  if (data->fallback)
    data->timeline = _pv_document_timeline_for (data->fallback);
  else if (data->session)
    /* Valid, or ORT would run no config of this model (a node without a
     * kernel): then the timeline shows the program order and the slot
     * and arena plans. */
    data->timeline = _pv_document_timeline_for (data->session);
  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}

static void
load_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  LoadData *data = task_data;
  g_autoptr (GError) error = NULL;
  gboolean loaded;

  pv_tsan_acquire (data);
  loaded = read_inputs (task, data, cancellable, &error) && plan_inputs (task, data, cancellable, &error);
  pv_tsan_release (data);
  if (!loaded)
    g_task_return_error (task, g_steal_pointer (&error));
  else
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
  g_object_notify_by_pspec (G_OBJECT (self), _pv_document_properties[PV_DOCUMENT_PROP_LOADING]);
  g_object_notify_by_pspec (G_OBJECT (self), _pv_document_properties[PV_DOCUMENT_PROP_LOAD_STAGE]);
}

/* The loaded model, its inputs and first plan become the document's. */
static void
install_load (PvDocument *self, LoadData *data)
{
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
  g_clear_pointer (&self->bounds_set, g_hash_table_unref);
  /* Input values belong to the model they were given for. */
  g_clear_pointer (&self->input_texts, g_hash_table_unref);
  g_clear_pointer (&self->input_values, g_hash_table_unref);
  self->basis_values_generation = self->values_generation;
  self->basis = g_steal_pointer (&data->basis);
  self->session = g_steal_pointer (&data->session);
  self->plan_error = g_steal_pointer (&data->plan_error);
  self->plan_session = data->fallback ? g_steal_pointer (&data->fallback)
                                      : (_pv_document_session_is_valid (self->session) ? self->session : NULL);
  self->timeline = g_steal_pointer (&data->timeline);
  self->stale = !_pv_document_session_is_valid (self->session);
  /* A fallback plan runs ORT's default partition: no GPU node. */
  self->gpu_requested = data->fallback ? 0 : data->gpu_requested;
  self->cancelled = FALSE;
  self->n_plans++;
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
  g_autoptr (GPtrArray) reopen = NULL;

  pv_tsan_acquire (data);
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
      /* The worker's reference on the task may be the last. */
      pv_tsan_release (data);
      return;
    }

  g_object_freeze_notify (G_OBJECT (self));
  /* The old plans borrow the old model: drop them first, let the views
   * move to the new timeline, then free the old model. */
  old_model = g_steal_pointer (&self->model);
  old_kernels = g_steal_pointer (&self->kernels);
  /* A reload of the same file opens the same bodies again (by name). */
  if (self->file && g_file_equal (self->file, data->file))
    reopen = _pv_document_dup_body_paths (self);
  _pv_document_clear_plans (self);
  install_load (self, data);
  pv_tsan_release (data);
  g_object_notify_by_pspec (G_OBJECT (self), _pv_document_properties[PV_DOCUMENT_PROP_FILE]);
  g_object_notify_by_pspec (G_OBJECT (self), _pv_document_properties[PV_DOCUMENT_PROP_PARTITION_FILE]);
  g_object_notify_by_pspec (G_OBJECT (self), _pv_document_properties[PV_DOCUMENT_PROP_TITLE]);
  g_object_notify_by_pspec (G_OBJECT (self), _pv_document_properties[PV_DOCUMENT_PROP_STALE]);
  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, _pv_document_signals[PV_DOCUMENT_SIGNAL_LOADED], 0);
  g_signal_emit (self, _pv_document_signals[PV_DOCUMENT_SIGNAL_PLAN_CHANGED], 0);

  /* Sessions being freed borrow the old model; a job in flight keeps it
   * until it is done. */
  g_thread_pool_free (self->free_pool, FALSE, TRUE);
  pv_tsan_acquire (self);
  self->free_pool = _pv_document_free_pool_new (self);
  _pv_document_retire_for_load (self, old_model, old_kernels);
  if (reopen && reopen->len > 0)
    {
      self->bodies = g_steal_pointer (&reopen);
      _pv_document_replan_bodies (self);
    }
  _pv_document_update_planning (self);

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
  data->max_nodes = self->max_nodes;
  g_weak_ref_init (&data->document, self);

  set_loading (self, TRUE);
  inner = g_task_new (self, self->load_cancellable, load_done_cb, outer);
  g_task_set_source_tag (inner, load_thread);
  g_task_set_task_data (inner, data, (GDestroyNotify) load_data_free);
  pv_tsan_release (data);
  g_task_run_in_thread (inner, load_thread);
}

gboolean
pv_document_load_finish (PvDocument *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
