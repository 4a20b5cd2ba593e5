/* math.c - GPU.js's Math object: which functions and constants kernels may use, their result types
 * (floor/ceil/round/trunc/imul/clz32 give integers, everything else a float32) and their GLSL. */
#include "js/math.h"
#include "js/emit.h"

#include <math.h>
#include <string.h>

static const js_math_fn functions[] = {
    {"abs", 1, 1, T_FLOAT},   {"acos", 1, 1, T_FLOAT},  {"acosh", 1, 1, T_FLOAT}, {"asin", 1, 1, T_FLOAT},
    {"asinh", 1, 1, T_FLOAT}, {"atan", 1, 1, T_FLOAT},  {"atan2", 2, 2, T_FLOAT}, {"atanh", 1, 1, T_FLOAT},
    {"cbrt", 1, 1, T_FLOAT},  {"ceil", 1, 1, T_INT},    {"clz32", 1, 1, T_INT},    {"cos", 1, 1, T_FLOAT},   {"cosh", 1, 1, T_FLOAT},
    {"exp", 1, 1, T_FLOAT},   {"expm1", 1, 1, T_FLOAT}, {"floor", 1, 1, T_INT},   {"fround", 1, 1, T_FLOAT},
    {"imul", 2, 2, T_INT},    {"log", 1, 1, T_FLOAT},   {"log10", 1, 1, T_FLOAT}, {"log1p", 1, 1, T_FLOAT},
    {"log2", 1, 1, T_FLOAT},  {"max", 1, -1, T_FLOAT},  {"min", 1, -1, T_FLOAT},  {"pow", 2, 2, T_FLOAT},
    {"random", 0, 0, T_FLOAT}, {"round", 1, 1, T_INT},  {"sign", 1, 1, T_FLOAT},  {"sin", 1, 1, T_FLOAT},
    {"sinh", 1, 1, T_FLOAT},  {"sqrt", 1, 1, T_FLOAT},  {"tan", 1, 1, T_FLOAT},   {"tanh", 1, 1, T_FLOAT},
    {"trunc", 1, 1, T_INT},
};

const js_math_fn *js_math_lookup(const char *name)
{
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++)
        if (!strcmp(functions[i].name, name))
            return &functions[i];
    return NULL;
}

bool js_math_constant(const char *name, double *value)
{
    static const struct {
        const char *name;
        double value;
    } constants[] = {
        {"PI", 3.141592653589793},     {"E", 2.718281828459045},       {"LN2", 0.6931471805599453},
        {"LN10", 2.302585092994046},   {"LOG2E", 1.4426950408889634},  {"LOG10E", 0.4342944819032518},
        {"SQRT2", 1.4142135623730951}, {"SQRT1_2", 0.7071067811865476},
    };
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++)
        if (!strcmp(constants[i].name, name)) {
            *value = constants[i].value;
            return true;
        }
    return false;
}

static void put(js_ctx *c, const char *s)
{
    strbuf_puts(&c->out, s);
}

static void arg(js_ctx *c, js_node *call, int i)
{
    js_emit_expr(c, call->list[i], T_FLOAT);
}

/* An int32 operand as JavaScript's ToInt32 sees it. */
static void int_arg(js_ctx *c, js_node *call, int i)
{
    js_type t = call->list[i]->type;
    if (t == T_INT || t == T_LIT || t == T_BOOL) {
        js_emit_expr(c, call->list[i], T_INT);
    } else {
        put(c, "jsrt_toint32(");
        js_emit_expr(c, call->list[i], T_FLOAT);
        put(c, ")");
    }
}

static void unary_builtin(js_ctx *c, const char *pre, js_node *call, const char *post)
{
    put(c, pre);
    arg(c, call, 0);
    put(c, post);
}

static void min_max(js_ctx *c, const char *fn, js_node *call, int from)
{
    if (from == call->nlist - 1) {
        arg(c, call, from);
        return;
    }
    put(c, fn);
    put(c, "(");
    arg(c, call, from);
    put(c, ", ");
    min_max(c, fn, call, from + 1);
    put(c, ")");
}

/* Functions whose GLSL builtin is JavaScript's at every edge (llvmpipe, measured by tests/test_js_math.c). */
static const char *const same_as_glsl[] = {"abs", "cos", "sin", "sqrt", "tan", NULL};
/* Functions computed by a js_<name> helper of runtime_math.c (JavaScript's edges, better accuracy). */
static const char *const helpers[] = {"acos",  "acosh", "asin", "asinh", "atanh", "cbrt", "cosh",  "exp", "expm1",
                                      "log",   "log10", "log1p", "log2", "sign",  "sinh", "tanh", NULL};

static bool listed(const char *const *list, const char *name)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(list[i], name))
            return true;
    return false;
}

bool js_math_needs_runtime(const char *name)
{
    return listed(helpers, name) || !strcmp(name, "atan") || !strcmp(name, "atan2") || !strcmp(name, "max") ||
           !strcmp(name, "min");
}

bool js_math_is_trig(const char *name)
{
    return !strcmp(name, "sin") || !strcmp(name, "cos") || !strcmp(name, "tan");
}

void js_emit_math(js_ctx *c, const js_math_fn *fn, js_node *call)
{
    const char *n = fn->name;
    if (c->settings->precise_math && js_math_is_trig(n)) {
        put(c, "jsrt_");
        put(c, n);
        unary_builtin(c, "(", call, ")");
    } else if (listed(same_as_glsl, n)) {
        put(c, n);
        unary_builtin(c, "(", call, ")");
    } else if (listed(helpers, n)) {
        put(c, "jsrt_");
        put(c, n);
        unary_builtin(c, "(", call, ")");
    } else if (!strcmp(n, "floor") || !strcmp(n, "ceil") || !strcmp(n, "trunc")) {
        put(c, "int(");
        put(c, n);
        unary_builtin(c, "(", call, "))");
    } else if (!strcmp(n, "round")) {
        /* GPU.js's round (its GLSL and webasm alike): floor(x + 0.5) in float32, an integer; JavaScript's
         * own gives -0 for -0.5 <= x < 0 and 0 for 0.49999997 */
        unary_builtin(c, "int(floor(", call, " + 0.5))");
    } else if (!strcmp(n, "atan")) {
        unary_builtin(c, "jsrt_atan2(", call, ", 1.0)");
    } else if (!strcmp(n, "atan2") || !strcmp(n, "pow")) {
        put(c, n[0] == 'a' ? "jsrt_atan2(" : "jsrt_pow(");
        arg(c, call, 0);
        put(c, ", ");
        arg(c, call, 1);
        put(c, ")");
    } else if (!strcmp(n, "clz32")) { /* findMSB(0u) is -1: 32 leading zeros */
        put(c, "(31 - findMSB(uint(");
        int_arg(c, call, 0);
        put(c, ")))");
    } else if (!strcmp(n, "imul")) {
        put(c, "(");
        int_arg(c, call, 0);
        put(c, " * ");
        int_arg(c, call, 1);
        put(c, ")");
    } else if (!strcmp(n, "fround")) {
        unary_builtin(c, "(", call, ")");
    } else if (!strcmp(n, "max") || !strcmp(n, "min")) {
        min_max(c, n[1] == 'a' ? "jsrt_max" : "jsrt_min", call, 0);
    } else { /* random */
        put(c, "jsrt_random()");
    }
}
