/* check.c - the checker's statements and functions (see check.h; expressions: check_expr.c).
 * Typing follows GPU.js 2.24: numbers are float32 unless
 * they are integers GPU.js keeps as integers (this.thread.*, Math.floor/ceil/round/trunc, bitwise
 * results, int constants and arguments, loop counters and variables that are only ever incremented
 * from an integer); `/`, `%` and `**` are float; mixing int and float gives float. A variable's type is
 * found by checking its function until no variable changes type (an int variable that is ever
 * assigned a float becomes a float). */
#include "js/check.h"
#include "js/glsl_names.h"
#include "js/scopes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void check_stmt(js_ctx *c, js_node *n);

js_type js_set_type(js_node *n, js_type t)
{
    n->type = t;
    return t;
}

js_type js_lit(js_node *n, double v)
{
    /* An integer that is exactly an int32 stays a compile-time integer; anything else is a float. */
    n->num = v;
    if (v == floor(v) && fabs(v) <= 2147483647.0)
        return js_set_type(n, T_LIT);
    return js_set_type(n, T_FLOAT);
}

/* ---- statements ---- */

static bool references(const js_node *n, const js_var *v)
{
    if (!n)
        return false;
    if (n->kind == N_IDENT && n->var == v)
        return true;
    if (references(n->a, v) || references(n->b, v) || references(n->c, v) || references(n->d, v))
        return true;
    for (int i = 0; i < n->nlist; i++)
        if (references(n->list[i], v))
            return true;
    return false;
}

/* const [x, y] = v: each name gets one number of the vector (or one row of a matrix), read from a
 * hidden temporary that holds v (emit.c). */
static void check_destructure(js_ctx *c, js_node *var_stmt, js_node *d)
{
    js_type t = js_check_expr(c, d->a);
    if (!js_is_vec(t) && !js_is_mat(t))
        js_fail(c, d, "only arrays of 2-4 numbers (or matrices) can be destructured, not %s", js_type_words(t));
    int size = js_is_mat(t) ? js_mat_size(t) : js_vec_size(t);
    if (d->nlist > size)
        js_fail(c, d, "%d names are taken from an array of %d", d->nlist, size);
    if (!d->temp)
        d->temp = ++c->temps;
    for (int i = 0; i < d->nlist; i++) {
        js_node *name = d->list[i];
        if (name->kind != N_IDENT)
            continue;
        js_var *existing = js_scope_lookup(c, name->name, c->scope_base);
        if (existing && existing->is_param)
            js_fail(c, name, "`%s` is already a parameter of this function: use another name", name->name);
        if (js_scope_lookup(c, name->name, c->block_mark) && existing != name->var)
            js_fail(c, name, "`%s` is declared twice in one block", name->name);
        if (!name->var) {
            js_var *v = js_alloc(c, sizeof *v, name);
            v->name = name->name;
            v->glsl = js_mangle(c, js_local_prefix(c), name->name);
            v->is_const = !strcmp(var_stmt->op, "cons");
            v->destructured = true;
            name->var = v;
        }
        name->var->type = js_is_mat(t) ? js_mat_row(t) : T_FLOAT;
        js_scope_push(c, name->var, name);
    }
}

