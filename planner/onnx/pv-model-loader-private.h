/* pv-model-loader-private.h: what the loader's parts share:
 * pv-model-loader.c (unpacking, the header, errors), pv-model-tensors.c
 * (types and tensors of the protos) and pv-model-graph.c (values, nodes
 * and graphs). Not for callers outside planner/onnx. */
#pragma once

#include "onnx-subset.pb-c.h"
#include "pv-bump-alloc.h"
#include "pv-model-loader.h"

G_BEGIN_DECLS

typedef struct {
  const char *source;      /* display name for errors */
  GStringChunk *strings;
  PvModel *model;
  GCancellable *cancellable;
} Loader;

/* Nodes between two looks at the cancellable (well under a millisecond). */
#define CANCEL_STRIDE 1024

/* TRUE, with G_IO_ERROR_CANCELLED, when the load was cancelled; looks only
 * every CANCEL_STRIDE-th @i. */
static inline gboolean
load_cancelled (const Loader *ld, gsize i, GError **error)
{
  return i % CANCEL_STRIDE == CANCEL_STRIDE - 1 && g_cancellable_set_error_if_cancelled (ld->cancellable, error);
}

typedef struct _GraphBuild GraphBuild;
struct _GraphBuild {
  Loader *ld;
  GraphBuild *parent;
  PvGraph *graph;
  PvValue *values;         /* grown by hand: GArray rounds capacity up to a power of two */
  int n_values;
  int values_capacity;
  PvNode *nodes;           /* node_protos->len entries, filled in order */
  int n_nodes;
  GHashTable *value_types; /* name -> const Onnx__TypeProto * */
  GArray *node_protos;     /* proto index of each node id, in ORT's NodeIndex order */
  GArray *node_indices;    /* ORT's NodeIndex of each node id (int) */
  guint n_plain;           /* node ids from here on are inlined CastLikes */
};

static inline const char *
proto_name (const char *s)
{
  return s ? s : "";
}

static inline const char *
intern (Loader *ld, const char *s)
{
  return g_string_chunk_insert_const (ld->strings, proto_name (s));
}

static inline const char *
normalise_domain (const char *domain)
{
  if (domain == NULL || strcmp (domain, "ai.onnx") == 0)
    return "";
  return domain;
}

/* pv-model-tensors.c */
PvTensor *_pv_loader_constant_tensor (const Onnx__NodeProto *np);
PvTensor *_pv_loader_tensor_from_proto (const Onnx__TensorProto *tp);
PvTensor *_pv_loader_tensor_from_sparse (const Onnx__SparseTensorProto *sp);
void _pv_loader_type_copy (PvBumpAlloc *arena, PvType *dst, const PvType *src);
void _pv_loader_type_from_proto (Loader *ld, PvBumpAlloc *arena, PvType *type, const Onnx__TypeProto *tp,
                                 int depth);
void _pv_loader_type_from_tensor (PvBumpAlloc *arena, PvType *type, const PvTensor *tensor);
/* pv-external-data.c: @tensor's external_data entries as ORT 1.30 reads
 * them (ExternalDataInfo::Create): location, offset and length, or the
 * reason ORT refuses them in tensor->external_problem. */
void _pv_external_data_read_entries (PvTensor *tensor, Onnx__StringStringEntryProto *const *entries, size_t n);
/* Refuses, as ORT 1.30 does when it creates a session on the model's file,
 * every external-data location of @model's tensors that ORT refuses
 * (absolute, leading out of @folder by ".." or a symlink, missing, not a
 * file, too short for offset and size, malformed entries), and, for
 * subgraphs, what ONNX's checker refuses (symlinks, any location that is
 * not a regular file, used or not). @folder is the model's folder as its
 * path gives it; NULL when the model came from memory: then only what needs
 * no file system is checked. The message names the tensor and the location. */
gboolean _pv_external_data_check (const PvModel *model, const char *folder, GError **error);

/* pv_model_load_from_bytes() unpacking the whole message, every weight
 * copied: the reference the strip of unkept payloads is tested against. */
PvModel *_pv_model_load_unstripped (const guint8 *data, gsize len, const char *display_name, GError **error);

/* Loads the model mapped in @file, the file at @path, and unrefs @file.
 * Another program may cut the file meanwhile: then an error that says so. */
PvModel *_pv_model_load_mapped (GMappedFile *file, const char *path, guint64 max_nodes, GCancellable *cancellable,
                                GError **error);
/* pv-model-graph.c: @gp as a graph of the model (@parent NULL for the main graph). */
PvGraph *_pv_loader_convert_graph (Loader *ld, const Onnx__GraphProto *gp, GraphBuild *parent, int parent_node,
                                   const char *attr_name, GError **error);

G_END_DECLS
