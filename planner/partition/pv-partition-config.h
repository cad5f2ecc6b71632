/* pv-partition-config.h: ONNX Runtime's DeviceBasedPartitioner config.
 *
 * ORT (session option "session.node_partition_config_file") splits the main
 * graph into streams with a JSON file
 *
 *   {"devices":["0","1"],"streams":[["node",...],[...]],"type":"DeviceBasedPartitioner"}
 *
 * and writes its own default there when the file does not exist. This module
 * writes that default byte for byte as ORT 1.30 does, and checks a config the
 * way ORT 1.30 reads it: the JSON (nlohmann::json's grammar and error texts),
 * the way it iterates "streams" and "devices", how it matches node names
 * (ORT's names: pv-graph-order.h), and what follows: ORT accepts the config,
 * rejects it (session creation fails), discards it (logs a warning and uses
 * its default partition) or crashes (an empty stream). Each of these was
 * established by running ORT 1.30 (tests/ort/configs/expected.json).
 * Subgraphs (If/Loop/Scan bodies) ignore the config in ORT; only the main
 * graph is partitioned. */
#pragma once

#include <glib.h>

#include "pv-error.h"
#include "pv-graph.h"

G_BEGIN_DECLS

/* OrtDevice::DeviceType values. */
typedef enum {
  PV_DEVICE_CPU = 0,
  PV_DEVICE_GPU = 1,
  PV_DEVICE_FPGA = 2,
  PV_DEVICE_NPU = 3,
} PvDeviceType;

/* "CPU", "GPU", "FPGA", "NPU", or NULL for other numbers. */
const char *pv_device_type_name (int device);

typedef struct {
  int *nodes;   /* main-graph node ids, in the order ORT runs them */
  int n_nodes;
  int device;   /* PvDeviceType (any int: ORT only counts config devices) */
} PvStream;

typedef struct {
  PvStream *streams;
  int n_streams;
} PvPartitionConfig;

void pv_partition_config_free (PvPartitionConfig *config);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvPartitionConfig, pv_partition_config_free)

/* ORT's default partition: one stream per device type, in the order the
 * types first appear in graph->order, each with its nodes in that order.
 * @node_devices gives each node's device type by node id (NULL: all CPU,
 * which is what a CPU-only ORT does). A graph without nodes has no streams. */
PvPartitionConfig *pv_partition_config_default (const PvGraph *graph, const int *node_devices);

/* A node id -> device array (g_free it) with @device for the nodes whose
 * op_type is in @op_types (NULL-terminated) and PV_DEVICE_CPU elsewhere. */
int *pv_partition_devices_for_ops (const PvGraph *graph, const char *const *op_types, int device);

/* The config as ORT writes it: compact, keys sorted, nlohmann::json's
 * escaping, no trailing newline, "streams"/"devices" left out when there are
 * no streams. @pretty gives a 2-space indented form (nlohmann dump(2)'s
 * layout) ending in a newline. Names are graph->nodes[id].name. Returns NULL
 * if a node name is not valid UTF-8: ORT then fails to serialize and leaves
 * an empty file. */
char *pv_partition_config_to_json (const PvGraph *graph, const PvPartitionConfig *config, gboolean pretty);

/* Lines longer than this are more than GtkSourceView highlights (it gives
 * up with a critical) or GtkTextView lays out in good time. */
#define PV_PARTITION_LONG_LINE 4096

/* TRUE when a line of config @text is longer than PV_PARTITION_LONG_LINE
 * (ORT writes its config on one line). */
gboolean pv_partition_text_has_long_line (const char *text);

/* @text's JSON pretty-printed (same keys, order, duplicates and values),
 * or NULL when @text is no JSON. */
char *pv_partition_text_reformat (const char *text);

typedef enum {
  PV_FINDING_ERROR,
  PV_FINDING_WARNING,
} PvFindingSeverity;

typedef struct {
  PvFindingSeverity severity;
  int line;        /* 1-based */
  int column;      /* 1-based, in characters (a UTF-8 sequence is one) */
  gsize offset;    /* byte offset of the text at fault */
  char *message;   /* what is wrong */
  char *ort;       /* what ONNX Runtime 1.30 does about it ("refuses to create the session: ...") */
} PvPartitionFinding;

typedef enum {
  PV_ORT_ACCEPTS,  /* the session is created with the config's streams (or ORT's default when it lists none) */
  PV_ORT_REJECTS,  /* session creation fails with an error */
  PV_ORT_DISCARDS, /* ORT logs a warning and uses its default partition */
  PV_ORT_CRASHES,  /* ORT 1.30 segfaults (an empty stream) */
} PvOrtVerdict;

