/* runtime.h - the GLSL helper functions emitted kernels may call (see runtime.c). */
#ifndef GPUC_JS_RUNTIME_H
#define GPUC_JS_RUNTIME_H

#include "util/strbuf.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct js_runtime_use {
    bool fmod, pow, toint, extra_math, random;
} js_runtime_use;

/* Appends the helpers `use` asks for; Math.random's stream is seeded with `seed` and the cell. */
void js_runtime_emit(strbuf *out, const js_runtime_use *use, uint32_t seed);

/* Appends the GLSL of JavaScript's Math functions (js_exp, js_atan2, js_max...; runtime_math.c). */
void js_runtime_math_emit(strbuf *out);

#endif
