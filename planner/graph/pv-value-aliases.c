#include "pv-value-aliases.h"

/* Fills @views and @inplace (either may be NULL) with one kernel lookup
 * per node: a re-plan makes both, and the lookup is most of the cost. */
static void
alias_maps (const PvGraph *graph, const PvKernelTable *kernels, int *views, int *inplace)
{
  for (int v = 0; v < graph->n_values; v++)
    {
      if (views)
        views[v] = -1;
      if (inplace)
        inplace[v] = -1;
    }
  for (int id = 0; id < graph->n_nodes; id++)
    {
      const PvNode *node = &graph->nodes[id];
      const PvKernelDef *def = pv_kernel_table_lookup (kernels, node->domain, node->op_type, node->opset);

      if (def == NULL)
        continue;
      for (int p = 0; views && p < def->n_alias; p++)
        {
          int in = def->alias[p].input, out = def->alias[p].output;
          if (in >= 0 && in < node->n_inputs && out >= 0 && out < node->n_outputs && node->inputs[in] >= 0 &&
              node->outputs[out] >= 0)
            views[node->outputs[out]] = node->inputs[in];
        }
      /* VariadicAlias: output i aliases input i - out_offset + in_offset. */
      if (views && def->has_variadic_alias)
        for (int out = def->variadic_alias.output; out < node->n_outputs; out++)
          {
            int in = out - def->variadic_alias.output + def->variadic_alias.input;
            if (in >= 0 && in < node->n_inputs && node->inputs[in] >= 0 && node->outputs[out] >= 0)
              views[node->outputs[out]] = node->inputs[in];
          }
      for (int p = 0; inplace && p < def->n_may_inplace; p++)
        {
          int in = def->may_inplace[p].input, out = def->may_inplace[p].output;
          if (in < 0 || in >= node->n_inputs || out < 0 || out >= node->n_outputs)
            continue;
          if (node->inputs[in] < 0 || node->outputs[out] < 0)
            continue;
          if (!pv_kernel_def_may_inplace_type (def, graph->values[node->inputs[in]].type.elem_type))
            continue;
          inplace[node->outputs[out]] = node->inputs[in];
        }
    }
}

int *
pv_value_view_map (const PvGraph *graph, const PvKernelTable *kernels)
{
  int *map = g_new (int, MAX (graph->n_values, 1));
  alias_maps (graph, kernels, map, NULL);
  return map;
}


void
pv_value_alias_maps (const PvGraph *graph, const PvKernelTable *kernels, int **views, int **inplace)
{
  *views = g_new (int, MAX (graph->n_values, 1));
  *inplace = g_new (int, MAX (graph->n_values, 1));
  alias_maps (graph, kernels, *views, *inplace);
}

int *
pv_value_view_roots (const int *view_source, int n_values)
{
  int *root = g_new (int, MAX (n_values, 1));

  /* -1: not resolved yet, -2: on the chain being resolved. */
  for (int v = 0; v < n_values; v++)
    root[v] = view_source && view_source[v] >= 0 ? -1 : v;
  for (int v = 0; v < n_values; v++)
    {
      int u = v, end;
      while (root[u] == -1)
        {
          root[u] = -2;
          u = view_source[u];
        }
      end = root[u] >= 0 ? root[u] : u;  /* -2: the chain closed on itself at u */
      for (u = v; root[u] == -2; u = view_source[u])
        root[u] = end;
    }
  return root;
}
