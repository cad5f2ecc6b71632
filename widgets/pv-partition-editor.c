/* pv-partition-editor.c: the partition config, as editable JSON. */
#include "pv-partition-editor.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

struct _PvPartitionEditor
{
  GtkWidget parent_instance;

  PvDocument *document;
  GSignalGroup *document_signals; /* loaded, plan-changed, notify::partition-file, notify::planning */
  GtkSourceBuffer *buffer;
  GtkTextTag *error_tag;
  GtkTextTag *warning_tag;
  /* One source for the editor's life: each keystroke pushes its ready
   * time out by the delay; it fires once typing stops. */
  GSource *replan_source;

  /* template children */
  GtkLabel *file_label;
  GtkSourceView *view;
  GtkWidget *status_box;
  GtkImage *status_icon;
  GtkLabel *status_label;
  GtkWidget *findings_scroller;
  GtkListBox *findings_list;

  guint findings_plan;        /* the document's n_plans the findings are of */
  guint setting_text : 1;
};

G_DEFINE_FINAL_TYPE (PvPartitionEditor, pv_partition_editor, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DOCUMENT,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

GtkWidget *
pv_partition_editor_new (void)
{
  return g_object_new (PV_TYPE_PARTITION_EDITOR, NULL);
}

/* ---- JSON layout ---- */

static void
write_json_string (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    switch (*p)
      {
      case '"': g_string_append (out, "\\\""); break;
      case '\\': g_string_append (out, "\\\\"); break;
      case '\b': g_string_append (out, "\\b"); break;
      case '\f': g_string_append (out, "\\f"); break;
      case '\n': g_string_append (out, "\\n"); break;
      case '\r': g_string_append (out, "\\r"); break;
      case '\t': g_string_append (out, "\\t"); break;
      default:
        if (*p < 0x20)
          g_string_append_printf (out, "\\u%04x", *p);
        else
          g_string_append_c (out, (char) *p);
      }
  g_string_append_c (out, '"');
}

static void
indent (GString *out, int depth)
{
  for (int i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

/* nlohmann::json's dump(2) layout when @pretty, dump() otherwise; keys keep
 * the order they have in the text. */
static void
write_json (GString *out, const cJSON *item, gboolean pretty, int depth)
{
  if (cJSON_IsObject (item) || cJSON_IsArray (item))
    {
      gboolean object = cJSON_IsObject (item);
      const cJSON *child = item->child;

      g_string_append_c (out, object ? '{' : '[');
      if (child == NULL)
        {
          g_string_append_c (out, object ? '}' : ']');
          return;
        }
      for (; child; child = child->next)
        {
          if (pretty)
            {
              g_string_append_c (out, '\n');
              indent (out, depth + 1);
            }
          if (object)
            {
              write_json_string (out, child->string ? child->string : "");
              g_string_append (out, pretty ? ": " : ":");
            }
          write_json (out, child, pretty, depth + 1);
          if (child->next)
            g_string_append_c (out, ',');
        }
      if (pretty)
        {
          g_string_append_c (out, '\n');
          indent (out, depth);
        }
      g_string_append_c (out, object ? '}' : ']');
    }
  else if (cJSON_IsString (item))
    write_json_string (out, item->valuestring ? item->valuestring : "");
  else if (cJSON_IsNumber (item))
    {
      double v = item->valuedouble;
      if (v == floor (v) && fabs (v) < 1e15)
        g_string_append_printf (out, "%.0f", v);
      else
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];
          g_string_append (out, g_ascii_dtostr (buf, sizeof buf, v));
        }
    }
  else if (cJSON_IsTrue (item))
    g_string_append (out, "true");
  else if (cJSON_IsFalse (item))
    g_string_append (out, "false");
  else
    g_string_append (out, "null");
}

/* The text laid out anew, or NULL when it is not JSON. */
static char *
reformat_json (const char *text, gboolean pretty)
{
  cJSON *root = cJSON_Parse (text);
  GString *out;

  if (root == NULL)
    return NULL;
  out = g_string_new (NULL);
  write_json (out, root, pretty, 0);
  if (pretty)
    g_string_append_c (out, '\n');
  cJSON_Delete (root);
  return g_string_free (out, FALSE);
}

static gboolean
is_json (const char *text)
{
  cJSON *root = cJSON_Parse (text);
  gboolean ok = root != NULL;
  cJSON_Delete (root);
  return ok;
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

/* ---- findings ---- */

static char *
mark_tooltip_cb (GtkSourceMarkAttributes *attributes, GtkSourceMark *mark, gpointer user_data)
{
  return g_utf8_make_valid (g_object_get_data (G_OBJECT (mark), "pv-message"), -1);
}

static void
clear_findings (PvPartitionEditor *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  GtkTextIter start, end;
  GtkWidget *child;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_source_buffer_remove_source_marks (self->buffer, &start, &end, PV_PARTITION_MARK_ERROR);
  gtk_source_buffer_remove_source_marks (self->buffer, &start, &end, PV_PARTITION_MARK_WARNING);
  gtk_text_buffer_remove_tag (buffer, self->error_tag, &start, &end);
  gtk_text_buffer_remove_tag (buffer, self->warning_tag, &start, &end);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->findings_list))))
    gtk_list_box_remove (self->findings_list, child);
}

