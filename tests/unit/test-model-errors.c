/* Every kind of bad input gets its own error code and a message that names
 * the file and the culprit. */
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "pv-error.h"
#include "pv-model-loader.h"
#include "pv-ort-graph-rewrite.h"
#include "pv-shape-inference.h"
#include "pv-onnx-builder.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define N PV_ONNX_NAMES

static void
expect_error_bytes (const guint8 *data, gsize len, PvModelError code, const char *fragment)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = pv_model_load_from_bytes (data, len, "bad.onnx", &error);

  g_assert_null (model);
  g_assert_error (error, PV_MODEL_ERROR, (int) code);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, "bad.onnx: "));
  if (strstr (error->message, fragment) == NULL)
    g_error ("“%s” not in “%s”", fragment, error->message);
}

static void
expect_error (PvOnnxBuilder *b, PvModelError code, const char *fragment)
{
  g_autoptr (GBytes) bytes = pv_onnx_builder_pack (b);
  expect_error_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), code, fragment);
  pv_onnx_builder_free (b);
}

static PvOnnxBuilder *
new_builder (void)
{
  PvOnnxBuilder *b = pv_onnx_builder_new (8, "planviz-test");
  pv_onnx_builder_add_opset (b, "", 17);
  pv_onnx_graph_add_input (pv_onnx_builder_get_graph (b), "x", F, "4");
  return b;
}

/* A node feeding another through two outputs is one edge: counted twice,
 * Split released Sum before Relu, and the cycle through Sum's third input
 * loaded without a word (ONNX Runtime refuses the model). */
static void
test_cycle_through_two_outputs (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);

  pv_onnx_graph_add_node (g, "Split", "split", N ("x"), N ("s0", "s1"));
  pv_onnx_graph_add_node (g, "Sum", "sum", N ("s0", "s1", "c"), N ("a"));
  pv_onnx_graph_add_node (g, "Relu", "relu", N ("a"), N ("c"));
  pv_onnx_graph_add_output (g, "a", F, "2");
  expect_error (b, PV_MODEL_ERROR_CYCLE, "cycle: sum → relu → sum");
}

static void
test_cycle (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);

  pv_onnx_graph_add_node (g, "Add", "first", N ("x", "c"), N ("a"));
  pv_onnx_graph_add_node (g, "Relu", "second", N ("a"), N ("b"));
  pv_onnx_graph_add_node (g, "Relu", "third", N ("b"), N ("c"));
  pv_onnx_graph_add_node (g, "Relu", "after", N ("c"), N ("y"));
  pv_onnx_graph_add_output (g, "y", F, "4");
  expect_error (b, PV_MODEL_ERROR_CYCLE, "cycle: first → second → third → first");
}

static void
test_produced_twice (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);

  pv_onnx_graph_add_node (g, "Relu", "one", N ("x"), N ("y"));
  pv_onnx_graph_add_node (g, "Neg", "two", N ("x"), N ("y"));
  pv_onnx_graph_add_output (g, "y", F, "4");
  expect_error (b, PV_MODEL_ERROR_DUPLICATE_PRODUCER, "“y” is produced twice: by node “one” (Relu) and by node “two” (Neg)");

  /* Found by the fuzzer: the same name twice among one node's outputs. */
  b = new_builder ();
  g = pv_onnx_builder_get_graph (b);
  pv_onnx_graph_add_node (g, "Split", "split", N ("x"), N ("y", "y"));
  expect_error (b, PV_MODEL_ERROR_DUPLICATE_PRODUCER, "node “split” (Split) lists output “y” twice");

  b = new_builder ();
  g = pv_onnx_builder_get_graph (b);
  pv_onnx_graph_add_node (g, "Relu", "shadow", N ("x"), N ("x"));
  expect_error (b, PV_MODEL_ERROR_DUPLICATE_PRODUCER, "“x” is produced by node “shadow” (Relu) but is also a graph input");
}

static void
test_undefined_input (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);

  pv_onnx_graph_add_node (g, "Add", "adder", N ("x", "ghost"), N ("y"));
  pv_onnx_graph_add_output (g, "y", F, "4");
  expect_error (b, PV_MODEL_ERROR_UNDEFINED_INPUT, "node “adder” (Add) input 1 “ghost” is not produced by any node");

  b = new_builder ();
  g = pv_onnx_builder_get_graph (b);
  pv_onnx_graph_add_output (g, "nowhere", F, "4");
  expect_error (b, PV_MODEL_ERROR_UNDEFINED_INPUT, "graph output “nowhere”");
}

