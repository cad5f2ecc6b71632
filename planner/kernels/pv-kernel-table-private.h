/* pv-kernel-table-private.h: what the kernel table's parts share:
 * pv-kernel-defs-scan.c (a strict JSON syntax check that records where
 * each value and key starts, and those positions on cJSON's tree),
 * pv-kernel-defs-read.c (a file's entries) and pv-kernel-table.c (the
 * table). Not for callers outside planner/kernels. */
#pragma once

#include <cjson/cJSON.h>

#include "pv-kernel-table.h"

G_BEGIN_DECLS

#define MAX_DEPTH 1000 /* cJSON's nesting limit */

typedef struct {
  const char *text;
  gsize len;
  const char *name;
} Source;

typedef struct {
  const Source *src;
  gsize pos;
  GArray *value_offsets; /* gsize, values in pre-order */
  GArray *key_offsets;   /* gsize, object keys in pre-order */
  GError **error;
} Scanner;

/* Where a cJSON item (or its key) starts in the file. Sorted by item, for
 * bsearch: 16 bytes a value, a third of what a GHashTable took (a 4 MiB
 * file has half a million values). */
typedef struct {
  const cJSON *item;
  gsize offset;
} Position;

typedef struct {
  Position *values;     /* every value */
  guint n_values;
  Position *keys;       /* object members: where their key starts */
  guint n_keys;
} Positions;

/* One entry of a file, with the arrays its PvKernelDef points into. */
typedef struct {
  PvKernelDef def;
  PvKernelPair *alias;
  PvKernelPair *may_inplace;
  int *dtypes;
  int *cpu_inputs;
  int index;        /* position in its file's "kernels" */
  gsize offset;     /* of its '{' */
} Entry;

/* pv-kernel-defs-scan.c */
/* An error "NAME:LINE:COLUMN: message" at byte @offset of @src. */
G_GNUC_PRINTF (5, 6) void _pv_kdefs_set_error (GError **error, const Source *src, PvKernelTableError code,
                                               gsize offset, const char *format, ...);
void _pv_kdefs_skip_ws (Scanner *s);
/* One value at s->pos (nested @depth deep), its position recorded; FALSE
 * with the error set. */
gboolean _pv_kdefs_scan_value (Scanner *s, int depth);
gboolean _pv_kdefs_scan_fail (Scanner *s, gsize offset, const char *what);
/* Pairs @root's tree, in pre-order, with the recorded offsets; free with
 * _pv_kdefs_positions_clear(). */
void _pv_kdefs_assign_positions (const cJSON *root, Positions *pos, const GArray *values, const GArray *keys);
void _pv_kdefs_positions_clear (Positions *pos);
gsize _pv_kdefs_value_offset (const Positions *pos, const cJSON *item);
/* Where @item's key starts (its value's offset when it has none). */
gsize _pv_kdefs_key_offset (const Positions *pos, const cJSON *item);

/* pv-kernel-defs-read.c */
/* A whole file as entries (Entry*, file order), or NULL with @error. */
GPtrArray *_pv_kdefs_read_file (const Source *src, GStringChunk *strings, GError **error);
Entry *_pv_kdefs_entry_copy (const Entry *src);
void _pv_kdefs_entry_free (gpointer data);

G_END_DECLS
