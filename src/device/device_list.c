/* device_list.c - gpuc_list_devices: the machine's hardware EGL devices, without opening a context
 * (for choosing one device per process, as gpuc_mpi_open does). */
#include "device/egl_device.h"

#include <gpuc.h>

int gpuc_list_devices(int *indices, int max)
{
    if (max < 0)
        max = 0;
    return egl_device_list_hardware(indices, max);
}
