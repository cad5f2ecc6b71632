/* pv-ort-plan-types.h: the records of ORT's memory plan (pv-ort-plan.h):
 * what the planner reads (kernel behaviour, partition, stream registry) and
 * what it writes (devices, allocation kinds, steps, logic streams, the
 * plan). The stages (execution plan, allocation plan) and the driver that
 * runs them all read these, so they live apart from the driver. */
#pragma once

#include <glib.h>

#include "pv-graph.h"

G_BEGIN_DECLS

/* ---- inputs ---- */

/* How a kernel behaves for the planner (ORT's KernelDef). Pairs are
 * (input, output) positions. */
typedef struct {
  const int (*alias)[2];          /* Alias(): the output must share the input's buffer */
  int n_alias;
  gboolean has_variadic_alias;    /* VariadicAlias(input_offset, output_offset) */
  int variadic_input_offset, variadic_output_offset;
  const int (*may_inplace)[2];    /* MayInplace() */
  int n_may_inplace;
  gboolean external_outputs;      /* ExternalOutputs() */
  const int *cpu_inputs;          /* InputMemoryType(OrtMemTypeCPUInput, k): inputs a non-CPU kernel reads from CPU memory */
  int n_cpu_inputs;
  /* planviz addition: OutputMemoryType(OrtMemTypeCPUOutput, k), e.g. output 0
   * of CUDA's Shape or MemcpyToHost. Leave zero for CPU kernels. */
  const int *cpu_outputs;
  int n_cpu_outputs;
} PvKernelBehaviour;

/* The behaviour of @node's kernel. NULL means the node has no kernel
 * (kernel_def == nullptr): ORT then fails session creation in
 * ComputeValueLocation ("Should not have entry in kernel create info with
 * nullptr for kernel_def"), and so does the planner. Called for the nodes of
 * the planned graph and of every subgraph below it (initializer locations
 * look into subgraphs). @input_elem_type is the element type of input 0 as
 * ORT holds it (its NodeArg after Resolve; 0 when unknown, -1 without an
 * input): kernels may differ per type (Softmax is MayInplace for float only). */
typedef const PvKernelBehaviour *(*PvKernelLookup) (gpointer user_data, const PvGraph *graph, const PvNode *node,
                                                    int input_elem_type);

/* What DeviceBasedPartitioner produced for the main graph. */
typedef struct {
  int n_streams;
  const int *stream_device;   /* the config's "devices"; ORT does not use them for the plan
                               * (a stream's device is its first node's), so neither does planviz */
  const int *node_stream;     /* node id -> stream index */
  const int *node_device;     /* node id -> device type of its EP: 0 CPU (CPU EP), 1 GPU (CUDA EP) */
} PvStreamPartition;

/* The wait handles the session's stream handle registry holds.
 * PV_REGISTRY_CPU: a CPU-only build; the CPU EP registers nothing.
 * PV_REGISTRY_CUDA: the CUDA EP's RegisterCudaStreamHandles registers
 *   RegisterWaitFn(GPU, GPU, WaitCudaNotificationOnDevice) and
 *   RegisterWaitFn(GPU, CPU, WaitCudaNotificationOnHost): handles exist for
 *   (notification owner GPU, waiter GPU) and (GPU, CPU), nothing else. */
typedef enum {
  PV_REGISTRY_CPU,
  PV_REGISTRY_CUDA,
} PvStreamRegistry;

/* ---- outputs ---- */

#define PV_ORT_DEVICE_CPU 0
#define PV_ORT_DEVICE_GPU 1
#define PV_ORT_MEM_DEFAULT 0
#define PV_ORT_MEM_HOST_ACCESSIBLE 5
#define PV_ORT_VENDOR_NONE 0
#define PV_ORT_VENDOR_NVIDIA 0x10DE

/* ORT's OrtDevice (1.30: type, memory type, PCI vendor, id, alignment).
 * CPU EP: always {CPU, DEFAULT, 0, 0, 0}. CUDA EP: default memory
 * {GPU, DEFAULT, NVIDIA, 0, 0}; OrtMemTypeCPUInput {CPU, DEFAULT, 0, 0, 0};
 * OrtMemTypeCPUOutput (pinned) {GPU, HOST_ACCESSIBLE, NVIDIA, 0, 0}: its
 * Type() is GPU, not CPU. */
typedef struct {
  int type;
  int mem_type;
  guint32 vendor;
  int id;
  gsize alignment;
} PvOrtDevice;

gboolean pv_ort_device_equal (const PvOrtDevice *a, const PvOrtDevice *b);
/* OrtDevice::ToString(): "Device:[DeviceType:0 MemoryType:0 VendorId:0 DeviceId:0 Alignment:0]". */
char *pv_ort_device_to_string (const PvOrtDevice *device);

/* ORT's AllocKind, with its values. */
typedef enum {
  PV_ORT_ALLOC_NOT_SET = -1,
  PV_ORT_ALLOC_ALLOCATE = 0,
  PV_ORT_ALLOC_REUSE = 1,
  PV_ORT_ALLOC_PRE_EXISTING = 2,
  PV_ORT_ALLOC_ALLOCATE_STATICALLY = 3,
  PV_ORT_ALLOC_ALLOCATE_OUTPUT = 4,
  PV_ORT_ALLOC_SHARE = 5,
  PV_ORT_ALLOC_ALLOCATED_EXTERNALLY = 6,
} PvOrtAllocKind;

