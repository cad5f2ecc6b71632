/* Arena offsets: never overlapping while both live, aligned, >= LOAD. */
#include "pv-arena-planner-private.h"
#include "pv-test-seed.h"

#include <string.h>
#include <time.h>

static void
check_plan (const PvBufferLife *b, int n, guint64 alignment, const PvArenaPlan *plan)
{
  guint64 peak = 0;

  for (int i = 0; i < n; i++)
    {
      guint64 size_i = (b[i].size + alignment - 1) & ~(alignment - 1);
      g_assert_cmpuint (plan->offsets[i] % alignment, ==, 0);
      peak = MAX (peak, plan->offsets[i] + size_i);
      for (int j = i + 1; j < n; j++)
        {
          guint64 size_j = (b[j].size + alignment - 1) & ~(alignment - 1);
          gboolean together = b[i].first <= b[j].last && b[j].first <= b[i].last;
          gboolean overlap = plan->offsets[i] < plan->offsets[j] + size_j && plan->offsets[j] < plan->offsets[i] + size_i;
          if (together && overlap && size_i > 0 && size_j > 0)
            g_error ("buffers %d [%d,%d] and %d [%d,%d] overlap at offsets %" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT,
                     i, b[i].first, b[i].last, j, b[j].first, b[j].last, plan->offsets[i], plan->offsets[j]);
        }
    }
  g_assert_cmpuint (plan->peak_bytes, ==, peak);
  g_assert_cmpuint (plan->peak_bytes, >=, plan->load_bytes);
}

static void
test_basic (void)
{
  /* a and b never live together; c overlaps both. */
  const PvBufferLife b[] = { { 100, 0, 1 }, { 100, 2, 3 }, { 50, 1, 2 } };
  g_autoptr (PvArenaPlan) plan = pv_arena_plan_new (b, 3, 1);

  check_plan (b, 3, 1, plan);
  g_assert_cmpuint (plan->offsets[0], ==, plan->offsets[1]);
  g_assert_cmpuint (plan->peak_bytes, ==, 150);
  g_assert_cmpuint (plan->load_bytes, ==, 150);
  g_assert_cmpuint (pv_buffers_load (b, 3, 1), ==, 150);
}

static void
test_alignment (void)
{
  const PvBufferLife b[] = { { 1, 0, 0 }, { 1, 0, 0 }, { 65, 0, 0 } };
  g_autoptr (PvArenaPlan) plan = pv_arena_plan_new (b, 3, 64);

  check_plan (b, 3, 64, plan);
  g_assert_cmpuint (plan->peak_bytes, ==, 64 + 64 + 128);
  g_assert_cmpuint (pv_buffers_load (b, 3, 1), ==, 67);
}

static void
test_empty (void)
{
  g_autoptr (PvArenaPlan) plan = pv_arena_plan_new (NULL, 0, 64);
  g_assert_cmpuint (plan->peak_bytes, ==, 0);
  g_assert_cmpuint (plan->load_bytes, ==, 0);
}

/* The gap between two live buffers is reused by a smaller one. */
static void
test_fills_gaps (void)
{
  const PvBufferLife b[] = {
    { 100, 0, 10 },  /* long */
    { 100, 0, 2 },   /* short, leaves a hole after step 2 */
    { 100, 0, 10 },  /* long */
    { 80, 4, 6 },    /* fits into the hole */
  };
  g_autoptr (PvArenaPlan) plan = pv_arena_plan_new (b, 4, 1);

  check_plan (b, 4, 1, plan);
  g_assert_cmpuint (plan->peak_bytes, ==, 300);
}

static void
test_random_property (void)
{
  g_autoptr (GRand) rand = pv_test_rand_new (42);

  for (int round = 0; round < 300; round++)
    {
      int n = g_rand_int_range (rand, 1, 60), steps = g_rand_int_range (rand, 1, 40);
      g_autofree PvBufferLife *b = g_new (PvBufferLife, n);
      g_autoptr (PvArenaPlan) plan = NULL;
      guint64 alignment = 1u << g_rand_int_range (rand, 0, 7);

      for (int i = 0; i < n; i++)
        {
          b[i].first = g_rand_int_range (rand, -1, steps);
          b[i].last = b[i].first + g_rand_int_range (rand, 0, steps / 2 + 1);
          b[i].size = g_rand_int_range (rand, 0, 4096);
        }
      plan = pv_arena_plan_new (b, n, alignment);
      check_plan (b, n, alignment, plan);
    }
}

