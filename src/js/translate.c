/* translate.c - see translate.h: parse the kernel source and the added functions, give the kernel's
 * parameters their types (from gpuc_kernel_desc.arg_types, or from how the kernel indexes them),
 * check, then write the runtime helpers, native functions, JS helpers (callees first) and the kernel
 * (last, as gpuc's kernel contract wants). */
#include "js/check.h"
#include "js/emit.h"
#include "js/functions.h"
#include "js/glsl_names.h"
#include "js/parser.h"
#include "js/runtime/runtime.h"
#include "js/sub_kernels.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- argument types ---- */

/* RANK_FROM_USE: GPU.js records one name for float arrays of every rank ("Array" for 1D, 2D and 3D
 * arrays alike, "Input" for input(flat, [w, h])...): the rank is the most indices the kernel reads
 * the parameter with (at least 1), and any argument array is accepted at run time (flat rule). */
#define RANK_FROM_USE (-1)

typedef struct arg_type {
    const char *spelling;
    int rank;
    js_type elem;
} arg_type;

static const arg_type arg_types[] = {
    {"float", 0, T_FLOAT}, {"number", 0, T_FLOAT}, {"Number", 0, T_FLOAT}, {"Float", 0, T_FLOAT},
    {"int", 0, T_INT}, {"Integer", 0, T_INT},
    {"bool", 0, T_BOOL}, {"Boolean", 0, T_BOOL}, /* a `bool` uniform: true and false, or 0 and 1 */
    /* one vector (GPU.js's Array(2..4) argument types): a vecN uniform, read v[0], v[1]... */
    {"vec2", 0, T_VEC2}, {"Array(2)", 0, T_VEC2}, {"vec3", 0, T_VEC3}, {"Array(3)", 0, T_VEC3},
    {"vec4", 0, T_VEC4}, {"Array(4)", 0, T_VEC4},
    {"float[]", 1, T_FLOAT}, {"Array", RANK_FROM_USE, T_FLOAT}, {"float[][]", 2, T_FLOAT}, {"Array2D", 2, T_FLOAT},
    {"float[][][]", 3, T_FLOAT}, {"Array3D", 3, T_FLOAT},
    {"Input", RANK_FROM_USE, T_FLOAT}, {"NumberTexture", RANK_FROM_USE, T_FLOAT},
    {"MemoryOptimizedNumberTexture", RANK_FROM_USE, T_FLOAT}, {"ArrayTexture(1)", RANK_FROM_USE, T_FLOAT},
    {"int[]", 1, T_INT}, {"int[][]", 2, T_INT}, {"int[][][]", 3, T_INT},
    {"vec2[]", 1, T_VEC2}, {"Array1D(2)", 1, T_VEC2}, {"vec3[]", 1, T_VEC3}, {"Array1D(3)", 1, T_VEC3},
    {"vec4[]", 1, T_VEC4}, {"Array1D(4)", 1, T_VEC4},
    {"vec2[][]", 2, T_VEC2}, {"vec3[][]", 2, T_VEC3}, {"vec4[][]", 2, T_VEC4},
    {"Array2D(2)", 2, T_VEC2}, {"Array2D(3)", 2, T_VEC3}, {"Array2D(4)", 2, T_VEC4},
    {"vec2[][][]", 3, T_VEC2}, {"vec3[][][]", 3, T_VEC3}, {"vec4[][][]", 3, T_VEC4},
    {"Array3D(2)", 3, T_VEC2}, {"Array3D(3)", 3, T_VEC3}, {"Array3D(4)", 3, T_VEC4},
    /* Pictures are 2D arrays of RGBA cells (gpuc_array_from_png makes them), an image array 3D. */
    {"HTMLImage", 2, T_VEC4}, {"HTMLCanvas", 2, T_VEC4}, {"OffscreenCanvas", 2, T_VEC4},
    {"ImageBitmap", 2, T_VEC4}, {"ImageData", 2, T_VEC4}, {"HTMLVideo", 2, T_VEC4},
    {"HTMLImageArray", 3, T_VEC4},
};

static void apply_arg_type(js_var *v, const arg_type *t)
{
    v->rank_from_use = t->rank == RANK_FROM_USE;
    v->rank = v->rank_from_use ? 1 : t->rank;
    v->elem = t->elem;
    v->type = v->rank ? T_NONE : t->elem;
    v->int_scalar = v->rank == 0 && t->elem == T_INT;
}

