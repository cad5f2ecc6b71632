/* pv-document.c: one open model and what the window plans for it: the
 * object, its properties and API. Planning is in pv-document-plan.c,
 * loading in pv-document-load.c. */
#include "pv-document-private.h"

#include <string.h>

#include "pv-input-values.h"
#include "pv-model-loader.h"
#include "pv-node-limit.h"
#include "pv-save-file.h"
#include "pv-tsan-private.h"

G_DEFINE_FINAL_TYPE (PvDocument, pv_document, G_TYPE_OBJECT)

GParamSpec *_pv_document_properties[PV_DOCUMENT_N_PROPS];
guint _pv_document_signals[PV_DOCUMENT_N_SIGNALS];

PvDocument *
pv_document_new (void)
{
  return g_object_new (PV_TYPE_DOCUMENT, NULL);
}

/* ---- shared helpers ---- */

GHashTable *
_pv_document_bounds_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

GHashTable *
_pv_document_bounds_copy (GHashTable *bounds)
{
  GHashTable *copy = _pv_document_bounds_new ();
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, bounds);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (copy, g_strdup (key), g_memdup2 (value, sizeof (gint64)));
  return copy;
}

int
_pv_document_order_trials (const PvGraph *graph)
{
  int n = MIN (PV_DOCUMENT_ORDER_TRIAL_BUDGET / MAX (graph->n_nodes, 1), PV_ORT_DEFAULT_ORDER_TRIALS);

  return n >= 4 ? n : -1;
}

void
_pv_document_arena_settings (PvOrtArenaSettings *settings)
{
  pv_ort_arena_settings_init (settings);
  settings->intra_op_threads = (int) g_get_num_processors ();
}

gboolean
_pv_document_session_is_valid (const PvSession *session)
{
  if (session == NULL || session->ort == NULL || session->schedule == NULL)
    return FALSE;
  return session->partition_check == NULL || !pv_partition_check_has_errors (session->partition_check);
}

PvTimelineModel *
_pv_document_timeline_for (const PvSession *session)
{
  PvTimelineSource source;
  pv_timeline_source_init_from_session (&source, session);
  return pv_timeline_model_new (&source);
}

void
_pv_document_body_plan_free (PvBodyPlan *body)
{
  g_free (body->node_name);
  g_free (body->attr);
  g_clear_pointer (&body->timeline, pv_timeline_model_unref);
  g_clear_pointer (&body->session, pv_session_free);
  g_free (body);
}

/* ThreadSanitizer is told of the pool's hand-offs: each session pushed to
 * it (pv_tsan_release before g_thread_pool_push), and each free, before
 * what the document does once g_thread_pool_free() has waited for the pool
 * (the document is the key). */
static void
free_pool_func (gpointer data, gpointer user_data)
{
  pv_tsan_acquire (data);
  pv_session_free (data);
  pv_tsan_release (user_data);
}

GThreadPool *
_pv_document_free_pool_new (PvDocument *self)
{
  return g_thread_pool_new (free_pool_func, self, 1, FALSE, NULL);
}

void
_pv_document_set_stale (PvDocument *self, gboolean stale)
{
  stale = !!stale;
  if (self->stale == stale)
    return;
  self->stale = stale;
  g_object_notify_by_pspec (G_OBJECT (self), _pv_document_properties[PV_DOCUMENT_PROP_STALE]);
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

  /* A job in flight holds a reference on the document: none runs. */
  _pv_document_clear_plans (self);
  g_thread_pool_free (g_steal_pointer (&self->free_pool), FALSE, TRUE);
  pv_tsan_acquire (self);
  g_clear_pointer (&self->kernels, pv_kernel_table_free);
  g_clear_pointer (&self->model, pv_model_free);
  g_clear_object (&self->file);
  g_clear_object (&self->partition_file);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->partition_text, g_free);
  g_clear_pointer (&self->symbols, g_strfreev);
  g_clear_pointer (&self->bounds, g_hash_table_unref);
  g_clear_pointer (&self->bounds_set, g_hash_table_unref);
  g_clear_pointer (&self->input_texts, g_hash_table_unref);
  g_clear_pointer (&self->input_values, g_hash_table_unref);
  g_clear_pointer (&self->load_stage, g_free);
  g_clear_pointer (&self->plan_stage, g_free);
  G_OBJECT_CLASS (pv_document_parent_class)->finalize (object);
}

