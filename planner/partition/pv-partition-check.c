/* pv-partition-check.c: what ONNX Runtime 1.30 does with a partition config.
 *
 * The config is read as nlohmann::json reads it (pv-json-doc.h), then walked
 * the way ORT iterates "type", "streams" and "devices"; each finding says what
 * ORT does. Everything here was checked against ORT 1.30 itself
 * (tests/ort/configs). */
#include "pv-partition-private.h"

#include <string.h>

#include "pv-json-doc.h"

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

typedef struct {
  const PvJsonValue *val; /* the stream as ORT iterates it */
  GPtrArray *names;       /* PvJsonValue* it visits */
  int *owners;            /* for each name, name_owner() (step 6 sets it) */
  GArray *nodes;          /* node ids ORT puts in it, in run order */
  gboolean had_known;     /* lists some node of the main graph */
} CStream;

typedef struct {
  int stream;          /* where it is listed */
  int owner;           /* name_owner() of the name */
  const PvJsonValue *name;
} Occurrence;

typedef struct {
  const PvGraph *graph;
  const char *text;
  gsize len;
  const int *node_devices;
  GPtrArray *findings;
} Checker;

/* Per-name tables of step 6, indexed by the name owner (PvGraph.name_owners)
 * of the nodes a name names: a config lists up to every node, so arrays
 * rather than hash tables of strings keep the check linear and cheap. */
typedef struct {
  int *winner;      /* the last stream that lists the name, + 1; 0: none */
  int *n_named;     /* how many nodes of the main graph have the name */
  int *seen_stream; /* the stream seen_count counts in, + 1 */
  int *seen_count;  /* how often that stream has listed the name so far */
  int *position;    /* first position + 1 in its winning stream; 0: not yet */
} NameTables;

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

/* Where in PvGraph.order the next name of a stream probably is. Configs
 * list each stream in run order (the writer and the mover keep it so), so
 * the next name is usually as far from the last one as that was from the
 * one before: one string compare there spares most hash lookups. Only
 * tried once two strides agree, so that a shuffled stream costs no more
 * than the lookups. */
typedef struct {
  int last;        /* order position of the last name found; -1: none yet */
  int stride;      /* from the name before it to the last */
  gboolean steady; /* the last two strides were equal */
} Guess;

/* The name owner (PvGraph.name_owners) of the main-graph nodes named @name, or -1
 * when no node has that name (or @name is not a string, or holds a NUL).
 * Updates @guess, which only makes it faster. */
static int
name_owner (const Checker *c, const PvJsonValue *name, Guess *guess)
{
  const PvGraph *g = c->graph;
  int pos = guess->last + guess->stride, id;

  if (name->kind != PV_JSON_STRING || memchr (name->str, '\0', name->len) != NULL)
    return -1;
  if (guess->steady && pos >= 0 && pos < g->n_nodes && strcmp (g->order_names[pos], name->str) == 0)
    id = g->order[pos];
  else
    {
      id = pv_graph_find_node (g, name->str);
      if (id < 0)
        return -1;
      pos = g->nodes[id].order_position;
    }
  if (guess->last >= 0)
    {
      guess->steady = pos - guess->last == guess->stride;
      guess->stride = pos - guess->last;
    }
  guess->last = pos;
  return g->name_owners[id];
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
device_value (const PvJsonValue *d)
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
      pv_partition_append_quoted (out, g->nodes[best[k]].name, strlen (g->nodes[best[k]].name));
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
              g_autofree char *owner = pv_partition_quoted_name (node->name);
              return g_strdup_printf ("the %s subgraph of node %s", sub->parent_attr ? sub->parent_attr : "?", owner);
            }
          deeper = find_in_subgraphs (sub, name);
          if (deeper)
            return deeper;
        }
    }
  return NULL;
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
      pv_partition_append_quoted (out, name, strlen (name));
    }
  if (nodes->len > MAX_ORDER_NAMES)
    g_string_append_printf (out, ", … (%u more)", nodes->len - MAX_ORDER_NAMES);
  return g_string_free (out, FALSE);
}

