/* The kernel behaviour table: the built-in defaults (ONNX Runtime 1.30's CPU
 * kernels, rules §5), user overrides, and every error with its exact text
 * and position. */
#include <glib/gstdio.h>
#include <unistd.h>
#include <string.h>
#include <time.h>

#include "pv-element-type.h"
#include "pv-kernel-table.h"
#include "pv-test-scale.h"

#define MAXV PV_KERNEL_OPSET_MAX

static PvKernelTable *
defaults (void)
{
  g_autoptr (GError) error = NULL;
  PvKernelTable *t = pv_kernel_table_new_default (&error);

  g_assert_no_error (error);
  g_assert_nonnull (t);
  return t;
}

static void
assert_pairs (const PvKernelPair *pairs, int n, const char *expected)
{
  g_autoptr (GString) s = g_string_new (NULL);

  for (int i = 0; i < n; i++)
    g_string_append_printf (s, "%s(%d,%d)", i ? "," : "", pairs[i].input, pairs[i].output);
  g_assert_cmpstr (s->str, ==, expected);
}

static void
assert_ints (const int *v, int n, const char *expected)
{
  g_autoptr (GString) s = g_string_new (NULL);

  for (int i = 0; i < n; i++)
    g_string_append_printf (s, "%s%d", i ? "," : "", v[i]);
  g_assert_cmpstr (s->str, ==, expected);
}

/* "alias;may_inplace;cpu_inputs" of an entry, or "-" when there is none. */
static char *
summary (const PvKernelTable *t, const char *domain, const char *op, int opset)
{
  const PvKernelDef *d = pv_kernel_table_lookup (t, domain, op, opset);
  GString *s;

  if (d == NULL)
    return g_strdup ("-");
  s = g_string_new (NULL);
  for (int i = 0; i < d->n_alias; i++)
    g_string_append_printf (s, "%s(%d,%d)", i ? "," : "", d->alias[i].input, d->alias[i].output);
  g_string_append_c (s, ';');
  for (int i = 0; i < d->n_may_inplace; i++)
    g_string_append_printf (s, "%s(%d,%d)", i ? "," : "", d->may_inplace[i].input, d->may_inplace[i].output);
  g_string_append_c (s, ';');
  for (int i = 0; i < d->n_cpu_inputs; i++)
    g_string_append_printf (s, "%s%d", i ? "," : "", d->cpu_inputs[i]);
  if (d->has_variadic_alias)
    g_string_append_printf (s, ";variadic(%d,%d)", d->variadic_alias.input, d->variadic_alias.output);
  if (d->external_outputs)
    g_string_append (s, ";external");
  return g_string_free (s, FALSE);
}

#define ASSERT_SUMMARY(t, domain, op, opset, expected)              \
  G_STMT_START                                                      \
  {                                                                 \
    g_autofree char *got_ = summary (t, domain, op, opset);         \
    g_assert_cmpstr (got_, ==, expected);                           \
  }                                                                 \
  G_STMT_END

