/* pv-summary-view.c: the numbers of the plan on screen. */
#include "pv-summary-view.h"

#include "pv-format.h"
struct _PvSummaryView
{
  PvSidePage parent_instance;

  GtkWidget *scroller;       /* template child */
  GtkWidget *content;        /* rebuilt on every plan */
  GHashTable *values;        /* key -> value text, for tests and a11y */
  const PvGraph *subgraph;   /* an open body shown instead of the plan session (its plan: the document's) */
  char *subgraph_title;
  char *subgraph_note;
};

G_DEFINE_FINAL_TYPE (PvSummaryView, pv_summary_view, PV_TYPE_SIDE_PAGE)

GtkWidget *
pv_summary_view_new (void)
{
  return g_object_new (PV_TYPE_SUMMARY_VIEW, NULL);
}

/* ---- building blocks ---- */

static GtkWidget *
add_section (PvSummaryView *self, const char *title)
{
  GtkWidget *label = gtk_label_new (title);
  GtkWidget *grid = gtk_grid_new ();

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_add_css_class (label, "pv-summary-heading");
  gtk_box_append (GTK_BOX (self->content), label);

  gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 8);
  gtk_widget_add_css_class (grid, "pv-card");
  gtk_box_append (GTK_BOX (self->content), grid);
  return grid;
}

static GtkWidget *
add_row (PvSummaryView *self, GtkWidget *grid, const char *key, const char *value, const char *tooltip)
{
  /* ORT's messages quote the bytes it read, maybe part of a character. */
  g_autofree char *valid = g_utf8_make_valid (value, -1);
  GtkWidget *k = gtk_label_new (key);
  GtkWidget *v = gtk_label_new (valid);
  int row = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (grid); child; child = gtk_widget_get_next_sibling (child))
    row++;
  row /= 2;
  gtk_label_set_xalign (GTK_LABEL (k), 0);
  gtk_widget_set_valign (k, GTK_ALIGN_START);
  gtk_widget_add_css_class (k, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (v), 0);
  gtk_label_set_wrap (GTK_LABEL (v), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (v), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (v), TRUE);
  gtk_widget_set_hexpand (v, TRUE);
  gtk_widget_add_css_class (v, "pv-summary-value");
  if (tooltip)
    gtk_widget_set_tooltip_text (v, tooltip);
  gtk_grid_attach (GTK_GRID (grid), k, 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), v, 1, row, 1, 1);
  g_hash_table_replace (self->values, g_strdup (key), g_strdup (value));
  return v;
}

static void
add_bytes_row (PvSummaryView *self, GtkWidget *grid, const char *key, guint64 bytes, const char *what)
{
  g_autofree char *text = pv_format_bytes (bytes, FALSE);
  g_autofree char *tooltip = g_strdup_printf ("%s: %" G_GUINT64_FORMAT " bytes", what, bytes);
  add_row (self, grid, key, text, tooltip);
}

static GtkWidget *
add_note (PvSummaryView *self, const char *text, const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (css_class)
    gtk_widget_add_css_class (label, css_class);
  gtk_box_append (GTK_BOX (self->content), label);
  return label;
}

/* ---- the summary ---- */

static const PvCheckResult *
check_for (const PvSession *s, PvPlannerKind kind)
{
  switch (kind)
    {
    case PV_PLANNER_ORT: return s->ort_check;
    case PV_PLANNER_SLOTS: return s->slots_check;
    default: return s->arena_check;
    }
}

static guint64
peak_for (const PvSession *s, PvPlannerKind kind)
{
  switch (kind)
    {
    case PV_PLANNER_ORT: return s->ort_peak_bytes;
    case PV_PLANNER_SLOTS: return s->slots->peak_bytes;
    default: return s->arena ? s->arena->peak_bytes : 0;
    }
}

