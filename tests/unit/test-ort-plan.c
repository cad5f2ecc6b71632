/* ONNX Runtime's SequentialPlanner, rule by rule (ort-planner-rules.md §1,
 * §2, §4), each on a small graph built for it. Kernel behaviours come from
 * a test lookup, with test-only kernels (ExternalOutputs, VariadicAlias) as
 * ORT's own planner tests use. */
#include <string.h>

#include "pv-model-loader.h"
#include "pv-onnx-builder.h"
#include "pv-onnx-text.h"
#include "pv-test-model.h"
#include "pv-ort-plan.h"
#include "pv-shape-inference.h"

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define I32 ONNX__TENSOR_PROTO__DATA_TYPE__INT32
#define I64 ONNX__TENSOR_PROTO__DATA_TYPE__INT64
#define STR ONNX__TENSOR_PROTO__DATA_TYPE__STRING
#define BOOL ONNX__TENSOR_PROTO__DATA_TYPE__BOOL
#define N PV_ONNX_NAMES
/* Cast's "to" in add_nodes() texts: 1 float, 6 int32, 7 int64, 8 string. */
G_STATIC_ASSERT (F == 1 && I32 == 6 && I64 == 7 && STR == 8);

#define CPU_LOC "Device:[DeviceType:0 MemoryType:0 VendorId:0 DeviceId:0 Alignment:0]"
#define GPU_LOC "Device:[DeviceType:1 MemoryType:0 VendorId:4318 DeviceId:0 Alignment:0]"
#define PINNED_LOC "Device:[DeviceType:1 MemoryType:5 VendorId:4318 DeviceId:0 Alignment:0]"

/* ---- kernels ---- */

static const int pair00[][2] = { { 0, 0 } };
static const int bn_alias[][2] = { { 3, 1 }, { 4, 2 } };
static const int first[] = { 0 };

static const PvKernelBehaviour k_empty = { 0 };
static const PvKernelBehaviour k_alias = { .alias = pair00, .n_alias = 1 };
static const PvKernelBehaviour k_inplace = { .may_inplace = pair00, .n_may_inplace = 1 };
static const PvKernelBehaviour k_batch_norm = { .alias = bn_alias, .n_alias = 2 };
static const PvKernelBehaviour k_external = { .external_outputs = TRUE };
static const PvKernelBehaviour k_variadic = { .has_variadic_alias = TRUE };
static const PvKernelBehaviour k_cpu_input = { .cpu_inputs = first, .n_cpu_inputs = 1 };
static const PvKernelBehaviour k_cpu_output = { .cpu_outputs = first, .n_cpu_outputs = 1 };

static gboolean
op_in (const char *op, const char *const *list)
{
  for (; *list; list++)
    if (strcmp (op, *list) == 0)
      return TRUE;
  return FALSE;
}

static const PvKernelBehaviour *
test_lookup (gpointer user_data, const PvGraph *graph, const PvNode *node, int input_elem_type)
{
  const char *op = node->op_type;

  if (op_in (op, N ("Reshape", "Identity", "Squeeze", "Unsqueeze", "Flatten")))
    return &k_alias;
  if (op_in (op, N ("Relu", "Sigmoid", "Tanh", "Softmax")))
    return &k_inplace;
  if (strcmp (op, "BatchNormalization") == 0)
    return &k_batch_norm;
  if (strcmp (op, "ExtOut") == 0)
    return &k_external;
  if (strcmp (op, "VarAlias") == 0)
    return &k_variadic;
  if (strcmp (op, "FromHost") == 0)
    return &k_cpu_input;
  if (strcmp (op, "ToHost") == 0)
    return &k_cpu_output;
  if (strcmp (op, "NoKernel") == 0)
    return NULL;
  return &k_empty;
}

/* ---- models ---- */

/* A float [4] initializer, { 1, 2, 3, 4 }. */
static void
add_w4 (PvOnnxGraph *g, const char *name)
{
  const gint64 d4[] = { 4 };
  const float w[] = { 1, 2, 3, 4 };

  pv_onnx_graph_add_initializer_floats (g, name, d4, 1, w);
}

static PvOnnxBuilder *
new_builder (void)
{
  PvOnnxBuilder *b = pv_onnx_builder_new (8, "planviz-test");
  pv_onnx_builder_add_opset (b, "", 17);
  pv_onnx_builder_add_opset (b, "test", 1);
  return b;
}

typedef struct {
  PvModel *model;
  PvOrtShapes *shapes;
  PvOrtPlan *plan;
} Planned;

static void
planned_free (Planned *t)
{
  pv_ort_plan_free (t->plan);
  pv_ort_shapes_unref (t->shapes);
  pv_model_free (t->model);
  g_free (t);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Planned, planned_free)

/* A partition from text: streams separated by ';', each "D:name,name,..."
 * with D the device (0 CPU, 1 GPU). */
typedef struct {
  PvStreamPartition partition;
  int stream_device[16];
  int *node_stream, *node_device;
} TestPartition;

static void
test_partition_free (TestPartition *t)
{
  g_free (t->node_stream);
  g_free (t->node_device);
  g_free (t);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TestPartition, test_partition_free)

static TestPartition *
test_partition (const PvGraph *graph, const char *spec)
{
  TestPartition *t = g_new0 (TestPartition, 1);
  g_auto (GStrv) streams = g_strsplit (spec, ";", -1);

  t->node_stream = g_new0 (int, graph->n_nodes);
  t->node_device = g_new0 (int, graph->n_nodes);
  for (int s = 0; streams[s]; s++)
    {
      g_auto (GStrv) names = g_strsplit (streams[s] + 2, ",", -1);
      t->stream_device[s] = streams[s][0] - '0';
      t->partition.n_streams = s + 1;
      for (int k = 0; names[k]; k++)
        {
          int node = pv_graph_find_node (graph, names[k]);
          if (names[k][0] == '\0')
            continue;
          g_assert_cmpint (node, >=, 0);
          t->node_stream[node] = s;
          t->node_device[node] = t->stream_device[s];
        }
    }
  t->partition.stream_device = t->stream_device;
  t->partition.node_stream = t->node_stream;
  t->partition.node_device = t->node_device;
  return t;
}

static Planned *
plan_with (PvOnnxBuilder *b, const char *spec, PvStreamRegistry registry)
{
  Planned *t = g_new0 (Planned, 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (TestPartition) partition = NULL;

  t->model = pv_test_load_built (b, "test.onnx");
  t->shapes = pv_ort_shapes_new (t->model, NULL, &error);
  g_assert_no_error (error);
  if (spec)
    partition = test_partition (t->model->graph, spec);
  t->plan = pv_ort_plan_new (t->model->graph, t->shapes, partition ? &partition->partition : NULL, registry,
                             test_lookup, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (t->plan);
  return t;
}

static Planned *
plan_cpu (PvOnnxBuilder *b)
{
  return plan_with (b, NULL, PV_REGISTRY_CPU);
}

static int
vi (const PvOrtPlan *plan, const char *name)
{
  int v = pv_graph_find_value (plan->graph, name);
  g_assert_cmpint (v, >=, 0);
  return plan->graph->values[v].ort_index;
}

static const PvOrtValuePlan *
vp (const PvOrtPlan *plan, const char *name)
{
  return &plan->values[vi (plan, name)];
}

#define assert_kind(plan, name, k) g_assert_cmpstr (pv_ort_alloc_kind_name (vp (plan, name)->kind), ==, k)
#define assert_reuses(plan, name, root) \
  G_STMT_START { \
    assert_kind (plan, name, "Reuse"); \
    g_assert_cmpint (vp (plan, name)->reused_buffer, ==, vi (plan, root)); \
  } G_STMT_END

static void
assert_location (const PvOrtPlan *plan, const char *name, const char *expected)
{
  g_autofree char *text = pv_ort_device_to_string (&vp (plan, name)->location);
  g_assert_cmpstr (text, ==, expected);
}

/* The "Execution Plan:" part of ORT's text, without its header. */
static char *
exec_text (const PvOrtPlan *plan)
{
  g_autofree char *text = pv_ort_plan_to_ort_text (plan);
  const char *at = strstr (text, "Execution Plan:\n");
  g_assert_nonnull (at);
  return g_strdup (at + strlen ("Execution Plan:\n"));
}

/* Test-only kernels are in the "test" domain. */
static void
set_test_domain (PvOnnxNode *n)
{
  if (op_in (n->op_type, N ("ExtOut", "VarAlias", "T", "FromHost", "ToHost", "NoKernel")))
    pv_onnx_node_set_domain (n, "test");
}

static PvOnnxNode *
node3 (PvOnnxGraph *g, const char *op, const char *name, const char *const *in, const char *const *out)
{
  PvOnnxNode *n = pv_onnx_graph_add_node (g, op, name, in, out);
  set_test_domain (n);
  return n;
}

/* pv_onnx_graph_add_nodes() ("Exp n0 x>a; Add n1 a,x>y"), with node3's domains. */
static void
add_nodes (PvOnnxGraph *g, const char *text)
{
  gsize from = g->n_node;

  pv_onnx_graph_add_nodes (g, text);
  for (gsize i = from; i < g->n_node; i++)
    set_test_domain (g->node[i]);
}

/* A model with the float graph inputs @inputs and outputs @outputs
 * ("x:4 y:2,4"), through the nodes of @nodes (add_nodes()). */
static PvOnnxBuilder *
model_io (const char *inputs, const char *nodes, const char *outputs)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);

  pv_onnx_graph_add_inputs (g, F, inputs);
  add_nodes (g, nodes);
  pv_onnx_graph_add_outputs (g, F, outputs);
  return b;
}

