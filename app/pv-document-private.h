/* pv-document-private.h: PvDocument's insides, shared by pv-document.c
 * (the object and its API), pv-document-plan.c (planning in a worker),
 * pv-document-load.c (loading in a worker) and pv-document-stage.c (what
 * those workers tell the main thread they are doing). */
#pragma once

#include "pv-document.h"
#include "pv-session-figures.h"

G_BEGIN_DECLS

/* One open subgraph body and, once planned, its plan. */
typedef struct {
  char *node_name;           /* the owning node's ORT name in the level above */
  char *attr;                /* "then_branch", "body", … */
  PvSession *session;        /* NULL until planned */
  PvTimelineModel *timeline;
} PvBodyPlan;

struct _PvDocument
{
  GObject parent_instance;

  GFile *file;
  GFile *partition_file;
  PvModel *model;
  PvKernelTable *kernels;
  char *title;
  char *partition_text;
  char **symbols;            /* sorted, NULL-terminated */
  GHashTable *bounds;        /* symbol -> gint64*: the bounds of the latest inputs */
  /* Known graph input contents (the Bounds popover): name -> text, and the
   * tensors made of them, replaced (never changed) on each edit so that a
   * job in flight keeps its own; NULL when none. */
  GHashTable *input_texts;
  GHashTable *input_values;
  guint values_generation;   /* bumped by each change of input_values */
  guint basis_values_generation; /* the one the basis was inferred with */
  PvSessionBasis *basis;     /* of the installed plan's bounds; re-plans share it */
  PvPlannerKind planner;
  PvStreamRegistry registry;
  guint64 max_nodes;           /* the loader's node limit (0: none) */
  int gpu_requested;         /* nodes the shown plan's config asks to run on the GPU */

  PvSession *session;        /* latest inputs; may equal plan_session */
  GError *plan_error;
  PvSession *plan_session;   /* latest valid */
  PvTimelineModel *timeline; /* of plan_session */
  GPtrArray *bodies;         /* PvBodyPlan*, level 1 first: the open bodies, planned from plan_session */
  GError *body_error;        /* why bodies stop short of what was opened, NULL otherwise */
  guint n_plans;

  /* What the latest re-plan of the main graph changed (pv-document-compare.c):
   * the figures and timeline of the plan shown before it; serial 0: none
   * since the load. */
  PvSessionFigures previous_figures;
  PvTimelineModel *previous_timeline;
  guint comparison_serial;
  /* Symbols whose bound pv_document_set_bound() gave (the others have the
   * 1 the document gave them), and where each symbol comes from, made when
   * first asked (pv-document-symbols.c); NULL: not yet. */
  GHashTable *bounds_set;
  GHashTable *symbol_origins;

  /* Planning runs in a thread, one job at a time. Every input change bumps
   * plan_generation and cancels the job in flight; a job's plan is
   * installed only if it was made for the current generation (latest
   * wins). */
  struct _PlanData *plan_running; /* the job in flight (its task's data), or NULL */
  guint plan_generation;
  GThreadPool *free_pool;    /* frees replaced sessions (tens of ms on big models) */
  char *plan_stage;          /* what the job in flight is doing, NULL when idle */

  GCancellable *load_cancellable;
  char *load_stage;

  guint loading : 1;
  guint stale : 1;
  guint cancelled : 1;       /* the latest inputs' plan was cancelled */
  guint replan_queued : 1;   /* inputs changed while a job ran: plan the main graph and bodies */
  guint bodies_queued : 1;   /* open bodies changed while a job ran: plan the bodies */
  guint planning : 1;        /* as last notified */
};

enum {
  PV_DOCUMENT_PROP_0,
  PV_DOCUMENT_PROP_FILE,
  PV_DOCUMENT_PROP_PARTITION_FILE,
  PV_DOCUMENT_PROP_TITLE,
  PV_DOCUMENT_PROP_LOADING,
  PV_DOCUMENT_PROP_LOAD_STAGE,
  PV_DOCUMENT_PROP_PLANNER,
  PV_DOCUMENT_PROP_REGISTRY,
  PV_DOCUMENT_PROP_STALE,
  PV_DOCUMENT_PROP_PLANNING,
  PV_DOCUMENT_PROP_PLAN_STAGE,
  PV_DOCUMENT_N_PROPS
};

enum {
  PV_DOCUMENT_SIGNAL_LOADED,
  PV_DOCUMENT_SIGNAL_SYMBOLS_CHANGED,
  PV_DOCUMENT_SIGNAL_PLAN_CHANGED,
  PV_DOCUMENT_N_SIGNALS
};

extern GParamSpec *_pv_document_properties[PV_DOCUMENT_N_PROPS];
extern guint _pv_document_signals[PV_DOCUMENT_N_SIGNALS];

