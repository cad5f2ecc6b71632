/* pv-ort-execution-plan.h: ORT's BuildExecutionPlan (ORT_ENABLE_STREAM), the
 * logic streams' steps. Internal to the ORT planner (pv-ort-plan.c). */
#pragma once

#include "pv-ort-graph-view.h"
#include "pv-ort-plan-types.h"

G_BEGIN_DECLS

/* Fills the steps, notifications, trigger points, barriers and downstream
 * map of @plan, and the sync edges they make, whose streams (device, node lists), node maps and value
 * locations are already set. @view: the planned graph's. */
void pv_ort_build_execution_plan (PvOrtPlan *plan, const PvOrtGraphView *view, PvStreamRegistry registry);

G_END_DECLS
