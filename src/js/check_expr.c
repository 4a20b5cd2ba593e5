/* check_expr.c - names and types of expressions (see check.h): this.thread / this.output /
 * this.constants, Math, argument reads a[i] .. a[z][y][x], operators with GPU.js's int/float rules,
 * assignments (which may demote an int variable to float) and calls of helpers and natives. */
#include "js/check.h"
#include "js/functions.h"
#include "js/math.h"
#include "js/scopes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const gpuc_constant *find_constant(js_ctx *c, const char *name)
{
    const js_settings *s = c->settings;
    for (int i = 0; i < s->nconstants && s->constants && s->constants[i].name; i++)
        if (!strcmp(s->constants[i].name, name))
            return &s->constants[i];
    return NULL;
}

static js_var *index_root(js_node *n, int *depth);
static void check_index_value(js_ctx *c, js_node *ix);

static js_type check_this_member(js_ctx *c, js_node *n)
{
    js_node *obj = n->a; /* this.<obj->name> */
    const char *group = obj->name, *field = n->name;
    if (!strcmp(group, "thread") || !strcmp(group, "output")) {
        int axis = !strcmp(field, "x") ? 0 : !strcmp(field, "y") ? 1 : !strcmp(field, "z") ? 2 : -1;
        if (axis < 0)
            js_fail(c, n, "`this.%s.%s`: only x, y and z exist", group, field);
        if (group[0] == 't' || c->settings->dynamic_output) /* a dynamic output is a run-time size */
            return js_set_type(n, T_INT);
        const gpuc_dims *o = &c->settings->output;
        uint32_t v = axis == 0 ? o->x : axis == 1 ? o->y : o->z;
        return js_lit(n, v ? v : 1);
    }
    if (!strcmp(group, "constants")) {
        const gpuc_constant *k = find_constant(c, field);
        if (!k)
            js_fail_unknown_constant(c, n, field);
        if (js_constant_is_array(k))
            js_fail(c, n, "`this.constants.%s` is an array constant: read it by index (this.constants.%s[i])", field,
                    field);
        if (k->type == GPUC_BOOL)
            return js_set_type(n, T_BOOL);
        bool whole = k->value == floor(k->value) && fabs(k->value) <= 2147483647.0;
        gpuc_type t = k->type ? k->type : whole ? GPUC_INT : GPUC_FLOAT;
        return js_set_type(n, t == GPUC_INT ? T_INT : T_FLOAT);
    }
    js_fail(c, n, "`this.%s.%s` is not supported (this.thread, this.output and this.constants are)", group, field);
}

/* Whether evaluating n can change anything (an assignment, ++/--, a call): a `.length` that does not
 * evaluate its object must not drop such an effect. */
static bool has_effects(const js_node *n)
{
    if (!n)
        return false;
    if (n->kind == N_ASSIGN || n->kind == N_UPDATE || n->kind == N_CALL || n->kind == N_FUNCEXPR)
        return true;
    if (has_effects(n->a) || has_effects(n->b) || has_effects(n->c))
        return true;
    for (int i = 0; i < n->nlist; i++)
        if (has_effects(n->list[i]))
            return true;
    return false;
}

/* x.length as JavaScript has it: of an array argument (or a helper's parameter bound to one) indexed k
 * times, its size k dimensions in from the outermost (a 2D array's length is its rows, a[0]'s its
 * width), a run-time int read from the size the kernel already has for the array; of a cell, a local
 * array or a matrix row, its count of numbers, known when compiling. The object is not evaluated, so
 * one with side effects is refused. */
