/* test-ort-arena.c: ORT's CPU arena (pv-ort-bfc-arena), its memory pattern
 * (pv-ort-mem-pattern), the kernels' scratch (pv-ort-kernel-scratch) and the
 * two runs of a session (pv-ort-arena-run). Expected figures marked "ORT"
 * are what onnxruntime-node 1.30's profiler recorded (tests/ort). */
#include <string.h>
#include <time.h>

#include "pv-model-loader.h"
#include "pv-ort-bfc-arena.h"
#include "pv-ort-kernel-scratch-private.h"
#include "pv-ort-mem-pattern-private.h"
#include "pv-session.h"
#include "pv-test-seed.h"

static const char *data_dir;

static void
check_stats (PvOrtBfcArena *a, guint64 requested, guint64 in_use, guint64 held, guint64 peak)
{
  PvOrtArenaStats st;
  pv_ort_bfc_arena_get_stats (a, &st);
  g_assert_cmpuint (st.requested_in_use, ==, requested);
  g_assert_cmpuint (st.in_use, ==, in_use);
  g_assert_cmpuint (st.held, ==, held);
  g_assert_cmpuint (st.peak_in_use, ==, peak);
}

/* The first nodes of squeezenet in ORT: 1064 bytes reserved, a 6912-byte
 * weight in the first 1 MiB region, a 3154176-byte output that takes a
 * whole 4 MiB region (the rest is under twice the request and under the
 * dead-bytes limit), Conv's 128 KiB scratch split off the first region
 * and coalesced back, then a 774400-byte output that takes the whole first
 * region once the weight is freed. */
static void
test_bfc_squeezenet_start (void)
{
  g_autoptr (PvOrtBfcArena) a = pv_ort_bfc_arena_new (NULL);
  int w, y, scratch, pool;

  pv_ort_bfc_arena_reserve (a, 1064);
  check_stats (a, 1064, 1064, 1064, 1064);
  w = pv_ort_bfc_arena_alloc (a, 6912);
  check_stats (a, 7976, 7976, 1049640, 7976);                      /* ORT */
  y = pv_ort_bfc_arena_alloc (a, 3154176);
  g_assert_cmpuint (pv_ort_bfc_arena_chunk_size (a, y), ==, 4194304);
  scratch = pv_ort_bfc_arena_alloc (a, 131072);
  pv_ort_bfc_arena_release (a, scratch);
  check_stats (a, 3162152, 4202280, 5243944, 4333352);             /* ORT */
  pv_ort_bfc_arena_release (a, w);
  pool = pv_ort_bfc_arena_alloc (a, 774400);
  g_assert_cmpuint (pv_ort_bfc_arena_chunk_size (a, pool), ==, 1048576);
  check_stats (a, 3929640, 5243944, 5243944, 5243944);             /* ORT */
  g_assert_cmpint (pv_ort_bfc_arena_alloc (a, 0), ==, -1);
}

/* kNextPowerOfTwo: three 1 MiB requests take a 1 MiB region and a 2 MiB
 * one (split in two), and the next region doubles from 4 MiB until it
 * covers a large request; kSameAsRequested: the
 * rounded request. */
