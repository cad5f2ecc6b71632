/* pv-kernel-table.c: the kernel behaviour table and its JSON reader.
 *
 * Reading a file takes two passes. A strict JSON scanner of our own checks
 * the syntax (so that an error names the exact character at fault) and
 * records where every value and every object key starts, in document order.
 * cJSON then builds the tree, and a pre-order walk of that tree pairs each
 * item with its recorded position, so that semantic errors ("kernels[3]
 * .alias[0] must be ...") can say line and column too. */
#include "pv-kernel-table.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#include "pv-element-type.h"
#include "pv-read-file.h"

/* Generated at build time from data/kernel-defs.json. */
extern const unsigned char pv_kernel_defs_json[];
extern const unsigned int pv_kernel_defs_json_len;

#define BUILTIN_NAME "kernel-defs.json (built-in)"
#define MAX_DEPTH 1000 /* cJSON's nesting limit */


struct _PvKernelTable {
  GStringChunk *strings;
  GHashTable *by_op; /* "domain\x1fop_type" -> GPtrArray of PvKernelDef*, sorted by since_first */
  guint size;
};

/* ---------------------------------------------------------------------- */
/* Positions */

typedef struct {
  const char *text;
  gsize len;
  const char *name;
} Source;

/* 1-based line and column of byte @offset; columns count UTF-8 characters,
 * and each byte that does not start a valid sequence counts as one. */
static void
offset_to_line_column (const char *text, gsize len, gsize offset, int *line, int *column)
{
  gsize line_start = 0;
  int l = 1, c = 1;

  if (offset > len)
    offset = len;
  for (gsize i = 0; i < offset; i++)
    if (text[i] == '\n')
      {
        l++;
        line_start = i + 1;
      }
  for (gsize i = line_start; i < offset;)
    {
      gunichar ch = g_utf8_get_char_validated (text + i, (gssize) (len - i));
      c++;
      if ((guchar) text[i] < 0x80 || ch == (gunichar) -1 || ch == (gunichar) -2)
        i++;
      else
        i += g_utf8_skip[(guchar) text[i]];
    }
  *line = l;
  *column = c;
}

G_GNUC_PRINTF (5, 6) static void
set_error (GError **error, const Source *src, PvKernelTableError code, gsize offset, const char *format, ...)
{
  g_autofree char *message = NULL;
  va_list args;
  int line, column;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  offset_to_line_column (src->text, src->len, offset, &line, &column);
  g_set_error (error, PV_KERNEL_TABLE_ERROR, code, "%s:%d:%d: %s", src->name, line, column, message);
}

/* ---------------------------------------------------------------------- */
/* Strict syntax check with positions */

typedef struct {
  const Source *src;
  gsize pos;
  GArray *value_offsets; /* gsize, values in pre-order */
  GArray *key_offsets;   /* gsize, object keys in pre-order */
  GError **error;
} Scanner;

/* What is at @offset, for "found ..." in messages. */
static char *
describe_at (const Source *src, gsize offset)
{
  guchar c;

  if (offset >= src->len)
    return g_strdup ("the end of the file");
  c = (guchar) src->text[offset];
  if (c >= 0x21 && c < 0x7f)
    return g_strdup_printf ("'%c'", c);
  if (c == ' ')
    return g_strdup ("a space");
  if (c < 0x20 || c == 0x7f)
    return g_strdup_printf ("the control character U+%04X", c);
  {
    gunichar ch = g_utf8_get_char_validated (src->text + offset, (gssize) (src->len - offset));
    if (ch == (gunichar) -1 || ch == (gunichar) -2)
      return g_strdup_printf ("the byte 0x%02X (not UTF-8)", c);
    return g_strdup_printf ("'%.*s' (U+%04X)", g_utf8_skip[c], src->text + offset, ch);
  }
}

static gboolean
scan_fail (Scanner *s, gsize offset, const char *what)
{
  g_autofree char *found = describe_at (s->src, offset);
  set_error (s->error, s->src, PV_KERNEL_TABLE_ERROR_SYNTAX, offset, "%s, found %s", what, found);
  return FALSE;
}

static void
skip_ws (Scanner *s)
{
  while (s->pos < s->src->len)
    {
      char c = s->src->text[s->pos];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
        break;
      s->pos++;
    }
}

static int
hex4 (const char *p, gsize avail)
{
  int v = 0;

  if (avail < 4)
    return -1;
  for (int i = 0; i < 4; i++)
    {
      int d = g_ascii_xdigit_value (p[i]);
      if (d < 0)
        return -1;
      v = v * 16 + d;
    }
  return v;
}

