#include "pv-arena-planner-private.h"

#include "pv-arena-search.h"
#include "pv-arena-wide-private.h"

#include "pv-sort.h"
#include "pv-tsan-private.h"

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
 * lists to merge.
 *
 * The lists still hold every placed buffer live with the new one: when
 * thousands are live at once (a wide fan-out), each placement would visit
 * them all. Such packings read unions of placed bytes instead
 * (pv-arena-wide-private.h), which give the same gaps. */
#define MIN_BLOCK_SHIFT 3
#define MAX_BLOCK_SHIFT 10

typedef PvArenaPlaced Placed;

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

/* What every try reads: the buffers and the orderings' common ground. */
typedef struct {
  const PvBufferLife *buffers;
  guint64 *sizes;         /* aligned */
  int n;
  int min_step, max_step;
  int block_shift;        /* a block is 1 << block_shift steps */
  int n_blocks;
  int *touching_len;      /* per block: how many buffers touch it */
  int *starting_len;      /* per block: how many buffers start in it */
  gsize room_len;         /* their sum */
  int *by_first;          /* buffer indices by first step, then index */
  int *by_size;           /* by size (largest first), then first step, then index */
  gboolean wide;          /* placed buffers go in a PvArenaWide, not in blocks */
} Layout;

/* One worker's packing state. */
typedef struct {
  const Layout *layout;
  const PvBufferLife *buffers;
  const guint64 *sizes;
  int n;
  int min_step;
  int block_shift;
  int n_blocks;
  Block *touching;        /* per block: placed buffers live at one of its steps */
  Block *starting;        /* per block: placed buffers whose first step is in it */
  Placed *room;           /* the blocks' items */
  PvArenaWide wide;       /* when layout->wide, instead of the blocks */
  Head *heads;            /* a min-heap on next->start: n_blocks, or the wide index's most unions */
  guint64 *offsets;
  guint64 *keys;          /* per buffer: a sort key (pv_sort_by_key) */
  int *scratch;           /* n */
} Packer;

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

  if (p->layout->wide)
    {
      const PvArenaUnion *unions[PV_ARENA_WIDE_MAX_UNIONS];
      n_heads = pv_arena_wide_live_during (&p->wide, b->first, b->last, unions);
      for (int k = 0; k < n_heads; k++)
        heads[k] = (Head) { unions[k]->items, unions[k]->items + unions[k]->len };
    }
  else
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
  if (p->layout->wide)
    {
      pv_arena_wide_add (&p->wide, b->first, b->last, item.start, item.end);
      return;
    }
  for (int blk = first_block; blk <= last_block; blk++)
    block_insert (&p->touching[blk], &item);
  block_insert (&p->starting[first_block], &item);
}

/* The tries: the orderings, greedy by breadth, then jittered restarts, in
 * this order. Plans rank by (peak, try): the winner is the first try to
 * reach the lowest peak, whichever worker ran it, as if they ran in turn. */
#define MAX_RESTARTS 48

typedef enum {
  KEY_SIZE,      /* largest first */
  KEY_DURATION,  /* longest first */
  KEY_AREA,      /* largest size x steps first */
  KEY_START,     /* earliest first */
} OrderKey;

static const struct {
  const char *name;
  OrderKey key;
} orderings[] = {
  { "largest first", KEY_SIZE },
  { "longest first", KEY_DURATION },
  { "largest area first", KEY_AREA },
  { "earliest first", KEY_START },
};
#define TRY_BREADTH G_N_ELEMENTS (orderings)
#define TRY_FIRST_RESTART (TRY_BREADTH + 1)

