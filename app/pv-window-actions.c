/* pv-window-actions.c: the window's actions (win.*): open, save, export,
 * zoom, and the error bar. */
#include "pv-window-private.h"

#include <string.h>

#include "pv-app-state.h"
#include "pv-save-file.h"

/* ---- file choosers ---- */

typedef void (*ChosenFunc) (PvWindow *self, GFile *file, gpointer data);

typedef struct {
  PvWindow *self;
  ChosenFunc func;
  gpointer data;
  GtkFileChooserNative *native;
  gboolean scale_choice;        /* the dialog offers picture exports' scale */
} Chooser;

static void
chooser_response_cb (GtkNativeDialog *native, int response, gpointer user_data)
{
  Chooser *chooser = user_data;
  g_autoptr (GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
  if (file && chooser->scale_choice)
    pv_window_set_export_scale (chooser->self,
                                g_strcmp0 (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (native), "double"), "true") == 0
                                  ? 2 : 1);
  chooser->func (chooser->self, file, chooser->data);
  g_object_unref (chooser->self);
  g_free (chooser);
  g_object_unref (native);
}

static void
add_filter (GtkFileChooser *chooser, const char *name, const char *pattern, const char *mime)
{
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  if (pattern)
    gtk_file_filter_add_pattern (filter, pattern);
  if (mime)
    gtk_file_filter_add_mime_type (filter, mime);
  gtk_file_chooser_add_filter (chooser, filter);
}

/* Asks for a file; @func gets it, or NULL when the user cancels. Returns
 * the chooser, shown, to add choices to. */
static Chooser *
choose_file (PvWindow *self, GtkFileChooserAction action, const char *title, const char *accept,
             GFile *folder, const char *suggested_name, const char *filter_name, const char *pattern,
             ChosenFunc func, gpointer data)
{
  GtkFileChooserNative *native = gtk_file_chooser_native_new (title, GTK_WINDOW (self), action, accept, "_Cancel");
  GtkFileChooser *file_chooser = GTK_FILE_CHOOSER (native);
  Chooser *chooser = g_new0 (Chooser, 1);

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  if (filter_name)
    add_filter (file_chooser, filter_name, pattern, NULL);
  add_filter (file_chooser, "All Files", "*", NULL);
  if (folder)
    gtk_file_chooser_set_current_folder (file_chooser, folder, NULL);
  if (suggested_name)
    gtk_file_chooser_set_current_name (file_chooser, suggested_name);

  chooser->self = g_object_ref (self);
  chooser->func = func;
  chooser->data = data;
  chooser->native = native;
  g_signal_connect (native, "response", G_CALLBACK (chooser_response_cb), chooser);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
  return chooser;
}

/* The model's folder, or NULL. */
static GFile *
model_folder (PvWindow *self)
{
  GFile *file = pv_document_get_file (self->document);
  return file ? g_file_get_parent (file) : NULL;
}

/* The model's file name without ".onnx". */
static char *
model_stem (PvWindow *self)
{
  const char *title = pv_document_get_title (self->document);
  char *stem = g_strdup (title ? title : "model");

  if (g_str_has_suffix (stem, ".onnx"))
    stem[strlen (stem) - 5] = '\0';
  return stem;
}

/* ---- open ---- */

static void
open_chosen (PvWindow *self, GFile *file, gpointer data)
{
  if (file)
    pv_window_open (self, file, NULL);
}

static void
open_action (GtkWidget *widget, const char *name, GVariant *param)
{
  PvWindow *self = PV_WINDOW (widget);
  g_autoptr (GFile) folder = model_folder (self);

  choose_file (self, GTK_FILE_CHOOSER_ACTION_OPEN, "Open an ONNX Model", "_Open", folder, NULL, "ONNX Models",
               "*.onnx", open_chosen, NULL);
}

/* ---- open a partition config ---- */

gboolean
pv_window_load_partition (PvWindow *self, GFile *file, GError **error)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (!pv_document_load_partition (self->document, file, error))
    return FALSE;
  pv_partition_editor_reload (self->editor);
  if (self->remember)
    pv_app_state_remember_model_config (pv_document_get_file (self->document), file);
  return TRUE;
}

