/* pv-ort-mem-pattern.c: MemPatternPlanner's best fit (see the header).
 *
 * ORT scans its list of live blocks (by offset) on every allocation and
 * every free: quadratic in the blocks live at once. The same answers come
 * here from two trees: the live blocks by offset, and the gaps between them
 * by (size, offset), whose first entry not smaller than a request is the
 * best fit (least waste, lowest offset on ties, as ORT's scan keeps the
 * first it finds).
 *
 * Live blocks never overlap (each goes into a gap, or past the last), so
 * they have distinct offsets; the gap before a live block runs from the end
 * of the one before it (or 0) to its offset. Only gaps of at least one byte
 * are in the gap tree: ORT never fits a block of 0 bytes (it records it but
 * never lists it as live).
 *
 * The trees cost more than ORT's scan while few blocks are live (the
 * models people deploy: tens at once): a pattern scans, as ORT does, until
 * more than max_scan blocks are live at once, then builds the trees and
 * keeps them. Both give the same offsets. */
#include "pv-ort-mem-pattern-private.h"

typedef struct {
  int value_index;
  guint64 offset, size;
  guint64 gap_start;   /* while live: where the gap before it starts */
  int next_same;       /* while live: the next live block of the same value, or -1 */
} Block;

struct _PvOrtMemPattern {
  GArray *allocs;      /* of Block, in trace order */
  GArray *scan;        /* until the trees: the live allocs by offset */
  guint max_scan;
  GTree *live;         /* KEY(alloc) -> NULL, by offset (NULL until built) */
  GTree *gaps;         /* KEY(alloc) -> NULL for the gap before that live block, by (size, offset) */
  GHashTable *live_of; /* value index -> KEY(a live block of it), chained by next_same */
  GHashTable *last;    /* value index -> KEY(its last traced block) */
  Block probe;         /* what KEY(-1), i.e. NULL, stands for in a search */
  guint64 block_bytes;
};

#define ALLOC(p, i) (&g_array_index ((p)->allocs, Block, (i)))
#define KEY(i) GINT_TO_POINTER ((i) + 1)
#define INDEX(k) (GPOINTER_TO_INT (k) - 1)

static const Block *
block_of (const PvOrtMemPattern *p, gconstpointer key)
{
  int i = INDEX (key);
  return i < 0 ? &p->probe : ALLOC (p, i);
}

