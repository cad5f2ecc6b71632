/* pv-model-loader.c: ModelProto (protobuf-c) -> PvModel.
 *
 * The loader mirrors what ONNX Runtime's Graph constructor does with a model,
 * because node ids, names and order must match ORT's: Constant nodes become
 * initializers, node ids follow the model order of the remaining nodes, and
 * names from enclosing graphs resolve as outer-scope values that become the
 * implicit inputs of the node owning the subgraph. */
#include "pv-model-loader-private.h"

#include <string.h>
#include <unistd.h>

#include "pv-element-type.h"
#include "pv-error.h"
#include "pv-file-cut-guard.h"
#include "pv-proto-scan.h"
#include "pv-proto-strip.h"
#include "pv-read-file.h"

/* Model files up to this size are read, bigger ones mapped. Unmapping
 * flushes the TLB of every CPU the process has run on (an interrupt each, on
 * a VM), dearer than copying a few pages; and a read file cannot kill the
 * process with SIGBUS when another program cuts it while it loads. Past this
 * size copying costs more (a page fault a page). */
#define READ_UP_TO ((guint64) 1024 * 1024)
/* What pv_read_fd() takes from a small file that grows while read. */
#define MODEL_FILE_LIMIT ((gsize) G_MAXINT32)

/* Protobuf messages nested deeper than this are refused before protobuf-c
 * (which recurses) sees them. Each subgraph level costs four messages
 * (GraphProto > NodeProto > AttributeProto > GraphProto), types a few more. */
#define MAX_MESSAGE_DEPTH (4 * PV_MAX_GRAPH_DEPTH + 16)

/* ---- model ---- */

/* Refuses a graph of more than @max_nodes nodes (0: no limit) before it is
 * unpacked: the scan pages in no weights and allocates nothing per node. */
static gboolean
check_node_count (const char *source, guint64 n_nodes, guint64 max_nodes, GError **error)
{
  g_autofree char *memory = NULL, *time = NULL;
  guint64 seconds;

  if (max_nodes == 0 || n_nodes <= max_nodes)
    return TRUE;
  memory = g_format_size (n_nodes * PV_MODEL_BYTES_PER_NODE);
  seconds = n_nodes / PV_MODEL_NODES_PER_SECOND;
  g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_TOO_MANY_NODES,
               "%s: %" G_GUINT64_FORMAT " nodes (subgraphs included), more than the limit of %" G_GUINT64_FORMAT
               ": a plan of that size takes about %s of memory%s", source, n_nodes, max_nodes, memory,
               seconds ? (time = g_strdup_printf (" and %" G_GUINT64_FORMAT " s", seconds)) : "");
  return FALSE;
}

