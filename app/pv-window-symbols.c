/* pv-window-symbols.c: symbolic dims are never silent. While sizes assume
 * the 1 the document binds to symbols nobody set, a note above the timeline
 * names them, with a button to the Bounds popover; each symbol's row in the
 * popover says where it comes from (an input's axis, or the node that made
 * it). */
#include "pv-window-private.h"

#define MAX_NAMED 4

/* "Sizes assume batch = 1, seq = 1 (not set)", NULL when every bound was
 * set. */
static char *
dup_note (PvWindow *self)
{
  const char *const *symbols = pv_document_get_symbols (self->document);
  g_autoptr (GString) text = g_string_new ("Sizes assume ");
  int n = 0;

  for (int i = 0; symbols && symbols[i]; i++)
    {
      if (!pv_document_get_bound_is_default (self->document, symbols[i]))
        continue;
      if (n < MAX_NAMED)
        g_string_append_printf (text, "%s%s = %" G_GINT64_FORMAT, n ? ", " : "", symbols[i],
                                pv_document_get_bound (self->document, symbols[i]));
      n++;
    }
  if (n == 0)
    return NULL;
  if (n > MAX_NAMED)
    g_string_append_printf (text, " and %d more", n - MAX_NAMED);
  g_string_append (text, n == 1 ? " (not set)" : " (not set): the plan is of these sizes");
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static char *
dup_caption (PvWindow *self, const char *symbol)
{
  const char *origin = pv_document_get_symbol_origin (self->document, symbol);
  gboolean unset = pv_document_get_bound_is_default (self->document, symbol);

  return g_strdup_printf ("%s%s", origin ? origin : "origin unknown", unset ? " · not set" : "");
}

/* The popover's captions follow bounds set since its rows were made (the
 * rows stay: one may be being typed into). */
static void
sync_captions (PvWindow *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->bounds_grid)); child;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *symbol = g_object_get_data (G_OBJECT (child), "pv-symbol-label");
      GtkWidget *caption = gtk_widget_get_last_child (child);
      g_autofree char *text = NULL;

      if (symbol == NULL || !GTK_IS_LABEL (caption))
        continue;
      text = dup_caption (self, symbol);
      gtk_label_set_text (GTK_LABEL (caption), text);
      gtk_widget_set_tooltip_text (caption, text);
    }
}

static void
update_note (PvWindow *self)
{
  g_autofree char *note = pv_document_get_model (self->document) ? dup_note (self) : NULL;
  gboolean show = note && g_strcmp0 (note, self->symbols_dismissed) != 0;

  if (note)
    gtk_label_set_text (self->symbols_label, note);
  gtk_revealer_set_reveal_child (self->symbols_revealer, show);
  sync_captions (self);
}

static void
loaded_cb (PvWindow *self, PvDocument *document)
{
  g_clear_pointer (&self->symbols_dismissed, g_free);
  update_note (self);
}

GtkWidget *
_pv_window_symbol_label (PvWindow *self, const char *symbol)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *name = gtk_label_new (symbol);
  GtkWidget *caption = NULL;
  g_autofree char *text = dup_caption (self, symbol);

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_widget_add_css_class (name, "monospace");
  gtk_box_append (GTK_BOX (box), name);
  caption = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (caption), 0);
  gtk_label_set_ellipsize (GTK_LABEL (caption), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (caption), 40);
  gtk_widget_set_tooltip_text (caption, text);
  gtk_widget_add_css_class (caption, "dim-label");
  gtk_widget_add_css_class (caption, "caption");
  gtk_box_append (GTK_BOX (box), caption);
  gtk_widget_set_hexpand (box, TRUE);
  g_object_set_data_full (G_OBJECT (box), "pv-symbol-label", g_strdup (symbol), g_free);
  return box;
}

static void
show_bounds_action (GtkWidget *widget, const char *action, GVariant *parameter)
{
  PvWindow *self = PV_WINDOW (widget);
  gtk_menu_button_popup (self->bounds_button);
}

static void
dismiss_symbols_action (GtkWidget *widget, const char *action, GVariant *parameter)
{
  PvWindow *self = PV_WINDOW (widget);

  g_free (self->symbols_dismissed);
  self->symbols_dismissed = g_strdup (gtk_label_get_text (self->symbols_label));
  update_note (self);
}

void
_pv_window_class_symbols_init (PvWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_bind_template_child (widget_class, PvWindow, symbols_revealer);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, symbols_label);
  gtk_widget_class_install_action (widget_class, "win.show-bounds", NULL, show_bounds_action);
  gtk_widget_class_install_action (widget_class, "win.dismiss-symbols", NULL, dismiss_symbols_action);
}

void
_pv_window_symbols_init (PvWindow *self)
{
  g_signal_connect_object (self->document, "loaded", G_CALLBACK (loaded_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "symbols-changed", G_CALLBACK (update_note), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "plan-changed", G_CALLBACK (update_note), self, G_CONNECT_SWAPPED);
  update_note (self);
}

void
_pv_window_symbols_finalize (PvWindow *self)
{
  g_clear_pointer (&self->symbols_dismissed, g_free);
}

const char *
pv_window_get_symbols_note (PvWindow *self)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), NULL);
  return gtk_revealer_get_reveal_child (self->symbols_revealer) ? gtk_label_get_text (self->symbols_label) : NULL;
}
