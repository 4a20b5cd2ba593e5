/* kernel.h - the kernel handle shared by kernel.c (creation) and run.c (dispatch). */
#ifndef GPUC_KERNEL_H
#define GPUC_KERNEL_H

#include "internal.h"
#include "kernel/codegen.h"
#include "kernel/source_scan.h"

struct gpuc_kernel {
    gpuc *gpu;
    char name[KERNEL_NAME_MAX];
    kernel_signature sig;
    gpuc_dims output;
    size_t cells;          /* output cells */
    gpuc_dims grid;        /* the invocations: the output, or a scatter kernel's threads */
    size_t grid_cells;
    bool scatter;
    bool pipeline;
    GLuint program;                       /* owned by the context's program cache */
    const char *glsl;                     /* its text, owned by the cache too */
    GLint first_cell_location, cell_count_location;
    GLint param_location[GPUC_MAX_ARGS];  /* scalars: the uniform; arrays: their size uniform */
    int image_unit[GPUC_MAX_ARGS];        /* arrays: the image unit they are bound to */
    gpuc_array *upload[GPUC_MAX_ARGS];    /* reused device copies of host-array arguments */
    int cells_per_invocation;             /* > 1 only for loop-free kernels (see compute_main.glsl) */
    size_t cells_per_dispatch;            /* grid cells; a multiple of 1024 (keeps range offsets aligned) */
    gpuc_kernel *prev, *next;
};

#endif
