#include "pv-proto-scan.h"
#include "pv-proto-scan-private.h"

#include <string.h>

/* One level of the path to the message being walked: the field that holds
 * it. Kept as descriptors, and turned into text only when reporting. */
typedef struct {
  const ProtobufCFieldDescriptor *fd;
  guint index;          /* position among the field's repeated entries */
} Frame;

typedef struct {
  const guint8 *base;
  int max_depth;
  const ProtobufCMessageDescriptor *counted;
  PvProtoScanResult *result;
  GArray *path;         /* Frame */
} Scan;

void
pv_proto_scan_result_clear (PvProtoScanResult *result)
{
  g_clear_pointer (&result->path, g_free);
  g_clear_pointer (&result->message, g_free);
  g_clear_pointer (&result->string_head, g_free);
  result->status = PV_PROTO_SCAN_OK;
}

static void
append_frame (GString *out, const ProtobufCFieldDescriptor *fd, guint index, guint32 number)
{
  if (out->len)
    g_string_append_c (out, '.');
  if (fd == NULL)
    g_string_append_printf (out, "<field %u>", number);
  else if (fd->label == PROTOBUF_C_LABEL_REPEATED)
    g_string_append_printf (out, "%s[%u]", fd->name, index);
  else
    g_string_append (out, fd->name);
}

static char *
join_path (GArray *path, const ProtobufCFieldDescriptor *last, guint last_index, guint32 last_number)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < path->len; i++)
    {
      const Frame *f = &g_array_index (path, Frame, i);
      append_frame (out, f->fd, f->index, 0);
    }
  if (last || last_number)
    append_frame (out, last, last_index, last_number);
  return g_string_free (out, FALSE);
}

/* The field being read when a fault is found. */
typedef struct {
  const ProtobufCFieldDescriptor *fd;
  guint index;
  guint32 number;
} Field;

G_GNUC_PRINTF (5, 6) static gboolean
fail (Scan *scan, PvProtoScanStatus status, const guint8 *at, const Field *field, const char *format, ...)
{
  va_list args;

  scan->result->status = status;
  scan->result->offset = (gsize) (at - scan->base);
  scan->result->depth = (int) scan->path->len;
  scan->result->path = field ? join_path (scan->path, field->fd, field->index, field->number)
                             : join_path (scan->path, NULL, 0, 0);
  va_start (args, format);
  scan->result->message = g_strdup_vprintf (format, args);
  va_end (args);
  return FALSE;
}

static int
expected_wire_type (ProtobufCType type)
{
  switch (type)
    {
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_FLOAT:
      return PROTOBUF_C_WIRE_TYPE_32BIT;
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_DOUBLE:
      return PROTOBUF_C_WIRE_TYPE_64BIT;
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_BYTES:
    case PROTOBUF_C_TYPE_MESSAGE:
      return PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED;
    default:
      return PROTOBUF_C_WIRE_TYPE_VARINT;
    }
}

static const char *
wire_type_name (int wire_type)
{
  switch (wire_type)
    {
    case PROTOBUF_C_WIRE_TYPE_VARINT: return "a varint";
    case PROTOBUF_C_WIRE_TYPE_64BIT: return "a 64-bit value";
    case PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED: return "length-delimited";
    case PROTOBUF_C_WIRE_TYPE_32BIT: return "a 32-bit value";
    default: return "an unsupported wire type";
    }
}

/* A packed repeated scalar: the payload must split into whole elements. */
static gboolean
check_packed (Scan *scan, const ProtobufCFieldDescriptor *fd, const guint8 *start, gsize len, const Field *field)
{
  int wt = expected_wire_type (fd->type);
  const guint8 *p = start, *end = start + len;

  if (wt == PROTOBUF_C_WIRE_TYPE_32BIT || wt == PROTOBUF_C_WIRE_TYPE_64BIT)
    {
      gsize width = wt == PROTOBUF_C_WIRE_TYPE_32BIT ? 4 : 8;
      if (len % width != 0)
        return fail (scan, PV_PROTO_SCAN_MALFORMED, start, field,
                     "packed field holds %" G_GSIZE_FORMAT " bytes, not a multiple of %" G_GSIZE_FORMAT,
                     len, width);
      return TRUE;
    }
  while (p < end)
    {
      guint64 v;
      gboolean truncated;
      if (!_pv_proto_read_varint (&p, end, &v, &truncated))
        return fail (scan, PV_PROTO_SCAN_MALFORMED, p, field, "packed field ends inside a varint");
    }
  return TRUE;
}

static gboolean scan_message (Scan *scan, const ProtobufCMessageDescriptor *desc, const guint8 *p, const guint8 *end);

