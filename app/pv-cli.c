#include "pv-cli.h"
#include "pv-memory-policy.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "pv-config.h"
#include "pv-element-type.h"
#include "pv-model-loader.h"
#include "pv-ort-graph-rewrite.h"
#include "pv-partition-config.h"
#include "pv-input-values.h"

typedef struct {
  const char *name;
  int (*run) (int argc, char **argv);
  const char *summary;
} Command;

static const Command commands[] = {
  { "info", pv_cli_info, "Show a model's header, counts, inputs, outputs, ops and ONNX Runtime's node order" },
  { "shapes", pv_cli_shapes, "Infer every value's type, shape and size, with symbolic dims and bounds" },
  { "partition", pv_cli_partition, "Write ONNX Runtime's default partition config (streams) for a model" },
  { "check", pv_cli_check, "Say what ONNX Runtime 1.30 does with a partition config, and why" },
  { "render", pv_cli_render, "Draw the timeline (streams, live bytes, memory lanes) as PNG, SVG or PDF" },
  { "live", pv_cli_live, "List the values live at the peak (or any step) of the plan's run, largest first" },
  { "plan", pv_cli_plan, "Plan activation memory (ort, slots or one arena), with the lower bound and a safety check" },
};

static void
print_usage (FILE *out)
{
  fprintf (out, "Usage: planviz-cli COMMAND [OPTION…] MODEL.onnx\n\n"
                "See how ONNX Runtime lays out a model's activation memory.\n\nCommands:\n");
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf (out, "\nRun “planviz-cli COMMAND --help” for a command's options.\n"
                "Exit status: 0 success, 1 bad input, 2 bad usage.\n");
}

gboolean
pv_cli_parse (GOptionContext *context, int *argc, char ***argv)
{
  g_autoptr (GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      g_printerr ("planviz-cli: %s\nTry “planviz-cli %s --help”.\n", error->message, (*argv)[0]);
      return FALSE;
    }
  return TRUE;
}

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

PvModel *
pv_cli_load_model (const char *path, PvOrtShapes **ort_shapes, GError **error)
{
  g_autoptr (PvModel) model = pv_model_load_from_file (path, error);

  if (model == NULL || !pv_ort_graph_rewrite (model, NULL, ort_shapes, error))
    return NULL;
  return g_steal_pointer (&model);
}

gboolean
pv_cli_partition_size_ok (const PvGraph *graph, const char *path, gsize len)
{
  gsize limit = pv_partition_config_size_limit (graph);
  g_autofree char *size = NULL, *max = NULL;

  if (len <= limit)
    return TRUE;
  size = g_format_size_full (len, G_FORMAT_SIZE_IEC_UNITS);
  max = g_format_size_full (limit, G_FORMAT_SIZE_IEC_UNITS);
  g_printerr ("planviz-cli: %s: %s, larger than the %s planviz reads as a partition config of this %d-node model "
              "(a config lists each node once; this one would repeat names by the million)\n",
              path, size, max, graph->n_nodes);
  return FALSE;
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

GHashTable *
pv_cli_parse_input_values (char **specs, const PvModel *model)
{
  g_autoptr (GError) error = NULL;
  GHashTable *values = pv_input_values_parse (model, (const char *const *) specs, &error);

  if (values == NULL)
    g_printerr ("planviz-cli: --input-value %s\n", error->message);
  return values;
}

int
pv_cli_main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  pv_memory_policy_keep_freed ();
  if (argc < 2)
    {
      print_usage (stderr);
      return PV_CLI_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_usage (stdout);
      return PV_CLI_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("planviz-cli %s\n", PV_VERSION);
      return PV_CLI_OK;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].run (argc - 1, argv + 1);

  g_printerr ("planviz-cli: unknown command “%s”\n\n", argv[1]);
  print_usage (stderr);
  return PV_CLI_USAGE;
}
