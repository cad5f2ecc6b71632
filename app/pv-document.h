/* pv-document.h: one open model and what the window plans for it.
 *
 * A PvDocument wraps the loaded model, the kernel table, the partition
 * config text, the bounds of the model's symbolic dims, the registry and the
 * planner the user looks at, and the PvSession made from them. Loading runs
 * in a thread (GTask), and so does every later re-plan: a change of the
 * partition text, a bound or the registry starts one (or, while one runs,
 * queues one to run right after it; only the plan of the latest inputs is
 * installed, the others are dropped). `plan-changed` is emitted on the main
 * thread when a plan is installed; `planning` is TRUE meanwhile and
 * `plan-stage` names the stage the worker is in. A newer change cancels
 * the job in flight (it stops between stages); so does
 * pv_document_cancel_plan(). Plans are made on a session basis (inference,
 * kernel maps, sizes, lifetimes) kept across partition edits.
 *
 * Subgraph bodies opened with pv_document_open_body() are planned by the
 * same worker, after the main graph, from its new plan session; they come
 * with the next plan-changed. The main thread never plans.
 *
 * While the partition text is invalid (it has errors, or ONNX Runtime would
 * refuse it or crash on it) the document keeps the last valid plan as its
 * plan session and timeline, and says it is `stale`. */
#pragma once

#include <gio/gio.h>

#include "pv-plan-export.h"
#include "pv-session.h"
#include "pv-session-figures.h"
#include "pv-timeline-model.h"

G_BEGIN_DECLS

#define PV_TYPE_DOCUMENT (pv_document_get_type ())

G_DECLARE_FINAL_TYPE (PvDocument, pv_document, PV, DOCUMENT, GObject)

PvDocument          *pv_document_new                     (void);

