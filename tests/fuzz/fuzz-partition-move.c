/* libFuzzer target: the partition mover (pv_partition_config_move_nodes)
 * on configs and moves drawn from the input, for the sample model named by
 * PV_FUZZ_MODEL (for example data/wide_branches.onnx; without it every
 * input is skipped). The input is read as
 *
 *   byte 0:  number of streams per device (1-4), pretty or compact,
 *            trailing newline, whether to list a name the graph lacks
 *   byte 1:  which nodes run on a GPU (none, the Conv nodes, every other)
 *   then one byte per node (in ORT's order): its stream
 *   then moves, 3 bytes each: how many nodes (1-3) and the first, the
 *            target stream (or a new one), the device of a new stream
 *
 * The config starts as ORT would accept it (every node in one stream, each
 * stream in run order, one device per stream). After each move the text
 * must be JSON that the checker says ORT accepts, with no error, and with
 * the moved nodes together in one stream; a move may be refused only for a
 * stream number out of range. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "pv-model-loader.h"
#include "pv-partition-config.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define MAX_MOVES 64

static PvModel *model;
static int *conv_gpu, *alternate_gpu;

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  const char *path = g_getenv ("PV_FUZZ_MODEL");
  g_autoptr (GError) error = NULL;
  const PvGraph *g;

  if (path == NULL || *path == '\0')
    {
      fprintf (stderr, "fuzz-partition-move: PV_FUZZ_MODEL is not set; every input is skipped\n");
      return 0;
    }
  model = pv_model_load_from_file (path, &error);
  if (model == NULL)
    {
      fprintf (stderr, "fuzz-partition-move: %s\n", error->message);
      exit (1);
    }
  g = model->graph;
  conv_gpu = pv_partition_devices_for_ops (g, (const char *const[]){ "Conv", NULL }, PV_DEVICE_GPU);
  alternate_gpu = g_new0 (int, MAX (g->n_nodes, 1));
  for (int i = 0; i < g->n_nodes; i++)
    alternate_gpu[g->order[i]] = g->name_owners[g->order[i]] == g->order[i] && i % 2 ? PV_DEVICE_GPU : PV_DEVICE_CPU;
  for (int i = 0; i < g->n_nodes; i++)
    alternate_gpu[i] = alternate_gpu[g->name_owners[i]];
  return 0;
}

/* The starting config: each name owner (with the nodes sharing its name)
 * in the stream its byte picks among those of its device, streams in run
 * order, empty ones dropped, each stream's device that of its nodes. */
static char *
first_config (const uint8_t *picks, int n_streams, const int *devices, gboolean pretty)
{
  const PvGraph *g = model->graph;
  g_autoptr (PvPartitionConfig) config = g_new0 (PvPartitionConfig, 1);
  g_autofree int *stream_of = g_new0 (int, MAX (g->n_nodes, 1));
  int kept = 0;

  /* A stream runs on one device: GPU nodes pick among streams of their own. */
  config->streams = g_new0 (PvStream, 2 * n_streams);
  for (int i = 0; i < g->n_nodes; i++)
    {
      int id = g->order[i], owner = g->name_owners[id];
      int gpu = devices && devices[id] == PV_DEVICE_GPU;
      stream_of[id] = owner == id ? picks[i] % n_streams + gpu * n_streams : stream_of[owner];
    }
  for (int s = 0; s < 2 * n_streams; s++)
    {
      PvStream *st = &config->streams[kept];
      st->nodes = g_new (int, MAX (g->n_nodes, 1));
      for (int i = 0; i < g->n_nodes; i++)
        if (stream_of[g->order[i]] == s)
          st->nodes[st->n_nodes++] = g->order[i];
      if (st->n_nodes == 0)
        {
          g_clear_pointer (&st->nodes, g_free);
          continue;
        }
      st->device = devices ? devices[st->nodes[0]] : PV_DEVICE_CPU;
      kept++;
    }
  config->n_streams = kept;
  return pv_partition_config_to_json (g, config, pretty);
}

/* The check of @text, asserting that it is JSON that ORT accepts as it is,
 * listing its streams (not ORT's default). */
