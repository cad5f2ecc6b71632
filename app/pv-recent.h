/* pv-recent.h: the models planviz opened lately, in GtkRecentManager.
 *
 * Models are recorded under the application name "planviz"; the list
 * planviz shows (the main menu's Open Recent, the empty page) holds only
 * the .onnx files planviz recorded that still exist, newest first. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define PV_RECENT_APP_NAME "planviz"
#define PV_RECENT_MAX 10

/* Records @model as opened now by planviz. */
void   pv_recent_add_model   (GtkRecentManager *manager,
                              GFile            *model);
/* Removes @model from the recent files (nothing if it is not there). */
void   pv_recent_forget_model (GtkRecentManager *manager,
                               GFile            *model);
/* The URIs of at most @max recent models, newest first; free with
 * g_strfreev(). Never NULL. */
char **pv_recent_dup_models  (GtkRecentManager *manager,
                              guint             max);

G_END_DECLS
