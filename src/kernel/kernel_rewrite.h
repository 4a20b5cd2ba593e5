/* kernel_rewrite.h - turns a kernel's source into the form that compiles inside gpuc's program:
 * the kernel function loses its parameter list (arguments become uniforms and image bindings), and
 * each array read `a[i]` / `a[y][x]` / `a[z][y][x]` becomes a call `a(i)` / `a(y, x)` / `a(z, y, x)`
 * of the accessor that array_access.glsl provides. Every edit keeps the text's length and line
 * breaks, so the compiler's line and column numbers are the user's. */
#ifndef GPUC_KERNEL_REWRITE_H
#define GPUC_KERNEL_REWRITE_H

#include "kernel/source_scan.h"

/* Returns the rewritten copy of src (caller frees), or NULL when out of memory. */
char *kernel_rewrite(const char *src, const char *mask, const kernel_signature *sig);

/* Array parameters are read-only, but once `a[i]` is the call `a(i)` the GLSL compiler accepts
 * `a(i) = x` and drops the write. Returns the offset in the kernel's body of the first write to an
 * array parameter (`a[i] = x`, `a[i] += x`, `a[i]++`, `++a[i]`, `v[i].x = x`), with the parameter's
 * index in *param, or (size_t)-1 when there is none. */
size_t kernel_array_write(const char *mask, const kernel_signature *sig, int *param);

#endif
