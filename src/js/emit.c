/* emit.c - writes checked functions as GLSL in gpuc's kernel form. Every conversion GPU.js makes
 * implicitly is written out (int <-> float, number -> bool); loops whose bounds are not compile-time
 * constants get a hidden counter capped at loopMaxIterations, as GPU.js's LOOP_MAX. */
#include "js/emit.h"
#include "js/glsl_names.h"
#include "js/math.h"
#include "js/whole_range.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put(js_ctx *c, const char *s)
{
    strbuf_puts(&c->out, s);
}

static void emit_float(js_ctx *c, double v)
{
    float f = (float)v;
    if (isnan(f)) {
        put(c, "uintBitsToFloat(0x7fc00000u)");
    } else if (isinf(f)) {
        put(c, f > 0 ? "uintBitsToFloat(0x7f800000u)" : "uintBitsToFloat(0xff800000u)");
    } else {
        char buf[64];
        snprintf(buf, sizeof buf, "%.9g", (double)f);
        bool has_point = strpbrk(buf, ".e") != NULL;
        strbuf_printf(&c->out, "%s%s%s%s", f < 0 ? "(" : "", buf, has_point ? "" : ".0", f < 0 ? ")" : "");
    }
}

/* A compile-time integer in the type its context wants. */
static void emit_literal(js_ctx *c, double v, js_type want)
{
    if (want == T_FLOAT) {
        emit_float(c, v);
    } else if (want == T_BOOL) {
        put(c, v != 0 ? "true" : "false");
    } else if (js_is_vec(want)) {
        strbuf_printf(&c->out, "%s(", js_type_glsl(want));
        emit_float(c, v);
        put(c, ")");
    } else {
        strbuf_printf(&c->out, v < 0 ? "(%.0f)" : "%.0f", v);
    }
}

static void emit_raw(js_ctx *c, js_node *n);
static void emit_logical_test(js_ctx *c, js_node *n);
static bool pure_expr(const js_node *n);

void js_emit_expr(js_ctx *c, js_node *n, js_type want)
{
    js_type have = n->type;
    if (want == T_NONE || want == T_LIT)
        want = have == T_LIT ? T_INT : have;
    if (have == T_LIT) {
        emit_literal(c, n->num, want);
    } else if (have == want) {
        emit_raw(c, n);
    } else if (want == T_BOOL && n->kind == N_LOGICAL) {
        emit_logical_test(c, n);
    } else if (want == T_BOOL && have == T_FLOAT) {
        /* JavaScript's truthiness: neither 0 nor NaN. Tested on the bits (magnitude in 1 .. infinity's),
         * since a float comparison such as x == x or abs(x) > 0.0 may be rewritten by a compiler that
         * assumes no NaN. */
        put(c, "((floatBitsToUint(");
        emit_raw(c, n);
        put(c, ") & 0x7fffffffu) - 1u < 0x7f800000u)");
    } else if (want == T_BOOL) {
        put(c, "(");
        emit_raw(c, n);
        put(c, " != 0)");
    } else if (js_is_vec(want) && !js_is_vec(have)) {
        strbuf_printf(&c->out, "%s(", js_type_glsl(want));
        js_emit_expr(c, n, T_FLOAT);
        put(c, ")");
    } else {
        strbuf_printf(&c->out, "%s(", js_type_glsl(want));
        emit_raw(c, n);
        put(c, ")");
    }
}

/* An operand of a bitwise operator, converted as JavaScript's ToInt32 does. */
static void emit_int32(js_ctx *c, js_node *n)
{
    if (n->type == T_FLOAT) {
        put(c, "jsrt_toint32(");
        emit_raw(c, n);
        put(c, ")");
    } else {
        js_emit_expr(c, n, T_INT);
    }
}

static bool is_intlike(js_type t)
{
    return t == T_INT || t == T_LIT || t == T_BOOL;
}

