/* pv-model-graph.c: a GraphProto (and its subgraphs) as a PvGraph: values,
 * Constant nodes as initializers, nodes in ORT's NodeIndex order, their
 * inputs and outputs connected, outer-scope names as implicit inputs. */
#include "pv-model-loader-private.h"

#include <string.h>

#include "pv-element-type.h"
#include "pv-error.h"
#include "pv-graph-order.h"
#include "pv-proto-scan.h"

/* "in subgraph “body” of node “Loop_0”" for errors, "" for the main graph. */
static char *
graph_context (GraphBuild *gb)
{
  GString *out = g_string_new (NULL);

  for (GraphBuild *b = gb; b->parent != NULL; b = b->parent)
    {
      const PvNode *owner = &b->parent->nodes[b->graph->parent_node];
      g_string_append_printf (out, " in subgraph “%s” of node “%s” (%s)", b->graph->parent_attr,
                              owner->name[0] ? owner->name : "(unnamed)", owner->op_type);
    }
  return g_string_free (out, FALSE);
}

G_GNUC_PRINTF (4, 5) static void
set_error (GraphBuild *gb, GError **error, PvModelError code, const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;
  g_autofree char *context = gb ? graph_context (gb) : g_strdup ("");
  const char *source = gb ? gb->ld->source : "model";

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, PV_MODEL_ERROR, code, "%s: %s%s", source, message, context);
}

static char *
describe_node (const Onnx__NodeProto *np, int position)
{
  if (np->name && np->name[0])
    return g_strdup_printf ("node “%s” (%s)", np->name, np->op_type ? np->op_type : "?");
  return g_strdup_printf ("unnamed node #%d (%s)", position, np->op_type ? np->op_type : "?");
}

/* ---- values ---- */

static int
add_value (GraphBuild *gb, const char *name, guint flags)
{
  PvValue value = { 0 };
  int id = gb->n_values;
  const Onnx__TypeProto *tp;

  /* Copied, not interned: a graph's value names are unique, and the
   * dedup table of 170k names cost a twelfth of a load. */
  value.name = g_string_chunk_insert (gb->ld->strings, proto_name (name));
  value.flags = flags;
  value.producer = -1;
  value.outer_value = -1;
  value.ort_index = -1;
  tp = g_hash_table_lookup (gb->value_types, value.name);
  if (tp)
    _pv_loader_type_from_proto (gb->ld, gb->graph->arena, &value.type, tp, 0);
  else
    value.type.rank = -1;
  if (gb->n_values == gb->values_capacity)
    {
      gb->values_capacity = MAX (16, gb->values_capacity + gb->values_capacity / 2);
      gb->values = g_renew (PvValue, gb->values, gb->values_capacity);
    }
  gb->values[gb->n_values++] = value;
  pv_name_index_set (gb->graph->value_by_name, value.name, id);
  return id;
}

/* An int array of @n entries from the graph's arena (freed with the graph). */
static int *
graph_ints (GraphBuild *gb, int n)
{
  int *ints = pv_bump_alloc (gb->graph->arena, sizeof (int) * MAX (n, 1));
  memset (ints, 0, sizeof (int) * MAX (n, 1));
  return ints;
}

static PvValue *
value_at (GraphBuild *gb, int id)
{
  return &gb->values[id];
}

/* The id of @name in @gb, creating an outer-scope value when an enclosing
 * graph defines it; -1 when nothing does. */
static int
resolve_name (GraphBuild *gb, const char *name)
{
  int id = pv_graph_find_value (gb->graph, name);
  int outer;

  if (id >= 0 || gb->parent == NULL)
    return id;
  outer = resolve_name (gb->parent, name);
  if (outer < 0)
    return -1;
  id = add_value (gb, name, PV_VALUE_OUTER_SCOPE);
  value_at (gb, id)->outer_value = outer;
  if (value_at (gb, id)->type.kind == PV_TYPE_UNKNOWN)
    {
      _pv_loader_type_copy (gb->graph->arena, &value_at (gb, id)->type, &value_at (gb->parent, outer)->type);
    }
  return id;
}

