/* pv-session-basis.c: what every plan of one graph shares. */
#include "pv-session-basis.h"

#include "pv-error.h"
#include "pv-kernel-adapter.h"
#include "pv-value-aliases.h"

/* What the bounds do not change: shared by the bases of one graph. */
typedef struct _PvBasisMaps {
  gint ref_count;
  PvShapeInfo *shapes;
  PvOrtShapes *ort_shapes;
  PvKernelAdapter *adapter;  /* the ORT plan basis's lookup: lives as long as it */
  PvOrtPlanBasis *ort;
  int *view_source;
  int *view_root;
  int *inplace_source;
  PvLiveness *liveness;
} PvBasisMaps;

static void
maps_unref (PvBasisMaps *maps)
{
  if (maps == NULL || !g_atomic_int_dec_and_test (&maps->ref_count))
    return;
  pv_ort_plan_basis_free (maps->ort);
  pv_kernel_adapter_free (maps->adapter);
  pv_shape_info_free (maps->shapes);
  pv_ort_shapes_unref (maps->ort_shapes);
  g_free (maps->view_source);
  g_free (maps->view_root);
  g_free (maps->inplace_source);
  pv_liveness_free (maps->liveness);
  g_free (maps);
}

const char *
pv_session_stage_name (PvSessionStage stage)
{
  static const char *const names[PV_SESSION_N_STAGES] = {
    "value maps", "config check", "ORT plan", "schedule", "slots", "slots check",
    "arena", "arena check", "ORT check", "ORT arena", "ORT run",
  };
  g_return_val_if_fail (stage < PV_SESSION_N_STAGES, NULL);
  return names[stage];
}

PvSessionBasis *
pv_session_basis_ref (PvSessionBasis *basis)
{
  g_atomic_int_inc (&basis->ref_count);
  return basis;
}

void
pv_session_basis_unref (PvSessionBasis *basis)
{
  if (basis == NULL || !g_atomic_int_dec_and_test (&basis->ref_count))
    return;
  maps_unref (basis->maps);
  g_hash_table_unref (basis->bounds);
  g_free (basis->size_kind);
  g_free (basis->value_bytes);
  g_strfreev (basis->symbols);
  g_strfreev (basis->no_shape_rule);
  g_strfreev (basis->unbound_symbols);
  g_clear_error (&basis->size_error);
  g_free (basis);
}

PvSizeResult
pv_session_basis_size (gpointer data, int value_id, guint64 *bytes_out)
{
  const PvSessionBasis *basis = data;

  if (basis->size_kind[value_id] == PV_SIZE_KNOWN)
    *bytes_out = basis->value_bytes[value_id];
  return basis->size_kind[value_id];
}

