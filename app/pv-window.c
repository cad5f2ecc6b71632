/* pv-window.c: the main window. Actions live in pv-window-actions.c. */
#include "pv-window-private.h"

#include "pv-error.h"

#include <math.h>
#include <string.h>

#include "pv-app-state.h"
#include "pv-element-type.h"
#include "pv-recent.h"
#include "pv-save-file.h"

G_DEFINE_FINAL_TYPE (PvWindow, pv_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_COLOUR_BY_KIND,
  PROP_SHOW_TRIGGER_ARROWS,
  PROP_SHOW_NOTIFY_ARROWS,
  PROP_SHOW_REUSE_LINKS,
  PROP_SHOW_SIDE_PANE,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];


PvWindow *
pv_window_new (PvApplication *application)
{
  PvWindow *self = g_object_new (PV_TYPE_WINDOW, "application", application, NULL);

  self->remember = application == NULL || pv_application_get_remember (application);
  _pv_window_state_restore (self);
  return self;
}

/* ---- title, pages, controls ---- */

static void
update_title (PvWindow *self)
{
  const char *name = pv_document_get_title (self->document);
  gboolean modified = name && pv_partition_editor_get_modified (self->editor);
  GFile *partition = pv_document_get_partition_file (self->document);
  g_autofree char *title = NULL, *window_title = NULL, *subtitle = NULL;

  title = name ? g_strdup_printf ("%s%s", modified ? "• " : "", name) : g_strdup ("planviz");
  gtk_label_set_text (self->title_label, title);
  if (name)
    {
      g_autofree char *config = partition ? g_file_get_basename (partition) : NULL;
      subtitle = config ? g_strdup_printf ("partition %s", config)
                        : g_strdup (modified ? "partition config not saved" : "ONNX Runtime's default partition");
      window_title = g_strdup_printf ("%s — planviz", title);
    }
  gtk_label_set_text (self->subtitle_label, subtitle ? subtitle : "");
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), subtitle != NULL);
  gtk_window_set_title (GTK_WINDOW (self), window_title ? window_title : "planviz");
}

static void
update_page (PvWindow *self)
{
  const char *page;

  if (pv_document_get_loading (self->document) && (self->show_loading || pv_document_get_model (self->document) == NULL))
    page = "loading";
  else if (pv_document_get_model (self->document))
    page = "document";
  else
    page = "empty";
  gtk_stack_set_visible_child_name (self->main_stack, page);
  gtk_spinner_set_spinning (self->loading_spinner, strcmp (page, "loading") == 0);
}

static void
bound_changed_cb (PvWindow *self, GtkSpinButton *spin)
{
  const char *symbol = g_object_get_data (G_OBJECT (spin), "pv-symbol");

  if (self->updating_controls || symbol == NULL)
    return;
  pv_document_set_bound (self->document, symbol, (gint64) gtk_spin_button_get_value (spin));
}

static void
input_value_changed_cb (PvWindow *self, GtkEditable *entry)
{
  const char *input = g_object_get_data (G_OBJECT (entry), "pv-input");
  g_autoptr (GError) error = NULL;

  if (self->updating_controls || input == NULL)
    return;
  if (pv_document_set_input_value (self->document, input, gtk_editable_get_text (entry), &error))
    {
      gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (entry), NULL);
    }
  else
    {
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (entry), error->message);
    }
}

