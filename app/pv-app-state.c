/* pv-app-state.c: what planviz remembers between runs, in a GKeyFile. */
#include "pv-app-state.h"

#include <math.h>

#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

#include "pv-read-file.h"

#define WINDOW_GROUP "window"
#define CONFIGS_GROUP "partition-configs"
/* A state file is a few lines per model: anything bigger is not ours. */
#define STATE_LIMIT ((gsize) 16 * 1024 * 1024)

struct _PvAppState
{
  GObject parent_instance;

  char *path;
  GKeyFile *keys;
};

G_DEFINE_FINAL_TYPE (PvAppState, pv_app_state, G_TYPE_OBJECT)

char *
pv_app_state_dup_default_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "planviz", "state.ini", NULL);
}

/* GKeyFile takes "\r\n" for a line end, but writes a value it was not
 * asked to change back as it read it: a value that still ends in '\r'
 * ("a\r\r\n", "a\r" at the end of the file) would lose it on the next
 * load, and the window would not read back what it saved. So every line
 * loses all its trailing '\r' here, in one pass. A NUL byte (GKeyFile would
 * cut its line there) makes the file one we cannot use. */
static gboolean
normalise_line_ends (char *text, gsize *len, GError **error)
{
  const char *nul = memchr (text, '\0', *len);
  gsize j = 0;

  if (nul != NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "a NUL byte at offset %" G_GSIZE_FORMAT,
                   (gsize) (nul - text));
      return FALSE;
    }
  for (gsize i = 0; i < *len; i++)
    {
      gsize end = i;

      if (text[i] != '\r')
        {
          text[j++] = text[i];
          continue;
        }
      while (end < *len && text[end] == '\r')
        end++;
      if (end < *len && text[end] != '\n')
        {
          memmove (text + j, text + i, end - i);
          j += end - i;
        }
      i = end - 1;
    }
  text[j] = '\0';
  *len = j;
  return TRUE;
}

PvAppState *
pv_app_state_load (const char *path)
{
  PvAppState *self = g_object_new (PV_TYPE_APP_STATE, NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  gsize len = 0;

  self->path = path ? g_strdup (path) : pv_app_state_dup_default_path ();
  if (!pv_read_file (self->path, STATE_LIMIT, &text, &len, &error) || !normalise_line_ends (text, &len, &error)
      || !g_key_file_load_from_data (self->keys, text, len, G_KEY_FILE_KEEP_COMMENTS, &error))
    {
      /* First run, or a file we cannot use: start from nothing. */
      if (!g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_debug ("ignoring the state file %s: %s", self->path, error->message);
      g_key_file_free (self->keys);
      self->keys = g_key_file_new ();
    }
  return self;
}

gboolean
pv_app_state_save (PvAppState *self, GError **error)
{
  g_autofree char *folder = NULL;

  g_return_val_if_fail (PV_IS_APP_STATE (self), FALSE);

  folder = g_path_get_dirname (self->path);
  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      int saved_errno = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno), "Cannot create %s: %s", folder,
                   g_strerror (saved_errno));
      return FALSE;
    }
  /* g_key_file_save_to_file() goes through g_file_set_contents(): a
   * temporary file renamed over the old one. */
  return g_key_file_save_to_file (self->keys, self->path, error);
}

const char *
pv_app_state_get_path (PvAppState *self)
{
  g_return_val_if_fail (PV_IS_APP_STATE (self), NULL);
  return self->path;
}

int
pv_app_state_get_int (PvAppState *self, const char *key, int fallback)
{
  g_autoptr (GError) error = NULL;
  int value;

  g_return_val_if_fail (PV_IS_APP_STATE (self), fallback);

  value = g_key_file_get_integer (self->keys, WINDOW_GROUP, key, &error);
  return error ? fallback : value;
}

void
pv_app_state_set_int (PvAppState *self, const char *key, int value)
{
  g_return_if_fail (PV_IS_APP_STATE (self));
  g_key_file_set_integer (self->keys, WINDOW_GROUP, key, value);
}