static js_type check_length(js_ctx *c, js_node *n)
{
    js_node *obj = n->a;
    if (has_effects(obj))
        js_fail(c, n, "`.length` of an expression that assigns or calls: take it of a variable or an argument");
    int depth = 0;
    js_node *root = obj;
    while (root->kind == N_INDEX)
        root = root->a;
    if (root->kind == N_IDENT && !root->var)
        root->var = js_scope_find(c, root->name, 0);
    js_var *arr = root->kind == N_IDENT ? index_root(obj, &depth) : NULL;
    if (arr && depth < arr->rank) {
        for (js_node *k = obj; k->kind == N_INDEX; k = k->a)
            check_index_value(c, k->b);
        js_var *kernel_arg = arr->array ? arr->array : arr;
        kernel_arg->length_read = true; /* its rank is then exact at run time (js_settings.length_read) */
        n->var = arr;
        n->temp = arr->rank - 1 - depth; /* the axis: 0 x, 1 y, 2 z */
        return js_set_type(n, T_INT);
    }
    js_type t = arr && depth == arr->rank ? arr->elem : arr ? T_NONE : js_check_expr(c, obj);
    if (js_is_vec(t))
        return js_lit(n, js_vec_size(t));
    if (js_is_mat(t))
        return js_lit(n, js_mat_size(t));
    if (arr)
        js_fail(c, n, "`%s` has %d dimension(s): indexed %d times it is a number, which has no `.length`", arr->name,
                arr->rank, depth);
    js_fail(c, n, "`.length` of %s: only arrays (arguments, arrays of 2-4 numbers, matrices) have one",
            js_type_words(t));
}

static js_type check_member(js_ctx *c, js_node *n)
{
    if (!strcmp(n->name, "length"))
        return check_length(c, n);
    js_node *obj = n->a;
    if (obj->kind == N_MEMBER && obj->a->kind == N_THIS)
        return check_this_member(c, n);
    if (obj->kind == N_THIS)
        js_fail(c, n, "`this.%s` is not supported here (use this.thread.x, this.output.x or this.constants.name)",
                n->name);
    if (obj->kind == N_IDENT && !strcmp(obj->name, "Math")) {
        double v;
        if (!js_math_constant(n->name, &v))
            js_fail(c, n, "`Math.%s` is not supported", n->name);
        n->num = v;
        return js_set_type(n, T_FLOAT);
    }
    static const char channels[] = "rgba"; /* GPU.js's pixel.r, .g, .b, .a: components 0-3 */
    const char *channel = n->name[0] && !n->name[1] ? strchr(channels, n->name[0]) : NULL;
    if (channel) {
        js_type t = js_check_expr(c, obj);
        if (!js_is_vec(t))
            js_fail(c, n, "`.%s` reads a channel of an array of 2-4 numbers (a pixel), not of %s", n->name,
                    js_type_words(t));
        if (channel - channels >= js_vec_size(t))
            js_fail(c, n, "`.%s` is channel %d, but the value has only %d", n->name, (int)(channel - channels) + 1,
                    js_vec_size(t));
        return js_set_type(n, T_FLOAT);
    }
    js_fail(c, n, "the property `.%s` is not supported in kernels", n->name);
}

/* The argument array at the root of an index chain a[i][j]..., with the chain's depth. */
static js_var *index_root(js_node *n, int *depth)
{
    *depth = 0;
    while (n->kind == N_INDEX) {
        (*depth)++;
        n = n->a;
    }
    return n->kind == N_IDENT && n->var && n->var->rank > 0 ? n->var : NULL;
}

static void check_index_value(js_ctx *c, js_node *ix)
{
    js_type t = js_check_expr(c, ix);
    if (!js_is_numeric(t) && t != T_BOOL)
        js_fail(c, ix, "an index must be a number, not %s", js_type_words(t));
}

bool js_constant_is_array(const gpuc_constant *k)
{
    return k->values || k->dims.x || k->dims.y || k->dims.z;
}

/* this.constants.w[i], w[y][x], w[z][y][x]: one read of an array constant, with as many indices as it
 * has dimensions (GPU.js reads constants as it reads arguments). */
static js_type check_constant_index(js_ctx *c, js_node *n, js_node *root, int depth)
{
    const gpuc_constant *k = find_constant(c, root->name);
    if (!k)
        js_fail_unknown_constant(c, root, root->name);
    if (!js_constant_is_array(k))
        js_fail(c, n, "`this.constants.%s` is a %s, not an array: it cannot be indexed", root->name,
                k->type == GPUC_BOOL ? "Boolean" : "number");
    int rank = k->dims.z ? 3 : k->dims.y ? 2 : 1;
    if (depth != rank)
        js_fail(c, n, "`this.constants.%s` is a %dD array constant: index it %d time%s, not %d", root->name, rank,
                rank, rank == 1 ? "" : "s", depth);
    for (js_node *i = n; i->kind == N_INDEX; i = i->a)
        check_index_value(c, i->b);
    root->type = T_NONE;
    return js_set_type(n, T_FLOAT);
}

