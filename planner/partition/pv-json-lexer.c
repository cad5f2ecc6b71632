/* pv-json-lexer.c: nlohmann::json's lexer, written from its documented
 * grammar and error reporting (see pv-json-doc.c). */
#include "pv-json-lexer.h"

#include <string.h>

/* nlohmann's token names, for its messages. */
const char *
pv_json_token_name (PvJsonToken t)
{
  switch (t)
    {
    case PV_JSON_T_UNINITIALIZED:
      return "<uninitialized>";
    case PV_JSON_T_TRUE:
      return "true literal";
    case PV_JSON_T_FALSE:
      return "false literal";
    case PV_JSON_T_NULL:
      return "null literal";
    case PV_JSON_T_STRING:
      return "string literal";
    case PV_JSON_T_NUMBER:
      return "number literal";
    case PV_JSON_T_BEGIN_ARRAY:
      return "'['";
    case PV_JSON_T_BEGIN_OBJECT:
      return "'{'";
    case PV_JSON_T_END_ARRAY:
      return "']'";
    case PV_JSON_T_END_OBJECT:
      return "'}'";
    case PV_JSON_T_NAME_SEPARATOR:
      return "':'";
    case PV_JSON_T_VALUE_SEPARATOR:
      return "','";
    case PV_JSON_T_PARSE_ERROR:
      return "<parse error>";
    case PV_JSON_T_END_OF_INPUT:
      return "end of input";
    case PV_JSON_T_LITERAL_OR_VALUE:
      return "'[', '{', or a literal";
    }
  return "unknown token";
}

static int
lex_get (PvJsonLexer *lx)
{
  lx->chars_total++;
  lx->chars_line++;
  if (lx->unget_pending)
    lx->unget_pending = FALSE;
  else if (lx->next < lx->len)
    {
      lx->current_offset = lx->next;
      lx->current = lx->text[lx->next++];
    }
  else
    {
      lx->current_offset = lx->len;
      lx->current = -1;
    }
  if (lx->current == '\n')
    {
      lx->lines++;
      lx->chars_line = 0;
    }
  return lx->current;
}

static void
lex_unget (PvJsonLexer *lx)
{
  lx->unget_pending = TRUE;
  lx->chars_total--;
  if (lx->chars_line == 0)
    {
      if (lx->lines > 0)
        lx->lines--;
    }
  else
    lx->chars_line--;
}

/* The bytes read since token_start, up to the current byte unless it was
 * ungot (at the end of the input, every byte). */
static gsize
token_string_end (const PvJsonLexer *lx)
{
  if (lx->current == -1)
    return lx->len;
  return lx->unget_pending ? lx->current_offset : lx->current_offset + 1;
}

/* Starts a string or number token at the current byte. */
static void
lex_reset (PvJsonLexer *lx)
{
  g_string_truncate (lx->buffer, 0);
  lx->token_start = lx->current_offset;
}

/* What @n calls of lex_get() do on the next @n bytes when none of them is a
 * newline, in one step (but for the buffer): strings are most of a config. */
static void
lex_get_plain (PvJsonLexer *lx, gsize n)
{
  lx->chars_total += n;
  lx->chars_line += n;
  lx->next += n;
  lx->current_offset = lx->next - 1;
  lx->current = lx->text[lx->current_offset];
}

/* Skips a run of spaces, tabs and carriage returns as lex_get() would (none
 * is a newline): a pretty config indents every name. */
static void
lex_skip_blanks (PvJsonLexer *lx)
{
  const guchar *run = lx->text + lx->next, *p = run;
  const guchar *end = lx->unget_pending ? run : lx->text + lx->len;

  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
    p++;
  if (p > run)
    lex_get_plain (lx, (gsize) (p - run));
}

static PvJsonToken
lex_error (PvJsonLexer *lx, const char *message, gsize offset)
{
  lx->error = message;
  lx->error_offset = offset;
  return PV_JSON_T_PARSE_ERROR;
}

static PvJsonToken
lex_literal (PvJsonLexer *lx, const char *word, PvJsonToken type)
{
  for (gsize i = 1; word[i]; i++)
    if (lex_get (lx) != word[i])
      return lex_error (lx, "invalid literal", lx->current_offset);
  return type;
}

static int
lex_codepoint (PvJsonLexer *lx)
{
  int cp = 0;

  for (int shift = 12; shift >= 0; shift -= 4)
    {
      int c = lex_get (lx), d = c >= 0 && c < 0x80 ? g_ascii_xdigit_value ((char) c) : -1;
      if (d < 0)
        return -1;
      cp += d << shift;
    }
  return cp;
}

