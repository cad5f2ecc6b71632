#include "pv-tensor.h"

#include <math.h>
#include <string.h>

#include "pv-element-type.h"

/* Wire types (protobuf encoding), as ProtobufCWireType numbers them. */
enum { WIRE_VARINT = 0, WIRE_64BIT = 1, WIRE_LENGTH = 2, WIRE_32BIT = 5 };

/* TensorProto payload field numbers. */
enum {
  FIELD_FLOAT_DATA = 4,
  FIELD_INT32_DATA = 5,
  FIELD_INT64_DATA = 7,
  FIELD_RAW_DATA = 9,
  FIELD_DOUBLE_DATA = 10,
  FIELD_UINT64_DATA = 11,
};

void
pv_tensor_free (PvTensor *tensor)
{
  if (tensor == NULL)
    return;
  g_free (tensor->dims);
  g_free (tensor->external_location);
  g_free (tensor->external_problem);
  g_clear_pointer (&tensor->data, g_bytes_unref);
  g_free (tensor);
}

gboolean
pv_tensor_n_elements (const PvTensor *tensor, guint64 *n_out)
{
  guint64 n = 1;

  for (int i = 0; i < tensor->n_dims; i++)
    {
      if (tensor->dims[i] < 0 || !g_uint64_checked_mul (&n, n, (guint64) tensor->dims[i]))
        return FALSE;
    }
  *n_out = n;
  return TRUE;
}

