/* pv-shape-inference-private.h: what the inference driver
 * (pv-shape-inference.c) shares with the rule API it hands each rule
 * (pv-infer-context.c). Not for callers outside planner/shapes. */
#pragma once

#include "pv-shape-inference.h"

G_BEGIN_DECLS

/* Contents are tracked for tensors up to this many elements. */
#define MAX_DATA_ELEMENTS 64
/* Nodes (values) between two looks at the cancellable: ~1 ms of work. */
#define PV_SHAPE_CANCEL_STRIDE 2048

typedef struct {
  PvValueShape *values;
  int n_values;
} GraphShapes;

struct _PvShapeInfo {
  PvDimPool *pool;
  GHashTable *graphs;         /* const PvGraph* -> GraphShapes* */
  /* The main graph's entry of @graphs: nearly every lookup is for it
   * (pv_shape_info_eval_bytes() runs per value on every re-plan). */
  const PvGraph *main_graph;
  const GraphShapes *main_shapes;
  GPtrArray *warnings;        /* char*, NULL-terminated on demand */
  GHashTable *uncovered;      /* "domain:Op" -> count */
  char **uncovered_keys;
  guint *uncovered_counts;
  GHashTable *rules;          /* "domain\nOp" -> PvInferFunc */
  GPtrArray *allocations;     /* dims/data arrays, freed with the info */
  const PvShapeOptions *options;
  gboolean ort_view;          /* options->ort_view */
  GHashTable *model_symbols;  /* ort_view: the dim_params the model states */
  const PvDimExpr *ort_empty; /* ort_view: the one symbol every dim left unknown gets */
  gint ref_count;             /* subgraph sessions share their parent's info */
};

struct _PvInferContext {
  PvShapeInfo *info;
  const PvGraph *graph;
  GraphShapes *shapes;
  const PvNode *node;
};

/* Keeps @block (g_malloc'd) until @info is freed; returns it. */
gpointer _pv_shape_keep (PvShapeInfo *info, gpointer block);
/* A copy of @dims that lives as long as @info. */
const PvDimExpr **_pv_shape_copy_dims (PvShapeInfo *info, const PvDimExpr *const *dims, int n);
/* Adds a warning to @info. */
G_GNUC_PRINTF (2, 3) void _pv_shape_warn (PvShapeInfo *info, const char *format, ...);
/* The ORT view's stand-in for a dim with neither dim_value nor dim_param
 * (@data is the PvShapeInfo). */
const PvDimExpr *_pv_shape_fresh_empty (gpointer data);
/* Specificity of a dim: constant > expression > named symbol > generated symbol. */
int _pv_shape_specificity (const PvDimExpr *e);
/* Infers @graph; graph inputs come from @input_shapes when given
 * (subgraphs), else from the model. */
gboolean _pv_shape_infer_graph (PvShapeInfo *info, const PvGraph *graph, const PvValueShape *const *input_shapes,
                                int n_input_shapes, GError **error);

G_END_DECLS
