/* runtime.h - the GLSL helper functions emitted kernels may call (see runtime.c). Every helper's name
 * starts with jsrt_, which no JavaScript name can produce (js_mangle writes js_, jsx_, jsf_, jsk_...). */
#ifndef GPUC_JS_RUNTIME_RUNTIME_H
#define GPUC_JS_RUNTIME_RUNTIME_H

#include "util/strbuf.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct js_runtime_use {
    bool fmod, pow, toint, extra_math, random, trig;
} js_runtime_use;

/* Appends the helpers `use` asks for; Math.random's stream is seeded with `seed` and the cell. */
void js_runtime_emit(strbuf *out, const js_runtime_use *use, uint32_t seed);

/* Appends the GLSL of JavaScript's Math functions (jsrt_exp, jsrt_atan2, jsrt_max...; runtime_math.c). */
void js_runtime_math_emit(strbuf *out);

/* Appends jsrt_add/sub/mul/div (float; with `vectors`, vec2-vec4 and their mixes with float too) and
 * jsrt_pre_add/post_add: float arithmetic in JavaScript's order (runtime_order.c). */
void js_runtime_order_emit(strbuf *out, bool vectors);

/* Appends jsrt_sin/cos/tan, reduced and computed in double (runtime_trig.c); they need the Math block. */
void js_runtime_trig_emit(strbuf *out);

#endif
