/* pv-kernel-adapter.h: a kernel table seen as ORT's planner sees kernels
 * (PvKernelLookup), with per-element-type MayInplace applied. */
#pragma once

#include "pv-kernel-table.h"
#include "pv-ort-plan.h"

G_BEGIN_DECLS

typedef struct _PvKernelAdapter PvKernelAdapter;

/* An adapter remembers what it resolved per node domain, op type and opset
 * by their (interned) string pointers: use one for the graphs of one model,
 * while that model lives. */
PvKernelAdapter *pv_kernel_adapter_new (const PvKernelTable *kernels);
void pv_kernel_adapter_free (PvKernelAdapter *adapter);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvKernelAdapter, pv_kernel_adapter_free)

/* A PvKernelLookup; @user_data is the adapter. Never NULL: a node without a
 * table entry behaves like a CPU kernel that declares nothing. */
const PvKernelBehaviour *pv_kernel_adapter_lookup (gpointer user_data, const PvGraph *graph, const PvNode *node,
                                                   int input_elem_type);

G_END_DECLS