static gboolean
scan_string (Scanner *s)
{
  const Source *src = s->src;
  gsize start = s->pos;

  s->pos++; /* opening quote */
  for (;;)
    {
      guchar c;
      if (s->pos >= src->len)
        {
          set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, start, "unterminated string");
          return FALSE;
        }
      c = (guchar) src->text[s->pos];
      if (c == '"')
        {
          s->pos++;
          return TRUE;
        }
      if (c < 0x20)
        {
          set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, s->pos,
                     "the control character U+%04X must be written as an escape in a string", c);
          return FALSE;
        }
      if (c == '\\')
        {
          gsize esc = s->pos;
          char e = s->pos + 1 < src->len ? src->text[s->pos + 1] : '\0';
          if (s->pos + 1 >= src->len)
            {
              set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, start, "unterminated string");
              return FALSE;
            }
          if (strchr ("\"\\/bfnrt", e) != NULL && e != '\0')
            {
              s->pos += 2;
              continue;
            }
          if (e != 'u')
            return scan_fail (s, esc + 1,
                              "invalid escape: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u after '\\'");
          {
            int cp = hex4 (src->text + esc + 2, src->len - esc - 2);
            if (cp < 0)
              {
                set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, esc, "'\\u' must be followed by 4 hex digits");
                return FALSE;
              }
            if (cp == 0)
              {
                set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, esc, "\\u0000 is not allowed in strings");
                return FALSE;
              }
            s->pos = esc + 6;
            if (cp >= 0xDC00 && cp <= 0xDFFF)
              {
                set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, esc,
                           "\\u%04X is a low surrogate without a high surrogate before it", cp);
                return FALSE;
              }
            if (cp >= 0xD800 && cp <= 0xDBFF)
              {
                int low = -1;
                if (s->pos + 1 < src->len && src->text[s->pos] == '\\' && src->text[s->pos + 1] == 'u')
                  low = hex4 (src->text + s->pos + 2, src->len - s->pos - 2);
                if (low < 0xDC00 || low > 0xDFFF)
                  {
                    set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, esc,
                               "\\u%04X is a high surrogate without a low surrogate after it", cp);
                    return FALSE;
                  }
                s->pos += 6;
              }
          }
          continue;
        }
      if (c < 0x80)
        {
          s->pos++;
          continue;
        }
      {
        gunichar ch = g_utf8_get_char_validated (src->text + s->pos, (gssize) (src->len - s->pos));
        if (ch == (gunichar) -1 || ch == (gunichar) -2)
          {
            set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, s->pos, "the byte 0x%02X is not valid UTF-8", c);
            return FALSE;
          }
        s->pos += g_utf8_skip[c];
      }
    }
}

static gboolean
scan_number (Scanner *s)
{
  const char *t = s->src->text;
  gsize len = s->src->len, p = s->pos;

  if (p < len && t[p] == '-')
    p++;
  if (p >= len || !g_ascii_isdigit (t[p]))
    return scan_fail (s, p, "invalid number: expected a digit");
  if (t[p] == '0' && p + 1 < len && g_ascii_isdigit (t[p + 1]))
    {
      set_error (s->error, s->src, PV_KERNEL_TABLE_ERROR_SYNTAX, s->pos,
                 "invalid number: leading zeros are not allowed");
      return FALSE;
    }
  while (p < len && g_ascii_isdigit (t[p]))
    p++;
  if (p < len && t[p] == '.')
    {
      p++;
      if (p >= len || !g_ascii_isdigit (t[p]))
        return scan_fail (s, p, "invalid number: expected a digit after '.'");
      while (p < len && g_ascii_isdigit (t[p]))
        p++;
    }
  if (p < len && (t[p] == 'e' || t[p] == 'E'))
    {
      p++;
      if (p < len && (t[p] == '+' || t[p] == '-'))
        p++;
      if (p >= len || !g_ascii_isdigit (t[p]))
        return scan_fail (s, p, "invalid number: expected a digit in the exponent");
      while (p < len && g_ascii_isdigit (t[p]))
        p++;
    }
  s->pos = p;
  return TRUE;
}