/* What the workers share: the next try to take, and the best plan so far. */
typedef struct {
  const Layout *layout;
  int n_tries;
  guint64 load_bytes;     /* no plan is lower */
  gint next_try;          /* atomic */
  GMutex lock;            /* over the best plan */
  guint64 best_peak;      /* G_MAXUINT64 while there is none */
  int best_try;
  guint64 *best_offsets;
  /* The restarts' sizes, jittered ±25% by a fixed-seed generator, n keys
   * per restart: made in turn when first asked for (under the lock), so
   * every run draws the same sequence whichever worker takes which. */
  GRand *rand;
  guint64 *jitter_keys;
  int n_jittered;         /* restarts whose keys are made */
} Tries;

/* Would a plan of @peak from @try rank before the best so far? */
static gboolean
ranks_first (Tries *tries, guint64 peak, int try)
{
  gboolean first;

  pv_mutex_lock (&tries->lock);
  first = peak < tries->best_peak || (peak == tries->best_peak && try < tries->best_try);
  pv_mutex_unlock (&tries->lock);
  return first;
}

/* Places every buffer in @order for try @try and returns the peak; or stops
 * once the try cannot rank first (placing more cannot lower its peak),
 * returning G_MAXUINT64 and leaving offsets unset. That is asked when the
 * peak grows, and every so often for what other workers found. */
static guint64
pack (Packer *p, const int *order, Tries *tries, int try)
{
  guint64 peak = 0, asked = G_MAXUINT64;

  if (p->layout->wide)
    pv_arena_wide_reset (&p->wide);
  else
    for (int b = 0; b < p->n_blocks; b++)
      p->touching[b].len = p->starting[b].len = 0;
  for (int k = 0; k < p->n; k++)
    {
      if (peak != asked || k % 64 == 0)
        {
          if (!ranks_first (tries, peak, try))
            return G_MAXUINT64;
          asked = peak;
        }
      place (p, order[k]);
      peak = MAX (peak, p->offsets[order[k]] + p->sizes[order[k]]);
    }
  return peak;
}

/* Orderings are lexicographic on a key or two, then the first step, then
 * the index (for determinism). They are built with stable sorts on one key
 * at a time (pv_sort_by_key), least significant first, from the order by
 * first step and index. */

/* @order: every buffer by @key, then size (largest first), then first step,
 * then index. */
static void
order_by (Packer *p, OrderKey key, int *order)
{
  memcpy (order, p->layout->by_size, sizeof (int) * p->n);
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
  g_autofree int *steps = NULL, *visit_rank = NULL, *scratch = NULL;
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
  visit_rank = g_new (int, n_steps);
  for (int k = 0; k < n_steps; k++)
    visit_rank[steps[k]] = k;
  for (int i = 0; i < p->n; i++)
    {
      int first = visit_rank[p->buffers[i].first - p->min_step];
      for (int s = p->buffers[i].first + 1; s <= p->buffers[i].last; s++)
        first = MIN (first, visit_rank[s - p->min_step]);
      keys[i] = (guint64) first;
    }
  memcpy (order, p->layout->by_size, sizeof (int) * p->n);
  pv_sort_by_key (order, p->n, keys, p->scratch);
}

/* The jittered sizes of restart @r, as sort keys (largest first). */
static const guint64 *
jitter_keys (Tries *tries, int r)
{
  const Layout *l = tries->layout;
  const guint64 *keys;

  pv_mutex_lock (&tries->lock);
  for (; tries->n_jittered <= r; tries->n_jittered++)
    {
      guint64 *k = tries->jitter_keys + (gsize) tries->n_jittered * l->n;
      for (int i = 0; i < l->n; i++)
        k[i] = ~(guint64) (l->sizes[i] * g_rand_double_range (tries->rand, 0.75, 1.25));
    }
  keys = tries->jitter_keys + (gsize) r * l->n;
  pv_mutex_unlock (&tries->lock);
  return keys;
}

/* The order of try @try into @order. */
static void
try_order (Packer *p, Tries *tries, int try, int *order)
{
  const Layout *l = p->layout;

  if (try < (int) TRY_BREADTH)
    order_by (p, orderings[try].key, order);
  else if (try == TRY_BREADTH)
    breadth_order (p, order);
  else
    {
      /* Jittered sizes (largest first, then first step and index); the
       * buffers are placed with their real sizes. */
      memcpy (order, l->by_first, sizeof (int) * p->n);
      pv_sort_by_key (order, p->n, jitter_keys (tries, try - TRY_FIRST_RESTART), p->scratch);
    }
}

