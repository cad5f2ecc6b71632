/* pv-hazard-cases: writes the random graphs and 2-4-stream configs of the
 * plan property test (tests/unit/test-plan-properties.c: same generator,
 * same seed, same rounds) as ONNX files and DeviceBasedPartitioner configs,
 * so that the real ONNX Runtime can run the configs on which planviz's
 * checker rejects ORT's own plan (tests/ort/compare-parallel.mjs). */
#include <string.h>

#include "pv-random-graph.h"

int
main (int argc, char **argv)
{
  gint64 rounds = 1000, seed = 11;
  const GOptionEntry entries[] = {
    { "rounds", 0, 0, G_OPTION_ARG_INT64, &rounds, "Rounds of the property test to replay (1000)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Its seed (11, the property test's own)", "S" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("DIR - write the property test's multi-stream cases");
  g_autoptr (GError) error = NULL;
  g_autoptr (GRand) rand = NULL;
  int written = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 || rounds < 1)
    {
      g_printerr ("%s\n", error ? error->message : "Give one folder and --rounds N >= 1");
      return 2;
    }
  if (g_mkdir_with_parents (argv[1], 0755) != 0)
    {
      g_printerr ("Cannot make %s\n", argv[1]);
      return 1;
    }
  rand = g_rand_new_with_seed ((guint32) seed);
  for (int round = 0; round < rounds; round++)
    {
      g_autoptr (GHashTable) sizes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autofree int *views = NULL;
      g_autoptr (GBytes) bytes = NULL;
      g_autoptr (PvModel) m = pv_random_graph_new_with_bytes (rand, sizes, &views, &bytes);
      int n_streams;
      g_autofree char *config = pv_random_partition_config (rand, m->graph, &n_streams);
      g_autofree char *model_path = g_strdup_printf ("%s/round-%05d.onnx", argv[1], round);
      g_autofree char *config_path = g_strdup_printf ("%s/round-%05d.json", argv[1], round);

      if (n_streams < 2)
        continue;
      if (!g_file_set_contents (model_path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error) ||
          !g_file_set_contents (config_path, config, -1, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      written++;
    }
  g_print ("%d of %" G_GINT64_FORMAT " rounds (seed %" G_GINT64_FORMAT ") on 2-4 streams written to %s\n", written,
           rounds, seed, argv[1]);
  return 0;
}
