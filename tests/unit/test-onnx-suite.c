/* Every model of ONNX's backend test suite (../shared/onnx-tests) loads, or
 * fails with a PV_MODEL_ERROR naming the file; a consistency check on each
 * loaded graph; and every tensor the loader keeps is the same whether the
 * weights were stripped before unpacking or not. Skips when the folder is
 * absent. */
#include <glib/gstdio.h>
#include <stdio.h>

#include "pv-error.h"
#include "pv-model-loader-private.h"
#include "pv-same-tensors.h"

typedef struct {
  int loaded;
  int failed;
  int nodes;
  PvSameTensorsCount compared;  /* with the model unpacked whole */
} Stats;

static void
check_same_as_unstripped (Stats *stats, const char *path, const PvModel *model)
{
  g_autoptr (GMappedFile) file = g_mapped_file_new (path, FALSE, NULL);
  g_autoptr (PvModel) whole = NULL;

  g_assert_nonnull (file);
  whole = _pv_model_load_unstripped ((const guint8 *) g_mapped_file_get_contents (file),
                                     g_mapped_file_get_length (file), path, NULL);
  g_assert_nonnull (whole);
  pv_assert_same_tensors (model, whole, &stats->compared);
}

static void
check_graph (const PvGraph *g)
{
  g_autofree gboolean *seen = g_new0 (gboolean, MAX (g->n_nodes, 1));

  /* The order is a permutation in which every producer comes first. */
  for (int i = 0; i < g->n_nodes; i++)
    {
      const PvNode *node = &g->nodes[g->order[i]];
      g_assert_false (seen[g->order[i]]);
      seen[g->order[i]] = TRUE;
      g_assert_cmpint (node->order_position, ==, i);
      for (int k = 0; k < node->n_inputs; k++)
        if (node->inputs[k] >= 0 && g->values[node->inputs[k]].producer >= 0)
          g_assert_true (seen[g->values[node->inputs[k]].producer]);
      g_assert_nonnull (node->name);
      g_assert_cmpint (pv_graph_find_node (g, node->name), >=, 0);
      for (int s = 0; s < node->n_subgraphs; s++)
        {
          g_assert_true (node->subgraphs[s]->parent == g);
          check_graph (node->subgraphs[s]);
        }
    }
}

static void
walk (const char *dir, Stats *stats)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        walk (path, stats);
      else if (g_str_has_suffix (name, ".onnx"))
        {
          g_autoptr (GError) error = NULL;
          g_autoptr (PvModel) model = pv_model_load_from_file (path, &error);
          if (model)
            {
              stats->loaded++;
              stats->nodes += model->graph->n_nodes;
              check_graph (model->graph);
              check_same_as_unstripped (stats, path, model);
            }
          else
            {
              g_assert_true (error->domain == PV_MODEL_ERROR);
              g_assert_true (g_str_has_prefix (error->message, path));
              printf ("# refused: %s\n", error->message);
              stats->failed++;
            }
        }
    }
}

int
main (int argc, char **argv)
{
  const char *root = argc > 1 ? argv[1] : "../shared/onnx-tests";
  Stats stats = { 0 };

  if (!g_file_test (root, G_FILE_TEST_IS_DIR))
    {
      printf ("1..0 # SKIP %s is absent\n", root);
      return 0;  /* TAP: the 1..0 SKIP plan is the skip (77 would be an error) */
    }
  walk (root, &stats);
  printf ("# %d models loaded (%d nodes), %d refused with a message\n", stats.loaded, stats.nodes, stats.failed);
  printf ("# %d tensors the same as unpacked whole, %d of them with data kept\n", stats.compared.tensors,
          stats.compared.with_data);
  /* The suite is valid ONNX: each model must load. */
  printf ("1..1\n%s 1 - every ONNX backend-test model loads\n", stats.failed == 0 && stats.loaded > 0 ? "ok" : "not ok");
  return stats.failed == 0 && stats.loaded > 0 ? 0 : 1;
}
