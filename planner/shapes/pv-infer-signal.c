/* pv-infer-signal.c: shape rules for the remaining ONNX tensor ops (the ""
 * domain): resampling (Resize, Upsample), vision (GridSample, RoiAlign,
 * Col2Im, CenterCropPad, AffineGrid), signal processing (DFT, STFT, window
 * generators, MelWeightMatrix), random generators, Det, and ops shaped like
 * their first input (Trilu, ReverseSequence, RotaryEmbedding).
 *
 * Written from the ONNX operator specifications. Opset differences are taken
 * from node->opset (the imported version of the node's domain). */
#include <math.h>

#include "pv-element-type.h"
#include "pv-infer-dims.h"
#include "pv-infer-tensor-private.h"

/* ---- Det ---- */

static gboolean
infer_det (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);

  (void) node;
  if (x == NULL || !pv_infer_has_rank (x) || x->rank < 2)
    return pv_infer_pass_unknown_rank (ctx, x);
  pv_infer_set_output (ctx, 0, x->elem_type, x->rank - 2, x->dims);
  return TRUE;
}

/* ---- Resize, Upsample ---- */

/* Float contents of input @k (Resize scales); -1 when unknown. Integral
 * contents come from the data; others only from an initializer. */
static int
input_doubles (PvInferContext *ctx, int k, double *out, int max)
{
  const PvValueShape *s = pv_infer_input (ctx, k);
  int n = 0;
  const PvDimExpr *const *d;
  guint64 count;

  if (s != NULL && s->tensor != NULL && pv_tensor_n_elements (s->tensor, &count) && count <= (guint64) max)
    {
      gboolean ok = TRUE;
      for (guint64 i = 0; i < count && ok; i++)
        ok = pv_tensor_get_double (s->tensor, i, &out[i]);
      if (ok)
        return (int) count;
    }
  d = pv_infer_in_data (ctx, k, &n);
  if (d == NULL)
    return pv_infer_in_vector_length (ctx, k) == 0 ? 0 : -1;
  if (n > max)
    return -1;
  for (int i = 0; i < n; i++)
    {
      gint64 v;
      if (!is_const (d[i], &v))
        return -1;
      out[i] = (double) v;
    }
  return n;
}

/* floor(dim * scale) for a float scale, computed in single precision as
 * ONNX Runtime and ONNX's own inference do (10 * 0.7f is 7 there). */
static const PvDimExpr *
scale_dim (PvInferContext *ctx, const PvDimExpr *dim, double scale)
{
  gint64 v;

  if (scale == 1.0)
    return dim;
  if (is_const (dim, &v))
    {
      double r = floorf ((float) v * (float) scale);
      return r >= 0 && r < 9.0e15 ? cst (ctx, (gint64) r) : NULL;
    }
  if (scale > 0 && scale == floor (scale) && scale < 9.0e15)
    return d_mul (ctx, dim, cst (ctx, (gint64) scale));
  if (scale > 0 && scale < 1 && 1.0 / scale == floor (1.0 / scale) && 1.0 / scale < 9.0e15)
    return pv_dim_floor_div (pv_infer_pool (ctx), dim, (gint64) (1.0 / scale));
  return NULL;
}

/* Resize's axes (the "axes" attribute from opset 18, else every axis of
 * rank @r) normalised into @axes; their count, or -1 when out of range. */
static int
resize_axes (PvInferContext *ctx, const PvNode *node, int r, int *axes)
{
  const gint64 *axes_v = NULL;
  int n_axes = node->opset >= 18 ? pv_infer_attr_ints (node, "axes", &axes_v) : 0;

  if (axes_v == NULL)
    {
      for (int i = 0; i < r; i++)
        axes[i] = i;
      return r;
    }
  if (n_axes > PV_MAX_RANK)
    return -1;
  for (int i = 0; i < n_axes; i++)
    if (!pv_infer_norm_axis (axes_v[i], r, &axes[i]))
      {
        pv_infer_warn (ctx, "%s: axis out of range for rank %d", node->op_type, r);
        return -1;
      }
  return n_axes;
}

/* Resize to known @sizes (one per axis of @axes): the sizes themselves, or
 * under keep_aspect_ratio_policy not_larger / not_smaller (opset 18) one
 * scale for every axis, the smallest / largest size ratio, when all are
 * constant. */
