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

#include "pv-arena.h"

typedef enum {
  T_UNINITIALIZED,
  T_TRUE,
  T_FALSE,
  T_NULL,
  T_STRING,
  T_NUMBER,
  T_BEGIN_ARRAY,
  T_BEGIN_OBJECT,
  T_END_ARRAY,
  T_END_OBJECT,
  T_NAME_SEPARATOR,
  T_VALUE_SEPARATOR,
  T_PARSE_ERROR,
  T_END_OF_INPUT,
  T_LITERAL_OR_VALUE,
} Token;

/* nlohmann's token names, for its messages. */
static const char *
token_name (Token t)
{
  switch (t)
    {
    case T_UNINITIALIZED:
      return "<uninitialized>";
    case T_TRUE:
      return "true literal";
    case T_FALSE:
      return "false literal";
    case T_NULL:
      return "null literal";
    case T_STRING:
      return "string literal";
    case T_NUMBER:
      return "number literal";
    case T_BEGIN_ARRAY:
      return "'['";
    case T_BEGIN_OBJECT:
      return "'{'";
    case T_END_ARRAY:
      return "']'";
    case T_END_OBJECT:
      return "'}'";
    case T_NAME_SEPARATOR:
      return "':'";
    case T_VALUE_SEPARATOR:
      return "','";
    case T_PARSE_ERROR:
      return "<parse error>";
    case T_END_OF_INPUT:
      return "end of input";
    case T_LITERAL_OR_VALUE:
      return "'[', '{', or a literal";
    }
  return "unknown token";
}

typedef struct {
  const guchar *text;
  gsize len;
  gsize next;
  int current;            /* last byte read, -1 at the end */
  gsize current_offset;   /* its offset (len at the end) */
  gboolean unget_pending;
  gsize chars_total;      /* nlohmann's position bookkeeping */
  gsize chars_line;
  gsize lines;
  /* What nlohmann quotes as "last read": the bytes read since
   * token_start, always a slice of the text (token_string_end()). */
  gsize token_start;
  GString *buffer;          /* decoded string / number text */
  /* A T_STRING's decoded bytes: a slice of the text when the string has
   * nothing to decode (most names), else the buffer's. */
  const char *string;
  gsize string_len;
  const char *error;        /* lexer error text */
  char *error_owned;
  gsize error_offset;       /* where we say the lexer error is */
  gsize token_offset;       /* first byte of the current token */
} Lexer;

static int
lex_get (Lexer *lx)
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
lex_unget (Lexer *lx)
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
token_string_end (const Lexer *lx)
{
  if (lx->current == -1)
    return lx->len;
  return lx->unget_pending ? lx->current_offset : lx->current_offset + 1;
}

/* Starts a string or number token at the current byte. */
static void
lex_reset (Lexer *lx)
{
  g_string_truncate (lx->buffer, 0);
  lx->token_start = lx->current_offset;
}

/* What @n calls of lex_get() do on the next @n bytes when none of them is a
 * newline, in one step (but for the buffer): strings are most of a config. */
static void
lex_get_plain (Lexer *lx, gsize n)
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
lex_skip_blanks (Lexer *lx)
{
  const guchar *run = lx->text + lx->next, *p = run;
  const guchar *end = lx->unget_pending ? run : lx->text + lx->len;

  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
    p++;
  if (p > run)
    lex_get_plain (lx, (gsize) (p - run));
}

static Token
lex_error (Lexer *lx, const char *message, gsize offset)
{
  lx->error = message;
  lx->error_offset = offset;
  return T_PARSE_ERROR;
}

static Token
lex_literal (Lexer *lx, const char *word, Token type)
{
  for (gsize i = 1; word[i]; i++)
    if (lex_get (lx) != word[i])
      return lex_error (lx, "invalid literal", lx->current_offset);
  return type;
}

static int
lex_codepoint (Lexer *lx)
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
lex_utf8_tail (Lexer *lx, const int *ranges, int n)
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

