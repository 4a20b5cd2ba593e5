/* scopes.c - see scopes.h. */
#include "js/scopes.h"
#include "js/glsl_names.h"

#include <stdio.h>
#include <string.h>

/* The GLSL prefix of the current function's own variables: a helper specialised for kernel arrays
 * reads them through functions named by the arrays' GLSL names ("js_" + name), which a parameter or
 * local of the same JavaScript name must not hide (a minifier names them all `r`, `t`...). */
const char *js_local_prefix(const js_ctx *c)
{
    return c->current && c->current->base ? "jsh_" : "js_";
}

void js_scope_push(js_ctx *c, js_var *v, const js_node *at)
{
    if (c->nscope == JS_MAX_SCOPE)
        js_fail(c, at, "more than %d variables in one function", JS_MAX_SCOPE);
    c->scope[c->nscope++] = v;
}

js_var *js_scope_lookup(js_ctx *c, const char *name, int from)
{
    if (from < c->scope_base)
        from = c->scope_base; /* a function sees only its own names */
    for (int i = c->nscope - 1; i >= from; i--)
        if (!strcmp(c->scope[i]->name, name))
            return c->scope[i];
    return NULL;
}

js_var *js_scope_find(js_ctx *c, const char *name, int from)
{
    js_var *v = js_scope_lookup(c, name, from);
    if (v && v->poison)
        js_fail(c, c->where, "`%s` holds %s on one path to here and %s on another (`var %s` is declared again "
                "with another type in a branch or a loop): declare it again before this use, or use another name",
                name, js_type_words(v->poison_types[0]), js_type_words(v->poison_types[1]), name);
    if (v && v->outlived)
        v->hoisted = true; /* a `var` used after its block: GLSL must declare it at the function's top */
    return v;
}

/* Ends a block: its names go out of scope, except `var`s, which JavaScript scopes to the function. */
void js_scope_pop(js_ctx *c, int mark)
{
    js_var *vars[JS_MAX_SCOPE];
    int n = 0;
    for (int i = mark; i < c->nscope; i++)
        if (c->scope[i]->is_var)
            vars[n++] = c->scope[i];
    c->nscope = mark;
    for (int i = 0; i < n; i++) {
        vars[i]->outlived = true;
        c->scope[c->nscope++] = vars[i];
    }
}

/* The version of the `var` family of `existing` that holds `type` (made on first use, declared at the
 * function's top since it is assigned in more than one place). */
js_var *js_var_version(js_ctx *c, js_var *existing, js_type type, const js_node *at)
{
    js_var *root = existing->family ? existing->family : existing, *last = root;
    for (js_var *w = root; w; last = w, w = w->next_version)
        if (!w->poison && js_same_kind(w->type, type)) {
            w->hoisted = true;
            return w;
        }
    js_var *w = js_alloc(c, sizeof *w, at);
    char prefix[32];
    snprintf(prefix, sizeof prefix, "jsv%d_", ++c->versions);
    w->name = root->name;
    w->glsl = js_mangle(c, prefix, root->name);
    w->is_var = w->hoisted = true;
    w->type = type;
    w->family = root;
    last->next_version = w;
    c->changed = true;
    return w;
}

/* Marks the point reached: name holds a (a version or a poison entry) on one path and b on another. */
void js_push_poison(js_ctx *c, js_var *a, js_var *b, const js_node *at)
{
    js_var *p = js_alloc(c, sizeof *p, at);
    p->name = a->name;
    p->is_var = p->poison = true;
    p->family = a->family ? a->family : a;
    p->poison_types[0] = a->poison ? a->poison_types[0] : a->type;
    p->poison_types[1] = b->poison ? b->poison_types[1] : b->type;
    if (js_same_kind(p->poison_types[0], p->poison_types[1]))
        p->poison_types[1] = a->poison ? a->poison_types[1] : b->poison_types[0];
    js_scope_push(c, p, at);
}

