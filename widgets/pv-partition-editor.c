/* pv-partition-editor.c: the partition config, as editable JSON: the text,
 * its re-plans and the actions. The findings are pv-partition-editor-findings.c's. */
#include "pv-partition-editor-private.h"

#include <string.h>

#include "pv-json-layout.h"

G_DEFINE_FINAL_TYPE (PvPartitionEditor, pv_partition_editor, PV_TYPE_SIDE_PAGE)

GtkWidget *
pv_partition_editor_new (void)
{
  return g_object_new (PV_TYPE_PARTITION_EDITOR, NULL);
}

/* ---- text ---- */

char *
pv_partition_editor_dup_text (PvPartitionEditor *self)
{
  GtkTextIter start, end;

  g_return_val_if_fail (PV_IS_PARTITION_EDITOR (self), NULL);

  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (self->buffer), &start, &end);
  return gtk_text_buffer_get_text (GTK_TEXT_BUFFER (self->buffer), &start, &end, TRUE);
}

/* Replaces the whole text: as one undoable user action, or (@undoable
 * FALSE) without undo history and without re-planning. */
static void
replace_text (PvPartitionEditor *self, const char *text, gboolean undoable)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  GtkTextIter start;
  int line = 0;

  /* GtkSourceView gives up on a long line with a critical: no colours for
   * such a text (the document reformats ORT's one-line configs). */
  gtk_source_buffer_set_highlight_syntax (self->buffer, !pv_partition_text_has_long_line (text));
  if (undoable)
    {
      GtkTextIter cursor;
      gtk_text_buffer_get_iter_at_mark (buffer, &cursor, gtk_text_buffer_get_insert (buffer));
      line = gtk_text_iter_get_line (&cursor);
      GtkTextIter end;
      /* set_text() is irreversible by design; delete + insert is undoable. */
      gtk_text_buffer_get_bounds (buffer, &start, &end);
      gtk_text_buffer_begin_user_action (buffer);
      gtk_text_buffer_delete (buffer, &start, &end);
      gtk_text_buffer_insert (buffer, &start, text, -1);
      gtk_text_buffer_end_user_action (buffer);
    }
  else
    {
      /* set_text() is irreversible: loading leaves no undo history. */
      self->setting_text = TRUE;
      gtk_text_buffer_set_text (buffer, text, -1);
      self->setting_text = FALSE;
    }
  gtk_text_buffer_get_iter_at_line (buffer, &start, MIN (line, gtk_text_buffer_get_line_count (buffer) - 1));
  gtk_text_buffer_place_cursor (buffer, &start);
}

/* ---- re-planning ---- */

static gboolean
replan_pending (PvPartitionEditor *self)
{
  return g_source_get_ready_time (self->replan_source) != -1;
}

static void
update_actions (PvPartitionEditor *self, const char *text)
{
  PvDocument *document = editor_document (self);
  gboolean loaded = document && pv_document_get_model (document);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "editor.format", loaded && pv_json_is_valid (text));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "editor.reset", loaded);
}

static void
replan_now (PvPartitionEditor *self)
{
  PvDocument *document = editor_document (self);
  g_autofree char *text = pv_partition_editor_dup_text (self);

  g_source_set_ready_time (self->replan_source, -1);
  update_actions (self, text);
  if (document == NULL || pv_document_get_model (document) == NULL)
    return;
  pv_document_set_partition_text (document, text);
  /* Unchanged text plans nothing; the findings may still need placing. */
  _pv_partition_editor_update_findings (self);
}

static gboolean
replan_dispatch (GSource *source, GSourceFunc callback, gpointer user_data)
{
  g_source_set_ready_time (source, -1);
  return callback (user_data);
}

static GSourceFuncs replan_source_funcs = {
  .dispatch = replan_dispatch,
};

static gboolean
replan_cb (gpointer user_data)
{
  replan_now (PV_PARTITION_EDITOR (user_data));
  return G_SOURCE_CONTINUE;
}

