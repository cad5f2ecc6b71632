/* pv-file-cut-guard.h: reading a mapped file that another program may cut
 * (truncate) meanwhile, as an exporter rewriting a model in place does.
 * A read of a mapped page past the file's new end raises SIGBUS, which kills
 * the process. Inside a guard, those pages read as zeros instead and the
 * guard records that the file was cut, so that the reader can say so. */
#pragma once

#include <glib.h>
#include <signal.h>

G_BEGIN_DECLS

typedef struct _PvFileCutGuard PvFileCutGuard;

struct _PvFileCutGuard {
  /*< private >*/
  const guint8 *start;
  gsize len;
  volatile sig_atomic_t cut;
  PvFileCutGuard *outer;
};

/* Guards this thread's reads of the mapping [@start, @start + @len) (from
 * mmap: private, read-only, page-aligned) until pv_file_cut_guard_end().
 * Installs a SIGBUS handler for the process the first time; it passes any
 * other SIGBUS on to the handler that was there before. */
void     pv_file_cut_guard_begin (PvFileCutGuard *guard, const void *start, gsize len);

/* Ends @guard (the innermost of this thread's). TRUE if the file was cut
 * while guarded: then some bytes read were zeros, not the file's, and the
 * mapping from the first missing page on is anonymous memory. */
gboolean pv_file_cut_guard_end (PvFileCutGuard *guard);

G_END_DECLS