static void
packer_init (Packer *p, const Layout *l)
{
  gsize room = 0;

  *p = (Packer) { .layout = l, .buffers = l->buffers, .sizes = l->sizes, .n = l->n, .min_step = l->min_step,
                  .block_shift = l->block_shift, .n_blocks = l->n_blocks };
  if (l->wide)
    {
      pv_arena_wide_init (&p->wide, l->min_step, l->max_step);
      p->heads = g_new (Head, PV_ARENA_WIDE_MAX_UNIONS);
    }
  else
    {
      /* Each block's lists get room for all the buffers that touch or start
       * in it, in one allocation. */
      p->touching = g_new0 (Block, l->n_blocks);
      p->starting = g_new0 (Block, l->n_blocks);
      p->room = g_new (Placed, MAX (l->room_len, 1));
      for (int b = 0; b < l->n_blocks; b++)
        {
          p->touching[b].items = p->room + room;
          room += l->touching_len[b];
          p->starting[b].items = p->room + room;
          room += l->starting_len[b];
        }
      p->heads = g_new (Head, l->n_blocks);
    }
  p->offsets = g_new0 (guint64, MAX (l->n, 1));
  p->keys = g_new (guint64, MAX (l->n, 1));
  p->scratch = g_new (int, MAX (l->n, 1));
}

static void
packer_clear (Packer *p)
{
  if (p->layout->wide)
    pv_arena_wide_clear (&p->wide);
  g_free (p->touching);
  g_free (p->starting);
  g_free (p->room);
  g_free (p->heads);
  g_free (p->offsets);
  g_free (p->keys);
  g_free (p->scratch);
}

/* A worker: takes the tries in turn until none is left, keeping each plan
 * that ranks best. A try is skipped once an earlier one reached LOAD. */
static gpointer
run_tries (gpointer data)
{
  Tries *tries = data;
  Packer p = { NULL };
  g_autofree int *order = NULL;

  for (int try; (try = g_atomic_int_add (&tries->next_try, 1)) < tries->n_tries;)
    {
      guint64 peak;
      gboolean done;

      pv_mutex_lock (&tries->lock);
      done = tries->best_peak == tries->load_bytes && tries->best_try < try;
      pv_mutex_unlock (&tries->lock);
      if (done)
        continue;
      /* A worker that finds every try taken costs nothing. */
      if (order == NULL)
        {
          packer_init (&p, tries->layout);
          order = g_new (int, MAX (tries->layout->n, 1));
        }
      try_order (&p, tries, try, order);
      peak = pack (&p, order, tries, try);
      if (peak == G_MAXUINT64)
        continue;
      pv_mutex_lock (&tries->lock);
      if (peak < tries->best_peak || (peak == tries->best_peak && try < tries->best_try))
        {
          memcpy (tries->best_offsets, p.offsets, sizeof (guint64) * p.n);
          tries->best_peak = peak;
          tries->best_try = try;
        }
      pv_mutex_unlock (&tries->lock);
    }
  if (order)
    packer_clear (&p);
  return NULL;
}

/* Past this many list items a buffer on average, the gap search reads the
 * wide index's unions instead of the blocks' lists: each placement then
 * costs a few dozen short unions, not every buffer live with it. Below it,
 * the blocks are faster. */
#define WIDE_VISITS 256

/* The list items the gap searches would visit if every buffer were placed
 * before the others: for each, those touching its first block and those
 * starting in a later block up to its last. */
