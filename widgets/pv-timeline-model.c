/* pv-timeline-model.c: planner records -> timeline items (see the header):
 * the builder's shared steps (sizes, op colours, live intervals), the
 * public API and small helpers. Streams, curves and memory views are built
 * in pv-timeline-model-*.c. */
#include "pv-timeline-model-private.h"

#include "pv-sort.h"
#include "pv-value-aliases.h"

#include <stdlib.h>
#include <string.h>

/* ---- small helpers ---- */

const char *
pv_timeline_device_name (int device)
{
  switch (device)
    {
    case PV_ORT_DEVICE_CPU: return "CPU";
    case PV_ORT_DEVICE_GPU: return "GPU";
    case 2: return "FPGA";
    case 3: return "NPU";
    default: return "device";
    }
}

char *
pv_timeline_format_bytes (guint64 bytes)
{
  if (bytes < 1024)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " B", bytes);
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

guint8
pv_timeline_kind_colour (PvOrtAllocKind kind)
{
  int k = (int) kind + 1;
  if (k < 0 || k >= PV_TIMELINE_N_KIND_COLOURS)
    k = 0;
  return (guint8) (PV_TIMELINE_KIND_COLOUR_BASE + k);
}

const char *
pv_timeline_mark_kind_name (PvTimelineMarkKind kind)
{
  static const char *const names[] = { "barrier", "wait", "notify", "trigger" };
  return (unsigned) kind < G_N_ELEMENTS (names) ? names[kind] : "step";
}

