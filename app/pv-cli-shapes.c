/* planviz-cli shapes: every value's type, shape and size. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "pv-cli.h"
#include "pv-cli-args.h"
#include "pv-element-type.h"
#include "pv-json-writer.h"
#include "pv-model-loader.h"
#include "pv-shape-inference.h"

typedef struct {
  int known;     /* every dim a number */
  int symbolic;  /* rank known, some dim symbolic */
  int unknown;   /* rank or type unknown */
} Summary;

static char *
shape_text (const PvValueShape *s)
{
  GString *out;

  if (s->kind == PV_TYPE_UNKNOWN || (s->kind == PV_TYPE_TENSOR && s->rank < 0))
    return g_strdup ("?");
  if (s->kind != PV_TYPE_TENSOR)
    return g_strdup ("-");
  out = g_string_new ("[");
  for (int i = 0; i < s->rank; i++)
    {
      g_autofree char *d = pv_dim_to_string (s->dims[i]);
      g_string_append_printf (out, "%s%s", i ? "," : "", d);
    }
  g_string_append_c (out, ']');
  return g_string_free (out, FALSE);
}

static const char *
kind_text (const PvValueShape *s)
{
  switch (s->kind)
    {
    case PV_TYPE_TENSOR: return s->elem_type ? pv_element_type_name (s->elem_type) : "?";
    case PV_TYPE_SEQUENCE: return "sequence";
    case PV_TYPE_MAP: return "map";
    case PV_TYPE_OPTIONAL: return "optional";
    case PV_TYPE_SPARSE_TENSOR: return "sparse";
    default: return "?";
    }
}

static void
classify (const PvValueShape *s, Summary *sum)
{
  gboolean all_const = TRUE;

  if (s->kind != PV_TYPE_TENSOR || s->rank < 0)
    {
      sum->unknown++;
      return;
    }
  for (int i = 0; i < s->rank; i++)
    all_const &= pv_dim_is_const (s->dims[i], NULL);
  if (all_const)
    sum->known++;
  else
    sum->symbolic++;
}

/* bytes as a number when @bounds resolve it, else the expression; NULL when
 * the value has no byte size. */
static char *
bytes_text (const PvShapeInfo *info, const PvGraph *g, int v, GHashTable *bounds, gboolean *is_number)
{
  const PvValueShape *s = pv_shape_info_get (info, g, v);
  guint64 bytes;

  *is_number = FALSE;
  if (s->bytes == NULL)
    return NULL;
  if (pv_shape_info_eval_bytes (info, g, v, bounds, &bytes, NULL))
    {
      *is_number = TRUE;
      return g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);
    }
  return pv_dim_to_string (s->bytes);
}

/* The dims with @bounds, when every one evaluates (JSON "bound_shape"). */
static void
add_bound_shape (cJSON *item, const PvValueShape *s, GHashTable *bounds, GHashTable *symbols)
{
  cJSON *dims;

  for (int i = 0; i < s->rank; i++)
    pv_dim_collect_symbols (s->dims[i], symbols);
  dims = cJSON_CreateArray ();
  for (int i = 0; i < s->rank; i++)
    {
      gint64 n;
      if (!pv_dim_eval (s->dims[i], bounds, &n, NULL))
        {
          cJSON_Delete (dims);
          return;
        }
      cJSON_AddItemToArray (dims, pv_cjson_int64 (n));
    }
  cJSON_AddItemToObject (item, "bound_shape", dims);
}

