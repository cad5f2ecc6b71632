/* libFuzzer target: planviz-cli's --bound, --input-shape and --device
 * values (app/pv-cli-args.c). The input is a list of option values, one a
 * line (a NUL ends a value too, as argv would); each parser gets them all.
 * Any list gives a result or a message on stderr, never both, never a
 * crash, leak or undefined behaviour; what a parser accepts says what the
 * values say (the last entry for a name wins).
 *
 * --device needs a model: PV_FUZZ_MODEL (for example
 * data/wide_branches.onnx), loaded once; without it --device is skipped. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pv-cli.h"
#include "pv-model-loader.h"
#include "pv-partition-config.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static PvModel *model;
static GString *printed;

static void
capture_printerr (const char *text)
{
  g_string_append (printed, text);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  const char *path = g_getenv ("PV_FUZZ_MODEL");
  g_autoptr (GError) error = NULL;

  printed = g_string_new (NULL);
  g_set_printerr_handler (capture_printerr);
  if (path == NULL || *path == '\0')
    return 0;
  model = pv_model_load_from_file (path, &error);
  if (model == NULL)
    {
      fprintf (stderr, "fuzz-cli-args: %s\n", error->message);
      exit (1);
    }
  return 0;
}

/* The values of @data: lines, each cut at its first NUL (g_strndup stops
 * there). */
static char **
split_values (const uint8_t *data, size_t size)
{
  GPtrArray *values = g_ptr_array_new ();
  gsize at = 0;

  while (at <= size)
    {
      const uint8_t *nl = memchr (data + at, '\n', size - at);
      gsize end = nl ? (gsize) (nl - data) : size;
      g_ptr_array_add (values, g_strndup ((const char *) data + at, end - at));
      at = end + 1;
    }
  g_ptr_array_add (values, NULL);
  return (char **) g_ptr_array_free (values, FALSE);
}

/* A parser's result and its message: exactly one of them. */
static void
assert_one_outcome (gboolean ok)
{
  if (ok)
    g_assert_cmpuint (printed->len, ==, 0);
  else
    {
      g_assert_cmpuint (printed->len, >, 0);
      g_assert_true (g_str_has_prefix (printed->str, "planviz-cli: "));
    }
  g_string_truncate (printed, 0);
}

/* The text after the last '=' of @spec as a count, as the parsers read it. */
static gint64
count_after_eq (const char *text)
{
  return g_ascii_strtoll (text, NULL, 10);
}

static void
check_bounds (char **specs)
{
  g_autoptr (GHashTable) bounds = pv_cli_parse_bounds (specs);
  g_autoptr (GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  assert_one_outcome (bounds != NULL);
  if (bounds == NULL)
    return;
  /* SYMBOL=N, split at the last '=', the last entry for a symbol winning. */
  for (int i = 0; specs[i]; i++)
    {
      const char *eq = strrchr (specs[i], '=');
      g_assert_nonnull (eq);
      g_hash_table_replace (expected, g_strndup (specs[i], eq - specs[i]), (gpointer) (eq + 1));
    }
  g_assert_cmpuint (g_hash_table_size (bounds), ==, g_hash_table_size (expected));
  {
    GHashTableIter iter;
    gpointer name, text;
    g_hash_table_iter_init (&iter, expected);
    while (g_hash_table_iter_next (&iter, &name, &text))
      {
        const gint64 *value = g_hash_table_lookup (bounds, name);
        g_assert_nonnull (value);
        g_assert_cmpint (*value, >=, 0);
        g_assert_cmpint (*value, ==, count_after_eq (text));
      }
  }
}

static void
check_input_shapes (char **specs)
{
  g_autoptr (GHashTable) shapes = pv_cli_parse_input_shapes (specs);

  assert_one_outcome (shapes != NULL);
  if (shapes == NULL)
    return;
  g_assert_cmpuint (g_hash_table_size (shapes), <=, g_strv_length (specs));
  for (int i = 0; specs[i]; i++)
    {
      const char *eq = strrchr (specs[i], '=');
      g_autofree char *name = g_strndup (specs[i], eq - specs[i]);
      const GArray *dims = g_hash_table_lookup (shapes, name);
      g_assert_nonnull (dims);
      for (guint k = 0; k < dims->len; k++)
        g_assert_cmpint (g_array_index (dims, gint64, k), >=, 0);
    }
}

static void
check_devices (char **specs)
{
  const PvGraph *g = model->graph;
  g_autofree int *devices = NULL;
  int exit_code = PV_CLI_OK;
  gboolean ok = pv_cli_node_devices (g, NULL, specs, &devices, &exit_code);

  assert_one_outcome (ok);
  if (!ok)
    {
      g_assert_null (devices);
      g_assert_true (exit_code == PV_CLI_USAGE || exit_code == PV_CLI_BAD_INPUT);
      return;
    }
  if (specs[0] == NULL)
    {
      g_assert_null (devices);
      return;
    }
  g_assert_nonnull (devices);
  /* Every node gets the device of the last entry naming it. */
  for (int n = 0; n < g->n_nodes; n++)
    {
      int want = PV_DEVICE_CPU;
      for (int i = 0; specs[i]; i++)
        {
          const char *eq = strrchr (specs[i], '=');
          if ((gsize) (eq - specs[i]) == strlen (g->nodes[n].name) && strncmp (specs[i], g->nodes[n].name, eq - specs[i]) == 0)
            want = (int) count_after_eq (eq + 1);
        }
      g_assert_cmpint (devices[n], ==, want);
      g_assert_nonnull (pv_device_type_name (devices[n]));
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_auto (GStrv) specs = NULL;

  if (size > 64 * 1024)
    return 0; /* a command line holds no more */
  specs = split_values (data, size);
  g_string_truncate (printed, 0);
  check_bounds (specs);
  check_input_shapes (specs);
  if (model)
    check_devices (specs);
  return 0;
}
