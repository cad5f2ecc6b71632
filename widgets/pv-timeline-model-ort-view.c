/* pv-timeline-model-ort-view.c: the timeline model's view of ORT's
 * buffers: one lane per root OrtValue with every value ORT plans into it,
 * marked by the reuse rule that put it there, and the links from the input
 * whose buffer an aliasing or in-place output takes. */
#include "pv-timeline-model-private.h"

#include "pv-sort.h"

/* ORT's buffers: one lane per root OrtValue, holding every value ORT plans
 * into it, lanes in order of first use. */
void
pv_timeline_build_ort_view (Builder *b)
{
  const PvOrtPlan *ort = b->src->ort;
  const PvGraph *g = b->g;
  PvTimelineMemory *mem = &b->m->memory[PV_TIMELINE_MEMORY_ORT_BUFFERS];
  g_autofree int *root_of = NULL, *lane_of_root = NULL, *order = NULL;
  g_autofree double *first_use = NULL;
  PvTimelineBar *bars;
  int n_bars = 0;
  GArray *links;
  int n_roots = 0, n_reused = 0;
  guint64 allocated = 0;
  g_autofree char *allocated_text = NULL;

  if (ort == NULL)
    {
      mem->unavailable = g_strdup ("no ONNX Runtime plan");
      return;
    }
  root_of = g_new (int, MAX (ort->n_values, 1));
  lane_of_root = g_new (int, MAX (ort->n_values, 1));
  first_use = g_new (double, MAX (ort->n_values, 1));
  for (int i = 0; i < ort->n_values; i++)
    {
      const PvOrtValuePlan *vp = &ort->values[i];
      const PvValue *value = &g->values[vp->value];
      int r = vp->reused_buffer;  /* a root (pv-ort-plan.h) */
      gboolean shown = vp->kind != PV_ORT_ALLOC_NOT_SET && vp->kind != PV_ORT_ALLOC_ALLOCATE_STATICALLY &&
                       !(value->flags & (PV_VALUE_INITIALIZER | PV_VALUE_OUTER_SCOPE)) &&
                       b->value_spans[vp->value].start >= 0;
      root_of[i] = shown ? r : -1;
      lane_of_root[i] = -1;
      first_use[i] = G_MAXDOUBLE;
    }
  for (int i = 0; i < ort->n_values; i++)
    if (root_of[i] >= 0)
      first_use[root_of[i]] = MIN (first_use[root_of[i]], b->value_spans[ort->values[i].value].start);
  /* Lanes by first use, then root index. */
  order = g_new (int, MAX (ort->n_values, 1));
  for (int i = 0; i < ort->n_values; i++)
    if (first_use[i] < G_MAXDOUBLE)
      order[n_roots++] = i;
  {
    g_autofree guint64 *keys = g_new (guint64, MAX (ort->n_values, 1));
    g_autofree int *scratch = g_new (int, MAX (n_roots, 1));
    for (int i = 0; i < ort->n_values; i++)
      keys[i] = first_use[i] < G_MAXDOUBLE ? pv_sort_key_double (first_use[i]) : 0;
    pv_sort_by_key (order, n_roots, keys, scratch);
  }
  mem->n_lanes = n_roots;
  mem->lanes = g_new0 (PvTimelineLane, MAX (n_roots, 1));
  for (int l = 0; l < n_roots; l++)
    {
      int r = order[l];
      const PvOrtValuePlan *vp = &ort->values[r];
      PvTimelineLane *lane = &mem->lanes[l];
      lane_of_root[r] = l;
      lane->kind = PV_TIMELINE_LANE_BUFFER;
      lane->id = r;
      lane->device = vp->location.type;
      lane->label = vp->location.type == PV_ORT_DEVICE_CPU ? pv_timeline_numbered ("buffer ", r)
                                                           : g_strdup_printf ("buffer %d · %s", r,
                                                                              pv_timeline_device_name (vp->location.type));
      lane->detail = pv_timeline_short_name (g->values[vp->value].name);
      if (vp->kind == PV_ORT_ALLOC_ALLOCATE)
        allocated += b->bytes[vp->value];
    }
  bars = g_new (PvTimelineBar, MAX (b->n_by_start, 1));
  for (int k = 0; k < b->n_by_start; k++)
    {
      int i = g->values[b->by_start[k]].ort_index;
      const PvOrtValuePlan *vp;
      PvTimelineBar bar;
      if (i < 0 || i >= ort->n_values || root_of[i] < 0 || ort->values[i].value != b->by_start[k])
        continue;
      vp = &ort->values[i];
      bar = pv_timeline_make_bar (b, vp->value, lane_of_root[root_of[i]]);
      bar.flags &= ~PV_TIMELINE_BAR_VIEW;
      switch (vp->reuse_rule)
        {
        case PV_ORT_REUSE_ALIAS:
        case PV_ORT_REUSE_VARIADIC_ALIAS:
        case PV_ORT_REUSE_LOOP_SHARE:
          bar.flags |= PV_TIMELINE_BAR_VIEW;
          break;
        case PV_ORT_REUSE_MAY_INPLACE:
          bar.flags |= PV_TIMELINE_BAR_INPLACE;
          break;
        case PV_ORT_REUSE_FREE_LIST:
        case PV_ORT_REUSE_STREAM_DOWNSTREAM:
          bar.flags |= PV_TIMELINE_BAR_REUSED;
          break;
        default:
          break;
        }
      if (i != root_of[i])
        n_reused++;
      bars[n_bars++] = bar;
    }
  pv_timeline_finish_memory (b, mem, bars, n_bars);
  for (int l = 0; l < mem->n_lanes; l++)
    {
      guint64 m = 0;
      for (int i = mem->lanes[l].first; i < mem->lanes[l].first + mem->lanes[l].n; i++)
        m = MAX (m, mem->bars[i].bytes);
      mem->lanes[l].bytes = m;
    }
  /* Links: an aliasing or in-place output from the input whose buffer it takes. */
  links = g_array_new (FALSE, FALSE, sizeof (PvTimelineLink));
  for (int i = 0; i < mem->n_bars; i++)
    {
      const PvTimelineBar *bar = &mem->bars[i];
      const PvValue *value = &g->values[bar->value];
      const PvNode *node;
      int oi = value->ort_index;
      if (!(bar->flags & (PV_TIMELINE_BAR_VIEW | PV_TIMELINE_BAR_INPLACE)) || value->producer < 0 || oi < 0)
        continue;
      node = &g->nodes[value->producer];
      for (int k = 0; k < node->n_inputs; k++)
        {
          int in = node->inputs[k], in_oi = in >= 0 ? g->values[in].ort_index : -1;
          if (in_oi >= 0 && in_oi < ort->n_values && root_of[in_oi] == root_of[oi] && mem->value_bar[in] >= 0)
            {
              PvTimelineLink link = { mem->value_bar[in], i,
                                      (bar->flags & PV_TIMELINE_BAR_INPLACE) ? PV_TIMELINE_LINK_INPLACE
                                                                              : PV_TIMELINE_LINK_ALIAS };
              g_array_append_val (links, link);
              break;
            }
        }
    }
  pv_timeline_set_links (mem, links);
  /* A deferred plan has no total: values of unknown size count nothing. */
  mem->peak_bytes = b->m->sizes_incomplete ? 0 : allocated;
  allocated_text = b->m->sizes_incomplete ? g_strdup ("sizes unknown, no total") : pv_timeline_format_bytes (allocated);
  mem->title = g_strdup_printf ("%d buffer%s · %d value%s reuse one · %s%s", n_roots, n_roots == 1 ? "" : "s",
                                n_reused, n_reused == 1 ? "" : "s", allocated_text,
                                b->m->sizes_incomplete ? "" : " allocated");
}