/* The iter at a finding's 1-based line and column (in characters), clamped
 * to the text. */
static void
iter_at_finding (PvPartitionEditor *self, const PvPartitionFinding *finding, GtkTextIter *iter)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  int line = MAX (finding->line, 1) - 1;
  int column = MAX (finding->column, 1) - 1;

  if (!gtk_text_buffer_get_iter_at_line (buffer, iter, line))
    return;
  if (column > gtk_text_iter_get_chars_in_line (iter))
    column = gtk_text_iter_get_chars_in_line (iter);
  gtk_text_buffer_get_iter_at_line_offset (buffer, iter, line, column);
}

static gboolean
is_word_char (gunichar c, gpointer user_data)
{
  return !(g_unichar_isalnum (c) || c == '_' || c == '-' || c == '+' || c == '.');
}

/* The token starting at @start: a string with its quotes, a word or number,
 * or one character. An iter at the end of a line underlines the character
 * before it. */
static void
token_extent (GtkTextIter *start, GtkTextIter *end)
{
  gunichar c;

  if (gtk_text_iter_ends_line (start) && !gtk_text_iter_starts_line (start))
    gtk_text_iter_backward_char (start);
  *end = *start;
  c = gtk_text_iter_get_char (start);
  if (c == '"')
    {
      gboolean escaped = FALSE;
      gtk_text_iter_forward_char (end);
      while (!gtk_text_iter_ends_line (end))
        {
          gunichar d = gtk_text_iter_get_char (end);
          gtk_text_iter_forward_char (end);
          if (escaped)
            escaped = FALSE;
          else if (d == '\\')
            escaped = TRUE;
          else if (d == '"')
            break;
        }
    }
  else if (!is_word_char (c, NULL))
    gtk_text_iter_forward_find_char (end, is_word_char, NULL, NULL);
  else if (!gtk_text_iter_ends_line (end))
    gtk_text_iter_forward_char (end);
}

static void
finding_row_activated_cb (PvPartitionEditor *self, GtkListBoxRow *row, GtkListBox *list)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  GtkTextIter iter;
  PvPartitionFinding finding = { 0 };

  finding.line = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), "pv-line"));
  finding.column = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), "pv-column"));
  iter_at_finding (self, &finding, &iter);
  gtk_text_buffer_place_cursor (buffer, &iter);
  gtk_text_view_scroll_to_iter (GTK_TEXT_VIEW (self->view), &iter, 0.2, FALSE, 0, 0);
  gtk_widget_grab_focus (GTK_WIDGET (self->view));
}

