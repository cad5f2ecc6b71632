/* pv-ort-bfc-arena.h: ONNX Runtime 1.30's CPU arena (BFCArena), simulated.
 *
 * planviz's own model of what bfc_arena.cc does with a sequence of
 * allocations and frees, so that its statistics can be predicted:
 *   - requests are rounded up to 256 bytes; a request takes the smallest free
 *     chunk that fits (lowest address among equal sizes);
 *   - the chunk is split when it is at least twice the rounded request, or
 *     when what would be left over is at least max_dead_bytes_per_chunk;
 *     otherwise the whole chunk is in use (its slack counts as in use);
 *   - a freed chunk merges with free neighbours of its region;
 *   - when nothing fits, the arena extends by a new region: with
 *     kNextPowerOfTwo the region size starts at initial_chunk_size_bytes and
 *     doubles (until it covers the request, and once more after a region
 *     that needed no doubling), capped at max_power_of_two_extend_bytes; with
 *     kSameAsRequested the region is the rounded request;
 *   - Reserve() (initializers, pre-packed weights) bypasses the chunks but
 *     counts in every statistic.
 * Region addresses are not ORT's (malloc's): regions made later get lower
 * addresses, as Linux's top-down mmap gives them; this only matters when
 * two free chunks of equal size in different regions both fit.
 *
 * Pure: no I/O, no globals. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* ORT's ArenaExtendStrategy (session option / OrtArenaCfg values). */
typedef enum {
  PV_ORT_ARENA_NEXT_POWER_OF_TWO = 0,
  PV_ORT_ARENA_SAME_AS_REQUESTED = 1,
} PvOrtArenaExtend;

/* The arena's configuration under ORT's names (OrtArenaCfg). */
typedef struct {
  PvOrtArenaExtend extend_strategy;        /* arena_extend_strategy; default kNextPowerOfTwo */
  guint64 initial_chunk_size_bytes;        /* default 1 MiB */
  guint64 max_dead_bytes_per_chunk;        /* default 128 MiB */
  guint64 initial_growth_chunk_size_bytes; /* default 2 MiB (used after a Shrink, which runs never do) */
  guint64 max_power_of_two_extend_bytes;   /* default 1 GiB */
  guint64 max_mem;                         /* default: no limit (G_MAXUINT64) */
} PvOrtArenaConfig;

#define PV_ORT_ARENA_MIN_ALLOCATION 256

/* ORT's defaults for the CPU arena. */
void pv_ort_arena_config_init (PvOrtArenaConfig *config);

/* AllocatorStats, as the profiler reports them. */
typedef struct {
  guint64 requested_in_use;  /* bytes_requested_in_use: what callers asked for */
  guint64 in_use;            /* bytes_in_use: chunks in use (rounding, unsplit slack) and reserves */
  guint64 held;              /* total_allocated_bytes: regions and reserves */
  guint64 peak_in_use;       /* max_bytes_in_use, never reset */
  int n_regions;             /* num_arena_extensions */
  guint64 n_allocs;          /* num_allocs */
} PvOrtArenaStats;

typedef struct _PvOrtBfcArena PvOrtBfcArena;

PvOrtBfcArena *pv_ort_bfc_arena_new (const PvOrtArenaConfig *config);
void pv_ort_bfc_arena_free (PvOrtBfcArena *arena);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvOrtBfcArena, pv_ort_bfc_arena_free)

/* Alloc(@bytes): returns the chunk's handle (>= 0), -1 for 0 bytes (ORT
 * returns nullptr and allocates nothing), or -2 when the arena cannot grow
 * (max_mem reached: ORT throws). */
int pv_ort_bfc_arena_alloc (PvOrtBfcArena *arena, guint64 bytes);
/* Free() of a handle pv_ort_bfc_arena_alloc() returned; negative handles
 * are ignored. */
void pv_ort_bfc_arena_release (PvOrtBfcArena *arena, int handle);
/* Reserve(@bytes). */
void pv_ort_bfc_arena_reserve (PvOrtBfcArena *arena, guint64 bytes);

/* The chunk's size (the rounded request, or more when not split). */
guint64 pv_ort_bfc_arena_chunk_size (const PvOrtBfcArena *arena, int handle);
/* The chunk's simulated address: distinct chunks that are both in use never
 * overlap, which the tests check. */
guint64 pv_ort_bfc_arena_chunk_address (const PvOrtBfcArena *arena, int handle);

void pv_ort_bfc_arena_get_stats (const PvOrtBfcArena *arena, PvOrtArenaStats *stats);

G_END_DECLS
