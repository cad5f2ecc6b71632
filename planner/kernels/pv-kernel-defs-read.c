/* pv-kernel-defs-read.c: a kernel-defs file as entries: each checked
 * against the format, with line and column in every message, and
 * overlapping opset ranges refused. */
#include "pv-kernel-table-private.h"

#include <math.h>
#include <string.h>

#include "pv-element-type.h"

/* ---------------------------------------------------------------------- */
/* Entries */


void
_pv_kdefs_entry_free (gpointer data)
{
  Entry *e = data;
  g_free (e->alias);
  g_free (e->may_inplace);
  g_free (e->dtypes);
  g_free (e->cpu_inputs);
  g_free (e);
}

Entry *
_pv_kdefs_entry_copy (const Entry *src)
{
  Entry *e = g_new (Entry, 1);

  *e = *src;
  e->alias = g_memdup2 (src->alias, sizeof (PvKernelPair) * src->def.n_alias);
  e->may_inplace = g_memdup2 (src->may_inplace, sizeof (PvKernelPair) * src->def.n_may_inplace);
  e->dtypes = g_memdup2 (src->dtypes, sizeof (int) * src->def.n_may_inplace_dtypes);
  e->cpu_inputs = g_memdup2 (src->cpu_inputs, sizeof (int) * src->def.n_cpu_inputs);
  e->def.alias = e->alias;
  e->def.may_inplace = e->may_inplace;
  e->def.may_inplace_dtypes = e->dtypes;
  e->def.cpu_inputs = e->cpu_inputs;
  return e;
}

typedef struct {
  const Source *src;
  Positions *pos;
  GStringChunk *strings;
  GError **error;
  gsize cursor;    /* entries come in text order: count lines forward */
  int cursor_line;
} Reader;

static int
line_at (Reader *r, gsize offset)
{
  for (; r->cursor < offset && r->cursor < r->src->len; r->cursor++)
    if (r->src->text[r->cursor] == '\n')
      r->cursor_line++;
  return r->cursor_line;
}

G_GNUC_PRINTF (3, 4) static gboolean
invalid (Reader *r, gsize offset, const char *format, ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  _pv_kdefs_set_error (r->error, r->src, PV_KERNEL_TABLE_ERROR_INVALID, offset, "%s", message);
  return FALSE;
}

/* A non-negative integer that fits an int. */
static gboolean
get_index (const cJSON *item, int *out)
{
  double v;

  if (!cJSON_IsNumber (item))
    return FALSE;
  v = item->valuedouble;
  if (!(v >= 0 && v <= G_MAXINT) || floor (v) != v)
    return FALSE;
  *out = (int) v;
  return TRUE;
}

static gboolean
read_pair (const cJSON *item, PvKernelPair *out)
{
  return cJSON_IsArray (item) && cJSON_GetArraySize (item) == 2 && get_index (cJSON_GetArrayItem (item, 0), &out->input)
         && get_index (cJSON_GetArrayItem (item, 1), &out->output);
}

static gboolean
read_pairs (Reader *r, const cJSON *item, const char *where, const char *key, PvKernelPair **out, int *n_out)
{
  int n, i = 0;

  if (!cJSON_IsArray (item))
    return invalid (r, _pv_kdefs_value_offset (r->pos, item), "%s.%s must be an array of [input, output] pairs",
                    where, key);
  n = cJSON_GetArraySize (item);
  *out = g_new0 (PvKernelPair, MAX (n, 1));
  for (const cJSON *p = item->child; p; p = p->next, i++)
    if (!read_pair (p, &(*out)[i]))
      return invalid (r, _pv_kdefs_value_offset (r->pos, p), "%s.%s[%d] must be a pair of non-negative integers",
                      where, key, i);
  *n_out = n;
  return TRUE;
}

static const char *const entry_keys[] = {
  "domain", "op_type", "since", "alias", "variadic_alias", "may_inplace", "may_inplace_dtypes",
  "external_outputs", "cpu_inputs", "comment",
};

/* Every key of entry @obj is known, and given once. */
static gboolean
check_entry_keys (Reader *r, const cJSON *obj, const char *where)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (const cJSON *m = obj->child; m; m = m->next)
    {
      gboolean known = FALSE;
      for (gsize k = 0; k < G_N_ELEMENTS (entry_keys); k++)
        known |= strcmp (m->string, entry_keys[k]) == 0;
      if (!known)
        return invalid (r, _pv_kdefs_key_offset (r->pos, m), "%s has an unknown key \"%s\"", where, m->string);
      if (g_hash_table_contains (seen, m->string))
        return invalid (r, _pv_kdefs_key_offset (r->pos, m), "%s has \"%s\" twice", where, m->string);
      g_hash_table_add (seen, m->string);
    }
  return TRUE;
}