/* A stream's listed order against the order ORT runs it in. A name has
 * one winning stream, so the streams share @t->position. */
static void
check_order (Checker *c, int s, const CStream *st, const NameTables *t)
{
  int max_pos = -1, max_node = -1;

  for (guint k = 0; k < st->names->len; k++)
    {
      int owner = st->owners[k];
      if (owner < 0 || t->winner[owner] - 1 != s || t->position[owner] != 0)
        continue;
      t->position[owner] = (int) k + 1;
    }
  for (guint i = 0; i < st->nodes->len; i++)
    {
      int id = g_array_index (st->nodes, int, i);
      int p = t->position[c->graph->name_owners[id]];
      if (p < max_pos)
        {
          /* @id is listed before @max_node but runs after it. */
          g_autofree char *listed_first = pv_partition_quoted_name (c->graph->nodes[id].name);
          g_autofree char *runs_first = pv_partition_quoted_name (c->graph->nodes[max_node].name);
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
  Checker c = { graph, text ? text : "", text ? len : 0, node_devices, NULL };
  PvJsonDoc doc = { 0 };
  const PvJsonValue *root, *streams_val = NULL, *devices_val = NULL;
  const PvJsonMember *type_m = NULL, *streams_m = NULL, *devices_m = NULL;
  g_autoptr (GPtrArray) stream_vals = NULL;
  g_autoptr (GPtrArray) device_vals = NULL;
  GArray *streams = NULL; /* CStream */
  const char *discard = NULL;    /* the warning ORT logs, if it discards */
  g_autofree char *discard_owned = NULL;
  g_autofree char *reject = NULL;
  int crash_stream = -1;

  c.findings = g_ptr_array_new_with_free_func (finding_free);
  pv_json_doc_parse (&doc, c.text, c.len);

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
  if (root->kind != PV_JSON_OBJECT)
    {
      add (&c, PV_FINDING_ERROR, root->offset, ORT_IGNORES_FILE,
           "the top level must be an object "
           "{\"type\": \"" DBP_TYPE "\", \"streams\": [...], \"devices\": [...]}, not %s",
           pv_json_kind_article (root));
      if (root->kind == PV_JSON_NULL)
        discard = MSG_TYPE;
      else
        discard = discard_owned = g_strdup_printf (
          "[json.exception.type_error.305] cannot use operator[] with a string argument with %s",
          pv_json_kind_name (root));
      goto verdict;
    }
  {
    g_autoptr (GPtrArray) members = pv_json_sorted_members (root, FALSE);
    for (guint i = 0; i < members->len; i++)
      {
        const PvJsonMember *m = members->pdata[i];
        g_autofree char *key = pv_partition_quoted (m->key, m->len);
        gboolean known = m->len == strlen (m->key)
                         && (strcmp (m->key, "type") == 0 || strcmp (m->key, "streams") == 0
                             || strcmp (m->key, "devices") == 0);

        if (!known)
          add (&c, PV_FINDING_WARNING, m->offset, "ignores the key", "unknown key %s", key);
        else if (i + 1 < members->len && pv_json_compare_keys (m, members->pdata[i + 1]) == 0)
          add (&c, PV_FINDING_WARNING, m->offset, "uses the last one and ignores this one", "%s is given again later",
               key);
      }
  }
  type_m = pv_json_object_get (root, "type");
  streams_m = pv_json_object_get (root, "streams");
  devices_m = pv_json_object_get (root, "devices");
  streams_val = streams_m ? streams_m->value : NULL;
  devices_val = devices_m ? devices_m->value : NULL;
  if (type_m == NULL)
    {
      add (&c, PV_FINDING_ERROR, root->offset, ORT_IGNORES_FILE, "missing \"type\": \"" DBP_TYPE "\"");
      discard = MSG_TYPE;
    }
  else if (type_m->value->kind != PV_JSON_STRING)
    {
      add (&c, PV_FINDING_ERROR, type_m->value->offset, ORT_IGNORES_FILE, "\"type\" must be \"" DBP_TYPE "\", not %s",
           pv_json_kind_article (type_m->value));
      discard = MSG_TYPE;
    }
  else if (type_m->value->len != strlen (DBP_TYPE) || memcmp (type_m->value->str, DBP_TYPE, type_m->value->len) != 0)
    {
      g_autofree char *got = pv_partition_quoted (type_m->value->str, type_m->value->len);
      add (&c, PV_FINDING_ERROR, type_m->value->offset, ORT_IGNORES_FILE, "\"type\" must be \"" DBP_TYPE "\", not %s",
           got);
      discard = MSG_TYPE;
    }

  /* 3. "streams" and "devices", as ORT iterates them; every value it turns
   * into a std::string must be a string. */
  stream_vals = pv_json_iterate (streams_val);
  streams = g_array_new (FALSE, TRUE, sizeof (CStream));
  if (streams_val && streams_val->kind == PV_JSON_STRING)
    add (&c, PV_FINDING_WARNING, streams_val->offset, "reads it as one stream with one node",
         "\"streams\" should be an array of streams (arrays of node names), not a string");
  else if (streams_val && streams_val->kind == PV_JSON_OBJECT)
    add (&c, PV_FINDING_WARNING, streams_val->offset, "reads the object's values, in key order, as the streams",
         "\"streams\" should be an array of streams, not an object");
  else if (streams_val && streams_val->kind == PV_JSON_NULL)
    add (&c, PV_FINDING_WARNING, streams_val->offset, "reads null as no streams", "\"streams\" is null");
  for (guint i = 0; i < stream_vals->len; i++)
    {
      CStream st = { stream_vals->pdata[i], NULL, NULL, g_array_new (FALSE, FALSE, sizeof (int)), FALSE };
      const PvJsonValue *sv = st.val;

      st.names = pv_json_iterate (sv);
      g_array_append_val (streams, st);
      if (sv == streams_val && (sv->kind == PV_JSON_NUMBER || sv->kind == PV_JSON_TRUE || sv->kind == PV_JSON_FALSE))
        {
          add (&c, PV_FINDING_ERROR, sv->offset, ORT_IGNORES_FILE,
               "\"streams\" must be an array of streams (arrays of node names), not %s", pv_json_kind_article (sv));
          if (!discard)
            discard = discard_owned =
              g_strdup_printf ("[json.exception.type_error.302] type must be string, but is %s",
                               pv_json_kind_name (sv));
          continue;
        }
      if (sv == streams_val)
        continue; /* a string: one stream, one name */
      switch (sv->kind)
        {
        case PV_JSON_STRING:
          add (&c, PV_FINDING_WARNING, sv->offset, "reads it as a stream of one node",
               "streams[%u] should be an array of node names, not a string", i);
          continue;
        case PV_JSON_OBJECT:
          add (&c, PV_FINDING_WARNING, sv->offset, "reads the object's values, in key order, as the node names",
               "streams[%u] should be an array of node names, not an object", i);
          break;
        case PV_JSON_NULL:
          add (&c, PV_FINDING_WARNING, sv->offset, "reads null as an empty stream", "streams[%u] is null", i);
          continue;
        case PV_JSON_NUMBER:
        case PV_JSON_TRUE:
        case PV_JSON_FALSE:
          add (&c, PV_FINDING_ERROR, sv->offset, ORT_IGNORES_FILE,
               "streams[%u] must be an array of node names, not %s", i, pv_json_kind_article (sv));
          if (!discard)
            discard = discard_owned =
              g_strdup_printf ("[json.exception.type_error.302] type must be string, but is %s",
                               pv_json_kind_name (sv));
          continue;
        default:
          break;
        }
      for (guint k = 0; k < st.names->len; k++)
        {
          const PvJsonValue *name = st.names->pdata[k];
          if (name->kind == PV_JSON_STRING)
            continue;
          add (&c, PV_FINDING_ERROR, name->offset, ORT_IGNORES_FILE,
               "streams[%u][%u] must be a node name (a string), not %s", i, k, pv_json_kind_article (name));
          if (!discard)
            discard = discard_owned =
              g_strdup_printf ("[json.exception.type_error.302] type must be string, but is %s",
                               pv_json_kind_name (name));
        }
    }

  device_vals = pv_json_iterate (devices_val);
  if (devices_val && devices_val->kind == PV_JSON_STRING)
    add (&c, PV_FINDING_WARNING, devices_val->offset, "reads it as one device type",
         "\"devices\" should be an array of device types, not a string");
  else if (devices_val && devices_val->kind == PV_JSON_OBJECT)
    add (&c, PV_FINDING_WARNING, devices_val->offset, "reads the object's values, in key order, as the device types",
         "\"devices\" should be an array of device types, not an object");
  else if (devices_val && devices_val->kind == PV_JSON_NULL)
    add (&c, PV_FINDING_WARNING, devices_val->offset, "reads null as no device types", "\"devices\" is null");
  for (guint i = 0; i < device_vals->len; i++)
    {
      const PvJsonValue *d = device_vals->pdata[i];
      if (d->kind == PV_JSON_STRING)
        continue;
      if (d == devices_val)
        add (&c, PV_FINDING_ERROR, d->offset, ORT_IGNORES_FILE,
             "\"devices\" must be an array of device types such as [\"0\"], not %s", pv_json_kind_article (d));
      else
        add (&c, PV_FINDING_ERROR, d->offset, ORT_IGNORES_FILE, "devices[%u] must be a string such as \"0\", not %s", i,
             pv_json_kind_article (d));
      if (!discard)
        discard = discard_owned =
          g_strdup_printf ("[json.exception.type_error.302] type must be string, but is %s", pv_json_kind_name (d));
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
      const PvJsonValue *d = device_vals->pdata[i];
      g_autofree char *shown = pv_partition_quoted (d->str, d->len);
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
    gsize n_nodes = (gsize) MAX (graph->n_nodes, 1);
    g_autofree int *tables = g_new0 (int, 5 * n_nodes);
    NameTables t = { tables, tables + n_nodes, tables + 2 * n_nodes, tables + 3 * n_nodes, tables + 4 * n_nodes };
    g_autoptr (GHashTable) suggested = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
    g_autoptr (GArray) occurrences = g_array_new (FALSE, FALSE, sizeof (Occurrence));
    g_autofree guint *stream_fill = NULL;
    int n_missing = 0;
    guint n_suggested = 0;

    for (int i = 0; i < graph->n_nodes; i++)
      t.n_named[graph->name_owners[i]]++;
    for (guint s = 0; s < streams->len; s++)
      {
        CStream *st = &g_array_index (streams, CStream, s);
        Guess guess = { -1, 0, FALSE };
        st->owners = g_new (int, MAX (st->names->len, 1));
        for (guint k = 0; k < st->names->len; k++)
          {
            const PvJsonValue *name = st->names->pdata[k];
            int owner = st->owners[k] = name_owner (&c, name, &guess);
            Occurrence o = { (int) s, owner, name };
            if (owner < 0)
              {
                g_autofree char *shown = pv_partition_quoted (name->str, name->len);
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
            g_array_append_val (occurrences, o);
            /* The first listing of the name anywhere. */
            if (t.winner[owner] == 0 && t.n_named[owner] > 1)
              {
                g_autofree char *shown = pv_partition_quoted (name->str, name->len);
                add (&c, PV_FINDING_WARNING, name->offset, "puts all of them in the stream that lists the name",
                     "%s names %u nodes of the main graph (ONNX Runtime names unnamed nodes <OpType><n> "
                     "without checking for clashes)",
                     shown, (guint) t.n_named[owner]);
              }
            t.winner[owner] = (int) s + 1;
          }
      }

    /* Duplicates: a second entry in the winning stream, or entries in
     * streams that lose to a later one. The occurrences come stream by
     * stream, so one count per name does for the stream at hand. */
    for (guint i = 0; i < occurrences->len; i++)
      {
        const Occurrence *o = &g_array_index (occurrences, Occurrence, i);
        int win = t.winner[o->owner] - 1;
        int count = t.seen_stream[o->owner] == o->stream + 1 ? t.seen_count[o->owner] + 1 : 1;
        /* A name that several nodes share is listed once per node by ORT
         * itself: that many entries are not duplicates. */
        gboolean again = count > MAX (1, t.n_named[o->owner]);

        t.seen_stream[o->owner] = o->stream + 1;
        t.seen_count[o->owner] = count;
        if (again)
          {
            g_autofree char *shown = pv_partition_quoted (o->name->str, o->name->len);
            add (&c, PV_FINDING_WARNING, o->name->offset, "counts it once", "%s is listed twice in streams[%d]", shown,
                 o->stream);
          }
        else if (o->stream != win)
          {
            g_autofree char *shown = pv_partition_quoted (o->name->str, o->name->len);
            g_autofree char *ort =
              g_strdup_printf ("puts it in streams[%d], the last stream that lists it, and ignores this entry", win);
            add (&c, PV_FINDING_WARNING, o->name->offset, ort, "%s is also listed in streams[%d]", shown, win);
          }
      }

    /* Each node in ORT's order, into streams sized first (one
     * g_array_append_val per node was a tenth of the check). */
    stream_fill = g_new0 (guint, MAX (streams->len, 1));
    for (int i = 0; i < graph->n_nodes; i++)
      {
        int s = t.winner[graph->name_owners[graph->order[i]]] - 1;
        if (s >= 0)
          stream_fill[s]++;
      }
    for (guint s = 0; s < streams->len; s++)
      {
        g_array_set_size (g_array_index (streams, CStream, s).nodes, stream_fill[s]);
        stream_fill[s] = 0;
      }
    for (int i = 0; i < graph->n_nodes; i++)
      {
        int id = graph->order[i];
        const PvNode *node = &graph->nodes[id];
        int s = t.winner[graph->name_owners[id]] - 1;
        if (s >= 0)
          {
            g_array_index (g_array_index (streams, CStream, s).nodes, int, stream_fill[s]++) = id;
            continue;
          }
        if (n_missing == 0)
          reject = g_strdup_printf ("Failed to find node \"%s\" in node-stream map", node->name);
        if (n_missing < MAX_MISSING_FINDINGS)
          {
            g_autofree char *shown = pv_partition_quoted_name (node->name);
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
        const PvJsonValue *d = device_vals->pdata[s];
        int first, dev;

        if (st->nodes->len == 0)
          continue;
        first = g_array_index (st->nodes, int, 0);
        dev = pv_partition_node_device (node_devices, first);
        for (guint k = 1; k < st->nodes->len; k++)
          {
            int id = g_array_index (st->nodes, int, k);
            if (pv_partition_node_device (node_devices, id) != dev)
              {
                g_autofree char *a = pv_partition_quoted_name (graph->nodes[first].name);
                g_autofree char *b = pv_partition_quoted_name (graph->nodes[id].name);
                g_autofree char *da = device_text (dev);
                g_autofree char *db = device_text (pv_partition_node_device (node_devices, id));
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
            g_autofree char *shown = pv_partition_quoted (d->str, d->len);
            g_autofree char *actual = device_text (dev);
            g_autofree char *fname = pv_partition_quoted_name (graph->nodes[first].name);
            add (&c, PV_FINDING_WARNING, d->offset,
                 "takes each stream's device from its first node, not from \"devices\"",
                 "devices[%u] is %s (%s), but streams[%u] runs on %s, the device of its first node %s", s, shown,
                 pv_device_type_name (device_value (d)), s, actual, fname);
          }
        check_order (&c, (int) s, st, &t);
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
      check->effective = pv_partition_config_new ((int) streams->len);
      for (guint s = 0; s < streams->len; s++)
        {
          CStream *st = &g_array_index (streams, CStream, s);
          PvStream *out = &check->effective->streams[s];
          out->n_nodes = (int) st->nodes->len;
          out->nodes = g_memdup2 (st->nodes->data, sizeof (int) * MAX (st->nodes->len, 1));
          out->device = pv_partition_node_device (node_devices, g_array_index (st->nodes, int, 0));
        }
    }
  else
    check->effective = pv_partition_config_new (0);

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
          g_free (st->owners);
          g_array_unref (st->nodes);
        }
      g_array_unref (streams);
    }
  g_ptr_array_unref (c.findings);
  pv_json_doc_clear (&doc);
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