/* A model from graph input x to graph output y, both float [@shape]. */
static PvOnnxBuilder *
model_of (const char *shape, const char *nodes)
{
  g_autofree char *x = g_strconcat ("x:", shape, NULL), *y = g_strconcat ("y:", shape, NULL);

  return model_io (x, nodes, y);
}

/* The release actions of @node as "value:ref_count" items. */
static char *
releases_of (const PvOrtPlan *plan, const char *node_name)
{
  int node = pv_graph_find_node (plan->graph, node_name);
  GString *s = g_string_new (NULL);
  for (int k = plan->node_release_start[node]; k < plan->node_release_start[node + 1]; k++)
    {
      const PvOrtReleaseAction *a = &plan->release_actions[plan->node_release[k]];
      g_string_append_printf (s, "%s%s:%d", s->len ? " " : "",
                              plan->graph->values[plan->graph->ort_values[a->value_index]].name, a->ref_count);
    }
  return g_string_free (s, FALSE);
}

/* Asserts that a stream's steps read @expected, as letters: B(arrier)
 * W(aitOnEP) L(aunchKernel) A(ctivateNotification) T(riggerDownstream). */
static void
assert_steps (const PvOrtPlan *plan, int stream, const char *expected)
{
  g_autoptr (GString) s = g_string_new (NULL);
  for (int k = 0; k < plan->streams[stream].n_steps; k++)
    g_string_append_c (s, "BWLAT"[plan->streams[stream].steps[k].kind]);
  g_assert_cmpstr (s->str, ==, expected);
}

/* ---- §1.2 fixed kinds, §4 value indices ---- */

static void
test_fixed_kinds (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b), *then_g = pv_onnx_graph_new ("then"), *else_g = pv_onnx_graph_new ("else");
  g_autoptr (Planned) t = NULL;

  pv_onnx_graph_add_input (g, "x", F, "4");
  pv_onnx_graph_add_input (g, "c", BOOL, "");
  pv_onnx_graph_add_input (g, "U", F, "4");                  /* an initializer listed as input: overridable */
  add_w4 (g, "U");
  add_w4 (g, "W");
  add_w4 (g, "V");   /* used only inside the If */
  add_w4 (g, "Z");   /* only a graph output */
  add_nodes (g, "Add n0 x,W>a; Add n1 a,U>bb");
  pv_onnx_graph_add_output (then_g, "t", F, "4");
  node3 (then_g, "Add", "tn", N ("V", "bb"), N ("t"));
  pv_onnx_graph_add_output (else_g, "e", F, "4");
  node3 (else_g, "Identity", "en", N ("bb"), N ("e"));
  pv_onnx_graph_add_if (g, "if", "c", N ("y"), then_g, else_g);
  pv_onnx_graph_add_outputs (g, F, "y:4 Z:4");
  t = plan_cpu (b);

  /* §4: inputs (with U), then per node inputs / implicit inputs / outputs,
   * then graph outputs not seen yet. */
  for (int i = 0; i < t->plan->n_values; i++)
    g_assert_cmpint (t->plan->values[i].value, ==, t->model->graph->ort_values[i]);
  g_assert_cmpint (vi (t->plan, "x"), ==, 0);
  g_assert_cmpint (vi (t->plan, "c"), ==, 1);
  g_assert_cmpint (vi (t->plan, "U"), ==, 2);
  g_assert_cmpint (vi (t->plan, "W"), ==, 3);
  g_assert_cmpint (vi (t->plan, "Z"), ==, t->plan->n_values - 1);

  assert_kind (t->plan, "x", "PreExisting");
  assert_kind (t->plan, "c", "PreExisting");
  assert_kind (t->plan, "U", "AllocateStatically");  /* GetInputs() leaves initializers out */
  assert_kind (t->plan, "W", "AllocateStatically");
  assert_kind (t->plan, "V", "AllocateStatically");  /* its first use is in a subgraph */
  assert_kind (t->plan, "Z", "NotSet");              /* no node uses it */
  assert_kind (t->plan, "a", "Allocate");
  assert_kind (t->plan, "y", "AllocateOutput");
  assert_location (t->plan, "V", CPU_LOC);
}

/* ---- §1.3 decision order ---- */

static void
test_external_outputs (void)
{
  PvOnnxBuilder *b = model_of ("4", "Exp n0 x>a; ExtOut n1 a>e; Relu n2 e>r; Exp n3 r>z; Exp n4 z>y");
  g_autoptr (Planned) t = NULL;
  g_autofree char *rel = NULL;

  pv_onnx_graph_add_value_info (pv_onnx_builder_get_graph (b), "e", F, "4");
  t = plan_cpu (b);

  assert_kind (t->plan, "e", "AllocatedExternally");
  /* The producer's inputs are released as usual: a is free for r. Relu may
   * not work in place on e (its use count never drops to 1, and its
   * producer has external outputs). */
  assert_reuses (t->plan, "r", "a");
  g_assert_cmpint (vp (t->plan, "r")->reuse_rule, ==, PV_ORT_REUSE_FREE_LIST);
  /* e: its definition is never released and its consumers skip it. */
  g_assert_cmpint (vp (t->plan, "e")->freed_at, ==, -1);
  g_assert_cmpint (vp (t->plan, "a")->freed_stream, ==, 0);
  assert_kind (t->plan, "z", "Allocate");
  /* AllocatedExternally roots get release actions. */
  rel = releases_of (t->plan, "n2");
  g_assert_cmpstr (rel, ==, "e:1");
}

static void
test_alias_of_external (void)
{
  PvOnnxBuilder *b = model_of ("4", "ExtOut n0 x>e; Reshape n1 e,s>r; Exp n2 r>y");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const gint64 d1[] = { 1 }, shape[] = { 4 };
  g_autoptr (Planned) t = NULL;

  pv_onnx_graph_add_initializer_int64s (g, "s", d1, 1, shape);
  pv_onnx_graph_add_value_info (g, "e", F, "4");
  t = plan_cpu (b);
  /* Alias ignores the producer's external outputs (ORT only logs). */
  assert_reuses (t->plan, "r", "e");
}

static void
test_graph_output_first (void)
{
  /* The Relu could work in place, but y is a graph output. */
  g_autoptr (Planned) t = plan_cpu (model_of ("4", "Exp n0 x>a; Relu n1 a>y"));

  assert_kind (t->plan, "y", "AllocateOutput");
  g_assert_cmpint (vp (t->plan, "y")->reused_buffer, ==, vi (t->plan, "y"));
}

static void
test_alias_chain (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const gint64 d1[] = { 1 }, d2[] = { 2 }, s8[] = { 8 }, s24[] = { 2, 4 };
  g_autoptr (Planned) t = NULL;

  pv_onnx_graph_add_input (g, "x", F, "2,4");
  pv_onnx_graph_add_initializer_int64s (g, "s8", d1, 1, s8);
  pv_onnx_graph_add_initializer_int64s (g, "s24", d2, 1, s24);
  add_nodes (g, "Exp n0 x>a; Reshape n1 a,s8>r1; Reshape n2 r1,s24>r2; Exp n3 r2>y; Reshape n4 x,s8>rx; Exp n5 rx>y2");
  pv_onnx_graph_add_outputs (g, F, "y:2,4 y2:8");
  t = plan_cpu (b);
  /* Reshape of Reshape shares the root buffer; shapes do not matter. */
  assert_reuses (t->plan, "r1", "a");
  assert_reuses (t->plan, "r2", "a");
  g_assert_cmpint (vp (t->plan, "r2")->reuse_rule, ==, PV_ORT_REUSE_ALIAS);
  /* Aliasing a graph input is a Reuse of a pre-existing buffer. */
  assert_reuses (t->plan, "rx", "x");
}

static void
test_variadic_alias (void)
{
  PvOnnxBuilder *b = model_of ("4", "Exp n0 x>p; Exp n1 x>q; VarAlias n2 p,q>r,s; Add n3 r,s>y");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (Planned) t = NULL;

  pv_onnx_graph_add_value_infos (g, F, "r:4 s:2");
  t = plan_cpu (b);
  /* output k reuses input k - output_offset + input_offset, any size. */
  assert_reuses (t->plan, "r", "p");
  assert_reuses (t->plan, "s", "q");
  g_assert_cmpint (vp (t->plan, "s")->reuse_rule, ==, PV_ORT_REUSE_VARIADIC_ALIAS);
}

