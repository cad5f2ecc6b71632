/* pv-save-file.h: the one way planviz writes a file the user named (configs,
 * plans, pictures), for the window and the CLI alike. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Replaces the file at @path with @len bytes of @data, or leaves it as it
 * was. The bytes go to a temporary file in the same folder, every byte
 * written (short writes retried; ENOSPC and other errors are failures),
 * fsync'ed, renamed over the file, and the folder fsync'ed. On any error the
 * old file is untouched, the temporary file is removed, and @error (in
 * G_FILE_ERROR) names @path, never the temporary file. A symlink at @path is
 * followed: its target is replaced and the link kept. An existing file keeps
 * its permission bits (a 0600 file stays 0600); a new file gets
 * 0666 & ~umask. A pipe or a character device (a terminal, /dev/null,
 * /dev/stdout) is written straight, as there is no file to replace; a pipe
 * that no program reads is an error at once. Anything else but a regular
 * file at the target is refused. */
gboolean pv_save_file (const char *path, const void *data, gsize len, GError **error);

/* pv_save_file() for a local @file; a non-local one (no path) goes through
 * g_file_replace_contents(), the best GIO offers there. */
gboolean pv_save_gfile (GFile *file, const void *data, gsize len, GError **error);

G_END_DECLS
