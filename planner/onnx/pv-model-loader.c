/* pv-model-loader.c: ModelProto (protobuf-c) -> PvModel.
 *
 * The loader mirrors what ONNX Runtime's Graph constructor does with a model,
 * because node ids, names and order must match ORT's: Constant nodes become
 * initializers, node ids follow the model order of the remaining nodes, and
 * names from enclosing graphs resolve as outer-scope values that become the
 * implicit inputs of the node owning the subgraph. */
#include "pv-model-loader.h"

#include <string.h>

#include "onnx-subset.pb-c.h"
#include "pv-bump-alloc.h"
#include "pv-element-type.h"
#include "pv-error.h"
#include "pv-graph-order.h"
#include "pv-proto-scan.h"

/* Protobuf messages nested deeper than this are refused before protobuf-c
 * (which recurses) sees them. Each subgraph level costs four messages
 * (GraphProto > NodeProto > AttributeProto > GraphProto), types a few more. */
#define MAX_MESSAGE_DEPTH (4 * PV_MAX_GRAPH_DEPTH + 16)

typedef struct {
  const char *source;      /* display name for errors */
  GStringChunk *strings;
  PvModel *model;
  GCancellable *cancellable;
} Loader;

/* Nodes between two looks at the cancellable (well under a millisecond). */
#define CANCEL_STRIDE 1024

/* TRUE, with G_IO_ERROR_CANCELLED, when the load was cancelled; looks only
 * every CANCEL_STRIDE-th @i. */
static gboolean
load_cancelled (const Loader *ld, gsize i, GError **error)
{
  return i % CANCEL_STRIDE == CANCEL_STRIDE - 1 && g_cancellable_set_error_if_cancelled (ld->cancellable, error);
}

typedef struct _GraphBuild GraphBuild;
struct _GraphBuild {
  Loader *ld;
  GraphBuild *parent;
  PvGraph *graph;
  PvValue *values;         /* grown by hand: GArray rounds capacity up to a power of two */
  int n_values;
  int values_capacity;
  PvNode *nodes;           /* node_protos->len entries, filled in order */
  int n_nodes;
  GHashTable *value_types; /* name -> const Onnx__TypeProto * */
  GArray *node_protos;     /* proto index of each node id, in ORT's NodeIndex order */
  GArray *node_indices;    /* ORT's NodeIndex of each node id (int) */
  guint n_plain;           /* node ids from here on are inlined CastLikes */
};

static const char *
proto_name (const char *s)
{
  return s ? s : "";
}

static const char *
intern (Loader *ld, const char *s)
{
  return g_string_chunk_insert_const (ld->strings, proto_name (s));
}

static const char *
normalise_domain (const char *domain)
{
  if (domain == NULL || strcmp (domain, "ai.onnx") == 0)
    return "";
  return domain;
}

/* "in subgraph “body” of node “Loop_0”" for errors, "" for the main graph. */
static char *
graph_context (GraphBuild *gb)
{
  GString *out = g_string_new (NULL);

  for (GraphBuild *b = gb; b->parent != NULL; b = b->parent)
    {
      const PvNode *owner = &b->parent->nodes[b->graph->parent_node];
      g_string_append_printf (out, " in subgraph “%s” of node “%s” (%s)", b->graph->parent_attr,
                              owner->name[0] ? owner->name : "(unnamed)", owner->op_type);
    }
  return g_string_free (out, FALSE);
}

G_GNUC_PRINTF (4, 5) static void
set_error (GraphBuild *gb, GError **error, PvModelError code, const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;
  g_autofree char *context = gb ? graph_context (gb) : g_strdup ("");
  const char *source = gb ? gb->ld->source : "model";

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, PV_MODEL_ERROR, code, "%s: %s%s", source, message, context);
}

static char *
describe_node (const Onnx__NodeProto *np, int position)
{
  if (np->name && np->name[0])
    return g_strdup_printf ("node “%s” (%s)", np->name, np->op_type ? np->op_type : "?");
  return g_strdup_printf ("unnamed node #%d (%s)", position, np->op_type ? np->op_type : "?");
}

/* ---- types ---- */

static void
type_from_shape (Loader *ld, PvBumpAlloc *arena, PvType *type, const Onnx__TensorShapeProto *shape)
{
  if (shape == NULL)
    {
      type->rank = -1;
      return;
    }
  type->rank = (int) shape->n_dim;
  type->dims = pv_bump_alloc (arena, sizeof (PvDim) * MAX (shape->n_dim, 1));
  memset (type->dims, 0, sizeof (PvDim) * MAX (shape->n_dim, 1));
  for (size_t i = 0; i < shape->n_dim; i++)
    {
      const Onnx__TensorShapeProto__Dimension *d = shape->dim[i];
      PvDim *dim = &type->dims[i];
      /* A negative dim_value says nothing: ORT's NodeArg drops it
       * (RemoveInvalidValues), as it drops an empty dim_param. */
      if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && d->dim_value >= 0)
        {
          dim->kind = PV_DIM_VALUE;
          dim->value = d->dim_value;
        }
      else if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM && d->dim_param && d->dim_param[0])
        {
          dim->kind = PV_DIM_SYMBOL;
          dim->symbol = intern (ld, d->dim_param);
        }
      else
        dim->kind = PV_DIM_ANONYMOUS;
    }
}

