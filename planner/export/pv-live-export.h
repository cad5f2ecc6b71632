/* pv-live-export.h: what is live at one instant of a plan's simulated run
 * (the live-bytes curve's values, by bytes), as JSON for programs and text
 * for people. The values' bytes add up to the curve at that instant, for
 * every planner: the planner only says where each value lives (ORT's
 * buffer, a slot, an arena offset). Schema in README.md ("Live JSON"). */
#pragma once

#include "pv-plan-export.h"

G_BEGIN_DECLS

/* Where the instant is: a time on the schedule, or the curve's peak. */
typedef struct {
  int device;        /* the curve's device (0: CPU) */
  gboolean at_peak;  /* the curve's peak, whatever @time says */
  double time;       /* schedule time: one unit per kernel by default */
} PvLiveInstant;

/* For each of the @n_live values @live (none twice), the names of the nodes
 * still to read it (or a view of it) after @time: their kernels end after
 * it. Each name once, in the order of the values read (by index), then of
 * their consumers. One pass over the values, however many are live. Free
 * each array (g_ptr_array_unref) and the whole (g_free). */
GPtrArray **pv_live_readers_to_come (const PvSession *session, const int *live, int n_live, double time);

/* NULL with @error when the session has no simulated run (ORT would not
 * run the config) or no curve on the device. Caller frees. */
char *pv_live_export_json (const PvSession *session, PvPlannerKind kind, const PvLiveInstant *at, GError **error);
char *pv_live_export_text (const PvSession *session, PvPlannerKind kind, const PvLiveInstant *at, GError **error);

G_END_DECLS
