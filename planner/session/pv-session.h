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
#include "pv-shape-inference.h"
#include "pv-slot-planner.h"

G_BEGIN_DECLS

#define PV_DEFAULT_ALIGNMENT 64


typedef struct {
  GHashTable *bounds;            /* symbol -> gint64*, may be NULL */
  GHashTable *input_shapes;      /* graph input -> GArray of gint64, may be NULL */
  gboolean include_graph_inputs; /* slot/arena planners also place graph inputs */
  guint64 alignment;             /* arena alignment, 0: PV_DEFAULT_ALIGNMENT */
  const char *partition_text;    /* a DeviceBasedPartitioner config, NULL: ORT's default */
  gsize partition_len;
  const int *node_devices;       /* node id -> device type (0 CPU, 1 GPU), NULL: all CPU */
  PvStreamRegistry registry;     /* which wait handles exist (cpu: none) */
  gboolean roofline_cost;        /* schedule with FLOP/bytes kernel times (µs), not 1 per kernel */
  PvShapeInfo *shapes;           /* an inference of the model with these bounds and input_shapes to
                                    share (a re-plan after a partition edit), NULL: infer */
  const PvOrtArenaSettings *ort_arena; /* ORT's arena settings for its simulation, NULL: ORT's defaults
                                          with one intra-op thread */
} PvSessionOptions;

/* What a session spends its time on (PvSession.stage_ms), in the order run. */
typedef enum {
  PV_SESSION_STAGE_VALUE_MAPS,    /* ORT's plan basis, kernel alias and in-place maps, sizes, lifetimes */
  PV_SESSION_STAGE_CONFIG_CHECK,  /* reading the partition config as ORT does */
  PV_SESSION_STAGE_ORT_PLAN,      /* ORT's execution and allocation plans (waiting for the basis) */
  PV_SESSION_STAGE_SCHEDULE,      /* the simulated run */
  PV_SESSION_STAGE_SLOTS,         /* happens-before and the slot planner */
  PV_SESSION_STAGE_SLOTS_CHECK,
  PV_SESSION_STAGE_ARENA,         /* the arena planner's packing */
  PV_SESSION_STAGE_ARENA_CHECK,
  PV_SESSION_STAGE_ORT_CHECK,     /* the checker on ORT's plan */
  PV_SESSION_STAGE_ORT_ARENA,     /* ORT's buffers packed in one arena */
  PV_SESSION_STAGE_ORT_RUN,       /* ORT's CPU arena over two runs, simulated */
  PV_SESSION_N_STAGES
} PvSessionStage;

/* A short name of @stage ("config check"), for reports. */
const char *pv_session_stage_name (PvSessionStage stage);

typedef struct {
  const PvModel *model;          /* borrowed */
  const PvGraph *graph;          /* the planned graph: model->graph, or a subgraph body (borrowed) */
  int parent_node;               /* subgraph sessions: the owning node's id in graph->parent; else -1 */
  int subgraph_index;            /* subgraph sessions: index in that node's subgraphs; else -1 */
  const PvKernelTable *kernels;  /* borrowed */
  PvShapeInfo *shapes;           /* of the whole model; a subgraph session shares its parent's */
  int *view_source;              /* value -> aliased value (kernel Alias), -1 */
  int *inplace_source;           /* value -> input it may overwrite (MayInplace), -1 */

  PvSlotPlan *slots;             /* the slot planner */
  PvCheckResult *slots_check;    /* NULL while deferred */
  char **unbound_symbols;        /* deferred: symbols to bind, sorted */

  PvArenaPlan *arena;           /* NULL while deferred */
  int *arena_values;             /* buffer index -> value id */
  int n_arena_values;
  PvCheckResult *arena_check;

  guint64 load_bytes;            /* LOAD: max bytes live at one step (unaligned) */

  PvPartitionCheck *partition_check; /* findings about partition_text, NULL without one */
  PvPartitionConfig *partition;  /* the streams ORT runs (default when none or discarded) */
  PvOrtPlan *ort;                /* ONNX Runtime's plan; NULL when ORT would refuse to run */
  char *ort_error;               /* why there is no ORT plan */
  PvSchedule *schedule;          /* simulation of the ORT execution plan */
  guint64 *value_bytes;          /* value id -> bytes when known (0 otherwise) */
  PvCheckResult *ort_check;      /* the checker on ORT's allocation plan */
  PvArenaPlan *ort_arena;       /* ORT's Allocate buffers packed in one arena */
  int *ort_arena_values;         /* buffer index -> root value id */
  int n_ort_arena_values;
  guint64 ort_peak_bytes;        /* ORT reserves: the sum of ORT's Allocate buffers */
  PvOrtArenaRun *ort_run;        /* what ORT's CPU arena does over the first two runs; NULL for
                                    subgraph sessions, without an ORT plan, or while sizes are unknown */
  double plan_ms;                /* time spent planning and checking */
  double stage_ms[PV_SESSION_N_STAGES]; /* per stage (0 when skipped); stages run on two threads at
                                           once, so they may add up to more than plan_ms. ORT arena:
                                           until the second thread found every ordering taken */
} PvSession;

PvSession *pv_session_new (const PvModel *model, const PvKernelTable *kernels, const PvSessionOptions *options,
                           GError **error);

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
 * inputs), shared, not inferred again. @options gives bounds, alignment,
 * registry, cost model and include_graph_inputs; its partition_text and
 * node_devices are ignored (see above). @parent may be freed before the
 * result: the result keeps what it needs except model and kernels, which
 * must outlive it as for pv_session_new().
 *
 * Fails with PV_SESSION_ERROR when (@node, @subgraph_index) names no
 * subgraph, or when @parent has no ORT plan (ORT would not run it). A body
 * ORT itself would refuse to plan gives a session with ort == NULL and
 * ort_error set, as pv_session_new() does. */
PvSession *pv_session_new_for_subgraph (const PvSession *parent, int node, int subgraph_index,
                                        const PvSessionOptions *options, GError **error);
void pv_session_free (PvSession *session);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvSession, pv_session_free)

G_END_DECLS