/* Reads @n more bytes of a UTF-8 sequence; each must be in its range. */
static gboolean
lex_utf8_tail (PvJsonLexer *lx, const int *ranges, int n)
{
  g_string_append_c (lx->buffer, (char) lx->current);
  for (int i = 0; i < n; i++)
    {
      int c = lex_get (lx);
      if (c < ranges[2 * i] || c > ranges[2 * i + 1])
        {
          lex_error (lx, "invalid string: ill-formed UTF-8 byte", lx->current_offset);
          return FALSE;
        }
      g_string_append_c (lx->buffer, (char) c);
    }
  return TRUE;
}

#define MSG_HIGH_SURROGATE "invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF"

static const char *const control_names[32] = {
  "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT",  "LF", "VT",  "FF", "CR", "SO", "SI",
  "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US",
};

/* The bytes that stand for themselves in a string: printable ASCII but the
 * quote (0x22) and the backslash (0x5C). A table: one test per byte of the
 * names that make up most of a config. */
static const guint8 plain_byte[256] = {
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x00 */
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x10 */
  1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x20 */
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x30 */
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x40 */
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, /* 0x50 */
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x60 */
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x70 */
  /* 0x80 to 0xFF: zeros */
};

/* After a backslash in a string: the escape decoded into lx->buffer.
 * FALSE when it is not one (the error set). */
