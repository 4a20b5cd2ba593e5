/* whole_range.c - see whole_range.h. Ranges are intervals of doubles, computed bottom-up; anything
 * not understood has no range, and then the float remainder (jsrt_fmod) is emitted as before. */
#include "js/whole_range.h"
#include "js/emit.h"

#include <math.h>
#include <string.h>

#define WHOLE_MAX 16777216.0 /* 2^24: float arithmetic on whole numbers up to here is exact */

typedef struct range {
    double lo, hi;
} range;

static bool fits(range r)
{
    return r.lo >= -WHOLE_MAX && r.hi <= WHOLE_MAX;
}

static bool whole_number(double v)
{
    return v == floor(v) && fabs(v) <= WHOLE_MAX;
}

static const js_whole_counter *counter_of(const js_ctx *c, const js_var *v)
{
    for (int i = c->ncounters - 1; i >= 0; i--)
        if (c->counters[i].var == v)
            return &c->counters[i];
    return NULL;
}

static bool is_thread_member(const js_node *n)
{
    return n->kind == N_MEMBER && n->a && n->a->kind == N_MEMBER && n->a->a && n->a->a->kind == N_THIS &&
           !strcmp(n->a->name, "thread");
}

/* Nodes one range_of walk may visit: a const's initializer is walked at each use, so consts built
 * from consts could otherwise cost exponential time; a walk past the budget gives no range (the
 * float remainder, still right). */
#define RANGE_BUDGET 4096

/* The range of n's value, if n is whole-valued and every part of it fits WHOLE_MAX. */
static bool range_walk(const js_ctx *c, const js_node *n, range *r, int depth, int *budget)
{
    if (!n || depth > 32 || --*budget < 0 || !(n->type == T_INT || n->type == T_LIT || n->type == T_FLOAT))
        return false;
    if (n->type == T_LIT || n->kind == N_NUMBER) {
        if (!whole_number(n->num))
            return false;
        *r = (range){n->num, n->num};
        return true;
    }
    range a, b;
    switch (n->kind) {
    case N_MEMBER: {
        if (!is_thread_member(n) || c->settings->dynamic_output)
            return false;
        const gpuc_dims *o = &c->settings->output;
        uint32_t size = !strcmp(n->name, "x") ? o->x : !strcmp(n->name, "y") ? o->y : o->z;
        *r = (range){0, size ? (double)size - 1 : 0};
        return fits(*r);
    }
    case N_IDENT: {
        const js_var *v = n->var;
        if (!v || v->is_param)
            return false;
        const js_whole_counter *k = counter_of(c, v);
        if (k) {
            *r = (range){k->lo, k->hi};
            return true;
        }
        return v->is_const && v->init && range_walk(c, v->init, r, depth + 1, budget);
    }
    case N_UNARY:
        if (strcmp(n->op, "-") != 0 || !range_walk(c, n->a, &a, depth + 1, budget))
            return false;
        *r = (range){-a.hi, -a.lo};
        return true;
    case N_BINARY:
        if (!range_walk(c, n->a, &a, depth + 1, budget) || !range_walk(c, n->b, &b, depth + 1, budget))
            return false;
        if (!strcmp(n->op, "+"))
            *r = (range){a.lo + b.lo, a.hi + b.hi};
        else if (!strcmp(n->op, "-"))
            *r = (range){a.lo - b.hi, a.hi - b.lo};
        else if (!strcmp(n->op, "*")) {
            double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
            *r = (range){p[0], p[0]};
            for (int i = 1; i < 4; i++) {
                r->lo = p[i] < r->lo ? p[i] : r->lo;
                r->hi = p[i] > r->hi ? p[i] : r->hi;
            }
        } else
            return false;
        return fits(*r);
    default:
        return false;
    }
}

static bool range_of(const js_ctx *c, const js_node *n, range *r)
{
    int budget = RANGE_BUDGET;
    return range_walk(c, n, r, 0, &budget);
}

bool js_whole_remainder(const js_ctx *c, const js_node *a, const js_node *b)
{
    range ra, rb;
    return range_of(c, a, &ra) && range_of(c, b, &rb) && rb.lo == rb.hi && rb.lo != 0;
}

/* Emits n (accepted by range_of) in int arithmetic: the same value, since every part is exact. */
static void emit_int(js_ctx *c, js_node *n)
{
    if (n->type == T_LIT || n->kind == N_NUMBER) {
        strbuf_printf(&c->out, "%d", (int)n->num);
        return;
    }
    if (n->kind == N_UNARY || n->kind == N_BINARY) {
        strbuf_puts(&c->out, "(");
        if (n->kind == N_UNARY)
            strbuf_puts(&c->out, "-");
        else {
            emit_int(c, n->a);
            strbuf_printf(&c->out, " %s ", n->op);
        }
        emit_int(c, n->kind == N_UNARY ? n->a : n->b);
        strbuf_puts(&c->out, ")");
        return;
    }
    if (n->type == T_INT) { /* this.thread, a counter */
        js_emit_expr(c, n, T_INT);
        return;
    }
    strbuf_puts(&c->out, "int("); /* a const holding a whole float */
    js_emit_expr(c, n, T_FLOAT);
    strbuf_puts(&c->out, ")");
}