static void
test_undefined_input_in_subgraph (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxGraph *then_g = pv_onnx_graph_new ("then"), *else_g = pv_onnx_graph_new ("else");

  pv_onnx_graph_add_input (g, "c", ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, "");
  pv_onnx_graph_add_node (then_g, "Neg", "inner", N ("ghost"), N ("t"));
  pv_onnx_graph_add_output (then_g, "t", F, "4");
  pv_onnx_graph_add_node (else_g, "Neg", "inner2", N ("x"), N ("e"));
  pv_onnx_graph_add_output (else_g, "e", F, "4");
  pv_onnx_graph_add_if (g, "branch", "c", N ("y"), then_g, else_g);
  pv_onnx_graph_add_output (g, "y", F, "4");
  expect_error (b, PV_MODEL_ERROR_UNDEFINED_INPUT,
                "node “inner” (Neg) input 0 “ghost” is not produced by any node and is no graph input, "
                "initializer or outer-scope value in subgraph “then_branch” of node “branch” (If)");
}

static void
test_duplicate_node_names (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);

  pv_onnx_graph_add_node (g, "Relu", "same", N ("x"), N ("a"));
  pv_onnx_graph_add_node (g, "Relu", "same", N ("a"), N ("y"));
  pv_onnx_graph_add_output (g, "y", F, "4");
  expect_error (b, PV_MODEL_ERROR_INVALID, "two nodes are named “same”");
}

/* Packs @b with every \001 after @marker turned into a NUL (protobuf-c
 * writes strings with strlen, so a NUL must be put in afterwards). */
static GBytes *
pack_with_nuls (PvOnnxBuilder *b, const char *marker)
{
  g_autoptr (GBytes) packed = pv_onnx_builder_pack (b);
  gsize len, mlen = strlen (marker);
  guint8 *data = g_bytes_unref_to_data (g_steal_pointer (&packed), &len);

  for (gsize i = 0; i + mlen + 1 <= len; i++)
    if (memcmp (data + i, marker, mlen) == 0 && data[i + mlen] == 1)
      data[i + mlen] = 0;
  return g_bytes_new_take (data, len);
}

/* ORT keeps "nul\0a" and "nul\0b" apart; protobuf-c would cut both to "nul".
 * The scanner refuses them, naming the field and the byte, but leaves NULs
 * alone in doc_string (never read) and in bytes fields (weights). */
static void
test_nul_in_names (void)
{
  const char *const where[] = { "graph.node[0].name", "graph.node[1].output[0]" };

  for (int k = 0; k < 2; k++)
    {
      PvOnnxBuilder *b = new_builder ();
      PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
      g_autoptr (GBytes) bytes = NULL;

      pv_onnx_graph_add_node (g, "Relu", k == 0 ? "nul\001a" : "r1", N ("x"), N ("t"));
      pv_onnx_graph_add_node (g, "Relu", k == 0 ? "nul\001b" : "r2", N ("t"), N (k == 0 ? "y" : "nul\001y"));
      pv_onnx_graph_add_output (g, k == 0 ? "y" : "nul\001y", F, "4");
      bytes = pack_with_nuls (b, "nul");
      pv_onnx_builder_free (b);
      expect_error_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), PV_MODEL_ERROR_INVALID, where[k]);
      expect_error_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), PV_MODEL_ERROR_INVALID,
                          "holds a NUL byte (at byte ");
      expect_error_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), PV_MODEL_ERROR_INVALID,
                          ", after “nul”): ONNX Runtime keeps the whole name");
    }

  {
    PvOnnxBuilder *b = new_builder ();
    PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
    const gint64 dims[] = { 4 };
    const float zeros[4] = { 0 };
    g_autoptr (GBytes) bytes = NULL;
    g_autoptr (GError) error = NULL;
    g_autoptr (PvModel) model = NULL;
    PvOnnxNode *n;

    pv_onnx_graph_add_initializer_floats (g, "w", dims, 1, zeros);
    n = pv_onnx_graph_add_node (g, "Add", "add", N ("x", "w"), N ("y"));
    n->doc_string = g_strdup ("nul\001doc");
    pv_onnx_graph_add_output (g, "y", F, "4");
    bytes = pack_with_nuls (b, "nul");
    pv_onnx_builder_free (b);
    g_assert_nonnull (memchr (g_bytes_get_data (bytes, NULL), 0, g_bytes_get_size (bytes)));
    model = pv_model_load_from_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "doc.onnx", &error);
    g_assert_no_error (error);
    g_assert_cmpint (model->graph->n_nodes, ==, 1);
  }
}