static void
set_sized_dims (PvInferContext *ctx, const PvNode *node, const PvValueShape *x, const PvDimExpr *const *sizes,
                const int *axes, int n_axes, const PvDimExpr **dims)
{
  const char *policy = NULL;
  const PvAttribute *pa = node->opset >= 18 ? pv_node_find_attr (node, "keep_aspect_ratio_policy") : NULL;
  gboolean not_larger, known = TRUE;
  double scale;
  gint64 in_v[PV_MAX_RANK];

  if (pa != NULL && pa->type == PV_ATTR_STRING && pa->s != NULL)
    policy = g_bytes_get_data (pa->s, NULL);
  if (policy == NULL || pa->s == NULL || g_bytes_get_size (pa->s) == 0 ||
      (strncmp (policy, "not_larger", g_bytes_get_size (pa->s)) != 0 &&
       strncmp (policy, "not_smaller", g_bytes_get_size (pa->s)) != 0))
    {
      for (int i = 0; i < n_axes; i++)
        dims[axes[i]] = sizes[i];
      return;
    }
  not_larger = policy[4] == 'l';
  scale = not_larger ? G_MAXDOUBLE : 0;
  for (int i = 0; i < n_axes && known; i++)
    {
      gint64 sv;
      if (!is_const (sizes[i], &sv) || !is_const (x->dims[axes[i]], &in_v[i]) || in_v[i] <= 0)
        known = FALSE;
      else
        {
          double s = (double) sv / (double) in_v[i];
          scale = not_larger ? MIN (scale, s) : MAX (scale, s);
        }
    }
  for (int i = 0; i < n_axes; i++)
    {
      double v = known ? round (scale * (double) in_v[i]) : -1;
      dims[axes[i]] = v >= 0 && v < 9.0e15 ? cst (ctx, (gint64) v) : NULL;
    }
}

static gboolean
infer_resize_common (PvInferContext *ctx, const PvNode *node, const double *scales_in, int n_scales_in,
                     int scales_k, int sizes_k, const char *prefix)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  double scales_buf[PV_MAX_RANK];
  const double *scales = scales_in;
  int n_scales = n_scales_in, n_sizes = -2, r, n_axes;
  const PvDimExpr *const *sizes = NULL;
  int axes[PV_MAX_RANK];
  g_autofree const PvDimExpr **dims = NULL;

  if (x == NULL || !pv_infer_has_rank (x) || x->rank > PV_MAX_RANK)
    return pv_infer_pass_unknown_rank (ctx, x);
  r = x->rank;
  dims = g_new0 (const PvDimExpr *, MAX (r, 1));
  pv_infer_copy_dims (dims, x);

  n_axes = resize_axes (ctx, node, r, axes);
  if (n_axes < 0)
    return FALSE;

  if (sizes_k >= 0 && pv_infer_input (ctx, sizes_k) != NULL && pv_infer_in_vector_length (ctx, sizes_k) != 0)
    {
      sizes = pv_infer_in_data (ctx, sizes_k, &n_sizes);
      if (sizes == NULL)
        n_sizes = -1;
    }
  if (n_sizes == -2 && scales == NULL && scales_k >= 0 && pv_infer_input (ctx, scales_k) != NULL)
    {
      n_scales = input_doubles (ctx, scales_k, scales_buf, PV_MAX_RANK);
      scales = n_scales > 0 ? scales_buf : NULL;
      if (n_scales == 0)
        n_scales = -2;
    }

  if (n_sizes >= 0)
    {
      if (n_sizes != n_axes)
        {
          pv_infer_warn (ctx, "%s: %d sizes for %d axes", node->op_type, n_sizes, n_axes);
          return FALSE;
        }
      set_sized_dims (ctx, node, x, sizes, axes, n_axes, dims);
    }
  else if (n_sizes == -1)
    for (int i = 0; i < n_axes; i++)
      dims[axes[i]] = NULL;
  else if (n_scales > 0 && scales != NULL)
    {
      if (n_scales != n_axes)
        {
          pv_infer_warn (ctx, "%s: %d scales for %d axes", node->op_type, n_scales, n_axes);
          return FALSE;
        }
      for (int i = 0; i < n_axes; i++)
        dims[axes[i]] = scale_dim (ctx, x->dims[axes[i]], scales[i]);
    }
  else
    for (int i = 0; i < n_axes; i++)
      dims[axes[i]] = NULL;

  for (int i = 0; i < r; i++)
    dims[i] = or_fresh (ctx, dims[i], prefix);
  pv_infer_set_output (ctx, 0, x->elem_type, r, dims);
  return TRUE;
}

