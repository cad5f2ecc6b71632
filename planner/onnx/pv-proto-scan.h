/* pv-proto-scan.h: a validating walk over protobuf wire format, guided by a
 * protobuf-c descriptor.
 *
 * protobuf-c's unpacker says only "failed", and recurses without limit into
 * nested messages (a small hostile file can exhaust the stack). The loader
 * walks the bytes with this scanner first: it never reads the contents of
 * bytes fields (so weights are not paged in), bounds the nesting depth, and
 * reports the first fault with its byte offset and field path.
 *
 * String fields (names, op types, dim_params: a few bytes each) are read
 * for NUL bytes: protobuf-c hands them over as C strings, cut at the first
 * NUL, so "nul\0a" and "nul\0b" would both read as "nul". doc_string is
 * left alone: nothing reads it. */
#pragma once

#include <glib.h>
#include <protobuf-c/protobuf-c.h>

G_BEGIN_DECLS

typedef enum {
  PV_PROTO_SCAN_OK,
  PV_PROTO_SCAN_TRUNCATED,     /* a field runs past the end of its message */
  PV_PROTO_SCAN_MALFORMED,     /* bad tag, varint or wire type */
  PV_PROTO_SCAN_WRONG_TYPE,    /* a known field arrives with another wire type */
  PV_PROTO_SCAN_TOO_DEEP,
  PV_PROTO_SCAN_NUL_IN_STRING, /* a string field (not doc_string) holds a NUL byte */
} PvProtoScanStatus;

typedef struct {
  PvProtoScanStatus status;
  gsize offset;        /* byte offset in the whole buffer where the fault is */
  int depth;           /* message nesting depth of the fault (0 = top level) */
  char *path;          /* "graph.node[3].attribute[0].g.initializer[1]" */
  char *message;       /* one sentence, no file name */
  char *string_head;   /* NUL_IN_STRING: the string's bytes before the NUL */
  guint64 n_counted;   /* messages of the counted type met, nested ones too */
} PvProtoScanResult;

void pv_proto_scan_result_clear (PvProtoScanResult *result);

/* Walks @data as a message of type @descriptor, at most @max_depth messages
 * deep, counting the messages of type @counted (may be NULL) in
 * @result->n_counted. Returns TRUE when protobuf-c will be able to unpack
 * it; otherwise fills @result with the first fault. */
gboolean pv_proto_scan (const ProtobufCMessageDescriptor *descriptor,
                        const guint8 *data,
                        gsize len,
                        int max_depth,
                        const ProtobufCMessageDescriptor *counted,
                        PvProtoScanResult *result);

G_END_DECLS
