/* pv-model-tensors.c: the types and tensors of a model's protos as PvType
 * and PvTensor (Constant nodes' values included). */
#include "pv-model-loader-private.h"

#include <string.h>

#include "pv-element-type.h"
#include "pv-proto-scan.h"

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

void
_pv_loader_type_from_proto (Loader *ld, PvBumpAlloc *arena, PvType *type, const Onnx__TypeProto *tp, int depth)
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
        _pv_loader_type_from_proto (ld, arena, &elem, inner, depth + 1);
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

void
_pv_loader_type_copy (PvBumpAlloc *arena, PvType *dst, const PvType *src)
{
  *dst = *src;
  dst->dims = NULL;
  if (src->rank > 0)
    {
      dst->dims = pv_bump_alloc (arena, sizeof (PvDim) * src->rank);
      memcpy (dst->dims, src->dims, sizeof (PvDim) * src->rank);
    }
}

void
_pv_loader_type_from_tensor (PvBumpAlloc *arena, PvType *type, const PvTensor *tensor)
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

PvTensor *
_pv_loader_tensor_from_proto (const Onnx__TensorProto *tp)
{
  PvTensor *tensor = g_new0 (PvTensor, 1);
  g_autofree PvTensorPayloadField *fields = NULL;

  tensor->elem_type = tp->data_type;
  tensor->n_dims = (int) tp->n_dims;
  tensor->dims = g_memdup2 (tp->dims, sizeof (gint64) * MAX (tp->n_dims, 1));
  tensor->external = tp->has_data_location && tp->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
  if (tensor->external)
    _pv_external_data_read_entries (tensor, tp->external_data, tp->n_external_data);
  else
    for (size_t i = 0; i < tp->n_external_data; i++)
      if (g_strcmp0 (tp->external_data[i]->key, "location") == 0)
        {
          /* Not external: ORT never reads these entries; the last location is kept. */
          g_free (tensor->external_location);
          tensor->external_location = g_strdup (tp->external_data[i]->value);
        }

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

PvTensor *
_pv_loader_tensor_from_sparse (const Onnx__SparseTensorProto *sp)
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
PvTensor *
_pv_loader_constant_tensor (const Onnx__NodeProto *np)
{
  for (size_t i = 0; i < np->n_attribute; i++)
    {
      const Onnx__AttributeProto *a = np->attribute[i];
      const char *name = a->name ? a->name : "";

      if (strcmp (name, "value") == 0 && a->t)
        return _pv_loader_tensor_from_proto (a->t);
      if (strcmp (name, "sparse_value") == 0 && a->sparse_tensor)
        return _pv_loader_tensor_from_sparse (a->sparse_tensor);
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
