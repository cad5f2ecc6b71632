/* pv-session.h: one model, its bounds and kernel table, and every plan
 * planviz makes of it, each checked. The CLI and the window ask a session
 * for plans; they never plan themselves. Re-create it when an input changes
 * (it is cheap next to loading). */
#pragma once

#include "pv-arena-planner.h"
#include "pv-ort-arena-run.h"
#include "pv-error.h"
#include "pv-kernel-table.h"
#include "pv-model.h"
#include "pv-ort-plan.h"
#include "pv-partition-config.h"
#include "pv-plan-checker.h"
#include "pv-schedule.h"
#include "pv-session-basis.h"
#include "pv-shape-inference.h"
#include "pv-slot-planner.h"

G_BEGIN_DECLS

#define PV_DEFAULT_ALIGNMENT 64


typedef struct {
  /* What the basis is made of (pv_session_new() only; a session on a basis
   * takes its basis's): */
  GHashTable *bounds;            /* symbol -> gint64*, may be NULL; for a subgraph session: the bounds
                                    of symbols only the body's sizes mention (its parent's win for the
                                    others) */
  GHashTable *input_shapes;      /* graph input -> GArray of gint64, may be NULL */
  GHashTable *input_values;      /* graph input -> PvTensor* of known contents (--input-value), may be NULL */
  gboolean include_graph_inputs; /* slot/arena planners also place graph inputs */
  PvShapeInfo *shapes;           /* an inference of the model with these input_shapes and values to share,
                                    NULL: infer */
  PvOrtShapes *ort_shapes;       /* ORT's view of the model's shapes to share, NULL: infer */
  /* What a partition edit changes: */
  guint64 alignment;             /* arena alignment, 0: PV_DEFAULT_ALIGNMENT */
  const char *partition_text;    /* a DeviceBasedPartitioner config, NULL: ORT's default */
  gsize partition_len;
  const int *node_devices;       /* node id -> device type (0 CPU, 1 GPU), NULL: all CPU */
  PvStreamRegistry registry;     /* which wait handles exist (cpu: none) */
  gboolean roofline_cost;        /* schedule with FLOP/bytes kernel times (µs), not 1 per kernel */
  PvSessionProgress progress;    /* told each stage as it starts (planning thread), may be NULL */
  gpointer progress_data;
  const PvOrtArenaSettings *ort_arena; /* ORT's arena settings for its simulation, NULL: ORT's defaults
                                          with one intra-op thread */
} PvSessionOptions;

typedef struct {
  PvSessionBasis *basis;         /* owned reference: what the plans share with other sessions of the graph */
  const PvModel *model;          /* borrowed */
  const PvGraph *graph;          /* the planned graph: model->graph, or a subgraph body (borrowed) */
  int parent_node;               /* subgraph sessions: the owning node's id in graph->parent; else -1 */
  int subgraph_index;            /* subgraph sessions: index in that node's subgraphs; else -1 */
  const PvKernelTable *kernels;  /* borrowed */
  PvShapeInfo *shapes;           /* of the whole model (the basis's) */
  PvOrtShapes *ort_shapes;       /* ORT's view of them, which ORT's planner reads alone (the basis's) */
  const int *view_source;        /* value -> aliased value (kernel Alias), -1 (the basis's) */
  const int *view_root;          /* value -> the value whose memory it is (the basis's): the one source */
  const int *inplace_source;     /* value -> input it may overwrite (MayInplace), -1 (the basis's) */

  PvSlotPlan *slots;             /* the slot planner */
  PvCheckResult *slots_check;    /* NULL while deferred */
  char **unbound_symbols;        /* deferred: symbols to bind, sorted */

  PvArenaPlan *arena;            /* NULL while deferred */
  int *arena_values;             /* buffer index -> value id */
  int n_arena_values;
  PvCheckResult *arena_check;

  guint64 load_bytes;            /* LOAD: max bytes live at one step (unaligned) */

  PvPartitionCheck *partition_check; /* findings about partition_text, NULL without one */
  PvPartitionConfig *partition;  /* the streams ORT runs (default when none or discarded) */
  PvOrtPlan *ort;                /* ONNX Runtime's plan; NULL when ORT would refuse to run */
  char *ort_error;               /* why there is no ORT plan */
  PvSchedule *schedule;          /* simulation of the ORT execution plan */
  const guint64 *value_bytes;    /* value id -> bytes when known, 0 otherwise (the basis's) */
  PvCheckResult *ort_check;      /* the checker on ORT's allocation plan */
  PvArenaPlan *ort_arena;        /* ORT's Allocate buffers packed in one arena */
  int *ort_arena_values;         /* buffer index -> root value id */
  int n_ort_arena_values;
  guint64 ort_peak_bytes;        /* ORT reserves: the sum of ORT's Allocate buffers */
  PvOrtArenaRun *ort_run;        /* what ORT's CPU arena does over the first two runs; NULL for
                                    subgraph sessions, without an ORT plan, or while sizes are unknown */
  double plan_ms;                /* time spent planning and checking (the basis included when made here) */
  gconstpointer planned_on;      /* the GThread that planned it: the window checks its plans come from a worker */
  double stage_ms[PV_SESSION_N_STAGES]; /* per stage (0 when skipped; value maps: 0 on a basis made
                                           before); stages run on two threads at once, so they may add
                                           up to more than plan_ms. ORT arena: until the second thread
                                           found every ordering taken */
} PvSession;

