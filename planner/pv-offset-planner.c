#include "pv-offset-planner.h"

#include <stdlib.h>
#include <string.h>

/* Placed buffers are indexed by time blocks so that finding the ones live
 * during [first, last] does not scan all of them. */
#define BLOCK_STEPS 64

/* A placed buffer as the gap search reads it: its bytes and its steps. */
typedef struct {
  guint64 start, end;  /* bytes [start, end) */
  int first, last;
} Placed;

/* The placed buffers touching one time block, by ascending start, so that
 * the gap search walks them without sorting. */
typedef struct {
  Placed *items;
  int len, cap;
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
  int n_blocks;
  Block *blocks;
  Head *heads;            /* n_blocks: a min-heap on next->start */
  guint64 *offsets;
  int *by_first;          /* buffer indices by first step, then index */
  guint64 *keys;          /* per buffer: a sort key (sort_by_key) */
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

/* Inserts @item into @block after the items that start at or before it. */
static void
block_insert (Block *block, const Placed *item)
{
  int lo = 0, hi = block->len;

  while (lo < hi)
    {
      int mid = (lo + hi) / 2;
      if (block->items[mid].start <= item->start)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (block->len == block->cap)
    {
      block->cap = MAX (8, block->cap * 2);
      block->items = g_renew (Placed, block->items, block->cap);
    }
  memmove (&block->items[lo + 1], &block->items[lo], sizeof (Placed) * (block->len - lo));
  block->items[lo] = *item;
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
  s->cursor = live & (q->end > s->cursor) ? q->end : s->cursor;
  return better & (gap == s->need);
}

/* Places buffer @i at the start of the smallest gap that fits among the
 * placed buffers live at the same time, or after the last of them.
 *
 * Those buffers come from the blocks [first, last] touches, merged by start
 * (a heap of the blocks' heads; the last list left is walked on its own). A
 * buffer in several of these blocks comes up once per block: the repeats
 * start at or below the cursor, so they make no gap and do not move it.
 * For the same reason buffers with equal starts may come in any order. */
static void
place (Packer *p, int i)
{
  const PvBufferLife *b = &p->buffers[i];
  int first_block = (b->first - p->min_step) / BLOCK_STEPS, last_block = (b->last - p->min_step) / BLOCK_STEPS;
  GapSearch s = { b->first, b->last, p->sizes[i], 0, G_MAXUINT64, 0 };
  gboolean exact = FALSE;
  Head *heads = p->heads;
  int n_heads = 0;
  Placed item;

  for (int blk = first_block; blk <= last_block; blk++)
    if (p->blocks[blk].len > 0)
      heads[n_heads++] = (Head) { p->blocks[blk].items, p->blocks[blk].items + p->blocks[blk].len };
  for (int k = n_heads / 2 - 1; k >= 0; k--)
    heap_sift_down (heads, n_heads, k);
  while (n_heads > 1 && !exact)
    {
      const Placed *q = heads[0].next++;
      if (heads[0].next == heads[0].end)
        heads[0] = heads[--n_heads];
      heap_sift_down (heads, n_heads, 0);
      exact = gap_search_visit (&s, q);
    }
  if (n_heads == 1)
    for (const Placed *q = heads[0].next; q < heads[0].end && !exact; q++)
      exact = gap_search_visit (&s, q);
  p->offsets[i] = s.best_gap != G_MAXUINT64 ? s.best_offset : s.cursor;
  item = (Placed) { p->offsets[i], p->offsets[i] + s.need, b->first, b->last };
  for (int blk = first_block; blk <= last_block; blk++)
    block_insert (&p->blocks[blk], &item);
}

/* Places every buffer in @order and returns the peak; or stops once the
 * peak reaches @bound (a plan to beat: placing more cannot lower it) and
 * returns that partial peak, leaving the other offsets unset. */
static guint64
pack (Packer *p, const int *order, guint64 bound)
{
  guint64 peak = 0;

  for (int b = 0; b < p->n_blocks; b++)
    p->blocks[b].len = 0;
  for (int k = 0; k < p->n && peak < bound; k++)
    {
      place (p, order[k]);
      peak = MAX (peak, p->offsets[order[k]] + p->sizes[order[k]]);
    }
  return peak;
}

/* Orderings are lexicographic on a key or two, then the first step, then
 * the index (for determinism). They are built with stable sorts on one key
 * at a time, least significant first, starting from the order by first
 * step and index. A key is a guint64 whose ascending order is the wanted
 * one; these map a value to one. */
static guint64
key_ascending (gint64 x)
{
  return (guint64) x ^ ((guint64) 1 << 63);
}

static guint64
key_ascending_double (double x)
{
  guint64 bits;

  if (x == 0)
    x = 0;  /* -0 and +0 compare equal */
  memcpy (&bits, &x, sizeof bits);
  return bits >> 63 ? ~bits : bits | ((guint64) 1 << 63);
}

/* Sorts @order (@n buffer or step indices) by @keys[index], ascending,
 * keeping the order of equal keys: an LSD radix sort, one byte at a time,
 * skipping the bytes all keys share. A comparison sort of the same orders
 * took as long as the packing itself on arenas of thousands of buffers.
 * @scratch holds @n. */
static void
sort_by_key (int *order, int n, const guint64 *keys, int *scratch)
{
  int *src = order, *dst = scratch;

  for (int shift = 0; shift < 64 && n > 0; shift += 8)
    {
      int count[257] = { 0 };
      int *swap;
      for (int k = 0; k < n; k++)
        count[((keys[src[k]] >> shift) & 0xff) + 1]++;
      if (count[((keys[src[0]] >> shift) & 0xff) + 1] == n)
        continue;
      for (int c = 0; c < 256; c++)
        count[c + 1] += count[c];
      for (int k = 0; k < n; k++)
        dst[count[(keys[src[k]] >> shift) & 0xff]++] = src[k];
      swap = src;
      src = dst;
      dst = swap;
    }
  if (src != order)
    memcpy (order, src, sizeof (int) * n);
}

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
  memcpy (order, p->by_first, sizeof (int) * p->n);
  for (int i = 0; i < p->n; i++)
    p->keys[i] = ~p->sizes[i];
  sort_by_key (order, p->n, p->keys, p->scratch);
  if (key == KEY_SIZE)
    return;
  for (int i = 0; i < p->n; i++)
    {
      const PvBufferLife *b = &p->buffers[i];
      switch (key)
        {
        case KEY_DURATION:
          p->keys[i] = ~key_ascending (b->last - b->first);
          break;
        case KEY_AREA:
          p->keys[i] = ~key_ascending_double ((double) p->sizes[i] * (b->last - b->first + 1));
          break;
        case KEY_START:
        case KEY_SIZE:
          p->keys[i] = key_ascending (b->first);
          break;
        }
    }
  sort_by_key (order, p->n, p->keys, p->scratch);
}

/* Ties of the per-step groups of greedy by breadth: first step, then index. */
#define TIE(a, b) \
  (p->buffers[a].first != p->buffers[b].first ? p->buffers[a].first - p->buffers[b].first : (a) - (b))

static int
by_size (const void *x, const void *y, void *data)
{
  const Packer *p = data;
  int a = *(const int *) x, b = *(const int *) y;
  if (p->sizes[a] != p->sizes[b])
    return p->sizes[a] > p->sizes[b] ? -1 : 1;
  return TIE (a, b);
}

/* Greedy by breadth (Pisarchyk & Lee, 2020): visit steps from the most to
 * the least live bytes; at each, take its not yet ordered buffers, largest
 * first. The buffers of the tightest moments are placed first. */
static void
breadth_order (const Packer *p, int *order)
{
  int min_step = p->min_step, n_steps = 0, n = 0;
  g_autofree gint64 *breadth = NULL;
  g_autofree int *steps = NULL, *start = NULL, *members = NULL, *scratch = NULL;
  g_autofree guint64 *keys = NULL;
  g_autofree gboolean *taken = g_new0 (gboolean, MAX (p->n, 1));

  for (int i = 0; i < p->n; i++)
    n_steps = MAX (n_steps, p->buffers[i].last - min_step + 1);
  breadth = g_new0 (gint64, n_steps + 1);
  start = g_new0 (int, n_steps + 2);
  for (int i = 0; i < p->n; i++)
    for (int s = p->buffers[i].first; s <= p->buffers[i].last; s++)
      {
        breadth[s - min_step] += (gint64) p->sizes[i];
        start[s - min_step + 1]++;
      }
  for (int s = 0; s < n_steps; s++)
    start[s + 1] += start[s];
  members = g_new (int, MAX (start[n_steps], 1));
  {
    g_autofree int *fill = g_memdup2 (start, sizeof (int) * (n_steps + 1));
    for (int i = 0; i < p->n; i++)
      for (int s = p->buffers[i].first; s <= p->buffers[i].last; s++)
        members[fill[s - min_step]++] = i;
  }
  /* Steps by breadth, descending, then step. */
  steps = g_new (int, MAX (n_steps, 1));
  keys = g_new (guint64, MAX (n_steps, 1));
  scratch = g_new (int, MAX (n_steps, 1));
  for (int s = 0; s < n_steps; s++)
    {
      steps[s] = s;
      keys[s] = ~key_ascending (breadth[s]);
    }
  sort_by_key (steps, n_steps, keys, scratch);
  for (int k = 0; k < n_steps; k++)
    {
      int s = steps[k], first = n;
      for (int m = start[s]; m < start[s + 1]; m++)
        if (!taken[members[m]])
          {
            taken[members[m]] = TRUE;
            order[n++] = members[m];
          }
      g_qsort_with_data (order + first, n - first, sizeof (int), by_size, (gpointer) p);
    }
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
  Packer p = { buffers, NULL, n, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL };
  g_autofree int *order = NULL;
  int max_step = 0;

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
    }
  p.n_blocks = (max_step - p.min_step) / BLOCK_STEPS + 1;
  p.blocks = g_new0 (Block, p.n_blocks);
  p.heads = g_new (Head, p.n_blocks);
  p.offsets = g_new0 (guint64, MAX (n, 1));
  p.keys = g_new (guint64, MAX (n, 1));
  p.scratch = g_new (int, MAX (n, 1));
  p.by_first = g_new (int, MAX (n, 1));
  for (int i = 0; i < n; i++)
    {
      p.by_first[i] = i;
      p.keys[i] = key_ascending (buffers[i].first);
    }
  sort_by_key (p.by_first, n, p.keys, p.scratch);

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
        sort_by_key (order, n, p.keys, p.scratch);
        try_order (&p, order, "largest first, jittered restart", plan);
      }
  }
  if (n == 0)
    plan->peak_bytes = 0;

  for (int b = 0; b < p.n_blocks; b++)
    g_free (p.blocks[b].items);
  g_free (p.blocks);
  g_free (p.heads);
  g_free (p.offsets);
  g_free (p.sizes);
  g_free (p.keys);
  g_free (p.scratch);
  g_free (p.by_first);
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
