/* pv-ort-kernel-scratch.h: what ONNX Runtime 1.30's CPU kernels take from
 * the session's arena besides the plan's buffers.
 *
 * Two kinds of memory, both read from ORT's kernels (x86-64 build, MLAS):
 *   - scratch: temporaries a kernel allocates while it runs and frees before
 *     it returns (Conv's im2col working buffer, LRN's scale buffers, LSTM's
 *     gate buffers, ...), in the order it allocates them relative to its
 *     outputs;
 *   - pre-packed weights: buffers kernels make from constant initializers
 *     when the session is created (MLAS's packed GEMM B matrices for Gemm,
 *     MatMul, LSTM, GRU; ConvTranspose's transposed filter), reserved in the
 *     arena for the session's lifetime.
 * Ops planviz has no model for say so (pv_ort_kernel_scratch() returns
 * FALSE); the simulation then assumes they allocate nothing but outputs.
 *
 * Pure: node, shapes and bounds in, sizes out. */
#pragma once

#include <glib.h>

#include "pv-graph.h"
#include "pv-shape-inference.h"

G_BEGIN_DECLS

/* What a kernel's sizes depend on besides its node. */
typedef struct {
  const PvGraph *graph;
  const PvShapeInfo *shapes;
  GHashTable *bounds;        /* symbol -> gint64*, may be NULL */
  int threads;               /* MLAS's maximum thread count: intra_op_num_threads (>= 1) */
} PvOrtKernelEnv;

typedef enum {
  PV_ORT_SCRATCH_OUTPUTS,    /* every output not yet allocated, in output order */
  PV_ORT_SCRATCH_OUTPUT,     /* output @arg */
  PV_ORT_SCRATCH_ALLOC,      /* a temporary of @bytes (temporaries are numbered from 0 in order) */
  PV_ORT_SCRATCH_FREE,       /* temporary @arg */
} PvOrtScratchStepKind;

typedef struct {
  PvOrtScratchStepKind kind;
  int arg;
  guint64 bytes;
} PvOrtScratchStep;

#define PV_ORT_SCRATCH_MAX_STEPS 40

/* A kernel's allocations in the order it makes them. Outputs not named by a
 * step are allocated before the first step; temporaries not freed by a step
 * are freed when the kernel returns. */
typedef struct {
  PvOrtScratchStep steps[PV_ORT_SCRATCH_MAX_STEPS];
  int n_steps;
} PvOrtScratch;

/* What @node's kernel allocates while it runs. TRUE when planviz models the
 * op (@out may then be empty: the kernel takes nothing but outputs); FALSE
 * when it does not (@out is empty), or when a size the model needs is
 * unknown under @env's bounds. */
gboolean pv_ort_kernel_scratch (const PvOrtKernelEnv *env, const PvNode *node, PvOrtScratch *out);

/* The bytes @node's kernel pre-packs from constant inputs at session
 * creation (0 when none). */
guint64 pv_ort_kernel_prepack_bytes (const PvOrtKernelEnv *env, const PvNode *node);

/* What the session reserves in the arena before the first run of @graph and
 * its subgraphs: initializers a node uses whose data ORT copies (those of at
 * most 127 bytes; larger ones stay where the model holds them) and the
 * pre-packed weights of every node. */
guint64 pv_ort_session_reserved_bytes (const PvOrtKernelEnv *env, const PvGraph *graph);

G_END_DECLS