void js_emit_whole_remainder(js_ctx *c, js_node *a, const js_node *b)
{
    range rb;
    range_of(c, b, &rb);
    strbuf_puts(&c->out, "jsrt_imod(");
    emit_int(c, a);
    strbuf_printf(&c->out, ", %d)", (int)rb.lo);
}

/* Whether n (any node, statements included) assigns or steps v. */
static bool writes(const js_node *n, const js_var *v, int depth)
{
    if (!n)
        return false;
    if (depth > 200)
        return true; /* too deep to look through: assume it does */
    if ((n->kind == N_ASSIGN || n->kind == N_UPDATE) && n->a && n->a->kind == N_IDENT && n->a->var == v)
        return true;
    if (n->kind == N_DECL && n->var == v)
        return true;
    const js_node *kids[] = {n->a, n->b, n->c, n->d};
    for (int i = 0; i < 4; i++)
        if (writes(kids[i], v, depth + 1))
            return true;
    for (int i = 0; i < n->nlist; i++)
        if (writes(n->list[i], v, depth + 1))
            return true;
    return false;
}

/* The step of update u on v: ++ / -- / += k / -= k with k a whole constant; 0 when it is none. */
static double step_of(const js_ctx *c, const js_node *u, const js_var *v)
{
    if (!u || !u->a || u->a->kind != N_IDENT || u->a->var != v)
        return 0;
    if (u->kind == N_UPDATE)
        return !strcmp(u->op, "++") ? 1 : !strcmp(u->op, "--") ? -1 : 0;
    range k;
    if (u->kind != N_ASSIGN || !range_of(c, u->b, &k) || k.lo != k.hi)
        return 0;
    return !strcmp(u->op, "+=") ? k.lo : !strcmp(u->op, "-=") ? -k.lo : 0;
}

bool js_whole_range_push_counter(js_ctx *c, const js_node *n)
{
    if (c->ncounters == JS_MAX_WHOLE_COUNTERS || !n->a || n->a->kind != N_VAR || strcmp(n->a->op, "let") != 0 ||
        n->a->nlist != 1 || !n->b || n->b->kind != N_BINARY)
        return false;
    const js_node *d = n->a->list[0], *test = n->b;
    const js_var *v = d->var;
    range start, bound;
    if (!v || v->type != T_INT || !d->a || !range_of(c, d->a, &start) || start.lo != start.hi ||
        !test->a || test->a->kind != N_IDENT || test->a->var != v || !range_of(c, test->b, &bound) ||
        bound.lo != bound.hi)
        return false;
    double step = step_of(c, n->c, v), s = start.lo, e = bound.lo;
    const char *op = test->op;
    range inside;
    if (step > 0 && !strcmp(op, "<"))
        inside = (range){s, e - 1};
    else if (step > 0 && !strcmp(op, "<="))
        inside = (range){s, e};
    else if (step < 0 && !strcmp(op, ">"))
        inside = (range){e + 1, s};
    else if (step < 0 && !strcmp(op, ">="))
        inside = (range){e, s};
    else
        return false;
    if (inside.lo > inside.hi)
        inside = (range){s, s}; /* the body never runs: any range holds */
    if (writes(n->d, v, 0))
        return false;
    c->counters[c->ncounters++] = (js_whole_counter){v, inside.lo, inside.hi};
    return true;
}

/* The iterations of a loop whose counter starts at s and steps by step while `counter op e` holds;
 * -1 when op does not bound it in that direction. */
static double trips(double s, double e, double step, const char *op)
{
    if (step > 0 && !strcmp(op, "<"))
        return e > s ? ceil((e - s) / step) : 0;
    if (step > 0 && !strcmp(op, "<="))
        return e >= s ? floor((e - s) / step) + 1 : 0;
    if (step < 0 && !strcmp(op, ">"))
        return s > e ? ceil((s - e) / -step) : 0;
    if (step < 0 && !strcmp(op, ">="))
        return s >= e ? floor((s - e) / -step) + 1 : 0;
    return -1;
}

/* The fewest trips a term of the && chain t allows counter v (start s, step step); -1: none bounds it. */
static double chain_trips(const js_ctx *c, const js_node *t, const js_var *v, double s, double step)
{
    if (t->kind == N_LOGICAL && !strcmp(t->op, "&&")) {
        double l = chain_trips(c, t->a, v, s, step), r = chain_trips(c, t->b, v, s, step);
        return l < 0 ? r : r < 0 ? l : l < r ? l : r;
    }
    range bound;
    if (t->kind != N_BINARY || !t->a || t->a->kind != N_IDENT || t->a->var != v || !range_of(c, t->b, &bound) ||
        bound.lo != bound.hi)
        return -1;
    return trips(s, bound.lo, step, t->op);
}

double js_for_trips_at_most(const js_ctx *c, const js_node *n)
{
    if (!n->a || n->a->kind != N_VAR || strcmp(n->a->op, "let") != 0 || n->a->nlist != 1 || !n->b)
        return -1;
    const js_node *d = n->a->list[0];
    const js_var *v = d->var;
    range start;
    if (!v || v->type != T_INT || !d->a || !range_of(c, d->a, &start) || start.lo != start.hi)
        return -1;
    double step = step_of(c, n->c, v);
    if (step == 0 || writes(n->b, v, 0) || writes(n->d, v, 0))
        return -1;
    return chain_trips(c, n->b, v, start.lo, step);
}

void js_whole_range_pop(js_ctx *c)
{
    c->ncounters--;
}