void
pv_window_open_partition (PvWindow *self, GFile *file)
{
  g_return_if_fail (PV_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  _pv_window_confirm_then (self, PV_PENDING_OPEN_PARTITION, file, NULL);
}

static void
open_partition_chosen (PvWindow *self, GFile *file, gpointer data)
{
  if (file)
    pv_window_open_partition (self, file);
}

static void
open_partition_action (GtkWidget *widget, const char *name, GVariant *param)
{
  PvWindow *self = PV_WINDOW (widget);
  GFile *config = pv_document_get_partition_file (self->document);
  g_autoptr (GFile) folder = config ? g_file_get_parent (config) : model_folder (self);

  choose_file (self, GTK_FILE_CHOOSER_ACTION_OPEN, "Open a Partition Config", "_Open", folder, NULL, "JSON Files",
               "*.json", open_partition_chosen, NULL);
}

static void
cancel_load_action (GtkWidget *widget, const char *name, GVariant *param)
{
  PvWindow *self = PV_WINDOW (widget);

  if (self->load_cancellable)
    g_cancellable_cancel (self->load_cancellable);
}

/* ---- save ---- */

static void
save_chosen (PvWindow *self, GFile *file, gpointer data)
{
  g_autoptr (GError) error = NULL;

  if (file == NULL)
    {
      _pv_window_clear_pending (self);
      return;
    }
  if (!pv_window_save_partition (self, file, &error))
    {
      pv_window_show_error (self, error->message);
      _pv_window_clear_pending (self);
      return;
    }
  _pv_window_run_pending (self);
}

void
_pv_window_save_partition_interactive (PvWindow *self, gboolean choose)
{
  GFile *file = pv_document_get_partition_file (self->document);

  if (file && !choose)
    {
      save_chosen (self, file, NULL);
      return;
    }
  {
    g_autoptr (GFile) folder = file ? g_file_get_parent (file) : model_folder (self);
    g_autofree char *stem = model_stem (self);
    g_autofree char *suggested = file ? g_file_get_basename (file) : g_strdup_printf ("%s.partition.json", stem);
    choose_file (self, GTK_FILE_CHOOSER_ACTION_SAVE, "Save the Partition Config", "_Save", folder, suggested,
                 "JSON Files", "*.json", save_chosen, NULL);
  }
}

static void
save_partition_action (GtkWidget *widget, const char *name, GVariant *param)
{
  PvWindow *self = PV_WINDOW (widget);

  _pv_window_clear_pending (self);
  _pv_window_save_partition_interactive (self, FALSE);
}

static void
save_partition_as_action (GtkWidget *widget, const char *name, GVariant *param)
{
  PvWindow *self = PV_WINDOW (widget);

  _pv_window_clear_pending (self);
  _pv_window_save_partition_interactive (self, TRUE);
}

/* ---- export ---- */

static gboolean
write_text (GFile *file, const char *text, GError **error)
{
  return pv_save_gfile (file, text, strlen (text), error);
}

/* The picture's title names the model and the config as the header does. */
static gboolean
export_picture (PvWindow *self, GFile *file, PvTimelineExportFormat format, GError **error)
{
  const char *name = pv_document_get_title (self->document);
  gboolean modified = name && pv_partition_editor_get_modified (self->editor);
  GFile *partition = pv_document_get_partition_file (self->document);
  g_autofree char *basename = partition ? g_file_get_basename (partition) : NULL;
  g_autofree char *config = NULL, *shown = NULL;
  PvTimelineExportInfo info = { name, NULL, NULL };
  GString *crumbs = g_string_new (NULL);

  /* A body shown: its breadcrumb below the model ("/Loop body › If_1 then_branch"). */
  for (guint d = 1; d <= pv_subgraph_nav_get_depth (self->nav); d++)
    {
      g_autofree char *crumb = pv_subgraph_nav_dup_crumb (self->nav, d);
      g_string_append_printf (crumbs, "%s%s", d > 1 ? " › " : "", crumb);
    }
  shown = g_string_free (crumbs, crumbs->len == 0);
  info.graph = shown;
  if (basename)
    config = modified ? g_strdup_printf ("%s (edited)", basename) : g_steal_pointer (&basename);
  else if (modified)
    config = g_strdup ("partition config not saved");
  info.config = config;
  return pv_timeline_view_export (self->timeline, file, format, pv_window_get_export_scale (self), &info, error);
}

void
pv_window_set_export_scale (PvWindow *self, int scale)
{
  g_return_if_fail (PV_IS_WINDOW (self));
  g_return_if_fail (scale == 1 || scale == 2);
  self->export_scale = scale;
}

int
pv_window_get_export_scale (PvWindow *self)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), 1);
  /* Until chosen: the screen's, so a HiDPI export is as sharp as the view. */
  if (self->export_scale == 0)
    return CLAMP (gtk_widget_get_scale_factor (GTK_WIDGET (self)), 1, 2);
  return self->export_scale;
}

