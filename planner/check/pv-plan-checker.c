#include "pv-plan-checker.h"

#include "pv-happens-before.h"
#include "pv-sort.h"

#include <stdlib.h>
#include <string.h>

/* One memory object: a value and all its views. */
typedef struct {
  int root;            /* value id */
  int def_node;        /* -1: exists before the first step (graph input) */
  gboolean to_end;     /* a graph output: read after the last step */
  const guint *uses;   /* reading nodes, ascending (the graph's consumer list, or pv_plan_check's view_uses) */
  int n_uses;
  int def_pos;         /* global order position of def_node, -1 before the first step */
  PvPlacement place;
} Object;

const char *
pv_violation_effect (PvViolationKind kind)
{
  switch (kind)
    {
    case PV_VIOLATION_NO_MEMORY:
      return "A run writes outside the value's bytes: it can crash or compute wrong outputs.";
    case PV_VIOLATION_OVERLAP:
      return "Wrong outputs in any execution mode: the bytes are overwritten before this read, on the same stream.";
    case PV_VIOLATION_UNORDERED:
      return "Wrong outputs when the streams run at once (ORT's executionMode \"parallel\" with 2 or more "
             "inter-op threads): the write races with the read. Sequential runs may hide it.";
    default:
      return "";
    }
}

void
pv_check_result_free (PvCheckResult *result)
{
  if (result == NULL)
    return;
  for (int i = 0; i < result->n_violations; i++)
    g_free (result->violations[i].message);
  g_free (result->violations);
  g_free (result);
}

/* Node @d may write @b over @a, a value it reads, when its kernel allows the
 * pair in place (@may_inplace_source[b] is a member of a's object). */
static gboolean
in_place (const Object *a, const Object *b, const int *inplace_root)
{
  return inplace_root && inplace_root[b->root] == a->root;
}

/* May @b take bytes @a held? Every reader of @a must be done before @b is
 * written (or be the node writing @b in place), and @a must not be read
 * after the last step. */
static gboolean
ordered_before (const PvHappensBefore *o, const Object *a, const Object *b, const int *inplace_root, int *bad_use)
{
  if (a->to_end)
    {
      *bad_use = -1;
      return FALSE;
    }
  if (!pv_happens_before (o, a->def_node, b->def_node) && a->def_node != b->def_node)
    {
      *bad_use = a->def_node;
      return FALSE;
    }
  for (int i = 0; i < a->n_uses; i++)
    {
      int u = (int) a->uses[i];
      if (u == b->def_node && in_place (a, b, inplace_root))
        continue;
      if (!pv_happens_before (o, u, b->def_node))
        {
          *bad_use = u;
          return FALSE;
        }
    }
  if (a->def_node == b->def_node && !in_place (a, b, inplace_root))
    {
      *bad_use = a->def_node;
      return FALSE;
    }
  return TRUE;
}

static const char *
node_label (const PvGraph *g, int node)
{
  return node >= 0 ? g->nodes[node].name : "(before the first step)";
}

static void
add_violation (GArray *out, PvViolationKind kind, int a, int b, int step_a, int step_b, char *message)
{
  PvViolation v = { kind, a, b, step_a, step_b, message };
  g_array_append_val (out, v);
}

static int
compare_guints (const void *x, const void *y)
{
  guint a = *(const guint *) x, b = *(const guint *) y;
  return (a > b) - (a < b);
}

/* Sorts the @n node ids at @u: a few sorted runs (a value's consumers, then
 * each view's), mostly four ids or so, where an insertion sort beats
 * qsort's call overhead; long ones go to qsort. */
static void
sort_uses (guint *u, guint n)
{
  if (n > 32)
    {
      qsort (u, n, sizeof (guint), compare_guints);
      return;
    }
  for (guint i = 1; i < n; i++)
    {
      guint x = u[i], j = i;
      for (; j > 0 && u[j - 1] > x; j--)
        u[j] = u[j - 1];
      u[j] = x;
    }
}