/* Rows for the scalar graph inputs, whose value an If may test. */
static int
rebuild_inputs (PvWindow *self)
{
  const PvModel *model = pv_document_get_model (self->document);
  const PvGraph *g = model ? model->graph : NULL;
  GtkWidget *child;
  int row = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->inputs_grid))))
    gtk_grid_remove (self->inputs_grid, child);

  for (int i = 0; g && i < g->n_inputs; i++)
    {
      const PvValue *v = &g->values[g->inputs[i]];
      const char *text = pv_document_get_input_value (self->document, v->name);
      GtkWidget *label, *entry;
      g_autofree char *what = NULL;

      if ((v->flags & PV_VALUE_INITIALIZER) || v->type.kind != PV_TYPE_TENSOR || v->type.rank != 0
          || v->type.elem_type == PV_ELEM_STRING || v->type.elem_type == 0)
        continue;
      what = g_strdup_printf ("%s (value)", v->name);
      label = gtk_label_new (what);
      entry = gtk_entry_new ();
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "monospace");
      gtk_editable_set_text (GTK_EDITABLE (entry), text ? text : "");
      gtk_editable_set_width_chars (GTK_EDITABLE (entry), 7);
      gtk_entry_set_placeholder_text (GTK_ENTRY (entry), "unknown");
      g_object_set_data_full (G_OBJECT (entry), "pv-input", g_strdup (v->name), g_free);
      gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, what, -1);
      g_signal_connect_object (entry, "changed", G_CALLBACK (input_value_changed_cb), self, G_CONNECT_SWAPPED);
      gtk_grid_attach (self->inputs_grid, label, 0, row, 1, 1);
      gtk_grid_attach (self->inputs_grid, entry, 1, row, 1, 1);
      row++;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->inputs_grid), row > 0);
  return row;
}

/* The symbolic dims' rows (the input rows stay, so typing goes on). */
static int
rebuild_symbols (PvWindow *self)
{
  const char *const *symbols = pv_document_get_symbols (self->document);
  GtkWidget *child;
  int row = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->bounds_grid))))
    gtk_grid_remove (self->bounds_grid, child);

  for (int i = 0; symbols && symbols[i]; i++)
    {
      GtkWidget *label = _pv_window_symbol_label (self, symbols[i]);
      GtkAdjustment *adjustment = gtk_adjustment_new ((double) pv_document_get_bound (self->document, symbols[i]), 0,
                                                      1 << 24, 1, 16, 0);
      GtkWidget *spin = gtk_spin_button_new (adjustment, 1, 0);

      gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
      gtk_editable_set_width_chars (GTK_EDITABLE (spin), 7);
      g_object_set_data_full (G_OBJECT (spin), "pv-symbol", g_strdup (symbols[i]), g_free);
      gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL, symbols[i], -1);
      g_signal_connect_object (spin, "value-changed", G_CALLBACK (bound_changed_cb), self, G_CONNECT_SWAPPED);
      gtk_grid_attach (self->bounds_grid, label, 0, row, 1, 1);
      gtk_grid_attach (self->bounds_grid, spin, 1, row, 1, 1);
      row++;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->bounds_grid), row > 0);
  return row;
}

static void
update_bounds_hint (PvWindow *self, int n_dims, int n_inputs)
{
  gtk_label_set_text (self->bounds_hint,
                      n_inputs > 0 ? "Sizes are planned with these values; a scalar input's value lets an If that "
                                     "tests it take its branch. Changing one re-plans."
                      : n_dims > 0 ? "Sizes are planned with these values. Changing one re-plans."
                                   : "Every size in this model is known: it has no symbolic dims to bound.");
}

static void
rebuild_bounds (PvWindow *self)
{
  int n_dims = rebuild_symbols (self);
  update_bounds_hint (self, n_dims, rebuild_inputs (self));
}

static void
document_symbols_changed_cb (PvWindow *self, PvDocument *document)
{
  int n_inputs = 0;
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->inputs_grid)); c; c = gtk_widget_get_next_sibling (c))
    n_inputs += GTK_IS_ENTRY (c);
  update_bounds_hint (self, rebuild_symbols (self), n_inputs);
}

