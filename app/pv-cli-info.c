/* planviz-cli info: what a model holds, and the order ONNX Runtime runs it in. */
#include <cjson/cJSON.h>
#include <stdio.h>

#include "pv-cli.h"
#include "pv-element-type.h"
#include "pv-json-writer.h"
#include "pv-model-loader.h"

typedef struct {
  int nodes;
  int values;
  int initializers;
  GHashTable *ops;  /* "domain:Op" or "Op" -> count */
} Totals;

static void
count_graph (const PvGraph *graph, Totals *totals)
{
  totals->nodes += graph->n_nodes;
  totals->values += graph->n_values;
  totals->initializers += graph->n_initializers;
  for (int i = 0; i < graph->n_nodes; i++)
    {
      const PvNode *node = &graph->nodes[i];
      g_autofree char *key = node->domain[0] ? g_strdup_printf ("%s:%s", node->domain, node->op_type)
                                             : g_strdup (node->op_type);
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (totals->ops, key));
      g_hash_table_insert (totals->ops, g_steal_pointer (&key), GUINT_TO_POINTER (count + 1));
      for (int s = 0; s < node->n_subgraphs; s++)
        count_graph (node->subgraphs[s], totals);
    }
}

static int
compare_ops (gconstpointer a, gconstpointer b, gpointer user_data)
{
  GHashTable *ops = user_data;
  const char *x = *(const char **) a, *y = *(const char **) b;
  guint cx = GPOINTER_TO_UINT (g_hash_table_lookup (ops, x)), cy = GPOINTER_TO_UINT (g_hash_table_lookup (ops, y));

  if (cx != cy)
    return cx > cy ? -1 : 1;
  return g_strcmp0 (x, y);
}

static GPtrArray *
sorted_ops (GHashTable *ops)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, ops);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort_with_data (keys, compare_ops, ops);
  return keys;
}

static cJSON *
shape_json (const PvType *type)
{
  cJSON *dims;

  if (type->rank < 0)
    return cJSON_CreateNull ();
  dims = cJSON_CreateArray ();
  for (int i = 0; i < type->rank; i++)
    {
      const PvDim *d = &type->dims[i];
      if (d->kind == PV_DIM_VALUE)
        cJSON_AddItemToArray (dims, pv_cjson_int64 (d->value));
      else if (d->kind == PV_DIM_SYMBOL)
        cJSON_AddItemToArray (dims, cJSON_CreateString (d->symbol));
      else
        cJSON_AddItemToArray (dims, cJSON_CreateNull ());
    }
  return dims;
}

static cJSON *
values_json (const PvGraph *graph, const int *ids, int n)
{
  cJSON *array = cJSON_CreateArray ();

  for (int i = 0; i < n; i++)
    {
      const PvValue *v = &graph->values[ids[i]];
      g_autofree char *type = pv_type_to_string (&v->type);
      cJSON *item = cJSON_CreateObject ();
      cJSON_AddStringToObject (item, "name", v->name);
      cJSON_AddStringToObject (item, "dtype", type);
      cJSON_AddItemToObject (item, "shape", shape_json (&v->type));
      cJSON_AddBoolToObject (item, "initializer", (v->flags & PV_VALUE_INITIALIZER) != 0);
      cJSON_AddItemToArray (array, item);
    }
  return array;
}

static void
print_json (const PvModel *model, const Totals *totals, GPtrArray *ops, gboolean order)
{
  const PvGraph *g = model->graph;
  cJSON *root = cJSON_CreateObject ();
  cJSON *opsets = cJSON_CreateArray ();
  cJSON *counts = cJSON_CreateObject ();
  cJSON *histogram = cJSON_CreateObject ();

  cJSON_AddStringToObject (root, "file", model->source_name);
  cJSON_AddNumberToObject (root, "ir_version", (double) model->ir_version);
  cJSON_AddStringToObject (root, "producer_name", model->producer_name);
  cJSON_AddStringToObject (root, "producer_version", model->producer_version);
  for (int i = 0; i < model->n_opsets; i++)
    {
      cJSON *o = cJSON_CreateObject ();
      cJSON_AddStringToObject (o, "domain", model->opsets[i].domain);
      cJSON_AddNumberToObject (o, "version", (double) model->opsets[i].version);
      cJSON_AddItemToArray (opsets, o);
    }
  cJSON_AddItemToObject (root, "opsets", opsets);
  cJSON_AddNumberToObject (counts, "nodes", g->n_nodes);
  cJSON_AddNumberToObject (counts, "nodes_total", totals->nodes);
  cJSON_AddNumberToObject (counts, "values", g->n_values);
  cJSON_AddNumberToObject (counts, "values_total", totals->values);
  cJSON_AddNumberToObject (counts, "initializers", g->n_initializers);
  cJSON_AddNumberToObject (counts, "initializers_total", totals->initializers);
  cJSON_AddNumberToObject (counts, "constant_nodes", model->n_constant_nodes);
  cJSON_AddNumberToObject (counts, "subgraphs", pv_graph_count_subgraphs (g));
  cJSON_AddNumberToObject (counts, "subgraph_depth", pv_graph_max_depth (g));
  cJSON_AddNumberToObject (counts, "functions", model->n_functions);
  cJSON_AddItemToObject (root, "counts", counts);
  {
    cJSON *rewrites = cJSON_AddArrayToObject (root, "session_rewrites");
    for (int i = 0; model->session_rewrites && model->session_rewrites[i]; i++)
      cJSON_AddItemToArray (rewrites, cJSON_CreateString (model->session_rewrites[i]));
  }
  cJSON_AddItemToObject (root, "inputs", values_json (g, g->inputs, g->n_inputs));
  cJSON_AddItemToObject (root, "outputs", values_json (g, g->outputs, g->n_outputs));
  for (guint i = 0; i < ops->len; i++)
    cJSON_AddNumberToObject (histogram, ops->pdata[i],
                             GPOINTER_TO_UINT (g_hash_table_lookup (totals->ops, ops->pdata[i])));
  cJSON_AddItemToObject (root, "ops", histogram);
  if (order)
    {
      cJSON *names = cJSON_CreateArray ();
      for (int i = 0; i < g->n_nodes; i++)
        cJSON_AddItemToArray (names, cJSON_CreateString (g->nodes[g->order[i]].name));
      cJSON_AddItemToObject (root, "order", names);
    }
  pv_cli_print_json (root);
}

