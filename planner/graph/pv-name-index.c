/* pv-name-index.c: linear probing over one array of entries. */
#include "pv-name-index.h"

#include <string.h>

typedef struct {
  const char *name;   /* NULL: free */
  guint32 hash;
  gint32 id;
} Entry;

struct _PvNameIndex {
  Entry *entries;
  gsize mask;         /* capacity - 1, a power of two less one */
  gsize n;
};

/* Fibonacci hashing spreads g_str_hash's low bits, which are poor on names
 * that differ only in a trailing number. */
static gsize
slot_of (const PvNameIndex *index, guint32 hash)
{
  return (gsize) ((hash * G_GUINT64_CONSTANT (11400714819323198485)) >> 32) & index->mask;
}

static gsize
capacity_for (gsize n)
{
  gsize cap = 16;
  while (cap < 2 * n)
    cap *= 2;
  return cap;
}

PvNameIndex *
pv_name_index_new (gsize expected)
{
  PvNameIndex *index = g_new0 (PvNameIndex, 1);
  gsize cap = capacity_for (expected);

  index->entries = g_new0 (Entry, cap);
  index->mask = cap - 1;
  return index;
}

void
pv_name_index_free (PvNameIndex *index)
{
  if (index == NULL)
    return;
  g_free (index->entries);
  g_free (index);
}

/* The entry of @name, or the free one where it would go. */
static Entry *
find (const PvNameIndex *index, const char *name, guint32 hash)
{
  for (gsize i = slot_of (index, hash);; i = (i + 1) & index->mask)
    {
      Entry *e = &index->entries[i];
      if (e->name == NULL || (e->hash == hash && strcmp (e->name, name) == 0))
        return e;
    }
}

static void
grow (PvNameIndex *index)
{
  Entry *old = index->entries;
  gsize old_cap = index->mask + 1;

  index->entries = g_new0 (Entry, old_cap * 2);
  index->mask = old_cap * 2 - 1;
  for (gsize i = 0; i < old_cap; i++)
    if (old[i].name)
      *find (index, old[i].name, old[i].hash) = old[i];
  g_free (old);
}

int
pv_name_index_lookup (const PvNameIndex *index, const char *name)
{
  const Entry *e = find (index, name, g_str_hash (name));
  return e->name ? e->id : -1;
}

/* The entry of @name, made (with id -1) when it has none. */
static Entry *
entry_for (PvNameIndex *index, const char *name)
{
  guint32 hash = g_str_hash (name);
  Entry *e = find (index, name, hash);

  if (e->name)
    return e;
  /* Half full at most: probes stay short. */
  if (2 * (index->n + 1) > index->mask + 1)
    {
      grow (index);
      e = find (index, name, hash);
    }
  *e = (Entry) { name, hash, -1 };
  index->n++;
  return e;
}

void
pv_name_index_set (PvNameIndex *index, const char *name, int id)
{
  g_return_if_fail (id >= 0);
  entry_for (index, name)->id = id;
}

int
pv_name_index_add (PvNameIndex *index, const char *name, int id)
{
  Entry *e;

  g_return_val_if_fail (id >= 0, -1);
  e = entry_for (index, name);
  if (e->id < 0)
    e->id = id;
  return e->id;
}
