/* runtime_order.c - JavaScript's order of evaluation for float arithmetic: the GLSL functions that
 * emitted kernels call for every float or vector + - * / (jsrt_add(a, b) for a + b, and so on). */
#include "js/runtime/runtime.h"

/* Why a function per operation: Mesa reassociates float arithmetic (a + b + c + d becomes
 * (a + b) + (c + d); a * b * c * d likewise) unless the result is `precise`. GLSL's `precise` only
 * holds for what is assigned to a precise variable: not through an inlined helper's return, not in a
 * condition or an index. A precise variable around each single operation holds everywhere, and after
 * inlining costs nothing but the rewrites it forbids (measured in docs/porting.md). */
static const char *const types[] = {"float", "vec2", "vec3", "vec4"};
static const struct {
    const char *name, *op;
} ops[] = {{"add", "+"}, {"sub", "-"}, {"mul", "*"}, {"div", "/"}};

static void emit_one(strbuf *out, const char *name, const char *op, const char *ret, const char *ta, const char *tb)
{
    strbuf_printf(out, "%s jsrt_%s(%s a, %s b) { precise %s r = a %s b; return r; }\n", ret, name, ta, tb, ret, op);
}

void js_runtime_order_emit(strbuf *out, bool vectors)
{
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        emit_one(out, ops[o].name, ops[o].op, "float", "float", "float");
        for (size_t t = 1; vectors && t < sizeof types / sizeof types[0]; t++) {
            emit_one(out, ops[o].name, ops[o].op, types[t], types[t], types[t]);
            emit_one(out, ops[o].name, ops[o].op, types[t], types[t], "float");
            emit_one(out, ops[o].name, ops[o].op, types[t], "float", types[t]);
        }
    }
    /* x++ / ++x (and --) on a float: the old or the new value, the variable updated in place */
    strbuf_puts(out, "float jsrt_post_add(inout float v, float d) { float old = v; precise float r = v + d; v = r; "
                     "return old; }\n"
                     "float jsrt_pre_add(inout float v, float d) { precise float r = v + d; v = r; return r; }\n");
}