static GtkWidget *
finding_row_new (const PvPartitionFinding *finding)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gboolean error = finding->severity == PV_FINDING_ERROR;
  GtkWidget *icon = gtk_image_new_from_icon_name (error ? "planviz-error" : "planviz-warning");
  g_autofree char *where = g_strdup_printf ("%d:%d", finding->line, finding->column);
  GtkWidget *location = gtk_label_new (where);
  /* ORT's messages quote the bytes it read, which may end inside a
   * character: labels need UTF-8. */
  g_autofree char *valid_message = g_utf8_make_valid (finding->message, -1);
  GtkWidget *message = gtk_label_new (valid_message);

  gtk_widget_add_css_class (icon, error ? "error" : "warning");
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_widget_add_css_class (location, "pv-location");
  gtk_widget_add_css_class (location, "dim-label");
  gtk_widget_set_valign (location, GTK_ALIGN_START);
  gtk_label_set_xalign (GTK_LABEL (location), 1);
  gtk_label_set_width_chars (GTK_LABEL (location), 5);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (message), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (message), 0);
  gtk_widget_set_hexpand (message, TRUE);
  gtk_box_append (GTK_BOX (text), message);
  if (finding->ort && *finding->ort)
    {
      g_autofree char *ort_valid = g_utf8_make_valid (finding->ort, -1);
      g_autofree char *ort_text = g_strdup_printf ("ONNX Runtime %s", ort_valid);
      GtkWidget *ort = gtk_label_new (ort_text);
      gtk_label_set_wrap (GTK_LABEL (ort), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (ort), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_xalign (GTK_LABEL (ort), 0);
      gtk_widget_add_css_class (ort, "dim-label");
      gtk_widget_add_css_class (ort, "caption");
      gtk_box_append (GTK_BOX (text), ort);
    }
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), location);
  gtk_box_append (GTK_BOX (box), text);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_widget_set_tooltip_text (row, "Go to this place in the config");
  g_object_set_data (G_OBJECT (row), "pv-line", GINT_TO_POINTER (finding->line));
  g_object_set_data (G_OBJECT (row), "pv-column", GINT_TO_POINTER (finding->column));
  return row;
}

static void
add_finding (PvPartitionEditor *self, const PvPartitionFinding *finding)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  gboolean error = finding->severity == PV_FINDING_ERROR;
  GtkTextIter start, end, line_start;
  GtkSourceMark *mark;

  iter_at_finding (self, finding, &start);
  line_start = start;
  gtk_text_iter_set_line_offset (&line_start, 0);
  mark = gtk_source_buffer_create_source_mark (self->buffer, NULL,
                                               error ? PV_PARTITION_MARK_ERROR : PV_PARTITION_MARK_WARNING,
                                               &line_start);
  g_object_set_data_full (G_OBJECT (mark), "pv-message",
                          finding->ort && *finding->ort
                            ? g_strdup_printf ("%s\nONNX Runtime %s", finding->message, finding->ort)
                            : g_strdup (finding->message),
                          g_free);
  token_extent (&start, &end);
  if (!gtk_text_iter_equal (&start, &end))
    gtk_text_buffer_apply_tag (buffer, error ? self->error_tag : self->warning_tag, &start, &end);
  gtk_list_box_append (self->findings_list, finding_row_new (finding));
}

static void
set_status (PvPartitionEditor *self, const char *icon_name, const char *css_class, const char *text)
{
  static const char *const classes[] = { "error", "warning", "success" };
  /* ORT's messages quote the bytes it read, maybe part of a character. */
  g_autofree char *valid = g_utf8_make_valid (text, -1);

  gtk_image_set_from_icon_name (self->status_icon, icon_name);
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    gtk_widget_remove_css_class (self->status_box, classes[i]);
  if (css_class)
    gtk_widget_add_css_class (self->status_box, css_class);
  gtk_label_set_text (self->status_label, valid);
}

