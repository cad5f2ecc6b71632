#include "pv-bump-alloc.h"

/* Blocks grow from 4 KiB (or what the caller asks for) to 1 MiB: small
 * models stay small. */
#define FIRST_BLOCK_SIZE (4 * 1024)
#define MIN_BLOCK_SIZE 256
#define BLOCK_SIZE (1024 * 1024)
#define ALIGNMENT 8  /* what protobuf-c and our records need: int64, double, pointers */

struct _PvBumpAlloc {
  GPtrArray *blocks;  /* every block, freed together */
  guint8 *next;       /* free space in the current block */
  gsize left;
  gsize block_size;   /* size of the next block */
};

PvBumpAlloc *
pv_bump_alloc_new (void)
{
  return pv_bump_alloc_new_sized (FIRST_BLOCK_SIZE);
}

PvBumpAlloc *
pv_bump_alloc_new_sized (gsize first_block)
{
  PvBumpAlloc *arena = g_new0 (PvBumpAlloc, 1);

  arena->blocks = g_ptr_array_new_with_free_func (g_free);
  arena->block_size = CLAMP (first_block, MIN_BLOCK_SIZE, BLOCK_SIZE);
  return arena;
}

void
pv_bump_alloc_free (PvBumpAlloc *arena)
{
  if (arena == NULL)
    return;
  g_ptr_array_unref (arena->blocks);
  g_free (arena);
}

gpointer
pv_bump_alloc (PvBumpAlloc *arena, gsize size)
{
  gsize rounded = (size + ALIGNMENT - 1) & ~(gsize) (ALIGNMENT - 1);
  gpointer p;

  if (rounded < size)
    g_error ("pv_bump_alloc: %" G_GSIZE_FORMAT " bytes overflow", size);
  if (rounded > BLOCK_SIZE / 4)
    {
      /* Big payloads (weights) get their own block: no waste at block ends. */
      p = g_malloc (rounded ? rounded : 1);
      g_ptr_array_add (arena->blocks, p);
      return p;
    }
  if (rounded > arena->left)
    {
      gsize block = arena->block_size;
      while (block < rounded)
        block *= 2;
      arena->block_size = MIN (block * 2, BLOCK_SIZE);
      arena->next = g_malloc (block);
      g_ptr_array_add (arena->blocks, arena->next);
      arena->left = block;
    }
  p = arena->next;
  arena->next += rounded;
  arena->left -= rounded;
  return p;
}

static void *
protobuf_alloc (void *data, size_t size)
{
  return pv_bump_alloc (data, size);
}

static void
protobuf_free (void *data, void *pointer)
{
  /* Everything goes at once with the arena. */
}

void
pv_bump_alloc_protobuf_allocator (PvBumpAlloc *arena, ProtobufCAllocator *allocator)
{
  allocator->alloc = protobuf_alloc;
  allocator->free = protobuf_free;
  allocator->allocator_data = arena;
}
