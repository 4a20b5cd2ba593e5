/* kernel_rewrite.h - turns a kernel's source into the form that compiles inside gpuc's program:
 * the kernel function loses its parameter list (arguments become uniforms and image bindings), and
 * each array read `a[i]` / `a[y][x]` / `a[z][y][x]` becomes a call `a(i)` / `a(y, x)` / `a(z, y, x)`
 * of the accessor that array_access.glsl provides. Every edit keeps the text's length and line
 * breaks, so the compiler's line and column numbers are the user's. */
#ifndef GPUC_KERNEL_REWRITE_H
#define GPUC_KERNEL_REWRITE_H

#include "kernel/source/source_scan.h"

/* Returns the rewritten copy of src (caller frees), or NULL when out of memory. */
char *kernel_rewrite(const char *src, const char *mask, const kernel_signature *sig);

#endif
