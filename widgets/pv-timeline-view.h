/* pv-timeline-view.h: the timeline as a GTK widget.
 *
 * A thin GtkWidget over PvTimelineRenderer: it draws the renderer into its
 * snapshot, and turns pointer, touchpad and keyboard input into the
 * renderer's viewport calls (zoom centred on the pointer, pan, vertical
 * scroll), its hit test (tooltip, hover, click to select) and its options
 * (memory view, colouring, arrow kinds, selection). Keys follow Perfetto and
 * Sysprof: W/S zoom, A/D pan, Ctrl+wheel, Ctrl +/-/0, F focus, Esc.
 * A click on a live-bytes curve (or its peak marker) or P emits
 * ::instant-activated; Shift+drag selects a span (::range-changed), which
 * Esc clears before the selection.
 * Ctrl/Shift+click gather several kernels; right-click (Menu, Shift+F10)
 * opens a menu that moves them to another stream or a new one: the view
 * emits ::move-nodes-requested(GStrv names, int stream, -1 new), or for
 * its "Run on GPU / CPU" items ::run-on-device-requested(GStrv names, int
 * device, int stream), and the
 * window edits the partition config. */
#pragma once

#include <gtk/gtk.h>

#include "pv-timeline-export.h"
#include "pv-timeline-renderer.h"

G_BEGIN_DECLS

#define PV_TYPE_TIMELINE_VIEW (pv_timeline_view_get_type ())

G_DECLARE_FINAL_TYPE (PvTimelineView, pv_timeline_view, PV, TIMELINE_VIEW, GtkWidget)


GtkWidget        *pv_timeline_view_new               (void);

/* The model drawn (NULL: nothing, an empty canvas). Keeps the visible
 * range when the new model's axis is close to the old one's, else fits. */
PvTimelineModel  *pv_timeline_view_get_model         (PvTimelineView        *self);
void              pv_timeline_view_set_model         (PvTimelineView        *self,
                                                      PvTimelineModel       *model);
/* The renderer (NULL without a model): viewport and hit tests for tests. */
PvTimelineRenderer *pv_timeline_view_get_renderer    (PvTimelineView        *self);

PvTimelineMemoryView pv_timeline_view_get_memory_view (PvTimelineView       *self);
void              pv_timeline_view_set_memory_view   (PvTimelineView        *self,
                                                      PvTimelineMemoryView   view);
PvTimelineColourBy pv_timeline_view_get_colour_by    (PvTimelineView        *self);
void              pv_timeline_view_set_colour_by     (PvTimelineView        *self,
                                                      PvTimelineColourBy     colour_by);
guint             pv_timeline_view_get_arrows        (PvTimelineView        *self);
void              pv_timeline_view_set_arrows        (PvTimelineView        *self,
                                                      guint                  arrows);
/* An earlier plan of the graph shown, whose live-bytes curves are drawn
 * dim and dashed behind the model's (NULL: none); the view keeps a
 * reference. */
PvTimelineModel  *pv_timeline_view_get_ghost         (PvTimelineView        *self);
void              pv_timeline_view_set_ghost         (PvTimelineView        *self,
                                                      PvTimelineModel       *ghost);
/* Drawn faded: the plan shown is not the one the inputs describe. */
gboolean          pv_timeline_view_get_dimmed        (PvTimelineView        *self);
void              pv_timeline_view_set_dimmed        (PvTimelineView        *self,
                                                      gboolean               dimmed);

const PvTimelineSelection *pv_timeline_view_get_selection (PvTimelineView  *self);
void              pv_timeline_view_set_selection     (PvTimelineView        *self,
                                                      const PvTimelineSelection *selection);
void              pv_timeline_view_clear_selection   (PvTimelineView        *self);
/* The selected kernels, node ids ascending (Ctrl+click toggles one, Shift+
 * click adds one; a plain click or set_selection() leaves just the
 * selection's kernel, Esc none). Valid until the selection changes. */
const int        *pv_timeline_view_get_selected_nodes (PvTimelineView       *self,
                                                      guint                 *n_nodes);
/* Selects these kernels (nodes the model does not draw are skipped); the
 * last one becomes the selection. */
void              pv_timeline_view_set_selected_nodes (PvTimelineView       *self,
                                                      const int             *nodes,
                                                      guint                  n_nodes);
