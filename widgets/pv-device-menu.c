/* pv-device-menu.c: "Run on GPU / CPU" items for a set of kernels. */
#include "pv-device-menu.h"

#include "pv-partition-config.h"

/* The devices offered, in menu order: the GPU first, as the reason to
 * open the menu is usually to try a kernel there. */
static const int offered[] = { PV_DEVICE_GPU, PV_DEVICE_CPU };

/* TRUE if every one of @nodes runs on a stream lane of @device. */
static gboolean
all_on_device (const PvTimelineModel *m, const int *nodes, guint n_nodes, int device)
{
  for (guint i = 0; i < n_nodes; i++)
    {
      int k = m->node_kernel[nodes[i]];
      if (k < 0 || m->streams[m->kernels[k].lane].device != device)
        return FALSE;
    }
  return TRUE;
}

/* TRUE if every one of @nodes runs on stream lane @s. */
static gboolean
all_on_lane (const PvTimelineModel *m, const int *nodes, guint n_nodes, int s)
{
  for (guint i = 0; i < n_nodes; i++)
    {
      int k = m->node_kernel[nodes[i]];
      if (k < 0 || m->kernels[k].lane != s)
        return FALSE;
    }
  return TRUE;
}

static GMenuItem *
item_new (const char *label, const char *action, int device, int stream)
{
  GMenuItem *item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target_value (item, action, g_variant_new ("(ii)", device, stream));
  return item;
}

/* The streams that run on @device, as items, into @sub; how many. */
static int
append_streams (GMenu *sub, const PvTimelineModel *m, const int *nodes, guint n_nodes, int device,
                const char *action)
{
  int n = 0;

  for (int s = 0; s < m->n_streams; s++)
    {
      g_autoptr (GMenuItem) item = NULL;
      g_autofree char *label = NULL;

      if (m->streams[s].device != device || all_on_lane (m, nodes, n_nodes, s))
        continue;
      label = g_strdup_printf ("Stream %d (%s)", m->streams[s].id, m->streams[s].detail ? m->streams[s].detail : "");
      item = item_new (label, action, device, m->streams[s].id);
      g_menu_append_item (sub, item);
      n++;
    }
  return n;
}

GMenu *
pv_device_menu_new (const PvTimelineModel *m, const int *nodes, guint n_nodes, const char *action)
{
  GMenu *menu = g_menu_new ();

  g_return_val_if_fail (m != NULL && action != NULL, menu);

  /* ORT ignores the config in subgraph bodies: their nodes run on their
   * owner's device. */
  if (!m->has_plan || n_nodes == 0 || m->graph->parent != NULL)
    return menu;
  for (guint d = 0; d < G_N_ELEMENTS (offered); d++)
    {
      int device = offered[d];
      const char *name = pv_device_type_name (device);
      g_autofree char *label = g_strdup_printf ("Run on %s (device %d)", name, device);
      g_autofree char *new_label = g_strdup_printf ("New Stream on %s", name);
      g_autoptr (GMenu) sub = g_menu_new ();
      g_autoptr (GMenu) existing = g_menu_new ();

      if (all_on_device (m, nodes, n_nodes, device))
        continue;
      if (append_streams (existing, m, nodes, n_nodes, device, action) == 0)
        {
          g_autoptr (GMenuItem) item = item_new (label, action, device, -1);
          g_menu_append_item (menu, item);
          continue;
        }
      {
        g_autoptr (GMenuItem) item = item_new (new_label, action, device, -1);
        g_menu_append_item (sub, item);
      }
      g_menu_append_section (sub, NULL, G_MENU_MODEL (existing));
      g_menu_append_submenu (menu, label, G_MENU_MODEL (sub));
    }
  return menu;
}
