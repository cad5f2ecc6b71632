#include "pv-model.h"

void
pv_model_free (PvModel *model)
{
  if (model == NULL)
    return;
  g_free (model->source_name);
  g_free (model->producer_name);
  g_free (model->producer_version);
  g_free (model->domain);
  g_free (model->opsets);
  g_strfreev (model->metadata_keys);
  g_strfreev (model->metadata_values);
  g_strfreev (model->session_rewrites);
  /* The graph owns the string chunk the opset domains live in: free it last. */
  pv_graph_free (model->graph);
  g_free (model);
}

gint64
pv_model_opset_version (const PvModel *model, const char *domain)
{
  if (g_strcmp0 (domain, "ai.onnx") == 0)
    domain = "";
  for (int i = 0; i < model->n_opsets; i++)
    if (g_strcmp0 (model->opsets[i].domain, domain) == 0)
      return model->opsets[i].version;
  return 0;
}
