/* pv-arena-planner-private.h: the arena packing with its gap search's index
 * chosen, for tests (the plan is the same whichever it reads). */
#pragma once

#include "pv-arena-planner.h"

G_BEGIN_DECLS

typedef enum {
  PV_ARENA_INDEX_AUTO,    /* the wide index when the blocks would visit many buffers a placement */
  PV_ARENA_INDEX_BLOCKS,  /* the time blocks' lists of placed buffers */
  PV_ARENA_INDEX_WIDE,    /* unions of placed spans (pv-arena-wide-private.h) */
} PvArenaIndex;

PvArenaPacking *pv_arena_packing_new_with_index (const PvBufferLife *buffers, int n, guint64 alignment,
                                                 guint64 search_budget, PvArenaIndex index);

G_END_DECLS
