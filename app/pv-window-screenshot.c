/* pv-window-screenshot.c: the window as a PNG, now or after the next
 * frame (what --screenshot and the GUI tests save). */
#include "pv-window-private.h"

#include "pv-save-file.h"

gboolean
pv_window_save_screenshot (PvWindow *self, GFile *file, GError **error)
{
  GtkWidget *widget = GTK_WIDGET (self);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  g_autoptr (GdkPaintable) paintable = NULL;
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autoptr (GBytes) png = NULL;
  GtkSnapshot *snapshot;
  GskRenderer *renderer;

  g_return_val_if_fail (PV_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  renderer = gtk_native_get_renderer (GTK_NATIVE (self));
  if (width <= 0 || height <= 0 || renderer == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "The window is not on screen");
      return FALSE;
    }
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    {
      /* The paintable shows the window's last render, and something has
       * asked for a redraw since (a blinking cursor): after the next frame. */
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY, "The window is being redrawn");
      return FALSE;
    }
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  png = gdk_texture_save_to_png_bytes (texture);
  return pv_save_gfile (file, g_bytes_get_data (png, NULL), g_bytes_get_size (png), error);
}

/* ---- screenshots after a frame ---- */

#define SCREENSHOT_TRIES 120

typedef struct {
  GFile *file;
  gulong handler;
  int tries;
} ShotData;

static void
shot_data_free (ShotData *data)
{
  g_clear_object (&data->file);
  g_free (data);
}

static void
shot_after_paint_cb (GdkFrameClock *clock, GTask *task)
{
  PvWindow *self = g_task_get_source_object (task);
  ShotData *data = g_task_get_task_data (task);
  g_autoptr (GError) error = NULL;

  if (pv_window_save_screenshot (self, data->file, &error))
    {
      g_clear_signal_handler (&data->handler, clock);
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BUSY) && ++data->tries < SCREENSHOT_TRIES)
    {
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  g_clear_signal_handler (&data->handler, clock);
  g_task_return_error (task, g_steal_pointer (&error));
  g_object_unref (task);
}

void
pv_window_screenshot_async (PvWindow *self, GFile *file, GAsyncReadyCallback callback, gpointer user_data)
{
  GTask *task;
  ShotData *data;
  GdkFrameClock *clock;

  g_return_if_fail (PV_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, pv_window_screenshot_async);
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));
  if (clock == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "The window is not on screen");
      g_object_unref (task);
      return;
    }
  data = g_new0 (ShotData, 1);
  data->file = g_object_ref (file);
  g_task_set_task_data (task, data, (GDestroyNotify) shot_data_free);
  data->handler = g_signal_connect (clock, "after-paint", G_CALLBACK (shot_after_paint_cb), task);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
pv_window_screenshot_finish (PvWindow *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
