/* loop_budget.c - see loop_budget.h. A small recursive-descent reader over the comment-free mask. */
#include "kernel/loop_budget.h"
#include "kernel/source_scan.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define CAP_ITERATIONS ((int64_t)1 << 40) /* saturate: only "over the budget" matters */

typedef struct reader {
    const char *s;
    size_t pos, end;
    const loop_constant *constants;
    int nconstants;
} reader;

static void skip(reader *r)
{
    while (r->pos < r->end && strchr(" \t\r\n", r->s[r->pos]))
        r->pos++;
}

static bool eat(reader *r, const char *tok)
{
    skip(r);
    size_t n = strlen(tok);
    if (r->pos + n > r->end || strncmp(r->s + r->pos, tok, n) != 0)
        return false;
    if (is_ident_char(tok[n - 1]) && r->pos + n < r->end && is_ident_char(r->s[r->pos + n]))
        return false;
    r->pos += n;
    return true;
}

static bool ident(reader *r, char *out, size_t outlen)
{
    skip(r);
    size_t b = r->pos;
    if (b >= r->end || !is_ident_start(r->s[b]))
        return false;
    while (r->pos < r->end && is_ident_char(r->s[r->pos]))
        r->pos++;
    size_t n = r->pos - b < outlen - 1 ? r->pos - b : outlen - 1;
    memcpy(out, r->s + b, n);
    out[n] = '\0';
    return true;
}

static bool expr(reader *r, double *v);

static bool primary(reader *r, double *v)
{
    skip(r);
    if (eat(r, "(")) {
        return expr(r, v) && eat(r, ")");
    }
    if (eat(r, "-")) {
        if (!primary(r, v))
            return false;
        *v = -*v;
        return true;
    }
    if (r->pos < r->end && (r->s[r->pos] >= '0' && r->s[r->pos] <= '9')) {
        char *e;
        *v = strtod(r->s + r->pos, &e);
        r->pos = (size_t)(e - r->s);
        while (r->pos < r->end && strchr("uUfF", r->s[r->pos]))
            r->pos++;
        return true;
    }
    char name[KERNEL_NAME_MAX];
    if (ident(r, name, sizeof name) && !strcmp(name, "constants") && eat(r, ".") && ident(r, name, sizeof name)) {
        for (int i = 0; i < r->nconstants; i++)
            if (!strcmp(r->constants[i].name, name)) {
                *v = r->constants[i].value;
                return true;
            }
    }
    return false;
}

static bool term(reader *r, double *v)
{
    if (!primary(r, v))
        return false;
    for (;;) {
        double rhs;
        if (eat(r, "*")) {
            if (!primary(r, &rhs))
                return false;
            *v *= rhs;
        } else if (eat(r, "/")) {
            if (!primary(r, &rhs) || rhs == 0)
                return false;
            *v = trunc(*v / rhs);
        } else {
            return true;
        }
    }
}

static bool expr(reader *r, double *v)
{
    if (!term(r, v))
        return false;
    for (;;) {
        double rhs;
        skip(r);
        if (r->pos + 1 < r->end && (r->s[r->pos + 1] == '=' || r->s[r->pos + 1] == r->s[r->pos]))
            return true; /* `+=`, `++`: not part of this expression */
        if (eat(r, "+")) {
            if (!term(r, &rhs))
                return false;
            *v += rhs;
        } else if (eat(r, "-")) {
            if (!term(r, &rhs))
                return false;
            *v -= rhs;
        } else {
            return true;
        }
    }
}