static void
type_from_proto (Loader *ld, PvBumpAlloc *arena, PvType *type, const Onnx__TypeProto *tp, int depth)
{
  type->rank = -1;
  if (tp == NULL || depth > 8)
    return;
  switch (tp->value_case)
    {
    case ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE:
      type->kind = PV_TYPE_TENSOR;
      type->elem_type = tp->tensor_type->elem_type;
      type_from_shape (ld, arena, type, tp->tensor_type->shape);
      break;
    case ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE:
      type->kind = PV_TYPE_SPARSE_TENSOR;
      type->elem_type = tp->sparse_tensor_type->elem_type;
      type_from_shape (ld, arena, type, tp->sparse_tensor_type->shape);
      break;
    case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE:
    case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE:
      {
        const Onnx__TypeProto *inner = tp->value_case == ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE
                                         ? tp->sequence_type->elem_type
                                         : tp->optional_type->elem_type;
        PvType elem = { 0 };
        type_from_proto (ld, arena, &elem, inner, depth + 1);
        type->elem_type = elem.elem_type;
        type->rank = elem.rank;
        type->dims = elem.dims;
        type->kind = tp->value_case == ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE ? PV_TYPE_SEQUENCE : PV_TYPE_OPTIONAL;
        break;
      }
    case ONNX__TYPE_PROTO__VALUE_MAP_TYPE:
      type->kind = PV_TYPE_MAP;
      break;
    default:
      break;
    }
}

static void
type_copy (PvBumpAlloc *arena, PvType *dst, const PvType *src)
{
  *dst = *src;
  dst->dims = NULL;
  if (src->rank > 0)
    {
      dst->dims = pv_bump_alloc (arena, sizeof (PvDim) * src->rank);
      memcpy (dst->dims, src->dims, sizeof (PvDim) * src->rank);
    }
}

static void
type_from_tensor (PvBumpAlloc *arena, PvType *type, const PvTensor *tensor)
{
  type->kind = PV_TYPE_TENSOR;
  type->elem_type = tensor->elem_type;
  type->rank = tensor->n_dims;
  type->dims = pv_bump_alloc (arena, sizeof (PvDim) * MAX (tensor->n_dims, 1));
  memset (type->dims, 0, sizeof (PvDim) * MAX (tensor->n_dims, 1));
  for (int i = 0; i < tensor->n_dims; i++)
    {
      type->dims[i].kind = PV_DIM_VALUE;
      type->dims[i].value = tensor->dims[i];
    }
}

/* ---- tensors ---- */

static void
skip_length_prefix (PvTensorPayloadField *f)
{
  gsize used = 0;
  guint64 len = 0;

  for (int shift = 0; used < f->len && shift < 64; shift += 7)
    {
      guint8 b = f->data[used++];
      len |= (guint64) (b & 0x7f) << shift;
      if (!(b & 0x80))
        break;
    }
  if (len != f->len - used)
    {
      f->len = 0;  /* inconsistent: treat as empty, the decoder then rejects it */
      return;
    }
  f->data += used;
  f->len -= used;
}

static PvTensor *
tensor_from_proto (const Onnx__TensorProto *tp)
{
  PvTensor *tensor = g_new0 (PvTensor, 1);
  g_autofree PvTensorPayloadField *fields = NULL;

  tensor->elem_type = tp->data_type;
  tensor->n_dims = (int) tp->n_dims;
  tensor->dims = g_memdup2 (tp->dims, sizeof (gint64) * MAX (tp->n_dims, 1));
  tensor->external = tp->has_data_location && tp->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
  for (size_t i = 0; i < tp->n_external_data; i++)
    if (g_strcmp0 (tp->external_data[i]->key, "location") == 0)
      tensor->external_location = g_strdup (tp->external_data[i]->value);

  if (!tensor->external && tp->base.n_unknown_fields > 0)
    {
      fields = g_new0 (PvTensorPayloadField, tp->base.n_unknown_fields);
      for (unsigned i = 0; i < tp->base.n_unknown_fields; i++)
        {
          const ProtobufCMessageUnknownField *u = &tp->base.unknown_fields[i];
          fields[i] = (PvTensorPayloadField) { u->tag, u->wire_type, u->data, u->len };
          /* protobuf-c keeps a length-delimited unknown field with its length prefix. */
          if (u->wire_type == PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED)
            skip_length_prefix (&fields[i]);
        }
      pv_tensor_decode_payload (tensor, fields, tp->base.n_unknown_fields);
    }
  return tensor;
}

static PvTensor *
tensor_from_sparse (const Onnx__SparseTensorProto *sp)
{
  PvTensor *tensor = g_new0 (PvTensor, 1);

  /* Planning sees the dense tensor ORT makes of it: only type and dims matter. */
  tensor->elem_type = sp->values ? sp->values->data_type : 0;
  tensor->n_dims = (int) sp->n_dims;
  tensor->dims = g_memdup2 (sp->dims, sizeof (gint64) * MAX (sp->n_dims, 1));
  return tensor;
}

static PvTensor *
scalar_tensor (int elem_type, int rank, guint n, const void *data, gsize elem_size)
{
  PvTensor *tensor = g_new0 (PvTensor, 1);

  tensor->elem_type = elem_type;
  tensor->n_dims = rank;
  tensor->dims = g_new0 (gint64, 1);
  if (rank == 1)
    tensor->dims[0] = n;
  if (data != NULL && n * elem_size <= PV_TENSOR_KEEP_DATA_BYTES)
    tensor->data = g_bytes_new (data, n * elem_size);
  return tensor;
}

/* The tensor a Constant node holds, as ORT makes it into an initializer. */
static PvTensor *
constant_tensor (const Onnx__NodeProto *np)
{
  for (size_t i = 0; i < np->n_attribute; i++)
    {
      const Onnx__AttributeProto *a = np->attribute[i];
      const char *name = a->name ? a->name : "";

      if (strcmp (name, "value") == 0 && a->t)
        return tensor_from_proto (a->t);
      if (strcmp (name, "sparse_value") == 0 && a->sparse_tensor)
        return tensor_from_sparse (a->sparse_tensor);
      if (strcmp (name, "value_float") == 0)
        return scalar_tensor (PV_ELEM_FLOAT, 0, 1, &a->f, sizeof (float));
      if (strcmp (name, "value_floats") == 0)
        return scalar_tensor (PV_ELEM_FLOAT, 1, (guint) a->n_floats, a->floats, sizeof (float));
      if (strcmp (name, "value_int") == 0)
        return scalar_tensor (PV_ELEM_INT64, 0, 1, &a->i, sizeof (gint64));
      if (strcmp (name, "value_ints") == 0)
        return scalar_tensor (PV_ELEM_INT64, 1, (guint) a->n_ints, a->ints, sizeof (gint64));
      if (strcmp (name, "value_string") == 0)
        return scalar_tensor (PV_ELEM_STRING, 0, 1, NULL, 0);
      if (strcmp (name, "value_strings") == 0)
        return scalar_tensor (PV_ELEM_STRING, 1, (guint) a->n_strings, NULL, 0);
    }
  return NULL;
}