int
pv_timeline_first_reaching (const double *max_end, int first, int n, double t)
{
  int lo = first, hi = first + n;

  while (lo < hi)
    {
      int mid = lo + (hi - lo) / 2;
      if (max_end[mid] >= t)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

int
pv_timeline_short_name_span (const char **name)
{
  const char *s = *name, *end = s + strlen (s), *tail;
  int slashes = 0;

  /* "/layers.0/attn/k_proj/MatMul_output_0" -> "k_proj/MatMul" */
  if (end - s > 9 && strcmp (end - 9, "_output_0") == 0)
    end -= 9;
  tail = end;
  while (tail > s)
    {
      if (tail[-1] == '/' && ++slashes == 2)
        break;
      tail--;
    }
  if (tail == end)
    tail = s, end = s + strlen (s);
  *name = tail;
  return (int) (end - tail);
}

char *
pv_timeline_short_name (const char *name)
{
  int len;

  if (name == NULL)
    return g_strdup ("");
  len = pv_timeline_short_name_span (&name);
  return g_strndup (name, len);
}

char *
pv_timeline_numbered (const char *prefix, int n)
{
  char digits[16];
  int len = 0;
  guint u = n < 0 ? -(guint) n : (guint) n;

  do
    digits[len++] = (char) ('0' + u % 10);
  while ((u /= 10) > 0);
  if (n < 0)
    digits[len++] = '-';
  {
    gsize plen = strlen (prefix);
    char *out = g_malloc (plen + len + 1);
    memcpy (out, prefix, plen);
    for (int i = 0; i < len; i++)
      out[plen + i] = digits[len - 1 - i];
    out[plen + len] = '\0';
    return out;
  }
}

/* ---- the builder's shared steps ---- */

static void
build_sizes (Builder *b)
{
  const PvGraph *g = b->g;
  const PvTimelineSource *src = b->src;

  b->bytes = g_new0 (guint64, MAX (g->n_values, 1));
  /* The session's roots; a source made by hand may give only the views. */
  if (src->view_root)
    b->view_root = g_memdup2 (src->view_root, sizeof (int) * MAX (g->n_values, 1));
  else
    b->view_root = pv_value_view_roots (src->view_source, g->n_values);
  for (int v = 0; v < g->n_values; v++)
    {
      if (src->value_bytes)
        b->bytes[v] = src->value_bytes[v];
      else if (src->slots && src->slots->bytes)
        b->bytes[v] = src->slots->bytes[v];
    }
  for (int v = 0; v < g->n_values; v++)
    if (b->bytes[v] == 0 && b->view_root[v] != v)
      b->bytes[v] = b->bytes[b->view_root[v]];
}

/* ---- op colours ---- */

typedef struct {
  const char *op_type;
  int n_nodes;
  guint64 bytes;
} OpStat;

static int
compare_op_stats (const void *a, const void *b)
{
  const OpStat *x = a, *y = b;
  if (x->bytes != y->bytes)
    return x->bytes > y->bytes ? -1 : 1;
  if (x->n_nodes != y->n_nodes)
    return y->n_nodes - x->n_nodes;
  return strcmp (x->op_type, y->op_type);
}

/* The op types whose outputs hold the most bytes get the colours; the rest
 * share "other". Colours follow that rank, so one model always looks the
 * same. */
static void
build_op_colours (Builder *b)
{
  const PvGraph *g = b->g;
  PvTimelineModel *m = b->m;
  /* Op types are interned (pv-graph.h): their pointers are their identity. */
  g_autoptr (GHashTable) index = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GArray) stats = g_array_new (FALSE, TRUE, sizeof (OpStat));
  int n_coloured, other_nodes = 0;
  guint64 other_bytes = 0;

  for (int n = 0; n < g->n_nodes; n++)
    {
      const PvNode *node = &g->nodes[n];
      gpointer found = g_hash_table_lookup (index, node->op_type);
      OpStat *st;
      if (found == NULL)
        {
          OpStat fresh = { node->op_type, 0, 0 };
          g_array_append_val (stats, fresh);
          g_hash_table_insert (index, (gpointer) node->op_type, GINT_TO_POINTER (stats->len));
          found = GINT_TO_POINTER (stats->len);
        }
      st = &g_array_index (stats, OpStat, GPOINTER_TO_INT (found) - 1);
      st->n_nodes++;
      for (int k = 0; k < node->n_outputs; k++)
        if (node->outputs[k] >= 0 && b->view_root[node->outputs[k]] == node->outputs[k])
          st->bytes += b->bytes[node->outputs[k]];
    }
  if (stats->len > 1)
    qsort (stats->data, stats->len, sizeof (OpStat), compare_op_stats);
  n_coloured = MIN ((int) stats->len, PV_TIMELINE_N_OP_COLOURS - 1);
  /* Exactly one op type too many: give it the last colour rather than
   * calling a single op "other". */
  if ((int) stats->len == PV_TIMELINE_N_OP_COLOURS)
    n_coloured = PV_TIMELINE_N_OP_COLOURS;

  m->ops = g_new0 (PvTimelineOpEntry, n_coloured + 1);
  for (guint i = 0; i < stats->len; i++)
    {
      OpStat *st = &g_array_index (stats, OpStat, i);
      if ((int) i < n_coloured)
        {
          m->ops[i] = (PvTimelineOpEntry) { st->op_type, (guint8) i, st->n_nodes, st->bytes };
          g_hash_table_insert (index, (gpointer) st->op_type, GINT_TO_POINTER (i + 1));
        }
      else
        {
          other_nodes += st->n_nodes;
          other_bytes += st->bytes;
          g_hash_table_insert (index, (gpointer) st->op_type, GINT_TO_POINTER (PV_TIMELINE_N_OP_COLOURS));
        }
    }
  m->n_ops = n_coloured;
  if (other_nodes > 0)
    m->ops[m->n_ops++] = (PvTimelineOpEntry) { NULL, PV_TIMELINE_N_OP_COLOURS - 1, other_nodes, other_bytes };

  m->node_colour = g_new (guint8, MAX (g->n_nodes, 1));
  for (int n = 0; n < g->n_nodes; n++)
    m->node_colour[n] = (guint8) (GPOINTER_TO_INT (g_hash_table_lookup (index, g->nodes[n].op_type)) - 1);
}

/* Live intervals: the schedule's, or program order's (producer's start to
 * the last reader's end, graph outputs to the end). */
static void
build_value_spans (Builder *b)
{
  const PvGraph *g = b->g;
  PvTimelineModel *m = b->m;

  b->value_spans = g_new (PvSpan, MAX (g->n_values, 1));
  if (b->src->schedule)
    {
      memcpy (b->value_spans, b->src->schedule->value_spans, sizeof (PvSpan) * g->n_values);
      return;
    }
  for (int v = 0; v < g->n_values; v++)
    {
      const PvValue *value = &g->values[v];
      b->value_spans[v] = (PvSpan) { -1, -1 };
      if (value->producer >= 0)
        b->value_spans[v] = (PvSpan) { m->kernels[m->node_kernel[value->producer]].start,
                                       m->kernels[m->node_kernel[value->producer]].end };
      else if (!(value->flags & (PV_VALUE_INITIALIZER | PV_VALUE_OUTER_SCOPE)))
        b->value_spans[v] = (PvSpan) { 0, 0 };
    }
  for (int n = 0; n < g->n_nodes; n++)
    {
      const PvNode *node = &g->nodes[n];
      double end = m->kernels[m->node_kernel[n]].end;
      for (int k = 0; k < node->n_inputs + node->n_implicit_inputs; k++)
        {
          int v = k < node->n_inputs ? node->inputs[k] : node->implicit_inputs[k - node->n_inputs];
          if (v >= 0 && b->value_spans[v].start >= 0)
            b->value_spans[v].end = MAX (b->value_spans[v].end, end);
        }
    }
  for (int i = 0; i < g->n_outputs; i++)
    if (b->value_spans[g->outputs[i]].start >= 0)
      b->value_spans[g->outputs[i]].end = m->t_end;
}

/* The values every memory view draws, in the order of their bars within a
 * lane: one sort of ids here instead of one sort of bars per view. */
static void
build_start_order (Builder *b)
{
  const PvGraph *g = b->g;
  g_autofree guint64 *keys = g_new (guint64, MAX (g->n_values, 1));
  g_autofree int *scratch = g_new (int, MAX (g->n_values, 1));

  /* Ids ascending, then a stable sort by start: (start, id). */
  b->by_start = g_new (int, MAX (g->n_values, 1));
  for (int v = 0; v < g->n_values; v++)
    {
      keys[v] = pv_sort_key_double (b->value_spans[v].start);
      if (b->value_spans[v].start >= 0)
        b->by_start[b->n_by_start++] = v;
    }
  pv_sort_by_key (b->by_start, b->n_by_start, keys, scratch);
}

/* ---- public ---- */

PvTimelineModel *
pv_timeline_model_new (const PvTimelineSource *source)
{
  PvTimelineModel *m;
  Builder b = { 0 };

  g_return_val_if_fail (source != NULL && source->graph != NULL, NULL);
  g_return_val_if_fail ((source->ort == NULL) == (source->schedule == NULL), NULL);

  m = g_atomic_rc_box_new0 (PvTimelineModel);
  b.src = source;
  b.g = source->graph;
  b.m = m;
  m->graph = source->graph;
  m->has_plan = source->ort != NULL;
  m->sizes_incomplete = source->slots != NULL && source->slots->deferred;
  m->load_bytes = source->load_bytes;

  build_sizes (&b);
  build_op_colours (&b);
  m->node_kernel = g_new (int, MAX (b.g->n_nodes, 1));
  for (int n = 0; n < b.g->n_nodes; n++)
    m->node_kernel[n] = -1;
  if (source->ort)
    pv_timeline_build_streams_from_plan (&b);
  else
    pv_timeline_build_program_order (&b);
  m->kernel_max_end = pv_timeline_running_max (m->kernels, sizeof (PvTimelineKernel), G_STRUCT_OFFSET (PvTimelineKernel, end), m->n_kernels, m->streams,
                                   m->n_streams);
  build_value_spans (&b);
  build_start_order (&b);
  pv_timeline_build_curves (&b);
  if (source->ort_run && source->schedule)
    pv_timeline_arena_build (&m->arena, source->ort_run, source->schedule);
  pv_timeline_build_slots_view (&b);
  pv_timeline_build_ort_view (&b);
  pv_timeline_build_arena_view (&b);
  if (m->t_end <= 0)
    m->t_end = 1;

  g_free (b.value_spans);
  g_free (b.bytes);
  g_free (b.view_root);
  g_free (b.by_start);
  return m;
}

void
pv_timeline_source_init_from_session (PvTimelineSource *source, const PvSession *session)
{
  g_return_if_fail (source != NULL && session != NULL);

  memset (source, 0, sizeof *source);
  source->graph = session->graph;
  if (session->ort && session->schedule)
    {
      source->ort = session->ort;
      source->schedule = session->schedule;
    }
  source->slots = session->slots;
  source->view_source = session->view_source;
  source->view_root = session->view_root;
  source->inplace_source = session->inplace_source;
  source->arena = session->arena;
  source->arena_values = session->arena_values;
  source->n_arena_values = session->n_arena_values;
  source->value_bytes = session->value_bytes;
  source->load_bytes = session->load_bytes;
  /* Deferred: the arena simulation counts only values of known size. */
  source->ort_run = session->slots && session->slots->deferred ? NULL : session->ort_run;
  source->unbound_symbols = (const char *const *) session->unbound_symbols;
  if (session->basis && session->basis->n_shapeless > 0)
    source->no_shape_rule = (const char *const *) session->basis->no_shape_rule;
}

PvTimelineModel *
pv_timeline_model_ref (PvTimelineModel *model)
{
  return g_atomic_rc_box_acquire (model);
}

static void
free_lanes (PvTimelineLane *lanes, int n)
{
  for (int i = 0; i < n; i++)
    {
      g_free (lanes[i].label);
      g_free (lanes[i].detail);
    }
  g_free (lanes);
}

static void
model_clear (PvTimelineModel *m)
{
  free_lanes (m->streams, m->n_streams);
  g_free (m->kernels);
  g_free (m->kernel_max_end);
  g_free (m->node_kernel);
  g_free (m->marks);
  g_free (m->arrows);
  g_free (m->arrow_max_end);
  free_lanes (m->curve_lanes, m->n_curves);
  for (int c = 0; c < m->n_curves; c++)
    {
      g_free (m->curves[c].times);
      g_free (m->curves[c].bytes);
    }
  g_free (m->curves);
  pv_timeline_arena_clear (&m->arena);
  for (int v = 0; v < PV_TIMELINE_N_MEMORY_VIEWS; v++)
    {
      PvTimelineMemory *mem = &m->memory[v];
      g_free (mem->title);
      g_free (mem->unavailable);
      free_lanes (mem->lanes, mem->n_lanes);
      g_free (mem->bars);
      g_free (mem->bar_max_end);
      g_free (mem->links);
      g_free (mem->value_bar);
    }
  g_free (m->ops);
  g_free (m->node_colour);
}

void
pv_timeline_model_unref (PvTimelineModel *model)
{
  if (model)
    g_atomic_rc_box_release_full (model, (GDestroyNotify) model_clear);
}
