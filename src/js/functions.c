/* functions.c - see functions.h. */
#include "js/functions.h"
#include "js/glsl_names.h"

#include <stdio.h>
#include <string.h>

js_func *js_register_func(js_ctx *c, js_node *fn, const char *origin)
{
    if (!fn->name)
        js_fail(c, fn, "a helper function needs a name (only the kernel, the last function, may be anonymous)");
    for (int i = 0; i < c->nfuncs; i++)
        if (c->funcs[i]->name && !strcmp(c->funcs[i]->name, fn->name))
            js_fail(c, fn, "the function `%s` is defined twice", fn->name);
    if (c->nfuncs == JS_MAX_FUNCS)
        js_fail(c, fn, "more than %d functions", JS_MAX_FUNCS);
    if (fn->nlist > JS_MAX_PARAMS)
        js_fail(c, fn, "`%s` has %d parameters; at most %d are supported", fn->name, fn->nlist, JS_MAX_PARAMS);
    js_func *f = js_arena_alloc(c->arena, sizeof *f);
    if (!f) {
        c->oom = true;
        js_fail(c, fn, "out of memory");
    }
    f->node = fn;
    f->name = fn->name;
    f->glsl = js_mangle(c, "jsf_", fn->name);
    f->nparams = fn->nlist;
    f->origin = origin;
    c->funcs[c->nfuncs++] = f;
    return f;
}

/* Function declarations nested in a body, and function expressions bound to a name or called where
 * they are defined, become helpers of their own (they may not use the outer function's variables:
 * the checker reports that as a closure). */
static void hoist_nested(js_ctx *c, js_node *n, const char *origin)
{
    if (!n)
        return;
    if (n->kind == N_FUNCDECL)
        js_register_func(c, n, origin);
    if (n->kind == N_DECL && n->name && n->a && n->a->kind == N_FUNCEXPR) {
        n->a->name = n->name; /* const f = function (x) {...} or (x) => ...: called as f(...) */
        js_register_func(c, n->a, origin);
    }
    if (n->kind == N_CALL && n->a->kind == N_FUNCEXPR) {
        /* (function (x) {...})(y), called where it is defined: a helper of its own, named after its
         * position (`$` keeps the name apart from a plain one in GLSL; js_mangle escapes it). */
        js_node *fn = n->a;
        char name[48];
        snprintf(name, sizeof name, "%s$%d_%d", fn->name ? fn->name : "function", fn->line, fn->col);
        fn->name = js_arena_strndup(c->arena, name, strlen(name));
        if (!fn->name) {
            c->oom = true;
            js_fail(c, fn, "out of memory");
        }
        js_node *callee = js_alloc(c, sizeof *callee, fn);
        *callee = (js_node){.kind = N_IDENT, .line = fn->line, .col = fn->col, .name = fn->name, .height = 1};
        n->a = callee;
        js_register_func(c, fn, origin);
        hoist_nested(c, fn->a, origin);
    }
    if (n->kind == N_FUNCDECL || n->kind == N_FUNCEXPR) {
        hoist_nested(c, n->a, origin);
        return;
    }
    /* statements, and expressions too: they may hold calls of function expressions (above) */
    hoist_nested(c, n->a, origin);
    hoist_nested(c, n->b, origin);
    hoist_nested(c, n->c, origin);
    hoist_nested(c, n->d, origin);
    for (int i = 0; i < n->nlist; i++)
        hoist_nested(c, n->list[i], origin);
}

void js_hoist_body(js_ctx *c, js_node *fn, const char *origin)
{
    for (int i = 0; i < fn->a->nlist; i++)
        hoist_nested(c, fn->a->list[i], origin);
}

js_func *js_find_func(js_ctx *c, const char *name)
{
    for (int i = 0; i < c->nfuncs; i++)
        if (c->funcs[i]->name && !strcmp(c->funcs[i]->name, name))
            return c->funcs[i];
    return NULL;
}

int js_find_native(js_ctx *c, const char *name)
{
    for (int i = 0; i < c->nnatives; i++)
        if (!strcmp(c->natives[i].name, name))
            return i;
    return -1;
}
