/* pv-tsan-private.h: the hand-offs between threads that ThreadSanitizer
 * cannot see, told to it. GLib is not instrumented: GMutex and GCond are
 * futexes, and GTask, GThreadPool and g_main_context_invoke() pass work on
 * through them, so TSan would take every hand-off for a race. In a PV_TSAN
 * build (meson -Db_sanitize=thread) these mark the happens-before edges that
 * GLib makes; in every other build they are nothing.
 *
 * pv_tsan_release (p) before handing what @p leads to to another thread, and
 * pv_tsan_acquire (p) where that thread takes it: everything the first
 * thread did before the release happens before what the second does after
 * the acquire. @p is only a key; it must stay allocated between the two
 * (freed memory forgets its keys). Mark only edges that GLib really makes:
 * a mark where there is no synchronisation hides a real race. */
#pragma once

#include <glib.h>

#ifdef PV_TSAN
#include <sanitizer/tsan_interface.h>
#define pv_tsan_release(p) __tsan_release ((void *) (p))
#define pv_tsan_acquire(p) __tsan_acquire ((void *) (p))
#else
#define pv_tsan_release(p) ((void) (p))
#define pv_tsan_acquire(p) ((void) (p))
#endif

G_BEGIN_DECLS

/* GMutex and GCond, as TSan sees pthread's: what one thread did before it
 * unlocked happens before what the next holder does. */
static inline void
pv_mutex_init (GMutex *mutex)
{
  g_mutex_init (mutex);
#ifdef PV_TSAN
  __tsan_mutex_create (mutex, 0);
#endif
}

static inline void
pv_mutex_clear (GMutex *mutex)
{
#ifdef PV_TSAN
  __tsan_mutex_destroy (mutex, 0);
#endif
  g_mutex_clear (mutex);
}

static inline void
pv_mutex_lock (GMutex *mutex)
{
#ifdef PV_TSAN
  __tsan_mutex_pre_lock (mutex, 0);
#endif
  g_mutex_lock (mutex);
#ifdef PV_TSAN
  __tsan_mutex_post_lock (mutex, 0, 0);
#endif
}

static inline void
pv_mutex_unlock (GMutex *mutex)
{
#ifdef PV_TSAN
  __tsan_mutex_pre_unlock (mutex, 0);
#endif
  g_mutex_unlock (mutex);
#ifdef PV_TSAN
  __tsan_mutex_post_unlock (mutex, 0);
#endif
}

/* g_cond_wait(): @mutex is released while waiting and held again after. */
static inline void
pv_cond_wait (GCond *cond, GMutex *mutex)
{
#ifdef PV_TSAN
  __tsan_mutex_pre_unlock (mutex, 0);
  __tsan_mutex_post_unlock (mutex, 0);
#endif
  g_cond_wait (cond, mutex);
#ifdef PV_TSAN
  __tsan_mutex_pre_lock (mutex, 0);
  __tsan_mutex_post_lock (mutex, 0, 0);
#endif
}

G_END_DECLS
