/* test-arena-search.c: the arena planner past its heuristics
 * (pv-arena-search) against a brute-force optimum on small random
 * instances, seeded (PV_TEST_SEED overrides). */
#include <stdlib.h>
#include <string.h>

#include "pv-arena-planner.h"
#include "pv-arena-search.h"
#include "pv-test-seed.h"

#define ALIGN 64

/* Every buffer at every aligned offset up to the sum of sizes, depth
 * first; infeasible prefixes and those no lower than the best so far are
 * cut. */
static void
brute (const PvBufferLife *b, int n, int k, guint64 *off, guint64 limit, guint64 peak, guint64 *best)
{
  if (peak >= *best)
    return;
  if (k == n)
    {
      *best = peak;
      return;
    }
  for (guint64 o = 0; o + b[k].size <= limit && o + b[k].size < *best; o += ALIGN)
    {
      gboolean ok = TRUE;
      for (int j = 0; j < k && ok; j++)
        if (b[j].first <= b[k].last && b[k].first <= b[j].last && o < off[j] + b[j].size && off[j] < o + b[k].size)
          ok = FALSE;
      if (!ok)
        continue;
      off[k] = o;
      brute (b, n, k + 1, off, limit, MAX (peak, o + b[k].size), best);
    }
}

static int
larger_first (const void *a, const void *b)
{
  guint64 x = ((const PvBufferLife *) a)->size, y = ((const PvBufferLife *) b)->size;
  return x < y ? 1 : x > y ? -1 : 0;
}

/* The optimum, if it is at most @upper (a peak some packing reaches: the
 * search below it stays exhaustive); @upper itself otherwise. */
static guint64
brute_optimum (const PvBufferLife *b, int n, guint64 upper)
{
  guint64 off[10], limit = 0, best = upper + 1;
  PvBufferLife sorted[10];

  for (int i = 0; i < n; i++)
    limit += b[i].size;
  /* Largest first: the same search space, cut much earlier. */
  memcpy (sorted, b, sizeof (PvBufferLife) * n);
  qsort (sorted, n, sizeof (PvBufferLife), larger_first);
  brute (sorted, n, 0, off, limit, 0, &best);
  return n ? best : 0;
}

/* No two buffers live at once share bytes; returns the peak. */
static guint64
check_packing (const PvBufferLife *b, int n, const guint64 *off)
{
  guint64 peak = 0;
  for (int i = 0; i < n; i++)
    {
      g_assert_cmpuint (off[i] % ALIGN, ==, 0);
      peak = MAX (peak, off[i] + b[i].size);
      for (int j = 0; j < i; j++)
        if (b[j].first <= b[i].last && b[i].first <= b[j].last)
          g_assert_true (off[i] >= off[j] + b[j].size || off[j] >= off[i] + b[i].size);
    }
  return peak;
}

static int
random_instance (GRand *rand, PvBufferLife *b, int max_n, int max_units)
{
  int n = g_rand_int_range (rand, 1, max_n + 1);
  for (int i = 0; i < n; i++)
    {
      int first = g_rand_int_range (rand, 0, 6);
      b[i] = (PvBufferLife) { (guint64) g_rand_int_range (rand, 1, max_units + 1) * ALIGN, first,
                              first + g_rand_int_range (rand, 0, 4) };
    }
  return n;
}

/* The orderings alone, without the search. */
static PvArenaPlan *
heuristics_only (const PvBufferLife *b, int n)
{
  PvArenaPacking *p = pv_arena_packing_new_with_budget (b, n, ALIGN, 0);
  pv_arena_packing_work (p);
  return pv_arena_packing_finish (p);
}

/* The exact search finds the brute-force optimum, with a valid packing. */
static void
test_exact_against_brute_force (void)
{
  g_autoptr (GRand) rand = pv_test_rand_new (0xa5e4a);

  for (int round = 0; round < 300; round++)
    {
      PvBufferLife b[8];
      guint64 off[8];
      int n = random_instance (rand, b, 7, 5);
      guint64 peak = pv_arena_exact_peak (b, n, ALIGN, off);
      guint64 best = brute_optimum (b, n, check_packing (b, n, off));
      g_assert_cmpuint (peak, ==, best);
      g_assert_cmpuint (check_packing (b, n, off), ==, best);
    }
}

