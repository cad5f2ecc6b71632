/* pv-arena-wide-private.h: the arena packer's index of placed buffers for
 * packings where many buffers are live at once (pv-arena-planner.c).
 *
 * The packer's time blocks list each placed buffer apiece, so a gap search
 * visits every placed buffer live with the new one: quadratic when
 * thousands are live at once (a 100,000-way fan-out, a Split with 100,000
 * outputs). The gap search only reads the union of those buffers' bytes
 * (the gaps between them, and their top), so this index keeps unions
 * instead: two segment trees over the steps whose nodes hold the union of
 * the byte spans of
 *   - the buffers whose first step is under the node (a range of first
 *     steps is O(log steps) nodes), and
 *   - the buffers live across the node's whole range, each in the O(log
 *     steps) nodes that cover its steps (the ones live at one step are those
 *     on the path from its leaf to the root).
 * The buffers live during [first, last] are those live at first plus those
 * whose first step is in (first, last]: a few dozen unions, whatever the
 * number of buffers, each short as adjacent spans merge.
 *
 * Private to the arena planner; pure. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A placed buffer as the gap search reads it: its bytes and its steps. In
 * a union, steps that take in every step. */
typedef struct {
  guint64 start, end;  /* bytes [start, end) */
  int first, last;
} PvArenaPlaced;

/* A sorted list of spans: by ascending start, none overlapping or touching
 * another (a span of 0 bytes stays where no other span holds its offset: the
 * gap search reads it as the end of a gap). */
typedef struct {
  PvArenaPlaced *items;
  int len, cap;
} PvArenaUnion;

typedef struct {
  int min_step;
  int n_leaves;             /* a power of two, at least the steps */
  int depth;                /* log2 (n_leaves) */
  PvArenaUnion *starting;   /* 2 * n_leaves nodes, 1 the root, n_leaves + s step s's leaf */
  PvArenaUnion *covering;   /* likewise */
} PvArenaWide;

/* The most unions pv_arena_wide_live_during() gives: 3 per level of 31
 * (steps are ints). */
#define PV_ARENA_WIDE_MAX_UNIONS 96

/* An index of no buffers over steps [@min_step, @max_step]. */
void pv_arena_wide_init (PvArenaWide *w, int min_step, int max_step);
void pv_arena_wide_clear (PvArenaWide *w);
/* Forgets every buffer added (keeps the memory). */
void pv_arena_wide_reset (PvArenaWide *w);
/* Adds bytes [@start, @end) live during steps [@first, @last]. */
void pv_arena_wide_add (PvArenaWide *w, int first, int last, guint64 start, guint64 end);
/* Sets @unions to the non-empty unions whose spans together are the bytes
 * of the buffers added that are live at some step in [@first, @last], and
 * returns how many. */
int pv_arena_wide_live_during (const PvArenaWide *w, int first, int last, const PvArenaUnion **unions);

G_END_DECLS
