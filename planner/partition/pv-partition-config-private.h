/* pv-partition-config-private.h: what pv-partition-config.c shares with the checker
 * (pv-partition-check.c) and the mover (pv-partition-move.c). Not installed,
 * not for callers outside the planner: they include pv-partition-config.h. */
#pragma once

#include "pv-partition-config.h"

G_BEGIN_DECLS

/* The one partitioner ORT 1.30 knows, the config's "type". */
#define DBP_TYPE "DeviceBasedPartitioner"

/* Appends @len bytes of @s to @out in double quotes, with JSON-style escapes
 * for quotes, backslashes and control characters and bytes that are not
 * UTF-8 as \xNN: a name as our messages show it. */
void pv_partition_append_quoted (GString *out, const char *s, gsize len);

/* @len bytes of @s quoted as pv_partition_append_quoted() does; free it. */
char *pv_partition_quoted (const char *s, gsize len);

/* NUL-terminated @s quoted as pv_partition_append_quoted() does; free it. */
char *pv_partition_quoted_name (const char *s);

/* A config with @n_streams zeroed streams (room for one when 0). */
PvPartitionConfig *pv_partition_config_new (int n_streams);

/* Node @id's device in @node_devices, or CPU when @node_devices is NULL. */
int pv_partition_node_device (const int *node_devices, int id);

/* The config text for @n_streams streams, each the names in @names[s]
 * (char*) on device type @devices[s], in the layout
 * pv_partition_config_to_json() promises (@pretty: its pretty layout). */
char *pv_partition_write_config (GPtrArray *const *names, const char *const *devices, int n_streams,
                                 gboolean pretty);

G_END_DECLS
