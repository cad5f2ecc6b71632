/* planviz-cli partition / check: write ONNX Runtime's default partition
 * config for a model, and say what ONNX Runtime 1.30 does with a config. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "pv-cli.h"
#include "pv-cli-args.h"
#include "pv-model-loader.h"
#include "pv-partition-config.h"
#include "pv-read-file.h"
#include "pv-save-file.h"

int pv_cli_partition (int argc, char **argv);
int pv_cli_check (int argc, char **argv);

gboolean
pv_cli_config_devices (const char *command, const PvGraph *graph, gboolean have_devices, const char *text, gsize len,
                       int **devices_out)
{
  if (have_devices)
    {
      g_printerr ("planviz-cli %s: --config-devices takes each node's device from the config; leave out --device "
                  "and --gpu-ops\n",
                  command);
      return FALSE;
    }
  if (text == NULL)
    {
      g_printerr ("planviz-cli %s: --config-devices needs a config (--partition)\n", command);
      return FALSE;
    }
  g_free (*devices_out);
  *devices_out = pv_partition_config_node_devices (graph, text, len);
  return TRUE;
}

/* What partition and check do once their arguments are parsed: load the
 * model at @path and work out its node devices. Returns PV_CLI_OK, or the
 * exit code after a message. */
static int
load_model (const char *path, const char *gpu_ops, char **device_specs, PvModel **model, int **devices)
{
  g_autoptr (GError) error = NULL;
  int status = PV_CLI_OK;

  *model = pv_cli_load_model (path, NULL, &error);
  if (*model == NULL)
    {
      g_printerr ("planviz-cli: %s\n", error->message);
      return PV_CLI_BAD_INPUT;
    }
  pv_cli_node_devices ((*model)->graph, gpu_ops, device_specs, devices, &status);
  return status;
}

