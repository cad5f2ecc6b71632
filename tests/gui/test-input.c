/* test-input.c: the timeline driven by real X input events.
 *
 * xdotool sends key, wheel, button and motion events through the X server
 * (XTEST) to the window under Xvfb, as a user's devices would; each test
 * checks what the renderer's viewport, selection or hover became. Skips
 * (a TAP skip plan) when xdotool is not installed. */
#include <gdk/x11/gdkx.h>
#include <math.h>
#include <string.h>

#include "gui-fixture.h"
#include "gui-xdo.h"
#include "pv-inspector.h"

static void
move_pointer (Fixture *fx, double x, double y)
{
  int wx, wy;

  view_to_window (fx, x, y, &wx, &wy);
  xdo ("mousemove --window %lu --sync %d %d", window_xid (fx), wx, wy);
}

/* ---- the renderer ---- */

static PvTimelineRenderer *
renderer (Fixture *fx)
{
  PvTimelineRenderer *r = pv_timeline_view_get_renderer (fx->view);
  g_assert_nonnull (r);
  return r;
}

static PvTimelineViewport viewport_before;

static PvTimelineViewport
viewport (Fixture *fx)
{
  return *pv_timeline_renderer_get_viewport (renderer (fx));
}

static gboolean
viewport_changed (Fixture *fx)
{
  PvTimelineViewport now = viewport (fx);
  return now.t0 != viewport_before.t0 || now.t1 != viewport_before.t1;
}

/* Waits until the viewport moved, then for held-key motion to stop. */
static PvTimelineViewport
wait_viewport_change (Fixture *fx)
{
  g_assert_true (wait_until (fx, viewport_changed));
  spin (150);
  return viewport (fx);
}

static double
span (const PvTimelineViewport *vp)
{
  return vp->t1 - vp->t0;
}

/* Where kernel @k is drawn: the middle of its bar, found with the
 * renderer's own hit test. FALSE when it is not on screen. */
static gboolean
kernel_point (Fixture *fx, int k, double *x, double *y)
{
  PvTimelineModel *model = pv_timeline_view_get_model (fx->view);
  PvTimelineRenderer *r = renderer (fx);
  const PvTimelineViewport *vp = pv_timeline_renderer_get_viewport (r);
  double cx = pv_timeline_renderer_time_to_x (r, (model->kernels[k].start + model->kernels[k].end) / 2);

  for (double cy = 0; cy < vp->height; cy += 1)
    {
      PvTimelineHit hit;
      if (pv_timeline_renderer_hit_test (r, cx, cy, &hit) && hit.kind == PV_TIMELINE_HIT_KERNEL && hit.index == k)
        {
          double top = cy;
          /* The middle of the bar, vertically. */
          while (cy < vp->height && pv_timeline_renderer_hit_test (r, cx, cy, &hit) &&
                 hit.kind == PV_TIMELINE_HIT_KERNEL && hit.index == k)
            cy += 1;
          *x = cx;
          *y = (top + cy - 1) / 2;
          return TRUE;
        }
    }
  return FALSE;
}

static int target_kind;
static int target_id;

static gboolean
selection_is (Fixture *fx)
{
  const PvTimelineSelection *sel = pv_timeline_view_get_selection (fx->view);
  return (int) sel->kind == target_kind && (target_kind == PV_TIMELINE_HIT_NONE || sel->id == target_id);
}

static gboolean
hover_is (Fixture *fx)
{
  const PvTimelineOptions *options = pv_timeline_renderer_get_options (renderer (fx));
  return (int) options->hover.kind == target_kind && options->hover.id == target_id;
}

/* GTK 4 parents its tooltip window (a GtkNative) to the toplevel. */
static GtkWidget *
tooltip_window (Fixture *fx)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (fx->window)); child;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_NATIVE (child) && strcmp (G_OBJECT_TYPE_NAME (child), "GtkTooltipWindow") == 0)
      return child;
  return NULL;
}

static GtkWidget *
find_label (GtkWidget *root)
{
  if (GTK_IS_LABEL (root) && gtk_widget_get_visible (root))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child);
      if (found)
        return found;
    }
  return NULL;
}

