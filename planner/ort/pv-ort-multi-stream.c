/* pv-ort-multi-stream.c: OptimizeReusePlanForMultiStream, ORT's reuse pass
 * when a device has several logic streams.
 *
 * The per-stream passes planned no reuse. This pass walks the dependence
 * graph (each node's producers and its predecessor in its stream) from the
 * sinks towards the sources. At each node it first lets outputs alias or
 * work in place on inputs (TryReuseInput), then offers each output that is
 * still allocated to the values waiting for a buffer of its location and
 * size: the first waiting value whose producer runs after the node and
 * after every consumer of the output takes it (TryReuseOutput). An output
 * nobody takes starts waiting itself. */
#include "pv-ort-allocation-plan-private.h"

#include <string.h>


/* A set of node ids, ascending (value_consumer_map's entries); the ids
 * live in MultiStream.arena. */
typedef struct {
  int *ids;
  int n, cap;
} NodeSet;

/* OrtValue indices, descending: walked from the end, they come in
 * ascending order, and values start waiting mostly in descending order
 * (the walk goes from the sinks up), which the end takes cheaply. The ids
 * live in MultiStream.arena. */
typedef struct {
  int *ids;
  int n, cap;
} WaitList;

typedef struct {
  PvOrtReuse *p;
  int n_nodes, n_streams;
  int *position;          /* node -> position in its stream */
  /* The dependence graph: upstream[upstream_start[node] ..][n_upstream[node]]
   * = producers + previous node in the stream, ascending. ancestors(P) =
   * what fetch_all_dependents(P) collects; since each stream is a chain in
   * it, ancestors are a prefix of every stream: reach[P * n_streams + s] is
   * the last position of stream s among them. */
  int *upstream, *upstream_start, *n_upstream;
  int *reach;
  PvBumpAlloc *arena;         /* the sets' and lists' ids: they only grow, and go together */
  NodeSet *consumers;     /* value_consumer_map, per OrtValue index */
  int *merge;             /* scratch for node_set_add_all */
  int merge_cap;
  guint8 *reused;
  /* waiting_list: per (size class, location) bucket. ORT keys it by
   * (location, TensorShapeProto::ByteSizeLong()) and then asks SameSize();
   * values of one size class have one ByteSizeLong, so the values a bucket
   * here holds are those ORT would find SameSize in its bucket, in the
   * same order. */
  WaitList *waiting;
  gboolean quiet;         /* an order trial: no notes */
} MultiStream;

/* Room for @need ids in @ids (@n used, @cap there). */
static int *
grow_ids (PvBumpAlloc *arena, int *ids, int n, int *cap, int need)
{
  int *grown;

  if (need <= *cap)
    return ids;
  *cap = MAX (need, MAX (4, *cap * 2));
  grown = pv_bump_alloc (arena, sizeof (int) * (gsize) *cap);
  if (n > 0)
    memcpy (grown, ids, sizeof (int) * n);
  return grown;
}

static void
node_set_reserve (MultiStream *m, NodeSet *set, int need)
{
  set->ids = grow_ids (m->arena, set->ids, set->n, &set->cap, need);
}

static void
node_set_add (MultiStream *m, NodeSet *set, int id)
{
  int lo = 0, hi = set->n;

  while (lo < hi)
    {
      int mid = (lo + hi) / 2;
      if (set->ids[mid] == id)
        return;
      if (set->ids[mid] < id)
        lo = mid + 1;
      else
        hi = mid;
    }
  node_set_reserve (m, set, set->n + 1);
  memmove (&set->ids[lo + 1], &set->ids[lo], sizeof (int) * (set->n - lo));
  set->ids[lo] = id;
  set->n++;
}

/* @set becomes the union of @set and @other (a merge of two ascending lists). */
static void
node_set_add_all (MultiStream *m, NodeSet *set, const NodeSet *other)
{
  int i = 0, j = 0, n = 0;

  if (set == other || other->n == 0)
    return;
  if (m->merge_cap < set->n + other->n)
    {
      m->merge_cap = MAX (set->n + other->n, 2 * m->merge_cap);
      m->merge = g_renew (int, m->merge, m->merge_cap);
    }
  while (i < set->n || j < other->n)
    {
      int x;
      if (j == other->n || (i < set->n && set->ids[i] < other->ids[j]))
        x = set->ids[i++];
      else if (i == set->n || other->ids[j] < set->ids[i])
        x = other->ids[j++];
      else
        {
          x = set->ids[i++];
          j++;
        }
      m->merge[n++] = x;
    }
  node_set_reserve (m, set, n);
  memcpy (set->ids, m->merge, sizeof (int) * n);
  set->n = n;
}

