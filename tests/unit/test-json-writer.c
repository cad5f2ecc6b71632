/* test-json-writer.c: pv-json-writer writes what cJSON_Print() writes. Random
 * trees (nested objects and arrays, strings with every control character
 * and UTF-8, numbers of every kind cJSON tells apart: ints, the INT_MAX/
 * INT_MIN edges, fractions needing 15 or 17 digits, huge and tiny ones,
 * NaN and infinities, NULL strings) are built both ways at once and the
 * texts compared byte for byte. */
#include <cjson/cJSON.h>
#include <float.h>
#include <limits.h>
#include <math.h>

#include "pv-json-writer.h"
#include "pv-test-seed.h"

static double
random_number (GRand *rand)
{
  switch (g_rand_int_range (rand, 0, 10))
    {
    case 0: return g_rand_int_range (rand, -1000, 1000);
    case 1: return (double) INT_MAX + g_rand_int_range (rand, -2, 3);
    case 2: return (double) INT_MIN + g_rand_int_range (rand, -2, 3);
    case 3: return g_rand_double_range (rand, -1e3, 1e3);
    case 4: return ldexp (g_rand_double (rand), g_rand_int_range (rand, -1074, 1024));
    case 5: return (double) g_rand_int (rand) * 4294967296.0 + g_rand_int (rand);  /* byte counts past 2^32 */
    case 6: return g_rand_int_range (rand, 1, 100) / 10.0;
    case 7: { const double odd[] = { NAN, INFINITY, -INFINITY, -0.0, DBL_MAX, DBL_MIN, 1e15, 1e16, 0.1 + 0.2 };
              return odd[g_rand_int_range (rand, 0, G_N_ELEMENTS (odd))]; }
    case 8: return -(double) g_rand_int (rand) / 7.0;
    default: return (double) g_rand_int_range (rand, 0, 1 << 30) * 64.0;
    }
}

