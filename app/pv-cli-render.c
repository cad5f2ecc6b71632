/* planviz-cli render: the timeline of a model's plan as PNG, SVG or PDF. */
#include <stdio.h>
#include <string.h>

#include "pv-cli-session.h"
#include "pv-save-file.h"
#include "pv-timeline-export.h"

int pv_cli_render (int argc, char **argv);

#define MAX_SIDE 16000

static gboolean
out_format (const char *path, PvTimelineExportFormat *format)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".png"))
    *format = PV_TIMELINE_EXPORT_PNG;
  else if (g_str_has_suffix (lower, ".svg"))
    *format = PV_TIMELINE_EXPORT_SVG;
  else if (g_str_has_suffix (lower, ".pdf"))
    *format = PV_TIMELINE_EXPORT_PDF;
  else
    return FALSE;
  return TRUE;
}

static gboolean
parse_range (const char *text, double *t0, double *t1)
{
  char *end = NULL;
  const char *colon = strchr (text, ':');
  if (colon == NULL)
    return FALSE;
  *t0 = g_ascii_strtod (text, &end);
  if (end != colon)
    return FALSE;
  *t1 = g_ascii_strtod (colon + 1, &end);
  return *end == '\0' && *t1 > *t0;
}

/* Draws the titled picture in memory, then saves it with pv_save_file(): a
 * failed write never leaves half a picture over the old one. Returns FALSE
 * after printing why. */
static gboolean
write_output (PvTimelineRenderer *renderer, const char *path, PvTimelineExportFormat format, int scale,
              const PvTimelineExportInfo *info)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = pv_timeline_export (renderer, format, scale, info, &error);

  if (bytes == NULL)
    {
      g_printerr ("planviz-cli render: cannot draw %s: %s\n", path, error->message);
      return FALSE;
    }
  if (!pv_save_file (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error))
    {
      g_printerr ("planviz-cli render: %s\n", error->message);
      return FALSE;
    }
  return TRUE;
}

