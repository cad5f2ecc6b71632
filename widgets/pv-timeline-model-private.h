/* pv-timeline-model-private.h: what the timeline model's sources share:
 * the model under construction and the steps that build it, one source
 * file per kind of lane. Not installed; widgets/ only. */
#pragma once

#include "pv-timeline-model.h"

#include <string.h>

G_BEGIN_DECLS

/* The model under construction, and what its steps share. */
typedef struct {
  const PvTimelineSource *src;
  const PvGraph *g;
  PvTimelineModel *m;
  PvSpan *value_spans;     /* value id -> live interval */
  guint64 *bytes;          /* value id -> bytes (views: their root's) */
  int *view_root;          /* value id -> owner it views, itself otherwise */
  int *by_start;           /* values with a live interval, by (start, id) */
  int n_by_start;
} Builder;

/* ---- pv-timeline-model.c: small helpers ---- */

/* "CPU", "GPU", "FPGA", "NPU", else "device". */
const char *pv_timeline_device_name (int device);
/* "@prefix@n", newly allocated: one per lane, thousands per model, where
 * printf costs more than the rest of the lane. */
char *pv_timeline_numbered (const char *prefix, int n);
/* Running maxima of the double at @end_offset of @n items of @stride bytes,
 * over the consecutive groups @lanes give; newly allocated. Inline, as it
 * was before the model was split into files: with the stride and offset
 * known where it is called, the loop is a plain array walk (through a
 * call, the 100k-node model took 1 M more instructions). */
static inline double *
pv_timeline_running_max (const void *items, gsize stride, gsize end_offset, int n, const PvTimelineLane *lanes,
                         int n_lanes)
{
  double *max_end = g_new (double, MAX (n, 1));

  for (int l = 0; l < n_lanes; l++)
    {
      double m = -G_MAXDOUBLE;
      for (int i = lanes[l].first; i < lanes[l].first + lanes[l].n; i++)
        {
          double e;
          memcpy (&e, (const char *) items + stride * i + end_offset, sizeof e);
          m = MAX (m, e);
          max_end[i] = m;
        }
    }
  return max_end;
}

/* ---- pv-timeline-model-streams.c ---- */

/* The stream lanes, kernels, step marks and sync arrows of b->src->ort as
 * b->src->schedule times them; sets node_kernel, t_end and deadlock. */
void pv_timeline_build_streams_from_plan (Builder *b);
/* Without a plan: graph->order at unit cost on one lane. */
void pv_timeline_build_program_order (Builder *b);

/* ---- pv-timeline-model-curves.c ---- */

/* The live-bytes curves and their lanes. */
void pv_timeline_build_curves (Builder *b);

/* ---- pv-timeline-model-memory.c ---- */

/* Value @v's bar in lane @lane: its live interval, bytes, flags and colours. */
PvTimelineBar pv_timeline_make_bar (Builder *b, int v, int lane);
/* Takes @bars (made in b->by_start order): orders them, fills the lanes'
 * ranges, the running maxima and value_bar. */
void pv_timeline_finish_memory (Builder *b, PvTimelineMemory *mem, PvTimelineBar *bars, int n_bars);
/* Takes @links as @mem's links. */
void pv_timeline_set_links (PvTimelineMemory *mem, GArray *links);
void pv_timeline_build_slots_view (Builder *b);
void pv_timeline_build_arena_view (Builder *b);

/* ---- pv-timeline-model-ort-view.c ---- */

/* ORT's buffers: one lane per root OrtValue, holding every value ORT plans
 * into it, lanes in order of first use. */
void pv_timeline_build_ort_view (Builder *b);

G_END_DECLS
