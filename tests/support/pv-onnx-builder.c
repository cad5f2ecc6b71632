/* pv-onnx-builder.c: build ONNX models in memory with protobuf-c. */

#include "pv-onnx-builder.h"

#include <gio/gio.h>
#include <string.h>

/* TensorProto.raw_data: absent from our schema, written as an unknown field. */
#define RAW_DATA_FIELD 9

struct _PvOnnxBuilder
{
  Onnx__ModelProto *model;
};

/* Repeated fields are plain (count, array) pairs without a capacity. Growing
 * to twice the count whenever the count is a power of two keeps the capacity
 * at least the next power of two, so appends are amortised O(1). */
static gpointer
grow_for_append (gpointer array, gsize n, gsize elem_size)
{
  if (n == 0)
    return g_realloc_n (array, 1, elem_size);
  if ((n & (n - 1)) == 0)
    return g_realloc_n (array, n * 2, elem_size);
  return array;
}

#define APPEND(count, array, value)                                        \
  G_STMT_START {                                                           \
    (array) = grow_for_append ((array), (count), sizeof *(array));         \
    (array)[(count)++] = (value);                                          \
  } G_STMT_END

static gsize
n_elements (const gint64 *dims, gsize n_dims)
{
  gsize n = 1;

  for (gsize i = 0; i < n_dims; i++)
    {
      g_return_val_if_fail (dims[i] >= 0, 0);
      n *= (gsize) dims[i];
    }
  return n;
}

static char **
strv_copy_counted (const char *const *names, gsize *n_out)
{
  gsize n = names ? g_strv_length ((char **) names) : 0;
  char **copy = n ? g_new (char *, n) : NULL;

  for (gsize i = 0; i < n; i++)
    copy[i] = g_strdup (names[i]);
  *n_out = n;
  return copy;
}

/* Value infos */

static Onnx__TensorShapeProto *
shape_from_text (const char *text)
{
  Onnx__TensorShapeProto *shape = g_new (Onnx__TensorShapeProto, 1);
  g_auto (GStrv) items = NULL;

  onnx__tensor_shape_proto__init (shape);
  if (*text == '\0')
    return shape;  /* rank 0 */

  items = g_strsplit (text, ",", -1);
  for (gsize i = 0; items[i]; i++)
    {
      Onnx__TensorShapeProto__Dimension *dim = g_new (Onnx__TensorShapeProto__Dimension, 1);
      const char *item = g_strstrip (items[i]);
      gint64 value;

      onnx__tensor_shape_proto__dimension__init (dim);
      if (*item == '\0')
        g_critical ("empty dimension in shape \"%s\"; left anonymous", text);
      else if (g_str_equal (item, "?"))
        ;  /* neither dim_value nor dim_param */
      else if (g_ascii_string_to_signed (item, 10, 0, G_MAXINT64, &value, NULL))
        {
          dim->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
          dim->dim_value = value;
        }
      else
        {
          dim->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
          dim->dim_param = g_strdup (item);
        }
      APPEND (shape->n_dim, shape->dim, dim);
    }
  return shape;
}

static Onnx__ValueInfoProto *
value_info_new (const char *name, int elem_type, const char *shape)
{
  Onnx__ValueInfoProto *info = g_new (Onnx__ValueInfoProto, 1);

  onnx__value_info_proto__init (info);
  info->name = g_strdup (name);

  if (elem_type != ONNX__TENSOR_PROTO__DATA_TYPE__UNDEFINED)
    {
      Onnx__TypeProto *type = g_new (Onnx__TypeProto, 1);
      Onnx__TypeProto__Tensor *tensor = g_new (Onnx__TypeProto__Tensor, 1);

      onnx__type_proto__init (type);
      onnx__type_proto__tensor__init (tensor);
      tensor->has_elem_type = TRUE;
      tensor->elem_type = elem_type;
      if (shape)
        tensor->shape = shape_from_text (shape);
      type->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
      type->tensor_type = tensor;
      info->type = type;
    }
  else if (shape)
    g_critical ("value \"%s\": a shape needs an element type; shape ignored", name);

  return info;
}

