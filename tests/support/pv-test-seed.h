/* pv-test-seed.h: the one seed of a randomised test. Every test that draws
 * random input takes its seed from here, so that a run is repeatable and its
 * log says how to repeat it: PV_TEST_SEED=N overrides the test's own fixed
 * seed, and the seed in use is printed. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* PV_TEST_SEED when set (a decimal or 0x-hex number), else @fallback.
 * Prints "random seed N" as a test message (g_test_message); an unreadable
 * PV_TEST_SEED fails the test. */
guint32 pv_test_seed (guint32 fallback);

/* g_rand_new_with_seed (pv_test_seed (@fallback)). */
GRand *pv_test_rand_new (guint32 fallback);

/* g_test_init() with GLib's own generator (g_test_rand_*) seeded from
 * pv_test_seed (@fallback), unless the command line already has --seed.
 * GLib prints that seed too ("# random seed: R02S…"). */
void pv_test_init (int *argc, char ***argv, guint32 fallback);

G_END_DECLS
