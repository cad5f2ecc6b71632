#include "pv-graph-order.h"

#include <stdlib.h>

#include "pv-bump-alloc.h"
#include "pv-error.h"

static int
compare_int (const void *a, const void *b)
{
  int x = *(const int *) a, y = *(const int *) b;
  return (x > y) - (x < y);
}

/* Most nodes have a handful of producers or consumers: insertion sort
 * beats qsort's setup there (this runs for every node in several planner
 * passes); past 16, qsort, so that a node with 100,000 consumers in
 * descending order is not quadratic. */
static void
sort_node_ids (int *ids, int n)
{
  if (n > 16)
    {
      qsort (ids, n, sizeof (int), compare_int);
      return;
    }
  for (int i = 1; i < n; i++)
    {
      int x = ids[i], j = i;
      for (; j > 0 && ids[j - 1] > x; j--)
        ids[j] = ids[j - 1];
      ids[j] = x;
    }
}

int
pv_node_input_nodes (const PvGraph *graph, const PvNode *node, int *out)
{
  int n = 0;

  for (int k = 0; k < node->n_inputs + node->n_implicit_inputs; k++)
    {
      int v = k < node->n_inputs ? node->inputs[k] : node->implicit_inputs[k - node->n_inputs];
      int producer = v >= 0 ? graph->values[v].producer : -1;
      if (producer >= 0)
        out[n++] = producer;
    }
  sort_node_ids (out, n);
  /* Drop duplicates: one edge per producer is all the order needs. */
  int w = 0;
  for (int i = 0; i < n; i++)
    if (w == 0 || out[w - 1] != out[i])
      out[w++] = out[i];
  return w;
}

static int
max_input_count (const PvGraph *graph)
{
  int max = 1;

  for (int i = 0; i < graph->n_nodes; i++)
    max = MAX (max, graph->nodes[i].n_inputs + graph->nodes[i].n_implicit_inputs);
  return max;
}

static gboolean
check_unique_names (PvGraph *graph, GError **error)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (int i = 0; i < graph->n_nodes; i++)
    {
      const char *name = graph->nodes[i].name;
      if (name[0] == '\0')
        continue;
      if (!g_hash_table_add (seen, (gpointer) name))
        {
          g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_INVALID,
                       "two nodes are named “%s” (ONNX Runtime refuses such models)", name);
          return FALSE;
        }
    }
  return TRUE;
}

int
pv_node_output_nodes (const PvGraph *graph, const PvNode *node, int *out, gboolean *mark)
{
  int n = 0;

  for (int o = 0; o < node->n_outputs; o++)
    {
      guint n_consumers;
      const guint *consumers;
      if (node->outputs[o] < 0)
        continue;
      consumers = pv_graph_value_consumers (graph, node->outputs[o], &n_consumers);
      for (guint c = 0; c < n_consumers; c++)
        if (!mark[consumers[c]])
          {
            mark[consumers[c]] = TRUE;
            out[n++] = (int) consumers[c];
          }
    }
  for (int i = 0; i < n; i++)
    mark[out[i]] = FALSE;
  sort_node_ids (out, n);
  return n;
}

/* Kahn's algorithm; on a cycle, walks input edges among the unsorted nodes
 * until a node repeats, and names that loop. */