static Onnx__ValueInfoProto *
append_value_info (gsize *n, Onnx__ValueInfoProto ***list, const char *name, int elem_type, const char *shape)
{
  Onnx__ValueInfoProto *info = value_info_new (name, elem_type, shape);

  APPEND (*n, *list, info);
  return info;
}

Onnx__ValueInfoProto *
pv_onnx_graph_add_input (PvOnnxGraph *graph, const char *name, int elem_type, const char *shape)
{
  g_return_val_if_fail (graph && name, NULL);
  return append_value_info (&graph->n_input, &graph->input, name, elem_type, shape);
}

Onnx__ValueInfoProto *
pv_onnx_graph_add_output (PvOnnxGraph *graph, const char *name, int elem_type, const char *shape)
{
  g_return_val_if_fail (graph && name, NULL);
  return append_value_info (&graph->n_output, &graph->output, name, elem_type, shape);
}

Onnx__ValueInfoProto *
pv_onnx_graph_add_value_info (PvOnnxGraph *graph, const char *name, int elem_type, const char *shape)
{
  g_return_val_if_fail (graph && name, NULL);
  return append_value_info (&graph->n_value_info, &graph->value_info, name, elem_type, shape);
}

/* Tensors */

static Onnx__TensorProto *
tensor_new (const char *name, int elem_type, const gint64 *dims, gsize n_dims)
{
  Onnx__TensorProto *tensor = g_new (Onnx__TensorProto, 1);

  onnx__tensor_proto__init (tensor);
  tensor->name = g_strdup (name);
  tensor->has_data_type = TRUE;
  tensor->data_type = elem_type;
  tensor->n_dims = n_dims;
  tensor->dims = n_dims ? g_memdup2 (dims, n_dims * sizeof *dims) : NULL;
  return tensor;
}

/* Adds a raw_data field of raw_len bytes and returns its payload buffer.
 *
 * protobuf-c keeps a length-delimited unknown field with its length prefix:
 * data is the varint length followed by the payload (what unpack() produces
 * and what pack() copies after the tag). Allocating prefix and payload
 * together lets big payloads be generated in place, without a copy. */
static guint8 *
tensor_alloc_raw (Onnx__TensorProto *tensor, gsize raw_len)
{
  guint8 prefix[10];
  gsize prefix_len = 0;
  guint8 *data;

  for (guint64 v = raw_len; ; v >>= 7)
    {
      prefix[prefix_len++] = (v & 0x7f) | (v >= 0x80 ? 0x80 : 0);
      if (v < 0x80)
        break;
    }

  data = g_malloc (prefix_len + raw_len);
  memcpy (data, prefix, prefix_len);
  APPEND (tensor->base.n_unknown_fields, tensor->base.unknown_fields,
          ((ProtobufCMessageUnknownField) {
            .tag = RAW_DATA_FIELD,
            .wire_type = PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED,
            .len = prefix_len + raw_len,
            .data = data,
          }));
  return data + prefix_len;
}

/* ONNX raw_data is little-endian whatever the host is: @n values of
 * @elem_size bytes (4 or 8) into @raw. */
static void
values_to_raw (guint8 *raw, const void *values, gsize n, gsize elem_size)
{
  const guint8 *in = values;

  for (gsize i = 0; i < n; i++, in += elem_size, raw += elem_size)
    if (elem_size == 4)
      {
        guint32 bits;

        memcpy (&bits, in, sizeof bits);
        bits = GUINT32_TO_LE (bits);
        memcpy (raw, &bits, sizeof bits);
      }
    else
      {
        guint64 bits;

        g_assert (elem_size == sizeof bits);
        memcpy (&bits, in, sizeof bits);
        bits = GUINT64_TO_LE (bits);
        memcpy (raw, &bits, sizeof bits);
      }
}

