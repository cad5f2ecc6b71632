/* ONNX Runtime's partition config: the default config byte for byte, and
 * every finding of the checker with its exact text, position and what
 * ONNX Runtime 1.30 does (as recorded from ORT in tests/ort/configs). */
#include <string.h>

#include "pv-model-loader.h"
#include "pv-onnx-builder.h"
#include "pv-test-model.h"
#include "pv-partition-config.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define N PV_ONNX_NAMES
#define T "`type`:`DeviceBasedPartitioner`"
#define ALL "[`right`,`left`,`Add0`,`if`,`out`]"

/* Two branches joined by an unnamed Add, an If whose subgraphs read the sum,
 * and a tail: ORT's order is right, left, Add0, if, out. */
static PvModel *
model_branches (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxGraph *then_g = pv_onnx_graph_new ("then"), *else_g = pv_onnx_graph_new ("else");

  pv_onnx_graph_add_input (g, "x", F, "4");
  pv_onnx_graph_add_input (g, "cond", ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, "");
  pv_onnx_graph_add_node (g, "Relu", "left", N ("x"), N ("l"));
  pv_onnx_graph_add_node (g, "Sigmoid", "right", N ("x"), N ("r"));
  pv_onnx_graph_add_node (g, "Add", NULL, N ("l", "r"), N ("s"));
  pv_onnx_graph_add_node (then_g, "Relu", "then_relu", N ("s"), N ("t"));
  pv_onnx_graph_add_output (then_g, "t", F, "4");
  pv_onnx_graph_add_node (else_g, "Neg", NULL, N ("s"), N ("e"));
  pv_onnx_graph_add_output (else_g, "e", F, "4");
  pv_onnx_graph_add_if (g, "if", "cond", N ("y"), then_g, else_g);
  pv_onnx_graph_add_node (g, "Relu", "out", N ("y"), N ("z"));
  pv_onnx_graph_add_output (g, "z", F, "4");
  return pv_test_load_built (b, "test.onnx");
}

/* n0 -> n1 -> ... */
static PvModel *
model_chain (int n)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);

  pv_onnx_graph_add_input (g, "v0", F, "4");
  for (int i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("n%d", i);
      g_autofree char *in = g_strdup_printf ("v%d", i);
      g_autofree char *out = g_strdup_printf ("v%d", i + 1);
      pv_onnx_graph_add_node (g, "Relu", name, N (in), N (out));
    }
  {
    g_autofree char *out = g_strdup_printf ("v%d", n);
    pv_onnx_graph_add_output (g, out, F, "4");
  }
  return pv_test_load_built (b, "test.onnx");
}

/* A chain of nodes with the given names (NULL: unnamed Relu). */
static PvModel *
model_named (const char *const *names, int n)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);

  pv_onnx_graph_add_input (g, "v0", F, "4");
  for (int i = 0; i < n; i++)
    {
      g_autofree char *in = g_strdup_printf ("v%d", i);
      g_autofree char *out = g_strdup_printf ("v%d", i + 1);
      pv_onnx_graph_add_node (g, "Relu", names[i], N (in), N (out));
    }
  {
    g_autofree char *out = g_strdup_printf ("v%d", n);
    pv_onnx_graph_add_output (g, out, F, "4");
  }
  return pv_test_load_built (b, "test.onnx");
}

/* Only a Constant, which ORT turns into an initializer: no nodes at all. */
static PvModel *
model_empty (void)
{
  PvOnnxBuilder *b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const gint64 dims[] = { 2 };
  const float values[] = { 1, 2 };
  PvOnnxNode *c = pv_onnx_graph_add_node (g, "Constant", "c", NULL, N ("k"));

  pv_onnx_node_add_attr_tensor_floats (c, "value", dims, 1, values);
  pv_onnx_graph_add_output (g, "k", F, "2");
  return pv_test_load_built (b, "test.onnx");
}

/* `quotes` -> "quotes" (configs are easier to read that way). */
static char *
q (const char *text)
{
  char *s = g_strdup (text);
  for (char *p = s; *p; p++)
    if (*p == '`')
      *p = '"';
  return s;
}

/* The whole check as text: verdict, findings, effective streams. */
static char *
describe (const PvGraph *g, const char *config, gsize len, const int *devices)
{
  g_autoptr (PvPartitionCheck) c = pv_partition_config_check (g, config, len, devices);
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "%s: %s\n", pv_ort_verdict_name (c->verdict), c->ort_message ? c->ort_message : "-");
  for (int i = 0; i < c->n_findings; i++)
    {
      const PvPartitionFinding *f = &c->findings[i];
      g_string_append_printf (s, "%d:%d %s: %s | %s\n", f->line, f->column,
                              f->severity == PV_FINDING_ERROR ? "error" : "warning", f->message, f->ort);
    }
  g_string_append (s, "streams:");
  for (int k = 0; k < c->effective->n_streams; k++)
    {
      const PvStream *st = &c->effective->streams[k];
      g_string_append (s, " [");
      for (int i = 0; i < st->n_nodes; i++)
        g_string_append_printf (s, "%s%s", i ? "," : "", g->nodes[st->nodes[i]].name);
      g_string_append_printf (s, "]@%d", st->device);
    }
  if (c->effective_is_default)
    g_string_append (s, " (default)");
  g_assert_cmpint (pv_partition_check_has_errors (c), ==,
                   strstr (s->str, " error: ") != NULL);
  return g_string_free (s, FALSE);
}

typedef struct {
  const char *config; /* ` stands for " */
  const char *expected;
} Case;

static void
run_cases (const PvGraph *g, const Case *cases, gsize n, const int *devices)
{
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *config = q (cases[i].config);
      g_autofree char *shown = g_strescape (config, NULL);
      g_autofree char *got = NULL;

      g_test_message ("config: %s", shown);
      got = describe (g, config, strlen (config), devices);
      g_assert_cmpstr (got, ==, cases[i].expected);
    }
}

/* ---------------------------------------------------------------------- */
/* Writing */

