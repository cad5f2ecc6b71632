/* planviz-cli plan: a memory plan of a model, checked. */
#include <stdio.h>

#include "pv-cli.h"
#include "pv-model-loader.h"
#include "pv-plan-export.h"
#include "pv-session.h"

int
pv_cli_plan (int argc, char **argv)
{
  g_autofree char *planner = NULL, *format = NULL, *kernel_defs = NULL;
  g_auto (GStrv) bound_specs = NULL, input_specs = NULL;
  gboolean include_inputs = FALSE;
  GOptionEntry entries[] = {
    { "planner", 'p', 0, G_OPTION_ARG_STRING, &planner, "slots (greedy slots) or arena (offsets in one arena)",
      "PLANNER" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "text or json", "FORMAT" },
    { "bound", 'b', 0, G_OPTION_ARG_STRING_ARRAY, &bound_specs, "Give a symbolic dim a value (repeatable)", "SYMBOL=N" },
    { "input-shape", 'i', 0, G_OPTION_ARG_STRING_ARRAY, &input_specs, "Fix a graph input's dims (repeatable)",
      "NAME=D1,D2,…" },
    { "kernel-defs", 'k', 0, G_OPTION_ARG_FILENAME, &kernel_defs, "Kernel behaviour table replacing built-in entries",
      "FILE" },
    { "include-graph-inputs", 0, 0, G_OPTION_ARG_NONE, &include_inputs, "Place graph inputs too", NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("MODEL.onnx — plan activation memory and check the plan");
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;
  g_autoptr (PvKernelTable) kernels = NULL;
  g_autoptr (PvSession) session = NULL;
  g_autoptr (GHashTable) bounds = NULL, input_shapes = NULL;
  g_autofree char *text = NULL;
  PvSessionOptions options = { 0 };
  PvPlannerKind kind = PV_PLANNER_SLOTS;
  gboolean json;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!pv_cli_parse (context, &argc, &argv))
    return PV_CLI_USAGE;
  if (argc != 2)
    {
      g_printerr ("planviz-cli plan: expected one MODEL.onnx, got %d arguments\n", argc - 1);
      return PV_CLI_USAGE;
    }
  if (planner && !pv_planner_kind_from_string (planner, &kind))
    {
      g_printerr ("planviz-cli plan: unknown planner “%s” (slots, arena)\n", planner);
      return PV_CLI_USAGE;
    }
  if (format && g_strcmp0 (format, "json") != 0 && g_strcmp0 (format, "text") != 0)
    {
      g_printerr ("planviz-cli plan: unknown format “%s” (text, json)\n", format);
      return PV_CLI_USAGE;
    }
  json = g_strcmp0 (format, "json") == 0;
  bounds = pv_cli_parse_bounds (bound_specs);
  input_shapes = pv_cli_parse_input_shapes (input_specs);
  if (bounds == NULL || input_shapes == NULL)
    return PV_CLI_USAGE;

  model = pv_model_load_from_file (argv[1], &error);
  kernels = model ? pv_kernel_table_new_default (&error) : NULL;
  if (kernels && kernel_defs && !pv_kernel_table_merge_file (kernels, kernel_defs, &error))
    g_clear_pointer (&kernels, pv_kernel_table_free);
  options.bounds = bounds;
  options.input_shapes = input_shapes;
  options.include_graph_inputs = include_inputs;
  session = kernels ? pv_session_new (model, kernels, &options, &error) : NULL;
  if (session == NULL)
    {
      g_printerr ("planviz-cli: %s\n", error->message);
      return PV_CLI_BAD_INPUT;
    }
  text = json ? pv_plan_export_json (session, kind) : pv_plan_export_text (session, kind);
  fputs (text, stdout);
  if (json)
    fputc ('\n', stdout);
  /* An unsafe plan is a finding scripts must notice. */
  if (!session->slots->deferred &&
      !(kind == PV_PLANNER_SLOTS ? session->slots_check->ok : session->arena_check->ok))
    return PV_CLI_BAD_INPUT;
  return PV_CLI_OK;
}