gpointer
pv_onnx_graph_add_initializer_alloc (PvOnnxGraph *graph,
                                     const char *name,
                                     int elem_type,
                                     const gint64 *dims,
                                     gsize n_dims,
                                     gsize raw_len)
{
  Onnx__TensorProto *tensor;

  g_return_val_if_fail (graph && name, NULL);
  tensor = tensor_new (name, elem_type, dims, n_dims);
  APPEND (graph->n_initializer, graph->initializer, tensor);
  return tensor_alloc_raw (tensor, raw_len);
}

Onnx__TensorProto *
pv_onnx_graph_add_initializer (PvOnnxGraph *graph,
                               const char *name,
                               int elem_type,
                               const gint64 *dims,
                               gsize n_dims,
                               const void *raw,
                               gsize raw_len)
{
  guint8 *payload;

  g_return_val_if_fail (graph && name && (raw || raw_len == 0), NULL);
  payload = pv_onnx_graph_add_initializer_alloc (graph, name, elem_type, dims, n_dims, raw_len);
  if (raw_len)
    memcpy (payload, raw, raw_len);
  return graph->initializer[graph->n_initializer - 1];
}

/* The typed conveniences: values of @elem_size bytes, as many as @dims holds. */
static Onnx__TensorProto *
add_initializer_values (PvOnnxGraph *graph,
                        const char *name,
                        int elem_type,
                        const gint64 *dims,
                        gsize n_dims,
                        const void *values,
                        gsize elem_size)
{
  gsize n = n_elements (dims, n_dims);

  g_return_val_if_fail (graph && name && (values || n == 0), NULL);
  values_to_raw (pv_onnx_graph_add_initializer_alloc (graph, name, elem_type, dims, n_dims, n * elem_size),
                 values, n, elem_size);
  return graph->initializer[graph->n_initializer - 1];
}

Onnx__TensorProto *
pv_onnx_graph_add_initializer_floats (PvOnnxGraph *graph,
                                      const char *name,
                                      const gint64 *dims,
                                      gsize n_dims,
                                      const float *values)
{
  return add_initializer_values (graph, name, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, dims, n_dims, values,
                                 sizeof *values);
}

Onnx__TensorProto *
pv_onnx_graph_add_initializer_int64s (PvOnnxGraph *graph,
                                      const char *name,
                                      const gint64 *dims,
                                      gsize n_dims,
                                      const gint64 *values)
{
  return add_initializer_values (graph, name, ONNX__TENSOR_PROTO__DATA_TYPE__INT64, dims, n_dims, values,
                                 sizeof *values);
}

static void
tensor_add_external_entry (Onnx__TensorProto *tensor, const char *key, char *value)
{
  Onnx__StringStringEntryProto *entry = g_new (Onnx__StringStringEntryProto, 1);

  onnx__string_string_entry_proto__init (entry);
  entry->key = g_strdup (key);
  entry->value = value;
  APPEND (tensor->n_external_data, tensor->external_data, entry);
}

Onnx__TensorProto *
pv_onnx_graph_add_external_initializer (PvOnnxGraph *graph,
                                        const char *name,
                                        int elem_type,
                                        const gint64 *dims,
                                        gsize n_dims,
                                        const char *location,
                                        gint64 offset,
                                        gint64 length)
{
  Onnx__TensorProto *tensor;

  g_return_val_if_fail (graph && name && location, NULL);
  tensor = tensor_new (name, elem_type, dims, n_dims);
  tensor->has_data_location = TRUE;
  tensor->data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
  tensor_add_external_entry (tensor, "location", g_strdup (location));
  if (offset >= 0)
    tensor_add_external_entry (tensor, "offset", g_strdup_printf ("%" G_GINT64_FORMAT, offset));
  if (length >= 0)
    tensor_add_external_entry (tensor, "length", g_strdup_printf ("%" G_GINT64_FORMAT, length));
  APPEND (graph->n_initializer, graph->initializer, tensor);
  return tensor;
}

/* Nodes */

