#include "pv-slot-planner.h"

#include "pv-value-aliases.h"

#include <string.h>

void
pv_slot_plan_free (PvSlotPlan *plan)
{
  if (plan == NULL)
    return;
  g_free (plan->unknown);
  g_free (plan->unsized);
  g_free (plan->slot_of);
  g_free (plan->bytes);
  g_free (plan->slots);
  pv_liveness_free (plan->liveness);
  g_free (plan);
}

static int
compare_ints (gconstpointer a, gconstpointer b)
{
  int x = *(const int *) a, y = *(const int *) b;
  return (x > y) - (x < y);
}

/* Free slots are kept by capacity, then id: the best fit (smallest
 * capacity >= need, then smallest id) is the first that fits. Returns its
 * index in @free_slots, or free_slots->len when none fits. */
static guint
first_fit (const GArray *free_slots, const PvSlot *slots, guint64 need)
{
  guint lo = 0, hi = free_slots->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (slots[g_array_index (free_slots, int, mid)].capacity < need)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static int
allocate (GArray *free_slots, GArray *slots, guint64 need)
{
  guint index = first_fit (free_slots, (const PvSlot *) slots->data, need);
  PvSlot slot;

  if (index < free_slots->len)
    {
      int id = g_array_index (free_slots, int, index);
      g_array_remove_index (free_slots, index);
      return id;
    }
  slot.id = (int) slots->len;
  slot.capacity = need;
  g_array_append_val (slots, slot);
  return slot.id;
}

/* Returns slot @id to @free_slots, in capacity-then-id order. */
static void
release (GArray *free_slots, const GArray *slots, int id)
{
  const PvSlot *all = (const PvSlot *) slots->data;
  guint lo = 0, hi = free_slots->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      const PvSlot *s = &all[g_array_index (free_slots, int, mid)];
      if (s->capacity < all[id].capacity || (s->capacity == all[id].capacity && s->id < id))
        lo = mid + 1;
      else
        hi = mid;
    }
  g_array_insert_val (free_slots, lo, id);
}

PvSlotPlan *
pv_slot_plan_new (const PvGraph *graph, const int *view_source, gboolean include_graph_inputs, PvSizeOracle oracle,
                  gpointer oracle_data)
{
  return pv_slot_plan_new_for_streams (graph, view_source, include_graph_inputs, NULL, oracle, oracle_data);
}

PvSlotPlan *
pv_slot_plan_new_for_streams (const PvGraph *graph, const int *view_source, gboolean include_graph_inputs,
                              const PvHappensBefore *hb, PvSizeOracle oracle, gpointer oracle_data)
{
  g_autofree int *view_root = pv_value_view_roots (view_source, graph->n_values);
  PvLiveness *live = pv_liveness_new (graph, view_source ? view_root : NULL, include_graph_inputs);

  if (hb)
    pv_liveness_widen_for_streams (live, graph, hb);
  return pv_slot_plan_new_for_liveness (graph, live, oracle, oracle_data);
}