static gint
compare_offsets (gconstpointer a, gconstpointer b, gpointer data)
{
  const Block *x = block_of (data, a), *y = block_of (data, b);

  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static gint
compare_gaps (gconstpointer a, gconstpointer b, gpointer data)
{
  const Block *x = block_of (data, a), *y = block_of (data, b);
  guint64 gx = x->offset - x->gap_start, gy = y->offset - y->gap_start;

  if (gx != gy)
    return gx < gy ? -1 : 1;
  return x->gap_start < y->gap_start ? -1 : x->gap_start > y->gap_start;
}

PvOrtMemPattern *
pv_ort_mem_pattern_new (void)
{
  return pv_ort_mem_pattern_new_with_scan (PV_ORT_MEM_PATTERN_MAX_SCAN);
}

PvOrtMemPattern *
pv_ort_mem_pattern_new_with_scan (guint max_scan)
{
  PvOrtMemPattern *p = g_new0 (PvOrtMemPattern, 1);

  p->allocs = g_array_new (FALSE, FALSE, sizeof (Block));
  p->scan = g_array_new (FALSE, FALSE, sizeof (int));
  p->max_scan = max_scan;
  p->last = g_hash_table_new (g_direct_hash, g_direct_equal);
  return p;
}

void
pv_ort_mem_pattern_free (PvOrtMemPattern *p)
{
  if (p == NULL)
    return;
  g_array_free (p->allocs, TRUE);
  g_array_free (p->scan, TRUE);
  if (p->live)
    {
      g_tree_destroy (p->live);
      g_tree_destroy (p->gaps);
      g_hash_table_destroy (p->live_of);
    }
  g_hash_table_destroy (p->last);
  g_free (p);
}

/* The end of the live block at @node, 0 before the first. */
static guint64
end_of (const PvOrtMemPattern *p, GTreeNode *node)
{
  const Block *b;

  if (node == NULL)
    return 0;
  b = ALLOC (p, INDEX (g_tree_node_key (node)));
  return b->offset + b->size;
}

/* Sets the gap before live block @i to start at @start, keeping the gap
 * tree in step. */
static void
set_gap (PvOrtMemPattern *p, int i, guint64 start)
{
  Block *b = ALLOC (p, i);

  if (b->offset > b->gap_start)
    g_tree_remove (p->gaps, KEY (i));
  b->gap_start = start;
  if (b->offset > b->gap_start)
    g_tree_insert (p->gaps, KEY (i), NULL);
}

/* Best fit's last candidate: the tail from @current (the end of the last
 * live block) up to the block size, taken only when it wastes strictly less
 * than @waste, the best gap's; else @fit. */
static guint64
with_tail (const PvOrtMemPattern *p, guint64 current, guint64 size, guint64 waste, guint64 fit)
{
  if (current < p->block_bytes)
    {
      guint64 gap = p->block_bytes - current;
      if (gap >= size && gap - size < waste)
        return current;
    }
  return fit;
}

/* The offset best fit gives @size: the gap that wastes least among the gaps
 * between live blocks (the lowest on ties) and the tail below the block
 * size (only when it wastes strictly less), else the end. */
static guint64
best_offset (PvOrtMemPattern *p, guint64 size)
{
  guint64 current = end_of (p, g_tree_node_last (p->live)), waste = G_MAXUINT64, best = 0;
  gboolean found = FALSE;
  GTreeNode *fit;

  /* The first gap of (size, 0) or more: a gap of at least @size bytes. */
  p->probe.gap_start = 0;
  p->probe.offset = size;
  fit = g_tree_lower_bound (p->gaps, NULL);
  if (fit)
    {
      const Block *b = ALLOC (p, INDEX (g_tree_node_key (fit)));
      waste = b->offset - b->gap_start - size;
      best = b->gap_start;
      found = TRUE;
    }
  return with_tail (p, current, size, waste, found ? best : current);
}

/* ORT's own scan over the live blocks by offset: the same answer as
 * best_offset(). */
static guint64
scan_best_offset (const PvOrtMemPattern *p, guint64 size)
{
  guint64 current = 0, waste = G_MAXUINT64, best = 0;
  gboolean found = FALSE;

  for (guint k = 0; k < p->scan->len; k++)
    {
      const Block *b = ALLOC (p, g_array_index (p->scan, int, k));
      guint64 gap = b->offset - current;  /* live blocks do not overlap */
      if (gap >= size && gap - size < waste)
        {
          waste = gap - size;
          best = current;
          found = TRUE;
        }
      current = b->offset + b->size;
    }
  return with_tail (p, current, size, waste, found ? best : current);
}

static void
scan_insert (PvOrtMemPattern *p, int at)
{
  guint pos = p->scan->len;

  while (pos > 0 && ALLOC (p, g_array_index (p->scan, int, pos - 1))->offset > ALLOC (p, at)->offset)
    pos--;
  g_array_insert_val (p->scan, pos, at);
}

/* The first live block of @value_index in offset order leaves the scan. */
static void
scan_free (PvOrtMemPattern *p, int value_index)
{
  for (guint k = 0; k < p->scan->len; k++)
    if (ALLOC (p, g_array_index (p->scan, int, k))->value_index == value_index)
      {
        g_array_remove_index (p->scan, k);
        return;
      }
}

static void insert_live (PvOrtMemPattern *p, int at);

/* More than max_scan blocks live at once: the trees from now on. */
static void
build_trees (PvOrtMemPattern *p)
{
  p->live = g_tree_new_full (compare_offsets, p, NULL, NULL);
  p->gaps = g_tree_new_full (compare_gaps, p, NULL, NULL);
  p->live_of = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint k = 0; k < p->scan->len; k++)
    insert_live (p, g_array_index (p->scan, int, k));
  g_array_set_size (p->scan, 0);
}