/* Makes a basis of @model's main graph from @options, then plans on it.
 * Like every session constructor, NULL with a PV_SHAPE_ERROR naming the
 * value when a size is wrong (the basis's size_error): no plan drops it. */
PvSession *pv_session_new (const PvModel *model, const PvKernelTable *kernels, const PvSessionOptions *options,
                           GError **error);

/* Every plan of @basis's graph (a main graph's basis) under @options'
 * partition, registry, alignment and cost model; its bounds, input shapes
 * and inclusion of graph inputs are the basis's (those of @options are
 * ignored). The session takes a reference on @basis. Stops between stages
 * when @cancellable is cancelled: NULL with G_IO_ERROR_CANCELLED. */
PvSession *pv_session_new_on_basis (PvSessionBasis *basis, const PvSessionOptions *options,
                                    GCancellable *cancellable, GError **error);

/* Plans one subgraph body (If then_branch/else_branch, Loop body, Scan body)
 * of @parent->graph as ONNX Runtime does: with a session state and plans of
 * its own, as a separate graph. @node is a node id of @parent->graph and
 * @subgraph_index indexes that node's subgraphs (attribute order). Nest by
 * passing a subgraph session as @parent.
 *
 * What ORT does, and so the body plan does:
 *   - the partition config is ignored: the body gets ORT's default partition,
 *     one stream, every body node on the device of the owning node;
 *   - the body's graph inputs and the outer-scope values it reads (its
 *     owner's implicit inputs) are kPreExisting, located where @parent's ORT
 *     plan put them; body outputs are kAllocateOutput (kShare for an
 *     Identity of a pre-existing value in a Loop body).
 * Shapes are @parent's inference of the body (pv-infer-control.c: outer
 * values from the enclosing graph, Loop/Scan body inputs from the node's
 * inputs), shared, not inferred again; the body's basis takes @parent's
 * bounds, and @options' bounds for the symbols only the body's sizes
 * mention. @options gives alignment, registry and cost model; its
 * partition_text and node_devices are ignored (see above). @parent may be freed before the
 * result: the result keeps what it needs except model and kernels, which
 * must outlive it as for pv_session_new().
 *
 * Fails with PV_SESSION_ERROR when (@node, @subgraph_index) names no
 * subgraph, or when @parent has no ORT plan (ORT would not run it). A body
 * ORT itself would refuse to plan gives a session with ort == NULL and
 * ort_error set, as pv_session_new() does. */
PvSession *pv_session_new_for_subgraph (const PvSession *parent, int node, int subgraph_index,
                                        const PvSessionOptions *options, GError **error);
/* The same, stopping between stages when @cancellable is cancelled
 * (G_IO_ERROR_CANCELLED). */
PvSession *pv_session_new_for_subgraph_cancellable (const PvSession *parent, int node, int subgraph_index,
                                                    const PvSessionOptions *options, GCancellable *cancellable,
                                                    GError **error);
void pv_session_free (PvSession *session);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvSession, pv_session_free)

G_END_DECLS
