/* math.h - GPU.js's Math object (math.c): the functions and constants kernels may use, for the
 * checker (what exists, what it returns) and the GLSL writer (js_emit_math). */
#ifndef GPUC_JS_MATH_H
#define GPUC_JS_MATH_H

#include "js/front_end.h"

typedef struct js_math_fn {
    const char *name;
    int min_args, max_args; /* max -1: any number */
    js_type result;
} js_math_fn;
const js_math_fn *js_math_lookup(const char *name);
bool js_math_constant(const char *name, double *value);
/* Emits the call to Math.<fn->name> with args. */
void js_emit_math(js_ctx *c, const js_math_fn *fn, js_node *call);
/* Whether Math.<name> calls a helper of runtime_math.c (the kernel then includes them). */
bool js_math_needs_runtime(const char *name);
/* Whether Math.<name> is sin, cos or tan (computed by runtime_trig.c with .precise_math). */
bool js_math_is_trig(const char *name);

#endif
