#include "pv-sort.h"

#include <string.h>

/* Digits of at most this many bits: 2048 counters stay in the L1 cache,
 * and most keys here (sizes, steps, durations) then sort in one or two
 * passes. */
#define MAX_DIGIT_BITS 11

void
pv_sort_by_key (int *order, int n, const guint64 *keys, int *scratch)
{
  int *src = order, *dst = scratch;
  guint64 varying = 0;
  int low, bits, passes, width;

  for (int k = 1; k < n; k++)
    varying |= keys[order[k]] ^ keys[order[0]];
  if (varying == 0)
    return;
  /* Only the bits from the lowest to the highest that differ matter, cut
   * into equal digits. */
  for (low = 0; !((varying >> low) & 1); low++)
    ;
  for (bits = 64 - low; !((varying >> (low + bits - 1)) & 1); bits--)
    ;
  passes = (bits + MAX_DIGIT_BITS - 1) / MAX_DIGIT_BITS;
  width = (bits + passes - 1) / passes;
  for (int pass = 0; pass < passes; pass++)
    {
      int count[(1 << MAX_DIGIT_BITS) + 1];
      int shift = low + pass * width, buckets = 1 << width, *swap;
      guint64 mask = (guint64) buckets - 1;
      memset (count, 0, sizeof (int) * (buckets + 1));
      for (int k = 0; k < n; k++)
        count[((keys[src[k]] >> shift) & mask) + 1]++;
      for (int c = 0; c < buckets; c++)
        count[c + 1] += count[c];
      for (int k = 0; k < n; k++)
        dst[count[(keys[src[k]] >> shift) & mask]++] = src[k];
      swap = src;
      src = dst;
      dst = swap;
    }
  if (src != order)
    memcpy (order, src, sizeof (int) * n);
}

guint64
pv_sort_key_int (gint64 value)
{
  return (guint64) value ^ ((guint64) 1 << 63);
}

guint64
pv_sort_key_double (double value)
{
  guint64 bits;

  if (value == 0)
    value = 0;  /* -0 and +0 compare equal */
  memcpy (&bits, &value, sizeof bits);
  return bits >> 63 ? ~bits : bits | ((guint64) 1 << 63);
}