int
pv_cli_render (int argc, char **argv)
{
  g_autofree char *planner = NULL, *output = NULL, *colour = NULL, *range = NULL;
  g_auto (PvCliPlanArgs) args = { 0 };
  int status;
  int width = 1400, height = 0, scale = 1;
  gboolean no_legend = FALSE, no_arrows = FALSE;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the picture here (.png, .svg or .pdf)", "FILE" },
    { "planner", 'p', 0, G_OPTION_ARG_STRING, &planner,
      "Memory lanes: ort (default: ONNX Runtime's buffers, as plan and the window), slots (one lane per slot) or "
      "arena (offsets in one arena)",
      "PLANNER" },
    { "width", 'W', 0, G_OPTION_ARG_INT, &width, "Width in pixels (default 1400)", "W" },
    { "height", 'H', 0, G_OPTION_ARG_INT, &height, "Height in pixels (default: everything), below the title line",
      "H" },
    { "scale", 's', 0, G_OPTION_ARG_INT, &scale, "Scale 1 (default) or 2: twice the pixels (PNG) or the page (SVG, PDF)", "1|2" },
    { "colour", 'c', 0, G_OPTION_ARG_STRING, &colour, "Colour values by op (default) or kind (ORT's AllocKind)",
      "op|kind" },
    { "range", 'r', 0, G_OPTION_ARG_STRING, &range, "Show only schedule times T0 to T1", "T0:T1" },
    { "no-legend", 0, 0, G_OPTION_ARG_NONE, &no_legend, "Leave out the legend", NULL },
    { "no-arrows", 0, 0, G_OPTION_ARG_NONE, &no_arrows, "Leave out sync arrows and reuse links", NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new ("MODEL.onnx -o OUT.png|OUT.svg|OUT.pdf — draw the timeline (streams, live bytes, memory) under a title line");
  g_autoptr (PvModel) model = NULL;
  g_autoptr (PvKernelTable) kernels = NULL;
  g_autoptr (PvSession) session = NULL;
  g_autoptr (PvTimelineModel) timeline = NULL;
  g_autoptr (PvTimelineRenderer) renderer = NULL;
  PvSessionOptions options = { 0 };
  PvTimelineSource source;
  PvTimelineOptions view;
  PvTimelineExportFormat format;
  PvTimelineExportInfo info = { 0 };
  g_autofree char *model_name = NULL, *config_name = NULL;
  double t0 = 0, t1 = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  pv_cli_plan_args_init (&args);
  pv_cli_plan_args_add_entries (&args, context);
  if (!pv_cli_parse (context, &argc, &argv))
    return PV_CLI_USAGE;
  if (argc != 2)
    {
      g_printerr ("planviz-cli render: expected one MODEL.onnx, got %d arguments\n", argc - 1);
      return PV_CLI_USAGE;
    }
  if (output == NULL || !out_format (output, &format))
    {
      g_printerr ("planviz-cli render: -o OUT must end in .png, .svg or .pdf\n");
      return PV_CLI_USAGE;
    }
  pv_timeline_options_init (&view);
  /* The same default as plan, live and the window: ORT's own plan. */
  if (planner == NULL || strcmp (planner, "ort") == 0)
    view.memory_view = PV_TIMELINE_MEMORY_ORT_BUFFERS;
  else if (strcmp (planner, "slots") == 0)
    view.memory_view = PV_TIMELINE_MEMORY_SLOTS;
  else if (strcmp (planner, "arena") == 0)
    view.memory_view = PV_TIMELINE_MEMORY_ARENA;
  else
    {
      g_printerr ("planviz-cli render: unknown planner “%s” (ort, slots, arena)\n", planner);
      return PV_CLI_USAGE;
    }
  if (colour == NULL || strcmp (colour, "op") == 0)
    view.colour_by = PV_TIMELINE_COLOUR_BY_OP;
  else if (strcmp (colour, "kind") == 0)
    view.colour_by = PV_TIMELINE_COLOUR_BY_KIND;
  else
    {
      g_printerr ("planviz-cli render: --colour wants op or kind, not “%s”\n", colour);
      return PV_CLI_USAGE;
    }
  if (range && !parse_range (range, &t0, &t1))
    {
      g_printerr ("planviz-cli render: --range wants T0:T1 with T0 < T1, not “%s”\n", range);
      return PV_CLI_USAGE;
    }
  if (width < 320 || width > MAX_SIDE || height < 0 || height > MAX_SIDE || (height > 0 && height < 200))
    {
      g_printerr ("planviz-cli render: --width must be 320–%d and --height 200–%d\n", MAX_SIDE, MAX_SIDE);
      return PV_CLI_USAGE;
    }
  if (scale != 1 && scale != 2)
    {
      g_printerr ("planviz-cli render: --scale wants 1 or 2, not %d\n", scale);
      return PV_CLI_USAGE;
    }
  view.show_legend = !no_legend;
  view.arrows = no_arrows ? 0 : PV_TIMELINE_ARROW_ALL;
  status = pv_cli_plan_session ("render", argv[1], &args, &options, &model, &kernels, &session);
  if (status != PV_CLI_OK)
    return status;
  if (session->ort == NULL && session->ort_error)
    g_printerr ("planviz-cli render: no ONNX Runtime plan (%s); drawing graph order\n", session->ort_error);
  if (session->slots->deferred && session->basis->n_shapeless > 0)
    {
      g_autofree char *ops = g_strjoinv (", ", session->basis->no_shape_rule);
      g_printerr ("planviz-cli render: memory plan deferred: %d values have no known shape or type (no shape rule "
                  "for: %s); the drawing gives no total\n", session->basis->n_shapeless, ops[0] ? ops : "none");
    }
  if (session->slots->deferred && session->unbound_symbols && session->unbound_symbols[0])
    {
      g_autofree char *list = g_strjoinv (", ", session->unbound_symbols);
      g_printerr ("planviz-cli render: memory plan deferred; bind %s with --bound\n", list);
    }

  pv_timeline_source_init_from_session (&source, session);
  timeline = pv_timeline_model_new (&source);
  if (planner == NULL && !timeline->memory[view.memory_view].available)
    {
      /* No ORT plan to draw (refused): the default falls back to the slots. */
      g_printerr ("planviz-cli render: drawing the slot planner's lanes\n");
      view.memory_view = PV_TIMELINE_MEMORY_SLOTS;
    }
  renderer = pv_timeline_renderer_new (timeline);
  pv_timeline_renderer_set_options (renderer, &view);
  pv_timeline_renderer_set_size (renderer, width, height > 0 ? height : 800);
  if (range)
    pv_timeline_renderer_set_time_range (renderer, t0, t1);
  if (height == 0)
    {
      height = pv_timeline_renderer_get_natural_height (renderer);
      if (height > MAX_SIDE)
        {
          g_printerr ("planviz-cli render: %d rows need %d pixels; cutting at %d (use --planner arena or --height)\n",
                      timeline->memory[view.memory_view].n_lanes, height, MAX_SIDE);
          height = MAX_SIDE;
        }
      pv_timeline_renderer_set_size (renderer, width, height);
    }
  model_name = g_path_get_basename (argv[1]);
  config_name = args.partition ? g_path_get_basename (args.partition) : NULL;
  info.model = model_name;
  info.config = config_name;
  if (!write_output (renderer, output, format, scale, &info))
    return PV_CLI_BAD_INPUT;
  return PV_CLI_OK;
}
