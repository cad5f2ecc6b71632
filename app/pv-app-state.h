/* pv-app-state.h: what planviz remembers between runs.
 *
 * A GKeyFile at g_get_user_config_dir()/planviz/state.ini (planviz runs
 * uninstalled, so no GSettings schema): the last closed window's size,
 * maximized state, side pane width and page, planner, registry and view
 * toggles, and the partition config last used with each model (keyed by
 * the model's absolute URI). A missing, unreadable or corrupt file reads as
 * empty (a g_debug() says why); saving writes a temporary file and renames
 * it (g_file_set_contents). Every call reads the file afresh, so windows
 * and instances do not overwrite each other's entries. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define PV_TYPE_APP_STATE (pv_app_state_get_type ())

G_DECLARE_FINAL_TYPE (PvAppState, pv_app_state, PV, APP_STATE, GObject)

/* The state file's path; free it. */
char          *pv_app_state_dup_default_path       (void);

/* Reads @path (NULL: the default path). Never fails. */
PvAppState    *pv_app_state_load                   (const char   *path);
/* Writes the state to its path, creating the folder. */
gboolean       pv_app_state_save                   (PvAppState   *self,
                                                    GError      **error);
const char    *pv_app_state_get_path               (PvAppState   *self);

/* Typed access to [window]; the getters return @fallback when the key is
 * missing or not of the type. */
int            pv_app_state_get_int                (PvAppState   *self,
                                                    const char   *key,
                                                    int           fallback);
void           pv_app_state_set_int                (PvAppState   *self,
                                                    const char   *key,
                                                    int           value);
/* Finite values only: NaN or infinity read as @fallback. */
double         pv_app_state_get_double             (PvAppState   *self,
                                                    const char   *key,
                                                    double        fallback);
void           pv_app_state_set_double             (PvAppState   *self,
                                                    const char   *key,
                                                    double        value);
gboolean       pv_app_state_get_boolean            (PvAppState   *self,
                                                    const char   *key,
                                                    gboolean      fallback);
void           pv_app_state_set_boolean            (PvAppState   *self,
                                                    const char   *key,
                                                    gboolean      value);
/* NULL when missing; free it. */
char          *pv_app_state_dup_string             (PvAppState   *self,
                                                    const char   *key);
void           pv_app_state_set_string             (PvAppState   *self,
                                                    const char   *key,
                                                    const char   *value);

/* The config remembered for @model, when it is a local file that still
 * exists; else NULL. Free it. */
GFile         *pv_app_state_dup_model_config       (PvAppState   *self,
                                                    GFile        *model);
void           pv_app_state_set_model_config       (PvAppState   *self,
                                                    GFile        *model,
                                                    GFile        *config);

/* Load, set @model's config, save: what the window calls when a config is
 * opened or saved. A failure to save is a g_debug(), not an error. */
void           pv_app_state_remember_model_config  (GFile        *model,
                                                    GFile        *config);

G_END_DECLS