static void
test_defaults_activations (void)
{
  g_autoptr (PvKernelTable) t = defaults ();
  const PvKernelDef *relu = pv_kernel_table_lookup (t, "", "Relu", 6);

  g_assert_nonnull (relu);
  assert_pairs (relu->may_inplace, relu->n_may_inplace, "(0,0)");
  g_assert_cmpint (relu->n_alias, ==, 0);
  g_assert_false (relu->external_outputs);
  g_assert_false (relu->has_variadic_alias);
  g_assert_cmpint (relu->since_first, ==, 6);
  g_assert_cmpint (relu->since_last, ==, MAXV);
  g_assert_cmpstr (relu->source, ==, "kernel-defs.json (built-in)");
  g_assert_true (pv_kernel_def_may_inplace_type (relu, PV_ELEM_INT32));
  ASSERT_SUMMARY (t, "", "Relu", 14, ";(0,0);");
  ASSERT_SUMMARY (t, "ai.onnx", "Relu", 14, ";(0,0);");
  ASSERT_SUMMARY (t, "", "Relu", 5, "-"); /* ORT has no Relu kernel before opset 6 */
  ASSERT_SUMMARY (t, "com.microsoft", "Relu", 14, "-");
  for (const char *const *op = (const char *const[]){ "Sigmoid", "Tanh", "Elu", "Selu", "LeakyRelu", "HardSigmoid",
                                                      "Softplus", "Softsign", "Celu", "ThresholdedRelu", "Clip", "Cast",
                                                      "ScatterElements", "Trilu", "Shrink", "STFT", "HannWindow",
                                                      "HammingWindow", "BlackmanWindow", "MelWeightMatrix", NULL };
       *op; op++)
    ASSERT_SUMMARY (t, "", *op, 18, ";(0,0);");
  ASSERT_SUMMARY (t, "com.microsoft", "ParametricSoftplus", 1, ";(0,0);");
  ASSERT_SUMMARY (t, "com.microsoft", "ScaledTanh", 1, ";(0,0);");
  ASSERT_SUMMARY (t, "com.microsoft", "FusedConv", 1, ";(3,0);");
  ASSERT_SUMMARY (t, "com.microsoft.nchwc", "Conv", 1, ";(3,0);");
  ASSERT_SUMMARY (t, "ai.onnx.ml", "Scaler", 1, ";(0,0);");
  ASSERT_SUMMARY (t, "", "Scatter", 9, ";(0,0);");
  ASSERT_SUMMARY (t, "", "Scatter", 10, ";(0,0);");
  ASSERT_SUMMARY (t, "", "Scatter", 11, "-");
  ASSERT_SUMMARY (t, "", "ScatterElements", 10, "-");
  ASSERT_SUMMARY (t, "", "Celu", 11, "-");
  ASSERT_SUMMARY (t, "", "ThresholdedRelu", 9, "-");
  /* Not declared by ORT's CPU kernels. */
  for (const char *const *op = (const char *const[]){ "Add", "Mul", "Conv", "MatMul", "Gemm", "Transpose", "Concat",
                                                      "Gather", "Where", "LayerNormalization", "Dropout", NULL };
       *op; op++)
    ASSERT_SUMMARY (t, "", *op, 17, "-");
}

static void
test_defaults_clip_and_batchnorm (void)
{
  g_autoptr (PvKernelTable) t = defaults ();

  ASSERT_SUMMARY (t, "", "Clip", 5, "-");
  ASSERT_SUMMARY (t, "", "Clip", 6, ";(0,0);");
  ASSERT_SUMMARY (t, "", "Clip", 11, ";(0,0);");
  ASSERT_SUMMARY (t, "", "Clip", 13, ";(0,0);");
  ASSERT_SUMMARY (t, "", "BatchNormalization", 7, "-");
  ASSERT_SUMMARY (t, "", "BatchNormalization", 8, "-");
  ASSERT_SUMMARY (t, "", "BatchNormalization", 9, "(3,1),(4,2);;");
  ASSERT_SUMMARY (t, "", "BatchNormalization", 15, "(3,1),(4,2);;");
}

static void
test_defaults_aliases (void)
{
  g_autoptr (PvKernelTable) t = defaults ();

  for (int opset = 1; opset <= 30; opset++)
    ASSERT_SUMMARY (t, "", "Identity", opset, "(0,0);;");
  ASSERT_SUMMARY (t, "", "Identity", MAXV, "(0,0);;");
  ASSERT_SUMMARY (t, "", "Reshape", 1, "(0,0);;");
  ASSERT_SUMMARY (t, "", "Reshape", 5, "(0,0);;1");
  ASSERT_SUMMARY (t, "", "Squeeze", 11, "(0,0);;");
  ASSERT_SUMMARY (t, "", "Squeeze", 13, "(0,0);;1");
  ASSERT_SUMMARY (t, "", "Unsqueeze", 12, "(0,0);;");
  ASSERT_SUMMARY (t, "", "Unsqueeze", 21, "(0,0);;1");
  ASSERT_SUMMARY (t, "", "Flatten", 1, "(0,0);;");
  ASSERT_SUMMARY (t, "com.microsoft", "ExpandDims", 1, "(0,0);;");
  ASSERT_SUMMARY (t, "", "ExpandDims", 1, "-");
  ASSERT_SUMMARY (t, "", "Optional", 14, "-");
  ASSERT_SUMMARY (t, "", "Optional", 15, "(0,0);;");
  ASSERT_SUMMARY (t, "", "OptionalGetElement", 18, "(0,0);;");
}