/* Spin buttons follow bounds set elsewhere (the API, tests). */
static void
sync_bounds (PvWindow *self)
{
  self->updating_controls = TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->bounds_grid)); child;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *symbol = g_object_get_data (G_OBJECT (child), "pv-symbol");
      if (GTK_IS_SPIN_BUTTON (child) && symbol)
        gtk_spin_button_set_value (GTK_SPIN_BUTTON (child), (double) pv_document_get_bound (self->document, symbol));
    }
  self->updating_controls = FALSE;
}

/* ---- document signals ---- */

static void
document_loading_cb (PvWindow *self, GParamSpec *pspec, PvDocument *document)
{
  update_page (self);
  _pv_window_actions_update (self);
}

static void
document_load_stage_cb (PvWindow *self, GParamSpec *pspec, PvDocument *document)
{
  const char *stage = pv_document_get_load_stage (document);
  gtk_label_set_text (self->loading_label, stage ? stage : "Loading…");
}

static void
document_loaded_cb (PvWindow *self, PvDocument *document)
{
  rebuild_bounds (self);
  update_title (self);
  update_page (self);
  _pv_window_devices_update (self);
}

/* The timeline itself follows the subgraph navigation (nav_changed_cb in
 * pv-window-subgraph.c), which every plan-changed reaches. */
static void
update_stale (PvWindow *self)
{
  PvDocument *document = self->document;

  _pv_window_update_dimmed (self);
  gtk_revealer_set_reveal_child (self->stale_revealer, pv_document_get_stale (document));
  gtk_label_set_text (self->stale_label,
                      pv_document_get_cancelled (document)    ? "Planning cancelled: showing the last plan"
                      : pv_document_get_plan_session (document) ? "The partition config is invalid: showing the last valid plan"
                                                                : "ONNX Runtime would not run this: showing the program order");
}

static void
document_stale_cb (PvWindow *self, GParamSpec *pspec, PvDocument *document)
{
  update_stale (self);
}

static void
document_plan_changed_cb (PvWindow *self, PvDocument *document)
{
  update_stale (self);
  sync_bounds (self);
  _pv_window_actions_update (self);
  _pv_window_devices_update (self);
}

static void
document_title_cb (PvWindow *self, GParamSpec *pspec, PvDocument *document)
{
  update_title (self);
}

static PvTimelineMemoryView
memory_view_for (PvPlannerKind planner)
{
  switch (planner)
    {
    case PV_PLANNER_ORT: return PV_TIMELINE_MEMORY_ORT_BUFFERS;
    case PV_PLANNER_SLOTS: return PV_TIMELINE_MEMORY_SLOTS;
    default: return PV_TIMELINE_MEMORY_ARENA;
    }
}

static void
document_planner_cb (PvWindow *self, GParamSpec *pspec, PvDocument *document)
{
  PvPlannerKind planner = pv_document_get_planner (document);

  self->updating_controls = TRUE;
  gtk_drop_down_set_selected (self->planner_dropdown, planner);
  self->updating_controls = FALSE;
  pv_timeline_view_set_memory_view (self->timeline, memory_view_for (planner));
}

static void
document_registry_cb (PvWindow *self, GParamSpec *pspec, PvDocument *document)
{
  self->updating_controls = TRUE;
  gtk_drop_down_set_selected (self->registry_dropdown, pv_document_get_registry (document));
  self->updating_controls = FALSE;
}

static void
planner_selected_cb (PvWindow *self, GParamSpec *pspec, GtkDropDown *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->updating_controls || selected > PV_PLANNER_ARENA)
    return;
  pv_document_set_planner (self->document, selected);
}

static void
registry_selected_cb (PvWindow *self, GParamSpec *pspec, GtkDropDown *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->updating_controls || selected > PV_REGISTRY_CUDA)
    return;
  pv_document_set_registry (self->document, selected);
}

static void
modified_changed_cb (PvWindow *self, GtkTextBuffer *buffer)
{
  update_title (self);
}

/* ---- loading ---- */

static void start_load (PvWindow *self, GFile *file, GFile *partition);

