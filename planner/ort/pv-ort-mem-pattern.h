/* pv-ort-mem-pattern.h: ONNX Runtime's memory pattern (MemPatternPlanner,
 * mem_pattern_planner.h), planviz's own re-implementation.
 *
 * With enable_mem_pattern on (ORT's default for sequential execution), the
 * first run of a session traces every tensor the execution frame allocates
 * for the plan (not graph outputs, not strings, not kernel scratch), in the
 * order it allocates them, each size rounded up to 256 bytes
 * (kAllocAlignment), and every release. Each traced allocation gets an
 * offset by best fit in offset order: the gap between live blocks (and the
 * tail up to the current block size) that wastes least, else the end. Later
 * runs with the same input shapes take one buffer of the block size from the
 * arena and put each traced tensor at its offset.
 *
 * Pure: trace in, offsets and block size out. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PvOrtMemPattern PvOrtMemPattern;

PvOrtMemPattern *pv_ort_mem_pattern_new (void);
void pv_ort_mem_pattern_free (PvOrtMemPattern *pattern);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvOrtMemPattern, pv_ort_mem_pattern_free)

/* TraceAllocation(@value_index, @bytes): @bytes as ORT traces them (already
 * rounded to 256 by the caller). Returns the offset given. */
guint64 pv_ort_mem_pattern_trace_alloc (PvOrtMemPattern *pattern, int value_index, guint64 bytes);
/* TraceFree(@value_index): the first live block traced for it is released. */
void pv_ort_mem_pattern_trace_free (PvOrtMemPattern *pattern, int value_index);

/* The block size (PeakSize()). */
guint64 pv_ort_mem_pattern_block_bytes (const PvOrtMemPattern *pattern);
/* The offset and size of @value_index's last traced block (GetBlock()):
 * FALSE when it was never traced. */
gboolean pv_ort_mem_pattern_lookup (const PvOrtMemPattern *pattern, int value_index, guint64 *offset,
                                    guint64 *bytes);

G_END_DECLS
