/* pv-plan-compare.c: what an edit changed (see the header). */
#include "pv-plan-compare.h"

#include "pv-format.h"

struct _PvPlanCompare
{
  GtkWidget parent_instance;

  GHashTable *values;        /* key -> "before → after", for tests and a11y */
  guint n_changed;

  /* template children */
  GtkWidget *box;
  GtkLabel *figures_label;
  GtkCheckButton *ghost_button;
};

G_DEFINE_FINAL_TYPE (PvPlanCompare, pv_plan_compare, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SHOW_GHOST,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  DISMISSED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

GtkWidget *
pv_plan_compare_new (void)
{
  return g_object_new (PV_TYPE_PLAN_COMPARE, NULL);
}

/* One figure: "name before → after", bold when it changed, with the
 * relative change of byte figures. */
/* @text escaped, its spaces no-break: a line wraps between figures only. */
static char *
unbroken (const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);
  g_auto (GStrv) words = g_strsplit (escaped, " ", -1);
  return g_strjoinv ("\u00a0", words);
}

static void
add_figure (PvPlanCompare *self, GString *markup, const char *key, const char *before, const char *after,
            double from, double to)
{
  g_autofree char *value = g_strdup_printf ("%s → %s", before, after);
  g_autofree char *shown = unbroken (value), *name = unbroken (key);
  gboolean changed = from != to;

  g_hash_table_replace (self->values, g_strdup (key), g_strdup (value));
  self->n_changed += changed;
  if (markup->len)
    g_string_append (markup, "\u00a0\u00a0·  ");
  g_string_append_printf (markup, "<span alpha=\"70%%\">%s</span>\u00a0%s%s%s", name, changed ? "<b>" : "", shown,
                          changed ? "</b>" : "");
  if (changed && from > 0)
    g_string_append_printf (markup, "\u00a0(%+.1f%%)", 100.0 * (to - from) / from);
}

static void
add_bytes (PvPlanCompare *self, GString *markup, const char *key, guint64 before, guint64 after, gboolean at_least)
{
  g_autofree char *a = pv_format_bytes (before, FALSE), *b = pv_format_bytes (after, FALSE);
  g_autofree char *ta = g_strdup_printf ("%s%s", at_least ? "≥ " : "", a);
  g_autofree char *tb = g_strdup_printf ("%s%s", at_least ? "≥ " : "", b);
  add_figure (self, markup, key, ta, tb, (double) before, (double) after);
}

static void
add_count (PvPlanCompare *self, GString *markup, const char *key, double before, double after)
{
  g_autofree char *a = g_strdup_printf ("%g", before), *b = g_strdup_printf ("%g", after);
  add_figure (self, markup, key, a, b, before, after);
}

void
pv_plan_compare_set_figures (PvPlanCompare *self, const PvSessionFigures *before, const PvSessionFigures *after)
{
  g_autoptr (GString) markup = g_string_new (NULL);
  gboolean deferred;

  g_return_if_fail (PV_IS_PLAN_COMPARE (self));
  g_return_if_fail (before != NULL && after != NULL);

  g_hash_table_remove_all (self->values);
  self->n_changed = 0;
  deferred = before->deferred || after->deferred;
  add_bytes (self, markup, "peak live", before->peak_live, after->peak_live, deferred);
  if (!deferred)
    add_bytes (self, markup, "LOAD", before->load_bytes, after->load_bytes, FALSE);
  if (before->has_ort && after->has_ort)
    {
      if (!deferred)
        add_bytes (self, markup, "ORT reserves", before->ort_reserves, after->ort_reserves, FALSE);
      add_count (self, markup, "ORT buffers", before->n_ort_buffers, after->n_ort_buffers);
      add_count (self, markup, "barriers", before->n_barriers, after->n_barriers);
      add_count (self, markup, "waits", before->n_waits, after->n_waits);
    }
  if (before->has_makespan && after->has_makespan)
    add_count (self, markup, "makespan", before->makespan, after->makespan);
  if (self->n_changed == 0)
    g_string_append (markup, "\u00a0\u00a0·  <i>no change</i>");
  gtk_label_set_markup (self->figures_label, markup->str);
}

const char *
pv_plan_compare_get_value (PvPlanCompare *self, const char *key)
{
  g_return_val_if_fail (PV_IS_PLAN_COMPARE (self), NULL);
  return g_hash_table_lookup (self->values, key);
}

guint
pv_plan_compare_get_n_changed (PvPlanCompare *self)
{
  g_return_val_if_fail (PV_IS_PLAN_COMPARE (self), 0);
  return self->n_changed;
}

gboolean
pv_plan_compare_get_show_ghost (PvPlanCompare *self)
{
  g_return_val_if_fail (PV_IS_PLAN_COMPARE (self), FALSE);
  return gtk_check_button_get_active (self->ghost_button);
}

void
pv_plan_compare_set_show_ghost (PvPlanCompare *self, gboolean show)
{
  g_return_if_fail (PV_IS_PLAN_COMPARE (self));
  gtk_check_button_set_active (self->ghost_button, show);
}

static void
ghost_toggled_cb (PvPlanCompare *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_GHOST]);
}

static void
close_clicked_cb (PvPlanCompare *self)
{
  g_signal_emit (self, signals[DISMISSED], 0);
}

/* ---- GObject ---- */

static void
pv_plan_compare_dispose (GObject *object)
{
  PvPlanCompare *self = (PvPlanCompare *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), PV_TYPE_PLAN_COMPARE);
  G_OBJECT_CLASS (pv_plan_compare_parent_class)->dispose (object);
}

static void
pv_plan_compare_finalize (GObject *object)
{
  PvPlanCompare *self = (PvPlanCompare *) object;

  g_clear_pointer (&self->values, g_hash_table_unref);
  G_OBJECT_CLASS (pv_plan_compare_parent_class)->finalize (object);
}

static void
pv_plan_compare_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  PvPlanCompare *self = PV_PLAN_COMPARE (object);

  switch (prop_id)
    {
    case PROP_SHOW_GHOST: g_value_set_boolean (value, pv_plan_compare_get_show_ghost (self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pv_plan_compare_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  PvPlanCompare *self = PV_PLAN_COMPARE (object);

  switch (prop_id)
    {
    case PROP_SHOW_GHOST: pv_plan_compare_set_show_ghost (self, g_value_get_boolean (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pv_plan_compare_class_init (PvPlanCompareClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pv_plan_compare_dispose;
  object_class->finalize = pv_plan_compare_finalize;
  object_class->get_property = pv_plan_compare_get_property;
  object_class->set_property = pv_plan_compare_set_property;

  properties[PROP_SHOW_GHOST] =
    g_param_spec_boolean ("show-ghost", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The close button: the owner hides the bar. */
  signals[DISMISSED] = g_signal_new ("dismissed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                     G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/planviz/Planviz/ui/pv-plan-compare.ui");
  gtk_widget_class_bind_template_child (widget_class, PvPlanCompare, box);
  gtk_widget_class_bind_template_child (widget_class, PvPlanCompare, figures_label);
  gtk_widget_class_bind_template_child (widget_class, PvPlanCompare, ghost_button);
  gtk_widget_class_bind_template_callback (widget_class, ghost_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, close_clicked_cb);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "pvplancompare");
}

static void
pv_plan_compare_init (PvPlanCompare *self)
{
  self->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  gtk_widget_init_template (GTK_WIDGET (self));
}