static gboolean
scan_value (Scanner *s, int depth)
{
  const Source *src = s->src;
  char c;

  skip_ws (s);
  if (s->pos >= src->len)
    return scan_fail (s, s->pos, "expected a value");
  g_array_append_val (s->value_offsets, s->pos);
  c = src->text[s->pos];
  if (c == '{' || c == '[')
    {
      char close = c == '{' ? '}' : ']';
      gsize open = s->pos;
      if (depth >= MAX_DEPTH)
        {
          set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, open, "nested deeper than %d levels", MAX_DEPTH);
          return FALSE;
        }
      s->pos++;
      skip_ws (s);
      if (s->pos < src->len && src->text[s->pos] == close)
        {
          s->pos++;
          return TRUE;
        }
      for (;;)
        {
          if (c == '{')
            {
              skip_ws (s);
              if (s->pos >= src->len || src->text[s->pos] != '"')
                return scan_fail (s, s->pos, "expected a string key");
              g_array_append_val (s->key_offsets, s->pos);
              if (!scan_string (s))
                return FALSE;
              skip_ws (s);
              if (s->pos >= src->len || src->text[s->pos] != ':')
                return scan_fail (s, s->pos, "expected ':' after the key");
              s->pos++;
            }
          if (!scan_value (s, depth + 1))
            return FALSE;
          skip_ws (s);
          if (s->pos < src->len && src->text[s->pos] == ',')
            {
              s->pos++;
              continue;
            }
          if (s->pos < src->len && src->text[s->pos] == close)
            {
              s->pos++;
              return TRUE;
            }
          return scan_fail (s, s->pos,
                            c == '{' ? "expected ',' or '}' after an object member"
                                     : "expected ',' or ']' after an array element");
        }
    }
  if (c == '"')
    return scan_string (s);
  if (c == '-' || g_ascii_isdigit (c))
    return scan_number (s);
  {
    static const char *const literals[] = { "true", "false", "null" };
    for (gsize i = 0; i < G_N_ELEMENTS (literals); i++)
      {
        gsize n = strlen (literals[i]);
        if (c == literals[i][0])
          {
            for (gsize k = 1; k < n; k++)
              if (s->pos + k >= src->len || src->text[s->pos + k] != literals[i][k])
                {
                  g_autofree char *what = g_strdup_printf ("invalid literal: expected '%s'", literals[i]);
                  return scan_fail (s, s->pos + k, what);
                }
            s->pos += n;
            return TRUE;
          }
      }
  }
  return scan_fail (s, s->pos, "expected a value");
}

/* ---------------------------------------------------------------------- */
/* Tree positions */

typedef struct {
  GHashTable *value_at; /* cJSON* -> offset + 1 */
  GHashTable *key_at;   /* cJSON* (member) -> offset of its key + 1 */
} Positions;

static void
assign_positions (const cJSON *item, Positions *pos, const GArray *values, const GArray *keys, guint *vi, guint *ki,
                  gboolean is_member)
{
  if (is_member && *ki < keys->len)
    g_hash_table_insert (pos->key_at, (gpointer) item, GSIZE_TO_POINTER (g_array_index (keys, gsize, (*ki)++) + 1));
  if (*vi < values->len)
    g_hash_table_insert (pos->value_at, (gpointer) item, GSIZE_TO_POINTER (g_array_index (values, gsize, (*vi)++) + 1));
  for (const cJSON *child = item->child; child; child = child->next)
    assign_positions (child, pos, values, keys, vi, ki, cJSON_IsObject (item));
}

static gsize
value_offset (const Positions *pos, const cJSON *item)
{
  return GPOINTER_TO_SIZE (g_hash_table_lookup (pos->value_at, item)) - 1;
}

static gsize
key_offset (const Positions *pos, const cJSON *item)
{
  gsize k = GPOINTER_TO_SIZE (g_hash_table_lookup (pos->key_at, item));
  return k ? k - 1 : value_offset (pos, item);
}

/* ---------------------------------------------------------------------- */
/* Entries */

typedef struct {
  PvKernelDef def;
  PvKernelPair *alias;
  PvKernelPair *may_inplace;
  int *dtypes;
  int *cpu_inputs;
  int index;        /* position in its file's "kernels" */
  gsize offset;     /* of its '{' */
} Entry;

static void
entry_free (gpointer data)
{
  Entry *e = data;
  g_free (e->alias);
  g_free (e->may_inplace);
  g_free (e->dtypes);
  g_free (e->cpu_inputs);
  g_free (e);
}

static Entry *
entry_copy (const Entry *src)
{
  Entry *e = g_new (Entry, 1);

  *e = *src;
  e->alias = g_memdup2 (src->alias, sizeof (PvKernelPair) * src->def.n_alias);
  e->may_inplace = g_memdup2 (src->may_inplace, sizeof (PvKernelPair) * src->def.n_may_inplace);
  e->dtypes = g_memdup2 (src->dtypes, sizeof (int) * src->def.n_may_inplace_dtypes);
  e->cpu_inputs = g_memdup2 (src->cpu_inputs, sizeof (int) * src->def.n_cpu_inputs);
  e->def.alias = e->alias;
  e->def.may_inplace = e->may_inplace;
  e->def.may_inplace_dtypes = e->dtypes;
  e->def.cpu_inputs = e->cpu_inputs;
  return e;
}