static void
test_bfc_extend (void)
{
  PvOrtArenaConfig cfg;
  PvOrtArenaStats st;

  {
    g_autoptr (PvOrtBfcArena) a = pv_ort_bfc_arena_new (NULL);
    for (int i = 0; i < 3; i++)
      pv_ort_bfc_arena_alloc (a, 1 << 20);
    pv_ort_bfc_arena_get_stats (a, &st);
    g_assert_cmpuint (st.held, ==, 3 << 20);
    g_assert_cmpint (st.n_regions, ==, 2);
    pv_ort_bfc_arena_alloc (a, 20 << 20);  /* 4 MiB next, doubled to 32 MiB */
    pv_ort_bfc_arena_get_stats (a, &st);
    g_assert_cmpuint (st.held, ==, (3 << 20) + (32 << 20));
  }
  pv_ort_arena_config_init (&cfg);
  cfg.extend_strategy = PV_ORT_ARENA_SAME_AS_REQUESTED;
  {
    g_autoptr (PvOrtBfcArena) a = pv_ort_bfc_arena_new (&cfg);
    pv_ort_bfc_arena_alloc (a, 1000);
    pv_ort_bfc_arena_alloc (a, 3000);
    check_stats (a, 4000, 1024 + 3072, 1024 + 3072, 1024 + 3072);
  }
  pv_ort_arena_config_init (&cfg);
  cfg.max_mem = 2 << 20;
  {
    g_autoptr (PvOrtBfcArena) a = pv_ort_bfc_arena_new (&cfg);
    g_assert_cmpint (pv_ort_bfc_arena_alloc (a, 1 << 20), >, 0);
    g_assert_cmpint (pv_ort_bfc_arena_alloc (a, 2 << 20), ==, -2);
  }
}

/* ---- a reference arena: the same rules, the slow obvious way ---- */

typedef struct {
  guint64 addr, size, requested;
  int region;
  gboolean used;
} RefChunk;

typedef struct {
  GArray *chunks;        /* RefChunk, kept sorted by address */
  guint64 curr, held, next_base;
  int n_regions;
} RefArena;

static guint64
round256 (guint64 b)
{
  return (b + 255) / 256 * 256;
}

/* Index of the chunk at @addr. */
static guint
ref_find (RefArena *r, guint64 addr)
{
  for (guint i = 0; i < r->chunks->len; i++)
    if (g_array_index (r->chunks, RefChunk, i).addr == addr)
      return i;
  g_assert_not_reached ();
}

static void
ref_insert (RefArena *r, RefChunk c)
{
  guint i = 0;
  while (i < r->chunks->len && g_array_index (r->chunks, RefChunk, i).addr < c.addr)
    i++;
  g_array_insert_val (r->chunks, i, c);
}

/* Allocates; returns the chunk's address. Best fit: smallest free size,
 * then lowest address; a new region (doubling) when none fits. */
static guint64
ref_alloc (RefArena *r, guint64 bytes)
{
  guint64 rb = round256 (bytes);
  int best = -1;
  RefChunk *c;

  for (int pass = 0; pass < 2 && best < 0; pass++)
    {
      for (guint i = 0; i < r->chunks->len; i++)
        {
          RefChunk *x = &g_array_index (r->chunks, RefChunk, i);
          RefChunk *b = best >= 0 ? &g_array_index (r->chunks, RefChunk, best) : NULL;
          if (!x->used && x->size >= rb && (b == NULL || x->size < b->size || (x->size == b->size && x->addr < b->addr)))
            best = (int) i;
        }
      if (best < 0)
        {
          gboolean doubled = FALSE;
          RefChunk region;
          while (rb > r->curr)
            r->curr *= 2, doubled = TRUE;
          region = (RefChunk) { 0, r->curr, 0, r->n_regions++, FALSE };
          if (!doubled)
            r->curr = r->curr < (1u << 29) ? r->curr * 2 : 1u << 30;
          r->next_base -= round256 (region.size) + 4096;
          region.addr = r->next_base;
          r->held += region.size;
          ref_insert (r, region);
        }
    }
  c = &g_array_index (r->chunks, RefChunk, best);
  if (c->size >= 2 * rb || c->size - rb >= (128 << 20))
    {
      RefChunk rest = { c->addr + rb, c->size - rb, 0, c->region, FALSE };
      c->size = rb;
      ref_insert (r, rest);
      c = &g_array_index (r->chunks, RefChunk, ref_find (r, rest.addr - rb));
    }
  c->used = TRUE;
  c->requested = bytes;
  return c->addr;
}