static void parse_arg_types(js_ctx *c, js_func *k, const char *spec)
{
    const char *s = spec;
    int i = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        const char *e = s;
        while (*e && *e != ',')
            e++;
        const char *t = e;
        while (t > s && (t[-1] == ' ' || t[-1] == '\t'))
            t--;
        size_t len = (size_t)(t - s);
        const arg_type *found = NULL;
        for (size_t j = 0; j < sizeof arg_types / sizeof arg_types[0]; j++)
            if (strlen(arg_types[j].spelling) == len && !strncmp(arg_types[j].spelling, s, len))
                found = &arg_types[j];
        if (!found) {
            snprintf(c->err, c->errlen,
                     "arg_types \"%s\": entry %d `%.*s` is not a type (float, int, Boolean, vec2..vec4 "
                     "or Array(2)..Array(4), float[], float[][], float[][][], int[]..., vec2[], vec3[], vec4[]...)", spec, i + 1, (int)(len > 40 ? 40 : len), s);
            longjmp(c->fail, 1);
        }
        if (i < k->nparams)
            apply_arg_type(k->param_vars[i], found);
        i++;
        s = *e ? e + 1 : e;
    }
    if (i != k->nparams) {
        snprintf(c->err, c->errlen, "arg_types \"%s\" gives %d type(s) but the kernel has %d parameter(s)", spec, i,
                 k->nparams);
        longjmp(c->fail, 1);
    }
}

/* How many times the function `fn` indexes the variable `name` at most (0: never), following the
 * helpers it passes `name` on to (GPU.js lets helpers index the kernel's arrays). */
static int index_depth(js_ctx *c, const js_node *n, const char *name, int calls_left);

static int helper_depth(js_ctx *c, const js_node *call, const char *name, int calls_left)
{
    if (call->a->kind != N_IDENT || calls_left == 0)
        return 0;
    js_func *f = js_find_func(c, call->a->name);
    int depth = 0;
    for (int i = 0; f && i < call->nlist && i < f->node->nlist; i++)
        if (call->list[i]->kind == N_IDENT && !strcmp(call->list[i]->name, name)) {
            int d = index_depth(c, f->node->a, f->node->list[i]->name, calls_left - 1);
            depth = d > depth ? d : depth;
        }
    return depth;
}

static int index_depth(js_ctx *c, const js_node *n, const char *name, int calls_left)
{
    if (!n || n->kind == N_FUNCDECL || n->kind == N_FUNCEXPR)
        return 0;
    int depth = 0;
    if (n->kind == N_INDEX) {
        const js_node *root = n;
        while (root->kind == N_INDEX) {
            depth++;
            root = root->a;
        }
        if (root->kind != N_IDENT || strcmp(root->name, name) != 0)
            depth = 0;
    } else if (n->kind == N_CALL) {
        depth = helper_depth(c, n, name, calls_left);
    }
    const js_node *kids[] = {n->a, n->b, n->c, n->d};
    for (int i = 0; i < 4; i++) {
        int d = index_depth(c, kids[i], name, calls_left);
        depth = d > depth ? d : depth;
    }
    for (int i = 0; i < n->nlist; i++) {
        int d = index_depth(c, n->list[i], name, calls_left);
        depth = d > depth ? d : depth;
    }
    return depth;
}

/* Without arg_types: a parameter indexed n times (by the kernel, or by a helper it is passed to) is
 * an n-D float array, one never indexed a float. A parameter whose type leaves its rank to its use
 * (RANK_FROM_USE: GPU.js's rank-blind "Array") takes the most indices it is read with. */
static void infer_ranks(js_ctx *c, js_func *k)
{
    for (int i = 0; i < k->nparams; i++) {
        js_var *v = k->param_vars[i];
        if (!v->rank_from_use)
            continue;
        int depth = index_depth(c, k->node->a, v->name, 8);
        if (depth > v->rank) {
            v->rank = depth > 3 ? 3 : depth;
            v->elem = T_FLOAT;
            v->type = T_NONE;
        }
    }
}

static void setup_kernel(js_ctx *c, js_func *k)
{
    k->is_kernel = true;
    if (k->nparams > GPUC_MAX_ARGS)
        js_fail(c, k->node, "the kernel has %d parameters; gpuc takes at most %d (GPUC_MAX_ARGS)", k->nparams,
                GPUC_MAX_ARGS);
    for (int i = 0; i < k->nparams; i++) {
        js_var *v = js_arena_alloc(c->arena, sizeof *v);
        if (!v) {
            c->oom = true;
            js_fail(c, k->node, "out of memory");
        }
        v->name = k->node->list[i]->name;
        v->glsl = js_mangle(c, "js_", v->name);
        v->is_param = true;
        v->type = T_FLOAT;
        v->rank_from_use = true;
        k->param_vars[i] = v;
    }
    if (c->settings->arg_types)
        parse_arg_types(c, k, c->settings->arg_types);
    infer_ranks(c, k);
}

