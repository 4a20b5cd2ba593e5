/* check_hints.c - the checker's messages that need a look around before they fail: an indexed number
 * traced back to the kernel argument it was read from (and the .arg_types entry that would make that
 * argument's cells arrays), array methods, constants the kernel does not have. Run only on the way to
 * a failure: nothing here decides what compiles. */
#include "js/check.h"
#include "js/scopes.h"

#include <stdio.h>
#include <string.h>

/* The kernel's array parameter (its index) that an index chain a[i][j]... reads, or -1. */
static int argument_read(const js_ctx *c, const js_node *e)
{
    const js_func *f = c->current;
    if (!f || !f->is_kernel || !e || e->kind != N_INDEX)
        return -1;
    while (e->kind == N_INDEX)
        e = e->a;
    if (e->kind != N_IDENT)
        return -1;
    for (int i = 0; i < f->nparams && i < JS_MAX_PARAMS; i++)
        if (f->param_vars[i] && f->param_vars[i]->rank > 0 && !strcmp(f->param_vars[i]->name, e->name))
            return i;
    return -1;
}

/* The kernel parameter whose cell the variable `name` is given (`let v = b[i]`, `v = b[i]`) anywhere in
 * n, or -1. The tree is as deep as the checker allowed it to be (JS_MAX_CHECK_DEPTH). */
static int assigned_from(const js_ctx *c, const js_node *n, const char *name)
{
    if (!n)
        return -1;
    if (n->kind == N_DECL && n->name && !strcmp(n->name, name) && argument_read(c, n->a) >= 0)
        return argument_read(c, n->a);
    if (n->kind == N_ASSIGN && !strcmp(n->op, "=") && n->a && n->a->kind == N_IDENT && !strcmp(n->a->name, name) &&
        argument_read(c, n->b) >= 0)
        return argument_read(c, n->b);
    const js_node *kids[] = {n->a, n->b, n->c, n->d};
    for (int i = 0; i < 4; i++) {
        int found = assigned_from(c, kids[i], name);
        if (found >= 0)
            return found;
    }
    for (int i = 0; i < n->nlist; i++) {
        int found = assigned_from(c, n->list[i], name);
        if (found >= 0)
            return found;
    }
    return -1;
}

/* Entry `which` (0-based) of the comma-separated .arg_types spec, blanks trimmed, into out ("" when
 * there is no such entry). */
static void arg_types_entry(const char *spec, int which, char *out, size_t len)
{
    const char *s = spec;
    out[0] = '\0';
    for (int i = 0; s && *s; i++) {
        while (*s == ' ' || *s == '\t')
            s++;
        const char *e = s + strcspn(s, ",");
        const char *t = e;
        while (t > s && (t[-1] == ' ' || t[-1] == '\t'))
            t--;
        if (i == which) {
            snprintf(out, len, "%.*s", (int)(t - s), s);
            return;
        }
        s = *e ? e + 1 : e;
    }
}

/* .arg_types as given, with entry `which` (0-based) replaced by `type`; without .arg_types, the types
 * gpuc inferred ("Array" for an array argument, "Number" otherwise) with that one replaced. */
static void arg_types_with(const js_ctx *c, int which, const char *type, char *out, size_t len)
{
    const js_func *f = c->current;
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < f->nparams && i < JS_MAX_PARAMS; i++) {
        char entry[64];
        if (i == which)
            snprintf(entry, sizeof entry, "%s", type);
        else if (c->settings->arg_types)
            arg_types_entry(c->settings->arg_types, i, entry, sizeof entry);
        else
            snprintf(entry, sizeof entry, "%s", f->param_vars[i] && f->param_vars[i]->rank > 0 ? "Array" : "Number");
        int w = snprintf(out + used, len - used, "%s%s", i ? ", " : "", entry);
        if (w < 0 || (size_t)w >= len - used)
            return;
        used += (size_t)w;
    }
}

/* The kernel parameter called name, or -1. */
static int kernel_param(const js_ctx *c, const char *name)
{
    const js_func *f = c->current;
    for (int i = 0; f && f->is_kernel && i < f->nparams && i < JS_MAX_PARAMS; i++)
        if (f->param_vars[i] && !strcmp(f->param_vars[i]->name, name))
            return i;
    return -1;
}

