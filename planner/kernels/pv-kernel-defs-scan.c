/* pv-kernel-defs-scan.c: a kernel-defs file's syntax, checked strictly by a
 * scanner of our own (an error names the exact character at fault), with
 * where every value and object key starts; then those positions paired
 * with cJSON's tree. */
#include "pv-kernel-table-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* Positions */


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

void
_pv_kdefs_set_error (GError **error, const Source *src, PvKernelTableError code, gsize offset, const char *format, ...)
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

gboolean
_pv_kdefs_scan_fail (Scanner *s, gsize offset, const char *what)
{
  g_autofree char *found = describe_at (s->src, offset);
  _pv_kdefs_set_error (s->error, s->src, PV_KERNEL_TABLE_ERROR_SYNTAX, offset, "%s, found %s", what, found);
  return FALSE;
}

void
_pv_kdefs_skip_ws (Scanner *s)
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
          _pv_kdefs_set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, start, "unterminated string");
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
          _pv_kdefs_set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, s->pos,
                               "the control character U+%04X must be written as an escape in a string", c);
          return FALSE;
        }
      if (c == '\\')
        {
          gsize esc = s->pos;
          char e = s->pos + 1 < src->len ? src->text[s->pos + 1] : '\0';
          if (s->pos + 1 >= src->len)
            {
              _pv_kdefs_set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, start, "unterminated string");
              return FALSE;
            }
          if (strchr ("\"\\/bfnrt", e) != NULL && e != '\0')
            {
              s->pos += 2;
              continue;
            }
          if (e != 'u')
            return _pv_kdefs_scan_fail (s, esc + 1,
                              "invalid escape: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u after '\\'");
          {
            int cp = hex4 (src->text + esc + 2, src->len - esc - 2);
            if (cp < 0)
              {
                _pv_kdefs_set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, esc,
                                     "'\\u' must be followed by 4 hex digits");
                return FALSE;
              }
            if (cp == 0)
              {
                _pv_kdefs_set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, esc,
                                     "\\u0000 is not allowed in strings");
                return FALSE;
              }
            s->pos = esc + 6;
            if (cp >= 0xDC00 && cp <= 0xDFFF)
              {
                _pv_kdefs_set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, esc,
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
                    _pv_kdefs_set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, esc,
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
            _pv_kdefs_set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, s->pos,
                                 "the byte 0x%02X is not valid UTF-8", c);
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
    return _pv_kdefs_scan_fail (s, p, "invalid number: expected a digit");
  if (t[p] == '0' && p + 1 < len && g_ascii_isdigit (t[p + 1]))
    {
      _pv_kdefs_set_error (s->error, s->src, PV_KERNEL_TABLE_ERROR_SYNTAX, s->pos,
                           "invalid number: leading zeros are not allowed");
      return FALSE;
    }
  while (p < len && g_ascii_isdigit (t[p]))
    p++;
  if (p < len && t[p] == '.')
    {
      p++;
      if (p >= len || !g_ascii_isdigit (t[p]))
        return _pv_kdefs_scan_fail (s, p, "invalid number: expected a digit after '.'");
      while (p < len && g_ascii_isdigit (t[p]))
        p++;
    }
  if (p < len && (t[p] == 'e' || t[p] == 'E'))
    {
      p++;
      if (p < len && (t[p] == '+' || t[p] == '-'))
        p++;
      if (p >= len || !g_ascii_isdigit (t[p]))
        return _pv_kdefs_scan_fail (s, p, "invalid number: expected a digit in the exponent");
      while (p < len && g_ascii_isdigit (t[p]))
        p++;
    }
  s->pos = p;
  return TRUE;
}

