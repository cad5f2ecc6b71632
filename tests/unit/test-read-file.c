/* test-read-file.c: outside files are read whole only when they are regular
 * files under the limit; devices and FIFOs fail at once. */
#include "pv-error.h"
#include "pv-kernel-table.h"
#include "pv-read-file.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/read-file/regular", test_regular);
  g_test_add_func ("/read-file/special-files", test_special_files);
  g_test_add_func ("/read-file/kernel-defs", test_kernel_defs);
  return g_test_run ();
}