static void
ref_release (RefArena *r, guint64 addr)
{
  guint i = ref_find (r, addr);
  RefChunk *c = &g_array_index (r->chunks, RefChunk, i);

  c->used = FALSE;
  c->requested = 0;
  /* Merge with free neighbours of the same region, touching in address. */
  if (i + 1 < r->chunks->len)
    {
      RefChunk *n = &g_array_index (r->chunks, RefChunk, i + 1);
      if (!n->used && n->region == c->region && c->addr + c->size == n->addr)
        {
          c->size += n->size;
          g_array_remove_index (r->chunks, i + 1);
        }
    }
  c = &g_array_index (r->chunks, RefChunk, i);
  if (i > 0)
    {
      RefChunk *p = &g_array_index (r->chunks, RefChunk, i - 1);
      if (!p->used && p->region == c->region && p->addr + p->size == c->addr)
        {
          p->size += c->size;
          g_array_remove_index (r->chunks, i);
        }
    }
}

/* Random allocations and frees against the reference: the same address
 * for every allocation and the same statistics after every step. */
static void
test_bfc_against_reference (void)
{
  g_autoptr (GRand) rand = pv_test_rand_new (0x13a7e2a);

  for (int round = 0; round < 60; round++)
    {
      g_autoptr (PvOrtBfcArena) a = pv_ort_bfc_arena_new (NULL);
      RefArena r = { g_array_new (FALSE, FALSE, sizeof (RefChunk)), 1 << 20, 0, G_GUINT64_CONSTANT (1) << 62, 0 };
      g_autoptr (GArray) live = g_array_new (FALSE, FALSE, sizeof (int));
      g_autoptr (GArray) live_addr = g_array_new (FALSE, FALSE, sizeof (guint64));
      guint64 in_use = 0;

      for (int step = 0; step < 400; step++)
        {
          PvOrtArenaStats st;
          if (live->len > 0 && g_rand_int_range (rand, 0, 100) < 45)
            {
              guint k = (guint) g_rand_int_range (rand, 0, (gint) live->len);
              int h = g_array_index (live, int, k);
              in_use -= pv_ort_bfc_arena_chunk_size (a, h);
              pv_ort_bfc_arena_release (a, h);
              ref_release (&r, g_array_index (live_addr, guint64, k));
              g_array_remove_index_fast (live, k);
              g_array_remove_index_fast (live_addr, k);
            }
          else
            {
              /* Sizes from a few bytes to a few MiB, often repeated. */
              guint64 bytes = g_rand_int_range (rand, 0, 4) == 0 ? 4096 : (guint64) g_rand_int_range (rand, 1, 1 << 18)
                                                                            << g_rand_int_range (rand, 0, 5);
              int h = pv_ort_bfc_arena_alloc (a, bytes);
              guint64 addr = ref_alloc (&r, bytes);
              g_assert_cmpint (h, >, 0);
              g_assert_cmphex (pv_ort_bfc_arena_chunk_address (a, h), ==, addr);
              in_use += pv_ort_bfc_arena_chunk_size (a, h);
              g_array_append_val (live, h);
              g_array_append_val (live_addr, addr);
            }
          pv_ort_bfc_arena_get_stats (a, &st);
          g_assert_cmpuint (st.held, ==, r.held);
          g_assert_cmpuint (st.in_use, ==, in_use);
          g_assert_cmpint (st.n_regions, ==, r.n_regions);
        }
      g_array_free (r.chunks, TRUE);
    }
}

/* ---- the memory pattern ---- */

