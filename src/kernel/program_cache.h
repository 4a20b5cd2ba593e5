/* program_cache.h - compiling and linking kernel programs, cached per context by their GLSL text,
 * and turning the driver's info log into a message in the user's own line and column. */
#ifndef GPUC_PROGRAM_CACHE_H
#define GPUC_PROGRAM_CACHE_H

#include "internal.h"

/* Returns (in *program) the linked program for `glsl` (a compute shader, or with `fragment` a fragment
 * shader linked with codegen_vertex_shader()), compiling it on a cache miss, and in *cached_glsl
 * the cache's copy of the text (valid until the context closes). On a compile or link error, the
 * context's message names the kernel, the line and column in `user_source` and quotes that line. */
gpuc_status program_get(gpuc *gpu, const char *glsl, bool fragment, const char *kernel_name,
                        const char *user_source, GLuint *program, const char **cached_glsl);

#endif