static void emit_binary(js_ctx *c, js_node *n)
{
    const char *op = n->op;
    js_node *a = n->a, *b = n->b;
    if (n->type == T_BOOL) { /* comparisons */
        /* Booleans compare as booleans with == and !=; GLSL orders numbers only, so true > false
         * compares 1 with 0, as JavaScript does. */
        bool ordered = op[0] == '<' || op[0] == '>';
        js_type t = a->type == T_BOOL && b->type == T_BOOL && !ordered ? T_BOOL
                    : is_intlike(a->type) && is_intlike(b->type) ? T_INT : T_FLOAT;
        const char *glsl = !strcmp(op, "===") ? "==" : !strcmp(op, "!==") ? "!=" : op;
        put(c, "(");
        js_emit_expr(c, a, t);
        strbuf_printf(&c->out, " %s ", glsl);
        js_emit_expr(c, b, t);
        put(c, ")");
        return;
    }
    if (!strcmp(op, "&") || !strcmp(op, "|") || !strcmp(op, "^")) {
        put(c, "(");
        emit_int32(c, a);
        strbuf_printf(&c->out, " %s ", op);
        emit_int32(c, b);
        put(c, ")");
        return;
    }
    if (!strcmp(op, "<<") || !strcmp(op, ">>") || !strcmp(op, ">>>")) {
        put(c, op[2] ? "float(uint(" : "(");
        emit_int32(c, a);
        strbuf_printf(&c->out, op[2] ? ") >> uint(" : " %s (", op);
        emit_int32(c, b);
        put(c, op[2] ? " & 31))" : " & 31))");
        return;
    }
    if (op[0] == '%' && js_whole_remainder(c, a, b)) {
        js_emit_whole_remainder(c, a, b);
        return;
    }
    if (!strcmp(op, "%") || !strcmp(op, "**")) {
        put(c, op[0] == '%' ? "jsrt_fmod(" : "jsrt_pow(");
        js_emit_expr(c, a, T_FLOAT);
        put(c, ", ");
        js_emit_expr(c, b, T_FLOAT);
        put(c, ")");
        return;
    }
    /* + - * / : vector operands stay vectors, scalars next to them are floats. Float arithmetic goes
     * through jsrt_add... (runtime_order.c) so that it runs in JavaScript's order, unreassociated;
     * int arithmetic is exact in any order. */
    js_type ta = js_is_vec(a->type) ? a->type : js_is_vec(n->type) ? T_FLOAT : n->type;
    js_type tb = js_is_vec(b->type) ? b->type : js_is_vec(n->type) ? T_FLOAT : n->type;
    bool ordered = n->type == T_FLOAT || js_is_vec(n->type);
    if (ordered)
        put(c, op[0] == '+' ? "jsrt_add(" : op[0] == '-' ? "jsrt_sub(" : op[0] == '*' ? "jsrt_mul(" : "jsrt_div(");
    else
        put(c, "(");
    js_emit_expr(c, a, ta);
    if (ordered)
        put(c, ", ");
    else
        strbuf_printf(&c->out, " %s ", op);
    js_emit_expr(c, b, tb);
    put(c, ")");
}

static void emit_index(js_ctx *c, js_node *n)
{
    js_node *chain[8];
    int depth = 0;
    js_node *root = n;
    while (root->kind == N_INDEX && depth < 8) {
        chain[depth++] = root;
        root = root->a;
    }
    if (root->kind == N_IDENT && root->var && root->var->rank > 0) {
        js_var *v = root->var;
        int cell = depth > v->rank ? depth - v->rank : 0; /* a component of a vector cell */
        /* The kernel's body reads a[y][x], which gpuc rewrites into its accessor call a(y, x); a
         * helper's body is not rewritten, so a helper calls the accessor itself. */
        bool call = !c->current->is_kernel;
        if (cell)
            put(c, "(");
        put(c, v->glsl);
        for (int i = depth - 1; i >= cell; i--) {
            put(c, !call ? "[" : i == depth - 1 ? "(" : ", ");
            js_emit_expr(c, chain[i]->b, T_INT);
            put(c, !call ? "]" : i == cell ? ")" : "");
        }
        if (cell) {
            put(c, ")[");
            js_emit_expr(c, chain[0]->b, T_INT);
            put(c, "]");
        }
        return;
    }
    if (root->kind == N_MEMBER && root->a->kind == N_MEMBER && root->a->a->kind == N_THIS) {
        /* this.constants.w[y][x]: the accessor gpuc compiles for array constant w (constant_arrays.c),
         * named after the constant's GLSL name (renamed where GLSL reserves it) */
        char glsl[256];
        js_constant_glsl(root->name, glsl, sizeof glsl);
        strbuf_printf(&c->out, "gpuc_cnstv%s(", glsl);
        for (int i = depth - 1; i >= 0; i--) {
            js_emit_expr(c, chain[i]->b, T_INT);
            put(c, i ? ", " : ")");
        }
        return;
    }
    put(c, "(");
    js_emit_expr(c, n->a, T_NONE);
    put(c, ")[");
    js_emit_expr(c, n->b, T_INT);
    put(c, "]");
}