/* ---- graphs ---- */

static gboolean
convert_attribute (GraphBuild *gb, int node_id, PvAttribute *attr, const Onnx__AttributeProto *a, GError **error)
{
  PvAttrType type = a->has_type ? (PvAttrType) a->type : PV_ATTR_UNDEFINED;

  attr->name = intern (gb->ld, a->name);
  /* IR versions before 0.0.2 had no type field: infer it from what is set. */
  if (type == PV_ATTR_UNDEFINED)
    {
      if (a->g) type = PV_ATTR_GRAPH;
      else if (a->t) type = PV_ATTR_TENSOR;
      else if (a->n_graphs) type = PV_ATTR_GRAPHS;
      else if (a->n_tensors) type = PV_ATTR_TENSORS;
      else if (a->n_ints) type = PV_ATTR_INTS;
      else if (a->n_floats) type = PV_ATTR_FLOATS;
      else if (a->n_strings) type = PV_ATTR_STRINGS;
      else if (a->has_s) type = PV_ATTR_STRING;
      else if (a->has_i) type = PV_ATTR_INT;
      else if (a->has_f) type = PV_ATTR_FLOAT;
    }
  attr->type = type;
  attr->f = a->f;
  attr->i = a->i;
  switch (type)
    {
    case PV_ATTR_STRING:
      attr->s = g_bytes_new (a->s.data, a->s.len);
      break;
    case PV_ATTR_TENSOR:
      if (a->t)
        attr->t = _pv_loader_tensor_from_proto (a->t);
      break;
    case PV_ATTR_SPARSE_TENSOR:
      if (a->sparse_tensor)
        attr->t = _pv_loader_tensor_from_sparse (a->sparse_tensor);
      break;
    case PV_ATTR_GRAPH:
      if (a->g == NULL)
        {
          set_error (gb, error, PV_MODEL_ERROR_INVALID, "graph attribute “%s” of node #%d holds no graph",
                     attr->name, node_id);
          return FALSE;
        }
      attr->g = _pv_loader_convert_graph (gb->ld, a->g, gb, node_id, attr->name, error);
      return attr->g != NULL;
    case PV_ATTR_FLOATS:
      attr->n = (guint) a->n_floats;
      attr->floats = g_memdup2 (a->floats, sizeof (float) * MAX (a->n_floats, 1));
      break;
    case PV_ATTR_INTS:
      attr->n = (guint) a->n_ints;
      attr->ints = g_memdup2 (a->ints, sizeof (gint64) * MAX (a->n_ints, 1));
      break;
    case PV_ATTR_STRINGS:
      attr->n = (guint) a->n_strings;
      attr->strings = g_new0 (GBytes *, MAX (a->n_strings, 1));
      for (size_t i = 0; i < a->n_strings; i++)
        attr->strings[i] = g_bytes_new (a->strings[i].data, a->strings[i].len);
      break;
    case PV_ATTR_TENSORS:
      attr->n = (guint) a->n_tensors;
      attr->tensors = g_new0 (PvTensor *, MAX (a->n_tensors, 1));
      for (size_t i = 0; i < a->n_tensors; i++)
        attr->tensors[i] = _pv_loader_tensor_from_proto (a->tensors[i]);
      break;
    case PV_ATTR_GRAPHS:
      attr->graphs = g_new0 (PvGraph *, MAX (a->n_graphs, 1));
      for (size_t i = 0; i < a->n_graphs; i++)
        {
          attr->graphs[i] = _pv_loader_convert_graph (gb->ld, a->graphs[i], gb, node_id, attr->name, error);
          if (attr->graphs[i] == NULL)
            return FALSE;
          attr->n = (guint) i + 1;
        }
      break;
    default:
      break;
    }
  return TRUE;
}

/* ORT turns Constant nodes (any domain: it checks the op type only) into
 * initializers before it numbers nodes. */
static gboolean
is_constant_node (const Onnx__NodeProto *np)
{
  return g_strcmp0 (np->op_type, "Constant") == 0;
}

