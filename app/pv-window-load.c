/* pv-window-load.c: loading a model in the background (the loading page
 * when it is slow, the config remembered for the model and the fallback
 * without it, Recent), and what to do with unsaved config changes first. */
#include "pv-window-private.h"

#include "pv-app-state.h"
#include "pv-error.h"
#include "pv-recent.h"

static void start_load (PvWindow *self, GFile *file, GFile *partition);

void
_pv_window_open_anyway (PvWindow *self)
{
  guint64 limit = pv_document_get_max_nodes (self->document);
  g_autoptr (GFile) file = self->loading_file ? g_object_ref (self->loading_file) : NULL;
  g_autoptr (GFile) partition = self->loading_partition ? g_object_ref (self->loading_partition) : NULL;

  if (file == NULL)
    return;
  pv_window_show_error (self, NULL);
  pv_document_set_max_nodes (self->document, 0);
  start_load (self, file, partition);
  pv_document_set_max_nodes (self->document, limit);
}


static void
load_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (PvWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  gboolean ok = pv_document_load_finish (PV_DOCUMENT (object), result, &error);
  gboolean cancelled = !ok && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  /* The window may have been closed while the model loaded. */
  if (self->document == NULL)
    return;
  if (!ok && !cancelled && self->fallback_file)
    {
      /* The remembered config broke the load (it is no longer text, say):
       * open the model with ORT's default config, and say why. */
      g_autoptr (GFile) model = g_steal_pointer (&self->fallback_file);
      g_autofree char *message = g_strdup_printf ("Opened with ONNX Runtime's default partition: %s", error->message);
      start_load (self, model, NULL);
      self->fallback_error = g_steal_pointer (&message);
      return;
    }
  /* A cancelled load is an older one: the fallback belongs to the newer. */
  if (!cancelled)
    g_clear_object (&self->fallback_file);
  if (!ok)
    {
      /* A model over the node limit is whole: it stays in Recent, and the
       * user may plan it anyway. */
      gboolean too_big = g_error_matches (error, PV_MODEL_ERROR, PV_MODEL_ERROR_TOO_MANY_NODES);
      if (!cancelled)
        pv_window_show_error (self, error->message);
      if (too_big)
        {
          g_autofree char *escaped = g_markup_escape_text (error->message, -1);
          g_autofree char *markup = g_strdup_printf ("%s. <a href=\"%s\">Open anyway</a>", escaped,
                                                     PV_WINDOW_OPEN_ANYWAY_URI);
          gtk_label_set_markup (self->error_label, markup);
        }
      /* The file chooser records what it opens: a model that cannot be
       * opened is not one to offer again. */
      if (!cancelled && !too_big && self->remember && self->loading_file)
        pv_recent_forget_model (gtk_recent_manager_get_default (), self->loading_file);
    }
  else
    {
      GFile *file = pv_document_get_file (self->document);
      GFile *partition = pv_document_get_partition_file (self->document);

      pv_window_show_error (self, self->fallback_error);
      gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
      if (self->remember)
        {
          pv_recent_add_model (gtk_recent_manager_get_default (), file);
          if (partition)
            pv_app_state_remember_model_config (file, partition);
        }
    }
  if (!cancelled)
    g_clear_pointer (&self->fallback_error, g_free);
  if (!pv_document_get_loading (self->document))
    {
      g_clear_handle_id (&self->loading_delay, g_source_remove);
      self->show_loading = FALSE;
    }
  _pv_window_update_page (self);
  _pv_window_actions_update (self);
}

GtkLabel *
pv_window_get_loading_label (PvWindow *self)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), NULL);
  return self->loading_label;
}

/* A quick load keeps the old plan on screen instead of flashing the
 * spinner page. */
static gboolean
loading_delay_cb (gpointer user_data)
{
  PvWindow *self = PV_WINDOW (user_data);

  self->loading_delay = 0;
  self->show_loading = TRUE;
  _pv_window_update_page (self);
  return G_SOURCE_REMOVE;
}

