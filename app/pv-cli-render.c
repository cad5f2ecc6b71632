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

/* The command line: the options, then what they say. */
typedef struct {
  char *planner, *output, *colour, *range;
  int width, height, scale;
  gboolean no_legend, no_arrows;
  PvTimelineExportFormat format;
  PvTimelineOptions view;
  double t0, t1;
} RenderArgs;

static void
render_args_clear (RenderArgs *args)
{
  g_clear_pointer (&args->planner, g_free);
  g_clear_pointer (&args->output, g_free);
  g_clear_pointer (&args->colour, g_free);
  g_clear_pointer (&args->range, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RenderArgs, render_args_clear)

/* The drawing's options from @args' words; PV_CLI_USAGE after a message. */
static int
check_args (RenderArgs *args)
{
  PvPlannerKind kind = PV_PLANNER_ORT;
  static const PvTimelineMemoryView memory_views[] = {
    [PV_PLANNER_ORT] = PV_TIMELINE_MEMORY_ORT_BUFFERS,
    [PV_PLANNER_SLOTS] = PV_TIMELINE_MEMORY_SLOTS,
    [PV_PLANNER_ARENA] = PV_TIMELINE_MEMORY_ARENA,
  };

  if (args->output == NULL || !out_format (args->output, &args->format))
    {
      g_printerr ("planviz-cli render: -o OUT must end in .png, .svg or .pdf\n");
      return PV_CLI_USAGE;
    }
  pv_timeline_options_init (&args->view);
  /* The same default as plan, live and the window: ORT's own plan. */
  if (!pv_cli_parse_planner ("render", args->planner, &kind))
    return PV_CLI_USAGE;
  args->view.memory_view = memory_views[kind];
  if (args->colour == NULL || strcmp (args->colour, "op") == 0)
    args->view.colour_by = PV_TIMELINE_COLOUR_BY_OP;
  else if (strcmp (args->colour, "kind") == 0)
    args->view.colour_by = PV_TIMELINE_COLOUR_BY_KIND;
  else
    {
      g_printerr ("planviz-cli render: --colour wants op or kind, not “%s”\n", args->colour);
      return PV_CLI_USAGE;
    }
  if (args->range && !parse_range (args->range, &args->t0, &args->t1))
    {
      g_printerr ("planviz-cli render: --range wants T0:T1 with T0 < T1, not “%s”\n", args->range);
      return PV_CLI_USAGE;
    }
  if (args->width < 320 || args->width > MAX_SIDE || args->height < 0 || args->height > MAX_SIDE ||
      (args->height > 0 && args->height < 200))
    {
      g_printerr ("planviz-cli render: --width must be 320–%d and --height 200–%d\n", MAX_SIDE, MAX_SIDE);
      return PV_CLI_USAGE;
    }
  if (args->scale != 1 && args->scale != 2)
    {
      g_printerr ("planviz-cli render: --scale wants 1 or 2, not %d\n", args->scale);
      return PV_CLI_USAGE;
    }
  args->view.show_legend = !args->no_legend;
  args->view.arrows = args->no_arrows ? 0 : PV_TIMELINE_ARROW_ALL;
  return PV_CLI_OK;
}

/* What the drawing will lack, on stderr. */
static void
report_gaps (const PvSession *session)
{
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
}

/* A renderer of @timeline at the size asked for (without --height: all
 * rows, up to MAX_SIDE pixels). */
static PvTimelineRenderer *
make_renderer (PvTimelineModel *timeline, RenderArgs *args)
{
  PvTimelineRenderer *renderer;
  int height = args->height;

  if (args->planner == NULL && !timeline->memory[args->view.memory_view].available)
    {
      /* No ORT plan to draw (refused): the default falls back to the slots. */
      g_printerr ("planviz-cli render: drawing the slot planner's lanes\n");
      args->view.memory_view = PV_TIMELINE_MEMORY_SLOTS;
    }
  renderer = pv_timeline_renderer_new (timeline);
  pv_timeline_renderer_set_options (renderer, &args->view);
  pv_timeline_renderer_set_size (renderer, args->width, height > 0 ? height : 800);
  if (args->range)
    pv_timeline_renderer_set_time_range (renderer, args->t0, args->t1);
  if (height == 0)
    {
      height = pv_timeline_renderer_get_natural_height (renderer);
      if (height > MAX_SIDE)
        {
          g_printerr ("planviz-cli render: %d rows need %d pixels; cutting at %d (use --planner arena or --height)\n",
                      timeline->memory[args->view.memory_view].n_lanes, height, MAX_SIDE);
          height = MAX_SIDE;
        }
      pv_timeline_renderer_set_size (renderer, args->width, height);
    }
  return renderer;
}

int
pv_cli_render (int argc, char **argv)
{
  g_auto (RenderArgs) render = { .width = 1400, .height = 0, .scale = 1 };
  g_auto (PvCliPlanArgs) args = { 0 };
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &render.output, "Write the picture here (.png, .svg or .pdf)",
      "FILE" },
    { "planner", 'p', 0, G_OPTION_ARG_STRING, &render.planner,
      "Memory lanes: ort (default: ONNX Runtime's buffers, as plan and the window), slots (one lane per slot) or "
      "arena (offsets in one arena)",
      "PLANNER" },
    { "width", 'W', 0, G_OPTION_ARG_INT, &render.width, "Width in pixels (default 1400)", "W" },
    { "height", 'H', 0, G_OPTION_ARG_INT, &render.height,
      "Height in pixels (default: everything), below the title line", "H" },
    { "scale", 's', 0, G_OPTION_ARG_INT, &render.scale,
      "Scale 1 (default) or 2: twice the pixels (PNG) or the page (SVG, PDF)", "1|2" },
    { "colour", 'c', 0, G_OPTION_ARG_STRING, &render.colour,
      "Colour values by op (default) or kind (ORT's AllocKind)", "op|kind" },
    { "range", 'r', 0, G_OPTION_ARG_STRING, &render.range, "Show only schedule times T0 to T1", "T0:T1" },
    { "no-legend", 0, 0, G_OPTION_ARG_NONE, &render.no_legend, "Leave out the legend", NULL },
    { "no-arrows", 0, 0, G_OPTION_ARG_NONE, &render.no_arrows, "Leave out sync arrows and reuse links", NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new (
    "MODEL.onnx -o OUT.png|OUT.svg|OUT.pdf — draw the timeline (streams, live bytes, memory) under a title line");
  g_autoptr (PvModel) model = NULL;
  g_autoptr (PvKernelTable) kernels = NULL;
  g_autoptr (PvSession) session = NULL;
  g_autoptr (PvTimelineModel) timeline = NULL;
  g_autoptr (PvTimelineRenderer) renderer = NULL;
  g_autofree char *model_name = NULL, *config_name = NULL;
  PvSessionOptions options = { 0 };
  PvTimelineSource source;
  PvTimelineExportInfo info = { 0 };
  int status;

  g_option_context_add_main_entries (context, entries, NULL);
  status = pv_cli_plan_args_parse (&args, "render", context, &argc, &argv);
  if (status == PV_CLI_OK)
    status = check_args (&render);
  if (status == PV_CLI_OK)
    status = pv_cli_plan_session ("render", argv[1], &args, &options, &model, &kernels, &session);
  if (status != PV_CLI_OK)
    return status;
  report_gaps (session);
  pv_timeline_source_init_from_session (&source, session);
  timeline = pv_timeline_model_new (&source);
  renderer = make_renderer (timeline, &render);
  model_name = g_path_get_basename (argv[1]);
  config_name = args.partition ? g_path_get_basename (args.partition) : NULL;
  info.model = model_name;
  info.config = config_name;
  if (!write_output (renderer, render.output, render.format, render.scale, &info))
    return PV_CLI_BAD_INPUT;
  return PV_CLI_OK;
}