static gboolean
read_varint (const guint8 **p, const guint8 *end, guint64 *value_out)
{
  guint64 value = 0;

  for (int shift = 0; shift < 64 && *p < end; shift += 7)
    {
      guint8 byte = *(*p)++;
      value |= (guint64) (byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        {
          *value_out = value;
          return TRUE;
        }
    }
  return FALSE;
}

static void
store_element (guint8 *out, guint bits, guint64 bits_value)
{
  /* Little-endian store of the low @bits bits. */
  for (guint b = 0; b < bits / 8; b++)
    out[b] = (guint8) (bits_value >> (8 * b));
}

/* Appends the elements of one varint-encoded field (packed or not). */
static gboolean
decode_varints (const PvTensorPayloadField *f, guint elem_bytes, GByteArray *out)
{
  const guint8 *p = f->data, *end = f->data + f->len;
  guint8 buf[8];

  /* Varint payloads hold integers of at most 8 bytes (complex types never
   * arrive this way). */
  if ((f->wire_type != WIRE_VARINT && f->wire_type != WIRE_LENGTH) || elem_bytes == 0 || elem_bytes > 8)
    return FALSE;
  while (p < end)
    {
      guint64 v;
      if (!read_varint (&p, end, &v))
        return FALSE;
      store_element (buf, elem_bytes * 8, v);
      g_byte_array_append (out, buf, elem_bytes);
    }
  return TRUE;
}

/* Appends fixed-width elements (float_data, double_data). */
static gboolean
decode_fixed (const PvTensorPayloadField *f, guint width, GByteArray *out)
{
  gboolean packed = f->wire_type == WIRE_LENGTH;
  gboolean single = (width == 4 && f->wire_type == WIRE_32BIT) || (width == 8 && f->wire_type == WIRE_64BIT);

  if (!packed && !single)
    return FALSE;
  if (f->len % width != 0)
    return FALSE;
  g_byte_array_append (out, f->data, f->len);
  return TRUE;
}

static gboolean
kept_bytes (const PvTensor *tensor, guint64 *expected_bytes)
{
  guint64 n_elements;

  /* Sub-byte types are only meaningful as raw bytes; strings are never kept. */
  return pv_element_type_bits (tensor->elem_type) >= 8 && pv_tensor_n_elements (tensor, &n_elements) &&
         pv_element_type_tensor_bytes (tensor->elem_type, n_elements, expected_bytes) &&
         *expected_bytes <= PV_TENSOR_KEEP_DATA_BYTES;
}

gboolean
pv_tensor_payload_is_kept (const PvTensor *tensor)
{
  guint64 expected_bytes;

  return kept_bytes (tensor, &expected_bytes);
}

void
pv_tensor_decode_payload (PvTensor *tensor, const PvTensorPayloadField *fields, gsize n_fields)
{
  guint bits = pv_element_type_bits (tensor->elem_type);
  guint64 expected_bytes;
  g_autoptr (GByteArray) out = NULL;

  if (!kept_bytes (tensor, &expected_bytes))
    return;

  out = g_byte_array_sized_new ((guint) expected_bytes);
  for (gsize i = 0; i < n_fields; i++)
    {
      const PvTensorPayloadField *f = &fields[i];
      gboolean ok = TRUE;

      switch (f->field_number)
        {
        case FIELD_RAW_DATA:
          ok = f->wire_type == WIRE_LENGTH;
          if (ok)
            {
              /* raw_data replaces anything before it, as in protobuf's merge. */
              g_byte_array_set_size (out, 0);
              g_byte_array_append (out, f->data, f->len);
            }
          break;
        case FIELD_FLOAT_DATA:
          /* float_data also carries complex64 as pairs of floats. */
          ok = decode_fixed (f, 4, out);
          break;
        case FIELD_DOUBLE_DATA:
          ok = decode_fixed (f, 8, out);
          break;
        case FIELD_INT32_DATA:
          /* int32_data holds int32 and every narrower type (incl. the bit
           * patterns of float16/bfloat16/float8), one element per value. */
          ok = decode_varints (f, bits / 8, out);
          break;
        case FIELD_INT64_DATA:
        case FIELD_UINT64_DATA:
          ok = decode_varints (f, bits / 8, out);
          break;
        default:
          break;
        }
      if (!ok || out->len > expected_bytes)
        return;
    }

  if (out->len != expected_bytes)
    return;
  tensor->data = g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static gboolean
element_bytes (const PvTensor *tensor, guint64 i, const guint8 **p_out)
{
  guint bits = pv_element_type_bits (tensor->elem_type);
  gsize size;
  const guint8 *data;

  if (tensor->data == NULL || bits < 8)
    return FALSE;
  data = g_bytes_get_data (tensor->data, &size);
  if (i >= size / (bits / 8))
    return FALSE;
  *p_out = data + i * (bits / 8);
  return TRUE;
}

gboolean
pv_tensor_get_int (const PvTensor *tensor, guint64 i, gint64 *value_out)
{
  const guint8 *p;

  if (!element_bytes (tensor, i, &p))
    return FALSE;
  switch (tensor->elem_type)
    {
    case PV_ELEM_INT8: *value_out = (gint8) p[0]; return TRUE;
    case PV_ELEM_UINT8:
    case PV_ELEM_BOOL: *value_out = p[0]; return TRUE;
    case PV_ELEM_INT16: { gint16 v; memcpy (&v, p, 2); *value_out = GINT16_FROM_LE (v); return TRUE; }
    case PV_ELEM_UINT16: { guint16 v; memcpy (&v, p, 2); *value_out = GUINT16_FROM_LE (v); return TRUE; }
    case PV_ELEM_INT32: { gint32 v; memcpy (&v, p, 4); *value_out = GINT32_FROM_LE (v); return TRUE; }
    case PV_ELEM_UINT32: { guint32 v; memcpy (&v, p, 4); *value_out = GUINT32_FROM_LE (v); return TRUE; }
    case PV_ELEM_INT64: { gint64 v; memcpy (&v, p, 8); *value_out = GINT64_FROM_LE (v); return TRUE; }
    case PV_ELEM_UINT64: { guint64 v; memcpy (&v, p, 8); *value_out = (gint64) GUINT64_FROM_LE (v); return TRUE; }
    default: return FALSE;
    }
}

static double
half_to_double (guint16 h)
{
  int sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double v;

  if (exponent == 0)
    v = ldexp (mantissa, -24);
  else if (exponent == 31)
    v = mantissa ? NAN : INFINITY;
  else
    v = ldexp (mantissa | 0x400, exponent - 25);
  return sign ? -v : v;
}

gboolean
pv_tensor_get_double (const PvTensor *tensor, guint64 i, double *value_out)
{
  const guint8 *p;
  gint64 iv;

  if (pv_tensor_get_int (tensor, i, &iv))
    {
      *value_out = (double) iv;
      return TRUE;
    }
  if (!element_bytes (tensor, i, &p))
    return FALSE;
  switch (tensor->elem_type)
    {
    case PV_ELEM_FLOAT: { guint32 u; float f; memcpy (&u, p, 4); u = GUINT32_FROM_LE (u); memcpy (&f, &u, 4); *value_out = f; return TRUE; }
    case PV_ELEM_DOUBLE: { guint64 u; double d; memcpy (&u, p, 8); u = GUINT64_FROM_LE (u); memcpy (&d, &u, 8); *value_out = d; return TRUE; }
    case PV_ELEM_FLOAT16: { guint16 u; memcpy (&u, p, 2); *value_out = half_to_double (GUINT16_FROM_LE (u)); return TRUE; }
    case PV_ELEM_BFLOAT16: { guint16 u; guint32 w; float f; memcpy (&u, p, 2); w = (guint32) GUINT16_FROM_LE (u) << 16; memcpy (&f, &w, 4); *value_out = f; return TRUE; }
    default: return FALSE;
    }
}