static void
test_mem_pattern (void)
{
  g_autoptr (PvOrtMemPattern) p = pv_ort_mem_pattern_new ();
  guint64 offset, bytes;

  g_assert_cmpuint (pv_ort_mem_pattern_trace_alloc (p, 0, 1024), ==, 0);
  g_assert_cmpuint (pv_ort_mem_pattern_trace_alloc (p, 1, 2048), ==, 1024);
  g_assert_cmpuint (pv_ort_mem_pattern_trace_alloc (p, 2, 512), ==, 3072);
  pv_ort_mem_pattern_trace_free (p, 0);
  pv_ort_mem_pattern_trace_free (p, 2);
  /* The gap before 1 wastes 512, the tail after it (up to 3584) 0. */
  g_assert_cmpuint (pv_ort_mem_pattern_trace_alloc (p, 3, 512), ==, 3072);
  /* Nothing fits 4096: the end. */
  g_assert_cmpuint (pv_ort_mem_pattern_trace_alloc (p, 4, 4096), ==, 3584);
  g_assert_cmpuint (pv_ort_mem_pattern_trace_alloc (p, 5, 768), ==, 0);
  g_assert_cmpuint (pv_ort_mem_pattern_trace_alloc (p, 6, 0), ==, 0);
  g_assert_cmpuint (pv_ort_mem_pattern_block_bytes (p), ==, 7680);
  g_assert_true (pv_ort_mem_pattern_lookup (p, 4, &offset, &bytes));
  g_assert_cmpuint (offset, ==, 3584);
  g_assert_cmpuint (bytes, ==, 4096);
  g_assert_false (pv_ort_mem_pattern_lookup (p, 99, NULL, NULL));
}

/* ORT's MemPatternPlanner as it reads (mem_pattern_planner.h, with 1.30's
 * tail rule): a scan over the live blocks in offset order, for every
 * allocation and every free. The reference for the planner's trees. */
typedef struct {
  int value_index;
  guint64 offset, size;
} RefBlock;

static guint64
ref_pattern_alloc (GArray *live, guint64 *block_bytes, int value_index, guint64 size)
{
  guint64 current = 0, waste = G_MAXUINT64, best = 0;
  gboolean found = FALSE;
  RefBlock b = { value_index, 0, size };
  guint pos;

  if (size == 0)
    return 0;
  for (guint k = 0; k < live->len; k++)
    {
      const RefBlock *o = &g_array_index (live, RefBlock, k);
      if (o->offset >= current && o->offset - current >= size && o->offset - current - size < waste)
        {
          waste = o->offset - current - size;
          best = current;
          found = TRUE;
        }
      current = MAX (current, o->offset + o->size);
    }
  if (current < *block_bytes && *block_bytes - current >= size && *block_bytes - current - size < waste)
    best = current, found = TRUE;
  b.offset = found ? best : current;
  *block_bytes = MAX (*block_bytes, b.offset + size);
  for (pos = 0; pos < live->len; pos++)
    {
      const RefBlock *o = &g_array_index (live, RefBlock, pos);
      if (o->offset > b.offset || (o->offset == b.offset && o->size >= size))
        break;
    }
  g_array_insert_val (live, pos, b);
  return b.offset;
}

static void
ref_pattern_free (GArray *live, int value_index)
{
  for (guint k = 0; k < live->len; k++)
    if (g_array_index (live, RefBlock, k).value_index == value_index)
      {
        g_array_remove_index (live, k);
        return;
      }
}

/* Random traces (sizes from 0 to a few KiB, often equal; values traced
 * twice; frees of values not live) give the reference's offsets. */
static void
test_mem_pattern_against_reference (void)
{
  g_autoptr (GRand) rand = pv_test_rand_new (0x6d3a77e);

  for (int round = 0; round < 300; round++)
    {
      /* ORT's scan throughout, trees from the start, and a switch from the
       * scan to the trees part-way (at 4 live blocks). */
      static const guint max_scan[] = { G_MAXUINT, 0, 4 };
      g_autoptr (PvOrtMemPattern) p = pv_ort_mem_pattern_new_with_scan (max_scan[round % 3]);
      g_autoptr (GArray) live = g_array_new (FALSE, FALSE, sizeof (RefBlock));
      guint64 block_bytes = 0;
      int n_values = g_rand_int_range (rand, 2, 60);
      int max_units = g_rand_int_range (rand, 1, 16);

      for (int step = 0; step < 300; step++)
        {
          int v = g_rand_int_range (rand, 0, n_values);
          if (g_rand_int_range (rand, 0, 100) < 45)
            {
              pv_ort_mem_pattern_trace_free (p, v);
              ref_pattern_free (live, v);
            }
          else
            {
              guint64 bytes = (guint64) g_rand_int_range (rand, 0, max_units + 1) * 256;
              g_assert_cmpuint (pv_ort_mem_pattern_trace_alloc (p, v, bytes), ==,
                                ref_pattern_alloc (live, &block_bytes, v, bytes));
            }
          g_assert_cmpuint (pv_ort_mem_pattern_block_bytes (p), ==, block_bytes);
        }
    }
}