static GHashTable *
bounds_copy (GHashTable *bounds)
{
  GHashTable *copy = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter iter;
  gpointer key, value;

  if (bounds == NULL)
    return copy;
  g_hash_table_iter_init (&iter, bounds);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (copy, g_strdup (key), g_memdup2 (value, sizeof (gint64)));
  return copy;
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

/* Why @v's size is wrong under @bounds (a PV_SHAPE_ERROR naming it), or
 * NULL: known, unknown for want of a bound, or no size at all. */
static GError *
wrong_size (const PvGraph *g, const PvValueShape *s, int v, GHashTable *bounds)
{
  const char *name = g->values[v].name, *missing = NULL;
  gint64 bytes = 0;

  if (s == NULL)
    return NULL;
  if (s->size_error == 1 + PV_SHAPE_ERROR_RESHAPE)
    return g_error_new (PV_SHAPE_ERROR, PV_SHAPE_ERROR_RESHAPE,
                        "value “%s”: its Reshape asks for a shape of another element count", name);
  if (s->size_error == 1 + PV_SHAPE_ERROR_OVERFLOW)
    return g_error_new (PV_SHAPE_ERROR, PV_SHAPE_ERROR_OVERFLOW, "value “%s”: its size overflows 64 bits", name);
  if (s->bytes == NULL)
    return NULL;
  if (!pv_dim_eval (s->bytes, bounds, &bytes, &missing))
    return missing != NULL ? NULL
                           : g_error_new (PV_SHAPE_ERROR, PV_SHAPE_ERROR_OVERFLOW,
                                          "value “%s”: its size overflows 64 bits at these bounds", name);
  if (bytes < 0)
    return g_error_new (PV_SHAPE_ERROR, PV_SHAPE_ERROR_NEGATIVE,
                        "value “%s”: its size comes out negative (%" G_GINT64_FORMAT " bytes): a dim is negative",
                        name, bytes);
  return NULL;
}

/* Planners add sizes up (slot capacities, arena offsets with alignment,
 * ORT's arena regions doubling): when the owners' sizes, each rounded up to
 * 4 KiB and a page apart, fit in 2^63 bytes, none of those sums overflows.
 * Past that, an error naming the value that crosses it. */
static GError *
total_too_big (const PvSessionBasis *basis)
{
  const PvLiveness *live = basis->liveness;
  guint64 total = 0;

  for (int i = 0; i < live->n_owners; i++)
    {
      int v = live->owners[i];
      guint64 b = basis->value_bytes[v];
      if (basis->size_kind[v] != PV_SIZE_KNOWN)
        continue;
      if (b > (guint64) G_MAXINT64 - total || (b + 8191) / 4096 * 4096 > (guint64) G_MAXINT64 - total)
        return g_error_new (PV_SHAPE_ERROR, PV_SHAPE_ERROR_OVERFLOW,
                            "value “%s”: the values' sizes add up to more than 2^63 bytes", basis->graph->values[v].name);
      total += (b + 8191) / 4096 * 4096;
    }
  return NULL;
}

/* Owners whose size is unknown because nothing is known of their shape,
 * and the ops without a shape rule behind that (named, so that a plan never
 * passes off a figure without them as the model's). */
static void
fill_shapeless (PvSessionBasis *basis)
{
  const PvLiveness *live = basis->liveness;
  const guint *counts = NULL;
  const char *const *ops;
  GPtrArray *names = g_ptr_array_new ();

  for (int i = 0; i < live->n_owners; i++)
    {
      int v = live->owners[i];
      if (basis->size_kind[v] == PV_SIZE_UNKNOWN && pv_shape_info_get (basis->shapes, basis->graph, v)->bytes == NULL)
        basis->n_shapeless++;
    }
  ops = basis->n_shapeless > 0 ? pv_shape_info_uncovered_ops (basis->shapes, &counts) : NULL;
  for (int i = 0; ops && ops[i]; i++)
    g_ptr_array_add (names, g_strdup_printf ("%s (×%u)", ops[i], counts[i]));
  g_ptr_array_add (names, NULL);
  basis->no_shape_rule = (char **) g_ptr_array_free (names, FALSE);
}

/* Every value's size under the basis's bounds, the symbols owners' sizes
 * mention, and those of them the bounds lack. */
static void
fill_sizes (PvSessionBasis *basis)
{
  const PvGraph *g = basis->graph;
  PvShapeSizes sizes = { basis->shapes, g, basis->bounds };
  const PvLiveness *live = basis->liveness;
  g_autoptr (GHashTable) symbols = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *unbound = g_ptr_array_new (), *all = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  basis->size_kind = g_new (PvSizeResult, MAX (g->n_values, 1));
  basis->value_bytes = g_new0 (guint64, MAX (g->n_values, 1));
  for (int v = 0; v < g->n_values; v++)
    basis->size_kind[v] = pv_shape_sizes_oracle (&sizes, v, &basis->value_bytes[v]);
  /* Every value, views too: a Reshape's output is its input's memory. */
  for (int v = 0; v < g->n_values && basis->size_error == NULL; v++)
    basis->size_error = wrong_size (g, pv_shape_info_get (basis->shapes, g, v), v, basis->bounds);
  if (basis->size_error == NULL)
    basis->size_error = total_too_big (basis);
  for (int i = 0; i < live->n_owners; i++)
    if (basis->size_kind[live->owners[i]] != PV_SIZE_NONE)
      pv_dim_collect_symbols (pv_shape_info_get (basis->shapes, g, live->owners[i])->bytes, symbols);
  g_hash_table_iter_init (&iter, symbols);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_ptr_array_add (all, g_strdup (key));
      if (!g_hash_table_contains (basis->bounds, key))
        g_ptr_array_add (unbound, g_strdup (key));
    }
  g_ptr_array_sort (all, compare_strings);
  g_ptr_array_add (all, NULL);
  basis->symbols = (char **) g_ptr_array_free (all, FALSE);
  g_ptr_array_sort (unbound, compare_strings);
  g_ptr_array_add (unbound, NULL);
  basis->unbound_symbols = (char **) g_ptr_array_free (unbound, FALSE);
  fill_shapeless (basis);
}

static PvSessionBasis *
basis_new (const PvModel *model, const PvKernelTable *kernels, const PvGraph *graph, PvBasisMaps *maps,
           GHashTable *bounds)
{
  PvSessionBasis *basis = g_new0 (PvSessionBasis, 1);

  basis->ref_count = 1;
  basis->maps = maps;
  basis->model = model;
  basis->kernels = kernels;
  basis->graph = graph;
  basis->shapes = maps->shapes;
  basis->ort_shapes = maps->ort_shapes;
  basis->bounds = bounds_copy (bounds);
  basis->view_source = maps->view_source;
  basis->view_root = maps->view_root;
  basis->inplace_source = maps->inplace_source;
  basis->liveness = maps->liveness;
  basis->ort = maps->ort;
  fill_sizes (basis);
  return basis;
}

/* The ORT plan basis, made beside the maps on a thread of its own. */
typedef struct {
  const PvGraph *graph;
  PvBasisMaps *maps;
} OrtBasisJob;

static gpointer
make_ort_basis (gpointer data)
{
  OrtBasisJob *job = data;

  job->maps->ort = pv_ort_plan_basis_new (job->graph, job->maps->ort_shapes, pv_kernel_adapter_lookup,
                                          job->maps->adapter);
  return NULL;
}

