#include "pv-buffer-life.h"

guint64
pv_buffers_load (const PvBufferLife *buffers, int n, guint64 alignment)
{
  int min_step = 0, max_step = 0;
  g_autofree gint64 *delta = NULL;
  gint64 live = 0, best = 0;

  for (int i = 0; i < n; i++)
    {
      min_step = MIN (min_step, buffers[i].first);
      max_step = MAX (max_step, buffers[i].last);
    }
  delta = g_new0 (gint64, max_step - min_step + 2);
  for (int i = 0; i < n; i++)
    {
      gint64 size = (gint64) pv_buffer_aligned_size (buffers[i].size, alignment);
      delta[buffers[i].first - min_step] += size;
      delta[buffers[i].last - min_step + 1] -= size;
    }
  for (int s = 0; s <= max_step - min_step; s++)
    {
      live += delta[s];
      best = MAX (best, live);
    }
  return (guint64) best;
}
