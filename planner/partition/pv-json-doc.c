/* pv-json-doc.c: JSON as nlohmann::json reads it, with byte offsets.
 *
 * ORT reads the partition config with nlohmann::json. To predict exactly which
 * files it refuses to parse (and quote the warning it logs), the reader below
 * follows nlohmann::json's documented grammar and error reporting: RFC 8259
 * JSON, UTF-8 checked inside strings, an optional UTF-8 BOM, a NUL byte read as
 * the end of the input, duplicate keys resolved to the last one, numbers that
 * overflow a double refused, and its "parse error at line L, column C: ..."
 * texts with its position and "last read" conventions. Everything here was
 * written from those descriptions and checked against ORT 1.30 itself
 * (tests/ort/configs). */
#include "pv-json-doc.h"

#include <math.h>
#include <string.h>

#include "pv-bump-alloc.h"
#include "pv-json-lexer.h"

static void
container_free (gpointer data)
{
  PvJsonValue *v = data;
  g_ptr_array_unref (v->items);
}

void
pv_json_doc_clear (PvJsonDoc *doc)
{
  g_clear_pointer (&doc->containers, g_ptr_array_unref);
  g_clear_pointer (&doc->arena, pv_bump_alloc_free);
  g_clear_pointer (&doc->error, g_free);
  g_clear_pointer (&doc->ort_error, g_free);
}

/* Our words for a token at the place where something else was expected. */
static char *
describe_token (const PvJsonLexer *lx, PvJsonToken t)
{
  switch (t)
    {
    case PV_JSON_T_STRING:
      return g_strdup ("a string");
    case PV_JSON_T_NUMBER:
      return g_strdup ("a number");
    case PV_JSON_T_TRUE:
      return g_strdup ("'true'");
    case PV_JSON_T_FALSE:
      return g_strdup ("'false'");
    case PV_JSON_T_NULL:
      return g_strdup ("'null'");
    case PV_JSON_T_END_OF_INPUT:
      return g_strdup (lx->current == 0 ? "a NUL byte (the end of the input for ONNX Runtime)" : "the end of the file");
    default:
      return g_strdup (pv_json_token_name (t));
    }
}

/* Records a syntax error the way nlohmann reports it (parser.hpp's
 * exception_message) and the way we describe it. */
static void
parse_fail (PvJsonDoc *doc, const PvJsonLexer *lx, PvJsonToken last, PvJsonToken expected, const char *context, const char *ours)
{
  GString *ort = g_string_new (NULL);

  g_string_append_printf (ort, "[json.exception.parse_error.101] parse error at line %" G_GSIZE_FORMAT
                               ", column %" G_GSIZE_FORMAT ": syntax error ",
                          lx->lines + 1, lx->chars_line);
  if (context)
    g_string_append_printf (ort, "while parsing %s ", context);
  g_string_append (ort, "- ");
  if (last == PV_JSON_T_PARSE_ERROR)
    {
      g_string_append_printf (ort, "%s; last read: '", lx->error);
      pv_json_lexer_append_last_read (ort, lx);
      g_string_append_c (ort, '\'');
    }
  else
    g_string_append_printf (ort, "unexpected %s", pv_json_token_name (last));
  if (expected != PV_JSON_T_UNINITIALIZED)
    g_string_append_printf (ort, "; expected %s", pv_json_token_name (expected));

  doc->failed = TRUE;
  doc->ort_error = g_string_free (ort, FALSE);
  if (last == PV_JSON_T_PARSE_ERROR)
    {
      doc->error_offset = lx->error_offset;
      if (strcmp (lx->error, "invalid literal") == 0)
        {
          g_autofree char *what = pv_json_lexer_describe_byte (lx);
          guchar first = lx->token_offset < lx->len ? lx->text[lx->token_offset] : 0;
          if (lx->error_offset > lx->token_offset && (first == 't' || first == 'f' || first == 'n'))
            doc->error = g_strdup_printf ("unexpected %s (expected '%s')", what,
                                          first == 't' ? "true" : first == 'f' ? "false" : "null");
          else
            doc->error = g_strdup_printf ("unexpected %s", what);
        }
      else
        doc->error = g_strdup (lx->error);
    }
  else
    {
      g_autofree char *found = describe_token (lx, last);
      doc->error_offset = lx->token_offset;
      doc->error = g_strdup_printf ("%s, found %s", ours, found);
    }
}

