/* pv-graph.h: planviz's graph IR.
 *
 * A PvGraph is what ONNX Runtime's Graph holds after construction: nodes with
 * dense ids equal to ORT's NodeIndex (model order, with Constant nodes turned
 * into initializers as ORT does), values with dense ids and interned names,
 * edges in both directions, and each node's subgraphs as PvGraphs of their own
 * with a parent link. pv-graph-order.h adds ORT's execution order, node names
 * and OrtValue indices. A graph is immutable once the loader returns it. */
#pragma once

#include <glib.h>

#include "pv-name-index.h"
#include "pv-tensor.h"

G_BEGIN_DECLS

typedef struct _PvGraph PvGraph;
typedef struct _PvBumpAlloc PvBumpAlloc;

typedef enum {
  PV_DIM_ANONYMOUS,  /* neither dim_value nor dim_param */
  PV_DIM_VALUE,
  PV_DIM_SYMBOL,
} PvDimKind;

typedef struct {
  PvDimKind kind;
  gint64 value;        /* PV_DIM_VALUE */
  const char *symbol;  /* PV_DIM_SYMBOL: interned dim_param */
} PvDim;

typedef enum {
  PV_TYPE_UNKNOWN,     /* no type information in the model */
  PV_TYPE_TENSOR,
  PV_TYPE_SPARSE_TENSOR,
  PV_TYPE_SEQUENCE,
  PV_TYPE_MAP,
  PV_TYPE_OPTIONAL,
} PvTypeKind;

/* A value's type. For sequences and optionals, elem_type/rank/dims describe
 * the innermost tensor when the model states it. */
typedef struct {
  PvTypeKind kind;
  int elem_type;       /* PvElementType, 0 when not stated */
  int rank;            /* -1: rank unknown */
  PvDim *dims;         /* rank entries */
} PvType;

typedef enum {
  PV_VALUE_INITIALIZER = 1 << 0,
  PV_VALUE_GRAPH_INPUT = 1 << 1,
  PV_VALUE_GRAPH_OUTPUT = 1 << 2,
  PV_VALUE_OUTER_SCOPE = 1 << 3,   /* defined in an enclosing graph */
  PV_VALUE_FROM_CONSTANT = 1 << 4, /* initializer made from a Constant node */
} PvValueFlags;

typedef struct {
  const char *name;    /* interned */
  PvType type;         /* as stated by the model (input/output/value_info/initializer) */
  guint flags;         /* PvValueFlags */
  int producer;        /* node id, or -1 */
  int producer_output; /* output position in the producer */
  guint consumers_start; /* into PvGraph.consumer_ids */
  guint n_consumers;   /* distinct consuming nodes (explicit or implicit use) */
  PvTensor *initializer; /* PV_VALUE_INITIALIZER: dims, type, small data */
  int outer_value;     /* PV_VALUE_OUTER_SCOPE: the value's id in the parent graph */
  int ort_index;       /* ORT's OrtValue index in this graph, -1 if ORT has none */
} PvValue;

typedef enum {
  PV_ATTR_UNDEFINED = 0,
  PV_ATTR_FLOAT = 1,
  PV_ATTR_INT = 2,
  PV_ATTR_STRING = 3,
  PV_ATTR_TENSOR = 4,
  PV_ATTR_GRAPH = 5,
  PV_ATTR_FLOATS = 6,
  PV_ATTR_INTS = 7,
  PV_ATTR_STRINGS = 8,
  PV_ATTR_TENSORS = 9,
  PV_ATTR_GRAPHS = 10,
  PV_ATTR_SPARSE_TENSOR = 11,
  PV_ATTR_SPARSE_TENSORS = 12,
  PV_ATTR_TYPE_PROTO = 13,
  PV_ATTR_TYPE_PROTOS = 14,
} PvAttrType;

typedef struct {
  const char *name;    /* interned */
  PvAttrType type;
  float f;
  gint64 i;
  GBytes *s;           /* STRING */
  PvTensor *t;         /* TENSOR, SPARSE_TENSOR (values' type, dense dims) */
  PvGraph *g;          /* GRAPH */
  guint n;             /* element count of the list kinds */
  float *floats;
  gint64 *ints;
  GBytes **strings;
  PvTensor **tensors;
  PvGraph **graphs;
} PvAttribute;