static void
test_may_inplace_use_count (void)
{
  g_autoptr (Planned) t = plan_cpu (model_of ("4", "Exp n0 x>a; Relu n1 a>b; Sigmoid n2 a>c; Add n3 b,c>y"));

  /* Order n0, n2, n1 (the higher-index consumer first). a has two uses:
   * at n2 its use count is 2, no in-place; at n1 it is 1. */
  g_assert_cmpint (t->model->graph->order[1], ==, 2);
  assert_kind (t->plan, "c", "Allocate");
  assert_reuses (t->plan, "b", "a");
  g_assert_cmpint (vp (t->plan, "b")->reuse_rule, ==, PV_ORT_REUSE_MAY_INPLACE);
}

static void
test_non_tensor (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (Planned) t = NULL;

  pv_onnx_graph_add_input (g, "x", F, "4");
  add_nodes (g, "Exp n0 x>a; Exp n1 a>b; SequenceConstruct n2 b,x>s; SequenceLength n3 s>y");
  pv_onnx_graph_add_output (g, "y", I64, "");
  t = plan_cpu (b);
  /* a is free when s is planned, but a sequence always allocates. */
  assert_kind (t->plan, "s", "Allocate");
  g_assert_cmpint (vp (t->plan, "a")->freed_at, ==, 1);
}

static void
test_free_list_order (void)
{
  g_autoptr (Planned) t = plan_cpu (model_of ("4", "Exp n0 x>a; Exp n1 x>b; Add n2 a,b>c; Exp n3 c>d; Exp n4 d>e; "
                                                   "Exp n5 e>y"));

  /* n2 frees a, then b: the list is [b, a]; d takes b, the most recently
   * freed. n3 then frees c: [c, a]; e takes c. */
  assert_kind (t->plan, "c", "Allocate");
  assert_reuses (t->plan, "d", "b");
  assert_reuses (t->plan, "e", "c");
}

static void
test_needs_consumer (void)
{
  PvOnnxBuilder *b = model_of ("4", "Exp n0 x>a; Exp n1 x>a2; Add n2 a,a2>b; T n3 b>used,unused; Exp n4 used>y");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (Planned) t = NULL;

  pv_onnx_graph_add_value_infos (g, F, "used:4 unused:4");
  t = plan_cpu (b);
  /* a2 and a are free at n3: the consumed output takes a2, the unconsumed
   * one allocates although a would fit (no output edge). */
  assert_reuses (t->plan, "used", "a2");
  g_assert_cmpint (vp (t->plan, "a")->freed_at, ==, 2);
  assert_kind (t->plan, "unused", "Allocate");
}

/* ---- §1.5–1.6 FindReusableTensor and SameSize ---- */

static void
test_same_size_empty_dims (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (Planned) t = NULL;

  pv_onnx_graph_add_input (g, "m", F, "6");
  add_nodes (g, "NonZero n0 m>nz; Abs n1 nz>p; Abs n2 p>q; Abs n3 q>r");
  pv_onnx_graph_add_output (g, "r", I64, "1,?");
  t = plan_cpu (b);
  /* NonZero's generated dim is empty for ORT: [1,?] is never the same
   * shape, not even as itself. */
  g_assert_cmpint (vp (t->plan, "nz")->freed_at, ==, 1);
  assert_kind (t->plan, "q", "Allocate");
}

static void
test_same_size_dim_params (void)
{
  g_autoptr (Planned) t = plan_cpu (model_of ("N,4", "Exp n0 x>a; Exp n1 a>b; Transpose n2 b>t; Exp n3 t>c; "
                                                     "Transpose n4 c>d; Exp n5 d>y"));

  /* t [4,N] and c [4,N] find only [N,4] buffers; d [N,4] takes b [N,4]
   * (N is a dim_param of a graph input; free list then is [t, b, a]). */
  assert_kind (t->plan, "t", "Allocate");
  assert_kind (t->plan, "c", "Allocate");
  assert_reuses (t->plan, "d", "b");
}

static void
test_element_size (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (Planned) t = NULL;

  pv_onnx_graph_add_input (g, "x", F, "4");
  add_nodes (g, "Exp n0 x>a; Exp n1 a>b; Cast n2 b>i32 to=6; Cast n3 i32>i64 to=7; Neg n4 i64>y");
  pv_onnx_graph_add_output (g, "y", I64, "4");
  t = plan_cpu (b);
  /* Bytes, not types: int32 takes a float buffer; int64 does not. */
  assert_reuses (t->plan, "i32", "a");
  assert_kind (t->plan, "i64", "Allocate");
}

static void
test_scalars (void)
{
  g_autoptr (Planned) t = plan_cpu (model_of ("", "Exp n0 x>a; Exp n1 a>b; Exp n2 b>c; Relu n3 c>d; Exp n4 d>y"));

  /* a is free at n2, but a scalar never reuses from the free list... */
  assert_kind (t->plan, "c", "Allocate");
  /* ...while in-place (SameSize of two scalars) is fine. */
  assert_reuses (t->plan, "d", "c");
}

static void
test_strings (void)
{
  g_autoptr (Planned) t = plan_cpu (model_of ("4", "Cast n0 x>s1 to=8; Cast n1 s1>f to=1; Cast n2 f>s2 to=8; "
                                                   "Cast n3 s2>g to=1; Exp n4 g>y"));

  /* s1 is free when s2 is planned: string tensors are never reused. */
  g_assert_cmpint (vp (t->plan, "s1")->freed_at, ==, 1);
  assert_kind (t->plan, "s2", "Allocate");
  assert_reuses (t->plan, "g", "f");
}

static void
test_batch_norm_alias (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const gint64 d3[] = { 3 };
  const float v3[] = { 1, 1, 1 };
  g_autoptr (Planned) t = NULL;
  PvOnnxNode *n;

  pv_onnx_graph_add_input (g, "x", F, "2,3,4,4");
  pv_onnx_graph_add_initializer_floats (g, "scale", d3, 1, v3);
  pv_onnx_graph_add_initializer_floats (g, "bias", d3, 1, v3);
  pv_onnx_graph_add_initializer_floats (g, "mean", d3, 1, v3);
  pv_onnx_graph_add_initializer_floats (g, "var", d3, 1, v3);
  n = node3 (g, "BatchNormalization", "bn", N ("x", "scale", "bias", "mean", "var"),
             N ("y", "running_mean", "running_var"));
  pv_onnx_node_add_attr_int (n, "training_mode", 1);
  pv_onnx_graph_add_output (g, "y", F, "2,3,4,4");
  t = plan_cpu (b);
  /* Alias(3,1), Alias(4,2): the running statistics live in the inputs. */
  assert_reuses (t->plan, "running_mean", "mean");
  assert_reuses (t->plan, "running_var", "var");
  assert_kind (t->plan, "mean", "AllocateStatically");
}

/* ---- §1.4 use counts ---- */

static void
test_use_counts (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (Planned) t = NULL;

  pv_onnx_graph_add_input (g, "x", F, "4");
  add_w4 (g, "W");
  add_nodes (g, "Add n0 x,W>a; Mul n1 a,a>b; Add n2 b,W>y; Neg n3 x>y2");
  pv_onnx_graph_add_outputs (g, F, "y:4 y2:4 x:4");
  t = plan_cpu (b);
  g_assert_cmpint (vp (t->plan, "x")->use_count, ==, 4);  /* input + 2 uses + graph output */
  g_assert_cmpint (vp (t->plan, "W")->use_count, ==, 3);  /* initializer + 2 uses */
  g_assert_cmpint (vp (t->plan, "a")->use_count, ==, 3);  /* definition + Mul(a, a) */
  g_assert_cmpint (vp (t->plan, "y")->use_count, ==, 2);  /* definition + graph output */
  /* a dies at n1 after two decrements */
  g_assert_cmpint (vp (t->plan, "a")->freed_at, ==, t->model->graph->nodes[1].order_position);
}

/* ---- subgraphs ---- */

