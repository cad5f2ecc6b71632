/* pv-ort-graph-rewrite.h: the graph changes ONNX Runtime 1.30 makes while it
 * initialises a session with graph optimisations disabled, before it plans.
 *
 * ORT partitions the graph: each node goes to the CPU execution provider when
 * a CPU kernel takes its input types. A node with a float16 input and no
 * float16 CPU kernel (data/ort-cpu-fp16.json says which have one, measured on
 * ORT 1.30) stays unassigned, and InsertCastTransformer
 * (insert_cast_transformer.cc) then:
 *   1. unassigns, in NodeIndex order, CPU nodes with a float16 kernel whose
 *      float16 inputs all come from, and float16 outputs all go to, nodes that
 *      will be cast (ForceSingleNodeCPUFloat16ToFloat32), so that they run in
 *      float32 too;
 *   2. in topological order, puts a Cast to float32 in front of each float16
 *      input of an unassigned node without subgraphs (one per value, shared),
 *      named InsertedPrecisionFreeCast_<value>, and a Cast back to float16
 *      after each float16 output; a `dtype` attribute of float16 becomes
 *      float32; the Casts are new nodes with the next NodeIndex values;
 *   3. removes the Casts that cancel out (RemoveDuplicateCastTransformer):
 *      a float16 Cast followed by a float32 Cast, and a Cast all of whose
 *      consumers are Casts; removed nodes leave holes in NodeIndex.
 * The graph the execution order, the default partition config and the plan
 * are made of is the rewritten one.
 *
 * Before that, GraphPartitioner's InlineNodes inlines, in NodeIndex order,
 * the nodes no kernel takes whose op has an ONNX function body (the ops
 * data/ort-cpu-fp16.json lists as inlined): the call node goes (a NodeIndex
 * hole), its body's nodes come at the end, unnamed. planviz inlines CastLike
 * (in the loader), Mish, HardSwish, and Softmax/LogSoftmax from opset 13
 * (float16: their body's Constant becomes an initializer).
 *
 * Not modelled yet (pv_ort_graph_rewrite() says so in the model's notes):
 * the other inlined ops (NLL/SCE losses, CenterCropPad, GroupNormalization,
 * Bernoulli, and float16 Hardmax and friends), float16 nodes in
 * subgraphs, bfloat16 (ORT inserts no Casts for it), model-local functions,
 * EnsureUniqueDQForNodeUnit. */
#pragma once

#include <gio/gio.h>

#include "pv-model.h"
#include "pv-ort-shapes.h"

G_BEGIN_DECLS

/* Rewrites @model's main graph as ORT's session initialisation does, in
 * place, and appends what it changed to model->session_rewrites (one line
 * each). Returns FALSE with @error when the rewritten graph is invalid (a
 * bug) or with G_IO_ERROR_CANCELLED once @cancellable (may be NULL) is
 * cancelled; a model that needs no rewrite is left alone. When @ort_shapes
 * is not NULL it receives ORT's view of the rewritten graph's shapes (what
 * pv_ort_shapes_new() would give now: the rewrite infers it anyway), for
 * the sessions to share. */
gboolean pv_ort_graph_rewrite (PvModel *model, GCancellable *cancellable, PvOrtShapes **ort_shapes,
                               GError **error);

G_END_DECLS
