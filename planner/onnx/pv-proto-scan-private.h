/* pv-proto-scan-private.h: wire-format helpers shared by the scan and the strip. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Reads a varint of at most 10 bytes at *@p, not past @end, and moves *@p
 * past it. FALSE when it runs past @end (*@truncated set) or is longer.
 * Inline: the walks read one or two a field. */
static inline gboolean
_pv_proto_read_varint (const guint8 **p, const guint8 *end, guint64 *out, gboolean *truncated)
{
  guint64 v = 0;

  *truncated = FALSE;
  for (int i = 0; i < 10; i++)
    {
      if (*p >= end)
        {
          *truncated = TRUE;
          return FALSE;
        }
      guint8 b = *(*p)++;
      v |= (guint64) (b & 0x7f) << (7 * i);
      if (!(b & 0x80))
        {
          *out = v;
          return TRUE;
        }
    }
  return FALSE;
}

G_END_DECLS
