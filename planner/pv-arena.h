/* pv-arena.h: a bump allocator for short-lived trees of small objects.
 *
 * Unpacking a 100k-node model makes about a million small allocations;
 * freeing them one by one cost a quarter of the load time. An arena hands
 * out memory from large blocks and frees everything at once. */
#pragma once

#include <glib.h>
#include <protobuf-c/protobuf-c.h>

G_BEGIN_DECLS

typedef struct _PvArena PvArena;

PvArena *pv_arena_new (void);
/* Frees every allocation made from @arena. */
void pv_arena_free (PvArena *arena);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvArena, pv_arena_free)

/* @size bytes aligned to 8, valid until pv_arena_free(); never NULL (aborts
 * on exhaustion like g_malloc). Large requests get a block of their own. */
gpointer pv_arena_alloc (PvArena *arena, gsize size);

/* Bytes obtained from the system so far. */
gsize pv_arena_size (const PvArena *arena);

/* Fills @allocator so that protobuf-c allocates from @arena. Its free is a
 * no-op: release the message tree with pv_arena_free(), never with
 * protobuf_c_message_free_unpacked(). */
void pv_arena_protobuf_allocator (PvArena *arena, ProtobufCAllocator *allocator);

G_END_DECLS