/* The error bar's link that loads a model over the node limit. */
#define OPEN_ANYWAY_URI "planviz:open-anyway"

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

static gboolean
error_link_cb (GtkLabel *label, const char *uri, PvWindow *self)
{
  if (g_strcmp0 (uri, OPEN_ANYWAY_URI) != 0)
    return FALSE;
  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-anyway", NULL);
  return TRUE;
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
          g_autofree char *markup = g_strdup_printf ("%s. <a href=\"%s\">Open anyway</a>", escaped, OPEN_ANYWAY_URI);
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
  update_page (self);
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
  update_page (self);
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
  update_page (self);
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

/* ---- drag and drop ---- */

static gboolean
drop_cb (PvWindow *self, const GValue *value, double x, double y, GtkDropTarget *target)
{
  if (!G_VALUE_HOLDS (value, G_TYPE_FILE))
    return FALSE;
  pv_window_open (self, g_value_get_object (value), NULL);
  return TRUE;
}

/* ---- the side pane's width ---- */

/* The first time the paned knows its width, give the side pane its share
 * (within bounds); after that GtkPaned keeps the share as the window
 * resizes (both children resize) and the user's divider stays. */
static void
paned_max_position_cb (PvWindow *self, GParamSpec *pspec, GtkPaned *paned)
{
  int width = gtk_widget_get_width (GTK_WIDGET (paned)), side;

  if (self->paned_positioned || width <= 2 * PV_SIDE_PANE_MIN)
    return;
  self->paned_positioned = TRUE;
  side = self->side_pane_share > 0 ? (int) lround (self->side_pane_share * width) : PV_SIDE_PANE_WIDTH;
  side = CLAMP (side, PV_SIDE_PANE_MIN, (int) (width * PV_SIDE_PANE_MAX_SHARE));
  gtk_paned_set_position (paned, width - side);
}

/* ---- GtkWindow ---- */

static gboolean
pv_window_close_request (GtkWindow *window)
{
  PvWindow *self = PV_WINDOW (window);

  pv_partition_editor_flush (self->editor);
  if (!self->close_confirmed && pv_partition_editor_get_modified (self->editor))
    {
      _pv_window_confirm_then (self, PV_PENDING_CLOSE, NULL, NULL);
      return TRUE;
    }
  if (self->load_cancellable)
    g_cancellable_cancel (self->load_cancellable);
  _pv_window_state_save (self);
  return GTK_WINDOW_CLASS (pv_window_parent_class)->close_request (window);
}

/* ---- GObject ---- */

static void
pv_window_dispose (GObject *object)
{
  PvWindow *self = (PvWindow *) object;

  if (self->load_cancellable)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  g_clear_handle_id (&self->loading_delay, g_source_remove);
  g_clear_object (&self->fallback_file);
  g_clear_object (&self->loading_file);
  g_clear_object (&self->loading_partition);
  _pv_window_clear_pending (self);
  _pv_window_subgraph_dispose (self);
  _pv_window_progress_dispose (self);
  if (self->document)
    g_signal_handlers_disconnect_by_data (self->document, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), PV_TYPE_WINDOW);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (pv_window_parent_class)->dispose (object);
}

static void
pv_window_finalize (GObject *object)
{
  PvWindow *self = (PvWindow *) object;

  g_clear_pointer (&self->error_message, g_free);
  g_clear_pointer (&self->fallback_error, g_free);
  _pv_window_symbols_finalize (self);
  G_OBJECT_CLASS (pv_window_parent_class)->finalize (object);
}

static guint
arrow_flag (guint prop_id)
{
  switch (prop_id)
    {
    case PROP_SHOW_TRIGGER_ARROWS: return PV_TIMELINE_ARROW_TRIGGER;
    case PROP_SHOW_NOTIFY_ARROWS: return PV_TIMELINE_ARROW_NOTIFY;
    default: return PV_TIMELINE_ARROW_REUSE;
    }
}