static void emit_call(js_ctx *c, js_node *n)
{
    if (n->a->kind == N_MEMBER && n->a->a->kind == N_THIS) { /* this.color(r, g, b[, a]) */
        put(c, "color(");
        for (int i = 0; i < n->nlist; i++) {
            if (i)
                put(c, ", ");
            js_emit_expr(c, n->list[i], T_FLOAT);
        }
        put(c, ")");
        return;
    }
    if (n->a->kind == N_MEMBER) {
        js_emit_math(c, js_math_lookup(n->a->name), n);
        return;
    }
    const js_type *params = n->func ? n->func->params : c->natives[n->native - 1].params;
    put(c, n->func ? n->func->glsl : c->natives[n->native - 1].name);
    put(c, "(");
    bool first = true;
    for (int i = 0; i < n->nlist; i++) {
        if (n->func && n->func->bound[i])
            continue; /* the specialised helper reads that array itself */
        if (!first)
            put(c, ", ");
        first = false;
        js_emit_expr(c, n->list[i], params[i]);
    }
    put(c, ")");
}

static void emit_member(js_ctx *c, js_node *n)
{
    if (n->var && !strcmp(n->name, "length")) { /* an array argument's: its size, a uniform gpuc gives every array */
        strbuf_printf(&c->out, "gpuc_size_%s.%c", n->var->glsl, "xyz"[n->temp]);
        return;
    }
    if (n->a->kind == N_MEMBER && n->a->a->kind == N_THIS) {
        if (!strcmp(n->a->name, "thread"))
            strbuf_printf(&c->out, "thread.%s", n->name);
        else if (!strcmp(n->a->name, "output")) /* a dynamic output (a fixed one is a literal) */
            strbuf_printf(&c->out, "outputSize.%s", n->name);
        else {
            char glsl[256];
            js_constant_glsl(n->name, glsl, sizeof glsl);
            strbuf_printf(&c->out, "constants.%s", glsl);
        }
        return;
    }
    if (js_is_vec(n->a->type)) { /* pixel.r ... pixel.a: GLSL's own swizzles */
        put(c, "(");
        js_emit_expr(c, n->a, n->a->type);
        strbuf_printf(&c->out, ").%s", n->name);
        return;
    }
    emit_float(c, n->num); /* Math.PI and friends */
}

/* a && b, a || b as a condition: GLSL's, which tests the same as JavaScript's operand would. */
static void emit_logical_test(js_ctx *c, js_node *n)
{
    put(c, "(");
    js_emit_expr(c, n->a, T_BOOL);
    strbuf_printf(&c->out, " %s ", n->op);
    js_emit_expr(c, n->b, T_BOOL);
    put(c, ")");
}

/* a && b, a || b as a value: JavaScript's, an operand (check_expr.c types it). `a && b` is a where a
 * is falsy, else b; `a || b` a where a is truthy, else b; b is evaluated only where needed. A Boolean
 * a is tested once and stands for 0 or 1; a number a is tested and then given, so it is evaluated
 * twice, which only an operand without effects allows. */