static void
test_header (void)
{
  PvOnnxBuilder *b = pv_onnx_builder_new (8, "t");
  Onnx__GraphProto *graph;

  pv_onnx_builder_add_opset (b, "", 17);
  graph = pv_onnx_builder_get_model (b)->graph;
  pv_onnx_builder_get_model (b)->graph = NULL;
  {
    g_autoptr (GBytes) bytes = pv_onnx_builder_pack (b);
    expect_error_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), PV_MODEL_ERROR_NO_GRAPH,
                        "the model has no graph");
  }
  pv_onnx_builder_get_model (b)->graph = graph;
  pv_onnx_builder_free (b);

  b = pv_onnx_builder_new (99, "t");
  pv_onnx_builder_add_opset (b, "", 17);
  expect_error (b, PV_MODEL_ERROR_IR_VERSION, "IR version 99 is not supported");

  b = pv_onnx_builder_new (8, "t");
  pv_onnx_builder_get_model (b)->has_ir_version = FALSE;
  pv_onnx_builder_add_opset (b, "", 17);
  expect_error (b, PV_MODEL_ERROR_IR_VERSION, "no IR version");

  b = pv_onnx_builder_new (8, "t");
  expect_error (b, PV_MODEL_ERROR_INVALID, "imports no opset");
}

/* A model of @depth nested Ifs, each then-branch holding the next. */
static PvOnnxBuilder *
nested_ifs (int depth)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxGraph *body = NULL;
  PvOnnxNode *n;

  for (int level = depth; level >= 1; level--)
    {
      PvOnnxGraph *then_g = pv_onnx_graph_new ("then");
      g_autofree char *name = g_strdup_printf ("if%d", level);
      if (body)
        {
          n = pv_onnx_graph_add_node (then_g, "If", name, N ("c"), N ("t"));
          pv_onnx_node_add_attr_graph (n, "then_branch", body);
          pv_onnx_node_add_attr_graph (n, "else_branch", pv_onnx_graph_new ("empty"));
        }
      else
        pv_onnx_graph_add_node (then_g, "Identity", name, N ("x"), N ("t"));
      pv_onnx_graph_add_output (then_g, "t", F, "4");
      body = then_g;
    }
  pv_onnx_graph_add_input (g, "c", ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, "");
  n = pv_onnx_graph_add_node (g, "If", "top", N ("c"), N ("y"));
  pv_onnx_node_add_attr_graph (n, "then_branch", body);
  pv_onnx_node_add_attr_graph (n, "else_branch", pv_onnx_graph_new ("empty"));
  pv_onnx_graph_add_output (g, "y", F, "4");
  return b;
}

static void
test_too_deep (void)
{
  expect_error (nested_ifs (40), PV_MODEL_ERROR_TOO_DEEP, "subgraphs are nested more than 32 deep");
}

/* CPU seconds to load a Split with @n outputs, each read by one Relu, the
 * Relus in the outputs' order or the reverse. */
static double
split_load_seconds (int n, gboolean reversed)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;
  clock_t start;

  for (int i = 0; i < n; i++)
    g_ptr_array_add (names, g_strdup_printf ("s%d", i));
  g_ptr_array_add (names, NULL);
  pv_onnx_graph_add_node (g, "Split", "split", N ("x"), (const char **) names->pdata);
  for (int i = 0; i < n; i++)
    {
      g_autofree char *out = g_strdup_printf ("r%d", i);
      pv_onnx_graph_add_node (g, "Relu", out, N (names->pdata[reversed ? n - 1 - i : i]), N (out));
    }
  pv_onnx_graph_add_output (g, "r0", F, "4");
  bytes = pv_onnx_builder_pack (b);
  pv_onnx_builder_free (b);
  start = clock ();
  model = pv_model_load_from_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "split.onnx", &error);
  g_assert_no_error (error);
  return (double) (clock () - start) / CLOCKS_PER_SEC;
}

