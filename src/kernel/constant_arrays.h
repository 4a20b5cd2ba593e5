/* constant_arrays.h - array and Boolean constants (gpuc_constant with values / dims, or GPUC_BOOL):
 * checking them, and keeping an array's values in a uniform buffer the kernel owns (declared in the
 * program with an accessor; GPU.js keeps them in a texture; constant_reads.h rewrites the kernel's reads
 * into calls of it). Compiling thousands of values into the program text instead costs
 * seconds in Mesa's compiler (4,096 values: 4.7 s on llvmpipe). */
#ifndef GPUC_CONSTANT_ARRAYS_H
#define GPUC_CONSTANT_ARRAYS_H

#include "internal.h"
#include "kernel/codegen/codegen.h"
#include "util/strbuf.h"

/* Whether c is an array or a Boolean constant rather than a number. */
bool constant_is_special(const gpuc_constant *c);

/* Checks c (constant number `index` of kernel kname) and fills out[index]; *arrays counts the kernel's
 * array constants so far (each gets the next uniform buffer binding). The name was checked. Needs the
 * context current (it asks the device's uniform block size). */
gpuc_status constant_resolve_special(gpuc *gpu, const char *kname, int index, const gpuc_constant *c,
                                     resolved_constant *out, int *arrays);

/* Emits every array constant's uniform block and accessor (glsl/kernel_prelude.glsl, constant_array). */
bool constant_arrays_emit(strbuf *sb, const resolved_constant *c, int n);

/* Makes k's uniform buffers of the array constants' values (kernel creation). */
gpuc_status constant_arrays_upload(gpuc_kernel *k, const resolved_constant *c, int n);

/* Binds k's array constants' buffers (each run, both backends). */
void constant_arrays_bind(const gpuc_kernel *k);

/* Deletes them (with gl: the context is current). */
void constant_arrays_free(gpuc_kernel *k, bool gl);

#endif