static void emit_logical_value(js_ctx *c, js_node *n)
{
    bool and = n->op[0] == '&';
    if (n->type == T_BOOL) {
        emit_logical_test(c, n);
        return;
    }
    if (n->a->type != T_BOOL && !pure_expr(n->a))
        js_fail(c, n, "the value of `%s` is its left operand or its right one, and its left operand here has "
                "effects (a call, an assignment or ++/--), so gpuc would evaluate it twice: keep the left operand "
                "in a variable first (const t = ...; then t %s ...), or use `%s` only as a condition", n->op, n->op,
                n->op);
    js_node *when_true = and ? n->b : n->a, *when_false = and ? n->a : n->b;
    put(c, "(");
    js_emit_expr(c, n->a, T_BOOL);
    put(c, " ? ");
    if (when_true->type == T_BOOL && when_true == n->a)
        emit_literal(c, 1, n->type); /* the Boolean left operand, known true here */
    else
        js_emit_expr(c, when_true, n->type);
    put(c, " : ");
    if (when_false->type == T_BOOL && when_false == n->a)
        emit_literal(c, 0, n->type);
    else
        js_emit_expr(c, when_false, n->type);
    put(c, ")");
}

static void emit_raw(js_ctx *c, js_node *n)
{
    switch (n->kind) {
    case N_NUMBER: emit_float(c, n->num); break;
    case N_BOOL: put(c, n->num != 0 ? "true" : "false"); break;
    case N_IDENT:
        if (n->var)
            put(c, n->var->glsl);
        else
            emit_float(c, n->num); /* Infinity, NaN */
        break;
    case N_MEMBER: emit_member(c, n); break;
    case N_INDEX: emit_index(c, n); break;
    case N_CALL: emit_call(c, n); break;
    case N_UNARY:
        if (n->op[0] == '!') {
            put(c, "(!");
            js_emit_expr(c, n->a, T_BOOL);
        } else if (n->op[0] == '~') {
            put(c, "(~");
            emit_int32(c, n->a);
        } else {
            put(c, n->op[0] == '-' ? "(-" : "(");
            js_emit_expr(c, n->a, n->type);
        }
        put(c, ")");
        break;
    case N_UPDATE:
        if (n->type == T_FLOAT) { /* in JavaScript's order too (see emit_binary) */
            put(c, n->prefix ? "jsrt_pre_add(" : "jsrt_post_add(");
            emit_raw(c, n->a);
            put(c, n->op[0] == '+' ? ", 1.0)" : ", -1.0)");
            break;
        }
        put(c, "(");
        if (n->prefix)
            put(c, n->op);
        emit_raw(c, n->a);
        if (!n->prefix)
            put(c, n->op);
        put(c, ")");
        break;
    case N_BINARY: emit_binary(c, n); break;
    case N_LOGICAL: emit_logical_value(c, n); break;
    case N_ASSIGN:
        put(c, "(");
        emit_raw(c, n->a);
        put(c, " = ");
        js_emit_expr(c, n->op[1] ? n->c : n->b, n->a->type);
        put(c, ")");
        break;
    case N_COND:
        put(c, "(");
        js_emit_expr(c, n->a, T_BOOL);
        put(c, " ? ");
        js_emit_expr(c, n->b, n->type);
        put(c, " : ");
        js_emit_expr(c, n->c, n->type);
        put(c, ")");
        break;
    case N_ARRAY: /* a matrix's rows are its columns in GLSL: m[y][x] reads the same either way */
        strbuf_printf(&c->out, "%s(", js_type_glsl(n->type));
        for (int i = 0; i < n->nlist; i++) {
            if (i)
                put(c, ", ");
            js_emit_expr(c, n->list[i], js_is_mat(n->type) ? js_mat_row(n->type) : T_FLOAT);
        }
        put(c, ")");
        break;
    case N_SEQ:
        put(c, "(");
        for (int i = 0; i < n->nlist; i++) {
            if (i)
                put(c, ", ");
            js_emit_expr(c, n->list[i], T_NONE);
        }
        put(c, ")");
        break;
    default: break;
    }
}

/* ---- statements ---- */

static void line(js_ctx *c)
{
    put(c, "\n");
    for (int i = 0; i < c->indent; i++)
        put(c, "    ");
}

static void emit_stmt(js_ctx *c, js_node *n);