static char *
describe_conflict (const PvGraph *g, const Object *a, const Object *b, int bad_use, gboolean cross)
{
  g_autofree char *when =
    bad_use < 0 ? g_strdup ("is a graph output (read after the last step), yet")
    : bad_use == a->def_node ? g_strdup_printf ("may still be being written by node “%s” when", node_label (g, bad_use))
                             : g_strdup_printf ("is still read by node “%s” when", node_label (g, bad_use));

  return g_strdup_printf ("values “%s” and “%s” share bytes %" G_GUINT64_FORMAT "–%" G_GUINT64_FORMAT
                          " of region %d, but “%s” %s node “%s” writes “%s”%s",
                          g->values[a->root].name, g->values[b->root].name, MAX (a->place.offset, b->place.offset),
                          MIN (a->place.offset + a->place.size, b->place.offset + b->place.size), b->place.region,
                          g->values[a->root].name, when, node_label (g, b->def_node), g->values[b->root].name,
                          cross ? " on another stream, with no synchronisation between them" : "");
}

/* The objects of a sweep not yet superseded, by offset, then by the order
 * they came in (a position in the sweep's keys). Only objects with bytes are
 * kept: an empty one overlaps nothing. Searching by offset keeps a sweep
 * near n log n where most objects are live at once at distinct offsets (a
 * 100,000-way fan-out), instead of each object against every earlier one.
 * While few are kept (most sweeps of deployed models), a plain list in the
 * order they came in is cheaper than the tree: the tree is built the first
 * time more than ACTIVE_MAX_FEW are. */
#define ACTIVE_MAX_FEW 64

typedef struct {
  const Object *objs;
  const int *keys;
  guint64 probe;      /* the offset of the PROBE key */
  guint64 max_size;   /* of any object ever kept: how far back an overlap can start */
  GTree *tree;        /* GINT_TO_POINTER (position) -> nothing; NULL while few */
  int n_few;
  int few[ACTIVE_MAX_FEW + 1];  /* positions, ascending, while tree is NULL */
} Active;

#define PROBE (-1)    /* a key before every object at Active.probe */

static int
compare_active (gconstpointer a, gconstpointer b, gpointer data)
{
  const Active *act = data;
  int ia = GPOINTER_TO_INT (a), ib = GPOINTER_TO_INT (b);
  guint64 oa = ia == PROBE ? act->probe : act->objs[act->keys[ia]].place.offset;
  guint64 ob = ib == PROBE ? act->probe : act->objs[act->keys[ib]].place.offset;

  if (oa != ob)
    return oa < ob ? -1 : 1;
  return ia < ib ? -1 : ia > ib;
}

static int
compare_int (gconstpointer a, gconstpointer b)
{
  return *(const int *) a - *(const int *) b;
}

static gboolean
overlaps (const PvPlacement *place, const Object *b)
{
  return place->offset < b->place.offset + b->place.size && place->offset + place->size > b->place.offset;
}

/* The kept objects whose bytes overlap @b's, in the order they came in. */
static void
overlapping (Active *act, const Object *b, GArray *out)
{
  guint64 end = b->place.offset + b->place.size;
  GTreeNode *node;

  g_array_set_size (out, 0);
  if (act->tree == NULL)
    {
      for (int i = 0; i < act->n_few; i++)
        if (overlaps (&act->objs[act->keys[act->few[i]]].place, b))
          g_array_append_val (out, act->few[i]);
      return;
    }
  act->probe = b->place.offset >= act->max_size ? b->place.offset - act->max_size + 1 : 0;
  for (node = g_tree_lower_bound (act->tree, GINT_TO_POINTER (PROBE)); node; node = g_tree_node_next (node))
    {
      int k = GPOINTER_TO_INT (g_tree_node_key (node));
      const PvPlacement *place = &act->objs[act->keys[k]].place;
      if (place->offset >= end)
        break;
      if (place->offset + place->size > b->place.offset)
        g_array_append_val (out, k);
    }
  g_array_sort (out, compare_int);
}

