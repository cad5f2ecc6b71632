/* pv-partition-messages-private.h: every word the partition-config checker
 * says, in one place, in the order of its steps (pv-partition-check.c and
 * pv-partition-check-names.c).
 *
 * A finding is F_NAME (or F_NAME (ort) where ORT's reaction is worked out at
 * run time), which expands to its severity, what ONNX Runtime does, and the
 * message's printf format: `_pv_check_add (c, offset, F_NAME, args...)`.
 * The formats stay literals, so the compiler checks their arguments.
 * MSG_* are ORT's own messages, word for word (checked against ORT 1.30 in
 * tests/ort/configs). */
#pragma once

#include "pv-partition-config-private.h"

/* What ORT 1.30 does, for PvPartitionFinding.ort. */
#define ORT_IGNORES_FILE "ignores the whole file (it logs a warning) and uses its default partition"
#define ORT_REFUSES "refuses to create the session"
#define ORT_REFUSES_FIRST_MISSING ORT_REFUSES " (it names only the first missing node)"
#define ORT_REFUSES_OTHER_FIRST ORT_REFUSES " (for another error first)"
#define ORT_CRASHES "crashes (SIGSEGV) while building the execution plan: an empty stream has no device"
#define ORT_CRASHES_LATER "would crash (SIGSEGV) on this empty stream, but refuses the session for another error first"
#define ORT_ORDER "runs each stream in the graph's topological order, whatever the order in the file"
#define ORT_LAST_WINS "puts it in streams[%d], the last stream that lists it, and ignores this entry"
#define ORT_ATOI "reads it with atoi() as %d and only counts it"

/* ORT's messages: the warning it logs when it ignores the file, the error
 * it throws when it refuses the session. */
#define MSG_COUNT "Number of streams does not equal to number of device types!"
#define MSG_TYPE "Partitioner type is not DeviceBasedPartitioner"
#define MSG_MIXED \
  "execution_plan[plan_.node_stream_map_[node_index]]->device_.Type() == node_device_mem_location.Type() was false."
#define MSG_NOT_STRING "[json.exception.type_error.302] type must be string, but is %s"
#define MSG_NO_OPERATOR "[json.exception.type_error.305] cannot use operator[] with a string argument with %s"

/* 1. JSON */
#define F_NOT_JSON PV_FINDING_ERROR, ORT_IGNORES_FILE, "not valid JSON: %s"
#define F_NUL_BYTE PV_FINDING_WARNING, "stops reading at the NUL byte and ignores the rest", \
  "a NUL byte ends the JSON here; the text after it is ignored"

/* 2. Top level and "type" */
#define F_UNKNOWN_KEY PV_FINDING_WARNING, "ignores the key", "unknown key %s"
#define F_KEY_AGAIN PV_FINDING_WARNING, "uses the last one and ignores this one", "%s is given again later"
#define F_TOP_NOT_OBJECT PV_FINDING_ERROR, ORT_IGNORES_FILE, \
  "the top level must be an object {\"type\": \"" DBP_TYPE "\", \"streams\": [...], \"devices\": [...]}, not %s"
#define F_TYPE_MISSING PV_FINDING_ERROR, ORT_IGNORES_FILE, "missing \"type\": \"" DBP_TYPE "\""
#define F_TYPE_WRONG PV_FINDING_ERROR, ORT_IGNORES_FILE, "\"type\" must be \"" DBP_TYPE "\", not %s"

/* 3. "streams" */
#define F_STREAMS_NOT_ARRAY PV_FINDING_ERROR, ORT_IGNORES_FILE, \
  "\"streams\" must be an array of streams (arrays of node names), not %s"
#define F_STREAMS_IS_STRING PV_FINDING_WARNING, "reads it as one stream with one node", \
  "\"streams\" should be an array of streams (arrays of node names), not a string"
#define F_STREAMS_IS_OBJECT PV_FINDING_WARNING, "reads the object's values, in key order, as the streams", \
  "\"streams\" should be an array of streams, not an object"
#define F_STREAMS_IS_NULL PV_FINDING_WARNING, "reads null as no streams", "\"streams\" is null"
#define F_STREAM_IS_STRING PV_FINDING_WARNING, "reads it as a stream of one node", \
  "streams[%u] should be an array of node names, not a string"
#define F_STREAM_IS_OBJECT PV_FINDING_WARNING, "reads the object's values, in key order, as the node names", \
  "streams[%u] should be an array of node names, not an object"
#define F_STREAM_IS_NULL PV_FINDING_WARNING, "reads null as an empty stream", "streams[%u] is null"
#define F_STREAM_NOT_ARRAY PV_FINDING_ERROR, ORT_IGNORES_FILE, "streams[%u] must be an array of node names, not %s"
#define F_NAME_NOT_STRING PV_FINDING_ERROR, ORT_IGNORES_FILE, "streams[%u][%u] must be a node name (a string), not %s"

