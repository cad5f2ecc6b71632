/* pv-proto-strip.h: a copy of a protobuf message without the unknown fields
 * of the nested messages of one type that the caller does not need.
 *
 * protobuf-c copies every field it unpacks, unknown ones too. The loader's
 * schema leaves TensorProto's payload fields (raw_data, float_data, …)
 * unknown, so unpacking a model used to copy all of its weights, of which
 * the loader keeps only tensors of a few hundred bytes. Unpacking a stripped
 * copy keeps the weights out of memory: the strip steps over them without
 * reading them, so their pages of a mapped file are never read in either. */
#pragma once

#include <glib.h>
#include <protobuf-c/protobuf-c.h>

G_BEGIN_DECLS

/* Whether the unknown fields of one message are kept. @known holds that
 * message with its known fields only, ready for protobuf-c to unpack. */
typedef gboolean (*PvProtoKeepUnknown) (const guint8 *known, gsize len, gpointer user_data);

/* Copies @data, a message of type @descriptor that pv_proto_scan() accepted,
 * leaving out the unknown fields of every nested message of type @stripped
 * whose unknown fields take more than @min_bytes and for which @keep
 * returns FALSE. A kept message's unknown fields follow its known ones, in
 * their order. Every length prefix keeps its width in bytes (padded when
 * the message shrank), so protobuf-c reads the copy as it would read @data,
 * less the dropped fields. Messages that cannot hold one of type @stripped
 * are copied as they are, unread. Returns NULL when @data does not parse or
 * nests more than @max_depth messages deep (it changed since the scan). */
GByteArray *pv_proto_strip (const ProtobufCMessageDescriptor *descriptor,
                            const guint8 *data,
                            gsize len,
                            int max_depth,
                            const ProtobufCMessageDescriptor *stripped,
                            gsize min_bytes,
                            PvProtoKeepUnknown keep,
                            gpointer user_data);

G_END_DECLS
