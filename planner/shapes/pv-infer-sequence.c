/* pv-infer-sequence.c: shape rules for ONNX's sequence and optional ops
 * (the "" domain): SequenceConstruct, SequenceAt, SequenceEmpty,
 * SequenceInsert, SequenceErase, SequenceLength, SplitToSequence,
 * ConcatFromSequence, Optional, OptionalGetElement, OptionalHasElement.
 *
 * Written from the ONNX operator specifications. */
#include "pv-element-type.h"
#include "pv-infer-dims.h"
#include "pv-infer-tensor-private.h"

/* ---- sequences and optionals ---- */

static gboolean
infer_sequence_construct (PvInferContext *ctx, const PvNode *node)
{
  int elem = pv_infer_elem_of (pv_infer_input (ctx, 0));

  (void) node;
  pv_infer_set_output_kind (ctx, 0, PV_TYPE_SEQUENCE, elem);
  return TRUE;
}

static gboolean
infer_sequence_empty (PvInferContext *ctx, const PvNode *node)
{
  pv_infer_set_output_kind (ctx, 0, PV_TYPE_SEQUENCE, (int) pv_infer_attr_int (node, "dtype", PV_ELEM_FLOAT));
  return TRUE;
}

static gboolean
infer_sequence_like_input (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *s = pv_infer_input (ctx, 0);
  int elem = pv_infer_elem_of (s);

  (void) node;
  if (elem == 0 && pv_infer_n_inputs (ctx) > 1)
    elem = pv_infer_elem_of (pv_infer_input (ctx, 1)); /* SequenceInsert's tensor */
  if (s == NULL)
    return FALSE;
  pv_infer_set_output_kind (ctx, 0, PV_TYPE_SEQUENCE, elem);
  return TRUE;
}

static gboolean
infer_sequence_at (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *s = pv_infer_input (ctx, 0);

  (void) node;
  if (s == NULL || s->elem_type == 0)
    return FALSE;
  return pv_infer_set_like (ctx, 0, s);
}

static gboolean
infer_sequence_length (PvInferContext *ctx, const PvNode *node)
{
  (void) node;
  pv_infer_set_output (ctx, 0, PV_ELEM_INT64, 0, NULL);
  return TRUE;
}

static gboolean
infer_split_to_sequence (PvInferContext *ctx, const PvNode *node)
{
  (void) node;
  if (pv_infer_input (ctx, 0) == NULL)
    return FALSE;
  pv_infer_set_output_kind (ctx, 0, PV_TYPE_SEQUENCE, pv_infer_elem_of (pv_infer_input (ctx, 0)));
  return TRUE;
}

static gboolean
infer_concat_from_sequence (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *s = pv_infer_input (ctx, 0);
  gboolean new_axis = pv_infer_attr_int (node, "new_axis", 0) != 0;
  int r, out_rank, axis, j = 0;
  g_autofree const PvDimExpr **dims = NULL;

  if (s == NULL || !pv_infer_has_rank (s))
    return pv_infer_pass_unknown_rank (ctx, s);
  r = s->rank;
  out_rank = new_axis ? r + 1 : r;
  if (!pv_infer_norm_axis (pv_infer_attr_int (node, "axis", 0), out_rank, &axis))
    {
      pv_infer_warn (ctx, "ConcatFromSequence: axis out of range for rank %d", out_rank);
      return FALSE;
    }
  dims = g_new0 (const PvDimExpr *, MAX (out_rank, 1));
  for (int i = 0; i < out_rank; i++)
    {
      if (i == axis)
        {
          dims[i] = pv_infer_fresh (ctx, "concatfromsequence");
          if (!new_axis)
            j++;
        }
      else
        dims[i] = s->dims[j++];
    }
  pv_infer_set_output (ctx, 0, s->elem_type, out_rank, dims);
  return TRUE;
}

static gboolean
infer_optional (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *s = pv_infer_input (ctx, 0);
  int elem = pv_infer_elem_of (s);

  (void) node;
  pv_infer_set_output_kind (ctx, 0, PV_TYPE_OPTIONAL, elem);
  return TRUE;
}

static gboolean
infer_optional_get_element (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *s = pv_infer_input (ctx, 0);

  (void) node;
  if (s == NULL)
    return FALSE;
  if (s->kind == PV_TYPE_SEQUENCE)
    {
      pv_infer_set_output_kind (ctx, 0, PV_TYPE_SEQUENCE, s->elem_type);
      return TRUE;
    }
  if (s->elem_type == 0)
    return FALSE;
  return pv_infer_set_like (ctx, 0, s);
}

static gboolean
infer_optional_has_element (PvInferContext *ctx, const PvNode *node)
{
  (void) node;
  pv_infer_set_output (ctx, 0, PV_ELEM_BOOL, 0, NULL);
  return TRUE;
}

const PvInferOp pv_infer_ops_sequence[] = {
  { "", "Optional", infer_optional },
  { "", "OptionalGetElement", infer_optional_get_element },
  { "", "OptionalHasElement", infer_optional_has_element },
  { "", "SequenceConstruct", infer_sequence_construct },
  { "", "SequenceAt", infer_sequence_at },
  { "", "SequenceEmpty", infer_sequence_empty },
  { "", "SequenceInsert", infer_sequence_like_input },
  { "", "SequenceErase", infer_sequence_like_input },
  { "", "SequenceLength", infer_sequence_length },
  { "", "SplitToSequence", infer_split_to_sequence },
  { "", "ConcatFromSequence", infer_concat_from_sequence },
  { NULL },
};
