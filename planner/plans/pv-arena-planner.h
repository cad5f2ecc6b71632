/* pv-arena-planner.h: byte offsets in one arena for buffers with known
 * lifetimes, and the lower bound any such plan must meet.
 *
 * Buffers are (size, first step, last step) triples, inclusive. Two buffers
 * whose step ranges intersect must not overlap in the arena. The planner is
 * TFLite's greedy-by-size (each buffer, largest first, goes into the
 * smallest gap among the buffers already placed that are live at the same
 * time), run under several orderings, keeping the best. LOAD, the largest
 * total size live at one step, is a lower bound for every plan. */
#pragma once

#include "pv-buffer-life.h"

G_BEGIN_DECLS

typedef struct {
  guint64 *offsets;      /* per buffer, multiple of the alignment */
  guint64 peak_bytes;    /* arena size: max offset + aligned size */
  guint64 load_bytes;    /* LOAD (aligned sizes) */
  guint64 bound_bytes;   /* the best lower bound proven: LOAD, or more where the search proved it */
  gboolean optimal;      /* peak_bytes == bound_bytes */
  const char *ordering;  /* name of the ordering that won ("search" when pv-arena-search lowered it) */
} PvArenaPlan;

/* Placements the search past the heuristics may spend by default
 * (pv-arena-search.h): a few tenths of a second at most. */
#define PV_ARENA_SEARCH_BUDGET 400000

/* @alignment: power of two (64 by default in planviz). When the
 * orderings stay above LOAD, pv-arena-search looks further within
 * PV_ARENA_SEARCH_BUDGET placements. */
PvArenaPlan *pv_arena_plan_new (const PvBufferLife *buffers, int n, guint64 alignment);
/* The same plan made by several threads: pv_arena_packing_new() sets the
 * orderings up; each thread that calls pv_arena_packing_work() packs the
 * ones no other has taken, until none is left; once every call has
 * returned (at least one), pv_arena_packing_finish() frees @packing and
 * returns the plan pv_arena_plan_new() makes, whoever packed what.
 * @buffers must outlive @packing. */
typedef struct _PvArenaPacking PvArenaPacking;
PvArenaPacking *pv_arena_packing_new (const PvBufferLife *buffers, int n, guint64 alignment);
/* The same with a search budget of its own (0: the heuristics only). */
PvArenaPacking *pv_arena_packing_new_with_budget (const PvBufferLife *buffers, int n, guint64 alignment,
                                                  guint64 search_budget);
void pv_arena_packing_work (PvArenaPacking *packing);
PvArenaPlan *pv_arena_packing_finish (PvArenaPacking *packing);
/* No worker takes another ordering (those packing one finish it); once every
 * call has returned, pv_arena_packing_finish() gives the best plan of the
 * orderings packed, or NULL (freeing @packing) when none was. */
void pv_arena_packing_abandon (PvArenaPacking *packing);
void pv_arena_plan_free (PvArenaPlan *plan);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvArenaPlan, pv_arena_plan_free)

G_END_DECLS