/* 3. "devices" */
#define F_DEVICES_IS_STRING PV_FINDING_WARNING, "reads it as one device type", \
  "\"devices\" should be an array of device types, not a string"
#define F_DEVICES_IS_OBJECT PV_FINDING_WARNING, "reads the object's values, in key order, as the device types", \
  "\"devices\" should be an array of device types, not an object"
#define F_DEVICES_IS_NULL PV_FINDING_WARNING, "reads null as no device types", "\"devices\" is null"
#define F_DEVICES_NOT_ARRAY PV_FINDING_ERROR, ORT_IGNORES_FILE, \
  "\"devices\" must be an array of device types such as [\"0\"], not %s"
#define F_DEVICE_NOT_STRING PV_FINDING_ERROR, ORT_IGNORES_FILE, "devices[%u] must be a string such as \"0\", not %s"

/* 4. Counts */
#define F_STREAMS_MISSING(ort) PV_FINDING_ERROR, (ort), "missing \"streams\": \"devices\" lists %s"
#define F_DEVICES_MISSING(ort) PV_FINDING_ERROR, (ort), \
  "missing \"devices\": \"streams\" lists %s, and \"devices\" needs one device type for each"
#define F_COUNTS_DIFFER(ort) PV_FINDING_ERROR, (ort), "\"devices\" lists %s but \"streams\" lists %s"
#define F_NO_STREAMS PV_FINDING_WARNING, "partitions the graph itself (its default partition)", \
  "the config lists no streams"

/* 5. Device types */
#define F_DEVICE_NOT_DECIMAL(ort) PV_FINDING_WARNING, (ort), "devices[%u] %s is not a decimal device type"
#define F_DEVICE_UNKNOWN PV_FINDING_WARNING, "only counts it: a stream runs on the device of its first node", \
  "devices[%u] %s is not a device type ONNX Runtime knows (0 CPU, 1 GPU, 2 FPGA, 3 NPU)"

/* 6. Names (pv-partition-check-names.c) */
#define W_SUBGRAPH_OF "the %s subgraph of node %s" /* where a name is, for F_NODE_OF_SUBGRAPH */
#define F_NODE_OF_SUBGRAPH PV_FINDING_WARNING, \
  "ignores the name: subgraphs ignore the config and run as one stream each", "%s is a node of %s, not of the main graph"
#define F_NO_SUCH_NODE PV_FINDING_WARNING, "ignores the name", "no node named %s in the main graph%s"
#define F_NAME_CLASH PV_FINDING_WARNING, "puts all of them in the stream that lists the name", \
  "%s names %u nodes of the main graph (ONNX Runtime names unnamed nodes <OpType><n> without checking for clashes)"
#define F_LISTED_TWICE PV_FINDING_WARNING, "counts it once", "%s is listed twice in streams[%d]"
#define F_ALSO_LISTED(ort) PV_FINDING_WARNING, (ort), "%s is also listed in streams[%d]"
#define F_NODE_IN_NO_STREAM(ort) PV_FINDING_ERROR, (ort), "node %s (%s) is in no stream"
#define F_MORE_IN_NO_STREAM PV_FINDING_ERROR, ORT_REFUSES_FIRST_MISSING, "%d more nodes of the main graph are in no stream"
#define F_MIXED_DEVICES(ort) PV_FINDING_ERROR, (ort), "streams[%u] mixes devices: %s runs on %s but %s on %s"
#define F_DEVICE_FROM_FIRST_NODE PV_FINDING_WARNING, \
  "takes each stream's device from its first node, not from \"devices\"", \
  "devices[%u] is %s (%s), but streams[%u] runs on %s, the device of its first node %s"
#define F_ORDER(ort) PV_FINDING_WARNING, (ort), "streams[%d] lists %s before %s, but ONNX Runtime runs %s first"
#define F_STREAM_EMPTY(ort) PV_FINDING_ERROR, (ort), "streams[%u] is empty"
#define F_STREAM_NO_KNOWN(ort) PV_FINDING_ERROR, (ort), \
  "streams[%u] is empty for ONNX Runtime: none of its names is a node of the main graph"
#define F_STREAM_ALL_LATER(ort) PV_FINDING_ERROR, (ort), \
  "streams[%u] is empty for ONNX Runtime: every node it lists is also in a later stream, which wins"

/* The verdict's one sentence. */
#define S_ACCEPTS_DEFAULT \
  "ONNX Runtime 1.30 will accept this config; it lists no streams, so ONNX Runtime uses its default partition (%s)."
#define S_ACCEPTS "ONNX Runtime 1.30 will accept this config and run %s."
#define S_REFUSES "ONNX Runtime 1.30 will refuse to create the session: %s"
#define S_DISCARDS \
  "ONNX Runtime 1.30 will ignore this config (it logs the warning \"%s\") and use its default partition (%s)."
#define S_CRASHES \
  "ONNX Runtime 1.30 will crash (SIGSEGV) while creating the session: streams[%d] has no node of the main graph."
