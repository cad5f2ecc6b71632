/* pv-recent.c: the models planviz opened lately (the window shows them:
 * pv-window-recent.c). */
#include "pv-recent.h"

void
pv_recent_add_model (GtkRecentManager *manager, GFile *model)
{
  g_autofree char *uri = NULL;
  GtkRecentData data = {
    .display_name = NULL,
    .description = NULL,
    .mime_type = (char *) "application/octet-stream",
    .app_name = (char *) PV_RECENT_APP_NAME,
    .app_exec = (char *) "planviz %u",
    .groups = NULL,
    .is_private = FALSE,
  };

  g_return_if_fail (GTK_IS_RECENT_MANAGER (manager));
  g_return_if_fail (G_IS_FILE (model));

  uri = g_file_get_uri (model);
  gtk_recent_manager_add_full (manager, uri, &data);
}

void
pv_recent_forget_model (GtkRecentManager *manager, GFile *model)
{
  g_autofree char *uri = NULL;

  g_return_if_fail (GTK_IS_RECENT_MANAGER (manager));
  g_return_if_fail (G_IS_FILE (model));

  uri = g_file_get_uri (model);
  if (gtk_recent_manager_has_item (manager, uri))
    gtk_recent_manager_remove_item (manager, uri, NULL);
}

typedef struct {
  GtkRecentInfo *info;
  GDateTime *stamp;
} Entry;

static int
entry_newer_first (gconstpointer a, gconstpointer b)
{
  const Entry *ea = a, *eb = b;
  return g_date_time_compare (eb->stamp, ea->stamp);
}

char **
pv_recent_dup_models (GtkRecentManager *manager, guint max)
{
  GList *items;
  g_autoptr (GArray) entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  GPtrArray *uris = g_ptr_array_new ();

  g_return_val_if_fail (GTK_IS_RECENT_MANAGER (manager), NULL);

  items = gtk_recent_manager_get_items (manager);
  for (GList *l = items; l; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      const char *uri = gtk_recent_info_get_uri (info);
      Entry entry = { info, NULL };

      /* get_application_info() warns about an application not listed. */
      if (!g_str_has_suffix (uri, ".onnx") || !gtk_recent_info_is_local (info) ||
          !gtk_recent_info_has_application (info, PV_RECENT_APP_NAME) ||
          !gtk_recent_info_get_application_info (info, PV_RECENT_APP_NAME, NULL, NULL, &entry.stamp) ||
          entry.stamp == NULL || !gtk_recent_info_exists (info))
        continue;
      g_array_append_val (entries, entry);
    }
  g_array_sort (entries, entry_newer_first);
  for (guint i = 0; i < entries->len && uris->len < max; i++)
    g_ptr_array_add (uris, g_strdup (gtk_recent_info_get_uri (g_array_index (entries, Entry, i).info)));
  g_ptr_array_add (uris, NULL);
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  return (char **) g_ptr_array_free (uris, FALSE);
}