static gboolean
tooltip_shown (Fixture *fx)
{
  GtkWidget *tooltip = tooltip_window (fx);
  return tooltip && gtk_widget_get_mapped (tooltip);
}

/* The window has X input focus and the timeline GTK's focus. */
static gboolean
timeline_focused (Fixture *fx)
{
  return gtk_window_is_active (GTK_WINDOW (fx->window)) && gtk_widget_has_focus (GTK_WIDGET (fx->view));
}

static void
focus_timeline (Fixture *fx)
{
  xdo ("windowfocus --sync %lu", window_xid (fx));
  gtk_widget_grab_focus (GTK_WIDGET (fx->view));
  g_assert_true (wait_until (fx, timeline_focused));
}

/* ---- tests ---- */

static void
test_keys (Fixture *fx, gconstpointer data)
{
  PvTimelineViewport fit, vp;
  double ratio;

  open_model (fx, "transformer.onnx", NULL);
  focus_timeline (fx);
  /* The pointer away from the timeline: keys zoom about its middle. */
  xdo ("mousemove --sync 1 1");
  spin (100);
  fit = viewport (fx);

  /* W: zoom in one step (1.25×; a held key would go on). */
  viewport_before = viewport (fx);
  xdo ("key --delay 20 w");
  vp = wait_viewport_change (fx);
  ratio = span (&viewport_before) / span (&vp);
  g_test_message ("W: span %.3f -> %.3f (%.3f×)", span (&viewport_before), span (&vp), ratio);
  g_assert_cmpfloat (ratio, >, 1.2);
  g_assert_cmpfloat (ratio, <, 1.6);

  /* D then A: pan right, then left, by about a tenth of the width. */
  viewport_before = viewport (fx);
  xdo ("key --delay 20 d");
  vp = wait_viewport_change (fx);
  g_test_message ("D: t0 %.3f -> %.3f", viewport_before.t0, vp.t0);
  g_assert_cmpfloat (vp.t0, >, viewport_before.t0);
  g_assert_cmpfloat (fabs (span (&vp) - span (&viewport_before)), <, 1e-6 * span (&vp) + 1e-9);
  viewport_before = viewport (fx);
  xdo ("key --delay 20 a");
  vp = wait_viewport_change (fx);
  g_test_message ("A: t0 %.3f -> %.3f", viewport_before.t0, vp.t0);
  g_assert_cmpfloat (vp.t0, <, viewport_before.t0);

  /* S: zoom out one step. */
  viewport_before = viewport (fx);
  xdo ("key --delay 20 s");
  vp = wait_viewport_change (fx);
  ratio = span (&vp) / span (&viewport_before);
  g_test_message ("S: span %.3f -> %.3f (%.3f×)", span (&viewport_before), span (&vp), ratio);
  g_assert_cmpfloat (ratio, >, 1.2);

  /* W twice, then Ctrl+0: back to the fitted range. */
  xdo ("key --delay 40 w w");
  spin (200);
  g_assert_cmpfloat (span (pv_timeline_renderer_get_viewport (renderer (fx))), <, span (&fit));
  viewport_before = viewport (fx);
  xdo ("key ctrl+0");
  vp = wait_viewport_change (fx);
  g_test_message ("Ctrl+0: [%.3f, %.3f], fitted [%.3f, %.3f]", vp.t0, vp.t1, fit.t0, fit.t1);
  g_assert_cmpfloat (fabs (vp.t0 - fit.t0), <, 1e-6 * span (&fit));
  g_assert_cmpfloat (fabs (vp.t1 - fit.t1), <, 1e-6 * span (&fit));
}

