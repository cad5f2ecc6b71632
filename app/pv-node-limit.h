/* pv-node-limit.h: the most nodes planviz and planviz-cli load, from the
 * environment: PLANVIZ_MAX_NODES=N raises or lowers the loader's default
 * (PV_MODEL_DEFAULT_MAX_NODES), 0 removes the limit. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define PV_NODE_LIMIT_VARIABLE "PLANVIZ_MAX_NODES"

/* The limit to load with. FALSE with a message when the variable is set to
 * something other than a whole number from 0 to 2^63 − 1. */
gboolean pv_node_limit_from_environment (guint64 *limit, GError **error);

/* The sentence that follows a PV_MODEL_ERROR_TOO_MANY_NODES message: how to
 * load the model anyway. */
const char *pv_node_limit_hint (void);

G_END_DECLS
