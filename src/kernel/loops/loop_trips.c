/* loop_trips.c - see loop_trips.h. A small expression reader over the mask, bounded in depth. */
#include "kernel/loops/loop_trips.h"
#include "kernel/loops/loop_counter.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define EXPR_DEPTH_MAX 64                       /* deeper header expressions are simply not counted */
#define TRIPS_MAX ((double)((int64_t)1 << 48)) /* more trips than this count as unknown */

typedef struct reader {
    const char *s;
    size_t pos, end;
    const loop_constant *constants;
    int nconstants;
    int depth;
    const named_values *named;
} reader;

static void skip(reader *r)
{
    while (r->pos < r->end && strchr(" \t\r\n\f\v", r->s[r->pos]))
        r->pos++;
}

static bool at_end(reader *r)
{
    skip(r);
    return r->pos >= r->end;
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
    if (r->pos - b >= outlen)
        return false;
    memcpy(out, r->s + b, r->pos - b);
    out[r->pos - b] = '\0';
    return true;
}

static bool expr(reader *r, double *v);

static bool number(reader *r, double *v)
{
    char *e;
    const char *p = r->s + r->pos;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        *v = (double)strtoull(p, &e, 16);
    else
        *v = strtod(p, &e);
    if (e == p || (size_t)(e - r->s) > r->end)
        return false;
    r->pos = (size_t)(e - r->s);
    while (r->pos < r->end && strchr("uUfF", r->s[r->pos]))
        r->pos++;
    return true;
}

static bool primary(reader *r, double *v)
{
    skip(r);
    if (r->pos >= r->end || ++r->depth > EXPR_DEPTH_MAX)
        return false;
    bool ok;
    if (eat(r, "(")) {
        ok = expr(r, v) && eat(r, ")");
    } else if (eat(r, "-")) {
        ok = primary(r, v);
        *v = -*v;
    } else if (eat(r, "+")) {
        ok = primary(r, v);
    } else if (r->s[r->pos] >= '0' && r->s[r->pos] <= '9') {
        ok = number(r, v);
    } else {
        char name[KERNEL_NAME_MAX];
        ok = false;
        if (ident(r, name, sizeof name) && !strcmp(name, "constants") && eat(r, ".") && ident(r, name, sizeof name)) {
            for (int i = 0; i < r->nconstants && !ok; i++)
                if (!strcmp(r->constants[i].name, name)) {
                    *v = r->constants[i].value;
                    ok = true;
                }
        } else if (r->named) {
            for (int i = 0; i < r->named->n && !ok; i++)
                if (!strcmp(r->named->list[i].name, name)) {
                    *v = r->named->list[i].value;
                    ok = true;
                }
        }
    }
    r->depth--;
    return ok;
}

static bool whole(double v)
{
    return v == floor(v) && fabs(v) <= 9007199254740992.0;
}

