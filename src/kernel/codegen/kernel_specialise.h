/* kernel_specialise.h - programs compiled for the argument sizes a kernel with loops is run with: the
 * arrays' sizes as constants, scalar arrays read through one-component views. */
#ifndef GPUC_KERNEL_SPECIALISE_H
#define GPUC_KERNEL_SPECIALISE_H

#include "kernel/kernel.h"

/* What the kernel sees as array parameter p's size (gpuc_size_NAME) when it reads an array of `type`
 * and `dims`: x, y, z with absent dimensions 1; a float array read by a `vec4 a[]` counts texels. */
void kernel_array_size(const kernel_param *p, gpuc_type type, gpuc_dims dims, GLint size[3]);

/* Whether a kernel with these loops and parameters gets specialised programs (kernel creation). */
bool kernel_specialisable(const gpuc_kernel *k);

/* Makes k->program the program for a run with args (already checked): the one compiled for their
 * sizes once the kernel has run twice in a row with the same sizes (compiled then, or found in the
 * context's cache), else the generic one. Updates the uniform locations and k->scalar_view. A
 * specialised program that cannot be made leaves the generic one in use (still correct). */
void kernel_specialise(gpuc_kernel *k, const gpuc_arg *args);

/* Forgets the sizes of the kernel's last run, so that the next run counts as its first: a kernel the
 * algorithm drivers keep across calls (src/algo/kernel_cache.c) is specialised, as a kernel made per
 * call is, only when one call runs it twice at the same sizes, not at every size that two calls in
 * a row happen to share. A specialised program it has stays in use for its sizes. */
void kernel_specialise_forget(gpuc_kernel *handle); /* a handle or the kernel itself */

/* Gives back the specialised program (gl: the context is current). */
void kernel_specialise_free(gpuc_kernel *k, bool gl);

#endif
