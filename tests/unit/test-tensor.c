/* Element sizes and the decoding of TensorProto payload fields. */
#include "pv-element-type.h"
#include "pv-tensor.h"

static void
test_element_sizes (void)
{
  guint64 bytes;

  g_assert_true (pv_element_type_tensor_bytes (PV_ELEM_FLOAT, 10, &bytes));
  g_assert_cmpuint (bytes, ==, 40);
  g_assert_true (pv_element_type_tensor_bytes (PV_ELEM_BFLOAT16, 3, &bytes));
  g_assert_cmpuint (bytes, ==, 6);
  /* 4-bit and 2-bit types round up per tensor, not per element. */
  g_assert_true (pv_element_type_tensor_bytes (PV_ELEM_INT4, 3, &bytes));
  g_assert_cmpuint (bytes, ==, 2);
  g_assert_true (pv_element_type_tensor_bytes (PV_ELEM_UINT2, 5, &bytes));
  g_assert_cmpuint (bytes, ==, 2);
  g_assert_false (pv_element_type_tensor_bytes (PV_ELEM_STRING, 3, &bytes));
  g_assert_false (pv_element_type_tensor_bytes (PV_ELEM_UNDEFINED, 3, &bytes));
  g_assert_false (pv_element_type_tensor_bytes (99, 3, &bytes));
  g_assert_false (pv_element_type_tensor_bytes (PV_ELEM_COMPLEX128, G_MAXUINT64 / 4, &bytes));
  g_assert_cmpstr (pv_element_type_name (PV_ELEM_DOUBLE), ==, "float64");
  g_assert_cmpstr (pv_element_type_name (123), ==, "unknown");
  g_assert_cmpint (pv_element_type_from_name ("int64"), ==, PV_ELEM_INT64);
}

static PvTensor *
new_tensor (int elem_type, gint64 n)
{
  PvTensor *t = g_new0 (PvTensor, 1);
  t->elem_type = elem_type;
  t->n_dims = 1;
  t->dims = g_new (gint64, 1);
  t->dims[0] = n;
  return t;
}

static void
test_int64_data_packed (void)
{
  g_autoptr (PvTensor) t = new_tensor (PV_ELEM_INT64, 3);
  /* int64_data packed: 0, -1 (10-byte varint), 300 */
  const guint8 payload[] = { 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0xac, 0x02 };
  PvTensorPayloadField f = { 7, 2, payload, sizeof payload };
  gint64 v;

  pv_tensor_decode_payload (t, &f, 1);
  g_assert_nonnull (t->data);
  g_assert_true (pv_tensor_get_int (t, 0, &v) && v == 0);
  g_assert_true (pv_tensor_get_int (t, 1, &v) && v == -1);
  g_assert_true (pv_tensor_get_int (t, 2, &v) && v == 300);
  g_assert_false (pv_tensor_get_int (t, 3, &v));
}

static void
test_int32_data_holds_float16 (void)
{
  g_autoptr (PvTensor) t = new_tensor (PV_ELEM_FLOAT16, 2);
  /* int32_data: 0x3c00 (1.0), 0xc000 (-2.0) as varints */
  const guint8 payload[] = { 0x80, 0xf8, 0x00, 0x80, 0x80, 0x03 };
  PvTensorPayloadField f = { 5, 2, payload, sizeof payload };
  double d;

  pv_tensor_decode_payload (t, &f, 1);
  g_assert_nonnull (t->data);
  g_assert_true (pv_tensor_get_double (t, 0, &d));
  g_assert_cmpfloat (d, ==, 1.0);
  g_assert_true (pv_tensor_get_double (t, 1, &d));
  g_assert_cmpfloat (d, ==, -2.0);
}

static void
test_raw_data_and_mismatch (void)
{
  g_autoptr (PvTensor) ok = new_tensor (PV_ELEM_FLOAT, 2);
  g_autoptr (PvTensor) short_data = new_tensor (PV_ELEM_FLOAT, 3);
  g_autoptr (PvTensor) big = new_tensor (PV_ELEM_FLOAT, 100000);
  const float values[] = { 1.5f, -3.0f };
  PvTensorPayloadField f = { 9, 2, (const guint8 *) values, sizeof values };
  double d;

  pv_tensor_decode_payload (ok, &f, 1);
  g_assert_true (pv_tensor_get_double (ok, 1, &d));
  g_assert_cmpfloat (d, ==, -3.0);
  /* Wrong length: left undecoded, never an error. */
  pv_tensor_decode_payload (short_data, &f, 1);
  g_assert_null (short_data->data);
  /* Weights are too big to keep. */
  pv_tensor_decode_payload (big, &f, 1);
  g_assert_null (big->data);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/element/sizes", test_element_sizes);
  g_test_add_func ("/tensor/int64-data-packed", test_int64_data_packed);
  g_test_add_func ("/tensor/int32-data-float16", test_int32_data_holds_float16);
  g_test_add_func ("/tensor/raw-data", test_raw_data_and_mismatch);
  return g_test_run ();
}
