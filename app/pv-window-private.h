/* pv-window-private.h: PvWindow's insides, shared by pv-window.c and
 * pv-window-actions.c. */
#pragma once

#include "pv-subgraph-bar.h"
#include "pv-subgraph-nav.h"
#include "pv-find-bar.h"
#include "pv-inspector.h"
#include "pv-live-view.h"
#include "pv-plan-compare.h"
#include "pv-summary-view.h"
#include "pv-values-menu.h"
#include "pv-values-view.h"
#include "pv-window.h"

G_BEGIN_DECLS

typedef enum {
  PV_PENDING_NONE,
  PV_PENDING_CLOSE,   /* close the window */
  PV_PENDING_OPEN,    /* load pending_file (+ pending_partition) */
  PV_PENDING_OPEN_PARTITION, /* load pending_file as the partition config */
} PvPendingKind;

struct _PvWindow
{
  GtkApplicationWindow parent_instance;

  PvDocument *document;
  PvSubgraphNav *nav;        /* which graph is shown: pv-window-subgraph.c */
  GCancellable *load_cancellable;
  char *error_message;

  /* What to do once unsaved changes are saved or discarded. */
  PvPendingKind pending;
  GFile *pending_file;
  GFile *pending_partition;

  /* A load with the config remembered for the model: if it fails, the
   * model is loaded again without it, and then the error is shown. */
  GFile *fallback_file;
  char *fallback_error;
  int export_scale;          /* picture exports: 1 or 2; 0 until chosen */
  /* The model the newest load reads: one that fails leaves Recent. */
  GFile *loading_file;
  GFile *loading_partition;  /* and its config, for "Open Anyway" */

  /* template children */
  GtkLabel *title_label;
  GtkLabel *subtitle_label;
  GtkDropDown *planner_dropdown;
  GtkDropDown *registry_dropdown;
  GtkMenuButton *bounds_button;
  GtkGrid *bounds_grid;
  GtkGrid *inputs_grid;      /* scalar graph inputs' values (If conditions) */
  GtkLabel *bounds_hint;
  GtkMenuButton *export_button;
  GtkRevealer *error_revealer;
  GtkLabel *error_label;
  GtkStack *main_stack;
  GtkSpinner *loading_spinner;
  GtkLabel *loading_label;
  GtkPaned *paned;
  PvTimelineView *timeline;
  GtkRevealer *stale_revealer;
  GtkRevealer *device_revealer;
  GtkImage *device_icon;
  GtkLabel *device_label;
  GtkWidget *device_button;
  GtkLabel *stale_label;
  GtkRevealer *planning_revealer;
  GtkSpinner *planning_spinner;
  GtkLabel *planning_label;
  GtkWidget *side_pane;
  GtkStack *side_stack;
  PvPartitionEditor *editor;
  PvSummaryView *summary;
  PvSubgraphBar *subgraph_bar;
  PvInspector *inspector;
  PvValuesView *values;
  PvLiveView *live;
  PvFindBar *find_bar;
  GMenu *recent_menu;
  GtkWidget *recent_box;
  GtkBox *recent_list;
  /* What the latest edit changed (pv-window-compare.c) and the note on
   * bounds nobody set (pv-window-symbols.c). */
  GtkRevealer *compare_revealer;
  PvPlanCompare *compare;
  guint compare_serial;      /* the document's comparison shown (or dismissed) */
  GtkRevealer *symbols_revealer;
  GtkLabel *symbols_label;
  char *symbols_dismissed;   /* the note's text when dismissed: hidden until it changes */

  guint loading_delay;       /* shows the spinner page when loading is slow */
  guint planning_delay;      /* shows the planning banner when a re-plan is slow */
  double side_pane_share;    /* of the paned's width, when first shown; 0: PV_SIDE_PANE_WIDTH */

  guint close_confirmed : 1;
  guint show_loading : 1;
  guint updating_controls : 1;
  guint paned_positioned : 1;
  guint remember : 1;        /* reads and writes pv-app-state, recent files */
};

/* The side pane: its width on first run, its narrowest, and at most this
 * share of the window (the timeline keeps the rest). */
