/* pv-partition-config.c: ONNX Runtime's DeviceBasedPartitioner config,
 * written and checked as ORT 1.30 does.
 *
 * ORT reads the file with nlohmann::json. To predict exactly which files it
 * refuses to parse (and quote the warning it logs), the reader below follows
 * nlohmann::json's documented grammar and error reporting: RFC 8259 JSON,
 * UTF-8 checked inside strings, an optional UTF-8 BOM, a NUL byte read as the
 * end of the input, duplicate keys resolved to the last one, numbers that
 * overflow a double refused, and its "parse error at line L, column C: ..."
 * texts with its position and "last read" conventions. Everything here was
 * written from those descriptions and checked against ORT 1.30 itself
 * (tests/ort/configs). */
#include "pv-partition-config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DBP_TYPE "DeviceBasedPartitioner"
#define MAX_MISSING_FINDINGS 10
#define MAX_SUGGESTED_NAMES 100 /* unknown names that get "did you mean" */
#define MAX_ORDER_NAMES 30      /* names quoted in an order finding */

/* What ORT 1.30 does, for PvPartitionFinding.ort. */
#define ORT_IGNORES_FILE "ignores the whole file (it logs a warning) and uses its default partition"
#define ORT_REFUSES "refuses to create the session"
#define ORT_CRASHES "crashes (SIGSEGV) while building the execution plan: an empty stream has no device"
#define ORT_CRASHES_LATER "would crash (SIGSEGV) on this empty stream, but refuses the session for another error first"
#define ORT_ORDER "runs each stream in the graph's topological order, whatever the order in the file"
#define MSG_COUNT "Number of streams does not equal to number of device types!"
#define MSG_TYPE "Partitioner type is not DeviceBasedPartitioner"
#define MSG_MIXED \
  "execution_plan[plan_.node_stream_map_[node_index]]->device_.Type() == node_device_mem_location.Type() was false."

/* ---------------------------------------------------------------------- */
/* Small helpers */

const char *
pv_device_type_name (int device)
{
  static const char *const names[] = { "CPU", "GPU", "FPGA", "NPU" };
  return device >= 0 && device < (int) G_N_ELEMENTS (names) ? names[device] : NULL;
}

const char *
pv_ort_verdict_name (PvOrtVerdict verdict)
{
  switch (verdict)
    {
    case PV_ORT_ACCEPTS:
      return "accepts";
    case PV_ORT_REJECTS:
      return "rejects";
    case PV_ORT_DISCARDS:
      return "discards";
    case PV_ORT_CRASHES:
      return "crashes";
    }
  return "unknown";
}

/* "name" with JSON-style escapes for quotes, backslashes and control
 * characters; bytes that are not UTF-8 as \xNN. */
static void
append_quoted (GString *out, const char *s, gsize len)
{
  g_string_append_c (out, '"');
  for (gsize i = 0; i < len;)
    {
      guchar c = (guchar) s[i];
      if (c == '"' || c == '\\')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char) c);
          i++;
        }
      else if (c < 0x20 || c == 0x7f)
        {
          g_string_append_printf (out, "\\u%04x", c);
          i++;
        }
      else if (c < 0x80)
        {
          g_string_append_c (out, (char) c);
          i++;
        }
      else
        {
          gunichar ch = g_utf8_get_char_validated (s + i, (gssize) (len - i));
          if (ch == (gunichar) -1 || ch == (gunichar) -2)
            {
              g_string_append_printf (out, "\\x%02X", c);
              i++;
            }
          else
            {
              int n = g_utf8_skip[c];
              g_string_append_len (out, s + i, n);
              i += n;
            }
        }
    }
  g_string_append_c (out, '"');
}

static char *
quoted (const char *s, gsize len)
{
  GString *out = g_string_new (NULL);
  append_quoted (out, s, len);
  return g_string_free (out, FALSE);
}

static char *
quoted_name (const char *s)
{
  return quoted (s, strlen (s));
}

/* ---------------------------------------------------------------------- */
/* Default config and writing */

void
pv_partition_config_free (PvPartitionConfig *config)
{
  if (config == NULL)
    return;
  for (int i = 0; i < config->n_streams; i++)
    g_free (config->streams[i].nodes);
  g_free (config->streams);
  g_free (config);
}

static PvPartitionConfig *
config_new (int n_streams)
{
  PvPartitionConfig *config = g_new0 (PvPartitionConfig, 1);

  config->n_streams = n_streams;
  config->streams = g_new0 (PvStream, MAX (n_streams, 1));
  return config;
}

static int
node_device (const int *node_devices, int id)
{
  return node_devices ? node_devices[id] : PV_DEVICE_CPU;
}

PvPartitionConfig *
pv_partition_config_default (const PvGraph *graph, const int *node_devices)
{
  g_autoptr (GArray) devices = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree int *stream_of = g_new0 (int, MAX (graph->n_nodes, 1));
  PvPartitionConfig *config;

  for (int i = 0; i < graph->n_nodes; i++)
    {
      int d = node_device (node_devices, graph->order[i]);
      guint s;
      for (s = 0; s < devices->len; s++)
        if (g_array_index (devices, int, s) == d)
          break;
      if (s == devices->len)
        g_array_append_val (devices, d);
      stream_of[i] = (int) s;
    }
  config = config_new ((int) devices->len);
  for (guint s = 0; s < devices->len; s++)
    {
      config->streams[s].device = g_array_index (devices, int, s);
      config->streams[s].nodes = g_new0 (int, graph->n_nodes);
    }
  for (int i = 0; i < graph->n_nodes; i++)
    {
      PvStream *st = &config->streams[stream_of[i]];
      st->nodes[st->n_nodes++] = graph->order[i];
    }
  return config;
}

int *
pv_partition_devices_for_ops (const PvGraph *graph, const char *const *op_types, int device)
{
  int *devices = g_new0 (int, MAX (graph->n_nodes, 1));

  for (int i = 0; i < graph->n_nodes; i++)
    for (int k = 0; op_types && op_types[k]; k++)
      if (strcmp (graph->nodes[i].op_type, op_types[k]) == 0)
        devices[i] = device;
  return devices;
}

/* A string as nlohmann::json's dump() writes it (ensure_ascii off). */
static void
append_json_string (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (const char *p = s; *p; p++)
    {
      guchar c = (guchar) *p;
      switch (c)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\b':
          g_string_append (out, "\\b");
          break;
        case '\f':
          g_string_append (out, "\\f");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
        }
    }
  g_string_append_c (out, '"');
}

/* The config text from each stream's names and device string, in the
 * layout pv_partition_config_to_json() promises. */
static char *
write_config (GPtrArray *const *names, const char *const *devices, int n_streams, gboolean pretty)
{
  GString *out = g_string_new (NULL);
  const char *nl = pretty ? "\n" : "";
  const char *sep = pretty ? ": " : ":";

  g_string_append_printf (out, "{%s", nl);
  if (n_streams > 0)
    {
      g_string_append_printf (out, "%s\"devices\"%s[%s", pretty ? "  " : "", sep, nl);
      for (int s = 0; s < n_streams; s++)
        {
          g_string_append (out, pretty ? "    " : "");
          append_json_string (out, devices[s]);
          g_string_append_printf (out, "%s%s", s + 1 < n_streams ? "," : "", nl);
        }
      g_string_append_printf (out, "%s],%s", pretty ? "  " : "", nl);
      g_string_append_printf (out, "%s\"streams\"%s[%s", pretty ? "  " : "", sep, nl);
      for (int s = 0; s < n_streams; s++)
        {
          g_string_append_printf (out, "%s[", pretty ? "    " : "");
          for (guint k = 0; k < names[s]->len; k++)
            {
              g_string_append_printf (out, "%s%s", k ? "," : "", pretty ? "\n      " : "");
              append_json_string (out, names[s]->pdata[k]);
            }
          g_string_append_printf (out, "%s]%s%s", pretty && names[s]->len ? "\n    " : "",
                                  s + 1 < n_streams ? "," : "", nl);
        }
      g_string_append_printf (out, "%s],%s", pretty ? "  " : "", nl);
    }
  g_string_append_printf (out, "%s\"type\"%s\"" DBP_TYPE "\"%s}%s", pretty ? "  " : "", sep, nl, nl);
  return g_string_free (out, FALSE);
}