/* A long line typed or pasted turns highlighting off before GtkSourceView
 * chokes on it; replace_text() decides again for a whole new text. */
static void
buffer_insert_text_cb (GtkTextBuffer *buffer, GtkTextIter *where, const char *text, int len, gpointer user_data)
{
  PvPartitionEditor *self = user_data;
  g_autofree char *chunk = NULL;

  if (len <= PV_PARTITION_LONG_LINE || !gtk_source_buffer_get_highlight_syntax (self->buffer))
    return;
  chunk = g_strndup (text, len);
  if (pv_partition_text_has_long_line (chunk))
    gtk_source_buffer_set_highlight_syntax (self->buffer, FALSE);
}

static void
buffer_changed_cb (PvPartitionEditor *self, GtkTextBuffer *buffer)
{
  if (self->setting_text)
    return;
  g_source_set_ready_time (self->replan_source, g_get_monotonic_time () + PV_PARTITION_EDITOR_DELAY_MS * 1000);
}

void
pv_partition_editor_flush (PvPartitionEditor *self)
{
  g_return_if_fail (PV_IS_PARTITION_EDITOR (self));

  if (replan_pending (self))
    replan_now (self);
  if (editor_document (self))
    pv_document_plan_now (editor_document (self));
}

gboolean
pv_partition_editor_get_pending (PvPartitionEditor *self)
{
  g_return_val_if_fail (PV_IS_PARTITION_EDITOR (self), FALSE);
  return replan_pending (self);
}

/* ---- document ---- */

static void
update_file_label (PvPartitionEditor *self)
{
  PvDocument *document = editor_document (self);
  GFile *file = document ? pv_document_get_partition_file (document) : NULL;

  if (file)
    {
      g_autofree char *name = g_file_get_basename (file);
      g_autofree char *path = g_file_get_parse_name (file);
      gtk_label_set_text (self->file_label, name);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->file_label), path);
    }
  else
    {
      gtk_label_set_text (self->file_label, "ONNX Runtime's default");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->file_label),
                                   "The config ONNX Runtime writes when none is given; not saved yet");
    }
}

static void
document_loaded_cb (PvPartitionEditor *self, PvDocument *document)
{
  const char *text = pv_document_get_partition_text (document);

  g_source_set_ready_time (self->replan_source, -1);
  replace_text (self, text, FALSE);
  gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (self->buffer), FALSE);
  update_file_label (self);
  update_actions (self, text);
}

void
pv_partition_editor_reload (PvPartitionEditor *self)
{
  g_return_if_fail (PV_IS_PARTITION_EDITOR (self));

  if (editor_document (self) == NULL)
    return;
  document_loaded_cb (self, editor_document (self));
  _pv_partition_editor_update_findings (self);
}

static void
document_plan_changed_cb (PvPartitionEditor *self, PvDocument *document)
{
  _pv_partition_editor_update_findings (self);
}

/* A plan installed while another one still ran (a load during a re-plan)
 * skipped its findings: place them once nothing runs. */
static void
document_planning_cb (PvPartitionEditor *self, GParamSpec *pspec, PvDocument *document)
{
  if (!pv_document_get_planning (document) && self->findings_plan != pv_document_get_n_plans (document))
    _pv_partition_editor_update_findings (self);
}

static void
document_partition_file_cb (PvPartitionEditor *self, GParamSpec *pspec, PvDocument *document)
{
  update_file_label (self);
}

static void
pv_partition_editor_document_changed (PvSidePage *page)
{
  PvPartitionEditor *self = PV_PARTITION_EDITOR (page);
  PvDocument *document = pv_side_page_get_document (page);

  if (document && pv_document_get_model (document))
    document_loaded_cb (self, document);
  update_file_label (self);
  _pv_partition_editor_update_findings (self);
}

/* ---- actions ---- */

static void
format_action (GtkWidget *widget, const char *name, GVariant *param)
{
  if (!pv_partition_editor_format (PV_PARTITION_EDITOR (widget), g_variant_get_boolean (param)))
    gtk_widget_error_bell (widget);
}

