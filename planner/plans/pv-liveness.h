/* pv-liveness.h: which values own a buffer, and from when to when.
 *
 * Liveness on ONNX Runtime's execution order (graph->order): every buffer
 * owner (a node output that is not a view) lives from the step that defines
 * it to the last step that uses it or any view of it; graph outputs live to
 * the last step. Weights (initializers, Constants) and outer-scope values are
 * not owned here; graph inputs are owners only when asked. */
#pragma once

#include "pv-graph.h"
#include "pv-happens-before.h"

G_BEGIN_DECLS

typedef struct {
  int n_values;
  int n_steps;        /* graph->n_nodes */
  int *root;          /* value id -> owner whose buffer it uses (itself for owners), -1: not planned here */
  int *def;           /* owner -> defining step (-1 for graph inputs: live from the start) */
  int *use_end;       /* owner -> last step that reads it or a view of it (>= def) */
  int *owners;        /* owner value ids: graph inputs by id, then in step and output order */
  int n_owners;
  gboolean include_graph_inputs;
} PvLiveness;

/* @view_root: value id -> the value whose memory it is, itself when it
 * views nothing (pv_value_view_roots()); NULL for "no views". A view of a
 * weight or of an excluded value is not planned. */
PvLiveness *pv_liveness_new (const PvGraph *graph, const int *view_root, gboolean include_graph_inputs);
/* A copy to widen (pv_liveness_widen_for_streams()) without touching @liveness. */
PvLiveness *pv_liveness_copy (const PvLiveness *liveness);
void pv_liveness_free (PvLiveness *liveness);

/* For plans made in one global order but run on several streams: keeps each
 * owner live until, on every stream, the global order has reached a node
 * that is guaranteed (by @hb) to run after all its readers. A later owner
 * that takes its memory is then ordered after them whatever stream it is
 * on. Owners read on one stream only by synchronised readers barely grow. */
void pv_liveness_widen_for_streams (PvLiveness *liveness, const PvGraph *graph, const PvHappensBefore *hb);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvLiveness, pv_liveness_free)

G_END_DECLS