/* Nodes that get no NodeIndex in ORT: Constants, and nodes without inputs or
 * outputs, which ORT removes as useless while connecting the graph. */
static gboolean
is_dropped_node (const Onnx__NodeProto *np)
{
  return is_constant_node (np) || (np->n_input == 0 && np->n_output == 0);
}

/* ORT 1.30's CPU provider has no CastLike kernel, so a session inlines its
 * function body: an unnamed Cast of input 0, added after every other node. */
static gboolean
is_inlined_cast_like (const Onnx__NodeProto *np)
{
  return g_strcmp0 (np->op_type, "CastLike") == 0 && normalise_domain (np->domain)[0] == '\0' && np->n_input == 2;
}

/* Node ids in ORT's NodeIndex order: kept nodes in model order, then the
 * nodes of inlined function bodies in the order they were inlined. ORT
 * numbers the call nodes before it inlines them: their NodeIndex values
 * stay unused, and the bodies' nodes come after all of them. */
static void
plan_node_order (GraphBuild *gb, const Onnx__GraphProto *gp)
{
  int next = 0;

  g_autoptr (GArray) inlined = g_array_new (FALSE, FALSE, sizeof (int));

  gb->node_protos = g_array_sized_new (FALSE, FALSE, sizeof (int), (guint) gp->n_node);
  gb->node_indices = g_array_sized_new (FALSE, FALSE, sizeof (int), (guint) gp->n_node);
  /* One pass over the protos (a second cost a tenth of the load in cache
   * misses on a 100k-node graph): the inlined ones are appended after. */
  for (size_t i = 0; i < gp->n_node; i++)
    {
      int index = (int) i;
      if (is_dropped_node (gp->node[i]))
        continue;
      if (is_inlined_cast_like (gp->node[i]))
        {
          g_array_append_val (inlined, index);
          next++;
          continue;
        }
      g_array_append_val (gb->node_protos, index);
      g_array_append_val (gb->node_indices, next);
      next++;
    }
  gb->n_plain = gb->node_protos->len;
  for (guint k = 0; k < inlined->len; k++, next++)
    {
      g_array_append_val (gb->node_protos, g_array_index (inlined, int, k));
      g_array_append_val (gb->node_indices, next);
    }
}

/* The graph inputs, as values in their order; FALSE when one is listed
 * twice. */
static gboolean
add_input_values (GraphBuild *gb, const Onnx__GraphProto *gp, GError **error)
{
  PvGraph *graph = gb->graph;

  graph->n_inputs = (int) gp->n_input;
  graph->inputs = g_new0 (int, MAX (gp->n_input, 1));
  for (size_t i = 0; i < gp->n_input; i++)
    {
      const char *name = gp->input[i]->name ? gp->input[i]->name : "";
      if (pv_graph_find_value (graph, name) >= 0)
        {
          set_error (gb, error, PV_MODEL_ERROR_DUPLICATE_PRODUCER, "graph input “%s” is listed twice", name);
          return FALSE;
        }
      graph->inputs[i] = add_value (gb, name, PV_VALUE_GRAPH_INPUT);
    }
  return TRUE;
}

/* The initializers, dense then sparse, their value ids appended to
 * @initializers; FALSE when one is defined twice or loading is cancelled. */
static gboolean
add_initializers (GraphBuild *gb, const Onnx__GraphProto *gp, GArray *initializers, GError **error)
{
  for (size_t i = 0; i < gp->n_initializer + gp->n_sparse_initializer; i++)
    {
      gboolean sparse = i >= gp->n_initializer;
      const Onnx__TensorProto *tp = sparse ? NULL : gp->initializer[i];
      const Onnx__SparseTensorProto *sp = sparse ? gp->sparse_initializer[i - gp->n_initializer] : NULL;
      const char *name = tp ? tp->name : (sp->values ? sp->values->name : NULL);
      int id;

      if (load_cancelled (gb->ld, i, error))
        return FALSE;
      if (name == NULL)
        name = "";
      id = pv_graph_find_value (gb->graph, name);
      if (id >= 0 && (value_at (gb, id)->flags & PV_VALUE_INITIALIZER))
        {
          set_error (gb, error, PV_MODEL_ERROR_DUPLICATE_PRODUCER, "initializer “%s” is defined twice", name);
          return FALSE;
        }
      if (id < 0)
        id = add_value (gb, name, 0);
      value_at (gb, id)->flags |= PV_VALUE_INITIALIZER;
      value_at (gb, id)->initializer = tp ? _pv_loader_tensor_from_proto (tp) : _pv_loader_tensor_from_sparse (sp);
      g_array_append_val (initializers, id);
    }
  return TRUE;
}

