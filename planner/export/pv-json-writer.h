/* pv-json-writer.h: JSON written straight into a GString as it is produced,
 * for exports too large to build as a cJSON tree first (the ORT plan of a
 * 95.7k-node model). The text is byte for byte what cJSON_Print() makes of
 * the same items in the same order: tab-indented objects, one-line arrays,
 * cJSON's number and string forms. */
#pragma once

#include <cjson/cJSON.h>
#include <glib.h>

G_BEGIN_DECLS

#define PV_JSON_WRITER_MAX_DEPTH 32

typedef struct {
  GString *out;
  int depth;                                  /* containers open */
  gboolean is_object[PV_JSON_WRITER_MAX_DEPTH];
  gboolean has_items[PV_JSON_WRITER_MAX_DEPTH];
} PvJsonWriter;

/* A copy of JSON @text (g_free it) that is valid UTF-8, as JSON must be:
 * each invalid sequence (a node name from a model need not be UTF-8; cJSON
 * and this writer pass its bytes through) becomes U+FFFD. */
char *pv_json_dup_valid_utf8 (const char *text);

void pv_json_writer_init (PvJsonWriter *w);
/* The text (every container closed), valid UTF-8 (see
 * pv_json_dup_valid_utf8()); the writer is spent. Caller frees. */
char *pv_json_writer_finish (PvJsonWriter *w);

/* Each value takes a @key inside an object and NULL inside an array (or
 * at the top). */
void pv_json_begin_object (PvJsonWriter *w, const char *key);
void pv_json_end_object (PvJsonWriter *w);
void pv_json_begin_array (PvJsonWriter *w, const char *key);
void pv_json_end_array (PvJsonWriter *w);
/* A NULL @value writes nothing, as cJSON_AddStringToObject() adds nothing. */
void pv_json_string (PvJsonWriter *w, const char *key, const char *value);
void pv_json_number (PvJsonWriter *w, const char *key, double value);
/* An integer, exact to 64 bits: byte counts, dims and offsets. Below 10^15
 * the text is pv_json_number()'s (cJSON's); above, all its digits, where a
 * double would round (2^60 + 1 bytes printed as 1.152921504606847e+18). */
void pv_json_int64 (PvJsonWriter *w, const char *key, gint64 value);
void pv_json_uint64 (PvJsonWriter *w, const char *key, guint64 value);
void pv_json_bool (PvJsonWriter *w, const char *key, gboolean value);

/* The same for cJSON trees: a number item below 10^15, a raw item with
 * every digit above. */
cJSON *pv_cjson_int64 (gint64 value);
cJSON *pv_cjson_uint64 (guint64 value);
void pv_json_null (PvJsonWriter *w, const char *key);

G_END_DECLS