static void
test_loop_identity_share (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b), *body = pv_onnx_graph_new ("body");
  PvOnnxGraph *then_g = pv_onnx_graph_new ("then"), *else_g = pv_onnx_graph_new ("else");
  g_autoptr (Planned) t = NULL;
  g_autoptr (PvOrtPlan) loop_plan = NULL, then_plan = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  const PvGraph *sub;
  PvOnnxNode *n;

  pv_onnx_graph_add_input (g, "M", I64, "");
  pv_onnx_graph_add_input (g, "cond", BOOL, "");
  pv_onnx_graph_add_input (g, "v0", F, "4");
  node3 (g, "Exp", "n0", N ("v0"), N ("o"));
  pv_onnx_graph_add_input (body, "iter", I64, "");
  pv_onnx_graph_add_input (body, "cond_in", BOOL, "");
  pv_onnx_graph_add_input (body, "v_in", F, "4");
  add_nodes (body, "Identity b0 cond_in>cond_out; Identity b1 v_in>v_out; Identity b2 iter>it_out; "
                   "Add b3 v_in,o>w_out");
  pv_onnx_graph_add_output (body, "cond_out", BOOL, "");
  pv_onnx_graph_add_output (body, "v_out", F, "4");
  pv_onnx_graph_add_output (body, "it_out", I64, "");
  pv_onnx_graph_add_output (body, "w_out", F, "4");
  n = node3 (g, "Loop", "loop", N ("M", "cond", "v0"), N ("v_final", "its", "ws"));
  pv_onnx_node_add_attr_graph (n, "body", body);
  pv_onnx_graph_add_output (then_g, "t", F, "4");
  node3 (then_g, "Identity", "t0", N ("o"), N ("t"));
  pv_onnx_graph_add_output (else_g, "e", F, "4");
  node3 (else_g, "Neg", "e0", N ("o"), N ("e"));
  pv_onnx_graph_add_if (g, "if", "cond", N ("yif"), then_g, else_g);
  pv_onnx_graph_add_output (g, "v_final", F, "4");
  pv_onnx_graph_add_output (g, "its", I64, "?");
  pv_onnx_graph_add_outputs (g, F, "ws:?,4 yif:4");
  t = plan_cpu (b);

  sub = t->model->graph->nodes[pv_graph_find_node (t->model->graph, "loop")].subgraphs[0];
  loop_plan = pv_ort_plan_new_subgraph (sub, t->shapes, t->plan, PV_REGISTRY_CPU, test_lookup, NULL, &error);
  g_assert_no_error (error);
  assert_kind (loop_plan, "iter", "PreExisting");
  assert_kind (loop_plan, "o", "PreExisting");      /* outer scope */
  assert_location (loop_plan, "o", CPU_LOC);
  /* An Identity of a pre-existing value (not the iteration number) in a
   * Loop body shares it... */
  assert_kind (loop_plan, "cond_out", "Share");
  g_assert_cmpint (vp (loop_plan, "cond_out")->reused_buffer, ==, vi (loop_plan, "cond_in"));
  assert_kind (loop_plan, "v_out", "Share");
  g_assert_cmpint (vp (loop_plan, "v_out")->reuse_rule, ==, PV_ORT_REUSE_LOOP_SHARE);
  /* ...the iteration number is copied. */
  assert_kind (loop_plan, "it_out", "AllocateOutput");
  assert_kind (loop_plan, "w_out", "AllocateOutput");
  g_assert_cmpint (loop_plan->n_streams, ==, 1);
  /* Share prints without the buffer index (only Reuse prints it). */
  text = pv_ort_plan_to_ort_text (loop_plan);
  g_assert_nonnull (strstr (text, ")v_out : Share, " CPU_LOC "\n"));

  /* Not in an If branch. */
  sub = t->model->graph->nodes[pv_graph_find_node (t->model->graph, "if")].subgraphs[0];
  then_plan = pv_ort_plan_new_subgraph (sub, t->shapes, t->plan, PV_REGISTRY_CPU, test_lookup, NULL, &error);
  g_assert_no_error (error);
  assert_kind (then_plan, "t", "AllocateOutput");
}

static void
test_cuda_locations (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxGraph *gt = pv_onnx_graph_new ("gt"), *ge = pv_onnx_graph_new ("ge");
  PvOnnxGraph *ct = pv_onnx_graph_new ("ct"), *ce = pv_onnx_graph_new ("ce");
  g_autoptr (Planned) t = NULL;
  g_autoptr (PvOrtPlan) branch = NULL;
  g_autoptr (GError) error = NULL;

  pv_onnx_graph_add_inputs (g, F, "x:4 k:4 z:4 z2:4");
  pv_onnx_graph_add_input (g, "c", BOOL, "");
  add_w4 (g, "Wg");
  add_w4 (g, "Wc");
  add_nodes (g, "Add g0 x,Wg>a; ToHost g1 a>h; FromHost g2 Wc,k>f");
  pv_onnx_graph_add_value_infos (g, F, "h:4 f:4");
  node3 (g, "Add", "g3", N ("Wc", "a"), N ("g3o"));    /* a later, GPU-side use of Wc */
  pv_onnx_graph_add_input (g, "kc", F, "4");
  node3 (g, "FromHost", "g4", N ("kc"), N ("g4o"));
  pv_onnx_graph_add_value_info (g, "g4o", F, "4");
  node3 (gt, "Add", "gt0", N ("z", "z2"), N ("gto"));
  pv_onnx_graph_add_output (gt, "gto", F, "4");
  node3 (ge, "Neg", "ge0", N ("z"), N ("geo"));
  pv_onnx_graph_add_output (ge, "geo", F, "4");
  pv_onnx_graph_add_if (g, "ifg", "c", N ("yg"), gt, ge);
  node3 (ct, "Neg", "ct0", N ("z2"), N ("cto"));
  pv_onnx_graph_add_output (ct, "cto", F, "4");
  node3 (ce, "Abs", "ce0", N ("z2"), N ("ceo"));
  pv_onnx_graph_add_output (ce, "ceo", F, "4");
  pv_onnx_graph_add_if (g, "ifc", "c", N ("yc"), ct, ce);
  pv_onnx_graph_add_outputs (g, F, "h:4 f:4 g3o:4 g4o:4 yg:4 yc:4");
  t = plan_with (b, "0:ifc;1:g0,g1,g2,g3,g4,ifg", PV_REGISTRY_CUDA);

  g_assert_true (t->plan->single_stream);  /* one stream per device */
  assert_location (t->plan, "x", GPU_LOC);
  assert_location (t->plan, "Wg", GPU_LOC);
  assert_location (t->plan, "a", GPU_LOC);
  assert_location (t->plan, "h", PINNED_LOC);  /* CPU output of a CUDA kernel: pinned, device type GPU */
  assert_location (t->plan, "Wc", CPU_LOC);    /* first use (by node id) is a CPU input of a CUDA kernel */
  assert_location (t->plan, "k", GPU_LOC);
  assert_location (t->plan, "kc", CPU_LOC);    /* a graph input read by a CUDA kernel's CPU input */
  /* Graph inputs used only implicitly: the EP of the node holding the
   * subgraph; CPU once two EPs hold them (z2: CPU If first, then GPU If). */
  assert_location (t->plan, "z", GPU_LOC);
  assert_location (t->plan, "z2", CPU_LOC);
  /* Explicit consumers: the last one, streams in order, sets it. */
  assert_location (t->plan, "c", GPU_LOC);
  g_assert_cmpint (t->plan->streams[0].device.type, ==, 0);
  g_assert_cmpint (t->plan->streams[1].device.type, ==, 1);

  /* A subgraph runs on its owner's device. */
  branch = pv_ort_plan_new_subgraph (t->model->graph->nodes[pv_graph_find_node (t->model->graph, "ifg")].subgraphs[0],
                                     t->shapes, t->plan, PV_REGISTRY_CUDA, test_lookup, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (branch->streams[0].device.type, ==, 1);
  assert_location (branch, "gto", GPU_LOC);
  assert_location (branch, "z", GPU_LOC);
  assert_kind (branch, "z", "PreExisting");
}

/* ---- §1.7 deallocation plan ---- */

static void
test_dealloc_single_stream (void)
{
  PvOnnxBuilder *b = model_of ("4", "Add n0 x,W>a; Exp n1 a>b; Add n2 a,b>c; Exp n3 c>y");
  g_autoptr (Planned) t = NULL;
  g_autofree char *r0 = NULL, *r1 = NULL, *r2 = NULL, *r3 = NULL;

  add_w4 (pv_onnx_builder_get_graph (b), "W");
  t = plan_cpu (b);
  r0 = releases_of (t->plan, "n0");
  r1 = releases_of (t->plan, "n1");
  r2 = releases_of (t->plan, "n2");
  r3 = releases_of (t->plan, "n3");
  /* One stream: one action, at the last consumer, ref_count 1. Graph
   * inputs, initializers and graph outputs are never released. */
  g_assert_cmpstr (r0, ==, "");
  g_assert_cmpstr (r1, ==, "");
  g_assert_cmpstr (r2, ==, "a:1 b:1");
  g_assert_cmpstr (r3, ==, "c:1");
  g_assert_cmpint (t->plan->n_release_actions, ==, 3);
  /* in increasing root index order */
  g_assert_cmpint (t->plan->release_actions[0].value_index, ==, vi (t->plan, "a"));
  g_assert_cmpint (t->plan->release_actions[2].value_index, ==, vi (t->plan, "c"));
}

static void
test_dealloc_multi_stream (void)
{
  g_autoptr (Planned) t = plan_with (model_of ("4", "Exp n0 x>a; Exp n1 a>b; Mul n2 a,a>c; Add n3 c,b>y"),
                                     "0:n0,n2;0:n1,n3", PV_REGISTRY_CPU);
  g_autofree char *r1 = NULL, *r2 = NULL, *r3 = NULL;

  g_assert_false (t->plan->single_stream);
  r1 = releases_of (t->plan, "n1");
  r2 = releases_of (t->plan, "n2");
  r3 = releases_of (t->plan, "n3");
  /* a is consumed on two streams: every use holds the action, ref_count
   * counts the uses (Mul(a, a) twice). */
  g_assert_cmpstr (r2, ==, "a:3 a:3");
  g_assert_cmpstr (r1, ==, "a:3");
  g_assert_cmpstr (r3, ==, "b:1 c:1");
}

/* ---- §2 streams and steps ---- */

static void
test_two_cpu_streams (void)
{
  g_autoptr (Planned) t = NULL;
  g_autofree char *text = NULL;
  const PvOrtPlan *plan;

  /* The order of names inside a stream does not matter. */
  t = plan_with (model_of ("4", "Exp n0 x>a; Exp n1 a>b; Exp n2 b>c; Exp n3 c>y"), "0:n2,n0;0:n3,n1", PV_REGISTRY_CPU);
  plan = t->plan;
  text = exec_text (plan);
  /* A CPU-only build: Barrier, LaunchKernel and TriggerDownstream only. */
  g_assert_cmpstr (text, ==,
                   "Start logic stream: 0 on device: 0\n"
                   "LaunchKernel - NodeIndex: 0, Name: n0\n"
                   "TriggerDownstream - TriggerPointIndex: 0\n"
                   "Barrier - BarrierId: 0, Count: 2\n"
                   "LaunchKernel - NodeIndex: 2, Name: n2\n"
                   "TriggerDownstream - TriggerPointIndex: 1\n"
                   "End logic stream : 0\n"
                   "Start logic stream: 1 on device: 0\n"
                   "Barrier - BarrierId: 1, Count: 2\n"
                   "LaunchKernel - NodeIndex: 1, Name: n1\n"
                   "TriggerDownstream - TriggerPointIndex: 2\n"
                   "Barrier - BarrierId: 2, Count: 2\n"
                   "LaunchKernel - NodeIndex: 3, Name: n3\n"
                   "End logic stream : 1\n");
  g_assert_cmpint (plan->n_barriers, ==, 3);
  g_assert_cmpint (plan->n_trigger_points, ==, 3);
  g_assert_cmpint (plan->n_notifications, ==, 0);
  /* downstream_map: trigger point -> (stream, barrier step) */
  g_assert_cmpint (plan->downstream_start[1] - plan->downstream_start[0], ==, 1);
  g_assert_cmpint (plan->downstream[plan->downstream_start[0]].stream, ==, 1);
  g_assert_cmpint (plan->downstream[plan->downstream_start[0]].step, ==, 0);
  g_assert_cmpint (plan->downstream[plan->downstream_start[1]].step, ==, 3);
  g_assert_cmpint (plan->downstream[plan->downstream_start[2]].stream, ==, 0);
  g_assert_cmpint (plan->downstream[plan->downstream_start[2]].step, ==, 2);
  g_assert_cmpint (plan->node_step[2], ==, 3);
  g_assert_cmpint (plan->streams[1].nodes[0], ==, 1);

  /* Two streams on one device: the multi-stream reuse pass. c reuses a:
   * a's consumer (n1) is done before c's producer (n2) runs. */
  g_assert_false (plan->single_stream);
  assert_kind (plan, "b", "Allocate");
  assert_reuses (plan, "c", "a");
  g_assert_cmpint (vp (plan, "c")->reuse_rule, ==, PV_ORT_REUSE_STREAM_DOWNSTREAM);
}

/* Producers on two GPU streams and a CPU stream:
 *   n0 a = Relu(x)  GPU 0     n2 b = Exp(a)    GPU 1
 *   n1 s = Shape(a) GPU 0     n3 c = Add(a, b) CPU 2
 *   n4 d = Mul(c, c) GPU 0 */
static PvOnnxBuilder *
three_stream_model (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);

  pv_onnx_graph_add_input (g, "x", F, "4");
  add_nodes (g, "Relu n0 x>a; Shape n1 a>s; Exp n2 a>b; Add n3 a,b>c; Mul n4 c,c>d");
  pv_onnx_graph_add_output (g, "s", I64, "1");
  pv_onnx_graph_add_output (g, "d", F, "4");
  return b;
}

