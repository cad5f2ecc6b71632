/* pv-partition-check-private.h: the state the partition-config checker
 * (pv-partition-check.c, steps 1-5 and the verdict) shares with its name
 * pass (pv-partition-check-names.c, step 6). Not for callers outside
 * planner/partition. */
#pragma once

#include "pv-json-doc.h"
#include "pv-partition-private.h"

G_BEGIN_DECLS

/* What ORT 1.30 does, for PvPartitionFinding.ort, and the messages it
 * logs or throws, word for word. */
#define ORT_IGNORES_FILE "ignores the whole file (it logs a warning) and uses its default partition"
#define ORT_REFUSES "refuses to create the session"
#define ORT_CRASHES "crashes (SIGSEGV) while building the execution plan: an empty stream has no device"
#define ORT_CRASHES_LATER "would crash (SIGSEGV) on this empty stream, but refuses the session for another error first"
#define ORT_ORDER "runs each stream in the graph's topological order, whatever the order in the file"
#define MSG_COUNT "Number of streams does not equal to number of device types!"
#define MSG_TYPE "Partitioner type is not DeviceBasedPartitioner"
#define MSG_MIXED \
  "execution_plan[plan_.node_stream_map_[node_index]]->device_.Type() == node_device_mem_location.Type() was false."
#define MSG_NOT_STRING "[json.exception.type_error.302] type must be string, but is %s"

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

/* Adds a finding of @severity at @offset: @ort says what ORT does. */
G_GNUC_PRINTF (5, 6) void _pv_check_add (Checker *c, PvFindingSeverity severity, gsize offset, const char *ort,
                                         const char *format, ...);

/* A "devices" entry as a number when it is all decimal digits (at most 9;
 * G_MAXINT for more), else G_MININT. */
int _pv_check_device_value (const PvJsonValue *d);

/* Step 6: where each name of each stream goes, and what ORT makes of the
 * streams it builds from them (missing nodes, mixed devices, order, empty
 * streams). Sets c->reject and c->crash_stream. */
void _pv_check_names (Checker *c);

G_END_DECLS
