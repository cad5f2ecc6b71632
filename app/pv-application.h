/* pv-application.h: planviz's GtkApplication.
 *
 * One instance per session (org.planviz.Planviz): running `planviz MODEL`
 * again opens MODEL in the running instance. Options: --partition P (the
 * config to plan the first model with), --screenshot OUT.png and --size WxH
 * (open, wait until the plan is drawn, save the window, quit; this runs in
 * its own instance). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define PV_APPLICATION_ID "org.planviz.Planviz"
#define PV_TYPE_APPLICATION (pv_application_get_type ())

G_DECLARE_FINAL_TYPE (PvApplication, pv_application, PV, APPLICATION, GtkApplication)

PvApplication *pv_application_new             (void);
/* Opens @file (with @partition_file, may be NULL) in a window: the active
 * window when it shows nothing yet, else a new one. */
void           pv_application_open_model      (PvApplication *self,
                                               GFile         *file,
                                               GFile         *partition_file);
/* FALSE in --screenshot runs: their windows neither read nor write what
 * planviz remembers (window state, configs per model, recent models). */
gboolean       pv_application_get_remember    (PvApplication *self);
/* What the process should exit with beyond g_application_run()'s status
 * (a failed --screenshot). */
int            pv_application_get_exit_status (PvApplication *self);

G_END_DECLS
