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

G_END_DECLS
