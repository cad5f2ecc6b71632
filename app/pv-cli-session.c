/* pv-cli-session.c: the planning options planviz-cli's commands share. */
#include "pv-cli-session.h"

#include <string.h>

#include "pv-cli-args.h"
#include "pv-read-file.h"

static void
add_entries (PvCliPlanArgs *args, GOptionContext *context)
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
    { "config-devices", 0, 0, G_OPTION_ARG_NONE, &args->config_devices,
      "Run each node on its --partition stream's \"devices\" entry (\"1\": GPU), as the window does with the "
      "CUDA registry", NULL },
    { "bound", 'b', 0, G_OPTION_ARG_STRING_ARRAY, &args->bound_specs, "Give a symbolic dim a value (repeatable)",
      "SYMBOL=N" },
    { "input-shape", 'i', 0, G_OPTION_ARG_STRING_ARRAY, &args->input_specs,
      "Fix a graph input's dims (repeatable)", "NAME=D1,D2,…" },
    { "input-value", 0, 0, G_OPTION_ARG_STRING_ARRAY, &args->value_specs,
      "Give a graph input known contents, e.g. a scalar an If tests (repeatable)", "NAME=V" },
    { "kernel-defs", 'k', 0, G_OPTION_ARG_FILENAME, &args->kernel_defs,
      "Kernel behaviour table replacing built-in entries", "FILE" },
    { "intra-op", 0, 0, G_OPTION_ARG_INT, &args->intra_op,
      "ORT's intra_op_num_threads, which sizes MLAS's scratch (default: this machine's processors)", "N" },
    { "arena-extend-strategy", 0, 0, G_OPTION_ARG_STRING, &args->arena_extend_strategy,
      "ORT's arena_extend_strategy (default kNextPowerOfTwo)", "kNextPowerOfTwo|kSameAsRequested" },
    { "initial-chunk", 0, 0, G_OPTION_ARG_INT64, &args->initial_chunk,
      "ORT's initial_chunk_size_bytes (default 1048576)", "BYTES" },
    { "max-dead-bytes", 0, 0, G_OPTION_ARG_INT64, &args->max_dead_bytes,
      "ORT's max_dead_bytes_per_chunk (default 134217728)", "BYTES" },
    { "mem-pattern", 0, 0, G_OPTION_ARG_STRING, &args->mem_pattern, "ORT's enable_mem_pattern (default on)",
      "on|off" },
    { "cpu-arena", 0, 0, G_OPTION_ARG_STRING, &args->cpu_arena, "ORT's enable_cpu_mem_arena (default on)",
      "on|off" },
    { NULL },
  };

  /* The group copies the entries; their targets are @args' fields. */
  g_option_context_add_main_entries (context, entries, NULL);
}

int
pv_cli_plan_args_parse (PvCliPlanArgs *args, const char *command, GOptionContext *context, int *argc, char ***argv)
{
  memset (args, 0, sizeof *args);
  args->intra_op = -1;
  args->initial_chunk = args->max_dead_bytes = -1;
  add_entries (args, context);
  return pv_cli_parse_model (command, context, argc, argv);
}

gboolean
pv_cli_parse_planner (const char *command, const char *name, PvPlannerKind *kind)
{
  if (name == NULL || pv_planner_kind_from_string (name, kind))
    return TRUE;
  g_printerr ("planviz-cli %s: unknown planner “%s” (ort, slots, arena)\n", command, name);
  return FALSE;
}

/* on/off options; FALSE (after a message) for anything else. */
static gboolean
parse_on_off (const char *command, const char *option, const char *text, gboolean *out)
{
  if (text == NULL)
    return TRUE;
  if (g_strcmp0 (text, "on") == 0 || g_strcmp0 (text, "off") == 0)
    {
      *out = g_strcmp0 (text, "on") == 0;
      return TRUE;
    }
  g_printerr ("planviz-cli %s: --%s takes on or off, not “%s”\n", command, option, text);
  return FALSE;
}

/* ORT's arena settings from @args into @args->arena; FALSE after a message. */
static gboolean
parse_arena (const char *command, PvCliPlanArgs *args)
{
  PvOrtArenaSettings *a = &args->arena;

  pv_ort_arena_settings_init (a);
  a->intra_op_threads = args->intra_op > 0 ? args->intra_op : (int) g_get_num_processors ();
  if (args->intra_op == 0 || args->intra_op < -1 || args->initial_chunk == 0 || args->initial_chunk < -1 ||
      args->max_dead_bytes < -1)
    {
      g_printerr ("planviz-cli %s: --intra-op and --initial-chunk take a positive number, --max-dead-bytes one "
                  ">= 0\n", command);
      return FALSE;
    }
  if (args->initial_chunk > 0)
    a->arena.initial_chunk_size_bytes = (guint64) args->initial_chunk;
  if (args->max_dead_bytes >= 0)
    a->arena.max_dead_bytes_per_chunk = (guint64) args->max_dead_bytes;
  if (args->arena_extend_strategy)
    {
      if (g_strcmp0 (args->arena_extend_strategy, "kNextPowerOfTwo") == 0)
        a->arena.extend_strategy = PV_ORT_ARENA_NEXT_POWER_OF_TWO;
      else if (g_strcmp0 (args->arena_extend_strategy, "kSameAsRequested") == 0)
        a->arena.extend_strategy = PV_ORT_ARENA_SAME_AS_REQUESTED;
      else
        {
          g_printerr ("planviz-cli %s: unknown arena extend strategy “%s” (kNextPowerOfTwo, kSameAsRequested)\n",
                      command, args->arena_extend_strategy);
          return FALSE;
        }
    }
  return parse_on_off (command, "mem-pattern", args->mem_pattern, &a->mem_pattern) &&
         parse_on_off (command, "cpu-arena", args->cpu_arena, &a->cpu_arena);
}