/* The planner with its search: never below the optimum, its bound never
 * above it, "optimal" only when it is; on instances this small the search
 * is exact, so the plan is optimal. */
static void
test_plan_against_brute_force (void)
{
  g_autoptr (GRand) rand = pv_test_rand_new (0x5ea7c);
  int improved = 0;

  for (int round = 0; round < 250; round++)
    {
      PvBufferLife b[10];
      int n = random_instance (rand, b, 8, 7);
      g_autoptr (PvArenaPlan) heuristic = heuristics_only (b, n);
      guint64 best = brute_optimum (b, n, check_packing (b, n, heuristic->offsets));
      g_autoptr (PvArenaPlan) plan = pv_arena_plan_new (b, n, ALIGN);
      g_assert_cmpuint (check_packing (b, n, plan->offsets), ==, plan->peak_bytes);
      g_assert_cmpuint (plan->peak_bytes, >=, best);
      g_assert_cmpuint (plan->bound_bytes, <=, best);
      g_assert_cmpuint (plan->peak_bytes, ==, best);
      g_assert_true (plan->optimal);
      g_assert_cmpuint (heuristic->bound_bytes, <=, best);
      g_assert_true (!heuristic->optimal || heuristic->peak_bytes == best);
      improved += heuristic->peak_bytes > best;
    }
  /* Some instances beat the orderings, or this test shows nothing. */
  g_test_message ("%d of 250 instances where the orderings alone miss the optimum", improved);
  g_assert_cmpint (improved, >, 0);
}

/* A larger group gets the local search: never worse than the packing it
 * starts from, valid, and deterministic. */
static void
test_local_search (void)
{
  g_autoptr (GRand) rand = pv_test_rand_new (0x10ca1);

  for (int round = 0; round < 20; round++)
    {
      PvBufferLife b[120];
      guint64 off[120], off2[120];
      PvArenaSearchResult r, r2;
      int n = 40 + g_rand_int_range (rand, 0, 80);
      g_autoptr (PvArenaPlan) start = NULL;

      for (int i = 0; i < n; i++)
        {
          int first = g_rand_int_range (rand, 0, 60);
          b[i] = (PvBufferLife) { (guint64) g_rand_int_range (rand, 1, 40) * ALIGN, first,
                                  first + g_rand_int_range (rand, 0, 12) };
        }
      start = heuristics_only (b, n);
      memcpy (off, start->offsets, sizeof (guint64) * n);
      memcpy (off2, start->offsets, sizeof (guint64) * n);
      pv_arena_search (b, n, ALIGN, off, start->peak_bytes, 200000, &r);
      pv_arena_search (b, n, ALIGN, off2, start->peak_bytes, 200000, &r2);
      g_assert_cmpuint (r.peak_bytes, <=, start->peak_bytes);
      g_assert_cmpuint (check_packing (b, n, off), ==, r.peak_bytes);
      g_assert_cmpuint (r.lower_bound_bytes, >=, start->load_bytes);
      g_assert_cmpuint (r.lower_bound_bytes, <=, r.peak_bytes);
      g_assert_cmpuint (r.peak_bytes, ==, r2.peak_bytes);
      g_assert_cmpmem (off, sizeof (guint64) * n, off2, sizeof (guint64) * n);
    }
}

int
main (int argc, char **argv)
{
  pv_test_init (&argc, &argv, 0x5ea);
  g_test_add_func ("/arena-search/exact-vs-brute-force", test_exact_against_brute_force);
  g_test_add_func ("/arena-search/plan-vs-brute-force", test_plan_against_brute_force);
  g_test_add_func ("/arena-search/local-search", test_local_search);
  return g_test_run ();
}