static PvPartitionCheck *
check_accepted (const char *text, const int *devices)
{
  PvPartitionCheck *check = pv_partition_config_check (model->graph, text, strlen (text), devices);
  cJSON *json = cJSON_Parse (text);

  g_assert_nonnull (json);
  cJSON_Delete (json);
  if (check->verdict != PV_ORT_ACCEPTS || pv_partition_check_has_errors (check) || check->effective_is_default)
    g_error ("not accepted (%s): %s\n%s\n%s", pv_ort_verdict_name (check->verdict), check->summary,
             check->n_findings ? check->findings[0].message : "", text);
  return check;
}

/* The stream of @check's effective config that runs node @id, or -1. */
static int
stream_of_node (const PvPartitionCheck *check, int id)
{
  for (int s = 0; s < check->effective->n_streams; s++)
    for (int k = 0; k < check->effective->streams[s].n_nodes; k++)
      if (check->effective->streams[s].nodes[k] == id)
        return s;
  return -1;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char *const new_devices[] = { NULL, "0", "1", "2", "3" };
  const PvGraph *g;
  g_autofree char *text = NULL;
  const int *devices;
  PvPartitionCheck *check;
  int n_streams;
  gsize at;

  if (model == NULL || size < 2)
    return 0;
  g = model->graph;
  n_streams = 1 + (data[0] & 3);
  devices = (const int *[]){ NULL, conv_gpu, alternate_gpu }[data[1] % 3];
  if ((gsize) g->n_nodes + 2 > size)
    return 0;
  text = first_config (data + 2, n_streams, devices, (data[0] & 4) != 0);
  if (text == NULL)
    return 0; /* a node name that is not UTF-8: ORT cannot write it either */
  if (data[0] & 8)
    {
      char *nl = g_strconcat (text, "\n", NULL);
      g_free (text);
      text = nl;
    }
  if (data[0] & 16)
    {
      /* A name the graph lacks: ORT ignores it with a warning. */
      char *at_first = strstr (text, "[[");
      if (at_first)
        {
          g_autofree char *head = g_strndup (text, at_first + 2 - text);
          char *with = g_strconcat (head, "\"no such node\",", at_first + 2, NULL);
          g_free (text);
          text = with;
        }
    }
  check = check_accepted (text, devices);

  at = 2 + (gsize) g->n_nodes;
  for (int m = 0; m < MAX_MOVES && at + 3 <= size && g->n_nodes > 0; m++, at += 3)
    {
      int count = 1 + data[at] % 3, first = (data[at] / 3) % g->n_nodes;
      int streams = check->effective->n_streams;
      int target = (int) data[at + 1] % (streams + 2) - 1; /* -1: a new stream; streams: out of range */
      const char *device = new_devices[data[at + 2] % G_N_ELEMENTS (new_devices)];
      const char *nodes[4] = { NULL };
      int ids[3];
      g_autoptr (GError) error = NULL;
      g_autofree char *moved = NULL;
      gboolean ok;

      for (int k = 0; k < count; k++)
        {
          ids[k] = g->order[(first + k * 5) % g->n_nodes];
          nodes[k] = g->nodes[ids[k]].name;
        }
      /* A stream's device is its nodes': only move nodes of one device, to
       * a stream (or a new one) of that device, as the window offers. */
      if (devices)
        {
          int d = devices[ids[0]];
          gboolean same = TRUE;
          for (int k = 1; k < count; k++)
            same &= devices[ids[k]] == d;
          if (!same || (target >= 0 && target < streams && check->effective->streams[target].device != d))
            continue;
          device = d == PV_DEVICE_GPU ? "1" : "0";
        }
      ok = pv_partition_config_move_nodes (g, devices, text, strlen (text), nodes, target, device, &moved, &error);
      if (!ok)
        {
          g_assert_error (error, PV_PARTITION_ERROR, PV_PARTITION_ERROR_STREAM);
          g_assert_cmpint (target, ==, streams);
          continue;
        }
      g_assert_no_error (error);
      pv_partition_check_free (check);
      check = check_accepted (moved, devices);
      /* The moved nodes run together, in the stream asked for (a new one
       * is the last; streams the move emptied are gone). */
      for (int k = 0; k < count; k++)
        g_assert_cmpint (stream_of_node (check, ids[k]), ==, stream_of_node (check, ids[0]));
      if (target < 0)
        g_assert_cmpint (stream_of_node (check, ids[0]), ==, check->effective->n_streams - 1);
      g_free (text);
      text = g_steal_pointer (&moved);
    }
  pv_partition_check_free (check);
  return 0;
}
