#include "pv-test-scale.h"

int
pv_test_time_scale (void)
{
  const char *scale = g_getenv ("PV_WAIT_SCALE");
  return (int) CLAMP (scale ? g_ascii_strtoll (scale, NULL, 10) : 1, 1, 100);
}
