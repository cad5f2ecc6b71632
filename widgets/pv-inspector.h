/* pv-inspector.h: the side pane's Inspector page.
 *
 * Details of what is selected in a timeline view, from the document's plan
 * session: for a value its type, shape, size, alloc kind, place, producer,
 * consumers, live interval and what it reuses; for a kernel its stream,
 * step, inputs, outputs and the sync steps around it; for a step mark or
 * an arrow the steps on either end. Producers, consumers, inputs, outputs
 * and the other ends are buttons that select what they name. Updates when
 * the selection changes and when the document re-plans. */
#pragma once

#include <gtk/gtk.h>

#include "pv-side-page.h"

G_BEGIN_DECLS

#define PV_TYPE_INSPECTOR (pv_inspector_get_type ())

G_DECLARE_FINAL_TYPE (PvInspector, pv_inspector, PV, INSPECTOR, PvSidePage)

GtkWidget      *pv_inspector_new          (void);

/* Shows @selection (selecting it in the timeline when it can be drawn
 * there): what the inspector's own links do. */
void            pv_inspector_select       (PvInspector    *self,
                                           const PvTimelineSelection *selection);
/* Shows value @value without selecting anything: what the Values page
 * selected, also when the timeline does not draw it. Signature of a
 * swapped `value-selected` handler. */
void            pv_inspector_show_value   (PvInspector    *self,
                                           int             value);
/* What is shown; kind PV_TIMELINE_HIT_NONE for the empty state. */
PvTimelineSelection pv_inspector_get_shown (PvInspector   *self);
/* The heading of what is shown ("Value", "Kernel", …) and its name, NULL
 * in the empty state. */
const char     *pv_inspector_get_title    (PvInspector    *self);
/* The text of the row named @key ("Alloc kind", "ORT 1.30", …) in what is
 * shown, NULL when there is no such row or its value is not text. */
const char     *pv_inspector_get_row      (PvInspector    *self,
                                           const char     *key);

G_END_DECLS