/* 100,000 blocks live at once, then freed in a scattered order: the trees
 * take O(log n) a trace (ORT's scan, and planviz's before, took minutes).
 * The bound only catches a return to a scan: 0.3 s of CPU plain and 1.0 s
 * under ASan today, 30 s allowed (CPU time, so load does not count; speed
 * itself is measured by the wide cases of tests/unit/test-hostile-inputs.py
 * and the benchmarks, not here). */
static void
test_mem_pattern_wide (void)
{
  g_autoptr (PvOrtMemPattern) p = pv_ort_mem_pattern_new ();
  const int n = 100000;
  clock_t t0 = clock ();
  double seconds;

  for (int i = 0; i < n; i++)
    g_assert_cmpuint (pv_ort_mem_pattern_trace_alloc (p, i, 256), ==, (guint64) i * 256);
  for (int i = 0; i < n; i++)
    pv_ort_mem_pattern_trace_free (p, (int) (((gint64) i * 7919) % n));
  for (int i = 0; i < n; i++)
    g_assert_cmpuint (pv_ort_mem_pattern_trace_alloc (p, n + i, 256), ==, (guint64) i * 256);
  seconds = (double) (clock () - t0) / CLOCKS_PER_SEC;
  g_test_message ("300,000 traces: %.3f s of CPU", seconds);
  g_assert_cmpfloat (seconds, <, 30.0);
}

static void
test_scratch_table_sorted (void)
{
  g_assert_true (pv_ort_kernel_scratch_table_sorted ());
  /* MLAS packs B in 16-column panels, 64-byte aligned. */
  g_assert_cmpuint (pv_ort_mlas_pack_b_bytes (10, 32), ==, 16 * 32 * 4);
  g_assert_cmpuint (pv_ort_mlas_pack_b_bytes (64, 784), ==, 64 * 784 * 4);
}

/* ---- a whole session ---- */

static PvSession *
plan_file (const char *name, int threads, GHashTable *bounds, PvModel **model_out, PvKernelTable **kernels_out)
{
  g_autofree char *path = g_build_filename (data_dir, name, NULL);
  g_autoptr (GError) error = NULL;
  PvOrtArenaSettings settings;
  PvSessionOptions options = { 0 };
  PvSession *s;

  pv_ort_arena_settings_init (&settings);
  settings.intra_op_threads = threads;
  options.ort_arena = &settings;
  options.bounds = bounds;
  *model_out = pv_model_load_from_file (path, &error);
  g_assert_no_error (error);
  *kernels_out = pv_kernel_table_new_default (&error);
  g_assert_no_error (error);
  s = pv_session_new (*model_out, *kernels_out, &options, &error);
  g_assert_no_error (error);
  return s;
}

/* cnn.onnx with two intra-op threads, as ORT 1.30 ran it: Gemm's packed B
 * (16 x 32 floats) and the small initializers are reserved; the first
 * Conv's output goes into the first 1 MiB region and MLAS's working buffer
 * (2 threads x 16384 floats) sets the peak. */