static Token
lex_string (Lexer *lx)
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
          return T_STRING;
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
          return T_STRING;
        }
      if (c == '\\')
        {
          gsize esc = lx->current_offset;
          int e = lex_get (lx), cp, low;
          switch (e)
            {
            case '"':
            case '\\':
            case '/':
              g_string_append_c (lx->buffer, (char) e);
              continue;
            case 'b':
              g_string_append_c (lx->buffer, '\b');
              continue;
            case 'f':
              g_string_append_c (lx->buffer, '\f');
              continue;
            case 'n':
              g_string_append_c (lx->buffer, '\n');
              continue;
            case 'r':
              g_string_append_c (lx->buffer, '\r');
              continue;
            case 't':
              g_string_append_c (lx->buffer, '\t');
              continue;
            case 'u':
              break;
            default:
              return lex_error (lx, "invalid string: forbidden character after backslash", lx->current_offset);
            }
          cp = lex_codepoint (lx);
          if (cp < 0)
            return lex_error (lx, "invalid string: '\\u' must be followed by 4 hex digits", lx->current_offset);
          if (cp >= 0xD800 && cp <= 0xDBFF)
            {
              if (!(lex_get (lx) == '\\' && lex_get (lx) == 'u'))
                return lex_error (lx, MSG_HIGH_SURROGATE, esc);
              low = lex_codepoint (lx);
              if (low < 0)
                return lex_error (lx, "invalid string: '\\u' must be followed by 4 hex digits", lx->current_offset);
              if (low < 0xDC00 || low > 0xDFFF)
                return lex_error (lx, MSG_HIGH_SURROGATE, esc);
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
          else if (cp >= 0xDC00 && cp <= 0xDFFF)
            return lex_error (lx, "invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF", esc);
          {
            char utf8[6];
            int n = g_unichar_to_utf8 ((gunichar) cp, utf8);
            g_string_append_len (lx->buffer, utf8, n);
          }
          continue;
        }
      if (c < 0x20)
        {
          g_free (lx->error_owned);
          if (c == '\b' || c == '\t' || c == '\n' || c == '\f' || c == '\r')
            {
              char e = c == '\b' ? 'b' : c == '\t' ? 't' : c == '\n' ? 'n' : c == '\f' ? 'f' : 'r';
              lx->error_owned = g_strdup_printf (
                "invalid string: control character U+%04X (%s) must be escaped to \\u%04X or \\%c", c,
                control_names[c], c, e);
            }
          else
            lx->error_owned = g_strdup_printf (
              "invalid string: control character U+%04X (%s) must be escaped to \\u%04X", c, control_names[c], c);
          return lex_error (lx, lx->error_owned, lx->current_offset);
        }
      if (c < 0x80)
        {
          g_string_append_c (lx->buffer, (char) c);
          continue;
        }
      {
        static const int r2[] = { 0x80, 0xBF };
        static const int re0[] = { 0xA0, 0xBF, 0x80, 0xBF };
        static const int r3[] = { 0x80, 0xBF, 0x80, 0xBF };
        static const int red[] = { 0x80, 0x9F, 0x80, 0xBF };
        static const int rf0[] = { 0x90, 0xBF, 0x80, 0xBF, 0x80, 0xBF };
        static const int r4[] = { 0x80, 0xBF, 0x80, 0xBF, 0x80, 0xBF };
        static const int rf4[] = { 0x80, 0x8F, 0x80, 0xBF, 0x80, 0xBF };
        gboolean ok;
        if (c >= 0xC2 && c <= 0xDF)
          ok = lex_utf8_tail (lx, r2, 1);
        else if (c == 0xE0)
          ok = lex_utf8_tail (lx, re0, 2);
        else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
          ok = lex_utf8_tail (lx, r3, 2);
        else if (c == 0xED)
          ok = lex_utf8_tail (lx, red, 2);
        else if (c == 0xF0)
          ok = lex_utf8_tail (lx, rf0, 3);
        else if (c >= 0xF1 && c <= 0xF3)
          ok = lex_utf8_tail (lx, r4, 3);
        else if (c == 0xF4)
          ok = lex_utf8_tail (lx, rf4, 3);
        else
          ok = lex_error (lx, "invalid string: ill-formed UTF-8 byte", lx->current_offset) != T_PARSE_ERROR;
        if (!ok)
          return T_PARSE_ERROR;
      }
    }
}

static Token
lex_number (Lexer *lx)
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
  return T_NUMBER;
}

static Token
lex_scan (Lexer *lx)
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
      return T_BEGIN_ARRAY;
    case ']':
      return T_END_ARRAY;
    case '{':
      return T_BEGIN_OBJECT;
    case '}':
      return T_END_OBJECT;
    case ':':
      return T_NAME_SEPARATOR;
    case ',':
      return T_VALUE_SEPARATOR;
    case 't':
      return lex_literal (lx, "true", T_TRUE);
    case 'f':
      return lex_literal (lx, "false", T_FALSE);
    case 'n':
      return lex_literal (lx, "null", T_NULL);
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
      return T_END_OF_INPUT;
    default:
      return lex_error (lx, "invalid literal", lx->current_offset);
    }
}

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
  g_clear_pointer (&doc->arena, pv_arena_free);
  g_clear_pointer (&doc->error, g_free);
  g_clear_pointer (&doc->ort_error, g_free);
}

