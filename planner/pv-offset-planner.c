#include "pv-offset-planner.h"

#include <stdlib.h>
#include <string.h>

/* Placed buffers are indexed by time blocks so that finding the ones live
 * during [first, last] does not scan all of them. */
#define BLOCK_STEPS 64

typedef struct {
  const PvBufferLife *buffers;
  guint64 *sizes;         /* aligned */
  int n;
  int min_step;
  int n_blocks;
  GArray **blocks;        /* per block: indices of placed buffers touching it */
  guint64 *offsets;
  guint *stamp;           /* de-duplication of candidates */
  guint stamp_now;
  GArray *candidates;
} Packer;

typedef struct {
  const char *name;
  int (*compare) (const void *, const void *, void *);
} Ordering;

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

static int
by_offset (const void *a, const void *b, void *data)
{
  const guint64 *offsets = data;
  guint64 x = offsets[*(const int *) a], y = offsets[*(const int *) b];
  if (x != y)
    return x < y ? -1 : 1;
  return *(const int *) a - *(const int *) b;
}

/* Places buffer @i at the start of the smallest gap that fits among the
 * placed buffers live at the same time, or after the last of them. */
static void
place (Packer *p, int i)
{
  const PvBufferLife *b = &p->buffers[i];
  int first_block = (b->first - p->min_step) / BLOCK_STEPS, last_block = (b->last - p->min_step) / BLOCK_STEPS;
  guint64 need = p->sizes[i], cursor = 0, best_offset = 0, best_gap = G_MAXUINT64;
  gboolean found = FALSE;

  p->stamp_now++;
  g_array_set_size (p->candidates, 0);
  for (int blk = first_block; blk <= last_block; blk++)
    {
      GArray *list = p->blocks[blk];
      for (guint k = 0; k < list->len; k++)
        {
          int j = g_array_index (list, int, k);
          if (p->stamp[j] == p->stamp_now)
            continue;
          p->stamp[j] = p->stamp_now;
          if (p->buffers[j].last >= b->first && p->buffers[j].first <= b->last)
            g_array_append_val (p->candidates, j);
        }
    }
  g_qsort_with_data (p->candidates->data, p->candidates->len, sizeof (int), by_offset, p->offsets);
  for (guint k = 0; k < p->candidates->len; k++)
    {
      int j = g_array_index (p->candidates, int, k);
      guint64 start = p->offsets[j];
      if (start > cursor)
        {
          guint64 gap = start - cursor;
          if (gap >= need && gap < best_gap)
            {
              best_gap = gap;
              best_offset = cursor;
              found = TRUE;
            }
        }
      cursor = MAX (cursor, start + p->sizes[j]);
    }
  p->offsets[i] = found ? best_offset : cursor;
  for (int blk = first_block; blk <= last_block; blk++)
    g_array_append_val (p->blocks[blk], i);
}

static guint64
pack (Packer *p, const int *order)
{
  guint64 peak = 0;

  for (int b = 0; b < p->n_blocks; b++)
    g_array_set_size (p->blocks[b], 0);
  for (int k = 0; k < p->n; k++)
    {
      place (p, order[k]);
      peak = MAX (peak, p->offsets[order[k]] + p->sizes[order[k]]);
    }
  return peak;
}

static int
by_breadth (const void *x, const void *y, void *data)
{
  const gint64 *breadth = data;
  int a = *(const int *) x, b = *(const int *) y;
  if (breadth[a] != breadth[b])
    return breadth[a] > breadth[b] ? -1 : 1;
  return a - b;
}

/* Orderings (all break ties by first step, then index, for determinism). */
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

static int
by_duration (const void *x, const void *y, void *data)
{
  const Packer *p = data;
  int a = *(const int *) x, b = *(const int *) y;
  int da = p->buffers[a].last - p->buffers[a].first, db = p->buffers[b].last - p->buffers[b].first;
  if (da != db)
    return da > db ? -1 : 1;
  return by_size (x, y, data);
}

static int
by_area (const void *x, const void *y, void *data)
{
  const Packer *p = data;
  int a = *(const int *) x, b = *(const int *) y;
  double aa = (double) p->sizes[a] * (p->buffers[a].last - p->buffers[a].first + 1);
  double ab = (double) p->sizes[b] * (p->buffers[b].last - p->buffers[b].first + 1);
  if (aa != ab)
    return aa > ab ? -1 : 1;
  return by_size (x, y, data);
}

static int
by_start (const void *x, const void *y, void *data)
{
  const Packer *p = data;
  int a = *(const int *) x, b = *(const int *) y;
  if (p->buffers[a].first != p->buffers[b].first)
    return p->buffers[a].first - p->buffers[b].first;
  return by_size (x, y, data);
}

/* Greedy by breadth (Pisarchyk & Lee, 2020): visit steps from the most to
 * the least live bytes; at each, take its not yet ordered buffers, largest
 * first. The buffers of the tightest moments are placed first. */
