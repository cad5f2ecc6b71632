/* planviz-cli plan: a memory plan of a model, checked. */
#include <stdio.h>

#include "pv-cli-session.h"
#include "pv-plan-export.h"

int
pv_cli_plan (int argc, char **argv)
{
  g_autofree char *planner = NULL, *format = NULL;
  g_auto (PvCliPlanArgs) args = { 0 };
  int status;
  gboolean include_inputs = FALSE, roofline = FALSE;
  GOptionEntry entries[] = {
    { "planner", 'p', 0, G_OPTION_ARG_STRING, &planner,
      "ort (default: ONNX Runtime's own plan), slots (greedy slots) or arena (offsets in one arena)",
      "PLANNER" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format,
      "text, json, trace (Chrome trace events) or ort (ONNX Runtime's plan printout)", "FORMAT" },
    { "include-graph-inputs", 0, 0, G_OPTION_ARG_NONE, &include_inputs, "Place graph inputs too", NULL },
    { "roofline", 0, 0, G_OPTION_ARG_NONE, &roofline,
      "Schedule kernels by FLOPs and bytes moved (µs) instead of one unit each", NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("MODEL.onnx — plan activation memory and check the plan");
  g_autoptr (PvModel) model = NULL;
  g_autoptr (PvKernelTable) kernels = NULL;
  g_autoptr (PvSession) session = NULL;
  g_autofree char *text = NULL;
  PvSessionOptions options = { 0 };
  PvPlannerKind kind = PV_PLANNER_ORT;
  gboolean json;

  g_option_context_add_main_entries (context, entries, NULL);
  status = pv_cli_plan_args_parse (&args, "plan", context, &argc, &argv);
  if (status != PV_CLI_OK)
    return status;
  if (!pv_cli_parse_planner ("plan", planner, &kind))
    return PV_CLI_USAGE;
  if (format && !g_strv_contains ((const char *const[]) { "text", "json", "trace", "ort", NULL }, format))
    {
      g_printerr ("planviz-cli plan: unknown format “%s” (text, json, trace, ort)\n", format);
      return PV_CLI_USAGE;
    }
  if (g_strcmp0 (format, "ort") == 0)
    kind = PV_PLANNER_ORT;
  json = g_strcmp0 (format, "json") == 0;
  options.include_graph_inputs = include_inputs;
  options.roofline_cost = roofline;
  status = pv_cli_plan_session ("plan", argv[1], &args, &options, &model, &kernels, &session);
  if (status != PV_CLI_OK)
    return status;
  if (g_strcmp0 (format, "ort") == 0)
    text = session->ort ? pv_ort_plan_to_ort_text (session->ort) : NULL;
  else if (g_strcmp0 (format, "trace") == 0)
    text = pv_plan_export_trace (session, kind);
  else
    text = json ? pv_plan_export_json (session, kind) : pv_plan_export_text (session, kind);
  if (text == NULL)
    {
      g_printerr ("planviz-cli: %s\n", session->ort_error);
      return PV_CLI_BAD_INPUT;
    }
  fputs (text, stdout);
  if (!g_str_has_suffix (text, "\n"))
    fputc ('\n', stdout);
  /* A plan ORT refuses, or an unsafe plan, is a finding scripts must notice. */
  if (kind == PV_PLANNER_ORT)
    return session->ort && session->ort_check->ok ? PV_CLI_OK : PV_CLI_BAD_INPUT;
  if (!session->slots->deferred &&
      !(kind == PV_PLANNER_SLOTS ? session->slots_check->ok : session->arena_check->ok))
    return PV_CLI_BAD_INPUT;
  return PV_CLI_OK;
}
