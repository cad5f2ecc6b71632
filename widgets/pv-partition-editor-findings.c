/* pv-partition-editor-findings.c: what the partition check found, shown
 * in the editor: icons in the gutter, underlines at the line and column at
 * fault, a list under the text and a status line. */
#include "pv-partition-editor-private.h"

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

void
_pv_partition_editor_finding_row_activated_cb (PvPartitionEditor *self, GtkListBoxRow *row, GtkListBox *list)
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

void
_pv_partition_editor_update_findings (PvPartitionEditor *self)
{
  PvDocument *document = editor_document (self);
  const PvSession *session;
  const PvPartitionCheck *check;
  g_autofree char *text = NULL;
  g_autoptr (GString) status = NULL;
  const char *icon = "emblem-ok-symbolic", *css = "success";

  if (document == NULL || pv_document_get_model (document) == NULL)
    {
      clear_findings (self);
      set_status (self, "document-open-symbolic", NULL, "Open a model to edit its partition config.");
      gtk_widget_set_visible (self->findings_scroller, FALSE);
      return;
    }
  /* Findings place themselves by line and column of the text they were
   * made for; while newer text waits for its re-plan, keep the old ones. */
  text = pv_partition_editor_dup_text (self);
  if (g_strcmp0 (text, pv_document_get_partition_text (document)) != 0 ||
      pv_document_get_planning (document))
    return;

  clear_findings (self);
  self->findings_plan = pv_document_get_n_plans (document);
  session = pv_document_get_session (document);
  check = session ? session->partition_check : NULL;
  status = g_string_new (NULL);

  if (session == NULL)
    {
      const GError *error = pv_document_get_plan_error (document);
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
  if (pv_document_get_stale (document))
    g_string_append (status, status->len ? "\nThe timeline shows the last valid plan until the config is fixed."
                                         : "The timeline shows the last valid plan until the config is fixed.");
  set_status (self, icon, css, status->str);
  gtk_widget_set_visible (self->findings_scroller, gtk_widget_get_first_child (GTK_WIDGET (self->findings_list)) != NULL);
}


/* ---- setting up ---- */

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

void
_pv_partition_editor_findings_init (PvPartitionEditor *self)
{
  GdkRGBA red, orange;

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
}
