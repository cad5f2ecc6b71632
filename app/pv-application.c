/* pv-application.c: planviz's GtkApplication. */
#include "pv-application.h"

#include <stdio.h>

#include "pv-config.h"
#include "pv-memory-policy.h"
#include "pv-timeline-view.h"
#include "pv-window.h"

#define SCREENSHOT_TIMEOUT_S 60
#define SCREENSHOT_SETTLED_FRAMES 3

struct _PvApplication
{
  GtkApplication parent_instance;

  /* --screenshot mode */
  GFile *screenshot;
  int screenshot_width, screenshot_height;
  guint screenshot_timeout;
  int settled_frames;
  gboolean screenshot_started;

  int exit_status;
};

G_DEFINE_FINAL_TYPE (PvApplication, pv_application, GTK_TYPE_APPLICATION)

PvApplication *
pv_application_new (void)
{
  return g_object_new (PV_TYPE_APPLICATION,
                       "application-id", PV_APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN | G_APPLICATION_HANDLES_COMMAND_LINE,
                       NULL);
}

static gboolean
parse_size (const char *text, int *width, int *height)
{
  char *end = NULL;
  gint64 w, h;

  w = g_ascii_strtoll (text, &end, 10);
  if (end == text || (*end != 'x' && *end != 'X'))
    return FALSE;
  text = end + 1;
  h = g_ascii_strtoll (text, &end, 10);
  if (end == text || *end != '\0')
    return FALSE;
  if (w < 320 || h < 240 || w > 8000 || h > 8000)
    return FALSE;
  *width = (int) w;
  *height = (int) h;
  return TRUE;
}

/* ---- --screenshot ---- */

static void
screenshot_saved_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (PvApplication) self = user_data;
  PvWindow *window = PV_WINDOW (object);
  g_autoptr (GError) error = NULL;

  g_clear_handle_id (&self->screenshot_timeout, g_source_remove);
  if (!pv_window_screenshot_finish (window, result, &error))
    {
      g_printerr ("planviz: --screenshot: %s\n", error->message);
      self->exit_status = 1;
    }
  else if (pv_window_get_error (window) != NULL)
    {
      /* The picture shows the error; the exit status says so too. */
      g_printerr ("planviz: %s\n", pv_window_get_error (window));
      self->exit_status = 1;
    }
  g_clear_object (&self->screenshot);
  g_application_quit (G_APPLICATION (self));
}

static void
screenshot_finish (PvApplication *self, PvWindow *window)
{
  pv_window_screenshot_async (window, self->screenshot, screenshot_saved_cb, g_object_ref (self));
}

static gboolean
screenshot_tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer user_data)
{
  PvApplication *self = PV_APPLICATION (user_data);
  PvWindow *window = PV_WINDOW (widget);

  if (self->screenshot == NULL || self->screenshot_started)
    return G_SOURCE_REMOVE;
  /* Settled for a few frames in a row: layout, plan and paint are done. */
  if (!pv_window_is_settled (window))
    {
      self->settled_frames = 0;
      return G_SOURCE_CONTINUE;
    }
  if (++self->settled_frames < SCREENSHOT_SETTLED_FRAMES)
    return G_SOURCE_CONTINUE;
  self->screenshot_started = TRUE;
  screenshot_finish (self, window);
  return G_SOURCE_REMOVE;
}

static gboolean
screenshot_timeout_cb (gpointer user_data)
{
  PvApplication *self = PV_APPLICATION (user_data);

  self->screenshot_timeout = 0;
  g_printerr ("planviz: --screenshot: the window did not settle within %d s\n", SCREENSHOT_TIMEOUT_S);
  self->exit_status = 1;
  g_clear_object (&self->screenshot);
  g_application_quit (G_APPLICATION (self));
  return G_SOURCE_REMOVE;
}

/* ---- windows ---- */

static PvWindow *
window_for_open (PvApplication *self)
{
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (self));
  PvWindow *window;

  if (PV_IS_WINDOW (active) && pv_window_is_empty (PV_WINDOW (active)))
    return PV_WINDOW (active);
  window = pv_window_new (self);
  if (self->screenshot)
    {
      gtk_window_set_default_size (GTK_WINDOW (window), self->screenshot_width, self->screenshot_height);
      gtk_widget_add_tick_callback (GTK_WIDGET (window), screenshot_tick_cb, g_object_ref (self), g_object_unref);
      self->screenshot_timeout = g_timeout_add_seconds (SCREENSHOT_TIMEOUT_S, screenshot_timeout_cb, self);
    }
  return window;
}

