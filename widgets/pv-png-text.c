/* pv-png-text.c: PNG tEXt chunks. A chunk is its data's length (4 bytes,
 * big-endian), its type, the data, and the CRC-32 of type and data. */
#include "pv-png-text.h"

#include <string.h>
#include <zlib.h>

static const guint8 png_signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

static guint32
read_be32 (const guint8 *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3];
}

static void
append_be32 (GByteArray *out, guint32 v)
{
  guint8 b[4] = { v >> 24, v >> 16 & 0xff, v >> 8 & 0xff, v & 0xff };
  g_byte_array_append (out, b, 4);
}

/* Offset of the first IDAT chunk, or 0 when the chunks do not add up. */
static gsize
first_idat (const GByteArray *png)
{
  gsize at = sizeof png_signature;

  if (png->len < at || memcmp (png->data, png_signature, sizeof png_signature) != 0)
    return 0;
  while (at + 12 <= png->len)
    {
      guint32 length = read_be32 (png->data + at);
      if (memcmp (png->data + at + 4, "IDAT", 4) == 0)
        return at == sizeof png_signature ? 0 : at;  /* IHDR comes first */
      if (length > png->len - at - 12)
        return 0;
      at += 12 + (gsize) length;
    }
  return 0;
}

static gboolean
valid_key (const char *key)
{
  gsize n = strlen (key);

  /* Printable Latin-1, no leading, trailing or double spaces. */
  if (n < 1 || n > 79 || key[0] == ' ' || key[n - 1] == ' ' || strstr (key, "  "))
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if ((guchar) key[i] < 32 || (guchar) key[i] > 126)
      return FALSE;
  return TRUE;
}

static void
append_text_chunk (GByteArray *out, const char *key, const char *text)
{
  g_autofree char *latin1 = g_convert_with_fallback (text, -1, "ISO-8859-1", "UTF-8", "?", NULL, NULL, NULL);
  gsize key_len = strlen (key), text_len = latin1 ? strlen (latin1) : 0;
  gsize start = out->len;
  uLong crc;

  append_be32 (out, (guint32) (key_len + 1 + text_len));
  g_byte_array_append (out, (const guint8 *) "tEXt", 4);
  g_byte_array_append (out, (const guint8 *) key, (guint) key_len);
  g_byte_array_append (out, (const guint8 *) "", 1);  /* the key's terminator */
  if (text_len)
    g_byte_array_append (out, (const guint8 *) latin1, (guint) text_len);
  crc = crc32 (0L, out->data + start + 4, (uInt) (out->len - start - 4));
  append_be32 (out, (guint32) crc);
}

gboolean
pv_png_insert_text (GByteArray *png, const char *const *pairs, GError **error)
{
  gsize idat = first_idat (png);
  g_autoptr (GByteArray) chunks = g_byte_array_new ();

  if (idat == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "Not a PNG with an IDAT chunk");
      return FALSE;
    }
  for (int i = 0; pairs && pairs[i]; i += 2)
    {
      if (!valid_key (pairs[i]) || pairs[i + 1] == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "Invalid PNG text key “%s”", pairs[i]);
          return FALSE;
        }
      append_text_chunk (chunks, pairs[i], pairs[i + 1]);
    }
  g_byte_array_set_size (png, png->len + chunks->len);
  memmove (png->data + idat + chunks->len, png->data + idat, png->len - chunks->len - idat);
  memcpy (png->data + idat, chunks->data, chunks->len);
  return TRUE;
}