char *
pv_partition_config_to_json (const PvGraph *graph, const PvPartitionConfig *config, gboolean pretty)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GStrvBuilder) devices = g_strv_builder_new ();
  g_auto (GStrv) device_strv = NULL;

  for (int s = 0; s < config->n_streams; s++)
    {
      GPtrArray *stream = g_ptr_array_sized_new ((guint) config->streams[s].n_nodes);
      g_autofree char *device = g_strdup_printf ("%d", config->streams[s].device);
      for (int k = 0; k < config->streams[s].n_nodes; k++)
        {
          const char *name = graph->nodes[config->streams[s].nodes[k]].name;
          if (!g_utf8_validate (name, -1, NULL))
            return NULL;
          g_ptr_array_add (stream, (gpointer) name);
        }
      g_ptr_array_add (names, stream);
      g_strv_builder_add (devices, device);
    }
  device_strv = g_strv_builder_end (devices);
  return write_config ((GPtrArray *const *) names->pdata, (const char *const *) device_strv, config->n_streams,
                       pretty);
}

/* ---------------------------------------------------------------------- */
/* JSON as nlohmann::json reads it */

typedef enum {
  JV_NULL,
  JV_FALSE,
  JV_TRUE,
  JV_NUMBER,
  JV_STRING,
  JV_ARRAY,
  JV_OBJECT,
} JKind;

typedef struct JVal JVal;

typedef struct {
  char *key;
  gsize len;
  gsize offset;
  guint index;     /* position in its object */
  JVal *value;
} JMember;

struct JVal {
  JKind kind;
  gsize offset;    /* first byte of the value */
  char *str;       /* JV_STRING: decoded, NUL-terminated (may hold NULs) */
  gsize len;
  GPtrArray *items; /* JV_ARRAY: JVal*; JV_OBJECT: JMember* in file order */
};

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
  GByteArray *token_string; /* what nlohmann quotes as "last read" */
  GString *buffer;          /* decoded string / number text */
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
  if (lx->current != -1)
    {
      guint8 b = (guint8) lx->current;
      g_byte_array_append (lx->token_string, &b, 1);
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
  if (lx->current != -1 && lx->token_string->len > 0)
    g_byte_array_set_size (lx->token_string, lx->token_string->len - 1);
}

