/* specialise.c - helpers called with the kernel's arrays (GPU.js passes an array argument on to a
 * helper as a reference). GLSL cannot pass gpuc's arrays to functions, so each helper called with
 * arrays is checked and emitted once per combination of kernel arrays it receives: the copy reads
 * the kernel's array wherever the helper reads its parameter, and the array arguments vanish from
 * the GLSL call. */
#include "js/check.h"
#include "js/glsl_names.h"
#include "js/scopes.h"

#include <stdio.h>
#include <string.h>

js_var *js_array_arg(js_ctx *c, js_node *arg)
{
    if (arg->kind != N_IDENT)
        return NULL;
    js_var *v = js_scope_find(c, arg->name, 0);
    if (!v || v->rank == 0)
        return NULL;
    arg->var = v;
    arg->type = T_NONE;
    return v->array ? v->array : v;
}

/* A fresh copy of a function body: the checker writes types and variables into the nodes, so each
 * specialisation needs its own. Nested function declarations are hoisted helpers of their own and
 * are shared, not copied. */
static js_node *copy_node(js_ctx *c, const js_node *n)
{
    if (!n)
        return NULL;
    if (n->kind == N_FUNCDECL || n->kind == N_FUNCEXPR)
        return (js_node *)n;
    js_node *k = js_alloc(c, sizeof *k, n);
    *k = *n;
    k->type = T_NONE;
    k->var = NULL;
    k->func = NULL;
    k->native = 0;
    k->temp = 0;
    k->a = copy_node(c, n->a);
    k->b = copy_node(c, n->b);
    /* a op= b: the checker makes c (a = a op b) itself */
    k->c = n->kind == N_ASSIGN ? NULL : copy_node(c, n->c);
    k->d = copy_node(c, n->d);
    if (n->nlist) {
        k->list = js_alloc(c, (size_t)n->nlist * sizeof *k->list, n);
        for (int i = 0; i < n->nlist; i++)
            k->list[i] = copy_node(c, n->list[i]);
    }
    return k;
}

js_func *js_specialise(js_ctx *c, js_func *f, js_node *call)
{
    js_var *bound[JS_MAX_PARAMS] = {0};
    bool any = false;
    for (int i = 0; i < call->nlist && i < f->nparams; i++) {
        bound[i] = js_array_arg(c, call->list[i]);
        any = any || bound[i];
    }
    if (!any)
        return f;
    for (int s = 0; s < c->nspecs; s++) {
        js_func *g = c->specs[s];
        if (g->base == f && !memcmp(g->bound, bound, sizeof bound))
            return g;
    }
    if (c->nspecs == JS_MAX_FUNCS)
        js_fail(c, call, "`%s` is called with more than %d different combinations of arrays", f->name,
                JS_MAX_FUNCS);
    js_func *g = js_alloc(c, sizeof *g, call);
    *g = *f;
    g->checking = g->checked = g->emitted = false;
    g->ret = T_NONE;
    memset(g->param_vars, 0, sizeof g->param_vars);
    g->base = f;
    memcpy(g->bound, bound, sizeof bound);
    js_node *node = js_alloc(c, sizeof *node, call);
    *node = *f->node;
    node->a = copy_node(c, f->node->a);
    node->list = js_alloc(c, (size_t)(node->nlist ? node->nlist : 1) * sizeof *node->list, call);
    for (int i = 0; i < node->nlist; i++)
        node->list[i] = copy_node(c, f->node->list[i]);
    g->node = node;
    char prefix[24];
    snprintf(prefix, sizeof prefix, "jss%d_", c->nspecs + 1);
    g->glsl = js_mangle(c, prefix, f->name);
    c->specs[c->nspecs++] = g;
    return g;
}