static void
add_symbols_row (PvSummaryView *self, GtkWidget *grid, const PvSession *s)
{
  PvDocument *document = pv_side_page_get_document (PV_SIDE_PAGE (self));
  const char *const *symbols = pv_document_get_symbols (document);
  g_autoptr (GString) text = g_string_new (NULL);

  if (symbols == NULL || symbols[0] == NULL)
    {
      add_row (self, grid, "Symbols", "None: every size is known", NULL);
      return;
    }
  for (int i = 0; symbols[i]; i++)
    g_string_append_printf (text, "%s%s = %" G_GINT64_FORMAT, i ? ", " : "", symbols[i],
                            pv_document_get_bound (document, symbols[i]));
  add_row (self, grid, "Symbols", text->str, "Bounds of the symbolic dims, set in the Bounds popover");
}

/* What ORT holds: its CPU arena over the first run and the second. */
static void
add_ort_run_rows (PvSummaryView *self, GtkWidget *grid, const PvSession *s)
{
  const PvOrtArenaRun *run = s->ort_run;

  if (run == NULL)
    {
      add_row (self, grid, "ORT holds", "Not simulated (a subgraph runs in its parent's arena)", NULL);
      return;
    }
  add_bytes_row (self, grid, "ORT holds", run->held,
                 run->settings.cpu_arena ? "What ORT's CPU arena holds after the first run: its regions and reserves"
                                         : "No CPU arena: what malloc holds at the first run's peak");
  if (run->has_pattern)
    add_bytes_row (self, grid, "With memory pattern", run->second_held,
                   "What the arena holds in the second run, which takes one block for the memory pattern");
  else
    add_row (self, grid, "With memory pattern", "Off", "enable_mem_pattern is off");
  if (run->has_pattern)
    add_bytes_row (self, grid, "Pattern block", run->pattern_bytes, "MemPatternPlanner's block for later runs");
  add_bytes_row (self, grid, "Requested at most", run->peak_requested,
                 "The most bytes kernels asked the arena for, after a node");
  add_bytes_row (self, grid, "In use at most", run->peak_in_use,
                 "The most bytes of the arena's chunks in use, kernels' scratch included");
  add_bytes_row (self, grid, "Before the first node", run->reserved_bytes,
                 "Initializers ORT copies and weights kernels pre-pack, reserved at session creation");
  if (run->unmodelled_ops[0])
    {
      g_autofree char *ops = g_strjoinv (", ", run->unmodelled_ops);
      add_row (self, grid, "Scratch not modelled", ops, "Ops whose temporary buffers planviz does not know: taken as none");
    }
  if (run->approximate)
    add_row (self, grid, "Arena figures", "Approximate: ORT runs the streams at once", NULL);
}