static gboolean
unpack_failure (const char *source, const guint8 *data, gsize len, guint64 max_nodes, GError **error)
{
  PvProtoScanResult scan;
  PvModelError code;
  gboolean ok = pv_proto_scan (&onnx__model_proto__descriptor, data, len, MAX_MESSAGE_DEPTH,
                               &onnx__node_proto__descriptor, &scan);

  if (ok)
    return check_node_count (source, scan.n_counted, max_nodes, error);
  switch (scan.status)
    {
    case PV_PROTO_SCAN_TRUNCATED:
      code = PV_MODEL_ERROR_TRUNCATED;
      break;
    case PV_PROTO_SCAN_TOO_DEEP:
      code = PV_MODEL_ERROR_TOO_DEEP;
      break;
    case PV_PROTO_SCAN_WRONG_TYPE:
      code = scan.depth == 0 ? PV_MODEL_ERROR_NOT_A_MODEL : PV_MODEL_ERROR_NOT_PROTOBUF;
      break;
    case PV_PROTO_SCAN_NUL_IN_STRING:
      code = PV_MODEL_ERROR_INVALID;
      break;
    default:
      code = scan.depth == 0 && scan.offset == 0 ? PV_MODEL_ERROR_NOT_PROTOBUF : PV_MODEL_ERROR_NOT_PROTOBUF;
      break;
    }
  if (code == PV_MODEL_ERROR_TRUNCATED)
    g_set_error (error, PV_MODEL_ERROR, code, "%s: truncated: at byte %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
                 " (%s), %s", source, scan.offset, len, scan.path[0] ? scan.path : "top level", scan.message);
  else if (code == PV_MODEL_ERROR_NOT_A_MODEL)
    g_set_error (error, PV_MODEL_ERROR, code, "%s: not an ONNX model: %s", source, scan.message);
  else if (code == PV_MODEL_ERROR_INVALID)
    {
      /* ORT keeps such a name whole (std::string); planviz's names are C
       * strings all the way to the JSON it writes, so reading on would merge
       * "nul\0a" and "nul\0b" into one name. */
      g_autofree char *head = g_strescape (scan.string_head, NULL);
      g_set_error (error, PV_MODEL_ERROR, code, "%s: %s holds a NUL byte (at byte %" G_GSIZE_FORMAT ", after “%s”): "
                   "ONNX Runtime keeps the whole name, planviz cannot carry a NUL in a name and refuses the model",
                   source, scan.path, scan.offset, head);
    }
  else if (code == PV_MODEL_ERROR_TOO_DEEP)
    g_set_error (error, PV_MODEL_ERROR, code, "%s: %s at byte %" G_GSIZE_FORMAT ": subgraphs (If, Loop, Scan "
                 "bodies) or types nested too deep; planviz reads subgraphs nested up to %d deep", source,
                 scan.message, scan.offset, PV_MAX_GRAPH_DEPTH);
  else
    g_set_error (error, PV_MODEL_ERROR, code, "%s: not a valid protobuf message: at byte %" G_GSIZE_FORMAT
                 " (%s), %s", source, scan.offset, scan.path[0] ? scan.path : "top level", scan.message);
  pv_proto_scan_result_clear (&scan);
  return FALSE;
}

static gboolean
check_header (const char *source, const Onnx__ModelProto *mp, GError **error)
{
  if (!mp->has_ir_version && mp->graph == NULL && mp->n_opset_import == 0)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_NOT_A_MODEL,
                   "%s: not an ONNX model: no IR version, opset or graph", source);
      return FALSE;
    }
  if (!mp->has_ir_version)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_IR_VERSION, "%s: the model has no IR version", source);
      return FALSE;
    }
  if (mp->ir_version < 1 || mp->ir_version > PV_MAX_IR_VERSION)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_IR_VERSION,
                   "%s: IR version %" G_GINT64_FORMAT " is not supported (planviz reads 1 to %d)", source,
                   (gint64) mp->ir_version, PV_MAX_IR_VERSION);
      return FALSE;
    }
  if (mp->graph == NULL)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_NO_GRAPH, "%s: the model has no graph", source);
      return FALSE;
    }
  if (mp->ir_version >= 3 && mp->n_opset_import == 0)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_INVALID,
                   "%s: the model imports no opset (IR version %" G_GINT64_FORMAT " requires opset_import)", source,
                   (gint64) mp->ir_version);
      return FALSE;
    }
  return TRUE;
}

static void
copy_header (Loader *ld, PvModel *model, const Onnx__ModelProto *mp)
{
  model->ir_version = mp->ir_version;
  model->producer_name = g_strdup (mp->producer_name ? mp->producer_name : "");
  model->producer_version = g_strdup (mp->producer_version ? mp->producer_version : "");
  model->domain = g_strdup (mp->domain ? mp->domain : "");
  model->model_version = mp->model_version;
  model->n_functions = (int) mp->n_functions;
  model->opsets = g_new0 (PvOpset, MAX (mp->n_opset_import, 1));
  for (size_t i = 0; i < mp->n_opset_import; i++)
    {
      const Onnx__OperatorSetIdProto *op = mp->opset_import[i];
      model->opsets[model->n_opsets].domain = intern (ld, normalise_domain (op->domain));
      model->opsets[model->n_opsets].version = op->version;
      model->n_opsets++;
    }
  /* IR version < 3 models have no opset_import: they are ONNX opset 1. */
  if (model->n_opsets == 0)
    {
      model->opsets[0].domain = intern (ld, "");
      model->opsets[0].version = 1;
      model->n_opsets = 1;
    }
  model->metadata_keys = g_new0 (char *, mp->n_metadata_props + 1);
  model->metadata_values = g_new0 (char *, mp->n_metadata_props + 1);
  for (size_t i = 0; i < mp->n_metadata_props; i++)
    {
      model->metadata_keys[i] = g_strdup (mp->metadata_props[i]->key ? mp->metadata_props[i]->key : "");
      model->metadata_values[i] = g_strdup (mp->metadata_props[i]->value ? mp->metadata_props[i]->value : "");
    }
}