static void
test_write_default (void)
{
  g_autoptr (PvModel) m = model_branches ();
  g_autoptr (PvPartitionConfig) config = pv_partition_config_default (m->graph, NULL);
  g_autofree char *compact = pv_partition_config_to_json (m->graph, config, FALSE);
  g_autofree char *pretty = pv_partition_config_to_json (m->graph, config, TRUE);

  g_assert_cmpstr (compact, ==,
                   "{\"devices\":[\"0\"],\"streams\":[[\"right\",\"left\",\"Add0\",\"if\",\"out\"]],"
                   "\"type\":\"DeviceBasedPartitioner\"}");
  g_assert_cmpstr (pretty, ==,
                   "{\n"
                   "  \"devices\": [\n"
                   "    \"0\"\n"
                   "  ],\n"
                   "  \"streams\": [\n"
                   "    [\n"
                   "      \"right\",\n"
                   "      \"left\",\n"
                   "      \"Add0\",\n"
                   "      \"if\",\n"
                   "      \"out\"\n"
                   "    ]\n"
                   "  ],\n"
                   "  \"type\": \"DeviceBasedPartitioner\"\n"
                   "}\n");
}

static void
test_write_devices (void)
{
  g_autoptr (PvModel) m = model_branches ();
  g_autofree int *gpu_add = pv_partition_devices_for_ops (m->graph, (const char *const[]){ "Add", NULL }, PV_DEVICE_GPU);
  g_autofree int *gpu_sigmoid =
    pv_partition_devices_for_ops (m->graph, (const char *const[]){ "Sigmoid", "If", NULL }, PV_DEVICE_GPU);
  g_autoptr (PvPartitionConfig) a = pv_partition_config_default (m->graph, gpu_add);
  g_autoptr (PvPartitionConfig) b = pv_partition_config_default (m->graph, gpu_sigmoid);
  g_autofree char *ja = pv_partition_config_to_json (m->graph, a, FALSE);
  g_autofree char *jb = pv_partition_config_to_json (m->graph, b, FALSE);
  g_autofree char *pa = pv_partition_config_to_json (m->graph, a, TRUE);

  /* One stream per device type, in the order the types first appear. */
  g_assert_cmpstr (ja, ==,
                   "{\"devices\":[\"0\",\"1\"],\"streams\":[[\"right\",\"left\",\"if\",\"out\"],[\"Add0\"]],"
                   "\"type\":\"DeviceBasedPartitioner\"}");
  g_assert_cmpstr (jb, ==,
                   "{\"devices\":[\"1\",\"0\"],\"streams\":[[\"right\",\"if\"],[\"left\",\"Add0\",\"out\"]],"
                   "\"type\":\"DeviceBasedPartitioner\"}");
  g_assert_cmpstr (pa, ==,
                   "{\n  \"devices\": [\n    \"0\",\n    \"1\"\n  ],\n  \"streams\": [\n    [\n      \"right\",\n"
                   "      \"left\",\n      \"if\",\n      \"out\"\n    ],\n    [\n      \"Add0\"\n    ]\n  ],\n"
                   "  \"type\": \"DeviceBasedPartitioner\"\n}\n");
}

static void
test_write_empty_graph (void)
{
  g_autoptr (PvModel) m = model_empty ();
  g_autoptr (PvPartitionConfig) config = pv_partition_config_default (m->graph, NULL);
  g_autofree char *compact = pv_partition_config_to_json (m->graph, config, FALSE);
  g_autofree char *pretty = pv_partition_config_to_json (m->graph, config, TRUE);

  g_assert_cmpint (m->graph->n_nodes, ==, 0);
  g_assert_cmpint (config->n_streams, ==, 0);
  g_assert_cmpstr (compact, ==, "{\"type\":\"DeviceBasedPartitioner\"}");
  g_assert_cmpstr (pretty, ==, "{\n  \"type\": \"DeviceBasedPartitioner\"\n}\n");
}

static void
test_write_escapes (void)
{
  /* nlohmann's dump(): \" \\ \b \f \n \r \t, other control characters as
   * lowercase \u00xx, '/', DEL and UTF-8 as they are. Checked against ORT. */
  const char *const names[] = { "quote\"d", "back\\slash", "tab\there", "nl\nx", "\x01" "ctl", "us\x1f", "del\x7f",
                                "\xc3\xbcn\xc3\xaf/\xe5\x90\x8d", "bs\b", "ff\f", "cr\r", NULL, "Relu1", NULL };
  g_autoptr (PvModel) m = model_named (names, G_N_ELEMENTS (names));
  g_autoptr (PvPartitionConfig) config = pv_partition_config_default (m->graph, NULL);
  g_autofree char *compact = pv_partition_config_to_json (m->graph, config, FALSE);
  g_autofree char *check = NULL;

  g_assert_cmpstr (compact, ==,
                   "{\"devices\":[\"0\"],\"streams\":[[\"quote\\\"d\",\"back\\\\slash\",\"tab\\there\",\"nl\\nx\","
                   "\"\\u0001ctl\",\"us\\u001f\",\"del\x7f\",\"\xc3\xbcn\xc3\xaf/\xe5\x90\x8d\",\"bs\\b\",\"ff\\f\","
                   "\"cr\\r\",\"Relu0\",\"Relu1\",\"Relu1\"]],\"type\":\"DeviceBasedPartitioner\"}");
  /* ORT's own default names "Relu1" twice (an unnamed node's generated name
   * clashes with a model name); reading it back puts both in stream 0. */
  check = describe (m->graph, compact, strlen (compact), NULL);
  g_assert_cmpstr (check, ==,
                   "accepts: -\n"
                   "1:142 warning: \"Relu1\" names 2 nodes of the main graph (ONNX Runtime names unnamed nodes "
                   "<OpType><n> without checking for clashes) | puts all of them in the stream that lists the name\n"
                   "streams: [quote\"d,back\\slash,tab\there,nl\nx,\x01" "ctl,us\x1f,del\x7f,\xc3\xbcn\xc3\xaf/\xe5\x90\x8d,"
                   "bs\b,ff\f,cr\r,Relu0,Relu1,Relu1]@0");
}

