/* The strip of the weights the loader does not keep (pv-proto-strip.h):
 * models load to the same tensors as when unpacked whole, whatever the wire
 * layout of their tensors; the strip drops the payloads it should and no
 * more; and it refuses bytes that are not what the scan accepted. */
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "onnx-subset.pb-c.h"
#include "pv-model-loader-private.h"
#include "pv-proto-strip.h"
#include "pv-same-tensors.h"
#include "pv-test-model.h"

/* ---- protobuf wire format, written by hand ---- */

static void
put_varint (GByteArray *out, guint64 v)
{
  do
    {
      guint8 b = (guint8) ((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
      g_byte_array_append (out, &b, 1);
      v >>= 7;
    }
  while (v);
}

static void
put_int (GByteArray *out, guint field, guint64 v)
{
  put_varint (out, (guint64) field << 3);
  put_varint (out, v);
}

/* A length-delimited field whose length prefix is @width bytes (0: as short
 * as it can be), padded as some writers do. */
static void
put_bytes_wide (GByteArray *out, guint field, const void *data, gsize len, int width)
{
  put_varint (out, ((guint64) field << 3) | 2);
  if (width == 0)
    put_varint (out, len);
  else
    for (int i = 0; i < width; i++)
      {
        guint8 b = (guint8) (((len >> (7 * i)) & 0x7f) | (i + 1 < width ? 0x80 : 0));
        g_byte_array_append (out, &b, 1);
      }
  g_byte_array_append (out, data, (guint) len);
}

static void
put_bytes (GByteArray *out, guint field, const void *data, gsize len)
{
  put_bytes_wide (out, field, data, len, 0);
}

static void
put_message (GByteArray *out, guint field, GByteArray *msg)
{
  put_bytes (out, field, msg->data, msg->len);
}

/* A model of one graph holding @tensors (TensorProtos, already encoded) as
 * initializers, the graph's length prefix @graph_width bytes wide. */
static GByteArray *
model_of_initializers (GPtrArray *tensors, int graph_width)
{
  g_autoptr (GByteArray) opset = g_byte_array_new ();
  g_autoptr (GByteArray) graph = g_byte_array_new ();
  GByteArray *model = g_byte_array_new ();

  put_bytes (opset, 1, "", 0);
  put_int (opset, 2, 17);
  for (guint i = 0; i < tensors->len; i++)
    put_message (graph, 5, g_ptr_array_index (tensors, i));
  put_bytes (graph, 2, "g", 1);
  put_int (model, 1, 8);
  put_message (model, 8, opset);
  put_bytes_wide (model, 7, graph->data, graph->len, graph_width);
  return model;
}

/* TensorProto field numbers: the schema's and the payload's. */
enum { T_DIMS = 1, T_DATA_TYPE = 2, T_FLOAT_DATA = 4, T_INT32_DATA = 5, T_INT64_DATA = 7, T_NAME = 8, T_RAW = 9 };

static GByteArray *
tensor_start (const char *name)
{
  GByteArray *t = g_byte_array_new ();
  put_bytes (t, T_NAME, name, strlen (name));
  return t;
}

static void
put_raw (GByteArray *t, gsize len, guint8 fill)
{
  g_autofree guint8 *raw = g_malloc (len);
  memset (raw, fill, len);
  put_bytes (t, T_RAW, raw, len);
}

static void
put_packed_int64s (GByteArray *t, guint field, const gint64 *values, int n)
{
  g_autoptr (GByteArray) packed = g_byte_array_new ();
  for (int i = 0; i < n; i++)
    put_varint (packed, (guint64) values[i]);
  put_message (t, field, packed);
}

/* Loads @bytes both ways and asserts the same tensors; returns what was compared. */
static PvSameTensorsCount
assert_loads_as_whole (const GByteArray *bytes)
{
  g_autoptr (GError) error = NULL, whole_error = NULL;
  g_autoptr (PvModel) model = pv_model_load_from_bytes (bytes->data, bytes->len, "strip.onnx", &error);
  g_autoptr (PvModel) whole = _pv_model_load_unstripped (bytes->data, bytes->len, "strip.onnx", &whole_error);
  PvSameTensorsCount count = { 0 };

  g_assert_no_error (error);
  g_assert_no_error (whole_error);
  pv_assert_same_tensors (model, whole, &count);
  return count;
}

static const PvTensor *
initializer (const PvModel *model, const char *name)
{
  int id = pv_graph_find_value (model->graph, name);
  g_assert_cmpint (id, >=, 0);
  return model->graph->values[id].initializer;
}

/* Tensors whose payload comes before their type and dims, types given twice
 * (the last wins), dims half packed, payloads spread over several fields,
 * and the boundary of PV_TENSOR_KEEP_DATA_BYTES. */
static void
test_wire_layouts (void)
{
  g_autoptr (GPtrArray) tensors = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
  g_autoptr (GByteArray) model = NULL;
  g_autoptr (PvModel) loaded = NULL;
  const gint64 dims_2_64[] = { 2, 64 }, small[] = { 1, 2, 3 };
  GByteArray *t;
  PvSameTensorsCount count;

  /* payload first: float [128] = 512 bytes, kept */
  t = tensor_start ("payload_first_kept");
  put_raw (t, 512, 1);
  put_int (t, T_DATA_TYPE, 1);
  put_int (t, T_DIMS, 128);
  g_ptr_array_add (tensors, t);
  /* float [129] = 516 bytes: one past the limit, dropped */
  t = tensor_start ("one_past");
  put_raw (t, 516, 2);
  put_int (t, T_DIMS, 129);
  put_int (t, T_DATA_TYPE, 1);
  g_ptr_array_add (tensors, t);
  /* int64 first, then int8: the last type wins, [2,64] int8 = 128 bytes, kept */
  t = tensor_start ("type_twice");
  put_int (t, T_DATA_TYPE, 7);
  put_packed_int64s (t, T_DIMS, dims_2_64, 1);
  put_int (t, T_DIMS, 64);
  put_raw (t, 128, 3);
  put_int (t, T_DATA_TYPE, 3);
  g_ptr_array_add (tensors, t);
  /* int8 then int64: [2,64] int64 = 1,024 bytes, dropped */
  t = tensor_start ("type_twice_big");
  put_int (t, T_DATA_TYPE, 3);
  put_packed_int64s (t, T_DIMS, dims_2_64, 2);
  put_raw (t, 1024, 4);
  put_int (t, T_DATA_TYPE, 7);
  g_ptr_array_add (tensors, t);
  /* int64 [3] as unpacked int64_data entries, and as a packed field */
  t = tensor_start ("unpacked_int64s");
  put_int (t, T_DATA_TYPE, 7);
  put_int (t, T_DIMS, 3);
  for (int i = 0; i < 3; i++)
    put_int (t, T_INT64_DATA, (guint64) small[i]);
  g_ptr_array_add (tensors, t);
  t = tensor_start ("packed_int64s");
  put_int (t, T_DATA_TYPE, 7);
  put_int (t, T_DIMS, 3);
  put_packed_int64s (t, T_INT64_DATA, small, 3);
  g_ptr_array_add (tensors, t);
  /* A kept tensor whose raw_data is too long for its dims: not decoded either way */
  t = tensor_start ("wrong_length");
  put_int (t, T_DATA_TYPE, 1);
  put_raw (t, 4096, 5);
  g_ptr_array_add (tensors, t);
  /* float_data and int32_data (packed) of a dropped tensor, and a scalar */
  t = tensor_start ("float_data_big");
  put_int (t, T_DATA_TYPE, 1);
  put_int (t, T_DIMS, 1000);
  put_raw (t, 4000, 6);
  put_bytes (t, T_FLOAT_DATA, "\0\0\0\0", 4);
  g_ptr_array_add (tensors, t);
  t = tensor_start ("scalar_int32");
  put_int (t, T_DATA_TYPE, 6);
  put_packed_int64s (t, T_INT32_DATA, small + 2, 1);
  g_ptr_array_add (tensors, t);

  for (int width = 0; width <= 5; width += 5)
    {
      g_clear_pointer (&model, g_byte_array_unref);
      model = model_of_initializers (tensors, width);
      count = assert_loads_as_whole (model);
      g_assert_cmpint (count.tensors, ==, 9);
      /* payload_first_kept, type_twice, unpacked_int64s, packed_int64s, scalar_int32 */
      g_assert_cmpint (count.with_data, ==, 5);
    }
  loaded = pv_model_load_from_bytes (model->data, model->len, "strip.onnx", NULL);
  g_assert_cmpuint (g_bytes_get_size (initializer (loaded, "payload_first_kept")->data), ==, 512);
  g_assert_null (initializer (loaded, "one_past")->data);
  g_assert_cmpuint (g_bytes_get_size (initializer (loaded, "type_twice")->data), ==, 128);
  g_assert_null (initializer (loaded, "type_twice_big")->data);
  g_assert_null (initializer (loaded, "wrong_length")->data);
  for (int k = 0; k < 2; k++)
    {
      const PvTensor *tensor = initializer (loaded, k ? "packed_int64s" : "unpacked_int64s");
      for (guint64 i = 0; i < 3; i++)
        {
          gint64 v;
          g_assert_true (pv_tensor_get_int (tensor, i, &v));
          g_assert_cmpint (v, ==, small[i]);
        }
    }
}

static gboolean
keep_none (const guint8 *known, gsize len, gpointer user_data)
{
  (*(int *) user_data)++;
  return FALSE;
}

static gboolean
keep_all (const guint8 *known, gsize len, gpointer user_data)
{
  (*(int *) user_data)++;
  return TRUE;
}

/* A model built as exporters write them: initializers big and small, in
 * the main graph and in If branches, Constant nodes, external data. */
static GBytes *
built_model (void)
{
  g_autoptr (PvOnnxBuilder) b = pv_test_builder_new (17);
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxGraph *branches[2];
  const gint64 w_dims[] = { 256, 256 }, shape_dims[] = { 2 }, shape[] = { 4, 256 }, c_dims[] = { 300 };
  g_autofree float *c_values = g_new0 (float, 300);
  g_autofree float *w = g_new (float, 256 * 256);
  PvOnnxNode *node;

  pv_onnx_graph_add_input (g, "x", 1, "4,256");
  pv_onnx_graph_add_input (g, "cond", 9, "");
  pv_onnx_graph_add_output (g, "y", 1, NULL);
  for (int i = 0; i < 256 * 256; i++)
    w[i] = (float) i;
  pv_onnx_graph_add_initializer_floats (g, "W", w_dims, 2, w);
  pv_onnx_graph_add_initializer_int64s (g, "shape", shape_dims, 1, shape);
  pv_onnx_graph_add_external_initializer (g, "E", 1, w_dims, 2, "weights.bin", 0, -1);
  node = pv_onnx_graph_add_node (g, "Constant", "big_constant", NULL, (const char *[]) { "c", NULL });
  pv_onnx_node_add_attr_tensor_floats (node, "value", c_dims, 1, c_values);
  node = pv_onnx_graph_add_node (g, "Constant", "small_constant", NULL, (const char *[]) { "s", NULL });
  pv_onnx_node_add_attr_tensor_int64s (node, "value", shape_dims, 1, shape);
  pv_onnx_graph_add_node (g, "MatMul", "mm", (const char *[]) { "x", "W", NULL }, (const char *[]) { "m", NULL });
  for (int k = 0; k < 2; k++)
    {
      branches[k] = pv_onnx_graph_new (k ? "else" : "then");
      pv_onnx_graph_add_output (branches[k], k ? "eo" : "to", 1, NULL);
      pv_onnx_graph_add_initializer_alloc (branches[k], k ? "bw" : "tw", 1, w_dims, 2, sizeof (float) * 256 * 256);
      pv_onnx_graph_add_initializer_int64s (branches[k], k ? "bs" : "ts", shape_dims, 1, shape);
      pv_onnx_graph_add_node (branches[k], "Reshape", NULL, (const char *[]) { "m", k ? "bs" : "ts", NULL },
                              (const char *[]) { k ? "eo" : "to", NULL });
    }
  pv_onnx_graph_add_if (g, "if", "cond", (const char *[]) { "y", NULL }, branches[0], branches[1]);
  return pv_onnx_builder_pack (b);
}

static void
test_built_model (void)
{
  g_autoptr (GBytes) bytes = built_model ();
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  g_autoptr (GByteArray) as_array = g_byte_array_append (g_byte_array_new (), data, (guint) len);
  g_autoptr (GByteArray) none = NULL, all = NULL;
  g_autoptr (GBytes) repacked = NULL, repacked_all = NULL;
  Onnx__ModelProto *mp;
  PvSameTensorsCount count = assert_loads_as_whole (as_array);
  int asked = 0;
  guint8 *buf;

  /* W, shape, E, c, s, and tw, ts, bw, bs in the branches */
  g_assert_cmpint (count.tensors, ==, 9);
  g_assert_cmpint (count.with_data, ==, 4);

  /* Nothing kept: the three 256 KiB weights and the 1,200-byte constant go,
   * with every other byte; each TensorProto with a payload is asked once. */
  none = pv_proto_strip (&onnx__model_proto__descriptor, data, len, 64, &onnx__tensor_proto__descriptor, 0,
                         keep_none, &asked);
  g_assert_nonnull (none);
  g_assert_cmpint (asked, ==, 8);
  g_assert_cmpuint (none->len, <, len - 3 * 262144 - 1200);
  g_assert_cmpuint (none->len, >, len - 3 * 262144 - 1200 - 3 * 100);
  mp = onnx__model_proto__unpack (NULL, none->len, none->data);
  g_assert_nonnull (mp);
  g_assert_cmpuint (mp->graph->n_initializer, ==, 3);
  for (size_t i = 0; i < mp->graph->n_initializer; i++)
    g_assert_cmpuint (mp->graph->initializer[i]->base.n_unknown_fields, ==, 0);
  onnx__model_proto__free_unpacked (mp, NULL);

  /* Payloads of at most 512 bytes kept unasked: only W, tw, bw and c are asked about. */
  asked = 0;
  g_clear_pointer (&none, g_byte_array_unref);
  none = pv_proto_strip (&onnx__model_proto__descriptor, data, len, 64, &onnx__tensor_proto__descriptor, 512,
                         keep_none, &asked);
  g_assert_cmpint (asked, ==, 4);
  g_assert_cmpuint (none->len, <, len - 3 * 262144 - 1200);
  g_assert_cmpuint (none->len, >, len - 3 * 262144 - 1200 - 50);

  /* Everything kept: protobuf-c reads the copy as the original. */
  asked = 0;
  all = pv_proto_strip (&onnx__model_proto__descriptor, data, len, 64, &onnx__tensor_proto__descriptor, 0,
                        keep_all, &asked);
  g_assert_cmpint (asked, ==, 8);
  g_assert_cmpuint (all->len, ==, len);
  mp = onnx__model_proto__unpack (NULL, len, data);
  buf = g_malloc (onnx__model_proto__get_packed_size (mp));
  repacked = g_bytes_new_take (buf, onnx__model_proto__pack (mp, buf));
  onnx__model_proto__free_unpacked (mp, NULL);
  mp = onnx__model_proto__unpack (NULL, all->len, all->data);
  buf = g_malloc (onnx__model_proto__get_packed_size (mp));
  repacked_all = g_bytes_new_take (buf, onnx__model_proto__pack (mp, buf));
  onnx__model_proto__free_unpacked (mp, NULL);
  g_assert_true (g_bytes_equal (repacked, repacked_all));
}

/* Bytes that are not what the scan accepted: NULL, never a crash. */
static void
test_refuses_changed_bytes (void)
{
  g_autoptr (GBytes) bytes = built_model ();
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  g_autofree guint8 *copy = g_memdup2 (data, len);
  int asked = 0;
  GByteArray *out;

  /* Cut short, or zeros from halfway (what a file cut under a mapping reads) */
  g_assert_null (pv_proto_strip (&onnx__model_proto__descriptor, data, len / 2, 64, &onnx__tensor_proto__descriptor, 0,
                                 keep_all, &asked));
  memset (copy + len / 2, 0, len - len / 2);
  out = pv_proto_strip (&onnx__model_proto__descriptor, copy, len, 64, &onnx__tensor_proto__descriptor, 0,
                        keep_all, &asked);
  g_assert_null (out);
  /* Nested deeper than allowed: model > graph > node > attribute > graph ... */
  g_assert_null (pv_proto_strip (&onnx__model_proto__descriptor, data, len, 3, &onnx__tensor_proto__descriptor, 0,
                                 keep_all, &asked));
}

static gsize
peak_rss_bytes (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return (gsize) usage.ru_maxrss * 1024;
}

/* A model file with 64 MiB of weights loads without reading them: the
 * process's peak resident size grows by far less than the weights. (Unpacked
 * whole, the weights were read from the file and copied: 128 MiB more.) */
static void
test_weights_never_read (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr (PvOnnxBuilder) b = pv_test_builder_new (17);
      PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
      const gint64 dims[] = { 4096, 1024 };
      g_autofree char *dir = g_dir_make_tmp ("pv-strip-XXXXXX", NULL);
      g_autofree char *path = g_build_filename (dir, "weights.onnx", NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (PvModel) model = NULL;
      gsize before, after;

      pv_onnx_graph_add_input (g, "x", 1, "1,4096");
      pv_onnx_graph_add_output (g, "y", 1, NULL);
      for (int i = 0; i < 4; i++)
        {
          g_autofree char *name = g_strdup_printf ("w%d", i);
          memset (pv_onnx_graph_add_initializer_alloc (g, name, 1, dims, 2, 16 << 20), 1, 16 << 20);
        }
      pv_onnx_graph_add_node (g, "MatMul", "mm", (const char *[]) { "x", "w0", NULL }, (const char *[]) { "y", NULL });
      g_assert_true (pv_onnx_builder_write (b, path, &error));
      g_clear_pointer (&b, pv_onnx_builder_free);
      before = peak_rss_bytes ();
      model = pv_model_load_from_file (path, &error);
      after = peak_rss_bytes ();
      g_assert_no_error (error);
      printf ("# peak RSS %" G_GSIZE_FORMAT " KiB before the load, %" G_GSIZE_FORMAT " KiB after\n",
                      before >> 10, after >> 10);
      g_assert_cmpuint (after - before, <, 16 << 20);
      g_unlink (path);
      g_rmdir (dir);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDOUT);
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/proto-strip/wire-layouts", test_wire_layouts);
  g_test_add_func ("/proto-strip/built-model", test_built_model);
  g_test_add_func ("/proto-strip/refuses-changed-bytes", test_refuses_changed_bytes);
  g_test_add_func ("/proto-strip/weights-never-read", test_weights_never_read);
  return g_test_run ();
}
