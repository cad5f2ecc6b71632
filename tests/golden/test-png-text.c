/* test-png-text.c: pv_png_insert_text() on a PNG cairo wrote: the tEXt
 * chunks land between IHDR and the first IDAT with valid lengths and CRCs,
 * the picture's own chunks are untouched, UTF-8 becomes Latin-1, and bad
 * input (not a PNG, a key PNG forbids) is refused with the PNG unchanged. */
#include <cairo.h>
#include <string.h>
#include <zlib.h>

#include "pv-png-text.h"

static cairo_status_t
append_bytes (void *closure, const unsigned char *data, unsigned int length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

static GByteArray *
small_png (void)
{
  GByteArray *png = g_byte_array_new ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 40, 30);
  cairo_t *cr = cairo_create (surface);

  cairo_set_source_rgb (cr, 0.2, 0.5, 0.9);
  cairo_paint (cr);
  cairo_destroy (cr);
  g_assert_cmpint (cairo_surface_write_to_png_stream (surface, append_bytes, png), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_destroy (surface);
  return png;
}

static guint32
be32 (const guint8 *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3];
}

/* The chunk types in order, "IHDR tEXt … IEND"; checks every CRC. */
static char *
chunk_list (const GByteArray *png, GPtrArray *texts)
{
  GString *out = g_string_new (NULL);
  gsize at = 8;

  while (at + 12 <= png->len)
    {
      guint32 n = be32 (png->data + at);
      g_assert_cmpuint (n, <=, png->len - at - 12);
      g_assert_cmpuint (be32 (png->data + at + 8 + n), ==, crc32 (0, png->data + at + 4, n + 4));
      if (!out->len || !g_str_has_suffix (out->str, "IDAT") || memcmp (png->data + at + 4, "IDAT", 4) != 0)
        g_string_append_printf (out, "%s%.4s", out->len ? " " : "", png->data + at + 4);
      if (texts && memcmp (png->data + at + 4, "tEXt", 4) == 0)
        {
          /* "key\0text", NUL-terminated */
          char *data = g_malloc (n + 1);
          memcpy (data, png->data + at + 8, n);
          data[n] = '\0';
          g_ptr_array_add (texts, data);
        }
      at += 12 + (gsize) n;
    }
  g_assert_cmpuint (at, ==, png->len);
  return g_string_free (out, FALSE);
}

static void
test_insert (void)
{
  g_autoptr (GByteArray) png = small_png ();
  g_autoptr (GByteArray) before = g_byte_array_new ();
  g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  const char *pairs[] = { "Model", "cnn.onnx", "Config", "café €", "Empty", "", NULL };
  g_autofree char *chunks_before = chunk_list (png, NULL), *chunks_after = NULL;
  const char *value;

  g_byte_array_append (before, png->data, png->len);
  g_assert_true (pv_png_insert_text (png, pairs, &error));
  g_assert_no_error (error);
  chunks_after = chunk_list (png, texts);
  g_assert_true (g_str_has_prefix (chunks_before, "IHDR"));
  /* The three chunks after IHDR and whatever cairo put before IDAT. */
  {
    g_autofree char *want = NULL;
    const char *idat = strstr (chunks_before, "IDAT");
    g_assert_nonnull (idat);
    want = g_strdup_printf ("%.*stEXt tEXt tEXt %s", (int) (idat - chunks_before), chunks_before, idat);
    g_assert_cmpstr (chunks_after, ==, want);
  }
  g_assert_cmpuint (texts->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const char *key = texts->pdata[i];
      value = key + strlen (key) + 1;
      g_assert_cmpstr (key, ==, pairs[2 * i]);
      /* Latin-1: é is one byte, the euro sign is not there. */
      g_assert_cmpstr (value, ==, i == 1 ? "caf\xe9 ?" : pairs[2 * i + 1]);
    }
  /* Everything else byte for byte: the new chunks sit just before IDAT. */
  {
    gsize added = png->len - before->len;
    const guint8 *idat = NULL;
    for (gsize at = 8; at + 8 <= before->len; at += 12 + be32 (before->data + at))
      if (memcmp (before->data + at + 4, "IDAT", 4) == 0)
        {
          idat = before->data + at;
          break;
        }
    g_assert_nonnull (idat);
    g_assert_cmpint (memcmp (png->data, before->data, idat - before->data), ==, 0);
    g_assert_cmpint (memcmp (png->data + (idat - before->data) + added, idat, before->len - (idat - before->data)),
                     ==, 0);
  }
}

static void
test_refused (void)
{
  g_autoptr (GByteArray) png = small_png ();
  g_autoptr (GByteArray) junk = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  guint len = png->len;
  const char *const bad_keys[][3] = {
    { "", "x", NULL }, { " lead", "x", NULL }, { "trail ", "x", NULL }, { "two  spaces", "x", NULL },
    { "caf\xc3\xa9", "x", NULL },
    { "a-key-of-eighty-characters-is-one-too-many-for-png-which-stops-at-seventy-nine!!", "x", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad_keys); i++)
    {
      g_assert_false (pv_png_insert_text (png, bad_keys[i], &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_clear_error (&error);
      g_assert_cmpuint (png->len, ==, len);
    }
  g_assert_true (pv_png_insert_text (png, (const char *[]) {
                   "a-key-of-eighty-characters-is-one-too-many-for-png-which-stops-at-seventy-nine!", "79 is fine",
                   NULL }, &error));
  g_assert_no_error (error);
  g_byte_array_append (junk, (const guint8 *) "GIF89a not a png at all", 23);
  g_assert_false (pv_png_insert_text (junk, (const char *[]) { "Model", "x", NULL }, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  /* Cut inside a chunk: the chunks no longer add up. */
  g_clear_error (&error);
  g_byte_array_set_size (png, 40);
  g_assert_false (pv_png_insert_text (png, (const char *[]) { "Model", "x", NULL }, &error));
  g_assert_cmpuint (png->len, ==, 40);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/png-text/insert", test_insert);
  g_test_add_func ("/png-text/refused", test_refused);
  return g_test_run ();
}
