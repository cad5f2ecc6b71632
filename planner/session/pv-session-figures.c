/* pv-session-figures.c: a session's headline figures (see the header). */
#include "pv-session-figures.h"

#include <string.h>

static void
count_steps (PvSessionFigures *f, const PvOrtPlan *ort)
{
  for (int i = 0; i < ort->n_streams; i++)
    for (int k = 0; k < ort->streams[i].n_steps; k++)
      switch (ort->streams[i].steps[k].kind)
        {
        case PV_ORT_STEP_WAIT_ON_EP: f->n_waits++; break;
        case PV_ORT_STEP_LAUNCH_KERNEL: f->n_kernels++; break;
        default: break;
        }
}

void
pv_session_figures_init (PvSessionFigures *f, const PvSession *s)
{
  memset (f, 0, sizeof *f);
  if (s == NULL)
    return;
  f->deferred = s->slots == NULL || s->slots->deferred;
  f->load_bytes = s->load_bytes;
  if (s->schedule)
    {
      /* The curves the timeline draws: the schedule's, one per device. */
      f->n_curves = MIN (s->schedule->n_curves, PV_SESSION_FIGURES_MAX_CURVES);
      for (int c = 0; c < s->schedule->n_curves; c++)
        {
          const PvLiveCurve *curve = &s->schedule->curves[c];
          if (c < PV_SESSION_FIGURES_MAX_CURVES)
            {
              f->curve_device[c] = curve->device;
              f->curve_peak[c] = curve->peak_bytes;
            }
          f->peak_live = MAX (f->peak_live, curve->peak_bytes);
        }
      f->has_makespan = TRUE;
      f->makespan = s->schedule->makespan;
    }
  if (s->ort == NULL)
    return;
  f->has_ort = TRUE;
  f->ort_reserves = s->ort_peak_bytes;
  f->n_ort_buffers = s->n_ort_arena_values;
  f->n_streams = s->ort->n_streams;
  f->n_barriers = s->ort->n_barriers;
  f->n_notifications = s->ort->n_notifications;
  count_steps (f, s->ort);
}