int
pv_cli_partition (int argc, char **argv)
{
  gboolean pretty = FALSE;
  char *output = NULL, *gpu_ops = NULL;
  char **device_specs = NULL;
  GOptionEntry entries[] = {
    { "device", 0, 0, G_OPTION_ARG_STRING_ARRAY, &device_specs,
      "Put node NODE on device type N (0 CPU, 1 GPU, 2 FPGA, 3 NPU); repeatable", "NODE=N" },
    { "gpu-ops", 0, 0, G_OPTION_ARG_STRING, &gpu_ops, "Put every node of these op types on the GPU (1)", "OP,OP,…" },
    { "pretty", 0, 0, G_OPTION_ARG_NONE, &pretty, "Indent the JSON for reading (ONNX Runtime writes it compact)",
      NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the config to FILE (atomically) instead of stdout",
      "FILE" },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new ("MODEL.onnx — write ONNX Runtime's default partition config for a model");
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;
  g_autoptr (PvPartitionConfig) config = NULL;
  g_autofree int *devices = NULL;
  g_autofree char *json = NULL;
  int status = PV_CLI_OK;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (
    context, "Without --pretty the config is byte for byte what ONNX Runtime 1.30 writes to\n"
             "session.node_partition_config_file when that file does not exist: one stream per\n"
             "device type, nodes in ONNX Runtime's default order, compact, no trailing newline\n"
             "(on a terminal a newline is added). Node devices are hypothetical: a CPU-only\n"
             "ONNX Runtime puts every node on the CPU, and a CUDA one also adds Memcpy nodes,\n"
             "which planviz does not model.");
  status = pv_cli_parse_model ("partition", context, &argc, &argv);
  if (status == PV_CLI_OK)
    status = load_model (argv[1], gpu_ops, device_specs, &model, &devices);
  if (status != PV_CLI_OK)
    goto out;
  config = pv_partition_config_default (model->graph, devices);
  json = pv_partition_config_to_json (model->graph, config, pretty);
  if (json == NULL)
    {
      g_printerr ("planviz-cli: %s: a node name is not valid UTF-8; ONNX Runtime 1.30 fails to write this config "
                  "and leaves the file empty\n",
                  argv[1]);
      status = PV_CLI_BAD_INPUT;
      goto out;
    }
  if (output)
    {
      if (!pv_save_file (output, json, strlen (json), &error))
        {
          g_printerr ("planviz-cli: %s\n", error->message);
          status = PV_CLI_BAD_INPUT;
        }
    }
  else
    {
      fputs (json, stdout);
      if (!pretty && isatty (fileno (stdout)))
        fputc ('\n', stdout);
      if (fflush (stdout) != 0)
        {
          g_printerr ("planviz-cli: cannot write the config: %s\n", g_strerror (errno));
          status = PV_CLI_BAD_INPUT;
        }
    }

out:
  g_free (output);
  g_free (gpu_ops);
  g_strfreev (device_specs);
  return status;
}

static void
print_check_text (const char *config_path, const PvGraph *graph, const PvPartitionCheck *check)
{
  const PvPartitionConfig *eff = check->effective;

  for (int i = 0; i < check->n_findings; i++)
    {
      const PvPartitionFinding *f = &check->findings[i];
      printf ("%s:%d:%d: %s: %s\n", config_path, f->line, f->column,
              f->severity == PV_FINDING_ERROR ? "error" : "warning", f->message);
      printf ("%s:%d:%d: note: ONNX Runtime 1.30 %s\n", config_path, f->line, f->column, f->ort);
    }
  printf ("%s\n", check->summary);
  if (eff->n_streams == 0)
    return;
  printf ("Streams ONNX Runtime runs%s, each in this order:\n",
          check->effective_is_default ? " (its default partition)" : "");
  for (int s = 0; s < eff->n_streams; s++)
    {
      const PvStream *st = &eff->streams[s];
      const char *dev = pv_device_type_name (st->device);
      printf ("  stream %d on %s (%d), %d node%s:\n", s, dev ? dev : "device", st->device, st->n_nodes,
              st->n_nodes == 1 ? "" : "s");
      for (int k = 0; k < st->n_nodes; k++)
        {
          const PvNode *node = &graph->nodes[st->nodes[k]];
          printf ("    %-40s %s\n", node->name, node->op_type);
        }
    }
}

static void
print_check_json (const PvGraph *graph, const PvPartitionCheck *check)
{
  cJSON *root = cJSON_CreateObject ();
  cJSON *findings = cJSON_CreateArray ();
  cJSON *streams = cJSON_CreateArray ();
  cJSON *devices = cJSON_CreateArray ();

  cJSON_AddStringToObject (root, "ort", pv_ort_verdict_name (check->verdict));
  if (check->ort_message)
    cJSON_AddStringToObject (root, "ort_message", check->ort_message);
  else
    cJSON_AddNullToObject (root, "ort_message");
  cJSON_AddStringToObject (root, "summary", check->summary);
  for (int i = 0; i < check->n_findings; i++)
    {
      const PvPartitionFinding *f = &check->findings[i];
      cJSON *item = cJSON_CreateObject ();
      cJSON_AddStringToObject (item, "severity", f->severity == PV_FINDING_ERROR ? "error" : "warning");
      cJSON_AddNumberToObject (item, "line", f->line);
      cJSON_AddNumberToObject (item, "column", f->column);
      cJSON_AddStringToObject (item, "message", f->message);
      cJSON_AddStringToObject (item, "ort", f->ort);
      cJSON_AddItemToArray (findings, item);
    }
  cJSON_AddItemToObject (root, "findings", findings);
  for (int s = 0; s < check->effective->n_streams; s++)
    {
      const PvStream *st = &check->effective->streams[s];
      cJSON *names = cJSON_CreateArray ();
      for (int k = 0; k < st->n_nodes; k++)
        cJSON_AddItemToArray (names, cJSON_CreateString (graph->nodes[st->nodes[k]].name));
      cJSON_AddItemToArray (streams, names);
      cJSON_AddItemToArray (devices, cJSON_CreateNumber (st->device));
    }
  cJSON_AddItemToObject (root, "effective_streams", streams);
  cJSON_AddItemToObject (root, "effective_devices", devices);
  cJSON_AddBoolToObject (root, "effective_is_default", check->effective_is_default);
  pv_cli_print_json (root);
}

int
pv_cli_check (int argc, char **argv)
{
  gboolean json = FALSE, config_devices = FALSE;
  char *gpu_ops = NULL;
  char **device_specs = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { "device", 0, 0, G_OPTION_ARG_STRING_ARRAY, &device_specs,
      "Node NODE runs on device type N (0 CPU, 1 GPU, 2 FPGA, 3 NPU); repeatable", "NODE=N" },
    { "gpu-ops", 0, 0, G_OPTION_ARG_STRING, &gpu_ops, "Nodes of these op types run on the GPU (1)", "OP,OP,…" },
    { "config-devices", 0, 0, G_OPTION_ARG_NONE, &config_devices,
      "Each node runs on its stream's \"devices\" entry (\"1\": GPU), as the window has it with the CUDA registry",
      NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new ("MODEL.onnx CONFIG.json — say what ONNX Runtime 1.30 does with a partition config");
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;
  g_autoptr (PvPartitionCheck) check = NULL;
  g_autofree int *devices = NULL;
  g_autofree char *text = NULL;
  gsize len = 0;
  GStatBuf st;
  int status = PV_CLI_OK;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (
    context, "Prints each problem as CONFIG:LINE:COLUMN: error|warning: …, followed by a note\n"
             "saying what ONNX Runtime 1.30 does about it, then the verdict (ONNX Runtime\n"
             "accepts, rejects, discards or crashes on the config) and the streams it runs.\n"
             "Exit status 1 when ONNX Runtime would not use the config as written (it\n"
             "rejects, discards or crashes) or some finding is an error; 0 otherwise.");
  if (!pv_cli_parse (context, &argc, &argv))
    status = PV_CLI_USAGE;
  else if (argc != 3)
    {
      g_printerr ("planviz-cli check: expected MODEL.onnx and CONFIG.json, got %d arguments\n", argc - 1);
      status = PV_CLI_USAGE;
    }
  else
    status = load_model (argv[1], gpu_ops, device_specs, &model, &devices);
  if (status != PV_CLI_OK)
    goto out;
  /* A config past the model's limit is refused before it is read. */
  if (g_stat (argv[2], &st) == 0 && S_ISREG (st.st_mode) &&
      !pv_cli_partition_size_ok (model->graph, argv[2], (gsize) st.st_size))
    {
      status = PV_CLI_BAD_INPUT;
      goto out;
    }
  if (!pv_read_file (argv[2], PV_READ_FILE_LIMIT, &text, &len, &error))
    {
      if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_printerr ("planviz-cli: %s does not exist (ONNX Runtime 1.30 would write its default config there)\n",
                    argv[2]);
      else
        g_printerr ("planviz-cli: %s\n", error->message);
      status = PV_CLI_BAD_INPUT;
      goto out;
    }
  if (!pv_cli_partition_size_ok (model->graph, argv[2], len))
    {
      status = PV_CLI_BAD_INPUT;
      goto out;
    }
  if (config_devices && !pv_cli_config_devices ("check", model->graph, devices != NULL, text, len, &devices))
    {
      status = PV_CLI_USAGE;
      goto out;
    }
  check = pv_partition_config_check (model->graph, text, len, devices);
  if (json)
    print_check_json (model->graph, check);
  else
    print_check_text (argv[2], model->graph, check);
  if (check->verdict != PV_ORT_ACCEPTS || pv_partition_check_has_errors (check))
    status = PV_CLI_BAD_INPUT;

out:
  g_free (gpu_ops);
  g_strfreev (device_specs);
  return status;
}