static js_type check_index(js_ctx *c, js_node *n)
{
    js_node *root = n;
    while (root->kind == N_INDEX)
        root = root->a;
    if (root->kind == N_IDENT && root->var == NULL) {
        js_var *v = js_scope_find(c, root->name, 0);
        root->var = v;
    }
    int depth;
    js_var *arr = index_root(n, &depth);
    if (arr) {
        /* The whole chain a[z][y][x] (plus one more level into a vector cell) is one read. */
        for (js_node *k = n; k->kind == N_INDEX; k = k->a)
            check_index_value(c, k->b);
        root->type = T_NONE;
        if (depth <= arr->rank) /* fewer indices read the flat cell, as GPU.js does: a[i] of a 2D array */
            return js_set_type(n, arr->elem);
        if (depth == arr->rank + 1 && js_is_vec(arr->elem))
            return js_set_type(n, T_FLOAT);
        js_fail(c, n, "`%s` is indexed %d times but has %d dimension(s)", arr->name, depth, arr->rank);
    }
    if (root->kind == N_MEMBER && root->a->kind == N_MEMBER && root->a->a->kind == N_THIS &&
        !strcmp(root->a->name, "constants"))
        return check_constant_index(c, n, root, depth);
    js_type base = js_check_expr(c, n->a);
    check_index_value(c, n->b);
    if (!js_is_vec(base) && !js_is_mat(base))
        js_fail_indexed_number(c, n, base);
    int size = js_is_mat(base) ? js_mat_size(base) : js_vec_size(base);
    if (n->b->type == T_LIT && (n->b->num < 0 || n->b->num >= size))
        js_fail(c, n->b, "index %g is outside an array of %d", n->b->num, size);
    return js_set_type(n, js_is_mat(base) ? js_mat_row(base) : T_FLOAT);
}

static js_type check_ident(js_ctx *c, js_node *n)
{
    js_var *v = js_scope_find(c, n->name, 0);
    if (v) {
        n->var = v;
        if (v->undefined)
            js_fail(c, n, "`%s` is undefined (declared `= void 0`), which a kernel has no value for: give it one",
                    n->name);
        if (v->rank > 0)
            js_fail_array_used_whole(c, n, v);
        return js_set_type(n, v->type);
    }
    if (!strcmp(n->name, "Infinity") || !strcmp(n->name, "NaN")) {
        n->num = n->name[0] == 'I' ? INFINITY : NAN;
        return js_set_type(n, T_FLOAT);
    }
    if (!strcmp(n->name, "Math"))
        js_fail(c, n, "`Math` can only be used as Math.fn(...) or Math.CONSTANT");
    if (js_find_func(c, n->name) || js_find_native(c, n->name) >= 0)
        js_fail(c, n, "the function `%s` can only be called, not used as a value", n->name);
    js_fail(c, n, "`%s` is not defined in this function: a kernel cannot use variables from outside it "
            "(closures); pass the value as an argument or a constant", n->name);
}

static js_var *assign_target(js_ctx *c, js_node *lhs, const char *what)
{
    if (lhs->kind == N_IDENT) {
        js_var *v = js_scope_find(c, lhs->name, 0);
        if (!v)
            check_ident(c, lhs); /* reports the undefined name */
        if (v->is_param)
            js_fail(c, lhs, "%s the argument `%s` is not supported (arguments are read-only): copy it into a "
                    "local variable first", what, lhs->name);
        if (v->is_const)
            js_fail(c, lhs, "%s the constant `%s`", what, lhs->name);
        lhs->var = v;
        js_set_type(lhs, v->type);
        return v;
    }
    if (lhs->kind == N_INDEX) {
        int depth;
        js_node *root = lhs;
        while (root->kind == N_INDEX)
            root = root->a;
        if (root->kind == N_IDENT) {
            js_var *v = js_scope_find(c, root->name, 0);
            if (v && v->rank > 0)
                js_fail(c, root, "%s an element of the argument `%s` is not supported (arguments are read-only)",
                        what, v->name);
        }
        (void)depth;
        if (lhs->a->kind != N_IDENT)
            js_fail(c, lhs, "%s this element is not supported", what);
        check_index(c, lhs);
        return NULL;
    }
    if (lhs->kind == N_MEMBER && lhs->a->kind == N_MEMBER && lhs->a->a->kind == N_THIS)
        js_fail(c, lhs, "%s `this.%s.%s` is not supported", what, lhs->a->name, lhs->name);
    js_fail(c, lhs, "%s this expression is not supported", what);
}

