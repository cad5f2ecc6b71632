/* pv-timeline-style.c: the timeline's colours and fonts (see the header). */
#include "pv-timeline-style.h"

#define HEX(x) { ((x) >> 16 & 0xff) / 255.0, ((x) >> 8 & 0xff) / 255.0, ((x) & 0xff) / 255.0 }

/* Op types: Paul Tol's "light" scheme (colour-blind safe, made for dark
 * labels on top), pale grey for "other ops". AllocKinds (NotSet, Allocate,
 * Reuse, PreExisting, AllocateStatically, AllocateOutput, Share,
 * AllocatedExternally): Tol's "bright" scheme, saturated so that it does not
 * read as an op colour. */
const Rgb pv_timeline_fills[PV_TIMELINE_N_COLOURS] = {
  HEX (0x77AADD), HEX (0xEE8866), HEX (0xEEDD88), HEX (0xFFAABB), HEX (0x99DDFF),
  HEX (0x44BB99), HEX (0xBBCC33), HEX (0xAAAA00), HEX (0xDDDDDD),
  HEX (0xDDDDDD), HEX (0x4477AA), HEX (0xEE6677), HEX (0x228833), HEX (0xCCBB44),
  HEX (0xAA3377), HEX (0x66CCEE), HEX (0x999933),
};

/* A light Adwaita-like style. */
const PvTimelinePalette pv_timeline_palette_light = {
  .view_bg = HEX (0xFFFFFF), .header_bg = HEX (0xFAFAFA), .section_bg = HEX (0xF3F2F1),
  .lane_alt = HEX (0xF8F8F7), .separator = HEX (0xE3E2E0), .border = HEX (0xD3D2CF),
  .text = HEX (0x241F31), .dim = HEX (0x5E5C64), .faint = HEX (0x9A9996),
  .load = HEX (0x3D3846), .trigger = HEX (0x1A5FB4), .notify = HEX (0xC64600),
  .alias = HEX (0x813D9C), .arena_held = HEX (0x613583),
};

/* Adwaita's dark view colours; the lines a step lighter so that they
 * read on them. Kernel and bar fills keep their pale colours and dark
 * labels in both. */
const PvTimelinePalette pv_timeline_palette_dark = {
  .view_bg = HEX (0x1E1E1E), .header_bg = HEX (0x242424), .section_bg = HEX (0x2E2E32),
  .lane_alt = HEX (0x252527), .separator = HEX (0x3A3A3E), .border = HEX (0x48484C),
  .text = HEX (0xEEEEEC), .dim = HEX (0xC0BFBC), .faint = HEX (0x8E8D8A),
  .load = HEX (0xDEDDDA), .trigger = HEX (0x62A0EA), .notify = HEX (0xFFA348),
  .alias = HEX (0xC061CB), .arena_held = HEX (0xDC8ADD),
};

const PvTimelineColours pv_timeline_colours = {
  .label = HEX (0x241F31),
  .label_on_dark = HEX (0xFFFFFF),
  .accent = HEX (0x3584E4),
  .hover = HEX (0x1C71D8),
  .curve = HEX (0x3584E4),
  .peak = HEX (0xE01B24),
  .arena_in_use = HEX (0xC64600),
  .arena_requested = HEX (0x26A269),
  .summary = HEX (0xC0BFBC),
  .ghost = HEX (0x77767B),
  .instant = HEX (0xC01C28),
  .found = HEX (0xE5A50A),
};

void
pv_timeline_style_set_fonts (PangoFontDescription *fonts[N_FONTS], const char *family)
{
  for (int i = 0; i < N_FONTS; i++)
    g_clear_pointer (&fonts[i], pango_font_description_free);
  fonts[FONT_NORMAL] = pango_font_description_new ();
  pango_font_description_set_family (fonts[FONT_NORMAL], family ? family : PV_TIMELINE_DEFAULT_FONT);
  pango_font_description_set_size (fonts[FONT_NORMAL], 8 * PANGO_SCALE);  /* 10.7 px at 96 dpi */
  fonts[FONT_SMALL] = pango_font_description_copy (fonts[FONT_NORMAL]);
  pango_font_description_set_size (fonts[FONT_SMALL], (int) (7.5 * PANGO_SCALE));
  fonts[FONT_BOLD] = pango_font_description_copy (fonts[FONT_NORMAL]);
  pango_font_description_set_weight (fonts[FONT_BOLD], PANGO_WEIGHT_BOLD);
}

PangoFontDescription *
pv_timeline_style_title_font (const char *family)
{
  PangoFontDescription *font = pango_font_description_from_string (family ? family : PV_TIMELINE_DEFAULT_FONT);

  pango_font_description_set_size (font, 10 * PANGO_SCALE);
  pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  return font;
}
