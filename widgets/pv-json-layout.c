/* pv-json-layout.c: JSON text laid out anew (see the header). */
#include "pv-json-layout.h"

#include <cjson/cJSON.h>
#include <math.h>

static void
write_json_string (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    switch (*p)
      {
      case '"': g_string_append (out, "\\\""); break;
      case '\\': g_string_append (out, "\\\\"); break;
      case '\b': g_string_append (out, "\\b"); break;
      case '\f': g_string_append (out, "\\f"); break;
      case '\n': g_string_append (out, "\\n"); break;
      case '\r': g_string_append (out, "\\r"); break;
      case '\t': g_string_append (out, "\\t"); break;
      default:
        if (*p < 0x20)
          g_string_append_printf (out, "\\u%04x", *p);
        else
          g_string_append_c (out, (char) *p);
      }
  g_string_append_c (out, '"');
}

static void
indent (GString *out, int depth)
{
  for (int i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

/* nlohmann::json's dump(2) layout when @pretty, dump() otherwise; keys keep
 * the order they have in the text. */
static void
write_json (GString *out, const cJSON *item, gboolean pretty, int depth)
{
  if (cJSON_IsObject (item) || cJSON_IsArray (item))
    {
      gboolean object = cJSON_IsObject (item);
      const cJSON *child = item->child;

      g_string_append_c (out, object ? '{' : '[');
      if (child == NULL)
        {
          g_string_append_c (out, object ? '}' : ']');
          return;
        }
      for (; child; child = child->next)
        {
          if (pretty)
            {
              g_string_append_c (out, '\n');
              indent (out, depth + 1);
            }
          if (object)
            {
              write_json_string (out, child->string ? child->string : "");
              g_string_append (out, pretty ? ": " : ":");
            }
          write_json (out, child, pretty, depth + 1);
          if (child->next)
            g_string_append_c (out, ',');
        }
      if (pretty)
        {
          g_string_append_c (out, '\n');
          indent (out, depth);
        }
      g_string_append_c (out, object ? '}' : ']');
    }
  else if (cJSON_IsString (item))
    write_json_string (out, item->valuestring ? item->valuestring : "");
  else if (cJSON_IsNumber (item))
    {
      double v = item->valuedouble;
      if (v == floor (v) && fabs (v) < 1e15)
        g_string_append_printf (out, "%.0f", v);
      else
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];
          g_string_append (out, g_ascii_dtostr (buf, sizeof buf, v));
        }
    }
  else if (cJSON_IsTrue (item))
    g_string_append (out, "true");
  else if (cJSON_IsFalse (item))
    g_string_append (out, "false");
  else
    g_string_append (out, "null");
}

char *
pv_json_relayout (const char *text, gboolean pretty)
{
  cJSON *root = cJSON_Parse (text);
  GString *out;

  if (root == NULL)
    return NULL;
  out = g_string_new (NULL);
  write_json (out, root, pretty, 0);
  if (pretty)
    g_string_append_c (out, '\n');
  cJSON_Delete (root);
  return g_string_free (out, FALSE);
}

gboolean
pv_json_is_valid (const char *text)
{
  cJSON *root = cJSON_Parse (text);
  gboolean ok = root != NULL;
  cJSON_Delete (root);
  return ok;
}