static void
test_session_cnn (void)
{
  g_autoptr (PvModel) model = NULL;
  g_autoptr (PvKernelTable) kernels = NULL;
  g_autoptr (PvSession) s = NULL;
  const PvOrtArenaRun *run;

  if (data_dir == NULL)
    {
      g_test_skip ("no data directory");
      return;
    }
  s = plan_file ("cnn.onnx", 2, NULL, &model, &kernels);
  run = s->ort_run;
  g_assert_nonnull (run);
  g_assert_cmpuint (run->reserved_bytes, ==, 2408);                         /* ORT */
  g_assert_cmpint (run->n_records, ==, 10);
  g_assert_cmpuint (run->first[0].requested_in_use, ==, 67944);             /* ORT */
  g_assert_cmpuint (run->first[0].in_use, ==, 67944);                       /* ORT */
  g_assert_cmpuint (run->first[0].held, ==, 1050984);                       /* ORT */
  g_assert_cmpuint (run->first[0].in_use_peak, ==, 199016);                 /* ORT */
  g_assert_cmpuint (run->first[1].requested_in_use, ==, 133480);            /* ORT */
  g_assert_true (run->has_pattern);
  g_assert_cmpuint (run->pattern_bytes, ==, 131072);                        /* ORT */
  g_assert_false (run->approximate);
  g_assert_cmpstrv (run->unmodelled_ops, ((const char *const[]) { NULL }));
  /* One thread: MLAS works on 16384 floats. */
  {
    g_autoptr (PvModel) m1 = NULL;
    g_autoptr (PvKernelTable) k1 = NULL;
    g_autoptr (PvSession) s1 = plan_file ("cnn.onnx", 1, NULL, &m1, &k1);
    g_assert_cmpuint (s1->ort_run->first[0].in_use_peak, ==, 67944 + 65536);
  }
}

/* A model whose sizes need a symbol gets no simulation until it is bound;
 * bound, the graph output's allocation comes after the block of the
 * pattern in the second run. */
static void
test_session_symbolic (void)
{
  g_autoptr (PvModel) model = NULL;
  g_autoptr (PvKernelTable) kernels = NULL;
  g_autoptr (PvSession) s = NULL;
  g_autoptr (GHashTable) bounds = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  gint64 *one = g_new (gint64, 1);

  if (data_dir == NULL)
    {
      g_test_skip ("no data directory");
      return;
    }
  s = plan_file ("mlp.onnx", 2, NULL, &model, &kernels);
  g_assert_null (s->ort_run);
  g_clear_pointer (&s, pv_session_free);
  g_clear_pointer (&model, pv_model_free);
  g_clear_pointer (&kernels, pv_kernel_table_free);
  *one = 1;
  g_hash_table_insert (bounds, (gpointer) "batch", one);
  s = plan_file ("mlp.onnx", 2, bounds, &model, &kernels);
  g_assert_nonnull (s->ort_run);
  g_assert_cmpuint (s->ort_run->reserved_bytes, ==, 227368);                 /* ORT */
  g_assert_cmpuint (s->ort_run->first[0].requested_in_use, ==, 227624);      /* ORT */
  g_assert_cmpuint (s->ort_run->pattern_bytes, ==, 512);                     /* ORT */
  g_assert_cmpuint (s->ort_run->second[7].requested_in_use, ==, 227920);     /* ORT */
  g_assert_cmpuint (s->ort_run->second[7].in_use, ==, 228136);               /* ORT */
}

int
main (int argc, char **argv)
{
  pv_test_init (&argc, &argv, 0x13);
  data_dir = argc > 1 ? argv[1] : NULL;
  g_test_add_func ("/ort-arena/bfc/squeezenet-start", test_bfc_squeezenet_start);
  g_test_add_func ("/ort-arena/bfc/extend", test_bfc_extend);
  g_test_add_func ("/ort-arena/bfc/against-reference", test_bfc_against_reference);
  g_test_add_func ("/ort-arena/mem-pattern", test_mem_pattern);
  g_test_add_func ("/ort-arena/mem-pattern/against-reference", test_mem_pattern_against_reference);
  g_test_add_func ("/ort-arena/mem-pattern/wide", test_mem_pattern_wide);
  g_test_add_func ("/ort-arena/scratch-table", test_scratch_table_sorted);
  g_test_add_func ("/ort-arena/session/cnn", test_session_cnn);
  g_test_add_func ("/ort-arena/session/symbolic", test_session_symbolic);
  return g_test_run ();
}
