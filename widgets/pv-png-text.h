/* pv-png-text.h: tEXt chunks added to a PNG that cairo wrote (cairo 1.16
 * writes none). */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Inserts one tEXt chunk per pair of @pairs (key, text, key, text, …,
 * NULL) before @png's first IDAT chunk. Keys are 1–79 Latin-1 characters
 * (PNG's rule); text in UTF-8 is written as Latin-1, '?' for what Latin-1
 * lacks. Returns FALSE, @png untouched, when @png has no IHDR … IDAT
 * structure or a key is invalid. */
gboolean pv_png_insert_text (GByteArray *png, const char *const *pairs, GError **error);

G_END_DECLS