static void
update_findings (PvPartitionEditor *self)
{
  const PvSession *session;
  const PvPartitionCheck *check;
  g_autofree char *text = NULL;
  g_autoptr (GString) status = NULL;
  const char *icon = "emblem-ok-symbolic", *css = "success";

  if (self->document == NULL || pv_document_get_model (self->document) == NULL)
    {
      clear_findings (self);
      set_status (self, "document-open-symbolic", NULL, "Open a model to edit its partition config.");
      gtk_widget_set_visible (self->findings_scroller, FALSE);
      return;
    }
  /* Findings place themselves by line and column of the text they were
   * made for; while newer text waits for its re-plan, keep the old ones. */
  text = pv_partition_editor_dup_text (self);
  if (g_strcmp0 (text, pv_document_get_partition_text (self->document)) != 0 ||
      pv_document_get_planning (self->document))
    return;

  clear_findings (self);
  self->findings_plan = pv_document_get_n_plans (self->document);
  session = pv_document_get_session (self->document);
  check = session ? session->partition_check : NULL;
  status = g_string_new (NULL);

  if (session == NULL)
    {
      const GError *error = pv_document_get_plan_error (self->document);
      icon = "planviz-error";
      css = "error";
      g_string_append (status, error ? error->message : "planviz cannot plan this model.");
    }
  else
    {
      if (check)
        {
          for (int i = 0; i < check->n_findings; i++)
            add_finding (self, &check->findings[i]);
          g_string_append (status, check->summary);
          if (check->verdict == PV_ORT_REJECTS || check->verdict == PV_ORT_CRASHES ||
              pv_partition_check_has_errors (check))
            {
              icon = "planviz-error";
              css = "error";
            }
          else if (check->n_findings > 0 || check->verdict == PV_ORT_DISCARDS)
            {
              icon = "planviz-warning";
              css = "warning";
            }
        }
      if (session->ort == NULL && session->ort_error && (check == NULL || check->verdict == PV_ORT_ACCEPTS))
        {
          icon = "planviz-error";
          css = "error";
          if (status->len)
            g_string_append_c (status, '\n');
          g_string_append (status, session->ort_error);
        }
    }
  if (pv_document_get_stale (self->document))
    g_string_append (status, status->len ? "\nThe timeline shows the last valid plan until the config is fixed."
                                         : "The timeline shows the last valid plan until the config is fixed.");
  set_status (self, icon, css, status->str);
  gtk_widget_set_visible (self->findings_scroller, gtk_widget_get_first_child (GTK_WIDGET (self->findings_list)) != NULL);
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
  gboolean loaded = self->document && pv_document_get_model (self->document);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "editor.format", loaded && is_json (text));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "editor.reset", loaded);
}

static void
replan_now (PvPartitionEditor *self)
{
  g_autofree char *text = pv_partition_editor_dup_text (self);

  g_source_set_ready_time (self->replan_source, -1);
  update_actions (self, text);
  if (self->document == NULL || pv_document_get_model (self->document) == NULL)
    return;
  pv_document_set_partition_text (self->document, text);
  /* Unchanged text plans nothing; the findings may still need placing. */
  update_findings (self);
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
  if (self->document)
    pv_document_plan_now (self->document);
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
  GFile *file = self->document ? pv_document_get_partition_file (self->document) : NULL;

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

  if (self->document == NULL)
    return;
  document_loaded_cb (self, self->document);
  update_findings (self);
}

static void
document_plan_changed_cb (PvPartitionEditor *self, PvDocument *document)
{
  update_findings (self);
}

/* A plan installed while another one still ran (a load during a re-plan)
 * skipped its findings: place them once nothing runs. */
static void
document_planning_cb (PvPartitionEditor *self, GParamSpec *pspec, PvDocument *document)
{
  if (!pv_document_get_planning (document) && self->findings_plan != pv_document_get_n_plans (document))
    update_findings (self);
}

static void
document_partition_file_cb (PvPartitionEditor *self, GParamSpec *pspec, PvDocument *document)
{
  update_file_label (self);
}

PvDocument *
pv_partition_editor_get_document (PvPartitionEditor *self)
{
  g_return_val_if_fail (PV_IS_PARTITION_EDITOR (self), NULL);
  return self->document;
}

void
pv_partition_editor_set_document (PvPartitionEditor *self, PvDocument *document)
{
  g_return_if_fail (PV_IS_PARTITION_EDITOR (self));
  g_return_if_fail (document == NULL || PV_IS_DOCUMENT (document));

  if (!g_set_object (&self->document, document))
    return;
  g_signal_group_set_target (self->document_signals, document);
  if (document && pv_document_get_model (document))
    document_loaded_cb (self, document);
  update_file_label (self);
  update_findings (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
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
  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);
  gtk_widget_dispose_template (GTK_WIDGET (self), PV_TYPE_PARTITION_EDITOR);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (pv_partition_editor_parent_class)->dispose (object);
}

