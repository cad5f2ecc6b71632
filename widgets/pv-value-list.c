/* pv-value-list.c: every value of a plan session as a GListModel. */
#include "pv-value-list.h"

#include <string.h>

#include "pv-element-type.h"
#include "pv-format.h"

/* What every row of one list shares: plain arrays indexed by value id,
 * filled in one pass; texts made on first use. Reference counted (rcbox):
 * the list and each of its rows hold it. */
typedef struct {
  int n;
  const PvSession *session;   /* borrowed; NULL once detached */
  const PvGraph *graph;       /* the session's main graph; NULL once detached */
  PvPlannerKind planner;
  guint64 *bytes;
  double *start, *end;        /* start < 0: never live */
  gint64 *place;              /* buffer, slot or offset; -1: none */
  gint8 *kind;                /* PvOrtAllocKind */
  char **text[PV_VALUE_N_FIELDS];
  char *search;               /* lower-cased search texts, NUL-separated */
  gsize *search_at;           /* value id -> offset into search */
} Table;

struct _PvValueRow
{
  GObject parent_instance;

  Table *table;               /* a reference */
  int index;
};

G_DEFINE_FINAL_TYPE (PvValueRow, pv_value_row, G_TYPE_OBJECT)

struct _PvValueList
{
  GObject parent_instance;

  Table *table;
  PvValueRow **rows;          /* made on demand */
};

static void pv_value_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PvValueList, pv_value_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, pv_value_list_model_init))

/* ---- the table ---- */

static void
table_clear (gpointer data)
{
  Table *t = data;

  g_free (t->bytes);
  g_free (t->start);
  g_free (t->end);
  g_free (t->place);
  g_free (t->kind);
  for (int f = 0; f < PV_VALUE_N_FIELDS; f++)
    {
      for (int i = 0; t->text[f] && i < t->n; i++)
        g_free (t->text[f][i]);
      g_free (t->text[f]);
    }
  g_free (t->search);
  g_free (t->search_at);
}

/* Frees what table_fill() made, keeping the struct (rows point to it). */
static void
table_reset (Table *t)
{
  table_clear (t);
  memset (t, 0, sizeof *t);
}

static void
table_unref (Table *t)
{
  g_rc_box_release_full (t, table_clear);
}

static void
fill_places (Table *t, const PvSession *s)
{
  g_autofree gint64 *place = pv_plan_value_places (s, t->planner);

  memcpy (t->place, place, sizeof (gint64) * t->n);
}

static void
table_fill (Table *t, const PvSession *s, PvPlannerKind planner)
{
  const PvGraph *g = s->graph;

  t->session = s;
  t->graph = g;
  t->planner = planner;
  t->n = g->n_values;
  t->bytes = g_new0 (guint64, MAX (t->n, 1));
  t->start = g_new (double, MAX (t->n, 1));
  t->end = g_new (double, MAX (t->n, 1));
  t->place = g_new (gint64, MAX (t->n, 1));
  t->kind = g_new (gint8, MAX (t->n, 1));
  if (s->value_bytes)
    memcpy (t->bytes, s->value_bytes, sizeof (guint64) * t->n);
  for (int v = 0; v < t->n; v++)
    {
      int oi = g->values[v].ort_index;
      t->start[v] = s->schedule ? s->schedule->value_spans[v].start : -1;
      t->end[v] = s->schedule ? s->schedule->value_spans[v].end : -1;
      t->kind[v] = (s->ort && oi >= 0 && oi < s->ort->n_values) ? (gint8) s->ort->values[oi].kind
                                                                 : PV_ORT_ALLOC_NOT_SET;
    }
  fill_places (t, s);
}

/* ---- rows ---- */

static const char *
row_name (const PvValueRow *row)
{
  return row->table->graph ? row->table->graph->values[row->index].name : "";
}

static const PvNode *
row_producer (const PvValueRow *row)
{
  const PvGraph *g = row->table->graph;
  int p = g ? g->values[row->index].producer : -1;
  return p >= 0 ? &g->nodes[p] : NULL;
}

static const char *
kind_name (const Table *t, int v)
{
  return t->kind[v] == PV_ORT_ALLOC_NOT_SET ? "—" : pv_ort_alloc_kind_name ((PvOrtAllocKind) t->kind[v]);
}

