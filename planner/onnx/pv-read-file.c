/* pv-read-file.c: bounded whole-file reads (see the header).
 * g_file_get_contents() reads /dev/zero until memory runs out, and it and
 * g_mapped_file_new() block forever on a FIFO without a writer. */
#include "pv-read-file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

static gboolean
fail (GError **error, const char *path, GFileError code, const char *format, const char *detail)
{
  g_autofree char *shown = g_filename_display_name (path);
  g_autofree char *why = g_strdup_printf (format, detail);

  g_set_error (error, G_FILE_ERROR, code, "%s: %s", shown, why);
  return FALSE;
}

static const char *
kind_of (mode_t mode)
{
  if (S_ISDIR (mode))
    return "a folder";
  if (S_ISFIFO (mode))
    return "a FIFO";
  if (S_ISSOCK (mode))
    return "a socket";
  if (S_ISCHR (mode) || S_ISBLK (mode))
    return "a device";
  return "not a regular file";
}

/* Reads @fd to its end or to one byte past @limit. */
static gboolean
read_bounded (int fd, const char *path, gsize limit, GByteArray *out, GError **error)
{
  guint8 buf[65536];

  for (;;)
    {
      gssize n = read (fd, buf, sizeof buf);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return fail (error, path, g_file_error_from_errno (errno), "cannot read it: %s", g_strerror (errno));
      if (n == 0)
        return TRUE;
      if ((gsize) n > limit - MIN (limit, out->len))
        {
          g_autofree char *size = g_format_size_full (limit, G_FORMAT_SIZE_IEC_UNITS);
          return fail (error, path, G_FILE_ERROR_FAILED, "larger than the %s planviz reads", size);
        }
      g_byte_array_append (out, buf, (guint) n);
    }
}

int
pv_open_regular_file (const char *path, guint64 *size, GError **error)
{
  struct stat st;
  int fd;

  g_return_val_if_fail (path != NULL, -1);

  /* O_NONBLOCK: opening a FIFO must not wait for a writer. */
  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0);
  if (fd < 0)
    {
      int saved = errno;
      fail (error, path, g_file_error_from_errno (saved), "%s", g_strerror (saved));
      return -1;
    }
  if (fstat (fd, &st) != 0)
    {
      int saved = errno;
      close (fd);
      fail (error, path, g_file_error_from_errno (saved), "%s", g_strerror (saved));
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      fail (error, path, G_FILE_ERROR_INVAL, "%s, not a file planviz can read", kind_of (st.st_mode));
      return -1;
    }
  if (size)
    *size = (guint64) st.st_size;
  return fd;
}

gboolean
pv_read_fd (int fd, const char *path, guint64 size, gsize limit, char **contents, gsize *len, GError **error)
{
  g_autoptr (GByteArray) bytes = NULL;

  g_return_val_if_fail (path != NULL && contents != NULL, FALSE);
  g_return_val_if_fail (limit < G_MAXUINT, FALSE);

  if (size > limit)
    {
      g_autofree char *shown = g_format_size_full (limit, G_FORMAT_SIZE_IEC_UNITS);
      return fail (error, path, G_FILE_ERROR_FAILED, "larger than the %s planviz reads", shown);
    }
  bytes = g_byte_array_sized_new ((guint) size + 1);
  if (!read_bounded (fd, path, limit, bytes, error))
    return FALSE;
  if (len)
    *len = bytes->len;
  g_byte_array_append (bytes, (const guint8 *) "", 1);
  *contents = (char *) g_byte_array_free (g_steal_pointer (&bytes), FALSE);
  return TRUE;
}

gboolean
pv_read_file (const char *path, gsize limit, char **contents, gsize *len, GError **error)
{
  guint64 size = 0;
  int fd;
  gboolean ok;

  g_return_val_if_fail (path != NULL && contents != NULL, FALSE);

  fd = pv_open_regular_file (path, &size, error);
  if (fd < 0)
    return FALSE;
  ok = pv_read_fd (fd, path, size, limit, contents, len, error);
  close (fd);
  return ok;
}
