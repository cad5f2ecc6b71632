#include "pv-error.h"

G_DEFINE_QUARK (pv-model-error-quark, pv_model_error)
