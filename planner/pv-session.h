/* pv-session.h: one model, its bounds and kernel table, and every plan
 * planviz makes of it, each checked. The CLI and the window ask a session
 * for plans; they never plan themselves. Re-create it when an input changes
 * (it is cheap next to loading). */
#pragma once

#include "pv-kernel-table.h"
#include "pv-model.h"
#include "pv-offset-planner.h"
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
} PvSessionOptions;

typedef struct {
  const PvModel *model;          /* borrowed */
  const PvKernelTable *kernels;  /* borrowed */
  PvShapeInfo *shapes;
  int *view_source;              /* value -> aliased value (kernel Alias), -1 */
  int *inplace_source;           /* value -> input it may overwrite (MayInplace), -1 */

  PvSlotPlan *slots;             /* the slot planner */
  PvCheckResult *slots_check;    /* NULL while deferred */
  char **unbound_symbols;        /* deferred: symbols to bind, sorted */

  PvOffsetPlan *arena;           /* NULL while deferred */
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
  PvOffsetPlan *ort_arena;       /* ORT's Allocate buffers packed in one arena */
  int *ort_arena_values;         /* buffer index -> root value id */
  int n_ort_arena_values;
  guint64 ort_peak_bytes;        /* sum of ORT's Allocate buffers (what ORT's arena holds) */
  double plan_ms;                /* time spent planning and checking */
} PvSession;

PvSession *pv_session_new (const PvModel *model, const PvKernelTable *kernels, const PvSessionOptions *options,
                           GError **error);
void pv_session_free (PvSession *session);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvSession, pv_session_free)

G_END_DECLS
