/* test-symbols.c: symbolic dims are never silent. data/transformer.onnx's
 * input x is [batch,seq,64]: the window binds batch and seq to 1, says so
 * above the timeline, and the Bounds popover names each symbol's axis. A
 * generated If whose then_branch holds a NonZero has a symbol only that
 * body's sizes mention: bindable in the window once the body is open. */
#include <string.h>

#include "gui-fixture.h"
#include "pv-onnx-builder.h"

/* The Bounds popover's row label of @symbol: its caption's text. */
static const char *
caption_of (GtkWidget *root, const char *symbol)
{
  const char *name = g_object_get_data (G_OBJECT (root), "pv-symbol-label");

  if (name && strcmp (name, symbol) == 0)
    return gtk_label_get_text (GTK_LABEL (gtk_widget_get_last_child (root)));
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      const char *found = caption_of (child, symbol);
      if (found)
        return found;
    }
  return NULL;
}

/* The first widget under @root whose action is @action. */
static GtkWidget *
find_action_widget (GtkWidget *root, const char *action)
{
  if (GTK_IS_ACTIONABLE (root) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (root)), action) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_action_widget (child, action);
      if (found)
        return found;
    }
  return NULL;
}

static GtkWidget *
bounds_popover (Fixture *fx)
{
  GtkWidget *button = find_menu_button (GTK_WIDGET (fx->window), "_Bounds");
  g_assert_nonnull (button);
  return GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
}

static gboolean
popover_mapped (Fixture *fx)
{
  return gtk_widget_get_mapped (bounds_popover (fx));
}

static void
set_bound (Fixture *fx, const char *symbol, gint64 value)
{
  guint plans = fx->plan_changes;
  pv_document_set_bound (fx->document, symbol, value);
  wait_for_plan (fx, plans);
}

/* The note names the defaults; its button opens the popover, whose rows
 * name the axes; bounds set take their symbols off the note. */
static void
test_note_and_popover (Fixture *fx, gconstpointer data)
{
  GtkWidget *popover = bounds_popover (fx);

  g_assert_cmpstr (pv_window_get_symbols_note (fx->window), ==,
                   "Sizes assume batch = 1, seq = 1 (not set): the plan is of these sizes");
  g_assert_true (pv_document_get_bound_is_default (fx->document, "batch"));
  g_assert_cmpstr (pv_document_get_symbol_origin (fx->document, "batch"), ==, "x axis 0");
  g_assert_cmpstr (pv_document_get_symbol_origin (fx->document, "seq"), ==, "x axis 1");
  g_assert_cmpstr (caption_of (popover, "batch"), ==, "x axis 0 · not set");
  g_assert_cmpstr (caption_of (popover, "seq"), ==, "x axis 1 · not set");

  g_assert_true (wait_until (fx, still));
  save_widget_screenshot (GTK_WIDGET (fx->window), "symbols-note.png");
  g_assert_false (gtk_widget_get_mapped (popover));
  /* The note's own button (a click), not only its action. */
  {
    GtkWidget *button = find_action_widget (GTK_WIDGET (fx->window), "win.show-bounds");
    g_assert_nonnull (button);
    g_assert_true (gtk_widget_is_drawable (button));
    g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "Set Bounds…");
    g_signal_emit_by_name (button, "clicked");
  }
  g_assert_true (wait_until (fx, popover_mapped));
  spin (300);
  save_widget_screenshot (popover, "symbols-bounds-popover.png");
  gtk_popover_popdown (GTK_POPOVER (popover));

  set_bound (fx, "batch", 2);
  g_assert_false (pv_document_get_bound_is_default (fx->document, "batch"));
  g_assert_cmpstr (pv_window_get_symbols_note (fx->window), ==, "Sizes assume seq = 1 (not set)");
  g_assert_cmpstr (caption_of (popover, "batch"), ==, "x axis 0");
  set_bound (fx, "seq", 16);
  g_assert_null (pv_window_get_symbols_note (fx->window));
  g_assert_cmpstr (caption_of (popover, "seq"), ==, "x axis 1");
}

