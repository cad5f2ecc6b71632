/* pv-partition-editor-private.h: PvPartitionEditor's insides, shared by
 * pv-partition-editor.c (text, re-plans, actions) and
 * pv-partition-editor-findings.c (gutter marks, underlines, the list). */
#pragma once

#include "pv-partition-editor.h"

G_BEGIN_DECLS

struct _PvPartitionEditor
{
  PvSidePage parent_instance;

  GtkSourceBuffer *buffer;
  GtkTextTag *error_tag;
  GtkTextTag *warning_tag;
  /* One source for the editor's life: each keystroke pushes its ready
   * time out by the delay; it fires once typing stops. */
  GSource *replan_source;

  /* template children */
  GtkLabel *file_label;
  GtkSourceView *view;
  GtkWidget *status_box;
  GtkImage *status_icon;
  GtkLabel *status_label;
  GtkWidget *findings_scroller;
  GtkListBox *findings_list;

  guint findings_plan;        /* the document's n_plans the findings are of */
  guint setting_text : 1;
};

static inline PvDocument *
editor_document (PvPartitionEditor *self)
{
  return pv_side_page_get_document (PV_SIDE_PAGE (self));
}

/* The tags and mark categories the findings use; once, in init. */
void _pv_partition_editor_findings_init (PvPartitionEditor *self);
/* The findings of the document's latest check, placed in the text they
 * were made for (while newer text waits for its re-plan, the old ones
 * stay), and the status line under the editor. */
void _pv_partition_editor_update_findings (PvPartitionEditor *self);
/* The template's row-activated handler: the cursor goes to the finding. */
void _pv_partition_editor_finding_row_activated_cb (PvPartitionEditor *self,
                                                    GtkListBoxRow     *row,
                                                    GtkListBox        *list);

G_END_DECLS
