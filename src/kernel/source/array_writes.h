/* array_writes.h - finds writes to a GLSL kernel's array parameters. They are read-only, but once
 * kernel_rewrite.c has made `a[i]` the call `a(i)`, the GLSL compiler accepts `a(i) = x` (and an
 * `a(i)` passed as an out argument) and silently drops the write, so gpuc refuses them first. */
#ifndef GPUC_ARRAY_WRITES_H
#define GPUC_ARRAY_WRITES_H

#include "kernel/source/source_scan.h"

/* The offset in the kernel's body of the first write to an array parameter: `a[i] = x`, `a[i] += x`,
 * `a[i]++`, `++a[i]`, `v[i].x = x`, or `a[i]` passed whole as an out / inout argument of a helper or
 * of a built-in such as modf. Sets *param to the parameter's index. (size_t)-1 when there is none. */
size_t kernel_array_write(const char *mask, const kernel_signature *sig, int *param);

#endif
