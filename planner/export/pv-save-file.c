/* pv-save-file.c: atomic, durable replacement of a file (see the header).
 * GLib 2.74's g_file_replace_contents() renames a partial temporary file over
 * the original after a failed write (ENOSPC) and replaces symlinks and
 * permissions; g_file_set_contents() names its temporary file in errors. */
#include "pv-save-file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINKS 40 /* as the kernel's ELOOP limit */

static gboolean
fail (GError **error, const char *path, int saved_errno, const char *what)
{
  g_autofree char *shown = g_filename_display_name (path);

  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno), "Cannot save “%s”: %s: %s", shown, what,
               g_strerror (saved_errno));
  return FALSE;
}

/* The file a chain of symlinks at @path ends at (it may not exist yet). */
static char *
resolve_links (const char *path, GError **error)
{
  g_autofree char *current = g_strdup (path);

  for (int hops = 0; hops < MAX_LINKS; hops++)
    {
      g_autofree char *target = NULL;
      GStatBuf st;

      if (g_lstat (current, &st) != 0 || !S_ISLNK (st.st_mode))
        return g_steal_pointer (&current);
      target = g_file_read_link (current, NULL);
      if (target == NULL)
        return g_steal_pointer (&current);
      if (!g_path_is_absolute (target))
        {
          g_autofree char *dir = g_path_get_dirname (current);
          char *joined = g_build_filename (dir, target, NULL);
          g_free (target);
          target = joined;
        }
      g_free (current);
      current = g_steal_pointer (&target);
    }
  fail (error, path, ELOOP, "following its links");
  return NULL;
}

static gboolean
write_all (int fd, const guint8 *data, gsize len, int *saved_errno)
{
  while (len > 0)
    {
      gssize n = write (fd, data, MIN (len, (gsize) G_MAXSSIZE));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          /* write() returning 0 for a non-empty buffer means no space. */
          *saved_errno = n < 0 ? errno : ENOSPC;
          return FALSE;
        }
      data += n;
      len -= (gsize) n;
    }
  return TRUE;
}

/* Writes, syncs and closes @fd; on failure *what says which step. */
static gboolean
fill_temp (int fd, const void *data, gsize len, int *saved_errno, const char **what)
{
  gboolean ok = TRUE;

  if (!write_all (fd, data, len, saved_errno))
    *what = "writing", ok = FALSE;
  else if (fsync (fd) != 0)
    *saved_errno = errno, *what = "syncing", ok = FALSE;
  if (close (fd) != 0 && ok)
    *saved_errno = errno, *what = "closing", ok = FALSE;
  return ok;
}

/* Makes the rename durable. Some file systems cannot sync a folder (EINVAL):
 * the rename stands there as it would after any other save. */
static gboolean
sync_folder (const char *dir, int *saved_errno)
{
  int fd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  gboolean ok = TRUE;

  if (fd < 0)
    return TRUE;
  if (fsync (fd) != 0 && errno != EINVAL && errno != ENOTSUP)
    *saved_errno = errno, ok = FALSE;
  close (fd);
  return ok;
}

/* A pipe or a character device (a terminal, /dev/null; /dev/stdout is a
 * link to one): there is no file to replace, the bytes go straight in. A
 * pipe nobody reads is an error at once, not a wait. */
static gboolean
write_stream (const char *path, const void *data, gsize len, GError **error)
{
  int fd = g_open (path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
  int saved_errno = 0;
  gboolean ok;

  if (fd < 0)
    return fail (error, path, errno, errno == ENXIO ? "no program reads from this pipe" : "opening it");
  /* A reader is there: from now on a full pipe waits for it. */
  if (fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK) != 0)
    saved_errno = errno;
  ok = saved_errno == 0 && write_all (fd, data, len, &saved_errno);
  if (close (fd) != 0 && ok)
    saved_errno = errno, ok = FALSE;
  return ok || fail (error, path, saved_errno, "writing");
}

gboolean
pv_save_file (const char *path, const void *data, gsize len, GError **error)
{
  g_autofree char *target = NULL, *dir = NULL, *base = NULL, *temp = NULL;
  const char *what = NULL;
  int saved_errno = 0, fd;
  GStatBuf st;
  gboolean exists;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  /* The kernel follows /proc's links, which resolve_links() cannot. */
  if (g_stat (path, &st) == 0 && (S_ISFIFO (st.st_mode) || S_ISCHR (st.st_mode)))
    return write_stream (path, data, len, error);
  target = resolve_links (path, error);
  if (target == NULL)
    return FALSE;
  exists = g_stat (target, &st) == 0;
  if (!exists && errno != ENOENT)
    return fail (error, path, errno, "reading its status");
  if (exists && !S_ISREG (st.st_mode))
    return fail (error, path, S_ISDIR (st.st_mode) ? EISDIR : EINVAL, "not a regular file");

  dir = g_path_get_dirname (target);
  base = g_path_get_basename (target);
  temp = g_strdup_printf ("%s%c.%s.XXXXXX", dir, G_DIR_SEPARATOR, base);
  /* 0666 here, narrowed by the umask: a new file's mode. */
  fd = g_mkstemp_full (temp, O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0)
    return fail (error, path, errno, "creating a file beside it");
  if (exists)
    {
      /* The owner is kept where we may (root saving a user's file);
       * elsewhere the file becomes the saver's, as with any editor. */
      if ((st.st_uid != geteuid () || st.st_gid != getegid ()) && fchown (fd, st.st_uid, st.st_gid) != 0)
        g_debug ("pv_save_file: %s keeps a new owner", target);
      if (fchmod (fd, st.st_mode & 07777) != 0)
        {
          saved_errno = errno;
          close (fd);
          g_unlink (temp);
          return fail (error, path, saved_errno, "keeping its permissions");
        }
    }
  if (!fill_temp (fd, data, len, &saved_errno, &what))
    {
      g_unlink (temp);
      return fail (error, path, saved_errno, what);
    }
  if (g_rename (temp, target) != 0)
    {
      saved_errno = errno;
      g_unlink (temp);
      return fail (error, path, saved_errno, "replacing it");
    }
  if (!sync_folder (dir, &saved_errno))
    return fail (error, path, saved_errno, "syncing its folder");
  return TRUE;
}

gboolean
pv_save_gfile (GFile *file, const void *data, gsize len, GError **error)
{
  const char *path;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  path = g_file_peek_path (file);
  if (path != NULL)
    return pv_save_file (path, data, len, error);
  return g_file_replace_contents (file, data, len, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL,
                                  error);
}
