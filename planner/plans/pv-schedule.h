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
  int n_values;
  guint64 *value_bytes;    /* value id -> bytes counted on its device's curve (0: not counted) */
  int *value_device;       /* value id -> its curve's device */
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

/* The curve of @device, NULL when no value of it is counted. */
const PvLiveCurve *pv_schedule_curve (const PvSchedule *schedule, int device);
/* The curve's bytes at @time: what it holds from the last point at or
 * before @time on. */
guint64 pv_live_curve_bytes_at (const PvLiveCurve *curve, double time);

/* The values whose bytes @device's curve counts at @time (live interval
 * start <= @time < end), by bytes, largest first, then id; their sum is
 * pv_live_curve_bytes_at (@time). Caller frees; *@n_out gets the count. */
int *pv_schedule_live_at (const PvSchedule *schedule, int device, double time, int *n_out);

/* What happens on @device's curve during [@t0, @t1): start_bytes +
 * allocated - freed == end_bytes. */
typedef struct {
  int n_kernels;           /* kernels that start in the span */
  guint64 allocated;       /* bytes of the values born in it */
  guint64 freed;           /* bytes of the values freed in it (their last reader ends in it) */
  guint64 peak_bytes;      /* the curve's highest point in it */
  double peak_time;
  guint64 start_bytes, end_bytes; /* the curve just before @t0 and just before @t1 */
  int *born;               /* values whose live interval starts in the span, by start then id */
  int n_born;
  int *dying;              /* values whose live interval ends in it, by end then id */
  int n_dying;
} PvScheduleRange;

PvScheduleRange *pv_schedule_range (const PvSchedule *schedule, const PvGraph *graph, int device, double t0,
                                    double t1);
void pv_schedule_range_free (PvScheduleRange *range);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvScheduleRange, pv_schedule_range_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvSchedule, pv_schedule_free)

G_END_DECLS