/* JavaScript computes no array arithmetic: `[1, 2] * 2` is NaN, `[1, 2] + 1` the string "1,21" (and
 * GPU.js refuses all but `/`); GLSL's component-wise meaning would be a silently different answer. */
static _Noreturn void fail_array_arith(js_ctx *c, const js_node *n, const char *op, bool unary)
{
    js_fail(c, n, "`%s` on an array: JavaScript computes no array arithmetic (`[1, 2] * 2` is NaN, `[1, 2] + 1` "
            "the text \"1,21\"), and gpuc gives no component-wise answer in its place: write the components out, "
            "as in %s", op, unary ? (op[0] == '-' ? "[-v[0], -v[1]]" : "[+v[0], +v[1]]")
            : op[0] == '+' ? "[v[0] + w[0], v[1] + w[1]]" : op[0] == '-' ? "[v[0] - w[0], v[1] - w[1]]"
            : op[0] == '/' ? "[v[0] / w[0], v[1] / w[1]]" : op[0] == '%' ? "[v[0] % w[0], v[1] % w[1]]"
            : op[1] == '*' ? "[v[0] ** w[0], v[1] ** w[1]]" : "[v[0] * w[0], v[1] * w[1]]");
}

/* The common type of two operands of an arithmetic operator. */
static js_type arith_type(js_ctx *c, js_node *n, js_type l, js_type r)
{
    if (l == T_BOOL)
        l = T_INT;
    if (r == T_BOOL)
        r = T_INT;
    if (js_is_mat(l) || js_is_mat(r))
        js_fail(c, n, "`%s` on a matrix is not supported (matrices are read by index: m[y][x])", n->op);
    if (js_is_vec(l) || js_is_vec(r))
        fail_array_arith(c, n, n->op, false);
    if (!js_is_numeric(l) || !js_is_numeric(r))
        js_fail(c, n, "`%s` needs numbers", n->op);
    return js_is_intlike(l) && js_is_intlike(r) ? T_INT : T_FLOAT;
}

static bool fold(js_node *n, double a, double b, double *v)
{
    switch (n->op[0]) {
    case '+': *v = a + b; return true;
    case '-': *v = a - b; return true;
    case '*': *v = a * b; return n->op[1] == '\0';
    default: return false;
    }
}

static js_type check_binary(js_ctx *c, js_node *n)
{
    js_type l = js_check_expr(c, n->a), r = js_check_expr(c, n->b);
    const char *op = n->op;
    if (l == T_VOID || r == T_VOID)
        js_fail(c, n, "`%s` on a function call that returns nothing", op);
    if (!strcmp(op, "<") || !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">=") || !strcmp(op, "==") ||
        !strcmp(op, "!=") || !strcmp(op, "===") || !strcmp(op, "!==")) {
        if (js_is_vec(l) || js_is_vec(r) || js_is_mat(l) || js_is_mat(r))
            js_fail(c, n, "comparing arrays with `%s` is not supported", op);
        if ((l == T_BOOL) != (r == T_BOOL) && op[0] != '=' && op[0] != '!')
            js_fail(c, n, "`%s` between a boolean and a number", op);
        return js_set_type(n, T_BOOL);
    }
    if (!strcmp(op, "&") || !strcmp(op, "|") || !strcmp(op, "^") || !strcmp(op, "<<") || !strcmp(op, ">>") ||
        !strcmp(op, ">>>")) {
        if (js_is_vec(l) || js_is_vec(r) || js_is_mat(l) || js_is_mat(r))
            js_fail(c, n, "bitwise `%s` on an array", op);
        if (l != T_INT && l != T_LIT && l != T_BOOL)
            c->use_toint = true;
        if (r != T_INT && r != T_LIT && r != T_BOOL)
            c->use_toint = true;
        return js_set_type(n, !strcmp(op, ">>>") ? T_FLOAT : T_INT);
    }
    js_type t = arith_type(c, n, l, r);
    if (!strcmp(op, "/") || !strcmp(op, "%") || !strcmp(op, "**")) {
        if (op[0] == '%')
            c->use_fmod = true;
        if (op[0] == '*')
            c->use_pow = true;
        return js_set_type(n, T_FLOAT);
    }
    double v;
    if (l == T_LIT && r == T_LIT && fold(n, n->a->num, n->b->num, &v))
        return js_lit(n, v);
    return js_set_type(n, t);
}