static guint64
block_visits (const Layout *l)
{
  g_autofree guint64 *before = g_new0 (guint64, l->n_blocks + 1);  /* starting in earlier blocks */
  guint64 visits = 0;

  for (int b = 0; b < l->n_blocks; b++)
    before[b + 1] = before[b] + l->starting_len[b];
  for (int i = 0; i < l->n; i++)
    {
      int first_block = (l->buffers[i].first - l->min_step) >> l->block_shift;
      int last_block = (l->buffers[i].last - l->min_step) >> l->block_shift;
      visits += l->touching_len[first_block] + before[last_block + 1] - before[first_block + 1];
    }
  return visits;
}

static void
layout_init (Layout *l, const PvBufferLife *buffers, int n, guint64 alignment, PvArenaIndex index)
{
  gint64 total_steps = 0;  /* summed lifetimes */
  g_autofree guint64 *keys = g_new (guint64, MAX (n, 1));
  g_autofree int *scratch = g_new (int, MAX (n, 1));

  *l = (Layout) { .buffers = buffers, .n = n };
  l->sizes = g_new (guint64, MAX (n, 1));
  for (int i = 0; i < n; i++)
    {
      l->sizes[i] = pv_buffer_aligned_size (buffers[i].size, alignment);
      l->min_step = MIN (l->min_step, buffers[i].first);
      l->max_step = MAX (l->max_step, buffers[i].last);
      total_steps += buffers[i].last - buffers[i].first + 1;
    }
  l->block_shift = MIN_BLOCK_SHIFT;
  while (l->block_shift < MAX_BLOCK_SHIFT && ((gint64) 1 << l->block_shift) * MAX (n, 1) < total_steps)
    l->block_shift++;
  l->n_blocks = ((l->max_step - l->min_step) >> l->block_shift) + 1;
  l->touching_len = g_new0 (int, l->n_blocks);
  l->starting_len = g_new0 (int, l->n_blocks);
  for (int i = 0; i < n; i++)
    {
      int first_block = (buffers[i].first - l->min_step) >> l->block_shift;
      int last_block = (buffers[i].last - l->min_step) >> l->block_shift;
      for (int b = first_block; b <= last_block; b++)
        l->touching_len[b]++;
      l->starting_len[first_block]++;
      l->room_len += last_block - first_block + 2;
    }
  l->wide = index == PV_ARENA_INDEX_WIDE
            || (index == PV_ARENA_INDEX_AUTO && block_visits (l) > WIDE_VISITS * (guint64) MAX (n, 1));
  l->by_first = g_new (int, MAX (n, 1));
  for (int i = 0; i < n; i++)
    {
      l->by_first[i] = i;
      keys[i] = pv_sort_key_int (buffers[i].first);
    }
  pv_sort_by_key (l->by_first, n, keys, scratch);
  l->by_size = g_memdup2 (l->by_first, sizeof (int) * MAX (n, 1));
  for (int i = 0; i < n; i++)
    keys[i] = ~l->sizes[i];
  pv_sort_by_key (l->by_size, n, keys, scratch);
}

static void
layout_clear (Layout *l)
{
  g_free (l->sizes);
  g_free (l->touching_len);
  g_free (l->starting_len);
  g_free (l->by_first);
  g_free (l->by_size);
}

struct _PvArenaPacking {
  Layout layout;
  Tries tries;
  PvArenaPlan *plan;
  gint abandoned;         /* atomic */
  guint64 alignment;
  guint64 search_budget;
};

PvArenaPacking *
pv_arena_packing_new (const PvBufferLife *buffers, int n, guint64 alignment)
{
  return pv_arena_packing_new_with_budget (buffers, n, alignment, PV_ARENA_SEARCH_BUDGET);
}

PvArenaPacking *
pv_arena_packing_new_with_budget (const PvBufferLife *buffers, int n, guint64 alignment, guint64 search_budget)
{
  return pv_arena_packing_new_with_index (buffers, n, alignment, search_budget, PV_ARENA_INDEX_AUTO);
}

