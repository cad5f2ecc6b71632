#include "pv-sort.h"

#include <string.h>

void
pv_sort_by_key (int *order, int n, const guint64 *keys, int *scratch)
{
  int *src = order, *dst = scratch;
  guint64 varying = 0;

  for (int k = 1; k < n; k++)
    varying |= keys[order[k]] ^ keys[order[0]];
  for (int shift = 0; shift < 64; shift += 8)
    {
      int count[257] = { 0 };
      int *swap;
      if (((varying >> shift) & 0xff) == 0)
        continue;
      for (int k = 0; k < n; k++)
        count[((keys[src[k]] >> shift) & 0xff) + 1]++;
      for (int c = 0; c < 256; c++)
        count[c + 1] += count[c];
      for (int k = 0; k < n; k++)
        dst[count[(keys[src[k]] >> shift) & 0xff]++] = src[k];
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
