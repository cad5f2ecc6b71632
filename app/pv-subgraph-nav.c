/* pv-subgraph-nav.c: which graph of the document the window shows. The
 * document plans the open bodies (in its worker); the navigation only
 * chooses what to show and says why a level closed. */
#include "pv-subgraph-nav.h"

#include "pv-partition-config.h"

struct _PvSubgraphNav
{
  GObject parent_instance;

  PvDocument *document;
  char *notice;
};

G_DEFINE_FINAL_TYPE (PvSubgraphNav, pv_subgraph_nav, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static void
set_notice (PvSubgraphNav *self, const char *notice)
{
  g_free (self->notice);
  self->notice = g_strdup (notice);
}

static void
document_loaded_cb (PvSubgraphNav *self, PvDocument *document)
{
  set_notice (self, NULL);
  /* A new model: new crumbs, new graph (a reload of the same file opens the
   * same bodies again, planned with a later plan-changed). */
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
document_plan_changed_cb (PvSubgraphNav *self, PvDocument *document)
{
  const GError *error = pv_document_get_body_error (document);

  if (error)
    {
      g_autofree char *notice = g_strdup_printf ("Back to %s: %s",
                                                 pv_document_get_n_bodies (document) ? "the level above"
                                                                                     : "the main graph",
                                                 error->message);
      set_notice (self, notice);
    }
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
  g_signal_connect_object (document, "loaded", G_CALLBACK (document_loaded_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (document, "plan-changed", G_CALLBACK (document_plan_changed_cb), self,
                           G_CONNECT_SWAPPED);
  return self;
}

guint
pv_subgraph_nav_get_depth (PvSubgraphNav *self)
{
  g_return_val_if_fail (PV_IS_SUBGRAPH_NAV (self), 0);
  return pv_document_get_n_bodies (self->document);
}

const PvSession *
pv_subgraph_nav_get_session (PvSubgraphNav *self)
{
  guint depth;

  g_return_val_if_fail (PV_IS_SUBGRAPH_NAV (self), NULL);
  depth = pv_document_get_n_bodies (self->document);
  return depth == 0 ? pv_document_get_plan_session (self->document)
                    : pv_document_get_body_session (self->document, depth);
}

const PvGraph *
pv_subgraph_nav_get_graph (PvSubgraphNav *self)
{
  const PvSession *session;
  const PvModel *model;

  g_return_val_if_fail (PV_IS_SUBGRAPH_NAV (self), NULL);
  if (pv_document_get_n_bodies (self->document) > 0)
    {
      session = pv_subgraph_nav_get_session (self);
      return session->graph;
    }
  model = pv_document_get_model (self->document);
  return model ? model->graph : NULL;
}

PvTimelineModel *
pv_subgraph_nav_get_timeline (PvSubgraphNav *self)
{
  guint depth;

  g_return_val_if_fail (PV_IS_SUBGRAPH_NAV (self), NULL);
  depth = pv_document_get_n_bodies (self->document);
  return depth == 0 ? pv_document_get_timeline (self->document)
                    : pv_document_get_body_timeline (self->document, depth);
}

gboolean
pv_subgraph_nav_open (PvSubgraphNav *self, int node, int subgraph_index, GError **error)
{
  g_return_val_if_fail (PV_IS_SUBGRAPH_NAV (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!pv_document_open_body (self->document, node, subgraph_index, error))
    return FALSE;
  set_notice (self, NULL);
  return TRUE;
}

void
pv_subgraph_nav_go_to (PvSubgraphNav *self, guint depth)
{
  g_return_if_fail (PV_IS_SUBGRAPH_NAV (self));

  if (depth >= pv_document_get_n_bodies (self->document))
    return;
  pv_document_close_bodies (self->document, depth);
  set_notice (self, NULL);
  g_signal_emit (self, signals[CHANGED], 0);
}

char *
pv_subgraph_nav_dup_crumb (PvSubgraphNav *self, guint depth)
{
  const char *node, *attr = NULL;

  g_return_val_if_fail (PV_IS_SUBGRAPH_NAV (self), NULL);
  if (depth > pv_document_get_n_bodies (self->document))
    return NULL;
  if (depth == 0)
    {
      const char *title = pv_document_get_title (self->document);
      return g_strdup (title ? title : "main graph");
    }
  node = pv_document_get_body_name (self->document, depth, &attr);
  return g_strdup_printf ("%s %s", node, attr ? attr : "subgraph");
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
  if (pv_document_get_n_bodies (self->document) == 0)
    return NULL;
  s = pv_subgraph_nav_get_session (self);
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

  g_free (self->notice);
  G_OBJECT_CLASS (pv_subgraph_nav_parent_class)->finalize (object);
}

static void
pv_subgraph_nav_class_init (PvSubgraphNavClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pv_subgraph_nav_dispose;
  object_class->finalize = pv_subgraph_nav_finalize;

  /* What is shown changed: after every plan-changed of the document, and
   * when a level is closed. */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 0);
}

static void
pv_subgraph_nav_init (PvSubgraphNav *self)
{
}
