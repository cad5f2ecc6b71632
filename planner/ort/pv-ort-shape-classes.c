/* pv-ort-shape-classes.c: ORT's TensorShapeProto of each value and the
 * SameSize() classes they fall into.
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

typedef enum {
  DIM_EMPTY,   /* neither dim_value nor dim_param */
  DIM_VALUE,
  DIM_PARAM,
} OrtDimKind;

typedef struct {
  OrtDimKind kind;
  gint64 value;
  const char *param;
} OrtDim;

/* A class: element size and dims (in Classes.dims from dims_at). */
typedef struct {
  guint hash;
  int elem_bytes;
  int rank;
  guint dims_at;
} ClassKey;

/* A symbol name seen before: its string hash and whether a graph input
 * states it. Symbols repeat on nearly every value (batch, seq), so a few
 * direct-mapped entries keyed by the interned pointer save the string
 * hashing. */
typedef struct {
  const char *name;
  const char *canonical;  /* the model's pointer for the name, so equal names mostly compare as pointers */
  guint hash;
  gboolean in_model;
} SymbolMemo;

/* An inferred dim seen before: ORT's dim for it, and its hash. Dim
 * expressions are shared (hash-consed) and repeat just as much. */
typedef struct {
  const PvDimExpr *expr;
  OrtDim dim;
  guint hash;
} ExprMemo;

/* An inferred shape seen before, by its dim expressions: its class. Values
 * of a layer share few shapes, and their dims are the same (shared)
 * expressions, so this skips deriving and looking up ORT's dims. */
#define MAX_MEMO_RANK 6
typedef struct {
  int elem_bytes;
  int rank;                    /* -1: an empty entry */
  const PvDimExpr *dims[MAX_MEMO_RANK];
  int size_class;
} ShapeMemo;

#define N_SYMBOL_MEMO 16
#define N_EXPR_MEMO 64
#define N_SHAPE_MEMO 256

typedef struct {
  GHashTable *model_symbols;   /* dim_params some graph input states */
  SymbolMemo memo[N_SYMBOL_MEMO];
  ExprMemo expr_memo[N_EXPR_MEMO];
  ShapeMemo shape_memo[N_SHAPE_MEMO];
  GArray *keys;                /* ClassKey, by class number */
  GArray *dims;                /* OrtDim */
  int *slots;                  /* open addressing: class number + 1, 0 when free */
  guint mask;
  OrtDim *scratch;             /* dims of the value at hand */
  int scratch_size;
} Classes;

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

static void
collect_input_symbols (const PvGraph *graph, GHashTable *symbols)
{
  for (int i = 0; i < graph->n_inputs; i++)
    {
      const PvType *type = &graph->values[graph->inputs[i]].type;
      for (int d = 0; d < type->rank; d++)
        if (type->dims[d].kind == PV_DIM_SYMBOL && type->dims[d].symbol && type->dims[d].symbol[0])
          g_hash_table_add (symbols, (gpointer) type->dims[d].symbol);
    }
}

static const SymbolMemo *
symbol_memo (Classes *c, const char *name)
{
  SymbolMemo *m = &c->memo[(GPOINTER_TO_SIZE (name) >> 3) % N_SYMBOL_MEMO];

  if (m->name != name)
    {
      gpointer canonical;
      m->name = name;
      m->hash = g_str_hash (name);
      m->in_model = g_hash_table_lookup_extended (c->model_symbols, name, &canonical, NULL);
      m->canonical = m->in_model ? canonical : name;
    }
  return m;
}

static guint
mix (guint h, guint64 x)
{
  h ^= (guint) x ^ (guint) (x >> 32);
  return h * 16777619u;
}

/* What a dim contributes to its shape's hash. */
static guint
dim_hash (Classes *c, const OrtDim *dim)
{
  return dim->kind == DIM_VALUE ? (guint) dim->value ^ (guint) ((guint64) dim->value >> 32)
                                : symbol_memo (c, dim->param)->hash ^ 0x9e3779b9u;
}

/* ORT's dim for an inferred one: dim_value when constant, dim_param when a
 * single symbol that a graph input states, empty otherwise. */