static void
test_three_streams_cuda (void)
{
  g_autoptr (Planned) t = plan_with (three_stream_model (), "1:n0,n4,n1;1:n2;0:n3", PV_REGISTRY_CUDA);
  g_autofree char *text = exec_text (t->plan);

  /* GPU producers notify consumers on other streams (handles (GPU,GPU)
   * and (GPU,CPU) exist); the CPU producer n3 does not; waits follow the
   * barriers in ascending producer order. */
  g_assert_cmpstr (text, ==,
                   "Start logic stream: 0 on device: 1\n"
                   "LaunchKernel - NodeIndex: 0, Name: n0\n"
                   "ActivateNotification - NotificationId: 0\n"
                   "TriggerDownstream - TriggerPointIndex: 0\n"
                   "Barrier - BarrierId: 0, Count: 2\n"
                   "LaunchKernel - NodeIndex: 4, Name: n4\n"
                   "LaunchKernel - NodeIndex: 1, Name: n1\n"
                   "End logic stream : 0\n"
                   "Start logic stream: 1 on device: 1\n"
                   "Barrier - BarrierId: 1, Count: 2\n"
                   "WaitOnEP - NotificationId: 0\n"
                   "LaunchKernel - NodeIndex: 2, Name: n2\n"
                   "ActivateNotification - NotificationId: 1\n"
                   "TriggerDownstream - TriggerPointIndex: 1\n"
                   "End logic stream : 1\n"
                   "Start logic stream: 2 on device: 0\n"
                   "Barrier - BarrierId: 2, Count: 2\n"
                   "Barrier - BarrierId: 3, Count: 2\n"
                   "WaitOnEP - NotificationId: 0\n"
                   "WaitOnEP - NotificationId: 1\n"
                   "LaunchKernel - NodeIndex: 3, Name: n3\n"
                   "TriggerDownstream - TriggerPointIndex: 2\n"
                   "End logic stream : 2\n");
  g_assert_cmpint (t->plan->n_notifications, ==, 2);
  g_assert_cmpint (t->plan->notification_owners[0], ==, 0);
  g_assert_cmpint (t->plan->notification_owners[1], ==, 1);
  g_assert_cmpint (t->plan->node_notification[3], ==, -1);
  /* trigger point 0 (n0) releases barriers in streams 1 and 2 */
  g_assert_cmpint (t->plan->downstream_start[1] - t->plan->downstream_start[0], ==, 2);
  g_assert_cmpint (t->plan->downstream[1].stream, ==, 2);
  g_assert_cmpint (t->plan->downstream[1].step, ==, 0);
  g_assert_false (t->plan->single_stream);
}

static void
test_three_streams_cpu_registry (void)
{
  g_autoptr (Planned) t = plan_with (three_stream_model (), "1:n0,n4,n1;1:n2;0:n3", PV_REGISTRY_CPU);
  g_autofree char *text = exec_text (t->plan);

  /* No wait handle: no notification at all, even on GPU streams. */
  g_assert_cmpstr (text, ==,
                   "Start logic stream: 0 on device: 1\n"
                   "LaunchKernel - NodeIndex: 0, Name: n0\n"
                   "TriggerDownstream - TriggerPointIndex: 0\n"
                   "Barrier - BarrierId: 0, Count: 2\n"
                   "LaunchKernel - NodeIndex: 4, Name: n4\n"
                   "LaunchKernel - NodeIndex: 1, Name: n1\n"
                   "End logic stream : 0\n"
                   "Start logic stream: 1 on device: 1\n"
                   "Barrier - BarrierId: 1, Count: 2\n"
                   "LaunchKernel - NodeIndex: 2, Name: n2\n"
                   "TriggerDownstream - TriggerPointIndex: 1\n"
                   "End logic stream : 1\n"
                   "Start logic stream: 2 on device: 0\n"
                   "Barrier - BarrierId: 2, Count: 2\n"
                   "Barrier - BarrierId: 3, Count: 2\n"
                   "LaunchKernel - NodeIndex: 3, Name: n3\n"
                   "TriggerDownstream - TriggerPointIndex: 2\n"
                   "End logic stream : 2\n");
  g_assert_cmpint (t->plan->n_notifications, ==, 0);
}

