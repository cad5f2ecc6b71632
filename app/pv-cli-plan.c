/* planviz-cli plan: a memory plan of a model, checked. */
#include <stdio.h>

#include "pv-cli.h"
#include "pv-model-loader.h"
#include "pv-plan-export.h"
#include "pv-session.h"

int
pv_cli_plan (int argc, char **argv)
{
  g_autofree char *planner = NULL, *format = NULL, *kernel_defs = NULL, *partition = NULL, *registry = NULL;
  g_autofree char *partition_text = NULL, *gpu_ops = NULL;
  g_auto (GStrv) device_specs = NULL;
  g_autofree int *devices = NULL;
  int status = PV_CLI_OK;
  gsize partition_len = 0;
  g_auto (GStrv) bound_specs = NULL, input_specs = NULL;
  gboolean include_inputs = FALSE, roofline = FALSE;
  GOptionEntry entries[] = {
    { "planner", 'p', 0, G_OPTION_ARG_STRING, &planner,
      "ort (ONNX Runtime's own plan), slots (greedy slots) or arena (offsets in one arena)", "PLANNER" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format,
      "text, json, trace (Chrome trace events) or ort (ONNX Runtime's plan printout)", "FORMAT" },
    { "partition", 0, 0, G_OPTION_ARG_FILENAME, &partition, "DeviceBasedPartitioner config (default: ORT's)",
      "P.json" },
    { "registry", 0, 0, G_OPTION_ARG_STRING, &registry, "Stream wait handles: cpu (default) or cuda", "cpu|cuda" },
    { "device", 0, 0, G_OPTION_ARG_STRING_ARRAY, &device_specs, "Run a node on a device (repeatable)", "NODE=1" },
    { "gpu-ops", 0, 0, G_OPTION_ARG_STRING, &gpu_ops, "Nodes of these op types run on the GPU (1)", "OP,OP,…" },
    { "bound", 'b', 0, G_OPTION_ARG_STRING_ARRAY, &bound_specs, "Give a symbolic dim a value (repeatable)", "SYMBOL=N" },
    { "input-shape", 'i', 0, G_OPTION_ARG_STRING_ARRAY, &input_specs, "Fix a graph input's dims (repeatable)",
      "NAME=D1,D2,…" },
    { "kernel-defs", 'k', 0, G_OPTION_ARG_FILENAME, &kernel_defs, "Kernel behaviour table replacing built-in entries",
      "FILE" },
    { "include-graph-inputs", 0, 0, G_OPTION_ARG_NONE, &include_inputs, "Place graph inputs too", NULL },
    { "roofline", 0, 0, G_OPTION_ARG_NONE, &roofline,
      "Schedule kernels by FLOPs and bytes moved (µs) instead of one unit each", NULL },
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
  PvPlannerKind kind = PV_PLANNER_ORT;
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
      g_printerr ("planviz-cli plan: unknown planner “%s” (ort, slots, arena)\n", planner);
      return PV_CLI_USAGE;
    }
  if (format && !g_strv_contains ((const char *const[]) { "text", "json", "trace", "ort", NULL }, format))
    {
      g_printerr ("planviz-cli plan: unknown format “%s” (text, json, trace, ort)\n", format);
      return PV_CLI_USAGE;
    }
  if (registry && g_strcmp0 (registry, "cpu") != 0 && g_strcmp0 (registry, "cuda") != 0)
    {
      g_printerr ("planviz-cli plan: unknown registry “%s” (cpu, cuda)\n", registry);
      return PV_CLI_USAGE;
    }
  if (g_strcmp0 (format, "ort") == 0)
    kind = PV_PLANNER_ORT;
  json = g_strcmp0 (format, "json") == 0;
  bounds = pv_cli_parse_bounds (bound_specs);
  input_shapes = pv_cli_parse_input_shapes (input_specs);
  if (bounds == NULL || input_shapes == NULL)
    return PV_CLI_USAGE;

  if (partition && !g_file_get_contents (partition, &partition_text, &partition_len, &error))
    {
      g_printerr ("planviz-cli: %s\n", error->message);
      return PV_CLI_BAD_INPUT;
    }
  model = pv_model_load_from_file (argv[1], &error);
  if (model && !pv_cli_node_devices (model->graph, gpu_ops, device_specs, &devices, &status))
    return status;
  kernels = model ? pv_kernel_table_new_default (&error) : NULL;
  if (kernels && kernel_defs && !pv_kernel_table_merge_file (kernels, kernel_defs, &error))
    g_clear_pointer (&kernels, pv_kernel_table_free);
  options.bounds = bounds;
  options.input_shapes = input_shapes;
  options.include_graph_inputs = include_inputs;
  options.partition_text = partition_text;
  options.partition_len = partition_len;
  options.node_devices = devices;
  options.roofline_cost = roofline;
  options.registry = g_strcmp0 (registry, "cuda") == 0 ? PV_REGISTRY_CUDA : PV_REGISTRY_CPU;
  session = kernels ? pv_session_new (model, kernels, &options, &error) : NULL;
  if (session == NULL)
    {
      g_printerr ("planviz-cli: %s\n", error->message);
      return PV_CLI_BAD_INPUT;
    }
  if (g_strcmp0 (format, "ort") == 0)
    text = session->ort ? pv_ort_plan_to_ort_text (session->ort) : NULL;
  else if (g_strcmp0 (format, "trace") == 0)
    text = pv_plan_export_trace (session, kind);
  else
    text = json ? pv_plan_export_json (session, kind) : pv_plan_export_text (session, kind);
  if (text == NULL)
    {
      g_printerr ("planviz-cli: %s\n", session->ort_error);
      return PV_CLI_BAD_INPUT;
    }
  fputs (text, stdout);
  if (!g_str_has_suffix (text, "\n"))
    fputc ('\n', stdout);
  /* A plan ORT refuses, or an unsafe plan, is a finding scripts must notice. */
  if (kind == PV_PLANNER_ORT)
    return session->ort && session->ort_check->ok ? PV_CLI_OK : PV_CLI_BAD_INPUT;
  if (!session->slots->deferred &&
      !(kind == PV_PLANNER_SLOTS ? session->slots_check->ok : session->arena_check->ok))
    return PV_CLI_BAD_INPUT;
  return PV_CLI_OK;
}