typedef void (*ReleaseBytes) (gpointer data);

/* A model's bytes and how to take them. */
typedef struct {
  const guint8 *data;
  gsize len;
  gboolean mapped;        /* @data is a file's mapping, which another program may cut */
  gboolean keep_weights;  /* unpack every payload, unstripped (the strip's reference) */
  const char *display_name;
  const char *folder;     /* where external data is looked for; NULL for bytes */
  guint64 max_nodes;
  ReleaseBytes release;   /* frees @data once unpacked, or NULL */
  gpointer release_data;
} ModelSource;

/* protobuf-c's allocator over the bump arena that fails once the load is
 * cancelled: unpacking a big model is one call, and a failed allocation is
 * the only way to stop it early (protobuf-c then returns NULL). */
typedef struct {
  PvBumpAlloc *arena;
  GCancellable *cancellable;
  guint n_allocs;
  gboolean cancelled;
} UnpackAlloc;

static void *
unpack_alloc (void *data, size_t size)
{
  UnpackAlloc *u = data;

  if (!u->cancelled && ++u->n_allocs % (16 * CANCEL_STRIDE) == 0)
    u->cancelled = g_cancellable_is_cancelled (u->cancellable);
  return u->cancelled ? NULL : pv_bump_alloc (u->arena, size);
}

/* Whether the loader keeps the payload of a TensorProto whose known fields
 * are @known: only when pv_tensor_decode_payload() would decode it. */
static gboolean
keep_tensor_payload (const guint8 *known, gsize len, gpointer user_data)
{
  /* Asked only for payloads over PV_TENSOR_KEEP_DATA_BYTES: few calls. */
  Onnx__TensorProto *tp = onnx__tensor_proto__unpack (NULL, len, known);
  PvTensor shape = { 0 };
  gboolean keep;

  if (tp == NULL)
    return TRUE;  /* the unpack of the whole model meets the same bytes */
  shape.elem_type = tp->data_type;
  shape.n_dims = (int) tp->n_dims;
  shape.dims = tp->dims;
  keep = pv_tensor_payload_is_kept (&shape);
  onnx__tensor_proto__free_unpacked (tp, NULL);
  return keep;
}

/* The bytes to unpack: the source's, once the scan has found them sound and
 * not over its node limit, without the weights the loader does not keep;
 * NULL and @error otherwise. */
static GByteArray *
scan_and_strip (const ModelSource *src, GError **error)
{
  const char *display_name = src->display_name;
  gsize len = src->len;
  GByteArray *stripped;

  if (len > G_MAXINT32)
    {
      g_autofree char *size = g_format_size (len);
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_NOT_PROTOBUF, "%s: %s, over the 2 GiB that protobuf reads "
                   "as one message; keep the weights in external data", display_name, size);
      return NULL;
    }
  if (!unpack_failure (display_name, src->data, len, src->max_nodes, error))
    return NULL;
  if (src->keep_weights)
    return g_byte_array_append (g_byte_array_sized_new ((guint) len), src->data, (guint) len);
  stripped = pv_proto_strip (&onnx__model_proto__descriptor, src->data, len, MAX_MESSAGE_DEPTH,
                             &onnx__tensor_proto__descriptor, PV_TENSOR_KEEP_DATA_BYTES, keep_tensor_payload, NULL);
  if (stripped == NULL)
    g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_IO, "%s: the file changed while planviz read it (is another "
                 "program writing it?); open it again once it is written", display_name);
  return stripped;
}

