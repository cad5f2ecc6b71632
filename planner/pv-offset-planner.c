#include "pv-offset-planner.h"

#include "pv-sort.h"

#include <stdlib.h>
#include <string.h>

/* Placed buffers are indexed by time blocks so that finding the ones live
 * during [first, last] does not scan all of them: per block, those touching
 * it and those whose first step is in it. The ones live during [first,
 * last] are among those touching first's block and those starting in a
 * later block up to last's, each in exactly one of these lists.
 *
 * A block spans about the mean lifetime: longer blocks hold more buffers
 * that are not live with the one being placed, shorter ones make more
 * lists to merge. */
#define MIN_BLOCK_SHIFT 3
#define MAX_BLOCK_SHIFT 10

/* A placed buffer as the gap search reads it: its bytes and its steps. */
typedef struct {
  guint64 start, end;  /* bytes [start, end) */
  int first, last;
} Placed;

/* Placed buffers by ascending start, so that the gap search walks them
 * without sorting. Room for every buffer that may enter it. */
typedef struct {
  Placed *items;
  int len;
} Block;

/* A block's next item in the merge of several blocks' lists. */
typedef struct {
  const Placed *next, *end;
} Head;

typedef struct {
  const PvBufferLife *buffers;
  guint64 *sizes;         /* aligned */
  int n;
  int min_step;
  int block_shift;        /* a block is 1 << block_shift steps */
  int n_blocks;
  Block *touching;        /* per block: placed buffers live at one of its steps */
  Block *starting;        /* per block: placed buffers whose first step is in it */
  Placed *room;           /* the blocks' items */
  Head *heads;            /* n_blocks: a min-heap on next->start */
  guint64 *offsets;
  int *by_first;          /* buffer indices by first step, then index */
  int *by_size;           /* by size (largest first), then first step, then index */
  guint64 *keys;          /* per buffer: a sort key (pv_sort_by_key) */
  int *scratch;           /* n */
} Packer;

static guint64
align_up (guint64 size, guint64 alignment)
{
  return (size + alignment - 1) & ~(alignment - 1);
}

guint64
pv_buffers_load (const PvBufferLife *buffers, int n, guint64 alignment)
{
  int min_step = 0, max_step = 0;
  g_autofree gint64 *delta = NULL;
  gint64 live = 0, best = 0;

  for (int i = 0; i < n; i++)
    {
      min_step = MIN (min_step, buffers[i].first);
      max_step = MAX (max_step, buffers[i].last);
    }
  delta = g_new0 (gint64, max_step - min_step + 2);
  for (int i = 0; i < n; i++)
    {
      gint64 size = (gint64) align_up (buffers[i].size, alignment);
      delta[buffers[i].first - min_step] += size;
      delta[buffers[i].last - min_step + 1] -= size;
    }
  for (int s = 0; s <= max_step - min_step; s++)
    {
      live += delta[s];
      best = MAX (best, live);
    }
  return (guint64) best;
}

/* Moves heads[@k] down until the heap on next->start holds again. */
static void
heap_sift_down (Head *heads, int n_heads, int k)
{
  for (;;)
    {
      int child = 2 * k + 1;
      Head h;
      if (child >= n_heads)
        return;
      if (child + 1 < n_heads && heads[child + 1].next->start < heads[child].next->start)
        child++;
      if (heads[k].next->start <= heads[child].next->start)
        return;
      h = heads[k];
      heads[k] = heads[child];
      heads[child] = h;
      k = child;
    }
}

/* Inserts @item into @block after the items that start at or before it
 * (an insertion sort step: from the end, as the moves cost that anyway). */
static void
block_insert (Block *block, const Placed *item)
{
  int k = block->len;

  for (; k > 0 && block->items[k - 1].start > item->start; k--)
    block->items[k] = block->items[k - 1];
  block->items[k] = *item;
  block->len++;
}

/* The gap search of one buffer over placed ones in ascending start. */
typedef struct {
  int first, last;       /* steps of the buffer to place */
  guint64 need;          /* its aligned size */
  guint64 cursor;        /* end of the bytes taken below the current start */
  guint64 best_gap;      /* smallest fitting gap, G_MAXUINT64 while none */
  guint64 best_offset;   /* where it starts */
} GapSearch;

/* Takes @q into @s; TRUE on an exact fit, after which no gap can be
 * smaller and still fit. A placed buffer not live with the one to place
 * changes nothing. Written with & and selects, not branches: the time test
 * rejects about half the items, unpredictably. */
