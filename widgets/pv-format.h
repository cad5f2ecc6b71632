/* pv-format.h: numbers as the widgets and the renderer show them. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @bytes in IEC units ("1.5 MiB"), and below one KiB as "512 B". With
 * @exact, the count in bytes follows ("1.5 MiB (1572864 bytes)", GLib's
 * long format). Free with g_free(). */
char *pv_format_bytes (guint64 bytes, gboolean exact);
/* @n in decimal with a comma every three digits ("70,012"), whatever the
 * locale. Free with g_free(). */
char *pv_format_count (gint64 n);

G_END_DECLS
