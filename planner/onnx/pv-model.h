/* pv-model.h: a loaded ONNX model: its header fields and its main graph. */
#pragma once

#include <glib.h>

#include "pv-graph.h"

G_BEGIN_DECLS

/* Highest ModelProto.ir_version planviz reads (ONNX 1.20; ORT 1.30 reads it too). */
#define PV_MAX_IR_VERSION 13
/* Subgraphs (If/Loop/Scan bodies) nested deeper than this are refused. */
#define PV_MAX_GRAPH_DEPTH 32

typedef struct {
  const char *domain;   /* "" for the default ONNX domain */
  gint64 version;
} PvOpset;

typedef struct {
  char *source_name;    /* file name (or the name given to load_from_bytes) */
  guint64 source_bytes;
  gint64 ir_version;
  char *producer_name;
  char *producer_version;
  char *domain;
  gint64 model_version;
  PvOpset *opsets;      /* opset_import order */
  int n_opsets;
  char **metadata_keys; /* metadata_props, NULL-terminated, parallel to values */
  char **metadata_values;
  int n_functions;      /* model-local FunctionProtos (kept as opaque calls) */
  int n_constant_nodes; /* Constant nodes ORT turns into initializers, all graphs */
  /* What ORT's session initialisation changes in the graph before it plans
   * (pv-ort-graph-rewrite.h), one line each, NULL-terminated; NULL when
   * nothing (or the rewrite has not run). */
  char **session_rewrites;
  PvGraph *graph;
} PvModel;

void pv_model_free (PvModel *model);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvModel, pv_model_free)

/* Opset version the model imports for @domain ("" or "ai.onnx" for ONNX), 0 if none. */
gint64 pv_model_opset_version (const PvModel *model, const char *domain);

G_END_DECLS
