/* pv-test-scale.h: how much longer a test may take in this build. Sanitizer
 * builds run several times slower; meson sets PV_WAIT_SCALE for their tests,
 * and every time limit in a test is multiplied by it. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* PV_WAIT_SCALE (1 to 100), or 1 when unset. */
int pv_test_time_scale (void);

G_END_DECLS