static void
test_wheel_and_drag (Fixture *fx, gconstpointer data)
{
  PvTimelineRenderer *r;
  PvTimelineViewport vp;
  double x, y, t_under, ratio, dt_expected;
  int width;

  open_model (fx, "transformer.onnx", NULL);
  focus_timeline (fx);
  r = renderer (fx);
  width = gtk_widget_get_width (GTK_WIDGET (fx->view));
  x = width * 0.6;
  y = gtk_widget_get_height (GTK_WIDGET (fx->view)) * 0.4;
  move_pointer (fx, x, y);
  spin (100);

  /* Ctrl+wheel up: zooms in 1.2× per notch, the time under the pointer
   * staying under it. */
  t_under = pv_timeline_renderer_x_to_time (r, x);
  viewport_before = viewport (fx);
  xdo ("keydown ctrl click 4 keyup ctrl");
  vp = wait_viewport_change (fx);
  ratio = span (&viewport_before) / span (&vp);
  g_test_message ("Ctrl+wheel up: %.3f×; time under the pointer %.4f -> %.4f", ratio, t_under,
                  pv_timeline_renderer_x_to_time (r, x));
  g_assert_cmpfloat (fabs (ratio - 1.2), <, 0.01);
  g_assert_cmpfloat (fabs (pv_timeline_renderer_x_to_time (r, x) - t_under), <, 0.01 * span (&vp));

  /* Ctrl+wheel down: zooms out again. */
  viewport_before = viewport (fx);
  xdo ("keydown ctrl click 5 keyup ctrl");
  vp = wait_viewport_change (fx);
  g_assert_cmpfloat (fabs (span (&vp) / span (&viewport_before) - 1.2), <, 0.01);

  /* Zoomed in, a drag 200 px to the left shows later times. */
  xdo ("keydown ctrl click --repeat 4 --delay 30 4 keyup ctrl");
  spin (200);
  viewport_before = viewport (fx);
  dt_expected = 200.0 * span (&viewport_before) / (pv_timeline_renderer_time_to_x (r, viewport_before.t1) -
                                                     pv_timeline_renderer_time_to_x (r, viewport_before.t0));
  {
    int wx, wy;
    view_to_window (fx, x, y, &wx, &wy);
    xdo ("mousemove --window %lu --sync %d %d mousedown 1 sleep 0.05 mousemove --window %lu --sync %d %d "
         "sleep 0.05 mousemove --window %lu --sync %d %d sleep 0.05 mouseup 1",
         window_xid (fx), wx, wy, window_xid (fx), wx - 100, wy, window_xid (fx), wx - 200, wy);
  }
  vp = wait_viewport_change (fx);
  g_test_message ("drag 200 px left: t0 %.3f -> %.3f (expected +%.3f)", viewport_before.t0, vp.t0, dt_expected);
  g_assert_cmpfloat (fabs ((vp.t0 - viewport_before.t0) - dt_expected), <, 0.05 * dt_expected);
  g_assert_cmpfloat (fabs (span (&vp) - span (&viewport_before)), <, 1e-6 * span (&vp));
  /* A drag is not a click: nothing selected. */
  g_assert_cmpint (pv_timeline_view_get_selection (fx->view)->kind, ==, PV_TIMELINE_HIT_NONE);
}

static void
test_click_hover (Fixture *fx, gconstpointer data)
{
  PvTimelineModel *model = pv_timeline_view_get_model (fx->view);
  PvTimelineRenderer *r = renderer (fx);
  PvTimelineHit hit;
  g_autofree char *text = NULL;
  int k = model->n_kernels / 2;
  double x = 0, y = 0;
  int wx, wy;

  focus_timeline (fx);
  g_assert_true (kernel_point (fx, k, &x, &y));
  g_test_message ("kernel %d (node %d) at (%.0f, %.0f) in the view", k, model->kernels[k].node, x, y);

  /* Hover: the renderer marks it, and a tooltip describes it. */
  move_pointer (fx, x - 1, y);
  move_pointer (fx, x, y);
  target_kind = PV_TIMELINE_HIT_KERNEL;
  target_id = model->kernels[k].node;
  g_assert_true (wait_until (fx, hover_is));
  g_assert_true (pv_timeline_renderer_hit_test (r, x, y, &hit));
  text = pv_timeline_renderer_describe (r, &hit);
  g_assert_nonnull (text);
  g_assert_cmpstr (text, !=, "");
  g_test_message ("tooltip text: %s", text);
  g_assert_true (wait_until (fx, tooltip_shown));
  save_screenshot (fx);
  {
    /* What the view's query-tooltip put in the tooltip window's label. */
    GtkWidget *tooltip = tooltip_window (fx);
    GtkWidget *label = find_label (tooltip);
    g_assert_nonnull (label);
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, text);
    save_widget_screenshot (tooltip, "input-tooltip.png");
  }

  /* Click: selects it. */
  view_to_window (fx, x, y, &wx, &wy);
  xdo ("click 1");
  g_assert_true (wait_until (fx, selection_is));

  /* Esc: clears the selection. */
  xdo ("key Escape");
  target_kind = PV_TIMELINE_HIT_NONE;
  g_assert_true (wait_until (fx, selection_is));

  /* Click it again for the screenshot, and leave the pointer elsewhere. */
  xdo ("click 1");
  target_kind = PV_TIMELINE_HIT_KERNEL;
  g_assert_true (wait_until (fx, selection_is));
  xdo ("mousemove --sync 1 1");
}