static inline gboolean
gap_search_visit (GapSearch *s, const Placed *q)
{
  gboolean live = (q->last >= s->first) & (q->first <= s->last);
  guint64 gap = q->start - s->cursor;  /* meaningful when start > cursor */
  gboolean better = live & (q->start > s->cursor) & (gap >= s->need) & (gap < s->best_gap);

  s->best_gap = better ? gap : s->best_gap;
  s->best_offset = better ? s->cursor : s->best_offset;
  s->cursor = (live & (q->end > s->cursor)) ? q->end : s->cursor;
  return better & (gap == s->need);
}

/* Places buffer @i at the start of the smallest gap that fits among the
 * placed buffers live at the same time, or after the last of them.
 *
 * Those buffers come from the lists of the blocks [first, last] touches,
 * merged by start (a heap of the lists' heads down to two lists, then a
 * plain merge, then the list left on its own). Buffers with equal starts
 * may come in any order: the first of them makes the gap, if any, and moves
 * the cursor past their ends whichever comes first. */
static void
place (Packer *p, int i)
{
  const PvBufferLife *b = &p->buffers[i];
  int first_block = (b->first - p->min_step) >> p->block_shift;
  int last_block = (b->last - p->min_step) >> p->block_shift;
  GapSearch s = { b->first, b->last, p->sizes[i], 0, G_MAXUINT64, 0 };
  gboolean exact = FALSE;
  Head *heads = p->heads;
  int n_heads = 0;
  Placed item;

  for (int blk = first_block; blk <= last_block; blk++)
    {
      const Block *list = blk == first_block ? &p->touching[blk] : &p->starting[blk];
      if (list->len > 0)
        heads[n_heads++] = (Head) { list->items, list->items + list->len };
    }
  for (int k = n_heads / 2 - 1; k >= 0; k--)
    heap_sift_down (heads, n_heads, k);
  while (n_heads > 2 && !exact)
    {
      const Placed *q = heads[0].next++;
      if (heads[0].next == heads[0].end)
        heads[0] = heads[--n_heads];
      heap_sift_down (heads, n_heads, 0);
      exact = gap_search_visit (&s, q);
    }
  /* Two lists left (the common case of a buffer across a block boundary):
   * a plain merge. */
  if (n_heads == 2)
    {
      Head *a = &heads[0], *c = &heads[1];
      while (a->next < a->end && c->next < c->end && !exact)
        exact = gap_search_visit (&s, a->next->start <= c->next->start ? a->next++ : c->next++);
      if (a->next == a->end)
        *a = *c;
      n_heads = 1;
    }
  if (n_heads == 1)
    for (const Placed *q = heads[0].next; q < heads[0].end && !exact; q++)
      exact = gap_search_visit (&s, q);
  p->offsets[i] = s.best_gap != G_MAXUINT64 ? s.best_offset : s.cursor;
  item = (Placed) { p->offsets[i], p->offsets[i] + s.need, b->first, b->last };
  for (int blk = first_block; blk <= last_block; blk++)
    block_insert (&p->touching[blk], &item);
  block_insert (&p->starting[first_block], &item);
}

/* Places every buffer in @order and returns the peak; or stops once the
 * peak reaches @bound (a plan to beat: placing more cannot lower it) and
 * returns that partial peak, leaving the other offsets unset. */
static guint64
pack (Packer *p, const int *order, guint64 bound)
{
  guint64 peak = 0;

  for (int b = 0; b < p->n_blocks; b++)
    p->touching[b].len = p->starting[b].len = 0;
  for (int k = 0; k < p->n && peak < bound; k++)
    {
      place (p, order[k]);
      peak = MAX (peak, p->offsets[order[k]] + p->sizes[order[k]]);
    }
  return peak;
}

/* Orderings are lexicographic on a key or two, then the first step, then
 * the index (for determinism). They are built with stable sorts on one key
 * at a time (pv_sort_by_key), least significant first, from the order by
 * first step and index. */
typedef enum {
  KEY_SIZE,      /* largest first */
  KEY_DURATION,  /* longest first */
  KEY_AREA,      /* largest size x steps first */
  KEY_START,     /* earliest first */
} OrderKey;

/* @order: every buffer by @key, then size (largest first), then first step,
 * then index. */
