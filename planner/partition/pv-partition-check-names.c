/* pv-partition-check-names.c: step 6 of the partition-config check: each
 * name of each stream to the nodes it names (ORT maps name -> stream, the
 * last stream listing a name winning, then walks the nodes in topological
 * order), and what ORT makes of the streams it builds: nodes in no stream,
 * mixed devices, devices that disagree, listed order, empty streams. */
#include "pv-partition-check-private.h"

#include <string.h>

#define MAX_MISSING_FINDINGS 10
#define MAX_SUGGESTED_NAMES 100 /* unknown names that get "did you mean" */
#define MAX_ORDER_NAMES 30      /* names quoted in an order finding */

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

typedef struct {
  int stream;          /* where it is listed */
  int owner;           /* name_owner() of the name */
  const PvJsonValue *name;
} Occurrence;

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

/* The longest names that get a "did you mean": a row of the edit distance
 * then fits on the stack (one heap block per node compared was a third of
 * the name pass). */
#define MAX_SUGGEST_LEN 256

/* The fuzzers' coverage feedback skips the edit distance: its comparisons
 * are arithmetic on lengths, not decisions about the input, and tracing
 * each cell's three MIN()s made it most of a check's time in the fuzz
 * build (clang 13+; -fsanitize=fuzzer-no-link). */
#if defined(__clang__) && __clang_major__ >= 13
#define NO_FUZZ_COVERAGE __attribute__ ((no_sanitize ("coverage"), noinline))
#else
#define NO_FUZZ_COVERAGE
#endif

/* Edit distance counting a swap of two neighbouring bytes as one edit
 * (optimal string alignment); gives up above @limit. @lb ≤ MAX_SUGGEST_LEN. */
NO_FUZZ_COVERAGE static guint
edit_distance (const char *a, gsize la, const char *b, gsize lb, guint limit)
{
  guint rows[3 * (MAX_SUGGEST_LEN + 1)];
  guint *prev2 = rows, *prev = rows + lb + 1, *cur = rows + 2 * (lb + 1);

  g_assert (lb <= MAX_SUGGEST_LEN);
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

/* A lower bound of edit_distance(): the bytes of one name that the other
 * lacks, counted as multisets (an edit changes each count by at most one, a
 * swap by none). @hist holds @a's byte counts; @used is all zeros and is
 * left so. O(@lb) where the distance is O(@la × @lb): most names are ruled
 * out here. */
NO_FUZZ_COVERAGE static guint
bag_distance (const guint hist[256], guint used[256], gsize la, const char *b, gsize lb)
{
  gsize unmatched_b = 0, unmatched_a;

  for (gsize j = 0; j < lb; j++)
    {
      guchar byte = (guchar) b[j];
      if (used[byte] < hist[byte])
        used[byte]++;
      else
        unmatched_b++;
    }
  unmatched_a = la - (lb - unmatched_b);
  for (gsize j = 0; j < lb; j++)
    used[(guchar) b[j]] = 0;
  return (guint) MAX (unmatched_a, unmatched_b);
}

/* Up to 3 main-graph names nearest to @name: "; did you mean "A", "B" or "C"?" or "".
 * Nearest first, then first in ORT's order. Only the first node of each name
 * (its name owner) is compared: a later node of the same name is as near
 * and would come after it. @name_lens holds strlen() of each node's name. */
static char *
suggestions (const Checker *c, const gsize *name_lens, const char *name, gsize len)
{
  guint limit = len <= 3 ? 1 : MAX (2, (guint) (len / 3));
  int best[3] = { -1, -1, -1 };
  guint dist[3] = { G_MAXUINT, G_MAXUINT, G_MAXUINT };
  guint hist[256] = { 0 }, used[256] = { 0 };
  const PvGraph *g = c->graph;
  GString *out;
  int n = 0;

  if (len > MAX_SUGGEST_LEN)
    return g_strdup ("");
  for (gsize j = 0; j < len; j++)
    hist[(guchar) name[j]]++;
  for (int i = 0; i < g->n_nodes; i++)
    {
      int id = g->order[i];
      gsize nl = name_lens[id];
      guint d;
      if (g->name_owners[id] != id || (nl > len ? nl - len : len - nl) > limit || nl > MAX_SUGGEST_LEN)
        continue;
      if (bag_distance (hist, used, len, g->nodes[id].name, nl) > limit)
        continue;
      d = edit_distance (name, len, g->nodes[id].name, nl, limit);
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
            best[k] = id;
            break;
          }
    }
  out = g_string_new (NULL);
  for (int k = 0; k < 3; k++)
    n += best[k] >= 0;
  for (int k = 0; k < n; k++)
    {
      g_string_append (out, k == 0 ? "; did you mean " : k + 1 == n ? " or " : ", ");
      pv_partition_append_quoted (out, g->nodes[best[k]].name, name_lens[best[k]]);
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
              return g_strdup_printf (W_SUBGRAPH_OF, sub->parent_attr ? sub->parent_attr : "?", owner);
            }
          deeper = find_in_subgraphs (sub, name);
          if (deeper)
            return deeper;
        }
    }
  return NULL;
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
          _pv_check_add (c, st->val->offset, F_ORDER (ort), s, listed_first, runs_first, runs_first);
          return;
        }
      if (p > max_pos)
        {
          max_pos = p;
          max_node = id;
        }
    }
}