typedef struct {
  const Source *src;
  Positions *pos;
  GStringChunk *strings;
  GError **error;
  gsize cursor;    /* entries come in text order: count lines forward */
  int cursor_line;
} Reader;

static int
line_at (Reader *r, gsize offset)
{
  for (; r->cursor < offset && r->cursor < r->src->len; r->cursor++)
    if (r->src->text[r->cursor] == '\n')
      r->cursor_line++;
  return r->cursor_line;
}

G_GNUC_PRINTF (3, 4) static gboolean
invalid (Reader *r, gsize offset, const char *format, ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  set_error (r->error, r->src, PV_KERNEL_TABLE_ERROR_INVALID, offset, "%s", message);
  return FALSE;
}

/* A non-negative integer that fits an int. */
static gboolean
get_index (const cJSON *item, int *out)
{
  double v;

  if (!cJSON_IsNumber (item))
    return FALSE;
  v = item->valuedouble;
  if (!(v >= 0 && v <= G_MAXINT) || floor (v) != v)
    return FALSE;
  *out = (int) v;
  return TRUE;
}

static gboolean
read_pair (const cJSON *item, PvKernelPair *out)
{
  return cJSON_IsArray (item) && cJSON_GetArraySize (item) == 2 && get_index (cJSON_GetArrayItem (item, 0), &out->input)
         && get_index (cJSON_GetArrayItem (item, 1), &out->output);
}

static gboolean
read_pairs (Reader *r, const cJSON *item, const char *where, const char *key, PvKernelPair **out, int *n_out)
{
  int n, i = 0;

  if (!cJSON_IsArray (item))
    return invalid (r, value_offset (r->pos, item), "%s.%s must be an array of [input, output] pairs", where, key);
  n = cJSON_GetArraySize (item);
  *out = g_new0 (PvKernelPair, MAX (n, 1));
  for (const cJSON *p = item->child; p; p = p->next, i++)
    if (!read_pair (p, &(*out)[i]))
      return invalid (r, value_offset (r->pos, p), "%s.%s[%d] must be a pair of non-negative integers", where, key, i);
  *n_out = n;
  return TRUE;
}

static const char *const entry_keys[] = {
  "domain", "op_type", "since", "alias", "variadic_alias", "may_inplace", "may_inplace_dtypes",
  "external_outputs", "cpu_inputs", "comment",
};

/* Every key of entry @obj is known, and given once. */
static gboolean
check_entry_keys (Reader *r, const cJSON *obj, const char *where)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (const cJSON *m = obj->child; m; m = m->next)
    {
      gboolean known = FALSE;
      for (gsize k = 0; k < G_N_ELEMENTS (entry_keys); k++)
        known |= strcmp (m->string, entry_keys[k]) == 0;
      if (!known)
        return invalid (r, key_offset (r->pos, m), "%s has an unknown key \"%s\"", where, m->string);
      if (g_hash_table_contains (seen, m->string))
        return invalid (r, key_offset (r->pos, m), "%s has \"%s\" twice", where, m->string);
      g_hash_table_add (seen, m->string);
    }
  return TRUE;
}

/* "cpu_inputs": input positions. */
static gboolean
read_cpu_inputs (Reader *r, const cJSON *m, const char *where, Entry *e)
{
  int i = 0;

  if (!cJSON_IsArray (m))
    return invalid (r, value_offset (r->pos, m), "%s.cpu_inputs must be an array of input positions", where);
  e->cpu_inputs = g_new0 (int, MAX (cJSON_GetArraySize (m), 1));
  for (const cJSON *v = m->child; v; v = v->next, i++)
    if (!get_index (v, &e->cpu_inputs[i]))
      return invalid (r, value_offset (r->pos, v), "%s.cpu_inputs[%d] must be a non-negative integer", where, i);
  e->def.n_cpu_inputs = i;
  return TRUE;
}