static gboolean
is_ancestor (const MultiStream *m, int node, int of)
{
  const PvOrtPlan *plan = m->p->plan;
  return m->position[node] <= m->reach[(gsize) of * m->n_streams + plan->node_stream[node]];
}

static void
build_dependence_graph (MultiStream *m)
{
  const PvGraph *graph = m->p->graph;
  const PvOrtPlan *plan = m->p->plan;
  const PvOrtGraphView *view = m->p->view;
  int total = view->input_nodes_start[m->n_nodes] + m->n_nodes;

  m->position = g_new (int, MAX (m->n_nodes, 1));
  m->upstream = g_new (int, MAX (total, 1));
  m->upstream_start = g_new (int, MAX (m->n_nodes, 1));
  m->n_upstream = g_new0 (int, MAX (m->n_nodes, 1));
  m->reach = g_new (int, MAX ((gsize) m->n_nodes * m->n_streams, 1));
  for (int s = 0; s < plan->n_streams; s++)
    for (int k = 0; k < plan->streams[s].n_nodes; k++)
      m->position[plan->streams[s].nodes[k]] = k;

  total = 0;
  for (int i = 0; i < m->n_nodes; i++)
    {
      int node = graph->order[i], pos = m->position[node], s = plan->node_stream[node];
      int n = view->input_nodes_start[node + 1] - view->input_nodes_start[node];
      int *row = &m->reach[(gsize) node * m->n_streams], *scratch = &m->upstream[total];
      memcpy (scratch, &view->input_nodes[view->input_nodes_start[node]], sizeof (int) * n);
      if (pos > 0)
        {
          /* add the previous node of the stream, keeping the list ascending */
          int prev = plan->streams[s].nodes[pos - 1], at = n;
          gboolean present = FALSE;
          for (int j = 0; j < n; j++)
            present |= scratch[j] == prev;
          if (!present)
            {
              while (at > 0 && scratch[at - 1] > prev)
                {
                  scratch[at] = scratch[at - 1];
                  at--;
                }
              scratch[at] = prev;
              n++;
            }
        }
      m->n_upstream[node] = n;
      m->upstream_start[node] = total;
      total += n;
      for (int t = 0; t < m->n_streams; t++)
        row[t] = -1;
      for (int j = 0; j < n; j++)
        {
          const int *up = &m->reach[(gsize) scratch[j] * m->n_streams];
          for (int t = 0; t < m->n_streams; t++)
            row[t] = MAX (row[t], up[t]);
        }
      row[s] = pos;
    }
}

/* value_consumer_map: the consumers of each allocated (or external) buffer
 * (ORT walks each stream from its end; as sets, the order is moot). */
static void
collect_consumers (MultiStream *m)
{
  PvOrtReuse *p = m->p;
  const PvOrtPlan *plan = p->plan;
  const PvOrtGraphView *view = p->view;
  g_autofree int *root = g_new (int, MAX (p->n_values, 1));
  int total = 0, *block;

  m->consumers = g_new (NodeSet, MAX (p->n_values, 1));
  for (int i = 0; i < p->n_values; i++)
    {
      int origin = plan->values[i].reused_buffer;
      PvOrtAllocKind kind = plan->values[origin].kind;
      root[i] = kind == PV_ORT_ALLOC_ALLOCATE || kind == PV_ORT_ALLOC_ALLOCATED_EXTERNALLY ? origin : -1;
      m->consumers[i] = (NodeSet) { NULL, 0, 0 };
    }
  /* Count, make room for every use in one block (sets that grow later
   * move out), list, then sort each set and drop repeats. */
  for (int pass = 0; pass < 2; pass++)
    {
      for (int node_id = 0; node_id < m->n_nodes; node_id++)
        {
          const int *uses = pv_ort_view_inputs (view, node_id);
          for (int a = 0; a < pv_ort_view_n_uses (view, node_id); a++)
            {
              int r = uses[a] >= 0 ? root[uses[a]] : -1;
              if (r < 0)
                continue;
              if (pass == 0)
                m->consumers[r].cap++;
              else
                m->consumers[r].ids[m->consumers[r].n++] = node_id;
            }
        }
      if (pass == 1)
        break;
      for (int i = 0; i < p->n_values; i++)
        total += m->consumers[i].cap;
      block = pv_bump_alloc (m->arena, sizeof (int) * (gsize) MAX (total, 1));
      total = 0;
      for (int i = 0; i < p->n_values; i++)
        {
          m->consumers[i].ids = &block[total];
          total += m->consumers[i].cap;
        }
    }
  for (int i = 0; i < p->n_values; i++)
    {
      NodeSet *set = &m->consumers[i];
      int w = 0;
      for (int k = 1; k < set->n; k++)
        {
          int x = set->ids[k], j = k;
          for (; j > 0 && set->ids[j - 1] > x; j--)
            set->ids[j] = set->ids[j - 1];
          set->ids[j] = x;
        }
      for (int k = 0; k < set->n; k++)
        if (w == 0 || set->ids[w - 1] != set->ids[k])
          set->ids[w++] = set->ids[k];
      set->n = w;
    }
}

