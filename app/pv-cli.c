#include "pv-cli.h"
#include "pv-memory-policy.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "pv-config.h"
#include "pv-element-type.h"
#include "pv-error.h"
#include "pv-model-loader.h"
#include "pv-ort-graph-rewrite.h"
#include "pv-partition-config.h"
#include "pv-input-values.h"
#include "pv-json-writer.h"
#include "pv-node-limit.h"

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

int
pv_cli_parse_model (const char *command, GOptionContext *context, int *argc, char ***argv)
{
  if (!pv_cli_parse (context, argc, argv))
    return PV_CLI_USAGE;
  if (*argc != 2)
    {
      g_printerr ("planviz-cli %s: expected one MODEL.onnx, got %d arguments\n", command, *argc - 1);
      return PV_CLI_USAGE;
    }
  return PV_CLI_OK;
}

PvModel *
pv_cli_load_model (const char *path, PvOrtShapes **ort_shapes, GError **error)
{
  g_autoptr (PvModel) model = NULL;
  g_autoptr (GError) local_error = NULL;
  guint64 max_nodes;

  if (!pv_node_limit_from_environment (&max_nodes, error))
    return NULL;
  model = pv_model_load_from_file_full (path, max_nodes, NULL, &local_error);
  if (model == NULL)
    {
      if (g_error_matches (local_error, PV_MODEL_ERROR, PV_MODEL_ERROR_TOO_MANY_NODES))
        g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_TOO_MANY_NODES, "%s. %s", local_error->message,
                     pv_node_limit_hint ());
      else
        g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  if (!pv_ort_graph_rewrite (model, NULL, ort_shapes, error))
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
pv_cli_parse_input_values (char **specs, const PvModel *model)
{
  g_autoptr (GError) error = NULL;
  GHashTable *values = pv_input_values_parse (model, (const char *const *) specs, &error);

  if (values == NULL)
    g_printerr ("planviz-cli: --input-value %s\n", error->message);
  return values;
}

void
pv_cli_print_json (cJSON *root)
{
  char *text = cJSON_Print (root);
  g_autofree char *valid = pv_json_dup_valid_utf8 (text);

  printf ("%s\n", valid);
  cJSON_free (text);
  cJSON_Delete (root);
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