/* A node's consumers are sorted for the cycle check: 100,000 in descending
 * order once made loading quadratic (2.0 s of CPU for `info` against
 * 0.45 s in order). The reverse against the same load in order, measured
 * in the same run. */
static void
test_consumers_sorted_fast (void)
{
  double in_order = split_load_seconds (100000, FALSE);
  double reversed = split_load_seconds (100000, TRUE);

  g_test_message ("100,000 consumers: %.3f s in order, %.3f s reversed (CPU)", in_order, reversed);
  g_assert_cmpfloat (reversed, <, 2 * in_order + 0.05);
}

/* The deepest nesting the loader takes: measuring it is linear (it once
 * recursed twice per level, 2^31 calls, over a minute for `info`). */
static void
test_depth_linear (void)
{
  PvOnnxBuilder *b = nested_ifs (31);
  g_autoptr (GBytes) bytes = pv_onnx_builder_pack (b);
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;
  clock_t start;

  pv_onnx_builder_free (b);
  model = pv_model_load_from_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "deep.onnx", &error);
  g_assert_no_error (error);
  /* CPU time, so that a loaded machine cannot fail it: 2^31 calls took
   * over a minute, the linear walk microseconds. */
  start = clock ();
  g_assert_cmpint (pv_graph_max_depth (model->graph), ==, 31);
  g_assert_cmpfloat ((double) (clock () - start) / CLOCKS_PER_SEC, <, 1.0);
}

static void
test_raw_bytes (void)
{
  /* A hostile nesting of graph > node > attribute > graph ... 10,000 deep
   * must be refused without recursing into it. */
  GByteArray *deep = g_byte_array_new ();
  const guint8 not_protobuf[] = "hello world, not a model";
  /* TensorProto: dims=[2] (field 1), data_type=1 (field 2). */
  const guint8 tensor[] = { 0x08, 0x02, 0x10, 0x01 };
  /* ir_version=8, then graph (field 7) claiming 100 bytes with 2 present. */
  const guint8 truncated[] = { 0x08, 0x08, 0x3a, 0x64, 0x0a, 0x00 };

  expect_error_bytes (not_protobuf, sizeof not_protobuf - 1, PV_MODEL_ERROR_NOT_PROTOBUF, "not a valid protobuf");
  expect_error_bytes (tensor, sizeof tensor, PV_MODEL_ERROR_NOT_A_MODEL, "not an ONNX model: field 2 (producer_name)");
  expect_error_bytes (truncated, sizeof truncated, PV_MODEL_ERROR_TRUNCATED,
                      "truncated: at byte 2 of 6 (graph), a field of 100 bytes with only 2 bytes left");
  expect_error_bytes ((const guint8 *) "", 0, PV_MODEL_ERROR_NOT_A_MODEL, "the file is empty");

  /* Build inside-out: GraphProto{node{attribute{g{...}}}} as length-delimited fields. */
  {
    GByteArray *inner = g_byte_array_new ();
    for (int i = 0; i < 10000; i++)
      {
        GByteArray *outer = g_byte_array_new ();
        guint8 header[12];
        /* Outermost first: graph.node (1), node.attribute (5), attribute.g (6). */
        int k = (9999 - i) % 3;
        int tag = k == 0 ? 0x0a : k == 1 ? 0x2a : 0x32;
        gsize n = 0, len = inner->len;
        header[n++] = (guint8) tag;
        do
          {
            header[n++] = (guint8) ((len & 0x7f) | (len > 0x7f ? 0x80 : 0));
            len >>= 7;
          }
        while (len);
        g_byte_array_append (outer, header, (guint) n);
        g_byte_array_append (outer, inner->data, inner->len);
        g_byte_array_unref (inner);
        inner = outer;
      }
    g_byte_array_append (deep, (const guint8[]) { 0x08, 0x08, 0x3a }, 3);
    {
      guint8 len_bytes[10];
      gsize n = 0, len = inner->len;
      do
        {
          len_bytes[n++] = (guint8) ((len & 0x7f) | (len > 0x7f ? 0x80 : 0));
          len >>= 7;
        }
      while (len);
      g_byte_array_append (deep, len_bytes, (guint) n);
    }
    g_byte_array_append (deep, inner->data, inner->len);
    g_byte_array_unref (inner);
    expect_error_bytes (deep->data, deep->len, PV_MODEL_ERROR_TOO_DEEP, "messages nested more than");
    g_byte_array_unref (deep);
  }
}

