/* pv-ort-arena-run.c: ORT's CPU arena over a session's first two runs (see
 * the header). */
#include "pv-ort-arena-run.h"

#include <string.h>

#include "pv-element-type.h"
#include "pv-ort-mem-pattern.h"

void
pv_ort_arena_settings_init (PvOrtArenaSettings *settings)
{
  pv_ort_arena_config_init (&settings->arena);
  settings->cpu_arena = TRUE;
  settings->mem_pattern = TRUE;
  settings->intra_op_threads = 0;
}

void
pv_ort_arena_run_free (PvOrtArenaRun *run)
{
  if (run == NULL)
    return;
  g_free (run->first);
  g_free (run->second);
  g_free (run->pattern_offsets);
  g_strfreev (run->unmodelled_ops);
  g_free (run);
}

/* ---- the allocator: ORT's BFC arena, or malloc without an arena ---- */

typedef struct {
  PvOrtBfcArena *bfc;     /* NULL: no arena */
  GArray *sizes;          /* no arena: handle - 1 -> bytes */
  PvOrtArenaStats plain;
} Heap;

static void
heap_init (Heap *h, const PvOrtArenaSettings *s)
{
  memset (h, 0, sizeof *h);
  if (s->cpu_arena)
    h->bfc = pv_ort_bfc_arena_new (&s->arena);
  else
    h->sizes = g_array_new (FALSE, FALSE, sizeof (guint64));
}

static void
heap_clear (Heap *h)
{
  pv_ort_bfc_arena_free (h->bfc);
  if (h->sizes)
    g_array_free (h->sizes, TRUE);
}

static int
heap_alloc (Heap *h, guint64 bytes)
{
  if (h->bfc)
    return pv_ort_bfc_arena_alloc (h->bfc, bytes);
  if (bytes == 0)
    return -1;
  g_array_append_val (h->sizes, bytes);
  h->plain.requested_in_use += bytes;
  h->plain.in_use += bytes;
  h->plain.held += bytes;
  h->plain.peak_in_use = MAX (h->plain.peak_in_use, h->plain.in_use);
  return (int) h->sizes->len;
}

static void
heap_release (Heap *h, int handle)
{
  guint64 bytes;

  if (handle <= 0)
    return;
  if (h->bfc)
    {
      pv_ort_bfc_arena_release (h->bfc, handle);
      return;
    }
  bytes = g_array_index (h->sizes, guint64, handle - 1);
  h->plain.requested_in_use -= bytes;
  h->plain.in_use -= bytes;
  h->plain.held -= bytes;
}

static void
heap_reserve (Heap *h, guint64 bytes)
{
  if (h->bfc)
    pv_ort_bfc_arena_reserve (h->bfc, bytes);
  else
    heap_alloc (h, bytes);
}

static void
heap_stats (const Heap *h, PvOrtArenaStats *stats)
{
  if (h->bfc)
    pv_ort_bfc_arena_get_stats (h->bfc, stats);
  else
    *stats = h->plain;
}

/* ---- what both runs read, worked out once ---- */

#define NO_ALLOC G_MAXUINT64

typedef struct {
  guint64 *bytes;           /* OrtValue index -> bytes the frame allocates, NO_ALLOC: none */
  PvOrtScratchStep *steps;  /* the kernels' programs, one after the other in execution order */
  int *step_start;          /* order position -> its first step; n_order + 1 entries */
  GHashTable *unmodelled;   /* interned op types whose scratch is not modelled */
  int unknown;              /* a value to allocate without a known size, or -1 */
} Prepared;

/* The element type of a tensor value, 0 for anything else (sequences and
 * maps are filled by kernels planviz does not model). */
static int
tensor_type (const PvOrtArenaInput *in, const PvGraph *g, int value)
{
  const PvValueShape *shape = in->env->shapes ? pv_shape_info_get (in->env->shapes, g, value) : NULL;
  if (shape == NULL || shape->kind != PV_TYPE_TENSOR)
    return g->values[value].type.kind == PV_TYPE_TENSOR ? g->values[value].type.elem_type : 0;
  return shape->elem_type;
}

/* The bytes the frame allocates for each node output, and each kernel's
 * program. */
