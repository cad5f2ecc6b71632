/* pv-symbol-origin.c: where symbolic dims come from (see the header). */
#include "pv-symbol-origin.h"

/* The symbols any dim of @shape mentions, added to @out. */
static void
shape_symbols (const PvValueShape *shape, GHashTable *out)
{
  for (int k = 0; shape && k < shape->rank; k++)
    if (!pv_dim_is_const (shape->dims[k], NULL))
      pv_dim_collect_symbols (shape->dims[k], out);
}

/* Graph inputs first: their dims are where a user sets sizes. */
static void
from_inputs (const PvShapeInfo *info, const PvGraph *g, GHashTable *wanted, GHashTable *origins)
{
  for (int i = 0; i < g->n_inputs; i++)
    {
      const PvValue *v = &g->values[g->inputs[i]];
      const PvValueShape *shape = pv_shape_info_get (info, g, g->inputs[i]);

      if ((v->flags & PV_VALUE_INITIALIZER) || shape == NULL)
        continue;
      for (int k = 0; k < shape->rank; k++)
        {
          const char *name = pv_dim_symbol_name (shape->dims[k]);
          if (name && g_hash_table_contains (wanted, name) && !g_hash_table_contains (origins, name))
            g_hash_table_insert (origins, g_strdup (name),
                                 g_strdup_printf ("%s%s axis %d", v->name, g->parent ? " (body input)" : "", k));
        }
    }
}

/* A node whose outputs mention a symbol none of its inputs mention made it. */
static void
from_nodes (const PvShapeInfo *info, const PvGraph *g, GHashTable *wanted, GHashTable *origins)
{
  g_autoptr (GHashTable) in = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) out = g_hash_table_new (g_str_hash, g_str_equal);

  for (int i = 0; i < g->n_nodes && g_hash_table_size (origins) < g_hash_table_size (wanted); i++)
    {
      const PvNode *node = &g->nodes[g->order ? g->order[i] : i];
      GHashTableIter iter;
      gpointer key;
      gboolean inputs_read = FALSE;

      g_hash_table_remove_all (out);
      for (int o = 0; o < node->n_outputs; o++)
        if (node->outputs[o] >= 0)
          shape_symbols (pv_shape_info_get (info, g, node->outputs[o]), out);
      g_hash_table_iter_init (&iter, out);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        {
          if (!g_hash_table_contains (wanted, key) || g_hash_table_contains (origins, key))
            continue;
          if (!inputs_read)
            {
              /* Only now: most nodes make no symbol anyone asked about. */
              g_hash_table_remove_all (in);
              for (int k = 0; k < node->n_inputs; k++)
                if (node->inputs[k] >= 0)
                  shape_symbols (pv_shape_info_get (info, g, node->inputs[k]), in);
              for (int k = 0; k < node->n_implicit_inputs; k++)
                shape_symbols (pv_shape_info_get (info, g, node->implicit_inputs[k]), in);
              inputs_read = TRUE;
            }
          if (!g_hash_table_contains (in, key))
            g_hash_table_insert (origins, g_strdup (key),
                                 g_strdup_printf ("made by %s “%s”", node->op_type, node->name));
        }
    }
}

GHashTable *
pv_symbol_origins_new (const PvSessionBasis *basis, const char *const *symbols)
{
  GHashTable *origins = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GHashTable) wanted = g_hash_table_new (g_str_hash, g_str_equal);

  g_return_val_if_fail (basis != NULL, origins);
  for (int i = 0; symbols && symbols[i]; i++)
    g_hash_table_add (wanted, (gpointer) symbols[i]);
  /* A body's own inputs and nodes, then the graphs around it. */
  for (const PvGraph *g = basis->graph; g && g_hash_table_size (origins) < g_hash_table_size (wanted); g = g->parent)
    {
      from_inputs (basis->shapes, g, wanted, origins);
      from_nodes (basis->shapes, g, wanted, origins);
    }
  return origins;
}
