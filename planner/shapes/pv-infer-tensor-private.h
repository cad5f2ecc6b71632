/* pv-infer-tensor-private.h: helpers shared by the shape rules of ONNX's
 * tensor ops (pv-infer-reshape.c, pv-infer-index.c, pv-infer-sizes.c,
 * pv-infer-sequence.c, pv-infer-signal.c) and ORT's contrib ops
 * (pv-infer-contrib.c), defined in pv-infer-tensor-common.c. Not for other
 * callers. */
#pragma once

#include "pv-shape-inference.h"

/* Known contents are kept only for outputs of at most this many elements. */
#define PV_CONTENTS_MAX 64
/* Largest rank the rules handle with fixed-size arrays of dims. */
#define PV_MAX_RANK 64

/* a / b: exact polynomial division when possible, else floor(a / b) for a
 * constant b > 0 (ops whose spec requires divisibility), else NULL. */
const PvDimExpr *pv_infer_div_exact (PvInferContext *ctx, const PvDimExpr *a, const PvDimExpr *b);

/* Product of dims[from..to); 1 for an empty range; NULL on overflow. */
const PvDimExpr *pv_infer_dims_product (PvInferContext *ctx, const PvDimExpr *const *dims, int from, int to);

/* Copies @s's dims (s->rank entries) into @dims. */
void pv_infer_copy_dims (const PvDimExpr **dims, const PvValueShape *s);

/* @s is known and has a known rank. */
gboolean pv_infer_has_rank (const PvValueShape *s);

/* The element type of @s; 0 (unknown) when @s is NULL. */
int pv_infer_elem_of (const PvValueShape *s);

/* Normalises @axis against @rank; FALSE when out of [-rank, rank). */
gboolean pv_infer_norm_axis (gint64 axis, int rank, int *out);

/* All dims of @s constant and >= 0, rank at most PV_MAX_RANK: fills @out
 * (s->rank entries) and returns TRUE. */
gboolean pv_infer_const_dims (const PvValueShape *s, gint64 *out);

/* Known contents of input @k, every element non-NULL; NULL otherwise. */
const PvDimExpr *const *pv_infer_in_data (PvInferContext *ctx, int k, int *n_out);

/* Contents of input @k as one expression (a scalar or a 1-element tensor). */
const PvDimExpr *pv_infer_in_scalar (PvInferContext *ctx, int k);

/* Number of elements of input @k when its shape says so (rank 0 or 1);
 * -1 otherwise, also for a vector too long to be a shape. */
int pv_infer_in_vector_length (PvInferContext *ctx, int k);

/* Sets the contents of output @k to @data (n entries); does nothing when
 * @data is NULL, has a NULL element or more than PV_CONTENTS_MAX entries. */
void pv_infer_set_contents (PvInferContext *ctx, int k, const PvDimExpr *const *data, int n);

/* Output @k: type @elem_type, rank unknown. */
void pv_infer_set_unknown_rank (PvInferContext *ctx, int k, int elem_type);

/* For a rule that cannot go on without input @x's rank: FALSE when @x is
 * NULL (not known yet); else output 0 gets @x's element type and an unknown
 * rank, and TRUE. */
gboolean pv_infer_pass_unknown_rank (PvInferContext *ctx, const PvValueShape *x);

/* Output 0 of the *Like ops: input 0's shape, of the type of the "dtype"
 * attribute or else of input 0. When input 0's rank is unknown, the output
 * has @fresh_rank fresh dims named @fresh_name, or (@fresh_rank -1) an
 * unknown rank. FALSE while input 0 is unknown. */
gboolean pv_infer_like_input_dtype (PvInferContext *ctx, const PvNode *node, int fresh_rank, const char *fresh_name);

/* Integer list from attribute @attr when node->opset < @since_input, else
 * from input @k. Returns the count (>= 0), -1 when given but unknown, -2
 * when absent. An input whose shape is [0] counts as given and empty. */
int pv_infer_ints_attr_or_input (PvInferContext *ctx, const PvNode *node, const char *attr, int k, int since_input,
                                 const gint64 **out);

/* Steps @idx, an index into constant @dims, to the next element in
 * row-major order (back to all zeros after the last). */
void pv_infer_next_index (gint64 *idx, const gint64 *dims, int rank);

/* Output @k gets @s's type and shape (unknown rank when @s has none);
 * FALSE when @s is NULL, or rankless with no element type. */
gboolean pv_infer_set_like (PvInferContext *ctx, int k, const PvValueShape *s);

/* Output @k's contents as a strided view of @x's: element o, at row-major
 * index idx of @out_dims (@rank constant dims, @n_out elements), is
 * x->data[@base + sum of idx[i] * @strides[i]] (Slice, Transpose). */
void pv_infer_set_strided_contents (PvInferContext *ctx, int k, const PvValueShape *x, const gint64 *out_dims,
                                    int rank, gint64 n_out, gint64 base, const gint64 *strides);

/* Row-major strides of constant dims. */
void pv_infer_strides_of (const gint64 *dims, int rank, gint64 *strides);

/* The element count of constant dims when at most PV_CONTENTS_MAX. */
gboolean pv_infer_numel_small (const gint64 *dims, int rank, gint64 *n_out);

/* Rule for ops whose output 0 has input 0's type and shape. */
gboolean pv_infer_same_as_input0 (PvInferContext *ctx, const PvNode *node);
