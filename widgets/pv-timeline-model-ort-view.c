/* pv-timeline-model-ort-view.c: the timeline model's view of ORT's
 * buffers: one lane per root OrtValue with every value ORT plans into it,
 * marked by the reuse rule that put it there, and the links from the input
 * whose buffer an aliasing or in-place output takes. */
#include "pv-timeline-model-private.h"

#include "pv-sort.h"

/* ORT's values as lanes while they are made. */
typedef struct {
  const PvOrtPlan *ort;
  int *root_of;                 /* OrtValue index -> its root buffer, -1 when not drawn */
  int *lane_of_root;            /* root OrtValue index -> its lane, -1 */
  double *first_use;            /* root OrtValue index -> when its first value is made */
  int *order;                   /* lane -> root OrtValue index */
  int n_roots, n_reused;
  guint64 allocated;            /* what Allocate values take */
} OrtLanes;

/* Which values get a bar (planned, not static, not an initializer, live at
 * some time), in which root's buffer; and the roots in order of first use,
 * then root index. */
static void
ort_lanes_init (Builder *b, OrtLanes *o)
{
  const PvOrtPlan *ort = o->ort;
  const PvGraph *g = b->g;
  double *first_use;
  g_autofree guint64 *keys = NULL;
  g_autofree int *scratch = NULL;

  o->root_of = g_new (int, MAX (ort->n_values, 1));
  o->lane_of_root = g_new (int, MAX (ort->n_values, 1));
  o->first_use = first_use = g_new (double, MAX (ort->n_values, 1));
  for (int i = 0; i < ort->n_values; i++)
    {
      const PvOrtValuePlan *vp = &ort->values[i];
      const PvValue *value = &g->values[vp->value];
      int r = vp->reused_buffer;  /* a root (pv-ort-plan.h) */
      gboolean shown = vp->kind != PV_ORT_ALLOC_NOT_SET && vp->kind != PV_ORT_ALLOC_ALLOCATE_STATICALLY &&
                       !(value->flags & (PV_VALUE_INITIALIZER | PV_VALUE_OUTER_SCOPE)) &&
                       b->value_spans[vp->value].start >= 0;
      o->root_of[i] = shown ? r : -1;
      o->lane_of_root[i] = -1;
      first_use[i] = G_MAXDOUBLE;
    }
  for (int i = 0; i < ort->n_values; i++)
    if (o->root_of[i] >= 0)
      first_use[o->root_of[i]] = MIN (first_use[o->root_of[i]], b->value_spans[ort->values[i].value].start);
  o->order = g_new (int, MAX (ort->n_values, 1));
  for (int i = 0; i < ort->n_values; i++)
    if (first_use[i] < G_MAXDOUBLE)
      o->order[o->n_roots++] = i;
  keys = g_new (guint64, MAX (ort->n_values, 1));
  scratch = g_new (int, MAX (o->n_roots, 1));
  for (int i = 0; i < ort->n_values; i++)
    keys[i] = first_use[i] < G_MAXDOUBLE ? pv_sort_key_double (first_use[i]) : 0;
  pv_sort_by_key (o->order, o->n_roots, keys, scratch);
}

/* One lane per root buffer, named by its index (and device) and its first
 * value; counts what Allocate values take. */
static void
ort_make_lanes (Builder *b, OrtLanes *o, PvTimelineMemory *mem)
{
  const PvOrtPlan *ort = o->ort;

  mem->n_lanes = o->n_roots;
  mem->lanes = g_new0 (PvTimelineLane, MAX (o->n_roots, 1));
  for (int l = 0; l < o->n_roots; l++)
    {
      int r = o->order[l];
      const PvOrtValuePlan *vp = &ort->values[r];
      PvTimelineLane *lane = &mem->lanes[l];
      o->lane_of_root[r] = l;
      lane->kind = PV_TIMELINE_LANE_BUFFER;
      lane->id = r;
      lane->device = vp->location.type;
      lane->label = vp->location.type == PV_ORT_DEVICE_CPU
                      ? pv_timeline_numbered ("buffer ", r)
                      : g_strdup_printf ("buffer %d · %s", r, pv_timeline_device_name (vp->location.type));
      lane->detail = pv_timeline_short_name (b->g->values[vp->value].name);
      if (vp->kind == PV_ORT_ALLOC_ALLOCATE)
        o->allocated += b->bytes[vp->value];
    }
}