static void
walk_graph (const PvShapeInfo *info, const PvGraph *g, const char *path, GHashTable *bounds, gboolean json,
            cJSON *values, Summary *sum, GHashTable *symbols)
{
  for (int v = 0; v < g->n_values; v++)
    {
      const PvValue *value = &g->values[v];
      const PvValueShape *s = pv_shape_info_get (info, g, v);
      const char *producer = value->producer >= 0 ? g->nodes[value->producer].name : NULL;
      gboolean is_number;
      g_autofree char *bytes = bytes_text (info, g, v, bounds, &is_number);

      if (value->flags & PV_VALUE_OUTER_SCOPE)
        continue;  /* listed where it is defined */
      classify (s, sum);
      if (json)
        {
          cJSON *item = cJSON_CreateObject ();
          cJSON_AddStringToObject (item, "name", value->name);
          if (path[0])
            cJSON_AddStringToObject (item, "graph", path);
          cJSON_AddStringToObject (item, "dtype", kind_text (s));
          if (s->kind == PV_TYPE_TENSOR && s->rank >= 0)
            {
              cJSON *dims = cJSON_CreateArray ();
              for (int i = 0; i < s->rank; i++)
                {
                  gint64 c;
                  if (pv_dim_is_const (s->dims[i], &c))
                    cJSON_AddItemToArray (dims, pv_cjson_int64 (c));
                  else
                    {
                      g_autofree char *d = pv_dim_to_string (s->dims[i]);
                      cJSON_AddItemToArray (dims, cJSON_CreateString (d));
                    }
                }
              cJSON_AddItemToObject (item, "shape", dims);
              add_bound_shape (item, s, bounds, symbols);
            }
          else
            cJSON_AddNullToObject (item, "shape");
          if (bytes == NULL)
            cJSON_AddNullToObject (item, "bytes");
          else if (is_number)
            cJSON_AddItemToObject (item, "bytes", pv_cjson_uint64 (g_ascii_strtoull (bytes, NULL, 10)));
          else
            cJSON_AddStringToObject (item, "bytes", bytes);
          if (producer)
            cJSON_AddStringToObject (item, "producer", producer);
          else
            cJSON_AddNullToObject (item, "producer");
          cJSON_AddBoolToObject (item, "initializer", (value->flags & PV_VALUE_INITIALIZER) != 0);
          cJSON_AddItemToArray (values, item);
        }
      else
        {
          g_autofree char *shape = shape_text (s);
          printf ("%s%-40s %-9s %-28s %14s  %s\n", path, value->name, kind_text (s), shape, bytes ? bytes : "-",
                  producer ? producer : (value->flags & PV_VALUE_INITIALIZER) ? "(initializer)" : "(input)");
        }
    }
  for (int n = 0; n < g->n_nodes; n++)
    for (int k = 0; k < g->nodes[n].n_subgraphs; k++)
      {
        const PvGraph *sub = g->nodes[n].subgraphs[k];
        g_autofree char *sub_path = g_strdup_printf ("%s%s/%s:", path, g->nodes[n].name, sub->parent_attr);
        walk_graph (info, sub, sub_path, bounds, json, values, sum, symbols);
      }
}

static gint
compare_strings (gconstpointer a, gconstpointer b, gpointer data)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* After the values: the counts, the ops without a shape rule, the
 * warnings and the symbols met; prints @root and frees it. */
static void
print_summary_json (cJSON *root, const PvShapeInfo *info, const Summary *sum, GHashTable *symbols)
{
  const guint *counts;
  const char *const *uncovered = pv_shape_info_uncovered_ops (info, &counts);
  const char *const *warnings = pv_shape_info_warnings (info);
  cJSON *summary = cJSON_AddObjectToObject (root, "summary");
  cJSON *ops = cJSON_AddObjectToObject (summary, "uncovered_ops");
  cJSON *warn = cJSON_AddArrayToObject (root, "warnings");
  cJSON *syms = cJSON_AddArrayToObject (root, "symbols");
  g_autofree const char **names = (const char **) g_hash_table_get_keys_as_array (symbols, NULL);

  g_qsort_with_data (names, (gint) g_hash_table_size (symbols), sizeof (char *), compare_strings, NULL);
  for (guint i = 0; i < g_hash_table_size (symbols); i++)
    cJSON_AddItemToArray (syms, cJSON_CreateString (names[i]));
  cJSON_AddNumberToObject (summary, "known", sum->known);
  cJSON_AddNumberToObject (summary, "symbolic", sum->symbolic);
  cJSON_AddNumberToObject (summary, "unknown", sum->unknown);
  for (int i = 0; uncovered[i]; i++)
    cJSON_AddNumberToObject (ops, uncovered[i], counts[i]);
  for (int i = 0; warnings[i]; i++)
    cJSON_AddItemToArray (warn, cJSON_CreateString (warnings[i]));
  pv_cli_print_json (root);
}

