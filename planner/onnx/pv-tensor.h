/* pv-tensor.h: what planviz keeps of a TensorProto (initializers, Constant
 * values, tensor attributes): its type, dims, where its data lives, and the
 * data itself only when it is small enough to matter for shape inference. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Payloads up to this many bytes are decoded and kept: 64 int64 elements,
 * enough for shape vectors, axes, pads and scalars. Larger ones (weights,
 * even small ones) are only measured. */
#define PV_TENSOR_KEEP_DATA_BYTES 512

typedef struct {
  int elem_type;          /* PvElementType */
  int n_dims;
  gint64 *dims;
  gboolean external;      /* data_location == EXTERNAL */
  char *external_location;/* external_data "location", or NULL */
  gint64 external_offset; /* external_data "offset" (0 when absent) */
  guint64 external_length;/* external_data "length" (0 when absent: the tensor's size) */
  char *external_problem; /* why ORT refuses the external_data entries, or NULL */
  GBytes *data;           /* little-endian element bytes, or NULL when not kept */
} PvTensor;

void pv_tensor_free (PvTensor *tensor);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvTensor, pv_tensor_free)

/* Number of elements (product of dims; 1 for a scalar). FALSE on overflow or a
 * negative dim. */
gboolean pv_tensor_n_elements (const PvTensor *tensor, guint64 *n_out);

/* Reads element @i of an integer tensor with kept data as gint64 (int8..int64,
 * uint8..uint64, bool). FALSE when there is no data, the index is out of range
 * or the type is not an integer type. */
gboolean pv_tensor_get_int (const PvTensor *tensor, guint64 i, gint64 *value_out);

/* Same for float32/float64/float16/bfloat16 and the integer types, as double. */
gboolean pv_tensor_get_double (const PvTensor *tensor, guint64 i, double *value_out);

/* One payload field as protobuf-c left it (an unknown field of the schema). */
typedef struct {
  guint32 field_number;
  int wire_type;          /* ProtobufCWireType */
  const guint8 *data;
  gsize len;
} PvTensorPayloadField;

/* TRUE when pv_tensor_decode_payload() decodes the payload of a tensor of
 * @tensor's type and dims (it reads nothing else): at most
 * PV_TENSOR_KEEP_DATA_BYTES of whole-byte elements. */
gboolean pv_tensor_payload_is_kept (const PvTensor *tensor);

/* Decodes the payload fields of a TensorProto (raw_data, float_data,
 * int32_data, int64_data, double_data, uint64_data) into tensor->data when the
 * element bytes are at most PV_TENSOR_KEEP_DATA_BYTES. Payloads that are
 * larger, malformed or of the wrong length are left undecoded (data stays
 * NULL): a loader never fails on weights it does not need. */
void pv_tensor_decode_payload (PvTensor *tensor, const PvTensorPayloadField *fields, gsize n_fields);

G_END_DECLS
