/* pv-test-seed.c: fixed, printed, overridable seeds for randomised tests. */
#include "pv-test-seed.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static guint32
read_seed (guint32 fallback, gboolean *from_env)
{
  const char *text = g_getenv ("PV_TEST_SEED");
  guint64 value;
  char *end = NULL;

  *from_env = text != NULL && *text != '\0';
  if (!*from_env)
    return fallback;
  errno = 0;
  value = g_ascii_strtoull (text, &end, 0);
  if (errno != 0 || end == text || *end != '\0' || value > G_MAXUINT32)
    g_error ("PV_TEST_SEED=%s is not a number from 0 to %u", text, G_MAXUINT32);
  return (guint32) value;
}

guint32
pv_test_seed (guint32 fallback)
{
  gboolean from_env;
  guint32 seed = read_seed (fallback, &from_env);
  const char *why = from_env ? "from PV_TEST_SEED" : "the test's fixed seed";

  /* Before g_test_init there is no TAP stream to write a message to. */
  if (g_test_initialized ())
    g_test_message ("random seed %u (%s; PV_TEST_SEED=N repeats or changes it)", seed, why);
  else
    g_printerr ("# random seed %u (%s; PV_TEST_SEED=N repeats or changes it)\n", seed, why);
  return seed;
}

GRand *
pv_test_rand_new (guint32 fallback)
{
  return g_rand_new_with_seed (pv_test_seed (fallback));
}

/* The grown argv, reachable until exit (LeakSanitizer looks after main). */
static char **kept_argv;

void
pv_test_init (int *argc, char ***argv, guint32 fallback)
{
  gboolean has_seed = FALSE;

  for (int i = 1; i < *argc; i++)
    if (g_str_has_prefix ((*argv)[i], "--seed"))
      has_seed = TRUE;
  if (!has_seed)
    {
      gboolean from_env;
      guint32 seed = read_seed (fallback, &from_env);
      /* GLib's seed string: R02S and four 32-bit words in hex. */
      char *arg = g_strdup_printf ("--seed=R02S%08x%08x%08x%08x", seed, 0x9e3779b9u, seed ^ 0x85ebca6bu, 0xc2b2ae35u);
      char **grown = g_new0 (char *, *argc + 2);

      memcpy (grown, *argv, sizeof (char *) * (gsize) *argc);
      grown[(*argc)++] = arg;
      *argv = kept_argv = grown; /* lives as long as the program, as argv does */
      g_printerr ("# random seed %u (%s; PV_TEST_SEED=N repeats or changes it)\n", seed,
                  from_env ? "from PV_TEST_SEED" : "the test's fixed seed");
    }
  g_test_init (argc, argv, NULL);
}