static js_type check_call(js_ctx *c, js_node *n);

static js_type check_assign(js_ctx *c, js_node *n)
{
    js_var *v = assign_target(c, n->a, "assigning to");
    js_type lt = n->a->type;
    js_type rt;
    if (!strcmp(n->op, "=")) {
        rt = js_check_expr(c, n->b);
    } else {
        /* a op= b is checked (and emitted) as a = a op b */
        if (js_is_vec(lt) || js_is_vec(n->a->type))
            fail_array_arith(c, n, n->op, false);
        if (!n->c) {
            js_node *b = js_alloc(c, sizeof *b, n);
            *b = *n;
            b->kind = N_BINARY;
            snprintf(b->op, sizeof b->op, "%.*s", (int)strlen(n->op) - 1, n->op);
            b->c = NULL;
            n->c = b;
        }
        rt = js_check_expr(c, n->c);
    }
    if (rt == T_VOID)
        js_fail(c, n, "assigning the result of a function that returns nothing");
    if (js_is_vec(lt) || js_is_vec(rt) || js_is_mat(lt) || js_is_mat(rt)) {
        if (lt != rt)
            js_fail(c, n, "assigning %s to a variable holding %s", js_type_words(rt), js_type_words(lt));
    } else if (lt == T_BOOL && rt != T_BOOL) {
        if (!js_is_numeric(rt))
            js_fail(c, n, "assigning %s to a boolean", js_type_words(rt));
    } else if (v && lt == T_INT && !js_is_intlike(rt) && !v->demoted) {
        v->demoted = true;
        c->changed = true;
    }
    return js_set_type(n, lt == T_LIT ? T_INT : lt);
}

static js_type check_update(js_ctx *c, js_node *n)
{
    js_var *v = assign_target(c, n->a, n->op[0] == '+' ? "incrementing" : "decrementing");
    if (!js_is_numeric(n->a->type))
        js_fail(c, n, "`%s` on %s", n->op, js_type_words(n->a->type));
    if (v && !v->incremented) {
        v->incremented = true;
        c->changed = true;
    }
    return js_set_type(n, n->a->type);
}

static js_type check_unary(js_ctx *c, js_node *n)
{
    js_type t = js_check_expr(c, n->a);
    if (t == T_VOID)
        js_fail(c, n, "`%s` on a function call that returns nothing", n->op);
    if (js_is_mat(t))
        js_fail(c, n, "`%s` on a matrix is not supported (matrices are read by index: m[y][x])", n->op);
    switch (n->op[0]) {
    case '!':
        if (js_is_vec(t))
            js_fail(c, n, "`!` on an array");
        return js_set_type(n, T_BOOL);
    case '~':
        if (!js_is_numeric(t) && t != T_BOOL)
            js_fail(c, n, "`~` needs a number");
        if (t == T_FLOAT)
            c->use_toint = true;
        return js_set_type(n, T_INT);
    case '-':
        if (js_is_vec(t))
            fail_array_arith(c, n, n->op, true);
        if (t == T_LIT)
            return js_lit(n, -n->a->num);
        return js_set_type(n, t == T_BOOL ? T_INT : t);
    default: /* + */
        if (js_is_vec(t))
            fail_array_arith(c, n, n->op, true);
        if (t == T_LIT)
            return js_lit(n, n->a->num);
        return js_set_type(n, t == T_BOOL ? T_INT : t);
    }
}

