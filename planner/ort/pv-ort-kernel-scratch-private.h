/* pv-ort-kernel-scratch-private.h: helpers shared by the kernel models
 * (pv-ort-kernel-scratch.c, -rnn.c, -prepack.c). */
#pragma once

#include "pv-ort-kernel-scratch.h"

G_BEGIN_DECLS

#define PV_ORT_KERNEL_MAX_RANK 8

/* The dims of value @value under @env's bounds: its rank, or -1 when the
 * rank or a dim is unknown (or the rank exceeds PV_ORT_KERNEL_MAX_RANK). */
int pv_ort_kernel_value_dims (const PvOrtKernelEnv *env, int value, gint64 *dims);
/* The same for input @k of @node; -1 also when the input is missing. */
int pv_ort_kernel_input_dims (const PvOrtKernelEnv *env, const PvNode *node, int k, gint64 *dims);
/* The element type (PvElementType) of input @k, 0 when unknown or missing. */
int pv_ort_kernel_input_type (const PvOrtKernelEnv *env, const PvNode *node, int k);
/* Whether input @k exists (not omitted). */
gboolean pv_ort_kernel_has_input (const PvNode *node, int k);
/* Whether output @k exists (not omitted). */
gboolean pv_ort_kernel_has_output (const PvNode *node, int k);
/* The product of @dims[0..n). */
gint64 pv_ort_kernel_product (const gint64 *dims, int n);

/* Appending steps; FALSE when the program is full. */
gboolean pv_ort_scratch_outputs (PvOrtScratch *s);
gboolean pv_ort_scratch_output (PvOrtScratch *s, int k);
/* Returns the temporary's number, -1 when full. Zero bytes still count as a
 * temporary (ORT's Alloc(0) allocates nothing). */
int pv_ort_scratch_alloc (PvOrtScratch *s, guint64 bytes);
gboolean pv_ort_scratch_free (PvOrtScratch *s, int temporary);

/* The recurrent kernels (pv-ort-kernel-scratch-rnn.c). */
gboolean pv_ort_scratch_lstm (const PvOrtKernelEnv *env, const PvNode *node, PvOrtScratch *out);
gboolean pv_ort_scratch_gru (const PvOrtKernelEnv *env, const PvNode *node, PvOrtScratch *out);

/* Whether the op table is sorted (for the unit test). */
gboolean pv_ort_kernel_scratch_table_sorted (void);

/* MlasGemmPackBSize(N, K) for fp32 on x86-64: N rounded up to 16 columns,
 * times K floats, rounded up to 64 bytes. */
guint64 pv_ort_mlas_pack_b_bytes (guint64 n, guint64 k);

G_END_DECLS
