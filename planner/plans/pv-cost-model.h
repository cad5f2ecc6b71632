/* pv-cost-model.h: how long a kernel takes in the schedule simulation.
 *
 * The default is one time unit per kernel. The roofline model estimates a
 * kernel's time as the larger of its arithmetic (FLOPs at a peak rate) and
 * its memory traffic (bytes read and written at a bandwidth): matrix
 * products and convolutions count 2 FLOPs per multiply-add, everything else
 * one per output element. Times are in microseconds. */
#pragma once

#include "pv-schedule.h"
#include "pv-shape-inference.h"

G_BEGIN_DECLS

typedef struct {
  const PvShapeInfo *shapes;
  GHashTable *bounds;        /* symbol -> gint64*, may be NULL (unbound dims count as 1) */
  double flops_per_us;       /* peak arithmetic rate, e.g. 1e6 = 1 TFLOP/s */
  double bytes_per_us;       /* memory bandwidth, e.g. 1e5 = 100 GB/s */
} PvRooflineCost;

/* A PvNodeCost; @user_data is a PvRooflineCost. Never below 0.01 µs. */
double pv_roofline_cost (gpointer user_data, const PvGraph *graph, int node);

/* Estimated FLOPs of a node (for the inspector, too). */
double pv_node_flops (const PvShapeInfo *shapes, const PvGraph *graph, int node, GHashTable *bounds);

G_END_DECLS