static js_type check_cond(js_ctx *c, js_node *n)
{
    js_type t = js_check_expr(c, n->a);
    if (js_is_vec(t) || js_is_mat(t) || t == T_VOID)
        js_fail(c, n->a, "a condition must be a number or a boolean");
    js_type a = js_check_expr(c, n->b), b = js_check_expr(c, n->c);
    if (a == T_VOID || b == T_VOID)
        js_fail(c, n, "a branch of `?:` returns nothing");
    if (js_is_vec(a) || js_is_vec(b) || js_is_mat(a) || js_is_mat(b)) {
        if (a != b)
            js_fail(c, n, "the branches of `?:` give %s and %s", js_type_words(a), js_type_words(b));
        return js_set_type(n, a);
    }
    if (a == T_BOOL && b == T_BOOL)
        return js_set_type(n, T_BOOL);
    if (js_is_intlike(a) && js_is_intlike(b))
        return js_set_type(n, T_INT);
    return js_set_type(n, T_FLOAT);
}

/* [a, b(, c(, d))] is a vector; an array of n arrays of n numbers is GPU.js's Matrix(n), n = 2..4. */
static js_type check_array(js_ctx *c, js_node *n)
{
    if (n->nlist < 2 || n->nlist > 4)
        js_fail(c, n, "arrays of %d element(s) are not supported in kernels (only [a, b], [a, b, c] and "
                "[a, b, c, d], and square matrices of those)", n->nlist);
    js_type first = T_NONE;
    for (int i = 0; i < n->nlist; i++) {
        js_type t = js_check_expr(c, n->list[i]);
        if (i == 0)
            first = t;
        if (js_is_vec(first)) {
            if (t != first || js_vec_size(t) != n->nlist)
                js_fail(c, n->list[i], "an array of arrays must be square: %d rows of %d numbers each (GPU.js's "
                        "Matrix(2), Matrix(3), Matrix(4)); this row is %s", n->nlist, n->nlist, js_type_words(t));
            continue;
        }
        if (js_is_mat(t))
            js_fail(c, n->list[i], "arrays nested three deep are not supported in kernels");
        if (!js_is_numeric(t) && t != T_BOOL)
            js_fail(c, n->list[i], "an array element must be a number");
    }
    if (js_is_vec(first))
        return js_set_type(n, js_mat_of(first));
    return js_set_type(n, n->nlist == 2 ? T_VEC2 : n->nlist == 3 ? T_VEC3 : T_VEC4);
}

static js_type check_expr_kind(js_ctx *c, js_node *n);

js_type js_check_expr(js_ctx *c, js_node *n)
{
    js_check_deeper(c, n);
    const js_node *saved_where = c->where;
    c->where = n;
    js_type t = check_expr_kind(c, n);
    c->where = saved_where;
    c->check_depth--;
    return t;
}

