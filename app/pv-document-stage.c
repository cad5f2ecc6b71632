/* pv-document-stage.c: what a worker (loading, planning) is doing, told to
 * the main thread as the document's load-stage or plan-stage. */
#include "pv-document-private.h"

#include "pv-tsan-private.h"

typedef struct {
  GWeakRef document;
  gboolean plan;     /* plan-stage of job @generation; else load-stage */
  guint generation;
  char *stage;
} StageReport;

static gboolean
stage_report_cb (gpointer user_data)
{
  StageReport *report = user_data;
  g_autoptr (PvDocument) self = NULL;
  char **field;

  pv_tsan_acquire (report);
  self = g_weak_ref_get (&report->document);
  if (self == NULL || !(report->plan ? self->plan_running && self->plan_generation == report->generation
                                     : self->loading))
    return G_SOURCE_REMOVE;
  field = report->plan ? &self->plan_stage : &self->load_stage;
  if (g_strcmp0 (*field, report->stage) != 0)
    {
      g_free (*field);
      *field = g_strdup (report->stage);
      g_object_notify_by_pspec (G_OBJECT (self),
                                _pv_document_properties[report->plan ? PV_DOCUMENT_PROP_PLAN_STAGE
                                                                     : PV_DOCUMENT_PROP_LOAD_STAGE]);
    }
  return G_SOURCE_REMOVE;
}

static void
stage_report_free (gpointer user_data)
{
  StageReport *report = user_data;

  pv_tsan_acquire (report);
  g_weak_ref_clear (&report->document);
  g_free (report->stage);
  g_free (report);
}

void
_pv_document_report_stage (GWeakRef *document, GMainContext *context, gboolean plan, guint generation,
                           const char *stage)
{
  g_autoptr (GObject) self = g_weak_ref_get (document);
  StageReport *report;
  GSource *source;

  if (self == NULL)
    return;
  report = g_new0 (StageReport, 1);
  g_weak_ref_init (&report->document, self);
  report->plan = plan;
  report->generation = generation;
  report->stage = g_strdup (stage);
  /* Not g_main_context_invoke_full(): it runs its function at once on the
   * worker when it can acquire @context, which it can whenever the main
   * thread is not iterating it at that moment (as in
   * pv_document_plan_now(), or in tests that iterate by hand). */
  source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, stage_report_cb, report, stage_report_free);
  g_source_set_static_name (source, "[planviz] stage report");
  pv_tsan_release (report);
  g_source_attach (source, context);
  g_source_unref (source);
}
