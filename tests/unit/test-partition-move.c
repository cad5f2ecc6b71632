/* Moving nodes between the streams of a partition config
 * (pv_partition_config_move_nodes): the text that comes out, that ORT
 * (pv_partition_config_check) accepts it, and that the session plans each
 * node on the stream it was moved to. */
#include <string.h>

#include "pv-model-loader.h"
#include "pv-onnx-builder.h"
#include "pv-partition-config.h"
#include "pv-session.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define N PV_ONNX_NAMES
#define DBP "\"type\":\"DeviceBasedPartitioner\""

static const char *data_dir;

static PvModel *
load_data (const char *file)
{
  g_autofree char *path = g_build_filename (data_dir, file, NULL);
  g_autoptr (GError) error = NULL;
  PvModel *model = pv_model_load_from_file (path, &error);

  g_assert_no_error (error);
  return model;
}

static char *
read_data (const char *file)
{
  g_autofree char *path = g_build_filename (data_dir, file, NULL);
  g_autoptr (GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* n0 -> n1 -> n2 -> n3 -> n4 -> n5, all Relu. */
static PvModel *
model_chain (void)
{
  PvOnnxBuilder *b = pv_onnx_builder_new (8, "planviz-test");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  PvModel *model;

  pv_onnx_builder_add_opset (b, "", 17);
  pv_onnx_graph_add_input (g, "v0", F, "4");
  for (int i = 0; i < 6; i++)
    {
      g_autofree char *name = g_strdup_printf ("n%d", i);
      g_autofree char *in = g_strdup_printf ("v%d", i);
      g_autofree char *out = g_strdup_printf ("v%d", i + 1);
      pv_onnx_graph_add_node (g, "Relu", name, N (in), N (out));
    }
  pv_onnx_graph_add_output (g, "v6", F, "4");
  bytes = pv_onnx_builder_pack (b);
  model = pv_model_load_from_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "chain.onnx", &error);
  g_assert_no_error (error);
  pv_onnx_builder_free (b);
  return model;
}

static char *
move (const PvModel *model, const char *text, const char *const *nodes, int stream, const char *device)
{
  g_autoptr (GError) error = NULL;
  char *out = NULL;

  g_assert_true (pv_partition_config_move_nodes (model->graph, NULL, text, strlen (text), nodes, stream, device, &out,
                                                 &error));
  g_assert_no_error (error);
  g_assert_nonnull (out);
  return out;
}

static void
move_fails (const PvModel *model, const char *text, const char *const *nodes, int stream, int code,
            const char *message_part)
{
  g_autoptr (GError) error = NULL;
  char *out = NULL;

  g_assert_false (pv_partition_config_move_nodes (model->graph, NULL, text, strlen (text), nodes, stream, NULL, &out,
                                                  &error));
  g_assert_null (out);
  g_assert_error (error, PV_PARTITION_ERROR, code);
  if (strstr (error->message, message_part) == NULL)
    g_error ("\"%s\" does not say \"%s\"", error->message, message_part);
}

/* ORT accepts @text without a finding, and runs it as @expected says
 * ("n0 n1|n2": stream 0 runs n0 and n1, stream 1 runs n2). */
static void
assert_runs (const PvModel *model, const char *text, const char *expected)
{
  g_autoptr (PvPartitionCheck) check = pv_partition_config_check (model->graph, text, strlen (text), NULL);
  GString *got = g_string_new (NULL);
  g_autofree char *runs = NULL;

  for (int i = 0; i < check->n_findings; i++)
    g_printerr ("finding: %s\n", check->findings[i].message);
  g_assert_cmpint (check->verdict, ==, PV_ORT_ACCEPTS);
  g_assert_cmpint (check->n_findings, ==, 0);
  for (int s = 0; s < check->effective->n_streams; s++)
    for (int k = 0; k < check->effective->streams[s].n_nodes; k++)
      g_string_append_printf (got, "%s%s", k ? " " : s ? "|" : "",
                              model->graph->nodes[check->effective->streams[s].nodes[k]].name);
  runs = g_string_free (got, FALSE);
  g_assert_cmpstr (runs, ==, expected);
}

static void
test_compact (void)
{
  g_autoptr (PvModel) model = model_chain ();
  const char *text = "{\"devices\":[\"0\",\"0\"],\"streams\":[[\"n0\",\"n1\",\"n2\"],[\"n3\",\"n4\",\"n5\"]]," DBP "}";
  g_autofree char *to0 = move (model, text, (const char *[]) { "n4", NULL }, 0, NULL);
  g_autofree char *back = move (model, to0, (const char *[]) { "n4", NULL }, 1, NULL);

  /* In ORT's run order inside the target stream, compact stays compact. */
  g_assert_cmpstr (to0, ==,
                   "{\"devices\":[\"0\",\"0\"],\"streams\":[[\"n0\",\"n1\",\"n2\",\"n4\"],[\"n3\",\"n5\"]]," DBP "}");
  assert_runs (model, to0, "n0 n1 n2 n4|n3 n5");
  g_assert_cmpstr (back, ==, text);

  /* A file's final newline stays. */
  {
    g_autofree char *with_nl = g_strconcat (text, "\n", NULL);
    g_autofree char *moved = move (model, with_nl, (const char *[]) { "n4", NULL }, 0, NULL);
    g_autofree char *expected = g_strconcat (to0, "\n", NULL);
    g_assert_cmpstr (moved, ==, expected);
  }

  /* Between two listed nodes: before the first one that runs later. */
  {
    g_autofree char *mid = move (model, text, (const char *[]) { "n1", NULL }, 1, NULL);
    g_assert_cmpstr (mid, ==,
                     "{\"devices\":[\"0\",\"0\"],\"streams\":[[\"n0\",\"n2\"],[\"n1\",\"n3\",\"n4\",\"n5\"]]," DBP "}");
    assert_runs (model, mid, "n0 n2|n1 n3 n4 n5");
  }
}

static void
test_pretty (void)
{
  g_autoptr (PvModel) model = model_chain ();
  g_autoptr (PvPartitionConfig) def = pv_partition_config_default (model->graph, NULL);
  g_autofree char *pretty = pv_partition_config_to_json (model->graph, def, TRUE);
  g_autofree char *split = move (model, pretty, (const char *[]) { "n5", "n3", NULL }, PV_PARTITION_NEW_STREAM, NULL);
  g_autofree char *joined = move (model, split, (const char *[]) { "n3", "n5", NULL }, 0, NULL);

  g_assert_cmpstr (split, ==,
                   "{\n  \"devices\": [\n    \"0\",\n    \"0\"\n  ],\n  \"streams\": [\n    [\n      \"n0\",\n"
                   "      \"n1\",\n      \"n2\",\n      \"n4\"\n    ],\n    [\n      \"n3\",\n      \"n5\"\n    ]\n"
                   "  ],\n  \"type\": \"DeviceBasedPartitioner\"\n}\n");
  assert_runs (model, split, "n0 n1 n2 n4|n3 n5");
  /* Moving them back empties the new stream, which goes with its device. */
  g_assert_cmpstr (joined, ==, pretty);
}

static void
test_new_stream_device (void)
{
  g_autoptr (PvModel) model = model_chain ();
  const char *text = "{\"devices\":[\"0\",\"7\"],\"streams\":[[\"n0\",\"n1\",\"n2\"],[\"n3\",\"n4\",\"n5\"]]," DBP "}";
  g_autofree char *from1 = move (model, text, (const char *[]) { "n4", NULL }, PV_PARTITION_NEW_STREAM, NULL);
  g_autofree char *given = move (model, text, (const char *[]) { "n4", NULL }, PV_PARTITION_NEW_STREAM, "1");

  /* The device of the stream the node came from, or the one given. */
  g_assert_cmpstr (from1, ==,
                   "{\"devices\":[\"0\",\"7\",\"7\"],\"streams\":[[\"n0\",\"n1\",\"n2\"],[\"n3\",\"n5\"],[\"n4\"]],"
                   DBP "}");
  g_assert_cmpstr (given, ==,
                   "{\"devices\":[\"0\",\"7\",\"1\"],\"streams\":[[\"n0\",\"n1\",\"n2\"],[\"n3\",\"n5\"],[\"n4\"]],"
                   DBP "}");
}

static void
test_listed_twice_and_unlisted (void)
{
  g_autoptr (PvModel) model = model_chain ();
  /* n2 in both streams (ORT runs it in stream 1, the last), n5 in none (ORT
   * refuses the config): after the move each is listed exactly once. */
  const char *text = "{\"devices\":[\"0\",\"0\"],\"streams\":[[\"n0\",\"n1\",\"n2\",\"n2\"],[\"n2\",\"n3\",\"n4\"]]," DBP "}";
  g_autoptr (PvPartitionCheck) before = pv_partition_config_check (model->graph, text, strlen (text), NULL);
  g_autofree char *out = move (model, text, (const char *[]) { "n2", "n5", NULL }, 0, NULL);

  g_assert_cmpint (before->verdict, ==, PV_ORT_REJECTS);
  g_assert_cmpstr (out, ==,
                   "{\"devices\":[\"0\",\"0\"],\"streams\":[[\"n0\",\"n1\",\"n2\",\"n5\"],[\"n3\",\"n4\"]]," DBP "}");
  assert_runs (model, out, "n0 n1 n2 n5|n3 n4");
}

static void
test_empty_stream_dropped (void)
{
  g_autoptr (PvModel) model = model_chain ();
  const char *text =
    "{\"devices\":[\"0\",\"1\",\"2\"],\"streams\":[[\"n0\",\"n1\"],[\"n2\",\"n3\",\"ghost\"],[\"n4\",\"n5\"]]," DBP "}";
  g_autofree char *out = move (model, text, (const char *[]) { "n2", "n3", NULL }, 2, NULL);
  g_autoptr (PvPartitionCheck) check = pv_partition_config_check (model->graph, out, strlen (out), NULL);

  /* Stream 1 keeps only a name ORT ignores: ORT would crash on it, so it
   * goes, with its device "1"; stream 2 becomes stream 1. */
  g_assert_cmpstr (out, ==,
                   "{\"devices\":[\"0\",\"2\"],\"streams\":[[\"n0\",\"n1\"],[\"n2\",\"n3\",\"n4\",\"n5\"]]," DBP "}");
  g_assert_cmpint (check->verdict, ==, PV_ORT_ACCEPTS);

  /* A name the graph lacks stays where it is when its stream keeps a node. */
  {
    g_autofree char *kept = move (model, text, (const char *[]) { "n2", NULL }, 0, NULL);
    g_assert_cmpstr (kept, ==,
                     "{\"devices\":[\"0\",\"1\",\"2\"],\"streams\":[[\"n0\",\"n1\",\"n2\"],[\"n3\",\"ghost\"],"
                     "[\"n4\",\"n5\"]]," DBP "}");
  }
}

static void
test_no_streams (void)
{
  g_autoptr (PvModel) model = model_chain ();
  g_autofree char *out = move (model, "{" DBP ",\"note\":1}", (const char *[]) { "n1", NULL }, PV_PARTITION_NEW_STREAM,
                               NULL);

  /* ORT's default partition, spelled out, then the move. */
  g_assert_cmpstr (out, ==,
                   "{\"devices\":[\"0\",\"0\"],\"streams\":[[\"n0\",\"n2\",\"n3\",\"n4\",\"n5\"],[\"n1\"]]," DBP "}");
  assert_runs (model, out, "n0 n2 n3 n4 n5|n1");
}

static void
test_errors (void)
{
  g_autoptr (PvModel) model = model_chain ();
  const char *ok = "{\"devices\":[\"0\"],\"streams\":[[\"n0\",\"n1\",\"n2\",\"n3\",\"n4\",\"n5\"]]," DBP "}";
  const char *const n1[] = { "n1", NULL };

  move_fails (model, "{\n  \"devices\": [\"0\"],,\n}", n1, 0, PV_PARTITION_ERROR_INVALID, "line 2, column 20");
  move_fails (model, "", n1, 0, PV_PARTITION_ERROR_INVALID, "not valid JSON");
  move_fails (model, "[]", n1, 0, PV_PARTITION_ERROR_INVALID, "must be an object");
  move_fails (model, "{\"type\":\"Other\"}", n1, 0, PV_PARTITION_ERROR_INVALID, "\"type\"");
  move_fails (model, "{\"devices\":[\"0\"],\"streams\":[\"n0\"]," DBP "}", n1, 0, PV_PARTITION_ERROR_INVALID,
              "arrays of node names");
  move_fails (model, "{\"devices\":[0],\"streams\":[[\"n0\"]]," DBP "}", n1, 0, PV_PARTITION_ERROR_INVALID,
              "array of device types");
  move_fails (model, "{\"devices\":[\"0\",\"0\"],\"streams\":[[\"n0\"]]," DBP "}", n1, 0, PV_PARTITION_ERROR_INVALID,
              "1 streams but 2 device types");
  move_fails (model, ok, n1, 1, PV_PARTITION_ERROR_STREAM, "no stream 1");
  move_fails (model, ok, n1, -2, PV_PARTITION_ERROR_STREAM, "no stream -2");
  move_fails (model, ok, (const char *[]) { "n1", "nine", NULL }, 0, PV_PARTITION_ERROR_UNKNOWN_NODE,
              "no node named \"nine\"");
  move_fails (model, ok, (const char *[]) { NULL }, 0, PV_PARTITION_ERROR_UNKNOWN_NODE, "No node");
}

/* The sample config: move a node of stream 1 to stream 0 and plan it. */
static void
test_wide_branches_plan (void)
{
  g_autoptr (PvModel) model = load_data ("wide_branches.onnx");
  g_autofree char *text = read_data ("wide_branches.two-streams.json");
  g_autoptr (GError) error = NULL;
  g_autoptr (PvKernelTable) kernels = pv_kernel_table_new_default (&error);
  const char *const conv[] = { "/branch2/conv1/Conv", NULL };
  const char *const two[] = { "/branch0/conv/Conv", "/branch0/relu/Relu", NULL };
  g_autofree char *moved = move (model, text, conv, 0, NULL);
  g_autofree char *back = move (model, moved, conv, 1, NULL);
  g_autofree char *split = move (model, text, two, PV_PARTITION_NEW_STREAM, NULL);
  int id = pv_graph_find_node (model->graph, conv[0]);
  PvSessionOptions options = { 0 };

  g_assert_no_error (error);
  g_assert_cmpint (id, >=, 0);
  /* Pretty in, pretty out; one entry for the node; back where it was. */
  g_assert_true (g_str_has_prefix (moved, "{\n  \"devices\": [\n"));
  g_assert_nonnull (strstr (moved, conv[0]));
  g_assert_null (strstr (strstr (moved, conv[0]) + 1, conv[0]));
  g_assert_cmpstr (back, ==, text);

  options.partition_text = moved;
  options.partition_len = strlen (moved);
  {
    g_autoptr (PvSession) session = pv_session_new (model, kernels, &options, &error);
    g_assert_no_error (error);
    g_assert_false (pv_partition_check_has_errors (session->partition_check));
    g_assert_cmpint (session->partition_check->verdict, ==, PV_ORT_ACCEPTS);
    g_assert_nonnull (session->ort);
    g_assert_cmpint (session->ort->n_streams, ==, 2);
    g_assert_cmpint (session->ort->node_stream[id], ==, 0);
  }

  options.partition_text = split;
  options.partition_len = strlen (split);
  {
    g_autoptr (PvSession) session = pv_session_new (model, kernels, &options, &error);
    g_assert_no_error (error);
    g_assert_cmpint (session->partition_check->verdict, ==, PV_ORT_ACCEPTS);
    g_assert_nonnull (session->ort);
    g_assert_cmpint (session->ort->n_streams, ==, 3);
    for (int i = 0; two[i]; i++)
      g_assert_cmpint (session->ort->node_stream[pv_graph_find_node (model->graph, two[i])], ==, 2);
  }
}

/* The devices a config asks for (pv_partition_config_node_devices): the
 * last stream listing a node decides, only "1" is the GPU, and a session
 * given them runs the "1" stream on the GPU. */
static void
test_node_devices (void)
{
  g_autoptr (PvModel) model = model_chain ();
  g_autoptr (GError) error = NULL;
  g_autoptr (PvKernelTable) kernels = pv_kernel_table_new_default (&error);
  const char *text = "{\"devices\":[\"0\",\"1\",\"0\",\"2\"],\"streams\":[[\"n0\",\"n1\",\"n5\"],[\"n2\",\"n3\","
                     "\"ghost\"],[\"n4\",\"n3\"],[\"n5\"]]," DBP "}";
  const char *gpu = "{\"devices\":[\"0\",\"1\"],\"streams\":[[\"n0\",\"n1\",\"n4\",\"n5\"],[\"n2\",\"n3\"]]," DBP "}";
  const int expected[] = { 0, 0, 1, 0, 0, 0 };
  g_autofree int *devices = pv_partition_config_node_devices (model->graph, text, strlen (text));
  g_autofree int *gpu_devices = pv_partition_config_node_devices (model->graph, gpu, strlen (gpu));
  PvSessionOptions options = { 0 };

  g_assert_no_error (error);
  g_assert_nonnull (devices);
  for (int i = 0; i < 6; i++)
    g_assert_cmpint (devices[pv_graph_find_node (model->graph, (const char *[]) { "n0", "n1", "n2", "n3", "n4", "n5" }[i])],
                     ==, expected[i]);
  /* No GPU node, no config, no JSON: NULL, every node on the CPU. */
  g_assert_null (pv_partition_config_node_devices (
    model->graph, "{\"devices\":[\"0\",\"2\"],\"streams\":[[\"n0\",\"n1\",\"n2\"],[\"n3\",\"n4\",\"n5\"]]," DBP "}",
    strlen ("{\"devices\":[\"0\",\"2\"],\"streams\":[[\"n0\",\"n1\",\"n2\"],[\"n3\",\"n4\",\"n5\"]]," DBP "}")));
  g_assert_null (pv_partition_config_node_devices (model->graph, "{" DBP "}", strlen ("{" DBP "}")));
  g_assert_null (pv_partition_config_node_devices (model->graph, "{\"streams\":", 11));

  /* Planned with them, stream 1 is a GPU stream and the config is what ORT
   * accepts without a finding; without them ORT runs it on the CPU and the
   * checker says so. */
  options.partition_text = gpu;
  options.partition_len = strlen (gpu);
  options.registry = PV_REGISTRY_CUDA;
  {
    g_autoptr (PvSession) cpu = pv_session_new (model, kernels, &options, &error);
    g_assert_no_error (error);
    g_assert_cmpint (cpu->ort->streams[1].device.type, ==, PV_ORT_DEVICE_CPU);
    g_assert_cmpint (cpu->partition_check->n_findings, ==, 1);
    g_assert_nonnull (strstr (cpu->partition_check->findings[0].message, "runs on CPU (0)"));
  }
  options.node_devices = gpu_devices;
  {
    g_autoptr (PvSession) session = pv_session_new (model, kernels, &options, &error);
    g_assert_no_error (error);
    g_assert_cmpint (session->partition_check->verdict, ==, PV_ORT_ACCEPTS);
    g_assert_cmpint (session->partition_check->n_findings, ==, 0);
    g_assert_cmpint (session->ort->n_streams, ==, 2);
    g_assert_cmpint (session->ort->streams[0].device.type, ==, PV_ORT_DEVICE_CPU);
    g_assert_cmpint (session->ort->streams[1].device.type, ==, PV_ORT_DEVICE_GPU);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  data_dir = argc > 1 ? argv[1] : "data";
  g_test_add_func ("/partition-move/compact", test_compact);
  g_test_add_func ("/partition-move/pretty", test_pretty);
  g_test_add_func ("/partition-move/new-stream-device", test_new_stream_device);
  g_test_add_func ("/partition-move/listed-twice-and-unlisted", test_listed_twice_and_unlisted);
  g_test_add_func ("/partition-move/empty-stream-dropped", test_empty_stream_dropped);
  g_test_add_func ("/partition-move/no-streams", test_no_streams);
  g_test_add_func ("/partition-move/errors", test_errors);
  g_test_add_func ("/partition-move/wide-branches-plan", test_wide_branches_plan);
  g_test_add_func ("/partition-move/node-devices", test_node_devices);
  return g_test_run ();
}