static void
pv_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  PvWindow *self = PV_WINDOW (object);

  /* Property actions ask for their state while the template is built. */
  if (self->timeline == NULL || self->side_pane == NULL)
    {
      g_value_set_boolean (value, prop_id != PROP_COLOUR_BY_KIND);
      return;
    }
  switch (prop_id)
    {
    case PROP_COLOUR_BY_KIND:
      g_value_set_boolean (value, pv_timeline_view_get_colour_by (self->timeline) == PV_TIMELINE_COLOUR_BY_KIND);
      break;
    case PROP_SHOW_TRIGGER_ARROWS:
    case PROP_SHOW_NOTIFY_ARROWS:
    case PROP_SHOW_REUSE_LINKS:
      g_value_set_boolean (value, (pv_timeline_view_get_arrows (self->timeline) & arrow_flag (prop_id)) != 0);
      break;
    case PROP_SHOW_SIDE_PANE:
      g_value_set_boolean (value, gtk_widget_get_visible (self->side_pane));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pv_window_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  PvWindow *self = PV_WINDOW (object);
  gboolean on = g_value_get_boolean (value);

  switch (prop_id)
    {
    case PROP_COLOUR_BY_KIND:
      pv_timeline_view_set_colour_by (self->timeline, on ? PV_TIMELINE_COLOUR_BY_KIND : PV_TIMELINE_COLOUR_BY_OP);
      break;
    case PROP_SHOW_TRIGGER_ARROWS:
    case PROP_SHOW_NOTIFY_ARROWS:
    case PROP_SHOW_REUSE_LINKS:
      {
        guint arrows = pv_timeline_view_get_arrows (self->timeline);
        arrows = on ? (arrows | arrow_flag (prop_id)) : (arrows & ~arrow_flag (prop_id));
        pv_timeline_view_set_arrows (self->timeline, arrows);
        break;
      }
    case PROP_SHOW_SIDE_PANE:
      if (gtk_widget_get_visible (self->side_pane) == on)
        return;
      gtk_widget_set_visible (self->side_pane, on);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  g_object_notify_by_pspec (object, pspec);
}

static void
pv_window_class_init (PvWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = pv_window_dispose;
  object_class->finalize = pv_window_finalize;
  object_class->get_property = pv_window_get_property;
  object_class->set_property = pv_window_set_property;
  window_class->close_request = pv_window_close_request;

  properties[PROP_COLOUR_BY_KIND] =
    g_param_spec_boolean ("colour-by-kind", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SHOW_TRIGGER_ARROWS] =
    g_param_spec_boolean ("show-trigger-arrows", NULL, NULL, TRUE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SHOW_NOTIFY_ARROWS] =
    g_param_spec_boolean ("show-notify-arrows", NULL, NULL, TRUE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SHOW_REUSE_LINKS] =
    g_param_spec_boolean ("show-reuse-links", NULL, NULL, TRUE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SHOW_SIDE_PANE] =
    g_param_spec_boolean ("show-side-pane", NULL, NULL, TRUE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (PV_TYPE_TIMELINE_VIEW);
  g_type_ensure (PV_TYPE_PARTITION_EDITOR);
  g_type_ensure (PV_TYPE_SUMMARY_VIEW);
  g_type_ensure (PV_TYPE_INSPECTOR);
  g_type_ensure (PV_TYPE_VALUES_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/planviz/Planviz/ui/pv-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PvWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, planner_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, registry_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, bounds_button);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, bounds_grid);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, inputs_grid);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, bounds_hint);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, export_button);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, error_label);
  gtk_widget_class_bind_template_callback (widget_class, error_link_cb);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, loading_spinner);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, loading_label);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, stale_revealer);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, stale_label);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, side_pane);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, side_stack);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, editor);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, summary);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, inspector);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, values);

  gtk_widget_class_install_property_action (widget_class, "win.colour-by-kind", "colour-by-kind");
  gtk_widget_class_install_property_action (widget_class, "win.show-trigger-arrows", "show-trigger-arrows");
  gtk_widget_class_install_property_action (widget_class, "win.show-notify-arrows", "show-notify-arrows");
  gtk_widget_class_install_property_action (widget_class, "win.show-reuse-links", "show-reuse-links");
  gtk_widget_class_install_property_action (widget_class, "win.show-side-pane", "show-side-pane");
  _pv_window_class_actions_init (klass);
  _pv_window_class_devices_init (klass);
  _pv_window_class_subgraph_init (klass);
  _pv_window_class_live_init (klass);
  _pv_window_class_find_init (klass);
  _pv_window_class_progress_init (klass);
  _pv_window_class_recent_init (klass);
  _pv_window_class_compare_init (klass);
  _pv_window_class_symbols_init (klass);
}