PvOnnxNode *
pv_onnx_graph_add_node (PvOnnxGraph *graph,
                        const char *op_type,
                        const char *name,
                        const char *const *inputs,
                        const char *const *outputs)
{
  Onnx__NodeProto *node;

  g_return_val_if_fail (graph && op_type, NULL);
  node = g_new (Onnx__NodeProto, 1);
  onnx__node_proto__init (node);
  node->op_type = g_strdup (op_type);
  node->name = g_strdup (name);
  node->input = strv_copy_counted (inputs, &node->n_input);
  node->output = strv_copy_counted (outputs, &node->n_output);
  APPEND (graph->n_node, graph->node, node);
  return node;
}

PvOnnxNode *
pv_onnx_graph_add_if (PvOnnxGraph *graph,
                      const char *name,
                      const char *cond,
                      const char *const *outputs,
                      PvOnnxGraph *then_branch,
                      PvOnnxGraph *else_branch)
{
  PvOnnxNode *node = pv_onnx_graph_add_node (graph, "If", name, (const char *const[]) { cond, NULL }, outputs);

  pv_onnx_node_add_attr_graph (node, "then_branch", then_branch);
  pv_onnx_node_add_attr_graph (node, "else_branch", else_branch);
  return node;
}

void
pv_onnx_node_set_domain (PvOnnxNode *node, const char *domain)
{
  g_return_if_fail (node);
  g_free (node->domain);
  node->domain = g_strdup (domain);
}

static Onnx__AttributeProto *
node_add_attr (PvOnnxNode *node, const char *name, Onnx__AttributeProto__AttributeType type)
{
  Onnx__AttributeProto *attr = g_new (Onnx__AttributeProto, 1);

  onnx__attribute_proto__init (attr);
  attr->name = g_strdup (name);
  attr->has_type = TRUE;
  attr->type = type;
  APPEND (node->n_attribute, node->attribute, attr);
  return attr;
}

