/* pv-session-basis.h: what every plan of one graph shares, whatever its
 * partition config: the shape inference, the basis of ORT's plan (node I/O,
 * kernels, SameSize classes), the kernel alias and in-place maps, the view
 * roots, every value's size under the bounds, the lifetimes in program
 * order, and the symbols sizes still need a bound for.
 *
 * A basis is made once per model + input shapes + bounds (a bound change
 * makes a new one that shares the inference and maps,
 * pv_session_basis_new_with_bounds()); a partition edit, the registry or
 * the cost model re-plan on it (pv_session_new_on_basis()). It is immutable
 * once made and reference-counted: sessions hold a reference, and any
 * number of threads may plan on one basis at once. */
#pragma once

#include <gio/gio.h>

#include "pv-kernel-table.h"
#include "pv-liveness.h"
#include "pv-model.h"
#include "pv-ort-plan.h"
#include "pv-ort-shapes.h"
#include "pv-shape-inference.h"
#include "pv-slot-planner.h"

G_BEGIN_DECLS

/* The stages a basis and a session go through, in the order run. */
typedef enum {
  PV_SESSION_STAGE_VALUE_MAPS,    /* basis: ORT's plan basis, kernel alias and in-place maps, sizes, lifetimes */
  PV_SESSION_STAGE_CONFIG_CHECK,  /* reading the partition config as ORT does */
  PV_SESSION_STAGE_ORT_PLAN,      /* ORT's execution and allocation plans */
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

/* Called from the planning thread as a stage starts (a basis's inference
 * and maps, then a session's stages); it must return quickly. */
typedef void (*PvSessionProgress) (gpointer user_data, PvSessionStage stage);

typedef struct {
  GHashTable *bounds;            /* symbol -> gint64*, may be NULL; copied */
  GHashTable *input_shapes;      /* graph input -> GArray of gint64, may be NULL (inference only) */
  gboolean include_graph_inputs; /* lifetimes (and so slot/arena plans) include graph inputs */
  PvShapeInfo *shapes;           /* an inference of the model with these input shapes to share, NULL: infer */
  GHashTable *input_values;      /* graph input -> PvTensor* of known contents, may be NULL (inference only) */
  PvOrtShapes *ort_shapes;       /* ORT's view of the model's shapes to share, NULL: infer */
  PvSessionProgress progress;    /* may be NULL */
  gpointer progress_data;
  /* Walk orders of ORT's multi-stream pass replayed to find the values ORT
   * plans at random (pv_ort_plan_basis_set_order_trials()): 0 the
   * default, < 0 none. */
  int ort_order_trials;
} PvSessionBasisOptions;

typedef struct _PvSessionBasis PvSessionBasis;

struct _PvSessionBasis {
  /*< private >*/
  gint ref_count;
  struct _PvBasisMaps *maps;     /* what bounds do not change, shared by bases with other bounds */
  /*< public, read-only >*/
  const PvModel *model;          /* borrowed: must outlive the basis */
  const PvKernelTable *kernels;  /* borrowed: must outlive the basis */
  const PvGraph *graph;          /* the graph planned: model->graph, or a subgraph body */
  PvShapeInfo *shapes;           /* of the whole model */
  PvOrtShapes *ort_shapes;       /* ORT's view of them: what ORT's planner reads */
  GHashTable *bounds;            /* symbol -> gint64*, owned (never NULL) */
  const int *view_source;        /* value -> aliased input (kernel Alias), -1 */
  const int *view_root;          /* value -> the value whose memory it is (pv_value_view_roots()) */
  const int *inplace_source;     /* value -> input it may overwrite (MayInplace), -1 */
  const PvLiveness *liveness;    /* owners and lifetimes in program order */
  const PvOrtPlanBasis *ort;     /* the main graph's ORT plan basis; NULL for a body */
  PvSizeResult *size_kind;       /* value -> known, unknown (needs a bound) or not a sized tensor */
  guint64 *value_bytes;          /* value -> bytes when known, 0 otherwise */
  char **symbols;                /* every symbol owners' sizes mention: sorted, NULL-terminated */
  char **unbound_symbols;        /* those the bounds lack: sorted, NULL-terminated */
  GError *size_error;            /* PV_SHAPE_ERROR naming the first value whose size is wrong
                                  * (overflows 64 bits, negative, an impossible Reshape), or NULL:
                                  * the session refuses to plan rather than drop the value */
  int n_shapeless;               /* owners of unknown size with no shape at all (no bound can help) */
  char **no_shape_rule;          /* n_shapeless > 0: the ops planviz has no shape rule for, "Op (×N)",
                                    sorted, NULL-terminated (empty when the shapes are lost otherwise) */
  double stage_ms;               /* time spent making it (inference included when not shared) */
};

/* The basis of @model's main graph. Fails with @error when inference
 * refuses the input shapes, or with G_IO_ERROR_CANCELLED. */
PvSessionBasis *pv_session_basis_new (const PvModel *model, const PvKernelTable *kernels,
                                      const PvSessionBasisOptions *options, GCancellable *cancellable,
                                      GError **error);
/* The same graph with other bounds: shares everything but the sizes and
 * the unbound symbols (a bound change costs one pass over the values). */
PvSessionBasis *pv_session_basis_new_with_bounds (const PvSessionBasis *basis, GHashTable *bounds);
/* The basis of a subgraph body of @parent's graph (node @node, subgraph
 * @subgraph_index), with @parent's inference and bounds; NULL when there is
 * no such body (@error PV_SESSION_ERROR_NO_SUBGRAPH). */
PvSessionBasis *pv_session_basis_new_for_subgraph (const PvSessionBasis *parent, int node, int subgraph_index,
                                                   GError **error);

PvSessionBasis *pv_session_basis_ref (PvSessionBasis *basis);
void pv_session_basis_unref (PvSessionBasis *basis);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvSessionBasis, pv_session_basis_unref)

/* The size oracle over the basis's table (@data is the basis). */
PvSizeResult pv_session_basis_size (gpointer data, int value_id, guint64 *bytes_out);

G_END_DECLS