static void
test_defaults_softmax_dtypes (void)
{
  g_autoptr (PvKernelTable) t = defaults ();

  for (const char *const *op = (const char *const[]){ "Softmax", "LogSoftmax", NULL }; *op; op++)
    {
      const PvKernelDef *d = pv_kernel_table_lookup (t, "", *op, 13);
      g_assert_nonnull (d);
      assert_pairs (d->may_inplace, d->n_may_inplace, "(0,0)");
      assert_ints (d->may_inplace_dtypes, d->n_may_inplace_dtypes, "1");
      g_assert_true (pv_kernel_def_may_inplace_type (d, PV_ELEM_FLOAT));
      g_assert_false (pv_kernel_def_may_inplace_type (d, PV_ELEM_DOUBLE));
    }
}

static void
test_defaults_cpu_inputs (void)
{
  g_autoptr (PvKernelTable) t = defaults ();

  ASSERT_SUMMARY (t, "", "Expand", 13, ";;1");
  ASSERT_SUMMARY (t, "", "Slice", 13, ";;1,2,3,4");
  ASSERT_SUMMARY (t, "", "Slice", 9, "-");
  ASSERT_SUMMARY (t, "", "Tile", 13, ";;1");
  ASSERT_SUMMARY (t, "", "ReduceSum", 12, "-");
  ASSERT_SUMMARY (t, "", "ReduceSum", 13, ";;1");
  ASSERT_SUMMARY (t, "", "ReduceMean", 13, "-");
  ASSERT_SUMMARY (t, "", "ReduceMean", 18, ";;1");
  ASSERT_SUMMARY (t, "", "ReduceMax", 20, ";;1");
  ASSERT_SUMMARY (t, "", "Resize", 10, ";;1");
  ASSERT_SUMMARY (t, "", "Resize", 13, ";;1,2,3");
  ASSERT_SUMMARY (t, "", "Upsample", 9, ";;1");
  ASSERT_SUMMARY (t, "", "Pad", 10, "-");
  ASSERT_SUMMARY (t, "", "Pad", 18, ";;1,2,3");
  ASSERT_SUMMARY (t, "", "TopK", 11, ";;1");
  ASSERT_SUMMARY (t, "", "OneHot", 11, ";;1");
  ASSERT_SUMMARY (t, "", "ConstantOfShape", 9, ";;0");
  ASSERT_SUMMARY (t, "", "Range", 11, ";;0,1,2");
  ASSERT_SUMMARY (t, "", "NonMaxSuppression", 11, ";;2,3,4");
  ASSERT_SUMMARY (t, "", "Split", 12, "-");
  ASSERT_SUMMARY (t, "", "Split", 18, ";;1");
  g_assert_cmpuint (pv_kernel_table_size (t), ==, 66);
}

static void
test_default_data_is_bundled (void)
{
  g_autoptr (GBytes) data = pv_kernel_table_default_data ();
  gsize len;
  const char *text = g_bytes_get_data (data, &len);

  g_assert_cmpuint (len, >, 1000);
  g_assert_true (g_str_has_prefix (text, "{"));
  g_assert_nonnull (strstr (text, "\"BatchNormalization\""));
}

static PvKernelTable *
merged (const char *json, GError **error)
{
  g_autoptr (PvKernelTable) t = defaults ();

  if (!pv_kernel_table_merge_data (t, json, strlen (json), "user.json", error))
    return NULL;
  return g_steal_pointer (&t);
}

