/* pv-subgraph-nav.h: which graph of the document the window shows.
 *
 * Level 0 is the main graph (the document's plan session and timeline);
 * each further level is one If/Loop/Scan body opened from a node of the
 * level before. The document plans the open bodies in its worker, by node
 * and attribute name, with every re-plan (partition edits, bounds,
 * registry, a reload), from its new plan session; the navigation shows the
 * deepest planned level and, when a level could not be planned again (its
 * node is gone, ORT would not run the level above), says why in its
 * notice. Emits `changed` whenever what it shows may have changed. */
#pragma once

#include "pv-document.h"

G_BEGIN_DECLS

#define PV_TYPE_SUBGRAPH_NAV (pv_subgraph_nav_get_type ())

G_DECLARE_FINAL_TYPE (PvSubgraphNav, pv_subgraph_nav, PV, SUBGRAPH_NAV, GObject)

PvSubgraphNav   *pv_subgraph_nav_new          (PvDocument     *document);

/* 0: the main graph. */
guint            pv_subgraph_nav_get_depth    (PvSubgraphNav  *self);
/* Opens subgraph @subgraph_index of node @node of the graph shown; it is
 * shown once the document has planned it (`changed`). On failure nothing
 * changes. */
gboolean         pv_subgraph_nav_open         (PvSubgraphNav  *self,
                                               int             node,
                                               int             subgraph_index,
                                               GError        **error);
/* Back to level @depth (no-op unless it is above the current one). */
void             pv_subgraph_nav_go_to        (PvSubgraphNav  *self,
                                               guint           depth);

/* The graph, session and timeline shown: the document's at level 0. NULL
 * before a model is loaded. */
const PvGraph   *pv_subgraph_nav_get_graph    (PvSubgraphNav  *self);
const PvSession *pv_subgraph_nav_get_session  (PvSubgraphNav  *self);
PvTimelineModel *pv_subgraph_nav_get_timeline (PvSubgraphNav  *self);

/* The crumb of level @depth: the model's file name, then "<node> <attr>"
 * ("/Loop body", "If_1 then_branch"). NULL past the depth. Caller frees. */
char            *pv_subgraph_nav_dup_crumb    (PvSubgraphNav  *self,
                                               guint           depth);
/* Why the last re-plan went back to the main graph, NULL otherwise (cleared
 * by the next load, open or go_to). */
const char      *pv_subgraph_nav_get_notice   (PvSubgraphNav  *self);

/* What ONNX Runtime does with the body shown that a user would not expect
 * ("ONNX Runtime plans this body on its own: one stream on CPU; the
 * partition config applies to the main graph only"); NULL at level 0.
 * Caller frees. */
char            *pv_subgraph_nav_dup_ort_note (PvSubgraphNav  *self);

G_END_DECLS
