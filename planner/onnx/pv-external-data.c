/* pv-external-data.c: the external-data locations of a model's tensors, held
 * to the rules ONNX Runtime 1.30 applies when it creates a session on the
 * model's file. planviz never reads the data; it refuses what ORT refuses,
 * so that no plan is drawn for a model ORT would not run (and no path out of
 * the model's folder is followed). Checked against ORT itself case by case:
 * tests/ort/compare-external-data.mjs.
 *
 * Two sets of rules apply:
 * - ORT's, to each initializer the session loads (used by a node or a graph
 *   output, in any graph): well-formed entries, not a string tensor, a
 *   relative path that exists, whose real path stays inside the model's
 *   real folder, a regular file holding offset + size bytes, a length equal
 *   to the tensor's size when given;
 * - ONNX's checker, which ORT runs on each subgraph when it loads the model,
 *   to every tensor of a subgraph, used or not: a location given, relative,
 *   not leading out by "..", not a symlink, a regular file. */
#include "pv-model-loader-private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "pv-element-type.h"
#include "pv-error.h"

/* ---- entries ---- */

/* ORT parses offset and length with std::from_chars rules: an optional '-'
 * (offset only), then decimal digits and nothing else, within range. */
static gboolean
parse_decimal (const char *s, gboolean is_signed, gint64 *offset_out, guint64 *length_out)
{
  gboolean negative = is_signed && s[0] == '-';
  const char *p = s + (negative ? 1 : 0);
  guint64 v = 0;

  if (*p == '\0')
    return FALSE;
  for (; *p; p++)
    {
      if (!g_ascii_isdigit (*p) || !g_uint64_checked_mul (&v, v, 10) || !g_uint64_checked_add (&v, v, *p - '0'))
        return FALSE;
    }
  if (!is_signed)
    {
      *length_out = v;
      return TRUE;
    }
  if (v > (negative ? (guint64) G_MAXINT64 + 1 : (guint64) G_MAXINT64))
    return FALSE;
  *offset_out = negative ? (gint64) (0 - v) : (gint64) v;
  return TRUE;
}

/* The first problem ORT's ExternalDataInfo::Create finds, or NULL. */
static char *
entry_problem (PvTensor *tensor, const Onnx__StringStringEntryProto *e)
{
  const char *key = e->key, *value = e->value;

  if (key == NULL)
    return g_strdup ("an external_data entry has no key");
  if (value == NULL)
    return g_strdup_printf ("external_data “%s” has no value", key);
  if (strcmp (key, "location") == 0)
    {
      if (tensor->external_location != NULL)
        return g_strdup ("external_data gives “location” twice");
      if (value[0] == '\0')
        return g_strdup ("external_data “location” is empty");
      tensor->external_location = g_strdup (value);
      return NULL;
    }
  if (value[0] != '\0' && strcmp (key, "offset") == 0)
    return parse_decimal (value, TRUE, &tensor->external_offset, NULL)
             ? NULL
             : g_strdup_printf ("external_data offset “%s” is not a decimal number of 64 bits", value);
  if (value[0] != '\0' && strcmp (key, "length") == 0)
    return parse_decimal (value, FALSE, NULL, &tensor->external_length)
             ? NULL
             : g_strdup_printf ("external_data length “%s” is not an unsigned decimal number of 64 bits", value);
  if ((value[0] != '\0' && strcmp (key, "checksum") == 0) || g_str_has_prefix (key, "prepacked"))
    return NULL;
  if (value[0] == '\0')
    return g_strdup_printf ("external_data “%s” is empty", key);
  return g_strdup_printf ("external_data has an unknown key “%s”", key);
}

void
_pv_external_data_read_entries (PvTensor *tensor, Onnx__StringStringEntryProto *const *entries, size_t n)
{
  for (size_t i = 0; i < n && tensor->external_problem == NULL; i++)
    tensor->external_problem = entry_problem (tensor, entries[i]);
  if (tensor->external_problem == NULL && tensor->external_location == NULL)
    tensor->external_problem = g_strdup ("external_data gives no location");
}

/* ---- locations ---- */

typedef struct {
  const char *source;
  const char *folder;   /* NULL: loaded from memory */
  char *real_folder;    /* realpath (folder), made on first need */
} Check;

/* TRUE when @location, taken lexically, leads out of its folder
 * ("../x", "a/../../x"), as ONNX's checker and ORT (from memory) see it. */
static gboolean
lexically_escapes (const char *location)
{
  g_auto (GStrv) parts = g_strsplit (location, "/", -1);
  int depth = 0;

  for (int i = 0; parts[i]; i++)
    {
      if (strcmp (parts[i], "..") == 0 && --depth < 0)
        return TRUE;
      if (parts[i][0] && strcmp (parts[i], ".") != 0 && strcmp (parts[i], "..") != 0)
        depth++;
    }
  return FALSE;
}

static gboolean
is_memory_tag (const char *location)
{
  /* ORT's markers for data held in memory: never valid in a file. */
  return strcmp (location, "*/_ORT_MEM_ADDR_/*") == 0 || strcmp (location, "*/_ORT_NATIVE_ENDIAN_MEM_ADDR_/*") == 0;
}