static void
test_override_replaces_overlap (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (PvKernelTable) t =
    merged ("{\"kernels\": [\n"
            "  {\"op_type\": \"Relu\", \"since\": [14, 2147483647]},\n"
            "  {\"domain\": \"ai.onnx\", \"op_type\": \"Add\", \"may_inplace\": [[0, 0], [1, 0]]},\n"
            "  {\"op_type\": \"Clip\", \"since\": [11, 12], \"external_outputs\": true},\n"
            "  {\"domain\": \"com.example\", \"op_type\": \"Concat\", \"variadic_alias\": [0, 0]}\n"
            "]}\n",
            &error);
  const PvKernelDef *relu;

  g_assert_no_error (error);
  /* The user's Relu covers 14+: 6-13 keeps the default, 14+ declares nothing. */
  ASSERT_SUMMARY (t, "", "Relu", 6, ";(0,0);");
  ASSERT_SUMMARY (t, "", "Relu", 13, ";(0,0);");
  ASSERT_SUMMARY (t, "", "Relu", 14, ";;");
  relu = pv_kernel_table_lookup (t, "", "Relu", 14);
  g_assert_cmpstr (relu->source, ==, "user.json");
  g_assert_cmpint (relu->line, ==, 2);
  relu = pv_kernel_table_lookup (t, "", "Relu", 13);
  g_assert_cmpint (relu->since_first, ==, 6);
  g_assert_cmpint (relu->since_last, ==, 13);
  g_assert_cmpstr (relu->source, ==, "kernel-defs.json (built-in)");
  /* New entries; "ai.onnx" is ONNX's domain. */
  ASSERT_SUMMARY (t, "", "Add", 1, ";(0,0),(1,0);");
  /* Clip 6+ split around 11-12. */
  ASSERT_SUMMARY (t, "", "Clip", 10, ";(0,0);");
  ASSERT_SUMMARY (t, "", "Clip", 11, ";;;external");
  ASSERT_SUMMARY (t, "", "Clip", 12, ";;;external");
  ASSERT_SUMMARY (t, "", "Clip", 13, ";(0,0);");
  ASSERT_SUMMARY (t, "com.example", "Concat", 1, ";;;variadic(0,0)");
  g_assert_cmpuint (pv_kernel_table_size (t), ==, 66 + 1 + 1 + 2 + 1);
}

static void
test_override_whole_range_and_file (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (PvKernelTable) t = defaults ();
  g_autofree char *path = NULL;
  int fd = g_file_open_tmp ("planviz-kernels-XXXXXX.json", &path, &error);
  const char *json = "{\"comment\": \"mine\", \"kernels\": [{\"op_type\": \"Identity\", \"since\": [1, 2147483647], "
                     "\"cpu_inputs\": [0], \"comment\": \"all on CPU\"},\n"
                     "{\"op_type\": \"Reshape\", \"since\": [3, 6], \"alias\": []}]}";

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, json, -1, &error));
  g_assert_no_error (error);
  close (fd);
  g_assert_true (pv_kernel_table_merge_file (t, path, &error));
  g_assert_no_error (error);
  for (int opset = 1; opset <= 25; opset += 6)
    ASSERT_SUMMARY (t, "", "Identity", opset, ";;0");
  /* Reshape 1-4 and 5+ both cut back around 3-6. */
  ASSERT_SUMMARY (t, "", "Reshape", 2, "(0,0);;");
  ASSERT_SUMMARY (t, "", "Reshape", 3, ";;");
  ASSERT_SUMMARY (t, "", "Reshape", 6, ";;");
  ASSERT_SUMMARY (t, "", "Reshape", 7, "(0,0);;1");
  g_assert_cmpstr (pv_kernel_table_lookup (t, "", "Identity", 1)->source, ==, path);
  g_unlink (path);

  /* A file that cannot be read leaves the table as it was. */
  g_assert_false (pv_kernel_table_merge_file (t, "/nonexistent/kernels.json", &error));
  g_assert_error (error, PV_KERNEL_TABLE_ERROR, PV_KERNEL_TABLE_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "/nonexistent/kernels.json"));
  ASSERT_SUMMARY (t, "", "Identity", 1, ";;0");
}

static void
test_failed_merge_leaves_table (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (PvKernelTable) t = defaults ();
  const char *json = "{\"kernels\": [{\"op_type\": \"Relu\"}, {\"op_type\": \"Add\", \"alias\": 3}]}";

  g_assert_false (pv_kernel_table_merge_data (t, json, strlen (json), "bad.json", &error));
  ASSERT_SUMMARY (t, "", "Relu", 14, ";(0,0);");
  ASSERT_SUMMARY (t, "", "Add", 14, "-");
  g_assert_cmpuint (pv_kernel_table_size (t), ==, 66);
}

typedef struct {
  const char *json;
  int code;
  const char *message;
} ErrorCase;