/* ---- values ---- */

static int
add_value (GraphBuild *gb, const char *name, guint flags)
{
  PvValue value = { 0 };
  int id = gb->n_values;
  const Onnx__TypeProto *tp;

  /* Copied, not interned: a graph's value names are unique, and the
   * dedup table of 170k names cost a twelfth of a load. */
  value.name = g_string_chunk_insert (gb->ld->strings, proto_name (name));
  value.flags = flags;
  value.producer = -1;
  value.outer_value = -1;
  value.ort_index = -1;
  tp = g_hash_table_lookup (gb->value_types, value.name);
  if (tp)
    type_from_proto (gb->ld, gb->graph->arena, &value.type, tp, 0);
  else
    value.type.rank = -1;
  if (gb->n_values == gb->values_capacity)
    {
      gb->values_capacity = MAX (16, gb->values_capacity + gb->values_capacity / 2);
      gb->values = g_renew (PvValue, gb->values, gb->values_capacity);
    }
  gb->values[gb->n_values++] = value;
  pv_name_index_set (gb->graph->value_by_name, value.name, id);
  return id;
}

/* An int array of @n entries from the graph's arena (freed with the graph). */
static int *
graph_ints (GraphBuild *gb, int n)
{
  int *ints = pv_bump_alloc (gb->graph->arena, sizeof (int) * MAX (n, 1));
  memset (ints, 0, sizeof (int) * MAX (n, 1));
  return ints;
}

static PvValue *
value_at (GraphBuild *gb, int id)
{
  return &gb->values[id];
}

/* The id of @name in @gb, creating an outer-scope value when an enclosing
 * graph defines it; -1 when nothing does. */
static int
resolve_name (GraphBuild *gb, const char *name)
{
  int id = pv_graph_find_value (gb->graph, name);
  int outer;

  if (id >= 0 || gb->parent == NULL)
    return id;
  outer = resolve_name (gb->parent, name);
  if (outer < 0)
    return -1;
  id = add_value (gb, name, PV_VALUE_OUTER_SCOPE);
  value_at (gb, id)->outer_value = outer;
  if (value_at (gb, id)->type.kind == PV_TYPE_UNKNOWN)
    {
      type_copy (gb->graph->arena, &value_at (gb, id)->type, &value_at (gb->parent, outer)->type);
    }
  return id;
}

/* ---- graphs ---- */

static PvGraph *convert_graph (Loader *ld, const Onnx__GraphProto *gp, GraphBuild *parent, int parent_node,
                               const char *attr_name, GError **error);

static gboolean
convert_attribute (GraphBuild *gb, int node_id, PvAttribute *attr, const Onnx__AttributeProto *a, GError **error)
{
  PvAttrType type = a->has_type ? (PvAttrType) a->type : PV_ATTR_UNDEFINED;

  attr->name = intern (gb->ld, a->name);
  /* IR versions before 0.0.2 had no type field: infer it from what is set. */
  if (type == PV_ATTR_UNDEFINED)
    {
      if (a->g) type = PV_ATTR_GRAPH;
      else if (a->t) type = PV_ATTR_TENSOR;
      else if (a->n_graphs) type = PV_ATTR_GRAPHS;
      else if (a->n_tensors) type = PV_ATTR_TENSORS;
      else if (a->n_ints) type = PV_ATTR_INTS;
      else if (a->n_floats) type = PV_ATTR_FLOATS;
      else if (a->n_strings) type = PV_ATTR_STRINGS;
      else if (a->has_s) type = PV_ATTR_STRING;
      else if (a->has_i) type = PV_ATTR_INT;
      else if (a->has_f) type = PV_ATTR_FLOAT;
    }
  attr->type = type;
  attr->f = a->f;
  attr->i = a->i;
  switch (type)
    {
    case PV_ATTR_STRING:
      attr->s = g_bytes_new (a->s.data, a->s.len);
      break;
    case PV_ATTR_TENSOR:
      if (a->t)
        attr->t = tensor_from_proto (a->t);
      break;
    case PV_ATTR_SPARSE_TENSOR:
      if (a->sparse_tensor)
        attr->t = tensor_from_sparse (a->sparse_tensor);
      break;
    case PV_ATTR_GRAPH:
      if (a->g == NULL)
        {
          set_error (gb, error, PV_MODEL_ERROR_INVALID, "graph attribute “%s” of node #%d holds no graph",
                     attr->name, node_id);
          return FALSE;
        }
      attr->g = convert_graph (gb->ld, a->g, gb, node_id, attr->name, error);
      return attr->g != NULL;
    case PV_ATTR_FLOATS:
      attr->n = (guint) a->n_floats;
      attr->floats = g_memdup2 (a->floats, sizeof (float) * MAX (a->n_floats, 1));
      break;
    case PV_ATTR_INTS:
      attr->n = (guint) a->n_ints;
      attr->ints = g_memdup2 (a->ints, sizeof (gint64) * MAX (a->n_ints, 1));
      break;
    case PV_ATTR_STRINGS:
      attr->n = (guint) a->n_strings;
      attr->strings = g_new0 (GBytes *, MAX (a->n_strings, 1));
      for (size_t i = 0; i < a->n_strings; i++)
        attr->strings[i] = g_bytes_new (a->strings[i].data, a->strings[i].len);
      break;
    case PV_ATTR_TENSORS:
      attr->n = (guint) a->n_tensors;
      attr->tensors = g_new0 (PvTensor *, MAX (a->n_tensors, 1));
      for (size_t i = 0; i < a->n_tensors; i++)
        attr->tensors[i] = tensor_from_proto (a->tensors[i]);
      break;
    case PV_ATTR_GRAPHS:
      attr->graphs = g_new0 (PvGraph *, MAX (a->n_graphs, 1));
      for (size_t i = 0; i < a->n_graphs; i++)
        {
          attr->graphs[i] = convert_graph (gb->ld, a->graphs[i], gb, node_id, attr->name, error);
          if (attr->graphs[i] == NULL)
            return FALSE;
          attr->n = (guint) i + 1;
        }
      break;
    default:
      break;
    }
  return TRUE;
}

