/* pv-cli-session.c: the planning options planviz-cli's commands share. */
#include "pv-cli-session.h"

void
pv_cli_plan_args_add_entries (PvCliPlanArgs *args, GOptionContext *context)
{
  const GOptionEntry entries[] = {
    { "partition", 0, 0, G_OPTION_ARG_FILENAME, &args->partition,
      "ONNX Runtime's DeviceBasedPartitioner config (default: ORT's own partition)", "P.json" },
    { "registry", 0, 0, G_OPTION_ARG_STRING, &args->registry, "Stream wait handles: cpu (default) or cuda",
      "cpu|cuda" },
    { "device", 0, 0, G_OPTION_ARG_STRING_ARRAY, &args->device_specs, "Run a node on a device (repeatable)",
      "NODE=1" },
    { "gpu-ops", 0, 0, G_OPTION_ARG_STRING, &args->gpu_ops, "Nodes of these op types run on the GPU (1)",
      "OP,OP,…" },
    { "bound", 'b', 0, G_OPTION_ARG_STRING_ARRAY, &args->bound_specs, "Give a symbolic dim a value (repeatable)",
      "SYMBOL=N" },
    { "input-shape", 'i', 0, G_OPTION_ARG_STRING_ARRAY, &args->input_specs,
      "Fix a graph input's dims (repeatable)", "NAME=D1,D2,…" },
    { "kernel-defs", 'k', 0, G_OPTION_ARG_FILENAME, &args->kernel_defs,
      "Kernel behaviour table replacing built-in entries", "FILE" },
    { NULL },
  };

  /* The group copies the entries; their targets are @args' fields. */
  g_option_context_add_main_entries (context, entries, NULL);
}

void
pv_cli_plan_args_clear (PvCliPlanArgs *args)
{
  g_clear_pointer (&args->partition, g_free);
  g_clear_pointer (&args->registry, g_free);
  g_clear_pointer (&args->gpu_ops, g_free);
  g_clear_pointer (&args->kernel_defs, g_free);
  g_clear_pointer (&args->device_specs, g_strfreev);
  g_clear_pointer (&args->bound_specs, g_strfreev);
  g_clear_pointer (&args->input_specs, g_strfreev);
}

int
pv_cli_plan_session (const char *command, const char *model_path, const PvCliPlanArgs *args,
                     PvSessionOptions *options, PvModel **model_out, PvKernelTable **kernels_out,
                     PvSession **session_out)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;
  g_autoptr (PvKernelTable) kernels = NULL;
  g_autoptr (GHashTable) bounds = NULL, input_shapes = NULL;
  g_autofree char *partition_text = NULL;
  g_autofree int *devices = NULL;
  gsize partition_len = 0;
  int status = PV_CLI_OK;

  if (args->registry && g_strcmp0 (args->registry, "cpu") != 0 && g_strcmp0 (args->registry, "cuda") != 0)
    {
      g_printerr ("planviz-cli %s: unknown registry “%s” (cpu, cuda)\n", command, args->registry);
      return PV_CLI_USAGE;
    }
  bounds = pv_cli_parse_bounds (args->bound_specs);
  input_shapes = pv_cli_parse_input_shapes (args->input_specs);
  if (bounds == NULL || input_shapes == NULL)
    return PV_CLI_USAGE;
  if (args->partition && !g_file_get_contents (args->partition, &partition_text, &partition_len, &error))
    {
      g_printerr ("planviz-cli: %s\n", error->message);
      return PV_CLI_BAD_INPUT;
    }

  model = pv_model_load_from_file (model_path, &error);
  if (model && !pv_cli_node_devices (model->graph, args->gpu_ops, args->device_specs, &devices, &status))
    return status;
  kernels = model ? pv_kernel_table_new_default (&error) : NULL;
  if (kernels && args->kernel_defs && !pv_kernel_table_merge_file (kernels, args->kernel_defs, &error))
    g_clear_pointer (&kernels, pv_kernel_table_free);
  options->bounds = bounds;
  options->input_shapes = input_shapes;
  options->partition_text = partition_text;
  options->partition_len = partition_len;
  options->node_devices = devices;
  options->registry = g_strcmp0 (args->registry, "cuda") == 0 ? PV_REGISTRY_CUDA : PV_REGISTRY_CPU;
  *session_out = kernels ? pv_session_new (model, kernels, options, &error) : NULL;
  /* The session copies what it keeps; the options' borrowed fields die here. */
  options->bounds = options->input_shapes = NULL;
  options->partition_text = NULL;
  options->node_devices = NULL;
  if (*session_out == NULL)
    {
      g_printerr ("planviz-cli: %s\n", error->message);
      return PV_CLI_BAD_INPUT;
    }
  *model_out = g_steal_pointer (&model);
  *kernels_out = g_steal_pointer (&kernels);
  return PV_CLI_OK;
}
