/* pv-window.c: the main window: title, pages, planner and registry
 * choices, the document's signals, the view toggles and the public API.
 * Each other concern is a pv-window-*.c (actions, bounds, loading, recent
 * models, screenshots, subgraphs, Live, find, compare, symbols, devices,
 * progress, state). */
#include "pv-window-private.h"

#include <math.h>
#include <string.h>

#include "pv-app-state.h"

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

/* The view toggles: boolean properties, each the state of a "win." action
 * of its name (the main menu's check items), and their defaults. */
static const struct {
  const char *name;
  gboolean on;
} toggles[N_PROPS] = {
  [PROP_COLOUR_BY_KIND] = { "colour-by-kind", FALSE },
  [PROP_SHOW_TRIGGER_ARROWS] = { "show-trigger-arrows", TRUE },
  [PROP_SHOW_NOTIFY_ARROWS] = { "show-notify-arrows", TRUE },
  [PROP_SHOW_REUSE_LINKS] = { "show-reuse-links", TRUE },
  [PROP_SHOW_SIDE_PANE] = { "show-side-pane", TRUE },
};


PvWindow *
pv_window_new (GtkApplication *application, gboolean remember)
{
  PvWindow *self = g_object_new (PV_TYPE_WINDOW, "application", application, NULL);

  self->remember = remember;
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

void
_pv_window_update_page (PvWindow *self)
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

/* ---- document signals ---- */

static void
document_loading_cb (PvWindow *self, GParamSpec *pspec, PvDocument *document)
{
  _pv_window_update_page (self);
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
  _pv_window_rebuild_bounds (self);
  update_title (self);
  _pv_window_update_page (self);
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
  _pv_window_sync_bounds (self);
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

/* ---- the error bar ---- */

/* Its link that loads a model over the node limit (pv-window-load.c). */
static gboolean
error_link_cb (GtkLabel *label, const char *uri, PvWindow *self)
{
  if (g_strcmp0 (uri, PV_WINDOW_OPEN_ANYWAY_URI) != 0)
    return FALSE;
  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-anyway", NULL);
  return TRUE;
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
      g_value_set_boolean (value, toggles[prop_id].on);
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

  for (guint p = PROP_0 + 1; p < N_PROPS; p++)
    properties[p] = g_param_spec_boolean (toggles[p].name, NULL, NULL, toggles[p].on,
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

  for (guint p = PROP_0 + 1; p < N_PROPS; p++)
    {
      g_autofree char *action = g_strconcat ("win.", toggles[p].name, NULL);
      gtk_widget_class_install_property_action (widget_class, action, toggles[p].name);
    }
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
  g_signal_connect_object (self->document, "symbols-changed", G_CALLBACK (_pv_window_symbols_changed_cb), self,
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

  pv_side_page_set_document (PV_SIDE_PAGE (self->editor), self->document);
  pv_side_page_set_document (PV_SIDE_PAGE (self->summary), self->document);
  /* Both follow (and set) the timeline's selection; neither switches pages. */
  pv_side_page_set_timeline (PV_SIDE_PAGE (self->inspector), self->timeline);
  pv_side_page_set_document (PV_SIDE_PAGE (self->inspector), self->document);
  pv_side_page_set_timeline (PV_SIDE_PAGE (self->values), self->timeline);
  pv_values_menu_attach (self->values);
  pv_side_page_set_document (PV_SIDE_PAGE (self->values), self->document);
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
  _pv_window_rebuild_bounds (self);
  update_title (self);
  _pv_window_update_page (self);
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