#define PV_SIDE_PANE_WIDTH 480
#define PV_SIDE_PANE_MIN 200
#define PV_SIDE_PANE_MAX_SHARE 0.75

void _pv_window_class_actions_init (PvWindowClass *klass);
/* pv-window-devices.c: the banner over the timeline saying where the
 * config's GPU nodes run under the registry chosen, win.use-cuda-registry. */
void _pv_window_class_devices_init (PvWindowClass *klass);
void _pv_window_devices_update (PvWindow *self);
void _pv_window_actions_update (PvWindow *self);

/* pv-recent.c: win.open-recent, the Open Recent menu, the empty page's
 * list. */
void _pv_window_class_recent_init (PvWindowClass *klass);
void _pv_window_recent_init (PvWindow *self);
void _pv_window_recent_update (PvWindow *self);

/* pv-window-state.c: the window's size, panes and view toggles in
 * pv-app-state, read for a new window and written when one closes. */
void _pv_window_state_restore (PvWindow *self);
void _pv_window_state_save (PvWindow *self);

/* Runs @kind now, or after asking about unsaved partition config changes. */
void _pv_window_confirm_then (PvWindow *self, PvPendingKind kind, GFile *file, GFile *partition);
/* Saves the config (asking for a file when it has none, or @choose), then
 * runs the pending action. */
void _pv_window_save_partition_interactive (PvWindow *self, gboolean choose);
void _pv_window_run_pending (PvWindow *self);

/* pv-window-progress.c: a re-plan that takes longer than
 * PV_WINDOW_PLANNING_DELAY_MS shows a banner with its stage and a Cancel
 * button (win.cancel-plan), and dims the timeline until it is done. */
#define PV_WINDOW_PLANNING_DELAY_MS 150
void _pv_window_class_progress_init (PvWindowClass *klass);
void _pv_window_progress_init (PvWindow *self);
void _pv_window_progress_dispose (PvWindow *self);
/* The timeline is dimmed while the plan is stale or a slow re-plan runs. */
void _pv_window_update_dimmed (PvWindow *self);

/* pv-window-live.c: the Live page, the instant and the span. */
void _pv_window_class_live_init (PvWindowClass *klass);
void _pv_window_live_init (PvWindow *self);
/* The timeline shows another graph: the instant and span are forgotten. */
void _pv_window_live_graph_changed (PvWindow *self);

/* pv-window-find.c: Find over the timeline (Ctrl+F, Ctrl+G). */
void _pv_window_class_find_init (PvWindowClass *klass);
void _pv_window_find_init (PvWindow *self);

/* pv-window-compare.c: after each re-plan of the main graph, its figures
 * before → after in a bar above the timeline, and the earlier curve behind
 * the new one on request. */
void _pv_window_class_compare_init (PvWindowClass *klass);
void _pv_window_compare_init (PvWindow *self);

/* pv-window-symbols.c: the note above the timeline while sizes assume
 * bounds nobody set (win.show-bounds opens the Bounds popover), and where
 * each symbol of the popover comes from. */
void _pv_window_class_symbols_init (PvWindowClass *klass);
void _pv_window_symbols_init (PvWindow *self);
void _pv_window_symbols_finalize (PvWindow *self);
/* The label of @symbol's row in the Bounds popover: its name and origin. */
GtkWidget *_pv_window_symbol_label (PvWindow *self, const char *symbol);

/* pv-window-subgraph.c */
void _pv_window_class_subgraph_init (PvWindowClass *klass);
void _pv_window_subgraph_init (PvWindow *self);
void _pv_window_subgraph_dispose (PvWindow *self);
/* The timeline of the graph shown (the main graph's or an open body's). */
PvTimelineModel *_pv_window_shown_timeline (PvWindow *self);
/* The plan or trace JSON of the graph shown; NULL without a plan. */
char *_pv_window_export_shown (PvWindow *self, PvExportKind kind);
void _pv_window_clear_pending (PvWindow *self);
/* Loads again the model the node limit refused, this time without it. */
void _pv_window_open_anyway (PvWindow *self);

G_END_DECLS
