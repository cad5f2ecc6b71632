/* pv-ort-bfc-arena.c: ORT's BFC arena, simulated (see the header for the
 * rules). Free chunks sit in one tree ordered by (size, address): the first
 * one not smaller than a request is ORT's best fit, since ORT's bins only
 * group chunks by size range and each bin is ordered by (size, address). */
#include "pv-ort-bfc-arena.h"

typedef struct {
  guint64 addr, size, requested;
  int prev, next;      /* neighbours within the region, -1 at its ends */
  gboolean in_use;
} Chunk;

struct _PvOrtBfcArena {
  PvOrtArenaConfig config;
  GArray *chunks;      /* of Chunk; slot 0 is the search probe */
  GArray *spare;       /* handles of deleted chunks, for reuse */
  GTree *free_chunks;  /* handle + 1 -> NULL, ordered by (size, address) */
  guint64 curr_region_bytes;
  guint64 next_base;   /* regions are placed downwards from here */
  PvOrtArenaStats stats;
};

#define CHUNK(a, h) (&g_array_index ((a)->chunks, Chunk, (h)))
#define KEY(h) GINT_TO_POINTER ((h) + 1)
#define HANDLE(k) (GPOINTER_TO_INT (k) - 1)

void
pv_ort_arena_config_init (PvOrtArenaConfig *config)
{
  config->extend_strategy = PV_ORT_ARENA_NEXT_POWER_OF_TWO;
  config->initial_chunk_size_bytes = 1 << 20;
  config->max_dead_bytes_per_chunk = 128 << 20;
  config->initial_growth_chunk_size_bytes = 2 << 20;
  config->max_power_of_two_extend_bytes = G_GUINT64_CONSTANT (1) << 30;
  config->max_mem = G_MAXUINT64;
}

static guint64
rounded (guint64 bytes)
{
  return (bytes + PV_ORT_ARENA_MIN_ALLOCATION - 1) / PV_ORT_ARENA_MIN_ALLOCATION * PV_ORT_ARENA_MIN_ALLOCATION;
}

static gint
compare_chunks (gconstpointer a, gconstpointer b, gpointer data)
{
  PvOrtBfcArena *arena = data;
  const Chunk *x = CHUNK (arena, HANDLE (a));
  const Chunk *y = CHUNK (arena, HANDLE (b));

  if (x->size != y->size)
    return x->size < y->size ? -1 : 1;
  if (x->addr != y->addr)
    return x->addr < y->addr ? -1 : 1;
  return 0;
}

PvOrtBfcArena *
pv_ort_bfc_arena_new (const PvOrtArenaConfig *config)
{
  PvOrtBfcArena *arena = g_new0 (PvOrtBfcArena, 1);
  Chunk probe = { 0, 0, 0, -1, -1, FALSE };

  if (config)
    arena->config = *config;
  else
    pv_ort_arena_config_init (&arena->config);
  arena->chunks = g_array_new (FALSE, FALSE, sizeof (Chunk));
  g_array_append_val (arena->chunks, probe);
  arena->spare = g_array_new (FALSE, FALSE, sizeof (int));
  arena->free_chunks = g_tree_new_full (compare_chunks, arena, NULL, NULL);
  arena->curr_region_bytes = rounded (MIN (arena->config.max_mem, arena->config.initial_chunk_size_bytes));
  arena->next_base = G_GUINT64_CONSTANT (1) << 62;
  return arena;
}

void
pv_ort_bfc_arena_free (PvOrtBfcArena *arena)
{
  if (arena == NULL)
    return;
  g_tree_destroy (arena->free_chunks);
  g_array_free (arena->chunks, TRUE);
  g_array_free (arena->spare, TRUE);
  g_free (arena);
}

static int
new_chunk (PvOrtBfcArena *arena, guint64 addr, guint64 size, int prev, int next)
{
  Chunk c = { addr, size, 0, prev, next, FALSE };
  int h;

  if (arena->spare->len > 0)
    {
      h = g_array_index (arena->spare, int, arena->spare->len - 1);
      g_array_set_size (arena->spare, arena->spare->len - 1);
      *CHUNK (arena, h) = c;
    }
  else
    {
      h = (int) arena->chunks->len;
      g_array_append_val (arena->chunks, c);
    }
  return h;
}

static void
delete_chunk (PvOrtBfcArena *arena, int h)
{
  g_array_append_val (arena->spare, h);
}

/* The region size Extend() asks the device for (get_extend_bytes), 0 when
 * max_mem leaves too little. */
static guint64
extend_bytes (PvOrtBfcArena *arena, guint64 rounded_bytes)
{
  const PvOrtArenaConfig *cfg = &arena->config;
  guint64 available = (cfg->max_mem - arena->stats.held) / PV_ORT_ARENA_MIN_ALLOCATION * PV_ORT_ARENA_MIN_ALLOCATION;
  gboolean increased = FALSE;
  guint64 bytes;

  if (cfg->max_mem < arena->stats.held || rounded_bytes > available)
    return 0;
  if (cfg->extend_strategy == PV_ORT_ARENA_SAME_AS_REQUESTED)
    return rounded_bytes;
  while (rounded_bytes > arena->curr_region_bytes && arena->curr_region_bytes <= G_MAXUINT64 / 2)
    {
      arena->curr_region_bytes *= 2;
      increased = TRUE;
    }
  bytes = MIN (arena->curr_region_bytes, available);
  if (!increased)
    {
      /* The next region doubles, up to the cap. */
      if (arena->curr_region_bytes < cfg->max_power_of_two_extend_bytes / 2)
        arena->curr_region_bytes *= 2;
      else
        arena->curr_region_bytes = cfg->max_power_of_two_extend_bytes;
    }
  return bytes;
}

