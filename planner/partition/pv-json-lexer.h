/* pv-json-lexer.h: the tokens of JSON text as nlohmann::json's lexer
 * (lexer.hpp) reads them, with its position bookkeeping and its error
 * texts, and the byte offset of each token. Internal to pv-json-doc.c,
 * whose parser reads the tokens. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  PV_JSON_T_UNINITIALIZED,
  PV_JSON_T_TRUE,
  PV_JSON_T_FALSE,
  PV_JSON_T_NULL,
  PV_JSON_T_STRING,
  PV_JSON_T_NUMBER,
  PV_JSON_T_BEGIN_ARRAY,
  PV_JSON_T_BEGIN_OBJECT,
  PV_JSON_T_END_ARRAY,
  PV_JSON_T_END_OBJECT,
  PV_JSON_T_NAME_SEPARATOR,
  PV_JSON_T_VALUE_SEPARATOR,
  PV_JSON_T_PARSE_ERROR,
  PV_JSON_T_END_OF_INPUT,
  PV_JSON_T_LITERAL_OR_VALUE,
} PvJsonToken;

/* The lexer's state; the parser reads the fields documented below. */
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
  /* A PV_JSON_T_STRING's decoded bytes: a slice of the text when the
   * string has nothing to decode (most names), else the buffer's. */
  const char *string;
  gsize string_len;
  const char *error;        /* lexer error text */
  char *error_owned;
  gsize error_offset;       /* where we say the lexer error is */
  gsize token_offset;       /* first byte of the current token */
} PvJsonLexer;

/* Starts reading @len bytes of @text (not copied: it must outlive @lx). */
void pv_json_lexer_init (PvJsonLexer *lx, const char *text, gsize len);
void pv_json_lexer_clear (PvJsonLexer *lx);

/* The next token. PV_JSON_T_STRING: lx->string, lx->string_len;
 * PV_JSON_T_NUMBER: its text in lx->buffer; PV_JSON_T_PARSE_ERROR:
 * lx->error at lx->error_offset. lx->token_offset is where it starts. */
PvJsonToken pv_json_lexer_scan (PvJsonLexer *lx);

/* nlohmann's name of @t, for its messages. Static string. */
const char *pv_json_token_name (PvJsonToken t);

/* The current byte in our words ("'x'", "a space", "the end of the file"). */
char *pv_json_lexer_describe_byte (const PvJsonLexer *lx);

/* Appends nlohmann's "last read" text (the token so far, control bytes as
 * <U+XXXX>) to @out. */
void pv_json_lexer_append_last_read (GString *out, const PvJsonLexer *lx);

G_END_DECLS