/* The initializers ORT makes of Constant nodes, their value ids appended
 * to @initializers; FALSE for a Constant without one named output or a
 * value, or whose output is already a graph input or initializer. */
static gboolean
add_constant_initializers (GraphBuild *gb, const Onnx__GraphProto *gp, GArray *initializers, GError **error)
{
  for (size_t i = 0; i < gp->n_node; i++)
    {
      const Onnx__NodeProto *np = gp->node[i];
      g_autofree char *what = NULL;
      PvTensor *tensor;
      int id;

      if (!is_constant_node (np))
        continue;
      /* Named for errors only: formatting it for every Constant cost 3% of a load. */
      if (np->n_output != 1 || np->output[0] == NULL || np->output[0][0] == '\0')
        {
          what = describe_node (np, (int) i);
          set_error (gb, error, PV_MODEL_ERROR_INVALID, "%s must have exactly one named output", what);
          return FALSE;
        }
      tensor = _pv_loader_constant_tensor (np);
      if (tensor == NULL)
        {
          what = describe_node (np, (int) i);
          set_error (gb, error, PV_MODEL_ERROR_INVALID, "%s has no value attribute", what);
          return FALSE;
        }
      if (pv_graph_find_value (gb->graph, np->output[0]) >= 0)
        {
          what = describe_node (np, (int) i);
          set_error (gb, error, PV_MODEL_ERROR_DUPLICATE_PRODUCER,
                     "value “%s” is produced by %s and is also a graph input or initializer", np->output[0], what);
          pv_tensor_free (tensor);
          return FALSE;
        }
      id = add_value (gb, np->output[0], PV_VALUE_INITIALIZER | PV_VALUE_FROM_CONSTANT);
      value_at (gb, id)->initializer = tensor;
      g_array_append_val (initializers, id);
      gb->ld->model->n_constant_nodes++;
    }
  return TRUE;
}

/* Graph inputs, initializers and the initializers ORT makes of Constant nodes. */
static gboolean
add_graph_inputs (GraphBuild *gb, const Onnx__GraphProto *gp, GError **error)
{
  g_autoptr (GArray) initializers = g_array_new (FALSE, FALSE, sizeof (int));
  PvGraph *graph = gb->graph;

  if (!add_input_values (gb, gp, error) || !add_initializers (gb, gp, initializers, error)
      || !add_constant_initializers (gb, gp, initializers, error))
    return FALSE;

  /* Before IR version 4 ORT also lists Constant-made initializers as graph
   * inputs, which moves them up in the OrtValue order. */
  graph->constants_listed_as_inputs = gb->ld->model->ir_version < 4;
  graph->n_initializers = (int) initializers->len;
  graph->initializers = (int *) g_array_free (g_steal_pointer (&initializers), FALSE);
  for (int i = 0; i < graph->n_initializers; i++)
    {
      PvValue *v = value_at (gb, graph->initializers[i]);
      if (v->type.kind == PV_TYPE_UNKNOWN)
        {
          _pv_loader_type_from_tensor (gb->graph->arena, &v->type, v->initializer);
        }
    }
  return TRUE;
}

/* First pass over nodes: ids in model order (Constant nodes excluded) and the
 * values they produce, so that later lookups, also from subgraphs, see them. */