static void
active_remove (Active *act, int k)
{
  if (act->tree)
    {
      g_tree_remove (act->tree, GINT_TO_POINTER (k));
      return;
    }
  for (int i = 0; i < act->n_few; i++)
    if (act->few[i] == k)
      {
        memmove (&act->few[i], &act->few[i + 1], (act->n_few - i - 1) * sizeof (int));
        act->n_few--;
        return;
      }
}

/* Keeps position @a (after every kept one). */
static void
active_insert (Active *act, int a)
{
  if (act->tree == NULL)
    {
      act->few[act->n_few++] = a;
      if (act->n_few <= ACTIVE_MAX_FEW)
        return;
      act->tree = g_tree_new_full (compare_active, act, NULL, NULL);
      for (int i = 0; i < act->n_few; i++)
        g_tree_insert (act->tree, GINT_TO_POINTER (act->few[i]), NULL);
      return;
    }
  g_tree_insert (act->tree, GINT_TO_POINTER (a), NULL);
}

/* One region's objects, in definition order: each against the earlier ones
 * whose bytes it overlaps and that no later object has superseded. */
static void
sweep_region (const PvHappensBefore *order, const PvGraph *g, Object *objs, const int *keys, int n, const int *inplace_root,
              GArray *violations)
{
  Active act = { objs, keys, 0, 0, NULL, 0, { 0 } };
  g_autoptr (GArray) candidates = g_array_new (FALSE, FALSE, sizeof (int));

  for (int a = 0; a < n; a++)
    {
      Object *b = &objs[keys[a]];
      if (b->place.size == 0)
        continue;
      overlapping (&act, b, candidates);
      for (guint c = 0; c < candidates->len; c++)
        {
          int k = g_array_index (candidates, int, c);
          Object *prev = &objs[keys[k]];
          int bad_use = -1, ignored;
          gboolean forward = ordered_before (order, prev, b, inplace_root, &bad_use);
          /* Either order is safe if it is guaranteed; the global order only
           * decides which one is reported. */
          if (!forward && !ordered_before (order, b, prev, inplace_root, &ignored))
            {
              gboolean cross = bad_use >= 0 && b->def_node >= 0 && pv_happens_before_stream (order, bad_use) != pv_happens_before_stream (order, b->def_node);
              add_violation (violations, cross ? PV_VIOLATION_UNORDERED : PV_VIOLATION_OVERLAP, prev->root, b->root,
                             bad_use, b->def_node, describe_conflict (g, prev, b, bad_use, cross));
            }
          else if (forward && b->place.offset <= prev->place.offset &&
                   b->place.offset + b->place.size >= prev->place.offset + prev->place.size)
            active_remove (&act, k);  /* b covers prev and safely follows it: superseded */
        }
      active_insert (&act, a);
      act.max_size = MAX (act.max_size, b->place.size);
    }
  if (act.tree)
    g_tree_unref (act.tree);
}

PvCheckResult *
pv_plan_check (const PvGraph *graph, const PvCheckSchedule *schedule, const PvPlacement *placements,
               const int *view_root, const int *may_inplace_source, const guint64 *required_bytes,
               int max_violations)
{
  g_autoptr (PvHappensBefore) order =
    pv_happens_before_new (graph, schedule ? schedule->node_stream : NULL, schedule ? schedule->node_position : NULL,
                           schedule ? schedule->sync_edges : NULL, schedule ? schedule->n_sync_edges : 0);

  return pv_plan_check_in_order (graph, order, placements, view_root, may_inplace_source, required_bytes,
                                 max_violations);
}

/* The checker's objects: one per root value that has a placement or a
 * view needing bytes, with the nodes reading it. */
typedef struct {
  const PvGraph *graph;
  int *root_of;       /* value -> its view root */
  int *object_index;  /* root -> its object, -1 */
  Object *objects;
  int n_objects;
  guint *view_uses;   /* merged use lists of objects whose views are read */
  GArray *violations; /* PvViolation */
} Objects;

/* Objects: every root with a placement, and every value that needs bytes,
 * which its object's placement must hold. */