static void
add_note (PvOrtReuse *p, int in, int out)
{
  int note[2] = { in, out };
  g_array_append_val (p->notes, note);
}

static void
stream_reuse (MultiStream *m, int in, int out, PvOrtReuseRule rule)
{
  PvOrtValuePlan *vp = &m->p->plan->values[out];
  vp->kind = PV_ORT_ALLOC_REUSE;
  vp->reused_buffer = in;
  vp->reuse_rule = rule;
  node_set_add_all (m, &m->consumers[in], &m->consumers[out]);
  m->reused[in] = TRUE;
}

/* TryReuseInput: outputs that alias or work in place on an input. */
static void
try_reuse_input (MultiStream *m, int node_id)
{
  PvOrtReuse *p = m->p;
  int n_inputs = pv_ort_view_n_inputs (p->view, node_id), n_outputs = pv_ort_view_n_outputs (p->view, node_id);
  const PvKernelBehaviour *kernel = p->ctx->kernels[node_id];
  const int *inputs = pv_ort_reuse_inputs (p, node_id), *outputs = pv_ort_reuse_outputs (p, node_id);
  PvOrtValuePlan *values = p->plan->values;

  for (int o = 0; o < n_outputs; o++)
    {
      int out = outputs[o];
      gboolean found = FALSE;

      if (out < 0 || values[out].kind != PV_ORT_ALLOC_ALLOCATE)
        continue;
      /* ORT records (input, output) pairs in input_output_map here;
       * try_reuse_output() asks the node's inputs instead. */

      for (int i = 0; i < kernel->n_alias && !found; i++)
        {
          int a = kernel->alias[i][0];
          if (kernel->alias[i][1] != o || a < 0 || a >= n_inputs || inputs[a] < 0)
            continue;
          /* No kind check: ORT even aliases a pre-existing input here. */
          if (!m->quiet)
            add_note (p, inputs[a], out);
          stream_reuse (m, inputs[a], out, PV_ORT_REUSE_ALIAS);
          found = TRUE;
        }
      if (found)
        continue;

      if (kernel->has_variadic_alias)
        {
          int a = o - kernel->variadic_output_offset + kernel->variadic_input_offset;
          if (a >= 0 && a < n_inputs && inputs[a] >= 0 && values[inputs[a]].kind == PV_ORT_ALLOC_ALLOCATE)
            {
              stream_reuse (m, inputs[a], out, PV_ORT_REUSE_VARIADIC_ALIAS);
              continue;
            }
        }

      /* Every matching MayInplace pair is tried; a later one overrides. */
      for (int i = 0; i < kernel->n_may_inplace; i++)
        {
          int a = kernel->may_inplace[i][0], in;
          if (kernel->may_inplace[i][1] != o || a < 0 || a >= n_inputs || inputs[a] < 0)
            continue;
          if (pv_ort_reuse_from_external_outputs (p, inputs[a]))
            continue;
          in = inputs[a];
          if (values[in].kind == PV_ORT_ALLOC_ALLOCATE && m->consumers[in].n == 1
              && pv_ort_same_size (&p->shapes[in], &p->shapes[out]))
            stream_reuse (m, in, out, PV_ORT_REUSE_MAY_INPLACE);
        }
    }
}

/* input_output_map holds (input, output) for every explicit input of each
 * node whose output was still allocated when TryReuseInput saw it. A
 * waiting value was allocated then (kinds only ever turn to kReuse), so
 * its pairs are exactly its producer's explicit inputs. */