static void check_decl(js_ctx *c, js_node *var_stmt, js_node *d)
{
    if (!d->name) {
        check_destructure(c, var_stmt, d);
        return;
    }
    if (d->a && d->a->kind == N_FUNCEXPR)
        return; /* a function bound to a name: a helper of its own (translate.c) */
    js_var *existing = js_scope_lookup(c, d->name, c->scope_base);
    bool is_var = !strcmp(var_stmt->op, "var");
    /* A let or const in an inner block or a for's header is a new variable hiding the parameter, as
     * in JavaScript (minifiers reuse parameter names so); in the function's own block it is an error. */
    bool hides_param = existing && existing->is_param && !is_var && (c->block_mark != c->body_mark || c->for_header);
    if (existing && existing->is_param && !hides_param)
        js_fail(c, d, "`%s` is already a parameter of this function: use another name", d->name);
    if (hides_param)
        existing = NULL;
    js_type init = d->a ? js_check_expr(c, d->a) : existing && is_var && existing->is_var ? existing->type : T_FLOAT;
    if (init == T_VOID)
        js_fail(c, d, "`%s` is given the result of a function that returns nothing", d->name);
    if (is_var && existing && existing->destructured)
        js_fail(c, d, "`var %s` is declared where `%s` taken by a destructuring (`[%s, ...] = v`, which gpuc scopes "
                "to its block) is in scope: use another name", d->name, d->name, d->name);
    if (is_var && existing && !existing->is_var)
        js_fail(c, d, "`var %s` is declared where a block-scoped `%s` (let or const) is in scope, which JavaScript "
                "refuses (SyntaxError): use another name", d->name, d->name);
    js_var *v = d->var;
    if (is_var && existing && existing->is_var) {
        /* `var x` again: the same variable, as in JavaScript, while it holds the same kind of value;
         * holding another, the version of x for that type from here on */
        if (existing->poison && !d->a)
            js_fail(c, d, "`var %s;` keeps a value that is %s on one path to here and %s on another: give it a "
                    "value, or use another name", d->name, js_type_words(existing->poison_types[0]),
                    js_type_words(existing->poison_types[1]));
        bool retyped = existing->poison || (existing->type != T_NONE && !js_same_kind(existing->type, init));
        js_var *want = retyped ? js_var_version(c, existing, init, d) : existing;
        bool versioned = retyped || want->family || want->next_version || (v && (v->family || v->next_version));
        if (!v || versioned) {
            if (v && v != want)
                c->changed = true; /* the version in force here changed since the last pass */
            v = d->var = want;
        }
    }
    /* Declared again inside the block of an earlier declaration that is still open (its loop's body, a
     * nested block, the same block): in GLSL that would be a second variable hiding the first, so the
     * writes would miss it. Then x is one GLSL variable at the function's top and each declaration an
     * assignment to it (a loop whose counter is declared again in its body then shows the reader the
     * write, and is guarded). Declared again after that block ended (`for (var i ...)` twice in a
     * row), a declaration with a value may start its own variable, as before: nothing reads the old one
     * there (a read after its block hoists it, js_scope_find). */
    if (is_var && v && existing == v && !v->outlived)
        v->hoisted = true;
    if (!v) {
        v = js_alloc(c, sizeof *v, d);
        v->name = d->name;
        v->glsl = js_mangle(c, hides_param ? "jsp_" : js_local_prefix(c), d->name); /* jsp_: apart from the parameter */
        v->is_const = !strcmp(var_stmt->op, "cons");
        v->is_var = is_var;
        v->init = v->is_const ? d->a : NULL;
        v->undefined = v->is_const && d->undefined;
        d->var = v;
    }
    js_type t = init;
    if (!d->a && existing == v)
        t = v->type; /* `var x;` again assigns nothing: x keeps its value and its type (an int counter stays int) */
    else if (js_is_numeric(init)) {
        if (v->is_var && !js_is_intlike(init) && !v->demoted) {
            v->demoted = true; /* given a float anywhere (`var` may be declared again): stays a float */
            c->changed = true;
        }
        t = js_is_intlike(init) && (v->for_counter || v->incremented) && !v->demoted ? T_INT : T_FLOAT;
    }
    if (t != v->type && v->type != T_NONE)
        c->changed = true;
    v->type = t;
    v->outlived = false;
    if (is_var && !d->a)
        v->hoisted = true; /* `var x;` keeps x's value (in a loop, the last iteration's): declared once */
    js_scope_push(c, v, d);
}

static void check_condition(js_ctx *c, js_node *e)
{
    js_type t = js_check_expr(c, e);
    if (js_is_vec(t) || js_is_mat(t) || t == T_VOID)
        js_fail(c, e, "a condition must be a number or a boolean, not %s", js_type_words(t));
}

static void check_block(js_ctx *c, js_node **list, int n)
{
    int mark = c->nscope, saved_mark = c->block_mark;
    c->block_mark = mark;
    for (int i = 0; i < n; i++) {
        js_node *s = list[i];
        /* A name declared twice in one block is a JS error too (for let/const). */
        if (s->kind == N_VAR)
            for (int k = 0; k < s->nlist; k++)
                for (int j = mark; j < c->nscope; j++)
                    if (s->list[k]->name && !(s->list[k]->a && s->list[k]->a->kind == N_FUNCEXPR) &&
                        !strcmp(c->scope[j]->name, s->list[k]->name) &&
                        !(c->scope[j]->is_var && !strcmp(s->op, "var")))
                        js_fail(c, s->list[k], "`%s` is declared twice in one block", s->list[k]->name);
        check_stmt(c, s);
    }
    js_scope_pop(c, mark);
    c->block_mark = saved_mark;
}

