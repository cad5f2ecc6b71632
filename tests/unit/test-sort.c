/* pv_sort_by_key against a comparison sort, and the key mappings against
 * the order of the values. */
#include "pv-sort.h"
#include "pv-test-seed.h"

typedef struct {
  guint64 key;
  int index;
  int place;  /* position before sorting: the tie-break of a stable sort */
} Item;

static int
by_key_then_place (const void *x, const void *y)
{
  const Item *a = x, *b = y;
  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  return a->place - b->place;
}

/* A key from one of several shapes: equal keys, a few values, small
 * ranges, bits only high up, any 64 bits. */
static guint64
random_key (GRand *rand, int shape)
{
  guint64 any = (guint64) g_rand_int (rand) << 32 | g_rand_int (rand);
  switch (shape)
    {
    case 0:
      return 42;
    case 1:
      return (guint64) g_rand_int_range (rand, 0, 4) * 64;
    case 2:
      return ~(guint64) g_rand_int_range (rand, 0, 5000);
    case 3:
      return any & G_GUINT64_CONSTANT (0xfff0000000000000);
    default:
      return any;
    }
}

static void
test_matches_qsort (void)
{
  g_autoptr (GRand) rand = pv_test_rand_new (3);

  for (int round = 0; round < 500; round++)
    {
      int n_keys = g_rand_int_range (rand, 1, 3000), n = g_rand_int_range (rand, 0, n_keys + 1);
      int shape = round % 5;
      g_autofree guint64 *keys = g_new (guint64, n_keys);
      g_autofree int *pick = g_new (int, n_keys);
      g_autofree int *order = g_new (int, MAX (n, 1));
      g_autofree int *scratch = g_new (int, MAX (n, 1));
      g_autofree Item *items = g_new (Item, MAX (n, 1));

      for (int i = 0; i < n_keys; i++)
        {
          keys[i] = random_key (rand, shape);
          pick[i] = i;
        }
      /* @n distinct indices in a random order. */
      for (int i = n_keys - 1; i > 0; i--)
        {
          int j = g_rand_int_range (rand, 0, i + 1), t = pick[i];
          pick[i] = pick[j];
          pick[j] = t;
        }
      for (int k = 0; k < n; k++)
        {
          order[k] = pick[k];
          items[k] = (Item) { keys[pick[k]], pick[k], k };
        }
      pv_sort_by_key (order, n, keys, scratch);
      qsort (items, n, sizeof (Item), by_key_then_place);
      for (int k = 0; k < n; k++)
        g_assert_cmpint (order[k], ==, items[k].index);
    }
}

static void
test_key_order (void)
{
  g_autoptr (GRand) rand = pv_test_rand_new (4);
  const double specials[] = { 0.0, -0.0, 1.0, -1.0, 1e-300, -1e-300, 1e300, -1e300, 0.5, 3.0 };

  for (int round = 0; round < 20000; round++)
    {
      gint64 a = (gint64) ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand)) >> g_rand_int_range (rand, 0, 63);
      gint64 b = (gint64) ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand)) >> g_rand_int_range (rand, 0, 63);
      double x = round % 2 ? specials[g_rand_int_range (rand, 0, G_N_ELEMENTS (specials))]
                           : g_rand_double_range (rand, -1e6, 1e6);
      double y = specials[g_rand_int_range (rand, 0, G_N_ELEMENTS (specials))];

      g_assert_cmpint (a < b, ==, pv_sort_key_int (a) < pv_sort_key_int (b));
      g_assert_cmpint (a == b, ==, pv_sort_key_int (a) == pv_sort_key_int (b));
      g_assert_cmpint (x < y, ==, pv_sort_key_double (x) < pv_sort_key_double (y));
      g_assert_cmpint (x == y, ==, pv_sort_key_double (x) == pv_sort_key_double (y));
    }
  g_assert_cmpuint (pv_sort_key_double (0.0), ==, pv_sort_key_double (-0.0));
  g_assert_cmpuint (pv_sort_key_int (G_MININT64), <, pv_sort_key_int (G_MAXINT64));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sort/matches-qsort", test_matches_qsort);
  g_test_add_func ("/sort/key-order", test_key_order);
  return g_test_run ();
}