static void
print_values (const char *title, const PvGraph *graph, const int *ids, int n)
{
  printf ("%s (%d):\n", title, n);
  for (int i = 0; i < n; i++)
    {
      const PvValue *v = &graph->values[ids[i]];
      g_autofree char *type = pv_type_to_string (&v->type);
      g_autofree char *shape = pv_type_shape_to_string (&v->type);
      printf ("  %-32s %-10s %s%s\n", v->name, type, shape, (v->flags & PV_VALUE_INITIALIZER) ? "  (initializer)" : "");
    }
}

static void
print_text (const PvModel *model, const Totals *totals, GPtrArray *ops, gboolean order)
{
  const PvGraph *g = model->graph;
  int n_subgraphs = pv_graph_count_subgraphs (g);

  printf ("%s\n", model->source_name);
  printf ("  IR version    %" G_GINT64_FORMAT "\n", model->ir_version);
  printf ("  producer      %s%s%s\n", model->producer_name[0] ? model->producer_name : "(none)",
          model->producer_version[0] ? " " : "", model->producer_version);
  printf ("  opsets       ");
  for (int i = 0; i < model->n_opsets; i++)
    printf (" %s %" G_GINT64_FORMAT "%s", model->opsets[i].domain[0] ? model->opsets[i].domain : "ai.onnx",
            model->opsets[i].version, i + 1 < model->n_opsets ? "," : "");
  printf ("\n");
  printf ("  nodes         %d in the main graph, %d in all\n", g->n_nodes, totals->nodes);
  printf ("  values        %d in the main graph, %d in all\n", g->n_values, totals->values);
  printf ("  initializers  %d in the main graph, %d in all\n", g->n_initializers, totals->initializers);
  printf ("  subgraphs     %d, nested %d deep\n", n_subgraphs, pv_graph_max_depth (g));
  if (model->n_constant_nodes)
    printf ("  constants     %d Constant nodes became initializers, as ONNX Runtime does\n", model->n_constant_nodes);
  if (model->n_functions)
    printf ("  functions     %d model-local functions (not inlined: ONNX Runtime inlines them)\n",
            model->n_functions);
  for (int i = 0; model->session_rewrites && model->session_rewrites[i]; i++)
    printf ("  %s %s\n", i == 0 ? "rewritten    " : "             ", model->session_rewrites[i]);
  print_values ("inputs", g, g->inputs, g->n_inputs);
  print_values ("outputs", g, g->outputs, g->n_outputs);
  printf ("ops (%u kinds):\n", ops->len);
  for (guint i = 0; i < ops->len; i++)
    printf ("  %-32s %u\n", (const char *) ops->pdata[i],
            GPOINTER_TO_UINT (g_hash_table_lookup (totals->ops, ops->pdata[i])));
  if (order)
    {
      printf ("order (ONNX Runtime's default execution order, main graph):\n");
      for (int i = 0; i < g->n_nodes; i++)
        {
          const PvNode *node = &g->nodes[g->order[i]];
          printf ("  %6d  %-40s %s%s\n", i, node->name, node->op_type, node->name_generated ? "  (named by ORT)" : "");
        }
    }
}

int
pv_cli_info (int argc, char **argv)
{
  gboolean json = FALSE, order = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { "order", 0, 0, G_OPTION_ARG_NONE, &order, "List the nodes in ONNX Runtime's execution order", NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("MODEL.onnx — show what a model holds");
  g_autoptr (GError) error = NULL;
  g_autoptr (PvModel) model = NULL;
  g_autoptr (GPtrArray) ops = NULL;
  Totals totals = { 0 };
  int status;

  g_option_context_add_main_entries (context, entries, NULL);
  status = pv_cli_parse_model ("info", context, &argc, &argv);
  if (status != PV_CLI_OK)
    return status;
  model = pv_cli_load_model (argv[1], NULL, &error);
  if (model == NULL)
    {
      g_printerr ("planviz-cli: %s\n", error->message);
      return PV_CLI_BAD_INPUT;
    }
  totals.ops = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  count_graph (model->graph, &totals);
  ops = sorted_ops (totals.ops);
  if (json)
    print_json (model, &totals, ops, order);
  else
    print_text (model, &totals, ops, order);
  g_hash_table_unref (totals.ops);
  return PV_CLI_OK;
}