static const ErrorCase error_cases[] = {
  /* Syntax, with the exact character at fault. */
  { "", PV_KERNEL_TABLE_ERROR_SYNTAX, "t.json:1:1: the file is empty" },
  { "  \n \n", PV_KERNEL_TABLE_ERROR_SYNTAX, "t.json:3:1: the file is empty" },
  { "{\"kernels\": [}", PV_KERNEL_TABLE_ERROR_SYNTAX, "t.json:1:14: expected a value, found '}'" },
  { "{\"kernels\": [1,]}", PV_KERNEL_TABLE_ERROR_SYNTAX, "t.json:1:16: expected a value, found ']'" },
  { "{\"kernels\": [1 2]}", PV_KERNEL_TABLE_ERROR_SYNTAX,
    "t.json:1:16: expected ',' or ']' after an array element, found '2'" },
  { "{\"kernels\": []\n\n   \"x\": 1}", PV_KERNEL_TABLE_ERROR_SYNTAX,
    "t.json:3:4: expected ',' or '}' after an object member, found '\"'" },
  { "{\"kernels\" []}", PV_KERNEL_TABLE_ERROR_SYNTAX, "t.json:1:12: expected ':' after the key, found '['" },
  { "{kernels: []}", PV_KERNEL_TABLE_ERROR_SYNTAX, "t.json:1:2: expected a string key, found 'k'" },
  { "{\"kernels\": [],}", PV_KERNEL_TABLE_ERROR_SYNTAX, "t.json:1:16: expected a string key, found '}'" },
  { "{\"kernels\": []} x", PV_KERNEL_TABLE_ERROR_SYNTAX,
    "t.json:1:17: expected the end of the file after the JSON value, found 'x'" },
  { "{\"kernels\": [", PV_KERNEL_TABLE_ERROR_SYNTAX, "t.json:1:14: expected a value, found the end of the file" },
  { "{\"kernels\": [tru]}", PV_KERNEL_TABLE_ERROR_SYNTAX, "t.json:1:17: invalid literal: expected 'true', found ']'" },
  { "{\"kernels\": [nul", PV_KERNEL_TABLE_ERROR_SYNTAX,
    "t.json:1:17: invalid literal: expected 'null', found the end of the file" },
  { "{\"kernels\": [01]}", PV_KERNEL_TABLE_ERROR_SYNTAX, "t.json:1:14: invalid number: leading zeros are not allowed" },
  { "{\"kernels\": [-x]}", PV_KERNEL_TABLE_ERROR_SYNTAX, "t.json:1:15: invalid number: expected a digit, found 'x'" },
  { "{\"kernels\": [1.]}", PV_KERNEL_TABLE_ERROR_SYNTAX,
    "t.json:1:16: invalid number: expected a digit after '.', found ']'" },
  { "{\"kernels\": [1e+]}", PV_KERNEL_TABLE_ERROR_SYNTAX,
    "t.json:1:17: invalid number: expected a digit in the exponent, found ']'" },
  { "{\"kernels\": [+1]}", PV_KERNEL_TABLE_ERROR_SYNTAX, "t.json:1:14: expected a value, found '+'" },
  { "{\"kernels\": [\"abc]}", PV_KERNEL_TABLE_ERROR_SYNTAX, "t.json:1:14: unterminated string" },
  { "{\"kernels\": [\"a\\qb\"]}", PV_KERNEL_TABLE_ERROR_SYNTAX,
    "t.json:1:17: invalid escape: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u after '\\', found 'q'" },
  { "{\"kernels\": [\"a\\u12x4\"]}", PV_KERNEL_TABLE_ERROR_SYNTAX,
    "t.json:1:16: '\\u' must be followed by 4 hex digits" },
  { "{\"kernels\": [\"a\\u0000\"]}", PV_KERNEL_TABLE_ERROR_SYNTAX, "t.json:1:16: \\u0000 is not allowed in strings" },
  { "{\"kernels\": [\"a\\ud800\"]}", PV_KERNEL_TABLE_ERROR_SYNTAX,
    "t.json:1:16: \\uD800 is a high surrogate without a low surrogate after it" },
  { "{\"kernels\": [\"a\\udc00\"]}", PV_KERNEL_TABLE_ERROR_SYNTAX,
    "t.json:1:16: \\uDC00 is a low surrogate without a high surrogate before it" },
  { "{\"kernels\": [\"a\tb\"]}", PV_KERNEL_TABLE_ERROR_SYNTAX,
    "t.json:1:16: the control character U+0009 must be written as an escape in a string" },
  { "{\"kernels\": [\"\xc3\xa9\xff\"]}", PV_KERNEL_TABLE_ERROR_SYNTAX, "t.json:1:16: the byte 0xFF is not valid UTF-8" },
  { "{\"kernels\": [\xc3\xa9]}", PV_KERNEL_TABLE_ERROR_SYNTAX, "t.json:1:14: expected a value, found '\xc3\xa9' (U+00E9)" },
  { "{\"kernels\": [\x01]}", PV_KERNEL_TABLE_ERROR_SYNTAX,
    "t.json:1:14: expected a value, found the control character U+0001" },
  { "// c\n{}", PV_KERNEL_TABLE_ERROR_SYNTAX, "t.json:1:1: expected a value, found '/'" },
  /* Semantic errors point at the value (or key) at fault. */
  { "[]", PV_KERNEL_TABLE_ERROR_INVALID, "t.json:1:1: the top level must be an object with a \"kernels\" array" },
  { "{}", PV_KERNEL_TABLE_ERROR_INVALID, "t.json:1:1: missing \"kernels\" array" },
  { "{\"kernel\": []}", PV_KERNEL_TABLE_ERROR_INVALID, "t.json:1:2: unknown key \"kernel\" (expected \"kernels\")" },
  { "{\"kernels\": [], \"kernels\": []}", PV_KERNEL_TABLE_ERROR_INVALID, "t.json:1:17: \"kernels\" appears twice" },
  { "{\"comment\": 1, \"kernels\": []}", PV_KERNEL_TABLE_ERROR_INVALID, "t.json:1:13: \"comment\" must be a string" },
  { "{\"kernels\": {}}", PV_KERNEL_TABLE_ERROR_INVALID, "t.json:1:13: \"kernels\" must be an array" },
  { "{\"kernels\": [\n  [\"Relu\"]]}", PV_KERNEL_TABLE_ERROR_INVALID, "t.json:2:3: kernels[0] must be an object" },
  { "{\"kernels\": [{\"op_type\": \"A\"},\n  {\"domain\": \"\"}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:2:3: kernels[1] has no \"op_type\"" },
  { "{\"kernels\": [{\"op_type\": \"\"}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:26: kernels[0].op_type must be a non-empty string" },
  { "{\"kernels\": [{\"op_type\": 5}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:26: kernels[0].op_type must be a non-empty string" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"domain\": null}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:41: kernels[0].domain must be a string (\"\" for ONNX)" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"aliass\": []}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:31: kernels[0] has an unknown key \"aliass\"" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"alias\": [], \"alias\": []}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:44: kernels[0] has \"alias\" twice" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"since\": [0, 3]}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:40: kernels[0].since must be a pair [first, last] of opset versions with 1 <= first <= last" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"since\": [5, 3]}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:40: kernels[0].since must be a pair [first, last] of opset versions with 1 <= first <= last" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"since\": [5]}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:40: kernels[0].since must be a pair [first, last] of opset versions with 1 <= first <= last" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"since\": [1, 2147483648]}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:40: kernels[0].since must be a pair [first, last] of opset versions with 1 <= first <= last" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"alias\": [[0, 0]]},\n"
    "  {\"op_type\": \"B\"}, {\"op_type\": \"C\"},\n"
    "  {\"op_type\": \"D\", \"alias\": [[0, 1.5]]}]}",
    PV_KERNEL_TABLE_ERROR_INVALID, "t.json:3:30: kernels[3].alias[0] must be a pair of non-negative integers" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"alias\": [[0, 0], [-1, 0]]}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:49: kernels[0].alias[1] must be a pair of non-negative integers" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"alias\": [[0, 0, 0]]}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:41: kernels[0].alias[0] must be a pair of non-negative integers" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"alias\": [0, 0]}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:41: kernels[0].alias[0] must be a pair of non-negative integers" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"alias\": {}}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:40: kernels[0].alias must be an array of [input, output] pairs" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"may_inplace\": [[\"0\", 0]]}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:47: kernels[0].may_inplace[0] must be a pair of non-negative integers" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"may_inplace\": null}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:46: kernels[0].may_inplace must be an array of [input, output] pairs" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"variadic_alias\": [[0, 0]]}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:49: kernels[0].variadic_alias must be null or a pair of non-negative integers [input_offset, "
    "output_offset]" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"external_outputs\": 1}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:51: kernels[0].external_outputs must be true or false" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"cpu_inputs\": 1}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:45: kernels[0].cpu_inputs must be an array of input positions" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"cpu_inputs\": [1, 1e999]}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:49: kernels[0].cpu_inputs[1] must be a non-negative integer" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"may_inplace_dtypes\": \"float32\"}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:53: kernels[0].may_inplace_dtypes must be an array of element type names" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"may_inplace_dtypes\": [\"float32\", \"flaot32\"]}]}",
    PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:65: kernels[0].may_inplace_dtypes[1] must be an element type name such as \"float32\"" },
  { "{\"kernels\": [{\"op_type\": \"A\", \"comment\": []}]}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:42: kernels[0].comment must be a string" },
  { "{\"kernels\": [\n"
    "  {\"op_type\": \"Relu\", \"since\": [6, 13]},\n"
    "  {\"op_type\": \"Relu\", \"domain\": \"ai.onnx\", \"since\": [13, 2147483647]}]}",
    PV_KERNEL_TABLE_ERROR_INVALID, "t.json:3:3: kernels[1] (Relu, opsets 13 and later) overlaps kernels[0] (opsets 6-13)" },
  { "{\"kernels\": [{\"op_type\": \"Relu\", \"domain\": \"x\"},\n"
    "  {\"op_type\": \"Relu\", \"domain\": \"x\", \"since\": [4, 4]}]}",
    PV_KERNEL_TABLE_ERROR_INVALID, "t.json:2:3: kernels[1] (x:Relu, opsets 4) overlaps kernels[0] (opsets 1 and later)" },
  /* Columns count characters, not bytes. */
  { "{\"comment\": \"\xc3\xa9\xe2\x82\xac\", \"x\": 1, \"kernels\": []}", PV_KERNEL_TABLE_ERROR_INVALID,
    "t.json:1:19: unknown key \"x\" (expected \"kernels\")" },
};