/* The maps of @graph; @with_ort: the ORT plan basis too (main graphs). */
static PvBasisMaps *
maps_new (const PvKernelTable *kernels, const PvGraph *graph, PvShapeInfo *shapes, PvOrtShapes *ort_shapes,
          gboolean include_graph_inputs, gboolean with_ort)
{
  PvBasisMaps *maps = g_new0 (PvBasisMaps, 1);
  OrtBasisJob job = { graph, maps };
  GThread *thread = NULL;

  maps->ref_count = 1;
  maps->shapes = pv_shape_info_ref (shapes);
  maps->ort_shapes = pv_ort_shapes_ref (ort_shapes);
  maps->adapter = pv_kernel_adapter_new (kernels);
  if (with_ort && (thread = g_thread_try_new ("pv-basis", make_ort_basis, &job, NULL)) == NULL)
    make_ort_basis (&job);
  pv_value_alias_maps (graph, kernels, &maps->view_source, &maps->inplace_source);
  maps->view_root = pv_value_view_roots (maps->view_source, graph->n_values);
  maps->liveness = pv_liveness_new (graph, maps->view_root, include_graph_inputs);
  if (thread)
    g_thread_join (thread);
  return maps;
}

PvSessionBasis *
pv_session_basis_new (const PvModel *model, const PvKernelTable *kernels, const PvSessionBasisOptions *options,
                      GCancellable *cancellable, GError **error)
{
  g_autoptr (PvShapeInfo) shapes = NULL;
  g_autoptr (PvOrtShapes) ort_shapes = NULL;
  PvSessionBasis *basis;
  gint64 t0 = g_get_monotonic_time ();

  g_return_val_if_fail (model != NULL && kernels != NULL, NULL);

  if (options && options->progress)
    options->progress (options->progress_data, PV_SESSION_STAGE_VALUE_MAPS);
  if (options && options->shapes)
    shapes = pv_shape_info_ref (options->shapes);
  else
    {
      PvShapeOptions shape_options = { 0 };
      shape_options.input_shapes = options ? options->input_shapes : NULL;
      shape_options.input_values = options ? options->input_values : NULL;
      shape_options.cancellable = cancellable;
      shapes = pv_shape_infer (model, &shape_options, error);
      if (shapes == NULL)
        return NULL;
    }
  /* ORT's own view: ONNX's inference as Graph::Resolve runs it. */
  ort_shapes = options && options->ort_shapes ? pv_ort_shapes_ref (options->ort_shapes)
                                              : pv_ort_shapes_new (model, cancellable, error);
  if (ort_shapes == NULL || g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  basis = basis_new (model, kernels, model->graph,
                     maps_new (kernels, model->graph, shapes, ort_shapes, options && options->include_graph_inputs,
                               TRUE),
                     options ? options->bounds : NULL);
  if (options && options->ort_order_trials != 0)
    pv_ort_plan_basis_set_order_trials (basis->maps->ort, MAX (options->ort_order_trials, 0));
  basis->stage_ms = (g_get_monotonic_time () - t0) / 1000.0;
  return basis;
}

PvSessionBasis *
pv_session_basis_new_with_bounds (const PvSessionBasis *basis, GHashTable *bounds)
{
  PvSessionBasis *other;
  gint64 t0 = g_get_monotonic_time ();

  g_atomic_int_inc (&basis->maps->ref_count);
  other = basis_new (basis->model, basis->kernels, basis->graph, basis->maps, bounds);
  other->stage_ms = (g_get_monotonic_time () - t0) / 1000.0;
  return other;
}

PvSessionBasis *
pv_session_basis_new_for_subgraph (const PvSessionBasis *parent, int node, int subgraph_index, GError **error)
{
  const PvGraph *graph = parent->graph;
  const PvNode *owner;
  PvSessionBasis *basis;
  gint64 t0 = g_get_monotonic_time ();

  if (node < 0 || node >= graph->n_nodes)
    {
      g_set_error (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_SUBGRAPH, "graph “%s” has no node %d", graph->name,
                   node);
      return NULL;
    }
  owner = &graph->nodes[node];
  if (subgraph_index < 0 || subgraph_index >= owner->n_subgraphs)
    {
      g_set_error (error, PV_SESSION_ERROR, PV_SESSION_ERROR_NO_SUBGRAPH,
                   "node “%s” (%s) has no subgraph %d (it has %d)", owner->name, owner->op_type, subgraph_index,
                   owner->n_subgraphs);
      return NULL;
    }
  basis = basis_new (parent->model, parent->kernels, owner->subgraphs[subgraph_index],
                     maps_new (parent->kernels, owner->subgraphs[subgraph_index], parent->shapes,
                               parent->ort_shapes, parent->liveness->include_graph_inputs, FALSE),
                     parent->bounds);
  basis->stage_ms = (g_get_monotonic_time () - t0) / 1000.0;
  return basis;
}
