/* pv-ort-shape-classes.c: the SameSize() classes of ORT's view of shapes.
 *
 * SameSize() (allocation_planner.cc) is true when neither side is a string,
 * the element sizes are equal (bytes, not types) and SameShape() holds: same
 * rank, each dim an equal dim_value or an equal non-empty dim_param. Among
 * values without strings, unknown element sizes or empty dims that is an
 * equivalence, so each such value gets the number of its class; every other
 * value is SameSize with nothing. */
#include "pv-ort-shape-classes.h"

#include <string.h>

#include "pv-element-type.h"

/* A class key: element size and ORT's dims (borrowed from the view). */
typedef struct {
  int elem_bytes;
  int rank;
  const PvOrtDim *dims;
} ClassKey;

static int
element_bytes (int elem_type)
{
  guint bits = pv_element_type_bits (elem_type);
  /* ORT's string element is a std::string (32 bytes with libstdc++ on
   * 64-bit); SameSize rejects strings before sizes matter. */
  if (elem_type == PV_ELEM_STRING)
    return 32;
  /* ORT stores sub-byte types packed (Int4x2, Float4E2M1x2): one byte each. */
  return bits == 0 ? 0 : (int) MAX (1u, bits / 8);
}

static guint
key_hash (gconstpointer p)
{
  const ClassKey *k = p;
  guint h = 2166136261u ^ (guint) k->elem_bytes * 31u ^ (guint) k->rank;

  for (int d = 0; d < k->rank; d++)
    {
      const PvOrtDim *dim = &k->dims[d];
      guint x = dim->kind == PV_ORT_DIM_VALUE ? (guint) dim->value ^ (guint) ((guint64) dim->value >> 32)
                                              : g_str_hash (dim->param) ^ 0x9e3779b9u;
      h = (h ^ x) * 16777619u;
    }
  return h;
}

static gboolean
key_equal (gconstpointer pa, gconstpointer pb)
{
  const ClassKey *a = pa, *b = pb;

  if (a->elem_bytes != b->elem_bytes || a->rank != b->rank)
    return FALSE;
  for (int d = 0; d < a->rank; d++)
    {
      const PvOrtDim *x = &a->dims[d], *y = &b->dims[d];
      if (x->kind != y->kind)
        return FALSE;
      if (x->kind == PV_ORT_DIM_VALUE ? x->value != y->value
                                      : x->param != y->param && strcmp (x->param, y->param) != 0)
        return FALSE;
    }
  return TRUE;
}

/* ORT's view of @v, and its class. */
static void
classify (GHashTable *classes, const PvValue *value, const PvOrtValueType *type, PvOrtShapeClass *out)
{
  int elem_bytes = element_bytes (type->elem_type);
  ClassKey *key;
  gpointer found;

  memset (out, 0, sizeof *out);
  out->size_class = -1;
  out->optional = type->kind == PV_TYPE_OPTIONAL;
  out->non_tensor = type->kind == PV_TYPE_SEQUENCE || type->kind == PV_TYPE_MAP || type->kind == PV_TYPE_OPTIONAL
                    || type->kind == PV_TYPE_SPARSE_TENSOR;
  if (out->non_tensor || type->rank < 0)
    return;
  out->has_shape = TRUE;
  out->scalar = type->rank == 0;
  /* Strings and unknown element sizes are SameSize with nothing; only node
   * outputs are ever compared (see the header). */
  if (type->elem_type == PV_ELEM_STRING || elem_bytes == 0 || value->producer < 0
      || (value->flags & PV_VALUE_OUTER_SCOPE))
    return;
  for (int d = 0; d < type->rank; d++)
    if (type->dims[d].kind == PV_ORT_DIM_EMPTY)
      return;
  key = g_new (ClassKey, 1);
  *key = (ClassKey) { elem_bytes, type->rank, type->dims };
  if (g_hash_table_lookup_extended (classes, key, NULL, &found))
    {
      out->size_class = GPOINTER_TO_INT (found);
      g_free (key);
      return;
    }
  out->size_class = (int) g_hash_table_size (classes);
  g_hash_table_insert (classes, key, GINT_TO_POINTER (out->size_class));
}

PvOrtShapeClass *
pv_ort_shape_classes_new (const PvGraph *graph, const PvOrtShapes *shapes, int *n_classes_out)
{
  PvOrtShapeClass *out = g_new (PvOrtShapeClass, MAX (graph->n_ort_values, 1));
  g_autoptr (GHashTable) classes = g_hash_table_new_full (key_hash, key_equal, g_free, NULL);

  for (int i = 0; i < graph->n_ort_values; i++)
    {
      int v = graph->ort_values[i];
      classify (classes, &graph->values[v], pv_ort_shapes_get (shapes, graph, v), &out[i]);
    }
  *n_classes_out = (int) g_hash_table_size (classes);
  return out;
}