/* scan_and_strip() over a mapping, which another program may cut meanwhile:
 * then an error that says so, whatever the zeros read made of it. */
static GByteArray *
scan_and_strip_mapped (const ModelSource *src, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  PvFileCutGuard guard;
  GByteArray *stripped;

  pv_file_cut_guard_begin (&guard, src->data, src->len);
  stripped = scan_and_strip (src, &local_error);
  if (pv_file_cut_guard_end (&guard))
    {
      g_clear_pointer (&stripped, g_byte_array_unref);
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_IO, "%s: the file was cut short while planviz read it "
                   "(is another program writing it?); open it again once it is written", src->display_name);
      return NULL;
    }
  if (stripped == NULL)
    g_propagate_error (error, g_steal_pointer (&local_error));
  return stripped;
}

/* The message tree of @bytes in @arena; NULL and @error when protobuf-c
 * refuses it or the load is cancelled. */
static Onnx__ModelProto *
unpack_model (const GByteArray *bytes, const char *display_name, PvBumpAlloc *arena, GCancellable *cancellable,
              GError **error)
{
  UnpackAlloc unpack = { arena, cancellable };
  ProtobufCAllocator allocator;
  Onnx__ModelProto *mp;

  /* The message tree lives in the arena and goes with it; allocations go
   * through the cancellable wrapper. */
  pv_bump_alloc_protobuf_allocator (arena, &allocator);
  allocator.alloc = unpack_alloc;
  allocator.allocator_data = &unpack;
  mp = onnx__model_proto__unpack (&allocator, bytes->len, bytes->data);
  if (mp == NULL && unpack.cancelled)
    g_cancellable_set_error_if_cancelled (cancellable, error);
  else if (mp == NULL)
    g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_NOT_PROTOBUF,
                 "%s: not a valid protobuf message (protobuf-c could not unpack it)", display_name);
  return mp;
}

/* Loads the model in @src, whose bytes are released once unpacked. */
static PvModel *
load_model (const ModelSource *src, GCancellable *cancellable, GError **error)
{
  const char *display_name = src->display_name;
  ReleaseBytes release = src->release;
  Loader ld = { display_name, NULL, NULL, cancellable };
  g_autoptr (PvModel) model = NULL;
  g_autoptr (PvBumpAlloc) arena = pv_bump_alloc_new ();
  g_autoptr (GByteArray) bytes = NULL;
  Onnx__ModelProto *mp;
  PvGraph *graph;

  if (src->len == 0)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_NOT_A_MODEL, "%s: the file is empty", display_name);
      goto fail;
    }
  bytes = src->mapped ? scan_and_strip_mapped (src, error) : scan_and_strip (src, error);
  if (bytes == NULL)
    goto fail;
  /* Everything needed is copied now: give back the file's pages early. */
  if (release)
    {
      release (src->release_data);
      release = NULL;
    }
  mp = unpack_model (bytes, display_name, arena, cancellable, error);
  g_clear_pointer (&bytes, g_byte_array_unref);
  if (mp == NULL)
    goto fail;
  if (!check_header (display_name, mp, error))
    goto fail;

  model = g_new0 (PvModel, 1);
  model->source_name = g_strdup (display_name);
  model->source_bytes = src->len;
  ld.strings = g_string_chunk_new (64 * 1024);
  ld.model = model;
  copy_header (&ld, model, mp);
  graph = _pv_loader_convert_graph (&ld, mp->graph, NULL, -1, NULL, error);
  if (graph == NULL)
    {
      /* The failed main graph has freed the strings already. */
      g_clear_pointer (&model, pv_model_free);
      goto fail;
    }
  model->graph = graph;
  if (!_pv_external_data_check (model, src->folder, error))
    return NULL;
  return g_steal_pointer (&model);

fail:
  if (release)
    release (src->release_data);
  return NULL;
}

