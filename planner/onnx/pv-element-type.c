#include "pv-element-type.h"

static const struct {
  const char *name;
  guint bits;
} element_types[] = {
  [PV_ELEM_UNDEFINED] = { "undefined", 0 },
  [PV_ELEM_FLOAT] = { "float32", 32 },
  [PV_ELEM_UINT8] = { "uint8", 8 },
  [PV_ELEM_INT8] = { "int8", 8 },
  [PV_ELEM_UINT16] = { "uint16", 16 },
  [PV_ELEM_INT16] = { "int16", 16 },
  [PV_ELEM_INT32] = { "int32", 32 },
  [PV_ELEM_INT64] = { "int64", 64 },
  [PV_ELEM_STRING] = { "string", 0 },
  [PV_ELEM_BOOL] = { "bool", 8 },
  [PV_ELEM_FLOAT16] = { "float16", 16 },
  [PV_ELEM_DOUBLE] = { "float64", 64 },
  [PV_ELEM_UINT32] = { "uint32", 32 },
  [PV_ELEM_UINT64] = { "uint64", 64 },
  [PV_ELEM_COMPLEX64] = { "complex64", 64 },
  [PV_ELEM_COMPLEX128] = { "complex128", 128 },
  [PV_ELEM_BFLOAT16] = { "bfloat16", 16 },
  [PV_ELEM_FLOAT8E4M3FN] = { "float8e4m3fn", 8 },
  [PV_ELEM_FLOAT8E4M3FNUZ] = { "float8e4m3fnuz", 8 },
  [PV_ELEM_FLOAT8E5M2] = { "float8e5m2", 8 },
  [PV_ELEM_FLOAT8E5M2FNUZ] = { "float8e5m2fnuz", 8 },
  [PV_ELEM_UINT4] = { "uint4", 4 },
  [PV_ELEM_INT4] = { "int4", 4 },
  [PV_ELEM_FLOAT4E2M1] = { "float4e2m1", 4 },
  [PV_ELEM_FLOAT8E8M0] = { "float8e8m0", 8 },
  [PV_ELEM_UINT2] = { "uint2", 2 },
  [PV_ELEM_INT2] = { "int2", 2 },
};

const char *
pv_element_type_name (int elem_type)
{
  

  if (elem_type >= 0 && elem_type <= PV_ELEM_LAST)
    return element_types[elem_type].name;
  return "unknown";
}

guint
pv_element_type_bits (int elem_type)
{
  if (elem_type >= 0 && elem_type <= PV_ELEM_LAST)
    return element_types[elem_type].bits;
  return 0;
}

gboolean
pv_element_type_tensor_bytes (int elem_type, guint64 n_elements, guint64 *bytes_out)
{
  guint bits = pv_element_type_bits (elem_type);
  guint64 total_bits;

  if (bits == 0)
    return FALSE;
  if (!g_uint64_checked_mul (&total_bits, n_elements, bits))
    return FALSE;
  *bytes_out = total_bits / 8 + (total_bits % 8 != 0);
  return TRUE;
}

int
pv_element_type_from_name (const char *name)
{
  for (int i = 1; i <= PV_ELEM_LAST; i++)
    if (g_strcmp0 (element_types[i].name, name) == 0)
      return i;
  return PV_ELEM_UNDEFINED;
}
