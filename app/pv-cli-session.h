/* pv-cli-session.h: what every planning command of planviz-cli shares — the
 * options that say how to plan (--partition, --registry, --device,
 * --gpu-ops, --bound, --input-shape, --input-value, --kernel-defs) and turning them, with a
 * model file, into a PvSession. */
#pragma once

#include "pv-cli.h"
#include "pv-model-loader.h"
#include "pv-plan-export.h"
#include "pv-session.h"

G_BEGIN_DECLS

typedef struct {
  char *partition;
  char *registry;
  char *gpu_ops;
  char *kernel_defs;
  char **device_specs;
  char **bound_specs;
  char **input_specs;
  /* ORT's arena session options (defaults: ORT's; intra-op threads: this
   * machine's processors, as ORT's default counts its cores). */
  int intra_op;                 /* -1: default */
  char *arena_extend_strategy;
  gint64 initial_chunk, max_dead_bytes;  /* -1: default */
  char *mem_pattern, *cpu_arena;         /* on|off */
  PvOrtArenaSettings arena;     /* filled by pv_cli_plan_session() */
  char **value_specs;
  gboolean config_devices;      /* --config-devices */
} PvCliPlanArgs;

/* The opening of every planning command: sets @args' defaults, adds the
 * shared options to @context's main group (the command's own are there
 * already), parses them into @args and expects one MODEL.onnx
 * (pv_cli_parse_model). Returns PV_CLI_OK or, after a message,
 * PV_CLI_USAGE. */
int pv_cli_plan_args_parse (PvCliPlanArgs *args, const char *command, GOptionContext *context, int *argc,
                            char ***argv);
void pv_cli_plan_args_clear (PvCliPlanArgs *args);

/* --planner: ort, slots or arena into *@kind (left as it is when @name is
 * NULL); FALSE after a message for anything else. */
gboolean pv_cli_parse_planner (const char *command, const char *name, PvPlannerKind *kind);

/* Checks @args, loads @model_path, reads the config and plans with
 * @options (the caller's own fields set; the shared ones are filled in).
 * Returns PV_CLI_OK with *model_out, *kernels_out and *session_out set, or
 * prints why (prefixed by "planviz-cli @command") and returns the exit code. */
int pv_cli_plan_session (const char *command, const char *model_path, PvCliPlanArgs *args,
                         PvSessionOptions *options, PvModel **model_out, PvKernelTable **kernels_out,
                         PvSession **session_out);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (PvCliPlanArgs, pv_cli_plan_args_clear)

G_END_DECLS