static bool term(reader *r, double *v)
{
    if (!primary(r, v))
        return false;
    for (;;) {
        double rhs;
        skip(r);
        if (r->pos + 1 < r->end && r->s[r->pos + 1] == '=')
            return true; /* `*=`, `/=`: not part of this expression */
        if (eat(r, "*")) {
            if (!primary(r, &rhs))
                return false;
            *v *= rhs;
        } else if (eat(r, "/")) {
            if (!primary(r, &rhs) || rhs == 0 || !whole(*v) || !whole(rhs))
                return false; /* integer division only: float constants are not counted */
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

typedef enum { CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_NE } comparison;

static bool compare_op(reader *r, comparison *c)
{
    if (eat(r, "<="))
        *c = CMP_LE;
    else if (eat(r, ">="))
        *c = CMP_GE;
    else if (eat(r, "!="))
        *c = CMP_NE;
    else if (eat(r, "<") && !eat(r, "<"))
        *c = CMP_LT;
    else if (eat(r, ">") && !eat(r, ">"))
        *c = CMP_GT;
    else
        return false;
    return true;
}

/* `v CMP B` or `B CMP v` filling all of [begin, end): the comparison as if v stood on the left. */
static bool counter_test(reader base, size_t begin, size_t end, const char *var, comparison *cmp, double *bound)
{
    static const comparison flipped[] = {CMP_GT, CMP_GE, CMP_LT, CMP_LE, CMP_NE};
    char name[KERNEL_NAME_MAX];
    reader r = base;
    r.pos = begin;
    r.end = end;
    if (ident(&r, name, sizeof name) && !strcmp(name, var) && compare_op(&r, cmp) && expr(&r, bound) && at_end(&r))
        return true;
    r.pos = begin;
    if (expr(&r, bound) && compare_op(&r, cmp) && ident(&r, name, sizeof name) && !strcmp(name, var) && at_end(&r)) {
        *cmp = flipped[*cmp];
        return true;
    }
    return false;
}

/* The next top-level `&&` (or `,` with sep ',') in [pos, end), or end. */
static size_t next_separator(const char *s, size_t pos, size_t end, char sep)
{
    int depth = 0;
    for (size_t i = pos; i < end; i++) {
        depth += (s[i] == '(' || s[i] == '[') - (s[i] == ')' || s[i] == ']');
        if (depth == 0 && s[i] == sep && (sep == ',' || (i + 1 < end && s[i + 1] == '&')))
            return i;
    }
    return end;
}

loop_trips loop_trips_of(const char *mask, const loop_scan *scan, const loop_site *l, const loop_constant *c, int nc,
                       const named_values *named)
{
    loop_trips none = {0, -1};
    reader r = {mask, l->header_open + 1, l->cond_begin, c, nc, 0, named};
    char var[KERNEL_NAME_MAX], name[KERNEL_NAME_MAX];
    bool is_uint = false;
    eat(&r, "const");
    if (eat(&r, "uint"))
        is_uint = true;
    else if (!eat(&r, "int"))
        return none; /* a counter of unknown or float type */
    double start, bound, step;
    if (!ident(&r, var, sizeof var) || !eat(&r, "=") || !expr(&r, &start) || !eat(&r, ";"))
        return none;
    /* The step: v++, ++v, v--, --v, v += e, v -= e; then perhaps `, more`. */
    size_t step_begin = l->cond_end; /* the `;` after the condition */
    while (step_begin < l->header_close && mask[step_begin] != ';')
        step_begin++;
    size_t step_end = next_separator(mask, step_begin + 1, l->header_close, ',');
    r.pos = step_begin + 1;
    r.end = step_end;
    if (eat(&r, "++") || eat(&r, "--")) {
        step = mask[r.pos - 1] == '+' ? 1 : -1;
        if (!ident(&r, name, sizeof name) || strcmp(name, var))
            return none;
    } else if (ident(&r, name, sizeof name) && !strcmp(name, var)) {
        if (eat(&r, "++"))
            step = 1;
        else if (eat(&r, "--"))
            step = -1;
        else if (eat(&r, "+=") && expr(&r, &step))
            ;
        else if (eat(&r, "-=") && expr(&r, &step))
            step = -step;
        else
            return none;
    } else {
        return none;
    }
    if (!at_end(&r) || step == 0 || !whole(start) || !whole(step))
        return none;
    /* v must change only in the step: not in the body, the rest of the step or the condition's rest. */
    if (!loop_counter_only_read(mask, l->body_begin, l->body_end, var, scan, l->function) ||
        !loop_counter_only_read(mask, step_end, l->header_close, var, scan, l->function))
        return none;
    /* The condition: the whole of it, or one of its && terms, tests the counter. */
    comparison cmp;
    bool exact = false, found = false;
    for (size_t b = l->cond_begin; b < l->cond_end && !found;) {
        size_t e = next_separator(mask, b, l->cond_end, '&');
        found = counter_test(r, b, e, var, &cmp, &bound);
        exact = found && b == l->cond_begin && e == l->cond_end;
        b = e + 2;
    }
    if (!found || !whole(bound) || !loop_counter_only_read(mask, l->cond_begin, l->cond_end, var, scan, l->function))
        return none;
    double n;
    if (cmp == CMP_LT && step > 0)
        n = ceil((bound - start) / step);
    else if (cmp == CMP_LE && step > 0)
        n = floor((bound - start) / step) + 1;
    else if (cmp == CMP_GT && step < 0)
        n = ceil((start - bound) / -step);
    else if (cmp == CMP_GE && step < 0)
        n = floor((start - bound) / -step) + 1;
    else if (cmp == CMP_NE && fabs(step) == 1 && (bound - start) * step >= 0)
        n = fabs(bound - start);
    else
        return none;
    if (n < 0)
        n = 0;
    /* The counter must not wrap around on the way (it would run on past the bound). */
    double last = start + n * step, lo = is_uint ? 0 : -2147483648.0, hi = is_uint ? 4294967295.0 : 2147483647.0;
    if (start < lo || start > hi || last < lo || last > hi || n > TRIPS_MAX)
        return none;
    int64_t count = (int64_t)n;
    return (loop_trips){exact && !l->leaves_early ? count : 0, count};
}

/* ---- named values ---- */

static bool is_keyword_before_value(const char *s, size_t b, size_t e)
{
    static const char *const words[] = {"return", "else", "case", "do", NULL};
    for (int i = 0; words[i]; i++)
        if (e - b == strlen(words[i]) && !strncmp(s + b, words[i], e - b))
            return true;
    return false;
}

/* How many times the mask declares `name` (an identifier right after another identifier, as in
 * `int N`, `const float N`, a parameter `uint N`): a name declared once, globally, has one value. */
static int declarations(const char *mask, const char *name)
{
    size_t n = strlen(name);
    int count = 0;
    for (const char *p = strstr(mask, name); p; p = strstr(p + 1, name)) {
        if ((p > mask && is_ident_char(p[-1])) || is_ident_char(p[n]))
            continue;
        size_t e = (size_t)(p - mask);
        while (e > 0 && strchr(" \t\r\n", mask[e - 1]))
            e--;
        size_t b = e;
        while (b > 0 && is_ident_char(mask[b - 1]))
            b--;
        if (b < e && is_ident_start(mask[b]) && !is_keyword_before_value(mask, b, e))
            count++;
    }
    return count;
}

static void add_named(named_values *nv, const char *name, size_t len, double value)
{
    if (nv->n == LOOP_NAMES_MAX || len >= KERNEL_NAME_MAX || !whole(value))
        return;
    memcpy(nv->names[nv->n], name, len);
    nv->names[nv->n][len] = '\0';
    nv->list[nv->n] = (loop_constant){nv->names[nv->n], value};
    nv->n++;
}

/* `#define NAME value` lines, unless the source has conditionals or #undef (then a macro's value
 * could depend on them). A macro cannot be shadowed: every use of its name is replaced. */
static void read_macros(const char *src, reader base, named_values *nv)
{
    for (const char *line = src; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != '#')
            continue;
        for (p++; *p == ' ' || *p == '\t'; p++)
            ;
        if (!strncmp(p, "if", 2) || !strncmp(p, "el", 2) || !strncmp(p, "undef", 5)) {
            nv->n = 0;
            return;
        }
    }
    for (const char *line = src; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, "#define", 7) || (p[7] != ' ' && p[7] != '\t'))
            continue;
        for (p += 7; *p == ' ' || *p == '\t'; p++)
            ;
        const char *name = p;
        while (is_ident_char(*p))
            p++;
        size_t len = (size_t)(p - name);
        size_t end = strcspn(p, "\n");
        if (!len || *p == '(' || (end && p[end - 1] == '\\'))
            continue; /* function-like or continued: not a plain value */
        reader r = base;
        r.s = src;
        r.pos = (size_t)(p - src);
        r.end = r.pos + end;
        double v;
        if (expr(&r, &v) && at_end(&r))
            add_named(nv, name, len, v);
    }
}