static void
lex_reset (Lexer *lx)
{
  guint8 b = (guint8) lx->current;

  g_string_truncate (lx->buffer, 0);
  g_byte_array_set_size (lx->token_string, 0);
  g_byte_array_append (lx->token_string, &b, 1);
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

static Token
lex_string (Lexer *lx)
{
  gsize start = lx->current_offset;

  lex_reset (lx);
  for (;;)
    {
      int c = lex_get (lx);
      if (c == -1)
        return lex_error (lx, "invalid string: missing closing quote", start);
      if (c == '"')
        return T_STRING;
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
    lex_get (lx);
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

typedef struct {
  GPtrArray *all;   /* every JVal, for freeing */
  JVal *root;
  gboolean failed;
  gsize error_offset;
  char *error;      /* our description (after "not valid JSON: ") */
  char *ort_error;  /* nlohmann's what() */
  gboolean nul_end; /* the value is followed by a NUL byte and more text */
  gsize nul_offset;
} JDoc;

static void
jval_free (gpointer data)
{
  JVal *v = data;
  g_free (v->str);
  if (v->items)
    g_ptr_array_unref (v->items);
  g_free (v);
}

static void
jmember_free (gpointer data)
{
  JMember *m = data;
  g_free (m->key);
  g_free (m);
}

static void
jdoc_clear (JDoc *doc)
{
  g_clear_pointer (&doc->all, g_ptr_array_unref);
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
  for (guint i = 0; i < lx->token_string->len; i++)
    {
      guint8 b = lx->token_string->data[i];
      if (b <= 0x1F)
        g_string_append_printf (out, "<U+%04X>", b);
      else
        g_string_append_c (out, (char) b);
    }
}

/* Records a syntax error the way nlohmann reports it (parser.hpp's
 * exception_message) and the way we describe it. */
static void
parse_fail (JDoc *doc, const Lexer *lx, Token last, Token expected, const char *context, const char *ours)
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

static JVal *
jval_new (JDoc *doc, JKind kind, gsize offset)
{
  JVal *v = g_new0 (JVal, 1);

  v->kind = kind;
  v->offset = offset;
  if (kind == JV_ARRAY)
    v->items = g_ptr_array_new ();
  else if (kind == JV_OBJECT)
    v->items = g_ptr_array_new_with_free_func (jmember_free);
  g_ptr_array_add (doc->all, v);
  return v;
}

static void
add_key (JVal *obj, const Lexer *lx)
{
  JMember *m = g_new0 (JMember, 1);

  m->key = g_memdup2 (lx->buffer->str, lx->buffer->len + 1);
  m->len = lx->buffer->len;
  m->offset = lx->token_offset;
  m->index = obj->items->len;
  g_ptr_array_add (obj->items, m);
}

/* Parses @text as nlohmann::json::parse(stream) does (strict, no comments). */
static void
jdoc_parse (JDoc *doc, const char *text, gsize len)
{
  Lexer lx = { 0 };
  g_autoptr (GPtrArray) stack = g_ptr_array_new ();
  gboolean skip = FALSE;
  Token last;

  doc->all = g_ptr_array_new_with_free_func (jval_free);
  lx.text = (const guchar *) text;
  lx.len = len;
  lx.current = -1;
  lx.token_string = g_byte_array_new ();
  lx.buffer = g_string_new (NULL);

  last = lex_scan (&lx);
  for (;;)
    {
      if (!skip)
        {
          JVal *v = NULL;
          gsize at = lx.token_offset;
          gboolean container = FALSE;

          switch (last)
            {
            case T_BEGIN_OBJECT:
              v = jval_new (doc, JV_OBJECT, at);
              container = TRUE;
              break;
            case T_BEGIN_ARRAY:
              v = jval_new (doc, JV_ARRAY, at);
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
                v = jval_new (doc, JV_NUMBER, at);
              }
              break;
            case T_STRING:
              v = jval_new (doc, JV_STRING, at);
              v->str = g_memdup2 (lx.buffer->str, lx.buffer->len + 1);
              v->len = lx.buffer->len;
              break;
            case T_TRUE:
              v = jval_new (doc, JV_TRUE, at);
              break;
            case T_FALSE:
              v = jval_new (doc, JV_FALSE, at);
              break;
            case T_NULL:
              v = jval_new (doc, JV_NULL, at);
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
              JVal *parent = g_ptr_array_index (stack, stack->len - 1);
              if (parent->kind == JV_ARRAY)
                g_ptr_array_add (parent->items, v);
              else
                ((JMember *) g_ptr_array_index (parent->items, parent->items->len - 1))->value = v;
            }

          if (container && v->kind == JV_OBJECT)
            {
              if ((last = lex_scan (&lx)) != T_END_OBJECT)
                {
                  if (last != T_STRING)
                    {
                      parse_fail (doc, &lx, last, T_STRING, "object key", "expected a string key");
                      goto out;
                    }
                  add_key (v, &lx);
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
        JVal *top = g_ptr_array_index (stack, stack->len - 1);
        if (top->kind == JV_ARRAY)
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
            add_key (top, &lx);
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
  g_byte_array_unref (lx.token_string);
  g_string_free (lx.buffer, TRUE);
}

/* nlohmann's type_name(). */
static const char *
jkind_name (const JVal *v)
{
  switch (v->kind)
    {
    case JV_NULL:
      return "null";
    case JV_FALSE:
    case JV_TRUE:
      return "boolean";
    case JV_NUMBER:
      return "number";
    case JV_STRING:
      return "string";
    case JV_ARRAY:
      return "array";
    case JV_OBJECT:
      return "object";
    }
  return "discarded";
}

/* "a number", "an array", for our messages. */
static const char *
jkind_article (const JVal *v)
{
  switch (v->kind)
    {
    case JV_NULL:
      return "null";
    case JV_FALSE:
    case JV_TRUE:
      return "a boolean";
    case JV_NUMBER:
      return "a number";
    case JV_STRING:
      return "a string";
    case JV_ARRAY:
      return "an array";
    case JV_OBJECT:
      return "an object";
    }
  return "nothing";
}

/* The member ORT's json[key] finds: the last one with that key. */
static JMember *
object_get (const JVal *obj, const char *key)
{
  gsize n = strlen (key);

  for (guint i = obj->items->len; i-- > 0;)
    {
      JMember *m = obj->items->pdata[i];
      if (m->len == n && memcmp (m->key, key, n) == 0)
        return m;
    }
  return NULL;
}

static int
compare_keys (const JMember *x, const JMember *y)
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
  const JMember *x = *(const JMember *const *) a, *y = *(const JMember *const *) b;
  int c = compare_keys (x, y);

  return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* An object's members sorted by key; with duplicate keys only the last
 * (the one nlohmann keeps) when @last_only, else all of them. */
static GPtrArray *
sorted_members (const JVal *obj, gboolean last_only)
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
    if (i + 1 == all->len || compare_keys (all->pdata[i], all->pdata[i + 1]) != 0)
      g_ptr_array_add (out, all->pdata[i]);
  g_ptr_array_unref (all);
  return out;
}

/* What "for (auto &e : value)" visits in nlohmann::json: nothing for null
 * (or a missing value), the elements of an array, an object's values in key
 * order (the last of duplicate keys), and a primitive value itself. */
static GPtrArray *
iterate (const JVal *v)
{
  GPtrArray *out = g_ptr_array_new ();

  if (v == NULL || v->kind == JV_NULL)
    return out;
  if (v->kind == JV_ARRAY)
    {
      for (guint i = 0; i < v->items->len; i++)
        g_ptr_array_add (out, v->items->pdata[i]);
    }
  else if (v->kind == JV_OBJECT)
    {
      g_autoptr (GPtrArray) members = sorted_members (v, TRUE);
      for (guint i = 0; i < members->len; i++)
        g_ptr_array_add (out, ((JMember *) members->pdata[i])->value);
    }
  else
    g_ptr_array_add (out, (gpointer) v);
  return out;
}

/* ---------------------------------------------------------------------- */
/* Checking */

typedef struct {
  const JVal *val;     /* the stream as ORT iterates it */
  GPtrArray *names;    /* JVal* it visits */
  GArray *nodes;       /* node ids ORT puts in it, in run order */
  gboolean had_known;  /* lists some node of the main graph */
} CStream;

typedef struct {
  int stream;          /* where it is listed */
  const JVal *name;
} Occurrence;

typedef struct {
  const PvGraph *graph;
  const char *text;
  gsize len;
  const int *node_devices;
  GPtrArray *findings;
  GHashTable *nodes_by_name; /* ORT name -> GArray of node ids (in id order) */
} Checker;

static void
finding_free (gpointer data)
{
  PvPartitionFinding *f = data;
  g_free (f->message);
  g_free (f->ort);
  g_free (f);
}

G_GNUC_PRINTF (5, 6) static void
add (Checker *c, PvFindingSeverity severity, gsize offset, const char *ort, const char *format, ...)
{
  PvPartitionFinding *f = g_new0 (PvPartitionFinding, 1);
  va_list args;

  va_start (args, format);
  f->message = g_strdup_vprintf (format, args);
  va_end (args);
  f->severity = severity;
  f->offset = offset;
  f->ort = g_strdup (ort);
  g_ptr_array_add (c->findings, f);
}

static const GArray *
nodes_named (const Checker *c, const JVal *name)
{
  if (name->kind != JV_STRING || memchr (name->str, '\0', name->len) != NULL)
    return NULL;
  return g_hash_table_lookup (c->nodes_by_name, name->str);
}

static char *
device_text (int device)
{
  const char *n = pv_device_type_name (device);
  return n ? g_strdup_printf ("%s (%d)", n, device) : g_strdup_printf ("%d", device);
}

/* A "devices" entry as a number when it is all decimal digits (at most 9),
 * else G_MININT. */
static int
device_value (const JVal *d)
{
  if (d->len == 0 || d->len > 9)
    return d->len > 9 && strspn (d->str, "0123456789") == d->len ? G_MAXINT : G_MININT;
  for (gsize k = 0; k < d->len; k++)
    if (!g_ascii_isdigit (d->str[k]))
      return G_MININT;
  return atoi (d->str);
}

/* Edit distance counting a swap of two neighbouring bytes as one edit
 * (optimal string alignment); gives up above @limit. */
static guint
edit_distance (const char *a, gsize la, const char *b, gsize lb, guint limit)
{
  g_autofree guint *rows = g_new (guint, 3 * (lb + 1));
  guint *prev2 = rows, *prev = rows + lb + 1, *cur = rows + 2 * (lb + 1);

  for (gsize j = 0; j <= lb; j++)
    prev[j] = (guint) j;
  for (gsize i = 1; i <= la; i++)
    {
      guint best = cur[0] = (guint) i;
      for (gsize j = 1; j <= lb; j++)
        {
          guint v = prev[j - 1] + (a[i - 1] != b[j - 1]);
          v = MIN (v, prev[j] + 1);
          v = MIN (v, cur[j - 1] + 1);
          if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
            v = MIN (v, prev2[j - 2] + 1);
          cur[j] = v;
          best = MIN (best, v);
        }
      if (best > limit)
        return limit + 1;
      {
        guint *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
      }
    }
  return prev[lb];
}

/* Up to 3 main-graph names nearest to @name: "; did you mean "A", "B" or "C"?" or "". */
static char *
suggestions (const Checker *c, const char *name, gsize len)
{
  guint limit = len <= 3 ? 1 : MAX (2, (guint) (len / 3));
  int best[3] = { -1, -1, -1 };
  guint dist[3] = { G_MAXUINT, G_MAXUINT, G_MAXUINT };
  const PvGraph *g = c->graph;
  GString *out;
  int n = 0;

  if (len > 256)
    return g_strdup ("");
  for (int i = 0; i < g->n_nodes; i++)
    {
      const PvNode *node = &g->nodes[g->order[i]];
      gsize nl = strlen (node->name);
      guint d;
      gboolean dup = FALSE;
      if ((nl > len ? nl - len : len - nl) > limit || nl > 256)
        continue;
      for (int k = 0; k < 3; k++)
        dup |= best[k] >= 0 && strcmp (g->nodes[best[k]].name, node->name) == 0;
      if (dup)
        continue;
      d = edit_distance (name, len, node->name, nl, limit);
      if (d > limit)
        continue;
      for (int k = 0; k < 3; k++)
        if (d < dist[k])
          {
            for (int m = 2; m > k; m--)
              {
                dist[m] = dist[m - 1];
                best[m] = best[m - 1];
              }
            dist[k] = d;
            best[k] = g->order[i];
            break;
          }
    }
  out = g_string_new (NULL);
  for (int k = 0; k < 3; k++)
    n += best[k] >= 0;
  for (int k = 0; k < n; k++)
    {
      g_string_append (out, k == 0 ? "; did you mean " : k + 1 == n ? " or " : ", ");
      append_quoted (out, g->nodes[best[k]].name, strlen (g->nodes[best[k]].name));
    }
  if (n)
    g_string_append_c (out, '?');
  return g_string_free (out, FALSE);
}

/* Where a name that is not in the main graph lives in a subgraph, or NULL. */
static char *
find_in_subgraphs (const PvGraph *graph, const char *name)
{
  for (int i = 0; i < graph->n_nodes; i++)
    {
      const PvNode *node = &graph->nodes[i];
      for (int s = 0; s < node->n_subgraphs; s++)
        {
          const PvGraph *sub = node->subgraphs[s];
          char *deeper;
          if (pv_graph_find_node (sub, name) >= 0)
            {
              g_autofree char *owner = quoted_name (node->name);
              return g_strdup_printf ("the %s subgraph of node %s", sub->parent_attr ? sub->parent_attr : "?", owner);
            }
          deeper = find_in_subgraphs (sub, name);
          if (deeper)
            return deeper;
        }
    }
  return NULL;
}

static void
collect_names (Checker *c)
{
  c->nodes_by_name = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_array_unref);
  for (int i = 0; i < c->graph->n_nodes; i++)
    {
      const char *name = c->graph->nodes[i].name;
      GArray *ids = g_hash_table_lookup (c->nodes_by_name, name);
      if (ids == NULL)
        {
          ids = g_array_new (FALSE, FALSE, sizeof (int));
          g_hash_table_insert (c->nodes_by_name, (gpointer) name, ids);
        }
      g_array_append_val (ids, i);
    }
}

static int
compare_findings (gconstpointer a, gconstpointer b)
{
  const PvPartitionFinding *x = *(const PvPartitionFinding *const *) a, *y = *(const PvPartitionFinding *const *) b;
  return (x->offset > y->offset) - (x->offset < y->offset);
}

/* Sorts the findings by position (stably) and fills in lines and columns
 * in one pass over the text. */
static void
place_findings (Checker *c)
{
  gsize pos = 0;
  int line = 1, column = 1;

  g_ptr_array_sort (c->findings, compare_findings);
  for (guint i = 0; i < c->findings->len; i++)
    {
      PvPartitionFinding *f = c->findings->pdata[i];
      gsize target = MIN (f->offset, c->len);
      while (pos < target)
        {
          guchar b = (guchar) c->text[pos];
          gsize n = 1;
          if (b == '\n')
            {
              line++;
              column = 1;
              pos++;
              continue;
            }
          if (b >= 0x80)
            {
              gunichar ch = g_utf8_get_char_validated (c->text + pos, (gssize) (c->len - pos));
              if (ch != (gunichar) -1 && ch != (gunichar) -2)
                n = g_utf8_skip[b];
            }
          column++;
          pos = MIN (pos + n, target);
        }
      f->line = line;
      f->column = column;
    }
}

static char *
names_list (const PvGraph *graph, const GArray *nodes)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < nodes->len && i < MAX_ORDER_NAMES; i++)
    {
      const char *name = graph->nodes[g_array_index (nodes, int, i)].name;
      if (i)
        g_string_append (out, ", ");
      append_quoted (out, name, strlen (name));
    }
  if (nodes->len > MAX_ORDER_NAMES)
    g_string_append_printf (out, ", … (%u more)", nodes->len - MAX_ORDER_NAMES);
  return g_string_free (out, FALSE);
}

/* A stream's listed order against the order ORT runs it in. */
static void
check_order (Checker *c, int s, const CStream *st, const GHashTable *winner)
{
  g_autoptr (GHashTable) position = g_hash_table_new (g_str_hash, g_str_equal);
  int max_pos = -1, max_node = -1;

  for (guint k = 0; k < st->names->len; k++)
    {
      const JVal *name = st->names->pdata[k];
      const GArray *ids = nodes_named (c, name);
      if (ids == NULL || GPOINTER_TO_INT (g_hash_table_lookup ((GHashTable *) winner, name->str)) - 1 != s
          || g_hash_table_contains (position, name->str))
        continue;
      g_hash_table_insert (position, name->str, GINT_TO_POINTER ((int) k + 1));
    }
  for (guint i = 0; i < st->nodes->len; i++)
    {
      int id = g_array_index (st->nodes, int, i);
      int p = GPOINTER_TO_INT (g_hash_table_lookup (position, c->graph->nodes[id].name));
      if (p < max_pos)
        {
          /* @id is listed before @max_node but runs after it. */
          g_autofree char *listed_first = quoted_name (c->graph->nodes[id].name);
          g_autofree char *runs_first = quoted_name (c->graph->nodes[max_node].name);
          g_autofree char *order = names_list (c->graph, st->nodes);
          g_autofree char *ort = g_strdup_printf ("%s: %s", ORT_ORDER, order);
          add (c, PV_FINDING_WARNING, st->val->offset, ort,
               "streams[%d] lists %s before %s, but ONNX Runtime runs %s first", s, listed_first, runs_first,
               runs_first);
          return;
        }
      if (p > max_pos)
        {
          max_pos = p;
          max_node = id;
        }
    }
}

static char *
plural (int n, const char *one, const char *many)
{
  return g_strdup_printf ("%d %s", n, n == 1 ? one : many);
}

PvPartitionCheck *
pv_partition_config_check (const PvGraph *graph, const char *text, gsize len, const int *node_devices)
{
  PvPartitionCheck *check = g_new0 (PvPartitionCheck, 1);
  Checker c = { graph, text ? text : "", text ? len : 0, node_devices, NULL, NULL };
  JDoc doc = { 0 };
  const JVal *root, *streams_val = NULL, *devices_val = NULL;
  const JMember *type_m = NULL, *streams_m = NULL, *devices_m = NULL;
  g_autoptr (GPtrArray) stream_vals = NULL;
  g_autoptr (GPtrArray) device_vals = NULL;
  GArray *streams = NULL; /* CStream */
  const char *discard = NULL;    /* the warning ORT logs, if it discards */
  g_autofree char *discard_owned = NULL;
  g_autofree char *reject = NULL;
  int crash_stream = -1;

  c.findings = g_ptr_array_new_with_free_func (finding_free);
  collect_names (&c);
  jdoc_parse (&doc, c.text, c.len);

  /* 1. JSON. */
  if (doc.failed)
    {
      add (&c, PV_FINDING_ERROR, doc.error_offset, ORT_IGNORES_FILE, "not valid JSON: %s", doc.error);
      discard = doc.ort_error;
      goto verdict;
    }
  root = doc.root;
  if (doc.nul_end)
    add (&c, PV_FINDING_WARNING, doc.nul_offset, "stops reading at the NUL byte and ignores the rest",
         "a NUL byte ends the JSON here; the text after it is ignored");

  /* 2. The top level and "type". */
  if (root->kind != JV_OBJECT)
    {
      add (&c, PV_FINDING_ERROR, root->offset, ORT_IGNORES_FILE,
           "the top level must be an object "
           "{\"type\": \"" DBP_TYPE "\", \"streams\": [...], \"devices\": [...]}, not %s",
           jkind_article (root));
      if (root->kind == JV_NULL)
        discard = MSG_TYPE;
      else
        discard = discard_owned = g_strdup_printf (
          "[json.exception.type_error.305] cannot use operator[] with a string argument with %s", jkind_name (root));
      goto verdict;
    }
  {
    g_autoptr (GPtrArray) members = sorted_members (root, FALSE);
    for (guint i = 0; i < members->len; i++)
      {
        const JMember *m = members->pdata[i];
        g_autofree char *key = quoted (m->key, m->len);
        gboolean known = m->len == strlen (m->key)
                         && (strcmp (m->key, "type") == 0 || strcmp (m->key, "streams") == 0
                             || strcmp (m->key, "devices") == 0);

        if (!known)
          add (&c, PV_FINDING_WARNING, m->offset, "ignores the key", "unknown key %s", key);
        else if (i + 1 < members->len && compare_keys (m, members->pdata[i + 1]) == 0)
          add (&c, PV_FINDING_WARNING, m->offset, "uses the last one and ignores this one", "%s is given again later",
               key);
      }
  }
  type_m = object_get (root, "type");
  streams_m = object_get (root, "streams");
  devices_m = object_get (root, "devices");
  streams_val = streams_m ? streams_m->value : NULL;
  devices_val = devices_m ? devices_m->value : NULL;
  if (type_m == NULL)
    {
      add (&c, PV_FINDING_ERROR, root->offset, ORT_IGNORES_FILE, "missing \"type\": \"" DBP_TYPE "\"");
      discard = MSG_TYPE;
    }
  else if (type_m->value->kind != JV_STRING)
    {
      add (&c, PV_FINDING_ERROR, type_m->value->offset, ORT_IGNORES_FILE, "\"type\" must be \"" DBP_TYPE "\", not %s",
           jkind_article (type_m->value));
      discard = MSG_TYPE;
    }
  else if (type_m->value->len != strlen (DBP_TYPE) || memcmp (type_m->value->str, DBP_TYPE, type_m->value->len) != 0)
    {
      g_autofree char *got = quoted (type_m->value->str, type_m->value->len);
      add (&c, PV_FINDING_ERROR, type_m->value->offset, ORT_IGNORES_FILE, "\"type\" must be \"" DBP_TYPE "\", not %s",
           got);
      discard = MSG_TYPE;
    }

  /* 3. "streams" and "devices", as ORT iterates them; every value it turns
   * into a std::string must be a string. */
  stream_vals = iterate (streams_val);
  streams = g_array_new (FALSE, TRUE, sizeof (CStream));
  if (streams_val && streams_val->kind == JV_STRING)
    add (&c, PV_FINDING_WARNING, streams_val->offset, "reads it as one stream with one node",
         "\"streams\" should be an array of streams (arrays of node names), not a string");
  else if (streams_val && streams_val->kind == JV_OBJECT)
    add (&c, PV_FINDING_WARNING, streams_val->offset, "reads the object's values, in key order, as the streams",
         "\"streams\" should be an array of streams, not an object");
  else if (streams_val && streams_val->kind == JV_NULL)
    add (&c, PV_FINDING_WARNING, streams_val->offset, "reads null as no streams", "\"streams\" is null");
  for (guint i = 0; i < stream_vals->len; i++)
    {
      CStream st = { stream_vals->pdata[i], NULL, g_array_new (FALSE, FALSE, sizeof (int)), FALSE };
      const JVal *sv = st.val;

      st.names = iterate (sv);
      g_array_append_val (streams, st);
      if (sv == streams_val && (sv->kind == JV_NUMBER || sv->kind == JV_TRUE || sv->kind == JV_FALSE))
        {
          add (&c, PV_FINDING_ERROR, sv->offset, ORT_IGNORES_FILE,
               "\"streams\" must be an array of streams (arrays of node names), not %s", jkind_article (sv));
          if (!discard)
            discard = discard_owned =
              g_strdup_printf ("[json.exception.type_error.302] type must be string, but is %s", jkind_name (sv));
          continue;
        }
      if (sv == streams_val)
        continue; /* a string: one stream, one name */
      switch (sv->kind)
        {
        case JV_STRING:
          add (&c, PV_FINDING_WARNING, sv->offset, "reads it as a stream of one node",
               "streams[%u] should be an array of node names, not a string", i);
          continue;
        case JV_OBJECT:
          add (&c, PV_FINDING_WARNING, sv->offset, "reads the object's values, in key order, as the node names",
               "streams[%u] should be an array of node names, not an object", i);
          break;
        case JV_NULL:
          add (&c, PV_FINDING_WARNING, sv->offset, "reads null as an empty stream", "streams[%u] is null", i);
          continue;
        case JV_NUMBER:
        case JV_TRUE:
        case JV_FALSE:
          add (&c, PV_FINDING_ERROR, sv->offset, ORT_IGNORES_FILE,
               "streams[%u] must be an array of node names, not %s", i, jkind_article (sv));
          if (!discard)
            discard = discard_owned =
              g_strdup_printf ("[json.exception.type_error.302] type must be string, but is %s", jkind_name (sv));
          continue;
        default:
          break;
        }
      for (guint k = 0; k < st.names->len; k++)
        {
          const JVal *name = st.names->pdata[k];
          if (name->kind == JV_STRING)
            continue;
          add (&c, PV_FINDING_ERROR, name->offset, ORT_IGNORES_FILE,
               "streams[%u][%u] must be a node name (a string), not %s", i, k, jkind_article (name));
          if (!discard)
            discard = discard_owned =
              g_strdup_printf ("[json.exception.type_error.302] type must be string, but is %s", jkind_name (name));
        }
    }

  device_vals = iterate (devices_val);
  if (devices_val && devices_val->kind == JV_STRING)
    add (&c, PV_FINDING_WARNING, devices_val->offset, "reads it as one device type",
         "\"devices\" should be an array of device types, not a string");
  else if (devices_val && devices_val->kind == JV_OBJECT)
    add (&c, PV_FINDING_WARNING, devices_val->offset, "reads the object's values, in key order, as the device types",
         "\"devices\" should be an array of device types, not an object");
  else if (devices_val && devices_val->kind == JV_NULL)
    add (&c, PV_FINDING_WARNING, devices_val->offset, "reads null as no device types", "\"devices\" is null");
  for (guint i = 0; i < device_vals->len; i++)
    {
      const JVal *d = device_vals->pdata[i];
      if (d->kind == JV_STRING)
        continue;
      if (d == devices_val)
        add (&c, PV_FINDING_ERROR, d->offset, ORT_IGNORES_FILE,
             "\"devices\" must be an array of device types such as [\"0\"], not %s", jkind_article (d));
      else
        add (&c, PV_FINDING_ERROR, d->offset, ORT_IGNORES_FILE, "devices[%u] must be a string such as \"0\", not %s", i,
             jkind_article (d));
      if (!discard)
        discard = discard_owned =
          g_strdup_printf ("[json.exception.type_error.302] type must be string, but is %s", jkind_name (d));
    }
  if (discard)
    goto verdict;

  /* 4. Counts. */
  if (streams->len != device_vals->len)
    {
      g_autofree char *ns = plural ((int) streams->len, "stream", "streams");
      g_autofree char *nd = plural ((int) device_vals->len, "device type", "device types");
      g_autofree char *ort = g_strdup_printf ("%s: %s", ORT_REFUSES, MSG_COUNT);
      if (streams_m == NULL)
        add (&c, PV_FINDING_ERROR, root->offset, ort, "missing \"streams\": \"devices\" lists %s", nd);
      else if (devices_m == NULL)
        add (&c, PV_FINDING_ERROR, root->offset, ort,
             "missing \"devices\": \"streams\" lists %s, and \"devices\" needs one device type for each", ns);
      else
        add (&c, PV_FINDING_ERROR, devices_val->offset, ort, "\"devices\" lists %s but \"streams\" lists %s", nd, ns);
      reject = g_strdup (MSG_COUNT);
      goto verdict;
    }
  if (streams->len == 0)
    {
      add (&c, PV_FINDING_WARNING, streams_m ? streams_val->offset : root->offset,
           "partitions the graph itself (its default partition)", "the config lists no streams");
      check->effective_is_default = TRUE;
      goto verdict;
    }

  /* 5. Devices: ORT reads them with atoi() and only counts them. */
  for (guint i = 0; i < device_vals->len; i++)
    {
      const JVal *d = device_vals->pdata[i];
      g_autofree char *shown = quoted (d->str, d->len);
      int value = device_value (d);
      if (value == G_MININT)
        {
          g_autofree char *ort =
            g_strdup_printf ("reads it with atoi() as %d and only counts it",
                             memchr (d->str, '\0', d->len) || d->len > 32 ? 0 : atoi (d->str));
          add (&c, PV_FINDING_WARNING, d->offset, ort, "devices[%u] %s is not a decimal device type", i, shown);
        }
      else if (pv_device_type_name (value) == NULL)
        add (&c, PV_FINDING_WARNING, d->offset, "only counts it: a stream runs on the device of its first node",
             "devices[%u] %s is not a device type ONNX Runtime knows (0 CPU, 1 GPU, 2 FPGA, 3 NPU)", i, shown);
    }

  /* 6. Names: where each goes. ORT maps name -> stream, the last stream
   * listing a name winning, then walks the nodes in topological order. */
  {
    g_autoptr (GHashTable) winner = g_hash_table_new (g_str_hash, g_str_equal); /* name -> stream + 1 */
    g_autoptr (GHashTable) first_seen = g_hash_table_new (g_str_hash, g_str_equal);
    /* "stream\x1fname" -> how often that stream lists the name */
    g_autoptr (GHashTable) seen_in = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr (GHashTable) suggested = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
    g_autoptr (GArray) occurrences = g_array_new (FALSE, FALSE, sizeof (Occurrence));
    int n_missing = 0;
    guint n_suggested = 0;

    for (guint s = 0; s < streams->len; s++)
      {
        CStream *st = &g_array_index (streams, CStream, s);
        for (guint k = 0; k < st->names->len; k++)
          {
            const JVal *name = st->names->pdata[k];
            const GArray *ids = nodes_named (&c, name);
            Occurrence o = { (int) s, name };
            if (ids == NULL)
              {
                g_autofree char *shown = quoted (name->str, name->len);
                gboolean has_nul = memchr (name->str, '\0', name->len) != NULL;
                g_autofree char *sub = has_nul ? NULL : find_in_subgraphs (graph, name->str);
                if (sub)
                  add (&c, PV_FINDING_WARNING, name->offset,
                       "ignores the name: subgraphs ignore the config and run as one stream each",
                       "%s is a node of %s, not of the main graph", shown, sub);
                else
                  {
                    const char *hint = g_hash_table_lookup (suggested, shown);
                    if (hint == NULL && n_suggested < MAX_SUGGESTED_NAMES)
                      {
                        n_suggested++;
                        hint = has_nul ? g_strdup ("") : suggestions (&c, name->str, name->len);
                        g_hash_table_insert (suggested, g_strdup (shown), (gpointer) hint);
                      }
                    add (&c, PV_FINDING_WARNING, name->offset, "ignores the name",
                         "no node named %s in the main graph%s", shown, hint ? hint : "");
                  }
                continue;
              }
            st->had_known = TRUE;
            g_hash_table_insert (winner, name->str, GINT_TO_POINTER ((int) s + 1));
            g_array_append_val (occurrences, o);
            if (!g_hash_table_contains (first_seen, name->str))
              {
                g_hash_table_insert (first_seen, name->str, (gpointer) name);
                if (ids->len > 1)
                  {
                    g_autofree char *shown = quoted (name->str, name->len);
                    add (&c, PV_FINDING_WARNING, name->offset, "puts all of them in the stream that lists the name",
                         "%s names %u nodes of the main graph (ONNX Runtime names unnamed nodes <OpType><n> "
                         "without checking for clashes)",
                         shown, ids->len);
                  }
              }
          }
      }

    /* Duplicates: a second entry in the winning stream, or entries in
     * streams that lose to a later one. */
    for (guint i = 0; i < occurrences->len; i++)
      {
        const Occurrence *o = &g_array_index (occurrences, Occurrence, i);
        int win = GPOINTER_TO_INT (g_hash_table_lookup (winner, o->name->str)) - 1;
        g_autofree char *key = g_strdup_printf ("%d\x1f%s", o->stream, o->name->str);
        g_autofree char *shown = quoted (o->name->str, o->name->len);
        guint count = GPOINTER_TO_UINT (g_hash_table_lookup (seen_in, key)) + 1;
        /* A name that several nodes share is listed once per node by ORT
         * itself: that many entries are not duplicates. */
        gboolean again = count > MAX (1, nodes_named (&c, o->name)->len);

        g_hash_table_replace (seen_in, g_steal_pointer (&key), GUINT_TO_POINTER (count));
        if (again)
          add (&c, PV_FINDING_WARNING, o->name->offset, "counts it once", "%s is listed twice in streams[%d]", shown,
               o->stream);
        else if (o->stream != win)
          {
            g_autofree char *ort =
              g_strdup_printf ("puts it in streams[%d], the last stream that lists it, and ignores this entry", win);
            add (&c, PV_FINDING_WARNING, o->name->offset, ort, "%s is also listed in streams[%d]", shown, win);
          }
      }

    /* Each node in ORT's order. */
    for (int i = 0; i < graph->n_nodes; i++)
      {
        int id = graph->order[i];
        const PvNode *node = &graph->nodes[id];
        int s = GPOINTER_TO_INT (g_hash_table_lookup (winner, node->name)) - 1;
        if (s >= 0)
          {
            g_array_append_val (g_array_index (streams, CStream, s).nodes, id);
            continue;
          }
        if (n_missing == 0)
          reject = g_strdup_printf ("Failed to find node \"%s\" in node-stream map", node->name);
        if (n_missing < MAX_MISSING_FINDINGS)
          {
            g_autofree char *shown = quoted_name (node->name);
            g_autofree char *ort = n_missing == 0 ? g_strdup_printf ("%s: %s", ORT_REFUSES, reject)
                                                  : g_strdup (ORT_REFUSES " (it names only the first missing node)");
            add (&c, PV_FINDING_ERROR, streams_val->offset, ort, "node %s (%s) is in no stream", shown, node->op_type);
          }
        n_missing++;
      }
    if (n_missing > MAX_MISSING_FINDINGS)
      add (&c, PV_FINDING_ERROR, streams_val->offset, ORT_REFUSES " (it names only the first missing node)",
           "%d more nodes of the main graph are in no stream", n_missing - MAX_MISSING_FINDINGS);

    /* Streams ORT builds: mixed devices (an ORT_ENFORCE, before anything
     * touches an empty stream), devices that disagree, order. */
    for (guint s = 0; s < streams->len; s++)
      {
        CStream *st = &g_array_index (streams, CStream, s);
        const JVal *d = device_vals->pdata[s];
        int first, dev;

        if (st->nodes->len == 0)
          continue;
        first = g_array_index (st->nodes, int, 0);
        dev = node_device (node_devices, first);
        for (guint k = 1; k < st->nodes->len; k++)
          {
            int id = g_array_index (st->nodes, int, k);
            if (node_device (node_devices, id) != dev)
              {
                g_autofree char *a = quoted_name (graph->nodes[first].name);
                g_autofree char *b = quoted_name (graph->nodes[id].name);
                g_autofree char *da = device_text (dev);
                g_autofree char *db = device_text (node_device (node_devices, id));
                g_autofree char *ort = reject ? g_strdup (ORT_REFUSES " (for another error first)")
                                              : g_strdup_printf ("%s: %s", ORT_REFUSES, MSG_MIXED);
                add (&c, PV_FINDING_ERROR, st->val->offset, ort,
                     "streams[%u] mixes devices: %s runs on %s but %s on %s", s, a, da, b, db);
                if (reject == NULL)
                  reject = g_strdup (MSG_MIXED);
                break;
              }
          }
        if (pv_device_type_name (device_value (d)) && device_value (d) != dev)
          {
            g_autofree char *shown = quoted (d->str, d->len);
            g_autofree char *actual = device_text (dev);
            g_autofree char *fname = quoted_name (graph->nodes[first].name);
            add (&c, PV_FINDING_WARNING, d->offset,
                 "takes each stream's device from its first node, not from \"devices\"",
                 "devices[%u] is %s (%s), but streams[%u] runs on %s, the device of its first node %s", s, shown,
                 pv_device_type_name (device_value (d)), s, actual, fname);
          }
        check_order (&c, (int) s, st, winner);
      }
    for (guint s = 0; s < streams->len; s++)
      {
        CStream *st = &g_array_index (streams, CStream, s);
        const char *ort = reject ? ORT_CRASHES_LATER : ORT_CRASHES;

        if (st->nodes->len > 0)
          continue;
        if (st->names->len == 0)
          add (&c, PV_FINDING_ERROR, st->val->offset, ort, "streams[%u] is empty", s);
        else if (!st->had_known)
          add (&c, PV_FINDING_ERROR, st->val->offset, ort,
               "streams[%u] is empty for ONNX Runtime: none of its names is a node of the main graph", s);
        else
          add (&c, PV_FINDING_ERROR, st->val->offset, ort,
               "streams[%u] is empty for ONNX Runtime: every node it lists is also in a later stream, which wins", s);
        if (crash_stream < 0)
          crash_stream = (int) s;
      }
  }

verdict:
  if (discard)
    {
      check->verdict = PV_ORT_DISCARDS;
      check->ort_message = g_strdup (discard);
      check->effective_is_default = TRUE;
    }
  else if (reject)
    {
      check->verdict = PV_ORT_REJECTS;
      check->ort_message = g_steal_pointer (&reject);
    }
  else if (crash_stream >= 0)
    check->verdict = PV_ORT_CRASHES;
  else
    check->verdict = PV_ORT_ACCEPTS;

  if (check->effective_is_default)
    check->effective = pv_partition_config_default (graph, node_devices);
  else if (check->verdict == PV_ORT_ACCEPTS)
    {
      check->effective = config_new ((int) streams->len);
      for (guint s = 0; s < streams->len; s++)
        {
          CStream *st = &g_array_index (streams, CStream, s);
          PvStream *out = &check->effective->streams[s];
          out->n_nodes = (int) st->nodes->len;
          out->nodes = g_memdup2 (st->nodes->data, sizeof (int) * MAX (st->nodes->len, 1));
          out->device = node_device (node_devices, g_array_index (st->nodes, int, 0));
        }
    }
  else
    check->effective = config_new (0);

  {
    g_autofree char *n = plural (check->effective->n_streams, "stream", "streams");
    switch (check->verdict)
      {
      case PV_ORT_ACCEPTS:
        check->summary = check->effective_is_default
                           ? g_strdup_printf ("ONNX Runtime 1.30 will accept this config; it lists no streams, so ONNX "
                                              "Runtime uses its default partition (%s).",
                                              n)
                           : g_strdup_printf ("ONNX Runtime 1.30 will accept this config and run %s.", n);
        break;
      case PV_ORT_REJECTS:
        check->summary =
          g_strdup_printf ("ONNX Runtime 1.30 will refuse to create the session: %s", check->ort_message);
        break;
      case PV_ORT_DISCARDS:
        check->summary = g_strdup_printf ("ONNX Runtime 1.30 will ignore this config (it logs the warning \"%s\") "
                                          "and use its default partition (%s).",
                                          check->ort_message, n);
        break;
      case PV_ORT_CRASHES:
        check->summary = g_strdup_printf ("ONNX Runtime 1.30 will crash (SIGSEGV) while creating the session: "
                                          "streams[%d] has no node of the main graph.",
                                          crash_stream);
        break;
      }
  }

  place_findings (&c);
  check->n_findings = (int) c.findings->len;
  check->findings = g_new0 (PvPartitionFinding, MAX (c.findings->len, 1));
  for (guint i = 0; i < c.findings->len; i++)
    {
      PvPartitionFinding *f = c.findings->pdata[i];
      check->findings[i] = *f;
      f->message = f->ort = NULL;
    }

  if (streams)
    {
      for (guint s = 0; s < streams->len; s++)
        {
          CStream *st = &g_array_index (streams, CStream, s);
          g_ptr_array_unref (st->names);
          g_array_unref (st->nodes);
        }
      g_array_unref (streams);
    }
  g_ptr_array_unref (c.findings);
  g_hash_table_unref (c.nodes_by_name);
  jdoc_clear (&doc);
  return check;
}

void
pv_partition_check_free (PvPartitionCheck *check)
{
  if (check == NULL)
    return;
  for (int i = 0; i < check->n_findings; i++)
    {
      g_free (check->findings[i].message);
      g_free (check->findings[i].ort);
    }
  g_free (check->findings);
  g_free (check->ort_message);
  g_free (check->summary);
  pv_partition_config_free (check->effective);
  g_free (check);
}

gboolean
pv_partition_check_has_errors (const PvPartitionCheck *check)
{
  for (int i = 0; i < check->n_findings; i++)
    if (check->findings[i].severity == PV_FINDING_ERROR)
      return TRUE;
  return FALSE;
}

/* ---------------------------------------------------------------------- */
/* Moving nodes between streams */

G_DEFINE_QUARK (pv-partition-error-quark, pv_partition_error)

/* 1-based line and column (in characters) of byte @offset. */
static void
text_position (const char *text, gsize len, gsize offset, int *line, int *column)
{
  *line = *column = 1;
  for (gsize i = 0; i < MIN (offset, len); i++)
    {
      if (text[i] == '\n')
        {
          (*line)++;
          *column = 1;
        }
      else if (((guchar) text[i] & 0xC0) != 0x80)
        (*column)++;
    }
}

/* Pretty when the JSON value spans several lines (as the editor's Format
 * button and ORT's dump(2) write it), compact otherwise. */
static gboolean
text_is_pretty (const char *text, gsize len)
{
  gsize end = len;

  while (end > 0 && g_ascii_isspace (text[end - 1]))
    end--;
  return memchr (text, '\n', end) != NULL;
}

/* TRUE if @v is an array of strings without NUL bytes. */
static gboolean
is_string_array (const JVal *v)
{
  if (v == NULL || v->kind != JV_ARRAY)
    return FALSE;
  for (guint i = 0; i < v->items->len; i++)
    {
      const JVal *e = v->items->pdata[i];
      if (e->kind != JV_STRING || memchr (e->str, '\0', e->len) != NULL)
        return FALSE;
    }
  return TRUE;
}

/* Where each name first runs in graph->order (several nodes may share one). */
static GHashTable *
name_positions (const PvGraph *graph)
{
  GHashTable *pos = g_hash_table_new (g_str_hash, g_str_equal);

  for (int i = graph->n_nodes; i-- > 0;)
    g_hash_table_insert (pos, (gpointer) graph->nodes[graph->order[i]].name, GINT_TO_POINTER (i + 1));
  return pos;
}

/* The streams and devices of @doc, as ORT reads a well-formed config; FALSE
 * with @error for anything that is not one. */
static gboolean
read_streams (const JDoc *doc, const char *text, gsize len, GPtrArray *names, GPtrArray *devices, GError **error)
{
  const JVal *root = doc->root;
  const JMember *type_m, *streams_m, *devices_m;
  const JVal *sv, *dv;
  int line, column;

  if (doc->failed)
    {
      text_position (text, len, doc->error_offset, &line, &column);
      g_set_error (error, PV_PARTITION_ERROR, PV_PARTITION_ERROR_INVALID,
                   "The partition config is not valid JSON (line %d, column %d: %s)", line, column, doc->error);
      return FALSE;
    }
  if (root->kind != JV_OBJECT)
    {
      g_set_error (error, PV_PARTITION_ERROR, PV_PARTITION_ERROR_INVALID,
                   "The partition config must be an object {\"type\": \"" DBP_TYPE "\", \"streams\": [...], "
                   "\"devices\": [...]}, not %s",
                   jkind_article (root));
      return FALSE;
    }
  type_m = object_get (root, "type");
  if (type_m == NULL || type_m->value->kind != JV_STRING || type_m->value->len != strlen (DBP_TYPE)
      || memcmp (type_m->value->str, DBP_TYPE, type_m->value->len) != 0)
    {
      g_set_error (error, PV_PARTITION_ERROR, PV_PARTITION_ERROR_INVALID,
                   "The partition config's \"type\" must be \"" DBP_TYPE "\"");
      return FALSE;
    }
  streams_m = object_get (root, "streams");
  devices_m = object_get (root, "devices");
  sv = streams_m ? streams_m->value : NULL;
  dv = devices_m ? devices_m->value : NULL;
  if (sv != NULL && sv->kind != JV_NULL)
    {
      gboolean ok = sv->kind == JV_ARRAY;
      for (guint i = 0; ok && i < sv->items->len; i++)
        ok = is_string_array (sv->items->pdata[i]);
      if (!ok)
        {
          text_position (text, len, sv->offset, &line, &column);
          g_set_error (error, PV_PARTITION_ERROR, PV_PARTITION_ERROR_INVALID,
                       "The partition config's \"streams\" (line %d, column %d) must be an array of arrays of node "
                       "names",
                       line, column);
          return FALSE;
        }
      for (guint i = 0; i < sv->items->len; i++)
        {
          const JVal *stream = sv->items->pdata[i];
          GPtrArray *list = g_ptr_array_new ();
          for (guint k = 0; k < stream->items->len; k++)
            g_ptr_array_add (list, ((JVal *) stream->items->pdata[k])->str);
          g_ptr_array_add (names, list);
        }
    }
  if (dv != NULL && dv->kind != JV_NULL)
    {
      if (!is_string_array (dv))
        {
          text_position (text, len, dv->offset, &line, &column);
          g_set_error (error, PV_PARTITION_ERROR, PV_PARTITION_ERROR_INVALID,
                       "The partition config's \"devices\" (line %d, column %d) must be an array of device types "
                       "such as [\"0\"]",
                       line, column);
          return FALSE;
        }
      for (guint i = 0; i < dv->items->len; i++)
        g_ptr_array_add (devices, g_strdup (((JVal *) dv->items->pdata[i])->str));
    }
  if (names->len != devices->len)
    {
      g_set_error (error, PV_PARTITION_ERROR, PV_PARTITION_ERROR_INVALID,
                   "The partition config lists %u streams but %u device types; ONNX Runtime needs one device type "
                   "per stream",
                   names->len, devices->len);
      return FALSE;
    }
  return TRUE;
}

/* Inserts @name into @list before the first listed node that runs after it,
 * so that the stream stays in the order ORT runs it. */
static void
insert_in_order (GPtrArray *list, const char *name, GHashTable *positions)
{
  int p = GPOINTER_TO_INT (g_hash_table_lookup (positions, name));
  guint at = list->len;

  for (guint k = 0; k < list->len; k++)
    {
      int q = GPOINTER_TO_INT (g_hash_table_lookup (positions, list->pdata[k]));
      if (q > p)
        {
          at = k;
          break;
        }
    }
  g_ptr_array_insert (list, (gint) at, (gpointer) name);
}

gboolean
pv_partition_config_move_nodes (const PvGraph *graph, const int *node_devices, const char *text, gsize len,
                                const char *const *nodes, int stream, const char *device, char **new_text,
                                GError **error)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GPtrArray) devices = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) positions = name_positions (graph);
  g_autoptr (GHashTable) moving = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) order = g_ptr_array_new (); /* the names to move, once each */
  g_autoptr (GHashTable) source_of = g_hash_table_new (g_str_hash, g_str_equal); /* name -> stream + 1 */
  g_autoptr (GPtrArray) kept_names = g_ptr_array_new ();   /* borrowed from names */
  g_autoptr (GPtrArray) kept_devices = g_ptr_array_new (); /* borrowed from devices */
  g_autofree gboolean *had_node = NULL;
  JDoc doc = { 0 };
  gboolean pretty;

  g_return_val_if_fail (graph != NULL, FALSE);
  g_return_val_if_fail (nodes != NULL, FALSE);
  g_return_val_if_fail (new_text != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  text = text ? text : "";
  jdoc_parse (&doc, text, len);
  if (!read_streams (&doc, text, len, names, devices, error))
    {
      jdoc_clear (&doc);
      return FALSE;
    }
  pretty = text_is_pretty (text, len);

  for (int i = 0; nodes[i]; i++)
    {
      if (!g_hash_table_contains (positions, nodes[i]))
        {
          g_autofree char *shown = quoted_name (nodes[i]);
          g_set_error (error, PV_PARTITION_ERROR, PV_PARTITION_ERROR_UNKNOWN_NODE,
                       "There is no node named %s in the main graph", shown);
          jdoc_clear (&doc);
          return FALSE;
        }
      if (g_hash_table_add (moving, (gpointer) nodes[i]))
        g_ptr_array_add (order, (gpointer) nodes[i]);
    }
  if (order->len == 0)
    {
      g_set_error (error, PV_PARTITION_ERROR, PV_PARTITION_ERROR_UNKNOWN_NODE, "No node to move");
      jdoc_clear (&doc);
      return FALSE;
    }

  /* A config without streams means ORT's default partition: spell it out,
   * so that stream numbers mean the streams ORT runs. */
  if (names->len == 0)
    {
      g_autoptr (PvPartitionConfig) def = pv_partition_config_default (graph, node_devices);
      for (int s = 0; s < def->n_streams; s++)
        {
          GPtrArray *list = g_ptr_array_new ();
          for (int k = 0; k < def->streams[s].n_nodes; k++)
            g_ptr_array_add (list, (gpointer) graph->nodes[def->streams[s].nodes[k]].name);
          g_ptr_array_add (names, list);
          g_ptr_array_add (devices, g_strdup_printf ("%d", def->streams[s].device));
        }
    }
  if (stream < PV_PARTITION_NEW_STREAM || stream >= (int) names->len)
    {
      g_set_error (error, PV_PARTITION_ERROR, PV_PARTITION_ERROR_STREAM,
                   "There is no stream %d: the partition config has streams 0 to %d", stream, (int) names->len - 1);
      jdoc_clear (&doc);
      return FALSE;
    }

  /* Take the names out of every stream that lists them. ORT runs a node in
   * the last stream that lists it: that is where it comes from. */
  had_node = g_new0 (gboolean, names->len + 1);
  for (guint s = 0; s < names->len; s++)
    {
      GPtrArray *list = names->pdata[s];
      for (guint k = 0; k < list->len;)
        {
          const char *name = list->pdata[k];
          had_node[s] |= g_hash_table_contains (positions, name);
          if (g_hash_table_contains (moving, name))
            {
              g_hash_table_insert (source_of, (gpointer) name, GINT_TO_POINTER ((int) s + 1));
              g_ptr_array_remove_index (list, k);
            }
          else
            k++;
        }
    }

  /* Where the nodes go. */
  if (stream == PV_PARTITION_NEW_STREAM)
    {
      char *dev = NULL;
      if (device)
        dev = g_strdup (device);
      for (guint i = 0; dev == NULL && i < order->len; i++)
        {
          int s = GPOINTER_TO_INT (g_hash_table_lookup (source_of, order->pdata[i])) - 1;
          if (s >= 0)
            dev = g_strdup (devices->pdata[s]);
        }
      if (dev == NULL)
        dev = g_strdup_printf ("%d", node_device (node_devices, pv_graph_find_node (graph, order->pdata[0])));
      g_ptr_array_add (names, g_ptr_array_new ());
      g_ptr_array_add (devices, dev);
      stream = (int) names->len - 1;
    }
  for (guint i = 0; i < order->len; i++)
    insert_in_order (names->pdata[stream], order->pdata[i], positions);

  /* Drop the streams the move emptied of main-graph nodes: ORT crashes on a
   * stream without nodes. Later streams move down by one. */
  for (guint s = 0; s < names->len; s++)
    {
      GPtrArray *list = names->pdata[s];
      gboolean has_node = FALSE;
      for (guint k = 0; k < list->len && !has_node; k++)
        has_node = g_hash_table_contains (positions, list->pdata[k]);
      if (had_node[s] && !has_node)
        continue;
      g_ptr_array_add (kept_names, list);
      g_ptr_array_add (kept_devices, devices->pdata[s]);
    }
  *new_text = write_config ((GPtrArray *const *) kept_names->pdata, (const char *const *) kept_devices->pdata,
                            (int) kept_names->len, pretty);
  /* A compact config that ended its file with a newline keeps it. */
  if (!pretty && len > 0 && text[len - 1] == '\n')
    {
      char *with_nl = g_strconcat (*new_text, "\n", NULL);
      g_free (*new_text);
      *new_text = with_nl;
    }
  jdoc_clear (&doc);
  return TRUE;
}