gboolean
_pv_kdefs_scan_value (Scanner *s, int depth)
{
  const Source *src = s->src;
  char c;

  _pv_kdefs_skip_ws (s);
  if (s->pos >= src->len)
    return _pv_kdefs_scan_fail (s, s->pos, "expected a value");
  g_array_append_val (s->value_offsets, s->pos);
  c = src->text[s->pos];
  if (c == '{' || c == '[')
    {
      char close = c == '{' ? '}' : ']';
      gsize open = s->pos;
      if (depth >= MAX_DEPTH)
        {
          _pv_kdefs_set_error (s->error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, open, "nested deeper than %d levels",
                               MAX_DEPTH);
          return FALSE;
        }
      s->pos++;
      _pv_kdefs_skip_ws (s);
      if (s->pos < src->len && src->text[s->pos] == close)
        {
          s->pos++;
          return TRUE;
        }
      for (;;)
        {
          if (c == '{')
            {
              _pv_kdefs_skip_ws (s);
              if (s->pos >= src->len || src->text[s->pos] != '"')
                return _pv_kdefs_scan_fail (s, s->pos, "expected a string key");
              g_array_append_val (s->key_offsets, s->pos);
              if (!scan_string (s))
                return FALSE;
              _pv_kdefs_skip_ws (s);
              if (s->pos >= src->len || src->text[s->pos] != ':')
                return _pv_kdefs_scan_fail (s, s->pos, "expected ':' after the key");
              s->pos++;
            }
          if (!_pv_kdefs_scan_value (s, depth + 1))
            return FALSE;
          _pv_kdefs_skip_ws (s);
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
          return _pv_kdefs_scan_fail (s, s->pos,
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
                  return _pv_kdefs_scan_fail (s, s->pos + k, what);
                }
            s->pos += n;
            return TRUE;
          }
      }
  }
  return _pv_kdefs_scan_fail (s, s->pos, "expected a value");
}

/* ---------------------------------------------------------------------- */
/* Tree positions */

static void
collect_positions (const cJSON *item, Positions *pos, const GArray *values, const GArray *keys, gboolean is_member)
{
  if (is_member && pos->n_keys < keys->len)
    {
      pos->keys[pos->n_keys] = (Position) { item, g_array_index (keys, gsize, pos->n_keys) };
      pos->n_keys++;
    }
  if (pos->n_values < values->len)
    {
      pos->values[pos->n_values] = (Position) { item, g_array_index (values, gsize, pos->n_values) };
      pos->n_values++;
    }
  for (const cJSON *child = item->child; child; child = child->next)
    collect_positions (child, pos, values, keys, cJSON_IsObject (item));
}

static int
compare_positions (const void *a, const void *b)
{
  const cJSON *x = ((const Position *) a)->item, *y = ((const Position *) b)->item;
  return (x > y) - (x < y);
}

void
_pv_kdefs_assign_positions (const cJSON *root, Positions *pos, const GArray *values, const GArray *keys)
{
  pos->values = g_new (Position, MAX (values->len, 1));
  pos->keys = g_new (Position, MAX (keys->len, 1));
  pos->n_values = pos->n_keys = 0;
  collect_positions (root, pos, values, keys, FALSE);
  qsort (pos->values, pos->n_values, sizeof (Position), compare_positions);
  qsort (pos->keys, pos->n_keys, sizeof (Position), compare_positions);
}

void
_pv_kdefs_positions_clear (Positions *pos)
{
  g_clear_pointer (&pos->values, g_free);
  g_clear_pointer (&pos->keys, g_free);
}

static const Position *
find_position (const Position *list, guint n, const cJSON *item)
{
  Position key = { item, 0 };
  return bsearch (&key, list, n, sizeof (Position), compare_positions);
}

gsize
_pv_kdefs_value_offset (const Positions *pos, const cJSON *item)
{
  const Position *p = find_position (pos->values, pos->n_values, item);
  return p ? p->offset : G_MAXSIZE;
}

gsize
_pv_kdefs_key_offset (const Positions *pos, const cJSON *item)
{
  const Position *p = find_position (pos->keys, pos->n_keys, item);
  return p ? p->offset : _pv_kdefs_value_offset (pos, item);
}
