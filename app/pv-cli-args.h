/* pv-cli-args.h: the values of planviz-cli's --bound, --input-shape and
 * --device options. Each parser says why it refuses an entry on stderr
 * (g_printerr, prefixed "planviz-cli: ") and returns no result. */
#pragma once

#include <glib.h>

#include "pv-graph.h"

G_BEGIN_DECLS

/* Parses "--bound NAME=N" strings into symbol -> gint64* (caller unrefs);
 * a later entry for a symbol replaces an earlier one. On a bad entry prints
 * why and returns NULL. */
GHashTable *pv_cli_parse_bounds (char **specs);
/* Parses "--input-shape NAME=1,3,224,224" strings into name -> GArray of
 * gint64 (caller unrefs); NULL after printing why on a bad entry. */
GHashTable *pv_cli_parse_input_shapes (char **specs);

/* Node devices from --gpu-ops and --device (NULL when neither is given:
 * all CPU) into *@devices_out (node id -> device, g_free it). Returns FALSE
 * after printing why; *@exit_code says how to exit (PV_CLI_USAGE for a
 * malformed entry, PV_CLI_BAD_INPUT for a node the graph lacks). */
gboolean pv_cli_node_devices (const PvGraph *graph, const char *gpu_ops, char **device_specs, int **devices_out,
                              int *exit_code);

G_END_DECLS