static char *
shape_text (const Table *t, int v)
{
  const PvValueShape *s = pv_shape_info_get (t->session->shapes, t->graph, v);
  const char *dtype;
  GString *out;

  if (s == NULL || s->kind == PV_TYPE_UNKNOWN || (s->kind == PV_TYPE_TENSOR && s->rank < 0))
    return g_strdup ("?");
  if (s->kind != PV_TYPE_TENSOR)
    return g_strdup (s->kind == PV_TYPE_SEQUENCE ? "sequence" : s->kind == PV_TYPE_MAP ? "map" : "optional");
  dtype = s->elem_type ? pv_element_type_name (s->elem_type) : "?";
  out = g_string_new (dtype);
  g_string_append (out, " [");
  for (int i = 0; i < s->rank; i++)
    {
      g_autofree char *d = pv_dim_to_string (s->dims[i]);
      g_string_append_printf (out, "%s%s", i ? "," : "", d);
    }
  g_string_append_c (out, ']');
  return g_string_free (out, FALSE);
}

/* Bytes when known; else the symbolic size ("4*batch*seq"), or "—". */
static char *
bytes_text (const Table *t, int v)
{
  const PvValueShape *s;

  if (t->bytes[v] > 0)
    return pv_format_bytes (t->bytes[v], FALSE);
  s = pv_shape_info_get (t->session->shapes, t->graph, v);
  if (s && s->bytes && !pv_dim_is_const (s->bytes, NULL))
    return pv_dim_to_string (s->bytes);
  return g_strdup (s && s->bytes ? "0 B" : "—");
}

static char *
place_text (const Table *t, int v)
{
  g_autofree char *offset = NULL;

  if (t->place[v] < 0)
    return g_strdup ("—");
  switch (t->planner)
    {
    case PV_PLANNER_ORT: return g_strdup_printf ("buffer %" G_GINT64_FORMAT, t->place[v]);
    case PV_PLANNER_SLOTS: return g_strdup_printf ("slot %" G_GINT64_FORMAT, t->place[v]);
    default:
      offset = pv_format_count (t->place[v]);
      return g_strdup_printf ("@ %s", offset);
    }
}

static char *
make_text (PvValueRow *row, PvValueField field)
{
  const Table *t = row->table;
  int v = row->index;
  const PvNode *producer = row_producer (row);

  if (t->graph == NULL)
    return g_strdup ("");
  switch (field)
    {
    case PV_VALUE_FIELD_NAME:
      return g_strdup (row_name (row));
    case PV_VALUE_FIELD_PRODUCER:
      if (producer)
        return g_strdup_printf ("%s · %s", producer->op_type, producer->name);
      if (t->graph->values[v].flags & PV_VALUE_INITIALIZER)
        return g_strdup ("initializer");
      if (t->graph->values[v].flags & PV_VALUE_GRAPH_INPUT)
        return g_strdup ("graph input");
      return g_strdup ("—");
    case PV_VALUE_FIELD_SHAPE:
      return shape_text (t, v);
    case PV_VALUE_FIELD_BYTES:
      return bytes_text (t, v);
    case PV_VALUE_FIELD_KIND:
      return g_strdup (kind_name (t, v));
    case PV_VALUE_FIELD_PLACE:
      return place_text (t, v);
    case PV_VALUE_FIELD_LIVE:
      if (t->start[v] < 0)
        return g_strdup ("—");
      return g_strdup_printf ("%g – %g", t->start[v], t->end[v]);
    default:
      return g_strdup ("");
    }
}

const char *
pv_value_row_get_text (PvValueRow *self, PvValueField field)
{
  Table *t;

  g_return_val_if_fail (PV_IS_VALUE_ROW (self), "");
  g_return_val_if_fail ((guint) field < PV_VALUE_N_FIELDS, "");

  t = self->table;
  if (field == PV_VALUE_FIELD_NAME)
    return row_name (self);
  if (t->text[field] == NULL)
    t->text[field] = g_new0 (char *, MAX (t->n, 1));
  if (t->text[field][self->index] == NULL)
    t->text[field][self->index] = make_text (self, field);
  return t->text[field][self->index];
}

