/* pv-timeline-view.c: the timeline as a GTK widget (see the header): the
 * GObject, drawing, and the model and options it shows. Input is
 * pv-timeline-view-input.c, the selection -selection.c, actions and keys
 * -actions.c, the instant, range and finds -focus.c. */
#include "pv-save-file.h"
#include "pv-timeline-view.h"

#include "pv-timeline-style.h"
#include "pv-timeline-view-private.h"

G_DEFINE_FINAL_TYPE (PvTimelineView, pv_timeline_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MEMORY_VIEW,
  PROP_COLOUR_BY,
  PROP_ARROWS,
  PROP_DIMMED,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];
guint _pv_timeline_view_signals[N_SIGNALS];

#define DIMMED_OPACITY 0.35

GtkWidget *
pv_timeline_view_new (void)
{
  return g_object_new (PV_TYPE_TIMELINE_VIEW, NULL);
}

void
_pv_timeline_view_push_options (PvTimelineView *self)
{
  self->options.selected_nodes = (const int *) self->selected->data;
  self->options.n_selected_nodes = (int) self->selected->len;
  self->options.marked_values = (const int *) self->marked_values->data;
  self->options.n_marked_values = (int) self->marked_values->len;
  self->options.found_nodes = (const int *) self->found_nodes->data;
  self->options.n_found_nodes = (int) self->found_nodes->len;
  if (self->renderer)
    pv_timeline_renderer_set_options (self->renderer, &self->options);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- GtkWidget ---- */

/* The renderer's palette follows the style's text colour: light text is
 * a dark style (Adwaita:dark, gtk-application-prefer-dark-theme). GTK
 * redraws the view when its style changes. */
static void
follow_style (PvTimelineView *self)
{
  GdkRGBA fg;
  Rgb text;
  gboolean dark;

  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), &fg);
  text = (Rgb) { fg.red, fg.green, fg.blue };
  dark = is_light (&text);
  if (dark != self->options.dark)
    {
      self->options.dark = dark;
      pv_timeline_renderer_set_options (self->renderer, &self->options);
    }
}

static void
pv_timeline_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->renderer == NULL || width <= 0 || height <= 0)
    return;
  follow_style (self);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  /* Dimmed in cairo, not with an opacity node: GTK 4.8's cairo renderer
   * crashed (a write in cairo_paint) fading a banner over an opacity node
   * holding a large timeline. */
  if (self->dimmed)
    cairo_push_group (cr);
  pv_timeline_renderer_draw (self->renderer, cr);
  if (self->dimmed)
    {
      cairo_pop_group_to_source (cr);
      cairo_paint_with_alpha (cr, DIMMED_OPACITY);
    }
  cairo_destroy (cr);
  self->frames_drawn++;
}

static void
pv_timeline_view_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (widget);
  const PvTimelineViewport *vp;

  /* A popover child is sized and placed by its parent's allocation. */
  if (self->menu)
    gtk_popover_present (GTK_POPOVER (self->menu));
  if (self->renderer == NULL)
    return;
  vp = pv_timeline_renderer_get_viewport (self->renderer);
  if (vp->width != width || vp->height != height)
    {
      double scroll_y = vp->scroll_y;
      pv_timeline_renderer_set_size (self->renderer, width, height);
      pv_timeline_renderer_set_scroll_y (self->renderer, scroll_y);
    }
}

static void
pv_timeline_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural,
                          int *minimum_baseline, int *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 320;
      *natural = 900;
    }
  else
    {
      *minimum = 200;
      *natural = 600;
    }
}

static void
pv_timeline_view_unrealize (GtkWidget *widget)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (widget);

  if (self->tick_id)
    {
      gtk_widget_remove_tick_callback (widget, self->tick_id);
      self->tick_id = 0;
    }
  self->held = 0;
  GTK_WIDGET_CLASS (pv_timeline_view_parent_class)->unrealize (widget);
}

/* ---- GObject ---- */

static void
pv_timeline_view_dispose (GObject *object)
{
  PvTimelineView *self = (PvTimelineView *) object;

  g_clear_pointer (&self->menu, gtk_widget_unparent);
  G_OBJECT_CLASS (pv_timeline_view_parent_class)->dispose (object);
}

