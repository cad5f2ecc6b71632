/* test-partition-text.c: configs with lines too long for the editor
 * (ORT writes its config on one line) are reformatted to the same JSON. */
#include <cjson/cJSON.h>
#include <string.h>

#include "pv-partition-config.h"

/* ORT's own style: one line, no spaces; @n node names. */
static char *
one_line_config (int n)
{
  GString *s = g_string_new ("{\"type\":\"DeviceBasedPartitioner\",\"streams\":[[");
  for (int i = 0; i < n; i++)
    g_string_append_printf (s, "%s\"/layers.%d/attn/q_proj/MatMul\"", i ? "," : "", i);
  g_string_append (s, "],[\"a\\\"quote\",\"tab\\tand \\u00e9\"]],\"devices\":[\"0\",\"0\"],\"x\":{\"n\":1.5e3,\"e\":[],\"o\":{}}}");
  return g_string_free (s, FALSE);
}

static void
test_long_line (void)
{
  g_autofree char *short_text = one_line_config (3);
  g_autofree char *long_text = one_line_config (400);
  g_autofree char *lines = g_strdup ("{\n  \"streams\": []\n}\n");

  g_assert_false (pv_partition_text_has_long_line (short_text));
  g_assert_false (pv_partition_text_has_long_line (lines));
  g_assert_false (pv_partition_text_has_long_line (""));
  g_assert_true (strlen (long_text) > 4096);
  g_assert_true (pv_partition_text_has_long_line (long_text));
}

static void
test_reformat_same_json (void)
{
  g_autofree char *text = one_line_config (400);
  g_autofree char *pretty = pv_partition_text_reformat (text);
  cJSON *a, *b;

  g_assert_nonnull (pretty);
  g_assert_false (pv_partition_text_has_long_line (pretty));
  /* One node name per line. */
  g_assert_nonnull (strstr (pretty, "\n      \"/layers.7/attn/q_proj/MatMul\",\n"));
  a = cJSON_Parse (text);
  b = cJSON_Parse (pretty);
  g_assert_nonnull (b);
  g_assert_true (cJSON_Compare (a, b, TRUE));
  cJSON_Delete (a);
  cJSON_Delete (b);
}

/* Duplicate keys and member order stay as written (ORT's parser decides
 * what they mean); text that is no JSON is not reformatted. */
static void
test_reformat_keeps_duplicates (void)
{
  g_autofree char *pretty = pv_partition_text_reformat ("{\"devices\":[\"0\"],\"type\":\"a\",\"type\":\"b\"}");
  g_autofree char *broken = pv_partition_text_reformat ("{\"streams\":[[\"a\"]");
  const char *first, *second;

  g_assert_nonnull (pretty);
  first = strstr (pretty, "\"type\": \"a\"");
  second = strstr (pretty, "\"type\": \"b\"");
  g_assert_nonnull (first);
  g_assert_nonnull (second);
  g_assert_true (strstr (pretty, "\"devices\"") < first && first < second);
  g_assert_null (broken);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/partition-text/long-line", test_long_line);
  g_test_add_func ("/partition-text/reformat/same-json", test_reformat_same_json);
  g_test_add_func ("/partition-text/reformat/duplicates", test_reformat_keeps_duplicates);
  return g_test_run ();
}