/* "cpu_inputs": input positions. */
static gboolean
read_cpu_inputs (Reader *r, const cJSON *m, const char *where, Entry *e)
{
  int i = 0;

  if (!cJSON_IsArray (m))
    return invalid (r, _pv_kdefs_value_offset (r->pos, m), "%s.cpu_inputs must be an array of input positions", where);
  e->cpu_inputs = g_new0 (int, MAX (cJSON_GetArraySize (m), 1));
  for (const cJSON *v = m->child; v; v = v->next, i++)
    if (!get_index (v, &e->cpu_inputs[i]))
      return invalid (r, _pv_kdefs_value_offset (r->pos, v), "%s.cpu_inputs[%d] must be a non-negative integer",
                      where, i);
  e->def.n_cpu_inputs = i;
  return TRUE;
}

/* "may_inplace_dtypes": element type names. */
static gboolean
read_dtypes (Reader *r, const cJSON *m, const char *where, Entry *e)
{
  int i = 0;

  if (!cJSON_IsArray (m))
    return invalid (r, _pv_kdefs_value_offset (r->pos, m),
                    "%s.may_inplace_dtypes must be an array of element type names",
                    where);
  e->dtypes = g_new0 (int, MAX (cJSON_GetArraySize (m), 1));
  for (const cJSON *v = m->child; v; v = v->next, i++)
    {
      int t = cJSON_IsString (v) ? pv_element_type_from_name (v->valuestring) : PV_ELEM_UNDEFINED;
      if (t == PV_ELEM_UNDEFINED)
        return invalid (r, _pv_kdefs_value_offset (r->pos, v),
                        "%s.may_inplace_dtypes[%d] must be an element type name such as \"float32\"", where, i);
      e->dtypes[i] = t;
    }
  e->def.n_may_inplace_dtypes = i;
  return TRUE;
}

/* Member @m of entry @e (its key known). */
static gboolean
read_entry_member (Reader *r, const cJSON *m, const char *where, Entry *e, gboolean *has_op)
{
  const char *key = m->string;
  gsize at = _pv_kdefs_value_offset (r->pos, m);
  PvKernelPair range;

  if (strcmp (key, "domain") == 0)
    {
      if (!cJSON_IsString (m))
        return invalid (r, at, "%s.domain must be a string (\"\" for ONNX)", where);
      e->def.domain =
        strcmp (m->valuestring, "ai.onnx") == 0 ? "" : g_string_chunk_insert_const (r->strings, m->valuestring);
    }
  else if (strcmp (key, "op_type") == 0)
    {
      if (!cJSON_IsString (m) || m->valuestring[0] == '\0')
        return invalid (r, at, "%s.op_type must be a non-empty string", where);
      *has_op = TRUE;
      e->def.op_type = g_string_chunk_insert_const (r->strings, m->valuestring);
    }
  else if (strcmp (key, "since") == 0)
    {
      if (!read_pair (m, &range) || range.input < 1 || range.input > range.output)
        return invalid (r, at, "%s.since must be a pair [first, last] of opset versions with 1 <= first <= last",
                        where);
      e->def.since_first = range.input;
      e->def.since_last = range.output;
    }
  else if (strcmp (key, "alias") == 0)
    return read_pairs (r, m, where, key, &e->alias, &e->def.n_alias);
  else if (strcmp (key, "may_inplace") == 0)
    return read_pairs (r, m, where, key, &e->may_inplace, &e->def.n_may_inplace);
  else if (strcmp (key, "variadic_alias") == 0)
    {
      if (cJSON_IsNull (m))
        return TRUE;
      if (!read_pair (m, &e->def.variadic_alias))
        return invalid (r, at,
                        "%s.variadic_alias must be null or a pair of non-negative integers "
                        "[input_offset, output_offset]",
                        where);
      e->def.has_variadic_alias = TRUE;
    }
  else if (strcmp (key, "external_outputs") == 0)
    {
      if (!cJSON_IsBool (m))
        return invalid (r, at, "%s.external_outputs must be true or false", where);
      e->def.external_outputs = cJSON_IsTrue (m);
    }
  else if (strcmp (key, "cpu_inputs") == 0)
    return read_cpu_inputs (r, m, where, e);
  else if (strcmp (key, "may_inplace_dtypes") == 0)
    return read_dtypes (r, m, where, e);
  else if (strcmp (key, "comment") == 0 && !cJSON_IsString (m))
    return invalid (r, at, "%s.comment must be a string", where);
  return TRUE;
}