static void
collect_objects (Objects *o, const PvPlacement *placements, const int *view_root, const guint64 *required_bytes)
{
  const PvGraph *graph = o->graph;
  int n = graph->n_values;
  /* Nodes' order positions, from the order itself (a small array, where
   * reading each node's order_position walks the whole node table). */
  g_autofree int *order_pos = g_new (int, MAX (graph->n_nodes, 1));

  for (int i = 0; i < graph->n_nodes; i++)
    order_pos[graph->order[i]] = i;
  for (int v = 0; v < n; v++)
    o->object_index[v] = -1;
  for (int v = 0; v < n; v++)
    {
      int r = o->root_of[v] = view_root ? view_root[v] : v;
      guint64 need = required_bytes ? required_bytes[v] : 0;
      const Object *obj;
      if (o->object_index[r] < 0 && (placements[r].region >= 0 || need > 0))
        {
          const PvValue *root = &graph->values[r];
          o->object_index[r] = o->n_objects;
          /* Uses: the root's consumers, until views add theirs (below). */
          o->objects[o->n_objects++] = (Object) { .root = r, .def_node = root->producer,
                                                  .def_pos = root->producer >= 0 ? order_pos[root->producer] : -1,
                                                  .uses = graph->consumer_ids + root->consumers_start,
                                                  .n_uses = (int) root->n_consumers,
                                                  .place = placements[r] };
        }
      if (need == 0)
        continue;
      obj = &o->objects[o->object_index[r]];
      if (obj->place.region < 0)
        add_violation (o->violations, PV_VIOLATION_NO_MEMORY, v, -1, graph->values[v].producer, -1,
                       g_strdup_printf ("value “%s” needs %" G_GUINT64_FORMAT " bytes but has no memory",
                                        graph->values[v].name, need));
      else if (obj->place.size < need)
        add_violation (o->violations, PV_VIOLATION_NO_MEMORY, v, -1, graph->values[v].producer, -1,
                       g_strdup_printf ("value “%s” needs %" G_GUINT64_FORMAT " bytes but its memory holds only %"
                                        G_GUINT64_FORMAT, graph->values[v].name, need, obj->place.size));
    }
}

/* Uses: the nodes reading the object's values (its root and the views of
 * it), each once, ascending. An object without views that are read keeps
 * its root's consumer list; the others get a merged copy in view_uses.
 * Graph outputs are read after the last step. */
static void
merge_view_uses (Objects *o)
{
  const PvGraph *graph = o->graph;
  int n = graph->n_values;
  g_autofree guint *extra = g_new0 (guint, MAX (o->n_objects, 1));
  g_autofree gsize *fill = g_new (gsize, MAX (o->n_objects, 1));
  gsize total = 0;

  for (int v = 0; v < n; v++)
    if (o->root_of[v] != v && o->object_index[o->root_of[v]] >= 0)
      extra[o->object_index[o->root_of[v]]] += graph->values[v].n_consumers;
  for (int i = 0; i < o->n_objects; i++)
    {
      fill[i] = total;
      total += extra[i] ? o->objects[i].n_uses + extra[i] : 0;
    }
  o->view_uses = g_new (guint, MAX (total, 1));
  for (int i = 0; i < o->n_objects; i++)
    if (extra[i])
      {
        Object *obj = &o->objects[i];
        memcpy (o->view_uses + fill[i], obj->uses, sizeof (guint) * obj->n_uses);
        fill[i] += obj->n_uses;
      }
  for (int v = 0; v < n; v++)
    if (o->root_of[v] != v && o->object_index[o->root_of[v]] >= 0 && graph->values[v].n_consumers > 0)
      {
        const PvValue *view = &graph->values[v];
        int oi = o->object_index[o->root_of[v]];
        memcpy (o->view_uses + fill[oi], graph->consumer_ids + view->consumers_start,
                sizeof (guint) * view->n_consumers);
        fill[oi] += view->n_consumers;
      }
  for (int i = 0; i < o->n_objects; i++)
    if (extra[i])
      {
        Object *obj = &o->objects[i];
        guint *u = o->view_uses + fill[i] - (obj->n_uses + extra[i]), count = obj->n_uses + extra[i], kept = 0;
        sort_uses (u, count);
        for (guint k = 0; k < count; k++)
          if (kept == 0 || u[kept - 1] != u[k])
            u[kept++] = u[k];
        obj->uses = u;
        obj->n_uses = (int) kept;
      }
  for (int i = 0; i < graph->n_outputs; i++)
    {
      int oi = o->object_index[o->root_of[graph->outputs[i]]];
      if (oi >= 0)
        o->objects[oi].to_end = TRUE;
    }
}