/* Global `const int|uint NAME = value;` declared nowhere else. */
static void read_global_consts(const char *mask, const loop_scan *scan, reader base, named_values *nv)
{
    size_t n = strlen(mask);
    int next = 0; /* functions come in source order: skip each body as it is reached */
    for (size_t i = 0; i < n; i++) {
        while (next < scan->nfunctions && i >= scan->functions[next].body_begin) {
            if (i <= scan->functions[next].body_end)
                i = scan->functions[next].body_end + 1;
            next++;
        }
        if (i >= n || strncmp(mask + i, "const", 5) || (i > 0 && is_ident_char(mask[i - 1])) ||
            is_ident_char(mask[i + 5]))
            continue;
        reader r = base;
        r.s = mask;
        r.pos = i + 5;
        r.end = n;
        char name[KERNEL_NAME_MAX];
        double v;
        if ((eat(&r, "int") || eat(&r, "uint")) && ident(&r, name, sizeof name) && eat(&r, "=") && expr(&r, &v) &&
            eat(&r, ";") && declarations(mask, name) == 1)
            add_named(nv, name, strlen(name), v);
    }
}

void loop_names_read(named_values *nv, const char *src, const char *mask, const loop_scan *scan,
                     const loop_constant *constants, int nconstants)
{
    nv->n = 0;
    reader base = {.constants = constants, .nconstants = nconstants, .named = nv};
    read_macros(src, base, nv);
    read_global_consts(mask, scan, base, nv);
}