static gboolean
lex_escape (PvJsonLexer *lx)
{
  gsize esc = lx->current_offset;
  int e = lex_get (lx), cp, low;
  char utf8[6];

  switch (e)
    {
    case '"':
    case '\\':
    case '/': g_string_append_c (lx->buffer, (char) e); return TRUE;
    case 'b': g_string_append_c (lx->buffer, '\b'); return TRUE;
    case 'f': g_string_append_c (lx->buffer, '\f'); return TRUE;
    case 'n': g_string_append_c (lx->buffer, '\n'); return TRUE;
    case 'r': g_string_append_c (lx->buffer, '\r'); return TRUE;
    case 't': g_string_append_c (lx->buffer, '\t'); return TRUE;
    case 'u': break;
    default:
      lex_error (lx, "invalid string: forbidden character after backslash", lx->current_offset);
      return FALSE;
    }
  cp = lex_codepoint (lx);
  if (cp < 0)
    {
      lex_error (lx, "invalid string: '\\u' must be followed by 4 hex digits", lx->current_offset);
      return FALSE;
    }
  if (cp >= 0xD800 && cp <= 0xDBFF)
    {
      if (!(lex_get (lx) == '\\' && lex_get (lx) == 'u'))
        {
          lex_error (lx, MSG_HIGH_SURROGATE, esc);
          return FALSE;
        }
      low = lex_codepoint (lx);
      if (low < 0)
        {
          lex_error (lx, "invalid string: '\\u' must be followed by 4 hex digits", lx->current_offset);
          return FALSE;
        }
      if (low < 0xDC00 || low > 0xDFFF)
        {
          lex_error (lx, MSG_HIGH_SURROGATE, esc);
          return FALSE;
        }
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
  else if (cp >= 0xDC00 && cp <= 0xDFFF)
    {
      lex_error (lx, "invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF", esc);
      return FALSE;
    }
  g_string_append_len (lx->buffer, utf8, g_unichar_to_utf8 ((gunichar) cp, utf8));
  return TRUE;
}

/* A raw control character @c in a string: the error, naming its escape. */
static PvJsonToken
lex_control_error (PvJsonLexer *lx, int c)
{
  g_free (lx->error_owned);
  if (c == '\b' || c == '\t' || c == '\n' || c == '\f' || c == '\r')
    {
      char e = c == '\b' ? 'b' : c == '\t' ? 't' : c == '\n' ? 'n' : c == '\f' ? 'f' : 'r';
      lx->error_owned = g_strdup_printf (
        "invalid string: control character U+%04X (%s) must be escaped to \\u%04X or \\%c", c, control_names[c], c,
        e);
    }
  else
    lx->error_owned = g_strdup_printf ("invalid string: control character U+%04X (%s) must be escaped to \\u%04X", c,
                                       control_names[c], c);
  return lex_error (lx, lx->error_owned, lx->current_offset);
}

/* The rest of a UTF-8 sequence that starts with byte @c (>= 0x80), as
 * nlohmann checks it; FALSE (the error set) when ill-formed. */
static gboolean
lex_utf8_sequence (PvJsonLexer *lx, int c)
{
  static const int r2[] = { 0x80, 0xBF };
  static const int re0[] = { 0xA0, 0xBF, 0x80, 0xBF };
  static const int r3[] = { 0x80, 0xBF, 0x80, 0xBF };
  static const int red[] = { 0x80, 0x9F, 0x80, 0xBF };
  static const int rf0[] = { 0x90, 0xBF, 0x80, 0xBF, 0x80, 0xBF };
  static const int r4[] = { 0x80, 0xBF, 0x80, 0xBF, 0x80, 0xBF };
  static const int rf4[] = { 0x80, 0x8F, 0x80, 0xBF, 0x80, 0xBF };

  if (c >= 0xC2 && c <= 0xDF)
    return lex_utf8_tail (lx, r2, 1);
  if (c == 0xE0)
    return lex_utf8_tail (lx, re0, 2);
  if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
    return lex_utf8_tail (lx, r3, 2);
  if (c == 0xED)
    return lex_utf8_tail (lx, red, 2);
  if (c == 0xF0)
    return lex_utf8_tail (lx, rf0, 3);
  if (c >= 0xF1 && c <= 0xF3)
    return lex_utf8_tail (lx, r4, 3);
  if (c == 0xF4)
    return lex_utf8_tail (lx, rf4, 3);
  return lex_error (lx, "invalid string: ill-formed UTF-8 byte", lx->current_offset) != PV_JSON_T_PARSE_ERROR;
}

static PvJsonToken
lex_string (PvJsonLexer *lx)
{
  gsize start = lx->current_offset;
  gboolean first_run = TRUE;

  lex_reset (lx);
  for (;;)
    {
      /* A run of plain bytes (none when a byte is ungot). Local pointers:
       * through @lx the compiler would reload every field after each byte
       * (unsigned char aliases everything). */
      const guchar *run = lx->text + lx->next, *p = run;
      const guchar *end = lx->unget_pending ? run : lx->text + lx->len;
      int c;

      while (p < end && plain_byte[*p])
        p++;
      if (p > run)
        lex_get_plain (lx, (gsize) (p - run));
      if (first_run && p < end && *p == '"')
        {
          /* Nothing to decode: the string is that slice of the text. */
          lex_get (lx);
          lx->string = (const char *) run;
          lx->string_len = (gsize) (p - run);
          return PV_JSON_T_STRING;
        }
      first_run = FALSE;
      g_string_append_len (lx->buffer, (const char *) run, (gssize) (p - run));
      c = lex_get (lx);
      if (c == -1)
        return lex_error (lx, "invalid string: missing closing quote", start);
      if (c == '"')
        {
          lx->string = lx->buffer->str;
          lx->string_len = lx->buffer->len;
          return PV_JSON_T_STRING;
        }
      if (c == '\\')
        {
          if (!lex_escape (lx))
            return PV_JSON_T_PARSE_ERROR;
        }
      else if (c < 0x20)
        return lex_control_error (lx, c);
      else if (c < 0x80)
        g_string_append_c (lx->buffer, (char) c);
      else if (!lex_utf8_sequence (lx, c))
        return PV_JSON_T_PARSE_ERROR;
    }
}

static PvJsonToken
lex_number (PvJsonLexer *lx)
{
  int c = lx->current;

  lex_reset (lx);
  g_string_append_c (lx->buffer, (char) c);
  if (c == '-')
    {
      c = lex_get (lx);
      if (c < '0' || c > '9')
        return lex_error (lx, "invalid number; expected digit after '-'", lx->current_offset);
      g_string_append_c (lx->buffer, (char) c);
    }
  if (c != '0')
    while ((c = lex_get (lx)) >= '0' && c <= '9')
      g_string_append_c (lx->buffer, (char) c);
  else
    c = lex_get (lx);
  if (c == '.')
    {
      g_string_append_c (lx->buffer, '.');
      c = lex_get (lx);
      if (c < '0' || c > '9')
        return lex_error (lx, "invalid number; expected digit after '.'", lx->current_offset);
      do
        g_string_append_c (lx->buffer, (char) c);
      while ((c = lex_get (lx)) >= '0' && c <= '9');
    }
  if (c == 'e' || c == 'E')
    {
      g_string_append_c (lx->buffer, (char) c);
      c = lex_get (lx);
      if (c == '+' || c == '-')
        {
          g_string_append_c (lx->buffer, (char) c);
          c = lex_get (lx);
          if (c < '0' || c > '9')
            return lex_error (lx, "invalid number; expected digit after exponent sign", lx->current_offset);
        }
      else if (c < '0' || c > '9')
        return lex_error (lx, "invalid number; expected '+', '-', or digit after exponent", lx->current_offset);
      do
        g_string_append_c (lx->buffer, (char) c);
      while ((c = lex_get (lx)) >= '0' && c <= '9');
    }
  lex_unget (lx);
  return PV_JSON_T_NUMBER;
}

PvJsonToken
pv_json_lexer_scan (PvJsonLexer *lx)
{
  if (lx->chars_total == 0)
    {
      /* An optional UTF-8 byte order mark. */
      if (lex_get (lx) == 0xEF)
        {
          if (!(lex_get (lx) == 0xBB && lex_get (lx) == 0xBF))
            {
              lx->token_offset = lx->current_offset;
              return lex_error (lx, "invalid BOM; must be 0xEF 0xBB 0xBF if given", lx->current_offset);
            }
        }
      else
        lex_unget (lx);
    }
  do
    {
      lex_skip_blanks (lx);
      lex_get (lx);
    }
  while (lx->current == ' ' || lx->current == '\t' || lx->current == '\n' || lx->current == '\r');
  lx->token_offset = lx->current_offset;
  switch (lx->current)
    {
    case '[':
      return PV_JSON_T_BEGIN_ARRAY;
    case ']':
      return PV_JSON_T_END_ARRAY;
    case '{':
      return PV_JSON_T_BEGIN_OBJECT;
    case '}':
      return PV_JSON_T_END_OBJECT;
    case ':':
      return PV_JSON_T_NAME_SEPARATOR;
    case ',':
      return PV_JSON_T_VALUE_SEPARATOR;
    case 't':
      return lex_literal (lx, "true", PV_JSON_T_TRUE);
    case 'f':
      return lex_literal (lx, "false", PV_JSON_T_FALSE);
    case 'n':
      return lex_literal (lx, "null", PV_JSON_T_NULL);
    case '"':
      return lex_string (lx);
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9':
      return lex_number (lx);
    case 0:
    case -1:
      return PV_JSON_T_END_OF_INPUT;
    default:
      return lex_error (lx, "invalid literal", lx->current_offset);
    }
}

char *
pv_json_lexer_describe_byte (const PvJsonLexer *lx)
{
  int c = lx->current;

  if (c == -1)
    return g_strdup ("the end of the file");
  if (c == '\'')
    return g_strdup ("\"'\"");
  if (c > 0x20 && c < 0x7f)
    return g_strdup_printf ("'%c'", c);
  if (c == ' ')
    return g_strdup ("a space");
  if (c < 0x80)
    return g_strdup_printf ("the control character U+%04X", c);
  {
    gunichar ch = g_utf8_get_char_validated ((const char *) lx->text + lx->current_offset,
                                             (gssize) (lx->len - lx->current_offset));
    if (ch == (gunichar) -1 || ch == (gunichar) -2)
      return g_strdup_printf ("the byte 0x%02X (not UTF-8)", c);
    return g_strdup_printf ("'%.*s'", g_utf8_skip[c], (const char *) lx->text + lx->current_offset);
  }
}

/* nlohmann's "last read" text: control bytes as <U+XXXX>. */
void
pv_json_lexer_append_last_read (GString *out, const PvJsonLexer *lx)
{
  for (gsize i = lx->token_start; i < token_string_end (lx); i++)
    {
      guint8 b = lx->text[i];
      if (b <= 0x1F)
        g_string_append_printf (out, "<U+%04X>", b);
      else
        g_string_append_c (out, (char) b);
    }
}

void
pv_json_lexer_init (PvJsonLexer *lx, const char *text, gsize len)
{
  memset (lx, 0, sizeof *lx);
  lx->text = (const guchar *) text;
  lx->len = len;
  lx->current = -1;
  lx->buffer = g_string_new (NULL);
}

void
pv_json_lexer_clear (PvJsonLexer *lx)
{
  g_clear_pointer (&lx->error_owned, g_free);
  if (lx->buffer)
    g_string_free (g_steal_pointer (&lx->buffer), TRUE);
}