static void
prepare (Prepared *p, const PvOrtArenaInput *in, const int *order, int n_order)
{
  const PvGraph *g = in->env->graph;
  const PvOrtPlan *plan = in->plan;
  GArray *steps = g_array_new (FALSE, FALSE, sizeof (PvOrtScratchStep));

  p->bytes = g_new (guint64, MAX (plan->n_values, 1));
  for (int i = 0; i < plan->n_values; i++)
    p->bytes[i] = NO_ALLOC;
  p->step_start = g_new (int, n_order + 1);
  p->unmodelled = g_hash_table_new (g_direct_hash, g_direct_equal);
  p->unknown = -1;
  for (int k = 0; k < n_order; k++)
    {
      const PvNode *node = &g->nodes[order[k]];
      PvOrtScratch scratch;
      if (!pv_ort_kernel_scratch (in->env, node, &scratch))
        g_hash_table_add (p->unmodelled, (gpointer) node->op_type);
      p->step_start[k] = (int) steps->len;
      g_array_append_vals (steps, scratch.steps, scratch.n_steps);
      for (int o = 0; o < node->n_outputs; o++)
        {
          int v = node->outputs[o], i = v >= 0 ? g->values[v].ort_index : -1, type;
          PvOrtAllocKind kind = i >= 0 ? plan->values[i].kind : PV_ORT_ALLOC_NOT_SET;
          if (kind != PV_ORT_ALLOC_ALLOCATE && kind != PV_ORT_ALLOC_ALLOCATE_OUTPUT)
            continue;
          type = tensor_type (in, g, v);
          if (type == 0 || type == PV_ELEM_STRING)
            g_hash_table_add (p->unmodelled, (gpointer) node->op_type);
          else if (in->value_known && !in->value_known[v] && p->unknown < 0)
            p->unknown = v;
          else
            p->bytes[i] = in->value_bytes[v];
        }
    }
  p->step_start[n_order] = (int) steps->len;
  p->steps = (PvOrtScratchStep *) g_array_free (steps, FALSE);
}

static void
prepared_clear (Prepared *p)
{
  g_free (p->bytes);
  g_free (p->steps);
  g_free (p->step_start);
  g_hash_table_destroy (p->unmodelled);
}

/* ---- one run ---- */

typedef struct {
  const PvOrtArenaInput *in;
  const PvGraph *g;
  const int *order;         /* node ids in execution order */
  int n_order;
  const Prepared *prep;
  Heap heap;
  int *chunk;               /* OrtValue index -> handle, 0: none */
  int *refs;                /* release action -> consumers still to run */
  PvOrtMemPattern *trace;   /* first run with the pattern on: traces */
  const PvOrtArenaRun *pattern;  /* second run: the pattern to place into */
  guint64 kernel_max;       /* the most in use during the current kernel */
} Run;

/* Notes the bytes in use after an allocation of the current kernel. */
static void
note_in_use (Run *r)
{
  PvOrtArenaStats st;
  heap_stats (&r->heap, &st);
  r->kernel_max = MAX (r->kernel_max, st.in_use);
}

static void
allocate_output (Run *r, const PvNode *node, int k, guint8 *done)
{
  int v = node->outputs[k], i;
  guint64 bytes;

  if (done[k] || v < 0)
    return;
  done[k] = TRUE;
  i = r->g->values[v].ort_index;
  if (i < 0 || (bytes = r->prep->bytes[i]) == NO_ALLOC)
    return;
  /* The second run places traced buffers in the pattern's block. */
  if (r->pattern && r->pattern->pattern_offsets[i] != G_MAXUINT64)
    return;
  r->chunk[i] = heap_alloc (&r->heap, bytes);
  note_in_use (r);
  /* The frame traces what it allocates for the plan, rounded to 256 bytes,
   * but not graph outputs. */
  if (r->trace && r->in->plan->values[i].kind == PV_ORT_ALLOC_ALLOCATE)
    pv_ort_mem_pattern_trace_alloc (r->trace, i, (bytes + 255) / 256 * 256);
}

