/* kernel_map_wrap.h - the text half of a kernel map (kernel_map.h): every call of a map output's helper
 * wrapped in the source. Needs no context (tests/fuzz/fuzz_glsl.c runs it without GL). */
#ifndef GPUC_KERNEL_MAP_WRAP_H
#define GPUC_KERNEL_MAP_WRAP_H

#include "kernel/source/kernel_types.h"

/* Returns src with every call of maps[i].function wrapped (caller frees), or NULL when out of memory.
 * Lines stay where they were (so compiler messages keep their line numbers; columns after a wrapped
 * call shift by its wrapper's length). */
char *kernel_map_wrap(const char *src, const codegen_map *maps, int nmaps);

#endif
