/* pv-timeline-model-memory.c: the timeline model's memory views: value
 * bars in lanes (ordered, with running maxima and links), the slots view and
 * the arena view. ORT's buffers are pv-timeline-model-ort-view.c. */
#include "pv-timeline-model-private.h"

#include <string.h>

static guint8
value_op_colour (Builder *b, int v)
{
  int producer = b->g->values[v].producer;
  return producer >= 0 ? b->m->node_colour[producer] : PV_TIMELINE_N_OP_COLOURS - 1;
}

/* Orders @bars, made in b->by_start order, by (lane, start, owners before
 * the views that live inside them, value): a stable counting sort by lane,
 * then views moved after the owners that start with them. Linear, where a
 * sort of 48-byte bars per view cost more than the rest of the model. */
static PvTimelineBar *
order_bars (const PvTimelineMemory *mem, const PvTimelineBar *in, guint n)
{
  PvTimelineBar *out = g_new (PvTimelineBar, MAX (n, 1));
  g_autofree int *fill = g_new0 (int, mem->n_lanes + 1);

  for (guint i = 0; i < n; i++)
    fill[in[i].lane + 1]++;
  for (int l = 0; l < mem->n_lanes; l++)
    fill[l + 1] += fill[l];
  for (guint i = 0; i < n; i++)
    out[fill[in[i].lane]++] = in[i];
  for (guint run = 0, end; run < n; run = end)
    {
      gboolean has_view = FALSE;
      for (end = run; end < n && out[end].lane == out[run].lane && out[end].start == out[run].start; end++)
        has_view |= (out[end].flags & PV_TIMELINE_BAR_VIEW) != 0;
      if (has_view && end - run > 1)
        {
          /* Stable: owners in id order, then views in id order. */
          g_autofree PvTimelineBar *tmp = g_memdup2 (out + run, sizeof (PvTimelineBar) * (end - run));
          guint k = run;
          for (guint i = 0; i < end - run; i++)
            if (!(tmp[i].flags & PV_TIMELINE_BAR_VIEW))
              out[k++] = tmp[i];
          for (guint i = 0; i < end - run; i++)
            if (tmp[i].flags & PV_TIMELINE_BAR_VIEW)
              out[k++] = tmp[i];
        }
    }
  return out;
}

static guint8
value_flags (Builder *b, int v)
{
  guint flags = b->g->values[v].flags;
  guint8 out = 0;
  if (flags & PV_VALUE_GRAPH_INPUT)
    out |= PV_TIMELINE_BAR_GRAPH_INPUT;
  if (flags & PV_VALUE_GRAPH_OUTPUT)
    out |= PV_TIMELINE_BAR_GRAPH_OUTPUT;
  if (b->view_root[v] != v)
    out |= PV_TIMELINE_BAR_VIEW;
  return out;
}

PvTimelineBar
pv_timeline_make_bar (Builder *b, int v, int lane)
{
  PvTimelineBar bar = { 0 };
  const PvOrtPlan *ort = b->src->ort;
  int oi = b->g->values[v].ort_index;

  bar.start = b->value_spans[v].start;
  bar.end = MAX (b->value_spans[v].end, bar.start);
  bar.value = v;
  bar.lane = lane;
  bar.bytes = b->bytes[v];
  bar.flags = value_flags (b, v);
  bar.op_colour = value_op_colour (b, v);
  bar.alloc_kind = PV_ORT_ALLOC_NOT_SET;
  if (ort && oi >= 0 && oi < ort->n_values)
    bar.alloc_kind = (gint8) ort->values[oi].kind;
  bar.kind_colour = pv_timeline_kind_colour ((PvOrtAllocKind) bar.alloc_kind);
  return bar;
}

/* Orders the bars (made in b->by_start order), fills lanes' ranges, running
 * maxima and value_bar. */
void
pv_timeline_finish_memory (Builder *b, PvTimelineMemory *mem, PvTimelineBar *bars, int n_bars)
{
  const PvGraph *g = b->g;

  mem->n_bars = n_bars;
  mem->bars = order_bars (mem, bars, n_bars);
  g_free (bars);
  for (int l = 0; l < mem->n_lanes; l++)
    mem->lanes[l].first = mem->lanes[l].n = 0;
  for (int i = mem->n_bars - 1; i >= 0; i--)
    {
      PvTimelineLane *lane = &mem->lanes[mem->bars[i].lane];
      lane->first = i;
      lane->n++;
    }
  mem->bar_max_end = pv_timeline_running_max (mem->bars, sizeof (PvTimelineBar), G_STRUCT_OFFSET (PvTimelineBar, end), mem->n_bars, mem->lanes, mem->n_lanes);
  mem->value_bar = g_new (int, MAX (g->n_values, 1));
  for (int v = 0; v < g->n_values; v++)
    mem->value_bar[v] = -1;
  for (int i = 0; i < mem->n_bars; i++)
    mem->value_bar[mem->bars[i].value] = i;
  mem->available = TRUE;
}

/* Links from each view to the value it views (when both have bars). */
static void
add_view_links (Builder *b, PvTimelineMemory *mem, GArray *links)
{
  const int *view_source = b->src->view_source;

  for (int i = 0; view_source && i < mem->n_bars; i++)
    {
      int v = mem->bars[i].value, src = view_source[v];
      if (src >= 0 && mem->value_bar[src] >= 0)
        {
          PvTimelineLink link = { mem->value_bar[src], i, PV_TIMELINE_LINK_ALIAS };
          g_array_append_val (links, link);
        }
    }
}

void
pv_timeline_set_links (PvTimelineMemory *mem, GArray *links)
{
  mem->n_links = (int) links->len;
  mem->links = (PvTimelineLink *) g_array_free (links, FALSE);
}

