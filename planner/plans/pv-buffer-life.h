/* pv-buffer-life.h: buffers with known lifetimes, what the arena planner
 * (pv-arena-planner.h) and its search (pv-arena-search.h) place, and LOAD,
 * the lower bound every placement of them meets.
 *
 * Pure. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A buffer: (size, first step, last step), inclusive. Two buffers whose
 * step ranges intersect must not overlap in an arena. */
typedef struct {
  guint64 size;
  int first;     /* first step it is live (may be -1: before the first step) */
  int last;      /* last step it is live, >= first */
} PvBufferLife;

/* @size rounded up to @alignment (a power of two). */
static inline guint64
pv_buffer_aligned_size (guint64 size, guint64 alignment)
{
  return (size + alignment - 1) & ~(alignment - 1);
}

/* Max over steps of the summed sizes live at that step (sizes rounded up to
 * @alignment; pass 1 for raw bytes). */
guint64 pv_buffers_load (const PvBufferLife *buffers, int n, guint64 alignment);

G_END_DECLS