PvArenaPacking *
pv_arena_packing_new_with_index (const PvBufferLife *buffers, int n, guint64 alignment, guint64 search_budget,
                                 PvArenaIndex index)
{
  PvArenaPacking *packing;
  /* Restarts while they are cheap: they escape the fragmentation one fixed
   * order can cause. */
  int n_restarts = n <= 2000 ? MAX_RESTARTS : n <= 20000 ? 4 : 0;

  g_return_val_if_fail (alignment > 0 && (alignment & (alignment - 1)) == 0, NULL);
  packing = g_new0 (PvArenaPacking, 1);
  packing->plan = g_new0 (PvArenaPlan, 1);
  packing->plan->offsets = g_new0 (guint64, MAX (n, 1));
  packing->plan->load_bytes = pv_buffers_load (buffers, n, alignment);
  layout_init (&packing->layout, buffers, n, alignment, index);
  packing->tries = (Tries) {
    .layout = &packing->layout,
    /* Without buffers, the first ordering is the plan. */
    .n_tries = n > 0 ? TRY_FIRST_RESTART + n_restarts : 1,
    .load_bytes = packing->plan->load_bytes,
    .best_peak = G_MAXUINT64,
    .best_try = G_MAXINT,
    .best_offsets = packing->plan->offsets,
    .rand = g_rand_new_with_seed (1),
    .jitter_keys = g_new (guint64, MAX ((gsize) n * n_restarts, 1)),
  };
  pv_mutex_init (&packing->tries.lock);
  packing->alignment = alignment;
  packing->search_budget = search_budget;
  return packing;
}

void
pv_arena_packing_work (PvArenaPacking *packing)
{
  run_tries (&packing->tries);
}

void
pv_arena_packing_abandon (PvArenaPacking *packing)
{
  g_atomic_int_set (&packing->tries.next_try, packing->tries.n_tries);
  g_atomic_int_set (&packing->abandoned, TRUE);
}

PvArenaPlan *
pv_arena_packing_finish (PvArenaPacking *packing)
{
  PvArenaPlan *plan = packing->plan;
  const Tries *tries = &packing->tries;

  /* Some worker ran the tries, unless they were abandoned first. */
  g_return_val_if_fail (tries->best_try < tries->n_tries || packing->abandoned, NULL);
  if (tries->best_try >= tries->n_tries)
    g_clear_pointer (&plan, pv_arena_plan_free);
  else
    plan->peak_bytes = tries->best_peak;
  if (plan)
    plan->ordering = tries->best_try < (int) TRY_BREADTH ? orderings[tries->best_try].name
                   : tries->best_try == TRY_BREADTH    ? "greedy by breadth"
                                                       : "largest first, jittered restart";
  if (plan)
    plan->bound_bytes = plan->load_bytes;
  if (plan && plan->peak_bytes > plan->load_bytes)
    {
      PvArenaSearchResult found;
      pv_arena_search (packing->layout.buffers, packing->layout.n, packing->alignment, plan->offsets,
                       plan->peak_bytes, packing->search_budget, &found);
      plan->peak_bytes = found.peak_bytes;
      plan->bound_bytes = found.lower_bound_bytes;
      if (found.improved)
        plan->ordering = "search";
    }
  if (plan)
    plan->optimal = plan->peak_bytes == plan->bound_bytes;
  pv_mutex_clear (&packing->tries.lock);
  g_rand_free (packing->tries.rand);
  g_free (packing->tries.jitter_keys);
  layout_clear (&packing->layout);
  g_free (packing);
  return plan;
}

PvArenaPlan *
pv_arena_plan_new (const PvBufferLife *buffers, int n, guint64 alignment)
{
  PvArenaPacking *packing = pv_arena_packing_new (buffers, n, alignment);

  g_return_val_if_fail (packing != NULL, NULL);
  pv_arena_packing_work (packing);
  return pv_arena_packing_finish (packing);
}

void
pv_arena_plan_free (PvArenaPlan *plan)
{
  if (plan == NULL)
    return;
  g_free (plan->offsets);
  g_free (plan);
}