static gboolean
read_entry (Reader *r, const cJSON *obj, int index, Entry *e)
{
  g_autofree char *where = g_strdup_printf ("kernels[%d]", index);
  gboolean has_op = FALSE;

  e->index = index;
  e->offset = _pv_kdefs_value_offset (r->pos, obj);
  e->def.domain = "";
  e->def.since_first = 1;
  e->def.since_last = PV_KERNEL_OPSET_MAX;
  e->def.line = line_at (r, e->offset);
  e->def.source = g_string_chunk_insert_const (r->strings, r->src->name);

  if (!cJSON_IsObject (obj))
    return invalid (r, e->offset, "%s must be an object", where);
  if (!check_entry_keys (r, obj, where))
    return FALSE;
  for (const cJSON *m = obj->child; m; m = m->next)
    if (!read_entry_member (r, m, where, e, &has_op))
      return FALSE;
  if (!has_op)
    return invalid (r, e->offset, "%s has no \"op_type\"", where);
  e->def.alias = e->alias;
  e->def.may_inplace = e->may_inplace;
  e->def.may_inplace_dtypes = e->dtypes;
  e->def.cpu_inputs = e->cpu_inputs;
  return TRUE;
}

static char *
range_text (int first, int last)
{
  if (last == PV_KERNEL_OPSET_MAX)
    return g_strdup_printf ("%d and later", first);
  if (first == last)
    return g_strdup_printf ("%d", first);
  return g_strdup_printf ("%d-%d", first, last);
}

/* Orders one op's entries by first opset; a probe (index -1) sorts after
 * every entry that starts at or below its first opset. */
static int
compare_first (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const Entry *x = a, *y = b;

  if (x->def.since_first != y->def.since_first)
    return x->def.since_first < y->def.since_first ? -1 : 1;
  return x->index == -1 ? 1 : y->index == -1 ? -1 : x->index - y->index;
}

/* The earliest entry (in file order) of @e's op whose opsets overlap @e's,
 * or NULL after adding @e to @seen (per op, the disjoint ranges read so far,
 * by first opset). Logarithmic per entry: a file of 40k entries once took
 * 27 s comparing each with all before it. */
static const Entry *
find_overlap (GHashTable *seen, const Entry *e)
{
  g_autofree char *key = g_strdup_printf ("%zu:%s:%s", strlen (e->def.domain), e->def.domain, e->def.op_type);
  GSequence *ranges = g_hash_table_lookup (seen, key);
  Entry probe = { .index = -1 };
  const Entry *found = NULL;
  GSequenceIter *it;

  if (ranges == NULL)
    {
      ranges = g_sequence_new (NULL);
      g_hash_table_insert (seen, g_steal_pointer (&key), ranges);
    }
  /* The ranges are disjoint: those overlapping @e are the last ones that
   * start at or below its last opset, back to the first ending below it. */
  probe.def.since_first = e->def.since_last;
  it = g_sequence_search (ranges, &probe, compare_first, NULL);
  while (!g_sequence_iter_is_begin (it))
    {
      const Entry *o;

      it = g_sequence_iter_prev (it);
      o = g_sequence_get (it);
      if (o->def.since_last < e->def.since_first)
        break;
      if (found == NULL || o->index < found->index)
        found = o;
    }
  if (found == NULL)
    g_sequence_insert_sorted (ranges, (gpointer) e, compare_first, NULL);
  return found;
}

/* The strict scan of @src (no NUL byte, one JSON value and nothing after
 * it): what cJSON is let read. Fills @values and @keys with the positions
 * of values and keys in document order. */
static gboolean
scan_syntax (const Source *src, GArray *values, GArray *keys, GError **error)
{
  Scanner scanner = { src, 0, values, keys, error };
  const void *nul = memchr (src->text, '\0', src->len);

  if (nul != NULL)
    {
      _pv_kdefs_set_error (error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, (gsize) ((const char *) nul - src->text),
                           "the file contains a NUL byte");
      return FALSE;
    }
  _pv_kdefs_skip_ws (&scanner);
  if (scanner.pos >= src->len)
    {
      _pv_kdefs_set_error (error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, scanner.pos, "the file is empty");
      return FALSE;
    }
  if (!_pv_kdefs_scan_value (&scanner, 0))
    return FALSE;
  _pv_kdefs_skip_ws (&scanner);
  if (scanner.pos < src->len)
    {
      _pv_kdefs_scan_fail (&scanner, scanner.pos, "expected the end of the file after the JSON value");
      return FALSE;
    }
  return TRUE;
}

