/* pv-plan-checker.h: proves a memory plan safe, or lists why not.
 *
 * Independent of every planner: it recomputes lifetimes from the graph and
 * the schedule alone. A value is live from the start of the step that
 * defines it to the end of its last reader (explicit or implicit input of a
 * node); graph outputs live to the end; views (alias outputs) are one
 * memory object with their source. Two memory objects may share bytes only
 * if one's last use happens-before the other's definition: on one stream
 * that is program order; across streams it needs a chain of stream order and
 * synchronisation edges (barrier/trigger, wait/notify). */
#pragma once

#include "pv-graph.h"
#include "pv-happens-before.h"

G_BEGIN_DECLS

/* Where a value lives: a region (slot, root buffer, arena) and a byte range
 * in it. region -1: the plan gives it no memory of its own (views, weights,
 * graph inputs). */
typedef struct {
  int region;
  guint64 offset;
  guint64 size;
} PvPlacement;

/* Program order and synchronisation: per node its stream and position; and
 * extra happens-before edges (from node's end to node's start) between
 * streams. A single stream needs no edges. */
typedef struct {
  const int *node_stream;   /* node id -> stream; NULL: one stream */
  const int *node_position; /* node id -> position within its stream (graph->order position if NULL) */
  const int (*sync_edges)[2];
  int n_sync_edges;
} PvCheckSchedule;

typedef enum {
  PV_VIOLATION_NO_MEMORY,      /* a value that needs bytes has no placement, or a too small one */
  PV_VIOLATION_OVERLAP,        /* two objects share bytes while both are live */
  PV_VIOLATION_UNORDERED,      /* shared across streams without a happens-before chain */
} PvViolationKind;             /* from worst to mildest */

typedef struct {
  PvViolationKind kind;
  int value_a;        /* value ids */
  int value_b;        /* -1 for NO_MEMORY */
  int step_a;         /* node id of a's last use (or definition for NO_MEMORY) */
  int step_b;         /* node id of b's definition */
  char *message;
} PvViolation;

typedef struct {
  gboolean ok;
  PvViolation *violations;
  int n_violations;
} PvCheckResult;

/* @placements: per value id. @view_root: value id -> the value whose
 * memory it is, itself when it views nothing (pv_value_view_roots(); NULL:
 * no views). @may_inplace_source: value id -> the input its producer's
 * kernel may overwrite in place (MayInplace), or -1 (NULL: none); this is a
 * kernel property, not a planner decision. @required_bytes: per value id,
 * what it must hold (0 for values the plan does not own). At most
 * @max_violations are reported (0: all). */
PvCheckResult *pv_plan_check (const PvGraph *graph, const PvCheckSchedule *schedule, const PvPlacement *placements,
                              const int *view_root, const int *may_inplace_source, const guint64 *required_bytes,
                              int max_violations);
/* The same check with the run's order already built (from the schedule
 * pv_plan_check() would take): a session checks several plans of one run. */
PvCheckResult *pv_plan_check_in_order (const PvGraph *graph, const PvHappensBefore *order,
                                       const PvPlacement *placements, const int *view_root,
                                       const int *may_inplace_source, const guint64 *required_bytes,
                                       int max_violations);
void pv_check_result_free (PvCheckResult *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvCheckResult, pv_check_result_free)

/* What a run of a plan with a violation of @kind does, in one sentence.
 * For ORT's own multi-stream plans this is what the real ORT 1.30 was seen
 * to do (tests/ort/compare-parallel.mjs): an overlap gives wrong outputs in
 * sequential and parallel runs alike; an unordered pair only when streams
 * run at once. */
const char *pv_violation_effect (PvViolationKind kind);

G_END_DECLS
