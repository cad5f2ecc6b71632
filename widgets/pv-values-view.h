/* pv-values-view.h: the side pane's Values page.
 *
 * A sortable, filterable table of every value of the document's plan
 * session (name, producer, dtype and shape, bytes, ORT alloc kind, buffer /
 * slot / offset of the planner shown, live interval), kept in step with a
 * timeline view: selecting a row selects (and shows) that value in the
 * timeline and emits `value-selected` (int value id), and a value selected
 * in the timeline selects and scrolls to its row. It re-populates on `plan-changed` and on a planner change, keeping
 * the sort order, the filter and the selected value (by name). The timeline
 * it follows is the page's (pv_side_page_set_timeline(); may be NULL). */
#pragma once

#include <gtk/gtk.h>

#include "pv-side-page.h"
#include "pv-value-list.h"

G_BEGIN_DECLS

#define PV_TYPE_VALUES_VIEW (pv_values_view_get_type ())

G_DECLARE_FINAL_TYPE (PvValuesView, pv_values_view, PV, VALUES_VIEW, PvSidePage)

GtkWidget          *pv_values_view_new                 (void);

/* The rows shown, sorted and filtered (PvValueRow items), and the
 * selection over them. */
GtkSingleSelection *pv_values_view_get_selection_model (PvValuesView   *self);
GtkColumnView      *pv_values_view_get_column_view     (PvValuesView   *self);
/* The column showing @field. */
GtkColumnViewColumn *pv_values_view_get_column         (PvValuesView   *self,
                                                        PvValueField    field);

/* Filters now (the search entry waits for typing to pause): rows whose
 * name, producer node, op type or kind contain @text, ignoring case. */
void                pv_values_view_set_filter_text     (PvValuesView   *self,
                                                        const char     *text);
/* "1,234 of 70,012 values". */
const char         *pv_values_view_get_count_text      (PvValuesView   *self);
/* The selected value's id, -1 when no row is selected. */
int                 pv_values_view_get_selected_value  (PvValuesView   *self);
/* Milliseconds the last re-population took (list, sort, filter, the
 * table's visible rows, selection); @list_ms: making the list alone. For
 * benchmarks. */
double              pv_values_view_get_build_ms        (PvValuesView   *self,
                                                        double         *list_ms);

G_END_DECLS
