/* pv-ort-plan.h: ONNX Runtime 1.30's memory plan, decision for decision.
 *
 * planviz's own re-implementation of what ORT's SequentialPlanner
 * (PlannerImpl, allocation_planner.cc, built with ORT_ENABLE_STREAM as every
 * non-minimal build is) decides for one graph:
 *
 *   - the execution plan: one logic stream per partition stream, with its
 *     Barrier / WaitOnEP / LaunchKernel / ActivateNotification /
 *     TriggerDownstream steps, notification owners, trigger points and the
 *     downstream map (BuildExecutionPlan);
 *   - the allocation plan: per OrtValue index its AllocKind, reused buffer and
 *     location (ComputeValueLocation, ComputePlanForInputsAndWeights,
 *     ComputeReusePlan with OptimizeReusePlanForMultiStream);
 *   - the deallocation plan: release actions and per-node release lists
 *     (GenerateDeallocationPlan);
 *   - ORT's plan printer text ("Allocation Plan:" / "Execution Plan:").
 *
 * Plain records in, plain records out: the planner reads a PvGraph, its
 * shapes as ORT sees them (PvOrtShapes), a partition and a kernel lookup,
 * and never changes them.
 *
 * Shapes are ORT's own view (pv-ort-shapes.h): the TensorShapeProto each
 * value holds after Graph::Resolve, not planviz's stronger inference.
 *
 * Where planviz has to approximate ORT:
 *   - the multi-stream reuse pass iterates absl hash containers (seeded per
 *     process in ORT) and a std::map keyed by NodeArg heap addresses; planviz
 *     uses ascending node ids and ascending OrtValue indices there.
 */
#pragma once

#include <glib.h>

#include "pv-error.h"
#include "pv-graph.h"
#include "pv-ort-plan-types.h"
#include "pv-ort-shapes.h"

G_BEGIN_DECLS

/* Plans the main graph. @shapes (ORT's view) may be NULL (every shape unknown).
 * @partition NULL: ORT's default partition for a CPU-only session, one CPU
 * stream with every node. @lookup NULL: every node has an empty behaviour.
 * Fails with PV_ORT_PLAN_ERROR when ORT would fail (or crash) creating the
 * session: a stream without nodes, a stream mixing devices, a node without
 * kernel, ExternalOutputs on a non-tensor output. */
PvOrtPlan *pv_ort_plan_new (const PvGraph *graph, const PvOrtShapes *shapes, const PvStreamPartition *partition,
                            PvStreamRegistry registry, PvKernelLookup lookup, gpointer lookup_data, GError **error);

/* Plans a subgraph (If/Loop/Scan body) as ORT plans it: on its own, with the
 * default partition (one stream), every node on the device of the node that
 * owns the subgraph; outer-scope values are kPreExisting, their locations come
 * from @parent_plan (the plan of subgraph->parent), and the Loop-body
 * Identity kShare rule applies. */
PvOrtPlan *pv_ort_plan_new_subgraph (const PvGraph *subgraph, const PvOrtShapes *shapes, const PvOrtPlan *parent_plan,
                                     PvStreamRegistry registry, PvKernelLookup lookup, gpointer lookup_data,
                                     GError **error);

void pv_ort_plan_free (PvOrtPlan *plan);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvOrtPlan, pv_ort_plan_free)

/* What ORT's planner reads of a main graph before any partition: its nodes'
 * values and producers, each node's kernel (@lookup) and the values'
 * SameSize classes. One basis serves plans of the graph under several
 * partitions, and can be made while the partition is being checked (on
 * another thread: the plans made on it call @lookup again for subgraph
 * nodes, from their own). */
typedef struct _PvOrtPlanBasis PvOrtPlanBasis;
PvOrtPlanBasis *pv_ort_plan_basis_new (const PvGraph *graph, const PvOrtShapes *shapes, PvKernelLookup lookup,
                                       gpointer lookup_data);
void pv_ort_plan_basis_free (PvOrtPlanBasis *basis);
/* Several streams on a device: how many other walk orders of ORT's
 * multi-stream pass the plans on @basis replay to find the values ORT plans
 * at random (PvOrtValuePlan.order_dependent); 0 finds none, and
 * PvOrtPlan.order_trials says so. Each costs about one more pass.
 * Default PV_ORT_DEFAULT_ORDER_TRIALS. */
#define PV_ORT_DEFAULT_ORDER_TRIALS 32
void pv_ort_plan_basis_set_order_trials (PvOrtPlanBasis *basis, int n);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvOrtPlanBasis, pv_ort_plan_basis_free)
/* pv_ort_plan_new() of the basis's graph, shapes and lookup. */
PvOrtPlan *pv_ort_plan_new_on_basis (const PvOrtPlanBasis *basis, const PvStreamPartition *partition,
                                     PvStreamRegistry registry, GError **error);

/* The plan as ORT's operator<<(pair<plan, session_state>) prints it. */
char *pv_ort_plan_to_ort_text (const PvOrtPlan *plan);
/* The same, appended to @out. */
void pv_ort_plan_append_ort_text (const PvOrtPlan *plan, GString *out);

G_END_DECLS