void
pv_cli_plan_args_clear (PvCliPlanArgs *args)
{
  g_clear_pointer (&args->arena_extend_strategy, g_free);
  g_clear_pointer (&args->mem_pattern, g_free);
  g_clear_pointer (&args->cpu_arena, g_free);
  g_clear_pointer (&args->partition, g_free);
  g_clear_pointer (&args->registry, g_free);
  g_clear_pointer (&args->gpu_ops, g_free);
  g_clear_pointer (&args->kernel_defs, g_free);
  g_clear_pointer (&args->device_specs, g_strfreev);
  g_clear_pointer (&args->bound_specs, g_strfreev);
  g_clear_pointer (&args->input_specs, g_strfreev);
  g_clear_pointer (&args->value_specs, g_strfreev);
}

int
pv_cli_plan_session (const char *command, const char *model_path, PvCliPlanArgs *args,
                     PvSessionOptions *options, PvModel **model_out, PvKernelTable **kernels_out,
                     PvSession **session_out)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;
  g_autoptr (PvKernelTable) kernels = NULL;
  g_autoptr (PvOrtShapes) ort_shapes = NULL;
  g_autoptr (GHashTable) bounds = NULL, input_shapes = NULL, input_values = NULL;
  g_autofree char *partition_text = NULL;
  g_autofree int *devices = NULL;
  gsize partition_len = 0;
  int status = PV_CLI_OK;

  if (args->registry && g_strcmp0 (args->registry, "cpu") != 0 && g_strcmp0 (args->registry, "cuda") != 0)
    {
      g_printerr ("planviz-cli %s: unknown registry “%s” (cpu, cuda)\n", command, args->registry);
      return PV_CLI_USAGE;
    }
  if (!parse_arena (command, args))
    return PV_CLI_USAGE;
  bounds = pv_cli_parse_bounds (args->bound_specs);
  input_shapes = pv_cli_parse_input_shapes (args->input_specs);
  if (bounds == NULL || input_shapes == NULL)
    return PV_CLI_USAGE;
  if (args->partition && !pv_read_file (args->partition, PV_READ_FILE_LIMIT, &partition_text, &partition_len, &error))
    {
      g_printerr ("planviz-cli: %s\n", error->message);
      return PV_CLI_BAD_INPUT;
    }

  model = pv_cli_load_model (model_path, &ort_shapes, &error);
  if (model && partition_text && !pv_cli_partition_size_ok (model->graph, args->partition, partition_len))
    return PV_CLI_BAD_INPUT;
  if (model && (input_values = pv_cli_parse_input_values (args->value_specs, model)) == NULL)
    return PV_CLI_USAGE;
  if (model && !pv_cli_node_devices (model->graph, args->gpu_ops, args->device_specs, &devices, &status))
    return status;
  if (model && args->config_devices &&
      !pv_cli_config_devices (command, model->graph, devices != NULL, partition_text, partition_len, &devices))
    return PV_CLI_USAGE;
  kernels = model ? pv_kernel_table_new_default (&error) : NULL;
  if (kernels && args->kernel_defs && !pv_kernel_table_merge_file (kernels, args->kernel_defs, &error))
    g_clear_pointer (&kernels, pv_kernel_table_free);
  options->bounds = bounds;
  options->input_shapes = input_shapes;
  options->input_values = input_values;
  options->partition_text = partition_text;
  options->partition_len = partition_len;
  options->node_devices = devices;
  options->registry = g_strcmp0 (args->registry, "cuda") == 0 ? PV_REGISTRY_CUDA : PV_REGISTRY_CPU;
  options->ort_arena = &args->arena;
  options->ort_shapes = ort_shapes;
  *session_out = kernels ? pv_session_new (model, kernels, options, &error) : NULL;
  /* The session copies what it keeps; the options' borrowed fields die here. */
  options->bounds = options->input_shapes = options->input_values = NULL;
  options->partition_text = NULL;
  options->node_devices = NULL;
  options->ort_shapes = NULL;
  if (*session_out == NULL)
    {
      g_printerr ("planviz-cli: %s\n", error->message);
      return PV_CLI_BAD_INPUT;
    }
  *model_out = g_steal_pointer (&model);
  *kernels_out = g_steal_pointer (&kernels);
  return PV_CLI_OK;
}
