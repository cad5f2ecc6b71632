#include "pv-node-limit.h"

#include <gio/gio.h>

#include "pv-model-loader.h"

gboolean
pv_node_limit_from_environment (guint64 *limit, GError **error)
{
  const char *text = g_getenv (PV_NODE_LIMIT_VARIABLE);
  g_autoptr (GError) local_error = NULL;

  *limit = PV_MODEL_DEFAULT_MAX_NODES;
  if (text == NULL || *text == '\0')
    return TRUE;
  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXINT64, limit, &local_error))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s wants a number of nodes from 0 (no limit) to %" G_GINT64_FORMAT ", not “%s”",
                   PV_NODE_LIMIT_VARIABLE, G_MAXINT64, text);
      return FALSE;
    }
  return TRUE;
}

const char *
pv_node_limit_hint (void)
{
  return "To plan it anyway, set " PV_NODE_LIMIT_VARIABLE "=N (N nodes at most; 0: no limit).";
}