/* "may_inplace_dtypes": element type names. */
static gboolean
read_dtypes (Reader *r, const cJSON *m, const char *where, Entry *e)
{
  int i = 0;

  if (!cJSON_IsArray (m))
    return invalid (r, value_offset (r->pos, m), "%s.may_inplace_dtypes must be an array of element type names",
                    where);
  e->dtypes = g_new0 (int, MAX (cJSON_GetArraySize (m), 1));
  for (const cJSON *v = m->child; v; v = v->next, i++)
    {
      int t = cJSON_IsString (v) ? pv_element_type_from_name (v->valuestring) : PV_ELEM_UNDEFINED;
      if (t == PV_ELEM_UNDEFINED)
        return invalid (r, value_offset (r->pos, v),
                        "%s.may_inplace_dtypes[%d] must be an element type name such as \"float32\"", where, i);
      e->dtypes[i] = t;
    }
  e->def.n_may_inplace_dtypes = i;
  return TRUE;
}

/* Member @m of entry @e (its key known). */
static gboolean
read_entry_member (Reader *r, const cJSON *m, const char *where, Entry *e, gboolean *has_op)
{
  const char *key = m->string;
  gsize at = value_offset (r->pos, m);
  PvKernelPair range;

  if (strcmp (key, "domain") == 0)
    {
      if (!cJSON_IsString (m))
        return invalid (r, at, "%s.domain must be a string (\"\" for ONNX)", where);
      e->def.domain = strcmp (m->valuestring, "ai.onnx") == 0 ? ""
                                                              : g_string_chunk_insert_const (r->strings, m->valuestring);
    }
  else if (strcmp (key, "op_type") == 0)
    {
      if (!cJSON_IsString (m) || m->valuestring[0] == '\0')
        return invalid (r, at, "%s.op_type must be a non-empty string", where);
      *has_op = TRUE;
      e->def.op_type = g_string_chunk_insert_const (r->strings, m->valuestring);
    }
  else if (strcmp (key, "since") == 0)
    {
      if (!read_pair (m, &range) || range.input < 1 || range.input > range.output)
        return invalid (r, at, "%s.since must be a pair [first, last] of opset versions with 1 <= first <= last",
                        where);
      e->def.since_first = range.input;
      e->def.since_last = range.output;
    }
  else if (strcmp (key, "alias") == 0)
    return read_pairs (r, m, where, key, &e->alias, &e->def.n_alias);
  else if (strcmp (key, "may_inplace") == 0)
    return read_pairs (r, m, where, key, &e->may_inplace, &e->def.n_may_inplace);
  else if (strcmp (key, "variadic_alias") == 0)
    {
      if (cJSON_IsNull (m))
        return TRUE;
      if (!read_pair (m, &e->def.variadic_alias))
        return invalid (r, at,
                        "%s.variadic_alias must be null or a pair of non-negative integers "
                        "[input_offset, output_offset]",
                        where);
      e->def.has_variadic_alias = TRUE;
    }
  else if (strcmp (key, "external_outputs") == 0)
    {
      if (!cJSON_IsBool (m))
        return invalid (r, at, "%s.external_outputs must be true or false", where);
      e->def.external_outputs = cJSON_IsTrue (m);
    }
  else if (strcmp (key, "cpu_inputs") == 0)
    return read_cpu_inputs (r, m, where, e);
  else if (strcmp (key, "may_inplace_dtypes") == 0)
    return read_dtypes (r, m, where, e);
  else if (strcmp (key, "comment") == 0 && !cJSON_IsString (m))
    return invalid (r, at, "%s.comment must be a string", where);
  return TRUE;
}

static gboolean
read_entry (Reader *r, const cJSON *obj, int index, Entry *e)
{
  g_autofree char *where = g_strdup_printf ("kernels[%d]", index);
  gboolean has_op = FALSE;

  e->index = index;
  e->offset = value_offset (r->pos, obj);
  e->def.domain = "";
  e->def.since_first = 1;
  e->def.since_last = PV_KERNEL_OPSET_MAX;
  e->def.line = line_at (r, e->offset);
  e->def.source = g_string_chunk_insert_const (r->strings, r->src->name);

  if (!cJSON_IsObject (obj))
    return invalid (r, e->offset, "%s must be an object", where);
  if (!check_entry_keys (r, obj, where))
    return FALSE;
  for (const cJSON *m = obj->child; m; m = m->next)
    if (!read_entry_member (r, m, where, e, &has_op))
      return FALSE;
  if (!has_op)
    return invalid (r, e->offset, "%s has no \"op_type\"", where);
  e->def.alias = e->alias;
  e->def.may_inplace = e->may_inplace;
  e->def.may_inplace_dtypes = e->dtypes;
  e->def.cpu_inputs = e->cpu_inputs;
  return TRUE;
}

static char *
range_text (int first, int last)
{
  if (last == PV_KERNEL_OPSET_MAX)
    return g_strdup_printf ("%d and later", first);
  if (first == last)
    return g_strdup_printf ("%d", first);
  return g_strdup_printf ("%d-%d", first, last);
}