static void
test_write_not_utf8 (void)
{
  const char *const names[] = { "ok", "bad\xff" "name" };
  g_autoptr (PvModel) m = model_named (names, 2);
  g_autoptr (PvPartitionConfig) config = pv_partition_config_default (m->graph, NULL);

  /* ORT's dump() throws; it leaves an empty file. */
  g_assert_null (pv_partition_config_to_json (m->graph, config, FALSE));
  g_assert_null (pv_partition_config_to_json (m->graph, config, TRUE));
}

static void
test_round_trip (void)
{
  g_autoptr (PvModel) m = model_branches ();
  g_autofree int *gpu = pv_partition_devices_for_ops (m->graph, (const char *const[]){ "Add", NULL }, PV_DEVICE_GPU);
  g_autoptr (PvPartitionConfig) config = pv_partition_config_default (m->graph, gpu);
  g_autofree char *json = pv_partition_config_to_json (m->graph, config, TRUE);
  g_autofree char *got = describe (m->graph, json, strlen (json), gpu);

  g_assert_cmpstr (got, ==, "accepts: -\nstreams: [right,left,if,out]@0 [Add0]@1");
}

/* ---------------------------------------------------------------------- */
/* Checking: accepted configs */

static const Case accepted[] = {
  { "{`devices`:[`0`],`streams`:[" ALL "]," T "}",
      "accepts: -\n"
      "streams: [right,left,Add0,if,out]@0" },
  { "{" T ",`streams`:[[`out`,`right`,`if`],[`left`,`Add0`,`left`]],`devices`:[`0`,`0`]}",
      "accepts: -\n"
      "1:45 warning: streams[0] lists \"out\" before \"if\", but ONNX Runtime runs \"if\" first | runs each stream in the graph's topological order, whatever the order in the file: \"right\", \"if\", \"out\"\n"
      "1:81 warning: \"left\" is listed twice in streams[1] | counts it once\n"
      "streams: [right,if,out]@0 [left,Add0]@0" },
  { "{" T ",`streams`:[[`right`,`left`,`Add0`],[`left`,`if`,`out`]],`devices`:[`0`,`0`]}",
      "accepts: -\n"
      "1:54 warning: \"left\" is also listed in streams[1] | puts it in streams[1], the last stream that lists it, and ignores this entry\n"
      "streams: [right,Add0]@0 [left,if,out]@0" },
  { "{" T ",\n `streams`:[[`right`,`left`,`Add0`,`if`,`out`,\n  `lfet`,`then_relu`,`Neg0`,`zzz`,`Right`]],\n `devices`:[`0`]}",
      "accepts: -\n"
      "3:3 warning: no node named \"lfet\" in the main graph; did you mean \"left\"? | ignores the name\n"
      "3:10 warning: \"then_relu\" is a node of the then_branch subgraph of node \"if\", not of the main graph | ignores the name: subgraphs ignore the config and run as one stream each\n"
      "3:22 warning: \"Neg0\" is a node of the else_branch subgraph of node \"if\", not of the main graph | ignores the name: subgraphs ignore the config and run as one stream each\n"
      "3:29 warning: no node named \"zzz\" in the main graph | ignores the name\n"
      "3:35 warning: no node named \"Right\" in the main graph; did you mean \"right\"? | ignores the name\n"
      "streams: [right,left,Add0,if,out]@0" },
  { "{" T "}",
      "accepts: -\n"
      "1:1 warning: the config lists no streams | partitions the graph itself (its default partition)\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{" T ",`streams`:[],`devices`:[]}",
      "accepts: -\n"
      "1:44 warning: the config lists no streams | partitions the graph itself (its default partition)\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{" T ",`streams`:null,`devices`:null}",
      "accepts: -\n"
      "1:44 warning: \"streams\" is null | reads null as no streams\n"
      "1:44 warning: the config lists no streams | partitions the graph itself (its default partition)\n"
      "1:59 warning: \"devices\" is null | reads null as no device types\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{" T ",`streams`:[[`right`,`left`],[`Add0`],[`if`,`out`]],`devices`:[`abc`,`7`,`1`]}",
      "accepts: -\n"
      "1:96 warning: devices[0] \"abc\" is not a decimal device type | reads it with atoi() as 0 and only counts it\n"
      "1:102 warning: devices[1] \"7\" is not a device type ONNX Runtime knows (0 CPU, 1 GPU, 2 FPGA, 3 NPU) | only counts it: a stream runs on the device of its first node\n"
      "1:106 warning: devices[2] is \"1\" (GPU), but streams[2] runs on CPU (0), the device of its first node \"if\" | takes each stream's device from its first node, not from \"devices\"\n"
      "streams: [right,left]@0 [Add0]@0 [if,out]@0" },
  { "{" T ",`streams`:{`b`:[`if`,`out`],`a`:{`y`:`left`,`x`:`right`},`c`:`Add0`},`devices`:{`z`:`0`,`a`:`0`,`b`:`0`}}",
      "accepts: -\n"
      "1:44 warning: \"streams\" should be an array of streams, not an object | reads the object's values, in key order, as the streams\n"
      "1:66 warning: streams[0] should be an array of node names, not an object | reads the object's values, in key order, as the node names\n"
      "1:95 warning: streams[2] should be an array of node names, not a string | reads it as a stream of one node\n"
      "1:113 warning: \"devices\" should be an array of device types, not an object | reads the object's values, in key order, as the device types\n"
      "streams: [right,left]@0 [if,out]@0 [Add0]@0" },
  { "\xef\xbb\xbf{`type`:`x`,`extra`:1," T ",`streams`:[" ALL "],`devices`:[`0`]}\n\0junk",
      "accepts: -\n"
      "1:3 warning: \"type\" is given again later | uses the last one and ignores this one\n"
      "1:14 warning: unknown key \"extra\" | ignores the key\n"
      "2:1 warning: a NUL byte ends the JSON here; the text after it is ignored | stops reading at the NUL byte and ignores the rest\n"
      "streams: [right,left,Add0,if,out]@0" },
};

