/* gui-fixture.h: what every GUI test program shares.
 *
 * A Fixture is one fresh planviz window with a model opened in it (data:
 * the model's file name under PV_DATA_DIR, NULL for wide_branches.onnx, ""
 * for none); teardown saves a screenshot of the window under
 * PV_SCREENSHOT_DIR, named after the test path. The helpers run the main
 * loop until a condition holds, so tests drive the real window without
 * sleeping blindly. */
#pragma once

#include <gtk/gtk.h>

#include "pv-application.h"
#include "pv-summary-view.h"
#include "pv-window.h"
#include "pv-test-scale.h"

G_BEGIN_DECLS

#define WAIT_MS 20000

typedef struct {
  PvWindow *window;
  PvDocument *document;
  PvTimelineView *view;
  PvPartitionEditor *editor;
  char *tmpdir;
  guint plan_changes;
} Fixture;

typedef gboolean (*Condition) (Fixture *fx);

extern PvApplication *app;
extern const char *data_dir;
extern const char *screenshot_dir;

/* gtk_init, gtk_source_init, the application, the folders. Call first. */
void        gui_fixture_init      (int *argc, char ***argv);
/* g_test_run, then tears the application down. */
int         gui_fixture_run       (void);

/* A new window of the tests' application, remembering as planviz does. */
PvWindow   *new_window            (void);
void        fixture_setup         (Fixture *fx, gconstpointer data);
void        fixture_teardown      (Fixture *fx, gconstpointer data);
#define ADD(path, func, model) \
  g_test_add (path, Fixture, model, fixture_setup, func, fixture_teardown)

/* Runs the main loop until @cond holds (TRUE) or WAIT_MS (times
 * pv_test_time_scale()) pass (FALSE). */
gboolean    wait_until            (Fixture *fx, Condition cond);
/* The same for @ms milliseconds (times pv_test_time_scale()). */
gboolean    wait_until_ms         (Fixture *fx, Condition cond, int ms);
/* Runs the main loop for @ms milliseconds. */
void        spin                  (int ms);
/* The window is idle: nothing loading or waiting to re-plan. */
gboolean    settled               (Fixture *fx);
/* settled(), and every revealer in the window done sliding (a screenshot
 * mid-slide shows a bar half-covered). */
gboolean    still                 (Fixture *fx);
char       *data_path             (const char *name);
/* Opens a model (and a config) from PV_DATA_DIR and waits for its plan. */
void        open_model            (Fixture *fx, const char *model, const char *partition);
void        save_screenshot       (Fixture *fx);
/* Any toplevel (a dialog) as PNG @name in the screenshot folder. */
void        save_widget_screenshot (GtkWidget *widget, const char *name);
guint       n_streams_planned     (Fixture *fx);
/* Inserts @text right after the first match of @after (which must exist). */
void        insert_at_line_end    (GtkTextBuffer *buffer, const char *after, const char *text);
/* Waits for the next plan-changed after an edit (the editor waits for
 * typing to stop first): until fx->plan_changes > @before. */
void        wait_for_plan         (Fixture *fx, guint before);
/* Makes the editor's text a two-stream config by typing into it. */
void        type_second_stream    (Fixture *fx);
/* The first widget under @root, @root included, depth first, that @match
 * accepts with @data; NULL when none does. */
GtkWidget  *find_first            (GtkWidget *root,
                                   gboolean (*match) (GtkWidget *widget, gconstpointer data),
                                   gconstpointer data);
/* The first widget of @type under @root, @root included (find_first()). */
GtkWidget  *find_widget           (GtkWidget *root, GType type);
/* The first GtkMenuButton under @root whose label is @label. */
GtkWidget  *find_menu_button      (GtkWidget *root, const char *label);
/* The GtkPopoverMenu among @root's children (its context menu), or NULL. */
GtkWidget  *find_popover_menu     (GtkWidget *root);
/* The timeline view's context menu is shown and laid out. */
gboolean    menu_mapped           (Fixture *fx);
/* The first widget of @type in the window; asserts that there is one. */
GtkWidget  *window_widget         (Fixture *fx, GType type);
/* The stream ORT runs node @name in under the editor's text (asserted to be
 * a config ORT accepts); -1 when no stream holds it. */
int         stream_in_text        (Fixture *fx, const char *name);
/* Shows the Summary page of the side pane (for the screenshot). */
void        show_summary          (Fixture *fx);
/* A mapped toplevel of @type, waiting up to 4 s for one to appear. */
GtkWindow  *find_toplevel         (GType type);
GtkWindow  *wait_for_toplevel     (GType type);
gboolean    file_starts_with      (const char *path, const char *magic, gsize len);
/* planviz's state file in the tests' own XDG_CONFIG_HOME. */
char       *state_path            (void);
/* The big-endian 32-bit word at @p (a PNG's byte order), at any alignment. */
guint32     gui_be32              (const void *p);

G_END_DECLS
