/* pv-cli-args.c: the values planviz-cli's --bound, --input-shape and
 * --device options carry, apart from the commands so that a fuzz target
 * can call them. */
#include "pv-cli-args.h"

#include <stdio.h>
#include <string.h>

#include "pv-cli.h"
#include "pv-partition-config.h"

/* A count ≥ 0 that fits in 64 bits: strtoll would clamp
 * 99999999999999999999 to 2^63 − 1 without a word. */
static gboolean
parse_int64 (const char *text, gint64 *out)
{
  g_autoptr (GError) error = NULL;
  gint64 v;

  if (text == NULL || !g_ascii_string_to_signed (text, 10, 0, G_MAXINT64, &v, &error))
    return FALSE;
  *out = v;
  return TRUE;
}

GHashTable *
pv_cli_parse_bounds (char **specs)
{
  g_autoptr (GHashTable) bounds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (int i = 0; specs && specs[i]; i++)
    {
      const char *eq = strrchr (specs[i], '=');
      gint64 value;
      if (eq == NULL || eq == specs[i] || !parse_int64 (eq + 1, &value))
        {
          g_printerr ("planviz-cli: --bound wants SYMBOL=N with 0 ≤ N ≤ %" G_GINT64_FORMAT ", not “%s”\n", G_MAXINT64,
                      specs[i]);
          return NULL;
        }
      g_hash_table_replace (bounds, g_strndup (specs[i], eq - specs[i]), g_memdup2 (&value, sizeof value));
    }
  return g_steal_pointer (&bounds);
}

GHashTable *
pv_cli_parse_input_shapes (char **specs)
{
  g_autoptr (GHashTable) shapes =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);

  for (int i = 0; specs && specs[i]; i++)
    {
      const char *eq = strrchr (specs[i], '=');
      g_auto (GStrv) parts = NULL;
      GArray *dims;
      if (eq == NULL || eq == specs[i])
        {
          g_printerr ("planviz-cli: --input-shape wants NAME=D1,D2,… not “%s”\n", specs[i]);
          return NULL;
        }
      parts = g_strsplit (eq + 1, ",", -1);
      dims = g_array_new (FALSE, FALSE, sizeof (gint64));
      for (int k = 0; parts[k] && eq[1]; k++)
        {
          gint64 d;
          if (!parse_int64 (g_strstrip (parts[k]), &d))
            {
              g_printerr ("planviz-cli: --input-shape %s: “%s” is not a dimension\n", specs[i], parts[k]);
              g_array_unref (dims);
              return NULL;
            }
          g_array_append_val (dims, d);
        }
      g_hash_table_replace (shapes, g_strndup (specs[i], eq - specs[i]), dims);
    }
  return g_steal_pointer (&shapes);
}

gboolean
pv_cli_node_devices (const PvGraph *graph, const char *gpu_ops, char **device_specs, int **devices_out, int *exit_code)
{
  g_autofree int *devices = NULL;

  *devices_out = NULL;
  if (gpu_ops == NULL && (device_specs == NULL || device_specs[0] == NULL))
    return TRUE;
  if (gpu_ops)
    {
      g_auto (GStrv) ops = g_strsplit (gpu_ops, ",", -1);
      for (int i = 0; ops[i]; i++)
        g_strstrip (ops[i]);
      devices = pv_partition_devices_for_ops (graph, (const char *const *) ops, PV_DEVICE_GPU);
    }
  else
    devices = g_new0 (int, MAX (graph->n_nodes, 1));
  for (int i = 0; device_specs && device_specs[i]; i++)
    {
      const char *spec = device_specs[i];
      const char *eq = strrchr (spec, '=');
      g_autofree char *name = NULL;
      char *end = NULL;
      gint64 device;
      int matched = 0;

      if (eq == NULL || eq == spec || eq[1] == '\0')
        {
          g_printerr ("planviz-cli: --device wants NODE=DEVICE (0 CPU, 1 GPU, 2 FPGA, 3 NPU), not “%s”\n", spec);
          *exit_code = PV_CLI_USAGE;
          return FALSE;
        }
      device = g_ascii_strtoll (eq + 1, &end, 10);
      if (*end != '\0' || pv_device_type_name ((int) CLAMP (device, -1, 4)) == NULL)
        {
          g_printerr ("planviz-cli: --device %s: “%s” is not a device type (0 CPU, 1 GPU, 2 FPGA, 3 NPU)\n", spec,
                      eq + 1);
          *exit_code = PV_CLI_USAGE;
          return FALSE;
        }
      name = g_strndup (spec, eq - spec);
      /* Every node with that ORT name (generated names can clash). */
      for (int n = 0; n < graph->n_nodes; n++)
        if (strcmp (graph->nodes[n].name, name) == 0)
          {
            devices[n] = (int) device;
            matched++;
          }
      if (matched == 0)
        {
          g_printerr ("planviz-cli: --device %s: the main graph has no node named “%s”\n", spec, name);
          *exit_code = PV_CLI_BAD_INPUT;
          return FALSE;
        }
    }
  *devices_out = g_steal_pointer (&devices);
  return TRUE;
}
