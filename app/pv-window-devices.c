/* pv-window-devices.c: where the config's GPU nodes run. The window takes
 * placement from the config (a node runs on its stream's "devices" entry);
 * whether ONNX Runtime can honour it is the registry's choice: the CPU
 * registry is a CPU-only build, which runs every node on the CPU. The
 * banner over the timeline says which, and what the plan leaves out. */
#include "pv-window-private.h"

void
_pv_window_devices_update (PvWindow *self)
{
  int n = pv_document_get_model (self->document) ? pv_document_get_gpu_requested (self->document) : 0;
  gboolean cpu_only = pv_document_get_registry (self->document) == PV_REGISTRY_CPU;
  g_autofree char *text = NULL;

  gtk_revealer_set_reveal_child (self->device_revealer, n > 0);
  if (n == 0)
    return;
  if (cpu_only)
    text = g_strdup_printf ("The config puts %d node%s on the GPU (device 1), but with the CPU registry (a CPU-only "
                            "ONNX Runtime) ORT runs %s on the CPU, as planned here: a stream runs on its first "
                            "node's device, not on its \"devices\" entry.",
                            n, n == 1 ? "" : "s", n == 1 ? "it" : "them");
  else
    text = g_strdup_printf ("%d node%s run%s on the GPU (device 1). ONNX Runtime also inserts MemcpyFromHost and "
                            "MemcpyToHost nodes where a value crosses between CPU and GPU; this plan does not have "
                            "those copies.",
                            n, n == 1 ? "" : "s", n == 1 ? "s" : "");
  gtk_label_set_text (self->device_label, text);
  gtk_image_set_from_icon_name (self->device_icon, cpu_only ? "dialog-warning-symbolic" : "dialog-information-symbolic");
  gtk_widget_set_visible (self->device_button, cpu_only);
  if (cpu_only)
    gtk_widget_add_css_class (gtk_widget_get_parent (GTK_WIDGET (self->device_label)), "warning");
  else
    gtk_widget_remove_css_class (gtk_widget_get_parent (GTK_WIDGET (self->device_label)), "warning");
}

const char *
pv_window_get_device_note (PvWindow *self)
{
  g_return_val_if_fail (PV_IS_WINDOW (self), NULL);

  return gtk_revealer_get_reveal_child (self->device_revealer) ? gtk_label_get_text (self->device_label) : NULL;
}

static void
use_cuda_registry_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pv_document_set_registry (PV_WINDOW (widget)->document, PV_REGISTRY_CUDA);
}

void
_pv_window_class_devices_init (PvWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_bind_template_child (widget_class, PvWindow, device_revealer);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, device_icon);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, device_label);
  gtk_widget_class_bind_template_child (widget_class, PvWindow, device_button);
  gtk_widget_class_install_action (widget_class, "win.use-cuda-registry", NULL, use_cuda_registry_action);
}