void
pv_onnx_node_add_attr_int (PvOnnxNode *node, const char *name, gint64 value)
{
  Onnx__AttributeProto *attr;

  g_return_if_fail (node && name);
  attr = node_add_attr (node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
  attr->has_i = TRUE;
  attr->i = value;
}

void
pv_onnx_node_add_attr_float (PvOnnxNode *node, const char *name, float value)
{
  Onnx__AttributeProto *attr;

  g_return_if_fail (node && name);
  attr = node_add_attr (node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
  attr->has_f = TRUE;
  attr->f = value;
}

void
pv_onnx_node_add_attr_string (PvOnnxNode *node, const char *name, const char *value)
{
  Onnx__AttributeProto *attr;

  g_return_if_fail (node && name && value);
  attr = node_add_attr (node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);
  attr->has_s = TRUE;
  attr->s.len = strlen (value);
  attr->s.data = (guint8 *) g_strdup (value);
}

void
pv_onnx_node_add_attr_ints (PvOnnxNode *node, const char *name, const gint64 *values, gsize n_values)
{
  Onnx__AttributeProto *attr;

  g_return_if_fail (node && name && (values || n_values == 0));
  attr = node_add_attr (node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
  attr->n_ints = n_values;
  attr->ints = g_memdup2 (values, n_values * sizeof *values);
}

void
pv_onnx_node_add_attr_floats (PvOnnxNode *node, const char *name, const float *values, gsize n_values)
{
  Onnx__AttributeProto *attr;

  g_return_if_fail (node && name && (values || n_values == 0));
  attr = node_add_attr (node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS);
  attr->n_floats = n_values;
  attr->floats = g_memdup2 (values, n_values * sizeof *values);
}

/* Adds a TENSOR attribute and returns its payload buffer of raw_len bytes. */
static guint8 *
node_add_attr_tensor_alloc (PvOnnxNode *node,
                            const char *name,
                            int elem_type,
                            const gint64 *dims,
                            gsize n_dims,
                            gsize raw_len)
{
  Onnx__AttributeProto *attr;

  attr = node_add_attr (node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
  attr->t = tensor_new (NULL, elem_type, dims, n_dims);
  return tensor_alloc_raw (attr->t, raw_len);
}

void
pv_onnx_node_add_attr_tensor (PvOnnxNode *node,
                              const char *name,
                              int elem_type,
                              const gint64 *dims,
                              gsize n_dims,
                              const void *raw,
                              gsize raw_len)
{
  guint8 *payload;

  g_return_if_fail (node && name && (raw || raw_len == 0));
  payload = node_add_attr_tensor_alloc (node, name, elem_type, dims, n_dims, raw_len);
  if (raw_len)
    memcpy (payload, raw, raw_len);
}

/* The typed conveniences: values of @elem_size bytes, as many as @dims holds. */
static void
node_add_attr_tensor_values (PvOnnxNode *node,
                             const char *name,
                             int elem_type,
                             const gint64 *dims,
                             gsize n_dims,
                             const void *values,
                             gsize elem_size)
{
  gsize n = n_elements (dims, n_dims);

  g_return_if_fail (node && name && (values || n == 0));
  values_to_raw (node_add_attr_tensor_alloc (node, name, elem_type, dims, n_dims, n * elem_size), values, n,
                 elem_size);
}

void
pv_onnx_node_add_attr_tensor_floats (PvOnnxNode *node,
                                     const char *name,
                                     const gint64 *dims,
                                     gsize n_dims,
                                     const float *values)
{
  node_add_attr_tensor_values (node, name, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, dims, n_dims, values, sizeof *values);
}

void
pv_onnx_node_add_attr_tensor_int64s (PvOnnxNode *node,
                                     const char *name,
                                     const gint64 *dims,
                                     gsize n_dims,
                                     const gint64 *values)
{
  node_add_attr_tensor_values (node, name, ONNX__TENSOR_PROTO__DATA_TYPE__INT64, dims, n_dims, values, sizeof *values);
}

void
pv_onnx_node_add_attr_graph (PvOnnxNode *node, const char *name, PvOnnxGraph *graph)
{
  Onnx__AttributeProto *attr;

  g_return_if_fail (node && name && graph);
  attr = node_add_attr (node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH);
  attr->g = graph;
}

/* Graphs */

PvOnnxGraph *
pv_onnx_graph_new (const char *name)
{
  Onnx__GraphProto *graph = g_new (Onnx__GraphProto, 1);

  onnx__graph_proto__init (graph);
  graph->name = g_strdup (name);
  return graph;
}

void
pv_onnx_graph_free (PvOnnxGraph *graph)
{
  /* Everything in the tree is g_malloc'd; since GLib 2.46 that is malloc(),
   * which is what protobuf-c's default allocator frees with. */
  if (graph)
    protobuf_c_message_free_unpacked (&graph->base, NULL);
}

void
pv_onnx_graph_set_name (PvOnnxGraph *graph, const char *name)
{
  g_return_if_fail (graph);
  g_free (graph->name);
  graph->name = g_strdup (name);
}

/* Builders */

PvOnnxBuilder *
pv_onnx_builder_new (gint64 ir_version, const char *producer_name)
{
  PvOnnxBuilder *self = g_new0 (PvOnnxBuilder, 1);

  self->model = g_new (Onnx__ModelProto, 1);
  onnx__model_proto__init (self->model);
  self->model->has_ir_version = TRUE;
  self->model->ir_version = ir_version;
  self->model->producer_name = g_strdup (producer_name);
  self->model->graph = pv_onnx_graph_new ("main_graph");
  return self;
}

void
pv_onnx_builder_free (PvOnnxBuilder *self)
{
  if (!self)
    return;
  protobuf_c_message_free_unpacked (&self->model->base, NULL);
  g_free (self);
}

void
pv_onnx_builder_set_producer_version (PvOnnxBuilder *self, const char *version)
{
  g_return_if_fail (self);
  g_free (self->model->producer_version);
  self->model->producer_version = g_strdup (version);
}

void
pv_onnx_builder_add_opset (PvOnnxBuilder *self, const char *domain, gint64 version)
{
  Onnx__OperatorSetIdProto *opset;

  g_return_if_fail (self);
  opset = g_new (Onnx__OperatorSetIdProto, 1);
  onnx__operator_set_id_proto__init (opset);
  opset->domain = g_strdup (domain);
  opset->has_version = TRUE;
  opset->version = version;
  APPEND (self->model->n_opset_import, self->model->opset_import, opset);
}

Onnx__ModelProto *
pv_onnx_builder_get_model (PvOnnxBuilder *self)
{
  g_return_val_if_fail (self, NULL);
  return self->model;
}

PvOnnxGraph *
pv_onnx_builder_get_graph (PvOnnxBuilder *self)
{
  g_return_val_if_fail (self, NULL);
  return self->model->graph;
}

GBytes *
pv_onnx_builder_pack (PvOnnxBuilder *self)
{
  gsize size;
  guint8 *data;

  g_return_val_if_fail (self, NULL);
  size = protobuf_c_message_get_packed_size (&self->model->base);
  data = g_malloc (MAX (size, 1));
  protobuf_c_message_pack (&self->model->base, data);
  return g_bytes_new_take (data, size);
}

/* protobuf-c's pack_to_buffer() emits many tiny appends (tags, lengths) and a
 * few huge ones (payloads): gather the tiny ones, pass the huge ones through. */
#define STAGING_SIZE (64 * 1024)

typedef struct
{
  ProtobufCBuffer base;
  GOutputStream *out;
  guint8 *staging;
  gsize used;
  GError *error;  /* first failure; later appends are dropped */
} StreamBuffer;

static void
stream_buffer_flush (StreamBuffer *buf)
{
  if (buf->used && !buf->error)
    g_output_stream_write_all (buf->out, buf->staging, buf->used, NULL, NULL, &buf->error);
  buf->used = 0;
}

static void
stream_buffer_append (ProtobufCBuffer *base, size_t len, const uint8_t *data)
{
  StreamBuffer *buf = (StreamBuffer *) base;

  if (buf->error)
    return;
  if (buf->used + len > STAGING_SIZE)
    stream_buffer_flush (buf);
  if (len >= STAGING_SIZE)
    {
      if (!buf->error)
        g_output_stream_write_all (buf->out, data, len, NULL, NULL, &buf->error);
      return;
    }
  memcpy (buf->staging + buf->used, data, len);
  buf->used += len;
}

gboolean
pv_onnx_builder_write (PvOnnxBuilder *self, const char *path, GError **error)
{
  g_autoptr (GFile) file = NULL;
  g_autoptr (GFileOutputStream) out = NULL;
  g_autofree guint8 *staging = NULL;
  StreamBuffer buf = { { stream_buffer_append }, NULL, NULL, 0, NULL };

  g_return_val_if_fail (self && path, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* g_file_replace() writes to a temporary file and renames it over path on
   * a successful close, which makes the write atomic without a full copy. */
  file = g_file_new_for_path (path);
  out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, error);
  if (!out)
    return FALSE;

  staging = g_malloc (STAGING_SIZE);
  buf.out = G_OUTPUT_STREAM (out);
  buf.staging = staging;
  protobuf_c_message_pack_to_buffer (&self->model->base, &buf.base);
  stream_buffer_flush (&buf);

  if (buf.error)
    {
      /* Closing with a cancelled cancellable drops the temporary file and
       * leaves any previous file at path alone. */
      g_autoptr (GCancellable) cancel = g_cancellable_new ();

      g_cancellable_cancel (cancel);
      g_output_stream_close (G_OUTPUT_STREAM (out), cancel, NULL);
      g_propagate_prefixed_error (error, buf.error, "Could not write %s: ", path);
      return FALSE;
    }

  return g_output_stream_close (G_OUTPUT_STREAM (out), NULL, error);
}
