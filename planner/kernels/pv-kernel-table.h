/* pv-kernel-table.h: what ONNX Runtime's kernels declare about their
 * outputs and inputs, read from a JSON data file.
 *
 * The planner asks the table, for each node, whether the kernel must reuse an
 * input buffer for an output (Alias, VariadicAlias), may do so (MayInplace),
 * allocates its outputs itself (ExternalOutputs), and which inputs a GPU
 * kernel reads from CPU memory. The defaults (data/kernel-defs.json, compiled
 * into the library) are ONNX Runtime 1.30's CPU kernels plus the CPU inputs of
 * common CUDA kernels. A user file can replace entries.
 *
 * File format:
 *
 *   {"kernels": [
 *     {"domain": "", "op_type": "Relu", "since": [6, 2147483647],
 *      "alias": [[0, 0]], "variadic_alias": [0, 0] or null,
 *      "may_inplace": [[0, 0]], "may_inplace_dtypes": ["float32"],
 *      "external_outputs": false, "cpu_inputs": [1], "comment": "..."}]}
 *
 * Only "op_type" is required. "domain" defaults to "" (ONNX; "ai.onnx" means
 * the same), "since" to [1, 2147483647] (an inclusive range of the opset
 * version the model imports for the node's domain), lists to empty,
 * "variadic_alias" to null, "external_outputs" to false.
 * "may_inplace_dtypes" limits the may_inplace pairs to inputs of those element
 * types (names as pv_element_type_name() prints them); empty or absent means
 * every type. A "comment" string is allowed at the top level and in each
 * entry. Any other key is an error. Within one file, two entries for the same
 * (domain, op_type) must not cover the same opset version.
 *
 * Errors say "FILE:LINE:COLUMN: message"; lines and columns are 1-based and
 * columns count characters (a UTF-8 sequence is one column). */
#pragma once

#include <glib.h>

#include "pv-error.h"
G_BEGIN_DECLS


/* The "since" upper bound that means "and every later opset". */
#define PV_KERNEL_OPSET_MAX G_MAXINT

typedef struct {
  int input;
  int output;
} PvKernelPair;

typedef struct {
  const char *domain;        /* "" for ONNX */
  const char *op_type;
  int since_first;           /* inclusive opset range */
  int since_last;
  const PvKernelPair *alias;
  int n_alias;
  gboolean has_variadic_alias;
  PvKernelPair variadic_alias; /* input offset, output offset */
  const PvKernelPair *may_inplace;
  int n_may_inplace;
  const int *may_inplace_dtypes; /* PvElementType values; none: any type */
  int n_may_inplace_dtypes;
  gboolean external_outputs;
  const int *cpu_inputs;     /* input positions a GPU kernel reads from CPU memory */
  int n_cpu_inputs;
  const char *source;        /* file the entry came from ("kernel-defs.json (built-in)") */
  int line;                  /* where in it (1-based) */
} PvKernelDef;

typedef struct _PvKernelTable PvKernelTable;

/* An empty table. */
PvKernelTable *pv_kernel_table_new (void);
/* The built-in table (data/kernel-defs.json compiled into the library).
 * Fails only if that data is broken, which the unit tests rule out. */
PvKernelTable *pv_kernel_table_new_default (GError **error);
void pv_kernel_table_free (PvKernelTable *table);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PvKernelTable, pv_kernel_table_free)

/* The largest kernel file planviz reads: the built-in one is 7 kB, ORT's
 * CPU and CUDA registries together a few thousand kernels; 40,000 entries
 * take 3 MB. Reading costs about 20 bytes of memory per byte of JSON (cJSON
 * and positions), so a bound is what keeps a hostile file from taking
 * gigabytes (190 MB took 3 GB and over a minute). */
#define PV_KERNEL_DEFS_LIMIT ((gsize) 4 * 1024 * 1024)

/* Reads a kernel file (a regular file of at most PV_KERNEL_DEFS_LIMIT
 * bytes). Each of its entries replaces, for its opset range,
 * what @table said about the same (domain, op_type): older entries are cut
 * back to the versions outside that range (or dropped). On error @table is
 * unchanged. */
gboolean pv_kernel_table_merge_file (PvKernelTable *table, const char *path, GError **error);
/* The same for text in memory; @display_name names it in errors. */
gboolean pv_kernel_table_merge_data (PvKernelTable *table, const char *data, gsize len, const char *display_name,
                                     GError **error);

/* The entry for @op_type in @domain ("" or "ai.onnx" for ONNX) at @opset, or
 * NULL when the table says nothing (the kernel declares nothing). */
const PvKernelDef *pv_kernel_table_lookup (const PvKernelTable *table, const char *domain, const char *op_type,
                                           int opset);

/* TRUE if the entry's may_inplace pairs apply to an input of @elem_type. */
gboolean pv_kernel_def_may_inplace_type (const PvKernelDef *def, int elem_type);

/* Number of entries (each opset range counts once). */
guint pv_kernel_table_size (const PvKernelTable *table);

/* The bundled data file's text (NUL-terminated), as compiled in. */
GBytes *pv_kernel_table_default_data (void);

G_END_DECLS
