/* pv-memory-policy.h: how this process's allocator treats the memory a
 * re-plan frees, so that the next re-plan finds it ready. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Keeps blocks up to 32 MB in the heap and freed memory up to 256 MB in the
 * process (glibc; elsewhere nothing changes). Call once, early: planviz,
 * planviz-cli and the benchmarks that stand for them do. */
void pv_memory_policy_keep_freed (void);

G_END_DECLS