static void
pv_timeline_view_finalize (GObject *object)
{
  PvTimelineView *self = (PvTimelineView *) object;

  g_clear_pointer (&self->selected, g_array_unref);
  _pv_timeline_view_focus_finalize (self);
  g_clear_pointer (&self->renderer, pv_timeline_renderer_free);
  g_clear_pointer (&self->model, pv_timeline_model_unref);
  G_OBJECT_CLASS (pv_timeline_view_parent_class)->finalize (object);
}

static void
pv_timeline_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_MEMORY_VIEW: g_value_set_int (value, self->options.memory_view); break;
    case PROP_COLOUR_BY: g_value_set_int (value, self->options.colour_by); break;
    case PROP_ARROWS: g_value_set_uint (value, self->options.arrows); break;
    case PROP_DIMMED: g_value_set_boolean (value, self->dimmed); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pv_timeline_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  PvTimelineView *self = PV_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_MEMORY_VIEW: pv_timeline_view_set_memory_view (self, g_value_get_int (value)); break;
    case PROP_COLOUR_BY: pv_timeline_view_set_colour_by (self, g_value_get_int (value)); break;
    case PROP_ARROWS: pv_timeline_view_set_arrows (self, g_value_get_uint (value)); break;
    case PROP_DIMMED: pv_timeline_view_set_dimmed (self, g_value_get_boolean (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
install_properties (GObjectClass *object_class)
{
  properties[PROP_MEMORY_VIEW] =
    g_param_spec_int ("memory-view", NULL, NULL, 0, PV_TIMELINE_N_MEMORY_VIEWS - 1, PV_TIMELINE_MEMORY_SLOTS,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_COLOUR_BY] =
    g_param_spec_int ("colour-by", NULL, NULL, PV_TIMELINE_COLOUR_BY_OP, PV_TIMELINE_COLOUR_BY_KIND,
                      PV_TIMELINE_COLOUR_BY_OP, (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_ARROWS] =
    g_param_spec_uint ("arrows", NULL, NULL, 0, PV_TIMELINE_ARROW_ALL, PV_TIMELINE_ARROW_ALL,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_DIMMED] =
    g_param_spec_boolean ("dimmed", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
install_signals (GType type)
{
  _pv_timeline_view_signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  /**
   * PvTimelineView::move-nodes-requested:
   * @nodes: the names of the nodes to move
   * @stream: the stream to move them to, -1 for a new stream
   *
   * The move menu (or pv_timeline_view_request_move()) asks for the
   * selected kernels to run on another stream; the window edits the
   * partition config.
   */
  _pv_timeline_view_signals[MOVE_NODES_REQUESTED] =
    g_signal_new ("move-nodes-requested", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRV, G_TYPE_INT);
  /**
   * PvTimelineView::run-on-device-requested:
   * @nodes: the names of the nodes to move
   * @device: the device type to run them on (0 CPU, 1 GPU)
   * @stream: an existing stream of that device, -1 for a new stream on it
   *
   * The menu's "Run on" items (or pv_timeline_view_request_run_on_device())
   * ask for the selected kernels to run on another device; the window
   * edits the partition config.
   */
  _pv_timeline_view_signals[RUN_ON_DEVICE_REQUESTED] =
    g_signal_new ("run-on-device-requested", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_STRV, G_TYPE_INT, G_TYPE_INT);
  /**
   * PvTimelineView::instant-activated:
   * @time: the schedule time
   * @device: the device of the curve clicked (the first curve's for P)
   *
   * A click on a live-bytes curve or its peak marker, or P (jump to the
   * peak): the window shows what is live then and calls
   * pv_timeline_view_set_instant().
   */
  _pv_timeline_view_signals[INSTANT_ACTIVATED] =
    g_signal_new ("instant-activated", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_DOUBLE, G_TYPE_INT);
  /**
   * PvTimelineView::range-changed:
   *
   * Shift+drag selected a span, or Esc (pv_timeline_view_set_range() with
   * an empty span) cleared it: pv_timeline_view_get_range() says which.
   */
  _pv_timeline_view_signals[RANGE_CHANGED] =
    g_signal_new ("range-changed", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
pv_timeline_view_class_init (PvTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pv_timeline_view_dispose;
  object_class->finalize = pv_timeline_view_finalize;
  object_class->get_property = pv_timeline_view_get_property;
  object_class->set_property = pv_timeline_view_set_property;

  widget_class->snapshot = pv_timeline_view_snapshot;
  widget_class->size_allocate = pv_timeline_view_size_allocate;
  widget_class->measure = pv_timeline_view_measure;
  widget_class->query_tooltip = _pv_timeline_view_query_tooltip;
  widget_class->unrealize = pv_timeline_view_unrealize;

  install_properties (object_class);
  install_signals (G_TYPE_FROM_CLASS (klass));
  _pv_timeline_view_install_actions (widget_class);

  gtk_widget_class_set_css_name (widget_class, "pvtimelineview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
pv_timeline_view_init (PvTimelineView *self)
{
  pv_timeline_options_init (&self->options);
  self->selected = g_array_new (FALSE, FALSE, sizeof (int));
  _pv_timeline_view_focus_init (self);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  _pv_timeline_view_input_init (self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, "Memory timeline", -1);
  _pv_timeline_view_update_accessible (self);
}

/* ---- public API ---- */

PvTimelineModel *
pv_timeline_view_get_model (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), NULL);
  return self->model;
}

PvTimelineRenderer *
pv_timeline_view_get_renderer (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), NULL);
  return self->renderer;
}

void
pv_timeline_view_set_model (PvTimelineView *self, PvTimelineModel *model)
{
  PvTimelineSelection none = { PV_TIMELINE_HIT_NONE, -1 };
  gboolean keep_range = FALSE, selection_lost;
  double t0 = 0, t1 = 0, scroll_y = 0;

  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  if (model == self->model)
    return;
  if (model)
    pv_timeline_model_ref (model);

  /* Keep a zoomed-in range when the axis is about the same; a view that
   * showed everything shows everything again. */
  if (self->renderer && self->model && model)
    {
      const PvTimelineViewport *vp = pv_timeline_renderer_get_viewport (self->renderer);
      double old_end = self->model->t_end;
      gboolean was_fit = vp->t0 <= 0.5 && vp->t1 >= old_end - 0.5;
      t0 = vp->t0;
      t1 = vp->t1;
      scroll_y = vp->scroll_y;
      keep_range = !was_fit && t0 < model->t_end;
    }

  g_clear_pointer (&self->model, pv_timeline_model_unref);
  self->model = model;
  self->frames_drawn = 0;

  if (model == NULL)
    g_clear_pointer (&self->renderer, pv_timeline_renderer_free);
  else
    {
      int width = gtk_widget_get_width (GTK_WIDGET (self));
      int height = gtk_widget_get_height (GTK_WIDGET (self));

      if (self->renderer == NULL)
        self->renderer = pv_timeline_renderer_new (model);
      else
        pv_timeline_renderer_set_model (self->renderer, model);
      if (width > 0 && height > 0)
        pv_timeline_renderer_set_size (self->renderer, width, height);
      if (keep_range)
        pv_timeline_renderer_set_time_range (self->renderer, t0, t1);
      pv_timeline_renderer_set_scroll_y (self->renderer, scroll_y);
    }

  self->options.hover = none;
  selection_lost = !_pv_timeline_view_selection_valid (self, &self->options.selection) ||
                   self->options.selection.kind == PV_TIMELINE_HIT_MARK ||
                   self->options.selection.kind == PV_TIMELINE_HIT_ARROW;
  if (selection_lost)
    self->options.selection = none;
  /* Selected kernels the new model does not draw are dropped. */
  for (guint i = self->selected->len; i-- > 0;)
    {
      int node = g_array_index (self->selected, int, i);
      if (model == NULL || node >= model->graph->n_nodes || model->node_kernel[node] < 0)
        {
          g_array_remove_index (self->selected, i);
          selection_lost = TRUE;
        }
    }
  _pv_timeline_view_focus_model_changed (self);
  _pv_timeline_view_push_options (self);
  _pv_timeline_view_update_accessible (self);
  if (selection_lost)
    g_signal_emit (self, _pv_timeline_view_signals[SELECTION_CHANGED], 0);
}

PvTimelineMemoryView
pv_timeline_view_get_memory_view (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), PV_TIMELINE_MEMORY_SLOTS);
  return self->options.memory_view;
}

void
pv_timeline_view_set_memory_view (PvTimelineView *self, PvTimelineMemoryView view)
{
  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));
  g_return_if_fail ((guint) view < PV_TIMELINE_N_MEMORY_VIEWS);

  if (self->options.memory_view == view)
    return;
  self->options.memory_view = view;
  if (self->renderer)
    {
      const PvTimelineViewport *vp = pv_timeline_renderer_get_viewport (self->renderer);
      double scroll_y = vp->scroll_y;
      _pv_timeline_view_push_options (self);
      pv_timeline_renderer_set_scroll_y (self->renderer, scroll_y);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MEMORY_VIEW]);
}

