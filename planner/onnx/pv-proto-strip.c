#include "pv-proto-strip.h"
#include "pv-proto-scan-private.h"

#include <string.h>

typedef struct {
  gsize offset;   /* from the start of the input */
  gsize len;
} Range;

/* Field numbers up to this are looked up in a table; ONNX's go to 25. */
#define TABLED_FIELDS 32

typedef struct _Walked Walked;

/* What the walk needs of one field of a walked message type. */
typedef struct {
  const ProtobufCFieldDescriptor *fd;  /* NULL: unknown to the schema */
  const Walked *child;                 /* its message type, when walked */
} FieldInfo;

/* A message type that may hold one of the stripped type, at any depth:
 * only these are walked; any other message is copied as it is, unread. */
struct _Walked {
  const ProtobufCMessageDescriptor *desc;
  gboolean stripped;
  FieldInfo fields[TABLED_FIELDS + 1];   /* by field number */
};

/* The copy, grown as written: a call a field to GByteArray cost a fifth
 * of the strip. */
typedef struct {
  guint8 *data;
  gsize len;
  gsize cap;
} Out;

typedef struct {
  const guint8 *base;
  int max_depth;
  gsize min_bytes;
  PvProtoKeepUnknown keep;
  gpointer user_data;
  Out out;
  GArray *pending;      /* Range: unknown fields of the stripped messages being copied */
  GArray *walked;       /* Walked, fixed in size once made */
} Strip;

static inline gboolean
read_varint (const guint8 **p, const guint8 *end, guint64 *out)
{
  gboolean truncated;

  /* Most tags and lengths are one byte. */
  if (*p < end && **p < 0x80)
    {
      *out = *(*p)++;
      return TRUE;
    }
  return _pv_proto_read_varint (p, end, out, &truncated);
}

/* @n more bytes at the end of @out, to be written. */
static inline guint8 *
reserve (Out *out, gsize n)
{
  guint8 *at;

  if (out->cap - out->len < n)
    {
      out->cap = MAX (out->cap * 2, out->len + n);
      out->data = g_realloc (out->data, out->cap);
    }
  at = out->data + out->len;
  out->len += n;
  return at;
}

static inline void
append (Out *out, const guint8 *from, const guint8 *to)
{
  if (to > from)
    memcpy (reserve (out, (gsize) (to - from)), from, (gsize) (to - from));
}

/* ---- the walked message types ---- */

static void
collect_descriptors (const ProtobufCMessageDescriptor *desc, GPtrArray *all)
{
  if (g_ptr_array_find (all, desc, NULL))
    return;
  g_ptr_array_add (all, (gpointer) desc);
  for (unsigned i = 0; i < desc->n_fields; i++)
    if (desc->fields[i].type == PROTOBUF_C_TYPE_MESSAGE)
      collect_descriptors (desc->fields[i].descriptor, all);
}

static const Walked *
find_walked (GArray *walked, const ProtobufCMessageDescriptor *desc)
{
  for (guint i = 0; i < walked->len; i++)
    if (g_array_index (walked, Walked, i).desc == desc)
      return &g_array_index (walked, Walked, i);
  return NULL;
}

static FieldInfo
field_info (GArray *walked, const ProtobufCMessageDescriptor *desc, unsigned number)
{
  FieldInfo info = { protobuf_c_message_descriptor_get_field (desc, number), NULL };

  if (info.fd && info.fd->type == PROTOBUF_C_TYPE_MESSAGE)
    info.child = find_walked (walked, info.fd->descriptor);
  return info;
}

/* The message types below @root from which @stripped can be reached, each
 * with its table of fields. */
static GArray *
walked_types (const ProtobufCMessageDescriptor *root, const ProtobufCMessageDescriptor *stripped)
{
  g_autoptr (GPtrArray) all = g_ptr_array_new ();
  g_autoptr (GPtrArray) reach = g_ptr_array_new ();
  GArray *walked;
  gboolean grew = TRUE;

  collect_descriptors (root, all);
  g_ptr_array_add (reach, (gpointer) stripped);
  while (grew)
    {
      grew = FALSE;
      for (guint k = 0; k < all->len; k++)
        {
          const ProtobufCMessageDescriptor *desc = all->pdata[k];
          for (unsigned i = 0; i < desc->n_fields && !g_ptr_array_find (reach, desc, NULL); i++)
            if (desc->fields[i].type == PROTOBUF_C_TYPE_MESSAGE &&
                g_ptr_array_find (reach, desc->fields[i].descriptor, NULL))
              {
                g_ptr_array_add (reach, (gpointer) desc);
                grew = TRUE;
              }
        }
    }
  /* Sized once: the tables point into it. */
  walked = g_array_sized_new (FALSE, TRUE, sizeof (Walked), reach->len);
  g_array_set_size (walked, reach->len);
  for (guint k = 0; k < reach->len; k++)
    {
      g_array_index (walked, Walked, k).desc = reach->pdata[k];
      g_array_index (walked, Walked, k).stripped = reach->pdata[k] == stripped;
    }
  for (guint k = 0; k < reach->len; k++)
    for (unsigned n = 1; n <= TABLED_FIELDS; n++)
      g_array_index (walked, Walked, k).fields[n] = field_info (walked, reach->pdata[k], n);
  return walked;
}

/* ---- the copy ---- */

