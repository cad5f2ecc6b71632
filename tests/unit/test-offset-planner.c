/* Arena offsets: never overlapping while both live, aligned, >= LOAD. */
#include "pv-offset-planner.h"

static void
check_plan (const PvBufferLife *b, int n, guint64 alignment, const PvOffsetPlan *plan)
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
  g_autoptr (PvOffsetPlan) plan = pv_offset_plan_new (b, 3, 1);

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
  g_autoptr (PvOffsetPlan) plan = pv_offset_plan_new (b, 3, 64);

  check_plan (b, 3, 64, plan);
  g_assert_cmpuint (plan->peak_bytes, ==, 64 + 64 + 128);
  g_assert_cmpuint (pv_buffers_load (b, 3, 1), ==, 67);
}

static void
test_empty (void)
{
  g_autoptr (PvOffsetPlan) plan = pv_offset_plan_new (NULL, 0, 64);
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
  g_autoptr (PvOffsetPlan) plan = pv_offset_plan_new (b, 4, 1);

  check_plan (b, 4, 1, plan);
  g_assert_cmpuint (plan->peak_bytes, ==, 300);
}

static void
test_random_property (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (42);

  for (int round = 0; round < 300; round++)
    {
      int n = g_rand_int_range (rand, 1, 60), steps = g_rand_int_range (rand, 1, 40);
      g_autofree PvBufferLife *b = g_new (PvBufferLife, n);
      g_autoptr (PvOffsetPlan) plan = NULL;
      guint64 alignment = 1u << g_rand_int_range (rand, 0, 7);

      for (int i = 0; i < n; i++)
        {
          b[i].first = g_rand_int_range (rand, -1, steps);
          b[i].last = b[i].first + g_rand_int_range (rand, 0, steps / 2 + 1);
          b[i].size = g_rand_int_range (rand, 0, 4096);
        }
      plan = pv_offset_plan_new (b, n, alignment);
      check_plan (b, n, alignment, plan);
    }
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
  return g_test_run ();
}