static void
test_check_accepted (void)
{
  g_autoptr (PvModel) m = model_branches ();
  run_cases (m->graph, accepted, G_N_ELEMENTS (accepted) - 1, NULL);
  {
    /* The NUL byte: strlen() would stop there. */
    static const char text[] = "\xef\xbb\xbf{\"type\":\"x\",\"extra\":1,\"type\":\"DeviceBasedPartitioner\","
                               "\"streams\":[[\"right\",\"left\",\"Add0\",\"if\",\"out\"]],\"devices\":[\"0\"]}\n\0junk";
    g_autofree char *got = describe (m->graph, text, sizeof text - 1, NULL);
    g_assert_cmpstr (got, ==, accepted[G_N_ELEMENTS (accepted) - 1].expected);
  }
}

static const Case one_node[] = {
  { "{" T ",`streams`:`n0`,`devices`:`0`}",
      "accepts: -\n"
      "1:44 warning: \"streams\" should be an array of streams (arrays of node names), not a string | reads it as one stream with one node\n"
      "1:59 warning: \"devices\" should be an array of device types, not a string | reads it as one device type\n"
      "streams: [n0]@0" },
};

static const Case clashes[] = {
  { "{" T ",`streams`:[[`Relu0`,`Relu1`,`Relu1`]],`devices`:[`0`]}",
      "accepts: -\n"
      "1:54 warning: \"Relu1\" names 2 nodes of the main graph (ONNX Runtime names unnamed nodes <OpType><n> without checking for clashes) | puts all of them in the stream that lists the name\n"
      "streams: [Relu0,Relu1,Relu1]@0" },
  { "{" T ",`streams`:[[`Relu0`,`Relu1`,`Relu1`,`Relu1`]],`devices`:[`0`]}",
      "accepts: -\n"
      "1:54 warning: \"Relu1\" names 2 nodes of the main graph (ONNX Runtime names unnamed nodes <OpType><n> without checking for clashes) | puts all of them in the stream that lists the name\n"
      "1:70 warning: \"Relu1\" is listed twice in streams[0] | counts it once\n"
      "streams: [Relu0,Relu1,Relu1]@0" },
  { "{" T ",`streams`:[[`Relu0`],[`Relu1`]],`devices`:[`0`,`0`]}",
      "accepts: -\n"
      "1:56 warning: \"Relu1\" names 2 nodes of the main graph (ONNX Runtime names unnamed nodes <OpType><n> without checking for clashes) | puts all of them in the stream that lists the name\n"
      "streams: [Relu0]@0 [Relu1,Relu1]@0" },
};

/* A stream in run order: the checker finds the fourth name where the
 * stride of the ones before puts it, on the unnamed node whose generated
 * name repeats the third's; it must count as the same name. */
static const Case clashes_in_stride[] = {
  { "{" T ",`streams`:[[`a`,`b`,`Relu0`,`Relu0`,`c`]],`devices`:[`0`]}",
      "accepts: -\n"
      "1:54 warning: \"Relu0\" names 2 nodes of the main graph (ONNX Runtime names unnamed nodes <OpType><n> without checking for clashes) | puts all of them in the stream that lists the name\n"
      "streams: [a,b,Relu0,Relu0,c]@0" },
  { "{" T ",`streams`:[[`a`,`b`,`Relu0`,`Relu0`,`Relu0`,`c`]],`devices`:[`0`]}",
      "accepts: -\n"
      "1:54 warning: \"Relu0\" names 2 nodes of the main graph (ONNX Runtime names unnamed nodes <OpType><n> without checking for clashes) | puts all of them in the stream that lists the name\n"
      "1:70 warning: \"Relu0\" is listed twice in streams[0] | counts it once\n"
      "streams: [a,b,Relu0,Relu0,c]@0" },
};

/* A config repeating a name 5,000 times: a hundred warnings of the kind,
 * one more that counts the rest, and the verdict unchanged; the size limit
 * leaves room for every name of the model many times over. */
static void
test_check_capped_findings (void)
{
  g_autoptr (PvModel) model = model_chain (2);
  g_autoptr (GString) text = g_string_new ("{\"type\":\"DeviceBasedPartitioner\",\"devices\":[\"0\"],"
                                           "\"streams\":[[\"n0\",\"n1\"");
  g_autoptr (PvPartitionCheck) check = NULL;

  for (int i = 0; i < 5000; i++)
    g_string_append (text, ",\"n1\"");
  g_string_append (text, "]]}");
  check = pv_partition_config_check (model->graph, text->str, text->len, NULL);
  g_assert_cmpint (check->verdict, ==, PV_ORT_ACCEPTS);
  g_assert_cmpint (check->n_findings, ==, 101);
  g_assert_cmpstr (check->findings[99].message, ==, "\"n1\" is listed twice in streams[0]");
  g_assert_cmpstr (check->findings[100].message, ==,
                   "\"n1\" is listed twice in streams[0] (and 4899 more like it, not shown)");
  g_assert_cmpuint (check->findings[100].offset, ==, 71 + 5 * 100);  /* the 101st duplicate */
  g_assert_cmpuint (pv_partition_config_size_limit (model->graph), ==, 1024 * 1024 + 2 * (64 + 8 * 2));
}

static void
test_check_shapes_and_clashes (void)
{
  g_autoptr (PvModel) one = model_chain (1);
  const char *const names[] = { NULL, "Relu1", NULL };
  g_autoptr (PvModel) clash = model_named (names, 3);
  const char *const stride_names[] = { "a", "b", "Relu0", NULL, "c" };
  g_autoptr (PvModel) stride = model_named (stride_names, 5);

  run_cases (one->graph, one_node, G_N_ELEMENTS (one_node), NULL);
  run_cases (clash->graph, clashes, G_N_ELEMENTS (clashes), NULL);
  run_cases (stride->graph, clashes_in_stride, G_N_ELEMENTS (clashes_in_stride), NULL);
}

/* ---------------------------------------------------------------------- */
/* Rejected */

