/* pv-ort-allocation-plan-private.h: the state ComputeReusePlan's stages share
 * (pv-ort-allocation-plan.c, pv-ort-multi-stream.c). Internal to the ORT
 * planner. */
#pragma once

#include "pv-bump-alloc.h"
#include "pv-ort-allocation-plan.h"
#include "pv-ort-shape-classes.h"

G_BEGIN_DECLS

typedef struct {
  PvOrtPlan *plan;
  const PvOrtPlanContext *ctx;
  const PvGraph *graph;
  int n_values;
  const PvOrtShapeClass *shapes;  /* per OrtValue index */
  int n_classes;
  /* Per OrtValue index, its location as a number among the plan's distinct
   * locations (n_locations of them). */
  int *location;
  int n_locations;
  const PvOrtGraphView *view;
  const int *producer;      /* view->producer: OrtValue index -> producing node in this graph, -1 */
  int *use_count;           /* OrtValueInfo::usecount; each pass starts from ComputeReuseCount()'s,
                             * kept in the plan's values */
  int *buffer;              /* OrtValueInfo::reused_buffer_index */
  /* freelist_, most recently freed first, kept as one intrusive list per
   * (size class, location): FindReusableTensor takes the first entry of the
   * whole list with the location and SameSize of the value at hand, which
   * is the head of that value's list. Entries that can never be taken
   * (not ProcessDef'd, optional, SameSize with nothing) are left out. */
  int *free_head;           /* per size class * n_locations + location */
  int *free_next, *free_prev;
  GArray *notes;            /* int[2]: (input, output) OrtValue indices of "<in> reused by <out> as input" */
} PvOrtReuse;

/* A node's inputs, then implicit inputs, as OrtValue indices. */
static inline const int *
pv_ort_reuse_inputs (const PvOrtReuse *p, int node)
{
  return pv_ort_view_inputs (p->view, node);
}

static inline const int *
pv_ort_reuse_outputs (const PvOrtReuse *p, int node)
{
  return pv_ort_view_outputs (p->view, node);
}

/* Whether the producer of OrtValue @idx has ExternalOutputs. */
static inline gboolean
pv_ort_reuse_from_external_outputs (const PvOrtReuse *p, int idx)
{
  return p->producer[idx] >= 0 && p->ctx->kernels[p->producer[idx]]->external_outputs;
}

/* OptimizeReusePlanForMultiStream (pv-ort-multi-stream.c): rewrites the
 * plan of a multi-stream run (whose passes planned no reuse). */
void pv_ort_optimize_multi_stream (PvOrtReuse *p);

G_END_DECLS
