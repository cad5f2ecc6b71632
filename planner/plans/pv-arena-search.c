/* pv-arena-search.c: exact and local search for arena packings (see the
 * header). */
#include "pv-arena-search.h"

#include <string.h>

typedef struct {
  guint64 size;    /* aligned */
  int first, last;
  int index;       /* in the caller's buffers */
} Item;

/* A placed item's bytes, for the gap scan. */
typedef struct {
  guint64 off, top;
} Span;

static gboolean
overlap (const Item *a, const Item *b)
{
  return a->first <= b->last && b->first <= a->last;
}

/* The lowest offset >= @floor where @x fits among the placed items
 * (@offsets[j] set for j in @placed[0..n_placed)) live at the same time.
 * @scratch holds n_placed pairs. */
static guint64
lowest_fit (const Item *items, const guint64 *offsets, const int *placed, int n_placed, int x, guint64 floor,
            Span *scratch)
{
  int m = 0;
  guint64 cur = floor;

  for (int k = 0; k < n_placed; k++)
    {
      int j = placed[k];
      guint64 off = offsets[j], top = off + items[j].size;
      int at;
      if (!overlap (&items[x], &items[j]) || top <= floor)
        continue;
      /* Insertion by offset: the lists stay short. */
      for (at = m; at > 0 && scratch[at - 1].off > off; at--)
        {
          scratch[at].off = scratch[at - 1].off;
          scratch[at].top = scratch[at - 1].top;
        }
      scratch[at].off = off, scratch[at].top = top;
      m++;
    }
  for (int k = 0; k < m; k++)
    {
      if (scratch[k].top <= cur)
        continue;
      if (scratch[k].off >= cur + items[x].size)
        break;
      cur = scratch[k].top;
    }
  return cur;
}

/* ---- exact: branch and bound over the order of offsets ---- */

typedef struct {
  const Item *items;
  int n;
  int n_points;
  int *kf, *kl;           /* per item: its first and last time point */
  guint64 *rem;           /* per point: bytes of unplaced items live there */
  guint64 *maxtop;        /* per point: highest top of placed items live there */
  guint64 *offsets;
  int *placed;
  guint8 *is_placed;
  Span *scratch;
  guint64 best;
  guint64 *best_offsets;
  guint64 budget;         /* placements left; G_MAXUINT64: none counted */
  gboolean exhausted;
} Exact;

/* No packing below this node is lower than its placed peak, nor, at any
 * point, the current offset (or the one placed item reaching above it, as
 * placed items all start at or below it) plus what is left to place there. */
static guint64
exact_bound (const Exact *e, guint64 o_cur, guint64 peak)
{
  guint64 lb = peak;
  for (int k = 0; k < e->n_points; k++)
    lb = MAX (lb, MAX (o_cur, e->maxtop[k]) + e->rem[k]);
  return lb;
}

static void
exact_dfs (Exact *e, int depth, guint64 o_cur, guint64 peak)
{
  if (depth == e->n)
    {
      if (peak < e->best)
        {
          e->best = peak;
          memcpy (e->best_offsets, e->offsets, sizeof (guint64) * e->n);
        }
      return;
    }
  if (exact_bound (e, o_cur, peak) >= e->best)
    return;
  for (int x = 0; x < e->n; x++)
    {
      const Item *it = &e->items[x];
      gboolean twin = FALSE;
      guint64 p, saved[64];
      if (e->is_placed[x])
        continue;
      /* Equal unplaced items are interchangeable: try the first only. */
      for (int y = 0; y < x && !twin; y++)
        twin = !e->is_placed[y] && e->items[y].size == it->size && e->items[y].first == it->first &&
               e->items[y].last == it->last;
      if (twin)
        continue;
      if (e->budget != G_MAXUINT64 && e->budget-- == 0)
        {
          e->exhausted = TRUE;
          return;
        }
      p = lowest_fit (e->items, e->offsets, e->placed, depth, x, o_cur, e->scratch);
      e->offsets[x] = p;
      e->placed[depth] = x;
      e->is_placed[x] = TRUE;
      for (int k = e->kf[x]; k <= e->kl[x]; k++)
        {
          saved[k - e->kf[x]] = e->maxtop[k];
          e->maxtop[k] = MAX (e->maxtop[k], p + it->size);
          e->rem[k] -= it->size;
        }
      exact_dfs (e, depth + 1, p, MAX (peak, p + it->size));
      for (int k = e->kf[x]; k <= e->kl[x]; k++)
        {
          e->maxtop[k] = saved[k - e->kf[x]];
          e->rem[k] += it->size;
        }
      e->is_placed[x] = FALSE;
      if (e->exhausted)
        return;
    }
}

