/* pv-json-doc.h: JSON read as nlohmann::json (ONNX Runtime's reader) reads
 * it, keeping the byte offset of every value and key.
 *
 * Internal to the planner: the partition config checker and mover use it to
 * say where in the file something is and what ORT 1.30 makes of it. It is
 * strict RFC 8259 JSON (no comments), UTF-8 checked inside strings, an
 * optional UTF-8 BOM, a NUL byte read as the end of the input, numbers that
 * overflow a double refused. Objects keep every member in file order,
 * duplicate keys included; lookups resolve duplicates to the last one, as
 * nlohmann does. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  PV_JSON_NULL,
  PV_JSON_FALSE,
  PV_JSON_TRUE,
  PV_JSON_NUMBER,
  PV_JSON_STRING,
  PV_JSON_ARRAY,
  PV_JSON_OBJECT,
} PvJsonKind;

typedef struct PvJsonValue PvJsonValue;
typedef struct _PvBumpAlloc PvBumpAlloc;

typedef struct {
  char *key;
  gsize len;
  gsize offset;
  guint index;     /* position in its object */
  PvJsonValue *value;
} PvJsonMember;

struct PvJsonValue {
  PvJsonKind kind;
  gsize offset;    /* first byte of the value */
  char *str;       /* PV_JSON_STRING: decoded, NUL-terminated (may hold NULs) */
  gsize len;
  GPtrArray *items; /* PV_JSON_ARRAY: PvJsonValue*; PV_JSON_OBJECT: PvJsonMember* in file order */
};

/* A parsed document. All values belong to it (pv_json_doc_clear() frees
 * them). On failure @failed is set, @root is NULL, @error_offset is the byte
 * where we put the error, @error our description of it and @ort_error the
 * exception text nlohmann::json gives (what ORT logs). */
typedef struct {
  PvBumpAlloc *arena;         /* every value, member, key and string: a config
                           * has one per node, freed at once */
  GPtrArray *containers;  /* the arrays and objects, whose items to free */
  PvJsonValue *root;
  gboolean failed;
  gsize error_offset;
  char *error;      /* our description (after "not valid JSON: ") */
  char *ort_error;  /* nlohmann's what() */
  gboolean nul_end; /* the value is followed by a NUL byte and more text */
  gsize nul_offset;
} PvJsonDoc;

/* Parses @len bytes of @text (NUL bytes allowed: one ends the input) into
 * @doc, which must be zeroed. Always fills @doc, with a root value or with
 * the error; release it with pv_json_doc_clear(). */
void pv_json_doc_parse (PvJsonDoc *doc, const char *text, gsize len);

/* Frees what pv_json_doc_parse() put in @doc (the values, the error texts). */
void pv_json_doc_clear (PvJsonDoc *doc);

/* nlohmann's type_name() of @v: "null", "boolean", "number", "string",
 * "array" or "object". Static string. */
const char *pv_json_kind_name (const PvJsonValue *v);

/* @v's kind for our messages: "null", "a boolean", "a number", "an array"...
 * Static string. */
const char *pv_json_kind_article (const PvJsonValue *v);

/* The member of object @obj with key @key (no NUL bytes) that nlohmann's
 * json[key] finds: the last one with that key. NULL if none. */
PvJsonMember *pv_json_object_get (const PvJsonValue *obj, const char *key);

/* Orders two members by their key bytes, as std::string compares them. */
int pv_json_compare_keys (const PvJsonMember *x, const PvJsonMember *y);

/* A new array of object @obj's members (borrowed) sorted by key, and by file
 * position among equal keys; with @last_only only the last of each key (the
 * one nlohmann keeps). */
GPtrArray *pv_json_sorted_members (const PvJsonValue *obj, gboolean last_only);

/* A new array of the values (borrowed) "for (auto &e : value)" visits in
 * nlohmann::json: none for NULL or null, an array's elements, an object's
 * values in key order (the last of duplicate keys), else @v itself. */
GPtrArray *pv_json_iterate (const PvJsonValue *v);

G_END_DECLS
