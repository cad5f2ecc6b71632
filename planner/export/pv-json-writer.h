/* pv-json-writer.h: JSON written straight into a GString as it is produced,
 * for exports too large to build as a cJSON tree first (the ORT plan of a
 * 95.7k-node model). The text is byte for byte what cJSON_Print() makes of
 * the same items in the same order: tab-indented objects, one-line arrays,
 * cJSON's number and string forms. */
#pragma once

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
void pv_json_bool (PvJsonWriter *w, const char *key, gboolean value);
void pv_json_null (PvJsonWriter *w, const char *key);

G_END_DECLS