/* ORT turns Constant nodes (any domain: it checks the op type only) into
 * initializers before it numbers nodes. */
static gboolean
is_constant_node (const Onnx__NodeProto *np)
{
  return g_strcmp0 (np->op_type, "Constant") == 0;
}

/* Nodes that get no NodeIndex in ORT: Constants, and nodes without inputs or
 * outputs, which ORT removes as useless while connecting the graph. */
static gboolean
is_dropped_node (const Onnx__NodeProto *np)
{
  return is_constant_node (np) || (np->n_input == 0 && np->n_output == 0);
}

/* ORT 1.30's CPU provider has no CastLike kernel, so a session inlines its
 * function body: an unnamed Cast of input 0, added after every other node. */
static gboolean
is_inlined_cast_like (const Onnx__NodeProto *np)
{
  return g_strcmp0 (np->op_type, "CastLike") == 0 && normalise_domain (np->domain)[0] == '\0' && np->n_input == 2;
}

/* Node ids in ORT's NodeIndex order: kept nodes in model order, then the
 * nodes of inlined function bodies in the order they were inlined. ORT
 * numbers the call nodes before it inlines them: their NodeIndex values
 * stay unused, and the bodies' nodes come after all of them. */
static void
plan_node_order (GraphBuild *gb, const Onnx__GraphProto *gp)
{
  int next = 0;

  g_autoptr (GArray) inlined = g_array_new (FALSE, FALSE, sizeof (int));

  gb->node_protos = g_array_sized_new (FALSE, FALSE, sizeof (int), (guint) gp->n_node);
  gb->node_indices = g_array_sized_new (FALSE, FALSE, sizeof (int), (guint) gp->n_node);
  /* One pass over the protos (a second cost a tenth of the load in cache
   * misses on a 100k-node graph): the inlined ones are appended after. */
  for (size_t i = 0; i < gp->n_node; i++)
    {
      int index = (int) i;
      if (is_dropped_node (gp->node[i]))
        continue;
      if (is_inlined_cast_like (gp->node[i]))
        {
          g_array_append_val (inlined, index);
          next++;
          continue;
        }
      g_array_append_val (gb->node_protos, index);
      g_array_append_val (gb->node_indices, next);
      next++;
    }
  gb->n_plain = gb->node_protos->len;
  for (guint k = 0; k < inlined->len; k++, next++)
    {
      g_array_append_val (gb->node_protos, g_array_index (inlined, int, k));
      g_array_append_val (gb->node_indices, next);
    }
}

/* Graph inputs, initializers and the initializers ORT makes of Constant nodes. */
static gboolean
add_graph_inputs (GraphBuild *gb, const Onnx__GraphProto *gp, GError **error)
{
  GArray *initializers = g_array_new (FALSE, FALSE, sizeof (int));
  PvGraph *graph = gb->graph;

  graph->n_inputs = (int) gp->n_input;
  graph->inputs = g_new0 (int, MAX (gp->n_input, 1));
  for (size_t i = 0; i < gp->n_input; i++)
    {
      const char *name = gp->input[i]->name ? gp->input[i]->name : "";
      if (pv_graph_find_value (graph, name) >= 0)
        {
          set_error (gb, error, PV_MODEL_ERROR_DUPLICATE_PRODUCER, "graph input “%s” is listed twice", name);
          g_array_unref (initializers);
          return FALSE;
        }
      graph->inputs[i] = add_value (gb, name, PV_VALUE_GRAPH_INPUT);
    }

  for (size_t i = 0; i < gp->n_initializer + gp->n_sparse_initializer; i++)
    {
      gboolean sparse = i >= gp->n_initializer;
      const Onnx__TensorProto *tp = sparse ? NULL : gp->initializer[i];
      const Onnx__SparseTensorProto *sp = sparse ? gp->sparse_initializer[i - gp->n_initializer] : NULL;
      const char *name = tp ? tp->name : (sp->values ? sp->values->name : NULL);
      int id;

      if (load_cancelled (gb->ld, i, error))
        {
          g_array_unref (initializers);
          return FALSE;
        }
      if (name == NULL)
        name = "";
      id = pv_graph_find_value (graph, name);
      if (id >= 0 && (value_at (gb, id)->flags & PV_VALUE_INITIALIZER))
        {
          set_error (gb, error, PV_MODEL_ERROR_DUPLICATE_PRODUCER, "initializer “%s” is defined twice", name);
          g_array_unref (initializers);
          return FALSE;
        }
      if (id < 0)
        id = add_value (gb, name, 0);
      value_at (gb, id)->flags |= PV_VALUE_INITIALIZER;
      value_at (gb, id)->initializer = tp ? tensor_from_proto (tp) : tensor_from_sparse (sp);
      g_array_append_val (initializers, id);
    }

  for (size_t i = 0; i < gp->n_node; i++)
    {
      const Onnx__NodeProto *np = gp->node[i];
      g_autofree char *what = NULL;
      PvTensor *tensor;
      int id;

      if (!is_constant_node (np))
        continue;
      /* Named for errors only: formatting it for every Constant cost 3% of a load. */
      if (np->n_output != 1 || np->output[0] == NULL || np->output[0][0] == '\0')
        {
          what = describe_node (np, (int) i);
          set_error (gb, error, PV_MODEL_ERROR_INVALID, "%s must have exactly one named output", what);
          g_array_unref (initializers);
          return FALSE;
        }
      tensor = constant_tensor (np);
      if (tensor == NULL)
        {
          what = describe_node (np, (int) i);
          set_error (gb, error, PV_MODEL_ERROR_INVALID, "%s has no value attribute", what);
          g_array_unref (initializers);
          return FALSE;
        }
      if (pv_graph_find_value (graph, np->output[0]) >= 0)
        {
          what = describe_node (np, (int) i);
          set_error (gb, error, PV_MODEL_ERROR_DUPLICATE_PRODUCER,
                     "value “%s” is produced by %s and is also a graph input or initializer", np->output[0], what);
          pv_tensor_free (tensor);
          g_array_unref (initializers);
          return FALSE;
        }
      id = add_value (gb, np->output[0], PV_VALUE_INITIALIZER | PV_VALUE_FROM_CONSTANT);
      value_at (gb, id)->initializer = tensor;
      g_array_append_val (initializers, id);
      gb->ld->model->n_constant_nodes++;
    }

  /* Before IR version 4 ORT also lists Constant-made initializers as graph
   * inputs, which moves them up in the OrtValue order. */
  graph->constants_listed_as_inputs = gb->ld->model->ir_version < 4;
  graph->n_initializers = (int) initializers->len;
  graph->initializers = (int *) g_array_free (initializers, FALSE);
  for (int i = 0; i < graph->n_initializers; i++)
    {
      PvValue *v = value_at (gb, graph->initializers[i]);
      if (v->type.kind == PV_TYPE_UNKNOWN)
        {
          type_from_tensor (gb->graph->arena, &v->type, v->initializer);
        }
    }
  return TRUE;
}