static gboolean
infer_resize (PvInferContext *ctx, const PvNode *node)
{
  if (node->opset < 11)
    return infer_resize_common (ctx, node, NULL, -2, 1, -1, "resize");
  return infer_resize_common (ctx, node, NULL, -2, 2, 3, "resize");
}

static gboolean
infer_upsample (PvInferContext *ctx, const PvNode *node)
{
  if (node->opset < 9)
    {
      const PvAttribute *a = pv_node_find_attr (node, "scales");
      double scales[PV_MAX_RANK];
      int n = 0;
      if (a != NULL && a->type == PV_ATTR_FLOATS && a->n <= PV_MAX_RANK)
        {
          n = (int) a->n;
          for (int i = 0; i < n; i++)
            scales[i] = a->floats[i];
        }
      else if (node->opset < 7)
        {
          /* Upsample-1: height_scale and width_scale on NCHW. */
          n = 4;
          scales[0] = scales[1] = 1.0;
          scales[2] = pv_infer_attr_float (node, "height_scale", 1.0f);
          scales[3] = pv_infer_attr_float (node, "width_scale", 1.0f);
        }
      return infer_resize_common (ctx, node, n > 0 ? scales : NULL, n > 0 ? n : -2, -1, -1, "upsample");
    }
  return infer_resize_common (ctx, node, NULL, -2, 1, -1, "upsample");
}

/* ---- vision and signal ops ---- */