gboolean
pv_window_export (PvWindow *self, PvExportKind kind, GFile *file, GError **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (PV_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  switch (kind)
    {
    case PV_EXPORT_PNG: return export_picture (self, file, PV_TIMELINE_EXPORT_PNG, error);
    case PV_EXPORT_SVG: return export_picture (self, file, PV_TIMELINE_EXPORT_SVG, error);
    case PV_EXPORT_PDF: return export_picture (self, file, PV_TIMELINE_EXPORT_PDF, error);
    case PV_EXPORT_PLAN_JSON:
    case PV_EXPORT_TRACE_JSON: text = _pv_window_export_shown (self, kind); break;
    default: g_return_val_if_reached (FALSE);
    }
  if (text == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "There is no plan to export");
      return FALSE;
    }
  return write_text (file, text, error);
}


static const struct {
  const char *id;
  PvExportKind kind;
  const char *title;
  const char *suffix;
  const char *filter;
} exports[] = {
  { "png", PV_EXPORT_PNG, "Export the Timeline as PNG", ".png", "PNG Images" },
  { "svg", PV_EXPORT_SVG, "Export the Timeline as SVG", ".svg", "SVG Images" },
  { "pdf", PV_EXPORT_PDF, "Export the Timeline as PDF", ".pdf", "PDF Documents" },
  { "plan", PV_EXPORT_PLAN_JSON, "Export the Plan as JSON", ".plan.json", "JSON Files" },
  { "trace", PV_EXPORT_TRACE_JSON, "Export a Chrome Trace", ".trace.json", "JSON Files" },
};

static void
export_chosen (PvWindow *self, GFile *file, gpointer data)
{
  g_autoptr (GError) error = NULL;

  if (file && !pv_window_export (self, GPOINTER_TO_INT (data), file, &error))
    pv_window_show_error (self, error->message);
}

/* The save dialog's own option (as GNOME's apps offer one there): a check
 * box for the picture at 2×, the last choice preselected. A check box, not
 * a 1×/2× list: GTK 4.8's file chooser ignores set_choice on a list. */
static void
add_scale_choice (PvWindow *self, Chooser *chooser)
{
  GtkFileChooser *file_chooser = GTK_FILE_CHOOSER (chooser->native);

  gtk_file_chooser_add_choice (file_chooser, "double", "Double Size (2×)", NULL, NULL);
  gtk_file_chooser_set_choice (file_chooser, "double", pv_window_get_export_scale (self) == 2 ? "true" : "false");
  chooser->scale_choice = TRUE;
}

static void
export_action (GtkWidget *widget, const char *name, GVariant *param)
{
  PvWindow *self = PV_WINDOW (widget);
  const char *id = g_variant_get_string (param, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (exports); i++)
    if (strcmp (exports[i].id, id) == 0)
      {
        static const char *const planners[] = { "ort", "slots", "arena" };
        g_autoptr (GFile) folder = model_folder (self);
        g_autofree char *stem = model_stem (self);
        g_autofree char *suggested = g_strdup_printf ("%s.%s%s", stem, planners[pv_document_get_planner (self->document)],
                                                      exports[i].suffix);
        g_autofree char *pattern = g_strdup_printf ("*%s", strrchr (exports[i].suffix, '.'));
        Chooser *chooser = choose_file (self, GTK_FILE_CHOOSER_ACTION_SAVE, exports[i].title, "_Export", folder,
                                        suggested, exports[i].filter, pattern, export_chosen,
                                        GINT_TO_POINTER (exports[i].kind));
        if (exports[i].kind <= PV_EXPORT_PDF)
          add_scale_choice (self, chooser);
        return;
      }
  g_warning ("unknown export “%s”", id);
}