void
pv_application_open_model (PvApplication *self, GFile *file, GFile *partition_file)
{
  PvWindow *window;

  g_return_if_fail (PV_IS_APPLICATION (self));
  g_return_if_fail (G_IS_FILE (file));

  window = window_for_open (self);
  pv_window_open (window, file, partition_file);
  gtk_window_present (GTK_WINDOW (window));
}

gboolean
pv_application_get_remember (PvApplication *self)
{
  g_return_val_if_fail (PV_IS_APPLICATION (self), FALSE);
  return self->screenshot == NULL;
}

int
pv_application_get_exit_status (PvApplication *self)
{
  g_return_val_if_fail (PV_IS_APPLICATION (self), 1);
  return self->exit_status;
}

/* ---- actions ---- */

static void
open_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  PvApplication *self = PV_APPLICATION (user_data);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    {
      window = GTK_WINDOW (pv_window_new (self));
      gtk_window_present (window);
    }
  gtk_widget_activate_action (GTK_WIDGET (window), "win.open", NULL);
}

static void
quit_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  PvApplication *self = PV_APPLICATION (user_data);
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));

  /* Close every window: each asks about unsaved changes itself. */
  for (GList *l = windows; l; l = l->next)
    gtk_window_close (GTK_WINDOW (l->data));
  g_list_free (windows);
}

static void
shortcuts_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  if (window)
    gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL);
}

static void
about_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  static const char *developers[] = { "The planviz authors", NULL };
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  gtk_show_about_dialog (window,
                         "program-name", "planviz",
                         "logo-icon-name", PV_APPLICATION_ID,
                         "version", PV_VERSION,
                         "comments", "See how ONNX Runtime lays out a model's activation memory: its streams, "
                                     "its buffers and their reuse, next to a slot and an arena plan, each checked.",
                         "license-type", GTK_LICENSE_MIT_X11,
                         "authors", developers,
                         NULL);
}

static const GActionEntry app_actions[] = {
  { "open", open_action },
  { "quit", quit_action },
  { "shortcuts", shortcuts_action },
  { "about", about_action },
};

/* ---- GApplication ---- */

static void
pv_application_startup (GApplication *app)
{
  static const char *open_accels[] = { "<Control>o", NULL };
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *open_partition_accels[] = { "<Control><Shift>o", NULL };
  static const char *save_accels[] = { "<Control>s", NULL };
  static const char *save_as_accels[] = { "<Control><Shift>s", NULL };
  static const char *close_accels[] = { "<Control>w", NULL };
  static const char *side_accels[] = { "F9", NULL };
  /* Plain P is the timeline's own key: a window accel would eat typed Ps. */
  static const char *peak_accels[] = { "<Alt>p", NULL };
  static const char *find_accels[] = { "<Control>f", NULL };
  static const char *find_next_accels[] = { "<Control>g", NULL };
  static const char *find_previous_accels[] = { "<Control><Shift>g", NULL };
  GtkApplication *gtk_app = GTK_APPLICATION (app);
  g_autoptr (GtkCssProvider) provider = NULL;

  G_APPLICATION_CLASS (pv_application_parent_class)->startup (app);
  /* Re-plans run on every partition edit: their memory stays at hand. */
  pv_memory_policy_keep_freed ();

  /* GtkApplication loads icons and gtk/help-overlay.ui from the resource
   * base path by itself, but not a style sheet. */
  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (provider, "/org/planviz/Planviz/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  gtk_application_set_accels_for_action (gtk_app, "app.open", open_accels);
  gtk_application_set_accels_for_action (gtk_app, "app.quit", quit_accels);
  gtk_application_set_accels_for_action (gtk_app, "win.open-partition", open_partition_accels);
  gtk_application_set_accels_for_action (gtk_app, "win.save-partition", save_accels);
  gtk_application_set_accels_for_action (gtk_app, "win.save-partition-as", save_as_accels);
  gtk_application_set_accels_for_action (gtk_app, "window.close", close_accels);
  /* The timeline's own zoom keys, for the whole window. */
  gtk_application_set_accels_for_action (gtk_app, "win.zoom-in", pv_timeline_view_zoom_in_accels);
  gtk_application_set_accels_for_action (gtk_app, "win.zoom-out", pv_timeline_view_zoom_out_accels);
  gtk_application_set_accels_for_action (gtk_app, "win.zoom-fit", pv_timeline_view_zoom_fit_accels);
  gtk_application_set_accels_for_action (gtk_app, "win.show-side-pane", side_accels);
  gtk_application_set_accels_for_action (gtk_app, "win.live-at-peak", peak_accels);
  gtk_application_set_accels_for_action (gtk_app, "win.find", find_accels);
  gtk_application_set_accels_for_action (gtk_app, "win.find-next", find_next_accels);
  gtk_application_set_accels_for_action (gtk_app, "win.find-previous", find_previous_accels);
}

static void
pv_application_activate (GApplication *app)
{
  PvApplication *self = PV_APPLICATION (app);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (pv_window_new (self));
  gtk_window_present (window);
}

static void
pv_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  PvApplication *self = PV_APPLICATION (app);

  for (int i = 0; i < n_files; i++)
    pv_application_open_model (self, files[i], NULL);
}