/* Orders one op's entries by first opset; a probe (index -1) sorts after
 * every entry that starts at or below its first opset. */
static int
compare_first (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const Entry *x = a, *y = b;

  if (x->def.since_first != y->def.since_first)
    return x->def.since_first < y->def.since_first ? -1 : 1;
  return x->index == -1 ? 1 : y->index == -1 ? -1 : x->index - y->index;
}

/* The earliest entry (in file order) of @e's op whose opsets overlap @e's,
 * or NULL after adding @e to @seen (per op, the disjoint ranges read so far,
 * by first opset). Logarithmic per entry: a file of 40k entries once took
 * 27 s comparing each with all before it. */
static const Entry *
find_overlap (GHashTable *seen, const Entry *e)
{
  g_autofree char *key = g_strdup_printf ("%zu:%s:%s", strlen (e->def.domain), e->def.domain, e->def.op_type);
  GSequence *ranges = g_hash_table_lookup (seen, key);
  Entry probe = { .index = -1 };
  const Entry *found = NULL;
  GSequenceIter *it;

  if (ranges == NULL)
    {
      ranges = g_sequence_new (NULL);
      g_hash_table_insert (seen, g_steal_pointer (&key), ranges);
    }
  /* The ranges are disjoint: those overlapping @e are the last ones that
   * start at or below its last opset, back to the first ending below it. */
  probe.def.since_first = e->def.since_last;
  it = g_sequence_search (ranges, &probe, compare_first, NULL);
  while (!g_sequence_iter_is_begin (it))
    {
      const Entry *o;

      it = g_sequence_iter_prev (it);
      o = g_sequence_get (it);
      if (o->def.since_last < e->def.since_first)
        break;
      if (found == NULL || o->index < found->index)
        found = o;
    }
  if (found == NULL)
    g_sequence_insert_sorted (ranges, (gpointer) e, compare_first, NULL);
  return found;
}

/* Parses a whole file into entries (Entry*, file order). */
static GPtrArray *
read_file (const Source *src, GStringChunk *strings, GError **error)
{
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr (GPtrArray) entries = g_ptr_array_new_with_free_func (entry_free);
  Scanner scanner = { src, 0, values, keys, error };
  Positions pos;
  Reader reader = { src, &pos, strings, error, 0, 1 };
  cJSON *root, *kernels = NULL;
  guint vi = 0, ki = 0;
  gboolean ok = FALSE;
  g_autoptr (GHashTable) seen = NULL;
  const Entry *o;
  const void *nul;
  int index = 0;

  nul = memchr (src->text, '\0', src->len);
  if (nul != NULL)
    {
      set_error (error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, (gsize) ((const char *) nul - src->text),
                 "the file contains a NUL byte");
      return NULL;
    }
  skip_ws (&scanner);
  if (scanner.pos >= src->len)
    {
      set_error (error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, scanner.pos, "the file is empty");
      return NULL;
    }
  if (!scan_value (&scanner, 0))
    return NULL;
  skip_ws (&scanner);
  if (scanner.pos < src->len)
    {
      scan_fail (&scanner, scanner.pos, "expected the end of the file after the JSON value");
      return NULL;
    }

  {
    /* cJSON wants the terminating NUL inside the length it is given. */
    g_autofree char *copy = g_strndup (src->text, src->len);
    root = cJSON_ParseWithLengthOpts (copy, src->len + 1, NULL, TRUE);
  }
  if (root == NULL)
    {
      /* The scan above accepts only what cJSON accepts; keep a message anyway. */
      set_error (error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, 0, "cJSON cannot read this file");
      return NULL;
    }
  pos.value_at = g_hash_table_new (NULL, NULL);
  pos.key_at = g_hash_table_new (NULL, NULL);
  assign_positions (root, &pos, values, keys, &vi, &ki, FALSE);

  if (!cJSON_IsObject (root))
    {
      invalid (&reader, value_offset (&pos, root), "the top level must be an object with a \"kernels\" array");
      goto out;
    }
  for (const cJSON *m = root->child; m; m = m->next)
    {
      if (strcmp (m->string, "kernels") == 0)
        {
          if (kernels != NULL)
            {
              invalid (&reader, key_offset (&pos, m), "\"kernels\" appears twice");
              goto out;
            }
          kernels = (cJSON *) m;
        }
      else if (strcmp (m->string, "comment") == 0)
        {
          if (!cJSON_IsString (m))
            {
              invalid (&reader, value_offset (&pos, m), "\"comment\" must be a string");
              goto out;
            }
        }
      else
        {
          invalid (&reader, key_offset (&pos, m), "unknown key \"%s\" (expected \"kernels\")", m->string);
          goto out;
        }
    }
  if (kernels == NULL)
    {
      invalid (&reader, value_offset (&pos, root), "missing \"kernels\" array");
      goto out;
    }
  if (!cJSON_IsArray (kernels))
    {
      invalid (&reader, value_offset (&pos, kernels), "\"kernels\" must be an array");
      goto out;
    }
  seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_sequence_free);
  for (const cJSON *item = kernels->child; item; item = item->next, index++)
    {
      Entry *e = g_new0 (Entry, 1);
      g_ptr_array_add (entries, e);
      if (!read_entry (&reader, item, index, e))
        goto out;
      o = find_overlap (seen, e);
      if (o != NULL)
        {
          g_autofree char *mine = range_text (e->def.since_first, e->def.since_last);
          g_autofree char *theirs = range_text (o->def.since_first, o->def.since_last);
          invalid (&reader, e->offset, "kernels[%d] (%s%s%s, opsets %s) overlaps kernels[%d] (opsets %s)", index,
                   e->def.domain, e->def.domain[0] ? ":" : "", e->def.op_type, mine, o->index, theirs);
          goto out;
        }
    }
  ok = TRUE;

