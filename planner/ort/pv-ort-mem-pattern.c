/* pv-ort-mem-pattern.c: MemPatternPlanner's best fit (see the header). */
#include "pv-ort-mem-pattern.h"

typedef struct {
  int value_index;
  guint64 offset, size;
} Block;

struct _PvOrtMemPattern {
  GArray *allocs;      /* of Block, in trace order */
  GArray *live;        /* indices into allocs, in ORT's list order (by offset) */
  GHashTable *last;    /* value index -> index into allocs + 1 */
  guint64 block_bytes;
};

#define ALLOC(p, i) (&g_array_index ((p)->allocs, Block, (i)))
#define LIVE(p, k) g_array_index ((p)->live, int, (k))

PvOrtMemPattern *
pv_ort_mem_pattern_new (void)
{
  PvOrtMemPattern *p = g_new0 (PvOrtMemPattern, 1);

  p->allocs = g_array_new (FALSE, FALSE, sizeof (Block));
  p->live = g_array_new (FALSE, FALSE, sizeof (int));
  p->last = g_hash_table_new (g_direct_hash, g_direct_equal);
  return p;
}

void
pv_ort_mem_pattern_free (PvOrtMemPattern *p)
{
  if (p == NULL)
    return;
  g_array_free (p->allocs, TRUE);
  g_array_free (p->live, TRUE);
  g_hash_table_destroy (p->last);
  g_free (p);
}

/* The offset best fit gives @size: the gap that wastes least among the gaps
 * between live blocks and the tail below the block size, else the end. */
static guint64
best_offset (const PvOrtMemPattern *p, guint64 size)
{
  guint64 current = 0, waste = G_MAXUINT64, best = 0;
  gboolean found = FALSE;

  for (guint k = 0; k < p->live->len; k++)
    {
      const Block *b = ALLOC (p, LIVE (p, k));
      if (b->offset >= current)
        {
          guint64 gap = b->offset - current;
          if (gap >= size && gap - size < waste)
            {
              waste = gap - size;
              best = current;
              found = TRUE;
            }
        }
      current = MAX (current, b->offset + b->size);
    }
  if (current < p->block_bytes)
    {
      guint64 gap = p->block_bytes - current;
      if (gap >= size && gap - size < waste)
        {
          best = current;
          found = TRUE;
        }
    }
  return found ? best : current;
}

guint64
pv_ort_mem_pattern_trace_alloc (PvOrtMemPattern *p, int value_index, guint64 size)
{
  Block b = { value_index, 0, size };
  guint pos;
  int at;

  g_return_val_if_fail (p != NULL, 0);
  if (size > 0)
    {
      b.offset = best_offset (p, size);
      p->block_bytes = MAX (p->block_bytes, b.offset + size);
    }
  g_array_append_val (p->allocs, b);
  at = (int) p->allocs->len - 1;
  g_hash_table_insert (p->last, GINT_TO_POINTER (value_index), GINT_TO_POINTER (at + 1));
  if (size == 0)
    return 0;  /* ORT records zero-size blocks but never lists them as live */
  /* Insert before the first block past the offset, or at it with a size
   * not smaller than this one. */
  for (pos = 0; pos < p->live->len; pos++)
    {
      const Block *o = ALLOC (p, LIVE (p, pos));
      if (o->offset < b.offset)
        continue;
      if (o->offset > b.offset || o->size >= size)
        break;
    }
  g_array_insert_val (p->live, pos, at);
  return b.offset;
}

void
pv_ort_mem_pattern_trace_free (PvOrtMemPattern *p, int value_index)
{
  g_return_if_fail (p != NULL);
  for (guint k = 0; k < p->live->len; k++)
    if (ALLOC (p, LIVE (p, k))->value_index == value_index)
      {
        g_array_remove_index (p->live, k);
        return;
      }
}

guint64
pv_ort_mem_pattern_block_bytes (const PvOrtMemPattern *p)
{
  g_return_val_if_fail (p != NULL, 0);
  return p->block_bytes;
}

gboolean
pv_ort_mem_pattern_lookup (const PvOrtMemPattern *p, int value_index, guint64 *offset, guint64 *bytes)
{
  int at;

  g_return_val_if_fail (p != NULL, FALSE);
  at = GPOINTER_TO_INT (g_hash_table_lookup (p->last, GINT_TO_POINTER (value_index))) - 1;
  if (at < 0)
    return FALSE;
  if (offset)
    *offset = ALLOC (p, at)->offset;
  if (bytes)
    *bytes = ALLOC (p, at)->size;
  return TRUE;
}