/* The optimum of @items (n <= PV_ARENA_EXACT_MAX) below @upper (a peak
 * known to be reachable, G_MAXUINT64 for none): returns it and sets
 * @offsets (indexed like @items), or returns @upper when nothing is lower.
 * *@complete says whether the search ended within *@budget placements
 * (G_MAXUINT64: no limit), which it lowers by what it spent. */
static guint64
exact_solve (const Item *items, int n, guint64 upper, guint64 *offsets, guint64 *budget, gboolean *complete)
{
  Exact e = { items, n, 0 };
  g_autofree int *points = g_new (int, MAX (n, 1));
  g_autofree guint64 *best_offsets = g_new0 (guint64, MAX (n, 1));

  /* Time points: the starts (every live set is contained in one at a start). */
  for (int i = 0; i < n; i++)
    {
      int at = e.n_points;
      gboolean seen = FALSE;
      for (int k = 0; k < e.n_points && !seen; k++)
        seen = points[k] == items[i].first;
      if (seen)
        continue;
      for (; at > 0 && points[at - 1] > items[i].first; at--)
        points[at] = points[at - 1];
      points[at] = items[i].first;
      e.n_points++;
    }
  e.kf = g_new (int, MAX (n, 1));
  e.kl = g_new (int, MAX (n, 1));
  e.rem = g_new0 (guint64, MAX (e.n_points, 1));
  e.maxtop = g_new0 (guint64, MAX (e.n_points, 1));
  for (int i = 0; i < n; i++)
    {
      e.kf[i] = e.n_points, e.kl[i] = -1;
      for (int k = 0; k < e.n_points; k++)
        if (points[k] >= items[i].first && points[k] <= items[i].last)
          {
            e.kf[i] = MIN (e.kf[i], k), e.kl[i] = k;
            e.rem[k] += items[i].size;
          }
    }
  e.offsets = g_new0 (guint64, MAX (n, 1));
  e.placed = g_new (int, MAX (n, 1));
  e.is_placed = g_new0 (guint8, MAX (n, 1));
  e.scratch = g_new (Span, MAX (n, 1));
  e.best = upper;
  e.best_offsets = best_offsets;
  e.budget = *budget;
  exact_dfs (&e, 0, 0, 0);
  *budget = e.budget;
  if (e.best < upper)
    memcpy (offsets, best_offsets, sizeof (guint64) * n);
  *complete = !e.exhausted;
  g_free (e.kf);
  g_free (e.kl);
  g_free (e.rem);
  g_free (e.maxtop);
  g_free (e.offsets);
  g_free (e.placed);
  g_free (e.is_placed);
  g_free (e.scratch);
  return e.best;
}

/* ---- local search over placement orders ---- */

static gint
compare_offset (gconstpointer a, gconstpointer b, gpointer data)
{
  const guint64 *offsets = data;
  int x = *(const int *) a, y = *(const int *) b;
  if (offsets[x] != offsets[y])
    return offsets[x] < offsets[y] ? -1 : 1;
  return x - y;
}

