/* pv-summary-view.h: the numbers of the plan on screen: peak, naive,
 * LOAD and their ratio, slots or buffers, streams and their sync steps,
 * deferred symbols, the checker's verdict with its hazards, plan time. */
#pragma once

#include <gtk/gtk.h>

#include "pv-side-page.h"

G_BEGIN_DECLS

#define PV_TYPE_SUMMARY_VIEW (pv_summary_view_get_type ())

G_DECLARE_FINAL_TYPE (PvSummaryView, pv_summary_view, PV, SUMMARY_VIEW, PvSidePage)

GtkWidget  *pv_summary_view_new          (void);
/* Shows the numbers of the document's plan of @graph, an open subgraph body
 * titled @title, with @note (what ONNX Runtime does with bodies) on top;
 * NULL: the main graph's plan again. */
void        pv_summary_view_show_subgraph (PvSummaryView   *self,
                                           const PvGraph   *graph,
                                           const char      *title,
                                           const char      *note);
/* The value shown for @key ("Peak", "Streams", …), NULL if not shown. */
const char *pv_summary_view_get_value    (PvSummaryView *self,
                                          const char    *key);

G_END_DECLS