static gboolean
add_nodes (GraphBuild *gb, const Onnx__GraphProto *gp, GError **error)
{
  const char *last_domain = NULL;
  int last_opset = 0;

  for (guint n = 0; n < gb->node_protos->len; n++)
    {
      size_t i = (size_t) g_array_index (gb->node_protos, int, n);
      const Onnx__NodeProto *np = gp->node[i];
      PvNode node = { 0 };
      int node_id = gb->n_nodes;

      if (load_cancelled (gb->ld, n, error))
        return FALSE;
      node.type_source = -1;
      node.ort_index = g_array_index (gb->node_indices, int, node_id);
      if (n >= gb->n_plain)
        {
          node.inlined_from = intern (gb->ld, "CastLike");
          node.name = intern (gb->ld, "");
          node.op_type = intern (gb->ld, "Cast");
        }
      else
        {
          /* Copied, not interned: node names are unique (a duplicate is
           * an error), and interning 100k of them cost a tenth of a load. */
          node.name = g_string_chunk_insert (gb->ld->strings, proto_name (np->name));
          node.op_type = intern (gb->ld, np->op_type);
        }
      node.domain = intern (gb->ld, normalise_domain (np->domain));
      /* Interned: the same domain as the last node's has the same opset. */
      if (node.domain != last_domain)
        last_opset = (int) pv_model_opset_version (gb->ld->model, last_domain = node.domain);
      node.opset = last_opset;
      node.n_outputs = (int) np->n_output;
      node.outputs = graph_ints (gb, (int) np->n_output);
      for (size_t o = 0; o < np->n_output; o++)
        {
          const char *name = np->output[o] ? np->output[o] : "";
          int id;

          node.outputs[o] = -1;
          if (name[0] == '\0')
            continue;
          id = pv_graph_find_value (gb->graph, name);
          if (id >= 0)
            {
              const PvValue *prev = value_at (gb, id);
              g_autofree char *what = describe_node (np, (int) i);
              if (prev->producer == node_id)
                set_error (gb, error, PV_MODEL_ERROR_DUPLICATE_PRODUCER, "%s lists output “%s” twice", what, name);
              else if (prev->producer >= 0)
                {
                  const PvNode *other = &gb->nodes[prev->producer];
                  set_error (gb, error, PV_MODEL_ERROR_DUPLICATE_PRODUCER,
                             "value “%s” is produced twice: by node “%s” (%s) and by %s", name,
                             other->name[0] ? other->name : "(unnamed)", other->op_type, what);
                }
              else
                set_error (gb, error, PV_MODEL_ERROR_DUPLICATE_PRODUCER,
                           "value “%s” is produced by %s but is also a graph input or initializer", name, what);
              return FALSE;
            }
          id = add_value (gb, name, 0);
          value_at (gb, id)->producer = node_id;
          value_at (gb, id)->producer_output = (int) o;
          node.outputs[o] = id;
        }
      gb->nodes[gb->n_nodes++] = node;
    }
  return TRUE;
}

static void
add_implicit_inputs (GraphBuild *gb, PvNode *node)
{
  GArray *implicit = g_array_new (FALSE, FALSE, sizeof (int));

  for (int s = 0; s < node->n_subgraphs; s++)
    {
      const PvGraph *sub = node->subgraphs[s];
      for (int v = 0; v < sub->n_values; v++)
        {
          int outer = sub->values[v].outer_value;
          gboolean seen = FALSE;
          if (!(sub->values[v].flags & PV_VALUE_OUTER_SCOPE))
            continue;
          for (guint k = 0; k < implicit->len && !seen; k++)
            seen = g_array_index (implicit, int, k) == outer;
          if (!seen)
            g_array_append_val (implicit, outer);
        }
    }
  node->n_implicit_inputs = (int) implicit->len;
  node->implicit_inputs = graph_ints (gb, (int) implicit->len);
  if (implicit->len > 0)
    memcpy (node->implicit_inputs, implicit->data, sizeof (int) * implicit->len);
  g_array_unref (implicit);
}