/* A plain restatement of the planner (pv-arena-planner.h): every ordering
 * by qsort with the documented ties, and each buffer placed after scanning
 * all placed ones. The planner's indexed packing must match it exactly. */
typedef struct {
  const PvBufferLife *b;
  const guint64 *sizes;   /* aligned, or jittered for one ordering */
} RefData;

static int
ref_tie (const RefData *d, int a, int b)
{
  if (d->b[a].first != d->b[b].first)
    return d->b[a].first < d->b[b].first ? -1 : 1;
  return (a > b) - (a < b);
}

static int
ref_by_size (const void *x, const void *y, void *data)
{
  const RefData *d = data;
  int a = *(const int *) x, b = *(const int *) y;
  if (d->sizes[a] != d->sizes[b])
    return d->sizes[a] > d->sizes[b] ? -1 : 1;
  return ref_tie (d, a, b);
}

static int
ref_by_duration (const void *x, const void *y, void *data)
{
  const RefData *d = data;
  int a = *(const int *) x, b = *(const int *) y;
  int da = d->b[a].last - d->b[a].first, db = d->b[b].last - d->b[b].first;
  if (da != db)
    return da > db ? -1 : 1;
  return ref_by_size (x, y, data);
}

static int
ref_by_area (const void *x, const void *y, void *data)
{
  const RefData *d = data;
  int a = *(const int *) x, b = *(const int *) y;
  double aa = (double) d->sizes[a] * (d->b[a].last - d->b[a].first + 1);
  double ab = (double) d->sizes[b] * (d->b[b].last - d->b[b].first + 1);
  if (aa != ab)
    return aa > ab ? -1 : 1;
  return ref_by_size (x, y, data);
}

static int
ref_by_start (const void *x, const void *y, void *data)
{
  const RefData *d = data;
  int a = *(const int *) x, b = *(const int *) y;
  if (d->b[a].first != d->b[b].first)
    return d->b[a].first < d->b[b].first ? -1 : 1;
  return ref_by_size (x, y, data);
}

static int
ref_by_offset (const void *x, const void *y, void *data)
{
  const guint64 *offsets = data;
  guint64 a = offsets[*(const int *) x], b = offsets[*(const int *) y];
  return (a > b) - (a < b);
}

/* Each buffer in @order at the start of the smallest gap that fits among
 * the placed buffers live with it, else after all of them. */
static guint64
ref_pack (const PvBufferLife *b, const guint64 *sizes, int n, const int *order, guint64 *offsets)
{
  g_autofree gboolean *placed = g_new0 (gboolean, n);
  g_autofree int *live = g_new (int, n);
  guint64 peak = 0;

  for (int k = 0; k < n; k++)
    {
      int i = order[k], n_live = 0;
      guint64 cursor = 0, best_gap = G_MAXUINT64, best_offset = 0;
      gboolean found = FALSE;
      for (int j = 0; j < n; j++)
        if (placed[j] && b[j].first <= b[i].last && b[i].first <= b[j].last)
          live[n_live++] = j;
      g_qsort_with_data (live, n_live, sizeof (int), ref_by_offset, offsets);
      for (int m = 0; m < n_live; m++)
        {
          guint64 start = offsets[live[m]];
          if (start > cursor && start - cursor >= sizes[i] && start - cursor < best_gap)
            {
              best_gap = start - cursor;
              best_offset = cursor;
              found = TRUE;
            }
          cursor = MAX (cursor, start + sizes[live[m]]);
        }
      offsets[i] = found ? best_offset : cursor;
      placed[i] = TRUE;
      peak = MAX (peak, offsets[i] + sizes[i]);
    }
  return peak;
}

/* Steps by live bytes, most first; at each, its buffers not yet taken,
 * largest first. */
