/* gui-xdo.c: real X input for GUI tests (see gui-xdo.h). */
#include "gui-xdo.h"

#include <gdk/x11/gdkx.h>
#include <math.h>
#include <stdio.h>

static char *xdotool;

gboolean
gui_xdo_init (void)
{
  xdotool = g_find_program_in_path ("xdotool");
  if (xdotool != NULL)
    return TRUE;
  /* TAP: the 1..0 SKIP plan is the skip (77 would be an error). */
  printf ("1..0 # SKIP xdotool is not installed (apt-get install xdotool)\n");
  return FALSE;
}

void
gui_xdo_shutdown (void)
{
  g_clear_pointer (&xdotool, g_free);
}

gulong
window_xid (Fixture *fx)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (fx->window));

  g_assert_true (GDK_IS_X11_SURFACE (surface));
  return gdk_x11_surface_get_xid (surface);
}

void
xdo (const char *format, ...)
{
  g_autofree char *args = NULL, *command = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  int status = -1;
  va_list ap;

  va_start (ap, format);
  args = g_strdup_vprintf (format, ap);
  va_end (ap);
  command = g_strdup_printf ("%s %s", xdotool, args);
  g_spawn_command_line_sync (command, NULL, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("`%s` failed: %s", command, err);
}

void
view_to_window (Fixture *fx, double x, double y, int *wx, int *wy)
{
  graphene_point_t in = GRAPHENE_POINT_INIT (x, y), out;
  double sx = 0, sy = 0;

  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (fx->view), GTK_WIDGET (fx->window), &in, &out));
  gtk_native_get_surface_transform (GTK_NATIVE (fx->window), &sx, &sy);
  *wx = (int) lround (out.x + sx);
  *wy = (int) lround (out.y + sy);
}
