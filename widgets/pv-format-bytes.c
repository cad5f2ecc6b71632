/* pv-format-bytes.c: byte counts for people (see the header). */
#include "pv-format-bytes.h"

char *
pv_format_bytes (guint64 bytes, gboolean exact)
{
  /* GLib says "512 bytes": "B" keeps small figures as short as the rest. */
  if (bytes < 1024)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " B", bytes);
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS | (exact ? G_FORMAT_SIZE_LONG_FORMAT : 0));
}
