/* pv-cli.h: planviz-cli's command dispatch and shared helpers. */
#pragma once

#include <cjson/cJSON.h>
#include <glib.h>

#include "pv-graph.h"
#include "pv-model.h"
#include "pv-ort-shapes.h"

G_BEGIN_DECLS

/* Exit codes: success, bad input (model, config), bad usage. */
enum { PV_CLI_OK = 0, PV_CLI_BAD_INPUT = 1, PV_CLI_USAGE = 2 };

int pv_cli_main (int argc, char **argv);

/* Parses @context over argv; on failure prints the error and a hint, and
 * returns FALSE (the caller exits with PV_CLI_USAGE). */
gboolean pv_cli_parse (GOptionContext *context, int *argc, char ***argv);
/* pv_cli_parse(), then one argument, MODEL.onnx. Returns PV_CLI_OK, or
 * prints why (prefixed by "planviz-cli @command") and returns PV_CLI_USAGE. */
int pv_cli_parse_model (const char *command, GOptionContext *context, int *argc, char ***argv);

/* Loads @path and makes the session-time rewrites ORT makes
 * (pv-ort-graph-rewrite.h): the graph every command shows and plans.
 * @ort_shapes (may be NULL) receives ORT's view of its shapes, which the
 * rewrite infers anyway, for the session to share. */
PvModel *pv_cli_load_model (const char *path, PvOrtShapes **ort_shapes, GError **error);

/* TRUE when a partition config of @len bytes read from @path is within
 * pv_partition_config_size_limit() of @graph; else prints why and returns
 * FALSE (the caller exits with PV_CLI_BAD_INPUT). */
gboolean pv_cli_partition_size_ok (const PvGraph *graph, const char *path, gsize len);

/* Parses "--input-value NAME=V" (or NAME=V1,V2,…) strings into graph input
 * name -> PvTensor* of the input's element type (a scalar for one value);
 * NULL, after printing why, when a name is no graph input of @model or a
 * value does not fit its type. */
GHashTable *pv_cli_parse_input_values (char **specs, const PvModel *model);

/* --config-devices: the devices config @text (NULL: no --partition) asks
 * for (pv_partition_config_node_devices) into *@devices_out; FALSE after a
 * message when @have_devices (--device or --gpu-ops was given too) or
 * there is no config. */
gboolean pv_cli_config_devices (const char *command, const PvGraph *graph, gboolean have_devices, const char *text,
                                gsize len, int **devices_out);

/* Prints @root as cJSON_Print() lays it out (any invalid UTF-8 made valid,
 * pv_json_dup_valid_utf8) and a newline on stdout, then deletes @root. */
void pv_cli_print_json (cJSON *root);

int pv_cli_info (int argc, char **argv);
int pv_cli_shapes (int argc, char **argv);
int pv_cli_plan (int argc, char **argv);
int pv_cli_partition (int argc, char **argv);
int pv_cli_check (int argc, char **argv);
int pv_cli_render (int argc, char **argv);
int pv_cli_live (int argc, char **argv);

G_END_DECLS