static gboolean
extend (PvOrtBfcArena *arena, guint64 rounded_bytes)
{
  guint64 bytes = extend_bytes (arena, rounded_bytes);
  int h;

  if (bytes < rounded_bytes)
    return FALSE;
  /* A page apart from the region below, so regions never touch. */
  arena->next_base -= rounded (bytes) + 4096;
  h = new_chunk (arena, arena->next_base, bytes, -1, -1);
  g_tree_insert (arena->free_chunks, KEY (h), NULL);
  arena->stats.held += bytes;
  arena->stats.n_regions++;
  return TRUE;
}

/* The best-fitting free chunk for @rounded_bytes, or -1. */
static int
find_chunk (PvOrtBfcArena *arena, guint64 rounded_bytes)
{
  GTreeNode *node;

  CHUNK (arena, 0)->size = rounded_bytes;
  CHUNK (arena, 0)->addr = 0;
  node = g_tree_lower_bound (arena->free_chunks, KEY (0));
  return node ? HANDLE (g_tree_node_key (node)) : -1;
}

/* Cuts @h down to @size; the rest becomes a free chunk after it. */
static void
split_chunk (PvOrtBfcArena *arena, int h, guint64 size)
{
  Chunk *c = CHUNK (arena, h);
  int rest = new_chunk (arena, c->addr + size, c->size - size, h, c->next);

  c = CHUNK (arena, h);  /* the array may have moved */
  if (c->next >= 0)
    CHUNK (arena, c->next)->prev = rest;
  c->next = rest;
  c->size = size;
  g_tree_insert (arena->free_chunks, KEY (rest), NULL);
}

int
pv_ort_bfc_arena_alloc (PvOrtBfcArena *arena, guint64 bytes)
{
  guint64 rb;
  Chunk *c;
  int h;

  g_return_val_if_fail (arena != NULL, -2);
  if (bytes == 0)
    return -1;
  /* Rounding up must not wrap: no device holds that much anyway. */
  if (bytes > G_MAXUINT64 - PV_ORT_ARENA_MIN_ALLOCATION)
    return -2;
  rb = rounded (bytes);
  h = find_chunk (arena, rb);
  if (h < 0)
    {
      if (!extend (arena, rb))
        return -2;
      h = find_chunk (arena, rb);
      g_assert (h >= 0);
    }
  g_tree_remove (arena->free_chunks, KEY (h));
  c = CHUNK (arena, h);
  if (c->size / 2 >= rb || c->size - rb >= arena->config.max_dead_bytes_per_chunk)
    split_chunk (arena, h, rb);
  c = CHUNK (arena, h);
  c->in_use = TRUE;
  c->requested = bytes;
  arena->stats.n_allocs++;
  arena->stats.in_use += c->size;
  arena->stats.requested_in_use += bytes;
  arena->stats.peak_in_use = MAX (arena->stats.peak_in_use, arena->stats.in_use);
  return h;
}

/* Merges free chunk @b into its free left neighbour @a; @b is deleted. */
static void
merge (PvOrtBfcArena *arena, int a, int b)
{
  Chunk *ca = CHUNK (arena, a), *cb = CHUNK (arena, b);

  ca->size += cb->size;
  ca->next = cb->next;
  if (cb->next >= 0)
    CHUNK (arena, cb->next)->prev = a;
  delete_chunk (arena, b);
}

void
pv_ort_bfc_arena_release (PvOrtBfcArena *arena, int h)
{
  Chunk *c;

  g_return_if_fail (arena != NULL);
  if (h <= 0)
    return;
  g_return_if_fail ((guint) h < arena->chunks->len && CHUNK (arena, h)->in_use);
  c = CHUNK (arena, h);
  c->in_use = FALSE;
  arena->stats.in_use -= c->size;
  arena->stats.requested_in_use -= c->requested;
  c->requested = 0;
  /* Coalesce: the next chunk into this one, then this one into the previous. */
  if (c->next >= 0 && !CHUNK (arena, c->next)->in_use)
    {
      g_tree_remove (arena->free_chunks, KEY (c->next));
      merge (arena, h, c->next);
    }
  c = CHUNK (arena, h);
  if (c->prev >= 0 && !CHUNK (arena, c->prev)->in_use)
    {
      int p = c->prev;
      g_tree_remove (arena->free_chunks, KEY (p));
      merge (arena, p, h);
      h = p;
    }
  g_tree_insert (arena->free_chunks, KEY (h), NULL);
}

void
pv_ort_bfc_arena_reserve (PvOrtBfcArena *arena, guint64 bytes)
{
  g_return_if_fail (arena != NULL);
  if (bytes == 0)
    return;
  arena->stats.in_use += bytes;
  arena->stats.requested_in_use += bytes;
  arena->stats.held += bytes;
  arena->stats.n_allocs++;
  arena->stats.peak_in_use = MAX (arena->stats.peak_in_use, arena->stats.in_use);
}

guint64
pv_ort_bfc_arena_chunk_size (const PvOrtBfcArena *arena, int h)
{
  g_return_val_if_fail (arena != NULL && h > 0 && (guint) h < arena->chunks->len, 0);
  return CHUNK (arena, h)->size;
}

guint64
pv_ort_bfc_arena_chunk_address (const PvOrtBfcArena *arena, int h)
{
  g_return_val_if_fail (arena != NULL && h > 0 && (guint) h < arena->chunks->len, 0);
  return CHUNK (arena, h)->addr;
}

void
pv_ort_bfc_arena_get_stats (const PvOrtBfcArena *arena, PvOrtArenaStats *stats)
{
  g_return_if_fail (arena != NULL && stats != NULL);
  *stats = arena->stats;
}
