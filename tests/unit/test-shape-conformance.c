/* Shape inference against reality: every ONNX backend node test binds its
 * graph inputs to the dims of its stored input tensors, and each inferred
 * output must have the stored output's dtype and dims. Prints the pass rate
 * per op. Fails when a test of an op planviz promises to cover fails, or a
 * light network does. Usage: test-shape-conformance ONNX_TESTS_DIR [FILTER] */
#include <stdio.h>
#include <string.h>

#include "onnx-subset.pb-c.h"
#include "pv-element-type.h"
#include "pv-model-loader.h"
#include "pv-shape-inference.h"

/* The ops issue #3 promises (ONNX domain). */
static const char *const promised[] = {
  "Abs", "Acos", "Add", "And", "ArgMax", "ArgMin", "AveragePool", "BatchNormalization", "Cast", "Ceil", "Celu",
  "Concat", "Constant", "ConstantOfShape", "Conv", "ConvTranspose", "CumSum", "DepthToSpace", "Div", "Dropout",
  "Einsum", "Elu", "Equal", "Erf", "Exp", "Expand", "Flatten", "Floor", "Gather", "GatherElements", "GatherND",
  "Gelu", "Gemm", "GlobalAveragePool", "GlobalMaxPool", "Greater", "GreaterOrEqual", "GRU", "HardSigmoid",
  "HardSwish", "Identity", "If", "InstanceNormalization", "LayerNormalization", "LeakyRelu", "Less",
  "LessOrEqual", "Log", "LogSoftmax", "Loop", "LRN", "LSTM", "MatMul", "Max", "MaxPool", "Mean", "Min", "Mod",
  "Mul", "Neg", "NonZero", "Not", "OneHot", "Or", "Pad", "Pow", "PRelu", "Range", "Reciprocal", "ReduceL2",
  "ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare", "Relu", "Reshape",
  "Resize", "RNN", "Round", "Scan", "ScatterElements", "ScatterND", "Selu", "Shape", "Sigmoid", "Sign", "Sin",
  "Size", "Slice", "Softmax", "Softplus", "Softsign", "SpaceToDepth", "Split", "Sqrt", "Squeeze", "Sub", "Sum",
  "Tanh", "Tile", "TopK", "Transpose", "Trilu", "Unsqueeze", "Upsample", "Where", "Xor", NULL,
};

typedef struct {
  guint passed;
  guint failed;
  guint skipped;
} OpStats;

typedef struct {
  GHashTable *ops;       /* op -> OpStats* */
  GPtrArray *failures;   /* char*: promised-op failures */
  GPtrArray *other;      /* char*: failures of ops not promised */
  GHashTable *skip_reasons; /* reason -> count */
  const char *filter;
} Run;

static OpStats *
stats_for (Run *run, const char *op)
{
  OpStats *s = g_hash_table_lookup (run->ops, op);
  if (s == NULL)
    {
      s = g_new0 (OpStats, 1);
      g_hash_table_insert (run->ops, g_strdup (op), s);
    }
  return s;
}

static gboolean
is_promised (const char *op)
{
  return g_strv_contains (promised, op);
}

static Onnx__TensorProto *
read_tensor (const char *path)
{
  g_autofree char *data = NULL;
  gsize len;

  if (!g_file_get_contents (path, &data, &len, NULL))
    return NULL;
  return onnx__tensor_proto__unpack (NULL, len, (const guint8 *) data);
}

/* The same file as planviz reads it, contents included when small. */
static PvTensor *
read_pv_tensor (const char *path)
{
  g_autofree char *data = NULL;
  gsize len;

  if (!g_file_get_contents (path, &data, &len, NULL))
    return NULL;
  return pv_tensor_load_from_bytes ((const guint8 *) data, len, path, NULL);
}

/* TRUE when @s differs from the stored tensor only in dims that inference
 * named with a symbol: the size depends on input values (NonZero, Loop
 * trip counts), which planviz never guesses. */