int
pv_value_row_get_value (PvValueRow *self)
{
  g_return_val_if_fail (PV_IS_VALUE_ROW (self), -1);
  return self->index;
}

const char *
pv_value_row_get_name (PvValueRow *self)
{
  g_return_val_if_fail (PV_IS_VALUE_ROW (self), "");
  return row_name (self);
}

int
pv_value_row_get_producer (PvValueRow *self)
{
  g_return_val_if_fail (PV_IS_VALUE_ROW (self), -1);
  return self->table->graph ? self->table->graph->values[self->index].producer : -1;
}

guint64
pv_value_row_get_bytes (PvValueRow *self)
{
  g_return_val_if_fail (PV_IS_VALUE_ROW (self), 0);
  return self->table->bytes[self->index];
}

gboolean
pv_value_row_get_live (PvValueRow *self, double *start, double *end)
{
  g_return_val_if_fail (PV_IS_VALUE_ROW (self), FALSE);
  if (start)
    *start = self->table->start[self->index];
  if (end)
    *end = self->table->end[self->index];
  return self->table->start[self->index] >= 0;
}

gboolean
pv_value_row_matches (PvValueRow *self, const char *needle)
{
  const Table *t = self->table;

  if (needle == NULL || needle[0] == '\0')
    return TRUE;
  if (t->search == NULL)
    return FALSE;
  return strstr (t->search + t->search_at[self->index], needle) != NULL;
}

static int
compare_numbers (double a, double b)
{
  return a < b ? -1 : a > b ? 1 : 0;
}

int
pv_value_row_compare (PvValueRow *a, PvValueRow *b, PvValueField field)
{
  const Table *t = a->table;
  int x = a->index, y = b->index, c = 0;

  g_return_val_if_fail (a->table == b->table, 0);

  switch (field)
    {
    case PV_VALUE_FIELD_NAME:
      c = strcmp (row_name (a), row_name (b));
      break;
    case PV_VALUE_FIELD_PRODUCER:
      {
        const PvNode *p = row_producer (a), *q = row_producer (b);
        if (p == NULL || q == NULL)
          c = (p != NULL) - (q != NULL);
        else if ((c = strcmp (p->op_type, q->op_type)) == 0)
          c = strcmp (p->name, q->name);
        break;
      }
    case PV_VALUE_FIELD_SHAPE:
    case PV_VALUE_FIELD_KIND:
      c = strcmp (pv_value_row_get_text (a, field), pv_value_row_get_text (b, field));
      break;
    case PV_VALUE_FIELD_BYTES:
      c = compare_numbers ((double) t->bytes[x], (double) t->bytes[y]);
      break;
    case PV_VALUE_FIELD_PLACE:
      c = compare_numbers ((double) t->place[x], (double) t->place[y]);
      break;
    case PV_VALUE_FIELD_LIVE:
      if ((c = compare_numbers (t->start[x], t->start[y])) == 0)
        c = compare_numbers (t->end[x], t->end[y]);
      break;
    default:
      break;
    }
  return c != 0 ? c : x - y;
}

static void
pv_value_row_finalize (GObject *object)
{
  PvValueRow *self = (PvValueRow *) object;

  g_clear_pointer (&self->table, table_unref);
  G_OBJECT_CLASS (pv_value_row_parent_class)->finalize (object);
}

static void
pv_value_row_class_init (PvValueRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = pv_value_row_finalize;
}

static void
pv_value_row_init (PvValueRow *self)
{
}

/* ---- the list ---- */

static GType
pv_value_list_get_item_type (GListModel *model)
{
  return PV_TYPE_VALUE_ROW;
}

static guint
pv_value_list_get_n_items (GListModel *model)
{
  return (guint) PV_VALUE_LIST (model)->table->n;
}

static gpointer
pv_value_list_get_item (GListModel *model, guint position)
{
  PvValueList *self = PV_VALUE_LIST (model);

  if (position >= (guint) self->table->n)
    return NULL;
  if (self->rows[position] == NULL)
    {
      PvValueRow *row = g_object_new (PV_TYPE_VALUE_ROW, NULL);
      row->table = g_rc_box_acquire (self->table);
      row->index = (int) position;
      self->rows[position] = row;
    }
  return g_object_ref (self->rows[position]);
}

