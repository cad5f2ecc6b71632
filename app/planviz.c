/* planviz: the desktop app. Everything lives in PvApplication. */
#include <gtksourceview/gtksource.h>

#include "pv-application.h"

int
main (int argc, char *argv[])
{
  g_autoptr (PvApplication) app = NULL;
  int status;

  gtk_init ();
  gtk_source_init ();
  app = pv_application_new ();
  status = g_application_run (G_APPLICATION (app), argc, argv);
  if (status == 0)
    status = pv_application_get_exit_status (app);
  g_clear_object (&app);
  gtk_source_finalize ();
  return status;
}