static gboolean
is_explicit_input (const PvOrtReuse *p, int idx, int node)
{
  const int *inputs = pv_ort_reuse_inputs (p, node);

  for (int a = 0; a < pv_ort_view_n_inputs (p->view, node); a++)
    if (inputs[a] == idx)
      return TRUE;
  return FALSE;
}

static void
wait_list_insert (MultiStream *m, WaitList *list, int idx)
{
  int at = list->n;

  list->ids = grow_ids (m->arena, list->ids, list->n, &list->cap, list->n + 1);
  while (at > 0 && list->ids[at - 1] < idx)
    at--;
  memmove (&list->ids[at + 1], &list->ids[at], sizeof (int) * (list->n - at));
  list->ids[at] = idx;
  list->n++;
}

/* TryReuseOutput: give this node's outputs to waiting downstream values that
 * are produced after every consumer of the output is done. */
static void
try_reuse_output (MultiStream *m, int node_id)
{
  PvOrtReuse *p = m->p;
  int n_outputs = pv_ort_view_n_outputs (p->view, node_id);
  const int *outputs = pv_ort_reuse_outputs (p, node_id);
  PvOrtValuePlan *values = p->plan->values;

  for (int o = 0; o < n_outputs; o++)
    {
      int out = outputs[o];
      const PvOrtShapeClass *shape;
      WaitList *list;
      gboolean got = FALSE;

      if (out < 0 || m->reused[out] || values[out].kind != PV_ORT_ALLOC_ALLOCATE)
        continue;
      shape = &p->shapes[out];
      /* Without a shape ORT skips the value; SameSize with nothing, it
       * would wait where no value ever takes it. */
      if (!shape->has_shape || shape->size_class < 0)
        continue;
      list = &m->waiting[shape->size_class * p->n_locations + p->location[out]];
      for (int i = list->n - 1; i >= 0 && !got; i--)
        {
          int down = list->ids[i], producer = p->producer[down];
          gboolean covered = TRUE;
          if (is_explicit_input (p, out, producer))
            continue;
          if (!is_ancestor (m, node_id, producer))
            continue;
          for (int c = 0; c < m->consumers[out].n && covered; c++)
            covered = is_ancestor (m, m->consumers[out].ids[c], producer);
          if (!covered)
            continue;
          values[down].kind = PV_ORT_ALLOC_REUSE;
          values[down].reused_buffer = out;
          values[down].reuse_rule = PV_ORT_REUSE_STREAM_DOWNSTREAM;
          node_set_add (m, &m->consumers[out], producer);
          node_set_add_all (m, &m->consumers[out], &m->consumers[down]);
          memmove (&list->ids[i], &list->ids[i + 1], sizeof (int) * (list->n - i - 1));
          list->n--;
          got = TRUE;
        }
      if (got)
        m->reused[out] = TRUE;
      else
        wait_list_insert (m, list, out);
    }
}

/* Another order ORT may take: its dependence graph is an absl hash map and
 * its upstream lists hash sets, whose iteration order is seeded per process
 * (ASLR), so the walk's order among nodes ready together changes from one
 * process to the next. @order NULL: ascending ids, planviz's plan. */
static void
shuffle (GRand *order, int *ids, int n)
{
  for (int i = n - 1; order && i > 0; i--)
    {
      int j = g_rand_int_range (order, 0, i + 1), t = ids[i];
      ids[i] = ids[j];
      ids[j] = t;
    }
}

/* Walks the dependence graph from its sinks towards its sources (Kahn on
 * the reversed edges), TryReuseInput then TryReuseOutput at each node.
 * Only nodes with upstream nodes are keys of ORT's dependence graph, so
 * only they can start the walk. @order: see shuffle(). */
