/* pv-bump-alloc.h: a bump allocator for short-lived trees of small objects.
 *
 * Unpacking a 100k-node model makes about a million small allocations;
 * freeing them one by one cost a quarter of the load time. A bump allocator hands
 * out memory from large blocks and frees everything at once. */
#pragma once

#include <glib.h>
#include <protobuf-c/protobuf-c.h>

G_BEGIN_DECLS

typedef struct _PvBumpAlloc PvBumpAlloc;

PvBumpAlloc *pv_bump_alloc_new (void);
/* The same, with a first block of about @first_block bytes (clamped to
 * 256 B - 1 MiB) for a caller that knows it needs little. */
PvBumpAlloc *pv_bump_alloc_new_sized (gsize first_block);
/* Frees every allocation made from @arena. */
void pv_bump_alloc_free (PvBumpAlloc *arena);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvBumpAlloc, pv_bump_alloc_free)

/* @size bytes aligned to 8, valid until pv_bump_alloc_free(); never NULL (aborts
 * on exhaustion like g_malloc). Large requests get a block of their own. */
gpointer pv_bump_alloc (PvBumpAlloc *arena, gsize size);

/* Fills @allocator so that protobuf-c allocates from @arena. Its free is a
 * no-op: release the message tree with pv_bump_alloc_free(), never with
 * protobuf_c_message_free_unpacked(). */
void pv_bump_alloc_protobuf_allocator (PvBumpAlloc *arena, ProtobufCAllocator *allocator);

G_END_DECLS