void js_fail_indexed_number(js_ctx *c, js_node *n, js_type base)
{
    const js_node *target = n->a;
    int arg = -1;
    bool via = false; /* target is a variable holding a cell of argument arg, not the argument itself */
    if (target->kind == N_IDENT && base != T_BOOL) {
        const js_var *v = js_scope_find(c, target->name, 0);
        if (v && v->is_param && v->rank == 0) {
            arg = kernel_param(c, target->name);
        } else if (v && !v->is_param && c->current && c->current->is_kernel) {
            arg = assigned_from(c, c->current->node, target->name);
            via = true;
        }
    }
    if (arg < 0)
        js_fail(c, n, "only arguments, arrays of 2-4 numbers and matrices can be indexed, not %s",
                js_type_words(base));
    const char *name = c->current->param_vars[arg]->name;
    char given[64], now[96] = "", types[512];
    arg_types_entry(c->settings->arg_types, arg, given, sizeof given);
    if (given[0])
        snprintf(now, sizeof now, " (now \"%s\")", given);
    if (!via) {
        arg_types_with(c, arg, "Array", types, sizeof types);
        js_fail(c, n, "argument `%s` is a number, so it cannot be indexed: for an array argument, set its .arg_types "
                "entry %d%s to \"Array\": .arg_types = \"%s\"", name, arg + 1, now, types);
    }
    /* A cell must hold more numbers than a literal index: v[k] asks for k + 1 at least. */
    int want = n->b && n->b->kind == N_NUMBER && n->b->num >= 1 && n->b->num <= 3 ? (int)n->b->num + 1 : 2;
    char type[24];
    snprintf(type, sizeof type, "Array1D(%d)", want);
    arg_types_with(c, arg, type, types, sizeof types);
    js_fail(c, n, "`%s` holds a number read from argument `%s`, so it cannot be indexed: to read `%s`'s cells as "
            "arrays of 2-4 numbers, set its .arg_types entry %d%s to \"%s\" (as many numbers as a cell holds): "
            ".arg_types = \"%s\"", target->name, name, name, arg + 1, now, type, types);
}

void js_fail_array_used_whole(js_ctx *c, const js_node *n, const js_var *v)
{
    int arg = v->is_param ? kernel_param(c, v->name) : -1;
    char given[64] = "", types[512];
    if (arg >= 0)
        arg_types_entry(c->settings->arg_types, arg, given, sizeof given);
    if (!given[0])
        js_fail(c, n, "the array `%s` can only be read by index (`%s[i]`) or passed to a helper function", n->name,
                n->name);
    arg_types_with(c, arg, "Number", types, sizeof types);
    js_fail(c, n, "the array `%s` can only be read by index (`%s[i]`) or passed to a helper function; its "
            ".arg_types entry %d is \"%s\": for a number argument set it to \"Number\" (.arg_types = \"%s\")",
            n->name, n->name, arg + 1, given, types);
}

/* Methods of JavaScript's arrays: GPU.js compiles none of them. */
static bool array_method(const char *name)
{
    static const char *const methods[] = {"map",     "forEach", "reduce",   "reduceRight", "filter", "find",
                                          "findIndex", "some",  "every",    "indexOf",     "includes", "join",
                                          "slice",   "concat",  "push",     "pop",         "fill",   "sort",
                                          "reverse", "flat",    "flatMap",  "at",          "keys",   "entries"};
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
        if (!strcmp(name, methods[i]))
            return true;
    return false;
}

void js_check_method_call(js_ctx *c, js_node *call)
{
    const js_node *callee = call->a;
    if (callee->kind != N_MEMBER || callee->a->kind == N_THIS ||
        (callee->a->kind == N_IDENT && !strcmp(callee->a->name, "Math")))
        return;
    if (array_method(callee->name))
        js_fail(c, call, "`.%s(...)` is an array method, and kernels have none (GPU.js compiles none either): "
                "write a loop over the elements, as in `for (let i = 0; i < 3; i++) { ... v[i] ... }`",
                callee->name);
    js_fail(c, call, "calling `.%s(...)` is not supported in kernels", callee->name);
}

void js_fail_unknown_constant(js_ctx *c, const js_node *at, const char *name)
{
    char list[512];
    size_t used = 0;
    list[0] = '\0';
    for (int i = 0; i < c->settings->nconstants && c->settings->constants && c->settings->constants[i].name; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s`%s`", used ? ", " : "", c->settings->constants[i].name);
        if (w < 0 || (size_t)w >= sizeof list - used)
            break;
        used += (size_t)w;
    }
    if (list[0])
        js_fail(c, at, "`this.constants.%s` is not among the kernel's constants, which are %s (give it in "
                "gpuc_kernel_desc.constants)", name, list);
    js_fail(c, at, "`this.constants.%s` is not among the kernel's constants: the kernel has none (give it in "
            "gpuc_kernel_desc.constants)", name);
}