static void
walk (MultiStream *m, GRand *order)
{
  g_autofree int *downstream_count = g_new0 (int, MAX (m->n_nodes, 1));
  g_autofree int *queue = g_new (int, MAX (m->n_nodes, 1));
  g_autofree int *up = NULL;
  int head = 0, tail = 0, max_up = 1;

  for (int n = 0; n < m->n_nodes; n++)
    {
      max_up = MAX (max_up, m->n_upstream[n]);
      for (int j = 0; j < m->n_upstream[n]; j++)
        downstream_count[m->upstream[m->upstream_start[n] + j]]++;
    }
  up = g_new (int, max_up);
  for (int n = 0; n < m->n_nodes; n++)
    if (m->n_upstream[n] > 0 && downstream_count[n] == 0)
      queue[tail++] = n;
  shuffle (order, queue, tail);
  while (head < tail)
    {
      int node_id = queue[head++], n_up = m->n_upstream[node_id];

      try_reuse_input (m, node_id);
      try_reuse_output (m, node_id);
      memcpy (up, &m->upstream[m->upstream_start[node_id]], sizeof (int) * n_up);
      shuffle (order, up, n_up);
      for (int j = 0; j < n_up; j++)
        if (--downstream_count[up[j]] == 0)
          queue[tail++] = up[j];
    }
}

/* Points every reuse at the end of its chain. */
static void
flatten_chains (PvOrtPlan *plan, int n_values)
{
  for (int i = 0; i < n_values; i++)
    {
      PvOrtValuePlan *vp = &plan->values[i];
      if (vp->kind != PV_ORT_ALLOC_REUSE)
        continue;
      while (plan->values[vp->reused_buffer].kind == PV_ORT_ALLOC_REUSE
             && vp->reused_buffer != plan->values[vp->reused_buffer].reused_buffer)
        vp->reused_buffer = plan->values[vp->reused_buffer].reused_buffer;
    }
}

/* The pass's state back to where it starts: @saved values, consumers from
 * them, nothing reused or waiting. */
static void
reset (MultiStream *m, const PvOrtValuePlan *saved, int n_lists)
{
  PvOrtReuse *p = m->p;

  memcpy (p->plan->values, saved, sizeof (PvOrtValuePlan) * (gsize) p->n_values);
  g_free (m->consumers);
  collect_consumers (m);
  memset (m->reused, 0, MAX (p->n_values, 1));
  for (int l = 0; l < n_lists; l++)
    m->waiting[l].n = 0;
}

void
pv_ort_optimize_multi_stream (PvOrtReuse *p)
{
  const PvGraph *graph = p->graph;
  PvOrtPlan *plan = p->plan;
  MultiStream m = { 0 };
  int n_lists = MAX (p->n_classes * p->n_locations, 1), n_values = MAX (p->n_values, 1);
  g_autofree PvOrtValuePlan *saved = g_memdup2 (plan->values, sizeof (PvOrtValuePlan) * (gsize) n_values);
  int n_trials = p->ctx->order_trials;
  g_autofree int *outcomes = g_new (int, (gsize) 2 * n_values * MAX (n_trials, 1));

  m.p = p;
  m.n_nodes = graph->n_nodes;
  m.n_streams = MAX (plan->n_streams, 1);
  m.arena = pv_bump_alloc_new ();
  build_dependence_graph (&m);
  m.reused = g_new0 (guint8, n_values);
  m.waiting = g_new0 (WaitList, n_lists);

  /* Other orders ORT may walk in (see shuffle()), then planviz's own: a
   * value planned differently in one of them is one ORT 1.30 plans at
   * random, from one process to the next. */
  m.quiet = TRUE;
  for (int t = 0; t < n_trials; t++)
    {
      g_autoptr (GRand) order = g_rand_new_with_seed (t + 1);
      int *out = &outcomes[(gsize) 2 * n_values * t];

      reset (&m, saved, n_lists);
      walk (&m, order);
      flatten_chains (plan, p->n_values);
      for (int i = 0; i < p->n_values; i++)
        {
          out[2 * i] = plan->values[i].kind;
          out[2 * i + 1] = plan->values[i].reused_buffer;
        }
    }
  m.quiet = FALSE;
  plan->order_trials = n_trials;
  reset (&m, saved, n_lists);
  walk (&m, NULL);
  flatten_chains (plan, p->n_values);
  for (int t = 0; t < n_trials; t++)
    for (int i = 0; i < p->n_values; i++)
      {
        const int *out = &outcomes[(gsize) 2 * n_values * t + 2 * i];
        if (out[0] != (int) plan->values[i].kind || out[1] != plan->values[i].reused_buffer)
          plan->values[i].order_dependent = TRUE;
      }

  pv_bump_alloc_free (m.arena);
  g_free (m.waiting);
  g_free (m.consumers);
  g_free (m.merge);
  g_free (m.upstream);
  g_free (m.upstream_start);
  g_free (m.n_upstream);
  g_free (m.position);
  g_free (m.reach);
  g_free (m.reused);
}