out:
  g_hash_table_unref (pos.value_at);
  g_hash_table_unref (pos.key_at);
  cJSON_Delete (root);
  return ok ? g_steal_pointer (&entries) : NULL;
}

/* ---------------------------------------------------------------------- */
/* The table */

/* The table's key of (@domain, @op_type), written into @buf when it fits
 * (lookups run per node on every plan: no allocation), else allocated into
 * *@heap for the caller to free. */
static const char *
op_key (const char *domain, const char *op_type, char *buf, gsize size, char **heap)
{
  gsize dlen, olen;

  if (domain == NULL || strcmp (domain, "ai.onnx") == 0)
    domain = "";
  dlen = strlen (domain);
  olen = strlen (op_type);
  if (dlen + olen + 2 > size)
    return *heap = g_strconcat (domain, "\x1f", op_type, NULL);
  memcpy (buf, domain, dlen);
  buf[dlen] = '\x1f';
  memcpy (buf + dlen + 1, op_type, olen + 1);
  return buf;
}

PvKernelTable *
pv_kernel_table_new (void)
{
  PvKernelTable *table = g_new0 (PvKernelTable, 1);

  table->strings = g_string_chunk_new (1024);
  table->by_op = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  return table;
}

void
pv_kernel_table_free (PvKernelTable *table)
{
  if (table == NULL)
    return;
  g_hash_table_unref (table->by_op);
  g_string_chunk_free (table->strings);
  g_free (table);
}

static int
compare_entries (gconstpointer a, gconstpointer b)
{
  const Entry *x = *(const Entry *const *) a, *y = *(const Entry *const *) b;
  return (x->def.since_first > y->def.since_first) - (x->def.since_first < y->def.since_first);
}

/* Keeps what @o covers outside the sorted, disjoint @added[*j..]: zero,
 * one or more pieces of @o (copies), appended to @out; frees @o. Advances
 * *@j past the added ranges that end before @o (the next @o starts later). */
static void
cut_back (Entry *o, GPtrArray *added, guint *j, GPtrArray *out)
{
  int cur = o->def.since_first, last = o->def.since_last;
  gboolean covered = FALSE;
  guint k;

  while (*j < added->len && ((Entry *) added->pdata[*j])->def.since_last < cur)
    (*j)++;
  for (k = *j; k < added->len; k++)
    {
      const Entry *a = added->pdata[k];
      if (a->def.since_first > last)
        break;
      if (a->def.since_first > cur)
        {
          Entry *piece = entry_copy (o);
          piece->def.since_first = cur;
          piece->def.since_last = a->def.since_first - 1;
          g_ptr_array_add (out, piece);
        }
      /* Checked before adding 1: since_last may be G_MAXINT. */
      if (a->def.since_last >= last)
        {
          covered = TRUE;
          break;
        }
      cur = MAX (cur, a->def.since_last + 1);
    }
  if (!covered)
    {
      Entry *piece = entry_copy (o);
      piece->def.since_first = cur;
      g_ptr_array_add (out, piece);
    }
  entry_free (o);
}

/* Puts one op's @added entries (disjoint, as read_file checks) in, cutting
 * back the old entries they overlap. One sweep over both sorted lists: a
 * file of 40k entries for one op once took 50 s, sorting after each. Takes
 * the entries of @added. */