static gboolean
tooltip_hidden (Fixture *fx)
{
  return !tooltip_shown (fx);
}

static GtkWidget *
move_menu (Fixture *fx)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (fx->view)); child;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER_MENU (child))
      return child;
  return NULL;
}

static gboolean
menu_shown (Fixture *fx)
{
  GtkWidget *menu = move_menu (fx);
  return menu && gtk_widget_get_mapped (menu) && gtk_widget_get_width (menu) > 0;
}

static gboolean
menu_gone (Fixture *fx)
{
  return !menu_shown (fx);
}

static char *wanted_text;

static gboolean
editor_text_is (Fixture *fx)
{
  g_autofree char *text = pv_partition_editor_dup_text (fx->editor);
  return g_strcmp0 (text, wanted_text) == 0;
}

static int
tooltip_x (Fixture *fx)
{
  return gdk_popup_get_position_x (GDK_POPUP (gtk_native_get_surface (GTK_NATIVE (tooltip_window (fx)))));
}

/* The tooltip follows the pointer from kernel to kernel; none covers the
 * move menu; Ctrl+Z on the timeline undoes the menu's move and
 * Ctrl+Shift+Z redoes it. */
static void
test_tooltip_menu_undo (Fixture *fx, gconstpointer data)
{
  PvTimelineModel *model = pv_timeline_view_get_model (fx->view);
  g_autofree char *before = pv_partition_editor_dup_text (fx->editor), *moved = NULL;
  int k = model->n_kernels / 2, first_x;
  double x = 0, y = 0, x2 = 0, y2 = 0;

  focus_timeline (fx);
  g_assert_true (kernel_point (fx, k, &x, &y));
  g_assert_true (kernel_point (fx, k + 3, &x2, &y2));
  move_pointer (fx, x - 1, y);
  move_pointer (fx, x, y);
  g_assert_true (wait_until (fx, tooltip_shown));
  first_x = tooltip_x (fx);

  /* Three kernels on: the tooltip goes, and comes back near the pointer. */
  move_pointer (fx, x2, y2);
  g_assert_true (wait_until (fx, tooltip_hidden));
  /* GTK waits for the next motion to time a new one (a hand sends many). */
  move_pointer (fx, x2 + 1, y2);
  g_assert_true (wait_until (fx, tooltip_shown));
  g_test_message ("tooltip at x %d, then %d; the pointer moved %.0f px", first_x, tooltip_x (fx), x2 - x);
  g_assert_cmpint (tooltip_x (fx) - first_x, >, (int) ((x2 - x) / 2));

  /* The move menu: no tooltip over it, however long the pointer rests. */
  xdo ("click 3");
  g_assert_true (wait_until (fx, menu_shown));
  {
    /* Over one of its items: GTK asks the item's ancestors, the view among
     * them, for a tooltip. */
    GtkWidget *menu = move_menu (fx);
    double mx, my;
    g_assert_true (gtk_widget_translate_coordinates (menu, GTK_WIDGET (fx->view), gtk_widget_get_width (menu) / 2.0,
                                                     gtk_widget_get_height (menu) / 2.0, &mx, &my));
    move_pointer (fx, mx, my);
    move_pointer (fx, mx + 1, my);
  }
  spin (1200);
  g_assert_false (tooltip_shown (fx));
  save_screenshot (fx);

  /* Move to New Stream, then Ctrl+Z and Ctrl+Shift+Z on the timeline. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->view), "timeline.move-nodes", "i", -1));
  gtk_popover_popdown (GTK_POPOVER (move_menu (fx)));
  g_assert_true (wait_until (fx, menu_gone));
  moved = pv_partition_editor_dup_text (fx->editor);
  g_assert_cmpstr (moved, !=, before);
  focus_timeline (fx);
  wanted_text = before;
  xdo ("key ctrl+z");
  g_assert_true (wait_until (fx, editor_text_is));
  wanted_text = moved;
  xdo ("key ctrl+shift+z");
  g_assert_true (wait_until (fx, editor_text_is));
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (fx->view)));
  wanted_text = NULL;
  xdo ("mousemove --sync 1 1");
}

/* ---- real clicks on buttons ---- */

/* Clicks the middle of @widget with the first button, through the X
 * server, in whichever toplevel holds it. */
static void
click_widget (GtkWidget *widget)
{
  GtkNative *native = gtk_widget_get_native (widget);
  graphene_point_t in = GRAPHENE_POINT_INIT (gtk_widget_get_width (widget) / 2.0,
                                             gtk_widget_get_height (widget) / 2.0), out;
  double sx = 0, sy = 0;

  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native), &in, &out));
  gtk_native_get_surface_transform (native, &sx, &sy);
  xdo ("mousemove --window %lu --sync %d %d click 1", gdk_x11_surface_get_xid (gtk_native_get_surface (native)),
       (int) lround (out.x + sx), (int) lround (out.y + sy));
}

