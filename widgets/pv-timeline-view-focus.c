/* pv-timeline-view-focus.c: the timeline's instant, range, search finds and ghost curve. */
#include "pv-timeline-view-private.h"

#include <math.h>

#define PEAK_SNAP_PX 6.0   /* a click this close to the peak marker means the peak */
#define SNAP_PX 8.0        /* a span's end this close to a kernel's edge goes there */

void
_pv_timeline_view_focus_init (PvTimelineView *self)
{
  self->marked_values = g_array_new (FALSE, FALSE, sizeof (int));
  self->found_nodes = g_array_new (FALSE, FALSE, sizeof (int));
}

void
_pv_timeline_view_focus_finalize (PvTimelineView *self)
{
  g_clear_pointer (&self->marked_values, g_array_unref);
  g_clear_pointer (&self->found_nodes, g_array_unref);
  g_clear_pointer (&self->options.ghost, pv_timeline_model_unref);
}

PvTimelineModel *
pv_timeline_view_get_ghost (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), NULL);
  return self->options.ghost;
}

void
pv_timeline_view_set_ghost (PvTimelineView *self, PvTimelineModel *ghost)
{
  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  if (ghost == self->options.ghost)
    return;
  if (ghost)
    pv_timeline_model_ref (ghost);
  g_clear_pointer (&self->options.ghost, pv_timeline_model_unref);
  self->options.ghost = ghost;
  _pv_timeline_view_push_options (self);
}

void
_pv_timeline_view_focus_model_changed (PvTimelineView *self)
{
  const PvTimelineModel *m = self->model;

  /* Ids of another graph mean nothing here; the window marks the new
   * plan's live set when it has it. */
  if (m == NULL)
    {
      g_array_set_size (self->marked_values, 0);
      self->options.instant = -1;
      self->options.range_t0 = self->options.range_t1 = 0;
      g_array_set_size (self->found_nodes, 0);
      return;
    }
  for (guint i = self->marked_values->len; i-- > 0;)
    if (g_array_index (self->marked_values, int, i) >= m->graph->n_values)
      g_array_remove_index_fast (self->marked_values, i);
  g_array_set_size (self->found_nodes, 0);
  if (self->options.instant > m->t_end)
    self->options.instant = -1;
}

void
_pv_timeline_view_activate_curve (PvTimelineView *self, const PvTimelineHit *hit, double x)
{
  const PvTimelineModel *m = self->model;
  const PvTimelineCurve *c;
  double time = hit->time, px;

  if (hit->lane < 0 || hit->lane >= m->n_curves)
    return;
  c = &m->curves[hit->lane];
  px = pv_timeline_renderer_time_to_x (self->renderer, c->peak_time);
  if (fabs (px - x) <= PEAK_SNAP_PX)
    time = c->peak_time;
  g_signal_emit (self, _pv_timeline_view_signals[INSTANT_ACTIVATED], 0, MAX (time, 0.0), c->device);
}

/* @t moved to the nearest kernel start or end within SNAP_PX, so that a
 * span holds whole kernels. */
static double
snap_to_kernels (PvTimelineView *self, double t)
{
  const PvTimelineModel *m = self->model;
  double px = pv_timeline_renderer_x_to_time (self->renderer, SNAP_PX) - pv_timeline_renderer_x_to_time (self->renderer, 0);
  double best = t, best_d = px;

  for (int k = 0; k < m->n_kernels; k++)
    {
      double ends[2] = { m->kernels[k].start, m->kernels[k].end };
      for (int e = 0; e < 2; e++)
        if (fabs (ends[e] - t) < best_d)
          {
            best_d = fabs (ends[e] - t);
            best = ends[e];
          }
    }
  return best;
}

void
_pv_timeline_view_range_begin (PvTimelineView *self, double x, double y)
{
  const PvTimelineModel *m = self->model;
  PvTimelineHit hit;

  self->range_device = m->n_curves > 0 ? m->curves[0].device : 0;
  if (pv_timeline_renderer_hit_test (self->renderer, x, y, &hit) && hit.kind == PV_TIMELINE_HIT_CURVE &&
      hit.lane >= 0 && hit.lane < m->n_curves)
    self->range_device = m->curves[hit.lane].device;
  self->range_anchor = snap_to_kernels (self, pv_timeline_renderer_x_to_time (self->renderer, x));
  _pv_timeline_view_range_update (self, x);
}