/* Notes that the loop keyword about to be written comes from node n's line and column. */
static void note_loop(js_ctx *c, const js_node *n)
{
    js_loops *l = c->loops;
    if (!l || l->failed)
        return;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        js_loop_origin *list = realloc(l->list, (size_t)cap * sizeof *list);
        if (!list) {
            l->failed = true;
            return;
        }
        l->list = list;
        l->cap = cap;
    }
    js_loop_origin *o = &l->list[l->n++];
    o->glsl_offset = c->out.len;
    o->line = n->line;
    o->column = n->col;
    snprintf(o->where, sizeof o->where, "%s", c->current && c->current->origin ? c->current->origin : "");
}

/* const [x, y] = v: the value once into a temporary, then each name its element. */
static void emit_destructure(js_ctx *c, js_node *d)
{
    strbuf_printf(&c->out, "%s jst_%d = ", js_type_glsl(d->a->type), d->temp);
    js_emit_expr(c, d->a, d->a->type);
    put(c, ";");
    for (int i = 0; i < d->nlist; i++) {
        js_var *v = d->list[i]->var;
        if (d->list[i]->kind == N_IDENT)
            strbuf_printf(&c->out, " %s %s = jst_%d[%d];", js_type_glsl(v->type), v->glsl, d->temp, i);
    }
}

static void emit_decl(js_ctx *c, js_node *d)
{
    if (!d->name) {
        emit_destructure(c, d);
        return;
    }
    if (d->a && d->a->kind == N_FUNCEXPR) { /* a helper of its own, emitted with the others */
        put(c, ";");
        return;
    }
    js_var *v = d->var;
    if (v->hoisted) { /* declared at the function's top (emit_hoisted): here it is assigned */
        if (d->a) {
            strbuf_printf(&c->out, "%s = ", v->glsl);
            js_emit_expr(c, d->a, v->type);
        }
        put(c, ";");
        return;
    }
    strbuf_printf(&c->out, "%s %s = ", js_type_glsl(v->type), v->glsl);
    if (d->a)
        js_emit_expr(c, d->a, v->type);
    else
        put(c, "0.0");
    put(c, ";");
}

static int loop_max(const js_ctx *c)
{
    return c->settings->loop_max_iterations > 0 ? c->settings->loop_max_iterations : JS_DEFAULT_LOOP_MAX;
}

/* A loop test GPU.js leaves uncapped: it reads only the counter, numbers, constants, the output size and
 * const variables made of those. */
static bool constant_bound(const js_node *n, const js_var *counter)
{
    if (!n)
        return true;
    switch (n->kind) {
    case N_NUMBER: return true;
    case N_IDENT: /* the counter, or a const made of numbers and constants */
        return n->var && (n->var == counter || (n->var->is_const && n->var->init && constant_bound(n->var->init, NULL)));
    case N_MEMBER: return n->a->kind == N_MEMBER && n->a->a->kind == N_THIS && strcmp(n->a->name, "thread") != 0;
    case N_BINARY: case N_LOGICAL: return constant_bound(n->a, counter) && constant_bound(n->b, counter);
    case N_UNARY: return constant_bound(n->a, counter);
    default: return false;
    }
}

static bool is_counted_for(const js_node *n)
{
    if (!n->a || n->a->kind != N_VAR || n->a->nlist != 1 || !n->b || !n->c)
        return false;
    const js_node *d = n->a->list[0];
    return d->name && d->a && constant_bound(d->a, NULL) && constant_bound(n->b, d->var);
}

/* Whether evaluating n once more changes nothing: no assignment, update or call (a helper may keep a
 * kernel map's value; Math.random moves its state). */
static bool pure_expr(const js_node *n)
{
    if (!n)
        return true;
    if (n->kind == N_ASSIGN || n->kind == N_UPDATE || n->kind == N_CALL || n->kind == N_FUNCEXPR)
        return false;
    for (int i = 0; i < n->nlist; i++)
        if (!pure_expr(n->list[i]))
            return false;
    return pure_expr(n->a) && pure_expr(n->b) && pure_expr(n->c) && pure_expr(n->d);
}