/* The node limit counts the nodes of every subgraph, and refuses before
 * anything is unpacked; at the limit the model loads. nested_ifs (3) has
 * 3 Ifs and 1 Identity. */
static void
test_too_many_nodes (void)
{
  PvOnnxBuilder *b = nested_ifs (3);
  g_autoptr (GBytes) bytes = pv_onnx_builder_pack (b);
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;
  int fd = g_file_open_tmp ("pv-nodes-XXXXXX.onnx", &path, &error);

  g_assert_no_error (error);
  close (fd);
  pv_onnx_builder_free (b);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error));
  model = pv_model_load_from_file_full (path, 3, NULL, &error);
  g_assert_null (model);
  g_assert_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_TOO_MANY_NODES);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, ": 4 nodes (subgraphs included), more than the limit of 3"));
  g_clear_error (&error);
  model = pv_model_load_from_file_full (path, 4, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  g_clear_pointer (&model, pv_model_free);
  model = pv_model_load_from_file_full (path, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  g_unlink (path);
}

static void
test_missing_file (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = pv_model_load_from_file ("/nonexistent/dir/model.onnx", &error);

  g_assert_null (model);
  g_assert_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "/nonexistent/dir/model.onnx"));
}

/* External data is never opened: the model loads though the file is absent. */
static void
test_external_data_not_read (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const gint64 dims[] = { 1024, 1024 };
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;
  int w;

  pv_onnx_graph_add_external_initializer (g, "w", F, dims, 2, "does-not-exist.bin", 0, 4 << 20);
  pv_onnx_graph_add_node (g, "MatMul", "mm", N ("x", "w"), N ("y"));
  pv_onnx_graph_add_output (g, "y", F, "1024");
  bytes = pv_onnx_builder_pack (b);
  pv_onnx_builder_free (b);
  model = pv_model_load_from_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "ext.onnx", &error);
  g_assert_no_error (error);
  w = pv_graph_find_value (model->graph, "w");
  g_assert_true (model->graph->values[w].initializer->external);
  g_assert_cmpstr (model->graph->values[w].initializer->external_location, ==, "does-not-exist.bin");
  g_assert_null (model->graph->values[w].initializer->data);
}

/* Loads, from @dir/model.onnx, a MatMul whose weight "w" (4 floats) keeps
 * its data at @location, @offset; NULL (and @error set) when refused. */
static PvModel *
load_external (const char *dir, const char *location, gint64 offset, GError **error)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autofree char *path = g_build_filename (dir, "model.onnx", NULL);
  g_autoptr (GBytes) bytes = NULL;

  pv_onnx_graph_add_external_initializer (g, "w", F, (const gint64[]) { 4 }, 1, location, offset, -1);
  pv_onnx_graph_add_node (g, "Add", "add", N ("x", "w"), N ("y"));
  pv_onnx_graph_add_output (g, "y", F, "4");
  bytes = pv_onnx_builder_pack (b);
  pv_onnx_builder_free (b);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL));
  return pv_model_load_from_file (path, error);
}

static void
expect_external_refused (const char *dir, const char *location, gint64 offset, const char *words)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = load_external (dir, location, offset, &error);

  g_test_message ("%s: %s", location, error ? error->message : "accepted");
  g_assert_null (model);
  g_assert_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_EXTERNAL_DATA);
  g_assert_nonnull (strstr (error->message, "initializer “w”"));
  g_assert_nonnull (strstr (error->message, words));
}

/* External-data locations as ORT 1.30 takes them (the whole set, run in ORT
 * itself, is tests/ort/compare-external-data.mjs): inside the model's folder
 * and long enough, or refused with the tensor and the location named. */
