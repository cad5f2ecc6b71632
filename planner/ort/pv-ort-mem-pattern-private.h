/* pv-ort-mem-pattern-private.h: the memory pattern with a chosen switch
 * from ORT's scan to the trees, for tests and benchmarks. */
#pragma once

#include "pv-ort-mem-pattern.h"

G_BEGIN_DECLS

/* Live blocks up to which a pattern scans as ORT does (the trees only pay
 * for themselves past a few dozen: tests/bench). */
#define PV_ORT_MEM_PATTERN_MAX_SCAN 64

/* A pattern that scans while at most @max_scan blocks are live at once and
 * uses the trees from the first time more are (0: trees from the start).
 * The offsets are the same whatever @max_scan. */
PvOrtMemPattern *pv_ort_mem_pattern_new_with_scan (guint max_scan);

G_END_DECLS