/* Dismissed, the note stays away until what it says changes. */
static void
test_dismiss (Fixture *fx, gconstpointer data)
{
  g_assert_nonnull (pv_window_get_symbols_note (fx->window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.dismiss-symbols", NULL));
  g_assert_null (pv_window_get_symbols_note (fx->window));
  set_bound (fx, "batch", 3);
  g_assert_cmpstr (pv_window_get_symbols_note (fx->window), ==, "Sizes assume seq = 1 (not set)");
}

/* Every size known: no note. */
static void
test_no_symbols (Fixture *fx, gconstpointer data)
{
  g_assert_null (pv_document_get_symbols (fx->document)[0]);
  g_assert_null (pv_window_get_symbols_note (fx->window));
}

/* main: x [4], If (c) then { nz = NonZero (x); y = Identity (x) } else
 * { y = Identity (x) }: nz is [1, nonzero_0], a symbol of the body only. */
static char *
write_body_symbol_model (Fixture *fx)
{
  g_autoptr (PvOnnxBuilder) b = pv_onnx_builder_new (8, "test-symbols");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxGraph *then_g = pv_onnx_graph_new ("then"), *else_g = pv_onnx_graph_new ("else");
  PvOnnxNode *node;
  char *path = g_build_filename (fx->tmpdir, "if_nonzero.onnx", NULL);
  g_autoptr (GError) error = NULL;

  pv_onnx_builder_add_opset (b, "", 17);
  pv_onnx_graph_add_input (g, "c", ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, "");
  pv_onnx_graph_add_input (g, "x", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, "4");
  pv_onnx_graph_add_node (then_g, "NonZero", "nz", PV_ONNX_NAMES ("x"), PV_ONNX_NAMES ("nz_out"));
  pv_onnx_graph_add_node (then_g, "Identity", "then_id", PV_ONNX_NAMES ("x"), PV_ONNX_NAMES ("y_then"));
  pv_onnx_graph_add_output (then_g, "y_then", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, "4");
  pv_onnx_graph_add_node (else_g, "Identity", "else_id", PV_ONNX_NAMES ("x"), PV_ONNX_NAMES ("y_else"));
  pv_onnx_graph_add_output (else_g, "y_else", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, "4");
  node = pv_onnx_graph_add_node (g, "If", "if", PV_ONNX_NAMES ("c"), PV_ONNX_NAMES ("y"));
  pv_onnx_node_add_attr_graph (node, "then_branch", then_g);
  pv_onnx_node_add_attr_graph (node, "else_branch", else_g);
  pv_onnx_graph_add_output (g, "y", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, "4");
  g_assert_true (pv_onnx_builder_write (b, path, &error));
  g_assert_no_error (error);
  return path;
}

static void
test_body_symbol (Fixture *fx, gconstpointer data)
{
  g_autofree char *path = write_body_symbol_model (fx);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  const PvSession *main_plan, *body;
  g_autofree char *symbol = NULL;
  int nz;

  pv_window_open (fx->window, file, NULL);
  g_assert_true (wait_until (fx, settled));
  g_assert_null (pv_window_get_error (fx->window));
  g_assert_null (pv_document_get_symbols (fx->document)[0]);
  g_assert_null (pv_window_get_symbols_note (fx->window));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.open-subgraph", "(ii)",
                                             pv_graph_find_node (pv_document_get_model (fx->document)->graph, "if"),
                                             0));
  g_assert_true (wait_until (fx, settled));
  g_assert_null (pv_window_get_error (fx->window));
  body = pv_document_get_body_session (fx->document, 1);
  g_assert_nonnull (body);
  /* The body's own symbol: listed, bound to 1 by default, from its node. */
  symbol = g_strdup (pv_document_get_symbols (fx->document)[0]);
  g_assert_nonnull (symbol);
  g_assert_null (pv_document_get_symbols (fx->document)[1]);
  g_assert_true (g_str_has_prefix (symbol, "nonzero"));
  g_assert_true (pv_document_get_bound_is_default (fx->document, symbol));
  g_assert_cmpstr (pv_document_get_symbol_origin (fx->document, symbol), ==, "made by NonZero “nz”");
  g_assert_nonnull (strstr (pv_window_get_symbols_note (fx->window), symbol));
  g_assert_cmpstr (caption_of (bounds_popover (fx), symbol), ==, "made by NonZero “nz” · not set");
  nz = pv_graph_find_value (body->graph, "nz_out");
  g_assert_cmpint (nz, >=, 0);
  g_assert_false (body->slots->deferred);
  g_assert_cmpuint (body->value_bytes[nz], ==, 8 * 1);

  /* Set in the window: the body is planned again with it, the main plan stays. */
  main_plan = pv_document_get_plan_session (fx->document);
  set_bound (fx, symbol, 5);
  body = pv_document_get_body_session (fx->document, 1);
  g_assert_cmpuint (body->value_bytes[nz], ==, 8 * 5);
  g_assert_true (pv_document_get_plan_session (fx->document) == main_plan);
  g_assert_cmpuint (pv_document_get_comparison (fx->document, NULL, NULL), ==, 0);
  g_assert_null (pv_window_get_symbols_note (fx->window));

  /* Back to the main graph: the body's symbol leaves the list. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.subgraph-up", NULL));
  g_assert_true (wait_until (fx, settled));
  g_assert_null (pv_document_get_symbols (fx->document)[0]);
  g_assert_null (caption_of (bounds_popover (fx), symbol));
}

int
main (int argc, char **argv)
{
  gui_fixture_init (&argc, &argv);
  ADD ("/symbols/note-and-popover", test_note_and_popover, "transformer.onnx");
  ADD ("/symbols/dismiss", test_dismiss, "transformer.onnx");
  ADD ("/symbols/none", test_no_symbols, NULL);
  ADD ("/symbols/body", test_body_symbol, NULL);
  return gui_fixture_run ();
}