/* First pass over nodes: ids in model order (Constant nodes excluded) and the
 * values they produce, so that later lookups, also from subgraphs, see them. */
static gboolean
add_nodes (GraphBuild *gb, const Onnx__GraphProto *gp, GError **error)
{
  const char *last_domain = NULL;
  int last_opset = 0;

  for (guint n = 0; n < gb->node_protos->len; n++)
    {
      size_t i = (size_t) g_array_index (gb->node_protos, int, n);
      const Onnx__NodeProto *np = gp->node[i];
      PvNode node = { 0 };
      int node_id = gb->n_nodes;

      if (load_cancelled (gb->ld, n, error))
        return FALSE;
      node.type_source = -1;
      node.ort_index = g_array_index (gb->node_indices, int, node_id);
      if (n >= gb->n_plain)
        {
          node.inlined_from = intern (gb->ld, "CastLike");
          node.name = intern (gb->ld, "");
          node.op_type = intern (gb->ld, "Cast");
        }
      else
        {
          /* Copied, not interned: node names are unique (a duplicate is
           * an error), and interning 100k of them cost a tenth of a load. */
          node.name = g_string_chunk_insert (gb->ld->strings, proto_name (np->name));
          node.op_type = intern (gb->ld, np->op_type);
        }
      node.domain = intern (gb->ld, normalise_domain (np->domain));
      /* Interned: the same domain as the last node's has the same opset. */
      if (node.domain != last_domain)
        last_opset = (int) pv_model_opset_version (gb->ld->model, last_domain = node.domain);
      node.opset = last_opset;
      node.n_outputs = (int) np->n_output;
      node.outputs = graph_ints (gb, (int) np->n_output);
      for (size_t o = 0; o < np->n_output; o++)
        {
          const char *name = np->output[o] ? np->output[o] : "";
          int id;

          node.outputs[o] = -1;
          if (name[0] == '\0')
            continue;
          id = pv_graph_find_value (gb->graph, name);
          if (id >= 0)
            {
              const PvValue *prev = value_at (gb, id);
              g_autofree char *what = describe_node (np, (int) i);
              if (prev->producer == node_id)
                set_error (gb, error, PV_MODEL_ERROR_DUPLICATE_PRODUCER, "%s lists output “%s” twice", what, name);
              else if (prev->producer >= 0)
                {
                  const PvNode *other = &gb->nodes[prev->producer];
                  set_error (gb, error, PV_MODEL_ERROR_DUPLICATE_PRODUCER,
                             "value “%s” is produced twice: by node “%s” (%s) and by %s", name,
                             other->name[0] ? other->name : "(unnamed)", other->op_type, what);
                }
              else
                set_error (gb, error, PV_MODEL_ERROR_DUPLICATE_PRODUCER,
                           "value “%s” is produced by %s but is also a graph input or initializer", name, what);
              return FALSE;
            }
          id = add_value (gb, name, 0);
          value_at (gb, id)->producer = node_id;
          value_at (gb, id)->producer_output = (int) o;
          node.outputs[o] = id;
        }
      gb->nodes[gb->n_nodes++] = node;
    }
  return TRUE;
}

static void
add_implicit_inputs (GraphBuild *gb, PvNode *node)
{
  GArray *implicit = g_array_new (FALSE, FALSE, sizeof (int));

  for (int s = 0; s < node->n_subgraphs; s++)
    {
      const PvGraph *sub = node->subgraphs[s];
      for (int v = 0; v < sub->n_values; v++)
        {
          int outer = sub->values[v].outer_value;
          gboolean seen = FALSE;
          if (!(sub->values[v].flags & PV_VALUE_OUTER_SCOPE))
            continue;
          for (guint k = 0; k < implicit->len && !seen; k++)
            seen = g_array_index (implicit, int, k) == outer;
          if (!seen)
            g_array_append_val (implicit, outer);
        }
    }
  node->n_implicit_inputs = (int) implicit->len;
  node->implicit_inputs = graph_ints (gb, (int) implicit->len);
  if (implicit->len > 0)
    memcpy (node->implicit_inputs, implicit->data, sizeof (int) * implicit->len);
  g_array_unref (implicit);
}