static char *
random_string (GRand *rand)
{
  static const char *const pieces[] = { "a", "/layers.0/attn", "\"", "\\", "\b", "\f", "\n", "\r", "\t", "\x01",
                                        "\x1f", "\x7f", "/", "é", "€", "𝄞", " ", "onnx::Add_103", "" };
  GString *out = g_string_new (NULL);
  int n = g_rand_int_range (rand, 0, 8);

  for (int i = 0; i < n; i++)
    g_string_append (out, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
  return g_string_free (out, FALSE);
}

/* Adds one random item under @key (NULL in an array) to @parent and @w. */
static void
add_random (GRand *rand, cJSON *parent, PvJsonWriter *w, const char *key, int depth)
{
  int kind = g_rand_int_range (rand, 0, depth < 5 ? 8 : 5);
  cJSON *item = NULL;

  switch (kind)
    {
    case 0:
      {
        double d = random_number (rand);
        item = cJSON_CreateNumber (d);
        pv_json_number (w, key, d);
        break;
      }
    case 1:
      {
        gboolean null_string = g_rand_int_range (rand, 0, 10) == 0;
        g_autofree char *text = null_string ? NULL : random_string (rand);
        /* cJSON adds nothing for a NULL string; nor does the writer. */
        item = null_string ? NULL : cJSON_CreateString (text);
        pv_json_string (w, key, text);
        break;
      }
    case 2:
      item = cJSON_CreateNull ();
      pv_json_null (w, key);
      break;
    case 3:
    case 4:
      {
        gboolean b = g_rand_boolean (rand);
        item = cJSON_CreateBool (b);
        pv_json_bool (w, key, b);
        break;
      }
    case 5:
    case 6:
      {
        int n = g_rand_int_range (rand, 0, 5);
        item = cJSON_CreateObject ();
        pv_json_begin_object (w, key);
        for (int i = 0; i < n; i++)
          {
            g_autofree char *k = random_string (rand);
            add_random (rand, item, w, k, depth + 1);
          }
        pv_json_end_object (w);
        break;
      }
    default:
      {
        int n = g_rand_int_range (rand, 0, 5);
        item = cJSON_CreateArray ();
        pv_json_begin_array (w, key);
        for (int i = 0; i < n; i++)
          add_random (rand, item, w, NULL, depth + 1);
        pv_json_end_array (w);
        break;
      }
    }
  if (item == NULL)
    return;
  if (key)
    cJSON_AddItemToObject (parent, key, item);
  else
    cJSON_AddItemToArray (parent, item);
}

static void
test_random_trees (void)
{
  g_autoptr (GRand) rand = pv_test_rand_new (15);
  int compared = 0;

  for (int t = 0; t < 3000; t++)
    {
      cJSON *root = cJSON_CreateObject ();
      PvJsonWriter w;
      g_autofree char *mine = NULL;
      char *theirs;
      int n = g_rand_int_range (rand, 0, 6);

      pv_json_writer_init (&w);
      pv_json_begin_object (&w, NULL);
      for (int i = 0; i < n; i++)
        {
          g_autofree char *k = random_string (rand);
          add_random (rand, root, &w, k, 1);
        }
      pv_json_end_object (&w);
      mine = pv_json_writer_finish (&w);
      theirs = cJSON_Print (root);
      g_assert_nonnull (theirs);
      if (g_strcmp0 (mine, theirs) != 0)
        g_error ("tree %d differs:\ncJSON:  %s\nwriter: %s", t, theirs, mine);
      compared += (int) strlen (theirs);
      cJSON_free (theirs);
      cJSON_Delete (root);
    }
  g_test_message ("3000 trees, %d bytes, identical", compared);
}

/* Numbers alone, many more of them: cJSON's 15-or-17-digit choice. */
static void
test_numbers (void)
{
  g_autoptr (GRand) rand = pv_test_rand_new (16);

  for (int i = 0; i < 200000; i++)
    {
      double d = random_number (rand);
      cJSON *array = cJSON_CreateArray ();
      PvJsonWriter w;
      g_autofree char *mine = NULL;
      char *theirs;

      cJSON_AddItemToArray (array, cJSON_CreateNumber (d));
      pv_json_writer_init (&w);
      pv_json_begin_array (&w, NULL);
      pv_json_number (&w, NULL, d);
      pv_json_end_array (&w);
      mine = pv_json_writer_finish (&w);
      theirs = cJSON_Print (array);
      if (g_strcmp0 (mine, theirs) != 0)
        g_error ("%.17g: cJSON %s, writer %s", d, theirs, mine);
      cJSON_free (theirs);
      cJSON_Delete (array);
    }
}

/* Integers exact to 64 bits: below 10^15 what pv_json_number() (cJSON)
 * writes, above every digit, where a double rounds; the cJSON helpers alike. */
static void
test_int64 (void)
{
  const guint64 unsigned_cases[] = { 0, 1, 4096, 999999999999999ULL, 1000000000000000ULL,
                                     (1ULL << 60) + 1, G_MAXUINT64 };
  const gint64 signed_cases[] = { -1, -999999999999999LL, -1000000000000000LL, G_MININT64, G_MAXINT64 };

  for (guint i = 0; i < G_N_ELEMENTS (unsigned_cases); i++)
    {
      PvJsonWriter w, plain;
      g_autofree char *text = NULL, *plain_text = NULL, *cjson_text = NULL;
      cJSON *item = pv_cjson_uint64 (unsigned_cases[i]);
      g_autofree char *want = g_strdup_printf ("%" G_GUINT64_FORMAT, unsigned_cases[i]);

      pv_json_writer_init (&w);
      pv_json_uint64 (&w, NULL, unsigned_cases[i]);
      text = pv_json_writer_finish (&w);
      cjson_text = cJSON_PrintUnformatted (item);
      cJSON_Delete (item);
      g_assert_cmpstr (text, ==, want);
      g_assert_cmpstr (cjson_text, ==, want);
      if (unsigned_cases[i] < 1000000000000000ULL)
        {
          pv_json_writer_init (&plain);
          pv_json_number (&plain, NULL, (double) unsigned_cases[i]);
          plain_text = pv_json_writer_finish (&plain);
          g_assert_cmpstr (text, ==, plain_text);
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (signed_cases); i++)
    {
      PvJsonWriter w;
      g_autofree char *text = NULL, *cjson_text = NULL;
      cJSON *item = pv_cjson_int64 (signed_cases[i]);
      g_autofree char *want = g_strdup_printf ("%" G_GINT64_FORMAT, signed_cases[i]);

      pv_json_writer_init (&w);
      pv_json_int64 (&w, NULL, signed_cases[i]);
      text = pv_json_writer_finish (&w);
      cjson_text = cJSON_PrintUnformatted (item);
      cJSON_Delete (item);
      g_assert_cmpstr (text, ==, want);
      g_assert_cmpstr (cjson_text, ==, want);
    }
}

/* A name that is not UTF-8 (a model may hold any bytes) comes out as
 * U+FFFD: JSON must be UTF-8 (fuzz-pipeline found the plan export passing
 * the bytes through: corpus/pipeline/regression-invalid-utf8-name.onnx). */
static void
test_invalid_utf8 (void)
{
  PvJsonWriter w;
  g_autofree char *text = NULL, *copy = NULL;

  pv_json_writer_init (&w);
  pv_json_begin_object (&w, NULL);
  pv_json_string (&w, "node", "a\x95\x9a\"b");
  pv_json_string (&w, "\xff", "ok");
  pv_json_end_object (&w);
  text = pv_json_writer_finish (&w);
  g_assert_cmpstr (text, ==, "{\n\t\"node\":\t\"a\xef\xbf\xbd\xef\xbf\xbd\\\"b\",\n\t\"\xef\xbf\xbd\":\t\"ok\"\n}");
  copy = pv_json_dup_valid_utf8 ("[\"\xc3\"]");
  g_assert_cmpstr (copy, ==, "[\"\xef\xbf\xbd\"]");
}

int
main (int argc, char **argv)
{
  pv_test_init (&argc, &argv, 15);
  g_test_add_func ("/json-writer/random-trees", test_random_trees);
  g_test_add_func ("/json-writer/numbers", test_numbers);
  g_test_add_func ("/json-writer/int64", test_int64);
  g_test_add_func ("/json-writer/invalid-utf8", test_invalid_utf8);
  return g_test_run ();
}
