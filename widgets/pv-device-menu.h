/* pv-device-menu.h: the "Run on <device>" part of a kernel menu.
 *
 * Both the timeline's context menu and the Values page's row menu offer it.
 * For kernels of a timeline model, and each device a CPU + CUDA ONNX
 * Runtime runs (GPU, device 1; CPU, device 0) that does not already run all
 * of them: "Run on GPU (device 1)" (a new stream on it) when no stream
 * runs there, else a submenu with "New Stream on GPU" and the streams that
 * run there. Its items activate @action with a "(ii)" target: (device,
 * stream), stream -1 for a new one. FPGA and NPU (2, 3), which the config
 * format allows, are left out: no execution provider planviz models (or
 * the window's CPU and CUDA registries) runs them. */
#pragma once

#include <gio/gio.h>

#include "pv-timeline-model.h"

G_BEGIN_DECLS

/* A new menu for @nodes (node ids of @model's graph, at least one), empty
 * when every device already runs all of them, @model has no plan or is of
 * a subgraph body (which ORT runs on its owner's device, whatever the
 * config says). */
GMenu *pv_device_menu_new (const PvTimelineModel *model, const int *nodes, guint n_nodes, const char *action);

G_END_DECLS
