/* pv-timeline-export.h: the timeline as a picture file (PNG, SVG, PDF) with
 * a title line on top, at 1× or 2×: what `planviz-cli render` and the
 * window's Export menu write. Cairo and pango only, no GTK. */
#pragma once

#include "pv-timeline-renderer.h"

G_BEGIN_DECLS

typedef enum {
  PV_TIMELINE_EXPORT_PNG,
  PV_TIMELINE_EXPORT_SVG,
  PV_TIMELINE_EXPORT_PDF,
} PvTimelineExportFormat;

/* What the title line and the file's metadata name. */
typedef struct {
  const char *model;            /* the model's file name */
  const char *config;           /* the partition config's file name; NULL: ORT's default partition */
  const char *graph;            /* the subgraph body drawn ("/Loop body"); NULL: the main graph */
} PvTimelineExportInfo;

/* Height of the title line in (unscaled) pixels, above the timeline. */
#define PV_TIMELINE_EXPORT_TITLE_HEIGHT 30

/* "cnn.onnx · ORT default partition · ort planner · peak live 1.2 MiB":
 * the planner is @renderer's memory view, the peak the live-bytes curve's
 * maximum (per device when there are several). Newly allocated. */
char *pv_timeline_export_title (PvTimelineRenderer *renderer, const PvTimelineExportInfo *info);

/* Draws @renderer's viewport under the title line onto a @format surface
 * @scale (1 or 2) times the size: a PNG of (width × (title + height)) ×
 * @scale pixels, an SVG or PDF page that many points. The PNG carries
 * tEXt chunks (Title, Model, Graph for a body, Config, Planner, Software), the SVG a <title>
 * and the PDF its Title metadata. Returns the file's bytes, or NULL with
 * @error set. */
GBytes *pv_timeline_export (PvTimelineRenderer *renderer, PvTimelineExportFormat format, int scale,
                            const PvTimelineExportInfo *info, GError **error);

G_END_DECLS
