/* pv-ort-allocation-plan.h: ORT's reuse plan (ComputeReusePlan, single-stream
 * passes and OptimizeReusePlanForMultiStream) and its deallocation plan
 * (GenerateDeallocationPlan). Internal to the ORT planner (pv-ort-plan.c). */
#pragma once

#include "pv-ort-graph-view.h"
#include "pv-ort-plan-types.h"
#include "pv-ort-shape-classes.h"

G_BEGIN_DECLS

/* What the reuse stages read besides the plan. */
typedef struct {
  const PvGraph *graph;
  const PvKernelBehaviour *const *kernels;  /* per node id, never NULL */
  const PvOrtGraphView *view;
  const PvNode *parent_node;                /* the node owning a subgraph, NULL for the main graph */
  const guint8 *def_site;                   /* per OrtValue index: ProcessDef() saw it (p_def_site != nullptr) */
  const PvOrtShapeClass *classes;           /* pv_ort_shape_classes_new() of graph and shapes */
  int n_classes;
  int order_trials;                         /* walk orders replayed for PvOrtValuePlan.order_dependent */
} PvOrtPlanContext;

/* ComputeReusePlan: kind, reused buffer, reuse rule, use count and free
 * point of every node output (fixed kinds and locations are already in
 * @plan); then GenerateDeallocationPlan: release actions and per-node
 * release lists. Fails only on ORT_ENFORCEs: ExternalOutputs on a
 * non-tensor output. */
gboolean pv_ort_plan_memory (PvOrtPlan *plan, const PvOrtPlanContext *ctx, GError **error);

G_END_DECLS
