#include "pv-memory-policy.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

/* A re-plan of a 10k-node model allocates and frees about 4 MB in arrays of
 * 100 KB and more, on three threads. glibc's defaults give blocks over 128
 * KB their own mappings and trim freed heap tops, so every re-plan faulted
 * in ~1,000 fresh zeroed pages and unmapped them again (with TLB shootdowns
 * across threads): 5 ms of kernel time per re-plan, a fifth of its CPU.
 * Kept in the heap, the next re-plan reuses them. A session of the 70k-node
 * model holds under 256 MB, so that much freed memory may stay. */
void
pv_memory_policy_keep_freed (void)
{
#ifdef __GLIBC__
  mallopt (M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt (M_TRIM_THRESHOLD, 256 * 1024 * 1024);
#endif
}
