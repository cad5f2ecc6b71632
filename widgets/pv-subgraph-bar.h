/* pv-subgraph-bar.h: the bar above the timeline for models with
 * subgraphs: a breadcrumb of the graphs opened ("model.onnx › /Loop body ›
 * /cell/If then_branch"; each crumb above the current one a flat button that
 * goes back to it through win.subgraph-go-to), and for a selected If, Loop
 * or Scan kernel one "Open …" button per body (win.open-subgraph). */
#pragma once

#include <gtk/gtk.h>

#include "pv-subgraph-nav.h"

G_BEGIN_DECLS

#define PV_TYPE_SUBGRAPH_BAR (pv_subgraph_bar_get_type ())

G_DECLARE_FINAL_TYPE (PvSubgraphBar, pv_subgraph_bar, PV, SUBGRAPH_BAR, GtkWidget)

GtkWidget  *pv_subgraph_bar_new               (void);
/* Follows @nav's levels; NULL shows nothing. */
void        pv_subgraph_bar_set_nav           (PvSubgraphBar *self,
                                               PvSubgraphNav *nav);
/* The selected kernel: a node id of the graph shown, -1 for none. */
void        pv_subgraph_bar_set_selected_node (PvSubgraphBar *self,
                                               int            node);

/* For tests and accessibility: the crumbs and open buttons shown. */
guint       pv_subgraph_bar_get_n_crumbs      (PvSubgraphBar *self);
const char *pv_subgraph_bar_get_crumb         (PvSubgraphBar *self,
                                               guint          index);
guint       pv_subgraph_bar_get_n_open_buttons (PvSubgraphBar *self);

G_END_DECLS
