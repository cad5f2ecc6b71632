/* test-read-file.c: outside files are read whole only when they are regular
 * files under the limit; devices and FIFOs fail at once. A mapped model file
 * that another program cuts while planviz reads it gives an error that says
 * so, not a SIGBUS; a SIGBUS that is not a guarded read still ends the
 * process. */
#include "pv-error.h"
#include "pv-file-cut-guard.h"
#include "pv-kernel-table.h"
#include "pv-model-loader-private.h"
#include "pv-onnx-builder.h"
#include "pv-read-file.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *
temp_path (const char *name)
{
  g_autofree char *dir = g_dir_make_tmp ("pv-read-XXXXXX", NULL);

  g_assert_nonnull (dir);
  return g_build_filename (dir, name, NULL);
}

static void
remove_with_dir (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_regular (void)
{
  g_autofree char *path = temp_path ("a.json");
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  gsize len = 0;

  g_assert_true (g_file_set_contents (path, "{\"a\": 1}", -1, NULL));
  g_assert_true (pv_read_file (path, PV_READ_FILE_LIMIT, &text, &len, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "{\"a\": 1}");
  g_assert_cmpuint (len, ==, 8);
  g_clear_pointer (&text, g_free);
  /* At the limit is fine, one byte over is not. */
  g_assert_true (pv_read_file (path, 8, &text, &len, NULL));
  g_assert_false (pv_read_file (path, 7, &text, &len, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "a.json: larger than the 7 bytes planviz reads"));
  remove_with_dir (path);
}

static void
expect_refused (const char *path, const char *fragment)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  gsize len = 0;

  g_assert_false (pv_read_file (path, PV_READ_FILE_LIMIT, &text, &len, &error));
  /* At once: no reading /dev/zero to the limit, no waiting for a writer
   * (which would block forever). Wall time, with room for a loaded machine. */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, fragment));
  g_assert_null (text);
}

static void
test_special_files (void)
{
  g_autofree char *fifo = temp_path ("fifo");
  g_autofree char *missing = temp_path ("missing.json");
  g_autofree char *dir = g_path_get_dirname (missing);

  expect_refused ("/dev/zero", "a device, not a file planviz can read");
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  expect_refused (fifo, "a FIFO, not a file planviz can read");
  expect_refused (dir, "a folder");
  expect_refused (missing, "No such file");
  remove_with_dir (fifo);
  g_rmdir (dir);
}

/* The kernel-defs reader goes through it (it once read /dev/zero to 2 GB). */
static void
test_kernel_defs (void)
{
  g_autoptr (PvKernelTable) table = pv_kernel_table_new_default (NULL);
  g_autofree char *fifo = temp_path ("kernels.json");
  g_autoptr (GError) error = NULL;

  g_assert_false (pv_kernel_table_merge_file (table, "/dev/zero", &error));
  g_assert_error (error, PV_KERNEL_TABLE_ERROR, PV_KERNEL_TABLE_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "/dev/zero: a device"));
  g_clear_error (&error);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_false (pv_kernel_table_merge_file (table, fifo, &error));
  g_assert_error (error, PV_KERNEL_TABLE_ERROR, PV_KERNEL_TABLE_ERROR_IO);
  remove_with_dir (fifo);
}

/* @path holding @n_pages pages of 'A', mapped, then cut to 100 bytes. */
static GMappedFile *
map_then_cut (const char *path, gsize n_pages)
{
  gsize size = n_pages * (gsize) sysconf (_SC_PAGESIZE);
  g_autofree char *bytes = g_malloc (size);
  GMappedFile *file;

  memset (bytes, 'A', size);
  g_assert_true (g_file_set_contents (path, bytes, (gssize) size, NULL));
  file = g_mapped_file_new (path, FALSE, NULL);
  g_assert_nonnull (file);
  g_assert_cmpint (truncate (path, 100), ==, 0);
  return file;
}