/* Moves *@p past the value of a field of @wire_type. */
static gboolean
skip_value (const guint8 **p, const guint8 *end, int wire_type)
{
  guint64 v;

  switch (wire_type)
    {
    case PROTOBUF_C_WIRE_TYPE_VARINT:
      return read_varint (p, end, &v);
    case PROTOBUF_C_WIRE_TYPE_64BIT:
    case PROTOBUF_C_WIRE_TYPE_32BIT:
      v = wire_type == PROTOBUF_C_WIRE_TYPE_64BIT ? 8 : 4;
      break;
    case PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED:
      if (!read_varint (p, end, &v))
        return FALSE;
      break;
    default:
      return FALSE;
    }
  if (v > (guint64) (end - *p))
    return FALSE;
  *p += v;
  return TRUE;
}

/* @value in exactly @width bytes: continuation bits on all but the last.
 * protobuf-c reads such a padded varint as the plain one. */
static void
write_padded_varint (guint8 *at, gsize width, guint64 value)
{
  for (gsize i = 0; i < width; i++, value >>= 7)
    at[i] = (guint8) ((value & 0x7f) | (i + 1 < width ? 0x80 : 0));
}

static gboolean strip_message (Strip *s, const Walked *type, const guint8 *p, const guint8 *end, int depth);

/* A field of a walked message type: its tag as it was, a length prefix as
 * wide as before, and the message copied. */
static gboolean
copy_message_field (Strip *s, const Walked *type, const guint8 *field_at, const guint8 **p, const guint8 *end,
                    int depth)
{
  const guint8 *len_at = *p;
  guint64 len;
  gsize len_pos, width;

  if (!read_varint (p, end, &len) || len > (guint64) (end - *p) || depth + 1 > s->max_depth)
    return FALSE;
  width = (gsize) (*p - len_at);
  append (&s->out, field_at, len_at);
  len_pos = s->out.len;
  reserve (&s->out, width);
  if (!strip_message (s, type, *p, *p + len, depth + 1))
    return FALSE;
  /* Never wider than before: the copy is at most as long as the original. */
  write_padded_varint (s->out.data + len_pos, width, s->out.len - len_pos - width);
  *p += len;
  return TRUE;
}

/* The unknown fields held back for the message that starts at @start in
 * the output and whose pending ranges start at @first: appended if few or
 * kept. */
static void
finish_stripped (Strip *s, gsize start, guint first)
{
  gsize bytes = 0;

  if (s->pending->len == first)
    return;
  for (guint i = first; i < s->pending->len; i++)
    bytes += g_array_index (s->pending, Range, i).len;
  if (bytes <= s->min_bytes || s->keep (s->out.data + start, s->out.len - start, s->user_data))
    for (guint i = first; i < s->pending->len; i++)
      {
        const Range *r = &g_array_index (s->pending, Range, i);
        append (&s->out, s->base + r->offset, s->base + r->offset + r->len);
      }
  g_array_set_size (s->pending, first);
}

/* Copies the message of @type in [@p, @end): the fields that need no
 * change go in runs, as they were. */
static gboolean
strip_message (Strip *s, const Walked *type, const guint8 *p, const guint8 *end, int depth)
{
  gsize start = s->out.len;
  guint first = s->pending->len;
  const guint8 *run = p;

  while (p < end)
    {
      const guint8 *field_at = p;
      FieldInfo info;
      guint64 tag;
      int wire_type;

      if (!read_varint (&p, end, &tag) || (tag >> 3) == 0 || tag > G_MAXUINT32)
        return FALSE;
      info = (tag >> 3) <= TABLED_FIELDS ? type->fields[tag >> 3]
                                         : field_info (s->walked, type->desc, (unsigned) (tag >> 3));
      wire_type = (int) (tag & 7);
      if (info.child && wire_type == PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED)
        {
          append (&s->out, run, field_at);
          if (!copy_message_field (s, info.child, field_at, &p, end, depth))
            return FALSE;
          run = p;
          continue;
        }
      if (!skip_value (&p, end, wire_type))
        return FALSE;
      if (type->stripped && info.fd == NULL)
        {
          Range r = { (gsize) (field_at - s->base), (gsize) (p - field_at) };
          append (&s->out, run, field_at);
          g_array_append_val (s->pending, r);
          run = p;
        }
    }
  append (&s->out, run, p);
  if (type->stripped)
    finish_stripped (s, start, first);
  return TRUE;
}

GByteArray *
pv_proto_strip (const ProtobufCMessageDescriptor *descriptor, const guint8 *data, gsize len, int max_depth,
                const ProtobufCMessageDescriptor *stripped, gsize min_bytes, PvProtoKeepUnknown keep,
                gpointer user_data)
{
  g_autoptr (GArray) pending = g_array_new (FALSE, FALSE, sizeof (Range));
  g_autoptr (GArray) walked = walked_types (descriptor, stripped);
  const Walked *root = find_walked (walked, descriptor);
  Strip s = { data, max_depth, min_bytes, keep, user_data, { NULL, 0, 0 }, pending, walked };
  gboolean ok;

  if (len > G_MAXUINT)
    return NULL;
  /* Grown as written, not sized for @len: the copy of a model of big
   * weights is a small part of it (and MALLOC_PERTURB_ would fill all). */
  s.out.cap = MIN (len, 1024 * 1024);
  s.out.data = g_malloc (MAX (s.out.cap, 1));
  if (root == NULL)
    {
      /* Nothing to strip below @descriptor. */
      append (&s.out, data, data + len);
      ok = TRUE;
    }
  else
    ok = strip_message (&s, root, data, data + len, 0);
  if (!ok)
    {
      g_free (s.out.data);
      return NULL;
    }
  return g_byte_array_new_take (s.out.data, s.out.len);
}
