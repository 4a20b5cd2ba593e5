/* kernel_map.h - GPU.js's createKernelMap in gpuc: each map output names a helper function, and every
 * call of it becomes gpuc_keep_N(call), which stores the value in the cell's map output N and passes
 * it on (kernel_prelude.glsl, section map_output). */
#ifndef GPUC_KERNEL_MAP_H
#define GPUC_KERNEL_MAP_H

#include "kernel/source/kernel_map_wrap.h"

/* Reads desc->map into k (names: unique GLSL identifiers other than "result"; functions: helpers
 * defined in the source, not the kernel itself). Fails with a message naming the output. */
gpuc_status kernel_map_resolve(gpuc_kernel *k, const char *mask, const gpuc_kernel_desc *desc);

#endif
