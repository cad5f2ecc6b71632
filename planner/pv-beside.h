/* pv-beside.h: work run on a thread of its own beside the caller's, or at
 * once on the caller's when no thread can be made (or none is wanted). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  GThread *thread;  /* NULL when the work already ran */
} PvBeside;

/* Runs @func (@data) on a new thread named @name when @threaded and one can
 * be made, else now, before returning. */
void pv_beside_start (PvBeside *work, gboolean threaded, const char *name, GThreadFunc func, gpointer data);
/* Returns once the work is done. */
void pv_beside_finish (PvBeside *work);

G_END_DECLS