/* ---- native functions ---- */

static js_type glsl_type(const char *s, size_t n)
{
    static const struct {
        const char *name;
        js_type t;
    } types[] = {{"float", T_FLOAT}, {"int", T_INT}, {"bool", T_BOOL}, {"vec2", T_VEC2},
                 {"vec3", T_VEC3},   {"vec4", T_VEC4}, {"void", T_VOID}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i].name) == n && !strncmp(types[i].name, s, n))
            return types[i].t;
    return T_NONE;
}

static const char *word(const char *s, size_t *n)
{
    while (isspace((unsigned char)*s))
        s++;
    *n = 0;
    while (isalnum((unsigned char)s[*n]) || s[*n] == '_')
        (*n)++;
    return s;
}

/* Reads `type name(type a, type b) {` from a native function's text. */
static bool parse_native(const char *src, js_native *out, char *err, size_t errlen)
{
    size_t n;
    const char *s = word(src, &n);
    memset(out, 0, sizeof *out);
    out->ret = glsl_type(s, n);
    if (out->ret == T_NONE) {
        snprintf(err, errlen, "a native function must start with its return type (float, int, bool, vec2, vec3, "
                 "vec4 or void): `type name(params) { ... }`");
        return false;
    }
    s = word(s + n, &n);
    if (!n || n >= sizeof out->name || isdigit((unsigned char)*s)) {
        snprintf(err, errlen, "a native function needs a name after its return type");
        return false;
    }
    memcpy(out->name, s, n);
    if (!strncmp(out->name, "jsrt_", 5)) { /* runtime.h: the front end's own GLSL helpers */
        snprintf(err, errlen, "native function `%s`: names starting with jsrt_ are gpuc's own", out->name);
        return false;
    }
    s += n;
    while (isspace((unsigned char)*s))
        s++;
    if (*s++ != '(') {
        snprintf(err, errlen, "native function `%s`: expected `(` after its name", out->name);
        return false;
    }
    for (;;) {
        s = word(s, &n);
        if (!n && *s == ')')
            break;
        if (!strncmp(s, "in", n) && n == 2)
            s = word(s + n, &n);
        js_type t = glsl_type(s, n);
        if (t == T_NONE || t == T_VOID || out->nparams == JS_MAX_PARAMS) {
            snprintf(err, errlen, "native function `%s`: parameter %d must be float, int, bool, vec2, vec3 or vec4 "
                     "(at most %d parameters)", out->name, out->nparams + 1, JS_MAX_PARAMS);
            return false;
        }
        out->params[out->nparams++] = t;
        s = word(s + n, &n); /* the parameter's name */
        s += n;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == ',') {
            s++;
            continue;
        }
        if (*s != ')') {
            snprintf(err, errlen, "native function `%s`: expected `,` or `)` in its parameters", out->name);
            return false;
        }
        break;
    }
    if (!strchr(s, '{')) {
        snprintf(err, errlen, "native function `%s` has no body", out->name);
        return false;
    }
    return true;
}

bool js_check_native(const char *glsl, char *name, size_t namelen, char *err, size_t errlen)
{
    js_native nat;
    if (!parse_native(glsl, &nat, err, errlen))
        return false;
    snprintf(name, namelen, "%s", nat.name);
    return true;
}

bool js_check_function(const char *js, char *name, size_t namelen, char *err, size_t errlen)
{
    js_arena arena = {0};
    js_program prog;
    bool ok = js_parse(js, &arena, &prog, err, errlen);
    if (ok && (prog.nfuncs != 1 || !prog.funcs[0]->name)) {
        snprintf(err, errlen, "an added function must be exactly one named function, `function name(a, b) { ... }`");
        ok = false;
    }
    if (ok)
        snprintf(name, namelen, "%s", prog.funcs[0]->name);
    js_arena_free(&arena);
    return ok;
}

/* ---- the whole translation ---- */

