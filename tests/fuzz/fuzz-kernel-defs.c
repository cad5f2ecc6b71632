/* libFuzzer target: any bytes as a kernel definitions file give a table or
 * a positioned PV_KERNEL_TABLE_ERROR, never a crash, leak or undefined
 * behaviour; a failed merge leaves the table as it was, and every entry a
 * merge adds can be looked up. */
#include <stdint.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "pv-kernel-table.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (PvKernelTable) table = pv_kernel_table_new ();
  g_autoptr (GError) error = NULL;
  static const char *const probes[][2] = {
    { "", "Relu" }, { "", "Identity" }, { "", "BatchNormalization" }, { "com.microsoft", "FusedConv" },
  };
  guint before;

  /* Start from something: a small table, so that merging has to cut. */
  static const char base[] = "{\"kernels\": [{\"op_type\": \"Relu\", \"since\": [6, 20], \"may_inplace\": [[0, 0]]}]}";
  g_assert_true (pv_kernel_table_merge_data (table, base, sizeof base - 1, "base.json", &error));
  g_assert_no_error (error);
  before = pv_kernel_table_size (table);

  if (!pv_kernel_table_merge_data (table, (const char *) data, size, "fuzz.json", &error))
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == PV_KERNEL_TABLE_ERROR);
      g_assert_true (g_str_has_prefix (error->message, "fuzz.json:"));
      g_assert_cmpuint (pv_kernel_table_size (table), ==, before);
      g_assert_nonnull (pv_kernel_table_lookup (table, "", "Relu", 6));
      return 0;
    }
  g_assert_null (error);
  for (gsize i = 0; i < G_N_ELEMENTS (probes); i++)
    for (int opset = 1; opset < 25; opset += 3)
      {
        const PvKernelDef *d = pv_kernel_table_lookup (table, probes[i][0], probes[i][1], opset);
        if (d)
          {
            g_assert_cmpint (d->since_first, <=, opset);
            g_assert_cmpint (d->since_last, >=, opset);
            g_assert_true (d->n_alias == 0 || d->alias != NULL);
            g_assert_true (d->n_may_inplace == 0 || d->may_inplace != NULL);
          }
      }
  /* Every op the file names is found at the start of its range. */
  {
    cJSON *root = cJSON_ParseWithLength ((const char *) data, size);
    const cJSON *kernels = root ? cJSON_GetObjectItemCaseSensitive (root, "kernels") : NULL;
    const cJSON *k;
    cJSON_ArrayForEach (k, kernels)
      {
        const cJSON *op = cJSON_GetObjectItemCaseSensitive (k, "op_type");
        const cJSON *dom = cJSON_GetObjectItemCaseSensitive (k, "domain");
        const cJSON *since = cJSON_GetObjectItemCaseSensitive (k, "since");
        int first = since ? (int) cJSON_GetArrayItem (since, 0)->valuedouble : 1;
        const PvKernelDef *d =
          pv_kernel_table_lookup (table, dom ? dom->valuestring : "", op->valuestring, first);
        g_assert_nonnull (d);
        g_assert_cmpstr (d->op_type, ==, op->valuestring);
      }
    cJSON_Delete (root);
  }
  return 0;
}