/* Our words for a token at the place where something else was expected. */
static char *
describe_token (const Lexer *lx, Token t)
{
  switch (t)
    {
    case T_STRING:
      return g_strdup ("a string");
    case T_NUMBER:
      return g_strdup ("a number");
    case T_TRUE:
      return g_strdup ("'true'");
    case T_FALSE:
      return g_strdup ("'false'");
    case T_NULL:
      return g_strdup ("'null'");
    case T_END_OF_INPUT:
      return g_strdup (lx->current == 0 ? "a NUL byte (the end of the input for ONNX Runtime)" : "the end of the file");
    default:
      return g_strdup (token_name (t));
    }
}

static char *
describe_byte (const Lexer *lx)
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
static void
append_token_string (GString *out, const Lexer *lx)
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

/* Records a syntax error the way nlohmann reports it (parser.hpp's
 * exception_message) and the way we describe it. */
static void
parse_fail (PvJsonDoc *doc, const Lexer *lx, Token last, Token expected, const char *context, const char *ours)
{
  GString *ort = g_string_new (NULL);

  g_string_append_printf (ort, "[json.exception.parse_error.101] parse error at line %" G_GSIZE_FORMAT
                               ", column %" G_GSIZE_FORMAT ": syntax error ",
                          lx->lines + 1, lx->chars_line);
  if (context)
    g_string_append_printf (ort, "while parsing %s ", context);
  g_string_append (ort, "- ");
  if (last == T_PARSE_ERROR)
    {
      g_string_append_printf (ort, "%s; last read: '", lx->error);
      append_token_string (ort, lx);
      g_string_append_c (ort, '\'');
    }
  else
    g_string_append_printf (ort, "unexpected %s", token_name (last));
  if (expected != T_UNINITIALIZED)
    g_string_append_printf (ort, "; expected %s", token_name (expected));

  doc->failed = TRUE;
  doc->ort_error = g_string_free (ort, FALSE);
  if (last == T_PARSE_ERROR)
    {
      doc->error_offset = lx->error_offset;
      if (strcmp (lx->error, "invalid literal") == 0)
        {
          g_autofree char *what = describe_byte (lx);
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
  PvJsonValue *v = pv_arena_alloc (doc->arena, sizeof (PvJsonValue));

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
string_copy (PvJsonDoc *doc, const Lexer *lx)
{
  char *copy = pv_arena_alloc (doc->arena, lx->string_len + 1);

  memcpy (copy, lx->string, lx->string_len);
  copy[lx->string_len] = '\0';
  return copy;
}

static void
add_key (PvJsonDoc *doc, PvJsonValue *obj, const Lexer *lx)
{
  PvJsonMember *m = pv_arena_alloc (doc->arena, sizeof (PvJsonMember));

  memset (m, 0, sizeof (PvJsonMember));
  m->key = string_copy (doc, lx);
  m->len = lx->string_len;
  m->offset = lx->token_offset;
  m->index = obj->items->len;
  g_ptr_array_add (obj->items, m);
}

/* Parses @text as nlohmann::json::parse(stream) does (strict, no comments). */
void
pv_json_doc_parse (PvJsonDoc *doc, const char *text, gsize len)
{
  Lexer lx = { 0 };
  g_autoptr (GPtrArray) stack = g_ptr_array_new ();
  gboolean skip = FALSE;
  Token last;

  doc->arena = pv_arena_new ();
  doc->containers = g_ptr_array_new_with_free_func (container_free);
  lx.text = (const guchar *) text;
  lx.len = len;
  lx.current = -1;
  lx.buffer = g_string_new (NULL);

  last = lex_scan (&lx);
  for (;;)
    {
      if (!skip)
        {
          PvJsonValue *v = NULL;
          gsize at = lx.token_offset;
          gboolean container = FALSE;

          switch (last)
            {
            case T_BEGIN_OBJECT:
              v = jval_new (doc, PV_JSON_OBJECT, at);
              container = TRUE;
              break;
            case T_BEGIN_ARRAY:
              v = jval_new (doc, PV_JSON_ARRAY, at);
              container = TRUE;
              break;
            case T_NUMBER:
              {
                double d = g_ascii_strtod (lx.buffer->str, NULL);
                if (!isfinite (d))
                  {
                    GString *ort = g_string_new ("[json.exception.out_of_range.406] number overflow parsing '");
                    append_token_string (ort, &lx);
                    g_string_append_c (ort, '\'');
                    doc->failed = TRUE;
                    doc->ort_error = g_string_free (ort, FALSE);
                    doc->error_offset = at;
                    doc->error = g_strdup_printf ("the number %s is too large for a double", lx.buffer->str);
                    goto out;
                  }
                v = jval_new (doc, PV_JSON_NUMBER, at);
              }
              break;
            case T_STRING:
              v = jval_new (doc, PV_JSON_STRING, at);
              v->str = string_copy (doc, &lx);
              v->len = lx.string_len;
              break;
            case T_TRUE:
              v = jval_new (doc, PV_JSON_TRUE, at);
              break;
            case T_FALSE:
              v = jval_new (doc, PV_JSON_FALSE, at);
              break;
            case T_NULL:
              v = jval_new (doc, PV_JSON_NULL, at);
              break;
            case T_PARSE_ERROR:
              parse_fail (doc, &lx, last, T_UNINITIALIZED, "value", NULL);
              goto out;
            case T_END_OF_INPUT:
              if (lx.chars_total == 1)
                {
                  doc->failed = TRUE;
                  doc->ort_error = g_strdup_printf (
                    "[json.exception.parse_error.101] parse error at line %" G_GSIZE_FORMAT ", column %" G_GSIZE_FORMAT
                    ": attempting to parse an empty input; check that your input string or stream contains the "
                    "expected JSON",
                    lx.lines + 1, lx.chars_line);
                  doc->error_offset = 0;
                  doc->error = g_strdup (len == 0 ? "the file is empty"
                                                  : "the file starts with a NUL byte, which ends the input");
                  goto out;
                }
              parse_fail (doc, &lx, last, T_LITERAL_OR_VALUE, "value", "expected a value");
              goto out;
            default:
              parse_fail (doc, &lx, last, T_LITERAL_OR_VALUE, "value", "expected a value");
              goto out;
            }

          /* Attach the value to its parent. */
          if (stack->len == 0)
            doc->root = v;
          else
            {
              PvJsonValue *parent = g_ptr_array_index (stack, stack->len - 1);
              if (parent->kind == PV_JSON_ARRAY)
                g_ptr_array_add (parent->items, v);
              else
                ((PvJsonMember *) g_ptr_array_index (parent->items, parent->items->len - 1))->value = v;
            }

          if (container && v->kind == PV_JSON_OBJECT)
            {
              if ((last = lex_scan (&lx)) != T_END_OBJECT)
                {
                  if (last != T_STRING)
                    {
                      parse_fail (doc, &lx, last, T_STRING, "object key", "expected a string key");
                      goto out;
                    }
                  add_key (doc, v, &lx);
                  if ((last = lex_scan (&lx)) != T_NAME_SEPARATOR)
                    {
                      parse_fail (doc, &lx, last, T_NAME_SEPARATOR, "object separator", "expected ':' after the key");
                      goto out;
                    }
                  g_ptr_array_add (stack, v);
                  last = lex_scan (&lx);
                  continue;
                }
            }
          else if (container)
            {
              if ((last = lex_scan (&lx)) != T_END_ARRAY)
                {
                  g_ptr_array_add (stack, v);
                  continue;
                }
            }
        }
      else
        skip = FALSE;

      if (stack->len == 0)
        break;
      {
        PvJsonValue *top = g_ptr_array_index (stack, stack->len - 1);
        if (top->kind == PV_JSON_ARRAY)
          {
            if ((last = lex_scan (&lx)) == T_VALUE_SEPARATOR)
              {
                last = lex_scan (&lx);
                continue;
              }
            if (last == T_END_ARRAY)
              {
                g_ptr_array_set_size (stack, stack->len - 1);
                skip = TRUE;
                continue;
              }
            parse_fail (doc, &lx, last, T_END_ARRAY, "array", "expected ',' or ']' after an array element");
            goto out;
          }
        if ((last = lex_scan (&lx)) == T_VALUE_SEPARATOR)
          {
            if ((last = lex_scan (&lx)) != T_STRING)
              {
                parse_fail (doc, &lx, last, T_STRING, "object key", "expected a string key");
                goto out;
              }
            add_key (doc, top, &lx);
            if ((last = lex_scan (&lx)) != T_NAME_SEPARATOR)
              {
                parse_fail (doc, &lx, last, T_NAME_SEPARATOR, "object separator", "expected ':' after the key");
                goto out;
              }
            last = lex_scan (&lx);
            continue;
          }
        if (last == T_END_OBJECT)
          {
            g_ptr_array_set_size (stack, stack->len - 1);
            skip = TRUE;
            continue;
          }
        parse_fail (doc, &lx, last, T_END_OBJECT, "object", "expected ',' or '}' after an object member");
        goto out;
      }
    }

  /* Strict: nothing but whitespace may follow (a NUL byte ends the input). */
  if ((last = lex_scan (&lx)) != T_END_OF_INPUT)
    {
      parse_fail (doc, &lx, last, T_END_OF_INPUT, "value", "expected the end of the file after the JSON value");
      goto out;
    }
  if (lx.current == 0)
    {
      for (gsize i = lx.current_offset + 1; i < len; i++)
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r' && text[i] != '\0')
          {
            doc->nul_end = TRUE;
            doc->nul_offset = lx.current_offset;
            break;
          }
    }

out:
  if (doc->failed)
    doc->root = NULL;
  g_free (lx.error_owned);
  g_string_free (lx.buffer, TRUE);
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