static PvJsonValue *
jval_new (PvJsonDoc *doc, PvJsonKind kind, gsize offset)
{
  PvJsonValue *v = pv_bump_alloc (doc->arena, sizeof (PvJsonValue));

  memset (v, 0, sizeof (PvJsonValue));
  v->kind = kind;
  v->offset = offset;
  if (kind == PV_JSON_ARRAY || kind == PV_JSON_OBJECT)
    {
      v->items = g_ptr_array_new ();
      g_ptr_array_add (doc->containers, v);
    }
  return v;
}

/* The lexer's decoded string, NUL-terminated (it may hold NULs), in the
 * document's arena. */
static char *
string_copy (PvJsonDoc *doc, const PvJsonLexer *lx)
{
  char *copy = pv_bump_alloc (doc->arena, lx->string_len + 1);

  memcpy (copy, lx->string, lx->string_len);
  copy[lx->string_len] = '\0';
  return copy;
}

static void
add_key (PvJsonDoc *doc, PvJsonValue *obj, const PvJsonLexer *lx)
{
  PvJsonMember *m = pv_bump_alloc (doc->arena, sizeof (PvJsonMember));

  memset (m, 0, sizeof (PvJsonMember));
  m->key = string_copy (doc, lx);
  m->len = lx->string_len;
  m->offset = lx->token_offset;
  m->index = obj->items->len;
  g_ptr_array_add (obj->items, m);
}

/* The parse in progress: the containers open, innermost last, and the
 * token in hand. */
typedef struct {
  PvJsonDoc *doc;
  PvJsonLexer lx;
  GPtrArray *stack;             /* PvJsonValue* */
  PvJsonToken last;
} Parser;

/* What the parse does next. */
typedef enum {
  NEXT_VALUE,                   /* a value starts at the token in hand */
  NEXT_CLOSED,                  /* a container just closed: what follows it */
  NEXT_FAILED,                  /* doc->failed is set */
} Next;

/* The empty input, as nlohmann words it. */
static void
fail_empty (Parser *p, gsize len)
{
  PvJsonDoc *doc = p->doc;

  doc->failed = TRUE;
  doc->ort_error = g_strdup_printf (
    "[json.exception.parse_error.101] parse error at line %" G_GSIZE_FORMAT ", column %" G_GSIZE_FORMAT
    ": attempting to parse an empty input; check that your input string or stream contains the expected JSON",
    p->lx.lines + 1, p->lx.chars_line);
  doc->error_offset = 0;
  doc->error = g_strdup (len == 0 ? "the file is empty" : "the file starts with a NUL byte, which ends the input");
}

/* The value the token in hand starts (an empty container for '{' and
 * '['), or NULL with doc->failed set. */
static PvJsonValue *
scan_value (Parser *p, gsize len)
{
  PvJsonDoc *doc = p->doc;
  PvJsonLexer *lx = &p->lx;
  gsize at = lx->token_offset;
  PvJsonValue *v;

  switch (p->last)
    {
    case PV_JSON_T_BEGIN_OBJECT: return jval_new (doc, PV_JSON_OBJECT, at);
    case PV_JSON_T_BEGIN_ARRAY: return jval_new (doc, PV_JSON_ARRAY, at);
    case PV_JSON_T_TRUE: return jval_new (doc, PV_JSON_TRUE, at);
    case PV_JSON_T_FALSE: return jval_new (doc, PV_JSON_FALSE, at);
    case PV_JSON_T_NULL: return jval_new (doc, PV_JSON_NULL, at);
    case PV_JSON_T_NUMBER:
      if (!isfinite (g_ascii_strtod (lx->buffer->str, NULL)))
        {
          GString *ort = g_string_new ("[json.exception.out_of_range.406] number overflow parsing '");
          pv_json_lexer_append_last_read (ort, lx);
          g_string_append_c (ort, '\'');
          doc->failed = TRUE;
          doc->ort_error = g_string_free (ort, FALSE);
          doc->error_offset = at;
          doc->error = g_strdup_printf ("the number %s is too large for a double", lx->buffer->str);
          return NULL;
        }
      return jval_new (doc, PV_JSON_NUMBER, at);
    case PV_JSON_T_STRING:
      v = jval_new (doc, PV_JSON_STRING, at);
      v->str = string_copy (doc, lx);
      v->len = lx->string_len;
      return v;
    case PV_JSON_T_PARSE_ERROR:
      parse_fail (doc, lx, p->last, PV_JSON_T_UNINITIALIZED, "value", NULL);
      return NULL;
    case PV_JSON_T_END_OF_INPUT:
      if (lx->chars_total == 1)
        {
          fail_empty (p, len);
          return NULL;
        }
      parse_fail (doc, lx, p->last, PV_JSON_T_LITERAL_OR_VALUE, "value", "expected a value");
      return NULL;
    default:
      parse_fail (doc, lx, p->last, PV_JSON_T_LITERAL_OR_VALUE, "value", "expected a value");
      return NULL;
    }
}

