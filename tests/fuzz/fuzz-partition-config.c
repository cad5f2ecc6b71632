/* libFuzzer target: any bytes as a partition config for a sample model give
 * a check (never a crash, leak or undefined behaviour) whose findings are
 * well formed, and a config the checker accepts survives a round trip
 * through the writer.
 *
 * The model comes from the file named by PV_FUZZ_MODEL (for example
 * data/wide_branches.onnx) and is loaded once; without it every input is
 * skipped. Each input is checked with all nodes on the CPU or, when its
 * last byte is odd, with the Conv and MatMul nodes on a GPU (which reaches
 * the device checks). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pv-model-loader.h"
#include "pv-partition-config.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static PvModel *model;
static int *gpu_devices;

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  const char *path = g_getenv ("PV_FUZZ_MODEL");
  g_autoptr (GError) error = NULL;

  if (path == NULL || *path == '\0')
    {
      fprintf (stderr, "fuzz-partition-config: PV_FUZZ_MODEL is not set; every input is skipped\n");
      return 0;
    }
  model = pv_model_load_from_file (path, &error);
  if (model == NULL)
    {
      fprintf (stderr, "fuzz-partition-config: %s\n", error->message);
      exit (1);
    }
  gpu_devices = pv_partition_devices_for_ops (model->graph, (const char *const[]){ "Conv", "MatMul", NULL },
                                              PV_DEVICE_GPU);
  return 0;
}

/* Checks @data with @devices; returns the verdict. */
static PvOrtVerdict
check_one (const uint8_t *data, size_t size, const int *devices)
{
  const PvGraph *g = model->graph;
  g_autoptr (PvPartitionCheck) check = pv_partition_config_check (g, (const char *) data, size, devices);
  gsize last = 0;

  g_assert_nonnull (check->summary);
  g_assert_nonnull (check->effective);
  g_assert_true ((check->ort_message != NULL)
                 == (check->verdict == PV_ORT_REJECTS || check->verdict == PV_ORT_DISCARDS));
  for (int i = 0; i < check->n_findings; i++)
    {
      const PvPartitionFinding *f = &check->findings[i];
      g_assert_nonnull (f->message);
      g_assert_nonnull (f->ort);
      g_assert_cmpint (f->line, >=, 1);
      g_assert_cmpint (f->column, >=, 1);
      g_assert_cmpuint (f->offset, <=, size);
      g_assert_cmpuint (f->offset, >=, last);
      last = f->offset;
    }
  if (check->verdict == PV_ORT_REJECTS || check->verdict == PV_ORT_CRASHES)
    g_assert_cmpint (check->effective->n_streams, ==, 0);
  else
    {
      int total = 0;
      for (int s = 0; s < check->effective->n_streams; s++)
        {
          const PvStream *st = &check->effective->streams[s];
          g_assert_cmpint (st->n_nodes, >, 0);
          for (int k = 0; k < st->n_nodes; k++)
            {
              g_assert_cmpint (st->nodes[k], >=, 0);
              g_assert_cmpint (st->nodes[k], <, g->n_nodes);
              if (k > 0)
                g_assert_cmpint (g->nodes[st->nodes[k - 1]].order_position, <, g->nodes[st->nodes[k]].order_position);
            }
          total += st->n_nodes;
        }
      g_assert_cmpint (total, ==, g->n_nodes);
    }

  /* What ORT would run, written out, is a config ORT accepts as it is. */
  if (check->verdict == PV_ORT_ACCEPTS && check->effective->n_streams > 0)
    {
      g_autofree char *json = pv_partition_config_to_json (g, check->effective, size & 1);
      g_autoptr (PvPartitionCheck) again = NULL;
      if (json == NULL)
        return check->verdict; /* a node name that is not UTF-8 */
      again = pv_partition_config_check (g, json, strlen (json), devices);
      g_assert_cmpint (again->verdict, ==, PV_ORT_ACCEPTS);
      g_assert_false (pv_partition_check_has_errors (again));
      g_assert_cmpint (again->effective->n_streams, ==, check->effective->n_streams);
      for (int s = 0; s < check->effective->n_streams; s++)
        {
          g_assert_cmpint (again->effective->streams[s].n_nodes, ==, check->effective->streams[s].n_nodes);
          g_assert_cmpmem (again->effective->streams[s].nodes, again->effective->streams[s].n_nodes * sizeof (int),
                           check->effective->streams[s].nodes, check->effective->streams[s].n_nodes * sizeof (int));
        }
    }
  return check->verdict;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (model == NULL)
    return 0;
  /* One check an input: the last byte picks the devices (JSON allows any
   * whitespace after the value, so "}" and "}\n" reach both). Checking each
   * input with both sets spent half the target's time on the same parse. */
  check_one (data, size, size > 0 && (data[size - 1] & 1) ? gpu_devices : NULL);
  return 0;
}