/* Emits ::move-nodes-requested for the selected kernels and @stream (-1: a
 * new stream), as the context menu's "timeline.move-nodes" action does;
 * nothing when no kernel is selected. */
void              pv_timeline_view_request_move      (PvTimelineView        *self,
                                                      int                    stream);
/* Emits ::run-on-device-requested for the selected kernels, @device and
 * @stream (an existing stream of that device, -1: a new one on it), as the
 * menu's "Run on" items ("timeline.run-on-device", (ii): device, stream)
 * do; nothing without a selected kernel. */
void              pv_timeline_view_request_run_on_device (PvTimelineView    *self,
                                                          int                device,
                                                          int                stream);

/* The instant marked across the lanes (< 0: none) and the values whose
 * bars are highlighted then (ids, copied). Emits nothing. */
void              pv_timeline_view_set_instant       (PvTimelineView        *self,
                                                      double                 time,
                                                      const int             *values,
                                                      guint                  n_values);
double            pv_timeline_view_get_instant       (PvTimelineView        *self);
const int        *pv_timeline_view_get_marked_values (PvTimelineView        *self,
                                                      guint                 *n_values);
/* Emits ::instant-activated at the highest live-bytes peak (P); FALSE
 * when there is no curve. */
gboolean          pv_timeline_view_jump_to_peak      (PvTimelineView        *self);
/* The shaded span (Shift+drag); t1 <= t0 clears it. Emits ::range-changed
 * when it changes. */
void              pv_timeline_view_set_range         (PvTimelineView        *self,
                                                      double                 t0,
                                                      double                 t1);
/* FALSE when no span is selected. */
gboolean          pv_timeline_view_get_range         (PvTimelineView        *self,
                                                      double                *t0,
                                                      double                *t1);
/* The device whose curve the span sums up (where Shift+drag began). */
int               pv_timeline_view_get_range_device  (PvTimelineView        *self);
/* Kernels a search found, tinted (node ids, copied; 0: none). */
void              pv_timeline_view_set_found_nodes   (PvTimelineView        *self,
                                                      const int             *nodes,
                                                      guint                  n_nodes);

const int        *pv_timeline_view_get_found_nodes   (PvTimelineView        *self,
                                                      guint                 *n_nodes);
/* Pans (zooming out only when the span is wider than the view) so that
 * [@t0, @t1] is on screen; the zoom stays when it already is. */
void              pv_timeline_view_reveal            (PvTimelineView        *self,
                                                      double                 t0,
                                                      double                 t1);

/* One zoom step (Ctrl+plus, one tap of W, the window's Zoom In): the view
 * zooms in by this factor and out by its inverse. */
#define PV_TIMELINE_VIEW_ZOOM_STEP 1.25

/* The keys that zoom in, out and to fit, as GTK accelerator strings
 * (NULL-terminated): the view binds them, and the application gives the
 * same to its zoom actions (gtk_application_set_accels_for_action()). */
extern const char *const pv_timeline_view_zoom_in_accels[];
extern const char *const pv_timeline_view_zoom_out_accels[];
extern const char *const pv_timeline_view_zoom_fit_accels[];

/* Zooms by @factor (> 1: in) around the pointer, or the middle. */
void              pv_timeline_view_zoom              (PvTimelineView        *self,
                                                      double                 factor);
void              pv_timeline_view_zoom_fit          (PvTimelineView        *self);
/* Shows the selection with a margin; FALSE when nothing is selected. */
gboolean          pv_timeline_view_focus_selection   (PvTimelineView        *self);

/* How many frames have drawn the current model (0 right after set_model). */
guint             pv_timeline_view_get_frames_drawn  (PvTimelineView        *self);

/* The visible time range at the view's width and every row's height, as a
 * picture under a title line naming @info's model and config, the planner
 * and the peak (pv_timeline_export()), at @scale 1 or 2. Written atomically
 * (a temporary file, then a rename). */
gboolean          pv_timeline_view_export            (PvTimelineView        *self,
                                                      GFile                 *file,
                                                      PvTimelineExportFormat format,
                                                      int                    scale,
                                                      const PvTimelineExportInfo *info,
                                                      GError               **error);

G_END_DECLS