/* In-place pairs, as objects: the writer's object may take the reader's
 * bytes. NULL without pairs. */
static int *
inplace_roots (const Objects *o, const int *may_inplace_source)
{
  int n = o->graph->n_values, *inplace_root;

  if (may_inplace_source == NULL)
    return NULL;
  inplace_root = g_new (int, MAX (n, 1));
  for (int v = 0; v < n; v++)
    inplace_root[v] = -1;
  for (int v = 0; v < n; v++)
    if (may_inplace_source[v] >= 0)
      inplace_root[o->root_of[v]] = o->root_of[may_inplace_source[v]];
  return inplace_root;
}

/* Placed objects by region, then definition position, then root; each
 * region swept on its own. */
static void
sweep_regions (Objects *o, const PvHappensBefore *order, const int *inplace_root)
{
  const Object *objs = o->objects;
  int n = o->graph->n_values, n_sorted = 0;
  g_autofree int *sorted = g_new (int, MAX (o->n_objects, 1));
  g_autofree int *scratch = g_new (int, MAX (o->n_objects, 1));
  g_autofree guint64 *keys = g_new (guint64, MAX (o->n_objects, 1));

  for (int r = 0; r < n; r++)
    if (o->object_index[r] >= 0 && objs[o->object_index[r]].place.region >= 0)
      {
        int oi = o->object_index[r];
        sorted[n_sorted++] = oi;
        keys[oi] = (guint64) objs[oi].place.region << 32 | (guint32) (objs[oi].def_pos + 1);
      }
  pv_sort_by_key (sorted, n_sorted, keys, scratch);
  for (int start = 0, end; start < n_sorted; start = end)
    {
      int region = objs[sorted[start]].place.region;
      for (end = start; end < n_sorted && objs[sorted[end]].place.region == region; end++)
        ;
      sweep_region (order, o->graph, o->objects, sorted + start, end - start, inplace_root, o->violations);
    }
}

PvCheckResult *
pv_plan_check_in_order (const PvGraph *graph, const PvHappensBefore *order, const PvPlacement *placements,
                        const int *view_root, const int *may_inplace_source, const guint64 *required_bytes,
                        int max_violations)
{
  int n = graph->n_values;
  PvCheckResult *result = g_new0 (PvCheckResult, 1);
  g_autoptr (GArray) violations = g_array_new (FALSE, FALSE, sizeof (PvViolation));
  g_autofree int *root_of = g_new (int, MAX (n, 1));
  g_autofree int *object_index = g_new (int, MAX (n, 1));
  g_autofree Object *objects = g_new (Object, MAX (n, 1));  /* at most one per value */
  g_autofree int *inplace_root = NULL;
  Objects o = { graph, root_of, object_index, objects, 0, NULL, violations };

  collect_objects (&o, placements, view_root, required_bytes);
  merge_view_uses (&o);
  inplace_root = inplace_roots (&o, may_inplace_source);
  sweep_regions (&o, order, inplace_root);
  g_free (o.view_uses);

  result->ok = violations->len == 0;
  if (max_violations > 0 && (int) violations->len > max_violations)
    {
      for (guint i = max_violations; i < violations->len; i++)
        g_free (g_array_index (violations, PvViolation, i).message);
      g_array_set_size (violations, max_violations);
    }
  result->n_violations = (int) violations->len;
  result->violations = (PvViolation *) g_array_free (g_steal_pointer (&violations), FALSE);
  return result;
}