static void
test_subgraph_consumer_wait (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  PvOnnxGraph *then_g = pv_onnx_graph_new ("then"), *else_g = pv_onnx_graph_new ("else");
  g_autoptr (Planned) t = NULL;
  g_autofree char *text = NULL;

  pv_onnx_graph_add_input (g, "x", F, "4");
  pv_onnx_graph_add_input (g, "c", BOOL, "");
  add_nodes (g, "Exp n0 x>a; Shape n1 x>s");
  node3 (then_g, "Add", "t0", N ("a", "a"), N ("t"));
  pv_onnx_graph_add_output (then_g, "t", F, "4");
  node3 (else_g, "Neg", "e0", N ("a"), N ("e"));
  pv_onnx_graph_add_output (else_g, "e", F, "4");
  pv_onnx_graph_add_if (g, "n2", "c", N ("y"), then_g, else_g);
  node3 (g, "Neg", "n3", N ("s"), N ("sl"));
  pv_onnx_graph_add_output (g, "y", F, "4");
  pv_onnx_graph_add_output (g, "sl", I64, "1");
  t = plan_with (b, "1:n0,n1;0:n2,n3", PV_REGISTRY_CUDA);
  text = exec_text (t->plan);
  /* a is consumed only inside the If: the handle is looked up for the
   * downstream stream's device (GPU -> CPU). Shape never notifies. */
  g_assert_cmpstr (text, ==,
                   "Start logic stream: 0 on device: 1\n"
                   "LaunchKernel - NodeIndex: 1, Name: n1\n"
                   "TriggerDownstream - TriggerPointIndex: 0\n"
                   "LaunchKernel - NodeIndex: 0, Name: n0\n"
                   "ActivateNotification - NotificationId: 0\n"
                   "TriggerDownstream - TriggerPointIndex: 1\n"
                   "End logic stream : 0\n"
                   "Start logic stream: 1 on device: 0\n"
                   "Barrier - BarrierId: 0, Count: 2\n"
                   "LaunchKernel - NodeIndex: 3, Name: n3\n"
                   "Barrier - BarrierId: 1, Count: 2\n"
                   "WaitOnEP - NotificationId: 0\n"
                   "LaunchKernel - NodeIndex: 2, Name: n2\n"
                   "End logic stream : 1\n");
}

static void
test_pinned_output_same_stream (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (Planned) t = NULL;

  pv_onnx_graph_add_input (g, "x", F, "4");
  add_nodes (g, "ToHost n0 x>h; Exp n1 h>y1; ToHost n2 x>h2; Neg n3 h2>y2");
  pv_onnx_graph_add_value_infos (g, F, "h:4 h2:4");
  pv_onnx_graph_add_outputs (g, F, "y1:4 y2:4");
  t = plan_with (b, "1:n0,n1,n2;0:n3", PV_REGISTRY_CUDA);
  /* Pinned memory is (GPU, HOST_ACCESSIBLE) since ORT's OrtDevice rework:
   * its device type is not CPU, so with the seed's check
   * (location.Type() == CPU) a same-stream consumer gets no notification;
   * the consumer on the CPU stream does. ORT's older test
   * MultiStreamCudaEPNodeCPUOutput, written when pinned memory was
   * (CPU, CUDA_PINNED), expects a same-stream WaitOnEP here. */
  g_assert_cmpint (t->plan->node_notification[0], ==, -1);
  g_assert_cmpint (t->plan->node_notification[2], ==, 0);
  g_assert_cmpint (t->plan->n_notifications, ==, 1);
}

static void
test_one_stream_per_device (void)
{
  const char *nodes = "Exp n0 x>a; Exp n1 a>b; Add n2 x,b>c; Exp n3 c>y";
  g_autoptr (Planned) t = plan_with (model_of ("4", nodes), "0:n0,n2,n3;1:n1", PV_REGISTRY_CUDA);
  g_autoptr (Planned) all_cpu = plan_cpu (model_of ("4", nodes));

  g_assert_true (t->plan->single_stream);
  /* Use counts span all streams, but each pass releases only its own
   * stream's uses: a (used on the GPU stream) never frees in the CPU pass. */
  g_assert_cmpint (vp (t->plan, "a")->freed_at, ==, -1);
  assert_kind (t->plan, "c", "Allocate");
  assert_reuses (all_cpu->plan, "c", "a");
}

static void
test_partition_errors (void)
{
  g_autoptr (PvModel) m = pv_test_load_built (model_of ("4", "Exp n0 x>a; NoKernel n1 a>y"), "test.onnx");
  g_autoptr (TestPartition) empty = NULL, mixed = NULL;
  g_autoptr (GError) error = NULL;
  PvOrtPlan *plan;


  empty = test_partition (m->graph, "0:n0,n1;0:");
  plan = pv_ort_plan_new (m->graph, NULL, &empty->partition, PV_REGISTRY_CPU, test_lookup, NULL, &error);
  g_assert_null (plan);
  g_assert_error (error, PV_ORT_PLAN_ERROR, PV_ORT_PLAN_ERROR_PARTITION);
  g_clear_error (&error);

  mixed = test_partition (m->graph, "0:n0,n1");
  mixed->node_device[1] = 1;
  plan = pv_ort_plan_new (m->graph, NULL, &mixed->partition, PV_REGISTRY_CPU, test_lookup, NULL, &error);
  g_assert_null (plan);
  g_assert_error (error, PV_ORT_PLAN_ERROR, PV_ORT_PLAN_ERROR_PARTITION);
  g_clear_error (&error);

  plan = pv_ort_plan_new (m->graph, NULL, NULL, PV_REGISTRY_CPU, test_lookup, NULL, &error);
  g_assert_null (plan);
  g_assert_error (error, PV_ORT_PLAN_ERROR, PV_ORT_PLAN_ERROR_KERNEL);
}

/* ---- §1.8 several streams per device ---- */

static void
test_multi_stream_alias_note (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  const gint64 d1[] = { 1 }, s4[] = { 4 };
  g_autoptr (Planned) t = NULL;

  pv_onnx_graph_add_input (g, "x", F, "4");
  pv_onnx_graph_add_initializer_int64s (g, "s", d1, 1, s4);
  add_nodes (g, "Exp n0 x>a; Reshape n1 a,s>r; Relu n2 r>q; Exp n3 q>y; Reshape n4 x,s>rx; Exp n5 rx>y2");
  pv_onnx_graph_add_outputs (g, F, "y:4 y2:4");
  t = plan_with (b, "0:n0,n2,n4;0:n1,n3,n5", PV_REGISTRY_CPU);
  /* ORT prints each alias to stdout. */
  g_assert_nonnull (t->plan->notes);
  g_assert_cmpint (g_strv_length (t->plan->notes), ==, 2);
  g_assert_true (g_strv_contains ((const char *const *) t->plan->notes, "a reused by r as input"));
  g_assert_true (g_strv_contains ((const char *const *) t->plan->notes, "x reused by rx as input"));
  assert_reuses (t->plan, "r", "a");
  /* Alias takes any input, here a graph input. */
  assert_reuses (t->plan, "rx", "x");
  /* MayInplace needs one consumer of the input's buffer: r has one (n2). */
  assert_reuses (t->plan, "q", "a");
  g_assert_cmpint (vp (t->plan, "q")->reuse_rule, ==, PV_ORT_REUSE_MAY_INPLACE);
}

/* n0 = T(x) -> (w, u) on stream 0, u unconsumed; n1 p = Exp(x) on stream 1. */
static PvOnnxBuilder *
unconsumed_output_model (const char *w_shape)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);

  pv_onnx_graph_add_input (g, "x", F, "4");
  add_nodes (g, "T n0 x>w,u; Exp n1 x>p; Exp n2 p>y2; Exp n3 w>y1");
  pv_onnx_graph_add_value_info (g, "w", F, w_shape);
  pv_onnx_graph_add_value_info (g, "u", F, "4");
  pv_onnx_graph_add_output (g, "y1", F, w_shape);
  pv_onnx_graph_add_output (g, "y2", F, "4");
  return b;
}

static void
test_multi_stream_ancestor (void)
{
  g_autoptr (Planned) t = plan_with (unconsumed_output_model ("8"), "0:n0,n3;0:n1,n2", PV_REGISTRY_CPU);
  g_autoptr (Planned) siblings = plan_with (unconsumed_output_model ("4"), "0:n0,n3;0:n1,n2", PV_REGISTRY_CPU);

  /* u has no consumer, so "all its consumers are done" holds for anyone;
   * but n0 is no ancestor of p's producer n1 (parallel streams). */
  assert_kind (t->plan, "p", "Allocate");
  assert_kind (t->plan, "u", "Allocate");
  /* ORT's rule as written: a node counts among its own dependents, so its
   * output w (waiting, lower index than p) takes the buffer of its
   * unconsumed sibling output u. */
  assert_reuses (siblings->plan, "w", "u");
  assert_kind (siblings->plan, "p", "Allocate");
}

/* a (stream 0) and b (stream 1) are free once n2 ran, and d comes after:
 * d takes the buffer of whichever of n0 and n1 ORT's walk reaches first,
 * and their order comes from a hash set seeded per process. */
