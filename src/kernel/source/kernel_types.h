/* kernel_types.h - the parts of a kernel description, as creation resolves them, that the source
 * readers (constant reads, kernel map wrapping) and code generation both take: constants and kernel
 * map outputs. Types only, so a reader needs nothing of code generation to name them. */
#ifndef GPUC_KERNEL_TYPES_H
#define GPUC_KERNEL_TYPES_H

#include "kernel/source/source_scan.h"

#include <stddef.h>

typedef struct resolved_constant {
    char name[KERNEL_NAME_MAX];
    gpuc_type type; /* GPUC_INT, GPUC_FLOAT or GPUC_BOOL; GPUC_FLOAT for an array */
    double value;
    /* An array constant (kernel/constant_arrays.h): count values (the caller's, valid while the kernel
     * is created) of size dims; count 0 for a number or a Boolean. */
    const float *values;
    gpuc_dims dims;
    size_t count;
    int binding;    /* an array constant's uniform buffer binding (0 .. GPUC_MAX_ARRAY_CONSTANTS - 1) */
} resolved_constant;

/* Most named sub-outputs a kernel map may have (GPU.js's createKernelMap). */
#define CODEGEN_MAX_MAPS GPUC_MAX_MAP_OUTPUTS

/* A kernel map output: every call of `function` in the source is kept, the last one per cell. */
typedef struct codegen_map {
    char function[KERNEL_NAME_MAX];
    gpuc_type type; /* the function's return type */
} codegen_map;

#endif
