/* pv-json-layout.h: JSON text laid out anew, as ONNX Runtime's JSON library
 * writes it: nlohmann::json's dump(2) (two-space indent, one member or
 * element a line) or dump() (one line). Keys keep their order in the text;
 * integral numbers below 1e15 are written without a fraction. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @text laid out anew (pretty: dump(2) and a final newline; else dump()),
 * or NULL when it is not JSON. Free with g_free(). */
char     *pv_json_relayout (const char *text,
                            gboolean    pretty);
/* Whether @text is one JSON value (as cJSON reads it). */
gboolean  pv_json_is_valid (const char *text);

G_END_DECLS