static void
table_insert_op (PvKernelTable *table, const char *key, GPtrArray *added)
{
  GPtrArray *list = g_hash_table_lookup (table->by_op, key);
  g_autofree gpointer *old = NULL;
  guint j = 0;
  gsize n_old = 0;

  if (list == NULL)
    {
      list = g_ptr_array_new_with_free_func (entry_free);
      g_hash_table_insert (table->by_op, g_strdup (key), list);
    }
  old = g_ptr_array_steal (list, &n_old);
  g_ptr_array_sort (added, compare_entries);
  for (guint i = 0; i < n_old; i++)
    cut_back (old[i], added, &j, list);
  for (guint i = 0; i < added->len; i++)
    g_ptr_array_add (list, added->pdata[i]);
  table->size = table->size - (guint) n_old + list->len;
  g_ptr_array_sort (list, compare_entries);
}

gboolean
pv_kernel_table_merge_data (PvKernelTable *table, const char *data, gsize len, const char *display_name,
                            GError **error)
{
  Source src = { data, len, display_name };
  g_autoptr (GPtrArray) entries = NULL;
  g_autoptr (GHashTable) by_op = NULL;
  GHashTableIter iter;
  gpointer op, op_added;

  g_return_val_if_fail (table != NULL, FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (data == NULL)
    src.text = "";
  entries = read_file (&src, table->strings, error);
  if (entries == NULL)
    return FALSE;
  /* The entries' sources name this table's copy of the file name. */
  by_op = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = entries->pdata[i];
      char buf[128];
      g_autofree char *heap = NULL;
      const char *key = op_key (e->def.domain, e->def.op_type, buf, sizeof buf, &heap);
      GPtrArray *added = g_hash_table_lookup (by_op, key);

      if (added == NULL)
        {
          added = g_ptr_array_new ();
          g_hash_table_insert (by_op, g_strdup (key), added);
        }
      g_ptr_array_add (added, e);
    }
  g_ptr_array_set_free_func (entries, NULL);
  g_hash_table_iter_init (&iter, by_op);
  while (g_hash_table_iter_next (&iter, &op, &op_added))
    table_insert_op (table, op, op_added);
  return TRUE;
}

gboolean
pv_kernel_table_merge_file (PvKernelTable *table, const char *path, GError **error)
{
  g_autofree char *data = NULL;
  g_autoptr (GError) local = NULL;
  gsize len = 0;

  g_return_val_if_fail (path != NULL, FALSE);
  if (!pv_read_file (path, PV_READ_FILE_LIMIT, &data, &len, &local))
    {
      g_set_error (error, PV_KERNEL_TABLE_ERROR, PV_KERNEL_TABLE_ERROR_IO, "%s", local->message);
      return FALSE;
    }
  return pv_kernel_table_merge_data (table, data, len, path, error);
}

GBytes *
pv_kernel_table_default_data (void)
{
  return g_bytes_new_static (pv_kernel_defs_json, pv_kernel_defs_json_len);
}

PvKernelTable *
pv_kernel_table_new_default (GError **error)
{
  g_autoptr (PvKernelTable) table = pv_kernel_table_new ();

  if (!pv_kernel_table_merge_data (table, (const char *) pv_kernel_defs_json, pv_kernel_defs_json_len, BUILTIN_NAME,
                                   error))
    return NULL;
  return g_steal_pointer (&table);
}

const PvKernelDef *
pv_kernel_table_lookup (const PvKernelTable *table, const char *domain, const char *op_type, int opset)
{
  char buf[128];
  g_autofree char *heap = NULL;
  GPtrArray *list;

  g_return_val_if_fail (table != NULL && op_type != NULL, NULL);
  list = g_hash_table_lookup (table->by_op, op_key (domain, op_type, buf, sizeof buf, &heap));
  for (guint i = 0; list && i < list->len; i++)
    {
      const Entry *e = list->pdata[i];
      if (opset >= e->def.since_first && opset <= e->def.since_last)
        return &e->def;
    }
  return NULL;
}

gboolean
pv_kernel_def_may_inplace_type (const PvKernelDef *def, int elem_type)
{
  if (def->n_may_inplace_dtypes == 0)
    return TRUE;
  for (int i = 0; i < def->n_may_inplace_dtypes; i++)
    if (def->may_inplace_dtypes[i] == elem_type)
      return TRUE;
  return FALSE;
}

guint
pv_kernel_table_size (const PvKernelTable *table)
{
  return table->size;
}
