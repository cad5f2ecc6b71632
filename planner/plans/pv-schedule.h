/* pv-schedule.h: a deterministic simulation of an execution plan.
 *
 * Each logic stream runs its steps in order. A kernel takes its cost (1 by
 * default); a Barrier waits until the TriggerDownstream steps that feed it
 * have run; a WaitOnEP waits for its ActivateNotification. From the step
 * times follow every value's live interval in schedule time (definition
 * start to the end of the last reader of it or of a view of it; graph
 * outputs to the end), the live-bytes
 * curve per device, and its peak: the x-axis of the timeline. */
#pragma once

#include "pv-ort-plan.h"

G_BEGIN_DECLS

typedef struct {
  double start;
  double end;
} PvSpan;

typedef struct {
  double time;
  guint64 bytes;      /* live bytes from this time on */
} PvCurvePoint;

typedef struct {
  int device;         /* OrtDevice type */
  PvCurvePoint *points;
  int n_points;
  guint64 peak_bytes;
  double peak_time;
} PvLiveCurve;

typedef struct {
  double makespan;
  PvSpan **step_spans;     /* [stream][step] */
  PvSpan *node_spans;      /* node id -> its LaunchKernel span */
  PvSpan *value_spans;     /* value id -> live interval, start < 0 when never live */
  PvLiveCurve *curves;     /* one per device with live values, ascending device */
  int n_curves;
  int n_streams;
  const int (*sync_edges)[2]; /* (producer node, waiting node) pairs the plan synchronises (the
                               * plan's own: a schedule must not outlive its plan) */
  int n_sync_edges;
  gboolean deadlock;       /* some step could never start (a plan bug); spans after it are -1 */
} PvSchedule;

/* Cost of one node in schedule time units; NULL means 1 per kernel. */
typedef double (*PvNodeCost) (gpointer user_data, const PvGraph *graph, int node);

/* @value_bytes: value id -> bytes (0: not counted), @value_device: value id
 * -> device type (NULL: all on CPU), @view_root: value id -> the value whose
 * memory it is (NULL: no views); a value's live interval then lasts while
 * any view of it is read. */
PvSchedule *pv_schedule_new (const PvOrtPlan *plan, const guint64 *value_bytes, const int *value_device,
                             const int *view_root, PvNodeCost cost, gpointer cost_data);
void pv_schedule_free (PvSchedule *schedule);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvSchedule, pv_schedule_free)

G_END_DECLS
