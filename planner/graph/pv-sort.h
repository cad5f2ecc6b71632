/* pv-sort.h: a stable sort of indices by 64-bit keys, for the orders the
 * planners and the checker rebuild on every plan (thousands of items, where
 * a comparison sort through a callback cost as much as the work it
 * ordered). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sorts @order, @n distinct indices into @keys, by @keys[index], ascending;
 * equal keys keep their order in @order (so sorting by the least
 * significant key first and the most significant last gives a
 * lexicographic order). Linear time: an LSD radix sort over the bits in
 * which the keys differ, in digits of up to 11 bits. @scratch holds @n
 * ints. */
void pv_sort_by_key (int *order, int n, const guint64 *keys, int *scratch);

/* Keys whose ascending order is that of the value (signed, or a double
 * that is not NaN; -0 and +0 get the same key). */
guint64 pv_sort_key_int (gint64 value);
guint64 pv_sort_key_double (double value);

G_END_DECLS