static gboolean
only_data_dependent (const PvValueShape *s, const Onnx__TensorProto *t)
{
  if (s->kind != PV_TYPE_TENSOR || s->rank != (int) t->n_dims || s->elem_type != t->data_type)
    return FALSE;
  for (int i = 0; i < s->rank; i++)
    {
      gint64 v;
      if (pv_dim_is_const (s->dims[i], &v) && v != t->dims[i])
        return FALSE;
    }
  return TRUE;
}

/* Compares one inferred output with a stored tensor; NULL when equal, else why. */
static char *
compare_output (const PvValueShape *s, const Onnx__TensorProto *t)
{
  GString *want = g_string_new ("[");
  g_autofree char *got = NULL;
  gboolean same;

  for (size_t i = 0; i < t->n_dims; i++)
    g_string_append_printf (want, "%s%" G_GINT64_FORMAT, i ? "," : "", (gint64) t->dims[i]);
  g_string_append_c (want, ']');

  if (s->kind == PV_TYPE_TENSOR && s->rank >= 0)
    {
      GString *g = g_string_new ("[");
      for (int i = 0; i < s->rank; i++)
        {
          g_autofree char *d = pv_dim_to_string (s->dims[i]);
          g_string_append_printf (g, "%s%s", i ? "," : "", d);
        }
      g_string_append_c (g, ']');
      got = g_string_free (g, FALSE);
    }
  else
    got = g_strdup ("?");

  same = s->kind == PV_TYPE_TENSOR && s->rank == (int) t->n_dims && s->elem_type == t->data_type;
  for (int i = 0; same && i < s->rank; i++)
    {
      gint64 v;
      same = pv_dim_is_const (s->dims[i], &v) && v == t->dims[i];
    }
  if (same)
    {
      g_string_free (want, TRUE);
      return NULL;
    }
  {
    char *why = g_strdup_printf ("got %s %s, want %s %s", pv_element_type_name (s->elem_type), got,
                                 pv_element_type_name (t->data_type), want->str);
    g_string_free (want, TRUE);
    return why;
  }
}

static void
skip (Run *run, OpStats *stats, const char *reason)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (run->skip_reasons, reason));
  stats->skipped++;
  g_hash_table_insert (run->skip_reasons, g_strdup (reason), GUINT_TO_POINTER (n + 1));
}