/* The timeline's move menu: the editor rewrites the config (undoably). */
static void
move_nodes_requested_cb (PvWindow *self, GStrv nodes, int stream, PvTimelineView *view)
{
  g_autoptr (GError) error = NULL;

  if (!pv_partition_editor_move_nodes (self->editor, (const char *const *) nodes, stream, &error))
    {
      g_autofree char *message = g_strdup_printf ("Cannot move %s. %s",
                                                  g_strv_length (nodes) == 1 ? "the node" : "the nodes",
                                                  error->message);
      pv_window_show_error (self, message);
    }
  else
    pv_window_show_error (self, NULL);
}

/* The menu's "Run on GPU / CPU": a new stream on that device, or one that
 * runs there. */
static void
run_on_device_requested_cb (PvWindow *self, GStrv nodes, int device, int stream, PvTimelineView *view)
{
  g_autoptr (GError) error = NULL;

  if (!pv_partition_editor_move_nodes_to_device (self->editor, (const char *const *) nodes, stream, device, &error))
    {
      g_autofree char *message = g_strdup_printf ("Cannot run %s on %s. %s",
                                                  g_strv_length (nodes) == 1 ? "the node" : "the nodes",
                                                  pv_device_type_name (device), error->message);
      pv_window_show_error (self, message);
    }
  else
    pv_window_show_error (self, NULL);
}

static void
pv_window_init (PvWindow *self)
{
  GtkDropTarget *drop;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->document = pv_document_new ();
  g_signal_connect_object (self->document, "notify::loading", G_CALLBACK (document_loading_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::load-stage", G_CALLBACK (document_load_stage_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "loaded", G_CALLBACK (document_loaded_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "symbols-changed", G_CALLBACK (document_symbols_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "plan-changed", G_CALLBACK (document_plan_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::title", G_CALLBACK (document_title_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::partition-file", G_CALLBACK (document_title_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::planner", G_CALLBACK (document_planner_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::registry", G_CALLBACK (document_registry_cb), self,
                           G_CONNECT_SWAPPED);

  g_signal_connect_object (self->planner_dropdown, "notify::selected", G_CALLBACK (planner_selected_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->registry_dropdown, "notify::selected", G_CALLBACK (registry_selected_cb), self,
                           G_CONNECT_SWAPPED);

  pv_partition_editor_set_document (self->editor, self->document);
  pv_summary_view_set_document (self->summary, self->document);
  /* Both follow (and set) the timeline's selection; neither switches pages. */
  pv_inspector_set_timeline (self->inspector, self->timeline);
  pv_inspector_set_document (self->inspector, self->document);
  pv_values_view_set_timeline (self->values, self->timeline);
  pv_values_menu_attach (self->values);
  pv_values_view_set_document (self->values, self->document);
  g_signal_connect_object (self->values, "value-selected", G_CALLBACK (pv_inspector_show_value), self->inspector,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (pv_partition_editor_get_buffer (self->editor), "modified-changed",
                           G_CALLBACK (modified_changed_cb), self, G_CONNECT_SWAPPED);

  g_signal_connect_object (self->timeline, "run-on-device-requested", G_CALLBACK (run_on_device_requested_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "move-nodes-requested", G_CALLBACK (move_nodes_requested_cb), self,
                           G_CONNECT_SWAPPED);

  g_signal_connect_object (self->paned, "notify::max-position", G_CALLBACK (paned_max_position_cb), self,
                           G_CONNECT_SWAPPED);

  drop = gtk_drop_target_new (G_TYPE_FILE, GDK_ACTION_COPY);
  g_signal_connect_object (drop, "drop", G_CALLBACK (drop_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  _pv_window_subgraph_init (self);
  _pv_window_live_init (self);
  _pv_window_find_init (self);
  _pv_window_progress_init (self);
  _pv_window_compare_init (self);
  _pv_window_symbols_init (self);
  g_signal_connect_object (self->document, "notify::stale", G_CALLBACK (document_stale_cb), self, G_CONNECT_SWAPPED);
  document_planner_cb (self, NULL, self->document);
  rebuild_bounds (self);
  update_title (self);
  update_page (self);
  _pv_window_actions_update (self);
  _pv_window_recent_init (self);
}

/* ---- public API ---- */

PvDocument *
pv_window_get_document (PvWindow *self)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), NULL);
  return self->document;
}

PvTimelineView *
pv_window_get_timeline_view (PvWindow *self)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), NULL);
  return self->timeline;
}

PvPartitionEditor *
pv_window_get_partition_editor (PvWindow *self)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), NULL);
  return self->editor;
}

