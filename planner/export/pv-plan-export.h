/* pv-plan-export.h: plans as text for people and JSON for programs. The JSON
 * schema is documented in README.md ("Plan JSON"). */
#pragma once

#include "pv-session.h"

G_BEGIN_DECLS

typedef enum {
  PV_PLANNER_ORT,    /* ONNX Runtime's own plan, reproduced */
  PV_PLANNER_SLOTS,  /* greedy slots */
  PV_PLANNER_ARENA,  /* offsets in one arena */
} PvPlannerKind;

const char *pv_planner_kind_name (PvPlannerKind kind);

/* Returns FALSE for an unknown name. */
gboolean pv_planner_kind_from_string (const char *name, PvPlannerKind *kind_out);

/* Where @kind's plan puts each value (views at their source's place):
 * ORT's root buffer index, the slot id, or the arena byte offset; -1 where
 * it puts none (weights, values the plan does not hold, a deferred plan).
 * n_values entries; caller frees. */
gint64 *pv_plan_value_places (const PvSession *session, PvPlannerKind kind);

/* Pretty-printed JSON; caller frees. */
char *pv_plan_export_json (const PvSession *session, PvPlannerKind kind);
/* A summary and a per-value table; caller frees. */
char *pv_plan_export_text (const PvSession *session, PvPlannerKind kind);
/* Chrome trace-event JSON (Perfetto, chrome://tracing): streams as threads,
 * kernels as slices, barriers and waits as flow arrows, the plan's slots,
 * arena rows or ORT buffers as tracks of value slices, live bytes as a
 * counter. One schedule time unit is one millisecond. Caller frees. */
char *pv_plan_export_trace (const PvSession *session, PvPlannerKind kind);

G_END_DECLS