static gboolean
is_mapped_with_class (GtkWidget *widget, gconstpointer css_class)
{
  return gtk_widget_has_css_class (widget, css_class) && gtk_widget_get_mapped (widget);
}

static GtkWidget *
first_with_class (GtkWidget *root, const char *css_class)
{
  return find_first (root, is_mapped_with_class, css_class);
}

static gboolean
inspector_link_shown (Fixture *fx)
{
  return first_with_class (GTK_WIDGET (fx->window), "pv-link") != NULL;
}

/* A link in the Inspector, clicked with the pointer: the link's button is
 * replaced while GTK still handles its click (once a use-after-free that
 * logged criticals); the timeline selects what the link names. */
static void
test_inspector_link_click (Fixture *fx, gconstpointer data)
{
  PvTimelineModel *model = pv_timeline_view_get_model (fx->view);
  PvTimelineSelection kernel = { PV_TIMELINE_HIT_KERNEL, model->kernels[model->n_kernels / 2].node };
  GtkWidget *inspector = find_widget (GTK_WIDGET (fx->window), PV_TYPE_INSPECTOR), *link;

  gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_ancestor (inspector, GTK_TYPE_STACK)), inspector);
  pv_timeline_view_set_selection (fx->view, &kernel);
  g_assert_true (wait_until (fx, inspector_link_shown));
  spin (300);
  link = first_with_class (GTK_WIDGET (fx->window), "pv-link");
  target_kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (link), "pv-kind"));
  target_id = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (link), "pv-id"));
  g_assert_cmpint (target_kind, ==, PV_TIMELINE_HIT_VALUE);
  click_widget (link);
  g_assert_true (wait_until (fx, selection_is));
  spin (200);
  /* And on through the next one, from the value to a kernel. */
  g_assert_true (wait_until (fx, inspector_link_shown));
  link = first_with_class (GTK_WIDGET (fx->window), "pv-link");
  target_kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (link), "pv-kind"));
  target_id = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (link), "pv-id"));
  click_widget (link);
  g_assert_true (wait_until (fx, selection_is));
  spin (200);
}