/* Runs one test folder (model.onnx + test_data_set_0) or a light model. */
static void
run_case (Run *run, const char *label, const char *model_path, const char *data_dir, const char *light_output)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = pv_model_load_from_file (model_path, &error);
  g_autoptr (GHashTable) input_shapes = NULL;
  g_autoptr (GHashTable) input_values = NULL;
  g_autoptr (PvShapeInfo) info = NULL;
  PvShapeOptions options = { 0 };
  const PvGraph *g;
  const char *op;
  OpStats *stats;
  GString *why = NULL;
  int input_index = 0;

  if (model == NULL)
    {
      skip (run, stats_for (run, "(unloadable)"), "model does not load");
      return;
    }
  g = model->graph;
  op = light_output ? "(light network)" : g->n_nodes == 1 ? g->nodes[0].op_type : "(multi-node)";
  stats = stats_for (run, op);

  input_shapes = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_array_unref);
  input_values = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) pv_tensor_free);
  for (int i = 0; data_dir && i < g->n_inputs; i++)
    {
      const PvValue *v = &g->values[g->inputs[i]];
      g_autofree char *path = NULL;
      Onnx__TensorProto *t;
      GArray *dims;

      if (v->flags & PV_VALUE_INITIALIZER)
        continue;
      path = g_strdup_printf ("%s/input_%d.pb", data_dir, input_index++);
      if (v->type.kind != PV_TYPE_TENSOR)
        {
          skip (run, stats, "non-tensor graph input (sequence/optional/map)");
          return;
        }
      t = read_tensor (path);
      if (t == NULL)
        {
          skip (run, stats, "input data is not a TensorProto");
          return;
        }
      dims = g_array_new (FALSE, FALSE, sizeof (gint64));
      for (size_t k = 0; k < t->n_dims; k++)
        {
          gint64 d = t->dims[k];
          g_array_append_val (dims, d);
        }
      g_hash_table_insert (input_shapes, (gpointer) v->name, dims);
      onnx__tensor_proto__free_unpacked (t, NULL);
      {
        /* Small integer inputs (pads, axes, shapes, bounds) are bound by
         * value too, as if the model held them as constants. */
        PvTensor *known = read_pv_tensor (path);
        if (known && known->data)
          g_hash_table_insert (input_values, (gpointer) v->name, known);
        else
          pv_tensor_free (known);
      }
    }
  options.input_shapes = input_shapes;
  options.input_values = input_values;
  options.ignore_stated_types = TRUE;  /* the models state their outputs: only the rules count */
  info = pv_shape_infer (model, &options, &error);
  if (info == NULL)
    {
      skip (run, stats, "input shapes do not fit the declared ranks");
      return;
    }

  {
    /* Ops without a rule are not covered, not failed. */
    const char *const *uncovered = pv_shape_info_uncovered_ops (info, NULL);
    if (uncovered[0])
      {
        g_autofree char *reason = g_strdup_printf ("no shape rule for %s", uncovered[0]);
        skip (run, stats, reason);
        return;
      }
  }
  for (int i = 0; i < g->n_outputs; i++)
    {
      g_autofree char *path = light_output ? g_strdup (light_output)
                                           : g_strdup_printf ("%s/output_%d.pb", data_dir, i);
      const PvValueShape *s = pv_shape_info_get (info, g, g->outputs[i]);
      Onnx__TensorProto *t;
      g_autofree char *diff = NULL;

      if (light_output && i > 0)
        break;
      if (g->values[g->outputs[i]].type.kind != PV_TYPE_TENSOR && g->values[g->outputs[i]].type.kind != PV_TYPE_UNKNOWN)
        {
          skip (run, stats, "non-tensor graph output");
          return;
        }
      t = read_tensor (path);
      if (t == NULL)
        {
          skip (run, stats, "output data is not a TensorProto");
          return;
        }
      diff = compare_output (s, t);
      if (diff && only_data_dependent (s, t))
        {
          onnx__tensor_proto__free_unpacked (t, NULL);
          printf ("# data-dependent: %s [%s] output %d: %s\n", label, op, i, diff);
          skip (run, stats, "output size depends on input values (planviz names it with a symbol)");
          return;
        }
      onnx__tensor_proto__free_unpacked (t, NULL);
      if (diff)
        {
          if (why == NULL)
            why = g_string_new (NULL);
          g_string_append_printf (why, " output %d (%s): %s;", i, g->values[g->outputs[i]].name, diff);
        }
    }
  if (why == NULL)
    {
      stats->passed++;
      return;
    }
  stats->failed++;
  g_ptr_array_add (light_output || is_promised (op) ? run->failures : run->other,
                   g_strdup_printf ("%s [%s]:%s", label, op, why->str));
  g_string_free (why, TRUE);
}