static void
breadth_order (const Packer *p, int *order)
{
  int min_step = p->min_step, n_steps = 0, n = 0;
  g_autofree gint64 *breadth = NULL;
  g_autofree int *steps = NULL, *start = NULL, *members = NULL;
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
  steps = g_new (int, MAX (n_steps, 1));
  for (int s = 0; s < n_steps; s++)
    steps[s] = s;
  /* Insertion-free sort of steps by breadth, descending, then step. */
  g_qsort_with_data (steps, n_steps, sizeof (int), by_breadth, breadth);
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

PvOffsetPlan *
pv_offset_plan_new (const PvBufferLife *buffers, int n, guint64 alignment)
{
  static const Ordering orderings[] = {
    { "largest first", by_size },
    { "longest first", by_duration },
    { "largest area first", by_area },
    { "earliest first", by_start },
  };
  PvOffsetPlan *plan = g_new0 (PvOffsetPlan, 1);
  Packer p = { buffers, NULL, n, 0, 0, NULL, NULL, NULL, 0, NULL };
  g_autofree int *order = g_new (int, MAX (n, 1));
  g_autofree guint64 *best = g_new0 (guint64, MAX (n, 1));
  int max_step = 0;

  g_return_val_if_fail (alignment > 0 && (alignment & (alignment - 1)) == 0, NULL);
  p.sizes = g_new (guint64, MAX (n, 1));
  for (int i = 0; i < n; i++)
    {
      p.sizes[i] = align_up (buffers[i].size, alignment);
      p.min_step = MIN (p.min_step, buffers[i].first);
      max_step = MAX (max_step, buffers[i].last);
    }
  p.n_blocks = (max_step - p.min_step) / BLOCK_STEPS + 1;
  p.blocks = g_new (GArray *, p.n_blocks);
  for (int b = 0; b < p.n_blocks; b++)
    p.blocks[b] = g_array_new (FALSE, FALSE, sizeof (int));
  p.offsets = g_new0 (guint64, MAX (n, 1));
  p.stamp = g_new0 (guint, MAX (n, 1));
  p.candidates = g_array_new (FALSE, FALSE, sizeof (int));

  plan->peak_bytes = G_MAXUINT64;
  plan->load_bytes = pv_buffers_load (buffers, n, alignment);
  /* Every ordering stops once a plan reaches LOAD: none can do better. */
  for (gsize o = 0; o < G_N_ELEMENTS (orderings) && plan->peak_bytes > plan->load_bytes; o++)
    {
      guint64 peak;
      for (int i = 0; i < n; i++)
        order[i] = i;
      g_qsort_with_data (order, n, sizeof (int), orderings[o].compare, &p);
      peak = pack (&p, order);
      if (peak < plan->peak_bytes)
        {
          plan->peak_bytes = peak;
          plan->ordering = orderings[o].name;
          memcpy (best, p.offsets, sizeof (guint64) * n);
        }
    }
  /* Greedy by breadth; then, while it is cheap, largest-first orderings
   * with sizes jittered by a fixed-seed generator: deterministic restarts
   * that escape the fragmentation one fixed order can cause. */
  {
    int restarts = n <= 2000 ? 48 : n <= 20000 ? 4 : 0;
    g_autoptr (GRand) rand = g_rand_new_with_seed (1);
    g_autofree guint64 *real_sizes = g_memdup2 (p.sizes, sizeof (guint64) * MAX (n, 1));

    if (n > 0 && plan->peak_bytes > plan->load_bytes)
      {
        guint64 peak;
        breadth_order (&p, order);
        peak = pack (&p, order);
        if (peak < plan->peak_bytes)
          {
            plan->peak_bytes = peak;
            plan->ordering = "greedy by breadth";
            memcpy (best, p.offsets, sizeof (guint64) * n);
          }
      }
    for (int r = 0; r < restarts && plan->peak_bytes > plan->load_bytes; r++)
      {
        guint64 peak;
        /* Order by jittered sizes (±25%), place with the real ones. */
        for (int i = 0; i < n; i++)
          p.sizes[i] = (guint64) (real_sizes[i] * g_rand_double_range (rand, 0.75, 1.25));
        for (int i = 0; i < n; i++)
          order[i] = i;
        g_qsort_with_data (order, n, sizeof (int), by_size, &p);
        memcpy (p.sizes, real_sizes, sizeof (guint64) * n);
        peak = pack (&p, order);
        if (peak < plan->peak_bytes)
          {
            plan->peak_bytes = peak;
            plan->ordering = "largest first, jittered restart";
            memcpy (best, p.offsets, sizeof (guint64) * n);
          }
      }
  }
  if (n == 0)
    plan->peak_bytes = 0;
  plan->offsets = g_steal_pointer (&best);

  for (int b = 0; b < p.n_blocks; b++)
    g_array_unref (p.blocks[b]);
  g_free (p.blocks);
  g_free (p.offsets);
  g_free (p.stamp);
  g_free (p.sizes);
  g_array_unref (p.candidates);
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