/* Second pass: inputs, attributes, subgraphs, implicit inputs. */
static gboolean
connect_nodes (GraphBuild *gb, const Onnx__GraphProto *gp, GError **error)
{
  for (int node_id = 0; node_id < (int) gb->node_protos->len; node_id++)
    {
      size_t i = (size_t) g_array_index (gb->node_protos, int, node_id);
      const Onnx__NodeProto *np = gp->node[i];
      PvNode *node;
      GPtrArray *subgraphs;

      if (load_cancelled (gb->ld, (gsize) node_id, error))
        return FALSE;
      node = &gb->nodes[node_id];
      if (node->inlined_from)
        {
          /* The Cast reads only input 0; target_type lends its type, not an edge. */
          int source = resolve_name (gb, np->input[1] ? np->input[1] : "");
          node = &gb->nodes[node_id];
          node->type_source = source;
        }
      node->n_inputs = node->inlined_from ? 1 : (int) np->n_input;
      node->inputs = graph_ints (gb, (int) np->n_input);
      for (size_t k = 0; k < (size_t) node->n_inputs; k++)
        {
          const char *name = np->input[k] ? np->input[k] : "";
          node->inputs[k] = name[0] ? resolve_name (gb, name) : -1;
          if (name[0] && node->inputs[k] < 0)
            {
              g_autofree char *what = describe_node (np, (int) i);
              set_error (gb, error, PV_MODEL_ERROR_UNDEFINED_INPUT,
                         "%s input %zu “%s” is not produced by any node and is no graph input, initializer "
                         "or outer-scope value", what, k, name);
              return FALSE;
            }
          /* resolve_name() may grow gb->values but never gb->nodes. */
        }

      node->n_attrs = (int) np->n_attribute;
      node->attrs = pv_bump_alloc (gb->graph->arena, sizeof (PvAttribute) * MAX (np->n_attribute, 1));
      memset (node->attrs, 0, sizeof (PvAttribute) * MAX (np->n_attribute, 1));
      for (size_t a = 0; a < np->n_attribute; a++)
        {
          /* Subgraph conversion re-enters gb: re-fetch the node afterwards. */
          PvAttribute attr = { 0 };
          gboolean ok = convert_attribute (gb, node_id, &attr, np->attribute[a], error);
          node = &gb->nodes[node_id];
          node->attrs[a] = attr;
          if (!ok)
            return FALSE;
        }

      subgraphs = g_ptr_array_new ();
      for (int a = 0; a < node->n_attrs; a++)
        {
          if (node->attrs[a].type == PV_ATTR_GRAPH && node->attrs[a].g)
            g_ptr_array_add (subgraphs, node->attrs[a].g);
          for (guint k = 0; node->attrs[a].type == PV_ATTR_GRAPHS && k < node->attrs[a].n; k++)
            g_ptr_array_add (subgraphs, node->attrs[a].graphs[k]);
        }
      node->n_subgraphs = (int) subgraphs->len;
      node->subgraphs = pv_bump_alloc (gb->graph->arena, sizeof (PvGraph *) * MAX (subgraphs->len, 1));
      if (subgraphs->len > 0)
        memcpy (node->subgraphs, subgraphs->pdata, sizeof (PvGraph *) * subgraphs->len);
      g_ptr_array_unref (subgraphs);
      add_implicit_inputs (gb, node);
    }
  return TRUE;
}

static gboolean
add_graph_outputs (GraphBuild *gb, const Onnx__GraphProto *gp, GError **error)
{
  PvGraph *graph = gb->graph;

  graph->n_outputs = (int) gp->n_output;
  graph->outputs = g_new0 (int, MAX (gp->n_output, 1));
  for (size_t i = 0; i < gp->n_output; i++)
    {
      const char *name = gp->output[i]->name ? gp->output[i]->name : "";
      int id = resolve_name (gb, name);
      if (id < 0)
        {
          set_error (gb, error, PV_MODEL_ERROR_UNDEFINED_INPUT,
                     "graph output “%s” is not produced by any node and is no graph input, initializer "
                     "or outer-scope value", name);
          return FALSE;
        }
      value_at (gb, id)->flags |= PV_VALUE_GRAPH_OUTPUT;
      graph->outputs[i] = id;
    }
  return TRUE;
}