/* After a capped for or while loop (inside the block that declared jst_ID_steps): GPU.js ends the loop
 * when its counter jst_ID reaches the cap, without evaluating the test. The loop's step copies the
 * counter into jst_ID_steps (a break skips the step), so jst_ID_steps reaches the cap only when the
 * counter's test ended the loop; then gpuc_js_capped (the kernel prelude's loop_cap section) notes
 * whether the test would have gone on: a pure test is evaluated once more in the state it would have
 * been (the counter's own term `jst_ID < MAX` stays whole in the header, so gpuc's loop-budget reader
 * still bounds the loop); where the test has effects, reaching the cap counts. */
static void emit_cap_check(js_ctx *c, int id, js_node *test)
{
    strbuf_printf(&c->out, " if (jst_%d_steps >= %d) gpuc_js_capped(", id, loop_max(c));
    if (test && pure_expr(test))
        js_emit_expr(c, test, T_BOOL);
    else
        put(c, "true");
    put(c, ");");
    if (c->loops)
        c->loops->capped++;
}

static void emit_body(js_ctx *c, js_node *body)
{
    if (body->kind == N_BLOCK) {
        emit_stmt(c, body);
        return;
    }
    put(c, "{");
    c->indent++;
    line(c);
    emit_stmt(c, body);
    c->indent--;
    line(c);
    put(c, "}");
}

/* Emits n without its outermost parentheses, so that gpuc's loop-budget reader sees a plain
 * `i < constants.n; i++` header it can count. */
static void emit_unwrapped(js_ctx *c, js_node *n, js_type want)
{
    size_t start = c->out.len;
    js_emit_expr(c, n, want);
    if (c->out.failed || c->out.len - start < 2 || c->out.data[start] != '(' || c->out.data[c->out.len - 1] != ')')
        return;
    int depth = 0;
    for (size_t i = start; i < c->out.len; i++) {
        depth += c->out.data[i] == '(' ? 1 : c->out.data[i] == ')' ? -1 : 0;
        if (depth == 0 && i + 1 < c->out.len)
            return; /* the first parenthesis closes early: (a) + (b) */
    }
    memmove(c->out.data + start, c->out.data + start + 1, c->out.len - start - 2);
    c->out.len -= 2;
    c->out.data[c->out.len] = '\0';
}

static void emit_for(js_ctx *c, js_node *n)
{
    if (is_counted_for(n)) {
        note_loop(c, n);
        put(c, "for (");
        emit_decl(c, n->a->list[0]);
        put(c, " ");
        emit_unwrapped(c, n->b, T_BOOL);
        put(c, "; ");
        emit_unwrapped(c, n->c, T_NONE);
        put(c, ") ");
        bool known = js_whole_range_push_counter(c, n);
        emit_body(c, n->d);
        if (known)
            js_whole_range_pop(c);
        return;
    }
    put(c, "{");
    c->indent++;
    if (n->a) {
        line(c);
        emit_stmt(c, n->a);
    }
    line(c);
    /* A loop whose own test ends it within the cap cannot reach it: its code stays as it was. */
    double most = js_for_trips_at_most(c, n);
    bool watched = most < 0 || most > loop_max(c);
    if (watched)
        strbuf_printf(&c->out, "int jst_%d_steps = 0; ", n->temp);
    note_loop(c, n);
    strbuf_printf(&c->out, "for (int jst_%d = 0; jst_%d < %d", n->temp, n->temp, loop_max(c));
    if (n->b) {
        put(c, " && ");
        js_emit_expr(c, n->b, T_BOOL);
    }
    strbuf_printf(&c->out, "; jst_%d++", n->temp);
    if (n->c) {
        put(c, ", ");
        js_emit_expr(c, n->c, T_NONE);
    }
    if (watched)
        strbuf_printf(&c->out, ", jst_%d_steps = jst_%d", n->temp, n->temp);
    put(c, ") ");
    bool known = js_whole_range_push_counter(c, n);
    emit_body(c, n->d);
    if (known)
        js_whole_range_pop(c);
    if (watched)
        emit_cap_check(c, n->temp, n->b);
    c->indent--;
    line(c);
    put(c, "}");
}