/* @v into its parent: an array's next item, or the last key's value. */
static void
attach (Parser *p, PvJsonValue *v)
{
  PvJsonValue *parent;

  if (p->stack->len == 0)
    {
      p->doc->root = v;
      return;
    }
  parent = g_ptr_array_index (p->stack, p->stack->len - 1);
  if (parent->kind == PV_JSON_ARRAY)
    g_ptr_array_add (parent->items, v);
  else
    ((PvJsonMember *) g_ptr_array_index (parent->items, parent->items->len - 1))->value = v;
}

/* A key and its ':' in @obj; FALSE (failed) otherwise. The token in hand
 * is the key; after it, the value's first token. */
static gboolean
scan_key (Parser *p, PvJsonValue *obj)
{
  if (p->last != PV_JSON_T_STRING)
    {
      parse_fail (p->doc, &p->lx, p->last, PV_JSON_T_STRING, "object key", "expected a string key");
      return FALSE;
    }
  add_key (p->doc, obj, &p->lx);
  if ((p->last = pv_json_lexer_scan (&p->lx)) != PV_JSON_T_NAME_SEPARATOR)
    {
      parse_fail (p->doc, &p->lx, p->last, PV_JSON_T_NAME_SEPARATOR, "object separator", "expected ':' after the key");
      return FALSE;
    }
  p->last = pv_json_lexer_scan (&p->lx);
  return TRUE;
}

/* Container @v just opened: its first member or item, or its end. */
static Next
open_container (Parser *p, PvJsonValue *v)
{
  PvJsonToken end = v->kind == PV_JSON_OBJECT ? PV_JSON_T_END_OBJECT : PV_JSON_T_END_ARRAY;

  if ((p->last = pv_json_lexer_scan (&p->lx)) == end)
    return NEXT_CLOSED;
  if (v->kind == PV_JSON_OBJECT && !scan_key (p, v))
    return NEXT_FAILED;
  g_ptr_array_add (p->stack, v);
  return NEXT_VALUE;
}

/* After a value in the innermost open container: ',' and the next value
 * (and key), or its end. */
static Next
continue_container (Parser *p)
{
  PvJsonValue *top = g_ptr_array_index (p->stack, p->stack->len - 1);
  gboolean array = top->kind == PV_JSON_ARRAY;

  if ((p->last = pv_json_lexer_scan (&p->lx)) == PV_JSON_T_VALUE_SEPARATOR)
    {
      p->last = pv_json_lexer_scan (&p->lx);
      return array || scan_key (p, top) ? NEXT_VALUE : NEXT_FAILED;
    }
  if (p->last == (array ? PV_JSON_T_END_ARRAY : PV_JSON_T_END_OBJECT))
    {
      g_ptr_array_set_size (p->stack, p->stack->len - 1);
      return NEXT_CLOSED;
    }
  if (array)
    parse_fail (p->doc, &p->lx, p->last, PV_JSON_T_END_ARRAY, "array", "expected ',' or ']' after an array element");
  else
    parse_fail (p->doc, &p->lx, p->last, PV_JSON_T_END_OBJECT, "object",
                "expected ',' or '}' after an object member");
  return NEXT_FAILED;
}

/* Strict: nothing but whitespace may follow (a NUL byte ends the input,
 * and text after it is noted). */
static void
check_end (Parser *p, const char *text, gsize len)
{
  if ((p->last = pv_json_lexer_scan (&p->lx)) != PV_JSON_T_END_OF_INPUT)
    {
      parse_fail (p->doc, &p->lx, p->last, PV_JSON_T_END_OF_INPUT, "value",
                  "expected the end of the file after the JSON value");
      return;
    }
  if (p->lx.current != 0)
    return;
  for (gsize i = p->lx.current_offset + 1; i < len; i++)
    if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r' && text[i] != '\0')
      {
        p->doc->nul_end = TRUE;
        p->doc->nul_offset = p->lx.current_offset;
        return;
      }
}

