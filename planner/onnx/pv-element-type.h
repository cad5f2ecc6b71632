/* pv-element-type.h: ONNX tensor element types (TensorProto.DataType). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Values are ONNX's TensorProto.DataType numbers. */
typedef enum {
  PV_ELEM_UNDEFINED = 0,
  PV_ELEM_FLOAT = 1,
  PV_ELEM_UINT8 = 2,
  PV_ELEM_INT8 = 3,
  PV_ELEM_UINT16 = 4,
  PV_ELEM_INT16 = 5,
  PV_ELEM_INT32 = 6,
  PV_ELEM_INT64 = 7,
  PV_ELEM_STRING = 8,
  PV_ELEM_BOOL = 9,
  PV_ELEM_FLOAT16 = 10,
  PV_ELEM_DOUBLE = 11,
  PV_ELEM_UINT32 = 12,
  PV_ELEM_UINT64 = 13,
  PV_ELEM_COMPLEX64 = 14,
  PV_ELEM_COMPLEX128 = 15,
  PV_ELEM_BFLOAT16 = 16,
  PV_ELEM_FLOAT8E4M3FN = 17,
  PV_ELEM_FLOAT8E4M3FNUZ = 18,
  PV_ELEM_FLOAT8E5M2 = 19,
  PV_ELEM_FLOAT8E5M2FNUZ = 20,
  PV_ELEM_UINT4 = 21,
  PV_ELEM_INT4 = 22,
  PV_ELEM_FLOAT4E2M1 = 23,
  PV_ELEM_FLOAT8E8M0 = 24,
  PV_ELEM_UINT2 = 25,
  PV_ELEM_INT2 = 26,
  PV_ELEM_LAST = PV_ELEM_INT2,
} PvElementType;

/* numpy-style name ("float32", "int64", "bfloat16", ...); "undefined" for 0,
 * "unknown" for numbers planviz does not know. Never NULL. */
const char *pv_element_type_name (int elem_type);

/* Storage bits per element: 4 and 2 for the sub-byte types, 0 for strings, undefined
 * and unknown numbers (they have no byte size). */
guint pv_element_type_bits (int elem_type);

/* Byte size of a tensor of @n_elements; sub-byte types round up per tensor.
 * Returns FALSE when the type has no byte size or the size overflows. */
gboolean pv_element_type_tensor_bytes (int elem_type, guint64 n_elements, guint64 *bytes_out);

/* Reverse of pv_element_type_name(); returns PV_ELEM_UNDEFINED if unknown. */
int pv_element_type_from_name (const char *name);

G_END_DECLS
