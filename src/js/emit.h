/* emit.h - the GLSL writer: checked functions as GLSL in gpuc's kernel form (emit.c), with the Math
 * object's calls written by math.c and whole-number remainders by whole_range.c.
 *
 * One cycle is left, and it is the recursion of a compiler's visitors: js_emit_expr hands a Math.*
 * call to js_emit_math and a remainder it can run in int arithmetic to js_emit_whole_remainder, and
 * those call js_emit_expr back for their operands. */
#ifndef GPUC_JS_EMIT_H
#define GPUC_JS_EMIT_H

#include "js/front_end.h"

/* Writes the checked expression n as GLSL of type want (GPU.js's implicit conversions written out). */
void js_emit_expr(js_ctx *c, js_node *n, js_type want);
/* Writes the checked function f (a helper, or the kernel) as a GLSL function. */
void js_emit_function(js_ctx *c, js_func *f);

#endif