static PvGraph *
convert_graph (Loader *ld, const Onnx__GraphProto *gp, GraphBuild *parent, int parent_node, const char *attr_name,
               GError **error)
{
  GraphBuild gb = { .ld = ld, .parent = parent };
  g_autoptr (PvGraph) graph = g_new0 (PvGraph, 1);
  gboolean ok;

  graph->name = intern (ld, gp->name);
  graph->parent_node = parent_node;
  graph->parent_attr = attr_name;
  graph->depth = parent ? parent->graph->depth + 1 : 0;
  graph->strings = ld->strings;
  graph->owns_strings = parent == NULL;
  graph->arena = pv_bump_alloc_new ();
  gb.graph = graph;
  if (parent && graph->depth > PV_MAX_GRAPH_DEPTH)
    {
      set_error (parent, error, PV_MODEL_ERROR_TOO_DEEP, "subgraphs are nested more than %d deep",
                 PV_MAX_GRAPH_DEPTH);
      return NULL;
    }

  {
    /* Exact-size arrays: a 100k-node graph should not pay for doubling.
     * Subgraphs may add outer-scope values; the array grows for those. */
    gsize n_values = gp->n_input + gp->n_initializer + gp->n_sparse_initializer;
    for (size_t i = 0; i < gp->n_node; i++)
      n_values += gp->node[i]->n_output;
    gb.values_capacity = (int) MIN (n_values + 16, (gsize) G_MAXINT / 2);
    gb.values = g_new (PvValue, gb.values_capacity);
    graph->value_by_name = pv_name_index_new ((gsize) gb.values_capacity);
    plan_node_order (&gb, gp);
    gb.nodes = g_new0 (PvNode, MAX (gb.node_protos->len, 1));
  }
  /* Keyed by the protos' strings, which live as long as the build. */
  gb.value_types = g_hash_table_new (g_str_hash, g_str_equal);
  /* value_info first so that input/output declarations win. */
  for (size_t i = 0; i < gp->n_value_info; i++)
    g_hash_table_insert (gb.value_types, (gpointer) proto_name (gp->value_info[i]->name), gp->value_info[i]->type);
  for (size_t i = 0; i < gp->n_output; i++)
    g_hash_table_insert (gb.value_types, (gpointer) proto_name (gp->output[i]->name), gp->output[i]->type);
  for (size_t i = 0; i < gp->n_input; i++)
    g_hash_table_insert (gb.value_types, (gpointer) proto_name (gp->input[i]->name), gp->input[i]->type);

  ok = add_graph_inputs (&gb, gp, error) && add_nodes (&gb, gp, error) && connect_nodes (&gb, gp, error) &&
       add_graph_outputs (&gb, gp, error);

  /* Hand the arrays to the graph even on failure, so that it frees them. */
  graph->n_values = gb.n_values;
  graph->values = g_renew (PvValue, gb.values, MAX (gb.n_values, 1));
  graph->n_nodes = gb.n_nodes;
  graph->nodes = gb.nodes;
  g_hash_table_unref (gb.value_types);
  g_array_unref (gb.node_protos);
  g_array_unref (gb.node_indices);
  if (!ok)
    return NULL;

  for (int s = 0; s < graph->n_nodes; s++)
    for (int k = 0; k < graph->nodes[s].n_subgraphs; k++)
      graph->nodes[s].subgraphs[k]->parent = graph;

  pv_graph_build_consumers (graph);
  if (!pv_graph_finish_order (graph, error))
    {
      g_autofree char *context = graph_context (&gb);
      g_prefix_error (error, "%s: ", ld->source);
      if (context[0] && error && *error)
        {
          char *m = g_strconcat ((*error)->message, context, NULL);
          g_free ((*error)->message);
          (*error)->message = m;
        }
      return NULL;
    }
  return g_steal_pointer (&graph);
}

/* ---- model ---- */

static gboolean
unpack_failure (const char *source, const guint8 *data, gsize len, GError **error)
{
  PvProtoScanResult scan;
  PvModelError code;
  gboolean ok = pv_proto_scan (&onnx__model_proto__descriptor, data, len, MAX_MESSAGE_DEPTH, &scan);

  if (ok)
    return TRUE;
  switch (scan.status)
    {
    case PV_PROTO_SCAN_TRUNCATED:
      code = PV_MODEL_ERROR_TRUNCATED;
      break;
    case PV_PROTO_SCAN_TOO_DEEP:
      code = PV_MODEL_ERROR_TOO_DEEP;
      break;
    case PV_PROTO_SCAN_WRONG_TYPE:
      code = scan.depth == 0 ? PV_MODEL_ERROR_NOT_A_MODEL : PV_MODEL_ERROR_NOT_PROTOBUF;
      break;
    default:
      code = scan.depth == 0 && scan.offset == 0 ? PV_MODEL_ERROR_NOT_PROTOBUF : PV_MODEL_ERROR_NOT_PROTOBUF;
      break;
    }
  if (code == PV_MODEL_ERROR_TRUNCATED)
    g_set_error (error, PV_MODEL_ERROR, code, "%s: truncated: at byte %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
                 " (%s), %s", source, scan.offset, len, scan.path[0] ? scan.path : "top level", scan.message);
  else if (code == PV_MODEL_ERROR_NOT_A_MODEL)
    g_set_error (error, PV_MODEL_ERROR, code, "%s: not an ONNX model: %s", source, scan.message);
  else if (code == PV_MODEL_ERROR_TOO_DEEP)
    g_set_error (error, PV_MODEL_ERROR, code, "%s: %s at byte %" G_GSIZE_FORMAT, source, scan.message, scan.offset);
  else
    g_set_error (error, PV_MODEL_ERROR, code, "%s: not a valid protobuf message: at byte %" G_GSIZE_FORMAT
                 " (%s), %s", source, scan.offset, scan.path[0] ? scan.path : "top level", scan.message);
  pv_proto_scan_result_clear (&scan);
  return FALSE;
}

static gboolean
check_header (const char *source, const Onnx__ModelProto *mp, GError **error)
{
  if (!mp->has_ir_version && mp->graph == NULL && mp->n_opset_import == 0)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_NOT_A_MODEL,
                   "%s: not an ONNX model: no IR version, opset or graph", source);
      return FALSE;
    }
  if (!mp->has_ir_version)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_IR_VERSION, "%s: the model has no IR version", source);
      return FALSE;
    }
  if (mp->ir_version < 1 || mp->ir_version > PV_MAX_IR_VERSION)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_IR_VERSION,
                   "%s: IR version %" G_GINT64_FORMAT " is not supported (planviz reads 1 to %d)", source,
                   (gint64) mp->ir_version, PV_MAX_IR_VERSION);
      return FALSE;
    }
  if (mp->graph == NULL)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_NO_GRAPH, "%s: the model has no graph", source);
      return FALSE;
    }
  if (mp->ir_version >= 3 && mp->n_opset_import == 0)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_INVALID,
                   "%s: the model imports no opset (IR version %" G_GINT64_FORMAT " requires opset_import)", source,
                   (gint64) mp->ir_version);
      return FALSE;
    }
  return TRUE;
}

