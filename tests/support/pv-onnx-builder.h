/* pv-onnx-builder.h: build ONNX models in memory with protobuf-c.
 *
 * Used by unit tests to build small graphs and by pv-gen-models to write the
 * sample models. It writes what ONNX's own serializer would: tensor payloads
 * go out as field 9 (raw_data), carried as protobuf-c unknown fields because
 * our schema subset leaves the payload fields out on purpose. (As protobuf-c
 * stores them, such a field's data starts with the payload's varint length.)
 *
 * Memory: every string and array passed in is copied unless a function says
 * it takes ownership. Everything reachable from a builder is freed by
 * pv_onnx_builder_free().
 */
#pragma once

#include <glib.h>

#include "onnx-subset.pb-c.h"

G_BEGIN_DECLS

typedef struct _PvOnnxBuilder PvOnnxBuilder;

/* Graphs and nodes are the protobuf-c messages themselves, so a test can set
 * any field the helpers below do not cover (e.g. to build a malformed model).
 * Strings and arrays in them must come from g_malloc(), because they are
 * freed with free() by protobuf_c_message_free_unpacked() (GLib's allocator
 * is the system one). Repeated fields grow by doubling: append to them only
 * through these functions, but shrinking a count by hand is fine. */
typedef Onnx__GraphProto PvOnnxGraph;
typedef Onnx__NodeProto PvOnnxNode;

/* A NULL-terminated list of value names for pv_onnx_graph_add_node():
 *   PV_ONNX_NAMES ("x", "fc1.weight", "fc1.bias")   */
#define PV_ONNX_NAMES(...) ((const char *const[]) { __VA_ARGS__, NULL })

/* Builders */

/* Returns a model with ir_version and producer_name set, no opset imports,
 * and an empty root graph named "main_graph" (ONNX requires graph names). */
PvOnnxBuilder *pv_onnx_builder_new (gint64 ir_version,
                                    const char *producer_name);
void pv_onnx_builder_free (PvOnnxBuilder *self);

void pv_onnx_builder_set_producer_version (PvOnnxBuilder *self,
                                           const char *version);

/* Appends an opset_import entry; domain "" is the default ONNX domain. */
void pv_onnx_builder_add_opset (PvOnnxBuilder *self,
                                const char *domain,
                                gint64 version);

/* The model message itself, owned by the builder, for fields the helpers do
 * not cover. */
Onnx__ModelProto *pv_onnx_builder_get_model (PvOnnxBuilder *self);

/* The root graph, owned by the builder. */
PvOnnxGraph *pv_onnx_builder_get_graph (PvOnnxBuilder *self);

/* Returns the serialized model. The builder is unchanged and can be packed
 * again; packing the same builder twice gives identical bytes. */
GBytes *pv_onnx_builder_pack (PvOnnxBuilder *self);

/* Streams the serialized model to path without building it in memory first
 * (so a model with G bytes of weights costs about G bytes, not 2G). The file
 * is replaced atomically: on failure the old file, if any, is left as it was
 * and error is set. */
gboolean pv_onnx_builder_write (PvOnnxBuilder *self,
                                const char *path,
                                GError **error);

/* Graphs */

/* Returns a free-standing graph, to become a subgraph attribute through
 * pv_onnx_node_add_attr_graph(). Free it with pv_onnx_graph_free() only if it
 * was never attached. */
PvOnnxGraph *pv_onnx_graph_new (const char *name);
void pv_onnx_graph_free (PvOnnxGraph *graph);

void pv_onnx_graph_set_name (PvOnnxGraph *graph, const char *name);

/* Append a graph input, output or value_info entry.
 *
 * elem_type is an ONNX__TENSOR_PROTO__DATA_TYPE__* value; 0 (UNDEFINED) gives
 * an entry without any type (allowed in subgraphs, where ONNX infers it).
 * shape is text, one comma-separated item per dimension:
 *   "1,3,224,224"      fixed sizes (dim_value)
 *   "batch,seq,768"    symbolic sizes (dim_param) mixed freely with numbers
 *   "?"                a dimension with neither value nor param
 *   ""                 a scalar: a shape of rank 0
 *   NULL               no shape at all (unknown rank)
 * Note that onnx.checker requires a type with a shape on the root graph's
 * inputs and outputs.
 *
 * Returns the new entry, owned by the graph. */
Onnx__ValueInfoProto *pv_onnx_graph_add_input (PvOnnxGraph *graph,
                                               const char *name,
                                               int elem_type,
                                               const char *shape);
Onnx__ValueInfoProto *pv_onnx_graph_add_output (PvOnnxGraph *graph,
                                                const char *name,
                                                int elem_type,
                                                const char *shape);
Onnx__ValueInfoProto *pv_onnx_graph_add_value_info (PvOnnxGraph *graph,
                                                    const char *name,
                                                    int elem_type,
                                                    const char *shape);