/* TRUE when @path is @folder or below it (both real paths). */
static gboolean
path_inside (const char *path, const char *folder)
{
  gsize n = strlen (folder);

  if (strcmp (folder, "/") == 0)
    return TRUE;
  return strncmp (path, folder, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* Why ONNX's checker refuses the location of a subgraph's tensor, or NULL. */
static char *
checker_problem (Check *c, const PvTensor *t)
{
  const char *loc = t->external_location;
  g_autofree char *path = NULL;
  GStatBuf st;

  if (loc == NULL)
    return g_strdup ("stored externally without a location");
  if (g_path_is_absolute (loc))
    return g_strdup_printf ("external data location “%s” is an absolute path (ONNX's checker takes only paths "
                            "relative to the model's folder)", loc);
  if (lexically_escapes (loc))
    return g_strdup_printf ("external data location “%s” leads out of the model's folder", loc);
  if (c->folder == NULL)
    return NULL;
  path = g_build_filename (c->folder, loc, NULL);
  if (g_lstat (path, &st) == 0 && S_ISLNK (st.st_mode))
    return g_strdup_printf ("external data location “%s” is a symbolic link (ONNX's checker, which ONNX Runtime "
                            "runs on subgraphs, refuses links)", loc);
  if (g_stat (path, &st) != 0 || !S_ISREG (st.st_mode))
    return g_strdup_printf ("external data location “%s” is not a regular file (%s)", loc, path);
  return NULL;
}

/* Why ORT refuses to load the external data of initializer @t, or NULL. */
static char *
session_problem (Check *c, const PvTensor *t)
{
  const char *loc = t->external_location;
  g_autofree char *path = NULL, *real = NULL;
  guint64 n_elements, bytes;
  GStatBuf st;

  if (t->external_problem)
    return g_strdup (t->external_problem);
  if (t->elem_type == PV_ELEM_STRING || t->elem_type == PV_ELEM_UNDEFINED)
    return g_strdup_printf ("a %s tensor cannot keep its data in an external file",
                            pv_element_type_name (t->elem_type));
  if (g_path_is_absolute (loc))
    return g_strdup_printf ("external data location “%s” is an absolute path (ONNX Runtime takes only paths "
                            "relative to the model's folder)", loc);
  if (c->folder == NULL)
    return lexically_escapes (loc)
             ? g_strdup_printf ("external data location “%s” leads out of the working folder", loc)
             : NULL;
  path = g_build_filename (c->folder, loc, NULL);
  if (g_stat (path, &st) != 0)
    return g_strdup_printf ("external data location “%s” does not exist (%s: %s)", loc, path, g_strerror (errno));
  if (c->real_folder == NULL)
    c->real_folder = realpath (c->folder, NULL);
  real = realpath (path, NULL);
  if (c->real_folder == NULL || real == NULL || !path_inside (real, c->real_folder))
    return g_strdup_printf ("external data location “%s” leads out of the model's folder %s (to %s)", loc,
                            c->real_folder ? c->real_folder : c->folder, real ? real : path);
  if (!S_ISREG (st.st_mode))
    return g_strdup_printf ("external data location “%s” is not a regular file", loc);
  if (!pv_tensor_n_elements (t, &n_elements) || !pv_element_type_tensor_bytes (t->elem_type, n_elements, &bytes))
    return g_strdup ("stored externally with no byte size (a negative dim, or a size past 64 bits)");
  if (t->external_length != 0 && t->external_length != bytes)
    return g_strdup_printf ("external_data length %" G_GUINT64_FORMAT " differs from the tensor's size, %"
                            G_GUINT64_FORMAT " bytes", t->external_length, bytes);
  if (t->external_offset < 0 || (guint64) t->external_offset > (guint64) st.st_size
      || bytes > (guint64) st.st_size - (guint64) t->external_offset)
    return g_strdup_printf ("external data “%s” holds %" G_GUINT64_FORMAT " bytes: %" G_GUINT64_FORMAT
                            " bytes at offset %" G_GINT64_FORMAT " do not fit", loc, (guint64) st.st_size, bytes,
                            t->external_offset);
  return NULL;
}

static gboolean
check_graph (Check *c, const PvGraph *graph, GError **error)
{
  for (int i = 0; i < graph->n_initializers; i++)
    {
      const PvValue *v = &graph->values[graph->initializers[i]];
      const PvTensor *t = v->initializer;
      g_autofree char *problem = NULL;

      if (t == NULL || !t->external)
        continue;
      if (t->external_location && is_memory_tag (t->external_location))
        problem = g_strdup_printf ("external data location “%s” is ONNX Runtime's in-memory marker, "
                                   "never valid in a model file", t->external_location);
      if (problem == NULL && graph->depth > 0)
        problem = checker_problem (c, t);
      /* ORT drops initializers nothing uses before it loads any. */
      if (problem == NULL && (v->n_consumers > 0 || (v->flags & PV_VALUE_GRAPH_OUTPUT)))
        problem = session_problem (c, t);
      if (problem)
        {
          g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_EXTERNAL_DATA, "%s: initializer “%s”%s%s%s: %s; "
                       "ONNX Runtime refuses the model", c->source, v->name, graph->depth ? " (subgraph “" : "",
                       graph->depth ? graph->name : "", graph->depth ? "”)" : "", problem);
          return FALSE;
        }
    }
  for (int n = 0; n < graph->n_nodes; n++)
    for (int k = 0; k < graph->nodes[n].n_subgraphs; k++)
      if (!check_graph (c, graph->nodes[n].subgraphs[k], error))
        return FALSE;
  return TRUE;
}

gboolean
_pv_external_data_check (const PvModel *model, const char *folder, GError **error)
{
  Check c = { model->source_name, folder, NULL };
  gboolean ok = check_graph (&c, model->graph, error);

  free (c.real_folder);
  return ok;
}