typedef struct {
  const char *name;     /* ORT's name: the model's, or <OpType><n> when unnamed */
  gboolean name_generated; /* the model gave no name */
  const char *op_type;  /* interned */
  const char *domain;   /* interned; "" for the default ONNX domain ("ai.onnx" is normalised to "") */
  int opset;            /* opset version imported for the domain; 0 if not imported */
  int *inputs;          /* value ids; -1 for a missing optional input */
  int n_inputs;
  int *outputs;         /* value ids; -1 for an omitted optional output */
  int n_outputs;
  int *implicit_inputs; /* outer-scope values its subgraphs use, as value ids of this graph */
  int n_implicit_inputs;
  PvAttribute *attrs;
  int n_attrs;
  PvGraph **subgraphs;  /* every graph attribute, in attribute order (owned by attrs) */
  int n_subgraphs;
  int order_position;   /* position in PvGraph.order */
  /* ORT's NodeIndex: the id, unless session-time rewrites removed nodes
   * before this one (ORT leaves the holes; pv-ort-graph-rewrite.h). */
  int ort_index;
  /* Set on nodes that stand for an inlined function call, as ORT inlines
   * ops its CPU provider has no kernel for: the original op ("CastLike"),
   * and the value whose element type the node takes (CastLike's
   * target_type, no longer an input), or -1. */
  const char *inlined_from;
  int type_source;
} PvNode;

struct _PvGraph {
  const char *name;
  PvGraph *parent;      /* NULL for the main graph */
  int parent_node;      /* node id in parent, -1 for the main graph */
  const char *parent_attr; /* attribute name holding this graph ("then_branch", "body") */
  int depth;            /* 0 for the main graph */

  PvNode *nodes;
  int n_nodes;
  PvValue *values;
  int n_values;

  int *inputs;          /* graph.input order (may include initializers, as ORT keeps them) */
  int n_inputs;
  int *outputs;
  int n_outputs;
  int *initializers;    /* initializer order, then Constant-node initializers */
  int n_initializers;
  gboolean constants_listed_as_inputs; /* IR < 4: ORT indexes Constant initializers with the inputs */

  guint *consumer_ids;  /* CSR storage of PvValue consumers */
  int *order;           /* ORT's DEFAULT execution order: node ids */
  int *ort_values;      /* value ids in OrtValue index order */
  int n_ort_values;
  /* Compact copies of the node lists for planners that walk them many
   * times (pv_graph_finish_order() fills them, in the arena). Per node n:
   * its inputs, implicit inputs and outputs as OrtValue indices (-1 when
   * missing) in node_io, starting at node_io_at[3 n], [3 n + 1] and
   * [3 n + 2] (each list ends where the next starts; node_io_at has
   * 3 n_nodes + 1 entries); the distinct producers of its inputs and
   * implicit inputs, ascending, in node_producers[node_producers_start[n]
   * .. node_producers_start[n + 1]). */
  int *node_io_at, *node_io;
  int *node_producers_start, *node_producers;

  PvNameIndex *value_by_name; /* name -> value id */
  PvNameIndex *node_by_name;  /* ORT node name -> node id (the first in order) */
  /* By node id: the node pv_graph_find_node() gives for that node's name,
   * itself unless a node earlier in order has the same name (a generated
   * <OpType><n> name can clash, as in ORT). Nodes with equal names share
   * it, so the partition checker compares names as ids; an int array
   * rather than a PvNode field so its passes over all nodes stay in cache. */
  int *name_owners;
  /* The node names in PvGraph.order (order_names[i] is nodes[order[i]].name):
   * the names a config lists, usually in this order, without touching the
   * nodes. */
  const char **order_names;
  GStringChunk *strings;     /* shared with the whole model */
  PvBumpAlloc *arena;            /* node arrays and dims, freed with the graph */
  gboolean owns_strings;     /* TRUE for the main graph only */
};

void pv_graph_free (PvGraph *graph);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvGraph, pv_graph_free)

/* Value id for a name visible in this graph (not its ancestors), or -1. */
int pv_graph_find_value (const PvGraph *graph, const char *name);
/* Node id for an ORT node name, or -1. */
int pv_graph_find_node (const PvGraph *graph, const char *name);

/* Fills every value's consumers (distinct node ids, ascending, as CSR in
 * graph->consumer_ids) from the nodes' inputs and implicit inputs. */
void pv_graph_build_consumers (PvGraph *graph);

/* The consumers of @value_id (distinct node ids, ascending). */
const guint *pv_graph_value_consumers (const PvGraph *graph, int value_id, guint *n_out);

const PvAttribute *pv_node_find_attr (const PvNode *node, const char *name);
/* Frees what @node's attributes hold (their arrays live in the graph's
 * arena), for a node taken out of its graph. */
void pv_node_clear_attrs (PvNode *node);

/* Nesting depth of the deepest subgraph below @graph (0: no subgraphs). */
int pv_graph_max_depth (const PvGraph *graph);
/* Number of subgraphs at any depth below @graph. */
int pv_graph_count_subgraphs (const PvGraph *graph);

/* Shape as text: "[batch,seq,768]", "[?,3]" for anonymous dims, "?" for an
 * unknown rank, "[]" for a scalar. Caller frees. */
char *pv_type_shape_to_string (const PvType *type);
/* "float32", "seq(float32)", "map(int64,float32)"-like short type text; caller frees. */
char *pv_type_to_string (const PvType *type);

G_END_DECLS