static void
ref_breadth_order (const RefData *d, int n, int *order)
{
  int lo = 0, hi = 0, n_steps, taken_count = 0;
  g_autofree gint64 *breadth = NULL;
  g_autofree int *steps = NULL;
  g_autofree gboolean *taken = g_new0 (gboolean, n);

  for (int i = 0; i < n; i++)
    {
      lo = MIN (lo, d->b[i].first);
      hi = MAX (hi, d->b[i].last);
    }
  n_steps = hi - lo + 1;
  breadth = g_new0 (gint64, n_steps);
  steps = g_new (int, n_steps);
  for (int s = 0; s < n_steps; s++)
    {
      steps[s] = s;
      for (int i = 0; i < n; i++)
        if (d->b[i].first <= s + lo && s + lo <= d->b[i].last)
          breadth[s] += (gint64) d->sizes[i];
    }
  for (int x = 1; x < n_steps; x++)  /* insertion sort: breadth descending, then step */
    for (int y = x; y > 0 && breadth[steps[y]] > breadth[steps[y - 1]]; y--)
      {
        int t = steps[y];
        steps[y] = steps[y - 1];
        steps[y - 1] = t;
      }
  for (int k = 0; k < n_steps; k++)
    {
      int s = steps[k] + lo, first = taken_count;
      for (int i = 0; i < n; i++)
        if (!taken[i] && d->b[i].first <= s && s <= d->b[i].last)
          {
            taken[i] = TRUE;
            order[taken_count++] = i;
          }
      g_qsort_with_data (order + first, taken_count - first, sizeof (int), ref_by_size, (gpointer) d);
    }
}

static void
ref_try (guint64 peak, const char *name, const guint64 *offsets, int n, guint64 *best_peak, const char **best_name,
         guint64 *best)
{
  if (peak < *best_peak)
    {
      *best_peak = peak;
      *best_name = name;
      memcpy (best, offsets, sizeof (guint64) * n);
    }
}

static PvArenaPlan *
ref_plan (const PvBufferLife *b, int n, guint64 alignment)
{
  static const struct {
    const char *name;
    int (*compare) (const void *, const void *, void *);
  } orderings[] = {
    { "largest first", ref_by_size },
    { "longest first", ref_by_duration },
    { "largest area first", ref_by_area },
    { "earliest first", ref_by_start },
  };
  PvArenaPlan *plan = g_new0 (PvArenaPlan, 1);
  g_autofree guint64 *sizes = g_new (guint64, MAX (n, 1));
  g_autofree guint64 *jittered = g_new (guint64, MAX (n, 1));
  g_autofree guint64 *offsets = g_new0 (guint64, MAX (n, 1));
  g_autofree int *order = g_new (int, MAX (n, 1));
  g_autoptr (GRand) rand = pv_test_rand_new (1);
  RefData d = { b, sizes };
  int restarts = n <= 2000 ? 48 : n <= 20000 ? 4 : 0;

  for (int i = 0; i < n; i++)
    sizes[i] = (b[i].size + alignment - 1) & ~(alignment - 1);
  plan->offsets = g_new0 (guint64, MAX (n, 1));
  plan->peak_bytes = G_MAXUINT64;
  plan->load_bytes = pv_buffers_load (b, n, alignment);
  for (gsize o = 0; o < G_N_ELEMENTS (orderings) && plan->peak_bytes > plan->load_bytes; o++)
    {
      for (int i = 0; i < n; i++)
        order[i] = i;
      g_qsort_with_data (order, n, sizeof (int), orderings[o].compare, &d);
      ref_try (ref_pack (b, sizes, n, order, offsets), orderings[o].name, offsets, n, &plan->peak_bytes,
               &plan->ordering, plan->offsets);
    }
  if (n > 0 && plan->peak_bytes > plan->load_bytes)
    {
      ref_breadth_order (&d, n, order);
      ref_try (ref_pack (b, sizes, n, order, offsets), "greedy by breadth", offsets, n, &plan->peak_bytes,
               &plan->ordering, plan->offsets);
    }
  for (int r = 0; r < restarts && plan->peak_bytes > plan->load_bytes; r++)
    {
      RefData jd = { b, jittered };
      for (int i = 0; i < n; i++)
        jittered[i] = (guint64) (sizes[i] * g_rand_double_range (rand, 0.75, 1.25));
      for (int i = 0; i < n; i++)
        order[i] = i;
      g_qsort_with_data (order, n, sizeof (int), ref_by_size, &jd);
      ref_try (ref_pack (b, sizes, n, order, offsets), "largest first, jittered restart", offsets, n,
               &plan->peak_bytes, &plan->ordering, plan->offsets);
    }
  if (n == 0)
    plan->peak_bytes = 0;
  return plan;
}