static void load_sources(js_ctx *c, const char *js, js_func **kernel)
{
    js_program prog;
    if (!js_parse(js, c->arena, &prog, c->err, c->errlen))
        longjmp(c->fail, 1);
    for (int i = 0; i + 1 < prog.nfuncs; i++)
        js_register_func(c, prog.funcs[i], NULL);
    js_node *kn = prog.funcs[prog.nfuncs - 1];
    for (int i = 0; i < prog.nfuncs; i++)
        js_hoist_body(c, prog.funcs[i], NULL);
    const js_settings *s = c->settings;
    for (int i = 0; i < s->nfunctions; i++) {
        char origin[96];
        js_program lib;
        char err[512];
        if (!js_parse(s->functions[i], c->arena, &lib, err, sizeof err) || lib.nfuncs != 1) {
            snprintf(c->err, c->errlen, "in added function %d: %s", i + 1, lib.nfuncs != 1 ? "not one function" : err);
            longjmp(c->fail, 1);
        }
        snprintf(origin, sizeof origin, "added function '%.60s'", lib.funcs[0]->name ? lib.funcs[0]->name : "?");
        char *o = js_arena_strndup(c->arena, origin, strlen(origin));
        js_register_func(c, lib.funcs[0], o);
        js_hoist_body(c, lib.funcs[0], o);
    }
    for (int i = 0; i < s->nnatives && c->nnatives < JS_MAX_NATIVES; i++) {
        char err[256];
        if (!parse_native(s->natives[i], &c->natives[c->nnatives], err, sizeof err)) {
            snprintf(c->err, c->errlen, "in native function %d: %s", i + 1, err);
            longjmp(c->fail, 1);
        }
        c->natives[c->nnatives++].source = s->natives[i];
    }
    js_load_map(c);
    js_func *k = js_arena_alloc(c->arena, sizeof *k);
    if (!k) {
        c->oom = true;
        js_fail(c, kn, "out of memory");
    }
    k->node = kn;
    k->name = kn->name ? kn->name : "anonymous";
    k->glsl = js_mangle(c, "jsk_", k->name);
    k->nparams = kn->nlist;
    for (int i = 0; i < c->nfuncs; i++)
        if (kn->name && !strcmp(c->funcs[i]->name, kn->name))
            js_fail(c, kn, "the kernel `%s` has the name of a helper function", kn->name);
    *kernel = k;
}

static void emit_program(js_ctx *c, js_func *k)
{
    js_runtime_use use = {c->use_fmod, c->use_pow, c->use_toint, c->use_math, c->use_random, c->use_trig};
    strbuf_puts(&c->out, "// generated by gpuc's JavaScript front end\n");
    js_runtime_emit(&c->out, &use, c->settings->random_seed);
    for (int i = 0; i < c->nnatives; i++) {
        strbuf_puts(&c->out, c->natives[i].source);
        strbuf_puts(&c->out, "\n");
    }
    js_emit_keepers(c);
    for (int i = 0; i < c->norder; i++)
        js_emit_function(c, c->order[i]);
    js_emit_function(c, k);
}

bool js_translate(const char *js, const js_settings *settings, char **glsl, char *kernel_name,
                  size_t kernel_name_len, char *err, size_t errlen, bool *out_of_memory, js_loops *loops)
{
    js_arena arena = {0};
    js_ctx *c = calloc(1, sizeof *c);
    *glsl = NULL;
    *out_of_memory = false;
    if (!c) {
        *out_of_memory = true;
        snprintf(err, errlen, "out of host memory");
        return false;
    }
    c->arena = &arena;
    c->loops = loops;
    c->settings = settings;
    c->err = err;
    c->errlen = errlen;
    bool ok = false;
    if (!setjmp(c->fail)) {
        js_func *k = NULL;
        load_sources(c, js, &k);
        setup_kernel(c, k);
        for (int i = 0; loops && i < k->nparams && i < GPUC_MAX_ARGS; i++) {
            const char *written = k->node->list[i]->name;
            snprintf(loops->params[i], sizeof loops->params[i], "%s", written ? written : "");
            loops->nparams = i + 1;
        }
        js_check_function_body(c, k);
        c->origin = NULL;
        if (c->settings->graphical) {
            if (k->ret != T_NONE && k->ret != T_VOID)
                js_fail(c, k->node, "a graphical kernel paints its cell with this.color(r, g, b[, a]) and returns "
                                    "nothing, but this one returns %s", js_type_words(k->ret));
            k->ret = T_VOID;
        } else if (k->ret == T_NONE || k->ret == T_VOID) {
            js_fail(c, k->node, "the kernel never returns a value (`return` a number or an array of 2-4 numbers)");
        }
        for (int i = 0; settings->length_read && i < k->nparams; i++)
            settings->length_read[i] = k->param_vars[i]->length_read;
        emit_program(c, k);
        snprintf(kernel_name, kernel_name_len, "%s", k->node->name ? k->name : ""); /* "" for an anonymous one */
        *glsl = strbuf_take(&c->out);
        if (!*glsl) {
            c->oom = true;
            snprintf(err, errlen, "out of host memory writing GLSL");
        }
        ok = *glsl != NULL;
    }
    *out_of_memory = c->oom || arena.failed;
    strbuf_free(&c->out);
    js_arena_free(&arena);
    free(c);
    return ok;
}
