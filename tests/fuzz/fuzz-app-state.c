/* libFuzzer target: any bytes as planviz's state.ini (app/pv-app-state.c)
 * read as the window reads it: never a crash, leak or undefined behaviour;
 * a double is finite or the fallback; and what a state file gives survives
 * being saved and read again (the window saves the state it read, with its
 * own values set). The file lives in a temporary folder made once. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <glib/gstdio.h>
#include <math.h>

#include "pv-app-state.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* The [window] keys pv-window-state.c reads. */
static const char *const int_keys[] = { "width", "height", "planner", "registry" };
static const char *const bool_keys[] = {
  "maximized", "colour-by-kind", "show-trigger-arrows", "show-notify-arrows", "show-reuse-links", "show-side-pane",
};

static char *folder, *state_path;
static GFile *models[2];

static void
remove_folder (void)
{
  g_remove (state_path);
  g_rmdir (folder);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  /* In memory when the machine has /dev/shm: each input is written, and
   * saving syncs (g_file_set_contents), which costs a disk a flush. */
  folder = g_build_filename (g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : g_get_tmp_dir (),
                             "pv-fuzz-state-XXXXXX", NULL);
  if (g_mkdtemp (folder) == NULL)
    {
      perror ("fuzz-app-state: cannot make a folder");
      exit (1);
    }
  state_path = g_build_filename (folder, "state.ini", NULL);
  atexit (remove_folder);
  /* Models whose remembered configs the seeds name: one exists with a
   * config beside it, one not. */
  models[0] = g_file_new_for_path ("/tmp/pv-fuzz-model.onnx");
  models[1] = g_file_new_build_filename (folder, "m.onnx", NULL);
  return 0;
}

typedef struct {
  int ints[G_N_ELEMENTS (int_keys)];
  gboolean bools[G_N_ELEMENTS (bool_keys)];
  double share;
  char *page;
  char *configs[G_N_ELEMENTS (models)];
} Read;

static void
read_clear (Read *r)
{
  g_free (r->page);
  for (gsize i = 0; i < G_N_ELEMENTS (models); i++)
    g_free (r->configs[i]);
}

static void
read_state (PvAppState *state, Read *r)
{
  for (gsize i = 0; i < G_N_ELEMENTS (int_keys); i++)
    r->ints[i] = pv_app_state_get_int (state, int_keys[i], -7);
  for (gsize i = 0; i < G_N_ELEMENTS (bool_keys); i++)
    r->bools[i] = pv_app_state_get_boolean (state, bool_keys[i], 2);
  r->share = pv_app_state_get_double (state, "side-pane-share", -0.5);
  g_assert_true (isfinite (r->share));
  r->page = pv_app_state_dup_string (state, "side-page");
  for (gsize i = 0; i < G_N_ELEMENTS (models); i++)
    {
      g_autoptr (GFile) config = pv_app_state_dup_model_config (state, models[i]);
      r->configs[i] = config ? g_file_get_uri (config) : NULL;
    }
}

/* TRUE when every getter gave its fallback. */
static gboolean
read_nothing (const Read *r)
{
  for (gsize i = 0; i < G_N_ELEMENTS (int_keys); i++)
    if (r->ints[i] != -7)
      return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (bool_keys); i++)
    if (r->bools[i] != 2)
      return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (models); i++)
    if (r->configs[i])
      return FALSE;
  return r->share == -0.5 && r->page == NULL;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (PvAppState) state = NULL;
  g_autoptr (PvAppState) again = NULL;
  Read first = { 0 }, second = { 0 };

  if (!g_file_set_contents (state_path, (const char *) data, (gssize) size, &error))
    g_error ("fuzz-app-state: %s", error->message);
  state = pv_app_state_load (state_path);
  g_assert_cmpstr (pv_app_state_get_path (state), ==, state_path);
  read_state (state, &first);
  if (read_nothing (&first))
    {
      /* Nothing the window reads (an unreadable file reads as empty): the
       * round trip below would only save and read an empty file. */
      read_clear (&first);
      return 0;
    }

  /* What the window does on close: set its values, save over the file
   * (g_key_file_save_to_file), read it back: the rest is as it was. */
  pv_app_state_set_int (state, "planner", first.ints[2] == -7 ? 1 : first.ints[2]);
  pv_app_state_set_boolean (state, "maximized", first.bools[0] == 1);
  g_assert_true (pv_app_state_save (state, &error));
  g_assert_no_error (error);
  again = pv_app_state_load (state_path);
  read_state (again, &second);
  g_assert_cmpint (second.ints[2], ==, first.ints[2] == -7 ? 1 : first.ints[2]);
  g_assert_cmpint (second.bools[0], ==, first.bools[0] == 1);
  for (gsize i = 0; i < G_N_ELEMENTS (int_keys); i++)
    if (i != 2)
      g_assert_cmpint (second.ints[i], ==, first.ints[i]);
  for (gsize i = 1; i < G_N_ELEMENTS (bool_keys); i++)
    g_assert_cmpint (second.bools[i], ==, first.bools[i]);
  g_assert_true (second.share == first.share);
  g_assert_cmpstr (second.page, ==, first.page);
  for (gsize i = 0; i < G_N_ELEMENTS (models); i++)
    g_assert_cmpstr (second.configs[i], ==, first.configs[i]);
  read_clear (&first);
  read_clear (&second);
  return 0;
}