/* The "kernels" array of the top-level object @root (whose only other key
 * may be a string "comment"); NULL after an error. */
static const cJSON *
find_kernels (Reader *reader, const cJSON *root)
{
  const Positions *pos = reader->pos;
  const cJSON *kernels = NULL;

  if (!cJSON_IsObject (root))
    {
      invalid (reader, _pv_kdefs_value_offset (pos, root), "the top level must be an object with a \"kernels\" array");
      return NULL;
    }
  for (const cJSON *m = root->child; m; m = m->next)
    {
      if (strcmp (m->string, "kernels") == 0)
        {
          if (kernels != NULL)
            {
              invalid (reader, _pv_kdefs_key_offset (pos, m), "\"kernels\" appears twice");
              return NULL;
            }
          kernels = m;
        }
      else if (strcmp (m->string, "comment") == 0)
        {
          if (!cJSON_IsString (m))
            {
              invalid (reader, _pv_kdefs_value_offset (pos, m), "\"comment\" must be a string");
              return NULL;
            }
        }
      else
        {
          invalid (reader, _pv_kdefs_key_offset (pos, m), "unknown key \"%s\" (expected \"kernels\")", m->string);
          return NULL;
        }
    }
  if (kernels == NULL)
    {
      invalid (reader, _pv_kdefs_value_offset (pos, root), "missing \"kernels\" array");
      return NULL;
    }
  if (!cJSON_IsArray (kernels))
    {
      invalid (reader, _pv_kdefs_value_offset (pos, kernels), "\"kernels\" must be an array");
      return NULL;
    }
  return kernels;
}

/* Reads every entry of @kernels into @entries; FALSE at the first that is
 * invalid or whose opsets overlap an earlier one's. */
static gboolean
read_entries (Reader *reader, const cJSON *kernels, GPtrArray *entries)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                       (GDestroyNotify) g_sequence_free);
  int index = 0;

  for (const cJSON *item = kernels->child; item; item = item->next, index++)
    {
      Entry *e = g_new0 (Entry, 1);
      const Entry *o;
      g_ptr_array_add (entries, e);
      if (!read_entry (reader, item, index, e))
        return FALSE;
      o = find_overlap (seen, e);
      if (o != NULL)
        {
          g_autofree char *mine = range_text (e->def.since_first, e->def.since_last);
          g_autofree char *theirs = range_text (o->def.since_first, o->def.since_last);
          invalid (reader, e->offset, "kernels[%d] (%s%s%s, opsets %s) overlaps kernels[%d] (opsets %s)", index,
                   e->def.domain, e->def.domain[0] ? ":" : "", e->def.op_type, mine, o->index, theirs);
          return FALSE;
        }
    }
  return TRUE;
}

/* Parses a whole file into entries (Entry*, file order). */
GPtrArray *
_pv_kdefs_read_file (const Source *src, GStringChunk *strings, GError **error)
{
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr (GPtrArray) entries = g_ptr_array_new_with_free_func (_pv_kdefs_entry_free);
  Positions pos = { 0 };
  Reader reader = { src, &pos, strings, error, 0, 1 };
  const cJSON *kernels;
  cJSON *root;
  gboolean ok;

  if (!scan_syntax (src, values, keys, error))
    return NULL;
  {
    /* cJSON wants the terminating NUL inside the length it is given. */
    g_autofree char *copy = g_strndup (src->text, src->len);
    root = cJSON_ParseWithLengthOpts (copy, src->len + 1, NULL, TRUE);
  }
  if (root == NULL)
    {
      /* The scan above accepts only what cJSON accepts; keep a message anyway. */
      _pv_kdefs_set_error (error, src, PV_KERNEL_TABLE_ERROR_SYNTAX, 0, "cJSON cannot read this file");
      return NULL;
    }
  _pv_kdefs_assign_positions (root, &pos, values, keys);
  /* The scan's lists are in the positions now. */
  g_clear_pointer (&values, g_array_unref);
  g_clear_pointer (&keys, g_array_unref);

  kernels = find_kernels (&reader, root);
  ok = kernels != NULL && read_entries (&reader, kernels, entries);

  _pv_kdefs_positions_clear (&pos);
  cJSON_Delete (root);
  return ok ? g_steal_pointer (&entries) : NULL;
}
