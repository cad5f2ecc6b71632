#include "render-fixture.h"

#include <string.h>

void
render_fixture_free (RenderFixture *f)
{
  if (f == NULL)
    return;
  pv_timeline_model_unref (f->timeline);
  pv_session_free (f->session);
  g_free (f->partition);
  if (f->bounds)
    g_hash_table_unref (f->bounds);
  pv_kernel_table_free (f->kernels);
  pv_model_free (f->model);
  g_free (f);
}

static char *
round_robin_config (const PvGraph *g, int n_streams)
{
  GString *s = g_string_new ("{\"type\":\"DeviceBasedPartitioner\",\"devices\":[");

  for (int st = 0; st < n_streams; st++)
    g_string_append (s, st ? ",\"0\"" : "\"0\"");
  g_string_append (s, "],\"streams\":[");
  for (int st = 0; st < n_streams; st++)
    {
      gboolean first = TRUE;
      g_string_append (s, st ? ",[" : "[");
      for (int i = st; i < g->n_nodes; i += n_streams)
        {
          g_autofree char *name = g_strescape (g->nodes[g->order[i]].name, NULL);
          g_string_append_printf (s, "%s\"%s\"", first ? "" : ",", name);
          first = FALSE;
        }
      g_string_append_c (s, ']');
    }
  g_string_append (s, "]}");
  return g_string_free (s, FALSE);
}

RenderFixture *
render_fixture_new (const char *path, const char *const *bounds, int round_robin_streams, GError **error)
{
  g_autoptr (RenderFixture) f = g_new0 (RenderFixture, 1);
  PvSessionOptions options = { 0 };
  PvTimelineSource source;

  f->model = pv_model_load_from_file (path, error);
  if (f->model == NULL)
    return NULL;
  f->kernels = pv_kernel_table_new_default (error);
  if (f->kernels == NULL)
    return NULL;
  f->bounds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (int i = 0; bounds && bounds[i]; i++)
    {
      const char *eq = strchr (bounds[i], '=');
      gint64 value;
      g_assert (eq != NULL);
      value = g_ascii_strtoll (eq + 1, NULL, 10);
      g_hash_table_replace (f->bounds, g_strndup (bounds[i], eq - bounds[i]), g_memdup2 (&value, sizeof value));
    }
  options.bounds = f->bounds;
  if (round_robin_streams > 1)
    {
      f->partition = round_robin_config (f->model->graph, round_robin_streams);
      options.partition_text = f->partition;
      options.partition_len = strlen (f->partition);
    }
  f->session = pv_session_new (f->model, f->kernels, &options, error);
  if (f->session == NULL)
    return NULL;
  pv_timeline_source_init_from_session (&source, f->session);
  f->timeline = pv_timeline_model_new (&source);
  return g_steal_pointer (&f);
}