/* Second pass: inputs, attributes, subgraphs, implicit inputs. */
static gboolean
connect_nodes (GraphBuild *gb, const Onnx__GraphProto *gp, GError **error)
{
  for (int node_id = 0; node_id < (int) gb->node_protos->len; node_id++)
    {
      size_t i = (size_t) g_array_index (gb->node_protos, int, node_id);
      const Onnx__NodeProto *np = gp->node[i];
      PvNode *node;
      GPtrArray *subgraphs;

      if (load_cancelled (gb->ld, (gsize) node_id, error))
        return FALSE;
      node = &gb->nodes[node_id];
      if (node->inlined_from)
        {
          /* The Cast reads only input 0; target_type lends its type, not an edge. */
          int source = resolve_name (gb, np->input[1] ? np->input[1] : "");
          node = &gb->nodes[node_id];
          node->type_source = source;
        }
      node->n_inputs = node->inlined_from ? 1 : (int) np->n_input;
      node->inputs = graph_ints (gb, (int) np->n_input);
      for (size_t k = 0; k < (size_t) node->n_inputs; k++)
        {
          const char *name = np->input[k] ? np->input[k] : "";
          node->inputs[k] = name[0] ? resolve_name (gb, name) : -1;
          if (name[0] && node->inputs[k] < 0)
            {
              g_autofree char *what = describe_node (np, (int) i);
              set_error (gb, error, PV_MODEL_ERROR_UNDEFINED_INPUT,
                         "%s input %zu “%s” is not produced by any node and is no graph input, initializer "
                         "or outer-scope value", what, k, name);
              return FALSE;
            }
          /* resolve_name() may grow gb->values but never gb->nodes. */
        }

      node->n_attrs = (int) np->n_attribute;
      node->attrs = pv_bump_alloc (gb->graph->arena, sizeof (PvAttribute) * MAX (np->n_attribute, 1));
      memset (node->attrs, 0, sizeof (PvAttribute) * MAX (np->n_attribute, 1));
      for (size_t a = 0; a < np->n_attribute; a++)
        {
          /* Subgraph conversion re-enters gb: re-fetch the node afterwards. */
          PvAttribute attr = { 0 };
          gboolean ok = convert_attribute (gb, node_id, &attr, np->attribute[a], error);
          node = &gb->nodes[node_id];
          node->attrs[a] = attr;
          if (!ok)
            return FALSE;
        }

      subgraphs = g_ptr_array_new ();
      for (int a = 0; a < node->n_attrs; a++)
        {
          if (node->attrs[a].type == PV_ATTR_GRAPH && node->attrs[a].g)
            g_ptr_array_add (subgraphs, node->attrs[a].g);
          for (guint k = 0; node->attrs[a].type == PV_ATTR_GRAPHS && k < node->attrs[a].n; k++)
            g_ptr_array_add (subgraphs, node->attrs[a].graphs[k]);
        }
      node->n_subgraphs = (int) subgraphs->len;
      node->subgraphs = pv_bump_alloc (gb->graph->arena, sizeof (PvGraph *) * MAX (subgraphs->len, 1));
      if (subgraphs->len > 0)
        memcpy (node->subgraphs, subgraphs->pdata, sizeof (PvGraph *) * subgraphs->len);
      g_ptr_array_unref (subgraphs);
      add_implicit_inputs (gb, node);
    }
  return TRUE;
}

static gboolean
add_graph_outputs (GraphBuild *gb, const Onnx__GraphProto *gp, GError **error)
{
  PvGraph *graph = gb->graph;

  graph->n_outputs = (int) gp->n_output;
  graph->outputs = g_new0 (int, MAX (gp->n_output, 1));
  for (size_t i = 0; i < gp->n_output; i++)
    {
      const char *name = gp->output[i]->name ? gp->output[i]->name : "";
      int id = resolve_name (gb, name);
      if (id < 0)
        {
          set_error (gb, error, PV_MODEL_ERROR_UNDEFINED_INPUT,
                     "graph output “%s” is not produced by any node and is no graph input, initializer "
                     "or outer-scope value", name);
          return FALSE;
        }
      value_at (gb, id)->flags |= PV_VALUE_GRAPH_OUTPUT;
      graph->outputs[i] = id;
    }
  return TRUE;
}

