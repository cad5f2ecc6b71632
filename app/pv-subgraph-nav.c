/* pv-subgraph-nav.c: which graph of the document the window shows. */
#include "pv-subgraph-nav.h"

#include "pv-partition-config.h"

/* One open body: how to find it again, and its plan. */
typedef struct {
  char *node_name;           /* ORT node name in the level above */
  char *attr;                /* "then_branch", "body", … */
  PvSession *session;
  PvTimelineModel *timeline;
} Level;

struct _PvSubgraphNav
{
  GObject parent_instance;

  PvDocument *document;
  GArray *levels;            /* Level, level 1 first */
  char *title;               /* its file name */
  char *notice;
};

G_DEFINE_FINAL_TYPE (PvSubgraphNav, pv_subgraph_nav, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static void
level_clear (Level *level)
{
  g_clear_pointer (&level->node_name, g_free);
  g_clear_pointer (&level->attr, g_free);
  g_clear_pointer (&level->timeline, pv_timeline_model_unref);
  g_clear_pointer (&level->session, pv_session_free);
}

static Level *
level_at (PvSubgraphNav *self, guint depth)
{
  return &g_array_index (self->levels, Level, depth - 1);
}

static void
set_notice (PvSubgraphNav *self, const char *notice)
{
  g_free (self->notice);
  self->notice = g_strdup (notice);
}

/* The options the document plans with, for a body: its bounds and
 * registry (a body has no partition config of its own). */
static void
options_init (PvSubgraphNav *self, PvSessionOptions *options, GHashTable *bounds)
{
  const char *const *symbols = pv_document_get_symbols (self->document);

  *options = (PvSessionOptions) { 0 };
  for (int i = 0; symbols && symbols[i]; i++)
    {
      gint64 value = pv_document_get_bound (self->document, symbols[i]);
      g_hash_table_replace (bounds, g_strdup (symbols[i]), g_memdup2 (&value, sizeof value));
    }
  options->bounds = bounds;
  options->registry = pv_document_get_registry (self->document);
}

static GHashTable *
bounds_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

static PvTimelineModel *
timeline_for (const PvSession *session)
{
  PvTimelineSource source;
  pv_timeline_source_init_from_session (&source, session);
  return pv_timeline_model_new (&source);
}

/* The subgraph index of @attr on @parent's node @node, or -1. */
static int
find_subgraph (const PvGraph *parent, int node, const char *attr)
{
  for (int k = 0; k < parent->nodes[node].n_subgraphs; k++)
    if (g_strcmp0 (parent->nodes[node].subgraphs[k]->parent_attr, attr) == 0)
      return k;
  return -1;
}

/* Plans the body (@node_name, @attr) of @parent's graph. */
static PvSession *
plan_level (PvSubgraphNav *self, const PvSession *parent, const char *node_name, const char *attr,
            GError **error)
{
  g_autoptr (GHashTable) bounds = bounds_new ();
  PvSessionOptions options;
  int node = pv_graph_find_node (parent->graph, node_name);
  int index = node >= 0 ? find_subgraph (parent->graph, node, attr) : -1;

  if (index < 0)
    {
      g_set_error (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_SUBGRAPH, "“%s” %s is no longer in the model",
                   node_name, attr);
      return NULL;
    }
  options_init (self, &options, bounds);
  return pv_session_new_for_subgraph (parent, node, index, &options, error);
}

static void
pop_to (PvSubgraphNav *self, guint depth)
{
  if (self->levels->len > depth)
    g_array_set_size (self->levels, depth);
}

/* Plans every open level again from the document's plan session; on
 * failure returns to the main graph with a notice. */
static void
replan (PvSubgraphNav *self)
{
  const PvSession *parent = pv_document_get_plan_session (self->document);
  g_autoptr (GError) error = NULL;

  for (guint d = 1; d <= self->levels->len && error == NULL; d++)
    {
      Level *level = level_at (self, d);
      PvSession *session;

      if (parent == NULL)
        {
          g_set_error_literal (&error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_PARENT_PLAN,
                               "the main graph has no plan");
          break;
        }
      session = plan_level (self, parent, level->node_name, level->attr, &error);
      if (session == NULL)
        break;
      g_clear_pointer (&level->timeline, pv_timeline_model_unref);
      g_clear_pointer (&level->session, pv_session_free);
      level->session = session;
      level->timeline = timeline_for (session);
      parent = session;
    }
  if (error)
    {
      g_autofree char *notice = g_strdup_printf ("Back to the main graph: %s", error->message);
      pop_to (self, 0);
      set_notice (self, notice);
    }
}

static void
document_loaded_cb (PvSubgraphNav *self, PvDocument *document)
{
  /* Another file: its nodes are not the ones the levels name. */
  gboolean other = g_strcmp0 (self->title, pv_document_get_title (document)) != 0;

  g_free (self->title);
  self->title = g_strdup (pv_document_get_title (document));
  if (other)
    pop_to (self, 0);
  set_notice (self, NULL);
  /* A new model: new crumbs, new graph (a reload of the same file keeps
   * the levels; plan-changed, next, plans them again). */
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
document_plan_changed_cb (PvSubgraphNav *self, PvDocument *document)
{
  if (self->levels->len == 0)
    return;
  replan (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* ---- public API ---- */

PvSubgraphNav *
pv_subgraph_nav_new (PvDocument *document)
{
  PvSubgraphNav *self;

  g_return_val_if_fail (PV_IS_DOCUMENT (document), NULL);

  self = g_object_new (PV_TYPE_SUBGRAPH_NAV, NULL);
  self->document = g_object_ref (document);
  self->title = g_strdup (pv_document_get_title (document));
  g_signal_connect_object (document, "loaded", G_CALLBACK (document_loaded_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (document, "plan-changed", G_CALLBACK (document_plan_changed_cb), self,
                           G_CONNECT_SWAPPED);
  return self;
}

guint
pv_subgraph_nav_get_depth (PvSubgraphNav *self)
{
  g_return_val_if_fail (PV_IS_SUBGRAPH_NAV (self), 0);
  return self->levels->len;
}

const PvSession *
pv_subgraph_nav_get_session (PvSubgraphNav *self)
{
  g_return_val_if_fail (PV_IS_SUBGRAPH_NAV (self), NULL);
  if (self->levels->len == 0)
    return pv_document_get_plan_session (self->document);
  return level_at (self, self->levels->len)->session;
}

const PvGraph *
pv_subgraph_nav_get_graph (PvSubgraphNav *self)
{
  const PvModel *model;

  g_return_val_if_fail (PV_IS_SUBGRAPH_NAV (self), NULL);
  if (self->levels->len > 0)
    return level_at (self, self->levels->len)->session->graph;
  model = pv_document_get_model (self->document);
  return model ? model->graph : NULL;
}

PvTimelineModel *
pv_subgraph_nav_get_timeline (PvSubgraphNav *self)
{
  g_return_val_if_fail (PV_IS_SUBGRAPH_NAV (self), NULL);
  if (self->levels->len == 0)
    return pv_document_get_timeline (self->document);
  return level_at (self, self->levels->len)->timeline;
}

gboolean
pv_subgraph_nav_open (PvSubgraphNav *self, int node, int subgraph_index, GError **error)
{
  const PvSession *parent;
  const PvGraph *graph;
  Level level = { 0 };
  g_autoptr (GHashTable) bounds = bounds_new ();
  PvSessionOptions options;

  g_return_val_if_fail (PV_IS_SUBGRAPH_NAV (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  parent = pv_subgraph_nav_get_session (self);
  if (parent == NULL)
    {
      g_set_error_literal (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_PARENT_PLAN,
                           "There is no plan to open a subgraph of");
      return FALSE;
    }
  graph = parent->graph;
  options_init (self, &options, bounds);
  level.session = pv_session_new_for_subgraph (parent, node, subgraph_index, &options, error);
  if (level.session == NULL)
    return FALSE;
  level.node_name = g_strdup (graph->nodes[node].name);
  level.attr = g_strdup (level.session->graph->parent_attr);
  level.timeline = timeline_for (level.session);
  g_array_append_val (self->levels, level);
  set_notice (self, NULL);
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

void
pv_subgraph_nav_go_to (PvSubgraphNav *self, guint depth)
{
  g_return_if_fail (PV_IS_SUBGRAPH_NAV (self));

  if (depth >= self->levels->len)
    return;
  pop_to (self, depth);
  set_notice (self, NULL);
  g_signal_emit (self, signals[CHANGED], 0);
}

char *
pv_subgraph_nav_dup_crumb (PvSubgraphNav *self, guint depth)
{
  Level *level;

  g_return_val_if_fail (PV_IS_SUBGRAPH_NAV (self), NULL);
  if (depth > self->levels->len)
    return NULL;
  if (depth == 0)
    {
      const char *title = pv_document_get_title (self->document);
      return g_strdup (title ? title : "main graph");
    }
  level = level_at (self, depth);
  return g_strdup_printf ("%s %s", level->node_name, level->attr ? level->attr : "subgraph");
}

const char *
pv_subgraph_nav_get_notice (PvSubgraphNav *self)
{
  g_return_val_if_fail (PV_IS_SUBGRAPH_NAV (self), NULL);
  return self->notice;
}

char *
pv_subgraph_nav_dup_ort_note (PvSubgraphNav *self)
{
  const PvSession *s;
  const char *device;

  g_return_val_if_fail (PV_IS_SUBGRAPH_NAV (self), NULL);
  if (self->levels->len == 0)
    return NULL;
  s = level_at (self, self->levels->len)->session;
  if (s->ort == NULL)
    return g_strdup_printf ("ONNX Runtime would not plan this body: %s", s->ort_error);
  device = s->ort->n_streams > 0 ? pv_device_type_name (s->ort->streams[0].device.type) : NULL;
  return g_strdup_printf ("ONNX Runtime plans this body on its own, on one stream%s%s: the partition config "
                          "applies to the main graph only. Outer-scope values and body inputs are pre-existing.",
                          device ? " on " : "", device ? device : "");
}

/* ---- GObject ---- */

static void
pv_subgraph_nav_dispose (GObject *object)
{
  PvSubgraphNav *self = PV_SUBGRAPH_NAV (object);

  if (self->document)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (pv_subgraph_nav_parent_class)->dispose (object);
}

static void
pv_subgraph_nav_finalize (GObject *object)
{
  PvSubgraphNav *self = PV_SUBGRAPH_NAV (object);

  g_array_unref (self->levels);
  g_free (self->title);
  g_free (self->notice);
  G_OBJECT_CLASS (pv_subgraph_nav_parent_class)->finalize (object);
}

static void
pv_subgraph_nav_class_init (PvSubgraphNavClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pv_subgraph_nav_dispose;
  object_class->finalize = pv_subgraph_nav_finalize;

  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 0);
}

static void
pv_subgraph_nav_init (PvSubgraphNav *self)
{
  self->levels = g_array_new (FALSE, TRUE, sizeof (Level));
  g_array_set_clear_func (self->levels, (GDestroyNotify) level_clear);
}
