/* kernel_args.h - how a kernel's parameters meet their arguments, shared by creation (kernel.c), runs
 * (run.c) and the programs specialised for argument sizes (kernel_specialise.c): the cell type an
 * argument arrives as, and where each parameter's uniform and image unit are in a program. */
#ifndef GPUC_KERNEL_ARGS_H
#define GPUC_KERNEL_ARGS_H

#include "kernel/kernel.h"

/* A `vec4 a[]` parameter also reads a 1D float array (type, dims), four values per cell (the fast way
 * to stream a float array on llvmpipe: one image load per four values). */
bool kernel_reads_floats_as_vec4(const kernel_param *p, gpuc_type type, gpuc_dims dims);

/* The cell type array argument a arrives as: a device array's own; host int32 data int; host float32
 * data float for a `vec4 a[]` parameter (a float array read four values per cell: its dims count
 * floats), else the parameter's type (N floats per vecN cell: its dims count cells). */
gpuc_type kernel_arg_type(const kernel_param *p, const gpuc_arg *a);

/* Reads the uniform locations and image units of k->program. */
void kernel_locate_uniforms(gpuc_kernel *k);

#endif
