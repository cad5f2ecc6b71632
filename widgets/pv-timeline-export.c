/* pv-timeline-export.c: the timeline as a titled picture file. */
#include "pv-timeline-export.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <gio/gio.h>
#include <string.h>

#include "pv-png-text.h"
#include "pv-timeline-renderer-private.h"

#define DEFAULT_CONFIG "ORT default partition"
#define TITLE_PAD 10.0

static const char *
planner_name (PvTimelineMemoryView view)
{
  switch (view)
    {
    case PV_TIMELINE_MEMORY_ORT_BUFFERS: return "ort";
    case PV_TIMELINE_MEMORY_ARENA: return "arena";
    default: return "slots";
    }
}

/* "peak live 1.2 MiB", per device when there are several; "≥" when sizes
 * are missing from the curve (a deferred plan). */
static char *
peak_text (const PvTimelineModel *m)
{
  GString *out = g_string_new ("peak live ");
  const char *at_least = m->sizes_incomplete ? "≥ " : "";

  if (m->n_curves == 0)
    g_string_append (out, "unknown");
  for (int i = 0; i < m->n_curves; i++)
    {
      g_autofree char *bytes = pv_timeline_format_bytes (m->curves[i].peak_bytes);
      g_string_append_printf (out, "%s%s%s", i ? ", " : "", at_least, bytes);
      if (m->n_curves > 1)
        g_string_append_printf (out, " (device %d)", m->curves[i].device);
    }
  if (m->sizes_incomplete)
    g_string_append (out, " (sizes deferred)");
  return g_string_free (out, FALSE);
}

/* The title's two parts: what was planned ("cnn.onnx · ORT default
 * partition") and how ("· ort planner · peak live 1.2 MiB"), which a narrow
 * picture must keep whole. */
static void
title_parts (PvTimelineRenderer *renderer, const PvTimelineExportInfo *info, char **head, char **tail)
{
  g_autofree char *peak = peak_text (renderer->model);

  *head = g_strdup_printf ("%s%s%s · %s", info->model ? info->model : "model", info->graph ? " › " : "",
                           info->graph ? info->graph : "", info->config ? info->config : DEFAULT_CONFIG);
  *tail = g_strdup_printf (" · %s planner · %s", planner_name (renderer->options.memory_view), peak);
}

char *
pv_timeline_export_title (PvTimelineRenderer *renderer, const PvTimelineExportInfo *info)
{
  g_autofree char *head = NULL, *tail = NULL;

  title_parts (renderer, info, &head, &tail);
  return g_strconcat (head, tail, NULL);
}