static void
add_memory_section (PvSummaryView *self, const PvSession *s, PvPlannerKind kind)
{
  static const char *const titles[] = { "ONNX Runtime 1.30's plan", "Slot plan", "Arena plan" };
  GtkWidget *grid = add_section (self, titles[kind]);
  guint64 peak = peak_for (s, kind);

  if (s->slots->deferred)
    {
      const PvSessionBasis *b = s->basis;
      int n_symbolic = s->slots->n_unknown - b->n_shapeless;
      if (b->n_shapeless > 0)
        {
          g_autofree char *ops = b->no_shape_rule[0] ? g_strjoinv (", ", b->no_shape_rule) : g_strdup ("(none)");
          g_autofree char *text = g_strdup_printf ("%d values have no known shape or type: no figure is given", b->n_shapeless);
          add_row (self, grid, "Deferred", text, "planviz cannot compute these sizes; a total without them would be wrong");
          add_row (self, grid, "No shape rule", ops, "Ops planviz has no shape rule for (the values they make and "
                                                     "what follows them have no size)");
        }
      if (n_symbolic > 0)
        {
          g_autofree char *symbols = s->unbound_symbols ? g_strjoinv (", ", s->unbound_symbols) : g_strdup ("?");
          g_autofree char *text = g_strdup_printf ("%d values have sizes that depend on %s: set their bounds",
                                                   n_symbolic, symbols);
          add_row (self, grid, "Deferred", text, NULL);
          add_symbols_row (self, grid, s);
        }
      return;
    }
  if (kind == PV_PLANNER_ORT)
    add_ort_run_rows (self, grid, s);
  add_bytes_row (self, grid, kind == PV_PLANNER_ORT ? "ORT reserves" : "Peak", peak,
                 kind == PV_PLANNER_ORT ? "The sum of the buffers ORT's plan allocates (kAllocate)"
                                        : "Bytes the plan reserves");
  add_bytes_row (self, grid, "Naive", s->slots->naive_bytes, "One buffer per value, never reused");
  add_bytes_row (self, grid, "LOAD", s->load_bytes, "The most bytes live at one time: no plan can do better");
  {
    g_autofree char *ratio = g_strdup_printf ("%.3f×", s->load_bytes ? (double) peak / (double) s->load_bytes : 1.0);
    add_row (self, grid, kind == PV_PLANNER_ORT ? "ORT reserves / LOAD" : "Peak / LOAD", ratio,
             "1.000× is the best any plan can do");
  }
  switch (kind)
    {
    case PV_PLANNER_ORT:
      {
        g_autofree char *buffers = g_strdup_printf ("%d allocated", s->n_ort_arena_values);
        add_row (self, grid, "Buffers", buffers, "Values ORT allocates (kAllocate); the others reuse them");
        if (s->ort_arena)
          add_bytes_row (self, grid, "In one arena", s->ort_arena->peak_bytes,
                         "ORT's buffers packed by offset into one arena");
        break;
      }
    case PV_PLANNER_SLOTS:
      {
        g_autofree char *slots = g_strdup_printf ("%d (%.1f%% saved against naive)", s->slots->n_slots,
                                                  100.0 * s->slots->savings_ratio);
        add_row (self, grid, "Slots", slots, NULL);
        break;
      }
    default:
      {
        g_autofree char *buffers = g_strdup_printf ("%d, packed %s", s->n_arena_values,
                                                    s->arena && s->arena->ordering ? s->arena->ordering : "");
        add_row (self, grid, "Buffers", buffers, "The winning greedy-by-size ordering");
        if (s->arena)
          {
            g_autofree char *bound = pv_format_bytes (s->arena->bound_bytes, FALSE);
            g_autofree char *text = s->arena->optimal
              ? g_strdup_printf ("optimal: the best bound, %s, is reached", bound)
              : g_strdup_printf ("within %.2f%% of the best bound, %s",
                                 100.0 * ((double) s->arena->peak_bytes / (double) s->arena->bound_bytes - 1.0), bound);
            add_row (self, grid, "Bound", text, "LOAD, or more where the search proved it: no packing is lower");
          }
        break;
      }
    }
  add_symbols_row (self, grid, s);
}

static void
add_execution_section (PvSummaryView *self, const PvSession *s)
{
  GtkWidget *grid = add_section (self, "Execution");
  const PvOrtPlan *ort = s->ort;
  g_autoptr (GString) devices = g_string_new (NULL);
  g_autofree char *streams = NULL, *barriers = NULL, *waits = NULL, *kernels = NULL;
  int n_waits = 0, n_kernels = 0;

  for (int i = 0; i < ort->n_streams; i++)
    {
      const char *name = pv_device_type_name (ort->streams[i].device.type);
      g_string_append_printf (devices, "%s%s", i ? ", " : "", name ? name : "?");
      for (int k = 0; k < ort->streams[i].n_steps; k++)
        {
          if (ort->streams[i].steps[k].kind == PV_ORT_STEP_WAIT_ON_EP)
            n_waits++;
          else if (ort->streams[i].steps[k].kind == PV_ORT_STEP_LAUNCH_KERNEL)
            n_kernels++;
        }
    }
  streams = g_strdup_printf ("%d (%s)%s", ort->n_streams, devices->str,
                             ort->single_stream ? "" : ": several on one device");
  add_row (self, grid, "Streams", streams,
           ort->single_stream ? NULL
                              : "ORT plans each stream without in-place or free-list reuse, then reuses buffers "
                                "by serialized shape size");
  if (!ort->single_stream)
    {
      int n_random = 0;
      g_autofree char *random = NULL;

      for (int i = 0; i < ort->n_values; i++)
        n_random += ort->values[i].order_dependent;
      random = ort->order_trials == 0
                 ? g_strdup ("Not looked for on a model this large (planviz-cli plan looks)")
                 : g_strdup_printf ("%d value%s", n_random, n_random == 1 ? "" : "s");
      add_row (self, grid, "Random choices", random,
               "Values whose buffer ORT 1.30 chooses differently from one process to the next: its multi-stream "
               "pass walks hash maps seeded per process. planviz replays the pass in other orders to find them; "
               "the Inspector marks each");
    }
  kernels = g_strdup_printf ("%d", n_kernels);
  add_row (self, grid, "Kernels", kernels, NULL);
  barriers = g_strdup_printf ("%d", ort->n_barriers);
  add_row (self, grid, "Barriers", barriers, "Barrier steps: a stream waits for TriggerDownstream on others");
  waits = g_strdup_printf ("%d (%d notifications)", n_waits, ort->n_notifications);
  add_row (self, grid, "Waits", waits, "WaitOnEP steps and the notifications they wait for");
  if (s->schedule)
    {
      g_autofree char *makespan = g_strdup_printf ("%g kernel times%s", s->schedule->makespan,
                                                   s->schedule->deadlock ? " (deadlock: some steps never run)" : "");
      add_row (self, grid, "Makespan", makespan, "Simulated: every kernel takes one unit");
    }
}

