/* pv-arena-search.h: the arena planner past its heuristics.
 *
 * Given buffers with lifetimes and a packing (offsets and peak) from the
 * greedy orderings, looks for a lower peak and proves how far from the
 * optimum the result can be:
 *   - buffers split into groups that are never live at once with another
 *     group's (connected components in time); the peak is the highest
 *     group's, so only groups above the bound are searched;
 *   - a group of at most PV_ARENA_EXACT_MAX buffers is solved exactly: a
 *     branch and bound over the order of offsets (each buffer at the lowest
 *     offset that fits, at or above the previous one's, which loses no
 *     optimum), bounded per step by what is left to place above the current
 *     offset, and by LOAD;
 *   - a larger group (up to PV_ARENA_SEARCH_MAX buffers) gets a local search over placement orders (first fit
 *     at the lowest offset), moving the buffers that make the peak earlier;
 *   - the bound reported is LOAD (the heaviest step, a clique bound), raised
 *     to the exact optimum of every group solved exactly.
 * Deterministic: a fixed-seed generator and a work budget counted in
 * placements, not time.
 *
 * Pure. */
#pragma once

#include "pv-buffer-life.h"

G_BEGIN_DECLS

#define PV_ARENA_EXACT_MAX 14
/* Groups larger than this are not searched (each try costs a placement per
 * buffer against every buffer live with it). */
#define PV_ARENA_SEARCH_MAX 4000

typedef struct {
  guint64 peak_bytes;        /* after the search (never above the packing given) */
  guint64 lower_bound_bytes; /* no packing of these buffers is lower */
  gboolean optimal;          /* peak_bytes == lower_bound_bytes */
  gboolean improved;         /* the search lowered the peak */
} PvArenaSearchResult;

/* Improves @offsets (n entries, a valid packing of @buffers with sizes
 * rounded up to @alignment, peak @peak_bytes) in place, spending at most
 * @budget placements (0: only the bounds). */
void pv_arena_search (const PvBufferLife *buffers, int n, guint64 alignment, guint64 *offsets, guint64 peak_bytes,
                      guint64 budget, PvArenaSearchResult *result);

/* The smallest peak of any packing, by exhaustive branch and bound with no
 * budget; for tests and groups of at most PV_ARENA_EXACT_MAX buffers
 * (returns G_MAXUINT64 for more). @offsets, when not NULL, gets an optimal
 * packing. */
guint64 pv_arena_exact_peak (const PvBufferLife *buffers, int n, guint64 alignment, guint64 *offsets);

G_END_DECLS
