/* pv-kernel-table.c: the kernel behaviour table and its JSON reader.
 *
 * Reading a file takes two passes. A strict JSON scanner of our own checks
 * the syntax (so that an error names the exact character at fault) and
 * records where every value and every object key starts, in document order.
 * cJSON then builds the tree, and a pre-order walk of that tree pairs each
 * item with its recorded position, so that semantic errors ("kernels[3]
 * .alias[0] must be ...") can say line and column too. */
#include "pv-kernel-table-private.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#include "pv-element-type.h"
#include "pv-read-file.h"

/* Generated at build time from data/kernel-defs.json. */
extern const unsigned char pv_kernel_defs_json[];
extern const unsigned int pv_kernel_defs_json_len;

#define BUILTIN_NAME "kernel-defs.json (built-in)"


struct _PvKernelTable {
  GStringChunk *strings;
  GHashTable *by_op; /* "domain\x1fop_type" -> GPtrArray of PvKernelDef*, sorted by since_first */
  guint size;
};

/* ---------------------------------------------------------------------- */
/* The table */

/* The table's key of (@domain, @op_type), written into @buf when it fits
 * (lookups run per node on every plan: no allocation), else allocated into
 * *@heap for the caller to free. */
static const char *
op_key (const char *domain, const char *op_type, char *buf, gsize size, char **heap)
{
  gsize dlen, olen;

  if (domain == NULL || strcmp (domain, "ai.onnx") == 0)
    domain = "";
  dlen = strlen (domain);
  olen = strlen (op_type);
  if (dlen + olen + 2 > size)
    return *heap = g_strconcat (domain, "\x1f", op_type, NULL);
  memcpy (buf, domain, dlen);
  buf[dlen] = '\x1f';
  memcpy (buf + dlen + 1, op_type, olen + 1);
  return buf;
}

PvKernelTable *
pv_kernel_table_new (void)
{
  PvKernelTable *table = g_new0 (PvKernelTable, 1);

  table->strings = g_string_chunk_new (1024);
  table->by_op = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  return table;
}

void
pv_kernel_table_free (PvKernelTable *table)
{
  if (table == NULL)
    return;
  g_hash_table_unref (table->by_op);
  g_string_chunk_free (table->strings);
  g_free (table);
}

static int
compare_entries (gconstpointer a, gconstpointer b)
{
  const Entry *x = *(const Entry *const *) a, *y = *(const Entry *const *) b;
  return (x->def.since_first > y->def.since_first) - (x->def.since_first < y->def.since_first);
}

/* Keeps what @o covers outside the sorted, disjoint @added[*j..]: zero,
 * one or more pieces of @o (copies), appended to @out; frees @o. Advances
 * *@j past the added ranges that end before @o (the next @o starts later). */
static void
cut_back (Entry *o, GPtrArray *added, guint *j, GPtrArray *out)
{
  int cur = o->def.since_first, last = o->def.since_last;
  gboolean covered = FALSE;
  guint k;

  while (*j < added->len && ((Entry *) added->pdata[*j])->def.since_last < cur)
    (*j)++;
  for (k = *j; k < added->len; k++)
    {
      const Entry *a = added->pdata[k];
      if (a->def.since_first > last)
        break;
      if (a->def.since_first > cur)
        {
          Entry *piece = _pv_kdefs_entry_copy (o);
          piece->def.since_first = cur;
          piece->def.since_last = a->def.since_first - 1;
          g_ptr_array_add (out, piece);
        }
      /* Checked before adding 1: since_last may be G_MAXINT. */
      if (a->def.since_last >= last)
        {
          covered = TRUE;
          break;
        }
      cur = MAX (cur, a->def.since_last + 1);
    }
  if (!covered)
    {
      Entry *piece = _pv_kdefs_entry_copy (o);
      piece->def.since_first = cur;
      g_ptr_array_add (out, piece);
    }
  _pv_kdefs_entry_free (o);
}

/* Puts one op's @added entries (disjoint, as read_file checks) in, cutting
 * back the old entries they overlap. One sweep over both sorted lists: a
 * file of 40k entries for one op once took 50 s, sorting after each. Takes
 * the entries of @added. */
