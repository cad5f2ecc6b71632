/* pv-find-bar.h: Find (Ctrl+F) over the timeline.
 *
 * A search bar that finds, in the model the timeline draws, the kernels
 * whose node name or op type holds the text and the values (with a bar in
 * the memory view shown) whose name does, case-insensitively, in time
 * order. Found kernels are tinted in the timeline; the current match is
 * selected and panned into view. Enter and Ctrl+G go to the next match,
 * Shift+Enter and Ctrl+Shift+G to the previous one; Esc closes the bar. */
#pragma once

#include <gtk/gtk.h>

#include "pv-timeline-view.h"

G_BEGIN_DECLS

#define PV_TYPE_FIND_BAR (pv_find_bar_get_type ())

G_DECLARE_FINAL_TYPE (PvFindBar, pv_find_bar, PV, FIND_BAR, GtkWidget)

GtkWidget  *pv_find_bar_new            (void);
void        pv_find_bar_set_timeline   (PvFindBar      *self,
                                        PvTimelineView *timeline);
/* Shows the bar and focuses its entry, its text selected. */
void        pv_find_bar_open           (PvFindBar      *self);
gboolean    pv_find_bar_get_open       (PvFindBar      *self);
/* Moves to the next (@step 1) or previous (-1) match, wrapping around;
 * FALSE when there is none. */
gboolean    pv_find_bar_step           (PvFindBar      *self,
                                        int             step);
/* Searches again: the timeline shows another model (a re-plan, a body). */
void        pv_find_bar_refresh        (PvFindBar      *self);
guint       pv_find_bar_get_n_matches  (PvFindBar      *self);
/* The current match's index, -1 without one. */
int         pv_find_bar_get_current    (PvFindBar      *self);
GtkEditable *pv_find_bar_get_entry     (PvFindBar      *self);

G_END_DECLS