/* After the table: the warnings, the counts and the ops without a shape
 * rule. */
static void
print_summary_text (const PvShapeInfo *info, const Summary *sum)
{
  const guint *counts;
  const char *const *uncovered = pv_shape_info_uncovered_ops (info, &counts);
  const char *const *warnings = pv_shape_info_warnings (info);

  for (int i = 0; warnings[i]; i++)
    printf ("warning: %s\n", warnings[i]);
  printf ("%d values: %d with a known shape, %d symbolic, %d unknown", sum->known + sum->symbolic + sum->unknown,
          sum->known, sum->symbolic, sum->unknown);
  if (uncovered[0])
    {
      printf ("; ops without a shape rule:");
      for (int i = 0; uncovered[i]; i++)
        printf (" %s (%u)", uncovered[i], counts[i]);
    }
  printf ("\n");
}

int
pv_cli_shapes (int argc, char **argv)
{
  gboolean json = FALSE, ort_view = FALSE;
  g_auto (GStrv) bound_specs = NULL, input_specs = NULL, value_specs = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { "bound", 'b', 0, G_OPTION_ARG_STRING_ARRAY, &bound_specs, "Give a symbolic dim a value (repeatable)", "SYMBOL=N" },
    { "input-shape", 'i', 0, G_OPTION_ARG_STRING_ARRAY, &input_specs, "Fix a graph input's dims (repeatable)",
      "NAME=D1,D2,…" },
    { "input-value", 0, 0, G_OPTION_ARG_STRING_ARRAY, &value_specs,
      "Give a graph input known contents, e.g. a scalar an If tests (repeatable)", "NAME=V" },
    { "ort-view", 0, 0, G_OPTION_ARG_NONE, &ort_view, "Shapes as ONNX Runtime holds them for its planner", NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("MODEL.onnx — infer every value's shape and size");
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;
  g_autoptr (PvShapeInfo) info = NULL;
  g_autoptr (GHashTable) bounds = NULL, input_shapes = NULL, input_values = NULL;
  g_autoptr (GHashTable) symbols = g_hash_table_new (g_str_hash, g_str_equal);
  PvShapeOptions options = { 0 };
  Summary sum = { 0 };
  cJSON *root = NULL, *values = NULL;
  int status;

  g_option_context_add_main_entries (context, entries, NULL);
  status = pv_cli_parse_model ("shapes", context, &argc, &argv);
  if (status != PV_CLI_OK)
    return status;
  bounds = pv_cli_parse_bounds (bound_specs);
  input_shapes = pv_cli_parse_input_shapes (input_specs);
  if (bounds == NULL || input_shapes == NULL)
    return PV_CLI_USAGE;
  model = pv_cli_load_model (argv[1], NULL, &error);
  if (model == NULL)
    {
      g_printerr ("planviz-cli: %s\n", error->message);
      return PV_CLI_BAD_INPUT;
    }
  input_values = pv_cli_parse_input_values (value_specs, model);
  if (input_values == NULL)
    return PV_CLI_USAGE;
  options.bounds = bounds;
  options.input_shapes = input_shapes;
  options.input_values = input_values;
  options.ort_view = ort_view;
  info = pv_shape_infer (model, &options, &error);
  if (info == NULL)
    {
      g_printerr ("planviz-cli: %s\n", error->message);
      return PV_CLI_BAD_INPUT;
    }

  if (json)
    {
      root = cJSON_CreateObject ();
      values = cJSON_AddArrayToObject (root, "values");
    }
  else
    printf ("%-40s %-9s %-28s %14s  %s\n", "value", "dtype", "shape", "bytes", "producer");
  walk_graph (info, model->graph, "", bounds, json, values, &sum, symbols);
  if (json)
    print_summary_json (root, info, &sum, symbols);
  else
    print_summary_text (info, &sum);
  return PV_CLI_OK;
}
