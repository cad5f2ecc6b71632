/* pv-document-symbols.c: which bounds the user set, where each symbol comes
 * from, and the symbols only open bodies mention. */
#include "pv-document-private.h"

#include <string.h>

#include "pv-symbol-origin.h"

gboolean
pv_document_get_bound_is_default (PvDocument *self, const char *symbol)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (symbol != NULL, FALSE);

  return g_hash_table_contains (self->bounds, symbol) &&
         (self->bounds_set == NULL || !g_hash_table_contains (self->bounds_set, symbol));
}

void
_pv_document_symbols_changed (PvDocument *self)
{
  g_clear_pointer (&self->symbol_origins, g_hash_table_unref);
}

/* The origins of the main graph's symbols, then of each open body's own
 * (a body's basis sees its inputs and nodes, then the graphs around it). */
static GHashTable *
make_origins (PvDocument *self)
{
  GHashTable *origins = self->basis ? pv_symbol_origins_new (self->basis, (const char *const *) self->symbols)
                                    : g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint d = 0; self->bodies && d < self->bodies->len; d++)
    {
      const PvBodyPlan *body = g_ptr_array_index (self->bodies, d);
      g_autoptr (GHashTable) more = NULL;
      GHashTableIter iter;
      gpointer key, value;

      if (body->session == NULL)
        continue;
      more = pv_symbol_origins_new (body->session->basis, (const char *const *) body->session->basis->symbols);
      g_hash_table_iter_init (&iter, more);
      while (g_hash_table_iter_next (&iter, &key, &value))
        if (!g_hash_table_contains (origins, key))
          g_hash_table_insert (origins, g_strdup (key), g_strdup (value));
    }
  return origins;
}

const char *
pv_document_get_symbol_origin (PvDocument *self, const char *symbol)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (symbol != NULL, NULL);

  if (self->symbol_origins == NULL)
    {
      gint64 t0 = g_get_monotonic_time ();
      self->symbol_origins = make_origins (self);
      g_debug ("origins of %u symbols in %.1f ms", g_strv_length (self->symbols),
               (g_get_monotonic_time () - t0) / 1000.0);
    }
  return g_hash_table_lookup (self->symbol_origins, symbol);
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Adds @symbols to @all (a set), binding the new ones as @basis did. */
static void
add_symbols (PvDocument *self, GHashTable *all, const PvSessionBasis *basis)
{
  for (int i = 0; basis->symbols[i]; i++)
    {
      const gint64 *bound = g_hash_table_lookup (basis->bounds, basis->symbols[i]);
      gint64 one = 1;

      g_hash_table_add (all, basis->symbols[i]);
      if (!g_hash_table_contains (self->bounds, basis->symbols[i]))
        g_hash_table_replace (self->bounds, g_strdup (basis->symbols[i]), g_memdup2 (bound ? bound : &one, sizeof one));
    }
}

void
_pv_document_update_symbols (PvDocument *self)
{
  g_autoptr (GHashTable) all = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) sorted = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key;

  _pv_document_symbols_changed (self);
  if (self->basis == NULL)
    return;
  add_symbols (self, all, self->basis);
  for (guint d = 0; self->bodies && d < self->bodies->len; d++)
    {
      const PvBodyPlan *body = g_ptr_array_index (self->bodies, d);
      if (body->session)
        add_symbols (self, all, body->session->basis);
    }
  g_hash_table_iter_init (&iter, all);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (sorted, g_strdup (key));
  g_ptr_array_sort (sorted, compare_strings);
  g_ptr_array_add (sorted, NULL);
  if (g_strv_equal ((const char *const *) self->symbols, (const char *const *) sorted->pdata))
    return;
  g_strfreev (self->symbols);
  self->symbols = (char **) g_ptr_array_steal (sorted, NULL);
  g_signal_emit (self, _pv_document_signals[PV_DOCUMENT_SIGNAL_SYMBOLS_CHANGED], 0);
}