static void
reset_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_partition_editor_reset (PV_PARTITION_EDITOR (widget));
}

/* ---- GObject ---- */

static void
pv_partition_editor_dispose (GObject *object)
{
  PvPartitionEditor *self = (PvPartitionEditor *) object;
  GtkWidget *child;

  if (self->replan_source)
    {
      g_source_destroy (self->replan_source);
      g_clear_pointer (&self->replan_source, g_source_unref);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), PV_TYPE_PARTITION_EDITOR);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (pv_partition_editor_parent_class)->dispose (object);
}

static void
pv_partition_editor_class_init (PvPartitionEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pv_partition_editor_dispose;
  PV_SIDE_PAGE_CLASS (klass)->document_changed = pv_partition_editor_document_changed;

  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/planviz/Planviz/ui/pv-partition-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, PvPartitionEditor, file_label);
  gtk_widget_class_bind_template_child (widget_class, PvPartitionEditor, view);
  gtk_widget_class_bind_template_child (widget_class, PvPartitionEditor, status_box);
  gtk_widget_class_bind_template_child (widget_class, PvPartitionEditor, status_icon);
  gtk_widget_class_bind_template_child (widget_class, PvPartitionEditor, status_label);
  gtk_widget_class_bind_template_child (widget_class, PvPartitionEditor, findings_scroller);
  gtk_widget_class_bind_template_child (widget_class, PvPartitionEditor, findings_list);
  gtk_widget_class_bind_template_callback_full (widget_class, "finding_row_activated_cb",
                                                G_CALLBACK (_pv_partition_editor_finding_row_activated_cb));

  gtk_widget_class_install_action (widget_class, "editor.format", "b", format_action);
  gtk_widget_class_install_action (widget_class, "editor.reset", NULL, reset_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "pvpartitioneditor");
}

static void
pv_partition_editor_init (PvPartitionEditor *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme (schemes, "Adwaita");
  GSignalGroup *document_signals = pv_side_page_get_document_signals (PV_SIDE_PAGE (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  gtk_widget_init_template (GTK_WIDGET (self));

  self->buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view)));
  gtk_source_buffer_set_language (self->buffer, gtk_source_language_manager_get_language (languages, "json"));
  gtk_source_buffer_set_highlight_matching_brackets (self->buffer, TRUE);
  if (scheme)
    gtk_source_buffer_set_style_scheme (self->buffer, scheme);

  _pv_partition_editor_findings_init (self);

  g_signal_connect_object (self->buffer, "changed", G_CALLBACK (buffer_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->buffer, "insert-text", G_CALLBACK (buffer_insert_text_cb), self, 0);

  g_signal_group_connect_swapped (document_signals, "loaded", G_CALLBACK (document_loaded_cb), self);
  g_signal_group_connect_swapped (document_signals, "plan-changed", G_CALLBACK (document_plan_changed_cb), self);
  g_signal_group_connect_swapped (document_signals, "notify::partition-file", G_CALLBACK (document_partition_file_cb),
                                  self);
  g_signal_group_connect_swapped (document_signals, "notify::planning", G_CALLBACK (document_planning_cb), self);

  self->replan_source = g_source_new (&replan_source_funcs, sizeof (GSource));
  g_source_set_name (self->replan_source, "pv-partition-replan");
  g_source_set_callback (self->replan_source, replan_cb, self, NULL);
  g_source_set_ready_time (self->replan_source, -1);
  g_source_attach (self->replan_source, NULL);

  update_actions (self, "");
  update_file_label (self);
  _pv_partition_editor_update_findings (self);
}

/* ---- public API ---- */

GtkSourceBuffer *
pv_partition_editor_get_buffer (PvPartitionEditor *self)
{
  g_return_val_if_fail (PV_IS_PARTITION_EDITOR (self), NULL);
  return self->buffer;
}

GtkSourceView *
pv_partition_editor_get_view (PvPartitionEditor *self)
{
  g_return_val_if_fail (PV_IS_PARTITION_EDITOR (self), NULL);
  return self->view;
}