/* ORT's operator<< text: "Allocate", "Reuse", "PreExisting", ... "NotSet". */
const char *pv_ort_alloc_kind_name (PvOrtAllocKind kind);

/* Which rule gave a value its kReuse / kShare (planviz's bookkeeping; ORT
 * records only the outcome). */
typedef enum {
  PV_ORT_REUSE_NONE,
  PV_ORT_REUSE_ALIAS,            /* Alias pair (FindReusableInput / TryReuseInput) */
  PV_ORT_REUSE_VARIADIC_ALIAS,
  PV_ORT_REUSE_MAY_INPLACE,
  PV_ORT_REUSE_FREE_LIST,        /* FindReusableTensor */
  PV_ORT_REUSE_LOOP_SHARE,       /* kShare: Identity of a pre-existing value in a Loop body */
  PV_ORT_REUSE_STREAM_DOWNSTREAM, /* OptimizeReusePlanForMultiStream's waiting list */
} PvOrtReuseRule;

typedef struct {
  int value;                 /* PvGraph value id */
  PvOrtAllocKind kind;
  int reused_buffer;         /* OrtValue index of the root buffer, itself unless kReuse / kShare; always
                                a root (its own reused_buffer is itself), as in ORT's final plan */
  PvOrtDevice location;
  PvOrtReuseRule reuse_rule;
  int use_count;             /* ComputeReuseCount's static count (before any reuse) */
  /* Where the single-stream pass pushed this buffer on the free list: stream
   * and position in that stream's node list (ORT's deallocate_point); -1, -1
   * when it never reached a use count of 0 (or the plan is not single-stream:
   * the multi-stream pass has no free list). Only buffers that are roots. */
  int freed_stream, freed_at;
  /* Several streams on a device: ORT 1.30 plans this value in an order that
   * changes from one process to the next (its multi-stream pass walks hash
   * maps seeded per process), and in another order it plans it otherwise
   * (allocated, or in another buffer). planviz's plan is one of ORT's. */
  gboolean order_dependent;
} PvOrtValuePlan;

typedef enum {
  PV_ORT_STEP_BARRIER,
  PV_ORT_STEP_WAIT_ON_EP,
  PV_ORT_STEP_LAUNCH_KERNEL,
  PV_ORT_STEP_ACTIVATE_NOTIFICATION,
  PV_ORT_STEP_TRIGGER_DOWNSTREAM,
} PvOrtStepKind;

typedef struct {
  PvOrtStepKind kind;
  int node;   /* the step's node (ORT's ExecutionStep node index): the launched
               * node for Barrier/WaitOnEP/LaunchKernel, the producer for
               * ActivateNotification/TriggerDownstream */
  int id;     /* barrier id, notification id, node id (LaunchKernel), trigger point index */
} PvOrtStep;

typedef struct {
  PvOrtDevice device;  /* the first node's EP default device */
  PvOrtStep *steps;
  int n_steps;
  int *nodes;          /* stream_nodes: this stream's nodes in global topological order */
  int n_nodes;
} PvOrtLogicStream;

typedef struct {
  int stream;
  int step;            /* index of the Barrier step in that stream */
} PvOrtStepRef;

typedef struct {
  int value_index;     /* OrtValue index of the buffer (a root) */
  int ref_count;
} PvOrtReleaseAction;

typedef struct {
  const PvGraph *graph;       /* not owned */
  gboolean single_stream;     /* IsSingleStream(): no device has two non-empty streams */
  /* Several streams: the walk orders replayed to mark order_dependent
   * values (0: not looked for; see pv_ort_plan_basis_set_order_trials()). */
  int order_trials;

  int n_nodes;
  int *node_stream;           /* node id -> logic stream */
  int *node_step;             /* node id -> index of its LaunchKernel step */
  int *node_device;           /* node id -> device type of its EP */

  int n_streams;
  PvOrtLogicStream *streams;
  int n_barriers;             /* plan.num_barriers */
  int n_notifications;
  int *notification_owners;   /* notification id -> stream (plan.notification_owners) */
  int *node_notification;     /* node id -> notification id, -1 */
  int n_trigger_points;
  int *node_trigger_point;    /* node id -> trigger point, -1 */
  /* plan.downstream_map, as CSR: trigger point t's barriers are
   * downstream[downstream_start[t] .. downstream_start[t + 1]). */
  int *downstream_start;
  PvOrtStepRef *downstream;
  /* What the steps synchronise, as (producer node, waiting node) pairs: a
   * trigger point releasing a barrier, then a notification releasing a
   * wait. */
  int (*sync_edges)[2];
  int n_sync_edges;

  int n_values;               /* == graph->n_ort_values */
  PvOrtValuePlan *values;     /* indexed by OrtValue index */

  int n_release_actions;
  PvOrtReleaseAction *release_actions;
  /* plan.node_release_list as CSR: node n releases the actions
   * node_release[node_release_start[n] .. node_release_start[n + 1]) */
  int *node_release_start;
  int *node_release;

  /* What ORT prints to stdout while planning ("<in> reused by <out> as
   * input", OptimizeReusePlanForMultiStream), in order; NULL-terminated,
   * owned by the plan. */
  char **notes;
} PvOrtPlan;

G_END_DECLS