static gpointer
packing_work (gpointer packing)
{
  pv_arena_packing_work (packing);
  return NULL;
}

/* The plan packed by @n_threads threads at once (the caller and others),
 * the gap search reading @index. */
static PvArenaPlan *
packed_by_threads (const PvBufferLife *b, int n, guint64 alignment, int n_threads, PvArenaIndex index)
{
  PvArenaPacking *packing = pv_arena_packing_new_with_index (b, n, alignment, 0, index);
  GThread *threads[4];

  g_assert (n_threads >= 1 && n_threads <= (int) G_N_ELEMENTS (threads) + 1);
  for (int t = 0; t < n_threads - 1; t++)
    threads[t] = g_thread_new ("packing", packing_work, packing);
  pv_arena_packing_work (packing);
  for (int t = 0; t < n_threads - 1; t++)
    g_thread_join (threads[t]);
  return pv_arena_packing_finish (packing);
}

/* Random buffer sets of every shape the packing indexes differently: short
 * and long lifetimes over many time blocks, a few sizes (ties, exact fits)
 * or many, empty buffers, buffers live before the first step. */
static void
test_matches_reference (void)
{
  g_autoptr (GRand) rand = pv_test_rand_new (7);

  for (int round = 0; round < 120; round++)
    {
      int n = round == 0 ? 2100 : g_rand_int_range (rand, 0, 160);
      int steps = g_rand_int_range (rand, 1, round % 3 == 0 ? 40 : 900);
      int long_share = g_rand_int_range (rand, 0, 4);   /* in 8ths */
      gboolean few_sizes = g_rand_boolean (rand);
      guint64 alignment = 1u << g_rand_int_range (rand, 0, 7);
      g_autofree PvBufferLife *b = g_new (PvBufferLife, MAX (n, 1));
      g_autoptr (PvArenaPlan) plan = NULL;
      g_autoptr (PvArenaPlan) ref = NULL;

      for (int i = 0; i < n; i++)
        {
          int span = g_rand_int_range (rand, 0, 8) < long_share ? steps : MAX (steps / 30, 2);
          b[i].first = g_rand_int_range (rand, -1, steps);
          b[i].last = b[i].first + g_rand_int_range (rand, 0, span);
          b[i].size = few_sizes ? (guint64) g_rand_int_range (rand, 0, 4) * 64 : (guint64) g_rand_int_range (rand, 0, 5000);
        }
      /* The orderings against the reference; the search after them (its
       * own test is test-arena-search) only ever lowers their peak. */
      plan = packed_by_threads (b, n, alignment, 1, PV_ARENA_INDEX_AUTO);
      ref = ref_plan (b, n, alignment);
      {
        g_autoptr (PvArenaPlan) searched = pv_arena_plan_new (b, n, alignment);
        g_assert_cmpuint (searched->peak_bytes, <=, ref->peak_bytes);
        g_assert_cmpuint (searched->bound_bytes, <=, searched->peak_bytes);
        g_assert_cmpuint (searched->bound_bytes, >=, ref->load_bytes);
      }
      g_assert_cmpuint (plan->peak_bytes, ==, ref->peak_bytes);
      g_assert_cmpuint (plan->load_bytes, ==, ref->load_bytes);
      g_assert_cmpstr (plan->ordering, ==, ref->ordering);
      for (int i = 0; i < n; i++)
        g_assert_cmpuint (plan->offsets[i], ==, ref->offsets[i]);
      /* Orderings shared among threads, whichever packs which: the same
       * plan; and the same from the wide index's unions as from the blocks. */
      for (PvArenaIndex index = PV_ARENA_INDEX_BLOCKS; index <= PV_ARENA_INDEX_WIDE; index++)
        {
          g_autoptr (PvArenaPlan) shared = packed_by_threads (b, n, alignment, 1 + round % 4, index);
          g_assert_cmpuint (shared->peak_bytes, ==, ref->peak_bytes);
          g_assert_cmpstr (shared->ordering, ==, ref->ordering);
          for (int i = 0; i < n; i++)
            g_assert_cmpuint (shared->offsets[i], ==, ref->offsets[i]);
        }
    }
}

/* Larger sets than the reference can take, most buffers live with most
 * others (long lifetimes, a step that all share, runs of equal sizes, empty
 * buffers): the wide index and the blocks give the same plan. */
