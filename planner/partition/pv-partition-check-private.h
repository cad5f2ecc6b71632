/* pv-partition-check-private.h: the state the partition-config checker
 * (pv-partition-check.c, steps 1-5 and the verdict) shares with its name
 * pass (pv-partition-check-names.c, step 6). Not for callers outside
 * planner/partition. */
#pragma once

#include "pv-json-doc.h"
#include "pv-partition-messages-private.h"
#include "pv-partition-config-private.h"

G_BEGIN_DECLS


typedef struct {
  const PvJsonValue *val; /* the stream as ORT iterates it */
  GPtrArray *names;       /* PvJsonValue* it visits */
  int *owners;            /* for each name, the name owner (step 6 sets it) */
  GArray *nodes;          /* node ids ORT puts in it, in run order */
  gboolean had_known;     /* lists some node of the main graph */
} CStream;

typedef struct {
  const PvGraph *graph;
  const char *text;
  gsize len;
  const int *node_devices;
  GPtrArray *findings;          /* PvPartitionFinding* */
  GHashTable *kinds;            /* format -> FindingKind: how many of each kind */
  PvPartitionCheck *check;      /* the result being made */

  /* The config as ORT reads it (steps 2-3). */
  const PvJsonValue *root, *streams_val, *devices_val;
  const PvJsonMember *streams_m, *devices_m;
  GPtrArray *stream_vals, *device_vals; /* PvJsonValue*, as ORT iterates them */
  GArray *streams;                      /* CStream */

  /* How ORT reacts, as far as the steps so far tell. */
  const char *discard;          /* the warning ORT logs, if it discards */
  char *discard_owned;
  char *reject;                 /* ORT's error, if it refuses */
  int crash_stream;             /* the first empty stream, or -1 */
} Checker;

/* Findings of one kind (one format) beyond this many are counted, not kept:
 * a hostile config repeating a name ten million times gets a hundred
 * warnings and a count, not gigabytes of them. */
#define MAX_FINDINGS_OF_A_KIND 100

/* Adds a finding of @severity at @offset: @ort says what ORT does. Called
 * as `_pv_check_add (c, offset, F_NAME, args...)` with a finding of
 * pv-partition-messages-private.h. Past MAX_FINDINGS_OF_A_KIND of its
 * kind, the first one more is kept to say how many follow. */
G_GNUC_PRINTF (5, 6) void _pv_check_add (Checker *c, gsize offset, PvFindingSeverity severity, const char *ort,
                                         const char *format, ...);

/* A "devices" entry as a number when it is all decimal digits (at most 9;
 * G_MAXINT for more), else G_MININT. */
int _pv_check_device_value (const PvJsonValue *d);

/* Step 6: where each name of each stream goes, and what ORT makes of the
 * streams it builds from them (missing nodes, mixed devices, order, empty
 * streams). Sets c->reject and c->crash_stream. */
void _pv_check_names (Checker *c);

G_END_DECLS