PvTimelineColourBy
pv_timeline_view_get_colour_by (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), PV_TIMELINE_COLOUR_BY_OP);
  return self->options.colour_by;
}

void
pv_timeline_view_set_colour_by (PvTimelineView *self, PvTimelineColourBy colour_by)
{
  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  if (self->options.colour_by == colour_by)
    return;
  self->options.colour_by = colour_by;
  _pv_timeline_view_push_options (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOUR_BY]);
}

guint
pv_timeline_view_get_arrows (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), 0);
  return self->options.arrows;
}

void
pv_timeline_view_set_arrows (PvTimelineView *self, guint arrows)
{
  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  arrows &= PV_TIMELINE_ARROW_ALL;
  if (self->options.arrows == arrows)
    return;
  self->options.arrows = arrows;
  _pv_timeline_view_push_options (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ARROWS]);
}

gboolean
pv_timeline_view_get_dimmed (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), FALSE);
  return self->dimmed;
}

void
pv_timeline_view_set_dimmed (PvTimelineView *self, gboolean dimmed)
{
  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  dimmed = !!dimmed;
  if (self->dimmed == dimmed)
    return;
  self->dimmed = dimmed;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  _pv_timeline_view_update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIMMED]);
}

void
pv_timeline_view_zoom (PvTimelineView *self, double factor)
{
  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));
  _pv_timeline_view_zoom_at (self, factor, _pv_timeline_view_zoom_anchor_x (self));
}