static const ExprMemo *
inferred_dim (Classes *c, const PvDimExpr *e)
{
  ExprMemo *m = &c->expr_memo[(GPOINTER_TO_SIZE (e) >> 4) % N_EXPR_MEMO];
  gint64 constant;
  const char *symbol;

  if (m->expr == e && e != NULL)
    return m;
  m->expr = e;
  if (pv_dim_is_const (e, &constant))
    m->dim = (OrtDim) { DIM_VALUE, constant, NULL };
  else if ((symbol = pv_dim_symbol_name (e)) && symbol_memo (c, symbol)->in_model)
    m->dim = (OrtDim) { DIM_PARAM, 0, symbol_memo (c, symbol)->canonical };
  else
    m->dim = (OrtDim) { DIM_EMPTY, 0, NULL };
  if (m->dim.kind != DIM_EMPTY)
    m->hash = dim_hash (c, &m->dim);
  return m;
}

static gboolean
class_equal (const Classes *c, const ClassKey *key, int elem_bytes, const OrtDim *dims, int rank)
{
  const OrtDim *kd;

  if (key->elem_bytes != elem_bytes || key->rank != rank)
    return FALSE;
  if (rank == 0)  /* scalars may come before any dim is stored */
    return TRUE;
  kd = &g_array_index (c->dims, OrtDim, key->dims_at);
  for (int i = 0; i < rank; i++)
    {
      if (kd[i].kind != dims[i].kind)
        return FALSE;
      if (kd[i].kind == DIM_VALUE ? kd[i].value != dims[i].value
                                  : kd[i].param != dims[i].param && strcmp (kd[i].param, dims[i].param) != 0)
        return FALSE;
    }
  return TRUE;
}

static void
grow_slots (Classes *c)
{
  guint size = (c->mask + 1) * 2;

  g_free (c->slots);
  c->slots = g_new0 (int, size);
  c->mask = size - 1;
  for (guint k = 0; k < c->keys->len; k++)
    {
      guint i = g_array_index (c->keys, ClassKey, k).hash & c->mask;
      while (c->slots[i] != 0)
        i = (i + 1) & c->mask;
      c->slots[i] = (int) k + 1;
    }
}

/* The class of a shape with no empty dim. */
static int
class_of (Classes *c, int elem_bytes, const OrtDim *dims, int rank, guint hash)
{
  guint i = hash & c->mask;
  ClassKey key;

  for (; c->slots[i] != 0; i = (i + 1) & c->mask)
    {
      const ClassKey *k = &g_array_index (c->keys, ClassKey, c->slots[i] - 1);
      if (k->hash == hash && class_equal (c, k, elem_bytes, dims, rank))
        return c->slots[i] - 1;
    }
  key = (ClassKey) { hash, elem_bytes, rank, c->dims->len };
  g_array_append_vals (c->dims, dims, rank);
  g_array_append_val (c->keys, key);
  c->slots[i] = (int) c->keys->len;
  if (c->keys->len * 2 > c->mask + 1)
    grow_slots (c);
  return (int) c->keys->len - 1;
}

/* The class of a shape, from the dims the model states for @value
 * (@stated) or the inferred ones of @vs; -1 when a dim is empty. */
static int
dims_class (Classes *c, const PvValue *value, const PvValueShape *vs, gboolean stated, int elem_bytes, int rank)
{
  guint hash = mix (2166136261u, ((guint64) (guint) elem_bytes << 32) | (guint) rank);
  OrtDim *dims;

  if (rank > c->scratch_size)
    {
      c->scratch_size = MAX (rank, 2 * c->scratch_size);
      c->scratch = g_renew (OrtDim, c->scratch, c->scratch_size);
    }
  dims = c->scratch;
  for (int d = 0; d < rank; d++)
    {
      if (stated)
        {
          /* Graph inputs and initializers: the shape the model states. */
          const PvDim *dim = &value->type.dims[d];
          if (dim->kind == PV_DIM_VALUE)
            dims[d] = (OrtDim) { DIM_VALUE, dim->value, NULL };
          else if (dim->kind == PV_DIM_SYMBOL && dim->symbol != NULL && dim->symbol[0] != '\0')
            dims[d] = (OrtDim) { DIM_PARAM, 0, symbol_memo (c, dim->symbol)->canonical };
          else
            return -1;
          hash = mix (hash, dim_hash (c, &dims[d]));
        }
      else
        {
          const ExprMemo *m = inferred_dim (c, vs->dims[d]);
          if (m->dim.kind == DIM_EMPTY)
            return -1;
          dims[d] = m->dim;
          hash = mix (hash, m->hash);
        }
    }
  return class_of (c, elem_bytes, dims, rank, hash);
}

