/* planviz-cli live: what is live at one instant of a plan's run. */
#include <stdio.h>
#include <stdlib.h>

#include "pv-cli-session.h"
#include "pv-live-export.h"

/* "peak" or a schedule time (a step with unit kernel costs). */
static gboolean
parse_instant (const char *text, PvLiveInstant *at)
{
  char *end = NULL;

  if (text == NULL || g_strcmp0 (text, "peak") == 0)
    {
      at->at_peak = TRUE;
      return TRUE;
    }
  at->time = g_ascii_strtod (text, &end);
  return end != text && *end == '\0' && at->time >= 0;
}

int
pv_cli_live (int argc, char **argv)
{
  g_autofree char *planner = NULL, *instant = NULL;
  gboolean json = FALSE;
  int device = 0;
  g_auto (PvCliPlanArgs) args = { 0 };
  GOptionEntry entries[] = {
    { "at", 'a', 0, G_OPTION_ARG_STRING, &instant, "The instant: peak (default) or a step of the simulated run",
      "STEP|peak" },
    { "planner", 'p', 0, G_OPTION_ARG_STRING, &planner,
      "Where values live: ort (default: ONNX Runtime's buffers), slots (greedy slots) or arena (offsets in one "
      "arena)", "PLANNER" },
    { "device", 0, 0, G_OPTION_ARG_INT, &device, "The curve of this device: 0 CPU (default), 1 GPU", "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "JSON instead of a table", NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new ("MODEL.onnx — the values live at one instant of the plan's run, largest first");
  g_autoptr (PvModel) model = NULL;
  g_autoptr (PvKernelTable) kernels = NULL;
  g_autoptr (PvSession) session = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  PvSessionOptions options = { 0 };
  PvPlannerKind kind = PV_PLANNER_ORT;
  PvLiveInstant at = { 0 };
  int status;

  g_option_context_add_main_entries (context, entries, NULL);
  status = pv_cli_plan_args_parse (&args, "live", context, &argc, &argv);
  if (status != PV_CLI_OK)
    return status;
  if (!pv_cli_parse_planner ("live", planner, &kind))
    return PV_CLI_USAGE;
  if (!parse_instant (instant, &at))
    {
      g_printerr ("planviz-cli live: --at wants peak or a step ≥ 0, not “%s”\n", instant);
      return PV_CLI_USAGE;
    }
  at.device = device;
  status = pv_cli_plan_session ("live", argv[1], &args, &options, &model, &kernels, &session);
  if (status != PV_CLI_OK)
    return status;
  text = json ? pv_live_export_json (session, kind, &at, &error) : pv_live_export_text (session, kind, &at, &error);
  if (text == NULL)
    {
      g_printerr ("planviz-cli live: %s: %s\n", argv[1], error->message);
      return PV_CLI_BAD_INPUT;
    }
  fputs (text, stdout);
  if (!g_str_has_suffix (text, "\n"))
    fputc ('\n', stdout);
  return PV_CLI_OK;
}