static void
start_load (PvWindow *self, GFile *file, GFile *partition)
{
  g_clear_handle_id (&self->loading_delay, g_source_remove);
  g_clear_object (&self->fallback_file);
  g_clear_pointer (&self->fallback_error, g_free);
  g_set_object (&self->loading_file, file);
  g_set_object (&self->loading_partition, partition);
  self->show_loading = FALSE;
  /* As for re-plans: a load that takes longer shows its stage and Cancel. */
  self->loading_delay = g_timeout_add (PV_WINDOW_PLANNING_DELAY_MS, loading_delay_cb, self);
  if (self->load_cancellable)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();
  gtk_label_set_text (self->loading_label, "Loading…");
  pv_document_load_async (self->document, file, partition, self->load_cancellable, load_done_cb,
                          g_object_ref (self));
  _pv_window_update_page (self);
}

/* ---- unsaved changes ---- */

void
_pv_window_clear_pending (PvWindow *self)
{
  self->pending = PV_PENDING_NONE;
  g_clear_object (&self->pending_file);
  g_clear_object (&self->pending_partition);
}

void
_pv_window_run_pending (PvWindow *self)
{
  PvPendingKind kind = self->pending;
  g_autoptr (GFile) file = g_steal_pointer (&self->pending_file);
  g_autoptr (GFile) partition = g_steal_pointer (&self->pending_partition);

  self->pending = PV_PENDING_NONE;
  switch (kind)
    {
    case PV_PENDING_CLOSE:
      self->close_confirmed = TRUE;
      gtk_window_close (GTK_WINDOW (self));
      break;
    case PV_PENDING_OPEN:
      /* No config given: the one last used with this model, if any. */
      if (partition == NULL && self->remember)
        {
          g_autoptr (PvAppState) state = pv_app_state_load (NULL);
          partition = pv_app_state_dup_model_config (state, file);
          if (partition)
            {
              start_load (self, file, partition);
              self->fallback_file = g_object_ref (file);
              break;
            }
        }
      start_load (self, file, partition);
      break;
    case PV_PENDING_OPEN_PARTITION:
      {
        g_autoptr (GError) error = NULL;
        if (!pv_window_load_partition (self, file, &error))
          pv_window_show_error (self, error->message);
        break;
      }
    default:
      break;
    }
}

static void
confirm_response_cb (PvWindow *self, int response, GtkDialog *dialog)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  switch (response)
    {
    case GTK_RESPONSE_ACCEPT:
      _pv_window_save_partition_interactive (self, FALSE);
      break;
    case GTK_RESPONSE_REJECT:
      _pv_window_run_pending (self);
      break;
    default:
      _pv_window_clear_pending (self);
      break;
    }
}

void
_pv_window_confirm_then (PvWindow *self, PvPendingKind kind, GFile *file, GFile *partition)
{
  GFile *config = pv_document_get_partition_file (self->document);
  g_autofree char *name = config ? g_file_get_basename (config) : NULL;
  GtkWidget *dialog, *discard;

  _pv_window_clear_pending (self);
  self->pending = kind;
  g_set_object (&self->pending_file, file);
  g_set_object (&self->pending_partition, partition);

  pv_partition_editor_flush (self->editor);
  if (!pv_partition_editor_get_modified (self->editor))
    {
      _pv_window_run_pending (self);
      return;
    }

  dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, "Save the partition config?");
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                            name ? "Your changes to “%s” are lost if you don't save them."
                                                 : "%sYour edited config is lost if you don't save it.",
                                            name ? name : "");
  gtk_dialog_add_button (GTK_DIALOG (dialog), "_Cancel", GTK_RESPONSE_CANCEL);
  discard = gtk_dialog_add_button (GTK_DIALOG (dialog), kind == PV_PENDING_CLOSE ? "_Discard and Close"
                                                                                 : "_Discard and Open",
                                   GTK_RESPONSE_REJECT);
  gtk_widget_add_css_class (discard, "destructive-action");
  gtk_dialog_add_button (GTK_DIALOG (dialog), name ? "_Save" : "_Save As…", GTK_RESPONSE_ACCEPT);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  g_signal_connect_object (dialog, "response", G_CALLBACK (confirm_response_cb), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}
