/* pv-value-aliases.h: which values share memory by kernel semantics, read
 * from the kernel behaviour table (not from any planner's decision). */
#pragma once

#include "pv-graph.h"
#include "pv-kernel-table.h"

G_BEGIN_DECLS

/* value id -> the input value it is a view of (Alias pairs), or -1. Caller frees. */
int *pv_value_view_map (const PvGraph *graph, const PvKernelTable *kernels);

/* The view map and value id -> the input value its producer may overwrite
 * in place (MayInplace pairs, dtype restrictions applied) or -1, in one pass
 * over the nodes; the caller frees both. */
void pv_value_alias_maps (const PvGraph *graph, const PvKernelTable *kernels, int **views, int **inplace);

/* value id -> the value whose memory it is: @view_source followed to its
 * end (itself for a value that views nothing; a cycle, which no valid graph
 * has, ends where it closes). The one place view chains are walked: every
 * reader of "which buffer is this value" takes this map. Caller frees. */
int *pv_value_view_roots (const int *view_source, int n_values);

G_END_DECLS