static const Case rejected[] = {
  { "{" T ",`streams`:[[`right`,`Add0`,`if`,`out`]],`devices`:[`0`]}",
      "rejects: Failed to find node \"left\" in node-stream map\n"
      "1:44 error: node \"left\" (Relu) is in no stream | refuses to create the session: Failed to find node \"left\" in node-stream map\n"
      "streams:" },
  { "{" T ",`streams`:[[`right`,`left`],[`Add0`,`if`,`out`]],`devices`:[`0`]}",
      "rejects: Number of streams does not equal to number of device types!\n"
      "1:93 error: \"devices\" lists 1 device type but \"streams\" lists 2 streams | refuses to create the session: Number of streams does not equal to number of device types!\n"
      "streams:" },
  { "{" T ",`streams`:[" ALL "],`devices`:[`0`,`0`]}",
      "rejects: Number of streams does not equal to number of device types!\n"
      "1:91 error: \"devices\" lists 2 device types but \"streams\" lists 1 stream | refuses to create the session: Number of streams does not equal to number of device types!\n"
      "streams:" },
  { "{" T ",`devices`:[`0`]}",
      "rejects: Number of streams does not equal to number of device types!\n"
      "1:1 error: missing \"streams\": \"devices\" lists 1 device type | refuses to create the session: Number of streams does not equal to number of device types!\n"
      "streams:" },
  { "{" T ",`streams`:[" ALL "]}",
      "rejects: Number of streams does not equal to number of device types!\n"
      "1:1 error: missing \"devices\": \"streams\" lists 1 stream, and \"devices\" needs one device type for each | refuses to create the session: Number of streams does not equal to number of device types!\n"
      "streams:" },
  { "{" T ",`streams`:[" ALL "],`devices`:null}",
      "rejects: Number of streams does not equal to number of device types!\n"
      "1:91 warning: \"devices\" is null | reads null as no device types\n"
      "1:91 error: \"devices\" lists 0 device types but \"streams\" lists 1 stream | refuses to create the session: Number of streams does not equal to number of device types!\n"
      "streams:" },
  { "{" T ",`streams`:[[`left`,`Add0`,`if`,`out`],[]],`devices`:[`0`,`0`]}",
      "rejects: Failed to find node \"right\" in node-stream map\n"
      "1:44 error: node \"right\" (Sigmoid) is in no stream | refuses to create the session: Failed to find node \"right\" in node-stream map\n"
      "1:72 error: streams[1] is empty | would crash (SIGSEGV) on this empty stream, but refuses the session for another error first\n"
      "streams:" },
};

static void
test_check_rejected (void)
{
  g_autoptr (PvModel) m = model_branches ();
  g_autoptr (PvModel) chain = model_chain (13);
  const Case many[] = { { "{" T ",`streams`:[[`n0`]],`devices`:[`0`]}",
      "rejects: Failed to find node \"n1\" in node-stream map\n"
      "1:44 error: node \"n1\" (Relu) is in no stream | refuses to create the session: Failed to find node \"n1\" in node-stream map\n"
      "1:44 error: node \"n2\" (Relu) is in no stream | refuses to create the session (it names only the first missing node)\n"
      "1:44 error: node \"n3\" (Relu) is in no stream | refuses to create the session (it names only the first missing node)\n"
      "1:44 error: node \"n4\" (Relu) is in no stream | refuses to create the session (it names only the first missing node)\n"
      "1:44 error: node \"n5\" (Relu) is in no stream | refuses to create the session (it names only the first missing node)\n"
      "1:44 error: node \"n6\" (Relu) is in no stream | refuses to create the session (it names only the first missing node)\n"
      "1:44 error: node \"n7\" (Relu) is in no stream | refuses to create the session (it names only the first missing node)\n"
      "1:44 error: node \"n8\" (Relu) is in no stream | refuses to create the session (it names only the first missing node)\n"
      "1:44 error: node \"n9\" (Relu) is in no stream | refuses to create the session (it names only the first missing node)\n"
      "1:44 error: node \"n10\" (Relu) is in no stream | refuses to create the session (it names only the first missing node)\n"
      "1:44 error: 2 more nodes of the main graph are in no stream | refuses to create the session (it names only the first missing node)\n"
      "streams:" } };

  run_cases (m->graph, rejected, G_N_ELEMENTS (rejected), NULL);
  run_cases (chain->graph, many, G_N_ELEMENTS (many), NULL);
}

/* Devices given per node: a stream must not mix them. */
static const Case with_devices[] = {
  { "{" T ",`streams`:[" ALL "],`devices`:[`0`]}",
      "rejects: execution_plan[plan_.node_stream_map_[node_index]]->device_.Type() == node_device_mem_location.Type() was false.\n"
      "1:45 error: streams[0] mixes devices: \"right\" runs on CPU (0) but \"Add0\" on GPU (1) | refuses to create the session: execution_plan[plan_.node_stream_map_[node_index]]->device_.Type() == node_device_mem_location.Type() was false.\n"
      "streams:" },
  { "{" T ",`streams`:[[`right`,`left`,`if`,`out`],[`Add0`]],`devices`:[`0`,`1`]}",
      "accepts: -\n"
      "streams: [right,left,if,out]@0 [Add0]@1" },
  { "{" T ",`streams`:[[`right`,`left`,`if`,`out`],[`Add0`]],`devices`:[`0`,`0`]}",
      "accepts: -\n"
      "1:98 warning: devices[1] is \"0\" (CPU), but streams[1] runs on GPU (1), the device of its first node \"Add0\" | takes each stream's device from its first node, not from \"devices\"\n"
      "streams: [right,left,if,out]@0 [Add0]@1" },
  { "{" T ",`streams`:[[`right`,`Add0`,`if`,`out`]],`devices`:[`0`]}",
      "rejects: Failed to find node \"left\" in node-stream map\n"
      "1:44 error: node \"left\" (Relu) is in no stream | refuses to create the session: Failed to find node \"left\" in node-stream map\n"
      "1:45 error: streams[0] mixes devices: \"right\" runs on CPU (0) but \"Add0\" on GPU (1) | refuses to create the session (for another error first)\n"
      "streams:" },
  /* ORT checks devices before anything touches the empty stream. */
  { "{" T ",`streams`:[[],[`right`,`left`,`Add0`,`if`,`out`]],`devices`:[`0`,`0`]}",
      "rejects: execution_plan[plan_.node_stream_map_[node_index]]->device_.Type() == node_device_mem_location.Type() was false.\n"
      "1:45 error: streams[0] is empty | would crash (SIGSEGV) on this empty stream, but refuses the session for another error first\n"
      "1:48 error: streams[1] mixes devices: \"right\" runs on CPU (0) but \"Add0\" on GPU (1) | refuses to create the session: execution_plan[plan_.node_stream_map_[node_index]]->device_.Type() == node_device_mem_location.Type() was false.\n"
      "streams:" },
  { "{" T ",`streams`:[[`right`,`left`,`if`,`out`],[`Add0`],[]],`devices`:[`0`,`1`,`0`]}",
      "crashes: -\n"
      "1:82 error: streams[2] is empty | crashes (SIGSEGV) while building the execution plan: an empty stream has no device\n"
      "streams:" },
};