/* First fit of @order at the lowest offsets; returns the peak. */
static guint64
decode (const Item *items, int n, const int *order, guint64 *offsets, Span *scratch)
{
  guint64 peak = 0;

  for (int k = 0; k < n; k++)
    {
      int x = order[k];
      offsets[x] = lowest_fit (items, offsets, order, k, x, 0, scratch);
      peak = MAX (peak, offsets[x] + items[x].size);
    }
  return peak;
}

/* Moves in the order of a packing: a buffer reaching the peak to an earlier
 * place, or two buffers swapped; kept when the peak does not rise. Returns
 * the best peak and leaves its packing in @offsets. */
static guint64
local_search (const Item *items, int n, guint64 *offsets, guint64 bound, guint64 *budget)
{
  g_autofree int *order = g_new (int, MAX (n, 1)), *trial = g_new (int, MAX (n, 1));
  g_autofree guint64 *work = g_new (guint64, MAX (n, 1));
  g_autofree Span *scratch = g_new (Span, MAX (n, 1));
  g_autoptr (GRand) rand = g_rand_new_with_seed (13);
  guint64 best;

  /* Start from the packing's order by offset: first fit keeps every buffer
   * at or below its place there, so the peak cannot rise. */
  for (int i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (int), compare_offset, offsets);
  best = decode (items, n, order, work, scratch);
  memcpy (offsets, work, sizeof (guint64) * n);
  while (best > bound && *budget >= (guint64) n && n > 1)
    {
      int a = g_rand_int_range (rand, 0, n), b = g_rand_int_range (rand, 0, n);
      guint64 peak;
      *budget -= (guint64) n;
      memcpy (trial, order, sizeof (int) * n);
      if (g_rand_boolean (rand))
        {
          /* A buffer at the peak, moved earlier. */
          int tops = 0, pick;
          for (int k = 0; k < n; k++)
            tops += offsets[order[k]] + items[order[k]].size == best;
          pick = g_rand_int_range (rand, 0, MAX (tops, 1));
          for (int k = 0; k < n; k++)
            if (offsets[order[k]] + items[order[k]].size == best && pick-- == 0)
              a = k;
          b = g_rand_int_range (rand, 0, a + 1);
          memmove (trial + b + 1, order + b, sizeof (int) * (a - b));
          trial[b] = order[a];
        }
      else
        {
          int t = trial[a];
          trial[a] = trial[b], trial[b] = t;
        }
      peak = decode (items, n, trial, work, scratch);
      if (peak <= best)
        {
          best = peak;
          memcpy (order, trial, sizeof (int) * n);
          memcpy (offsets, work, sizeof (guint64) * n);
        }
    }
  return best;
}

/* ---- groups ---- */

static gint
compare_first (gconstpointer a, gconstpointer b, gpointer data)
{
  const Item *x = a, *y = b;
  if (x->first != y->first)
    return x->first < y->first ? -1 : 1;
  return x->index - y->index;
}

static guint64
items_load (const Item *items, int n)
{
  g_autofree PvBufferLife *b = g_new (PvBufferLife, MAX (n, 1));
  for (int i = 0; i < n; i++)
    b[i] = (PvBufferLife) { items[i].size, items[i].first, items[i].last };
  return pv_buffers_load (b, n, 1);
}

guint64
pv_arena_exact_peak (const PvBufferLife *buffers, int n, guint64 alignment, guint64 *offsets)
{
  g_autofree Item *items = NULL;
  g_autofree guint64 *found = NULL;
  gboolean complete;
  guint64 peak, unlimited = G_MAXUINT64;

  if (n > PV_ARENA_EXACT_MAX)
    return G_MAXUINT64;
  if (n == 0)
    return 0;
  items = g_new (Item, n);
  found = g_new0 (guint64, n);
  for (int i = 0; i < n; i++)
    items[i] = (Item) { pv_buffer_aligned_size (buffers[i].size, alignment), buffers[i].first, buffers[i].last, i };
  peak = exact_solve (items, n, G_MAXUINT64, found, &unlimited, &complete);
  if (offsets)
    memcpy (offsets, found, sizeof (guint64) * n);
  return peak;
}