PvSlotPlan *
pv_slot_plan_new_for_liveness (const PvGraph *graph, PvLiveness *live, PvSizeOracle oracle, gpointer oracle_data)
{
  PvSlotPlan *plan = g_new0 (PvSlotPlan, 1);
  g_autoptr (GArray) unknown = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr (GArray) unsized = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr (GArray) slots = g_array_new (FALSE, FALSE, sizeof (PvSlot));
  g_autoptr (GArray) free_slots = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree int *retire_start = NULL, *retire_list = NULL;
  gboolean *planned;
  int n = graph->n_values;

  plan->liveness = live;
  plan->slot_of = g_new (int, MAX (n, 1));
  plan->bytes = g_new0 (guint64, MAX (n, 1));
  planned = g_new0 (gboolean, MAX (n, 1));
  for (int v = 0; v < n; v++)
    plan->slot_of[v] = -1;

  for (int i = 0; i < live->n_owners; i++)
    {
      int v = live->owners[i];
      switch (oracle (oracle_data, v, &plan->bytes[v]))
        {
        case PV_SIZE_KNOWN:
          planned[v] = TRUE;
          plan->naive_bytes += plan->bytes[v];
          break;
        case PV_SIZE_UNKNOWN:
          g_array_append_val (unknown, v);
          break;
        case PV_SIZE_NONE:
          g_array_append_val (unsized, v);
          break;
        }
    }
  /* Owners were collected in step order: the report wants ascending ids. */
  g_array_sort (unknown, compare_ints);
  g_array_sort (unsized, compare_ints);
  plan->n_unsized = (int) unsized->len;
  plan->unsized = g_memdup2 (unsized->data, sizeof (int) * MAX (unsized->len, 1));
  if (unknown->len > 0)
    {
      plan->deferred = TRUE;
      plan->n_unknown = (int) unknown->len;
      plan->unknown = g_memdup2 (unknown->data, sizeof (int) * unknown->len);
      g_free (planned);
      return plan;
    }

  /* Owners retiring at each step, as a bucket list (CSR). */
  retire_start = g_new0 (int, live->n_steps + 2);
  retire_list = g_new (int, MAX (live->n_owners, 1));
  for (int i = 0; i < live->n_owners; i++)
    if (planned[live->owners[i]])
      retire_start[live->use_end[live->owners[i]] + 1]++;
  for (int s = 0; s <= live->n_steps; s++)
    retire_start[s + 1] += retire_start[s];
  {
    g_autofree int *fill = g_memdup2 (retire_start, sizeof (int) * (live->n_steps + 2));
    for (int i = 0; i < live->n_owners; i++)
      if (planned[live->owners[i]])
        retire_list[fill[live->use_end[live->owners[i]]]++] = live->owners[i];
  }

  /* Graph inputs, when included, hold their slots from the start. */
  for (int i = 0; i < live->n_owners; i++)
    {
      int v = live->owners[i];
      if (planned[v] && live->def[v] < 0)
        plan->slot_of[v] = allocate (free_slots, slots, plan->bytes[v]);
    }
  /* Each step's outputs: the owners it defines, which the owner list holds
   * in step and output order after the graph inputs. */
  for (int step = 0, i = 0; step < live->n_steps; step++)
    {
      for (; i < live->n_owners && live->def[live->owners[i]] < step; i++)
        ;
      for (; i < live->n_owners && live->def[live->owners[i]] == step; i++)
        if (planned[live->owners[i]])
          plan->slot_of[live->owners[i]] = allocate (free_slots, slots, plan->bytes[live->owners[i]]);
      /* Retire after allocating: a step never reuses its own inputs. */
      for (int r = retire_start[step]; r < retire_start[step + 1]; r++)
        release (free_slots, slots, plan->slot_of[retire_list[r]]);
    }

  plan->n_slots = (int) slots->len;
  plan->slots = g_memdup2 (slots->data, sizeof (PvSlot) * MAX (slots->len, 1));
  for (int i = 0; i < plan->n_slots; i++)
    plan->peak_bytes += plan->slots[i].capacity;
  plan->savings_ratio = plan->naive_bytes ? 1.0 - (double) plan->peak_bytes / (double) plan->naive_bytes : 0.0;
  g_free (planned);
  return plan;
}

PvSizeResult
pv_shape_sizes_oracle (gpointer data, int value_id, guint64 *bytes_out)
{
  const PvShapeSizes *sizes = data;
  const PvValueShape *s = pv_shape_info_get (sizes->shapes, sizes->graph, value_id);
  gint64 bytes;

  if (s == NULL)
    return PV_SIZE_NONE;
  /* Nothing known (an op with no shape rule, or what follows it), or a
   * tensor of unknown rank or element type: a size planviz cannot compute,
   * never "none" (strings, sequences and maps are the unsized ones). */
  if (s->bytes == NULL)
    return s->kind == PV_TYPE_UNKNOWN || (s->kind == PV_TYPE_TENSOR && (s->rank < 0 || s->elem_type == 0))
               ? PV_SIZE_UNKNOWN
               : PV_SIZE_NONE;
  /* As pv_shape_info_eval_bytes(), without finding the shape again. */
  if (!pv_dim_eval (s->bytes, sizes->bounds, &bytes, NULL) || bytes < 0)
    return PV_SIZE_UNKNOWN;
  *bytes_out = (guint64) bytes;
  return PV_SIZE_KNOWN;
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

gboolean
pv_slot_plan_peak_at_bounds (const PvGraph *graph, const PvShapeInfo *shapes, const int *view_source,
                             gboolean include_graph_inputs, GHashTable *bounds, guint64 *peak_out,
                             char ***unbound_out)
{
  PvShapeSizes sizes = { shapes, graph, bounds };
  g_autoptr (PvSlotPlan) plan = pv_slot_plan_new (graph, view_source, include_graph_inputs, pv_shape_sizes_oracle,
                                                  &sizes);

  if (!plan->deferred)
    {
      *peak_out = plan->peak_bytes;
      if (unbound_out)
        *unbound_out = NULL;
      return TRUE;
    }
  /* Never report zero for a deferred plan: name what is missing. */
  if (unbound_out)
    *unbound_out = pv_slot_plan_unbound_symbols (plan, graph, shapes, bounds);
  return FALSE;
}

char **
pv_slot_plan_unbound_symbols (const PvSlotPlan *plan, const PvGraph *graph, const PvShapeInfo *shapes,
                              GHashTable *bounds)
{
  g_autoptr (GHashTable) symbols = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *unbound = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  for (int i = 0; i < plan->n_unknown; i++)
    pv_dim_collect_symbols (pv_shape_info_get (shapes, graph, plan->unknown[i])->bytes, symbols);
  g_hash_table_iter_init (&iter, symbols);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (bounds == NULL || !g_hash_table_contains (bounds, key))
      g_ptr_array_add (unbound, g_strdup (key));
  g_ptr_array_sort (unbound, compare_strings);
  g_ptr_array_add (unbound, NULL);
  return (char **) g_ptr_array_free (unbound, FALSE);
}
