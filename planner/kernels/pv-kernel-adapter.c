#include "pv-kernel-adapter.h"

/* What a node's behaviour depends on: its op (domain, op type, opset) and
 * the element type of its first input (MayInplace may be per type). */
typedef struct {
  const char *domain;
  const char *op_type;
  int opset;
  int elem_type;
} NodeKey;

typedef struct {
  NodeKey key;
  const PvKernelBehaviour *behaviour;  /* NULL: a free slot */
} NodeEntry;

struct _PvKernelAdapter {
  const PvKernelTable *kernels;
  GHashTable *behaviours;  /* (def | in-place allowed) -> PvKernelBehaviour* */
  /* NodeKey -> behaviour (or per_type), open addressing: a table lookup builds and hashes
   * a "domain:op" string, and the planner asks once per node. Keyed by the
   * interned string pointers. */
  NodeEntry *by_node;
  guint mask, n_by_node;
};

static guint
node_key_hash (const NodeKey *k)
{
  guint64 h = GPOINTER_TO_SIZE (k->op_type) * 0x9e3779b97f4a7c15ull;
  h ^= GPOINTER_TO_SIZE (k->domain) + ((guint64) (guint) k->opset << 32) + (guint) k->elem_type;
  h *= 0xff51afd7ed558ccdull;
  return (guint) (h >> 32);
}

static gboolean
node_key_equal (const NodeKey *x, const NodeKey *y)
{
  return x->op_type == y->op_type && x->domain == y->domain && x->opset == y->opset && x->elem_type == y->elem_type;
}

/* The slot of @key: its entry, or the free slot where it belongs. */
static NodeEntry *
node_slot (NodeEntry *table, guint mask, const NodeKey *key)
{
  guint i = node_key_hash (key) & mask;
  while (table[i].behaviour != NULL && !node_key_equal (&table[i].key, key))
    i = (i + 1) & mask;
  return &table[i];
}

static void
node_table_grow (PvKernelAdapter *adapter)
{
  guint old_size = adapter->mask + 1, size = old_size * 2;
  NodeEntry *old = adapter->by_node;

  adapter->by_node = g_new0 (NodeEntry, size);
  adapter->mask = size - 1;
  for (guint i = 0; i < old_size; i++)
    if (old[i].behaviour != NULL)
      *node_slot (adapter->by_node, adapter->mask, &old[i].key) = old[i];
  g_free (old);
}

PvKernelAdapter *
pv_kernel_adapter_new (const PvKernelTable *kernels)
{
  PvKernelAdapter *adapter = g_new0 (PvKernelAdapter, 1);

  adapter->kernels = kernels;
  adapter->behaviours = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  adapter->mask = 63;
  adapter->by_node = g_new0 (NodeEntry, adapter->mask + 1);
  return adapter;
}

void
pv_kernel_adapter_free (PvKernelAdapter *adapter)
{
  if (adapter == NULL)
    return;
  g_hash_table_unref (adapter->behaviours);
  g_free (adapter->by_node);
  g_free (adapter);
}

static const PvKernelBehaviour none = { 0 };
/* Stands in the table for an op whose behaviour depends on the type of
 * its first input: look again with the type. */
static const PvKernelBehaviour per_type = { 0 };

#define ANY_TYPE (-2)  /* NodeKey.elem_type of an op's own entry */
#define NO_INPUT (-1)  /* no first input, whose type would matter */

/* What @def does with @elem_type (NO_INPUT: any) as first input. */
static const PvKernelBehaviour *
behaviour (PvKernelAdapter *adapter, const PvKernelDef *def, int elem_type)
{
  gboolean inplace_ok;
  gpointer key;
  PvKernelBehaviour *b;

  /* MayInplace may hold for some element types only (Softmax: float). */
  inplace_ok = elem_type == NO_INPUT || pv_kernel_def_may_inplace_type (def, elem_type);
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

/* The behaviour under @key (for @node), looked up in the kernel table the
 * first time. */
static const PvKernelBehaviour *
cached (PvKernelAdapter *adapter, const NodeKey *key, const PvNode *node)
{
  NodeEntry *slot = node_slot (adapter->by_node, adapter->mask, key);
  const PvKernelBehaviour *b = slot->behaviour;

  if (b != NULL)
    return b;
  {
    const PvKernelDef *def = pv_kernel_table_lookup (adapter->kernels, node->domain, node->op_type, node->opset);
    if (def == NULL)
      b = &none;
    else if (key->elem_type != ANY_TYPE)
      b = behaviour (adapter, def, key->elem_type);
    else
      b = def->n_may_inplace_dtypes > 0 ? &per_type : behaviour (adapter, def, NO_INPUT);
  }
  slot->key = *key;
  slot->behaviour = b;
  if (++adapter->n_by_node * 2 > adapter->mask + 1)
    node_table_grow (adapter);
  return b;
}

const PvKernelBehaviour *
pv_kernel_adapter_lookup (gpointer data, const PvGraph *graph, const PvNode *node, int input_elem_type)
{
  PvKernelAdapter *adapter = data;
  NodeKey key = { node->domain, node->op_type, node->opset, ANY_TYPE };
  const PvKernelBehaviour *b = cached (adapter, &key, node);

  /* Most ops behave alike for every type: only the others read it. */
  if (b != &per_type)
    return b;
  (void) graph;
  key.elem_type = input_elem_type < 0 ? NO_INPUT : input_elem_type;
  return cached (adapter, &key, node);
}
