/* pv-ort-kernel-scratch-rnn.c: the scratch of ORT's recurrent CPU kernels
 * (DeepCpuLstmOp, DeepCpuGruOp), fp32 only. */
#include "pv-ort-kernel-scratch-private.h"

#include <string.h>

#include "pv-element-type.h"

/* What the recurrent kernels' buffers are sized by. */
typedef struct {
  gint64 seq, batch, input, hidden;
  int directions;       /* 1 or 2 */
  gboolean reverse;     /* a single reverse direction */
  gboolean bias, seq_lens;
} RnnShape;

static gboolean
rnn_shape (const PvOrtKernelEnv *env, const PvNode *node, RnnShape *r)
{
  gint64 x[PV_ORT_KERNEL_MAX_RANK];
  const PvAttribute *direction = pv_node_find_attr (node, "direction");
  const char *dir = "forward";
  gsize len = 7;

  if (pv_ort_kernel_input_type (env, node, 0) != PV_ELEM_FLOAT || pv_ort_kernel_input_dims (env, node, 0, x) != 3)
    return FALSE;
  if (pv_infer_attr_int (node, "layout", 0) != 0)
    return FALSE;  /* batch-major layout: not modelled */
  memset (r, 0, sizeof *r);
  r->seq = x[0], r->batch = x[1], r->input = x[2];
  r->hidden = pv_infer_attr_int (node, "hidden_size", 0);
  if (r->hidden <= 0)
    return FALSE;
  if (direction && direction->s)
    dir = g_bytes_get_data (direction->s, &len);
  r->directions = len == 13 && memcmp (dir, "bidirectional", 13) == 0 ? 2 : 1;
  r->reverse = len == 7 && memcmp (dir, "reverse", 7) == 0;
  r->bias = pv_ort_kernel_has_input (node, 3);
  r->seq_lens = pv_ort_kernel_has_input (node, 4);
  return TRUE;
}

/* One UniDirectionalLstm's buffers (AllocateBuffers), in floats. */
static void
lstm_direction (PvOrtScratch *out, const RnnShape *r, gboolean reverse, gboolean peepholes)
{
  guint64 h = (guint64) r->hidden, bh = (guint64) (r->batch * r->hidden);

  pv_ort_scratch_alloc (out, h * 4);           /* hidden0 */
  pv_ort_scratch_alloc (out, h * 4);           /* internal_memory_prev */
  pv_ort_scratch_alloc (out, bh * 4);          /* batched_hidden0 */
  pv_ort_scratch_alloc (out, bh * 4);          /* batched_internal_memory_prev */
  pv_ort_scratch_alloc (out, bh * 4);          /* batched_internal_memory_clipped */
  pv_ort_scratch_alloc (out, 4 * bh * (guint64) r->seq * 4);  /* output_iofc */
  if (r->bias)
    for (int g = 0; g < 4; g++)
      pv_ort_scratch_alloc (out, h * 4);       /* bias_WR[iofc] */
  if (reverse)
    {
      pv_ort_scratch_alloc (out, (guint64) (r->seq * r->batch * r->input) * 4);  /* inputs_reverse */
      pv_ort_scratch_alloc (out, (guint64) r->seq * bh * 4);                     /* outputs_reverse */
    }
  /* Peephole weights are read in place (LSTM_NO_PEEPHOLE_COPY, as ORT
   * 1.30's profile of test_lstm_with_peepholes shows). */
  (void) peepholes;
}

/* LSTMBase::ComputeImpl: Y, Y_h, Y_c; stand-ins for missing Y_h / Y_c;
 * each direction's buffers (both directions are made before either runs);
 * then each direction's sequence lengths when none are given. */
gboolean
pv_ort_scratch_lstm (const PvOrtKernelEnv *env, const PvNode *node, PvOrtScratch *out)
{
  RnnShape r;
  guint64 state = 0;
  gboolean peepholes = pv_ort_kernel_has_input (node, 7);

  if (!rnn_shape (env, node, &r))
    return FALSE;
  state = (guint64) (r.batch * r.hidden * r.directions) * 4;
  pv_ort_scratch_outputs (out);
  if (!pv_ort_kernel_has_output (node, 1))
    pv_ort_scratch_alloc (out, state);
  if (!pv_ort_kernel_has_output (node, 2))
    pv_ort_scratch_alloc (out, state);
  lstm_direction (out, &r, r.reverse, peepholes);
  if (r.directions == 2)
    lstm_direction (out, &r, TRUE, peepholes);
  for (int d = 0; d < r.directions && !r.seq_lens; d++)
    pv_ort_scratch_alloc (out, (guint64) r.batch * 4);
  return out->n_steps < PV_ORT_SCRATCH_MAX_STEPS;
}

/* One UniDirectionalGru's buffers (AllocateBuffers), in floats. */
static void
gru_direction (PvOrtScratch *out, const RnnShape *r, gboolean reverse, gboolean linear_before_reset)
{
  guint64 bh = (guint64) (r->batch * r->hidden), bs = (guint64) (r->batch * r->seq);

  pv_ort_scratch_alloc (out, bh * 4);          /* cur_h */
  pv_ort_scratch_alloc (out, bh * 4);          /* batched_hidden0 */
  if (r->bias)
    {
      pv_ort_scratch_alloc (out, bh * 4);      /* batched_bias_WRz */
      pv_ort_scratch_alloc (out, bh * 4);      /* batched_bias_WRr */
      pv_ort_scratch_alloc (out, bh * 4);      /* batched_bias_Wh or WRh */
      if (linear_before_reset)
        pv_ort_scratch_alloc (out, bh * 4);    /* batched_bias_Rh */
    }
  if (linear_before_reset)
    pv_ort_scratch_alloc (out, bh * 4);        /* linear_output */
  pv_ort_scratch_alloc (out, 3 * (guint64) r->hidden * bs * 4);  /* outputZRH */
  if (reverse)
    {
      pv_ort_scratch_alloc (out, bs * (guint64) r->input * 4);   /* inputs_reverse */
      pv_ort_scratch_alloc (out, bs * (guint64) r->hidden * 4);  /* outputs_reverse */
    }
}

/* DeepCpuGruOp::ComputeImpl: Y, Y_h; a stand-in for a missing Y_h; each
 * direction's buffers; each direction's sequence lengths when none. */
gboolean
pv_ort_scratch_gru (const PvOrtKernelEnv *env, const PvNode *node, PvOrtScratch *out)
{
  RnnShape r;
  gboolean lbr = pv_infer_attr_int (node, "linear_before_reset", 0) != 0;

  if (!rnn_shape (env, node, &r))
    return FALSE;
  pv_ort_scratch_outputs (out);
  if (!pv_ort_kernel_has_output (node, 1))
    pv_ort_scratch_alloc (out, (guint64) (r.batch * r.hidden * r.directions) * 4);
  gru_direction (out, &r, r.reverse, lbr);
  if (r.directions == 2)
    gru_direction (out, &r, TRUE, lbr);
  for (int d = 0; d < r.directions && !r.seq_lens; d++)
    pv_ort_scratch_alloc (out, (guint64) r.batch * 4);
  return out->n_steps < PV_ORT_SCRATCH_MAX_STEPS;
}
