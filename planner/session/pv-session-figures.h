/* pv-session-figures.h: the headline figures of one session's plans (peak
 * live, LOAD, ORT's buffers, barriers, waits, makespan), read from the
 * session's records, so that two plans of a graph can be compared after
 * an edit. Nothing is planned here; the figures are what the window's
 * Summary page and timeline show of the same session. */
#pragma once

#include "pv-session.h"

G_BEGIN_DECLS

#define PV_SESSION_FIGURES_MAX_CURVES 4

typedef struct {
  gboolean deferred;             /* sizes need bounds: byte figures count only the known sizes */
  guint64 load_bytes;            /* LOAD: the most bytes live at one step */
  int n_curves;                  /* live-bytes curves (one per device), at most PV_SESSION_FIGURES_MAX_CURVES */
  int curve_device[PV_SESSION_FIGURES_MAX_CURVES];
  guint64 curve_peak[PV_SESSION_FIGURES_MAX_CURVES];
  guint64 peak_live;             /* the highest point of the live-bytes curves (0 without a schedule) */
  gboolean has_ort;              /* ORT would run it: the figures below are of its plan */
  guint64 ort_reserves;          /* the sum of ORT's Allocate buffers */
  int n_ort_buffers;             /* values ORT allocates (kAllocate) */
  int n_streams;
  int n_kernels;                 /* LaunchKernel steps */
  int n_barriers;                /* Barrier steps */
  int n_waits;                   /* WaitOnEP steps */
  int n_notifications;
  gboolean has_makespan;
  double makespan;               /* the simulated run's length */
} PvSessionFigures;

/* Fills @figures from @session's records (all zero for NULL). */
void pv_session_figures_init (PvSessionFigures *figures, const PvSession *session);

G_END_DECLS