static void
test_errors (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (error_cases); i++)
    {
      const ErrorCase *c = &error_cases[i];
      g_autoptr (PvKernelTable) t = pv_kernel_table_new ();
      g_autoptr (GError) error = NULL;

      g_autofree char *shown = g_strescape (c->json, NULL);

      g_test_message ("case %" G_GSIZE_FORMAT ": %s", i, shown);
      g_assert_false (pv_kernel_table_merge_data (t, c->json, strlen (c->json), "t.json", &error));
      g_assert_error (error, PV_KERNEL_TABLE_ERROR, c->code);
      g_assert_cmpstr (error->message, ==, c->message);
      g_assert_cmpuint (pv_kernel_table_size (t), ==, 0);
    }
}

static void
test_nul_and_nesting (void)
{
  g_autoptr (PvKernelTable) t = pv_kernel_table_new ();
  g_autoptr (GError) error = NULL;
  static const char with_nul[] = "{\"kernels\": []}\0garbage";
  g_autoptr (GString) deep = g_string_new ("{\"comment\": \"\", \"x\": ");

  g_assert_false (pv_kernel_table_merge_data (t, with_nul, sizeof with_nul - 1, "t.json", &error));
  g_assert_error (error, PV_KERNEL_TABLE_ERROR, PV_KERNEL_TABLE_ERROR_SYNTAX);
  g_assert_cmpstr (error->message, ==, "t.json:1:16: the file contains a NUL byte");
  g_clear_error (&error);

  /* 1000 levels are fine (and then "x" is unknown); 1001 are not JSON for cJSON. */
  for (int i = 0; i < 999; i++)
    g_string_append_c (deep, '[');
  for (int i = 0; i < 999; i++)
    g_string_append_c (deep, ']');
  g_string_append (deep, "}");
  g_assert_false (pv_kernel_table_merge_data (t, deep->str, deep->len, "t.json", &error));
  g_assert_cmpstr (error->message, ==, "t.json:1:17: unknown key \"x\" (expected \"kernels\")");
  g_clear_error (&error);
  g_string_insert_c (deep, 21, '[');
  g_string_insert_c (deep, deep->len - 1, ']');
  g_assert_false (pv_kernel_table_merge_data (t, deep->str, deep->len, "t.json", &error));
  g_assert_error (error, PV_KERNEL_TABLE_ERROR, PV_KERNEL_TABLE_ERROR_SYNTAX);
  g_assert_cmpstr (error->message, ==, "t.json:1:1021: nested deeper than 1000 levels");
}

