/* libFuzzer target: any bytes give a model or a GError, never a crash, leak
 * or undefined behaviour; and the same model or the same error as the bytes
 * unpacked whole, before the loader strips the weights it does not keep. */
#include <stdint.h>

#include "pv-error.h"
#include "pv-model-loader-private.h"
#include "pv-same-tensors.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL, whole_error = NULL;
  g_autoptr (PvModel) model = pv_model_load_from_bytes (data, size, "fuzz.onnx", &error);
  g_autoptr (PvModel) whole = _pv_model_load_unstripped (data, size, "fuzz.onnx", &whole_error);
  PvSameTensorsCount count = { 0 };

  if (model == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == PV_MODEL_ERROR);
      g_assert_null (whole);
      g_assert_cmpint (error->code, ==, whole_error->code);
      g_assert_cmpstr (error->message, ==, whole_error->message);
    }
  else
    {
      g_assert_null (error);
      g_assert_nonnull (whole);
      pv_assert_same_tensors (model, whole, &count);
    }
  return 0;
}