/* The step's state: the tables, the names listed, the suggestions made. */
typedef struct {
  Checker *c;
  NameTables t;
  GArray *occurrences;          /* Occurrence */
  GHashTable *suggested;        /* quoted unknown name -> its hint */
  guint n_suggested;
  gsize *name_lens;             /* node id -> strlen of its name, made for the first hint */
} Names;

/* A name no node of the main graph has: say where it is, or what is near. */
static void
report_unknown (Names *n, const PvJsonValue *name)
{
  Checker *c = n->c;
  g_autofree char *shown = pv_partition_quoted (name->str, name->len);
  gboolean has_nul = memchr (name->str, '\0', name->len) != NULL;
  g_autofree char *sub = has_nul ? NULL : find_in_subgraphs (c->graph, name->str);
  const char *hint;

  if (sub)
    {
      _pv_check_add (c, name->offset, F_NODE_OF_SUBGRAPH, shown, sub);
      return;
    }
  hint = g_hash_table_lookup (n->suggested, shown);
  if (hint == NULL && n->n_suggested < MAX_SUGGESTED_NAMES)
    {
      n->n_suggested++;
      if (!has_nul && n->name_lens == NULL)
        {
          n->name_lens = g_new (gsize, MAX (c->graph->n_nodes, 1));
          for (int i = 0; i < c->graph->n_nodes; i++)
            n->name_lens[i] = strlen (c->graph->nodes[i].name);
        }
      hint = has_nul ? g_strdup ("") : suggestions (c, n->name_lens, name->str, name->len);
      g_hash_table_insert (n->suggested, g_strdup (shown), (gpointer) hint);
    }
  _pv_check_add (c, name->offset, F_NO_SUCH_NODE, shown, hint ? hint : "");
}

/* Each name's owner, and the stream that wins it: the last to list it. */
static void
assign_names (Names *n)
{
  Checker *c = n->c;
  NameTables *t = &n->t;

  for (int i = 0; i < c->graph->n_nodes; i++)
    t->n_named[c->graph->name_owners[i]]++;
  for (guint s = 0; s < c->streams->len; s++)
    {
      CStream *st = &g_array_index (c->streams, CStream, s);
      Guess guess = { -1, 0, FALSE };

      st->owners = g_new (int, MAX (st->names->len, 1));
      for (guint k = 0; k < st->names->len; k++)
        {
          const PvJsonValue *name = st->names->pdata[k];
          int owner = st->owners[k] = name_owner (c, name, &guess);
          Occurrence o = { (int) s, owner, name };

          if (owner < 0)
            {
              report_unknown (n, name);
              continue;
            }
          st->had_known = TRUE;
          g_array_append_val (n->occurrences, o);
          /* The first listing of the name anywhere. */
          if (t->winner[owner] == 0 && t->n_named[owner] > 1)
            {
              g_autofree char *shown = pv_partition_quoted (name->str, name->len);
              _pv_check_add (c, name->offset, F_NAME_CLASH, shown, (guint) t->n_named[owner]);
            }
          t->winner[owner] = (int) s + 1;
        }
    }
}