/* The kernel at order position @k: its outputs and scratch in its order. */
static void
run_kernel (Run *r, int k)
{
  const PvNode *node = &r->g->nodes[r->order[k]];
  int n_steps = r->prep->step_start[k + 1] - r->prep->step_start[k];
  const PvOrtScratchStep *steps = n_steps > 0 ? r->prep->steps + r->prep->step_start[k] : NULL;
  int temps[PV_ORT_SCRATCH_MAX_STEPS];
  int n_temps = 0;
  guint8 small[16] = { 0 };
  g_autofree guint8 *big = node->n_outputs > 16 ? g_new0 (guint8, node->n_outputs) : NULL;
  guint8 *done = big ? big : small;
  gboolean names_outputs = FALSE;

  for (int s = 0; s < n_steps; s++)
    names_outputs |= steps[s].kind == PV_ORT_SCRATCH_OUTPUTS || steps[s].kind == PV_ORT_SCRATCH_OUTPUT;
  for (int o = 0; o < node->n_outputs && !names_outputs; o++)
    allocate_output (r, node, o, done);
  for (int s = 0; s < n_steps; s++)
    {
      const PvOrtScratchStep *st = &steps[s];
      switch (st->kind)
        {
        case PV_ORT_SCRATCH_OUTPUTS:
          for (int o = 0; o < node->n_outputs; o++)
            allocate_output (r, node, o, done);
          break;
        case PV_ORT_SCRATCH_OUTPUT:
          if (st->arg < node->n_outputs)
            allocate_output (r, node, st->arg, done);
          break;
        case PV_ORT_SCRATCH_ALLOC:
          temps[n_temps++] = heap_alloc (&r->heap, st->bytes);
          note_in_use (r);
          break;
        case PV_ORT_SCRATCH_FREE:
          if (st->arg < n_temps)
            {
              heap_release (&r->heap, temps[st->arg]);
              temps[st->arg] = 0;
            }
          break;
        }
    }
  for (int o = 0; o < node->n_outputs; o++)
    allocate_output (r, node, o, done);
  for (int t = 0; t < n_temps; t++)
    heap_release (&r->heap, temps[t]);
}

/* The node's release actions (the profiler has read the statistics). */
static void
release_after (Run *r, int n)
{
  const PvOrtPlan *plan = r->in->plan;

  for (int a = plan->node_release_start[n]; a < plan->node_release_start[n + 1]; a++)
    {
      int action = plan->node_release[a];
      int i = plan->release_actions[action].value_index;
      if (--r->refs[action] > 0)
        continue;
      heap_release (&r->heap, r->chunk[i]);
      r->chunk[i] = 0;
      if (r->trace)
        pv_ort_mem_pattern_trace_free (r->trace, i);
    }
}

static void
record (Run *r, int n, PvOrtArenaRecord *rec)
{
  PvOrtArenaStats st;

  heap_stats (&r->heap, &st);
  *rec = (PvOrtArenaRecord) { n, st.requested_in_use, st.in_use, st.held, st.peak_in_use,
                              MAX (r->kernel_max, st.in_use) };
}

/* One run over every node; the frame's buffers are freed at its end (the
 * caller copies the outputs and lets them go before the next run). */
static void
run_once (Run *r, PvOrtArenaRecord *records, guint64 block_bytes)
{
  const PvOrtPlan *plan = r->in->plan;
  int block = 0;

  memset (r->chunk, 0, sizeof (int) * MAX (plan->n_values, 1));
  for (int a = 0; a < plan->n_release_actions; a++)
    r->refs[a] = plan->release_actions[a].ref_count;
  if (block_bytes > 0)
    block = heap_alloc (&r->heap, block_bytes);
  for (int k = 0; k < r->n_order; k++)
    {
      int n = r->order[k];
      r->kernel_max = 0;
      run_kernel (r, k);
      record (r, n, &records[k]);
      release_after (r, n);
    }
  for (int i = 0; i < plan->n_values; i++)
    heap_release (&r->heap, r->chunk[i]);
  heap_release (&r->heap, block);
}

/* ---- the two runs ---- */

/* The nodes in the order they run: the one stream's LaunchKernel steps, or
 * with several streams the global topological order. */
static int *
execution_order (const PvOrtPlan *plan, const PvGraph *g, int *n_out)
{
  int *order = g_new (int, MAX (g->n_nodes, 1));
  int n = 0;

  if (plan->n_streams == 1)
    {
      for (int s = 0; s < plan->streams[0].n_steps; s++)
        if (plan->streams[0].steps[s].kind == PV_ORT_STEP_LAUNCH_KERNEL)
          order[n++] = plan->streams[0].steps[s].node;
    }
  else
    for (int k = 0; k < g->n_nodes; k++)
      if (plan->node_stream[g->order[k]] >= 0)
        order[n++] = g->order[k];
  *n_out = n;
  return order;
}