static void
pv_document_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  PvDocument *self = PV_DOCUMENT (object);

  switch (prop_id)
    {
    case PV_DOCUMENT_PROP_FILE: g_value_set_object (value, self->file); break;
    case PV_DOCUMENT_PROP_PARTITION_FILE: g_value_set_object (value, self->partition_file); break;
    case PV_DOCUMENT_PROP_TITLE: g_value_set_string (value, self->title); break;
    case PV_DOCUMENT_PROP_LOADING: g_value_set_boolean (value, self->loading); break;
    case PV_DOCUMENT_PROP_LOAD_STAGE: g_value_set_string (value, self->load_stage); break;
    case PV_DOCUMENT_PROP_PLANNER: g_value_set_int (value, self->planner); break;
    case PV_DOCUMENT_PROP_REGISTRY: g_value_set_int (value, self->registry); break;
    case PV_DOCUMENT_PROP_STALE: g_value_set_boolean (value, self->stale); break;
    case PV_DOCUMENT_PROP_PLANNING: g_value_set_boolean (value, self->planning); break;
    case PV_DOCUMENT_PROP_PLAN_STAGE: g_value_set_string (value, self->plan_stage); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pv_document_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  PvDocument *self = PV_DOCUMENT (object);

  switch (prop_id)
    {
    case PV_DOCUMENT_PROP_PLANNER: pv_document_set_planner (self, g_value_get_int (value)); break;
    case PV_DOCUMENT_PROP_REGISTRY: pv_document_set_registry (self, g_value_get_int (value)); break;
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

  _pv_document_properties[PV_DOCUMENT_PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  _pv_document_properties[PV_DOCUMENT_PROP_PARTITION_FILE] =
    g_param_spec_object ("partition-file", NULL, NULL, G_TYPE_FILE, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  _pv_document_properties[PV_DOCUMENT_PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  _pv_document_properties[PV_DOCUMENT_PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  _pv_document_properties[PV_DOCUMENT_PROP_LOAD_STAGE] =
    g_param_spec_string ("load-stage", NULL, NULL, NULL, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  _pv_document_properties[PV_DOCUMENT_PROP_PLANNER] =
    g_param_spec_int ("planner", NULL, NULL, PV_PLANNER_ORT, PV_PLANNER_ARENA, PV_PLANNER_ORT,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  _pv_document_properties[PV_DOCUMENT_PROP_REGISTRY] =
    g_param_spec_int ("registry", NULL, NULL, PV_REGISTRY_CPU, PV_REGISTRY_CUDA, PV_REGISTRY_CPU,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  _pv_document_properties[PV_DOCUMENT_PROP_STALE] =
    g_param_spec_boolean ("stale", NULL, NULL, FALSE, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  _pv_document_properties[PV_DOCUMENT_PROP_PLANNING] =
    g_param_spec_boolean ("planning", NULL, NULL, FALSE, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  _pv_document_properties[PV_DOCUMENT_PROP_PLAN_STAGE] =
    g_param_spec_string ("plan-stage", NULL, NULL, NULL, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, PV_DOCUMENT_N_PROPS, _pv_document_properties);

  /* A new model (and partition text) is in place; plan-changed follows. */
  _pv_document_signals[PV_DOCUMENT_SIGNAL_LOADED] =
    g_signal_new ("loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* pv_document_get_symbols() changed: input values made symbols appear
   * or vanish. */
  _pv_document_signals[PV_DOCUMENT_SIGNAL_SYMBOLS_CHANGED] =
    g_signal_new ("symbols-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  /* The session changed (and maybe the plan session and timeline). */
  _pv_document_signals[PV_DOCUMENT_SIGNAL_PLAN_CHANGED] =
    g_signal_new ("plan-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE,
                  0);
}

static void
init_max_nodes (PvDocument *self)
{
  g_autoptr (GError) error = NULL;

  if (!pv_node_limit_from_environment (&self->max_nodes, &error))
    g_printerr ("planviz: %s; the limit stays %d nodes\n", error->message, PV_MODEL_DEFAULT_MAX_NODES);
}

static void
pv_document_init (PvDocument *self)
{
  self->planner = PV_PLANNER_ORT;
  self->registry = PV_REGISTRY_CPU;
  init_max_nodes (self);
  self->bounds = _pv_document_bounds_new ();
  self->symbols = g_new0 (char *, 1);
  self->partition_text = g_strdup ("");
  self->free_pool = _pv_document_free_pool_new (self);
}

/* ---- public API ---- */

void
pv_document_set_max_nodes (PvDocument *self, guint64 max_nodes)
{
  g_return_if_fail (PV_IS_DOCUMENT (self));
  self->max_nodes = max_nodes;
}

guint64
pv_document_get_max_nodes (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), 0);
  return self->max_nodes;
}

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
  _pv_document_replan (self);
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
  if (!_pv_document_read_partition_text (file, self->model->graph, NULL, &text, error))
    return FALSE;
  if (g_set_object (&self->partition_file, file))
    g_object_notify_by_pspec (G_OBJECT (self), _pv_document_properties[PV_DOCUMENT_PROP_PARTITION_FILE]);
  pv_document_set_partition_text (self, text);
  return TRUE;
}

gboolean
pv_document_save_partition (PvDocument *self, GFile *file, const char *text, GError **error)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  /* A temporary file renamed over the old one once every byte is on
   * disk: a crash or a full disk never leaves half a config behind. */
  if (!pv_save_gfile (file, text, strlen (text), error))
    return FALSE;
  if (g_set_object (&self->partition_file, file))
    g_object_notify_by_pspec (G_OBJECT (self), _pv_document_properties[PV_DOCUMENT_PROP_PARTITION_FILE]);
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
  g_object_notify_by_pspec (G_OBJECT (self), _pv_document_properties[PV_DOCUMENT_PROP_PLANNER]);
}

int
pv_document_get_gpu_requested (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), 0);
  return self->gpu_requested;
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
  g_object_notify_by_pspec (G_OBJECT (self), _pv_document_properties[PV_DOCUMENT_PROP_REGISTRY]);
  _pv_document_replan (self);
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

  /* Set, even to the value it had: the user chose it. */
  if (self->bounds_set == NULL)
    self->bounds_set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_add (self->bounds_set, g_strdup (symbol));
  old = g_hash_table_lookup (self->bounds, symbol);
  if (old && *old == value)
    return;
  /* Shapes do not depend on bounds: the job makes a basis with the new
   * bounds that shares the inference, maps and lifetimes. */
  g_hash_table_replace (self->bounds, g_strdup (symbol), g_memdup2 (&value, sizeof value));
  /* A symbol only open bodies' sizes mention: the main plan stays. */
  if (self->basis && !g_strv_contains ((const char *const *) self->basis->symbols, symbol) && self->bodies &&
      self->bodies->len > 0)
    _pv_document_replan_bodies (self);
  else
    _pv_document_replan (self);
}

const char *
pv_document_get_input_value (PvDocument *self, const char *input)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (input != NULL, NULL);

  return self->input_texts ? g_hash_table_lookup (self->input_texts, input) : NULL;
}

/* Copies of the input tables (a job in flight keeps the old ones). */
static void
copy_input_tables (PvDocument *self, GHashTable **texts, GHashTable **values)
{
  GHashTableIter iter;
  gpointer key, value;

  *texts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) pv_tensor_free);
  if (self->input_texts == NULL)
    return;
  g_hash_table_iter_init (&iter, self->input_texts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_autoptr (PvTensor) tensor = pv_input_value_parse (self->model, key, value, NULL);
      g_hash_table_insert (*texts, g_strdup (key), g_strdup (value));
      if (tensor)
        g_hash_table_insert (*values, g_strdup (key), g_steal_pointer (&tensor));
    }
}

gboolean
pv_document_set_input_value (PvDocument *self, const char *input, const char *text, GError **error)
{
  g_autoptr (PvTensor) tensor = NULL;
  g_autoptr (GHashTable) texts = NULL;
  g_autoptr (GHashTable) values = NULL;
  g_autofree char *stripped = g_strstrip (g_strdup (text ? text : ""));

  g_return_val_if_fail (PV_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (input != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->model == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "Open a model before giving input values");
      return FALSE;
    }
  if (*stripped != '\0' && (tensor = pv_input_value_parse (self->model, input, stripped, error)) == NULL)
    return FALSE;
  if (g_strcmp0 (pv_document_get_input_value (self, input), *stripped ? stripped : NULL) == 0)
    return TRUE;
  copy_input_tables (self, &texts, &values);
  if (tensor)
    {
      g_hash_table_replace (texts, g_strdup (input), g_strdup (stripped));
      g_hash_table_replace (values, g_strdup (input), g_steal_pointer (&tensor));
    }
  else
    {
      g_hash_table_remove (texts, input);
      g_hash_table_remove (values, input);
    }
  g_clear_pointer (&self->input_texts, g_hash_table_unref);
  g_clear_pointer (&self->input_values, g_hash_table_unref);
  if (g_hash_table_size (texts) > 0)
    {
      self->input_texts = g_steal_pointer (&texts);
      self->input_values = g_steal_pointer (&values);
    }
  self->values_generation++;
  _pv_document_replan (self);
  return TRUE;
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
  return _pv_document_is_planning (self);
}

const char *
pv_document_get_plan_stage (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  return self->plan_stage;
}

gboolean
pv_document_get_cancelled (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), FALSE);
  return self->cancelled;
}

/* ---- subgraph bodies ---- */

/* The session of level @depth: the plan session at 0. */
static const PvSession *
level_session (PvDocument *self, guint depth)
{
  if (depth == 0)
    return self->plan_session;
  return depth <= pv_document_get_n_bodies (self)
           ? ((PvBodyPlan *) g_ptr_array_index (self->bodies, depth - 1))->session : NULL;
}

guint
pv_document_get_n_bodies (PvDocument *self)
{
  guint n = 0;

  g_return_val_if_fail (PV_IS_DOCUMENT (self), 0);
  while (self->bodies && n < self->bodies->len &&
         ((PvBodyPlan *) g_ptr_array_index (self->bodies, n))->session != NULL)
    n++;
  return n;
}

const PvSession *
pv_document_get_body_session (PvDocument *self, guint depth)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (depth >= 1, NULL);
  return level_session (self, depth);
}