/* A big kernel-defs file loads in linear time: 40k entries once took 8 s
 * (distinct ops: each compared with all before it) and 50 s (one op:
 * sorted after each insert). */
static void
test_big_file_linear (gconstpointer data)
{
  gboolean one_op = GPOINTER_TO_INT (data);
  g_autoptr (GString) json = g_string_new ("{\"kernels\": [\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (PvKernelTable) t = defaults ();
  const PvKernelDef *def;
  clock_t start;

  for (int i = 0; i < 40000; i++)
    {
      if (one_op)
        g_string_append_printf (json, "%s{\"op_type\": \"Relu\", \"since\": [%d, %d]}", i ? ",\n" : "", 2 * i + 1,
                                2 * i + 1);
      else
        g_string_append_printf (json, "%s{\"op_type\": \"Op%d\", \"since\": [1, 2147483647], \"alias\": [[0, 0]]}",
                                i ? ",\n" : "", i);
    }
  g_string_append (json, "]}\n");
  /* CPU time, not wall time: a loaded machine must not fail the test. The
   * quadratic reader took 27 s; the linear one 0.3 s (0.8-1.5 s under
   * ASan), so 10 s only catches a return to the quadratic one. */
  start = clock ();
  g_assert_true (pv_kernel_table_merge_data (t, json->str, json->len, "big.json", &error));
  g_assert_no_error (error);
  g_test_message ("40k entries merged in %.3f s of CPU", (double) (clock () - start) / CLOCKS_PER_SEC);
  g_assert_cmpfloat ((double) (clock () - start) / CLOCKS_PER_SEC, <, 10.0 * pv_test_time_scale ());
  if (one_op)
    {
      /* Odd opsets are the file's; even ones keep the built-in Relu. */
      def = pv_kernel_table_lookup (t, "", "Relu", 14);
      g_assert_nonnull (def);
      g_assert_cmpstr (def->source, !=, "big.json");
      g_assert_cmpint (def->since_first, ==, 14);
      g_assert_cmpint (def->since_last, ==, 14);
      def = pv_kernel_table_lookup (t, "", "Relu", 79999);
      g_assert_cmpstr (def->source, ==, "big.json");
      def = pv_kernel_table_lookup (t, "", "Relu", 80000);
      g_assert_cmpint (def->since_first, ==, 80000);
      g_assert_cmpint (def->since_last, ==, G_MAXINT);
    }
  else
    {
      def = pv_kernel_table_lookup (t, "", "Op39999", 17);
      g_assert_nonnull (def);
      g_assert_cmpstr (def->source, ==, "big.json");
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/kernel-table/defaults/activations", test_defaults_activations);
  g_test_add_func ("/kernel-table/defaults/clip-batchnorm", test_defaults_clip_and_batchnorm);
  g_test_add_func ("/kernel-table/defaults/aliases", test_defaults_aliases);
  g_test_add_func ("/kernel-table/defaults/softmax-dtypes", test_defaults_softmax_dtypes);
  g_test_add_func ("/kernel-table/defaults/cpu-inputs", test_defaults_cpu_inputs);
  g_test_add_func ("/kernel-table/defaults/bundled", test_default_data_is_bundled);
  g_test_add_func ("/kernel-table/override/overlap", test_override_replaces_overlap);
  g_test_add_func ("/kernel-table/override/file", test_override_whole_range_and_file);
  g_test_add_func ("/kernel-table/override/failed-merge", test_failed_merge_leaves_table);
  g_test_add_data_func ("/kernel-table/big-file/ops", GINT_TO_POINTER (FALSE), test_big_file_linear);
  g_test_add_data_func ("/kernel-table/big-file/one-op", GINT_TO_POINTER (TRUE), test_big_file_linear);
  g_test_add_func ("/kernel-table/errors", test_errors);
  g_test_add_func ("/kernel-table/errors/nul-and-nesting", test_nul_and_nesting);
  return g_test_run ();
}
