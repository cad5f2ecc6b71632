/* pv-partition-check.c: what ONNX Runtime 1.30 does with a partition config.
 *
 * The config is read as nlohmann::json reads it (pv-json-doc.h), then walked
 * the way ORT iterates "type", "streams" and "devices", one function per
 * step; step 6, the names, is pv-partition-check-names.c. Each finding says
 * what ORT does. Everything here was checked against ORT 1.30 itself
 * (tests/ort/configs). */
#include "pv-partition-check-private.h"

#include <string.h>

#include "pv-read-file.h"

static void
finding_free (gpointer data)
{
  PvPartitionFinding *f = data;
  g_free (f->message);
  g_free (f->ort);
  g_free (f);
}

typedef struct {
  guint kept;
  guint hidden;
  PvPartitionFinding *first_hidden; /* shown, with the count of the others */
} FindingKind;

static void
finding_kind_free (gpointer data)
{
  FindingKind *k = data;
  g_clear_pointer (&k->first_hidden, finding_free);
  g_free (k);
}

void
_pv_check_add (Checker *c, gsize offset, PvFindingSeverity severity, const char *ort, const char *format, ...)
{
  FindingKind *k = g_hash_table_lookup (c->kinds, format);
  PvPartitionFinding *f;
  va_list args;

  if (k == NULL)
    {
      k = g_new0 (FindingKind, 1);
      g_hash_table_insert (c->kinds, (gpointer) format, k);
    }
  if (k->kept == MAX_FINDINGS_OF_A_KIND && k->hidden++ > 0)
    return;
  f = g_new0 (PvPartitionFinding, 1);
  va_start (args, format);
  f->message = g_strdup_vprintf (format, args);
  va_end (args);
  f->severity = severity;
  f->offset = offset;
  f->ort = g_strdup (ort);
  if (k->kept == MAX_FINDINGS_OF_A_KIND)
    k->first_hidden = f;
  else
    {
      k->kept++;
      g_ptr_array_add (c->findings, f);
    }
}

/* The first finding past the cap of each kind, saying how many more there are. */
static void
add_hidden_counts (Checker *c)
{
  GHashTableIter iter;
  FindingKind *k;

  g_hash_table_iter_init (&iter, c->kinds);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &k))
    if (k->first_hidden)
      {
        PvPartitionFinding *f = g_steal_pointer (&k->first_hidden);
        char *m = k->hidden > 1 ? g_strdup_printf ("%s (and %u more like it, not shown)", f->message, k->hidden - 1)
                                : g_strdup (f->message);
        g_free (f->message);
        f->message = m;
        g_ptr_array_add (c->findings, f);
      }
}

int
_pv_check_device_value (const PvJsonValue *d)
{
  if (d->len == 0 || d->len > 9)
    return d->len > 9 && strspn (d->str, "0123456789") == d->len ? G_MAXINT : G_MININT;
  for (gsize k = 0; k < d->len; k++)
    if (!g_ascii_isdigit (d->str[k]))
      return G_MININT;
  return atoi (d->str);
}

/* ORT discards the file with @message (owned), unless it already does. */
static void
discard_with (Checker *c, char *message)
{
  if (c->discard)
    {
      g_free (message);
      return;
    }
  c->discard = c->discard_owned = message;
}