PvTimelineModel *
pv_document_get_body_timeline (PvDocument *self, guint depth)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (depth >= 1, NULL);
  if (depth > pv_document_get_n_bodies (self))
    return NULL;
  return ((PvBodyPlan *) g_ptr_array_index (self->bodies, depth - 1))->timeline;
}

const char *
pv_document_get_body_name (PvDocument *self, guint depth, const char **attr)
{
  const PvBodyPlan *body;

  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  if (depth < 1 || self->bodies == NULL || depth > self->bodies->len)
    return NULL;
  body = g_ptr_array_index (self->bodies, depth - 1);
  if (attr)
    *attr = body->attr;
  return body->node_name;
}

const PvSession *
pv_document_find_session (PvDocument *self, const PvGraph *graph)
{
  guint n;

  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  if (graph == NULL || self->plan_session == NULL || graph == self->plan_session->graph)
    return self->plan_session;
  n = pv_document_get_n_bodies (self);
  for (guint d = 1; d <= n; d++)
    if (level_session (self, d)->graph == graph)
      return level_session (self, d);
  return NULL;
}

const GError *
pv_document_get_body_error (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  return self->body_error;
}

gboolean
pv_document_open_body (PvDocument *self, int node, int subgraph_index, GError **error)
{
  guint depth;
  const PvSession *parent;
  const PvGraph *graph;

  g_return_val_if_fail (PV_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  depth = pv_document_get_n_bodies (self);
  parent = level_session (self, depth);
  if (parent == NULL)
    {
      g_set_error_literal (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_PARENT_PLAN,
                           "There is no plan to open a subgraph of");
      return FALSE;
    }
  graph = parent->graph;
  if (node < 0 || node >= graph->n_nodes || subgraph_index < 0 || subgraph_index >= graph->nodes[node].n_subgraphs)
    {
      g_set_error (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_SUBGRAPH, "node %d of “%s” has no subgraph %d", node,
                   graph->name ? graph->name : "the graph", subgraph_index);
      return FALSE;
    }
  if (parent->ort == NULL)
    {
      g_set_error (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_PARENT_PLAN,
                   "ONNX Runtime would not run the graph that holds “%s”: %s", graph->nodes[node].name,
                   parent->ort_error ? parent->ort_error : "it has no plan");
      return FALSE;
    }
  /* Levels opened but not planned yet give way to this one. */
  if (self->bodies == NULL)
    self->bodies = g_ptr_array_new_with_free_func ((GDestroyNotify) _pv_document_body_plan_free);
  g_ptr_array_set_size (self->bodies, depth);
  g_ptr_array_add (self->bodies, _pv_document_body_path_new (graph->nodes[node].name,
                                                             graph->nodes[node].subgraphs[subgraph_index]->parent_attr));
  g_clear_error (&self->body_error);
  _pv_document_replan_bodies (self);
  return TRUE;
}

void
pv_document_close_bodies (PvDocument *self, guint depth)
{
  g_return_if_fail (PV_IS_DOCUMENT (self));

  if (self->bodies == NULL || depth >= self->bodies->len)
    return;
  g_ptr_array_set_size (self->bodies, depth);
  g_clear_error (&self->body_error);
  /* Symbols only the closed bodies mention leave the Bounds popover (their
   * bounds stay, for when they open again). */
  _pv_document_update_symbols (self);
  /* What is left is planned already; a job in flight would bring the
   * closed levels back. */
  if (self->plan_running)
    _pv_document_replan_bodies (self);
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
