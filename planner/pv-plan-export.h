/* pv-plan-export.h: plans as text for people and JSON for programs. The JSON
 * schema is documented in README.md ("Plan JSON"). */
#pragma once

#include "pv-session.h"

G_BEGIN_DECLS

typedef enum {
  PV_PLANNER_SLOTS,
  PV_PLANNER_ARENA,
} PvPlannerKind;

/* Returns FALSE for an unknown name. */
gboolean pv_planner_kind_from_string (const char *name, PvPlannerKind *kind_out);

/* Pretty-printed JSON; caller frees. */
char *pv_plan_export_json (const PvSession *session, PvPlannerKind kind);
/* A summary and a per-value table; caller frees. */
char *pv_plan_export_text (const PvSession *session, PvPlannerKind kind);

G_END_DECLS