static int
pv_application_handle_local_options (GApplication *app, GVariantDict *options)
{
  PvApplication *self = PV_APPLICATION (app);
  const char *screenshot = NULL, *size = NULL;

  if (g_variant_dict_contains (options, "version"))
    {
      printf ("planviz %s\n", PV_VERSION);
      return 0;
    }
  g_variant_dict_lookup (options, "screenshot", "^&ay", &screenshot);
  g_variant_dict_lookup (options, "size", "&s", &size);
  if (size && !parse_size (size, &self->screenshot_width, &self->screenshot_height))
    {
      g_printerr ("planviz: --size wants WIDTHxHEIGHT (from 320x240 to 8000x8000), not “%s”\n", size);
      return 2;
    }
  if (screenshot)
    {
      /* A screenshot run is its own instance: it must not hand its model
       * to a planviz already running, and it quits when done. */
      g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
    }
  else if (size)
    {
      g_printerr ("planviz: --size goes with --screenshot\n");
      return 2;
    }
  return -1;
}

static int
pv_application_command_line (GApplication *app, GApplicationCommandLine *cmdline)
{
  PvApplication *self = PV_APPLICATION (app);
  GVariantDict *options = g_application_command_line_get_options_dict (cmdline);
  g_autofree const char **files = NULL;
  const char *partition = NULL, *screenshot = NULL;
  g_autoptr (GFile) partition_file = NULL;

  g_variant_dict_lookup (options, "partition", "^&ay", &partition);
  g_variant_dict_lookup (options, "screenshot", "^&ay", &screenshot);
  g_variant_dict_lookup (options, G_OPTION_REMAINING, "^a&ay", &files);

  if (partition && (files == NULL || files[0] == NULL))
    {
      g_application_command_line_printerr (cmdline, "planviz: --partition needs a MODEL.onnx to go with\n");
      return 2;
    }
  if (screenshot)
    {
      if (files == NULL || files[0] == NULL || files[1] != NULL)
        {
          g_application_command_line_printerr (cmdline, "planviz: --screenshot needs exactly one MODEL.onnx\n");
          return 2;
        }
      g_set_object (&self->screenshot, NULL);
      self->screenshot = g_application_command_line_create_file_for_arg (cmdline, screenshot);
      if (self->screenshot_width == 0)
        {
          self->screenshot_width = 1600;
          self->screenshot_height = 1000;
        }
    }
  if (partition)
    partition_file = g_application_command_line_create_file_for_arg (cmdline, partition);

  if (files == NULL || files[0] == NULL)
    {
      g_application_activate (app);
      return 0;
    }
  for (int i = 0; files[i]; i++)
    {
      g_autoptr (GFile) file = g_application_command_line_create_file_for_arg (cmdline, files[i]);
      pv_application_open_model (self, file, i == 0 ? partition_file : NULL);
    }
  return 0;
}

static void
pv_application_finalize (GObject *object)
{
  PvApplication *self = (PvApplication *) object;

  g_clear_handle_id (&self->screenshot_timeout, g_source_remove);
  g_clear_object (&self->screenshot);
  G_OBJECT_CLASS (pv_application_parent_class)->finalize (object);
}

static void
pv_application_class_init (PvApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = pv_application_finalize;
  app_class->startup = pv_application_startup;
  app_class->activate = pv_application_activate;
  app_class->open = pv_application_open;
  app_class->handle_local_options = pv_application_handle_local_options;
  app_class->command_line = pv_application_command_line;
}

static void
pv_application_init (PvApplication *self)
{
  static const GOptionEntry entries[] = {
    { "partition", 'p', 0, G_OPTION_ARG_FILENAME, NULL,
      "Plan the model with this partition config (ONNX Runtime's DeviceBasedPartitioner JSON)", "P.json" },
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL,
      "Open the model, wait until its plan is drawn, save the window as PNG and quit", "OUT.png" },
    { "size", 0, 0, G_OPTION_ARG_STRING, NULL, "Window size for --screenshot (default 1600x1000)", "WxH" },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, "Print the version and exit", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, NULL, "MODEL.onnx…" },
    { NULL },
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), "[MODEL.onnx…]");
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            "See how ONNX Runtime lays out a model's activation memory.");
}