/* "accepts", "rejects", "discards", "crashes". */
const char *pv_ort_verdict_name (PvOrtVerdict verdict);

typedef struct {
  PvOrtVerdict verdict;
  /* REJECTS: ORT's own error message ("Failed to find node \"X\" in node-stream map");
   * DISCARDS: the warning ORT logs before falling back; NULL otherwise. */
  char *ort_message;
  /* One sentence: "ONNX Runtime 1.30 will ...". */
  char *summary;
  PvPartitionFinding *findings; /* in text order */
  int n_findings;
  /* The streams ORT runs (node ids in its run order); no streams when it
   * rejects the config or crashes. */
  PvPartitionConfig *effective;
  gboolean effective_is_default; /* ORT uses its own default partition */
} PvPartitionCheck;

/* Checks @text (@len bytes, any bytes) as the partition config of @graph.
 * @node_devices: each node's device by id, as for pv_partition_config_default()
 * (NULL: all CPU). Never fails. */
PvPartitionCheck *pv_partition_config_check (const PvGraph *graph, const char *text, gsize len,
                                             const int *node_devices);
void pv_partition_check_free (PvPartitionCheck *check);

/* The largest partition config planviz reads for @graph: 1 MiB, plus room
 * for every node name of the main graph eight times over (escaped,
 * indented) and 64 bytes a node, never over PV_READ_FILE_LIMIT. A config
 * past it cannot be one written for this model: it lists names millions
 * of times, or is no config at all, and checking it would take gigabytes. */
gsize pv_partition_config_size_limit (const PvGraph *graph);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvPartitionCheck, pv_partition_check_free)

/* TRUE if some finding is an error. */
gboolean pv_partition_check_has_errors (const PvPartitionCheck *check);


/* The stream number that asks for a new stream. */
#define PV_PARTITION_NEW_STREAM (-1)

/* Moves the main-graph nodes named @nodes (NULL-terminated, at least one;
 * listed in the config or not) to stream @stream of the config @text (@len
 * bytes), or to a new stream appended at the end when @stream is
 * PV_PARTITION_NEW_STREAM, with device type @device (NULL: the device
 * string of the stream the first listed node came from; for a node the
 * config does not list, its own device from @node_devices, NULL: all CPU).
 * Sets @new_text to the new config (g_free it):
 * - each name is taken out of every stream that lists it, so that exactly one
 *   stream lists it (ORT would run it in the last one);
 * - it goes in the target stream before the first listed node that runs
 *   after it, so the stream stays in ORT's run order;
 * - a stream the move leaves without a main-graph node is dropped with its
 *   device entry (ORT 1.30 crashes on an empty stream), so the streams
 *   after it move down by one;
 * - a config that lists no streams (ORT's default partition) is first
 *   spelled out as pv_partition_config_default() gives it, so stream
 *   numbers mean the streams ORT runs;
 * - names the main graph does not have stay where they are (ORT ignores
 *   them); keys other than "type", "streams" and "devices" are dropped (ORT
 *   ignores them too), and the keys come out sorted;
 * - the layout is pv_partition_config_to_json()'s: indented when the JSON
 *   in @text spans several lines, compact otherwise (with a final newline
 *   if @text ends with one).
 * Returns FALSE with @error (PV_PARTITION_ERROR) when @text is not JSON or
 * not a DeviceBasedPartitioner object whose "streams" is an array of arrays
 * of names and "devices" an array of as many strings, when @stream is out of
 * range, or when a name is not a node of the main graph. */
gboolean pv_partition_config_move_nodes (const PvGraph *graph, const int *node_devices, const char *text, gsize len,
                                         const char *const *nodes, int stream, const char *device, char **new_text,
                                         GError **error);

/* The device each main-graph node asks for in config @text (@len bytes),
 * for a window that takes placement from the config (ORT takes it from its
 * execution providers; the CLI's --device says the same per node): the
 * "devices" entry of the last stream that lists the node (the one ORT runs
 * it in), read as a CPU + CUDA ONNX Runtime can honour it: "1" is
 * PV_DEVICE_GPU, any other entry PV_DEVICE_CPU, and so is a node no stream
 * lists. A node id -> device array to g_free, or NULL (every node on the
 * CPU) when @text is no well-formed config (pv_partition_config_move_nodes()'s
 * rules) or asks for no GPU node. */
int *pv_partition_config_node_devices (const PvGraph *graph, const char *text, gsize len);

G_END_DECLS