static void
pv_value_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = pv_value_list_get_item_type;
  iface->get_n_items = pv_value_list_get_n_items;
  iface->get_item = pv_value_list_get_item;
}

PvValueList *
pv_value_list_new (const PvSession *session, PvPlannerKind planner)
{
  PvValueList *self;

  g_return_val_if_fail (session != NULL, NULL);

  self = g_object_new (PV_TYPE_VALUE_LIST, NULL);
  self->table = g_rc_box_new0 (Table);
  table_fill (self->table, session, planner);
  self->rows = g_new0 (PvValueRow *, MAX (self->table->n, 1));
  return self;
}

gboolean
pv_value_list_update (PvValueList *self, const PvSession *session, PvPlannerKind planner,
                      gboolean *search_changed)
{
  Table *t;
  g_autofree gint8 *old_kind = NULL;
  char *search;
  gsize *search_at;

  g_return_val_if_fail (PV_IS_VALUE_LIST (self), FALSE);
  g_return_val_if_fail (session != NULL, FALSE);

  t = self->table;
  if (t->graph == NULL || t->graph != session->graph)
    return FALSE;
  /* Search texts hold names, producers, ops (the graph's) and kinds: keep
   * them when no kind changed. */
  old_kind = g_steal_pointer (&t->kind);
  search = g_steal_pointer (&t->search);
  search_at = g_steal_pointer (&t->search_at);
  table_reset (t);
  table_fill (t, session, planner);
  if (search && memcmp (old_kind, t->kind, (gsize) t->n) == 0)
    {
      t->search = search;
      t->search_at = search_at;
    }
  else
    {
      g_free (search);
      g_free (search_at);
    }
  if (search_changed)
    *search_changed = t->search == NULL;
  return TRUE;
}

void
pv_value_list_detach (PvValueList *self)
{
  g_return_if_fail (PV_IS_VALUE_LIST (self));
  self->table->session = NULL;
  self->table->graph = NULL;
}

int
pv_value_list_find_name (PvValueList *self, const char *name)
{
  g_return_val_if_fail (PV_IS_VALUE_LIST (self), -1);
  if (self->table->graph == NULL || name == NULL)
    return -1;
  return pv_graph_find_value (self->table->graph, name);
}

void
pv_value_list_prepare_search (PvValueList *self)
{
  Table *t;
  GString *all;

  g_return_if_fail (PV_IS_VALUE_LIST (self));

  t = self->table;
  if (t->search || t->graph == NULL)
    return;
  all = g_string_sized_new ((gsize) t->n * 64);
  t->search_at = g_new (gsize, MAX (t->n, 1));
  for (int v = 0; v < t->n; v++)
    {
      const PvValue *value = &t->graph->values[v];
      const PvNode *producer = value->producer >= 0 ? &t->graph->nodes[value->producer] : NULL;
      t->search_at[v] = all->len;
      g_string_append (all, value->name);
      g_string_append_c (all, '\n');
      if (producer)
        {
          g_string_append (all, producer->name);
          g_string_append_c (all, '\n');
          g_string_append (all, producer->op_type);
          g_string_append_c (all, '\n');
        }
      g_string_append (all, kind_name (t, v));
      g_string_append_c (all, '\0');
    }
  /* ASCII lower case in place (names are ASCII; other bytes stay). */
  for (gsize i = 0; i < all->len; i++)
    all->str[i] = g_ascii_tolower (all->str[i]);
  t->search = g_string_free (all, FALSE);
}

static void
pv_value_list_finalize (GObject *object)
{
  PvValueList *self = (PvValueList *) object;

  for (int i = 0; self->rows && i < self->table->n; i++)
    g_clear_object (&self->rows[i]);
  g_free (self->rows);
  g_clear_pointer (&self->table, table_unref);
  G_OBJECT_CLASS (pv_value_list_parent_class)->finalize (object);
}

static void
pv_value_list_class_init (PvValueListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = pv_value_list_finalize;
}

static void
pv_value_list_init (PvValueList *self)
{
}