/* The entry for name among the scope's first `top` entries (of the function being checked). */
js_var *js_lookup_below(js_ctx *c, const char *name, int top)
{
    for (int i = top - 1; i >= c->scope_base; i--)
        if (!strcmp(c->scope[i]->name, name))
            return c->scope[i];
    return NULL;
}

/* The first `var` declaration of name in statement n (not in nested functions) whose version in the
 * last pass is a version other than `other`, or NULL. */
static const js_node *decl_other_version(const js_node *n, const char *name, const js_var *other)
{
    if (!n || n->kind < N_VAR || n->kind == N_FUNCDECL)
        return NULL; /* expressions declare nothing */
    if (n->kind == N_VAR && !strcmp(n->op, "var"))
        for (int i = 0; i < n->nlist; i++) {
            const js_node *d = n->list[i];
            if (d->name && d->var && !d->var->poison && d->var != other && !strcmp(d->name, name) &&
                !(d->a && d->a->kind == N_FUNCEXPR))
                return d;
        }
    const js_node *kids[] = {n->a, n->b, n->c, n->d};
    for (int i = 0; i < 4; i++) {
        const js_node *d = decl_other_version(kids[i], name, other);
        if (d)
            return d;
    }
    for (int i = 0; i < n->nlist; i++) {
        const js_node *d = decl_other_version(n->list[i], name, other);
        if (d)
            return d;
    }
    return NULL;
}

/* Poisons, at a loop's head (or a switch's cases), each name that the statements `parts` declare with
 * `var` and that holds more than one version there: the one in force on entry (below entry_top) and
 * those the declarations chose in the last pass (a first pass has none yet; it makes them and asks
 * for another). Walks the declarations found in `n`; chains the poison entries made on *chain. */
static void poison_loop_names(js_ctx *c, js_node *const *parts, int nparts, const js_node *n, int entry_top,
                              js_var **chain, const js_node *at)
{
    if (!n || n->kind < N_VAR || n->kind == N_FUNCDECL)
        return;
    if (n->kind == N_VAR && !strcmp(n->op, "var"))
        for (int i = 0; i < n->nlist; i++) {
            const js_node *d = n->list[i];
            if (!d->name || (d->a && d->a->kind == N_FUNCEXPR))
                continue;
            bool done = false;
            for (js_var *p = *chain; p && !done; p = p->next_version)
                done = !strcmp(p->name, d->name);
            js_var *entry = js_lookup_below(c, d->name, entry_top);
            js_var *a = entry && entry->is_var ? entry : d->var;
            js_var *root = a ? (a->family ? a->family : a) : NULL;
            if (!root || !root->next_version)
                continue; /* the name has one version (the usual case): nothing to look for */
            const js_node *other = NULL;
            for (int k = 0; a && !done && !other && k < nparts; k++)
                other = decl_other_version(parts[k], d->name, a);
            if (done || !other)
                continue;
            js_push_poison(c, a, other->var, at);
            js_var *p = c->scope[c->nscope - 1];
            p->next_version = *chain;
            *chain = p;
        }
    const js_node *kids[] = {n->a, n->b, n->c, n->d};
    for (int i = 0; i < 4; i++)
        poison_loop_names(c, parts, nparts, kids[i], entry_top, chain, at);
    for (int i = 0; i < n->nlist; i++)
        poison_loop_names(c, parts, nparts, n->list[i], entry_top, chain, at);
}

/* The poison of a loop's head again (after the loop: it may have run no times, or been left early). */
void js_repoison(js_ctx *c, js_var *chain, const js_node *at)
{
    for (js_var *p = chain; p; p = p->next_version)
        js_push_poison(c, p, p, at);
}

/* Poisons a loop's names (see poison_loop_names) at its head; returns the chain for js_repoison. */
js_var *js_poison_loop(js_ctx *c, js_node *const *parts, int nparts, const js_node *at)
{
    js_var *chain = NULL;
    int entry_top = c->nscope;
    for (int k = 0; k < nparts; k++)
        poison_loop_names(c, parts, nparts, parts[k], entry_top, &chain, at);
    return chain;
}