static gboolean
infer_grid_sample (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvValueShape *grid = pv_infer_input (ctx, 1);
  g_autofree const PvDimExpr **dims = NULL;
  int r;

  (void) node;
  if (x == NULL)
    return FALSE;
  if (!pv_infer_has_rank (grid) || grid->rank < 3)
    {
      if (pv_infer_has_rank (x))
        {
          dims = g_new0 (const PvDimExpr *, MAX (x->rank, 1));
          for (int i = 0; i < x->rank; i++)
            dims[i] = i < 2 ? x->dims[i] : pv_infer_fresh (ctx, "gridsample");
          pv_infer_set_output (ctx, 0, x->elem_type, x->rank, dims);
        }
      else
        pv_infer_set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  r = grid->rank; /* [N, D1..Dk, k]: the output is [N, C, D1..Dk] */
  dims = g_new0 (const PvDimExpr *, r);
  dims[0] = pv_infer_has_rank (x) && x->rank >= 1 ? x->dims[0] : grid->dims[0];
  dims[1] = pv_infer_has_rank (x) && x->rank >= 2 ? x->dims[1] : pv_infer_fresh (ctx, "gridsample");
  for (int i = 1; i < r - 1; i++)
    dims[i + 1] = grid->dims[i];
  pv_infer_set_output (ctx, 0, x->elem_type, r, dims);
  return TRUE;
}

static gboolean
infer_roi_align (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvValueShape *rois = pv_infer_input (ctx, 1);
  const PvValueShape *bi = pv_infer_input (ctx, 2);
  const PvDimExpr *dims[4];

  if (x == NULL)
    return FALSE;
  dims[0] = pv_infer_has_rank (rois) && rois->rank == 2 ? rois->dims[0]
            : pv_infer_has_rank (bi) && bi->rank == 1 ? bi->dims[0]
                                                      : NULL;
  dims[1] = pv_infer_has_rank (x) && x->rank == 4 ? x->dims[1] : NULL;
  dims[2] = cst (ctx, pv_infer_attr_int (node, "output_height", 1));
  dims[3] = cst (ctx, pv_infer_attr_int (node, "output_width", 1));
  dims[0] = or_fresh (ctx, dims[0], "roialign");
  dims[1] = or_fresh (ctx, dims[1], "roialign");
  pv_infer_set_output (ctx, 0, x->elem_type, 4, dims);
  return TRUE;
}

static gboolean
infer_col2im (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvDimExpr *const *image = NULL;
  gint64 *block = NULL;
  int n_image = 0, n_block, n;
  g_autofree const PvDimExpr **dims = NULL;

  (void) node;
  if (x == NULL)
    return FALSE;
  image = pv_infer_in_data (ctx, 1, &n_image);
  n = image != NULL ? n_image : pv_infer_in_vector_length (ctx, 1);
  if (n < 0)
    n = pv_infer_in_vector_length (ctx, 2);
  if (n < 0)
    {
      pv_infer_set_unknown_rank (ctx, 0, x->elem_type);
      return TRUE;
    }
  dims = g_new0 (const PvDimExpr *, n + 2);
  n_block = pv_infer_input_ints (ctx, 2, &block);
  if (pv_infer_has_rank (x) && x->rank == 3)
    {
      dims[0] = x->dims[0];
      if (n_block == n)
        {
          gint64 p = 1;
          for (int i = 0; i < n_block; i++)
            p *= block[i];
          if (p > 0)
            dims[1] = pv_infer_div_exact (ctx, x->dims[1], cst (ctx, p));
        }
    }
  for (int i = 0; i < n; i++)
    dims[i + 2] = image != NULL ? image[i] : NULL;
  for (int i = 0; i < n + 2; i++)
    dims[i] = or_fresh (ctx, dims[i], "col2im");
  pv_infer_set_output (ctx, 0, x->elem_type, n + 2, dims);
  return TRUE;
}

static gboolean
infer_center_crop_pad (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvDimExpr *const *shape;
  const gint64 *axes_v = NULL;
  int n = 0, n_axes, r;
  g_autofree const PvDimExpr **dims = NULL;

  if (x == NULL || !pv_infer_has_rank (x))
    return pv_infer_pass_unknown_rank (ctx, x);
  r = x->rank;
  shape = pv_infer_in_data (ctx, 1, &n);
  n_axes = pv_infer_attr_ints (node, "axes", &axes_v);
  if (axes_v == NULL)
    n_axes = r;
  dims = g_new0 (const PvDimExpr *, MAX (r, 1));
  pv_infer_copy_dims (dims, x);
  if (shape != NULL && n != n_axes)
    {
      pv_infer_warn (ctx, "CenterCropPad: %d sizes for %d axes", n, n_axes);
      return FALSE;
    }
  for (int i = 0; i < n_axes; i++)
    {
      int a = i;
      if (axes_v != NULL && !pv_infer_norm_axis (axes_v[i], r, &a))
        {
          pv_infer_warn (ctx, "CenterCropPad: axis out of range for rank %d", r);
          return FALSE;
        }
      dims[a] = or_fresh (ctx, shape != NULL ? shape[i] : NULL, "centercroppad");
    }
  pv_infer_set_output (ctx, 0, x->elem_type, r, dims);
  return TRUE;
}

static gboolean
infer_dft (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  gboolean onesided = pv_infer_attr_int (node, "onesided", 0) != 0;
  gboolean inverse = pv_infer_attr_int (node, "inverse", 0) != 0;
  const PvDimExpr *len = pv_infer_in_scalar (ctx, 1);
  g_autofree const PvDimExpr **dims = NULL;
  gint64 axis_v;
  int r, axis;

  if (x == NULL || !pv_infer_has_rank (x) || x->rank < 2)
    return pv_infer_pass_unknown_rank (ctx, x);
  r = x->rank;
  if (node->opset >= 20)
    {
      const PvDimExpr *a = pv_infer_in_scalar (ctx, 2);
      if (pv_infer_input (ctx, 2) == NULL)
        axis_v = -2;
      else if (!is_const (a, &axis_v))
        {
          dims = g_new0 (const PvDimExpr *, r);
          dims[0] = x->dims[0];
          for (int i = 1; i < r - 1; i++)
            dims[i] = pv_infer_fresh (ctx, "dft");
          dims[r - 1] = cst (ctx, onesided && inverse ? 1 : 2);
          pv_infer_set_output (ctx, 0, x->elem_type, r, dims);
          return TRUE;
        }
    }
  else
    axis_v = pv_infer_attr_int (node, "axis", 1);
  if (!pv_infer_norm_axis (axis_v, r, &axis) || axis == r - 1)
    {
      pv_infer_warn (ctx, "DFT: axis out of range for rank %d", r);
      return FALSE;
    }
  dims = g_new0 (const PvDimExpr *, r);
  pv_infer_copy_dims (dims, x);
  if (onesided && inverse)
    {
      /* Inverse of a one-sided spectrum: a real signal of dft_length, by
       * default 2 * (n - 1). */
      if (pv_infer_input (ctx, 1) != NULL)
        dims[axis] = len;
      else
        dims[axis] = d_mul (ctx, d_sub (ctx, dims[axis], cst (ctx, 1)), cst (ctx, 2));
      dims[r - 1] = cst (ctx, 1);
    }
  else
    {
      if (pv_infer_input (ctx, 1) != NULL)
        dims[axis] = len;
      if (onesided && dims[axis] != NULL)
        dims[axis] = d_add (ctx, pv_dim_floor_div (pv_infer_pool (ctx), dims[axis], 2), cst (ctx, 1));
      dims[r - 1] = cst (ctx, 2);
    }
  dims[axis] = or_fresh (ctx, dims[axis], "dft");
  pv_infer_set_output (ctx, 0, x->elem_type, r, dims);
  return TRUE;
}

static gboolean
infer_stft (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvValueShape *window = pv_infer_input (ctx, 2);
  gboolean onesided = pv_infer_attr_int (node, "onesided", 1) != 0;
  const PvDimExpr *step = pv_infer_in_scalar (ctx, 1), *frame = NULL, *dims[4], *frames = NULL;
  gint64 stepv;

  if (x == NULL)
    return FALSE;
  if (pv_infer_input (ctx, 3) != NULL)
    frame = pv_infer_in_scalar (ctx, 3);
  else if (pv_infer_has_rank (window) && window->rank == 1)
    frame = window->dims[0];
  dims[0] = pv_infer_has_rank (x) && x->rank == 3 ? x->dims[0] : NULL;
  if (pv_infer_has_rank (x) && x->rank == 3 && frame != NULL && is_const (step, &stepv) && stepv > 0)
    frames = d_add (ctx, pv_dim_floor_div (pv_infer_pool (ctx), d_sub (ctx, x->dims[1], frame), stepv),
                    cst (ctx, 1));
  dims[1] = frames;
  dims[2] = frame != NULL && onesided ? d_add (ctx, pv_dim_floor_div (pv_infer_pool (ctx), frame, 2), cst (ctx, 1))
                                      : frame;
  dims[3] = cst (ctx, 2);
  for (int i = 0; i < 3; i++)
    dims[i] = or_fresh (ctx, dims[i], "stft");
  pv_infer_set_output (ctx, 0, x->elem_type, 4, dims);
  return TRUE;
}

/* ---- generators and small ONNX additions ---- */

/* HannWindow, HammingWindow, BlackmanWindow: [size]. */
static gboolean
infer_window (PvInferContext *ctx, const PvNode *node)
{
  const PvDimExpr *n = or_fresh (ctx, pv_infer_in_scalar (ctx, 0), "window");

  pv_infer_set_output (ctx, 0, (int) pv_infer_attr_int (node, "output_datatype", PV_ELEM_FLOAT), 1, &n);
  return TRUE;
}

/* MelWeightMatrix: [floor(dft_length / 2) + 1, num_mel_bins]. */
static gboolean
infer_mel_weight_matrix (PvInferContext *ctx, const PvNode *node)
{
  const PvDimExpr *dft = pv_infer_in_scalar (ctx, 1), *dims[2];

  dims[0] = dft != NULL ? d_add (ctx, pv_dim_floor_div (pv_infer_pool (ctx), dft, 2), cst (ctx, 1)) : NULL;
  dims[1] = pv_infer_in_scalar (ctx, 0);
  dims[0] = or_fresh (ctx, dims[0], "melweightmatrix");
  dims[1] = or_fresh (ctx, dims[1], "melweightmatrix");
  pv_infer_set_output (ctx, 0, (int) pv_infer_attr_int (node, "output_datatype", PV_ELEM_FLOAT), 2, dims);
  return TRUE;
}

/* RandomNormal, RandomUniform: the shape attribute, dtype default float. */
static gboolean
infer_random (PvInferContext *ctx, const PvNode *node)
{
  const gint64 *shape = NULL;
  int n = pv_infer_attr_ints (node, "shape", &shape);
  int elem = (int) pv_infer_attr_int (node, "dtype", PV_ELEM_FLOAT);
  g_autofree const PvDimExpr **dims = NULL;

  if (shape == NULL)
    {
      pv_infer_set_unknown_rank (ctx, 0, elem);
      return TRUE;
    }
  dims = g_new0 (const PvDimExpr *, MAX (n, 1));
  for (int i = 0; i < n; i++)
    dims[i] = shape[i] >= 0 ? cst (ctx, shape[i]) : pv_infer_fresh (ctx, "random");
  pv_infer_set_output (ctx, 0, elem, n, dims);
  return TRUE;
}

/* RandomNormalLike, RandomUniformLike, Bernoulli: the input's shape, dtype
 * attribute or the input's type. */
static gboolean
infer_random_like (PvInferContext *ctx, const PvNode *node)
{
  return pv_infer_like_input_dtype (ctx, node, -1, NULL);
}

/* Multinomial: [batch_size, sample_size], dtype default int32. */
static gboolean
infer_multinomial (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *x = pv_infer_input (ctx, 0);
  const PvDimExpr *dims[2];

  dims[0] = or_fresh (ctx, pv_infer_has_rank (x) && x->rank == 2 ? x->dims[0] : NULL, "multinomial");
  dims[1] = cst (ctx, pv_infer_attr_int (node, "sample_size", 1));
  pv_infer_set_output (ctx, 0, (int) pv_infer_attr_int (node, "dtype", PV_ELEM_INT32), 2, dims);
  return TRUE;
}

/* AffineGrid: theta (N, 2, 3) and size (N, C, H, W) give (N, H, W, 2);
 * theta (N, 3, 4) and size (N, C, D, H, W) give (N, D, H, W, 3). */
static gboolean
infer_affine_grid (PvInferContext *ctx, const PvNode *node)
{
  const PvValueShape *theta = pv_infer_input (ctx, 0);
  const PvDimExpr *const *size;
  const PvDimExpr *dims[5];
  int n = 0, k;

  (void) node;
  if (theta == NULL)
    return FALSE;
  size = pv_infer_in_data (ctx, 1, &n);
  if (size == NULL)
    n = pv_infer_in_vector_length (ctx, 1);
  if (n != 4 && n != 5)
    {
      pv_infer_set_unknown_rank (ctx, 0, theta->elem_type);
      return TRUE;
    }
  k = n - 2; /* spatial rank */
  dims[0] = size != NULL ? size[0] : pv_infer_has_rank (theta) && theta->rank == 3 ? theta->dims[0] : NULL;
  for (int i = 0; i < k; i++)
    dims[1 + i] = size != NULL ? size[2 + i] : NULL;
  dims[k + 1] = cst (ctx, k);
  for (int i = 0; i <= k; i++)
    dims[i] = or_fresh (ctx, dims[i], "affinegrid");
  pv_infer_set_output (ctx, 0, theta->elem_type, k + 2, dims);
  return TRUE;
}

const PvInferOp pv_infer_ops_signal[] = {
  { "", "Trilu", pv_infer_same_as_input0 },
  { "", "Resize", infer_resize },
  { "", "Upsample", infer_upsample },
  { "", "Det", infer_det },
  { "", "ReverseSequence", pv_infer_same_as_input0 },
  { "", "GridSample", infer_grid_sample },
  { "", "RoiAlign", infer_roi_align },
  { "", "Col2Im", infer_col2im },
  { "", "CenterCropPad", infer_center_crop_pad },
  { "", "DFT", infer_dft },
  { "", "STFT", infer_stft },
  { "", "HannWindow", infer_window },
  { "", "HammingWindow", infer_window },
  { "", "BlackmanWindow", infer_window },
  { "", "MelWeightMatrix", infer_mel_weight_matrix },
  { "", "RandomNormal", infer_random },
  { "", "RandomUniform", infer_random },
  { "", "RandomNormalLike", infer_random_like },
  { "", "RandomUniformLike", infer_random_like },
  { "", "Bernoulli", infer_random_like },
  { "", "Multinomial", infer_multinomial },
  { "", "AffineGrid", infer_affine_grid },
  { "", "RotaryEmbedding", pv_infer_same_as_input0 },
  { NULL },
};