static gboolean
check_acyclic (PvGraph *graph, GError **error)
{
  int n = graph->n_nodes, done = 0, head = 0;
  g_autofree int *pending = g_new0 (int, MAX (n, 1));
  g_autofree int *queue = g_new (int, MAX (n, 1));
  g_autofree int *inputs = g_new (int, max_input_count (graph));
  g_autofree int *outputs = g_new (int, MAX (n, 1));
  g_autofree gboolean *mark = g_new0 (gboolean, MAX (n, 1));

  for (int i = 0; i < n; i++)
    {
      pending[i] = pv_node_input_nodes (graph, &graph->nodes[i], inputs);
      if (pending[i] == 0)
        queue[done++] = i;
    }
  /* Edges between nodes, counted once each way: a node that feeds another
   * through two outputs releases it once (counting per output released it
   * early and hid the cycle through its third input). */
  while (head < done)
    {
      int k = pv_node_output_nodes (graph, &graph->nodes[queue[head++]], outputs, mark);
      for (int c = 0; c < k; c++)
        if (--pending[outputs[c]] == 0)
          queue[done++] = outputs[c];
    }
  if (done == n)
    return TRUE;

  {
    g_autofree int *step = g_new (int, MAX (n, 1));
    GString *cycle = g_string_new (NULL);
    int start = -1, cur;

    for (int i = 0; i < n && start < 0; i++)
      if (pending[i] > 0)
        start = i;
    for (int i = 0; i < n; i++)
      step[i] = -1;
    /* Follow an unsorted producer from each unsorted node: it must loop. */
    cur = start;
    while (step[cur] < 0)
      {
        int k = pv_node_input_nodes (graph, &graph->nodes[cur], inputs), next = -1;
        for (int j = 0; j < k && next < 0; j++)
          if (pending[inputs[j]] > 0)
            next = inputs[j];
        step[cur] = next;
        cur = next;
      }
    /* cur is on the loop; print it in data-flow order (producer first). */
    {
      GArray *loop = g_array_new (FALSE, FALSE, sizeof (int));
      int c = cur, lowest = cur;
      /* Start at the lowest id so the message does not depend on the walk. */
      do
        {
          lowest = MIN (lowest, c);
          c = step[c];
        }
      while (c != cur);
      c = lowest;
      do
        {
          g_array_prepend_val (loop, c);
          c = step[c];
        }
      while (c != lowest);
      /* prepending reversed the walk (consumer -> producer) into data-flow
       * order, ending at lowest: rotate lowest to the front. */
      g_array_prepend_val (loop, lowest);
      g_array_set_size (loop, loop->len - 1);
      for (guint i = 0; i <= loop->len; i++)
        {
          const PvNode *node = &graph->nodes[g_array_index (loop, int, i % loop->len)];
          g_string_append_printf (cycle, "%s%s", i ? " → " : "", node->name[0] ? node->name : node->op_type);
        }
      g_array_unref (loop);
    }
    g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_CYCLE, "the graph has a cycle: %s (%d nodes cannot be ordered)",
                 cycle->str, n - done);
    g_string_free (cycle, TRUE);
  }
  return FALSE;
}

static void
compute_default_order (PvGraph *graph)
{
  int n = graph->n_nodes, n_order = 0, top = 0, capacity = MAX (n, 16);
  g_autofree gboolean *has_output_edge = g_new0 (gboolean, MAX (n, 1));
  g_autofree gboolean *visited = g_new0 (gboolean, MAX (n, 1));
  g_autofree int *inputs = g_new (int, max_input_count (graph));
  /* Stack entries: node id * 2 + 1 for "leave", * 2 for "enter". */
  g_autofree int *stack = g_new (int, capacity);

  for (int i = 0; i < n; i++)
    {
      int k = pv_node_input_nodes (graph, &graph->nodes[i], inputs);
      for (int j = 0; j < k; j++)
        has_output_edge[inputs[j]] = TRUE;
    }
  graph->order = g_new (int, MAX (n, 1));
  for (int i = 0; i < n; i++)
    if (!has_output_edge[i])
      stack[top++] = i * 2;

  while (top > 0)
    {
      int entry = stack[--top], id = entry / 2, k;

      if (entry & 1)
        {
          graph->nodes[id].order_position = n_order;
          graph->order[n_order++] = id;
          continue;
        }
      if (visited[id])
        continue;
      visited[id] = TRUE;
      k = pv_node_input_nodes (graph, &graph->nodes[id], inputs);
      if (top + k + 1 > capacity)
        {
          capacity = 2 * (top + k + 1);
          stack = g_renew (int, stack, capacity);
        }
      stack[top++] = id * 2 + 1;
      for (int j = 0; j < k; j++)
        stack[top++] = inputs[j] * 2;
    }
  g_assert (n_order == n);
}

static void
assign_names (PvGraph *graph)
{
  g_autoptr (GHashTable) counters = g_hash_table_new (g_direct_hash, g_direct_equal);

  graph->node_by_name = pv_name_index_new ((gsize) graph->n_nodes);
  graph->name_owners = g_new (int, MAX (graph->n_nodes, 1));
  graph->order_names = g_new (const char *, MAX (graph->n_nodes, 1));
  for (int i = 0; i < graph->n_nodes; i++)
    {
      PvNode *node = &graph->nodes[graph->order[i]];
      if (node->name[0] == '\0')
        {
          guint count = GPOINTER_TO_UINT (g_hash_table_lookup (counters, node->op_type));
          g_autofree char *name = g_strdup_printf ("%s%u", node->op_type, count);
          g_hash_table_insert (counters, (gpointer) node->op_type, GUINT_TO_POINTER (count + 1));
          node->name = g_string_chunk_insert_const (graph->strings, name);
          node->name_generated = TRUE;
        }
      /* Generated names can collide with given ones; the first in order wins lookups. */
      graph->name_owners[graph->order[i]] = pv_name_index_add (graph->node_by_name, node->name, graph->order[i]);
      graph->order_names[i] = node->name;
    }
}

