/* pv-timeline-model.h: the timeline's geometry, built once per data set.
 *
 * A PvTimelineModel turns planner records (an ORT execution plan, its
 * simulated schedule, the slot plan, the arena plan) into plain arrays of
 * items on one time axis (schedule time): lanes, kernel boxes, step marks,
 * cross-stream arrows, value bars, reuse links and live-bytes curves. It
 * knows nothing about pixels; PvTimelineRenderer maps it onto a viewport and
 * hit-tests the same arrays, so what is drawn is what is hovered.
 *
 * Every array of timed items is grouped by lane and sorted by start inside a
 * lane, with a running maximum of the end times (`*_max_end`) so that the
 * first item overlapping a time can be found by binary search.
 *
 * The model is immutable and reference counted; it borrows the PvGraph
 * (names, op types), which must outlive it. Nothing else is borrowed. */
#pragma once

#include <glib.h>

#include "pv-graph.h"
#include "pv-arena-planner.h"
#include "pv-ort-plan.h"
#include "pv-schedule.h"
#include "pv-session.h"
#include "pv-slot-planner.h"

G_BEGIN_DECLS

/* ---- what the model is built from ---- */

typedef struct {
  const PvGraph *graph;            /* required; borrowed by the model */
  /* ORT's plan and its simulation. Both NULL: one "program order" lane
   * with graph->order at unit cost and no step marks. */
  const PvOrtPlan *ort;
  const PvSchedule *schedule;
  /* The slot planner's result; NULL or deferred: no slots/arena views. */
  const PvSlotPlan *slots;
  const int *view_source;          /* value -> aliased value, -1; may be NULL */
  const int *view_root;            /* value -> the value whose memory it is; NULL: from view_source */
  const int *inplace_source;       /* value -> input it may overwrite, -1; may be NULL */
  const PvArenaPlan *arena;       /* NULL: no arena view */
  const int *arena_values;         /* arena buffer index -> value id */
  int n_arena_values;
  /* value id -> bytes (0 unknown). NULL: the slot plan's owner sizes. */
  const guint64 *value_bytes;
  guint64 load_bytes;              /* LOAD, the lower bound; 0: unknown */
  const PvOrtArenaRun *ort_run;    /* ORT's CPU arena over the first run; NULL: none drawn */
  const char *const *unbound_symbols; /* why the memory plan is deferred, may be NULL */
  const char *const *no_shape_rule;   /* set when values have no known shape: ops with no shape rule */
} PvTimelineSource;

/* ---- items ---- */

typedef enum {
  PV_TIMELINE_LANE_STREAM,    /* a logic stream: kernel boxes and step marks */
  PV_TIMELINE_LANE_CURVE,     /* live bytes of one device */
  PV_TIMELINE_LANE_SLOT,      /* one slot of the slot planner */
  PV_TIMELINE_LANE_BUFFER,    /* one ORT root buffer */
  PV_TIMELINE_LANE_ARENA,     /* the arena: y is the byte offset */
} PvTimelineLaneKind;

typedef struct {
  PvTimelineLaneKind kind;
  char *label;                /* "stream 0 · CPU", "slot 3", "buffer 12", "arena" */
  char *detail;               /* "49 kernels", "8 KiB", the root value's name */
  int id;                     /* stream index, slot id, root OrtValue index, device */
  int device;                 /* PvOrtDevice type */
  guint64 bytes;              /* slot capacity, buffer size, arena size, curve peak */
  int first, n;               /* items: kernels (stream), bars (memory), points (curve) */
  int first_mark, n_marks;    /* stream lanes: step marks */
} PvTimelineLane;

typedef struct {
  double start, end;
  int node;
  int lane;                   /* stream lane index */
  int step;                   /* index of the LaunchKernel step in its stream, -1 without a plan */
  guint8 colour;              /* op palette index */
  float weight;               /* bytes its outputs hold + 1: who wins a crowded pixel */
} PvTimelineKernel;

typedef enum {
  PV_TIMELINE_MARK_BARRIER,
  PV_TIMELINE_MARK_WAIT,
  PV_TIMELINE_MARK_NOTIFY,
  PV_TIMELINE_MARK_TRIGGER,
} PvTimelineMarkKind;

