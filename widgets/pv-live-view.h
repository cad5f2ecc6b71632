/* pv-live-view.h: what is live at one instant of the plan's simulated run,
 * and what a span of it costs.
 *
 * The side pane's "Live" page. For an instant on a device's live-bytes
 * curve it lists every value the curve counts then (pv_schedule_live_at),
 * largest first, with its producer, the readers still to come, where the
 * document's planner puts it (pv_plan_value_places) and its share of the
 * total, which is the curve's value at that instant. For a span it shows
 * pv_schedule_range: kernels run, bytes allocated and freed, the peak in
 * it, the values born and dying. It reads the document's plan of the graph
 * shown (pv_document_find_session: the main graph or an open body) and
 * follows re-plans and planner changes; it never plans. Another document
 * (pv_side_page_set_document()) forgets the instant and the span. */
#pragma once

#include <gtk/gtk.h>

#include "pv-side-page.h"

G_BEGIN_DECLS

#define PV_TYPE_LIVE_VIEW (pv_live_view_get_type ())

G_DECLARE_FINAL_TYPE (PvLiveView, pv_live_view, PV, LIVE_VIEW, PvSidePage)

GtkWidget       *pv_live_view_new            (void);
/* Shows the values live at @time on @device's curve of @graph's plan
 * (NULL: the main graph); @time < 0 forgets the instant. Emits ::changed. */
void             pv_live_view_show_instant   (PvLiveView    *self,
                                              const PvGraph *graph,
                                              int            device,
                                              double         time);
/* Shows what happens in [@t0, @t1) on @device's curve; @t1 <= @t0 forgets
 * the span. Emits ::changed. */
void             pv_live_view_show_range     (PvLiveView    *self,
                                              const PvGraph *graph,
                                              int            device,
                                              double         t0,
                                              double         t1);
/* The instant shown: FALSE when none (or the plan has no curve there). */
gboolean         pv_live_view_get_instant    (PvLiveView    *self,
                                              double        *time,
                                              int           *device);
/* The live values listed, largest first (value ids of the graph shown),
 * and the total they add up to. */
const int       *pv_live_view_get_values     (PvLiveView    *self,
                                              guint         *n_values);
guint64          pv_live_view_get_total      (PvLiveView    *self);
/* The row text of value @value ("1.5 MiB  25.0%  …"), NULL if not listed. */
char            *pv_live_view_dup_row_text   (PvLiveView    *self,
                                              int            value);
/* The span's figure shown for @key ("Kernels run", "Allocated", "Freed",
 * "Peak in span", "Values born", "Values dying"), NULL without a span. */
const char      *pv_live_view_get_range_value (PvLiveView   *self,
                                              const char    *key);

G_END_DECLS
