/* pv-test-model.h: models built in tests, loaded (and inferred) in one call.
 *
 * Needs the planner: compiled into the targets that link it (see
 * pv_test_support_src in meson.build), never into the builder's library. */
#pragma once

#include "pv-model-loader.h"
#include "pv-onnx-builder.h"
#include "pv-session.h"
#include "pv-shape-inference.h"

G_BEGIN_DECLS

/* A builder for IR 8 with the default ONNX domain at @opset. */
PvOnnxBuilder *pv_test_builder_new (gint64 opset);

/* Packs @builder, frees it and loads the bytes as "@name". Asserts that the
 * model loads. */
PvModel *pv_test_load_built (PvOnnxBuilder *builder, const char *name);

/* A model at opset 17 with the float graph inputs and outputs @inputs and
 * @outputs ("x:4 y:4") through the nodes of @nodes ("Relu n0 x>y"), as
 * pv-onnx-text.h writes them, loaded as "test.onnx". */
PvModel *pv_test_load_text (const char *inputs, const char *nodes, const char *outputs);

/* A session for @model with the partition config text @partition and the
 * symbol bounds @bounds (NULL for none); asserts that it plans. */
PvSession *pv_test_session_new (const PvModel *model, const PvKernelTable *kernels, const char *partition,
                                GHashTable *bounds);

/* A built model with its shape inference. */
typedef struct {
  PvModel *model;
  PvShapeInfo *info;
  PvDimPool *pool;             /* the inference's own: build expected dims here */
} PvTestInferred;

/* Loads @builder (freed) and infers shapes without bounds; asserts both work. */
PvTestInferred pv_test_infer (PvOnnxBuilder *builder);
/* Frees what @inferred holds and zeroes it; safe on a zeroed one, so that
 * g_auto (PvTestInferred) r = { 0 } may be inferred more than once. */
void pv_test_inferred_clear (PvTestInferred *inferred);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (PvTestInferred, pv_test_inferred_clear)

/* The inferred shape of value @name; asserts that it exists. */
const PvValueShape *pv_test_inferred_shape (const PvTestInferred *inferred, const char *name);

/* @dims as "@open a,b,c @close", e.g. "[batch,seq-1,768]". */
char *pv_test_dims_text (const PvDimExpr *const *dims, int n, const char *open, const char *close);

/* The inferred dims of value @name as "[batch,seq,768]", "?" for an unknown
 * rank. */
char *pv_test_shape_text (const PvTestInferred *inferred, const char *name);

/* The inferred shapes of the values named in @names, written as
 * pv_test_assert_shapes() expects them. */
char *pv_test_shapes_text (const PvTestInferred *inferred, gboolean typed, const char *names);

/* Asserts the inferred shapes of the values named in @expected, written
 * "name=[dims]; name=[dims]" as pv_test_shape_text() gives them, with the
 * element type's name before the dims when @typed ("y=float32[batch,768]"). */
#define pv_test_assert_shapes(inferred, typed, expected)                     \
  G_STMT_START                                                               \
  {                                                                          \
    g_autofree char *got_ = pv_test_shapes_text (inferred, typed, expected); \
    g_assert_cmpstr (got_, ==, expected);                                    \
  }                                                                          \
  G_STMT_END

/* The known contents of value @name as "{batch,-1,12,64}", "none" when
 * they are not known. */
char *pv_test_data_text (const PvTestInferred *inferred, const char *name);

/* Asserts that value @name's contents read @want (pv_test_data_text()). */
#define pv_test_assert_data(inferred, name, want)                 \
  G_STMT_START                                                    \
  {                                                               \
    g_autofree char *got_ = pv_test_data_text (inferred, name);   \
    g_assert_cmpstr (got_, ==, want);                             \
  }                                                               \
  G_STMT_END

G_END_DECLS