static PangoLayout *
title_layout (cairo_t *cr, const PangoFontDescription *font, const char *text, double width)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);

  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  if (width >= 0)
    {
      pango_layout_set_width (layout, (int) (MAX (width, 1) * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
    }
  return layout;
}

/* The title band across the top in the renderer's palette (light for
 * exports), over its background: the head
 * ellipsized when the tail would not fit after it. */
static void
draw_title (PvTimelineRenderer *renderer, cairo_t *cr, const PvTimelineExportInfo *info)
{
  const double width = renderer->vp.width, height = PV_TIMELINE_EXPORT_TITLE_HEIGHT;
  PangoFontDescription *font = pv_timeline_style_title_font (renderer->font_family);
  g_autofree char *head = NULL, *tail = NULL;
  PangoLayout *tail_layout, *head_layout;
  int tail_w, head_w, text_h;

  title_parts (renderer, info, &head, &tail);
  tail_layout = title_layout (cr, font, tail, -1);
  pango_layout_get_pixel_size (tail_layout, &tail_w, &text_h);
  head_layout = title_layout (cr, font, head, width - 2 * TITLE_PAD - tail_w);
  pango_layout_get_pixel_size (head_layout, &head_w, NULL);

  cairo_save (cr);
  set_rgb (cr, &pal (renderer)->view_bg);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  set_rgb (cr, &pal (renderer)->separator);
  cairo_rectangle (cr, 0, height - 1, width, 1);
  cairo_fill (cr);
  set_rgb (cr, &pal (renderer)->text);
  cairo_move_to (cr, TITLE_PAD, floor ((height - text_h) / 2));
  pango_cairo_show_layout (cr, head_layout);
  cairo_move_to (cr, TITLE_PAD + head_w, floor ((height - text_h) / 2));
  pango_cairo_show_layout (cr, tail_layout);
  cairo_restore (cr);
  pango_font_description_free (font);
  g_object_unref (head_layout);
  g_object_unref (tail_layout);
}

static cairo_status_t
append_bytes (void *closure, const unsigned char *data, unsigned int length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

/* A <title> as the SVG's first child: cairo draws text as glyph outlines,
 * so the title would otherwise be nowhere in the file as text. */
static void
svg_add_title (GByteArray *svg, const char *title)
{
  const char *start = g_strstr_len ((const char *) svg->data, svg->len, "<svg");
  const char *end = start ? memchr (start, '>', svg->len - (gsize) ((const guint8 *) start - svg->data)) : NULL;
  g_autofree char *escaped = g_markup_escape_text (title, -1);
  g_autofree char *element = g_strdup_printf ("\n<title>%s</title>", escaped);
  gsize at;

  if (end == NULL)
    return;
  at = (gsize) ((const guint8 *) end - svg->data) + 1;
  g_byte_array_set_size (svg, svg->len + (guint) strlen (element));
  memmove (svg->data + at + strlen (element), svg->data + at, svg->len - strlen (element) - at);
  memcpy (svg->data + at, element, strlen (element));
}

static cairo_surface_t *
create_surface (PvTimelineExportFormat format, GByteArray *bytes, int width, int height, int scale)
{
  cairo_surface_t *surface;

  switch (format)
    {
    case PV_TIMELINE_EXPORT_PNG:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
      cairo_surface_set_device_scale (surface, scale, scale);
      return surface;
    case PV_TIMELINE_EXPORT_SVG:
      return cairo_svg_surface_create_for_stream (append_bytes, bytes, width * scale, height * scale);
    default:
      return cairo_pdf_surface_create_for_stream (append_bytes, bytes, width * scale, height * scale);
    }
}

GBytes *
pv_timeline_export (PvTimelineRenderer *renderer, PvTimelineExportFormat format, int scale,
                    const PvTimelineExportInfo *info, GError **error)
{
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  g_autofree char *title = pv_timeline_export_title (renderer, info);
  const int width = renderer->vp.width, height = renderer->vp.height + PV_TIMELINE_EXPORT_TITLE_HEIGHT;
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  g_return_val_if_fail (scale == 1 || scale == 2, NULL);

  surface = create_surface (format, bytes, width, height, scale);
  if (format == PV_TIMELINE_EXPORT_PDF)
    {
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, title);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "planviz");
    }
  cr = cairo_create (surface);
  if (format != PV_TIMELINE_EXPORT_PNG)
    cairo_scale (cr, scale, scale);  /* the image surface has a device scale */
  cairo_save (cr);
  cairo_translate (cr, 0, PV_TIMELINE_EXPORT_TITLE_HEIGHT);
  pv_timeline_renderer_draw (renderer, cr);
  cairo_restore (cr);
  draw_title (renderer, cr, info);
  status = cairo_status (cr);
  cairo_destroy (cr);
  if (status == CAIRO_STATUS_SUCCESS && format == PV_TIMELINE_EXPORT_PNG)
    status = cairo_surface_write_to_png_stream (surface, append_bytes, bytes);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Cannot draw the timeline: %s",
                   cairo_status_to_string (status));
      return NULL;
    }
  if (format == PV_TIMELINE_EXPORT_PNG)
    {
      const char *pairs[] = { "Title", title, "Model", info->model ? info->model : "",
                              "Config", info->config ? info->config : DEFAULT_CONFIG,
                              "Planner", planner_name (renderer->options.memory_view), "Software", "planviz",
                              info->graph ? "Graph" : NULL, info->graph, NULL };
      if (!pv_png_insert_text (bytes, pairs, error))
        return NULL;
    }
  else if (format == PV_TIMELINE_EXPORT_SVG)
    svg_add_title (bytes, title);
  return g_byte_array_free_to_bytes (g_steal_pointer (&bytes));
}