static void emit_switch(js_ctx *c, js_node *n)
{
    bool ints = is_intlike(n->a->type);
    for (int i = 0; i < n->nlist; i++)
        if (n->list[i]->a && !is_intlike(n->list[i]->a->type))
            ints = false;
    js_type t = ints ? T_INT : T_FLOAT;
    int id = n->temp, fallback = -1;
    put(c, "{");
    c->indent++;
    line(c);
    strbuf_printf(&c->out, "%s jst_%d_value = ", js_type_glsl(t), id);
    js_emit_expr(c, n->a, t);
    put(c, ";");
    line(c);
    strbuf_printf(&c->out, "int jst_%d = -1;", id);
    /* Cases compare with === in order: pick the case, then switch on its index. */
    for (int i = 0; i < n->nlist; i++) {
        js_node *k = n->list[i];
        if (!k->a) {
            fallback = i;
            continue;
        }
        line(c);
        strbuf_printf(&c->out, "if (jst_%d < 0 && jst_%d_value == ", id, id);
        js_emit_expr(c, k->a, t);
        strbuf_printf(&c->out, ") jst_%d = %d;", id, i);
    }
    if (fallback >= 0) {
        line(c);
        strbuf_printf(&c->out, "if (jst_%d < 0) jst_%d = %d;", id, id, fallback);
    }
    line(c);
    strbuf_printf(&c->out, "switch (jst_%d) {", id);
    for (int i = 0; i < n->nlist; i++) {
        js_node *k = n->list[i];
        line(c);
        strbuf_printf(&c->out, "case %d: {", i);
        c->indent++;
        for (int j = 0; j < k->nlist; j++) {
            line(c);
            emit_stmt(c, k->list[j]);
        }
        /* GPU.js writes a switch as an if/else chain: empty cases share the next case's body, but a
         * case with statements never runs on into the next one (JavaScript's would). */
        if (k->nlist || !k->a) {
            line(c);
            put(c, "break;");
        }
        c->indent--;
        line(c);
        put(c, "}");
    }
    line(c);
    put(c, "default: break;");
    line(c);
    put(c, "}");
    c->indent--;
    line(c);
    put(c, "}");
}

static void emit_stmt(js_ctx *c, js_node *n)
{
    switch (n->kind) {
    case N_VAR:
        for (int i = 0; i < n->nlist; i++) {
            if (i)
                line(c);
            emit_decl(c, n->list[i]);
        }
        break;
    case N_EXPR:
        js_emit_expr(c, n->a, T_NONE);
        put(c, ";");
        break;
    case N_BLOCK:
        put(c, "{");
        c->indent++;
        for (int i = 0; i < n->nlist; i++) {
            line(c);
            emit_stmt(c, n->list[i]);
        }
        c->indent--;
        line(c);
        put(c, "}");
        break;
    case N_IF:
        put(c, "if (");
        js_emit_expr(c, n->a, T_BOOL);
        put(c, ") ");
        emit_body(c, n->b);
        if (n->c) {
            put(c, " else ");
            emit_body(c, n->c);
        }
        break;
    case N_FOR: emit_for(c, n); break;
    case N_WHILE:
        strbuf_printf(&c->out, "{ int jst_%d_steps = 0; ", n->temp);
        note_loop(c, n);
        strbuf_printf(&c->out, "for (int jst_%d = 0; jst_%d < %d && ", n->temp, n->temp, loop_max(c));
        js_emit_expr(c, n->a, T_BOOL);
        strbuf_printf(&c->out, "; jst_%d++, jst_%d_steps = jst_%d) ", n->temp, n->temp, n->temp);
        emit_body(c, n->b);
        emit_cap_check(c, n->temp, n->a);
        put(c, " }");
        break;
    case N_DOWHILE:
        strbuf_printf(&c->out, "{ int jst_%d = 0; ", n->temp);
        note_loop(c, n);
        put(c, "do ");
        emit_body(c, n->b);
        put(c, " while (");
        js_emit_expr(c, n->a, T_BOOL);
        /* The test was true when the count reached the cap: the loop was stopped there. */
        strbuf_printf(&c->out, " && ++jst_%d < %d); gpuc_js_capped(jst_%d >= %d); }", n->temp, loop_max(c), n->temp,
                      loop_max(c));
        if (c->loops)
            c->loops->capped++;
        break;
    case N_BREAK: put(c, "break;"); break;
    case N_CONTINUE: put(c, "continue;"); break;
    case N_RETURN:
        if (!n->a) { /* a graphical kernel's bare return */
            put(c, "return;");
            break;
        }
        put(c, "return ");
        if (c->current->keeper) /* a sub-kernel of a kernel map: the map keeps what it returns */
            strbuf_printf(&c->out, "%s(", c->current->keeper);
        js_emit_expr(c, n->a, c->current->ret);
        put(c, c->current->keeper ? ");" : ";");
        break;
    case N_SWITCH: emit_switch(c, n); break;
    default: put(c, ";"); break;
    }
}

