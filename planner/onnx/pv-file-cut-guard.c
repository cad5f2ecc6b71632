/* pv-file-cut-guard.c: see the header. A SIGBUS disposition belongs to the
 * whole process, so the handler and the one it replaced are the only
 * process-wide state of the planner; which mapping is guarded is per
 * thread. */
#include "pv-file-cut-guard.h"

#include <sys/mman.h>
#include <unistd.h>

static _Thread_local PvFileCutGuard *current;
static struct sigaction previous;
static gsize page_size;

/* Not ours: what the handler before ours would have done. SIG_DFL (or
 * SIG_IGN, which cannot skip a fault) comes back into force and the fault,
 * repeated on return, ends the process as it would have without us. */
static void
pass_on (int sig, siginfo_t *info, void *context)
{
  if (previous.sa_flags & SA_SIGINFO)
    previous.sa_sigaction (sig, info, context);
  else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN)
    previous.sa_handler (sig);
  else
    signal (sig, SIG_DFL);
}

static void
on_sigbus (int sig, siginfo_t *info, void *context)
{
  guintptr addr = (guintptr) info->si_addr;

  for (PvFileCutGuard *guard = current; guard; guard = guard->outer)
    {
      guintptr start = (guintptr) guard->start;
      guintptr end = (start + guard->len + page_size - 1) & ~(guintptr) (page_size - 1);
      guintptr page = addr & ~(guintptr) (page_size - 1);

      if (addr < start || addr >= end)
        continue;
      /* Zeros from the missing page to the end of the mapping: the read
       * that faulted is repeated on return, and no later one faults. mmap
       * is a plain system call, safe in a handler. */
      if (mmap ((void *) page, end - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
        break;
      guard->cut = 1;
      return;
    }
  pass_on (sig, info, context);
}

static void
install_handler (void)
{
  static gsize installed;

  if (g_once_init_enter (&installed))
    {
      struct sigaction action = { 0 };

      page_size = (gsize) sysconf (_SC_PAGESIZE);
      action.sa_sigaction = on_sigbus;
      action.sa_flags = SA_SIGINFO;
      sigemptyset (&action.sa_mask);
      sigaction (SIGBUS, &action, &previous);
      g_once_init_leave (&installed, 1);
    }
}

void
pv_file_cut_guard_begin (PvFileCutGuard *guard, const void *start, gsize len)
{
  install_handler ();
  guard->start = start;
  guard->len = len;
  guard->cut = 0;
  guard->outer = current;
  current = guard;
}

gboolean
pv_file_cut_guard_end (PvFileCutGuard *guard)
{
  g_return_val_if_fail (current == guard, FALSE);
  current = guard->outer;
  return guard->cut != 0;
}