static int
compare_keys (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

int
main (int argc, char **argv)
{
  const char *root = argc > 1 ? argv[1] : "../shared/onnx-tests";
  g_autofree char *node_dir = g_build_filename (root, "node", NULL);
  g_autofree char *light_dir = g_build_filename (root, "light", NULL);
  Run run = { 0 };
  g_autoptr (GDir) dir = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) ops = g_ptr_array_new ();
  const char *name;
  guint passed = 0, failed = 0, skipped = 0, promised_passed = 0, promised_total = 0;
  GHashTableIter iter;
  gpointer key, value;

  if (!g_file_test (node_dir, G_FILE_TEST_IS_DIR))
    {
      printf ("1..0 # SKIP %s is absent\n", node_dir);
      return 0;  /* TAP: the 1..0 SKIP plan is the skip (77 would be an error) */
    }
  run.filter = argc > 2 ? argv[2] : NULL;
  run.ops = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  run.failures = g_ptr_array_new_with_free_func (g_free);
  run.other = g_ptr_array_new_with_free_func (g_free);
  run.skip_reasons = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  dir = g_dir_open (node_dir, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_keys);
  for (guint i = 0; i < names->len; i++)
    {
      const char *test = names->pdata[i];
      g_autofree char *model = g_build_filename (node_dir, test, "model.onnx", NULL);
      g_autofree char *data = g_build_filename (node_dir, test, "test_data_set_0", NULL);
      if (run.filter && strstr (test, run.filter) == NULL)
        continue;
      if (g_file_test (model, G_FILE_TEST_EXISTS) && g_file_test (data, G_FILE_TEST_IS_DIR))
        run_case (&run, test, model, data, NULL);
    }
  g_clear_pointer (&dir, g_dir_close);
  dir = g_dir_open (light_dir, 0, NULL);
  while (dir && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".onnx") && (run.filter == NULL || strstr (name, run.filter)))
      {
        g_autofree char *model = g_build_filename (light_dir, name, NULL);
        g_autofree char *base = g_strndup (name, strlen (name) - 5);
        g_autofree char *out_name = g_strconcat (base, "_output_0.pb", NULL);
        g_autofree char *out = g_build_filename (light_dir, out_name, NULL);
        run_case (&run, name, model, NULL, out);
      }

  g_hash_table_iter_init (&iter, run.ops);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_ptr_array_add (ops, key);
  g_ptr_array_sort (ops, compare_keys);
  printf ("# %-28s %7s %7s %7s  %s\n", "op", "passed", "failed", "skipped", "rate");
  for (guint i = 0; i < ops->len; i++)
    {
      OpStats *s = g_hash_table_lookup (run.ops, ops->pdata[i]);
      guint n = s->passed + s->failed;
      printf ("# %-28s %7u %7u %7u  %5.1f%%%s\n", (const char *) ops->pdata[i], s->passed, s->failed, s->skipped,
              n ? 100.0 * s->passed / n : 0.0, is_promised (ops->pdata[i]) ? "" : "  (not promised)");
      passed += s->passed;
      failed += s->failed;
      skipped += s->skipped;
      if (is_promised (ops->pdata[i]) || g_str_equal (ops->pdata[i], "(light network)"))
        {
          promised_passed += s->passed;
          promised_total += n;
        }
    }
  g_hash_table_iter_init (&iter, run.skip_reasons);
  while (g_hash_table_iter_next (&iter, &key, &value))
    printf ("# not covered: %u tests: %s\n", GPOINTER_TO_UINT (value), (const char *) key);
  for (guint i = 0; i < run.other->len; i++)
    printf ("# not promised, failing: %s\n", (const char *) run.other->pdata[i]);
  for (guint i = 0; i < run.failures->len; i++)
    printf ("# FAIL %s\n", (const char *) run.failures->pdata[i]);
  printf ("# overall: %u passed, %u failed (%.1f%%), %u not covered; promised ops and light networks: %u/%u\n",
          passed, failed, passed + failed ? 100.0 * passed / (passed + failed) : 0.0, skipped, promised_passed,
          promised_total);
  printf ("1..1\n%s 1 - every test of a promised op and every light network infers the stored shapes\n",
          run.failures->len == 0 ? "ok" : "not ok");
  {
    int status = run.failures->len == 0 ? 0 : 1;
    g_hash_table_unref (run.ops);
    g_ptr_array_unref (run.failures);
    g_ptr_array_unref (run.other);
    g_hash_table_unref (run.skip_reasons);
    return status;
  }
}