PvGraph *
_pv_loader_convert_graph (Loader *ld, const Onnx__GraphProto *gp, GraphBuild *parent, int parent_node,
                          const char *attr_name, GError **error)
{
  GraphBuild gb = { .ld = ld, .parent = parent };
  g_autoptr (PvGraph) graph = g_new0 (PvGraph, 1);
  gboolean ok;

  graph->name = intern (ld, gp->name);
  graph->parent_node = parent_node;
  graph->parent_attr = attr_name;
  graph->depth = parent ? parent->graph->depth + 1 : 0;
  graph->strings = ld->strings;
  graph->owns_strings = parent == NULL;
  graph->arena = pv_bump_alloc_new ();
  gb.graph = graph;
  if (parent && graph->depth > PV_MAX_GRAPH_DEPTH)
    {
      set_error (parent, error, PV_MODEL_ERROR_TOO_DEEP, "subgraphs are nested more than %d deep",
                 PV_MAX_GRAPH_DEPTH);
      return NULL;
    }

  {
    /* Exact-size arrays: a 100k-node graph should not pay for doubling.
     * Subgraphs may add outer-scope values; the array grows for those. */
    gsize n_values = gp->n_input + gp->n_initializer + gp->n_sparse_initializer;
    for (size_t i = 0; i < gp->n_node; i++)
      n_values += gp->node[i]->n_output;
    gb.values_capacity = (int) MIN (n_values + 16, (gsize) G_MAXINT / 2);
    gb.values = g_new (PvValue, gb.values_capacity);
    graph->value_by_name = pv_name_index_new ((gsize) gb.values_capacity);
    plan_node_order (&gb, gp);
    gb.nodes = g_new0 (PvNode, MAX (gb.node_protos->len, 1));
  }
  /* Keyed by the protos' strings, which live as long as the build. */
  gb.value_types = g_hash_table_new (g_str_hash, g_str_equal);
  /* value_info first so that input/output declarations win. */
  for (size_t i = 0; i < gp->n_value_info; i++)
    g_hash_table_insert (gb.value_types, (gpointer) proto_name (gp->value_info[i]->name), gp->value_info[i]->type);
  for (size_t i = 0; i < gp->n_output; i++)
    g_hash_table_insert (gb.value_types, (gpointer) proto_name (gp->output[i]->name), gp->output[i]->type);
  for (size_t i = 0; i < gp->n_input; i++)
    g_hash_table_insert (gb.value_types, (gpointer) proto_name (gp->input[i]->name), gp->input[i]->type);

  ok = add_graph_inputs (&gb, gp, error) && add_nodes (&gb, gp, error) && connect_nodes (&gb, gp, error) &&
       add_graph_outputs (&gb, gp, error);

  /* Hand the arrays to the graph even on failure, so that it frees them. */
  graph->n_values = gb.n_values;
  graph->values = g_renew (PvValue, gb.values, MAX (gb.n_values, 1));
  graph->n_nodes = gb.n_nodes;
  graph->nodes = gb.nodes;
  g_hash_table_unref (gb.value_types);
  g_array_unref (gb.node_protos);
  g_array_unref (gb.node_indices);
  if (!ok)
    return NULL;

  for (int s = 0; s < graph->n_nodes; s++)
    for (int k = 0; k < graph->nodes[s].n_subgraphs; k++)
      graph->nodes[s].subgraphs[k]->parent = graph;

  pv_graph_build_consumers (graph);
  if (!pv_graph_finish_order (graph, error))
    {
      g_autofree char *context = graph_context (&gb);
      g_prefix_error (error, "%s: ", ld->source);
      if (context[0] && error && *error)
        {
          char *m = g_strconcat ((*error)->message, context, NULL);
          g_free ((*error)->message);
          (*error)->message = m;
        }
      return NULL;
    }
  return g_steal_pointer (&graph);
}