static void
copy_header (Loader *ld, PvModel *model, const Onnx__ModelProto *mp)
{
  model->ir_version = mp->ir_version;
  model->producer_name = g_strdup (mp->producer_name ? mp->producer_name : "");
  model->producer_version = g_strdup (mp->producer_version ? mp->producer_version : "");
  model->domain = g_strdup (mp->domain ? mp->domain : "");
  model->model_version = mp->model_version;
  model->n_functions = (int) mp->n_functions;
  model->opsets = g_new0 (PvOpset, MAX (mp->n_opset_import, 1));
  for (size_t i = 0; i < mp->n_opset_import; i++)
    {
      const Onnx__OperatorSetIdProto *op = mp->opset_import[i];
      model->opsets[model->n_opsets].domain = intern (ld, normalise_domain (op->domain));
      model->opsets[model->n_opsets].version = op->version;
      model->n_opsets++;
    }
  /* IR version < 3 models have no opset_import: they are ONNX opset 1. */
  if (model->n_opsets == 0)
    {
      model->opsets[0].domain = intern (ld, "");
      model->opsets[0].version = 1;
      model->n_opsets = 1;
    }
  model->metadata_keys = g_new0 (char *, mp->n_metadata_props + 1);
  model->metadata_values = g_new0 (char *, mp->n_metadata_props + 1);
  for (size_t i = 0; i < mp->n_metadata_props; i++)
    {
      model->metadata_keys[i] = g_strdup (mp->metadata_props[i]->key ? mp->metadata_props[i]->key : "");
      model->metadata_values[i] = g_strdup (mp->metadata_props[i]->value ? mp->metadata_props[i]->value : "");
    }
}

typedef void (*ReleaseBytes) (gpointer data);

/* protobuf-c's allocator over the bump arena that fails once the load is
 * cancelled: unpacking a big model is one call, and a failed allocation is
 * the only way to stop it early (protobuf-c then returns NULL). */
typedef struct {
  PvBumpAlloc *arena;
  GCancellable *cancellable;
  guint n_allocs;
  gboolean cancelled;
} UnpackAlloc;

static void *
unpack_alloc (void *data, size_t size)
{
  UnpackAlloc *u = data;

  if (!u->cancelled && ++u->n_allocs % (16 * CANCEL_STRIDE) == 0)
    u->cancelled = g_cancellable_is_cancelled (u->cancellable);
  return u->cancelled ? NULL : pv_bump_alloc (u->arena, size);
}

static PvModel *
load_model (const guint8 *data, gsize len, const char *display_name, ReleaseBytes release, gpointer release_data,
            GCancellable *cancellable, GError **error)
{
  Loader ld = { display_name, NULL, NULL, cancellable };
  g_autoptr (PvModel) model = NULL;
  g_autoptr (PvBumpAlloc) arena = pv_bump_alloc_new ();
  UnpackAlloc unpack = { arena, cancellable };
  ProtobufCAllocator allocator;
  Onnx__ModelProto *mp = NULL;
  PvGraph *graph;

  if (len == 0)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_NOT_A_MODEL, "%s: the file is empty", display_name);
      goto fail;
    }
  if (!unpack_failure (display_name, data, len, error))
    goto fail;
  /* The message tree lives in the arena and goes with it; allocations go
   * through the cancellable wrapper. */
  pv_bump_alloc_protobuf_allocator (arena, &allocator);
  allocator.alloc = unpack_alloc;
  allocator.allocator_data = &unpack;
  mp = onnx__model_proto__unpack (&allocator, len, data);
  if (mp == NULL && unpack.cancelled)
    {
      g_cancellable_set_error_if_cancelled (cancellable, error);
      goto fail;
    }
  if (mp == NULL)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_NOT_PROTOBUF,
                   "%s: not a valid protobuf message (protobuf-c could not unpack it)", display_name);
      goto fail;
    }
  /* Everything needed is copied now: give back the file's pages early. */
  if (release)
    {
      release (release_data);
      release = NULL;
    }
  if (!check_header (display_name, mp, error))
    goto fail;

  model = g_new0 (PvModel, 1);
  model->source_name = g_strdup (display_name);
  model->source_bytes = len;
  ld.strings = g_string_chunk_new (64 * 1024);
  ld.model = model;
  copy_header (&ld, model, mp);
  graph = convert_graph (&ld, mp->graph, NULL, -1, NULL, error);
  if (graph == NULL)
    {
      /* The failed main graph has freed the strings already. */
      g_clear_pointer (&model, pv_model_free);
      goto fail;
    }
  model->graph = graph;
  return g_steal_pointer (&model);

fail:
  if (release)
    release (release_data);
  return NULL;
}

PvModel *
pv_model_load_from_bytes (const guint8 *data, gsize len, const char *display_name, GError **error)
{
  return load_model (data, len, display_name ? display_name : "model", NULL, NULL, NULL, error);
}

PvModel *
pv_model_load_from_file (const char *path, GError **error)
{
  return pv_model_load_from_file_cancellable (path, NULL, error);
}

PvModel *
pv_model_load_from_file_cancellable (const char *path, GCancellable *cancellable, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  GMappedFile *file = g_mapped_file_new (path, FALSE, &local_error);
  g_autofree char *name = g_filename_display_name (path);

  if (file == NULL)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_IO, "%s", local_error->message);
      return NULL;
    }
  return load_model ((const guint8 *) g_mapped_file_get_contents (file), g_mapped_file_get_length (file), name,
                     (ReleaseBytes) g_mapped_file_unref, file, cancellable, error);
}

PvTensor *
pv_tensor_load_from_bytes (const guint8 *data, gsize len, const char *display_name, GError **error)
{
  g_autoptr (PvBumpAlloc) arena = pv_bump_alloc_new ();
  ProtobufCAllocator allocator;
  PvProtoScanResult scan;
  Onnx__TensorProto *tp;

  if (!pv_proto_scan (&onnx__tensor_proto__descriptor, data, len, 8, &scan))
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_NOT_PROTOBUF, "%s: not a TensorProto: at byte %" G_GSIZE_FORMAT
                   ", %s", display_name, scan.offset, scan.message);
      pv_proto_scan_result_clear (&scan);
      return NULL;
    }
  pv_bump_alloc_protobuf_allocator (arena, &allocator);
  tp = onnx__tensor_proto__unpack (&allocator, len, data);
  if (tp == NULL)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_NOT_PROTOBUF, "%s: not a TensorProto", display_name);
      return NULL;
    }
  return tensor_from_proto (tp);
}
