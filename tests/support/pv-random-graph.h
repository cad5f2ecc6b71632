/* pv-random-graph.h: random DAGs for property tests. */
#pragma once

#include <glib.h>

#include "pv-model.h"

G_BEGIN_DECLS

/* A random model: 2-29 nodes, each reading 1-3 earlier values (recent ones
 * more often, so fan-out happens), about one in six an Identity (a view), one in six a Relu (in place),
 * the last value and sometimes another a graph output. @sizes receives
 * value name -> bytes (64-256) for every node output; *views_out (caller
 * frees) maps view values to their source. */
PvModel *pv_random_graph_new (GRand *rand, GHashTable *sizes, int **views_out);
/* The same, drawing the same numbers from @rand, and the model's ONNX bytes
 * in *@bytes_out (caller unrefs) when @bytes_out is not NULL. */
PvModel *pv_random_graph_new_with_bytes (GRand *rand, GHashTable *sizes, int **views_out, GBytes **bytes_out);

/* A DeviceBasedPartitioner config (caller frees) putting each node of @g on
 * one of 1-4 random streams, all on device "0", none empty (ORT 1.30
 * crashes on an empty stream); *@n_streams_out receives their number. */
char *pv_random_partition_config (GRand *rand, const PvGraph *g, int *n_streams_out);

G_END_DECLS