static void check_for(js_ctx *c, js_node *n)
{
    int mark = c->nscope;
    bool saved_header = c->for_header;
    c->for_header = true;
    if (n->a)
        check_stmt(c, n->a);
    c->for_header = saved_header;
    js_node *loop_parts[] = {n->b, n->c, n->d};
    js_var *poisoned = js_poison_loop(c, loop_parts, 3, n);
    if (n->b)
        check_condition(c, n->b);
    if (n->a && n->a->kind == N_VAR && n->b)
        for (int i = 0; i < n->a->nlist; i++) {
            js_var *v = n->a->list[i]->var;
            if (!v->for_counter && references(n->b, v)) {
                v->for_counter = true;
                c->changed = true;
            }
        }
    if (n->c)
        js_check_expr(c, n->c);
    c->loop_depth++;
    n->temp = ++c->temps;
    check_stmt(c, n->d);
    c->loop_depth--;
    js_scope_pop(c, mark);
    js_repoison(c, poisoned, n);
}

/* if/else: a `var` whose version in force changed in one branch is, after the if, the version each
 * branch leaves when both leave the same one, else poisoned (the else branch starts from the version
 * in force before the if, not from the then branch's). */
static void check_if(js_ctx *c, js_node *n)
{
    check_condition(c, n->a);
    int entry_top = c->nscope;
    check_block(c, &n->b, 1);
    int then_top = c->nscope;
    for (int i = entry_top; i < then_top; i++) {
        const char *name = c->scope[i]->name;
        js_var *entry = js_lookup_below(c, name, entry_top);
        if (entry && entry->is_var && js_lookup_below(c, name, c->nscope) != entry)
            js_scope_push(c, entry, n); /* in force again where the else branch starts */
    }
    if (n->c)
        check_block(c, &n->c, 1);
    int end = c->nscope;
    for (int i = entry_top; i < end; i++) {
        const char *name = c->scope[i]->name;
        js_var *then_exit = js_lookup_below(c, name, then_top), *else_exit = js_lookup_below(c, name, end);
        bool done = false;
        for (int j = entry_top; j < i && !done; j++)
            done = !strcmp(c->scope[j]->name, name);
        if (!done && then_exit && else_exit && then_exit != else_exit && then_exit->is_var && else_exit->is_var)
            js_push_poison(c, then_exit, else_exit, n);
    }
}

static void check_return(js_ctx *c, js_node *n)
{
    js_func *f = c->current;
    if (!n->a && f->is_kernel && c->settings->graphical)
        return; /* a graphical kernel returns nothing: its cell is what this.color painted */
    if (!n->a)
        js_fail(c, n, "`return` needs a value in a kernel function");
    if (f->is_kernel && c->settings->graphical)
        js_fail(c, n, "a graphical kernel paints its cell with this.color(r, g, b[, a]) and returns nothing");
    js_type t = js_check_expr(c, n->a);
    if (t == T_VOID)
        js_fail(c, n, "returning the result of a function that returns nothing");
    if (f->is_kernel && js_is_mat(t))
        js_fail(c, n, "the kernel returns %s; a kernel's cell is a number or an array of 2-4 numbers (a helper "
                "may return a matrix)", js_type_words(t));
    if (js_is_numeric(t))
        t = T_FLOAT; /* GPU.js returns numbers as float32 */
    if (f->is_kernel && t == T_BOOL)
        t = T_FLOAT;
    if (f->ret == T_NONE || f->ret == T_VOID) {
        f->ret = t;
    } else if (f->ret != t) {
        if (js_is_vec(t) || js_is_vec(f->ret) || js_is_mat(t) || js_is_mat(f->ret))
            js_fail(c, n, "this returns %s but an earlier return gives %s", js_type_words(t), js_type_words(f->ret));
        f->ret = T_FLOAT; /* a boolean and a number: both become numbers */
    }
}

void js_check_deeper(js_ctx *c, const js_node *at)
{
    if (++c->check_depth > JS_MAX_CHECK_DEPTH)
        js_fail(c, at, "the kernel and the helpers it calls inside one another nest more than %d statements and "
                       "operators deep in all; call fewer deeply nested helpers from inside one another",
                JS_MAX_CHECK_DEPTH);
}

static void check_stmt_kind(js_ctx *c, js_node *n);

static void check_stmt(js_ctx *c, js_node *n)
{
    js_check_deeper(c, n);
    check_stmt_kind(c, n);
    c->check_depth--;
}