void
pv_timeline_view_zoom_fit (PvTimelineView *self)
{
  g_return_if_fail (PV_IS_TIMELINE_VIEW (self));

  if (self->renderer == NULL)
    return;
  pv_timeline_renderer_set_time_range (self->renderer, 0, self->model->t_end);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
pv_timeline_view_get_frames_drawn (PvTimelineView *self)
{
  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), 0);
  return self->frames_drawn;
}

gboolean
pv_timeline_view_export (PvTimelineView *self, GFile *file, PvTimelineExportFormat format, int scale,
                         const PvTimelineExportInfo *info, GError **error)
{
  g_autoptr (PvTimelineRenderer) renderer = NULL;
  g_autoptr (GBytes) bytes = NULL;
  const PvTimelineViewport *vp;
  PvTimelineOptions options;
  int width, height;

  g_return_val_if_fail (PV_IS_TIMELINE_VIEW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (scale == 1 || scale == 2, FALSE);

  if (self->model == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "There is no timeline to export");
      return FALSE;
    }

  /* What the view shows, every row, without the pointer's hover. */
  vp = pv_timeline_renderer_get_viewport (self->renderer);
  width = MAX (vp->width, 800);
  renderer = pv_timeline_renderer_new (self->model);
  options = self->options;
  options.hover.kind = PV_TIMELINE_HIT_NONE;
  /* A document's figure: light whatever the window's style. */
  options.dark = FALSE;
  pv_timeline_renderer_set_options (renderer, &options);
  pv_timeline_renderer_set_size (renderer, width, 600);
  pv_timeline_renderer_set_time_range (renderer, vp->t0, vp->t1);
  height = MAX (pv_timeline_renderer_get_natural_height (renderer), 200);
  pv_timeline_renderer_set_size (renderer, width, height);
  pv_timeline_renderer_set_time_range (renderer, vp->t0, vp->t1);

  bytes = pv_timeline_export (renderer, format, scale, info, error);
  return bytes && pv_save_gfile (file, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), error);
}