static PvOnnxBuilder *
two_givers_model (void)
{
  return model_of ("4", "Exp n0 x>a; Neg n1 x>b; Add n2 a,b>y1; Exp n3 y1>d; Exp n4 d>y");
}

static void
test_multi_stream_order_dependent (void)
{
  g_autoptr (Planned) t = plan_with (two_givers_model (), "0:n0,n2,n3,n4;0:n1", PV_REGISTRY_CPU);
  g_autoptr (Planned) again = plan_with (two_givers_model (), "0:n0,n2,n3,n4;0:n1", PV_REGISTRY_CPU);
  g_autoptr (Planned) one = plan_with (two_givers_model (), "0:n0,n1,n2,n3,n4", PV_REGISTRY_CPU);
  int n_dependent = 0;

  g_assert_cmpint (t->plan->order_trials, ==, PV_ORT_DEFAULT_ORDER_TRIALS);
  /* d reuses a or b: ORT's random choice; a and b are allocated anyway. */
  g_assert_cmpint (vp (t->plan, "d")->kind, ==, PV_ORT_ALLOC_REUSE);
  g_assert_true (vp (t->plan, "d")->reused_buffer == vi (t->plan, "a") || vp (t->plan, "d")->reused_buffer == vi (t->plan, "b"));
  g_assert_true (vp (t->plan, "d")->order_dependent);
  g_assert_false (vp (t->plan, "a")->order_dependent);
  g_assert_false (vp (t->plan, "b")->order_dependent);
  /* The same plan every time (seeded trials; planviz's own order). */
  for (int i = 0; i < t->plan->n_values; i++)
    {
      g_assert_cmpint (again->plan->values[i].kind, ==, t->plan->values[i].kind);
      g_assert_cmpint (again->plan->values[i].reused_buffer, ==, t->plan->values[i].reused_buffer);
      g_assert_cmpint (again->plan->values[i].order_dependent, ==, t->plan->values[i].order_dependent);
    }
  /* One stream: ORT's sequential planner, deterministic. */
  for (int i = 0; i < one->plan->n_values; i++)
    n_dependent += one->plan->values[i].order_dependent;
  g_assert_cmpint (n_dependent, ==, 0);
}

static void
test_multi_stream_variadic_alias (void)
{
  PvOnnxBuilder *b = model_of ("4", "Exp n0 x>q; VarAlias n1 x,q>r,s; Add n2 r,s>y");
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (Planned) t = NULL;

  pv_onnx_graph_add_value_infos (g, F, "r:4 s:4");
  t = plan_with (b, "0:n0,n2;0:n1", PV_REGISTRY_CPU);
  /* Unlike the single-stream pass, VariadicAlias here needs an allocated
   * input: not the graph input x. */
  assert_kind (t->plan, "r", "Allocate");
  assert_reuses (t->plan, "s", "q");
}

static void
test_multi_stream_inplace_one_consumer (void)
{
  g_autoptr (Planned) t = plan_with (model_of ("4", "Exp n0 x>a; Relu n1 a>b; Neg n2 a>c; Add n3 b,c>y"),
                                     "0:n0,n2;0:n1,n3", PV_REGISTRY_CPU);

  /* a has two consumers (n1, n2): no in-place for the Relu. */
  assert_kind (t->plan, "b", "Allocate");
  assert_kind (t->plan, "c", "Allocate");
}

/* ORT's multi-stream pass lets a MayInplace kernel overwrite a buffer that
 * another stream still reads (tests/ort/MULTISTREAM-HAZARDS.md):
 *   stream 0: n0 a = Exp(x), n1 b = Identity(a), n2 c = Relu(b), n4 y = Add(c, d)
 *   stream 1: n3 d = Exp(a)
 * The pass visits the dependence graph from its sinks, so n2 is visited
 * before n1: b is still Allocate with the single consumer n2, and c takes
 * b in place. Only then does n1 make b an alias of a, and the final walk
 * points c at a. n2 now writes a's bytes while n3, on the other stream and
 * unordered with n2, reads a. planviz reproduces this; the checker reports
 * it through pv-session. */
static void
test_multi_stream_inplace_before_alias (void)
{
  g_autoptr (Planned) t = plan_with (model_of ("4", "Exp n0 x>a; Identity n1 a>b; Relu n2 b>c; Exp n3 a>d; "
                                                "Add n4 c,d>y"),
                                     "0:n0,n1,n2,n4;0:n3", PV_REGISTRY_CPU);
  g_autofree char *text = NULL;

  g_assert_false (t->plan->single_stream);
  assert_kind (t->plan, "a", "Allocate");
  assert_reuses (t->plan, "b", "a");
  g_assert_cmpint (vp (t->plan, "b")->reuse_rule, ==, PV_ORT_REUSE_ALIAS);
  /* in place on b, then flattened to b's root a */
  assert_reuses (t->plan, "c", "a");
  g_assert_cmpint (vp (t->plan, "c")->reuse_rule, ==, PV_ORT_REUSE_MAY_INPLACE);
  assert_kind (t->plan, "d", "Allocate");
  g_assert_true (g_strv_contains ((const char *const *) t->plan->notes, "a reused by b as input"));
  /* Nothing orders n2 and n3: n3 waits only for n0, n4 is the only node
   * waiting for n3, and n2 runs before it. */
  text = exec_text (t->plan);
  g_assert_cmpstr (text, ==,
                   "Start logic stream: 0 on device: 0\n"
                   "LaunchKernel - NodeIndex: 0, Name: n0\n"
                   "TriggerDownstream - TriggerPointIndex: 0\n"
                   "LaunchKernel - NodeIndex: 1, Name: n1\n"
                   "LaunchKernel - NodeIndex: 2, Name: n2\n"
                   "Barrier - BarrierId: 0, Count: 2\n"
                   "LaunchKernel - NodeIndex: 4, Name: n4\n"
                   "End logic stream : 0\n"
                   "Start logic stream: 1 on device: 0\n"
                   "Barrier - BarrierId: 1, Count: 2\n"
                   "LaunchKernel - NodeIndex: 3, Name: n3\n"
                   "TriggerDownstream - TriggerPointIndex: 1\n"
                   "End logic stream : 1\n");
}

/* A chain over two CPU streams; c may take a's buffer in the multi-stream
 * pass when their shapes match. */
static PvOnnxBuilder *
chain_model (const char *x_shape, const char *a_shape, const char *c_shape)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);

  pv_onnx_graph_add_input (g, "x", F, x_shape);
  add_nodes (g, "T n0 x>a; T n1 a>b; T n2 b>c; T n3 c>y");
  pv_onnx_graph_add_value_info (g, "a", F, a_shape);
  pv_onnx_graph_add_value_info (g, "b", F, a_shape);
  pv_onnx_graph_add_value_info (g, "c", F, c_shape);
  pv_onnx_graph_add_output (g, "y", F, "?");
  return b;
}

static void
test_multi_stream_byte_size_long (void)
{
  const char *spec = "0:n0,n2;0:n1,n3";
  g_autoptr (Planned) same = plan_with (chain_model ("8", "8", "8"), spec, PV_REGISTRY_CPU);
  g_autoptr (Planned) flat = plan_with (chain_model ("8", "8", "2,4"), spec, PV_REGISTRY_CPU);
  g_autoptr (Planned) swapped = plan_with (chain_model ("N,4", "N,4", "4,N"), spec, PV_REGISTRY_CPU);
  g_autoptr (Planned) scalar = plan_with (chain_model ("", "", ""), spec, PV_REGISTRY_CPU);
  g_autoptr (Planned) scalar_one = plan_with (chain_model ("", "", ""), NULL, PV_REGISTRY_CPU);

  assert_reuses (same->plan, "c", "a");
  /* [8] and [2,4] hold the same bytes but their TensorShapeProtos differ
   * in size (4 vs 8): different buckets. */
  assert_kind (flat->plan, "c", "Allocate");
  /* [N,4] and [4,N] share a bucket; SameSize still says no. */
  assert_kind (swapped->plan, "c", "Allocate");
  /* Scalars: an empty TensorShapeProto (size 0) is a bucket like any
   * other; the multi-stream pass reuses them, the single-stream pass never. */
  assert_reuses (scalar->plan, "c", "a");
  assert_kind (scalar_one->plan, "c", "Allocate");
}

/* ---- ORT's own planner tests (allocation_planner_test.cc) ---- */

static const char *ort_testdata_dir;

/* ParaPlanCreation: simplified_ssd.onnx on two CPU streams
 * (simplified_ssd_cpu.json); every conv_i_out is reused by relu_i_out. */