static char *
plural (int n, const char *one, const char *many)
{
  return g_strdup_printf ("%d %s", n, n == 1 ? one : many);
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

/* 1. JSON. FALSE when ORT stops here. */
static gboolean
check_json (Checker *c, const PvJsonDoc *doc)
{
  if (doc->failed)
    {
      _pv_check_add (c, doc->error_offset, F_NOT_JSON, doc->error);
      c->discard = doc->ort_error;
      return FALSE;
    }
  c->root = doc->root;
  if (doc->nul_end)
    _pv_check_add (c, doc->nul_offset, F_NUL_BYTE);
  return TRUE;
}

/* Keys ORT does not read, and keys given twice. */
static void
check_keys (Checker *c)
{
  g_autoptr (GPtrArray) members = pv_json_sorted_members (c->root, FALSE);

  for (guint i = 0; i < members->len; i++)
    {
      const PvJsonMember *m = members->pdata[i];
      g_autofree char *key = pv_partition_quoted (m->key, m->len);
      gboolean known = m->len == strlen (m->key)
                       && (strcmp (m->key, "type") == 0 || strcmp (m->key, "streams") == 0
                           || strcmp (m->key, "devices") == 0);

      if (!known)
        _pv_check_add (c, m->offset, F_UNKNOWN_KEY, key);
      else if (i + 1 < members->len && pv_json_compare_keys (m, members->pdata[i + 1]) == 0)
        _pv_check_add (c, m->offset, F_KEY_AGAIN, key);
    }
}

/* 2. The top level and "type". FALSE when ORT stops here. */
static gboolean
check_top_level (Checker *c)
{
  const PvJsonValue *root = c->root;
  const PvJsonMember *type_m;

  if (root->kind != PV_JSON_OBJECT)
    {
      _pv_check_add (c, root->offset, F_TOP_NOT_OBJECT, pv_json_kind_article (root));
      if (root->kind == PV_JSON_NULL)
        c->discard = MSG_TYPE;
      else
        discard_with (c, g_strdup_printf (MSG_NO_OPERATOR, pv_json_kind_name (root)));
      return FALSE;
    }
  check_keys (c);
  type_m = pv_json_object_get (root, "type");
  c->streams_m = pv_json_object_get (root, "streams");
  c->devices_m = pv_json_object_get (root, "devices");
  c->streams_val = c->streams_m ? c->streams_m->value : NULL;
  c->devices_val = c->devices_m ? c->devices_m->value : NULL;
  if (type_m == NULL)
    {
      _pv_check_add (c, root->offset, F_TYPE_MISSING);
      c->discard = MSG_TYPE;
    }
  else if (type_m->value->kind != PV_JSON_STRING)
    {
      _pv_check_add (c, type_m->value->offset, F_TYPE_WRONG, pv_json_kind_article (type_m->value));
      c->discard = MSG_TYPE;
    }
  else if (type_m->value->len != strlen (DBP_TYPE) || memcmp (type_m->value->str, DBP_TYPE, type_m->value->len) != 0)
    {
      g_autofree char *got = pv_partition_quoted (type_m->value->str, type_m->value->len);
      _pv_check_add (c, type_m->value->offset, F_TYPE_WRONG, got);
      c->discard = MSG_TYPE;
    }
  return TRUE;
}

/* Stream @i (one entry of "streams"), as ORT iterates it: every name a
 * string. */
static void
check_stream_entry (Checker *c, guint i, const CStream *st)
{
  const PvJsonValue *sv = st->val;

  if (sv == c->streams_val && (sv->kind == PV_JSON_NUMBER || sv->kind == PV_JSON_TRUE || sv->kind == PV_JSON_FALSE))
    {
      _pv_check_add (c, sv->offset, F_STREAMS_NOT_ARRAY, pv_json_kind_article (sv));
      discard_with (c, g_strdup_printf (MSG_NOT_STRING, pv_json_kind_name (sv)));
      return;
    }
  if (sv == c->streams_val)
    return; /* a string: one stream, one name */
  switch (sv->kind)
    {
    case PV_JSON_STRING:
      _pv_check_add (c, sv->offset, F_STREAM_IS_STRING, i);
      return;
    case PV_JSON_OBJECT:
      _pv_check_add (c, sv->offset, F_STREAM_IS_OBJECT, i);
      break;
    case PV_JSON_NULL:
      _pv_check_add (c, sv->offset, F_STREAM_IS_NULL, i);
      return;
    case PV_JSON_NUMBER:
    case PV_JSON_TRUE:
    case PV_JSON_FALSE:
      _pv_check_add (c, sv->offset, F_STREAM_NOT_ARRAY, i, pv_json_kind_article (sv));
      discard_with (c, g_strdup_printf (MSG_NOT_STRING, pv_json_kind_name (sv)));
      return;
    default:
      break;
    }
  for (guint k = 0; k < st->names->len; k++)
    {
      const PvJsonValue *name = st->names->pdata[k];
      if (name->kind == PV_JSON_STRING)
        continue;
      _pv_check_add (c, name->offset, F_NAME_NOT_STRING, i, k, pv_json_kind_article (name));
      discard_with (c, g_strdup_printf (MSG_NOT_STRING, pv_json_kind_name (name)));
    }
}

/* 3a. "streams", as ORT iterates it. */
static void
check_streams (Checker *c)
{
  const PvJsonValue *streams_val = c->streams_val;

  c->stream_vals = pv_json_iterate (streams_val);
  c->streams = g_array_new (FALSE, TRUE, sizeof (CStream));
  if (streams_val && streams_val->kind == PV_JSON_STRING)
    _pv_check_add (c, streams_val->offset, F_STREAMS_IS_STRING);
  else if (streams_val && streams_val->kind == PV_JSON_OBJECT)
    _pv_check_add (c, streams_val->offset, F_STREAMS_IS_OBJECT);
  else if (streams_val && streams_val->kind == PV_JSON_NULL)
    _pv_check_add (c, streams_val->offset, F_STREAMS_IS_NULL);
  for (guint i = 0; i < c->stream_vals->len; i++)
    {
      CStream st = { c->stream_vals->pdata[i], NULL, NULL, g_array_new (FALSE, FALSE, sizeof (int)), FALSE };

      st.names = pv_json_iterate (st.val);
      g_array_append_val (c->streams, st);
      check_stream_entry (c, i, &st);
    }
}

/* 3b. "devices", as ORT iterates it: every entry a string. */
static void
check_devices (Checker *c)
{
  const PvJsonValue *devices_val = c->devices_val;

  c->device_vals = pv_json_iterate (devices_val);
  if (devices_val && devices_val->kind == PV_JSON_STRING)
    _pv_check_add (c, devices_val->offset, F_DEVICES_IS_STRING);
  else if (devices_val && devices_val->kind == PV_JSON_OBJECT)
    _pv_check_add (c, devices_val->offset, F_DEVICES_IS_OBJECT);
  else if (devices_val && devices_val->kind == PV_JSON_NULL)
    _pv_check_add (c, devices_val->offset, F_DEVICES_IS_NULL);
  for (guint i = 0; i < c->device_vals->len; i++)
    {
      const PvJsonValue *d = c->device_vals->pdata[i];
      if (d->kind == PV_JSON_STRING)
        continue;
      if (d == devices_val)
        _pv_check_add (c, d->offset, F_DEVICES_NOT_ARRAY, pv_json_kind_article (d));
      else
        _pv_check_add (c, d->offset, F_DEVICE_NOT_STRING, i, pv_json_kind_article (d));
      discard_with (c, g_strdup_printf (MSG_NOT_STRING, pv_json_kind_name (d)));
    }
}

/* 4. Counts. FALSE when ORT stops here (it refuses, or lists no streams
 * and partitions the graph itself). */
static gboolean
check_counts (Checker *c)
{
  if (c->streams->len != c->device_vals->len)
    {
      g_autofree char *ns = plural ((int) c->streams->len, "stream", "streams");
      g_autofree char *nd = plural ((int) c->device_vals->len, "device type", "device types");
      g_autofree char *ort = g_strdup_printf ("%s: %s", ORT_REFUSES, MSG_COUNT);
      if (c->streams_m == NULL)
        _pv_check_add (c, c->root->offset, F_STREAMS_MISSING (ort), nd);
      else if (c->devices_m == NULL)
        _pv_check_add (c, c->root->offset, F_DEVICES_MISSING (ort), ns);
      else
        _pv_check_add (c, c->devices_val->offset, F_COUNTS_DIFFER (ort), nd, ns);
      c->reject = g_strdup (MSG_COUNT);
      return FALSE;
    }
  if (c->streams->len == 0)
    {
      _pv_check_add (c, c->streams_m ? c->streams_val->offset : c->root->offset, F_NO_STREAMS);
      c->check->effective_is_default = TRUE;
      return FALSE;
    }
  return TRUE;
}

/* 5. Devices: ORT reads them with atoi() and only counts them. */
static void
check_device_types (Checker *c)
{
  for (guint i = 0; i < c->device_vals->len; i++)
    {
      const PvJsonValue *d = c->device_vals->pdata[i];
      g_autofree char *shown = pv_partition_quoted (d->str, d->len);
      int value = _pv_check_device_value (d);
      if (value == G_MININT)
        {
          g_autofree char *ort =
            g_strdup_printf (ORT_ATOI,
                             memchr (d->str, '\0', d->len) || d->len > 32 ? 0 : atoi (d->str));
          _pv_check_add (c, d->offset, F_DEVICE_NOT_DECIMAL (ort), i, shown);
        }
      else if (pv_device_type_name (value) == NULL)
        _pv_check_add (c, d->offset, F_DEVICE_UNKNOWN, i, shown);
    }
}

/* The verdict from what the steps found, and the streams ORT runs. */
static void
decide (Checker *c)
{
  PvPartitionCheck *check = c->check;

  if (c->discard)
    {
      check->verdict = PV_ORT_DISCARDS;
      check->ort_message = g_strdup (c->discard);
      check->effective_is_default = TRUE;
    }
  else if (c->reject)
    {
      check->verdict = PV_ORT_REJECTS;
      check->ort_message = g_steal_pointer (&c->reject);
    }
  else if (c->crash_stream >= 0)
    check->verdict = PV_ORT_CRASHES;
  else
    check->verdict = PV_ORT_ACCEPTS;

  if (check->effective_is_default)
    check->effective = pv_partition_config_default (c->graph, c->node_devices);
  else if (check->verdict == PV_ORT_ACCEPTS)
    {
      check->effective = pv_partition_config_new ((int) c->streams->len);
      for (guint s = 0; s < c->streams->len; s++)
        {
          CStream *st = &g_array_index (c->streams, CStream, s);
          PvStream *out = &check->effective->streams[s];
          out->n_nodes = (int) st->nodes->len;
          out->nodes = g_memdup2 (st->nodes->data, sizeof (int) * MAX (st->nodes->len, 1));
          out->device = pv_partition_node_device (c->node_devices, g_array_index (st->nodes, int, 0));
        }
    }
  else
    check->effective = pv_partition_config_new (0);
}

/* The one sentence: "ONNX Runtime 1.30 will ...". */
static char *
summarise (const Checker *c)
{
  const PvPartitionCheck *check = c->check;
  g_autofree char *n = plural (check->effective->n_streams, "stream", "streams");

  switch (check->verdict)
    {
    case PV_ORT_ACCEPTS:
      return check->effective_is_default ? g_strdup_printf (S_ACCEPTS_DEFAULT, n) : g_strdup_printf (S_ACCEPTS, n);
    case PV_ORT_REJECTS:
      return g_strdup_printf (S_REFUSES, check->ort_message);
    case PV_ORT_DISCARDS:
      return g_strdup_printf (S_DISCARDS, check->ort_message, n);
    case PV_ORT_CRASHES:
    default:
      return g_strdup_printf (S_CRASHES, c->crash_stream);
    }
}

/* The findings, in text order, handed to the check. */
static void
hand_over_findings (Checker *c)
{
  PvPartitionCheck *check = c->check;

  add_hidden_counts (c);
  place_findings (c);
  check->n_findings = (int) c->findings->len;
  check->findings = g_new0 (PvPartitionFinding, MAX (c->findings->len, 1));
  for (guint i = 0; i < c->findings->len; i++)
    {
      PvPartitionFinding *f = c->findings->pdata[i];
      check->findings[i] = *f;
      f->message = f->ort = NULL;
    }
}

static void
checker_clear (Checker *c)
{
  if (c->streams)
    {
      for (guint s = 0; s < c->streams->len; s++)
        {
          CStream *st = &g_array_index (c->streams, CStream, s);
          g_ptr_array_unref (st->names);
          g_free (st->owners);
          g_array_unref (st->nodes);
        }
      g_array_unref (c->streams);
    }
  g_clear_pointer (&c->stream_vals, g_ptr_array_unref);
  g_clear_pointer (&c->device_vals, g_ptr_array_unref);
  g_ptr_array_unref (c->findings);
  g_hash_table_unref (c->kinds);
  g_free (c->discard_owned);
  g_free (c->reject);
}

PvPartitionCheck *
pv_partition_config_check (const PvGraph *graph, const char *text, gsize len, const int *node_devices)
{
  PvPartitionCheck *check = g_new0 (PvPartitionCheck, 1);
  Checker c = { .graph = graph, .text = text ? text : "", .len = text ? len : 0, .node_devices = node_devices,
                .check = check, .crash_stream = -1 };
  PvJsonDoc doc = { 0 };

  c.findings = g_ptr_array_new_with_free_func (finding_free);
  c.kinds = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, finding_kind_free);
  pv_json_doc_parse (&doc, c.text, c.len);
  if (check_json (&c, &doc) && check_top_level (&c))
    {
      check_streams (&c);
      check_devices (&c);
      if (!c.discard && check_counts (&c))
        {
          check_device_types (&c);
          _pv_check_names (&c);
        }
    }
  decide (&c);
  check->summary = summarise (&c);
  hand_over_findings (&c);
  checker_clear (&c);
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

gsize
pv_partition_config_size_limit (const PvGraph *graph)
{
  guint64 limit = 1024 * 1024;

  for (int i = 0; i < graph->n_nodes && limit < PV_READ_FILE_LIMIT; i++)
    limit += 64 + 8 * (guint64) strlen (graph->nodes[i].name);
  return (gsize) MIN (limit, (guint64) PV_READ_FILE_LIMIT);
}

gboolean
pv_partition_check_has_errors (const PvPartitionCheck *check)
{
  for (int i = 0; i < check->n_findings; i++)
    if (check->findings[i].severity == PV_FINDING_ERROR)
      return TRUE;
  return FALSE;
}
