/* pv-json-writer.c: streaming JSON in cJSON_Print()'s layout. */
#include "pv-json-writer.h"

#include <float.h>
#include <math.h>

void
pv_json_writer_init (PvJsonWriter *w)
{
  w->out = g_string_sized_new (1 << 16);
  w->depth = 0;
}

char *
pv_json_dup_valid_utf8 (const char *text)
{
  return g_utf8_validate (text, -1, NULL) ? g_strdup (text) : g_utf8_make_valid (text, -1);
}

char *
pv_json_writer_finish (PvJsonWriter *w)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (w->depth == 0, NULL);
  text = g_string_free (g_steal_pointer (&w->out), FALSE);
  if (g_utf8_validate (text, -1, NULL))
    return g_steal_pointer (&text);
  return g_utf8_make_valid (text, -1);
}

static void
append_tabs (GString *out, int n)
{
  for (int i = 0; i < n; i++)
    g_string_append_c (out, '\t');
}

/* cJSON's escapes: quote, backslash, the named control characters and
 * \u00XX for the others; every other byte as it is. */
static void
append_string (GString *out, const char *s)
{
  const char *run = s;

  g_string_append_c (out, '"');
  for (; *s; s++)
    {
      guchar c = (guchar) *s;
      const char *esc;
      if (c >= 32 && c != '"' && c != '\\')
        continue;
      g_string_append_len (out, run, s - run);
      run = s + 1;
      switch (c)
        {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        default: esc = NULL; break;
        }
      if (esc)
        g_string_append (out, esc);
      else
        g_string_append_printf (out, "\\u%04x", c);
    }
  g_string_append_len (out, run, s - run);
  g_string_append_c (out, '"');
}

/* Before a value: the separator and, in an object, the indented key. */
static void
begin_item (PvJsonWriter *w, const char *key)
{
  int i = w->depth - 1;

  if (i < 0)
    return;
  if (w->is_object[i])
    {
      g_string_append (w->out, w->has_items[i] ? ",\n" : "");
      append_tabs (w->out, w->depth);
      append_string (w->out, key ? key : "");
      g_string_append (w->out, ":\t");
    }
  else if (w->has_items[i])
    g_string_append (w->out, ", ");
  w->has_items[i] = TRUE;
}

static void
push (PvJsonWriter *w, gboolean is_object)
{
  g_return_if_fail (w->depth < PV_JSON_WRITER_MAX_DEPTH);
  w->is_object[w->depth] = is_object;
  w->has_items[w->depth] = FALSE;
  w->depth++;
}

void
pv_json_begin_object (PvJsonWriter *w, const char *key)
{
  begin_item (w, key);
  g_string_append (w->out, "{\n");
  push (w, TRUE);
}

void
pv_json_end_object (PvJsonWriter *w)
{
  g_return_if_fail (w->depth > 0 && w->is_object[w->depth - 1]);
  w->depth--;
  if (w->has_items[w->depth])
    g_string_append_c (w->out, '\n');
  append_tabs (w->out, w->depth);
  g_string_append_c (w->out, '}');
}

void
pv_json_begin_array (PvJsonWriter *w, const char *key)
{
  begin_item (w, key);
  g_string_append_c (w->out, '[');
  push (w, FALSE);
}

void
pv_json_end_array (PvJsonWriter *w)
{
  g_return_if_fail (w->depth > 0 && !w->is_object[w->depth - 1]);
  w->depth--;
  g_string_append_c (w->out, ']');
}

void
pv_json_string (PvJsonWriter *w, const char *key, const char *value)
{
  if (value == NULL)
    return;
  begin_item (w, key);
  append_string (w->out, value);
}

/* cJSON 1.7's form: 15 significant digits when they read back within
 * DBL_EPSILON, else 17; null for NaN and the infinities. */
void
pv_json_number (PvJsonWriter *w, const char *key, double d)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  double back, most;

  begin_item (w, key);
  if (isnan (d) || isinf (d))
    {
      g_string_append (w->out, "null");
      return;
    }
  /* Integers of up to 15 digits: what %1.15g prints, without printf and
   * the read-back (most numbers of a plan are such indices and bytes). */
  if (fabs (d) < 1e15 && d == floor (d) && !(d == 0 && signbit (d)))
    {
      char digits[24], *p = digits + sizeof digits;
      guint64 v = (guint64) fabs (d);
      do
        *--p = (char) ('0' + v % 10);
      while ((v /= 10) != 0);
      if (d < 0)
        *--p = '-';
      g_string_append_len (w->out, p, digits + sizeof digits - p);
      return;
    }
  g_ascii_formatd (buf, sizeof buf, "%1.15g", d);
  back = g_ascii_strtod (buf, NULL);
  most = fabs (back) > fabs (d) ? fabs (back) : fabs (d);
  if (!(fabs (back - d) <= most * DBL_EPSILON))
    g_ascii_formatd (buf, sizeof buf, "%1.17g", d);
  g_string_append (w->out, buf);
}

/* Below this, a double holds the integer and cJSON prints every digit. */
#define EXACT_AS_DOUBLE 1000000000000000ULL

void
pv_json_uint64 (PvJsonWriter *w, const char *key, guint64 value)
{
  if (value < EXACT_AS_DOUBLE)
    {
      pv_json_number (w, key, (double) value);
      return;
    }
  begin_item (w, key);
  g_string_append_printf (w->out, "%" G_GUINT64_FORMAT, value);
}

void
pv_json_int64 (PvJsonWriter *w, const char *key, gint64 value)
{
  if (value > -(gint64) EXACT_AS_DOUBLE && value < (gint64) EXACT_AS_DOUBLE)
    {
      pv_json_number (w, key, (double) value);
      return;
    }
  begin_item (w, key);
  g_string_append_printf (w->out, "%" G_GINT64_FORMAT, value);
}

cJSON *
pv_cjson_uint64 (guint64 value)
{
  char digits[24];

  if (value < EXACT_AS_DOUBLE)
    return cJSON_CreateNumber ((double) value);
  g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, value);
  return cJSON_CreateRaw (digits);
}

cJSON *
pv_cjson_int64 (gint64 value)
{
  char digits[24];

  if (value > -(gint64) EXACT_AS_DOUBLE && value < (gint64) EXACT_AS_DOUBLE)
    return cJSON_CreateNumber ((double) value);
  g_snprintf (digits, sizeof digits, "%" G_GINT64_FORMAT, value);
  return cJSON_CreateRaw (digits);
}

void
pv_json_bool (PvJsonWriter *w, const char *key, gboolean value)
{
  begin_item (w, key);
  g_string_append (w->out, value ? "true" : "false");
}

void
pv_json_null (PvJsonWriter *w, const char *key)
{
  begin_item (w, key);
  g_string_append (w->out, "null");
}
