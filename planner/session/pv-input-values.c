/* pv-input-values.c: graph input contents from text. */
#include "pv-input-values.h"

#include <string.h>

#include "pv-element-type.h"
#include "pv-error.h"

/* @text as element @i of @data in @elem_type's little-endian layout. */
static gboolean
put_value (GByteArray *data, int elem_type, const char *text)
{
  char *end;
  double d = g_ascii_strtod (text, &end);
  gint64 i = (gint64) d;
  float f = (float) d;
  guint8 b[8];
  gsize n;

  if (end == text || *end != '\0')
    return FALSE;
  switch (elem_type)
    {
    case PV_ELEM_FLOAT: memcpy (b, &f, 4); n = 4; break;
    case PV_ELEM_DOUBLE: memcpy (b, &d, 8); n = 8; break;
    case PV_ELEM_INT64: case PV_ELEM_UINT64: n = 8; break;
    case PV_ELEM_INT32: case PV_ELEM_UINT32: n = 4; break;
    case PV_ELEM_INT16: case PV_ELEM_UINT16: n = 2; break;
    case PV_ELEM_INT8: case PV_ELEM_UINT8: case PV_ELEM_BOOL: n = 1; break;
    default: return FALSE;
    }
  if (elem_type != PV_ELEM_FLOAT && elem_type != PV_ELEM_DOUBLE)
    {
      if (d != (double) i)
        return FALSE;
      for (gsize k = 0; k < n; k++)
        b[k] = (guint8) ((guint64) i >> (8 * k));
    }
  g_byte_array_append (data, b, (guint) n);
  return TRUE;
}

PvTensor *
pv_input_value_parse (const PvModel *model, const char *input, const char *text, GError **error)
{
  int v = pv_graph_find_value (model->graph, input);
  const PvValue *value = v >= 0 ? &model->graph->values[v] : NULL;
  g_auto (GStrv) parts = NULL;
  g_autoptr (GByteArray) data = g_byte_array_new ();
  PvTensor *tensor;
  guint n;

  if (value == NULL || !(value->flags & PV_VALUE_GRAPH_INPUT) || (value->flags & PV_VALUE_INITIALIZER))
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_INVALID, "“%s” is not a graph input of %s", input,
                   model->source_name);
      return NULL;
    }
  parts = g_strsplit (text, ",", -1);
  n = g_strv_length (parts);
  for (guint k = 0; k < n; k++)
    if (!put_value (data, value->type.elem_type, g_strstrip (parts[k])))
      {
        g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_INVALID, "%s: “%s” is no %s value", input, parts[k],
                     pv_element_type_name (value->type.elem_type));
        return NULL;
      }
  if (n == 0)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_INVALID, "%s: no value", input);
      return NULL;
    }
  tensor = g_new0 (PvTensor, 1);
  tensor->elem_type = value->type.elem_type;
  /* One value is a scalar, as sample rates and If conditions are. */
  tensor->n_dims = n == 1 && value->type.rank <= 0 ? 0 : 1;
  tensor->dims = g_new (gint64, 1);
  tensor->dims[0] = n;
  tensor->data = g_byte_array_free_to_bytes (g_steal_pointer (&data));
  return tensor;
}

GHashTable *
pv_input_values_parse (const PvModel *model, const char *const *specs, GError **error)
{
  g_autoptr (GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         (GDestroyNotify) pv_tensor_free);

  for (int i = 0; specs && specs[i]; i++)
    {
      const char *eq = strchr (specs[i], '=');
      g_autofree char *name = eq && eq != specs[i] ? g_strndup (specs[i], eq - specs[i]) : NULL;
      PvTensor *tensor;

      if (name == NULL)
        {
          g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_INVALID, "wants NAME=V or NAME=V1,V2,…, not “%s”",
                       specs[i]);
          return NULL;
        }
      tensor = pv_input_value_parse (model, name, eq + 1, error);
      if (tensor == NULL)
        return NULL;
      g_hash_table_replace (values, g_steal_pointer (&name), tensor);
    }
  return g_steal_pointer (&values);
}