static void check_stmt_kind(js_ctx *c, js_node *n)
{
    switch (n->kind) {
    case N_VAR:
        for (int i = 0; i < n->nlist; i++)
            check_decl(c, n, n->list[i]);
        break;
    case N_EXPR: js_check_expr(c, n->a); break;
    case N_BLOCK: check_block(c, n->list, n->nlist); break;
    case N_IF: check_if(c, n); break;
    case N_FOR: check_for(c, n); break;
    case N_WHILE:
    case N_DOWHILE: {
        js_node *loop_parts[] = {n->b};
        js_var *poisoned = js_poison_loop(c, loop_parts, 1, n);
        if (n->kind == N_WHILE)
            check_condition(c, n->a);
        n->temp = ++c->temps;
        c->loop_depth++;
        check_block(c, &n->b, 1);
        c->loop_depth--;
        if (n->kind == N_DOWHILE)
            check_condition(c, n->a); /* after the body, as it runs: it sees the body's `var`s */
        js_repoison(c, poisoned, n);
        break;
    }
    case N_BREAK:
        if (!c->loop_depth && !c->switch_depth)
            js_fail(c, n, "`break` outside a loop or switch");
        break;
    case N_CONTINUE:
        if (!c->loop_depth)
            js_fail(c, n, "`continue` outside a loop");
        break;
    case N_RETURN: check_return(c, n); break;
    case N_SWITCH: {
        js_type t = js_check_expr(c, n->a);
        if (!js_is_numeric(t) && t != T_BOOL)
            js_fail(c, n->a, "switch needs a number, not %s", js_type_words(t));
        n->temp = ++c->temps;
        c->switch_depth++;
        int mark = c->nscope;
        js_var *poisoned = js_poison_loop(c, n->list, n->nlist, n); /* each case is reached from the switch too */
        for (int i = 0; i < n->nlist; i++) {
            js_node *k = n->list[i];
            if (i)
                js_repoison(c, poisoned, k);
            if (k->a) {
                js_type kt = js_check_expr(c, k->a);
                if (!js_is_numeric(kt) && kt != T_BOOL)
                    js_fail(c, k->a, "a case must be a number");
            }
            for (int j = 0; j < k->nlist; j++)
                check_stmt(c, k->list[j]);
        }
        js_scope_pop(c, mark);
        js_repoison(c, poisoned, n);
        c->switch_depth--;
        break;
    }
    case N_EMPTY:
    case N_FUNCDECL: /* nested functions are hoisted into helpers (translate.c) */
        break;
    default: js_fail(c, n, "unexpected expression where a statement belongs");
    }
}

static void declare_params(js_ctx *c, js_func *f)
{
    js_node *fn = f->node;
    for (int i = 0; i < fn->nlist; i++) {
        js_node *p = fn->list[i];
        for (int j = 0; j < i; j++)
            if (!strcmp(fn->list[j]->name, p->name))
                js_fail(c, p, "the parameter `%s` is named twice", p->name);
        js_var *v = f->param_vars[i];
        if (!v) {
            v = js_alloc(c, sizeof *v, p);
            v->name = p->name;
            v->glsl = js_mangle(c, js_local_prefix(c), p->name);
            v->is_param = true;
            f->param_vars[i] = v;
        }
        if (f->bound[i]) { /* reads the kernel's array (specialise.c) */
            v->rank = f->bound[i]->rank;
            v->elem = f->bound[i]->elem;
            v->glsl = f->bound[i]->glsl;
            v->array = f->bound[i];
            v->type = T_NONE;
        } else if (!f->is_kernel) {
            v->type = f->params[i];
        }
        p->var = v;
        js_scope_push(c, v, p);
    }
}

void js_check_function_body(js_ctx *c, js_func *f)
{
    js_func *saved_current = c->current;
    const char *saved_origin = c->origin;
    bool saved_changed = c->changed;
    int saved_scope = c->nscope, saved_loops = c->loop_depth, saved_switches = c->switch_depth;
    int saved_base = c->scope_base, saved_body = c->body_mark;
    bool saved_header = c->for_header;
    c->for_header = false;
    c->scope_base = c->nscope;
    c->current = f;
    c->origin = f->origin;
    f->checking = true;
    c->loop_depth = c->switch_depth = 0;
    for (int pass = 0;; pass++) {
        c->changed = false;
        c->nscope = saved_scope;
        int base = c->nscope;
        f->ret = T_NONE;
        declare_params(c, f);
        c->body_mark = c->nscope; /* the mark check_block gives the function's own block */
        check_block(c, f->node->a->list, f->node->a->nlist);
        c->nscope = base;
        if (!c->changed || pass == 16)
            break;
    }
    f->checking = false;
    f->checked = true;
    c->current = saved_current;
    c->origin = saved_origin;
    c->changed = saved_changed;
    c->nscope = saved_scope;
    c->loop_depth = saved_loops;
    c->switch_depth = saved_switches;
    c->scope_base = saved_base;
    c->body_mark = saved_body;
    c->for_header = saved_header;
}
