/* program_cache.h - compiling and linking kernel programs, cached per context by their GLSL text
 * (kernel/program/program_table.c holds them), and turning the driver's info log into a message in the
 * user's own line and column. */
#ifndef GPUC_PROGRAM_CACHE_H
#define GPUC_PROGRAM_CACHE_H

#include "kernel/program/program_table.h"

/* Returns (in *entry) the cache's entry for `glsl` (a compute shader, or with `fragment` a fragment
 * shader linked with codegen_vertex_shader()), compiling it on a cache miss, with one reference taken
 * for the caller: the entry's program and text stay valid until the caller gives it back with
 * program_put. On a compile or link error, the context's message names the kernel, the line and
 * column in `user_source` and quotes that line. */
gpuc_status program_get(gpuc *gpu, const char *glsl, bool fragment, const char *kernel_name,
                        const char *user_source, program_entry **entry);

/* Gives back a reference program_get took (NULL is ignored). With gl (the context is current), the
 * program may then be deleted (least recently used beyond gpuc_options.max_unused_programs); without,
 * nothing is deleted until the context closes. */
void program_put(gpuc *gpu, program_entry *entry, bool gl);

#endif
