/* pv-window-recent.c: the window's Open Recent menu and the empty page's
 * list of the models planviz opened lately (pv-recent.h), win.open-recent. */
#include "pv-window-private.h"

#include "pv-recent.h"

/* Menu labels take mnemonics: "wide_branches" would lose its '_'. */
static char *
escape_mnemonic (const char *text)
{
  GString *escaped = g_string_new (NULL);

  for (const char *p = text; *p; p++)
    {
      if (*p == '_')
        g_string_append_c (escaped, '_');
      g_string_append_c (escaped, *p);
    }
  return g_string_free (escaped, FALSE);
}

/* A folder as people write it: "~/models" under the home folder. */
static char *
display_folder (GFile *file)
{
  g_autoptr (GFile) parent = g_file_get_parent (file);
  g_autoptr (GFile) home = g_file_new_for_path (g_get_home_dir ());
  g_autofree char *relative = NULL;

  if (parent == NULL)
    return g_strdup ("");
  if (g_file_equal (parent, home))
    return g_strdup ("~");
  relative = g_file_get_relative_path (home, parent);
  if (relative)
    return g_build_filename ("~", relative, NULL);
  return g_file_get_parse_name (parent);
}

/* The menu shows file names; two models of the same name get their
 * folders' names too. */
static char *
menu_label (char **uris, int index)
{
  g_autoptr (GFile) file = g_file_new_for_uri (uris[index]);
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *label = NULL;
  gboolean shared = FALSE;

  for (int i = 0; uris[i] && !shared; i++)
    {
      g_autoptr (GFile) other = g_file_new_for_uri (uris[i]);
      g_autofree char *other_name = g_file_get_basename (other);
      shared = i != index && g_strcmp0 (name, other_name) == 0;
    }
  if (shared)
    {
      g_autoptr (GFile) parent = g_file_get_parent (file);
      g_autofree char *folder = parent ? g_file_get_basename (parent) : g_strdup ("/");
      label = g_strdup_printf ("%s — %s", name, folder);
    }
  else
    label = g_steal_pointer (&name);
  return escape_mnemonic (label);
}

static GtkWidget *
recent_button (GFile *file, const char *uri)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *folder = display_folder (file);
  g_autofree char *path = g_file_get_parse_name (file);
  GtkWidget *button = gtk_button_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *name_label = gtk_label_new (name);
  GtkWidget *folder_label = gtk_label_new (folder);

  gtk_label_set_xalign (GTK_LABEL (name_label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name_label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_hexpand (name_label, TRUE);
  gtk_label_set_xalign (GTK_LABEL (folder_label), 1);
  gtk_label_set_ellipsize (GTK_LABEL (folder_label), PANGO_ELLIPSIZE_START);
  gtk_label_set_max_width_chars (GTK_LABEL (folder_label), 36);
  gtk_widget_add_css_class (folder_label, "dim-label");
  gtk_widget_add_css_class (folder_label, "caption");
  gtk_box_append (GTK_BOX (box), name_label);
  gtk_box_append (GTK_BOX (box), folder_label);
  gtk_button_set_child (GTK_BUTTON (button), box);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, "pv-recent-model");
  gtk_widget_set_tooltip_text (button, path);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.open-recent");
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), g_variant_new_string (uri));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, path, -1);
  return button;
}

void
_pv_window_recent_update (PvWindow *self)
{
  g_auto (GStrv) uris = pv_recent_dup_models (gtk_recent_manager_get_default (), PV_RECENT_MAX);
  GtkWidget *child;

  g_menu_remove_all (self->recent_menu);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))))
    gtk_box_remove (self->recent_list, child);

  for (int i = 0; uris[i]; i++)
    {
      g_autoptr (GFile) file = g_file_new_for_uri (uris[i]);
      g_autofree char *label = menu_label (uris, i);
      g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target_value (item, "win.open-recent", g_variant_new_string (uris[i]));
      g_menu_append_item (self->recent_menu, item);
      /* The empty page lists the few newest. */
      if (i < 5)
        gtk_box_append (self->recent_list, recent_button (file, uris[i]));
    }
  if (uris[0] == NULL)
    {
      g_autoptr (GMenuItem) item = g_menu_item_new ("No Recent Models", "win.no-recent");
      g_menu_append_item (self->recent_menu, item);
    }
  gtk_widget_set_visible (self->recent_box, uris[0] != NULL);
}

static void
recent_changed_cb (PvWindow *self, GtkRecentManager *manager)
{
  /* A closed window lingers while its last load finishes; its template
   * children are gone by then. */
  if (self->recent_menu == NULL || self->recent_list == NULL)
    return;
  _pv_window_recent_update (self);
}

static void
open_recent_action (GtkWidget *widget, const char *name, GVariant *param)
{
  PvWindow *self = PV_WINDOW (widget);
  const char *uri = g_variant_get_string (param, NULL);
  g_autoptr (GFile) file = g_file_new_for_uri (uri);

  if (!g_file_query_exists (file, NULL))
    {
      g_autofree char *path = g_file_get_parse_name (file);
      g_autofree char *message = g_strdup_printf ("%s no longer exists", path);
      pv_window_show_error (self, message);
      _pv_window_recent_update (self);
      return;
    }
  pv_window_open (self, file, NULL);
}

/* Never enabled: it only greys out the "No Recent Models" placeholder. */
static void
no_recent_action (GtkWidget *widget, const char *name, GVariant *param)
{
}

void
_pv_window_recent_init (PvWindow *self)
{
  g_signal_connect_object (gtk_recent_manager_get_default (), "changed", G_CALLBACK (recent_changed_cb), self,
                           G_CONNECT_SWAPPED);
  /* The placeholder item is shown greyed out. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.no-recent", FALSE);
  _pv_window_recent_update (self);
}

void
_pv_window_class_recent_init (PvWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.no-recent", NULL, no_recent_action);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, recent_menu);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, recent_box);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, recent_list);
}