static void
table_insert_op (PvKernelTable *table, const char *key, GPtrArray *added)
{
  GPtrArray *list = g_hash_table_lookup (table->by_op, key);
  g_autofree gpointer *old = NULL;
  guint j = 0;
  gsize n_old = 0;

  if (list == NULL)
    {
      list = g_ptr_array_new_with_free_func (_pv_kdefs_entry_free);
      g_hash_table_insert (table->by_op, g_strdup (key), list);
    }
  old = g_ptr_array_steal (list, &n_old);
  g_ptr_array_sort (added, compare_entries);
  for (guint i = 0; i < n_old; i++)
    cut_back (old[i], added, &j, list);
  for (guint i = 0; i < added->len; i++)
    g_ptr_array_add (list, added->pdata[i]);
  table->size = table->size - (guint) n_old + list->len;
  g_ptr_array_sort (list, compare_entries);
}

gboolean
pv_kernel_table_merge_data (PvKernelTable *table, const char *data, gsize len, const char *display_name,
                            GError **error)
{
  Source src = { data, len, display_name };
  g_autoptr (GPtrArray) entries = NULL;
  g_autoptr (GHashTable) by_op = NULL;
  GHashTableIter iter;
  gpointer op, op_added;

  g_return_val_if_fail (table != NULL, FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (data == NULL)
    src.text = "";
  entries = _pv_kdefs_read_file (&src, table->strings, error);
  if (entries == NULL)
    return FALSE;
  /* The entries' sources name this table's copy of the file name. */
  by_op = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = entries->pdata[i];
      char buf[128];
      g_autofree char *heap = NULL;
      const char *key = op_key (e->def.domain, e->def.op_type, buf, sizeof buf, &heap);
      GPtrArray *added = g_hash_table_lookup (by_op, key);

      if (added == NULL)
        {
          added = g_ptr_array_new ();
          g_hash_table_insert (by_op, g_strdup (key), added);
        }
      g_ptr_array_add (added, e);
    }
  g_ptr_array_set_free_func (entries, NULL);
  g_hash_table_iter_init (&iter, by_op);
  while (g_hash_table_iter_next (&iter, &op, &op_added))
    table_insert_op (table, op, op_added);
  return TRUE;
}

gboolean
pv_kernel_table_merge_file (PvKernelTable *table, const char *path, GError **error)
{
  g_autofree char *data = NULL;
  g_autoptr (GError) local = NULL;
  gsize len = 0;

  g_return_val_if_fail (path != NULL, FALSE);
  if (!pv_read_file (path, PV_KERNEL_DEFS_LIMIT, &data, &len, &local))
    {
      g_set_error (error, PV_KERNEL_TABLE_ERROR, PV_KERNEL_TABLE_ERROR_IO, "%s", local->message);
      return FALSE;
    }
  return pv_kernel_table_merge_data (table, data, len, path, error);
}

GBytes *
pv_kernel_table_default_data (void)
{
  return g_bytes_new_static (pv_kernel_defs_json, pv_kernel_defs_json_len);
}

PvKernelTable *
pv_kernel_table_new_default (GError **error)
{
  g_autoptr (PvKernelTable) table = pv_kernel_table_new ();

  if (!pv_kernel_table_merge_data (table, (const char *) pv_kernel_defs_json, pv_kernel_defs_json_len, BUILTIN_NAME,
                                   error))
    return NULL;
  return g_steal_pointer (&table);
}

const PvKernelDef *
pv_kernel_table_lookup (const PvKernelTable *table, const char *domain, const char *op_type, int opset)
{
  char buf[128];
  g_autofree char *heap = NULL;
  GPtrArray *list;

  g_return_val_if_fail (table != NULL && op_type != NULL, NULL);
  list = g_hash_table_lookup (table->by_op, op_key (domain, op_type, buf, sizeof buf, &heap));
  for (guint i = 0; list && i < list->len; i++)
    {
      const Entry *e = list->pdata[i];
      if (opset >= e->def.since_first && opset <= e->def.since_last)
        return &e->def;
    }
  return NULL;
}

gboolean
pv_kernel_def_may_inplace_type (const PvKernelDef *def, int elem_type)
{
  if (def->n_may_inplace_dtypes == 0)
    return TRUE;
  for (int i = 0; i < def->n_may_inplace_dtypes; i++)
    if (def->may_inplace_dtypes[i] == elem_type)
      return TRUE;
  return FALSE;
}

guint
pv_kernel_table_size (const PvKernelTable *table)
{
  return table->size;
}
