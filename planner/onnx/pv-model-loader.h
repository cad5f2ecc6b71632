/* pv-model-loader.h: ONNX bytes in, PvModel out. */
#pragma once

#include <gio/gio.h>

#include "pv-model.h"

G_BEGIN_DECLS

/* Graphs of more nodes than this (subgraphs included) are refused by
 * default with PV_MODEL_ERROR_TOO_MANY_NODES, before anything is unpacked:
 * five times the 100,000 nodes planviz is built to plan at once, and far
 * past real networks. A plan costs about the figures below per node (peak
 * RSS and CPU time of `planviz-cli plan --format json` on pv-gen-models'
 * synthetic transformer graphs of 100k, 200k and 400k nodes, 2 cores:
 * 2.4-2.6 KB, 6-8 µs); the refusal quotes them. */
#define PV_MODEL_DEFAULT_MAX_NODES 500000
#define PV_MODEL_BYTES_PER_NODE 2500
#define PV_MODEL_NODES_PER_SECOND 100000

/* Maps @path and loads it. Weights are not copied beyond what protobuf-c's
 * unpacker does, and external data files are never read: their locations
 * are held to ORT 1.30's rules (relative, inside the folder @path names,
 * symlinks resolved, present, long enough), and one ORT refuses fails the
 * load with PV_MODEL_ERROR_EXTERNAL_DATA. On failure returns NULL and sets
 * a PV_MODEL_ERROR whose message starts with the file name and says
 * precisely what is wrong. */
PvModel *pv_model_load_from_file (const char *path, GError **error);
/* The same, stopping with G_IO_ERROR_CANCELLED within about a millisecond
 * of @cancellable (may be NULL) being cancelled, during unpacking too. */
PvModel *pv_model_load_from_file_cancellable (const char *path, GCancellable *cancellable, GError **error);
/* The same with another limit on the number of nodes (0: none). The two
 * calls above use PV_MODEL_DEFAULT_MAX_NODES. */
PvModel *pv_model_load_from_file_full (const char *path, guint64 max_nodes, GCancellable *cancellable,
                                       GError **error);

/* Loads a model from memory; @display_name names it in errors. This is the
 * fuzzers' entry point: any bytes give a model or a GError, never a crash.
 * External-data locations are checked only as far as no file is needed. */
PvModel *pv_model_load_from_bytes (const guint8 *data, gsize len, const char *display_name, GError **error);

/* Reads a serialized TensorProto (ONNX test data, input_0.pb): type, dims
 * and, when small, its contents. NULL with a PV_MODEL_ERROR otherwise. */
PvTensor *pv_tensor_load_from_bytes (const guint8 *data, gsize len, const char *display_name, GError **error);

G_END_DECLS