static void
order_by (Packer *p, OrderKey key, int *order)
{
  memcpy (order, p->by_size, sizeof (int) * p->n);
  if (key == KEY_SIZE)
    return;
  for (int i = 0; i < p->n; i++)
    {
      const PvBufferLife *b = &p->buffers[i];
      switch (key)
        {
        case KEY_DURATION:
          p->keys[i] = ~pv_sort_key_int (b->last - b->first);
          break;
        case KEY_AREA:
          p->keys[i] = ~pv_sort_key_double ((double) p->sizes[i] * (b->last - b->first + 1));
          break;
        case KEY_SIZE:  /* done above */
        case KEY_START:
          p->keys[i] = pv_sort_key_int (b->first);
          break;
        }
    }
  pv_sort_by_key (order, p->n, p->keys, p->scratch);
}

/* Greedy by breadth (Pisarchyk & Lee, 2020): visit steps from the most to
 * the least live bytes; at each, take its not yet ordered buffers, largest
 * first. The buffers of the tightest moments are placed first.
 *
 * A buffer is so taken at the first visited of its steps: the order is by
 * that step's rank in the visit, then largest first (then first step and
 * index, as every ordering). */
static void
breadth_order (Packer *p, int *order)
{
  int n_steps = 1;
  g_autofree gint64 *breadth = NULL;
  g_autofree int *steps = NULL, *rank = NULL, *scratch = NULL;
  g_autofree guint64 *keys = NULL;

  for (int i = 0; i < p->n; i++)
    n_steps = MAX (n_steps, p->buffers[i].last - p->min_step + 1);
  /* Live bytes per step, from the changes at each step. */
  breadth = g_new0 (gint64, n_steps + 1);
  for (int i = 0; i < p->n; i++)
    {
      breadth[p->buffers[i].first - p->min_step] += (gint64) p->sizes[i];
      breadth[p->buffers[i].last - p->min_step + 1] -= (gint64) p->sizes[i];
    }
  for (int s = 1; s < n_steps; s++)
    breadth[s] += breadth[s - 1];
  /* The visit: steps by breadth, descending, then step. */
  steps = g_new (int, n_steps);
  keys = g_new (guint64, MAX (n_steps, p->n));
  scratch = g_new (int, n_steps);
  for (int s = 0; s < n_steps; s++)
    {
      steps[s] = s;
      keys[s] = ~pv_sort_key_int (breadth[s]);
    }
  pv_sort_by_key (steps, n_steps, keys, scratch);
  rank = g_new (int, n_steps);
  for (int k = 0; k < n_steps; k++)
    rank[steps[k]] = k;
  for (int i = 0; i < p->n; i++)
    {
      int first = rank[p->buffers[i].first - p->min_step];
      for (int s = p->buffers[i].first + 1; s <= p->buffers[i].last; s++)
        first = MIN (first, rank[s - p->min_step]);
      keys[i] = (guint64) first;
    }
  memcpy (order, p->by_size, sizeof (int) * p->n);
  pv_sort_by_key (order, p->n, keys, p->scratch);
}

/* Packs @order and keeps the result in @plan when it beats its peak. */
static void
try_order (Packer *p, const int *order, const char *name, PvOffsetPlan *plan)
{
  guint64 peak = pack (p, order, plan->peak_bytes);

  if (peak < plan->peak_bytes)
    {
      plan->peak_bytes = peak;
      plan->ordering = name;
      memcpy (plan->offsets, p->offsets, sizeof (guint64) * p->n);
    }
}