PvSummaryView *
pv_window_get_summary_view (PvWindow *self)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), NULL);
  return self->summary;
}

void
pv_window_open (PvWindow *self, GFile *file, GFile *partition_file)
{
  g_return_if_fail (PV_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  _pv_window_confirm_then (self, PV_PENDING_OPEN, file, partition_file);
}

gboolean
pv_window_is_settled (PvWindow *self)
{
  PvTimelineModel *timeline;

  g_return_val_if_fail (PV_IS_WINDOW (self), FALSE);

  if (pv_document_get_loading (self->document) || gtk_stack_get_transition_running (self->main_stack) ||
      pv_partition_editor_get_pending (self->editor) || pv_document_get_planning (self->document))
    return FALSE;
  if (self->error_message)
    return TRUE;
  timeline = _pv_window_shown_timeline (self);
  if (timeline == NULL)
    return pv_document_get_model (self->document) != NULL || gtk_widget_get_mapped (GTK_WIDGET (self));
  return pv_timeline_view_get_model (self->timeline) == timeline &&
         pv_timeline_view_get_frames_drawn (self->timeline) > 0;
}

gboolean
pv_window_is_empty (PvWindow *self)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), FALSE);
  return pv_document_get_model (self->document) == NULL && !pv_document_get_loading (self->document);
}

void
pv_window_show_error (PvWindow *self, const char *message)
{
  g_return_if_fail (PV_IS_WINDOW (self));

  g_free (self->error_message);
  self->error_message = g_strdup (message);
  if (message)
    gtk_label_set_text (self->error_label, message);
  gtk_revealer_set_reveal_child (self->error_revealer, message != NULL);
}

const char *
pv_window_get_error (PvWindow *self)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), NULL);
  return self->error_message;
}

gboolean
pv_window_save_partition (PvWindow *self, GFile *file, GError **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (PV_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  pv_partition_editor_flush (self->editor);
  text = pv_partition_editor_dup_text (self->editor);
  if (!pv_document_save_partition (self->document, file, text, error))
    return FALSE;
  pv_partition_editor_set_modified (self->editor, FALSE);
  update_title (self);
  if (self->remember && pv_document_get_file (self->document))
    pv_app_state_remember_model_config (pv_document_get_file (self->document), file);
  return TRUE;
}

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
