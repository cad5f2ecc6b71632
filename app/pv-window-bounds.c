/* pv-window-bounds.c: the Bounds popover: a spin button per symbolic dim
 * (its bound) and an entry per scalar graph input (its value, which an If
 * may test); changing one re-plans. */
#include "pv-window-private.h"

#include "pv-element-type.h"

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

void
_pv_window_rebuild_bounds (PvWindow *self)
{
  int n_dims = rebuild_symbols (self);
  update_bounds_hint (self, n_dims, rebuild_inputs (self));
}

void
_pv_window_symbols_changed_cb (PvWindow *self, PvDocument *document)
{
  int n_inputs = 0;
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->inputs_grid)); c; c = gtk_widget_get_next_sibling (c))
    n_inputs += GTK_IS_ENTRY (c);
  update_bounds_hint (self, rebuild_symbols (self), n_inputs);
}

void
_pv_window_sync_bounds (PvWindow *self)
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
