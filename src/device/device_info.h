/* device_info.h - what the opened device is and the limits that shape kernels. */
#ifndef GPUC_DEVICE_INFO_H
#define GPUC_DEVICE_INFO_H

#include "gpuc.h"
#include "device/egl_device.h"

/* Fills info from the current GL context (strings are copied; free with device_info_free). */
void device_info_query(gpuc_info *info, const egl_device *dev, gpuc_backend backend);
void device_info_free(gpuc_info *info);

/* Whether the current context offers extension `name` (GL_EXTENSIONS). */
bool device_has_extension(const char *name);

/* llvmpipe silently stops every loop of an invocation after 65,535 iterations in total. */
#define LLVMPIPE_LOOP_BUDGET 65535

#endif