static void
test_check_devices (void)
{
  g_autoptr (PvModel) m = model_branches ();
  g_autofree int *gpu = pv_partition_devices_for_ops (m->graph, (const char *const[]){ "Add", NULL }, PV_DEVICE_GPU);

  run_cases (m->graph, with_devices, G_N_ELEMENTS (with_devices), gpu);
}

/* ---------------------------------------------------------------------- */
/* Crashes */

static const Case crashing[] = {
  { "{" T ",`streams`:[" ALL ",[]],`devices`:[`0`,`0`]}",
      "crashes: -\n"
      "1:80 error: streams[1] is empty | crashes (SIGSEGV) while building the execution plan: an empty stream has no device\n"
      "streams:" },
  { "{" T ",`streams`:[" ALL ",[`nope`]],`devices`:[`0`,`0`]}",
      "crashes: -\n"
      "1:80 error: streams[1] is empty for ONNX Runtime: none of its names is a node of the main graph | crashes (SIGSEGV) while building the execution plan: an empty stream has no device\n"
      "1:81 warning: no node named \"nope\" in the main graph | ignores the name\n"
      "streams:" },
  { "{" T ",`streams`:[[`left`]," ALL "],`devices`:[`0`,`0`]}",
      "crashes: -\n"
      "1:45 error: streams[0] is empty for ONNX Runtime: every node it lists is also in a later stream, which wins | crashes (SIGSEGV) while building the execution plan: an empty stream has no device\n"
      "1:46 warning: \"left\" is also listed in streams[1] | puts it in streams[1], the last stream that lists it, and ignores this entry\n"
      "streams:" },
  { "{" T ",`streams`:[" ALL ",null],`devices`:[`0`,`0`]}",
      "crashes: -\n"
      "1:80 warning: streams[1] is null | reads null as an empty stream\n"
      "1:80 error: streams[1] is empty | crashes (SIGSEGV) while building the execution plan: an empty stream has no device\n"
      "streams:" },
  { "{" T ",`streams`:[" ALL ",{}],`devices`:[`0`,`0`]}",
      "crashes: -\n"
      "1:80 warning: streams[1] should be an array of node names, not an object | reads the object's values, in key order, as the node names\n"
      "1:80 error: streams[1] is empty | crashes (SIGSEGV) while building the execution plan: an empty stream has no device\n"
      "streams:" },
};

static void
test_check_crashes (void)
{
  g_autoptr (PvModel) m = model_branches ();
  g_autoptr (PvModel) empty = model_empty ();
  const Case on_empty[] = {
    { "{" T ",`streams`:[[`x`]],`devices`:[`0`]}",
      "crashes: -\n"
      "1:45 error: streams[0] is empty for ONNX Runtime: none of its names is a node of the main graph | crashes (SIGSEGV) while building the execution plan: an empty stream has no device\n"
      "1:46 warning: no node named \"x\" in the main graph | ignores the name\n"
      "streams:" },
    { "{" T "}",
      "accepts: -\n"
      "1:1 warning: the config lists no streams | partitions the graph itself (its default partition)\n"
      "streams: (default)" },
  };

  run_cases (m->graph, crashing, G_N_ELEMENTS (crashing), NULL);
  run_cases (empty->graph, on_empty, G_N_ELEMENTS (on_empty), NULL);
}

/* ---------------------------------------------------------------------- */
/* Discarded: not JSON, not ORT's shape, non-string entries */

