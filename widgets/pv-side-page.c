/* pv-side-page.c: the document and timeline of a side-pane page (see the
 * header). */
#include "pv-side-page.h"

typedef struct
{
  PvDocument *document;
  PvTimelineView *timeline;
  GSignalGroup *document_signals;
  GSignalGroup *timeline_signals;
} PvSidePagePrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (PvSidePage, pv_side_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_TIMELINE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* @object becomes the page's document or timeline (@field): its signal
 * group follows it, the page shows it (@changed, may be NULL), and the
 * property @prop is notified. Nothing when it already is. */
static void
set_source (PvSidePage *self, GObject **field, GObject *object, GSignalGroup *signals,
            void (*changed) (PvSidePage *self), guint prop)
{
  if (!g_set_object (field, object))
    return;
  g_signal_group_set_target (signals, object);
  if (changed)
    changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

PvDocument *
pv_side_page_get_document (PvSidePage *self)
{
  PvSidePagePrivate *priv = pv_side_page_get_instance_private (self);

  g_return_val_if_fail (PV_IS_SIDE_PAGE (self), NULL);
  return priv->document;
}

void
pv_side_page_set_document (PvSidePage *self, PvDocument *document)
{
  PvSidePagePrivate *priv = pv_side_page_get_instance_private (self);

  g_return_if_fail (PV_IS_SIDE_PAGE (self));
  g_return_if_fail (document == NULL || PV_IS_DOCUMENT (document));

  set_source (self, (GObject **) &priv->document, G_OBJECT (document), priv->document_signals,
              PV_SIDE_PAGE_GET_CLASS (self)->document_changed, PROP_DOCUMENT);
}

PvTimelineView *
pv_side_page_get_timeline (PvSidePage *self)
{
  PvSidePagePrivate *priv = pv_side_page_get_instance_private (self);

  g_return_val_if_fail (PV_IS_SIDE_PAGE (self), NULL);
  return priv->timeline;
}

void
pv_side_page_set_timeline (PvSidePage *self, PvTimelineView *timeline)
{
  PvSidePagePrivate *priv = pv_side_page_get_instance_private (self);

  g_return_if_fail (PV_IS_SIDE_PAGE (self));
  g_return_if_fail (timeline == NULL || PV_IS_TIMELINE_VIEW (timeline));

  set_source (self, (GObject **) &priv->timeline, G_OBJECT (timeline), priv->timeline_signals,
              PV_SIDE_PAGE_GET_CLASS (self)->timeline_changed, PROP_TIMELINE);
}

GSignalGroup *
pv_side_page_get_document_signals (PvSidePage *self)
{
  PvSidePagePrivate *priv = pv_side_page_get_instance_private (self);

  g_return_val_if_fail (PV_IS_SIDE_PAGE (self), NULL);
  return priv->document_signals;
}

GSignalGroup *
pv_side_page_get_timeline_signals (PvSidePage *self)
{
  PvSidePagePrivate *priv = pv_side_page_get_instance_private (self);

  g_return_val_if_fail (PV_IS_SIDE_PAGE (self), NULL);
  return priv->timeline_signals;
}

/* ---- GObject ---- */

static void
pv_side_page_dispose (GObject *object)
{
  PvSidePagePrivate *priv = pv_side_page_get_instance_private (PV_SIDE_PAGE (object));

  g_clear_object (&priv->document_signals);
  g_clear_object (&priv->timeline_signals);
  g_clear_object (&priv->document);
  g_clear_object (&priv->timeline);
  G_OBJECT_CLASS (pv_side_page_parent_class)->dispose (object);
}

static void
pv_side_page_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  PvSidePage *self = PV_SIDE_PAGE (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT: g_value_set_object (value, pv_side_page_get_document (self)); break;
    case PROP_TIMELINE: g_value_set_object (value, pv_side_page_get_timeline (self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pv_side_page_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  PvSidePage *self = PV_SIDE_PAGE (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT: pv_side_page_set_document (self, g_value_get_object (value)); break;
    case PROP_TIMELINE: pv_side_page_set_timeline (self, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pv_side_page_class_init (PvSidePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pv_side_page_dispose;
  object_class->get_property = pv_side_page_get_property;
  object_class->set_property = pv_side_page_set_property;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, PV_TYPE_DOCUMENT,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_TIMELINE] =
    g_param_spec_object ("timeline", NULL, NULL, PV_TYPE_TIMELINE_VIEW,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pv_side_page_init (PvSidePage *self)
{
  PvSidePagePrivate *priv = pv_side_page_get_instance_private (self);

  priv->document_signals = g_signal_group_new (PV_TYPE_DOCUMENT);
  priv->timeline_signals = g_signal_group_new (PV_TYPE_TIMELINE_VIEW);
}