static GtkWidget *close_dialog;

static gboolean
dialog_mapped (Fixture *fx)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  close_dialog = NULL;
  for (guint i = 0; i < g_list_model_get_n_items (toplevels) && close_dialog == NULL; i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (toplevels, i);
      /* The X server must have mapped it too (GDK learns that from
       * MapNotify): a click sent before then is dropped. */
      if (GTK_IS_MESSAGE_DIALOG (item) && gtk_widget_get_mapped (GTK_WIDGET (item))
          && gdk_surface_get_mapped (gtk_native_get_surface (GTK_NATIVE (item))))
        close_dialog = GTK_WIDGET (item);
    }
  return close_dialog != NULL;
}

static GtkWindow *closing;
static int dialog_response;
static graphene_point_t discard_at;
static int discard_checks;

static void
dialog_response_cb (GtkDialog *dialog, int response, gpointer data)
{
  dialog_response = response;
}

static gboolean
dialog_answered (Fixture *fx)
{
  return dialog_response != 0;
}

/* The Discard button has kept its place in a dialog whose X window has
 * the dialog's size over three checks 100 ms apart: the dialog can still
 * grow after it is mapped, and a click computed before then lands on
 * another button. */
static gboolean
discard_steady (Fixture *fx)
{
  GtkWidget *discard = first_with_class (close_dialog, "destructive-action");
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (close_dialog));
  graphene_point_t in = GRAPHENE_POINT_INIT (0, 0), at;

  spin (100);
  if (!gtk_widget_compute_point (discard, close_dialog, &in, &at)
      || gdk_surface_get_width (surface) != gtk_widget_get_width (close_dialog)
      || !graphene_point_equal (&at, &discard_at))
    {
      discard_at = at;
      discard_checks = 0;
      return FALSE;
    }
  return ++discard_checks >= 3;
}

static gboolean
window_gone (Fixture *fx)
{
  return !gtk_widget_get_visible (GTK_WIDGET (closing));
}

/* "Discard and Close" clicked with the pointer: the window closes with no
 * critical (GTK_DEBUG=fatal-criticals makes one fatal). */
static void
test_discard_and_close_click (Fixture *fx, gconstpointer data)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (pv_partition_editor_get_buffer (fx->editor));
  g_autoptr (GtkWindow) window = g_object_ref (GTK_WINDOW (fx->window));
  GtkTextIter end;
  GtkWidget *discard;

  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert (buffer, &end, " ", -1);
  gtk_window_close (window);
  g_assert_true (wait_until (fx, dialog_mapped));
  spin (300);
  discard = first_with_class (close_dialog, "destructive-action");
  g_assert_nonnull (discard);
  closing = window;
  g_assert_true (wait_until (fx, discard_steady));
  g_signal_connect (close_dialog, "response", G_CALLBACK (dialog_response_cb), NULL);
  dialog_response = 0;
  click_widget (discard);
  g_assert_true (wait_until (fx, dialog_answered));
  /* Once (CI, sanitizers) the click reached the dialog but not the button
   * meant: say which response it gave. */
  g_assert_cmpint (dialog_response, ==, GTK_RESPONSE_REJECT);
  g_assert_true (wait_until (fx, window_gone));
  spin (300);
  g_signal_handlers_disconnect_by_data (fx->document, fx);
  fx->window = NULL;
}

/* ---- main ---- */

int
main (int argc, char **argv)
{
  int status;

  if (!gui_xdo_init ())
    return 0;
  gui_fixture_init (&argc, &argv);
  ADD ("/input/keys", test_keys, NULL);
  ADD ("/input/wheel-drag", test_wheel_and_drag, NULL);
  ADD ("/input/click-hover", test_click_hover, NULL);
  ADD ("/input/tooltip-menu-undo", test_tooltip_menu_undo, NULL);
  ADD ("/input/inspector-link-click", test_inspector_link_click, NULL);
  ADD ("/input/discard-and-close-click", test_discard_and_close_click, NULL);
  status = gui_fixture_run ();
  gui_xdo_shutdown ();
  return status;
}
