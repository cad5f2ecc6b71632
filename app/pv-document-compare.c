/* pv-document-compare.c: what the latest re-plan of the main graph changed.
 * The figures come from the sessions (pv-session-figures); the document
 * only keeps those of the plan it replaced, and its timeline. */
#include "pv-document-private.h"

#include <string.h>

void
_pv_document_remember_previous (PvDocument *self, const PvSession *old_plan, PvTimelineModel *old_timeline)
{
  pv_session_figures_init (&self->previous_figures, old_plan);
  g_clear_pointer (&self->previous_timeline, pv_timeline_model_unref);
  self->previous_timeline = old_timeline;
  self->comparison_serial++;
  /* 0 means "none". */
  if (self->comparison_serial == 0)
    self->comparison_serial = 1;
}

void
_pv_document_clear_previous (PvDocument *self)
{
  g_clear_pointer (&self->previous_timeline, pv_timeline_model_unref);
  memset (&self->previous_figures, 0, sizeof self->previous_figures);
  self->comparison_serial = 0;
}

guint
pv_document_get_comparison (PvDocument *self, PvSessionFigures *before, PvSessionFigures *after)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), 0);

  if (before)
    *before = self->previous_figures;
  if (after)
    pv_session_figures_init (after, self->comparison_serial ? self->plan_session : NULL);
  return self->comparison_serial;
}

PvTimelineModel *
pv_document_get_previous_timeline (PvDocument *self)
{
  g_return_val_if_fail (PV_IS_DOCUMENT (self), NULL);
  return self->comparison_serial ? self->previous_timeline : NULL;
}