/* dims_class() of an inferred shape, remembered by its dim expressions. */
static int
inferred_class (Classes *c, const PvValueShape *vs, int elem_bytes, int rank)
{
  ShapeMemo *m;
  guint64 h = (guint) elem_bytes * 31u + (guint) rank;

  if (rank > MAX_MEMO_RANK)
    return dims_class (c, NULL, vs, FALSE, elem_bytes, rank);
  for (int d = 0; d < rank; d++)
    h = h * 0x9e3779b97f4a7c15ull + GPOINTER_TO_SIZE (vs->dims[d]);
  m = &c->shape_memo[(h >> 40) % N_SHAPE_MEMO];
  if (m->rank == rank && m->elem_bytes == elem_bytes)
    {
      int d = 0;
      while (d < rank && m->dims[d] == vs->dims[d])
        d++;
      if (d == rank)
        return m->size_class;
    }
  m->size_class = dims_class (c, NULL, vs, FALSE, elem_bytes, rank);
  m->rank = rank;
  m->elem_bytes = elem_bytes;
  for (int d = 0; d < rank; d++)  /* a scalar's dims may be NULL */
    m->dims[d] = vs->dims[d];
  return m->size_class;
}

/* ORT's view of @v, and its class. */
static void
classify (Classes *c, const PvGraph *graph, const PvValueShape *vs, int v, PvOrtShapeClass *out)
{
  const PvValue *value = &graph->values[v];
  PvTypeKind kind = vs && vs->kind != PV_TYPE_UNKNOWN ? vs->kind : value->type.kind;
  int elem = vs && vs->elem_type ? vs->elem_type : value->type.elem_type;
  int elem_bytes = element_bytes (elem);
  gboolean stated = value->type.rank >= 0 && value->type.kind != PV_TYPE_UNKNOWN
                    && ((value->flags & (PV_VALUE_GRAPH_INPUT | PV_VALUE_INITIALIZER)) || vs == NULL);
  int rank;

  memset (out, 0, sizeof *out);
  out->size_class = -1;
  out->optional = kind == PV_TYPE_OPTIONAL;
  out->non_tensor = kind == PV_TYPE_SEQUENCE || kind == PV_TYPE_MAP || kind == PV_TYPE_OPTIONAL
                    || kind == PV_TYPE_SPARSE_TENSOR;
  if (out->non_tensor)
    return;
  if (stated)
    rank = value->type.rank;
  else if (vs && vs->rank >= 0)
    rank = vs->rank;
  else
    return;
  out->has_shape = TRUE;
  out->scalar = rank == 0;
  /* Strings and unknown element sizes are SameSize with nothing; only node
   * outputs are ever compared (see the header). */
  if (elem == PV_ELEM_STRING || elem_bytes == 0 || value->producer < 0 || (value->flags & PV_VALUE_OUTER_SCOPE))
    return;
  out->size_class = stated ? dims_class (c, value, NULL, TRUE, elem_bytes, rank)
                           : inferred_class (c, vs, elem_bytes, rank);
}

PvOrtShapeClass *
pv_ort_shape_classes_new (const PvGraph *graph, const PvShapeInfo *shapes, int *n_classes_out)
{
  Classes c = { 0 };
  PvOrtShapeClass *out = g_new (PvOrtShapeClass, MAX (graph->n_ort_values, 1));
  const PvValueShape *value_shapes = NULL;
  int n_value_shapes = 0;

  c.model_symbols = g_hash_table_new (g_str_hash, g_str_equal);
  /* The model's own dim_params: those graph inputs state, here and above. */
  for (const PvGraph *g = graph; g; g = g->parent)
    collect_input_symbols (g, c.model_symbols);
  c.keys = g_array_new (FALSE, FALSE, sizeof (ClassKey));
  c.dims = g_array_new (FALSE, FALSE, sizeof (OrtDim));
  c.mask = 63;
  for (int i = 0; i < N_SHAPE_MEMO; i++)
    c.shape_memo[i].rank = -1;
  c.slots = g_new0 (int, c.mask + 1);
  if (shapes)
    value_shapes = pv_shape_info_get_all (shapes, graph, &n_value_shapes);

  for (int i = 0; i < graph->n_ort_values; i++)
    {
      int v = graph->ort_values[i];
      classify (&c, graph, v < n_value_shapes ? &value_shapes[v] : NULL, v, &out[i]);
    }
  *n_classes_out = (int) c.keys->len;

  g_hash_table_unref (c.model_symbols);
  g_array_unref (c.keys);
  g_array_unref (c.dims);
  g_free (c.scratch);
  g_free (c.slots);
  return out;
}