void                 pv_document_load_async              (PvDocument           *self,
                                                          GFile                *file,
                                                          GFile                *partition_file,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
gboolean             pv_document_load_finish             (PvDocument           *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
gboolean             pv_document_get_loading             (PvDocument           *self);
/* The most nodes a load takes (0: no limit); a bigger model fails with
 * PV_MODEL_ERROR_TOO_MANY_NODES. From PLANVIZ_MAX_NODES at first
 * (pv-node-limit.h); a change applies to the next load. */
void                 pv_document_set_max_nodes           (PvDocument           *self,
                                                          guint64               max_nodes);
guint64              pv_document_get_max_nodes           (PvDocument           *self);
/* What the loader is doing ("Inferring shapes…"), NULL when idle. */
const char          *pv_document_get_load_stage          (PvDocument           *self);

/* NULL until a model is loaded. */
GFile               *pv_document_get_file                (PvDocument           *self);
const PvModel       *pv_document_get_model               (PvDocument           *self);
/* The model's file name, or NULL. */
const char          *pv_document_get_title               (PvDocument           *self);

GFile               *pv_document_get_partition_file      (PvDocument           *self);
/* The latest config text ("" before a model is loaded); its plan may still
 * be running (pv_document_get_planning()). */
const char          *pv_document_get_partition_text      (PvDocument           *self);
/* Re-plans (in a thread) when the text differs. */
void                 pv_document_set_partition_text      (PvDocument           *self,
                                                          const char           *text);
/* ONNX Runtime's default config for the model, as ORT writes it (@pretty:
 * indented); NULL before a model is loaded. */
char                *pv_document_dup_default_partition   (PvDocument           *self,
                                                          gboolean              pretty);
/* Reads @file (UTF-8 text, as when loading a model with it) and makes it
 * the partition file and text; re-plans. Fails, nothing changed, without
 * a model or when the file cannot be read or is not text. */
gboolean             pv_document_load_partition          (PvDocument           *self,
                                                          GFile                *file,
                                                          GError              **error);
/* Writes @text to @file atomically and makes it the partition file. */
gboolean             pv_document_save_partition          (PvDocument           *self,
                                                          GFile                *file,
                                                          const char           *text,
                                                          GError              **error);

PvPlannerKind        pv_document_get_planner             (PvDocument           *self);
void                 pv_document_set_planner             (PvDocument           *self,
                                                          PvPlannerKind         planner);
PvStreamRegistry     pv_document_get_registry            (PvDocument           *self);
/* How many main-graph nodes the config of the plan shown asks to run on
 * the GPU (in a stream whose "devices" entry is "1"), whatever the
 * registry: the CUDA registry plans them there, the CPU one (a CPU-only
 * ONNX Runtime) on the CPU. */
int                  pv_document_get_gpu_requested       (PvDocument           *self);
void                 pv_document_set_registry            (PvDocument           *self,
                                                          PvStreamRegistry      registry);

/* The symbolic dims that sizes depend on, sorted, NULL-terminated. */
const char * const  *pv_document_get_symbols             (PvDocument           *self);
gint64               pv_document_get_bound               (PvDocument           *self,
                                                          const char           *symbol);
void                 pv_document_set_bound               (PvDocument           *self,
                                                          const char           *symbol,
                                                          gint64                value);

/* TRUE when @symbol's bound is the 1 the document gave it (at load, or as
 * input values or an open body brought the symbol), not one
 * pv_document_set_bound() set. */
gboolean             pv_document_get_bound_is_default    (PvDocument           *self,
                                                          const char           *symbol);
/* Where @symbol comes from: "x axis 2" (a graph input's dim), "made by
 * NonZero “/nz”" (an op rule's), "x axis 0 (body input)"; NULL when
 * neither is found. */
const char          *pv_document_get_symbol_origin       (PvDocument           *self,
                                                          const char           *symbol);

/* Known contents of graph input @input as text ("16000", "1,2"), NULL when
 * unknown. Setting one (NULL or "" forgets it) re-plans with shapes that
 * fold what depends on it (an If on a sample rate); FALSE with @error when
 * @text does not fit the input (nothing changes then). */
const char          *pv_document_get_input_value         (PvDocument           *self,
                                                          const char           *input);
gboolean             pv_document_set_input_value         (PvDocument           *self,
                                                          const char           *input,
                                                          const char           *text,
                                                          GError              **error);

/* The session of the latest inputs (NULL if it could not be made: then
 * pv_document_get_plan_error() says why). */
const PvSession     *pv_document_get_session             (PvDocument           *self);
const GError        *pv_document_get_plan_error          (PvDocument           *self);
/* The session drawn: the latest valid one. */
const PvSession     *pv_document_get_plan_session        (PvDocument           *self);
PvTimelineModel     *pv_document_get_timeline            (PvDocument           *self);
/* TRUE while the latest inputs are invalid and the plan shown is older. */
gboolean             pv_document_get_stale               (PvDocument           *self);
/* TRUE while a re-plan is queued or running: the session is not yet of
 * the latest inputs. */
gboolean             pv_document_get_planning            (PvDocument           *self);
/* Installs the plan of the latest inputs before returning, if a re-plan is
 * queued or running (waits for the one in flight, or plans on the spot);
 * for callers that read the plan next (export, save). */
void                 pv_document_plan_now                (PvDocument           *self);
/* What the planning worker is doing ("ORT plan"), NULL when idle. */
const char          *pv_document_get_plan_stage          (PvDocument           *self);
/* Stops the job in flight (between two of its stages) and what is queued:
 * the plan shown stays, marked stale and cancelled, until the next change. */
void                 pv_document_cancel_plan             (PvDocument           *self);
/* TRUE after pv_document_cancel_plan() until a plan is installed. */
gboolean             pv_document_get_cancelled           (PvDocument           *self);

/* Opens body @subgraph_index of node @node of the deepest planned level
 * (the main graph when no body is open); it is planned in the worker and
 * shows in the next plan-changed. FALSE (nothing changed) when there is no
 * such body or no plan to open it from. */
gboolean             pv_document_open_body               (PvDocument           *self,
                                                          int                   node,
                                                          int                   subgraph_index,
                                                          GError              **error);
/* Keeps the first @depth bodies (0: back to the main graph). */
void                 pv_document_close_bodies            (PvDocument           *self,
                                                          guint                 depth);
/* How many open bodies are planned (their levels, 1 first). */
guint                pv_document_get_n_bodies            (PvDocument           *self);
/* Level @depth >= 1: its session and timeline (NULL past the planned
 * levels), and the owning node's name and the attribute of the level above
 * (NULL past the open levels). */
const PvSession     *pv_document_get_body_session        (PvDocument           *self,
                                                          guint                 depth);
PvTimelineModel     *pv_document_get_body_timeline       (PvDocument           *self,
                                                          guint                 depth);
const char          *pv_document_get_body_name           (PvDocument           *self,
                                                          guint                 depth,
                                                          const char          **attr);
/* The planned level whose graph is @graph (the plan session for NULL or the
 * main graph), NULL when none is: what a widget showing @graph's items
 * reads them from. */
const PvSession     *pv_document_find_session            (PvDocument           *self,
                                                          const PvGraph        *graph);
/* Why the planned levels stop short of what was opened (a body gone from a
 * reloaded model, a parent ORT would not run), NULL otherwise. */
const GError        *pv_document_get_body_error          (PvDocument           *self);

/* What the latest re-plan of the main graph changed: the figures of the
 * plan shown before it (@before) and of the plan session now (@after);
 * either may be NULL. Returns the comparison's serial, a new one for each
 * re-plan that installs a plan session in place of another (a partition
 * edit, a bound, the registry, an input value); 0 when none has since the
 * model was loaded. A cancelled or refused (invalid) plan leaves it as it
 * was: the comparison is always against the last plan shown. */
guint                pv_document_get_comparison          (PvDocument           *self,
                                                          PvSessionFigures     *before,
                                                          PvSessionFigures     *after);
/* The main graph's timeline shown before that re-plan (its live-bytes
 * curves, to draw behind the new ones); NULL when the serial is 0. */
PvTimelineModel     *pv_document_get_previous_timeline   (PvDocument           *self);

/* How many times the document has installed a plan (loads and re-plans). */
guint                pv_document_get_n_plans             (PvDocument           *self);

/* The plan session's JSON for the current planner; NULL without a plan. */
char                *pv_document_export_plan_json        (PvDocument           *self);

G_END_DECLS