/* ---- view ---- */

static void
zoom_in_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_timeline_view_zoom (PV_WINDOW (widget)->timeline, PV_TIMELINE_VIEW_ZOOM_STEP);
}

static void
zoom_out_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_timeline_view_zoom (PV_WINDOW (widget)->timeline, 1.0 / PV_TIMELINE_VIEW_ZOOM_STEP);
}

static void
zoom_fit_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_timeline_view_zoom_fit (PV_WINDOW (widget)->timeline);
}

/* Undo and redo of the config, for the timeline and the side pane's lists:
 * the editor's own text view keeps its Ctrl+Z, and a move from a context
 * menu is one step of the same history. */
static void
undo_edit_action (GtkWidget *widget, const char *name, GVariant *param)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (pv_partition_editor_get_buffer (PV_WINDOW (widget)->editor));

  if (strcmp (name, "win.undo-edit") == 0 ? gtk_text_buffer_get_can_undo (buffer)
                                          : gtk_text_buffer_get_can_redo (buffer))
    {
      if (strcmp (name, "win.undo-edit") == 0)
        gtk_text_buffer_undo (buffer);
      else
        gtk_text_buffer_redo (buffer);
    }
  else
    gtk_widget_error_bell (widget);
}

static void
dismiss_error_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_window_show_error (PV_WINDOW (widget), NULL);
}

static void
open_anyway_action (GtkWidget *widget, const char *name, GVariant *param)
{
  _pv_window_open_anyway (PV_WINDOW (widget));
}

void
_pv_window_actions_update (PvWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean loaded = pv_document_get_model (self->document) != NULL;
  gboolean loading = pv_document_get_loading (self->document);
  gboolean has_plan = pv_document_get_plan_session (self->document) != NULL;

  gtk_widget_action_set_enabled (widget, "win.open-partition", loaded);
  gtk_widget_action_set_enabled (widget, "win.save-partition", loaded);
  gtk_widget_action_set_enabled (widget, "win.save-partition-as", loaded);
  gtk_widget_action_set_enabled (widget, "win.export", has_plan);
  gtk_widget_action_set_enabled (widget, "win.cancel-load", loading);
  gtk_widget_action_set_enabled (widget, "win.zoom-in", loaded);
  gtk_widget_action_set_enabled (widget, "win.zoom-out", loaded);
  gtk_widget_action_set_enabled (widget, "win.zoom-fit", loaded);
  gtk_widget_action_set_enabled (widget, "win.live-at-peak", has_plan);
  gtk_widget_action_set_enabled (widget, "win.find", loaded);
  gtk_widget_action_set_enabled (widget, "win.find-next", loaded);
  gtk_widget_action_set_enabled (widget, "win.find-previous", loaded);
  gtk_widget_action_set_enabled (widget, "win.undo-edit", loaded);
  gtk_widget_action_set_enabled (widget, "win.redo-edit", loaded);
  gtk_widget_set_sensitive (GTK_WIDGET (self->export_button), has_plan);
  gtk_widget_set_sensitive (GTK_WIDGET (self->bounds_button), loaded);
  gtk_widget_set_sensitive (GTK_WIDGET (self->planner_dropdown), loaded);
  gtk_widget_set_sensitive (GTK_WIDGET (self->registry_dropdown), loaded);
}

void
_pv_window_class_actions_init (PvWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-partition", NULL, open_partition_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-load", NULL, cancel_load_action);
  gtk_widget_class_install_action (widget_class, "win.save-partition", NULL, save_partition_action);
  gtk_widget_class_install_action (widget_class, "win.save-partition-as", NULL, save_partition_as_action);
  gtk_widget_class_install_action (widget_class, "win.export", "s", export_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-in", NULL, zoom_in_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-fit", NULL, zoom_fit_action);
  gtk_widget_class_install_action (widget_class, "win.dismiss-error", NULL, dismiss_error_action);
  gtk_widget_class_install_action (widget_class, "win.open-anyway", NULL, open_anyway_action);
  gtk_widget_class_install_action (widget_class, "win.undo-edit", NULL, undo_edit_action);
  gtk_widget_class_install_action (widget_class, "win.redo-edit", NULL, undo_edit_action);
}
