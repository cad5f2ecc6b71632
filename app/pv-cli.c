#include "pv-cli.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "pv-config.h"

typedef struct {
  const char *name;
  int (*run) (int argc, char **argv);
  const char *summary;
} Command;

static const Command commands[] = {
  { "info", pv_cli_info, "Show a model's header, counts, inputs, outputs, ops and ONNX Runtime's node order" },
};

static void
print_usage (FILE *out)
{
  fprintf (out, "Usage: planviz-cli COMMAND [OPTION…] MODEL.onnx\n\n"
                "See how ONNX Runtime lays out a model's activation memory.\n\nCommands:\n");
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf (out, "\nRun “planviz-cli COMMAND --help” for a command's options.\n"
                "Exit status: 0 success, 1 bad input, 2 bad usage.\n");
}

gboolean
pv_cli_parse (GOptionContext *context, int *argc, char ***argv)
{
  g_autoptr (GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      g_printerr ("planviz-cli: %s\nTry “planviz-cli %s --help”.\n", error->message, (*argv)[0]);
      return FALSE;
    }
  return TRUE;
}

int
pv_cli_main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  if (argc < 2)
    {
      print_usage (stderr);
      return PV_CLI_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_usage (stdout);
      return PV_CLI_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("planviz-cli %s\n", PV_VERSION);
      return PV_CLI_OK;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].run (argc - 1, argv + 1);

  g_printerr ("planviz-cli: unknown command “%s”\n\n", argv[1]);
  print_usage (stderr);
  return PV_CLI_USAGE;
}
