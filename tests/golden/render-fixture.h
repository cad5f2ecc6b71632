/* render-fixture.h: a model, its session and timeline, for the golden
 * render tests and the render benchmark. */
#pragma once

#include "pv-model-loader.h"
#include "pv-session.h"
#include "pv-timeline-model.h"

G_BEGIN_DECLS

typedef struct {
  PvModel *model;
  PvKernelTable *kernels;
  GHashTable *bounds;
  char *partition;            /* the partition config text, or NULL */
  PvSession *session;
  PvTimelineModel *timeline;
} RenderFixture;

/* Loads @path, binds @bounds ("batch=1", NULL-terminated, may be NULL) and
 * plans it; @round_robin_streams > 1 gives ONNX Runtime a partition config
 * with the nodes dealt round-robin (in execution order) to that many CPU
 * streams. */
RenderFixture *render_fixture_new (const char *path, const char *const *bounds, int round_robin_streams,
                                   GError **error);
void render_fixture_free (RenderFixture *fixture);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (RenderFixture, render_fixture_free)

G_END_DECLS