static void
test_ort_para_plan_creation (void)
{
  g_autofree char *path = NULL;
  g_autoptr (PvModel) m = NULL;
  g_autoptr (PvOrtShapes) shapes = NULL;
  g_autoptr (TestPartition) partition = NULL;
  g_autoptr (PvOrtPlan) plan = NULL;
  g_autoptr (GError) error = NULL;

  if (ort_testdata_dir == NULL)
    {
      g_test_skip ("no ort-testdata directory given");
      return;
    }
  path = g_build_filename (ort_testdata_dir, "simplified_ssd.onnx", NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("ONNX Runtime's test data is absent (../shared/ort-testdata)");
      return;
    }
  m = pv_model_load_from_file (path, &error);
  g_assert_no_error (error);
  shapes = pv_ort_shapes_new (m, NULL, &error);
  g_assert_no_error (error);
  partition = test_partition (m->graph, "0:conv_0,relu_0,maxpool_0,conv_4,add_0;0:conv_1,relu_1,conv_2,relu_2,conv_3");
  plan = pv_ort_plan_new (m->graph, shapes, &partition->partition, PV_REGISTRY_CPU, test_lookup, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (plan->single_stream);
  assert_reuses (plan, "relu_0_out", "conv_0_out");
  assert_reuses (plan, "relu_1_out", "conv_1_out");
  assert_reuses (plan, "relu_2_out", "conv_2_out");
}

/* MultiStream: node1 (CPU) -> node2 (CPU) -> node3 (CUDA) -> node4 (CPU),
 * the default partition: one stream per device. */
static void
test_ort_multi_stream (void)
{
  g_autoptr (Planned) t = plan_with (model_io ("x:1", "Exp node1 x>Arg1; Exp node2 Arg1>Arg2; "
                                                "Transpose node3 Arg2>Arg3; Exp node4 Arg3>Arg4", "Arg4:1"),
                                     "0:node1,node2,node4;1:node3", PV_REGISTRY_CUDA);

  assert_steps (t->plan, 0, "LLTBWL");
  assert_steps (t->plan, 1, "BLAT");
}

/* MultiStream1StreamWaitFor2Streams: node1, node2 -> node3, three GPU
 * streams (3_gpu_streams.json). */
static void
test_ort_one_waits_for_two (void)
{
  g_autoptr (Planned) t = plan_with (model_io ("x:2,2", "Transpose node1 x>Arg1; Transpose node2 x>Arg2; "
                                                "Add node3 Arg1,Arg2>Arg3", "Arg3:2,2"),
                                     "1:node1;1:node2;1:node3", PV_REGISTRY_CUDA);

  assert_steps (t->plan, 0, "LAT");
  assert_steps (t->plan, 1, "LAT");
  assert_steps (t->plan, 2, "BBWWL");
}

/* MultiStreamMultiOutput: node1 (CUDA) has two outputs, both consumed by
 * node2 (CPU): one barrier and one wait. */
static void
test_ort_multi_output (void)
{
  PvOnnxBuilder *b = model_io ("x:4", "T node1 x>Arg1,Arg2; Add node2 Arg1,Arg2>Arg3", "Arg3:4");
  g_autoptr (Planned) t = NULL;

  pv_onnx_graph_add_value_infos (pv_onnx_builder_get_graph (b), F, "Arg1:4 Arg2:4");
  t = plan_with (b, "1:node1;0:node2", PV_REGISTRY_CUDA);
  assert_steps (t->plan, 0, "LAT");
  assert_steps (t->plan, 1, "BWL");
}

/* ---- the printer ---- */

static void
test_printer (void)
{
  PvOnnxBuilder *b = new_builder ();
  PvOnnxGraph *g = pv_onnx_builder_get_graph (b);
  g_autoptr (Planned) t = NULL;
  g_autofree char *text = NULL;

  pv_onnx_graph_add_input (g, "x", F, "4");
  add_w4 (g, "W");
  add_nodes (g, "Add n0 x,W>a; Relu n1 a>b");
  node3 (g, "Exp", NULL, N ("b"), N ("y"));
  pv_onnx_graph_add_output (g, "y", F, "4");
  t = plan_cpu (b);
  text = pv_ort_plan_to_ort_text (t->plan);
  g_assert_cmpstr (text, ==,
                   "Allocation Plan:\n"
                   "(ort_value_idx) output_name : <allocation plan>\n"
                   "(0)x : PreExisting, " CPU_LOC "\n"
                   "(1)W : AllocateStatically, " CPU_LOC "\n"
                   "(2)a : Allocate, " CPU_LOC "\n"
                   "(3)b : Reuse 2, " CPU_LOC "\n"
                   "(4)y : AllocateOutput, " CPU_LOC "\n"
                   "\n"
                   "Execution Plan:\n"
                   "Start logic stream: 0 on device: 0\n"
                   "LaunchKernel - NodeIndex: 0, Name: n0\n"
                   "LaunchKernel - NodeIndex: 1, Name: n1\n"
                   "LaunchKernel - NodeIndex: 2, Name: Exp0\n"
                   "End logic stream : 0\n");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* optional: the directory of ONNX Runtime's planner test data */
  ort_testdata_dir = argc > 1 ? argv[1] : g_getenv ("PV_ORT_TESTDATA");
  g_test_add_func ("/ort-plan/kinds/fixed", test_fixed_kinds);
  g_test_add_func ("/ort-plan/kinds/external-outputs", test_external_outputs);
  g_test_add_func ("/ort-plan/kinds/alias-of-external", test_alias_of_external);
  g_test_add_func ("/ort-plan/kinds/graph-output-first", test_graph_output_first);
  g_test_add_func ("/ort-plan/reuse/alias-chain", test_alias_chain);
  g_test_add_func ("/ort-plan/reuse/variadic-alias", test_variadic_alias);
  g_test_add_func ("/ort-plan/reuse/may-inplace-use-count", test_may_inplace_use_count);
  g_test_add_func ("/ort-plan/reuse/non-tensor", test_non_tensor);
  g_test_add_func ("/ort-plan/reuse/free-list-order", test_free_list_order);
  g_test_add_func ("/ort-plan/reuse/needs-consumer", test_needs_consumer);
  g_test_add_func ("/ort-plan/reuse/same-size-empty-dims", test_same_size_empty_dims);
  g_test_add_func ("/ort-plan/reuse/same-size-dim-params", test_same_size_dim_params);
  g_test_add_func ("/ort-plan/reuse/element-size", test_element_size);
  g_test_add_func ("/ort-plan/reuse/scalars", test_scalars);
  g_test_add_func ("/ort-plan/reuse/strings", test_strings);
  g_test_add_func ("/ort-plan/reuse/batch-norm-alias", test_batch_norm_alias);
  g_test_add_func ("/ort-plan/use-counts", test_use_counts);
  g_test_add_func ("/ort-plan/subgraph/loop-identity-share", test_loop_identity_share);
  g_test_add_func ("/ort-plan/locations/cuda", test_cuda_locations);
  g_test_add_func ("/ort-plan/dealloc/single-stream", test_dealloc_single_stream);
  g_test_add_func ("/ort-plan/dealloc/multi-stream", test_dealloc_multi_stream);
  g_test_add_func ("/ort-plan/streams/two-cpu", test_two_cpu_streams);
  g_test_add_func ("/ort-plan/streams/three-cuda", test_three_streams_cuda);
  g_test_add_func ("/ort-plan/streams/three-cpu-registry", test_three_streams_cpu_registry);
  g_test_add_func ("/ort-plan/streams/subgraph-consumer-wait", test_subgraph_consumer_wait);
  g_test_add_func ("/ort-plan/streams/pinned-output", test_pinned_output_same_stream);
  g_test_add_func ("/ort-plan/streams/one-per-device", test_one_stream_per_device);
  g_test_add_func ("/ort-plan/streams/errors", test_partition_errors);
  g_test_add_func ("/ort-plan/multi-stream/alias-note", test_multi_stream_alias_note);
  g_test_add_func ("/ort-plan/multi-stream/inplace-one-consumer", test_multi_stream_inplace_one_consumer);
  g_test_add_func ("/ort-plan/multi-stream/inplace-before-alias", test_multi_stream_inplace_before_alias);
  g_test_add_func ("/ort-plan/multi-stream/ancestor", test_multi_stream_ancestor);
  g_test_add_func ("/ort-plan/multi-stream/order-dependent", test_multi_stream_order_dependent);
  g_test_add_func ("/ort-plan/multi-stream/variadic-alias", test_multi_stream_variadic_alias);
  g_test_add_func ("/ort-plan/multi-stream/byte-size-long", test_multi_stream_byte_size_long);
  g_test_add_func ("/ort-plan/ort-tests/para-plan-creation", test_ort_para_plan_creation);
  g_test_add_func ("/ort-plan/ort-tests/multi-stream", test_ort_multi_stream);
  g_test_add_func ("/ort-plan/ort-tests/one-waits-for-two", test_ort_one_waits_for_two);
  g_test_add_func ("/ort-plan/ort-tests/multi-output", test_ort_multi_output);
  g_test_add_func ("/ort-plan/printer", test_printer);
  return g_test_run ();
}