/* Lists alloc @at (@size > 0 bytes at its offset) as live. */
static void
insert_live (PvOrtMemPattern *p, int at)
{
  Block *b = ALLOC (p, at);
  GTreeNode *node = g_tree_insert_node (p->live, KEY (at), NULL);
  GTreeNode *next = g_tree_node_next (node);
  gpointer head = g_hash_table_lookup (p->live_of, GINT_TO_POINTER (b->value_index));

  b->next_same = head ? INDEX (head) : -1;
  g_hash_table_insert (p->live_of, GINT_TO_POINTER (b->value_index), KEY (at));
  b->gap_start = b->offset;  /* not in the gap tree yet */
  set_gap (p, at, end_of (p, g_tree_node_previous (node)));
  if (next)
    set_gap (p, INDEX (g_tree_node_key (next)), b->offset + b->size);
}

guint64
pv_ort_mem_pattern_trace_alloc (PvOrtMemPattern *p, int value_index, guint64 size)
{
  Block b = { value_index, 0, size, 0, -1 };
  int at;

  g_return_val_if_fail (p != NULL, 0);
  if (size > 0)
    {
      b.offset = p->live ? best_offset (p, size) : scan_best_offset (p, size);
      p->block_bytes = MAX (p->block_bytes, b.offset + size);
    }
  g_array_append_val (p->allocs, b);
  at = (int) p->allocs->len - 1;
  g_hash_table_insert (p->last, GINT_TO_POINTER (value_index), KEY (at));
  if (size == 0)
    return 0;  /* ORT records zero-size blocks but never lists them as live */
  if (p->live)
    insert_live (p, at);
  else
    {
      scan_insert (p, at);
      if (p->scan->len > p->max_scan)
        build_trees (p);
    }
  return b.offset;
}

void
pv_ort_mem_pattern_trace_free (PvOrtMemPattern *p, int value_index)
{
  gpointer head;
  int first = -1, before = -1;
  GTreeNode *node, *next;

  g_return_if_fail (p != NULL);
  if (p->live == NULL)
    {
      scan_free (p, value_index);
      return;
    }
  head = g_hash_table_lookup (p->live_of, GINT_TO_POINTER (value_index));
  if (head == NULL)
    return;
  /* ORT frees the first block of the value in offset order. */
  for (int i = INDEX (head), prev = -1; i >= 0; prev = i, i = ALLOC (p, i)->next_same)
    if (first < 0 || ALLOC (p, i)->offset < ALLOC (p, first)->offset)
      first = i, before = prev;
  if (before >= 0)
    ALLOC (p, before)->next_same = ALLOC (p, first)->next_same;
  else if (ALLOC (p, first)->next_same >= 0)
    g_hash_table_insert (p->live_of, GINT_TO_POINTER (value_index), KEY (ALLOC (p, first)->next_same));
  else
    g_hash_table_remove (p->live_of, GINT_TO_POINTER (value_index));
  /* Its gap and the one after it become one gap before the next block (or
   * the tail, which is not in the gap tree). */
  node = g_tree_lookup_node (p->live, KEY (first));
  next = g_tree_node_next (node);
  if (next)
    set_gap (p, INDEX (g_tree_node_key (next)), ALLOC (p, first)->gap_start);
  set_gap (p, first, ALLOC (p, first)->offset);
  g_tree_remove (p->live, KEY (first));
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
  at = INDEX (g_hash_table_lookup (p->last, GINT_TO_POINTER (value_index)));
  if (at < 0)
    return FALSE;
  if (offset)
    *offset = ALLOC (p, at)->offset;
  if (bytes)
    *bytes = ALLOC (p, at)->size;
  return TRUE;
}
