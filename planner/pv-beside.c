#include "pv-beside.h"

void
pv_beside_start (PvBeside *work, gboolean threaded, const char *name, GThreadFunc func, gpointer data)
{
  work->thread = threaded ? g_thread_try_new (name, func, data, NULL) : NULL;
  if (work->thread == NULL)
    func (data);
}

void
pv_beside_finish (PvBeside *work)
{
  if (work->thread)
    g_thread_join (g_steal_pointer (&work->thread));
}
