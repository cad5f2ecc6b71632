/* pv-format.c: numbers for people (see the header). */
#include "pv-format.h"

#include <string.h>

char *
pv_format_bytes (guint64 bytes, gboolean exact)
{
  /* GLib says "512 bytes": "B" keeps small figures as short as the rest. */
  if (bytes < 1024)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " B", bytes);
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS | (exact ? G_FORMAT_SIZE_LONG_FORMAT : 0));
}

char *
pv_format_count (gint64 n)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GINT64_FORMAT, n);
  GString *out = g_string_new (NULL);
  int len = (int) strlen (digits);

  for (int i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, digits[i]);
    }
  return g_string_free (out, FALSE);
}