typedef struct {
  double time;
  PvTimelineMarkKind kind;
  int lane;                   /* stream lane index (== stream) */
  int step;                   /* step index in the stream */
  int node;                   /* the step's node */
  int id;                     /* barrier, notification or trigger point id */
} PvTimelineMark;

typedef enum {
  PV_TIMELINE_ARROW_TRIGGER = 1 << 0,   /* TriggerDownstream -> Barrier */
  PV_TIMELINE_ARROW_NOTIFY = 1 << 1,    /* ActivateNotification -> WaitOnEP */
  PV_TIMELINE_ARROW_REUSE = 1 << 2,     /* memory lanes: alias / in-place links */
  PV_TIMELINE_ARROW_ALL = 0x7,
} PvTimelineArrowFlags;

typedef struct {
  int from_mark, to_mark;
  PvTimelineArrowFlags kind;  /* TRIGGER or NOTIFY */
  double t_min, t_max;
} PvTimelineArrow;

typedef enum {
  PV_TIMELINE_BAR_VIEW = 1 << 0,         /* shares its root's buffer (kernel Alias) */
  PV_TIMELINE_BAR_INPLACE = 1 << 1,      /* overwrote an input (MayInplace) */
  PV_TIMELINE_BAR_GRAPH_INPUT = 1 << 2,
  PV_TIMELINE_BAR_GRAPH_OUTPUT = 1 << 3,
  PV_TIMELINE_BAR_REUSED = 1 << 4,       /* took over a freed buffer */
} PvTimelineBarFlags;

typedef struct {
  double start, end;          /* live interval in schedule time */
  int value;                  /* value id */
  int lane;                   /* index into its memory view's lanes */
  guint64 bytes;
  guint64 offset;             /* arena view: byte offset; else 0 */
  guint8 kind_colour;         /* palette index for its ORT AllocKind */
  guint8 op_colour;           /* palette index for its producer's op type */
  guint8 flags;               /* PvTimelineBarFlags */
  gint8 alloc_kind;           /* PvOrtAllocKind, PV_ORT_ALLOC_NOT_SET without an ORT plan */
} PvTimelineBar;

typedef enum {
  PV_TIMELINE_LINK_ALIAS,     /* a view of the earlier value */
  PV_TIMELINE_LINK_INPLACE,   /* the kernel wrote over the earlier value */
} PvTimelineLinkKind;

typedef struct {
  int from_bar, to_bar;
  PvTimelineLinkKind kind;
} PvTimelineLink;

typedef enum {
  PV_TIMELINE_MEMORY_SLOTS,
  PV_TIMELINE_MEMORY_ORT_BUFFERS,
  PV_TIMELINE_MEMORY_ARENA,
  PV_TIMELINE_N_MEMORY_VIEWS,
} PvTimelineMemoryView;

typedef struct {
  gboolean available;
  char *title;                /* "slots · 11 slots · peak 576.1 KiB" */
  char *unavailable;          /* why not available */
  PvTimelineLane *lanes;
  int n_lanes;
  PvTimelineBar *bars;        /* grouped by lane, by start within a lane */
  double *bar_max_end;        /* running max of end within each lane */
  int n_bars;
  PvTimelineLink *links;
  int n_links;
  int *value_bar;             /* value id -> bar index (the owner's), -1 */
  guint64 peak_bytes;         /* what the plan reserves */
} PvTimelineMemory;

typedef struct {
  int device;
  double *times;              /* ascending; bytes[i] holds from times[i] on */
  guint64 *bytes;
  int n_points;
  guint64 peak_bytes;
  double peak_time;
} PvTimelineCurve;

/* ORT's CPU arena over the first run, as the session simulated it: one
 * point per kernel, holding from the kernel's start until the next one's. */
typedef struct {
  int n_points;               /* 0: no simulation */
  double *times;              /* ascending */
  guint64 *requested;         /* bytes requested in use when the kernel returns */
  guint64 *in_use;            /* the most in use while it ran (scratch included) */
  guint64 *held;              /* what the arena holds */
  guint64 max_requested, max_in_use, max_held;
  gboolean has_pattern;
  guint64 pattern_held;       /* held in the second run, with the memory pattern */
} PvTimelineArena;

