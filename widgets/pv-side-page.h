/* pv-side-page.h: what the pages of the window's side pane share: the
 * document they show ("document") and, for the pages that follow and set
 * the selection, the timeline view ("timeline"). Both may be NULL.
 *
 * A page connects its handlers once, in its init, to the two signal groups
 * (pv_side_page_get_document_signals(), _get_timeline_signals()): they
 * follow whichever document and timeline the page is given. After the page
 * is given another one, its class's document_changed (timeline_changed)
 * runs, then the property is notified. The page holds a reference on both;
 * dispose drops them after the subclass's dispose. */
#pragma once

#include <gtk/gtk.h>

#include "pv-document.h"
#include "pv-timeline-view.h"

G_BEGIN_DECLS

#define PV_TYPE_SIDE_PAGE (pv_side_page_get_type ())

G_DECLARE_DERIVABLE_TYPE (PvSidePage, pv_side_page, PV, SIDE_PAGE, GtkWidget)

struct _PvSidePageClass
{
  GtkWidgetClass parent_class;

  /* The page was given another document (maybe NULL): show it. */
  void (*document_changed) (PvSidePage *self);
  /* The page was given another timeline view (maybe NULL). */
  void (*timeline_changed) (PvSidePage *self);
};

PvDocument     *pv_side_page_get_document         (PvSidePage     *self);
void            pv_side_page_set_document         (PvSidePage     *self,
                                                   PvDocument     *document);
PvTimelineView *pv_side_page_get_timeline         (PvSidePage     *self);
void            pv_side_page_set_timeline         (PvSidePage     *self,
                                                   PvTimelineView *timeline);
/* Signals of the document (of PV_TYPE_DOCUMENT) and of the timeline (of
 * PV_TYPE_TIMELINE_VIEW) shown; owned by the page. */
GSignalGroup   *pv_side_page_get_document_signals (PvSidePage     *self);
GSignalGroup   *pv_side_page_get_timeline_signals (PvSidePage     *self);

G_END_DECLS