static void
test_cut_guard (void)
{
  g_autofree char *path = temp_path ("cut.bin");
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  GMappedFile *file = map_then_cut (path, 3);
  const volatile guint8 *data = (const guint8 *) g_mapped_file_get_contents (file);
  PvFileCutGuard guard;

  /* What is still in the file reads as before, and cuts nothing. */
  pv_file_cut_guard_begin (&guard, (const void *) data, 3 * page);
  g_assert_cmpint (data[0], ==, 'A');
  g_assert_cmpint (data[99], ==, 'A');
  g_assert_false (pv_file_cut_guard_end (&guard));
  /* Past the new end: zeros, and the guard knows; a second read does not
   * fault again. */
  pv_file_cut_guard_begin (&guard, (const void *) data, 3 * page);
  g_assert_cmpint (data[2 * page + 5], ==, 0);
  g_assert_cmpint (data[2 * page + 6], ==, 0);
  g_assert_cmpint (data[50], ==, 'A'); /* what is left of the file: still the file's */
  g_assert_cmpint (data[page + 1], ==, 0);
  g_assert_true (pv_file_cut_guard_end (&guard));
  g_mapped_file_unref (file);
  remove_with_dir (path);
}

static void
test_cut_unguarded_still_fatal (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *path = temp_path ("cut.bin");
      gsize page = (gsize) sysconf (_SC_PAGESIZE);
      GMappedFile *file = map_then_cut (path, 3);
      const volatile guint8 *data = (const guint8 *) g_mapped_file_get_contents (file);
      PvFileCutGuard guard;

      remove_with_dir (path); /* the mapping stays */
      /* A guard elsewhere in the process (another mapping) changes nothing. */
      pv_file_cut_guard_begin (&guard, (const void *) (data + page), 0);
      printf ("%d\n", data[2 * page]);
      pv_file_cut_guard_end (&guard);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
}

static void
test_cut_model (void)
{
  g_autofree char *path = temp_path ("big.onnx");
  PvOnnxBuilder *b = pv_onnx_builder_new (8, "planviz-test");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const gint64 dims[] = { 1024, 1024 };
  g_autoptr (GBytes) packed = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;
  GMappedFile *file;
  float *w;

  pv_onnx_builder_add_opset (b, "", 17);
  pv_onnx_graph_add_input (g, "x", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, "4,1024");
  w = pv_onnx_graph_add_initializer_alloc (g, "w", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, dims, 2, 4 << 20);
  memset (w, 0, 4 << 20);
  pv_onnx_graph_add_node (g, "MatMul", "mm", (const char *const[]){ "x", "w", NULL },
                          (const char *const[]){ "y", NULL });
  pv_onnx_graph_add_output (g, "y", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, "4,1024");
  packed = pv_onnx_builder_pack (b);
  pv_onnx_builder_free (b);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (packed, NULL), (gssize) g_bytes_get_size (packed), NULL));

  /* Whole, a mapped file loads as a read one does. */
  file = g_mapped_file_new (path, FALSE, NULL);
  model = _pv_model_load_mapped (file, path, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  g_clear_pointer (&model, pv_model_free);

  /* Cut after it is mapped, before it is read: what a re-export in place
   * does to a load under way. */
  file = g_mapped_file_new (path, FALSE, NULL);
  g_assert_cmpint (truncate (path, 1000), ==, 0);
  model = _pv_model_load_mapped (file, path, 0, NULL, &error);
  g_assert_null (model);
  g_assert_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "big.onnx: the file was cut short while planviz read it"));
  remove_with_dir (path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/read-file/regular", test_regular);
  g_test_add_func ("/read-file/special-files", test_special_files);
  g_test_add_func ("/read-file/kernel-defs", test_kernel_defs);
  g_test_add_func ("/read-file/cut-guard", test_cut_guard);
  g_test_add_func ("/read-file/cut-unguarded-still-fatal", test_cut_unguarded_still_fatal);
  g_test_add_func ("/read-file/cut-model", test_cut_model);
  return g_test_run ();
}