/* Searches one group (@items, with their offsets in @offsets by caller's
 * index) and returns its proven lower bound; its peak in *@peak. */
static guint64
search_group (Item *items, int m, guint64 *offsets, guint64 *peak, guint64 *budget)
{
  g_autofree guint64 *local = g_new (guint64, MAX (m, 1));
  guint64 bound = items_load (items, m), found;

  for (int i = 0; i < m; i++)
    local[i] = offsets[items[i].index];
  if (m <= PV_ARENA_EXACT_MAX)
    {
      gboolean complete;
      found = exact_solve (items, m, *peak, local, budget, &complete);
      if (found < *peak)
        *peak = found;
      if (complete)
        bound = *peak;
    }
  else
    *peak = MIN (*peak, local_search (items, m, local, bound, budget));
  for (int i = 0; i < m; i++)
    offsets[items[i].index] = local[i];
  return bound;
}

void
pv_arena_search (const PvBufferLife *buffers, int n, guint64 alignment, guint64 *offsets, guint64 peak_bytes,
                 guint64 budget, PvArenaSearchResult *result)
{
  g_autofree Item *items = g_new (Item, MAX (n, 1));
  g_autofree int *group_start = g_new (int, n + 1);
  int n_groups = 0;
  guint64 bound = 0, peak = 0;

  *result = (PvArenaSearchResult) { peak_bytes, 0, FALSE, FALSE };
  /* Items by first step; a group ends where no earlier item is still live. */
  for (int i = 0; i < n; i++)
    items[i] = (Item) { pv_buffer_aligned_size (buffers[i].size, alignment), buffers[i].first, buffers[i].last, i };
  g_qsort_with_data (items, n, sizeof (Item), compare_first, NULL);
  for (int i = 0, reach = G_MININT; i < n; i++)
    {
      if (items[i].first > reach)
        group_start[n_groups++] = i;
      reach = MAX (reach, items[i].last);
    }
  group_start[n_groups] = n;
  /* Each group's bound; then the groups at the peak, highest first, are
   * searched while they stand above the bound. */
  {
    g_autofree guint64 *g_peak = g_new0 (guint64, MAX (n_groups, 1));
    g_autofree guint64 *g_bound = g_new0 (guint64, MAX (n_groups, 1));
    g_autofree guint8 *searched = g_new0 (guint8, MAX (n_groups, 1));
    for (int g = 0; g < n_groups; g++)
      {
        for (int i = group_start[g]; i < group_start[g + 1]; i++)
          g_peak[g] = MAX (g_peak[g], offsets[items[i].index] + items[i].size);
        g_bound[g] = items_load (items + group_start[g], group_start[g + 1] - group_start[g]);
        bound = MAX (bound, g_bound[g]);
      }
    for (;;)
      {
        int top = -1;
        for (int g = 0; g < n_groups; g++)
          if (top < 0 || g_peak[g] > g_peak[top])
            top = g;
        if (top < 0 || g_peak[top] <= bound || g_bound[top] >= g_peak[top] || budget == 0 || searched[top] ||
            group_start[top + 1] - group_start[top] > PV_ARENA_SEARCH_MAX)
          break;
        searched[top] = TRUE;
        g_bound[top] = search_group (items + group_start[top], group_start[top + 1] - group_start[top], offsets,
                                     &g_peak[top], &budget);
        bound = MAX (bound, g_bound[top]);
      }
    for (int g = 0; g < n_groups; g++)
      peak = MAX (peak, g_peak[g]);
  }
  result->peak_bytes = MIN (peak, peak_bytes);
  result->lower_bound_bytes = MIN (bound, result->peak_bytes);
  result->optimal = result->peak_bytes == result->lower_bound_bytes;
  result->improved = result->peak_bytes < peak_bytes;
}