gboolean
pv_partition_editor_get_modified (PvPartitionEditor *self)
{
  g_return_val_if_fail (PV_IS_PARTITION_EDITOR (self), FALSE);
  return gtk_text_buffer_get_modified (GTK_TEXT_BUFFER (self->buffer));
}

void
pv_partition_editor_set_modified (PvPartitionEditor *self, gboolean modified)
{
  g_return_if_fail (PV_IS_PARTITION_EDITOR (self));
  gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (self->buffer), modified);
}

gboolean
pv_partition_editor_format (PvPartitionEditor *self, gboolean pretty)
{
  g_autofree char *text = NULL, *formatted = NULL;

  g_return_val_if_fail (PV_IS_PARTITION_EDITOR (self), FALSE);

  text = pv_partition_editor_dup_text (self);
  formatted = pv_json_relayout (text, pretty);
  if (formatted == NULL)
    return FALSE;
  if (strcmp (formatted, text) != 0)
    {
      replace_text (self, formatted, TRUE);
      replan_now (self);
    }
  return TRUE;
}

void
pv_partition_editor_reset (PvPartitionEditor *self)
{
  g_autofree char *text = NULL, *current = NULL;

  g_return_if_fail (PV_IS_PARTITION_EDITOR (self));

  if (editor_document (self) == NULL
      || (text = pv_document_dup_default_partition (editor_document (self), TRUE)) == NULL)
    return;
  current = pv_partition_editor_dup_text (self);
  if (strcmp (current, text) != 0)
    {
      replace_text (self, text, TRUE);
      replan_now (self);
    }
}

gboolean
pv_partition_editor_move_nodes (PvPartitionEditor *self, const char *const *nodes, int stream, GError **error)
{
  return pv_partition_editor_move_nodes_to_device (self, nodes, stream, -1, error);
}

gboolean
pv_partition_editor_move_nodes_to_device (PvPartitionEditor *self, const char *const *nodes, int stream, int device,
                                          GError **error)
{
  g_autofree char *text = NULL, *moved = NULL;
  g_autofree char *device_text = device >= 0 ? g_strdup_printf ("%d", device) : NULL;
  PvDocument *document;
  const PvModel *model;

  g_return_val_if_fail (PV_IS_PARTITION_EDITOR (self), FALSE);
  g_return_val_if_fail (nodes != NULL, FALSE);

  document = editor_document (self);
  model = document ? pv_document_get_model (document) : NULL;
  if (model == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "No model is open");
      return FALSE;
    }
  /* A keystroke still waiting for its re-plan counts. */
  pv_partition_editor_flush (self);
  text = pv_partition_editor_dup_text (self);
  /* No node devices: a config without streams is ORT's default, which puts
   * every node on the CPU (the document's GPU nodes are those of "1"
   * streams). */
  if (!pv_partition_config_move_nodes (model->graph, NULL, text, strlen (text), nodes, stream, device_text, &moved,
                                       error))
    return FALSE;
  /* The timeline then shows an older plan: its stream numbers need not be
   * the text's. */
  if (pv_document_get_stale (document))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "The partition config has errors (listed under the editor), so the timeline shows an "
                           "older plan whose streams may not match the text. Fix the config first.");
      return FALSE;
    }
  if (strcmp (moved, text) != 0)
    replace_text (self, moved, TRUE);
  replan_now (self);
  return TRUE;
}

guint
pv_partition_editor_count_marks (PvPartitionEditor *self, const char *category)
{
  GtkTextIter iter;
  guint n = 0;

  g_return_val_if_fail (PV_IS_PARTITION_EDITOR (self), 0);

  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (self->buffer), &iter);
  for (int line = 0; line < gtk_text_buffer_get_line_count (GTK_TEXT_BUFFER (self->buffer)); line++)
    {
      GSList *marks = gtk_source_buffer_get_source_marks_at_line (self->buffer, line, category);
      n += g_slist_length (marks);
      g_slist_free (marks);
    }
  return n;
}