static js_type check_expr_kind(js_ctx *c, js_node *n)
{
    switch (n->kind) {
    case N_NUMBER:
        if (n->integer_form || n->num == floor(n->num))
            return js_lit(n, n->num);
        return js_set_type(n, T_FLOAT);
    case N_BOOL: return js_set_type(n, T_BOOL);
    case N_IDENT: return check_ident(c, n);
    case N_THIS: js_fail(c, n, "`this` alone is not supported (use this.thread.x, this.output.x, this.constants.name)");
    case N_MEMBER: return check_member(c, n);
    case N_INDEX: return check_index(c, n);
    case N_CALL: return check_call(c, n);
    case N_UNARY: return check_unary(c, n);
    case N_UPDATE: return check_update(c, n);
    case N_BINARY: return check_binary(c, n);
    case N_LOGICAL: {
        js_type a = js_check_expr(c, n->a), b = js_check_expr(c, n->b);
        if (js_is_vec(a) || js_is_vec(b) || js_is_mat(a) || js_is_mat(b) || a == T_VOID || b == T_VOID)
            js_fail(c, n, "`%s` needs numbers or booleans", n->op);
        /* JavaScript's && and || give an operand, not a Boolean: `flag && x` is x or false, `x && y`
         * x or y. Unless both are Booleans the value is a number (a Boolean operand 0 or 1: emit.c), so
         * `(flag && x) * 2` is 2x or 0 and `(x || 5) * 2` 2x or 10, as in JavaScript; as a condition
         * it tests the same. */
        if (a == T_BOOL && b == T_BOOL)
            return js_set_type(n, T_BOOL);
        return js_set_type(n, js_is_intlike(a) && js_is_intlike(b) ? T_INT : T_FLOAT);
    }
    case N_ASSIGN: return check_assign(c, n);
    case N_COND: return check_cond(c, n);
    case N_ARRAY: return check_array(c, n);
    case N_SEQ: {
        js_type t = T_VOID;
        for (int i = 0; i < n->nlist; i++)
            t = js_check_expr(c, n->list[i]);
        return js_set_type(n, t == T_LIT ? T_INT : t); /* not folded: earlier parts may have effects */
    }
    case N_FUNCEXPR:
        js_fail(c, n, n->arrow ? "arrow functions are not supported inside kernels"
                               : "function expressions are not supported inside kernels; declare the function "
                                 "before the kernel or with gpuc_add_function");
    default: js_fail(c, n, "unexpected statement in an expression");
    }
}

/* ---- calls ---- */

static void check_helper(js_ctx *c, js_func *f, js_node *call);

/* (0, f)(x) and (0, module.f)(x), as Babel writes a call of an imported function: the call f(x) of
 * the helper f (the leading numbers have no effect; the module object is not a kernel value). */
static void unwrap_callee(js_ctx *c, js_node *n)
{
    js_node *seq = n->a;
    for (int i = 0; i + 1 < seq->nlist; i++)
        if (seq->list[i]->kind != N_NUMBER)
            js_fail(c, seq->list[i], "only numbers may come before the function in a call of a comma expression "
                    "(`(0, f)(...)`)");
    js_node *f = seq->list[seq->nlist - 1];
    if (f->kind == N_MEMBER && f->a->kind == N_IDENT && strcmp(f->a->name, "Math") && js_find_func(c, f->name) &&
        !js_scope_find(c, f->a->name, 0)) {
        js_node *name = js_alloc(c, sizeof *name, f);
        *name = (js_node){.kind = N_IDENT, .line = f->line, .col = f->col, .name = f->name, .height = 1};
        f = name;
    }
    n->a = f;
}

