#include "pv-arena.h"

/* Blocks grow from 4 KiB to 1 MiB: small models stay small. */
#define FIRST_BLOCK_SIZE (4 * 1024)
#define BLOCK_SIZE (1024 * 1024)
#define ALIGNMENT 8  /* what protobuf-c and our records need: int64, double, pointers */

struct _PvArena {
  GPtrArray *blocks;  /* every block, freed together */
  guint8 *next;       /* free space in the current block */
  gsize left;
  gsize size;
  gsize block_size;   /* size of the next block */
};

PvArena *
pv_arena_new (void)
{
  PvArena *arena = g_new0 (PvArena, 1);

  arena->blocks = g_ptr_array_new_with_free_func (g_free);
  return arena;
}

void
pv_arena_free (PvArena *arena)
{
  if (arena == NULL)
    return;
  g_ptr_array_unref (arena->blocks);
  g_free (arena);
}

gpointer
pv_arena_alloc (PvArena *arena, gsize size)
{
  gsize rounded = (size + ALIGNMENT - 1) & ~(gsize) (ALIGNMENT - 1);
  gpointer p;

  if (rounded < size)
    g_error ("pv_arena_alloc: %" G_GSIZE_FORMAT " bytes overflow", size);
  if (rounded > BLOCK_SIZE / 4)
    {
      /* Big payloads (weights) get their own block: no waste at block ends. */
      p = g_malloc (rounded ? rounded : 1);
      g_ptr_array_add (arena->blocks, p);
      arena->size += rounded;
      return p;
    }
  if (rounded > arena->left)
    {
      gsize block = MAX (arena->block_size, FIRST_BLOCK_SIZE);
      while (block < rounded)
        block *= 2;
      arena->block_size = MIN (block * 2, BLOCK_SIZE);
      arena->next = g_malloc (block);
      g_ptr_array_add (arena->blocks, arena->next);
      arena->left = block;
      arena->size += block;
    }
  p = arena->next;
  arena->next += rounded;
  arena->left -= rounded;
  return p;
}

gsize
pv_arena_size (const PvArena *arena)
{
  return arena->size;
}

static void *
protobuf_alloc (void *data, size_t size)
{
  return pv_arena_alloc (data, size);
}

static void
protobuf_free (void *data, void *pointer)
{
  /* Everything goes at once with the arena. */
}

void
pv_arena_protobuf_allocator (PvArena *arena, ProtobufCAllocator *allocator)
{
  allocator->alloc = protobuf_alloc;
  allocator->free = protobuf_free;
  allocator->allocator_data = arena;
}