static void
pv_partition_editor_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  PvPartitionEditor *self = PV_PARTITION_EDITOR (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT: g_value_set_object (value, self->document); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pv_partition_editor_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  PvPartitionEditor *self = PV_PARTITION_EDITOR (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT: pv_partition_editor_set_document (self, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pv_partition_editor_class_init (PvPartitionEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pv_partition_editor_dispose;
  object_class->get_property = pv_partition_editor_get_property;
  object_class->set_property = pv_partition_editor_set_property;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, PV_TYPE_DOCUMENT,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/planviz/Planviz/ui/pv-partition-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, PvPartitionEditor, file_label);
  gtk_widget_class_bind_template_child (widget_class, PvPartitionEditor, view);
  gtk_widget_class_bind_template_child (widget_class, PvPartitionEditor, status_box);
  gtk_widget_class_bind_template_child (widget_class, PvPartitionEditor, status_icon);
  gtk_widget_class_bind_template_child (widget_class, PvPartitionEditor, status_label);
  gtk_widget_class_bind_template_child (widget_class, PvPartitionEditor, findings_scroller);
  gtk_widget_class_bind_template_child (widget_class, PvPartitionEditor, findings_list);
  gtk_widget_class_bind_template_callback (widget_class, finding_row_activated_cb);

  gtk_widget_class_install_action (widget_class, "editor.format", "b", format_action);
  gtk_widget_class_install_action (widget_class, "editor.reset", NULL, reset_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "pvpartitioneditor");
}

static void
add_mark_attributes (PvPartitionEditor *self, const char *category, const char *icon, const char *background,
                     int priority)
{
  g_autoptr (GtkSourceMarkAttributes) attributes = gtk_source_mark_attributes_new ();
  GdkRGBA rgba;

  gtk_source_mark_attributes_set_icon_name (attributes, icon);
  gdk_rgba_parse (&rgba, background);
  gtk_source_mark_attributes_set_background (attributes, &rgba);
  g_signal_connect (attributes, "query-tooltip-text", G_CALLBACK (mark_tooltip_cb), NULL);
  gtk_source_view_set_mark_attributes (self->view, category, attributes, priority);
}

static void
pv_partition_editor_init (PvPartitionEditor *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme (schemes, "Adwaita");
  GdkRGBA red, orange;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  gtk_widget_init_template (GTK_WIDGET (self));

  self->buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view)));
  gtk_source_buffer_set_language (self->buffer, gtk_source_language_manager_get_language (languages, "json"));
  gtk_source_buffer_set_highlight_matching_brackets (self->buffer, TRUE);
  if (scheme)
    gtk_source_buffer_set_style_scheme (self->buffer, scheme);

  gdk_rgba_parse (&red, "#e01b24");
  gdk_rgba_parse (&orange, "#e5a50a");
  self->error_tag = gtk_text_buffer_create_tag (GTK_TEXT_BUFFER (self->buffer), NULL,
                                                "underline", PANGO_UNDERLINE_ERROR,
                                                "underline-rgba", &red, NULL);
  self->warning_tag = gtk_text_buffer_create_tag (GTK_TEXT_BUFFER (self->buffer), NULL,
                                                  "underline", PANGO_UNDERLINE_ERROR,
                                                  "underline-rgba", &orange, NULL);
  add_mark_attributes (self, PV_PARTITION_MARK_ERROR, "planviz-error", "rgba(224,27,36,0.10)", 20);
  add_mark_attributes (self, PV_PARTITION_MARK_WARNING, "planviz-warning", "rgba(229,165,10,0.12)", 10);

  g_signal_connect_object (self->buffer, "changed", G_CALLBACK (buffer_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->buffer, "insert-text", G_CALLBACK (buffer_insert_text_cb), self, 0);

  self->document_signals = g_signal_group_new (PV_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "loaded", G_CALLBACK (document_loaded_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "plan-changed", G_CALLBACK (document_plan_changed_cb),
                                  self);
  g_signal_group_connect_swapped (self->document_signals, "notify::partition-file",
                                  G_CALLBACK (document_partition_file_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::planning", G_CALLBACK (document_planning_cb),
                                  self);

  self->replan_source = g_source_new (&replan_source_funcs, sizeof (GSource));
  g_source_set_name (self->replan_source, "pv-partition-replan");
  g_source_set_callback (self->replan_source, replan_cb, self, NULL);
  g_source_set_ready_time (self->replan_source, -1);
  g_source_attach (self->replan_source, NULL);

  update_actions (self, "");
  update_file_label (self);
  update_findings (self);
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
  formatted = reformat_json (text, pretty);
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

  if (self->document == NULL || (text = pv_document_dup_default_partition (self->document, TRUE)) == NULL)
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
  const PvModel *model;

  g_return_val_if_fail (PV_IS_PARTITION_EDITOR (self), FALSE);
  g_return_val_if_fail (nodes != NULL, FALSE);

  model = self->document ? pv_document_get_model (self->document) : NULL;
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
  if (pv_document_get_stale (self->document))
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