/* ORT makes and runs this plan: what that does, for the worst kind found
 * (PvViolationKind runs from worst to mildest). */
static const char *
worst_effect_text (const PvCheckResult *check)
{
  PvViolationKind worst = PV_VIOLATION_UNORDERED;

  for (int i = 0; i < check->n_violations; i++)
    worst = MIN (worst, check->violations[i].kind);
  return pv_violation_effect (worst);
}

static void
add_checker_section (PvSummaryView *self, const PvSession *s, PvPlannerKind kind)
{
  const PvCheckResult *check = check_for (s, kind);
  GtkWidget *grid = add_section (self, "Checker");
  GtkWidget *value;

  if (check == NULL)
    {
      add_row (self, grid, "Verdict", "Not checked: the plan is deferred", NULL);
      return;
    }
  if (check->ok)
    {
      value = add_row (self, grid, "Verdict", "Safe",
                       "No two values share bytes while both are live, on any stream");
      gtk_widget_add_css_class (value, "success");
      return;
    }
  {
    g_autofree char *text = g_strdup_printf ("Unsafe: %d hazard%s", check->n_violations,
                                             check->n_violations == 1 ? "" : "s");
    value = add_row (self, grid, "Verdict", text, NULL);
    gtk_widget_add_css_class (value, "error");
  }
  if (kind == PV_PLANNER_ORT)
    add_row (self, grid, "In ORT", worst_effect_text (check), NULL);
  for (int i = 0; i < check->n_violations && i < 50; i++)
    {
      static const char *const kinds[] = { "No memory", "Overlap", "Unordered" };
      const PvViolation *v = &check->violations[i];
      add_row (self, grid, kinds[CLAMP ((int) v->kind, 0, 2)], v->message, pv_violation_effect (v->kind));
    }
  if (check->n_violations > 50)
    {
      g_autofree char *more = g_strdup_printf ("and %d more", check->n_violations - 50);
      add_row (self, grid, "", more, NULL);
    }
}