static void
test_external_data_checked (void)
{
  g_autofree char *top = g_dir_make_tmp ("planviz-external-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename (top, "model", NULL);
  g_autofree char *data = g_build_filename (dir, "w.bin", NULL);
  g_autofree char *outside = g_build_filename (top, "outside.bin", NULL);
  g_autofree char *link = g_build_filename (dir, "link.bin", NULL);
  g_autofree char *model_path = g_build_filename (dir, "model.onnx", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;
  g_autoptr (GBytes) bytes = NULL;
  PvOnnxBuilder *b;

  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (data, "0123456789abcdef0123", 20, NULL));
  g_assert_true (g_file_set_contents (outside, "0123456789abcdef", 16, NULL));
  g_assert_cmpint (symlink ("../outside.bin", link), ==, 0);

  model = load_external (dir, "w.bin", 4, &error);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  expect_external_refused (dir, "w.bin", 5, "holds 20 bytes: 16 bytes at offset 5 do not fit");
  expect_external_refused (dir, "../outside.bin", 0, "“../outside.bin” leads out of the model's folder");
  expect_external_refused (dir, "link.bin", 0, "“link.bin” leads out of the model's folder");
  expect_external_refused (dir, "nope.bin", 0, "“nope.bin” does not exist");
  expect_external_refused (dir, data, 0, "is an absolute path");
  expect_external_refused (dir, ".", 0, "“.” is not a regular file");

  /* From memory no file is looked at, but "../" and absolute paths are refused. */
  b = new_builder ();
  pv_onnx_graph_add_external_initializer (pv_onnx_builder_get_graph (b), "w", F, (const gint64[]) { 4 }, 1,
                                          "a/../../x.bin", 0, -1);
  pv_onnx_graph_add_node (pv_onnx_builder_get_graph (b), "Add", "add", N ("x", "w"), N ("y"));
  pv_onnx_graph_add_output (pv_onnx_builder_get_graph (b), "y", F, "4");
  bytes = pv_onnx_builder_pack (b);
  pv_onnx_builder_free (b);
  g_clear_pointer (&model, pv_model_free);
  model = pv_model_load_from_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "mem.onnx", &error);
  g_assert_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_EXTERNAL_DATA);
  g_assert_nonnull (strstr (error->message, "“a/../../x.bin” leads out of the working folder"));

  g_remove (link);
  g_remove (data);
  g_remove (model_path);
  g_rmdir (dir);
  g_remove (outside);
  g_rmdir (top);
}

/* "location" given twice in an external tensor: ORT 1.30 refuses it ("TensorProto
 * external data has duplicate 'location' entries", run in ORT:
 * tests/ort/compare-external-data.mjs), and so does planviz, without leaking
 * either copy (a copy leaked before; fuzz-external-data found it:
 * corpus/external-data/regression-location-twice). */
static void
test_external_location_twice (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const gint64 dims[] = { 4, 4 };
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;
  Onnx__TensorProto *t;
  Onnx__StringStringEntryProto *again = g_new (Onnx__StringStringEntryProto, 1);

  t = pv_onnx_graph_add_external_initializer (g, "w", F, dims, 2, "first.bin", -1, -1);
  onnx__string_string_entry_proto__init (again);
  again->key = g_strdup ("location");
  again->value = g_strdup ("second.bin");
  t->external_data = g_renew (Onnx__StringStringEntryProto *, t->external_data, t->n_external_data + 1);
  t->external_data[t->n_external_data++] = again;
  pv_onnx_graph_add_node (g, "MatMul", "mm", N ("x", "w"), N ("y"));
  pv_onnx_graph_add_output (g, "y", F, "4");
  bytes = pv_onnx_builder_pack (b);
  pv_onnx_builder_free (b);
  model = pv_model_load_from_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "ext.onnx", &error);
  g_assert_null (model);
  g_assert_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_EXTERNAL_DATA);
  g_assert_nonnull (strstr (error->message, "initializer “w”: external_data gives “location” twice"));
}