/* Trip count of a `for (init; cond; step)` header, or -1 when it cannot be counted. */
static int64_t trip_count(reader *r)
{
    char var[KERNEL_NAME_MAX], name[KERNEL_NAME_MAX];
    double start, bound, step;
    eat(r, "int");
    if (!ident(r, var, sizeof var) || !eat(r, "=") || !expr(r, &start) || !eat(r, ";"))
        return -1;
    if (!ident(r, name, sizeof name) || strcmp(name, var))
        return -1;
    int cmp; /* 0: <, 1: <=, 2: >, 3: >=, 4: != */
    if (eat(r, "<="))
        cmp = 1;
    else if (eat(r, "<"))
        cmp = 0;
    else if (eat(r, ">="))
        cmp = 3;
    else if (eat(r, ">"))
        cmp = 2;
    else if (eat(r, "!="))
        cmp = 4;
    else
        return -1;
    if (!expr(r, &bound) || !eat(r, ";"))
        return -1;
    if (eat(r, "++") || eat(r, "--")) {
        step = r->s[r->pos - 1] == '+' ? 1 : -1;
        if (!ident(r, name, sizeof name) || strcmp(name, var))
            return -1;
    } else if (ident(r, name, sizeof name) && !strcmp(name, var)) {
        if (eat(r, "++"))
            step = 1;
        else if (eat(r, "--"))
            step = -1;
        else if (eat(r, "+=") && expr(r, &step))
            ;
        else if (eat(r, "-=") && expr(r, &step))
            step = -step;
        else
            return -1;
    } else {
        return -1;
    }
    if (!eat(r, ")") || step == 0)
        return -1;
    double span = step > 0 ? bound - start + (cmp == 1 ? 1 : 0) : start - bound + (cmp == 3 ? 1 : 0);
    if ((step > 0 && cmp >= 2 && cmp != 4) || (step < 0 && cmp <= 1))
        return -1; /* runs zero times or forever: not ours to judge */
    double trips = ceil(span / fabs(step));
    if (!(trips > 0))
        return 0;
    return trips > (double)CAP_ITERATIONS ? CAP_ITERATIONS : (int64_t)trips;
}

static size_t match(const char *s, size_t open, size_t end)
{
    char o = s[open], c = o == '(' ? ')' : '}';
    int depth = 0;
    for (size_t i = open; i < end; i++) {
        if (s[i] == o)
            depth++;
        else if (s[i] == c && --depth == 0)
            return i;
    }
    return end;
}

/* End (exclusive) of the statement starting at pos. */
static size_t statement_end(const char *s, size_t pos, size_t end)
{
    reader r = {s, pos, end, NULL, 0};
    skip(&r);
    if (r.pos >= end)
        return end;
    if (s[r.pos] == '{')
        return match(s, r.pos, end) + 1;
    if (eat(&r, "for") || eat(&r, "while") || eat(&r, "if")) {
        skip(&r);
        if (r.pos < end && s[r.pos] == '(') {
            size_t after = statement_end(s, match(s, r.pos, end) + 1, end);
            reader e = {s, after, end, NULL, 0};
            if (eat(&e, "else"))
                return statement_end(s, e.pos, end);
            return after;
        }
    }
    int depth = 0;
    for (size_t i = r.pos; i < end; i++) {
        if (s[i] == '(' || s[i] == '{')
            depth++;
        else if (s[i] == ')' || s[i] == '}')
            depth--;
        else if (s[i] == ';' && depth <= 0)
            return i + 1;
    }
    return end;
}

static int64_t saturating_mul(int64_t a, int64_t b)
{
    return (a != 0 && b > CAP_ITERATIONS / a) ? CAP_ITERATIONS : a * b;
}

static loop_estimate estimate(const char *s, size_t begin, size_t end, const loop_constant *c, int nc)
{
    loop_estimate total = {0, 0};
    int64_t largest = -1;
    for (size_t i = begin; i < end; i++) {
        if (!(s[i] == 'f' && (i == 0 || !is_ident_char(s[i - 1])) && !strncmp(s + i, "for", 3) &&
              !is_ident_char(s[i + 3])))
            continue;
        reader r = {s, i + 3, end, c, nc};
        skip(&r);
        if (r.pos >= end || s[r.pos] != '(')
            continue;
        size_t header_end = match(s, r.pos, end);
        r.pos++;
        r.end = header_end + 1;
        int64_t trips = trip_count(&r);
        size_t body_end = statement_end(s, header_end + 1, end);
        loop_estimate inner = estimate(s, header_end + 1, body_end, c, nc);
        int64_t here = trips < 0 ? 0 : saturating_mul(trips, 1 + inner.iterations);
        total.iterations += here;
        if (total.iterations > CAP_ITERATIONS)
            total.iterations = CAP_ITERATIONS;
        if (here > largest) {
            largest = here;
            total.largest_loop = i;
        }
        i = body_end - 1;
    }
    return total;
}

loop_estimate loop_budget_estimate(const char *mask, size_t begin, size_t end, const loop_constant *constants,
                                   int nconstants)
{
    return estimate(mask, begin, end, constants, nconstants);
}
