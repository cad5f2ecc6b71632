/* pv-error.h: the error domain of planviz's planner library. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define PV_MODEL_ERROR (pv_model_error_quark ())

typedef enum {
  PV_MODEL_ERROR_IO,            /* the file could not be opened or mapped */
  PV_MODEL_ERROR_NOT_PROTOBUF,  /* the bytes are not a protobuf message of the ONNX schema */
  PV_MODEL_ERROR_TRUNCATED,     /* the message ends in the middle of a field */
  PV_MODEL_ERROR_NOT_A_MODEL,   /* valid protobuf, but no sign of an ONNX ModelProto */
  PV_MODEL_ERROR_NO_GRAPH,
  PV_MODEL_ERROR_IR_VERSION,
  PV_MODEL_ERROR_CYCLE,
  PV_MODEL_ERROR_DUPLICATE_PRODUCER,
  PV_MODEL_ERROR_UNDEFINED_INPUT,
  PV_MODEL_ERROR_TOO_DEEP,
  PV_MODEL_ERROR_INVALID,       /* anything else the schema allows but ONNX forbids */
} PvModelError;

GQuark pv_model_error_quark (void);

G_END_DECLS