/* Append an initializer whose payload is raw_len bytes of raw, in ONNX's
 * raw_data layout (little-endian, row-major). raw_len is not checked against
 * dims and elem_type, so tests can build inconsistent tensors on purpose.
 * n_dims 0 makes a scalar. Returns the tensor, owned by the graph. */
Onnx__TensorProto *pv_onnx_graph_add_initializer (PvOnnxGraph *graph,
                                                  const char *name,
                                                  int elem_type,
                                                  const gint64 *dims,
                                                  gsize n_dims,
                                                  const void *raw,
                                                  gsize raw_len);

/* Same, but returns the tensor's payload buffer, raw_len bytes, for the
 * caller to fill in: for big weights, generated in place so that they exist
 * only once in memory. The buffer is owned by the graph. */
gpointer pv_onnx_graph_add_initializer_alloc (PvOnnxGraph *graph,
                                              const char *name,
                                              int elem_type,
                                              const gint64 *dims,
                                              gsize n_dims,
                                              gsize raw_len);

/* Typed conveniences: values holds one element per dims entry product (one
 * for a scalar), in host order; they are stored as little-endian raw_data. */
Onnx__TensorProto *pv_onnx_graph_add_initializer_floats (PvOnnxGraph *graph,
                                                         const char *name,
                                                         const gint64 *dims,
                                                         gsize n_dims,
                                                         const float *values);
Onnx__TensorProto *pv_onnx_graph_add_initializer_int64s (PvOnnxGraph *graph,
                                                         const char *name,
                                                         const gint64 *dims,
                                                         gsize n_dims,
                                                         const gint64 *values);

/* Append an initializer stored outside the model: data_location EXTERNAL
 * and external_data entries "location", "offset" and "length" (offset and
 * length are left out when negative, as ONNX allows). No payload is written
 * and the file is never touched. */
Onnx__TensorProto *pv_onnx_graph_add_external_initializer (PvOnnxGraph *graph,
                                                           const char *name,
                                                           int elem_type,
                                                           const gint64 *dims,
                                                           gsize n_dims,
                                                           const char *location,
                                                           gint64 offset,
                                                           gint64 length);

/* Append a node. name NULL leaves the node unnamed (as some exporters do).
 * inputs and outputs are NULL-terminated lists (NULL for none); "" stands for
 * a missing optional input or output, as in ONNX. Returns the node, owned by
 * the graph and valid for the graph's lifetime. */
PvOnnxNode *pv_onnx_graph_add_node (PvOnnxGraph *graph,
                                    const char *op_type,
                                    const char *name,
                                    const char *const *inputs,
                                    const char *const *outputs);

/* Appends an If node on the boolean @cond with the outputs @outputs and
 * its two branches (taking ownership of both, as
 * pv_onnx_node_add_attr_graph() does). */
PvOnnxNode *pv_onnx_graph_add_if (PvOnnxGraph *graph,
                                  const char *name,
                                  const char *cond,
                                  const char *const *outputs,
                                  PvOnnxGraph *then_branch,
                                  PvOnnxGraph *else_branch);

/* Nodes */

/* Sets the operator domain ("com.microsoft", ...); unset means ONNX's own. */
void pv_onnx_node_set_domain (PvOnnxNode *node, const char *domain);

/* Each appends one attribute of the matching AttributeProto type. */
void pv_onnx_node_add_attr_int (PvOnnxNode *node, const char *name, gint64 value);
void pv_onnx_node_add_attr_float (PvOnnxNode *node, const char *name, float value);
void pv_onnx_node_add_attr_string (PvOnnxNode *node, const char *name, const char *value);
void pv_onnx_node_add_attr_ints (PvOnnxNode *node,
                                 const char *name,
                                 const gint64 *values,
                                 gsize n_values);
void pv_onnx_node_add_attr_floats (PvOnnxNode *node,
                                   const char *name,
                                   const float *values,
                                   gsize n_values);

/* A TENSOR attribute (e.g. Constant's "value"); the payload works as for
 * pv_onnx_graph_add_initializer() and the tensor is unnamed. */
void pv_onnx_node_add_attr_tensor (PvOnnxNode *node,
                                   const char *name,
                                   int elem_type,
                                   const gint64 *dims,
                                   gsize n_dims,
                                   const void *raw,
                                   gsize raw_len);
void pv_onnx_node_add_attr_tensor_floats (PvOnnxNode *node,
                                          const char *name,
                                          const gint64 *dims,
                                          gsize n_dims,
                                          const float *values);
void pv_onnx_node_add_attr_tensor_int64s (PvOnnxNode *node,
                                          const char *name,
                                          const gint64 *dims,
                                          gsize n_dims,
                                          const gint64 *values);

/* A GRAPH attribute (If's then_branch, Loop's body, ...). Takes ownership of
 * graph; the pointer stays valid and editable until the builder is freed. */
void pv_onnx_node_add_attr_graph (PvOnnxNode *node,
                                  const char *name,
                                  PvOnnxGraph *graph);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvOnnxBuilder, pv_onnx_builder_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvOnnxGraph, pv_onnx_graph_free)

G_END_DECLS