PvOffsetPlan *
pv_offset_plan_new (const PvBufferLife *buffers, int n, guint64 alignment)
{
  static const struct {
    const char *name;
    OrderKey key;
  } orderings[] = {
    { "largest first", KEY_SIZE },
    { "longest first", KEY_DURATION },
    { "largest area first", KEY_AREA },
    { "earliest first", KEY_START },
  };
  PvOffsetPlan *plan;
  Packer p = { .buffers = buffers, .n = n };
  g_autofree int *order = NULL;
  int max_step = 0;
  gint64 total_steps = 0;  /* summed lifetimes */

  g_return_val_if_fail (alignment > 0 && (alignment & (alignment - 1)) == 0, NULL);
  plan = g_new0 (PvOffsetPlan, 1);
  plan->offsets = g_new0 (guint64, MAX (n, 1));
  order = g_new (int, MAX (n, 1));
  p.sizes = g_new (guint64, MAX (n, 1));
  for (int i = 0; i < n; i++)
    {
      p.sizes[i] = align_up (buffers[i].size, alignment);
      p.min_step = MIN (p.min_step, buffers[i].first);
      max_step = MAX (max_step, buffers[i].last);
      total_steps += buffers[i].last - buffers[i].first + 1;
    }
  p.block_shift = MIN_BLOCK_SHIFT;
  while (p.block_shift < MAX_BLOCK_SHIFT && ((gint64) 1 << p.block_shift) * MAX (n, 1) < total_steps)
    p.block_shift++;
  p.n_blocks = ((max_step - p.min_step) >> p.block_shift) + 1;
  /* Each block's lists get room for all the buffers that touch or start in
   * it, in one allocation. */
  p.touching = g_new0 (Block, p.n_blocks);
  p.starting = g_new0 (Block, p.n_blocks);
  {
    gsize room = 0;
    for (int i = 0; i < n; i++)
      {
        int first_block = (buffers[i].first - p.min_step) >> p.block_shift;
        int last_block = (buffers[i].last - p.min_step) >> p.block_shift;
        for (int b = first_block; b <= last_block; b++)
          p.touching[b].len++;
        p.starting[first_block].len++;
      }
    for (int b = 0; b < p.n_blocks; b++)
      room += p.touching[b].len + p.starting[b].len;
    p.room = g_new (Placed, MAX (room, 1));
    room = 0;
    for (int b = 0; b < p.n_blocks; b++)
      {
        p.touching[b].items = p.room + room;
        room += p.touching[b].len;
        p.starting[b].items = p.room + room;
        room += p.starting[b].len;
      }
  }
  p.heads = g_new (Head, p.n_blocks);
  p.offsets = g_new0 (guint64, MAX (n, 1));
  p.keys = g_new (guint64, MAX (n, 1));
  p.scratch = g_new (int, MAX (n, 1));
  p.by_first = g_new (int, MAX (n, 1));
  for (int i = 0; i < n; i++)
    {
      p.by_first[i] = i;
      p.keys[i] = pv_sort_key_int (buffers[i].first);
    }
  pv_sort_by_key (p.by_first, n, p.keys, p.scratch);
  p.by_size = g_memdup2 (p.by_first, sizeof (int) * MAX (n, 1));
  for (int i = 0; i < n; i++)
    p.keys[i] = ~p.sizes[i];
  pv_sort_by_key (p.by_size, n, p.keys, p.scratch);

  plan->peak_bytes = G_MAXUINT64;
  plan->load_bytes = pv_buffers_load (buffers, n, alignment);
  /* Every ordering stops once a plan reaches LOAD: none can do better. */
  for (gsize o = 0; o < G_N_ELEMENTS (orderings) && plan->peak_bytes > plan->load_bytes; o++)
    {
      order_by (&p, orderings[o].key, order);
      try_order (&p, order, orderings[o].name, plan);
    }
  /* Greedy by breadth; then, while it is cheap, largest-first orderings
   * with sizes jittered by a fixed-seed generator: deterministic restarts
   * that escape the fragmentation one fixed order can cause. */
  {
    int restarts = n <= 2000 ? 48 : n <= 20000 ? 4 : 0;
    g_autoptr (GRand) rand = g_rand_new_with_seed (1);

    if (n > 0 && plan->peak_bytes > plan->load_bytes)
      {
        breadth_order (&p, order);
        try_order (&p, order, "greedy by breadth", plan);
      }
    for (int r = 0; r < restarts && plan->peak_bytes > plan->load_bytes; r++)
      {
        /* Order by jittered sizes (±25%; largest first, then first step
         * and index), place with the real ones. */
        for (int i = 0; i < n; i++)
          p.keys[i] = ~(guint64) (p.sizes[i] * g_rand_double_range (rand, 0.75, 1.25));
        memcpy (order, p.by_first, sizeof (int) * n);
        pv_sort_by_key (order, n, p.keys, p.scratch);
        try_order (&p, order, "largest first, jittered restart", plan);
      }
  }
  if (n == 0)
    plan->peak_bytes = 0;

  g_free (p.room);
  g_free (p.touching);
  g_free (p.starting);
  g_free (p.heads);
  g_free (p.offsets);
  g_free (p.sizes);
  g_free (p.keys);
  g_free (p.scratch);
  g_free (p.by_first);
  g_free (p.by_size);
  return plan;
}

void
pv_offset_plan_free (PvOffsetPlan *plan)
{
  if (plan == NULL)
    return;
  g_free (plan->offsets);
  g_free (plan);
}