static void
test_wide_matches_blocks (void)
{
  g_autoptr (GRand) rand = pv_test_rand_new (11);

  for (int round = 0; round < 40; round++)
    {
      int n = g_rand_int_range (rand, 1, 3000), steps = g_rand_int_range (rand, 1, 5000);
      int shared_step = g_rand_int_range (rand, 0, steps);
      guint64 alignment = 1u << g_rand_int_range (rand, 0, 7);
      int n_sizes = g_rand_int_range (rand, 1, 40);
      g_autofree PvBufferLife *b = g_new (PvBufferLife, n);
      g_autoptr (PvArenaPlan) blocks = NULL;
      g_autoptr (PvArenaPlan) wide = NULL;

      for (int i = 0; i < n; i++)
        {
          b[i].first = g_rand_int_range (rand, -1, steps);
          b[i].last = b[i].first + g_rand_int_range (rand, 0, steps);
          if (g_rand_boolean (rand))  /* through the shared step */
            b[i].first = MIN (b[i].first, shared_step), b[i].last = MAX (b[i].last, shared_step);
          b[i].size = (guint64) g_rand_int_range (rand, 0, n_sizes) * g_rand_int_range (rand, 1, 3) * 48;
        }
      blocks = packed_by_threads (b, n, alignment, 2, PV_ARENA_INDEX_BLOCKS);
      wide = packed_by_threads (b, n, alignment, 2, PV_ARENA_INDEX_WIDE);
      g_assert_cmpuint (wide->peak_bytes, ==, blocks->peak_bytes);
      g_assert_cmpstr (wide->ordering, ==, blocks->ordering);
      for (int i = 0; i < n; i++)
        g_assert_cmpuint (wide->offsets[i], ==, blocks->offsets[i]);
    }
}

/* CPU seconds (clock (): a loaded machine does not fail it) to plan an
 * @n-way fan-out: buffer i from step i to the last, all live at the end. */
static double
fan_out_seconds (int n, PvArenaIndex index)
{
  g_autofree PvBufferLife *b = g_new (PvBufferLife, n);
  clock_t t0;

  for (int i = 0; i < n; i++)
    b[i] = (PvBufferLife) { 16, i, n };
  t0 = clock ();
  {
    PvArenaPacking *packing = pv_arena_packing_new_with_index (b, n, 64, PV_ARENA_SEARCH_BUDGET, index);
    g_autoptr (PvArenaPlan) plan = NULL;
    pv_arena_packing_work (packing);
    plan = pv_arena_packing_finish (packing);
    g_assert_cmpuint (plan->peak_bytes, ==, (guint64) n * 64);
  }
  return (double) (clock () - t0) / CLOCKS_PER_SEC;
}

/* A 10,000-way fan-out, the wide index against the blocks in the same run
 * (every placement visiting every buffer live with it): 0.015 s against
 * 0.12 s of CPU plain (8x), 0.09 s against 2.3 s under ASan (25x). A ratio
 * from one run, in CPU time, the wide index's best of three: neither a
 * loaded machine nor a sanitizer fails it; a return to a quadratic walk
 * does. */
static void
test_wide_fan_out (void)
{
  double blocks = fan_out_seconds (10000, PV_ARENA_INDEX_BLOCKS);
  double wide = G_MAXDOUBLE;

  for (int i = 0; i < 3; i++)
    wide = MIN (wide, fan_out_seconds (10000, PV_ARENA_INDEX_AUTO));
  g_test_message ("10,000-way fan-out: %.3f s of CPU, %.3f s with the blocks alone (%.1fx)", wide, blocks,
                  blocks / MAX (wide, 1e-6));
  g_assert_cmpfloat (wide * 3, <, blocks);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/offsets/basic", test_basic);
  g_test_add_func ("/offsets/alignment", test_alignment);
  g_test_add_func ("/offsets/empty", test_empty);
  g_test_add_func ("/offsets/fills-gaps", test_fills_gaps);
  g_test_add_func ("/offsets/random-property", test_random_property);
  g_test_add_func ("/offsets/matches-reference", test_matches_reference);
  g_test_add_func ("/offsets/wide-matches-blocks", test_wide_matches_blocks);
  g_test_add_func ("/offsets/wide-fan-out", test_wide_fan_out);
  return g_test_run ();
}