void
_pv_timeline_view_range_update (PvTimelineView *self, double x)
{
  double t = snap_to_kernels (self, pv_timeline_renderer_x_to_time (self->renderer, x));
  double t_end = self->model->t_end;

  self->options.range_t0 = CLAMP (MIN (t, self->range_anchor), 0, t_end);
  self->options.range_t1 = CLAMP (MAX (t, self->range_anchor), 0, t_end);
  _pv_timeline_view_push_options (self);
}

void
pv_timeline_view_set_instant (PvTimelineView *self, double time, const int *values, guint n_values)
{
  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  self->options.instant = time >= 0 ? time : -1;
  g_array_set_size (self->marked_values, 0);
  if (time >= 0 && values && n_values > 0)
    g_array_append_vals (self->marked_values, values, n_values);
  _pv_timeline_view_push_options (self);
}

double
pv_timeline_view_get_instant (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), -1);
  return self->options.instant;
}

const int *
pv_timeline_view_get_marked_values (PvTimelineView *self, guint *n_values)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), NULL);
  *n_values = self->marked_values->len;
  return (const int *) self->marked_values->data;
}

gboolean
pv_timeline_view_jump_to_peak (PvTimelineView *self)
{
  const PvTimelineModel *m;
  int best = -1;

  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), FALSE);
  m = self->model;
  if (m == NULL)
    return FALSE;
  for (int i = 0; i < m->n_curves; i++)
    if (best < 0 || m->curves[i].peak_bytes > m->curves[best].peak_bytes)
      best = i;
  if (best < 0)
    return FALSE;
  g_signal_emit (self, _pv_timeline_view_signals[INSTANT_ACTIVATED], 0, m->curves[best].peak_time,
                 m->curves[best].device);
  return TRUE;
}

void
pv_timeline_view_set_range (PvTimelineView *self, double t0, double t1)
{
  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  if (t1 <= t0)
    t0 = t1 = 0;
  if (t0 == self->options.range_t0 && t1 == self->options.range_t1)
    return;
  self->options.range_t0 = t0;
  self->options.range_t1 = t1;
  _pv_timeline_view_push_options (self);
  g_signal_emit (self, _pv_timeline_view_signals[RANGE_CHANGED], 0);
}

int
pv_timeline_view_get_range_device (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), 0);
  return self->range_device;
}

gboolean
pv_timeline_view_get_range (PvTimelineView *self, double *t0, double *t1)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), FALSE);
  *t0 = self->options.range_t0;
  *t1 = self->options.range_t1;
  return *t1 > *t0;
}

void
pv_timeline_view_set_found_nodes (PvTimelineView *self, const int *nodes, guint n_nodes)
{
  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  g_array_set_size (self->found_nodes, 0);
  if (nodes && n_nodes > 0)
    g_array_append_vals (self->found_nodes, nodes, n_nodes);
  _pv_timeline_view_push_options (self);
}

const int *
pv_timeline_view_get_found_nodes (PvTimelineView *self, guint *n_nodes)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), NULL);
  *n_nodes = self->found_nodes->len;
  return (const int *) self->found_nodes->data;
}

void
pv_timeline_view_reveal (PvTimelineView *self, double t0, double t1)
{
  const PvTimelineViewport *vp;
  double span, margin;

  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));
  if (self->renderer == NULL)
    return;
  vp = pv_timeline_renderer_get_viewport (self->renderer);
  span = vp->t1 - vp->t0;
  margin = span * 0.05;
  if (t0 >= vp->t0 + margin && t1 <= vp->t1 - margin)
    return;
  if (t1 - t0 > span - 2 * margin)
    pv_timeline_renderer_focus (self->renderer, t0, t1);
  else
    {
      double mid = (t0 + t1) / 2;
      pv_timeline_renderer_set_time_range (self->renderer, mid - span / 2, mid + span / 2);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
