/* pv-ort-arena-run.h: what ONNX Runtime 1.30's CPU arena does over the
 * first two runs of a session, predicted from ORT's plan.
 *
 * The first run, node by node in execution order: the kernel allocates the
 * outputs the plan gives a buffer of their own (kAllocate, kAllocateOutput;
 * kReuse and in-place outputs take nothing) and its scratch, in the order
 * the kernel makes them (pv-ort-kernel-scratch.h); the profiler takes its
 * statistics when the kernel returns (scratch freed, the node's releases
 * not yet done); then the node's release actions free buffers whose last
 * consumer it was (ORT's deallocation plan). Before the first node the
 * session has reserved copied initializers and pre-packed weights.
 *
 * With the memory pattern on, the first run also traces its allocations
 * (pv-ort-mem-pattern.h); the second run takes one block of the pattern's
 * size from the arena left by the first, and allocates only graph outputs
 * and scratch besides.
 *
 * Several streams run concurrently in ORT: the simulation then goes in
 * global topological order and says it is approximate. Pure: plan, sizes
 * and settings in, records out. */
#pragma once

#include "pv-ort-bfc-arena.h"
#include "pv-ort-kernel-scratch.h"
#include "pv-ort-plan.h"

G_BEGIN_DECLS

/* The session options the arena depends on, under ORT's names, with ORT's
 * defaults from pv_ort_arena_settings_init(). */
typedef struct {
  PvOrtArenaConfig arena;   /* OrtArenaCfg: arena_extend_strategy, initial_chunk_size_bytes, ... */
  gboolean cpu_arena;       /* enable_cpu_mem_arena (TRUE); FALSE: plain malloc, nothing held beyond use */
  gboolean mem_pattern;     /* enable_mem_pattern (TRUE) */
  int intra_op_threads;     /* intra_op_num_threads; 0: ORT's default (physical cores), which the caller
                             * must resolve before planning */
} PvOrtArenaSettings;

void pv_ort_arena_settings_init (PvOrtArenaSettings *settings);

/* The profiler's statistics after one node. */
typedef struct {
  int node;                 /* node id */
  guint64 requested_in_use; /* mem_bytes_requested_in_use */
  guint64 in_use;           /* mem_bytes_in_use */
  guint64 held;             /* mem_arena_held */
  guint64 in_use_peak;      /* mem_in_use_peak (never reset, across runs) */
  guint64 in_use_max;       /* planviz's: the most in use while the kernel ran, scratch included */
} PvOrtArenaRecord;

typedef struct {
  PvOrtArenaSettings settings;
  guint64 reserved_bytes;      /* in use before the first node */
  int n_records;               /* one per LaunchKernel, in execution order */
  PvOrtArenaRecord *first;     /* the first run */
  PvOrtArenaRecord *second;    /* the second run: with the pattern when there is one */
  guint64 peak_requested;      /* first run: max requested in use after a node */
  guint64 peak_in_use;         /* first run: max in use, scratch included */
  guint64 held;                /* first run: held at its end */
  gboolean has_pattern;        /* the second run uses a memory pattern */
  guint64 pattern_bytes;       /* its block */
  guint64 *pattern_offsets;    /* OrtValue index -> offset in the block; G_MAXUINT64 when not in it */
  int n_pattern_offsets;
  guint64 second_peak_requested, second_peak_in_use, second_held;
  char **unmodelled_ops;       /* op types run whose scratch planviz does not model, sorted */
  gboolean approximate;        /* several streams */
} PvOrtArenaRun;

/* What the simulation reads. */
typedef struct {
  const PvOrtPlan *plan;
  const PvOrtKernelEnv *env;    /* the plan's graph, shapes, bounds and threads */
  const guint64 *value_bytes;   /* value id -> bytes */
  const guint8 *value_known;    /* value id -> whether value_bytes holds its size; NULL: all known */
  const PvOrtArenaSettings *settings;  /* NULL: ORT's defaults, one thread */
} PvOrtArenaInput;

/* Runs the simulation. NULL with *@unknown_value set to a value id when a
 * buffer the runs allocate has no known size (bind its symbols first). */
PvOrtArenaRun *pv_ort_arena_run_new (const PvOrtArenaInput *input, int *unknown_value);
void pv_ort_arena_run_free (PvOrtArenaRun *run);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvOrtArenaRun, pv_ort_arena_run_free)

G_END_DECLS
