/* test-save-file.c: pv_save_file() never loses the old file. Run with
 * tests/support/pv-fail-write.c preloaded, which fails writes (ENOSPC after
 * N bytes) and fsync (EIO) on request. */
#include "pv-save-file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char OLD[] = "{\"old\": \"config\", \"kept\": true}\n";

typedef struct
{
  char *dir;
  char *path;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->dir = g_dir_make_tmp ("pv-save-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  /* Readable by the unprivileged child of the read-only-folder test. */
  g_assert_cmpint (g_chmod (f->dir, 0755), ==, 0);
  f->path = g_build_filename (f->dir, "config.json", NULL);
}

static void
remove_tree (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_chmod (dir, 0755);
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (dir, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (dir);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

static GBytes *
big_data (gsize len)
{
  guint8 *bytes = g_malloc (len);

  for (gsize i = 0; i < len; i++)
    bytes[i] = (guint8) ('a' + i % 26);
  return g_bytes_new_take (bytes, len);
}

static void
write_old (const char *path, int mode)
{
  g_assert_true (g_file_set_contents (path, OLD, -1, NULL));
  g_assert_cmpint (g_chmod (path, mode), ==, 0);
}

static void
assert_contents (const char *path, const void *want, gsize want_len)
{
  g_autofree char *text = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  g_assert_cmpmem (text, len, want, want_len);
}

/* Nothing but @expected (NULL: nothing) is left in @dir: no temporary file. */
static void
assert_only (const char *dir, const char *expected)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  int n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_assert_cmpstr (name, ==, expected);
      n++;
    }
  g_assert_cmpint (n, ==, expected ? 1 : 0);
}

static int
mode_of (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return st.st_mode & 07777;
}

/* The message names the user's file, never the hidden temporary one. */
static void
assert_names_file (const GError *error, const char *path)
{
  g_assert_nonnull (error);
  g_assert_error (error, G_FILE_ERROR, error->code);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_null (strstr (error->message, "/.config.json."));
}

static void
test_new_file (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  mode_t old = umask (027);

  g_assert_true (pv_save_file (f->path, "new", 3, &error));
  umask (old);
  g_assert_no_error (error);
  assert_contents (f->path, "new", 3);
  g_assert_cmpint (mode_of (f->path), ==, 0640);
  assert_only (f->dir, "config.json");
}

static void
test_keeps_mode (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = big_data (100000);

  write_old (f->path, 0600);
  g_assert_true (pv_save_file (f->path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
  assert_contents (f->path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_assert_cmpint (mode_of (f->path), ==, 0600);
  assert_only (f->dir, "config.json");
}

static void
test_symlink (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *sub = g_build_filename (f->dir, "real", NULL);
  g_autofree char *target = g_build_filename (sub, "config.json", NULL);
  g_autofree char *link = NULL;
  GStatBuf st;

  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  write_old (target, 0640);
  /* A relative link: resolved from the link's folder. */
  g_assert_cmpint (symlink ("real/config.json", f->path), ==, 0);
  g_assert_true (pv_save_file (f->path, "through the link", 16, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_lstat (f->path, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  link = g_file_read_link (f->path, NULL);
  g_assert_cmpstr (link, ==, "real/config.json");
  assert_contents (target, "through the link", 16);
  g_assert_cmpint (mode_of (target), ==, 0640);
  assert_only (sub, "config.json");
}

static void
test_full_disk (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = big_data (200000);

  write_old (f->path, 0644);
  g_setenv ("PV_FAIL_WRITE_AFTER", "1000", TRUE);
  g_assert_false (pv_save_file (f->path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error));
  g_unsetenv ("PV_FAIL_WRITE_AFTER");
  assert_names_file (error, f->path);
  g_assert_cmpint (error->code, ==, G_FILE_ERROR_NOSPC);
  assert_contents (f->path, OLD, strlen (OLD));
  assert_only (f->dir, "config.json");
}

static void
test_full_disk_new_file (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = big_data (5000);

  g_setenv ("PV_FAIL_WRITE_AFTER", "0", TRUE);
  g_assert_false (pv_save_file (f->path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error));
  g_unsetenv ("PV_FAIL_WRITE_AFTER");
  assert_names_file (error, f->path);
  assert_only (f->dir, NULL);
}

static void
test_fsync_fails (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  write_old (f->path, 0600);
  g_setenv ("PV_FAIL_FSYNC", "1", TRUE);
  g_assert_false (pv_save_file (f->path, "lost", 4, &error));
  g_unsetenv ("PV_FAIL_FSYNC");
  assert_names_file (error, f->path);
  g_assert_cmpint (error->code, ==, G_FILE_ERROR_IO);
  assert_contents (f->path, OLD, strlen (OLD));
  g_assert_cmpint (mode_of (f->path), ==, 0600);
  assert_only (f->dir, "config.json");
}

/* The preload really fails writes: without it the tests above prove nothing. */
static void
test_preload_active (void)
{
  g_autofree char *dir = g_dir_make_tmp ("pv-save-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "probe", NULL);
  FILE *file = fopen (path, "w");
  int fd = fileno (file);

  g_setenv ("PV_FAIL_WRITE_AFTER", "2", TRUE);
  g_assert_cmpint (write (fd, "abcd", 4), ==, 2);
  g_assert_cmpint (write (fd, "cd", 2), ==, -1);
  g_assert_cmpint (errno, ==, ENOSPC);
  g_unsetenv ("PV_FAIL_WRITE_AFTER");
  fclose (file);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_read_only_folder (void)
{
  Fixture f;

  if (g_test_subprocess ())
    {
      g_autoptr (GError) error = NULL;
      const char *path = g_getenv ("PV_SAVE_TEST_PATH");

      /* root ignores folder permissions: save as nobody. */
      if (geteuid () == 0 && (setgid (65534) != 0 || setuid (65534) != 0))
        g_error ("cannot drop root: %s", g_strerror (errno));
      g_assert_false (pv_save_file (path, "denied", 6, &error));
      assert_names_file (error, path);
      g_print ("refused: %s\n", error->message);
      return;
    }
  fixture_set_up (&f, NULL);
  write_old (f.path, 0644);
  g_assert_cmpint (g_chmod (f.dir, 0555), ==, 0);
  g_setenv ("PV_SAVE_TEST_PATH", f.path, TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("*refused: Cannot save*config.json*Permission denied*");
  assert_contents (f.path, OLD, strlen (OLD));
  assert_only (f.dir, "config.json");
  fixture_tear_down (&f, NULL);
}

static void
test_directory_refused (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (g_mkdir (f->path, 0755), ==, 0);
  g_assert_false (pv_save_file (f->path, "x", 1, &error));
  assert_names_file (error, f->path);
  g_assert_true (g_file_test (f->path, G_FILE_TEST_IS_DIR));
}

/* Pipes and character devices are written straight: nothing to replace. */
static void
test_dev_null (void)
{
  g_autoptr (GError) error = NULL;
  GStatBuf st;

  g_assert_true (pv_save_file ("/dev/null", "x", 1, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat ("/dev/null", &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));
}

static void
test_dev_full (void)
{
  g_autoptr (GError) error = NULL;

  if (!g_file_test ("/dev/full", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /dev/full");
      return;
    }
  g_assert_false (pv_save_file ("/dev/full", "x", 1, &error));
  assert_names_file (error, "/dev/full");
  g_assert_nonnull (strstr (error->message, "No space left on device"));
}

/* What `planviz-cli partition -o /dev/stdout` does: a link through /proc
 * to the pipe the parent reads. */
static void
test_dev_stdout (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr (GError) error = NULL;
      g_assert_true (pv_save_file ("/dev/stdout", "to standard output\n", 19, &error));
      g_assert_no_error (error);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("to standard output\n");
}

static void
test_pipe (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  char got[32] = { 0 };
  int reader;

  g_assert_cmpint (mkfifo (f->path, 0600), ==, 0);
  /* Nobody reads: refused at once, not a wait. */
  g_assert_false (pv_save_file (f->path, "nobody", 6, &error));
  assert_names_file (error, f->path);
  g_assert_nonnull (strstr (error->message, "no program reads from this pipe"));
  g_clear_error (&error);

  reader = g_open (f->path, O_RDONLY | O_NONBLOCK, 0);
  g_assert_cmpint (reader, >=, 0);
  g_assert_true (pv_save_file (f->path, "through the pipe", 16, &error));
  g_assert_no_error (error);
  g_assert_cmpint (read (reader, got, sizeof got - 1), ==, 16);
  g_assert_cmpstr (got, ==, "through the pipe");
  close (reader);
  assert_only (f->dir, "config.json");
}

/* planviz-cli partition -o on a full disk: exit 1, the message names the
 * file, the old config is kept byte for byte (it used g_file_set_contents,
 * whose messages named the hidden temporary file). */
static void
test_cli_full_disk (Fixture *f, gconstpointer data)
{
  g_autofree char *model = g_build_filename (g_getenv ("PV_DATA_DIR"), "mlp.onnx", NULL);
  g_autofree char *out = NULL, *err = NULL;
  const char *cli = g_getenv ("PV_CLI");
  const char *argv[] = { cli, "partition", model, "-o", f->path, NULL };
  g_autoptr (GError) error = NULL;
  int status = 0;

  if (cli == NULL)
    {
      g_test_skip ("PV_CLI is not set");
      return;
    }
  write_old (f->path, 0600);
  g_setenv ("PV_FAIL_WRITE_AFTER", "10", TRUE);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_unsetenv ("PV_FAIL_WRITE_AFTER");
  g_assert_no_error (error);
  g_test_message ("%s", err);
  g_assert_false (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (err, f->path));
  g_assert_nonnull (strstr (err, "No space left on device"));
  assert_contents (f->path, OLD, strlen (OLD));
  g_assert_cmpint (mode_of (f->path), ==, 0600);
  assert_only (f->dir, "config.json");

  /* Without the full disk it writes, and keeps the mode. */
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_cmpint (mode_of (f->path), ==, 0600);
  assert_only (f->dir, "config.json");
}

#define ADD(name, fn) g_test_add ("/save-file/" name, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/save-file/preload-active", test_preload_active);
  ADD ("new-file", test_new_file);
  ADD ("keeps-mode", test_keeps_mode);
  ADD ("symlink", test_symlink);
  ADD ("full-disk", test_full_disk);
  ADD ("full-disk-new-file", test_full_disk_new_file);
  ADD ("fsync-fails", test_fsync_fails);
  g_test_add_func ("/save-file/read-only-folder", test_read_only_folder);
  ADD ("directory-refused", test_directory_refused);
  g_test_add_func ("/save-file/dev-null", test_dev_null);
  g_test_add_func ("/save-file/dev-full", test_dev_full);
  g_test_add_func ("/save-file/dev-stdout", test_dev_stdout);
  ADD ("pipe", test_pipe);
  ADD ("cli-full-disk", test_cli_full_disk);
  return g_test_run ();
}
