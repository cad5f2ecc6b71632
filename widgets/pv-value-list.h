/* pv-value-list.h: every value of a plan session as a GListModel.
 *
 * pv_value_list_new() copies what a table of values shows (producer, bytes,
 * alloc kind, buffer / slot / offset of one planner, live interval) into
 * plain arrays in one pass; the PvValueRow items are made only when asked
 * for (a list widget asks for the visible rows, a sorter or a filter for
 * all of them) and kept. Shape and search texts are made on first use.
 *
 * A list borrows the session it was built from: drop it (or call
 * pv_value_list_detach()) before the session is freed. Rows keep their
 * copied fields after that; their shape text becomes "". */
#pragma once

#include <gio/gio.h>

#include "pv-plan-export.h"
#include "pv-session.h"

G_BEGIN_DECLS

#define PV_TYPE_VALUE_ROW (pv_value_row_get_type ())
G_DECLARE_FINAL_TYPE (PvValueRow, pv_value_row, PV, VALUE_ROW, GObject)

#define PV_TYPE_VALUE_LIST (pv_value_list_get_type ())
G_DECLARE_FINAL_TYPE (PvValueList, pv_value_list, PV, VALUE_LIST, GObject)

/* What a row is compared and shown by. */
typedef enum {
  PV_VALUE_FIELD_NAME,
  PV_VALUE_FIELD_PRODUCER,
  PV_VALUE_FIELD_SHAPE,
  PV_VALUE_FIELD_BYTES,
  PV_VALUE_FIELD_KIND,
  PV_VALUE_FIELD_PLACE,      /* buffer, slot or arena offset */
  PV_VALUE_FIELD_LIVE,       /* live interval (by start, then end) */
  PV_VALUE_N_FIELDS,
} PvValueField;

/* One row per value of the session's main graph, in value id order.
 * @planner picks what the buffer / slot / offset column holds. */
PvValueList *pv_value_list_new            (const PvSession *session,
                                           PvPlannerKind    planner);
/* Re-reads every row from @session when it plans the same graph (a new
 * partition, planner or bound), keeping the rows and emitting nothing:
 * views re-read what they show. FALSE (nothing changed) for another graph.
 * @search_changed (may be NULL): the search texts are gone (some kind
 * changed, or there were none): prepare and filter again. */
gboolean     pv_value_list_update         (PvValueList     *self,
                                           const PvSession *session,
                                           PvPlannerKind    planner,
                                           gboolean        *search_changed);
/* Forgets the session (its shape texts are no longer made). */
void         pv_value_list_detach         (PvValueList     *self);
/* The position of the value called @name (its value id), or -1. */
int          pv_value_list_find_name      (PvValueList     *self,
                                           const char      *name);
/* Lower-cases the search texts of every row once, so that filtering
 * afterwards is a substring test per row. */
void         pv_value_list_prepare_search (PvValueList     *self);

int          pv_value_row_get_value       (PvValueRow      *self);
const char  *pv_value_row_get_name        (PvValueRow      *self);
/* The producer node id, -1 for graph inputs and initializers. */
int          pv_value_row_get_producer    (PvValueRow      *self);
/* Bytes when known, 0 otherwise. */
guint64      pv_value_row_get_bytes       (PvValueRow      *self);
/* Schedule-time live interval; FALSE when the value is never live. */
gboolean     pv_value_row_get_live        (PvValueRow      *self,
                                           double          *start,
                                           double          *end);
/* The text shown in a column ("Conv  /conv/Conv", "1.5 MiB", "slot 3",
 * "12–40"); owned by the row. */
const char  *pv_value_row_get_text        (PvValueRow      *self,
                                           PvValueField     field);
/* Whether the lower-cased @needle occurs in the row's name, producer node
 * name, op type or kind (pv_value_list_prepare_search() first). */
gboolean     pv_value_row_matches         (PvValueRow      *self,
                                           const char      *needle);
/* Orders two rows of one list by @field (numbers numerically). */
int          pv_value_row_compare         (PvValueRow      *a,
                                           PvValueRow      *b,
                                           PvValueField     field);

G_END_DECLS
