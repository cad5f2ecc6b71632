/* pv-timeline-text.c: text for the renderer, shaped once and cached across frames. */
#include "pv-timeline-renderer-private.h"

/* ---- the text cache: shaping is the costly part of text ---- */

typedef struct {
  guint8 font;
  guint8 ellipsize;
  int width;                    /* pixels, -1: natural */
  int len;
  char text[];
} TextKey;

#define TEXT_CACHE_MAX 6000

static guint
text_key_hash (gconstpointer p)
{
  const TextKey *k = p;
  guint h = 5381u + k->font * 33u + k->ellipsize * 1031u + (guint) k->width * 2654435761u;
  for (int i = 0; i < k->len; i++)
    h = h * 33u + (guchar) k->text[i];
  return h;
}

static gboolean
text_key_equal (gconstpointer a, gconstpointer b)
{
  const TextKey *x = a, *y = b;
  return x->font == y->font && x->ellipsize == y->ellipsize && x->width == y->width && x->len == y->len &&
         memcmp (x->text, y->text, x->len) == 0;
}

static void
text_entry_free (gpointer p)
{
  TextEntry *e = p;
  g_object_unref (e->layout);
  g_free (e);
}

GHashTable *
pv_timeline_text_cache_new (void)
{
  return g_hash_table_new_full (text_key_hash, text_key_equal, g_free, text_entry_free);
}

/* @text shaped in @font, ellipsized to @width (< 0: natural width). */
const TextEntry *
pv_timeline_shaped_text (PvTimelineRenderer *self, int font, const char *text, int len, double width,
                         PangoEllipsizeMode ellipsize)
{
  TextKey *key;
  TextEntry *entry;
  gsize n = len < 0 ? strlen (text) : (gsize) len;
  char stack[sizeof (TextKey) + 128];

  key = n < 128 ? (TextKey *) stack : g_malloc (sizeof (TextKey) + n);
  key->font = (guint8) font;
  key->ellipsize = (guint8) (width >= 0 ? ellipsize : PANGO_ELLIPSIZE_NONE);
  key->width = width >= 0 ? (int) floor (width) : -1;
  key->len = (int) n;
  memcpy (key->text, text, n);
  entry = g_hash_table_lookup (self->text_cache, key);
  if (entry == NULL)
    {
      TextKey *owned = g_malloc (sizeof (TextKey) + n);
      memcpy (owned, key, sizeof (TextKey) + n);
      if (g_hash_table_size (self->text_cache) >= TEXT_CACHE_MAX)
        g_hash_table_remove_all (self->text_cache);
      entry = g_new0 (TextEntry, 1);
      entry->layout = pango_layout_new (self->pango);
      pango_layout_set_font_description (entry->layout, self->fonts[font]);
      pango_layout_set_text (entry->layout, text, (int) n);
      if (key->width >= 0)
        {
          pango_layout_set_ellipsize (entry->layout, ellipsize);
          pango_layout_set_width (entry->layout, key->width * PANGO_SCALE);
        }
      pango_layout_get_pixel_size (entry->layout, &entry->w, &entry->h);
      g_hash_table_insert (self->text_cache, owned, entry);
    }
  if ((char *) key != stack)
    g_free (key);
  return entry;
}

/* ---- text ---- */

double
pv_timeline_text_width (PvTimelineRenderer *self, int font, const char *text)
{
  return pv_timeline_shaped_text (self, font, text, -1, -1, PANGO_ELLIPSIZE_NONE)->w;
}

void
pv_timeline_show_text (cairo_t *cr, const TextEntry *e, double x, double cy, const Rgb *colour)
{
  if (colour)
    set_rgb (cr, colour);
  cairo_move_to (cr, x, floor (cy - e->h / 2.0 + 0.5));
  pango_cairo_show_layout (cr, e->layout);
}

/* Draws @text with its left edge at @x, vertically centred on @cy;
 * ellipsized to @width when >= 0. Returns the drawn width. */
double
pv_timeline_draw_text (PvTimelineRenderer *self, cairo_t *cr, int font, const char *text, double x, double cy,
                       double width, PangoEllipsizeMode ellipsize, const Rgb *colour)
{
  const TextEntry *e = pv_timeline_shaped_text (self, font, text, -1, -1, PANGO_ELLIPSIZE_NONE);
  /* Shape an ellipsized copy only when the natural one does not fit. */
  if (width >= 0 && e->w > width)
    e = pv_timeline_shaped_text (self, font, text, -1, width, ellipsize);
  pv_timeline_show_text (cr, e, x, cy, colour);
  return e->w;
}

double
pv_timeline_draw_text_right (PvTimelineRenderer *self, cairo_t *cr, int font, const char *text, double right, double cy,
                             const Rgb *colour)
{
  const TextEntry *e = pv_timeline_shaped_text (self, font, text, -1, -1, PANGO_ELLIPSIZE_NONE);
  pv_timeline_show_text (cr, e, right - e->w, cy, colour);
  return e->w;
}