GHashTable      *_pv_document_bounds_new        (void);
GHashTable      *_pv_document_bounds_copy       (GHashTable *bounds);
/* A plan worth drawing: ORT runs the config as written. */
gboolean         _pv_document_session_is_valid  (const PvSession *session);
/* The node devices a plan of @graph under config @text takes: with the
 * CUDA registry (an ORT with the CUDA EP) the devices the config's streams
 * ask for (pv_partition_config_node_devices); with the CPU one (a CPU-only
 * ORT) NULL, every node on the CPU, whatever "devices" says. g_free it.
 * @n_gpu: how many nodes the config asks to run on the GPU, either way. */
int             *_pv_document_node_devices      (const PvGraph *graph, PvStreamRegistry registry, const char *text,
                                                 int *n_gpu);
PvTimelineModel *_pv_document_timeline_for      (const PvSession *session);
void             _pv_document_body_plan_free    (PvBodyPlan *body);
/* A pool that frees the sessions pushed to it, one at a time. */
GThreadPool     *_pv_document_free_pool_new     (PvDocument *self);
/* From a worker (pv-document-stage.c): unless the document in @document
 * is gone, @stage (copied) becomes its plan-stage (@plan; if job
 * @generation is still in flight then) or its load-stage (while it still
 * loads), from @context's main loop, never on the caller. */
void             _pv_document_report_stage      (GWeakRef     *document,
                                                 GMainContext *context,
                                                 gboolean      plan,
                                                 guint         generation,
                                                 const char   *stage);
/* Frees what the document holds of its sessions and plans (not the model). */
void             _pv_document_clear_plans       (PvDocument *self);
void             _pv_document_set_stale         (PvDocument *self,
                                                 gboolean    stale);
/* The inputs changed: plan the main graph and the open bodies in the
 * worker, now or after the job in flight (which is cancelled). */
void             _pv_document_replan            (PvDocument *self);
/* Only the open bodies changed: plan them from the plan session. */
void             _pv_document_replan_bodies     (PvDocument *self);
/* A load replaces the model: the job in flight keeps what it reads (the
 * old model, kernels and plan session) alive until it is done. */
void             _pv_document_retire_for_load   (PvDocument *self,
                                                 PvModel    *model,
                                                 PvKernelTable *kernels);
gboolean         _pv_document_is_planning       (PvDocument *self);
void             _pv_document_update_planning   (PvDocument *self);
/* The open bodies' paths (node name, attribute; no plans), level 1 first. */
GPtrArray       *_pv_document_dup_body_paths    (PvDocument *self);
PvBodyPlan      *_pv_document_body_path_new     (const char *node_name,
                                                 const char *attr);
/* The window simulates ORT's arena as ORT runs by default: its settings'
 * defaults, one intra-op thread per processor of this machine. */
void             _pv_document_arena_settings    (PvOrtArenaSettings *settings);
/* How many walk orders of ORT's multi-stream pass a re-plan of @graph
 * replays to find the values ORT plans at random (the basis option's
 * value): each costs about one more pass, so at most
 * PV_DOCUMENT_ORDER_TRIAL_BUDGET nodes' worth (32 orders up to 1,560
 * nodes, 4 at 12,500), and none when fewer than 4 fit. planviz-cli replays
 * 32 at any size. */
#define PV_DOCUMENT_ORDER_TRIAL_BUDGET 50000
int              _pv_document_order_trials      (const PvGraph *graph);
/* pv-document-compare.c: a new plan session replaces @old_plan (drawn as
 * @old_timeline, whose reference it takes): remembers them for the
 * comparison. */
void             _pv_document_remember_previous (PvDocument      *self,
                                                 const PvSession *old_plan,
                                                 PvTimelineModel *old_timeline);
/* Forgets the comparison (a load). */
void             _pv_document_clear_previous    (PvDocument *self);
/* pv-document-symbols.c: the symbols or their bases changed: origins are
 * made again when next asked. */
void             _pv_document_symbols_changed   (PvDocument *self);
/* The document's symbols: the basis's and the open bodies' (symbols new
 * to it get the bound the worker used, 1); emits symbols-changed when
 * they changed. */
void             _pv_document_update_symbols    (PvDocument *self);
/* The partition config at @file for @graph's model: UTF-8 text within
 * pv_partition_config_size_limit() of @graph (a bigger one is refused
 * before it is read: checking it would take gigabytes). */
gboolean         _pv_document_read_partition_text (GFile          *file,
                                                   const PvGraph  *graph,
                                                   GCancellable   *cancellable,
                                                   char          **text,
                                                   GError        **error);

G_END_DECLS