/* A bar's flags by the reuse rule that put its value into the buffer. */
static guint8
reuse_flags (guint8 flags, const PvOrtValuePlan *vp)
{
  flags &= ~PV_TIMELINE_BAR_VIEW;
  switch (vp->reuse_rule)
    {
    case PV_ORT_REUSE_ALIAS:
    case PV_ORT_REUSE_VARIADIC_ALIAS:
    case PV_ORT_REUSE_LOOP_SHARE:
      flags |= PV_TIMELINE_BAR_VIEW;
      break;
    case PV_ORT_REUSE_MAY_INPLACE:
      flags |= PV_TIMELINE_BAR_INPLACE;
      break;
    case PV_ORT_REUSE_FREE_LIST:
    case PV_ORT_REUSE_STREAM_DOWNSTREAM:
      flags |= PV_TIMELINE_BAR_REUSED;
      break;
    default:
      break;
    }
  return flags;
}

/* The bars, in b->by_start order, each in its root's lane; a lane's bytes
 * are its largest value's. */
static void
ort_make_bars (Builder *b, OrtLanes *o, PvTimelineMemory *mem)
{
  const PvOrtPlan *ort = o->ort;
  PvTimelineBar *bars = g_new (PvTimelineBar, MAX (b->n_by_start, 1));
  int n_bars = 0;

  for (int k = 0; k < b->n_by_start; k++)
    {
      int i = b->g->values[b->by_start[k]].ort_index;
      const PvOrtValuePlan *vp;
      PvTimelineBar bar;
      if (i < 0 || i >= ort->n_values || o->root_of[i] < 0 || ort->values[i].value != b->by_start[k])
        continue;
      vp = &ort->values[i];
      bar = pv_timeline_make_bar (b, vp->value, o->lane_of_root[o->root_of[i]]);
      bar.flags = reuse_flags (bar.flags, vp);
      if (i != o->root_of[i])
        o->n_reused++;
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
}

/* Links: an aliasing or in-place output from the input whose buffer it takes. */
static void
ort_make_links (Builder *b, OrtLanes *o, PvTimelineMemory *mem)
{
  const PvGraph *g = b->g;
  GArray *links = g_array_new (FALSE, FALSE, sizeof (PvTimelineLink));

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
          if (in_oi >= 0 && in_oi < o->ort->n_values && o->root_of[in_oi] == o->root_of[oi] &&
              mem->value_bar[in] >= 0)
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
}

void
pv_timeline_build_ort_view (Builder *b)
{
  PvTimelineMemory *mem = &b->m->memory[PV_TIMELINE_MEMORY_ORT_BUFFERS];
  gboolean incomplete = b->m->sizes_incomplete;
  char *allocated_text;
  OrtLanes o = { b->src->ort };

  if (o.ort == NULL)
    {
      mem->unavailable = g_strdup ("no ONNX Runtime plan");
      return;
    }
  ort_lanes_init (b, &o);
  ort_make_lanes (b, &o, mem);
  ort_make_bars (b, &o, mem);
  ort_make_links (b, &o, mem);
  /* A deferred plan has no total: values of unknown size count nothing. */
  mem->peak_bytes = incomplete ? 0 : o.allocated;
  allocated_text = incomplete ? g_strdup ("sizes unknown, no total") : pv_timeline_format_bytes (o.allocated);
  mem->title = g_strdup_printf ("%d buffer%s · %d value%s reuse one · %s%s", o.n_roots, o.n_roots == 1 ? "" : "s",
                                o.n_reused, o.n_reused == 1 ? "" : "s", allocated_text, incomplete ? "" : " allocated");
  /* Freed in the order the one function before the split did: glibc's
   * heap then behaves the same, and so do the benchmark's figures. */
  g_free (allocated_text);
  g_free (o.first_use);
  g_free (o.order);
  g_free (o.lane_of_root);
  g_free (o.root_of);
}
