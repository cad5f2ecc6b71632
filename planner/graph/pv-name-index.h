/* pv-name-index.h: names to ids, for a graph's values and nodes.
 *
 * An open-addressing table whose entries (name, hash, id) sit in one array,
 * sized up front for the names a graph will hold. A GHashTable keeps keys,
 * values and hashes in three arrays and grows by rehashing: on a 100k-node
 * model its inserts and lookups were a fifth of the load. Names are
 * borrowed: they must outlive the index (a graph's string chunk). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PvNameIndex PvNameIndex;

/* An empty index with room for @expected names before it grows. */
PvNameIndex *pv_name_index_new (gsize expected);
void pv_name_index_free (PvNameIndex *index);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvNameIndex, pv_name_index_free)

/* The id @name maps to, -1 when it maps to none. */
int pv_name_index_lookup (const PvNameIndex *index, const char *name);
/* Maps @name to @id (≥ 0), replacing the id it mapped to. */
void pv_name_index_set (PvNameIndex *index, const char *name, int id);
/* Maps @name to @id (≥ 0) unless it maps to one already; returns the id
 * it maps to now. */
int pv_name_index_add (PvNameIndex *index, const char *name, int id);

G_END_DECLS