static void
rebuild (PvSummaryView *self)
{
  PvDocument *document = pv_side_page_get_document (PV_SIDE_PAGE (self));
  const PvSession *s, *latest, *body;
  PvPlannerKind kind;

  if (self->content)
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), NULL);
  g_hash_table_remove_all (self->values);
  self->content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_widget_add_css_class (self->content, "pv-summary");
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->content);

  s = document ? pv_document_get_plan_session (document) : NULL;
  latest = document ? pv_document_get_session (document) : NULL;
  body = self->subgraph && s ? pv_document_find_session (document, self->subgraph) : NULL;
  if (body)
    {
      g_autofree char *text = g_strdup_printf ("%s. %s", self->subgraph_title, self->subgraph_note);
      add_note (self, text, "pv-subgraph-summary-note");
      s = body;
      latest = NULL;
    }
  if (s == NULL)
    {
      if (latest && latest->ort == NULL && latest->ort_error)
        {
          g_autofree char *error = g_utf8_make_valid (latest->ort_error, -1);
          g_autofree char *text = g_strdup_printf ("ONNX Runtime would not run this: %s", error);
          add_note (self, text, "pv-stale-note");
        }
      else
        add_note (self, document && pv_document_get_model (document)
                          ? "There is no valid plan yet: fix the partition config."
                          : "Open a model to see its plan.",
                  "dim-label");
      return;
    }
  kind = pv_document_get_planner (document);
  if (pv_document_get_stale (document))
    add_note (self, "The partition config is invalid: these are the numbers of the last valid plan.",
              "pv-stale-note");
  add_memory_section (self, s, kind);
  if (s->ort == NULL)
    {
      /* A body ORT would not plan (the main graph always has a plan here). */
      add_note (self, s->ort_error ? s->ort_error : "ONNX Runtime would not run this", "pv-stale-note");
      return;
    }
  add_execution_section (self, s);
  add_checker_section (self, s, kind);
  {
    GtkWidget *grid = add_section (self, "Partition");
    const PvPartitionCheck *check = latest ? latest->partition_check : s->partition_check;
    g_autofree char *timing = g_strdup_printf ("%.1f ms", s->plan_ms);
    if (s == body)
      add_row (self, grid, "ONNX Runtime", "Not used for subgraphs: one stream with ORT's default partition",
               "allocation_planner.cc passes an empty config path when planning a subgraph");
    else if (check)
      add_row (self, grid, "ONNX Runtime", check->summary, NULL);
    else
      add_row (self, grid, "ONNX Runtime", "Uses its default partition", NULL);
    add_row (self, grid, "Plan time", timing, "Shapes, all three plans, the schedule and the checks");
  }
}

static void
pv_summary_view_document_changed (PvSidePage *page)
{
  rebuild (PV_SUMMARY_VIEW (page));
}

void
pv_summary_view_show_subgraph (PvSummaryView *self, const PvGraph *graph, const char *title, const char *note)
{
  g_return_if_fail (PV_IS_SUMMARY_VIEW (self));

  self->subgraph = graph;
  g_free (self->subgraph_title);
  self->subgraph_title = g_strdup (graph && title ? title : "");
  g_free (self->subgraph_note);
  self->subgraph_note = g_strdup (graph && note ? note : "");
  rebuild (self);
}

const char *
pv_summary_view_get_value (PvSummaryView *self, const char *key)
{
  g_return_val_if_fail (PV_IS_SUMMARY_VIEW (self), NULL);
  return g_hash_table_lookup (self->values, key);
}

/* ---- GObject ---- */

static void
pv_summary_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), PV_TYPE_SUMMARY_VIEW);
  G_OBJECT_CLASS (pv_summary_view_parent_class)->dispose (object);
}

static void
pv_summary_view_finalize (GObject *object)
{
  PvSummaryView *self = (PvSummaryView *) object;

  g_clear_pointer (&self->values, g_hash_table_unref);
  g_free (self->subgraph_title);
  g_free (self->subgraph_note);
  G_OBJECT_CLASS (pv_summary_view_parent_class)->finalize (object);
}

static void
pv_summary_view_class_init (PvSummaryViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pv_summary_view_dispose;
  object_class->finalize = pv_summary_view_finalize;
  PV_SIDE_PAGE_CLASS (klass)->document_changed = pv_summary_view_document_changed;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/planviz/Planviz/ui/pv-summary-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PvSummaryView, scroller);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "pvsummaryview");
}

static void
pv_summary_view_init (PvSummaryView *self)
{
  GSignalGroup *document_signals = pv_side_page_get_document_signals (PV_SIDE_PAGE (self));

  self->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_signal_group_connect_swapped (document_signals, "plan-changed", G_CALLBACK (rebuild), self);
  g_signal_group_connect_swapped (document_signals, "notify::planner", G_CALLBACK (rebuild), self);
  gtk_widget_init_template (GTK_WIDGET (self));
  rebuild (self);
}