/* A chain of @n Relus written to a new temporary file; returns its path. */
static char *
write_chain (int n, char **dir)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  char *path;

  for (int i = 0; i < n; i++)
    {
      g_autofree char *in = i == 0 ? g_strdup ("x") : g_strdup_printf ("v%d", i - 1);
      g_autofree char *out = i == n - 1 ? g_strdup ("y") : g_strdup_printf ("v%d", i);
      g_autofree char *name = g_strdup_printf ("relu%d", i);
      pv_onnx_graph_add_node (g, "Relu", name, N (in), N (out));
    }
  pv_onnx_graph_add_output (g, "y", F, "4");
  bytes = pv_onnx_builder_pack (b);
  pv_onnx_builder_free (b);
  *dir = g_dir_make_tmp ("planviz-cancel-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (*dir, "chain.onnx", NULL);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL));
  return path;
}

static void
remove_chain (char *path, char *dir)
{
  g_remove (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

/* A cancelled load stops with G_IO_ERROR_CANCELLED, while unpacking (5,000
 * nodes make more allocations than one look at the cancellable is apart) or
 * while converting nodes (1,500 nodes unpack before the first look); an
 * uncancelled cancellable changes nothing. */
static void
test_load_cancelled (void)
{
  const int sizes[] = { 1500, 5000 };

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      char *dir = NULL;
      char *path = write_chain (sizes[k], &dir);
      g_autoptr (GCancellable) cancellable = g_cancellable_new ();
      g_autoptr (GError) error = NULL;
      g_autoptr (PvModel) model = pv_model_load_from_file_cancellable (path, cancellable, &error);

      g_assert_no_error (error);
      g_assert_cmpint (model->graph->n_nodes, ==, sizes[k]);
      g_cancellable_cancel (cancellable);
      g_clear_pointer (&model, pv_model_free);
      model = pv_model_load_from_file_cancellable (path, cancellable, &error);
      g_assert_null (model);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      remove_chain (path, dir);
    }
}

/* ORT's rewrite (its ORT-mode inference) and planviz's inference stop too. */
static void
test_inference_cancelled (void)
{
  char *dir = NULL;
  char *path = write_chain (5000, &dir);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = pv_model_load_from_file (path, &error);
  g_autoptr (PvOrtShapes) ort_shapes = NULL;
  PvShapeOptions options = { .cancellable = cancellable };
  PvShapeInfo *info;

  g_assert_no_error (error);
  g_cancellable_cancel (cancellable);
  g_assert_false (pv_ort_graph_rewrite (model, cancellable, &ort_shapes, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (ort_shapes);
  g_clear_error (&error);
  info = pv_shape_infer (model, &options, &error);
  g_assert_null (info);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_true (pv_ort_graph_rewrite (model, NULL, &ort_shapes, &error));
  g_assert_no_error (error);
  g_assert_cmpint (pv_ort_shapes_get (ort_shapes, model->graph, pv_graph_find_value (model->graph, "y"))->rank, ==, 1);
  remove_chain (path, dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/errors/cycle", test_cycle);
  g_test_add_func ("/errors/cycle-through-two-outputs", test_cycle_through_two_outputs);
  g_test_add_func ("/errors/too-many-nodes", test_too_many_nodes);
  g_test_add_func ("/errors/produced-twice", test_produced_twice);
  g_test_add_func ("/errors/undefined-input", test_undefined_input);
  g_test_add_func ("/errors/undefined-input-in-subgraph", test_undefined_input_in_subgraph);
  g_test_add_func ("/errors/duplicate-node-names", test_duplicate_node_names);
  g_test_add_func ("/errors/nul-in-names", test_nul_in_names);
  g_test_add_func ("/errors/header", test_header);
  g_test_add_func ("/errors/too-deep", test_too_deep);
  g_test_add_func ("/errors/depth-linear", test_depth_linear);
  g_test_add_func ("/errors/consumers-sorted-fast", test_consumers_sorted_fast);
  g_test_add_func ("/errors/raw-bytes", test_raw_bytes);
  g_test_add_func ("/errors/missing-file", test_missing_file);
  g_test_add_func ("/loader/external-data-not-read", test_external_data_not_read);
  g_test_add_func ("/loader/external-data-checked", test_external_data_checked);
  g_test_add_func ("/loader/external-location-twice", test_external_location_twice);
  g_test_add_func ("/loader/cancelled", test_load_cancelled);
  g_test_add_func ("/loader/inference-cancelled", test_inference_cancelled);
  return g_test_run ();
}
