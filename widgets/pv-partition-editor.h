/* pv-partition-editor.h: the partition config, as editable JSON.
 *
 * A GtkSourceView with JSON highlighting over the document's partition
 * text. Typing re-plans 150 ms after the last keystroke; what
 * pv_partition_config_check() finds in the text shows as icons in the
 * gutter, as underlines at the line and column at fault, and as a list
 * under the editor that ends with what ONNX Runtime 1.30 will do. */
#pragma once

#include <gtksourceview/gtksource.h>

#include "pv-side-page.h"

G_BEGIN_DECLS

/* Source mark categories of the findings. */
#define PV_PARTITION_MARK_ERROR "pv-partition-error"
#define PV_PARTITION_MARK_WARNING "pv-partition-warning"

/* Milliseconds between the last keystroke and the re-plan. */
#define PV_PARTITION_EDITOR_DELAY_MS 150

#define PV_TYPE_PARTITION_EDITOR (pv_partition_editor_get_type ())

G_DECLARE_FINAL_TYPE (PvPartitionEditor, pv_partition_editor, PV, PARTITION_EDITOR, PvSidePage)

GtkWidget       *pv_partition_editor_new           (void);

GtkSourceBuffer *pv_partition_editor_get_buffer    (PvPartitionEditor *self);
GtkSourceView   *pv_partition_editor_get_view      (PvPartitionEditor *self);
/* The buffer's text; free it. */
char            *pv_partition_editor_dup_text      (PvPartitionEditor *self);

/* Unsaved changes (the buffer's modified flag). */
gboolean         pv_partition_editor_get_modified  (PvPartitionEditor *self);
void             pv_partition_editor_set_modified  (PvPartitionEditor *self,
                                                    gboolean           modified);

/* Shows the document's partition text as just loaded: no undo history,
 * not modified (after pv_document_load_partition()). */
void             pv_partition_editor_reload        (PvPartitionEditor *self);
/* Re-plans now if an edit is waiting for its delay, and waits for the
 * document's plan of the text. */
void             pv_partition_editor_flush         (PvPartitionEditor *self);
/* An edit is waiting for its delay to re-plan. */
gboolean         pv_partition_editor_get_pending   (PvPartitionEditor *self);
/* Re-indents the JSON (@pretty: 2 spaces, one item a line; else compact,
 * as ONNX Runtime writes it). FALSE, text untouched, when it is not JSON. */
gboolean         pv_partition_editor_format        (PvPartitionEditor *self,
                                                    gboolean           pretty);
/* Replaces the text with ONNX Runtime's default config (undoable). */
void             pv_partition_editor_reset         (PvPartitionEditor *self);
/* Moves the nodes named @nodes to stream @stream (-1: a new stream) by
 * editing the config text with pv_partition_config_move_nodes(), as one
 * undoable change, and re-plans now. FALSE, text untouched, with @error
 * when the text cannot be edited that way, or when it has errors (the
 * timeline then shows an older plan, whose stream numbers the menu used). */
gboolean         pv_partition_editor_move_nodes    (PvPartitionEditor *self,
                                                    const char *const *nodes,
                                                    int                stream,
                                                    GError           **error);
/* The same, for a new stream (@stream -1) with device type @device in
 * "devices" (-1: the device of the stream the first node came from, as
 * pv_partition_editor_move_nodes() does); an existing @stream keeps its
 * device. */
gboolean         pv_partition_editor_move_nodes_to_device (PvPartitionEditor *self,
                                                           const char *const *nodes,
                                                           int                stream,
                                                           int                device,
                                                           GError           **error);
/* Number of findings marked in the gutter, of one category. */
guint            pv_partition_editor_count_marks   (PvPartitionEditor *self,
                                                    const char        *category);

G_END_DECLS
