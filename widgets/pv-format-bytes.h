/* pv-format-bytes.h: byte counts as the widgets and the renderer show them. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @bytes in IEC units ("1.5 MiB"), and below one KiB as "512 B". With
 * @exact, the count in bytes follows ("1.5 MiB (1572864 bytes)", GLib's
 * long format). Free with g_free(). */
char *pv_format_bytes (guint64 bytes, gboolean exact);

G_END_DECLS