double
pv_app_state_get_double (PvAppState *self, const char *key, double fallback)
{
  g_autoptr (GError) error = NULL;
  double value;

  g_return_val_if_fail (PV_IS_APP_STATE (self), fallback);

  value = g_key_file_get_double (self->keys, WINDOW_GROUP, key, &error);
  return error || !isfinite (value) ? fallback : value;
}

void
pv_app_state_set_double (PvAppState *self, const char *key, double value)
{
  g_return_if_fail (PV_IS_APP_STATE (self));
  g_key_file_set_double (self->keys, WINDOW_GROUP, key, value);
}

gboolean
pv_app_state_get_boolean (PvAppState *self, const char *key, gboolean fallback)
{
  g_autoptr (GError) error = NULL;
  gboolean value;

  g_return_val_if_fail (PV_IS_APP_STATE (self), fallback);

  value = g_key_file_get_boolean (self->keys, WINDOW_GROUP, key, &error);
  return error ? fallback : value;
}

void
pv_app_state_set_boolean (PvAppState *self, const char *key, gboolean value)
{
  g_return_if_fail (PV_IS_APP_STATE (self));
  g_key_file_set_boolean (self->keys, WINDOW_GROUP, key, value);
}

char *
pv_app_state_dup_string (PvAppState *self, const char *key)
{
  g_return_val_if_fail (PV_IS_APP_STATE (self), NULL);
  return g_key_file_get_string (self->keys, WINDOW_GROUP, key, NULL);
}

void
pv_app_state_set_string (PvAppState *self, const char *key, const char *value)
{
  g_return_if_fail (PV_IS_APP_STATE (self));
  g_key_file_set_string (self->keys, WINDOW_GROUP, key, value);
}

/* Key file keys cannot hold '[', ']' or '=' nor start or end with
 * spaces: the URI is stored as the value of an escaped key. */
static char *
model_key (GFile *model)
{
  g_autofree char *uri = g_file_get_uri (model);
  return g_uri_escape_string (uri, NULL, FALSE);
}

GFile *
pv_app_state_dup_model_config (PvAppState *self, GFile *model)
{
  g_autofree char *key = NULL, *uri = NULL;
  g_autoptr (GFile) config = NULL;

  g_return_val_if_fail (PV_IS_APP_STATE (self), NULL);
  g_return_val_if_fail (G_IS_FILE (model), NULL);

  key = model_key (model);
  uri = g_key_file_get_string (self->keys, CONFIGS_GROUP, key, NULL);
  if (uri == NULL || !g_str_has_prefix (uri, "file:"))
    return NULL;
  config = g_file_new_for_uri (uri);
  /* Only a regular file: the path may have become a FIFO or a device. */
  if (g_file_query_file_type (config, G_FILE_QUERY_INFO_NONE, NULL) != G_FILE_TYPE_REGULAR)
    return NULL;
  return g_steal_pointer (&config);
}

void
pv_app_state_set_model_config (PvAppState *self, GFile *model, GFile *config)
{
  g_autofree char *key = NULL, *uri = NULL;

  g_return_if_fail (PV_IS_APP_STATE (self));
  g_return_if_fail (G_IS_FILE (model));
  g_return_if_fail (G_IS_FILE (config));

  key = model_key (model);
  uri = g_file_get_uri (config);
  g_key_file_set_string (self->keys, CONFIGS_GROUP, key, uri);
}

void
pv_app_state_remember_model_config (GFile *model, GFile *config)
{
  g_autoptr (PvAppState) state = pv_app_state_load (NULL);
  g_autoptr (GError) error = NULL;

  pv_app_state_set_model_config (state, model, config);
  if (!pv_app_state_save (state, &error))
    g_debug ("cannot save the state file %s: %s", state->path, error->message);
}

static void
pv_app_state_finalize (GObject *object)
{
  PvAppState *self = (PvAppState *) object;

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->keys, g_key_file_free);
  G_OBJECT_CLASS (pv_app_state_parent_class)->finalize (object);
}

static void
pv_app_state_class_init (PvAppStateClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = pv_app_state_finalize;
}

static void
pv_app_state_init (PvAppState *self)
{
  self->keys = g_key_file_new ();
}
