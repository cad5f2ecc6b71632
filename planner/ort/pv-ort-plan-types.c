#include "pv-ort-plan-types.h"

gboolean
pv_ort_device_equal (const PvOrtDevice *a, const PvOrtDevice *b)
{
  return a->type == b->type && a->mem_type == b->mem_type && a->vendor == b->vendor && a->id == b->id
         && a->alignment == b->alignment;
}

char *
pv_ort_device_to_string (const PvOrtDevice *d)
{
  return g_strdup_printf ("Device:[DeviceType:%d MemoryType:%d VendorId:%u DeviceId:%d Alignment:%" G_GSIZE_FORMAT "]",
                          d->type, d->mem_type, d->vendor, d->id, d->alignment);
}

const char *
pv_ort_alloc_kind_name (PvOrtAllocKind kind)
{
  switch (kind)
    {
    case PV_ORT_ALLOC_ALLOCATE: return "Allocate";
    case PV_ORT_ALLOC_ALLOCATE_STATICALLY: return "AllocateStatically";
    case PV_ORT_ALLOC_PRE_EXISTING: return "PreExisting";
    case PV_ORT_ALLOC_REUSE: return "Reuse";
    case PV_ORT_ALLOC_ALLOCATE_OUTPUT: return "AllocateOutput";
    case PV_ORT_ALLOC_SHARE: return "Share";
    case PV_ORT_ALLOC_ALLOCATED_EXTERNALLY: return "AllocatedExternally";
    case PV_ORT_ALLOC_NOT_SET: return "NotSet";
    }
  return "NotSet";
}