static void
summarise (const PvOrtArenaRecord *records, int n, const Heap *heap, guint64 *peak_requested, guint64 *peak_in_use,
           guint64 *held)
{
  PvOrtArenaStats st;

  heap_stats (heap, &st);
  *peak_requested = 0;
  for (int k = 0; k < n; k++)
    *peak_requested = MAX (*peak_requested, records[k].requested_in_use);
  *peak_in_use = st.peak_in_use;
  *held = st.held;
}

/* The pattern's offsets per OrtValue index, from the first run's trace. */
static void
keep_pattern (PvOrtArenaRun *run, const PvOrtMemPattern *trace, int n_values)
{
  run->has_pattern = TRUE;
  run->pattern_bytes = pv_ort_mem_pattern_block_bytes (trace);
  run->n_pattern_offsets = n_values;
  run->pattern_offsets = g_new (guint64, MAX (n_values, 1));
  for (int i = 0; i < n_values; i++)
    if (!pv_ort_mem_pattern_lookup (trace, i, &run->pattern_offsets[i], NULL))
      run->pattern_offsets[i] = G_MAXUINT64;
}

static gint
compare_strings (gconstpointer a, gconstpointer b, gpointer data)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static char **
sorted_ops (GHashTable *set)
{
  g_autofree const char **ops = (const char **) g_hash_table_get_keys_as_array (set, NULL);
  GStrvBuilder *b = g_strv_builder_new ();
  char **out;

  for (int i = 0; ops[i]; i++)
    g_strv_builder_add (b, ops[i]);
  out = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  g_qsort_with_data (out, (gint) g_strv_length (out), sizeof (char *), compare_strings, NULL);
  return out;
}

PvOrtArenaRun *
pv_ort_arena_run_new (const PvOrtArenaInput *in, int *unknown_value)
{
  g_autoptr (PvOrtArenaRun) run = NULL;
  g_autoptr (PvOrtMemPattern) trace = NULL;
  const PvOrtPlan *plan;
  Run r = { 0 };
  Prepared prep;
  g_autofree int *order = NULL;

  g_return_val_if_fail (in != NULL && in->plan != NULL && in->env != NULL && in->value_bytes != NULL, NULL);
  plan = in->plan;
  order = execution_order (plan, in->env->graph, &r.n_order);
  prepare (&prep, in, order, r.n_order);
  if (unknown_value)
    *unknown_value = prep.unknown;
  if (prep.unknown >= 0)
    {
      prepared_clear (&prep);
      return NULL;
    }
  run = g_new0 (PvOrtArenaRun, 1);
  if (in->settings)
    run->settings = *in->settings;
  else
    pv_ort_arena_settings_init (&run->settings);
  run->approximate = plan->n_streams > 1;
  run->reserved_bytes = pv_ort_session_reserved_bytes (in->env, in->env->graph);
  run->n_records = r.n_order;
  run->first = g_new (PvOrtArenaRecord, MAX (r.n_order, 1));
  run->second = g_new (PvOrtArenaRecord, MAX (r.n_order, 1));
  r.in = in;
  r.g = in->env->graph;
  r.order = order;
  r.chunk = g_new (int, MAX (plan->n_values, 1));
  r.refs = g_new (int, MAX (plan->n_release_actions, 1));
  r.prep = &prep;
  heap_init (&r.heap, &run->settings);
  heap_reserve (&r.heap, run->reserved_bytes);
  if (run->settings.mem_pattern)
    trace = r.trace = pv_ort_mem_pattern_new ();
  run_once (&r, run->first, 0);
  summarise (run->first, r.n_order, &r.heap, &run->peak_requested, &run->peak_in_use, &run->held);
  r.trace = NULL;
  if (trace)
    keep_pattern (run, trace, plan->n_values);
  r.pattern = run->has_pattern ? run : NULL;
  run_once (&r, run->second, run->has_pattern ? run->pattern_bytes : 0);
  summarise (run->second, r.n_order, &r.heap, &run->second_peak_requested, &run->second_peak_in_use,
             &run->second_held);
  run->unmodelled_ops = sorted_ops (prep.unmodelled);
  prepared_clear (&prep);
  heap_clear (&r.heap);
  g_free (r.chunk);
  g_free (r.refs);
  return g_steal_pointer (&run);
}
