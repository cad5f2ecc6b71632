/* pv-read-file.h: opening an outside file (model, partition config,
 * kernel-defs, app state) only if it is a regular file, and reading a whole
 * one with a size limit. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The largest text file planviz reads whole: a partition config of a
 * million nodes is well under it. */
#define PV_READ_FILE_LIMIT ((gsize) 256 * 1024 * 1024)

/* Reads all of @path into *@contents (NUL-terminated, length in *@len) if it
 * is a regular file of at most @limit bytes. Anything else fails at once
 * with a G_FILE_ERROR that names @path: a device (/dev/zero), a FIFO or a
 * socket (never waited on), a folder, or a file over the limit (also one
 * that grows past it while read). */
gboolean pv_read_file (const char *path, gsize limit, char **contents, gsize *len, GError **error);

/* Opens @path for reading if it is a regular file, without waiting (a FIFO
 * is refused, never waited on): the descriptor, to close, and its size in
 * *@size. Otherwise -1 and a G_FILE_ERROR that names @path and says what it
 * is instead (a folder, a FIFO, a device...). */
int pv_open_regular_file (const char *path, guint64 *size, GError **error);

/* Reads all of @fd, a regular file opened by pv_open_regular_file() with
 * @size bytes then, as pv_read_file() does (@path names it in errors). Does
 * not close @fd. */
gboolean pv_read_fd (int fd, const char *path, guint64 size, gsize limit, char **contents, gsize *len,
                     GError **error);

G_END_DECLS