/* Duplicates: a second entry in the winning stream, or entries in streams
 * that lose to a later one. The occurrences come stream by stream, so one
 * count per name does for the stream at hand. */
static void
report_duplicates (Names *n)
{
  NameTables *t = &n->t;

  for (guint i = 0; i < n->occurrences->len; i++)
    {
      const Occurrence *o = &g_array_index (n->occurrences, Occurrence, i);
      int win = t->winner[o->owner] - 1;
      int count = t->seen_stream[o->owner] == o->stream + 1 ? t->seen_count[o->owner] + 1 : 1;
      /* A name that several nodes share is listed once per node by ORT
       * itself: that many entries are not duplicates. */
      gboolean again = count > MAX (1, t->n_named[o->owner]);

      t->seen_stream[o->owner] = o->stream + 1;
      t->seen_count[o->owner] = count;
      if (again)
        {
          g_autofree char *shown = pv_partition_quoted (o->name->str, o->name->len);
          _pv_check_add (n->c, o->name->offset, F_LISTED_TWICE, shown, o->stream);
        }
      else if (o->stream != win)
        {
          g_autofree char *shown = pv_partition_quoted (o->name->str, o->name->len);
          g_autofree char *ort =
            g_strdup_printf (ORT_LAST_WINS, win);
          _pv_check_add (n->c, o->name->offset, F_ALSO_LISTED (ort), shown, win);
        }
    }
}

/* Each node in ORT's order into its winning stream (streams sized first:
 * one g_array_append_val per node was a tenth of the check); the nodes in
 * none make ORT refuse. */
static void
place_nodes (Names *n)
{
  Checker *c = n->c;
  const PvGraph *graph = c->graph;
  g_autofree guint *stream_fill = g_new0 (guint, MAX (c->streams->len, 1));
  int n_missing = 0;

  for (int i = 0; i < graph->n_nodes; i++)
    {
      int s = n->t.winner[graph->name_owners[graph->order[i]]] - 1;
      if (s >= 0)
        stream_fill[s]++;
    }
  for (guint s = 0; s < c->streams->len; s++)
    {
      g_array_set_size (g_array_index (c->streams, CStream, s).nodes, stream_fill[s]);
      stream_fill[s] = 0;
    }
  for (int i = 0; i < graph->n_nodes; i++)
    {
      int id = graph->order[i];
      const PvNode *node = &graph->nodes[id];
      int s = n->t.winner[graph->name_owners[id]] - 1;
      if (s >= 0)
        {
          g_array_index (g_array_index (c->streams, CStream, s).nodes, int, stream_fill[s]++) = id;
          continue;
        }
      if (n_missing == 0)
        c->reject = g_strdup_printf ("Failed to find node \"%s\" in node-stream map", node->name);
      if (n_missing < MAX_MISSING_FINDINGS)
        {
          g_autofree char *shown = pv_partition_quoted_name (node->name);
          g_autofree char *ort = n_missing == 0 ? g_strdup_printf ("%s: %s", ORT_REFUSES, c->reject)
                                                : g_strdup (ORT_REFUSES_FIRST_MISSING);
          _pv_check_add (c, c->streams_val->offset, F_NODE_IN_NO_STREAM (ort), shown, node->op_type);
        }
      n_missing++;
    }
  if (n_missing > MAX_MISSING_FINDINGS)
    _pv_check_add (c, c->streams_val->offset, F_MORE_IN_NO_STREAM, n_missing - MAX_MISSING_FINDINGS);
}

