#include "pv-kernel-adapter.h"

struct _PvKernelAdapter {
  const PvKernelTable *kernels;
  GHashTable *behaviours;  /* (def | in-place allowed) -> PvKernelBehaviour* */
};

PvKernelAdapter *
pv_kernel_adapter_new (const PvKernelTable *kernels)
{
  PvKernelAdapter *adapter = g_new0 (PvKernelAdapter, 1);

  adapter->kernels = kernels;
  adapter->behaviours = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  return adapter;
}

void
pv_kernel_adapter_free (PvKernelAdapter *adapter)
{
  if (adapter == NULL)
    return;
  g_hash_table_unref (adapter->behaviours);
  g_free (adapter);
}

const PvKernelBehaviour *
pv_kernel_adapter_lookup (gpointer data, const PvGraph *graph, const PvNode *node)
{
  static const PvKernelBehaviour none = { 0 };
  PvKernelAdapter *adapter = data;
  const PvKernelDef *def = pv_kernel_table_lookup (adapter->kernels, node->domain, node->op_type, node->opset);
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
