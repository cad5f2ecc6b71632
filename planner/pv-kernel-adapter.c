#include "pv-kernel-adapter.h"

/* One (domain, op type, opset) the adapter has resolved. */
typedef struct {
  const char *domain;
  const char *op_type;
  int opset;
} OpKey;

struct _PvKernelAdapter {
  const PvKernelTable *kernels;
  GHashTable *behaviours;  /* (def | in-place allowed) -> PvKernelBehaviour* */
  /* OpKey -> PvKernelDef* (NULL stored as the adapter itself): a table
   * lookup builds and hashes a "domain:op" string, the planner asks once per
   * node. Keyed by the interned string pointers. */
  GHashTable *defs;
};

static guint
op_key_hash (gconstpointer key)
{
  const OpKey *k = key;
  return g_direct_hash (k->op_type) * 31u + g_direct_hash (k->domain) * 17u + (guint) k->opset;
}

static gboolean
op_key_equal (gconstpointer a, gconstpointer b)
{
  const OpKey *x = a, *y = b;
  return x->op_type == y->op_type && x->domain == y->domain && x->opset == y->opset;
}

PvKernelAdapter *
pv_kernel_adapter_new (const PvKernelTable *kernels)
{
  PvKernelAdapter *adapter = g_new0 (PvKernelAdapter, 1);

  adapter->kernels = kernels;
  adapter->behaviours = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  adapter->defs = g_hash_table_new_full (op_key_hash, op_key_equal, g_free, NULL);
  return adapter;
}

void
pv_kernel_adapter_free (PvKernelAdapter *adapter)
{
  if (adapter == NULL)
    return;
  g_hash_table_unref (adapter->behaviours);
  g_hash_table_unref (adapter->defs);
  g_free (adapter);
}

static const PvKernelDef *
lookup_def (PvKernelAdapter *adapter, const PvNode *node)
{
  OpKey key = { node->domain, node->op_type, node->opset };
  gpointer def = g_hash_table_lookup (adapter->defs, &key);

  if (def == NULL)
    {
      def = (gpointer) pv_kernel_table_lookup (adapter->kernels, node->domain, node->op_type, node->opset);
      g_hash_table_insert (adapter->defs, g_memdup2 (&key, sizeof key), def ? def : adapter);
    }
  return def == adapter ? NULL : def;
}

const PvKernelBehaviour *
pv_kernel_adapter_lookup (gpointer data, const PvGraph *graph, const PvNode *node)
{
  static const PvKernelBehaviour none = { 0 };
  PvKernelAdapter *adapter = data;
  const PvKernelDef *def = lookup_def (adapter, node);
  gboolean inplace_ok;
  gpointer key;
  PvKernelBehaviour *b;

  if (def == NULL)
    return &none;
  /* MayInplace may hold for some element types only (Softmax: float). */
  inplace_ok = node->n_inputs == 0 || node->inputs[0] < 0 ||
               pv_kernel_def_may_inplace_type (def, graph->values[node->inputs[0]].type.elem_type);
  key = GSIZE_TO_POINTER (GPOINTER_TO_SIZE (def) | (inplace_ok ? 1 : 0));
  b = g_hash_table_lookup (adapter->behaviours, key);
  if (b == NULL)
    {
      b = g_new0 (PvKernelBehaviour, 1);
      b->alias = (const int (*)[2]) def->alias;
      b->n_alias = def->n_alias;
      b->has_variadic_alias = def->has_variadic_alias;
      b->variadic_input_offset = def->variadic_alias.input;
      b->variadic_output_offset = def->variadic_alias.output;
      b->may_inplace = inplace_ok ? (const int (*)[2]) def->may_inplace : NULL;
      b->n_may_inplace = inplace_ok ? def->n_may_inplace : 0;
      b->external_outputs = def->external_outputs;
      b->cpu_inputs = def->cpu_inputs;
      b->n_cpu_inputs = def->n_cpu_inputs;
      g_hash_table_insert (adapter->behaviours, key, b);
    }
  return b;
}