/* A stream ORT builds: mixed devices (an ORT_ENFORCE, before anything
 * touches an empty stream), a device that disagrees, its order. */
static void
check_built_stream (Names *n, guint s)
{
  Checker *c = n->c;
  const PvGraph *graph = c->graph;
  CStream *st = &g_array_index (c->streams, CStream, s);
  const PvJsonValue *d = c->device_vals->pdata[s];
  int first, dev;

  if (st->nodes->len == 0)
    return;
  first = g_array_index (st->nodes, int, 0);
  dev = pv_partition_node_device (c->node_devices, first);
  for (guint k = 1; k < st->nodes->len; k++)
    {
      int id = g_array_index (st->nodes, int, k);
      if (pv_partition_node_device (c->node_devices, id) != dev)
        {
          g_autofree char *a = pv_partition_quoted_name (graph->nodes[first].name);
          g_autofree char *b = pv_partition_quoted_name (graph->nodes[id].name);
          g_autofree char *da = device_text (dev);
          g_autofree char *db = device_text (pv_partition_node_device (c->node_devices, id));
          g_autofree char *ort = c->reject ? g_strdup (ORT_REFUSES_OTHER_FIRST)
                                           : g_strdup_printf ("%s: %s", ORT_REFUSES, MSG_MIXED);
          _pv_check_add (c, st->val->offset, F_MIXED_DEVICES (ort), s, a, da, b, db);
          if (c->reject == NULL)
            c->reject = g_strdup (MSG_MIXED);
          break;
        }
    }
  if (pv_device_type_name (_pv_check_device_value (d)) && _pv_check_device_value (d) != dev)
    {
      g_autofree char *shown = pv_partition_quoted (d->str, d->len);
      g_autofree char *actual = device_text (dev);
      g_autofree char *fname = pv_partition_quoted_name (graph->nodes[first].name);
      _pv_check_add (c, d->offset, F_DEVICE_FROM_FIRST_NODE, s, shown, pv_device_type_name (_pv_check_device_value (d)), s, actual, fname);
    }
  check_order (c, (int) s, st, &n->t);
}

/* Streams left with no node: ORT 1.30 crashes on them. */
static void
check_empty_streams (Checker *c)
{
  for (guint s = 0; s < c->streams->len; s++)
    {
      CStream *st = &g_array_index (c->streams, CStream, s);
      const char *ort = c->reject ? ORT_CRASHES_LATER : ORT_CRASHES;

      if (st->nodes->len > 0)
        continue;
      if (st->names->len == 0)
        _pv_check_add (c, st->val->offset, F_STREAM_EMPTY (ort), s);
      else if (!st->had_known)
        _pv_check_add (c, st->val->offset, F_STREAM_NO_KNOWN (ort), s);
      else
        _pv_check_add (c, st->val->offset, F_STREAM_ALL_LATER (ort), s);
      if (c->crash_stream < 0)
        c->crash_stream = (int) s;
    }
}

void
_pv_check_names (Checker *c)
{
  gsize n_nodes = (gsize) MAX (c->graph->n_nodes, 1);
  g_autofree int *tables = g_new0 (int, 5 * n_nodes);
  g_autoptr (GHashTable) suggested = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GArray) occurrences = g_array_new (FALSE, FALSE, sizeof (Occurrence));
  Names n = { c, { tables, tables + n_nodes, tables + 2 * n_nodes, tables + 3 * n_nodes, tables + 4 * n_nodes },
              occurrences, suggested, 0, NULL };

  assign_names (&n);
  report_duplicates (&n);
  place_nodes (&n);
  for (guint s = 0; s < c->streams->len; s++)
    check_built_stream (&n, s);
  check_empty_streams (c);
  g_free (n.name_lens);
}
