#include "pv-value-aliases.h"

typedef enum { VIEWS, IN_PLACE } Which;

static int *
alias_map (const PvGraph *graph, const PvKernelTable *kernels, Which which)
{
  int *map = g_new (int, MAX (graph->n_values, 1));

  for (int v = 0; v < graph->n_values; v++)
    map[v] = -1;
  for (int id = 0; id < graph->n_nodes; id++)
    {
      const PvNode *node = &graph->nodes[id];
      const PvKernelDef *def = pv_kernel_table_lookup (kernels, node->domain, node->op_type, node->opset);
      const PvKernelPair *pairs;
      int n_pairs;

      if (def == NULL)
        continue;
      pairs = which == VIEWS ? def->alias : def->may_inplace;
      n_pairs = which == VIEWS ? def->n_alias : def->n_may_inplace;
      for (int p = 0; p < n_pairs; p++)
        {
          int in = pairs[p].input, out = pairs[p].output;
          if (in < 0 || in >= node->n_inputs || out < 0 || out >= node->n_outputs)
            continue;
          if (node->inputs[in] < 0 || node->outputs[out] < 0)
            continue;
          if (which == IN_PLACE &&
              !pv_kernel_def_may_inplace_type (def, graph->values[node->inputs[in]].type.elem_type))
            continue;
          map[node->outputs[out]] = node->inputs[in];
        }
      /* VariadicAlias: output i aliases input i - out_offset + in_offset. */
      if (which == VIEWS && def->has_variadic_alias)
        for (int out = def->variadic_alias.output; out < node->n_outputs; out++)
          {
            int in = out - def->variadic_alias.output + def->variadic_alias.input;
            if (in >= 0 && in < node->n_inputs && node->inputs[in] >= 0 && node->outputs[out] >= 0)
              map[node->outputs[out]] = node->inputs[in];
          }
    }
  return map;
}

int *
pv_value_view_map (const PvGraph *graph, const PvKernelTable *kernels)
{
  return alias_map (graph, kernels, VIEWS);
}

int *
pv_value_inplace_map (const PvGraph *graph, const PvKernelTable *kernels)
{
  return alias_map (graph, kernels, IN_PLACE);
}