PvModel *
pv_model_load_from_bytes (const guint8 *data, gsize len, const char *display_name, GError **error)
{
  ModelSource src = { data, len, .display_name = display_name ? display_name : "model",
                      .max_nodes = PV_MODEL_DEFAULT_MAX_NODES };

  return load_model (&src, NULL, error);
}

PvModel *
_pv_model_load_unstripped (const guint8 *data, gsize len, const char *display_name, GError **error)
{
  ModelSource src = { data, len, .keep_weights = TRUE, .display_name = display_name ? display_name : "model",
                      .max_nodes = PV_MODEL_DEFAULT_MAX_NODES };

  return load_model (&src, NULL, error);
}

PvModel *
pv_model_load_from_file (const char *path, GError **error)
{
  return pv_model_load_from_file_cancellable (path, NULL, error);
}

PvModel *
pv_model_load_from_file_cancellable (const char *path, GCancellable *cancellable, GError **error)
{
  return pv_model_load_from_file_full (path, PV_MODEL_DEFAULT_MAX_NODES, cancellable, error);
}

PvModel *
pv_model_load_from_file_full (const char *path, guint64 max_nodes, GCancellable *cancellable, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  guint64 size = 0;
  /* A regular file only: g_mapped_file_new() would wait forever on a FIFO. */
  int fd = pv_open_regular_file (path, &size, &local_error);
  GMappedFile *file = NULL;
  char *text = NULL;
  gsize len = 0;

  if (fd >= 0 && size <= READ_UP_TO)
    pv_read_fd (fd, path, size, MODEL_FILE_LIMIT, &text, &len, &local_error);
  else if (fd >= 0)
    file = g_mapped_file_new_from_fd (fd, FALSE, &local_error);
  if (fd >= 0)
    close (fd); /* a mapping stays */
  if (text == NULL && file == NULL)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_IO, "%s", local_error->message);
      return NULL;
    }
  if (text)
    {
      g_autofree char *name = g_filename_display_name (path);
      /* External data is found from the folder the path names, as ORT does. */
      g_autofree char *folder = g_path_get_dirname (path);

      ModelSource src = { (const guint8 *) text, len, .display_name = name, .folder = folder,
                          .max_nodes = max_nodes, .release = g_free, .release_data = text };

      return load_model (&src, cancellable, error);
    }
  return _pv_model_load_mapped (file, path, max_nodes, cancellable, error);
}

PvModel *
_pv_model_load_mapped (GMappedFile *file, const char *path, guint64 max_nodes, GCancellable *cancellable,
                       GError **error)
{
  g_autofree char *name = g_filename_display_name (path);
  g_autofree char *folder = g_path_get_dirname (path);
  ModelSource src = { (const guint8 *) g_mapped_file_get_contents (file), g_mapped_file_get_length (file),
                      .mapped = TRUE, .display_name = name, .folder = folder, .max_nodes = max_nodes,
                      .release = (ReleaseBytes) g_mapped_file_unref, .release_data = file };

  return load_model (&src, cancellable, error);
}

PvTensor *
pv_tensor_load_from_bytes (const guint8 *data, gsize len, const char *display_name, GError **error)
{
  g_autoptr (PvBumpAlloc) arena = pv_bump_alloc_new ();
  ProtobufCAllocator allocator;
  PvProtoScanResult scan;
  Onnx__TensorProto *tp;

  if (!pv_proto_scan (&onnx__tensor_proto__descriptor, data, len, 8, NULL, &scan))
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_NOT_PROTOBUF, "%s: not a TensorProto: at byte %" G_GSIZE_FORMAT
                   ", %s", display_name, scan.offset, scan.message);
      pv_proto_scan_result_clear (&scan);
      return NULL;
    }
  pv_bump_alloc_protobuf_allocator (arena, &allocator);
  tp = onnx__tensor_proto__unpack (&allocator, len, data);
  if (tp == NULL)
    {
      g_set_error (error, PV_MODEL_ERROR, PV_MODEL_ERROR_NOT_PROTOBUF, "%s: not a TensorProto", display_name);
      return NULL;
    }
  return _pv_loader_tensor_from_proto (tp);
}
