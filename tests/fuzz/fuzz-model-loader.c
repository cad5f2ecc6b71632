/* libFuzzer target: any bytes give a model or a GError, never a crash, leak
 * or undefined behaviour. */
#include <stdint.h>

#include "pv-error.h"
#include "pv-model-loader.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = pv_model_load_from_bytes (data, size, "fuzz.onnx", &error);

  if (model == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == PV_MODEL_ERROR);
    }
  else
    g_assert_null (error);
  return 0;
}