static char *
deferred_reason (Builder *b)
{
  const char *const *syms = b->src->unbound_symbols;
  const char *const *ops = b->src->no_shape_rule;
  g_autofree char *list = NULL;

  if (ops != NULL)
    {
      g_autofree char *names = ops[0] ? g_strjoinv (", ", (char **) ops) : g_strdup ("none");
      return g_strdup_printf ("the memory plan is deferred: some values have no known shape (no shape rule for %s)",
                              names);
    }
  if (syms == NULL || syms[0] == NULL)
    return g_strdup ("the memory plan is deferred: some sizes are unknown");
  list = g_strjoinv (", ", (char **) syms);
  return g_strdup_printf ("the memory plan is deferred: bind %s (--bound NAME=N)", list);
}

void
pv_timeline_build_slots_view (Builder *b)
{
  const PvSlotPlan *slots = b->src->slots;
  PvTimelineMemory *mem = &b->m->memory[PV_TIMELINE_MEMORY_SLOTS];
  PvTimelineBar *bars;
  int n_bars = 0;
  GArray *links;
  g_autofree char *peak = NULL;

  if (slots == NULL || slots->deferred)
    {
      mem->unavailable = slots ? deferred_reason (b) : g_strdup ("no slot plan");
      return;
    }
  mem->n_lanes = slots->n_slots;
  mem->lanes = g_new0 (PvTimelineLane, MAX (slots->n_slots, 1));
  for (int s = 0; s < slots->n_slots; s++)
    {
      PvTimelineLane *lane = &mem->lanes[s];
      lane->kind = PV_TIMELINE_LANE_SLOT;
      lane->id = slots->slots[s].id;
      lane->bytes = slots->slots[s].capacity;
      lane->label = pv_timeline_numbered ("slot ", slots->slots[s].id);
    }
  bars = g_new (PvTimelineBar, MAX (b->n_by_start, 1));
  for (int k = 0; k < b->n_by_start; k++)
    {
      int v = b->by_start[k], s = slots->slot_of[v];
      PvTimelineBar bar;
      if (s < 0 || s >= slots->n_slots)
        continue;
      bar = pv_timeline_make_bar (b, v, s);
      bars[n_bars++] = bar;
    }
  pv_timeline_finish_memory (b, mem, bars, n_bars);
  /* A slot's later owners took it over from earlier ones. */
  for (int l = 0; l < mem->n_lanes; l++)
    {
      gboolean seen_owner = FALSE;
      for (int i = mem->lanes[l].first; i < mem->lanes[l].first + mem->lanes[l].n; i++)
        if (!(mem->bars[i].flags & PV_TIMELINE_BAR_VIEW))
          {
            if (seen_owner)
              mem->bars[i].flags |= PV_TIMELINE_BAR_REUSED;
            seen_owner = TRUE;
          }
    }
  links = g_array_new (FALSE, FALSE, sizeof (PvTimelineLink));
  add_view_links (b, mem, links);
  pv_timeline_set_links (mem, links);
  mem->peak_bytes = slots->peak_bytes;
  peak = pv_timeline_format_bytes (slots->peak_bytes);
  mem->title = g_strdup_printf ("%d slot%s · %s reserved", slots->n_slots, slots->n_slots == 1 ? "" : "s",
                                peak);
}

void
pv_timeline_build_arena_view (Builder *b)
{
  const PvTimelineSource *src = b->src;
  PvTimelineMemory *mem = &b->m->memory[PV_TIMELINE_MEMORY_ARENA];
  g_autofree guint64 *offset_of = NULL;
  g_autofree gboolean *placed = NULL;
  PvTimelineBar *bars;
  int n_bars = 0;
  GArray *links;
  g_autofree char *peak = NULL;

  if (src->arena == NULL || src->arena_values == NULL)
    {
      mem->unavailable = src->slots && src->slots->deferred ? deferred_reason (b) : g_strdup ("no arena plan");
      return;
    }
  mem->n_lanes = 1;
  mem->lanes = g_new0 (PvTimelineLane, 1);
  mem->lanes[0].kind = PV_TIMELINE_LANE_ARENA;
  mem->lanes[0].bytes = src->arena->peak_bytes;
  mem->lanes[0].label = g_strdup ("arena");
  mem->lanes[0].detail = pv_timeline_format_bytes (src->arena->peak_bytes);

  offset_of = g_new0 (guint64, MAX (b->g->n_values, 1));
  placed = g_new0 (gboolean, MAX (b->g->n_values, 1));
  for (int i = 0; i < src->n_arena_values; i++)
    {
      offset_of[src->arena_values[i]] = src->arena->offsets[i];
      placed[src->arena_values[i]] = TRUE;
    }
  bars = g_new (PvTimelineBar, MAX (b->n_by_start, 1));
  for (int k = 0; k < b->n_by_start; k++)
    {
      int v = b->by_start[k], root = b->view_root[v];
      PvTimelineBar bar;
      if (root < 0 || !placed[root])
        continue;
      bar = pv_timeline_make_bar (b, v, 0);
      bar.offset = offset_of[root];
      bar.bytes = b->bytes[root];
      bars[n_bars++] = bar;
    }
  pv_timeline_finish_memory (b, mem, bars, n_bars);
  links = g_array_new (FALSE, FALSE, sizeof (PvTimelineLink));
  add_view_links (b, mem, links);
  pv_timeline_set_links (mem, links);
  mem->peak_bytes = src->arena->peak_bytes;
  peak = pv_timeline_format_bytes (src->arena->peak_bytes);
  mem->title = g_strdup_printf ("%d buffer%s · %s (%s)", src->n_arena_values,
                                src->n_arena_values == 1 ? "" : "s", peak,
                                src->arena->ordering ? src->arena->ordering : "offsets");
}

