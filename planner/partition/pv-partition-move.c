/* pv-partition-move.c: moving nodes between the streams of a partition
 * config, keeping it a config ORT 1.30 accepts. */
#include "pv-partition-config-private.h"

#include <string.h>

#include "pv-json-doc.h"


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
is_string_array (const PvJsonValue *v)
{
  if (v == NULL || v->kind != PV_JSON_ARRAY)
    return FALSE;
  for (guint i = 0; i < v->items->len; i++)
    {
      const PvJsonValue *e = v->items->pdata[i];
      if (e->kind != PV_JSON_STRING || memchr (e->str, '\0', e->len) != NULL)
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

/* Sets @error: the config's member @key, value @v in @text, must be @what.
 * Returns FALSE. */
static gboolean
member_invalid (const char *text, gsize len, const PvJsonValue *v, const char *key, const char *what, GError **error)
{
  int line, column;

  text_position (text, len, v->offset, &line, &column);
  g_set_error (error, PV_PARTITION_ERROR, PV_PARTITION_ERROR_INVALID,
               "The partition config's \"%s\" (line %d, column %d) must be %s", key, line, column, what);
  return FALSE;
}

/* The streams and devices of @doc, as ORT reads a well-formed config; FALSE
 * with @error for anything that is not one. */
static gboolean
read_streams (const PvJsonDoc *doc, const char *text, gsize len, GPtrArray *names, GPtrArray *devices, GError **error)
{
  const PvJsonValue *root = doc->root;
  const PvJsonMember *type_m, *streams_m, *devices_m;
  const PvJsonValue *sv, *dv;
  int line, column;

  if (doc->failed)
    {
      text_position (text, len, doc->error_offset, &line, &column);
      g_set_error (error, PV_PARTITION_ERROR, PV_PARTITION_ERROR_INVALID,
                   "The partition config is not valid JSON (line %d, column %d: %s)", line, column, doc->error);
      return FALSE;
    }
  if (root->kind != PV_JSON_OBJECT)
    {
      g_set_error (error, PV_PARTITION_ERROR, PV_PARTITION_ERROR_INVALID,
                   "The partition config must be an object {\"type\": \"" DBP_TYPE "\", \"streams\": [...], "
                   "\"devices\": [...]}, not %s",
                   pv_json_kind_article (root));
      return FALSE;
    }
  type_m = pv_json_object_get (root, "type");
  if (type_m == NULL || type_m->value->kind != PV_JSON_STRING || type_m->value->len != strlen (DBP_TYPE)
      || memcmp (type_m->value->str, DBP_TYPE, type_m->value->len) != 0)
    {
      g_set_error (error, PV_PARTITION_ERROR, PV_PARTITION_ERROR_INVALID,
                   "The partition config's \"type\" must be \"" DBP_TYPE "\"");
      return FALSE;
    }
  streams_m = pv_json_object_get (root, "streams");
  devices_m = pv_json_object_get (root, "devices");
  sv = streams_m ? streams_m->value : NULL;
  dv = devices_m ? devices_m->value : NULL;
  if (sv != NULL && sv->kind != PV_JSON_NULL)
    {
      gboolean ok = sv->kind == PV_JSON_ARRAY;
      for (guint i = 0; ok && i < sv->items->len; i++)
        ok = is_string_array (sv->items->pdata[i]);
      if (!ok)
        return member_invalid (text, len, sv, "streams", "an array of arrays of node names", error);
      for (guint i = 0; i < sv->items->len; i++)
        {
          const PvJsonValue *stream = sv->items->pdata[i];
          GPtrArray *list = g_ptr_array_new ();
          for (guint k = 0; k < stream->items->len; k++)
            g_ptr_array_add (list, ((PvJsonValue *) stream->items->pdata[k])->str);
          g_ptr_array_add (names, list);
        }
    }
  if (dv != NULL && dv->kind != PV_JSON_NULL)
    {
      if (!is_string_array (dv))
        return member_invalid (text, len, dv, "devices", "an array of device types such as [\"0\"]", error);
      for (guint i = 0; i < dv->items->len; i++)
        g_ptr_array_add (devices, g_strdup (((PvJsonValue *) dv->items->pdata[i])->str));
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

/* A move in progress: the config's streams as names, what moves, and where
 * each moving name was. */
typedef struct {
  const PvGraph *graph;
  const int *node_devices;
  GPtrArray *names;             /* per stream, a GPtrArray of names */
  GPtrArray *devices;           /* per stream, its "devices" entry */
  GHashTable *positions;        /* name -> its position in ORT's order */
  GHashTable *moving;           /* the names to move */
  GPtrArray *order;             /* the names to move, once each, as asked */
  GHashTable *source_of;        /* name -> the stream it leaves, + 1 */
  gboolean *had_node;           /* per stream: listed a main-graph node before */
} Move;

/* The nodes to move, each once; FALSE (with @error) for a name the main
 * graph lacks, or none. */
static gboolean
collect_moving (Move *m, const char *const *nodes, GError **error)
{
  for (int i = 0; nodes[i]; i++)
    {
      if (!g_hash_table_contains (m->positions, nodes[i]))
        {
          g_autofree char *shown = pv_partition_quoted_name (nodes[i]);
          g_set_error (error, PV_PARTITION_ERROR, PV_PARTITION_ERROR_UNKNOWN_NODE,
                       "There is no node named %s in the main graph", shown);
          return FALSE;
        }
      if (g_hash_table_add (m->moving, (gpointer) nodes[i]))
        g_ptr_array_add (m->order, (gpointer) nodes[i]);
    }
  if (m->order->len == 0)
    {
      g_set_error (error, PV_PARTITION_ERROR, PV_PARTITION_ERROR_UNKNOWN_NODE, "No node to move");
      return FALSE;
    }
  return TRUE;
}

/* A config without streams means ORT's default partition: spell it out,
 * so that stream numbers mean the streams ORT runs. */
static void
spell_out_default (Move *m)
{
  g_autoptr (PvPartitionConfig) def = NULL;

  if (m->names->len > 0)
    return;
  def = pv_partition_config_default (m->graph, m->node_devices);
  for (int s = 0; s < def->n_streams; s++)
    {
      GPtrArray *list = g_ptr_array_new ();
      for (int k = 0; k < def->streams[s].n_nodes; k++)
        g_ptr_array_add (list, (gpointer) m->graph->nodes[def->streams[s].nodes[k]].name);
      g_ptr_array_add (m->names, list);
      g_ptr_array_add (m->devices, g_strdup_printf ("%d", def->streams[s].device));
    }
}

/* Takes the names out of every stream that lists them. ORT runs a node in
 * the last stream that lists it: that is where it comes from. */
static void
take_out (Move *m)
{
  m->had_node = g_new0 (gboolean, m->names->len + 1);
  for (guint s = 0; s < m->names->len; s++)
    {
      GPtrArray *list = m->names->pdata[s];
      for (guint k = 0; k < list->len;)
        {
          const char *name = list->pdata[k];
          m->had_node[s] |= g_hash_table_contains (m->positions, name);
          if (g_hash_table_contains (m->moving, name))
            {
              g_hash_table_insert (m->source_of, (gpointer) name, GINT_TO_POINTER ((int) s + 1));
              g_ptr_array_remove_index (list, k);
            }
          else
            k++;
        }
    }
}

/* A new stream for the moving nodes: on @device, or the device of the
 * first one's old stream, or of its node. Returns its index. */
static int
add_stream (Move *m, const char *device)
{
  char *dev = device ? g_strdup (device) : NULL;

  for (guint i = 0; dev == NULL && i < m->order->len; i++)
    {
      int s = GPOINTER_TO_INT (g_hash_table_lookup (m->source_of, m->order->pdata[i])) - 1;
      if (s >= 0)
        dev = g_strdup (m->devices->pdata[s]);
    }
  if (dev == NULL)
    dev = g_strdup_printf ("%d", pv_partition_node_device (m->node_devices,
                                                           pv_graph_find_node (m->graph, m->order->pdata[0])));
  g_ptr_array_add (m->names, g_ptr_array_new ());
  g_ptr_array_add (m->devices, dev);
  return (int) m->names->len - 1;
}

/* The config text, without the streams the move emptied of main-graph
 * nodes (ORT crashes on a stream without nodes; later streams move down
 * by one), in @text's layout. */
static char *
write_moved (Move *m, const char *text, gsize len, gboolean pretty)
{
  g_autoptr (GPtrArray) kept_names = g_ptr_array_new ();   /* borrowed from names */
  g_autoptr (GPtrArray) kept_devices = g_ptr_array_new (); /* borrowed from devices */
  char *out;

  for (guint s = 0; s < m->names->len; s++)
    {
      GPtrArray *list = m->names->pdata[s];
      gboolean has_node = FALSE;
      for (guint k = 0; k < list->len && !has_node; k++)
        has_node = g_hash_table_contains (m->positions, list->pdata[k]);
      if (m->had_node[s] && !has_node)
        continue;
      g_ptr_array_add (kept_names, list);
      g_ptr_array_add (kept_devices, m->devices->pdata[s]);
    }
  out = pv_partition_write_config ((GPtrArray *const *) kept_names->pdata,
                                   (const char *const *) kept_devices->pdata, (int) kept_names->len, pretty);
  /* A compact config that ended its file with a newline keeps it. */
  if (!pretty && len > 0 && text[len - 1] == '\n')
    {
      char *with_nl = g_strconcat (out, "\n", NULL);
      g_free (out);
      out = with_nl;
    }
  return out;
}

gboolean
pv_partition_config_move_nodes (const PvGraph *graph, const int *node_devices, const char *text, gsize len,
                                const char *const *nodes, int stream, const char *device, char **new_text,
                                GError **error)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GPtrArray) devices = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) positions = NULL;
  g_autoptr (GHashTable) moving = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) order = g_ptr_array_new ();
  g_autoptr (GHashTable) source_of = g_hash_table_new (g_str_hash, g_str_equal);
  Move m = { graph, node_devices, names, devices, NULL, moving, order, source_of, NULL };
  PvJsonDoc doc = { 0 };
  gboolean ok;

  g_return_val_if_fail (graph != NULL, FALSE);
  g_return_val_if_fail (nodes != NULL, FALSE);
  g_return_val_if_fail (new_text != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  positions = m.positions = name_positions (graph);
  text = text ? text : "";
  pv_json_doc_parse (&doc, text, len);
  ok = read_streams (&doc, text, len, names, devices, error) && collect_moving (&m, nodes, error);
  if (ok)
    {
      spell_out_default (&m);
      if (stream < PV_PARTITION_NEW_STREAM || stream >= (int) names->len)
        {
          g_set_error (error, PV_PARTITION_ERROR, PV_PARTITION_ERROR_STREAM,
                       "There is no stream %d: the partition config has streams 0 to %d", stream,
                       (int) names->len - 1);
          ok = FALSE;
        }
    }
  if (ok)
    {
      take_out (&m);
      if (stream == PV_PARTITION_NEW_STREAM)
        stream = add_stream (&m, device);
      for (guint i = 0; i < order->len; i++)
        insert_in_order (names->pdata[stream], order->pdata[i], positions);
      *new_text = write_moved (&m, text, len, text_is_pretty (text, len));
    }
  g_free (m.had_node);
  pv_json_doc_clear (&doc);
  return ok;
}

int *
pv_partition_config_node_devices (const PvGraph *graph, const char *text, gsize len)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GPtrArray) devices = g_ptr_array_new_with_free_func (g_free);
  g_autofree int *node_devices = NULL;
  PvJsonDoc doc = { 0 };
  gboolean any_gpu = FALSE;

  g_return_val_if_fail (graph != NULL, NULL);

  text = text ? text : "";
  pv_json_doc_parse (&doc, text, len);
  if (!read_streams (&doc, text, len, names, devices, NULL))
    {
      pv_json_doc_clear (&doc);
      return NULL;
    }
  node_devices = g_new0 (int, MAX (graph->n_nodes, 1));
  /* Later streams win: ORT runs a node listed twice in the last one. */
  for (guint s = 0; s < names->len; s++)
    {
      GPtrArray *list = names->pdata[s];
      int device = strcmp (devices->pdata[s], "1") == 0 ? PV_DEVICE_GPU : PV_DEVICE_CPU;
      for (guint k = 0; k < list->len; k++)
        {
          int id = pv_graph_find_node (graph, list->pdata[k]);
          if (id < 0)
            continue;
          node_devices[id] = device;
        }
    }
  /* Nodes sharing a name are the one node a config names. */
  for (int i = 0; i < graph->n_nodes; i++)
    {
      node_devices[i] = node_devices[graph->name_owners[i]];
      any_gpu |= node_devices[i] == PV_DEVICE_GPU;
    }
  pv_json_doc_clear (&doc);
  return any_gpu ? g_steal_pointer (&node_devices) : NULL;
}
