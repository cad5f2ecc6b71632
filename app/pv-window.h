/* pv-window.h: the main window: one document, its timeline, its partition
 * config editor and its summary. */
#pragma once

#include <gtk/gtk.h>

#include "pv-document.h"
#include "pv-partition-editor.h"
#include "pv-plan-compare.h"
#include "pv-subgraph-bar.h"
#include "pv-subgraph-nav.h"
#include "pv-summary-view.h"
#include "pv-timeline-view.h"

G_BEGIN_DECLS

#define PV_TYPE_WINDOW (pv_window_get_type ())

G_DECLARE_FINAL_TYPE (PvWindow, pv_window, PV, WINDOW, GtkApplicationWindow)

typedef enum {
  PV_EXPORT_PNG,
  PV_EXPORT_SVG,
  PV_EXPORT_PDF,
  PV_EXPORT_PLAN_JSON,
  PV_EXPORT_TRACE_JSON,
} PvExportKind;

/* A window of @application (may be NULL). With @remember it reads and
 * writes what planviz remembers (window state, configs per model, recent
 * models); --screenshot runs pass FALSE. */
PvWindow          *pv_window_new                  (GtkApplication *application,
                                                   gboolean        remember);

PvDocument        *pv_window_get_document         (PvWindow       *self);
PvTimelineView    *pv_window_get_timeline_view    (PvWindow       *self);
PvPartitionEditor *pv_window_get_partition_editor (PvWindow       *self);
PvSummaryView     *pv_window_get_summary_view     (PvWindow       *self);
/* The banner a slow re-plan shows (a GtkRevealer) and its stage label. */
GtkWidget         *pv_window_get_planning_banner  (PvWindow       *self);
GtkLabel          *pv_window_get_planning_label   (PvWindow       *self);
/* The loading page's label: the stage of the load in flight. */
GtkLabel          *pv_window_get_loading_label    (PvWindow       *self);
/* Which graph is shown (main graph or an open If/Loop/Scan body), and the
 * breadcrumb bar above the timeline (pv-window-subgraph.c). */
PvSubgraphNav     *pv_window_get_subgraph_nav     (PvWindow       *self);
PvSubgraphBar     *pv_window_get_subgraph_bar     (PvWindow       *self);

/* Loads @file (and @partition_file, may be NULL) in the background. When
 * the partition config has unsaved changes, asks first. */
void               pv_window_open                 (PvWindow       *self,
                                                   GFile          *file,
                                                   GFile          *partition_file);
/* Asks about unsaved config changes, then pv_window_load_partition();
 * a failure shows in the error bar. */
void               pv_window_open_partition       (PvWindow       *self,
                                                   GFile          *file);
/* Makes @file (UTF-8 JSON, valid or not) the partition config of the open
 * model: its text goes into the editor, unmodified, and is planned (an
 * invalid config leaves the plan stale, as typing it would). Fails, with
 * nothing changed, without a model or when @file cannot be read or is not
 * UTF-8 text. */
gboolean           pv_window_load_partition       (PvWindow       *self,
                                                   GFile          *file,
                                                   GError        **error);
/* TRUE once nothing is loading or waiting to re-plan (an edit in its
 * delay, a plan queued or running) and the timeline (or the error) is on
 * screen: what --screenshot and the tests wait for. */
gboolean           pv_window_is_settled           (PvWindow       *self);
/* TRUE when nothing is open and nothing is loading. */
gboolean           pv_window_is_empty             (PvWindow       *self);

/* Shows @message in the window's error bar (NULL hides it). */
void               pv_window_show_error           (PvWindow       *self,
                                                   const char     *message);
/* The error bar's message, NULL when hidden. */
const char        *pv_window_get_error            (PvWindow       *self);
/* The banner's text on where the config's GPU nodes run (the CPU registry
 * runs them on the CPU; the CUDA one on the GPU, without ORT's Memcpy
 * nodes), or NULL when the config puts no node on the GPU. */
const char        *pv_window_get_device_note      (PvWindow       *self);

/* The bar of what the latest re-plan changed (pv-window-compare.c); shown
 * while pv_window_get_compare_shown(). */
PvPlanCompare     *pv_window_get_plan_compare     (PvWindow       *self);
gboolean           pv_window_get_compare_shown    (PvWindow       *self);
/* The note on bounds nobody set (pv-window-symbols.c): its text, NULL
 * while it is hidden. */
const char        *pv_window_get_symbols_note     (PvWindow       *self);

/* Writes the partition config to @file (atomically) and marks it saved. */
gboolean           pv_window_save_partition       (PvWindow       *self,
                                                   GFile          *file,
                                                   GError        **error);
/* Pictures (PNG, SVG, PDF) carry a title line and are written at the
 * export scale; the plan and the trace as JSON. */
gboolean           pv_window_export               (PvWindow       *self,
                                                   PvExportKind    kind,
                                                   GFile          *file,
                                                   GError        **error);
/* 1× or 2× for picture exports, as the save dialog's "Double Size (2×)" box sets it
 * (kept for the next export); the screen's scale factor until chosen. */
void               pv_window_set_export_scale     (PvWindow       *self,
                                                   int             scale);
int                pv_window_get_export_scale     (PvWindow       *self);
/* The whole window, as last drawn, as a PNG. Fails with G_IO_ERROR_BUSY
 * while a redraw is pending; pv_window_screenshot_async() waits for the
 * next frame and retries. */
gboolean           pv_window_save_screenshot      (PvWindow       *self,
                                                   GFile          *file,
                                                   GError        **error);
void               pv_window_screenshot_async     (PvWindow       *self,
                                                   GFile          *file,
                                                   GAsyncReadyCallback callback,
                                                   gpointer        user_data);
gboolean           pv_window_screenshot_finish    (PvWindow       *self,
                                                   GAsyncResult   *result,
                                                   GError        **error);

G_END_DECLS