static const Case discarded[] = {
  { "",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 1: attempting to parse an empty input; check that your input string or stream contains the expected JSON\n"
      "1:1 error: not valid JSON: the file is empty | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "  \n\t",
      "discards: [json.exception.parse_error.101] parse error at line 2, column 2: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal\n"
      "2:2 error: not valid JSON: expected a value, found the end of the file | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "this is not json",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 2: syntax error while parsing value - invalid literal; last read: 'th'\n"
      "1:2 error: not valid JSON: unexpected 'h' (expected 'true') | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "// c\n{" T "}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 1: syntax error while parsing value - invalid literal; last read: '/'\n"
      "1:1 error: not valid JSON: unexpected '/' | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`type` 1}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 9: syntax error while parsing object separator - unexpected number literal; expected ':'\n"
      "1:9 error: not valid JSON: expected ':' after the key, found a number | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{" T ",}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 34: syntax error while parsing object key - unexpected '}'; expected string literal\n"
      "1:34 error: not valid JSON: expected a string key, found '}' | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:1 `b`:2}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 10: syntax error while parsing object - unexpected string literal; expected '}'\n"
      "1:8 error: not valid JSON: expected ',' or '}' after an object member, found a string | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:[1 2]}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 9: syntax error while parsing array - unexpected number literal; expected ']'\n"
      "1:9 error: not valid JSON: expected ',' or ']' after an array element, found a number | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:[1,]}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 9: syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal\n"
      "1:9 error: not valid JSON: expected a value, found ']' | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{" T "} x",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 35: syntax error while parsing value - invalid literal; last read: '\"DeviceBasedPartitioner\"} x'; expected end of input\n"
      "1:35 error: not valid JSON: unexpected 'x' | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{" T "}\n{}",
      "discards: [json.exception.parse_error.101] parse error at line 2, column 1: syntax error while parsing value - unexpected '{'; expected end of input\n"
      "2:1 error: not valid JSON: expected the end of the file after the JSON value, found '{' | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:`\\x`}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 8: syntax error while parsing value - invalid string: forbidden character after backslash; last read: '\"\\x'\n"
      "1:8 error: not valid JSON: invalid string: forbidden character after backslash | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:`x\\ud800y`}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 14: syntax error while parsing value - invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF; last read: '\"x\\ud800y'\n"
      "1:8 error: not valid JSON: invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:`\\udc00`}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 12: syntax error while parsing value - invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF; last read: '\"\\udc00'\n"
      "1:7 error: not valid JSON: invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:`\\ud800\\u0041`}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 18: syntax error while parsing value - invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF; last read: '\"\\ud800\\u0041'\n"
      "1:7 error: not valid JSON: invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:`\\u12g4`}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 11: syntax error while parsing value - invalid string: '\\u' must be followed by 4 hex digits; last read: '\"\\u12g'\n"
      "1:11 error: not valid JSON: invalid string: '\\u' must be followed by 4 hex digits | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:`x\ny`}",
      "discards: [json.exception.parse_error.101] parse error at line 2, column 0: syntax error while parsing value - invalid string: control character U+000A (LF) must be escaped to \\u000A or \\n; last read: '\"x<U+000A>'\n"
      "1:8 error: not valid JSON: invalid string: control character U+000A (LF) must be escaped to \\u000A or \\n | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:`x\x1fy`}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 8: syntax error while parsing value - invalid string: control character U+001F (US) must be escaped to \\u001F; last read: '\"x<U+001F>'\n"
      "1:8 error: not valid JSON: invalid string: control character U+001F (US) must be escaped to \\u001F | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:`x\xffy`}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 8: syntax error while parsing value - invalid string: ill-formed UTF-8 byte; last read: '\"x\xff" "'\n"
      "1:8 error: not valid JSON: invalid string: ill-formed UTF-8 byte | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:`\xc3(`}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 8: syntax error while parsing value - invalid string: ill-formed UTF-8 byte; last read: '\"\xc3" "('\n"
      "1:8 error: not valid JSON: invalid string: ill-formed UTF-8 byte | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:-}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 7: syntax error while parsing value - invalid number; expected digit after '-'; last read: '-}'\n"
      "1:7 error: not valid JSON: invalid number; expected digit after '-' | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:1.}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 8: syntax error while parsing value - invalid number; expected digit after '.'; last read: '1.}'\n"
      "1:8 error: not valid JSON: invalid number; expected digit after '.' | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:1e}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 8: syntax error while parsing value - invalid number; expected '+', '-', or digit after exponent; last read: '1e}'\n"
      "1:8 error: not valid JSON: invalid number; expected '+', '-', or digit after exponent | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:1e+}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 9: syntax error while parsing value - invalid number; expected digit after exponent sign; last read: '1e+}'\n"
      "1:9 error: not valid JSON: invalid number; expected digit after exponent sign | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:01}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 7: syntax error while parsing object - unexpected number literal; expected '}'\n"
      "1:7 error: not valid JSON: expected ',' or '}' after an object member, found a number | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:1e999}",
      "discards: [json.exception.out_of_range.406] number overflow parsing '1e999'\n"
      "1:6 error: not valid JSON: the number 1e999 is too large for a double | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:-1E400}",
      "discards: [json.exception.out_of_range.406] number overflow parsing '-1E400'\n"
      "1:6 error: not valid JSON: the number -1E400 is too large for a double | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:tru}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 9: syntax error while parsing value - invalid literal; last read: '\"a\":tru}'\n"
      "1:9 error: not valid JSON: unexpected '}' (expected 'true') | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`:`abc",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 10: syntax error while parsing value - invalid string: missing closing quote; last read: '\"abc'\n"
      "1:6 error: not valid JSON: invalid string: missing closing quote | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`a`",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 5: syntax error while parsing object separator - unexpected end of input; expected ':'\n"
      "1:5 error: not valid JSON: expected ':' after the key, found the end of the file | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{'a':1}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 2: syntax error while parsing object key - invalid literal; last read: '{''; expected string literal\n"
      "1:2 error: not valid JSON: unexpected \"'\" | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "\xef\xbb{}",
      "discards: [json.exception.parse_error.101] parse error at line 1, column 3: syntax error while parsing value - invalid BOM; must be 0xEF 0xBB 0xBF if given; last read: '\xef" "\xbb" "{'\n"
      "1:3 error: not valid JSON: invalid BOM; must be 0xEF 0xBB 0xBF if given | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "[]",
      "discards: [json.exception.type_error.305] cannot use operator[] with a string argument with array\n"
      "1:1 error: the top level must be an object {\"type\": \"DeviceBasedPartitioner\", \"streams\": [...], \"devices\": [...]}, not an array | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "null",
      "discards: Partitioner type is not DeviceBasedPartitioner\n"
      "1:1 error: the top level must be an object {\"type\": \"DeviceBasedPartitioner\", \"streams\": [...], \"devices\": [...]}, not null | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "`DeviceBasedPartitioner`",
      "discards: [json.exception.type_error.305] cannot use operator[] with a string argument with string\n"
      "1:1 error: the top level must be an object {\"type\": \"DeviceBasedPartitioner\", \"streams\": [...], \"devices\": [...]}, not a string | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "5",
      "discards: [json.exception.type_error.305] cannot use operator[] with a string argument with number\n"
      "1:1 error: the top level must be an object {\"type\": \"DeviceBasedPartitioner\", \"streams\": [...], \"devices\": [...]}, not a number | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "true",
      "discards: [json.exception.type_error.305] cannot use operator[] with a string argument with boolean\n"
      "1:1 error: the top level must be an object {\"type\": \"DeviceBasedPartitioner\", \"streams\": [...], \"devices\": [...]}, not a boolean | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`streams`:[" ALL "],`devices`:[`0`]}",
      "discards: Partitioner type is not DeviceBasedPartitioner\n"
      "1:1 error: missing \"type\": \"DeviceBasedPartitioner\" | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`type`:`DeviceBasedPartitioner2`,`streams`:[" ALL "],`devices`:[`0`]}",
      "discards: Partitioner type is not DeviceBasedPartitioner\n"
      "1:9 error: \"type\" must be \"DeviceBasedPartitioner\", not \"DeviceBasedPartitioner2\" | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`type`:1,`streams`:[" ALL "],`devices`:[`0`]}",
      "discards: Partitioner type is not DeviceBasedPartitioner\n"
      "1:9 error: \"type\" must be \"DeviceBasedPartitioner\", not a number | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`type`:null}",
      "discards: Partitioner type is not DeviceBasedPartitioner\n"
      "1:9 error: \"type\" must be \"DeviceBasedPartitioner\", not null | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{" T ",`streams`:3,`devices`:[`0`]}",
      "discards: [json.exception.type_error.302] type must be string, but is number\n"
      "1:44 error: \"streams\" must be an array of streams (arrays of node names), not a number | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{" T ",`streams`:[" ALL ",true],`devices`:[`0`,`0`]}",
      "discards: [json.exception.type_error.302] type must be string, but is boolean\n"
      "1:80 error: streams[1] must be an array of node names, not a boolean | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{" T ",`streams`:[[`right`,5,null,{},[]]],`devices`:[`0`]}",
      "discards: [json.exception.type_error.302] type must be string, but is number\n"
      "1:54 error: streams[0][1] must be a node name (a string), not a number | ignores the whole file (it logs a warning) and uses its default partition\n"
      "1:56 error: streams[0][2] must be a node name (a string), not null | ignores the whole file (it logs a warning) and uses its default partition\n"
      "1:61 error: streams[0][3] must be a node name (a string), not an object | ignores the whole file (it logs a warning) and uses its default partition\n"
      "1:64 error: streams[0][4] must be a node name (a string), not an array | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{" T ",`streams`:[" ALL "],`devices`:0}",
      "discards: [json.exception.type_error.302] type must be string, but is number\n"
      "1:91 error: \"devices\" must be an array of device types such as [\"0\"], not a number | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{" T ",`streams`:[" ALL "],`devices`:[0]}",
      "discards: [json.exception.type_error.302] type must be string, but is number\n"
      "1:92 error: devices[0] must be a string such as \"0\", not a number | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
  { "{`type`:`x`,`streams`:[[1]],`devices`:[2]}",
      "discards: Partitioner type is not DeviceBasedPartitioner\n"
      "1:9 error: \"type\" must be \"DeviceBasedPartitioner\", not \"x\" | ignores the whole file (it logs a warning) and uses its default partition\n"
      "1:25 error: streams[0][0] must be a node name (a string), not a number | ignores the whole file (it logs a warning) and uses its default partition\n"
      "1:40 error: devices[0] must be a string such as \"0\", not a number | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)" },
};

static void
test_check_discarded (void)
{
  g_autoptr (PvModel) m = model_branches ();

  run_cases (m->graph, discarded, G_N_ELEMENTS (discarded), NULL);
  {
    /* A NUL byte where a value starts ends the input for nlohmann. */
    static const char text[] = "\0{}";
    g_autofree char *got = describe (m->graph, text, sizeof text - 1, NULL);
    g_assert_cmpstr (got, ==,
      "discards: [json.exception.parse_error.101] parse error at line 1, column 1: attempting to parse an empty input; check that your input string or stream contains the expected JSON\n"
      "1:1 error: not valid JSON: the file starts with a NUL byte, which ends the input | ignores the whole file (it logs a warning) and uses its default partition\n"
      "streams: [right,left,Add0,if,out]@0 (default)");
  }
}

static void
test_check_columns (void)
{
  g_autoptr (PvModel) m = model_branches ();
  /* Columns count characters: "é" and "€" are one each; lines are counted by '\n'. */
  static const Case cases[] = {
    { "{`\xc3\xa9\xe2\x82\xac`:1, `\xc3\xa9`:2,\r\n" T ",\n  `streams`:[" ALL "],`devices`:[`0`], `x`:3}",
      "accepts: -\n"
      "1:2 warning: unknown key \"\xc3" "\xa9" "\xe2" "\x82" "\xac" "\" | ignores the key\n"
      "1:10 warning: unknown key \"\xc3" "\xa9" "\" | ignores the key\n"
      "3:67 warning: unknown key \"x\" | ignores the key\n"
      "streams: [right,left,Add0,if,out]@0" },
  };

  run_cases (m->graph, cases, G_N_ELEMENTS (cases), NULL);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/partition-config/write/default", test_write_default);
  g_test_add_func ("/partition-config/write/devices", test_write_devices);
  g_test_add_func ("/partition-config/write/empty-graph", test_write_empty_graph);
  g_test_add_func ("/partition-config/write/escapes", test_write_escapes);
  g_test_add_func ("/partition-config/write/not-utf8", test_write_not_utf8);
  g_test_add_func ("/partition-config/write/round-trip", test_round_trip);
  g_test_add_func ("/partition-config/check/accepted", test_check_accepted);
  g_test_add_func ("/partition-config/check/shapes-and-clashes", test_check_shapes_and_clashes);
  g_test_add_func ("/partition-config/check/capped-findings", test_check_capped_findings);
  g_test_add_func ("/partition-config/check/rejected", test_check_rejected);
  g_test_add_func ("/partition-config/check/devices", test_check_devices);
  g_test_add_func ("/partition-config/check/crashes", test_check_crashes);
  g_test_add_func ("/partition-config/check/discarded", test_check_discarded);
  g_test_add_func ("/partition-config/check/columns", test_check_columns);
  return g_test_run ();
}
