/* pv-error.c: the quarks of pv-error.h's domains. */
#include "pv-error.h"

G_DEFINE_QUARK (pv-model-error-quark, pv_model_error)
G_DEFINE_QUARK (pv-kernel-table-error-quark, pv_kernel_table_error)
G_DEFINE_QUARK (pv-partition-error-quark, pv_partition_error)
G_DEFINE_QUARK (pv-ort-plan-error-quark, pv_ort_plan_error)
G_DEFINE_QUARK (pv-session-error-quark, pv_session_error)
G_DEFINE_QUARK (pv-shape-error-quark, pv_shape_error)
