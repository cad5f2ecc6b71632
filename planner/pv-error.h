/* pv-error.h: every error domain of planviz's planner library, one per
 * stage that can fail: loading a model, reading a kernel table, editing a
 * partition config, making ORT's plan, planning a subgraph session. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define PV_MODEL_ERROR (pv_model_error_quark ())

typedef enum {
  PV_MODEL_ERROR_IO,            /* the file could not be opened or mapped, or was cut while read */
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
  PV_MODEL_ERROR_TOO_MANY_NODES, /* more nodes than the load's limit */
  PV_MODEL_ERROR_EXTERNAL_DATA, /* an external-data location ONNX Runtime refuses */
} PvModelError;

GQuark pv_model_error_quark (void);

#define PV_KERNEL_TABLE_ERROR (pv_kernel_table_error_quark ())

typedef enum {
  PV_KERNEL_TABLE_ERROR_IO,      /* the file cannot be read */
  PV_KERNEL_TABLE_ERROR_SYNTAX,  /* not JSON */
  PV_KERNEL_TABLE_ERROR_INVALID, /* JSON, but not a kernel table */
} PvKernelTableError;

GQuark pv_kernel_table_error_quark (void);

#define PV_PARTITION_ERROR (pv_partition_error_quark ())

typedef enum {
  PV_PARTITION_ERROR_INVALID,      /* the text is not a config the move can edit */
  PV_PARTITION_ERROR_STREAM,       /* no such stream */
  PV_PARTITION_ERROR_UNKNOWN_NODE, /* no such node in the main graph (or no node at all) */
} PvPartitionError;

GQuark pv_partition_error_quark (void);

#define PV_ORT_PLAN_ERROR (pv_ort_plan_error_quark ())

typedef enum {
  PV_ORT_PLAN_ERROR_PARTITION,  /* the partition is not one ORT can run (ORT fails or crashes) */
  PV_ORT_PLAN_ERROR_KERNEL,     /* a node has no kernel, or a kernel breaks an ORT_ENFORCE */
} PvOrtPlanError;

GQuark pv_ort_plan_error_quark (void);

#define PV_SHAPE_ERROR (pv_shape_error_quark ())

typedef enum {
  PV_SHAPE_ERROR_OVERFLOW,  /* a value's element or byte count does not fit in 64 bits */
  PV_SHAPE_ERROR_NEGATIVE,  /* a value's size comes out negative */
  PV_SHAPE_ERROR_RESHAPE,   /* a Reshape to a shape of another element count */
} PvShapeError;

GQuark pv_shape_error_quark (void);

#define PV_SESSION_ERROR (pv_session_error_quark ())

typedef enum {
  PV_SESSION_ERROR_NO_SUBGRAPH,     /* the (node, index) names no subgraph of the graph */
  PV_SESSION_ERROR_NO_PARENT_PLAN,  /* ORT would not run the enclosing graph */
} PvSessionError;

GQuark pv_session_error_quark (void);

G_END_DECLS
