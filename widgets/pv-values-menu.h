/* pv-values-menu.h: the Values page's row menu.
 *
 * Right-click on a row (or Menu, Shift+F10 on the selected row) offers to
 * run the value's producer on another device: the "Run on GPU / CPU" items
 * of pv-device-menu.h under a "Producer NAME" heading. An item selects the
 * producer in the page's timeline and asks it for the move
 * (pv_timeline_view_request_run_on_device), so the window edits the
 * config as for the timeline's own menu. Only for producers of the graph
 * the timeline shows, when it is the main graph (ORT partitions only that
 * one). */
#pragma once

#include "pv-values-view.h"

G_BEGIN_DECLS

/* Adds the menu to @values (once). */
void       pv_values_menu_attach   (PvValuesView *values);
/* Opens the menu for @row's producer; FALSE (and nothing opens) when
 * there is nothing to offer. */
gboolean   pv_values_menu_popup    (PvValuesView *values,
                                    PvValueRow   *row,
                                    double        x,
                                    double        y);
/* The open (or last) menu, NULL before the first. */
GtkWidget *pv_values_menu_get_popover (PvValuesView *values);

G_END_DECLS
