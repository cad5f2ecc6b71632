/* pv-arena-wide.c: unions of placed spans over a segment tree of steps
 * (see the header). */
#include "pv-arena-wide-private.h"

#include <string.h>

void
pv_arena_wide_init (PvArenaWide *w, int min_step, int max_step)
{
  *w = (PvArenaWide) { .min_step = min_step, .n_leaves = 1 };
  while (w->n_leaves < max_step - min_step + 1)
    w->n_leaves <<= 1, w->depth++;
  w->starting = g_new0 (PvArenaUnion, 2 * (gsize) w->n_leaves);
  w->covering = g_new0 (PvArenaUnion, 2 * (gsize) w->n_leaves);
}

void
pv_arena_wide_clear (PvArenaWide *w)
{
  for (int k = 0; k < 2 * w->n_leaves; k++)
    {
      g_free (w->starting[k].items);
      g_free (w->covering[k].items);
    }
  g_free (w->starting);
  g_free (w->covering);
}

void
pv_arena_wide_reset (PvArenaWide *w)
{
  for (int k = 0; k < 2 * w->n_leaves; k++)
    w->starting[k].len = w->covering[k].len = 0;
}

/* Merges [@start, @end) into @u: the spans it overlaps or touches become
 * one. */
static void
union_add (PvArenaUnion *u, guint64 start, guint64 end)
{
  int lo = 0, hi = u->len, j;

  /* The first span ending at or after @start: the first that may merge. */
  if (hi > 0 && u->items[hi - 1].end < start)
    lo = hi;
  while (lo < hi)
    {
      int mid = lo + (hi - lo) / 2;
      if (u->items[mid].end < start)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (j = lo; j < u->len && u->items[j].start <= end; j++)
    {
      start = MIN (start, u->items[j].start);
      end = MAX (end, u->items[j].end);
    }
  if (j == lo)
    {
      if (u->len == u->cap)
        {
          u->cap = MAX (1, 2 * u->cap);
          u->items = g_renew (PvArenaPlaced, u->items, u->cap);
        }
      memmove (u->items + lo + 1, u->items + lo, sizeof (PvArenaPlaced) * (u->len - lo));
      u->len++;
    }
  else if (j > lo + 1)
    {
      memmove (u->items + lo + 1, u->items + j, sizeof (PvArenaPlaced) * (u->len - j));
      u->len -= j - lo - 1;
    }
  u->items[lo] = (PvArenaPlaced) { start, end, G_MININT, G_MAXINT };
}

void
pv_arena_wide_add (PvArenaWide *w, int first, int last, guint64 start, guint64 end)
{
  int lo = first - w->min_step + w->n_leaves, hi = last - w->min_step + w->n_leaves + 1;

  for (int k = lo; k >= 1; k >>= 1)
    union_add (&w->starting[k], start, end);
  /* The nodes that cover [first, last] and whose parents do not. */
  for (; lo < hi; lo >>= 1, hi >>= 1)
    {
      if (lo & 1)
        union_add (&w->covering[lo++], start, end);
      if (hi & 1)
        union_add (&w->covering[--hi], start, end);
    }
}

int
pv_arena_wide_live_during (const PvArenaWide *w, int first, int last, const PvArenaUnion **unions)
{
  int n = 0;
  int lo = first - w->min_step + w->n_leaves + 1, hi = last - w->min_step + w->n_leaves + 1;

  /* Live at first: the unions of the nodes over its leaf. */
  for (int k = lo - 1; k >= 1; k >>= 1)
    if (w->covering[k].len > 0)
      unions[n++] = &w->covering[k];
  /* Starting in (first, last]: the nodes under it whose parents are not. */
  for (; lo < hi; lo >>= 1, hi >>= 1)
    {
      const PvArenaUnion *left = lo & 1 ? &w->starting[lo++] : NULL;
      const PvArenaUnion *right = hi & 1 ? &w->starting[--hi] : NULL;
      if (left && left->len > 0)
        unions[n++] = left;
      if (right && right->len > 0)
        unions[n++] = right;
    }
  return n;
}