static void emit_zero(js_ctx *c, js_type t);

/* Declares the function's `var`s that are used after their block ends, once, at its top. */
static void emit_hoisted(js_ctx *c, const js_node *n, js_var **done, int *ndone)
{
    if (!n || n->kind == N_FUNCDECL || n->kind == N_FUNCEXPR)
        return;
    if (n->kind == N_DECL && n->var && n->var->hoisted) {
        for (int i = 0; i < *ndone; i++)
            if (done[i] == n->var)
                return;
        if (*ndone == JS_MAX_SCOPE)
            return;
        done[(*ndone)++] = n->var;
        line(c);
        strbuf_printf(&c->out, "%s %s = ", js_type_glsl(n->var->type), n->var->glsl);
        emit_zero(c, n->var->type);
        put(c, ";");
    }
    if (n->kind < N_VAR && n->kind != N_DECL)
        return; /* expressions declare nothing */
    emit_hoisted(c, n->a, done, ndone);
    emit_hoisted(c, n->b, done, ndone);
    emit_hoisted(c, n->c, done, ndone);
    emit_hoisted(c, n->d, done, ndone);
    for (int i = 0; i < n->nlist; i++)
        emit_hoisted(c, n->list[i], done, ndone);
}

static void emit_zero(js_ctx *c, js_type t)
{
    if (t == T_BOOL)
        put(c, "false");
    else if (js_is_vec(t) || js_is_mat(t))
        strbuf_printf(&c->out, "%s(0.0)", js_type_glsl(t));
    else
        put(c, t == T_INT ? "0" : "0.0");
}

static void emit_param(js_ctx *c, js_func *f, int i)
{
    js_var *v = f->param_vars[i];
    if (v->rank > 0) {
        strbuf_printf(&c->out, "%s %s", js_type_glsl(v->elem), v->glsl);
        for (int r = 0; r < v->rank; r++)
            put(c, "[]");
    } else {
        strbuf_printf(&c->out, "%s %s", js_type_glsl(v->type), v->glsl);
    }
}

void js_emit_function(js_ctx *c, js_func *f)
{
    c->current = f;
    strbuf_printf(&c->out, "\n%s %s(", js_type_glsl(f->ret), f->glsl);
    bool first = true;
    for (int i = 0; i < f->node->nlist; i++) {
        if (f->bound[i])
            continue;
        if (!first)
            put(c, ", ");
        first = false;
        emit_param(c, f, i);
    }
    put(c, ") {");
    c->indent = 1;
    if (f->is_kernel && c->use_random) {
        line(c);
        put(c, "jsrt_seed_random();");
    }
    js_var *hoisted[JS_MAX_SCOPE];
    int nhoisted = 0;
    emit_hoisted(c, f->node->a, hoisted, &nhoisted);
    for (int i = 0; i < f->node->a->nlist; i++) {
        line(c);
        emit_stmt(c, f->node->a->list[i]);
    }
    if (f->ret != T_VOID) {
        line(c);
        put(c, "return ");
        emit_zero(c, f->ret);
        put(c, ";");
    }
    c->indent = 0;
    put(c, "\n}\n");
}
