/* pv-partition-config.c: ONNX Runtime's DeviceBasedPartitioner config,
 * written as ORT 1.30 does: device names, ORT's default partition and the
 * config text. Checking a config is pv-partition-check.c, moving nodes
 * between streams pv-partition-move.c. */
#include "pv-partition-config-private.h"

#include <cjson/cJSON.h>
#include <string.h>

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
void
pv_partition_append_quoted (GString *out, const char *s, gsize len)
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

char *
pv_partition_quoted (const char *s, gsize len)
{
  GString *out = g_string_new (NULL);
  pv_partition_append_quoted (out, s, len);
  return g_string_free (out, FALSE);
}

char *
pv_partition_quoted_name (const char *s)
{
  return pv_partition_quoted (s, strlen (s));
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

PvPartitionConfig *
pv_partition_config_new (int n_streams)
{
  PvPartitionConfig *config = g_new0 (PvPartitionConfig, 1);

  config->n_streams = n_streams;
  config->streams = g_new0 (PvStream, MAX (n_streams, 1));
  return config;
}

int
pv_partition_node_device (const int *node_devices, int id)
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
      int d = pv_partition_node_device (node_devices, graph->order[i]);
      guint s;
      for (s = 0; s < devices->len; s++)
        if (g_array_index (devices, int, s) == d)
          break;
      if (s == devices->len)
        g_array_append_val (devices, d);
      stream_of[i] = (int) s;
    }
  config = pv_partition_config_new ((int) devices->len);
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
char *
pv_partition_write_config (GPtrArray *const *names, const char *const *devices, int n_streams, gboolean pretty)
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
  return pv_partition_write_config ((GPtrArray *const *) names->pdata, (const char *const *) device_strv,
                                    config->n_streams, pretty);
}

gboolean
pv_partition_text_has_long_line (const char *text)
{
  for (const char *line = text; line && *line;)
    {
      const char *nl = strchr (line, '\n');
      gsize len = nl ? (gsize) (nl - line) : strlen (line);
      if (len > PV_PARTITION_LONG_LINE)
        return TRUE;
      line = nl ? nl + 1 : NULL;
    }
  return FALSE;
}

/* @item at @depth, every array element and object member on a line of
 * its own, two spaces a level (cJSON_Print keeps arrays on one line). */
static void
print_item (GString *out, const cJSON *item, int depth)
{
  gboolean object = cJSON_IsObject (item);
  char *scalar;

  if (!object && !cJSON_IsArray (item))
    {
      scalar = cJSON_PrintUnformatted (item);
      g_string_append (out, scalar ? scalar : "null");
      cJSON_free (scalar);
      return;
    }
  g_string_append_c (out, object ? '{' : '[');
  for (const cJSON *child = item->child; child; child = child->next)
    {
      g_string_append_printf (out, "\n%*s", 2 * (depth + 1), "");
      if (object)
        {
          cJSON key = { .type = cJSON_String, .valuestring = child->string };
          print_item (out, &key, depth + 1);
          g_string_append (out, ": ");
        }
      print_item (out, child, depth + 1);
      if (child->next)
        g_string_append_c (out, ',');
    }
  if (item->child)
    g_string_append_printf (out, "\n%*s", 2 * depth, "");
  g_string_append_c (out, object ? '}' : ']');
}

char *
pv_partition_text_reformat (const char *text)
{
  cJSON *json = cJSON_Parse (text);
  GString *out;

  if (json == NULL)
    return NULL;
  out = g_string_new (NULL);
  print_item (out, json, 0);
  g_string_append_c (out, '\n');
  cJSON_Delete (json);
  return g_string_free (out, FALSE);
}
