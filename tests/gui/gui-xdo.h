/* gui-xdo.h: real X input for GUI tests: xdotool sends key, wheel, button
 * and motion events through the X server (XTEST) under Xvfb, as a user's
 * devices would. */
#pragma once

#include "gui-fixture.h"

G_BEGIN_DECLS

/* Finds xdotool; FALSE (after printing a TAP skip plan) when it is not
 * installed, and the test program should return 0. */
gboolean gui_xdo_init (void);
void     gui_xdo_shutdown (void);

/* The X window id of @fx's window. */
gulong   window_xid (Fixture *fx);

/* Runs xdotool with @format's arguments (split at spaces); a failure is
 * fatal. */
void     xdo (const char *format, ...) G_GNUC_PRINTF (1, 2);

/* A point of the timeline view in the X window's coordinates (the
 * toplevel's surface includes its client-side shadow). */
void     view_to_window (Fixture *fx, double x, double y, int *wx, int *wy);

G_END_DECLS