/* Parses @text as nlohmann::json::parse(stream) does (strict, no comments). */
void
pv_json_doc_parse (PvJsonDoc *doc, const char *text, gsize len)
{
  g_autoptr (GPtrArray) stack = g_ptr_array_new ();
  Parser p = { doc, { 0 }, stack, 0 };
  Next next = NEXT_VALUE;

  /* Each value takes a token of a byte or more: a small config needs no
   * 4 KiB first block (a fuzzer parses thousands a second). */
  doc->arena = pv_bump_alloc_new_sized (MIN (len, 1024) * 4);
  doc->containers = g_ptr_array_new_with_free_func (container_free);
  pv_json_lexer_init (&p.lx, text, len);

  p.last = pv_json_lexer_scan (&p.lx);
  while (next != NEXT_FAILED)
    {
      if (next == NEXT_VALUE)
        {
          PvJsonValue *v = scan_value (&p, len);
          if (v == NULL)
            break;
          attach (&p, v);
          if (v->kind == PV_JSON_OBJECT || v->kind == PV_JSON_ARRAY)
            {
              next = open_container (&p, v);
              if (next != NEXT_CLOSED)
                continue;
            }
        }
      if (stack->len == 0)
        {
          check_end (&p, text, len);
          break;
        }
      next = continue_container (&p);
    }
  if (doc->failed)
    doc->root = NULL;
  pv_json_lexer_clear (&p.lx);
}

/* nlohmann's type_name(). */
const char *
pv_json_kind_name (const PvJsonValue *v)
{
  switch (v->kind)
    {
    case PV_JSON_NULL:
      return "null";
    case PV_JSON_FALSE:
    case PV_JSON_TRUE:
      return "boolean";
    case PV_JSON_NUMBER:
      return "number";
    case PV_JSON_STRING:
      return "string";
    case PV_JSON_ARRAY:
      return "array";
    case PV_JSON_OBJECT:
      return "object";
    }
  return "discarded";
}

/* "a number", "an array", for our messages. */
const char *
pv_json_kind_article (const PvJsonValue *v)
{
  switch (v->kind)
    {
    case PV_JSON_NULL:
      return "null";
    case PV_JSON_FALSE:
    case PV_JSON_TRUE:
      return "a boolean";
    case PV_JSON_NUMBER:
      return "a number";
    case PV_JSON_STRING:
      return "a string";
    case PV_JSON_ARRAY:
      return "an array";
    case PV_JSON_OBJECT:
      return "an object";
    }
  return "nothing";
}

/* The member ORT's json[key] finds: the last one with that key. */
PvJsonMember *
pv_json_object_get (const PvJsonValue *obj, const char *key)
{
  gsize n = strlen (key);

  for (guint i = obj->items->len; i-- > 0;)
    {
      PvJsonMember *m = obj->items->pdata[i];
      if (m->len == n && memcmp (m->key, key, n) == 0)
        return m;
    }
  return NULL;
}

int
pv_json_compare_keys (const PvJsonMember *x, const PvJsonMember *y)
{
  int c = memcmp (x->key, y->key, MIN (x->len, y->len));

  if (c != 0)
    return c;
  return (x->len > y->len) - (x->len < y->len);
}

/* By key bytes (std::string's order), then by position. */
static int
compare_members (gconstpointer a, gconstpointer b)
{
  const PvJsonMember *x = *(const PvJsonMember *const *) a, *y = *(const PvJsonMember *const *) b;
  int c = pv_json_compare_keys (x, y);

  return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* An object's members sorted by key; with duplicate keys only the last
 * (the one nlohmann keeps) when @last_only, else all of them. */
GPtrArray *
pv_json_sorted_members (const PvJsonValue *obj, gboolean last_only)
{
  GPtrArray *all = g_ptr_array_new ();
  GPtrArray *out;

  for (guint i = 0; i < obj->items->len; i++)
    g_ptr_array_add (all, obj->items->pdata[i]);
  g_ptr_array_sort (all, compare_members);
  if (!last_only)
    return all;
  out = g_ptr_array_new ();
  for (guint i = 0; i < all->len; i++)
    if (i + 1 == all->len || pv_json_compare_keys (all->pdata[i], all->pdata[i + 1]) != 0)
      g_ptr_array_add (out, all->pdata[i]);
  g_ptr_array_unref (all);
  return out;
}

/* What "for (auto &e : value)" visits in nlohmann::json: nothing for null
 * (or a missing value), the elements of an array, an object's values in key
 * order (the last of duplicate keys), and a primitive value itself. */
GPtrArray *
pv_json_iterate (const PvJsonValue *v)
{
  GPtrArray *out = g_ptr_array_new ();

  if (v == NULL || v->kind == PV_JSON_NULL)
    return out;
  if (v->kind == PV_JSON_ARRAY)
    g_ptr_array_extend (out, v->items, NULL, NULL);
  else if (v->kind == PV_JSON_OBJECT)
    {
      g_autoptr (GPtrArray) members = pv_json_sorted_members (v, TRUE);
      for (guint i = 0; i < members->len; i++)
        g_ptr_array_add (out, ((PvJsonMember *) members->pdata[i])->value);
    }
  else
    g_ptr_array_add (out, (gpointer) v);
  return out;
}
