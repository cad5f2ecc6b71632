/* pv-plan-compare.h: what an edit changed, as a bar above the timeline.
 *
 * Shows two plans' headline figures (pv-session-figures.h), before → after:
 * peak live, LOAD, ORT reserves, ORT buffers, barriers, waits, makespan;
 * the ones that changed in bold. A check button ("show-ghost") asks for
 * the earlier plan's live-bytes curve behind the new one, and a close
 * button emits "dismissed". The bar only shows figures it is given. */
#pragma once

#include <gtk/gtk.h>

#include "pv-session-figures.h"

G_BEGIN_DECLS

#define PV_TYPE_PLAN_COMPARE (pv_plan_compare_get_type ())

G_DECLARE_FINAL_TYPE (PvPlanCompare, pv_plan_compare, PV, PLAN_COMPARE, GtkWidget)

GtkWidget  *pv_plan_compare_new          (void);
void        pv_plan_compare_set_figures  (PvPlanCompare          *self,
                                          const PvSessionFigures *before,
                                          const PvSessionFigures *after);
/* The text of one figure as shown, "before → after" ("8.0 MiB → 7.5 MiB",
 * "0 → 2"), by key: "peak live", "LOAD", "ORT reserves", "ORT buffers",
 * "barriers", "waits", "makespan"; NULL when not shown. */
const char *pv_plan_compare_get_value    (PvPlanCompare          *self,
                                          const char             *key);
/* How many of the figures shown changed (0: "no change"). */
guint       pv_plan_compare_get_n_changed (PvPlanCompare         *self);
gboolean    pv_plan_compare_get_show_ghost (PvPlanCompare        *self);
void        pv_plan_compare_set_show_ghost (PvPlanCompare        *self,
                                            gboolean              show);

G_END_DECLS
