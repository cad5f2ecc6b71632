/* libFuzzer target: a tensor's external-data entries (TensorProto
 * external_data: "location", "offset", "length", "checksum", anything) as
 * the loader meets them in a model file on disk. The input is
 *
 *   byte 0: bit 0 sets data_location, bit 1 makes it EXTERNAL (else DEFAULT)
 *   then:   entries "key=value", one a line (a NUL ends a key or value)
 *
 * written as the external-data entries of initializer "w" of a one-MatMul
 * model, saved as models/m.onnx in a folder made once that also holds
 * models/w.bin, models/sub/w.bin, ../outside.bin, a symlink to it
 * (models/link.bin), a folder (models/dir) and a FIFO (models/fifo), so that
 * locations can name what exists, what escapes the model's folder, and what
 * must never be opened or waited on. Any entries give a model or a
 * PV_MODEL_ERROR, never a crash, leak, hang or undefined behaviour; a loaded
 * model's "w" is external as data_location says and keeps the last
 * "location" (when external, the only one: ORT 1.30 refuses two). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "pv-error.h"
#include "pv-model-loader.h"
#include "pv-onnx-builder.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define MAX_ENTRIES 32

static char *folder, *model_path;

static void
make_file (const char *relative, gsize size)
{
  g_autofree char *path = g_build_filename (folder, relative, NULL);
  g_autofree char *zeros = g_malloc0 (size + 1);
  g_autoptr (GError) error = NULL;

  if (!g_file_set_contents (path, zeros, (gssize) size, &error))
    g_error ("fuzz-external-data: %s", error->message);
}

/* What the folder holds, innermost first. */
static const char *const layout[] = {
  "models/m.onnx", "models/w.bin", "models/sub/w.bin", "models/sub", "models/dir", "models/link.bin",
  "models/fifo", "models", "outside.bin",
};

static void
remove_folder (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (layout); i++)
    {
      g_autofree char *path = g_build_filename (folder, layout[i], NULL);
      g_remove (path);
    }
  g_rmdir (folder);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  g_autofree char *sub = NULL, *dir = NULL, *link = NULL, *fifo = NULL;

  /* In memory when the machine has /dev/shm: each input is written. */
  folder = g_build_filename (g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : g_get_tmp_dir (),
                             "pv-fuzz-external-XXXXXX", NULL);
  if (g_mkdtemp (folder) == NULL)
    {
      perror ("fuzz-external-data: cannot make a folder");
      exit (1);
    }
  atexit (remove_folder);
  sub = g_build_filename (folder, "models", "sub", NULL);
  dir = g_build_filename (folder, "models", "dir", NULL);
  link = g_build_filename (folder, "models", "link.bin", NULL);
  fifo = g_build_filename (folder, "models", "fifo", NULL);
  model_path = g_build_filename (folder, "models", "m.onnx", NULL);
  if (g_mkdir_with_parents (sub, 0700) != 0 || g_mkdir_with_parents (dir, 0700) != 0
      || symlink ("../outside.bin", link) != 0 || mkfifo (fifo, 0600) != 0)
    {
      perror ("fuzz-external-data: cannot lay out the folder");
      exit (1);
    }
  make_file ("models/w.bin", 64);
  make_file ("models/sub/w.bin", 64);
  make_file ("outside.bin", 64);
  return 0;
}

/* Writes the model in place: no temporary file, sync or rename as with
 * g_file_set_contents(), which made runs 1.2-1.4x dearer. The folder is the
 * target's own and the file is read only after this returns. */
static void
write_model (GBytes *bytes)
{
  gsize len = g_bytes_get_size (bytes);
  int fd = open (model_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

  if (fd < 0 || write (fd, g_bytes_get_data (bytes, NULL), len) != (ssize_t) len || close (fd) != 0)
    g_error ("fuzz-external-data: cannot write %s: %s", model_path, g_strerror (errno));
}

/* Adds @data's entries to @tensor; returns the last "location", or NULL. */
static const char *
add_entries (Onnx__TensorProto *tensor, const uint8_t *data, size_t size)
{
  const char *location = NULL;
  gsize at = 0;

  tensor->n_external_data = 0;
  tensor->external_data = g_new0 (Onnx__StringStringEntryProto *, MAX_ENTRIES);
  while (at < size && tensor->n_external_data < MAX_ENTRIES)
    {
      const uint8_t *nl = memchr (data + at, '\n', size - at);
      gsize end = nl ? (gsize) (nl - data) : size;
      const uint8_t *eq = memchr (data + at, '=', end - at);
      gsize key_end = eq ? (gsize) (eq - data) : end;
      Onnx__StringStringEntryProto *entry = g_new (Onnx__StringStringEntryProto, 1);

      onnx__string_string_entry_proto__init (entry);
      entry->key = g_strndup ((const char *) data + at, key_end - at);
      entry->value = eq ? g_strndup ((const char *) eq + 1, end - key_end - 1) : g_strdup ("");
      tensor->external_data[tensor->n_external_data++] = entry;
      if (strcmp (entry->key, "location") == 0)
        location = entry->value;
      at = end + 1;
    }
  return location;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (PvOnnxBuilder) builder = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;
  g_autofree char *location = NULL;
  const gint64 dims[] = { 4, 4 };
  PvOnnxGraph *g;
  Onnx__TensorProto *w;
  gboolean external;
  int id;

  if (size < 1 || size > 64 * 1024)
    return 0;
  builder = pv_onnx_builder_new (8, "fuzz-external-data");
  pv_onnx_builder_add_opset (builder, "", 17);
  g = pv_onnx_builder_get_graph (builder);
  pv_onnx_graph_add_input (g, "x", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, "4,4");
  w = pv_onnx_graph_add_external_initializer (g, "w", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, dims, 2, "w.bin", 0, 64);
  pv_onnx_graph_add_node (g, "MatMul", "mm", (const char *const[]){ "x", "w", NULL }, (const char *const[]){ "y", NULL });
  pv_onnx_graph_add_output (g, "y", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, "4,4");

  /* Replace the builder's entries with the input's. */
  for (size_t i = 0; i < w->n_external_data; i++)
    {
      g_free (w->external_data[i]->key);
      g_free (w->external_data[i]->value);
      g_free (w->external_data[i]);
    }
  g_free (w->external_data);
  w->has_data_location = (data[0] & 1) != 0;
  w->data_location = (data[0] & 2) ? ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL
                                   : ONNX__TENSOR_PROTO__DATA_LOCATION__DEFAULT;
  external = w->has_data_location && w->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
  location = g_strdup (add_entries (w, data + 1, size - 1));

  bytes = pv_onnx_builder_pack (builder);
  write_model (bytes);
  model = pv_model_load_from_file (model_path, &error);
  if (model == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == PV_MODEL_ERROR);
      return 0;
    }
  g_assert_no_error (error);
  id = pv_graph_find_value (model->graph, "w");
  g_assert_cmpint (id, >=, 0);
  g_assert_nonnull (model->graph->values[id].initializer);
  g_assert_cmpint (model->graph->values[id].initializer->external, ==, external);
  g_assert_cmpstr (model->graph->values[id].initializer->external_location, ==, location);
  return 0;
}