static js_type check_call(js_ctx *c, js_node *n)
{
    if (n->a->kind == N_SEQ)
        unwrap_callee(c, n);
    js_node *callee = n->a;
    js_check_method_call(c, n); /* before the arguments: `.map(x => ...)` is about the method */
    bool arrays = false; /* kernel arrays passed as arguments: only JS helpers take them */
    for (int i = 0; i < n->nlist; i++) {
        js_node *arg = n->list[i];
        if (js_array_arg(c, arg)) {
            arrays = true;
            continue;
        }
        if (js_check_expr(c, arg) == T_VOID)
            js_fail(c, arg, "an argument that returns nothing");
    }
    js_func *helper = callee->kind == N_IDENT && !js_scope_find(c, callee->name, 0) ? js_find_func(c, callee->name)
                                                                                     : NULL;
    if (arrays && !helper)
        for (int i = 0; i < n->nlist; i++)
            if (js_array_arg(c, n->list[i]))
                js_fail(c, n->list[i], "the array `%s` can be passed to JavaScript helper functions only, not to "
                        "this call: pass its elements", n->list[i]->name);
    if (callee->kind == N_MEMBER && callee->a->kind == N_IDENT && !strcmp(callee->a->name, "Math")) {
        const js_math_fn *fn = js_math_lookup(callee->name);
        if (!fn)
            js_fail(c, n, "`Math.%s` is not supported", callee->name);
        if (n->nlist < fn->min_args || (fn->max_args >= 0 && n->nlist > fn->max_args))
            js_fail(c, n, "`Math.%s` takes %d argument(s), not %d", fn->name, fn->min_args, n->nlist);
        for (int i = 0; i < n->nlist; i++)
            if (!js_is_numeric(n->list[i]->type) && n->list[i]->type != T_BOOL)
                js_fail(c, n->list[i], "`Math.%s` needs numbers", fn->name);
        if (!strcmp(fn->name, "random"))
            c->use_random = true;
        if (!strcmp(fn->name, "pow"))
            c->use_pow = true;
        if (js_math_needs_runtime(fn->name))
            c->use_math = true;
        if (c->settings->precise_math && js_math_is_trig(fn->name))
            c->use_trig = true;
        if (!strcmp(fn->name, "imul") || !strcmp(fn->name, "clz32"))
            c->use_toint = true;
        return js_set_type(n, fn->result);
    }
    if (callee->kind == N_MEMBER && callee->a->kind == N_THIS && !strcmp(callee->name, "color")) {
        if (!c->settings->graphical)
            js_fail(c, n, "`this.color(...)` paints graphical kernels: create the kernel with .graphical = true");
        if (n->nlist != 3 && n->nlist != 4)
            js_fail(c, n, "`this.color` takes 3 or 4 numbers (r, g, b[, a]), not %d", n->nlist);
        for (int i = 0; i < n->nlist; i++)
            if (!js_is_numeric(n->list[i]->type))
                js_fail(c, n->list[i], "`this.color` needs numbers, not %s", js_type_words(n->list[i]->type));
        return js_set_type(n, T_VOID);
    }
    if (callee->kind == N_MEMBER)
        js_fail(c, n, "calling `.%s(...)` is not supported in kernels", callee->name);
    if (callee->kind != N_IDENT)
        js_fail(c, n, "only named functions can be called in kernels");
    if (js_scope_find(c, callee->name, 0))
        js_fail(c, n, "`%s` is a variable, not a function", callee->name);
    js_func *f = helper;
    if (f) {
        if (n->nlist == f->nparams)
            f = js_specialise(c, f, n);
        if (f->is_kernel || f == c->current || f->checking)
            js_fail(c, n, "`%s` calls itself (directly or through other functions): recursion is not supported "
                    "on the GPU", callee->name);
        n->func = f;
        check_helper(c, f, n);
        return js_set_type(n, f->ret);
    }
    int k = js_find_native(c, callee->name);
    if (k < 0)
        js_fail(c, n, "unknown function `%s` (define it before the kernel, or add it with gpuc_add_function / "
                "gpuc_add_native_function)", callee->name);
    js_native *nat = &c->natives[k];
    if (n->nlist != nat->nparams)
        js_fail(c, n, "the native function `%s` takes %d argument(s), not %d", nat->name, nat->nparams, n->nlist);
    n->native = k + 1;
    c->native_used[k] = true;
    return js_set_type(n, nat->ret);
}

/* A helper's parameter types come from its first call (numbers are floats there, as in GPU.js). */
static void check_helper(js_ctx *c, js_func *f, js_node *call)
{
    if (call->nlist != f->nparams)
        js_fail(c, call, "`%s` takes %d argument(s), not %d", f->name, f->nparams, call->nlist);
    if (f->checked) {
        for (int i = 0; i < f->nparams; i++) {
            if (f->bound[i])
                continue; /* the same array, by construction (js_specialise) */
            js_type t = call->list[i]->type;
            bool ok = js_is_numeric(f->params[i]) ? js_is_numeric(t) || t == T_BOOL : t == f->params[i] ||
                      (f->params[i] == T_BOOL && js_is_numeric(t));
            if (!ok)
                js_fail(c, call->list[i], "argument %d of `%s` is %s here but %s at its first call", i + 1,
                        f->name, js_type_words(t), js_type_words(f->params[i]));
        }
        return;
    }
    for (int i = 0; i < f->nparams; i++) {
        js_type t = call->list[i]->type;
        f->params[i] = f->bound[i] ? T_NONE : js_is_numeric(t) ? T_FLOAT : t;
    }
    js_check_function_body(c, f);
    if (f->ret == T_NONE)
        f->ret = T_VOID;
    if (c->norder == JS_MAX_FUNCS)
        js_fail(c, call, "more than %d functions", JS_MAX_FUNCS);
    c->order[c->norder++] = f;
}

