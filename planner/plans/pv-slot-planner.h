/* pv-slot-planner.h: the greedy slot planner (planviz's second reference
 * design). Owners get slots; a slot holds one owner at a time and is reused
 * by later owners that fit (best fit: smallest capacity, then smallest id);
 * a slot never grows. Retiring happens after a step's outputs are placed,
 * so a step never writes over its own inputs and graph outputs are never
 * recycled. Any owner of unknown size defers the whole plan. Deterministic. */
#pragma once

#include "pv-liveness.h"
#include "pv-shape-inference.h"

G_BEGIN_DECLS

typedef enum {
  PV_SIZE_KNOWN,      /* *bytes_out is set */
  PV_SIZE_UNKNOWN,    /* a tensor whose size depends on an unbound symbol, or has no known shape */
  PV_SIZE_NONE,       /* not a sized tensor (sequence, map, string, unknown type): not planned */
} PvSizeResult;

typedef PvSizeResult (*PvSizeOracle) (gpointer user_data, int value_id, guint64 *bytes_out);

typedef struct {
  int id;
  guint64 capacity;
} PvSlot;

typedef struct {
  gboolean deferred;
  int *unknown;           /* deferred: owners of unknown size, ascending value id */
  int n_unknown;
  int *unsized;           /* owners that are not sized tensors, ascending value id (never planned) */
  int n_unsized;
  int *slot_of;           /* value id -> slot id for owners, -1 otherwise (a view uses its root's) */
  guint64 *bytes;         /* value id -> size of owners (0 otherwise) */
  PvSlot *slots;          /* ascending id */
  int n_slots;
  guint64 peak_bytes;     /* sum of slot capacities */
  guint64 naive_bytes;    /* sum of owner sizes */
  double savings_ratio;   /* 1 - peak/naive, 0 when naive is 0 */
  PvLiveness *liveness;
} PvSlotPlan;

PvSlotPlan *pv_slot_plan_new (const PvGraph *graph, const int *view_source, gboolean include_graph_inputs,
                              PvSizeOracle oracle, gpointer oracle_data);
/* The same for an execution on several streams: lifetimes are widened with
 * pv_liveness_widen_for_streams() so that reuse is safe on every stream. */
PvSlotPlan *pv_slot_plan_new_for_streams (const PvGraph *graph, const int *view_source, gboolean include_graph_inputs,
                                          const PvHappensBefore *hb, PvSizeOracle oracle, gpointer oracle_data);
/* The same on lifetimes already made (pv_liveness_new(), widened for
 * streams when there are several), which the plan takes and never changes:
 * others may read them while it plans. */
PvSlotPlan *pv_slot_plan_new_for_liveness (const PvGraph *graph, PvLiveness *liveness, PvSizeOracle oracle,
                                           gpointer oracle_data);
void pv_slot_plan_free (PvSlotPlan *plan);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvSlotPlan, pv_slot_plan_free)

/* A size oracle over shape inference and a bounds table (symbol -> gint64*,
 * may be NULL). @data is a PvShapeSizes. */
typedef struct {
  const PvShapeInfo *shapes;
  const PvGraph *graph;
  GHashTable *bounds;
} PvShapeSizes;
PvSizeResult pv_shape_sizes_oracle (gpointer data, int value_id, guint64 *bytes_out);

/* For a deferred @plan: the symbols its unknown owners' sizes mention that
 * @bounds (may be NULL) leaves unbound, sorted, NULL-terminated (free with
 * g_strfreev). */
char **pv_slot_plan_unbound_symbols (const PvSlotPlan *plan, const PvGraph *graph, const PvShapeInfo *shapes,
                                     GHashTable *bounds);

/* Admission control: the peak that must be reserved when every symbol is
 * at its bound. Returns TRUE with @peak_out, or FALSE with the sorted,
 * NULL-terminated list of symbols still unbound (free with g_strfreev). */
gboolean pv_slot_plan_peak_at_bounds (const PvGraph *graph, const PvShapeInfo *shapes, const int *view_source,
                                      gboolean include_graph_inputs, GHashTable *bounds, guint64 *peak_out,
                                      char ***unbound_out);

G_END_DECLS
