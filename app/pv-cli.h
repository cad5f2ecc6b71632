/* pv-cli.h: planviz-cli's command dispatch and shared helpers. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Exit codes: success, bad input (model, config), bad usage. */
enum { PV_CLI_OK = 0, PV_CLI_BAD_INPUT = 1, PV_CLI_USAGE = 2 };

int pv_cli_main (int argc, char **argv);

/* Parses @context over argv; on failure prints the error and a hint, and
 * returns FALSE (the caller exits with PV_CLI_USAGE). */
gboolean pv_cli_parse (GOptionContext *context, int *argc, char ***argv);

int pv_cli_info (int argc, char **argv);

G_END_DECLS