/* An op type and its colour, for the legend; most bytes first. */
typedef struct {
  const char *op_type;        /* NULL for the "other ops" entry */
  guint8 colour;
  int n_nodes;
  guint64 bytes;              /* bytes its outputs hold */
} PvTimelineOpEntry;

typedef struct {
  const PvGraph *graph;       /* borrowed */
  double t_end;               /* the axis is [0, t_end] */
  gboolean has_plan;          /* an ORT plan and schedule were given */
  gboolean sizes_incomplete;  /* the plan is deferred: curves count only the values of known size */
  gboolean deadlock;          /* the schedule could not run every step */

  PvTimelineLane *streams;    /* stream lanes */
  int n_streams;
  PvTimelineKernel *kernels;  /* grouped by lane, by start */
  double *kernel_max_end;
  int n_kernels;
  int *node_kernel;           /* node id -> kernel index, -1 */
  PvTimelineMark *marks;      /* grouped by lane, by time */
  int n_marks;
  PvTimelineArrow *arrows;    /* by t_min */
  double *arrow_max_end;
  int n_arrows;

  PvTimelineLane *curve_lanes;
  PvTimelineCurve *curves;    /* one per device, parallel to curve_lanes */
  int n_curves;
  guint64 load_bytes;
  PvTimelineArena arena;      /* drawn over the single live-bytes curve */

  PvTimelineMemory memory[PV_TIMELINE_N_MEMORY_VIEWS];

  PvTimelineOpEntry *ops;     /* legend: coloured op types, then "other" if any */
  int n_ops;
  guint8 *node_colour;        /* node id -> op palette index */
} PvTimelineModel;

/* Number of op colours; the last one is "other ops". */
#define PV_TIMELINE_N_OP_COLOURS 9
/* Palette indices for alloc kinds start after the op colours. */
#define PV_TIMELINE_KIND_COLOUR_BASE PV_TIMELINE_N_OP_COLOURS
#define PV_TIMELINE_N_KIND_COLOURS 8   /* NotSet, then ORT's AllocKind 0..6 */
#define PV_TIMELINE_N_COLOURS (PV_TIMELINE_KIND_COLOUR_BASE + PV_TIMELINE_N_KIND_COLOURS)

PvTimelineModel *pv_timeline_model_new (const PvTimelineSource *source);
/* Fills @arena from @run and @schedule's kernel spans (pv-timeline-model-arena.c);
 * pv_timeline_arena_clear() frees it. */
void pv_timeline_arena_build (PvTimelineArena *arena, const PvOrtArenaRun *run, const PvSchedule *schedule);
void pv_timeline_arena_clear (PvTimelineArena *arena);

/* Fills @source from a session's records (ORT plan, schedule, slot and
 * arena plans, sizes, LOAD); the session must outlive the call. */
void pv_timeline_source_init_from_session (PvTimelineSource *source, const PvSession *session);
PvTimelineModel *pv_timeline_model_ref (PvTimelineModel *model);
void pv_timeline_model_unref (PvTimelineModel *model);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvTimelineModel, pv_timeline_model_unref)

/* Palette index of an alloc kind's colour. */
guint8 pv_timeline_kind_colour (PvOrtAllocKind kind);

/* Index of the first item of [first, first + n) whose interval may reach
 * @t (max_end[i] >= t), given the running maxima; first + n when none. */
int pv_timeline_first_reaching (const double *max_end, int first, int n, double t);

/* A value name for a small label: the last two path components, without
 * "_output_0" ("/layers.0/attn/k_proj/MatMul_output_0" -> "k_proj/MatMul"). */
char *pv_timeline_short_name (const char *name);
/* The same without a copy: moves *@name to the short name's start and
 * returns its length in bytes. */
int pv_timeline_short_name_span (const char **name);

/* "512 B", "1.5 MiB": newly allocated. */
char *pv_timeline_format_bytes (guint64 bytes);

/* Short text for a mark kind: "barrier", "wait", "notify", "trigger". */
const char *pv_timeline_mark_kind_name (PvTimelineMarkKind kind);

G_END_DECLS