static void
assign_ort_indices (PvGraph *graph)
{
  int n = 0;

  graph->ort_values = g_new (int, MAX (graph->n_values, 1));
#define INDEX(v) \
  G_STMT_START { \
    int v_ = (v); \
    if (v_ >= 0 && graph->values[v_].ort_index < 0) \
      { \
        graph->values[v_].ort_index = n; \
        graph->ort_values[n++] = v_; \
      } \
  } G_STMT_END
  for (int i = 0; i < graph->n_inputs; i++)
    INDEX (graph->inputs[i]);
  for (int i = 0; graph->constants_listed_as_inputs && i < graph->n_initializers; i++)
    if (graph->values[graph->initializers[i]].flags & PV_VALUE_FROM_CONSTANT)
      INDEX (graph->initializers[i]);
  for (int i = 0; i < graph->n_nodes; i++)
    {
      const PvNode *node = &graph->nodes[i];
      for (int k = 0; k < node->n_inputs; k++)
        INDEX (node->inputs[k]);
      for (int k = 0; k < node->n_implicit_inputs; k++)
        INDEX (node->implicit_inputs[k]);
      for (int k = 0; k < node->n_outputs; k++)
        INDEX (node->outputs[k]);
    }
  for (int i = 0; i < graph->n_outputs; i++)
    INDEX (graph->outputs[i]);
#undef INDEX
  graph->n_ort_values = n;
}

/* graph->node_io and graph->node_producers. */
static void
build_node_lists (PvGraph *graph)
{
  int n = graph->n_nodes, n_io = 0, n_uses = 0, at = 0;

  if (graph->arena == NULL)
    graph->arena = pv_bump_alloc_new ();
  for (int k = 0; k < n; k++)
    {
      n_uses += graph->nodes[k].n_inputs + graph->nodes[k].n_implicit_inputs;
      n_io += graph->nodes[k].n_inputs + graph->nodes[k].n_implicit_inputs + graph->nodes[k].n_outputs;
    }
  graph->node_io_at = pv_bump_alloc (graph->arena, sizeof (int) * (3 * n + 1));
  graph->node_io = pv_bump_alloc (graph->arena, sizeof (int) * MAX (n_io, 1));
  graph->node_producers_start = pv_bump_alloc (graph->arena, sizeof (int) * (n + 1));
  graph->node_producers = pv_bump_alloc (graph->arena, sizeof (int) * MAX (n_uses, 1));
  for (int k = 0; k < n; k++)
    {
      const PvNode *node = &graph->nodes[k];
      graph->node_io_at[3 * k] = at;
      for (int j = 0; j < node->n_inputs; j++)
        graph->node_io[at++] = node->inputs[j] >= 0 ? graph->values[node->inputs[j]].ort_index : -1;
      graph->node_io_at[3 * k + 1] = at;
      for (int j = 0; j < node->n_implicit_inputs; j++)
        graph->node_io[at++] = node->implicit_inputs[j] >= 0 ? graph->values[node->implicit_inputs[j]].ort_index : -1;
      graph->node_io_at[3 * k + 2] = at;
      for (int j = 0; j < node->n_outputs; j++)
        graph->node_io[at++] = node->outputs[j] >= 0 ? graph->values[node->outputs[j]].ort_index : -1;
    }
  graph->node_io_at[3 * n] = at;
  at = 0;
  for (int k = 0; k < n; k++)
    {
      graph->node_producers_start[k] = at;
      at += pv_node_input_nodes (graph, &graph->nodes[k], &graph->node_producers[at]);
    }
  graph->node_producers_start[n] = at;
}

gboolean
pv_graph_finish_order (PvGraph *graph, GError **error)
{
  if (!check_unique_names (graph, error) || !check_acyclic (graph, error))
    return FALSE;
  compute_default_order (graph);
  assign_names (graph);
  assign_ort_indices (graph);
  build_node_lists (graph);
  return TRUE;
}