static gboolean
scan_field (Scan *scan, const ProtobufCMessageDescriptor *desc, guint32 number, int wire_type,
            const guint8 *tag_at, const guint8 **p, const guint8 *end, guint *counts)
{
  const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field (desc, number);
  Field field_info = { fd, 0, number };
  const Field *field = &field_info;
  guint64 len = 0;
  gboolean truncated;
  const guint8 *payload = NULL;

  if (fd)
    field_info.index = counts[fd - desc->fields]++;

  switch (wire_type)
    {
    case PROTOBUF_C_WIRE_TYPE_VARINT:
      if (!_pv_proto_read_varint (p, end, &len, &truncated))
        return fail (scan, truncated ? PV_PROTO_SCAN_TRUNCATED : PV_PROTO_SCAN_MALFORMED, tag_at, field,
                     "%s", truncated ? "the message ends inside a varint" : "a varint longer than 10 bytes");
      break;
    case PROTOBUF_C_WIRE_TYPE_64BIT:
    case PROTOBUF_C_WIRE_TYPE_32BIT:
      {
        gsize width = wire_type == PROTOBUF_C_WIRE_TYPE_64BIT ? 8 : 4;
        if ((gsize) (end - *p) < width)
          return fail (scan, PV_PROTO_SCAN_TRUNCATED, tag_at, field,
                       "a %" G_GSIZE_FORMAT "-byte value with only %" G_GSIZE_FORMAT " bytes left",
                       width, (gsize) (end - *p));
        *p += width;
        break;
      }
    case PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED:
      if (!_pv_proto_read_varint (p, end, &len, &truncated))
        return fail (scan, truncated ? PV_PROTO_SCAN_TRUNCATED : PV_PROTO_SCAN_MALFORMED, tag_at, field,
                     "%s", truncated ? "the message ends inside a length" : "a length longer than 10 bytes");
      if (len > (guint64) (end - *p))
        return fail (scan, PV_PROTO_SCAN_TRUNCATED, tag_at, field,
                     "a field of %" G_GUINT64_FORMAT " bytes with only %" G_GSIZE_FORMAT " bytes left",
                     len, (gsize) (end - *p));
      payload = *p;
      *p += len;
      break;
    default:
      return fail (scan, PV_PROTO_SCAN_MALFORMED, tag_at, field, "wire type %d is not supported", wire_type);
    }

  if (fd == NULL)
    return TRUE;

  if (wire_type != expected_wire_type (fd->type))
    {
      /* Repeated scalars may arrive packed. */
      if (fd->label == PROTOBUF_C_LABEL_REPEATED && wire_type == PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED &&
          expected_wire_type (fd->type) != PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED)
        return check_packed (scan, fd, payload, len, field);
      return fail (scan, PV_PROTO_SCAN_WRONG_TYPE, tag_at, field,
                   "field %u (%s) is %s, but %s.%s is %s", number, fd->name, wire_type_name (wire_type),
                   desc->short_name, fd->name, wire_type_name (expected_wire_type (fd->type)));
    }

  if (fd->type == PROTOBUF_C_TYPE_STRING && strcmp (fd->name, "doc_string") != 0)
    {
      const guint8 *nul = memchr (payload, 0, len);
      if (nul != NULL)
        {
          scan->result->string_head = g_strndup ((const char *) payload, (gsize) (nul - payload));
          return fail (scan, PV_PROTO_SCAN_NUL_IN_STRING, nul, field,
                       "a NUL byte %" G_GSIZE_FORMAT " bytes into the string", (gsize) (nul - payload));
        }
    }

  if (fd->type == PROTOBUF_C_TYPE_MESSAGE)
    {
      gboolean ok;
      if ((int) scan->path->len + 1 > scan->max_depth)
        return fail (scan, PV_PROTO_SCAN_TOO_DEEP, tag_at, field,
                     "messages nested more than %d deep", scan->max_depth);
      Frame frame = { fd, field_info.index };
      if (fd->descriptor == scan->counted)
        scan->result->n_counted++;
      g_array_append_val (scan->path, frame);
      ok = scan_message (scan, fd->descriptor, payload, payload + len);
      g_array_set_size (scan->path, scan->path->len - 1);
      return ok;
    }
  return TRUE;
}

static gboolean
scan_message (Scan *scan, const ProtobufCMessageDescriptor *desc, const guint8 *p, const guint8 *end)
{
  /* Repeated-field counters, for paths: on the stack for ONNX's messages. */
  guint stack_counts[32] = { 0 };
  g_autofree guint *heap_counts = desc->n_fields > G_N_ELEMENTS (stack_counts) ? g_new0 (guint, desc->n_fields) : NULL;
  guint *counts = heap_counts ? heap_counts : stack_counts;

  while (p < end)
    {
      const guint8 *tag_at = p;
      guint64 tag;
      gboolean truncated;

      if (!_pv_proto_read_varint (&p, end, &tag, &truncated) || tag > G_MAXUINT32)
        return fail (scan, truncated ? PV_PROTO_SCAN_TRUNCATED : PV_PROTO_SCAN_MALFORMED, tag_at, NULL,
                     "%s", truncated ? "the message ends inside a field tag" : "a field tag that is not a valid varint");
      if ((tag >> 3) == 0 || (tag >> 3) > 536870911)
        return fail (scan, PV_PROTO_SCAN_MALFORMED, tag_at, NULL, "field number %u is not valid",
                     (guint) (tag >> 3));
      if (!scan_field (scan, desc, (guint32) (tag >> 3), (int) (tag & 7), tag_at, &p, end, counts))
        return FALSE;
    }
  return TRUE;
}

gboolean
pv_proto_scan (const ProtobufCMessageDescriptor *descriptor, const guint8 *data, gsize len, int max_depth,
               const ProtobufCMessageDescriptor *counted, PvProtoScanResult *result)
{
  Scan scan = { data, max_depth, counted, result, g_array_new (FALSE, FALSE, sizeof (Frame)) };
  gboolean ok;

  memset (result, 0, sizeof *result);
  ok = scan_message (&scan, descriptor, data, data + len);
  g_array_unref (scan.path);
  return ok;
}
