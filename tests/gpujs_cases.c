/* gpujs_cases.c - see gpujs_cases.h: the fixture grammar read line by line, each key checked for its
 * word and value counts, so that a malformed fixture fails at its line rather than as a wrong case. */
#include "gpujs_cases.h"
#include "fixture.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    const char *file;
    const char *next; /* the text after the current line */
    int line;         /* the current line's number */
    char *buf;        /* the current line, less its newline, cut into words in place */
    size_t cap;
    char *error;
    size_t error_cap;
} reader;

static bool malformed(reader *r, const char *fmt, ...)
{
    int n = snprintf(r->error, r->error_cap, "%s:%d: ", r->file, r->line);
    if (n >= 0 && (size_t)n < r->error_cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->error + n, r->error_cap - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* Makes the next line current; false at the end of the text. */
static bool next_line(reader *r)
{
    if (!*r->next)
        return false;
    size_t len = strcspn(r->next, "\n");
    if (len + 1 > r->cap) {
        char *grown = realloc(r->buf, len + 1);
        if (!grown)
            return false;
        r->buf = grown;
        r->cap = len + 1;
    }
    memcpy(r->buf, r->next, len);
    r->buf[len] = '\0';
    r->next += len + (r->next[len] == '\n');
    r->line++;
    return true;
}

/* The next word of *p, or NULL when none is left. */
static char *word(char **p)
{
    char *s = *p + strspn(*p, " \t");
    if (!*s)
        return NULL;
    char *end = s + strcspn(s, " \t");
    *p = *end ? end + 1 : end;
    *end = '\0';
    return s;
}

/* The rest of the line after the key, from its first non-blank character. */
static char *rest(char **p)
{
    char *s = *p + strspn(*p, " \t");
    *p = s + strlen(s);
    return s;
}

static bool no_more_words(reader *r, char **p, const char *key)
{
    char *extra = word(p);
    return extra ? malformed(r, "`%s` is followed by `%s`, one word too many", key, extra) : true;
}

static bool read_long(reader *r, char **p, const char *key, const char *what, long min, long max, long *out)
{
    char *w = word(p), *end;
    if (!w)
        return malformed(r, "`%s` lacks its %s", key, what);
    errno = 0;
    long v = strtol(w, &end, 10);
    if (*end || errno || v < min || v > max)
        return malformed(r, "`%s`: %s `%s` is not a whole number from %ld to %ld", key, what, w, min, max);
    *out = v;
    return true;
}

static bool read_double(reader *r, char **p, const char *key, double *out)
{
    char *w = word(p), *end;
    if (!w)
        return malformed(r, "`%s` lacks its value", key);
    *out = strtod(w, &end);
    return *end ? malformed(r, "`%s`: `%s` is not a number", key, w) : true;
}

static bool copy_word(reader *r, char **p, const char *key, const char *what, char *out, size_t cap)
{
    char *w = word(p);
    if (!w)
        return malformed(r, "`%s` lacks its %s", key, what);
    if (strlen(w) >= cap)
        return malformed(r, "`%s`: the %s `%s` is longer than %zu characters", key, what, w, cap - 1);
    memcpy(out, w, strlen(w) + 1);
    return true;
}

static bool copy_rest(reader *r, char **p, const char *key, char *out, size_t cap)
{
    char *s = rest(p);
    if (!*s)
        return malformed(r, "`%s` lacks its text", key);
    if (strlen(s) >= cap)
        return malformed(r, "`%s`: the text is longer than %zu characters", key, cap - 1);
    memcpy(out, s, strlen(s) + 1);
    return true;
}

/* Exactly n floats, the rest of the line (strtof reads "nan", "inf", "-inf" and "-0" too). */
static bool read_floats(reader *r, char **p, const char *key, size_t n, float **out)
{
    float *v = calloc(n ? n : 1, sizeof *v);
    if (!v)
        return malformed(r, "`%s`: out of memory for %zu values", key, n);
    *out = v;
    size_t got = 0;
    for (char *w; (w = word(p));) {
        if (got == n)
            return malformed(r, "`%s` needs %zu values; the line has more", key, n);
        char *end;
        v[got++] = strtof(w, &end);
        if (*end)
            return malformed(r, "`%s`: value %zu `%s` is not a number", key, got, w);
    }
    return got == n ? true : malformed(r, "`%s` needs %zu values; the line has %zu", key, n, got);
}

/* X [Y [Z]]: 1 to 3 sizes, each at least 1. */
static bool read_dims(reader *r, char **p, const char *key, gpuc_dims *d)
{
    uint32_t *at[3] = {&d->x, &d->y, &d->z};
    *d = (gpuc_dims){0};
    int n = 0;
    for (char *w; (w = word(p));) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(w, &end, 10);
        if (n == 3)
            return malformed(r, "`%s` takes at most 3 sizes", key);
        if (*end || errno || v < 1 || v > UINT32_MAX || w[0] == '-')
            return malformed(r, "`%s`: size `%s` is not a whole number from 1", key, w);
        *at[n++] = (uint32_t)v;
    }
    return n ? true : malformed(r, "`%s` lacks its sizes", key);
}

/* RANK X [Y [Z]] VALUES, `width` numbers a cell. */
static bool read_array(reader *r, char **p, const char *key, int width, int *rank, gpuc_dims *d, float **values,
                       size_t *n)
{
    long k;
    if (!read_long(r, p, key, "rank", 1, 3, &k))
        return false;
    *rank = (int)k;
    uint32_t *at[3] = {&d->x, &d->y, &d->z};
    *d = (gpuc_dims){0};
    size_t cells = 1;
    for (int i = 0; i < *rank; i++) {
        long size;
        if (!read_long(r, p, key, "size", 1, 1L << 24, &size))
            return false;
        *at[i] = (uint32_t)size;
        cells *= (size_t)size;
    }
    *n = cells * (size_t)width;
    return read_floats(r, p, key, *n, values);
}

/* The `count` lines after the current one, each with its newline. */
static bool read_text(reader *r, const char *keyword, long count, char **out)
{
    char key[16]; /* the keyword lies in the line buffer the text's lines replace */
    snprintf(key, sizeof key, "%s", keyword);
    size_t len = 0;
    char *s = calloc(1, 1);
    if (!s)
        return malformed(r, "`%s`: out of memory", key);
    *out = s;
    int from = r->line;
    for (long i = 0; i < count; i++) {
        if (!next_line(r)) {
            r->line = from;
            return malformed(r, "`%s %ld` needs %ld lines; the file ends after %ld", key, count, count, i);
        }
        size_t n = strlen(r->buf);
        char *grown = realloc(s, len + n + 2);
        if (!grown)
            return malformed(r, "`%s`: out of memory", key);
        s = *out = grown;
        memcpy(s + len, r->buf, n);
        s[len + n] = '\n';
        s[len + n + 1] = '\0';
        len += n + 1;
    }
    return true;
}

static bool read_text_block(reader *r, char **p, const char *key, char **out)
{
    long count;
    if (!read_long(r, p, key, "line count", 1, 100000, &count) || !no_more_words(r, p, key))
        return false;
    return read_text(r, key, count, out);
}

static bool new_arg(reader *r, gpujs_case *c, gpujs_arg_kind kind, const char *key, gpujs_arg **a)
{
    if (c->nargs == GPUJS_MAX_ARGS)
        return malformed(r, "case %s: `%s` would be argument %d; the reader keeps %d", c->name, key, c->nargs + 1,
                    GPUJS_MAX_ARGS);
    *a = &c->args[c->nargs++];
    (*a)->kind = kind;
    (*a)->width = 1;
    return true;
}

static bool room(reader *r, const gpujs_case *c, int n, int max, const char *key)
{
    return n < max ? true : malformed(r, "case %s: more than %d `%s` lines", c->name, max, key);
}

/* One key line of a case. */
static bool read_key(reader *r, gpujs_case *c, const char *key, char **p)
{
    long v;
    if (!strcmp(key, "origin"))
        return copy_rest(r, p, key, c->origin, sizeof c->origin);
    if (!strcmp(key, "types"))
        return copy_rest(r, p, key, c->types, sizeof c->types);
    if (!strcmp(key, "setting")) {
        char *text = rest(p);
        if (!*text)
            return malformed(r, "`setting` lacks its name and value");
        if (!room(r, c, c->nsettings, GPUJS_MAX_ITEMS, key))
            return false;
        c->settings[c->nsettings] = strdup(text);
        return c->settings[c->nsettings++] ? true : malformed(r, "`setting`: out of memory");
    }
    if (!strcmp(key, "mode") || !strcmp(key, "oracle") || !strcmp(key, "pending")) {
        char *out = key[0] == 'm' ? c->mode : key[0] == 'o' ? c->oracle : c->pending;
        size_t cap = key[0] == 'm' ? sizeof c->mode : key[0] == 'o' ? sizeof c->oracle : sizeof c->pending;
        return copy_word(r, p, key, "word", out, cap) && no_more_words(r, p, key);
    }
    if (!strcmp(key, "ulps") || !strcmp(key, "loopmax")) {
        if (!read_long(r, p, key, "count", 0, 1L << 30, &v) || !no_more_words(r, p, key))
            return false;
        *(key[0] == 'u' ? &c->ulps : &c->loop_max) = (int)v;
        return true;
    }
    if (!strcmp(key, "output"))
        return read_dims(r, p, key, &c->output);
    if (!strcmp(key, "resized_from")) {
        c->resized = true;
        return read_dims(r, p, key, &c->resized_from);
    }
    if (!strcmp(key, "constant") || !strcmp(key, "constarray")) {
        if (!room(r, c, c->nconstants, GPUC_MAX_CONSTANTS, key))
            return false;
        int k = c->nconstants;
        gpuc_constant *constant = &c->constants[k];
        if (!copy_word(r, p, key, "name", c->constant_names[k], sizeof c->constant_names[k]))
            return false;
        constant->name = c->constant_names[k]; /* set again once every case is read */
        c->nconstants++;
        if (!strcmp(key, "constarray")) {
            int rank;
            size_t n;
            return read_array(r, p, key, 1, &rank, &constant->dims, (float **)&constant->values, &n);
        }
        char type[8];
        if (!copy_word(r, p, key, "type", type, sizeof type))
            return false;
        constant->type = !strcmp(type, "int") ? GPUC_INT : !strcmp(type, "float") ? GPUC_FLOAT
                         : !strcmp(type, "bool") ? GPUC_BOOL : GPUC_TYPE_NONE;
        if (constant->type == GPUC_TYPE_NONE)
            return malformed(r, "`constant %s`: type `%s` is not int, float or bool", constant->name, type);
        return read_double(r, p, key, &constant->value) && no_more_words(r, p, key);
    }
    if (!strcmp(key, "array") || !strcmp(key, "vecarray") || !strcmp(key, "vec")) {
        gpujs_arg *a = NULL;
        gpujs_arg_kind kind = !strcmp(key, "array") ? GPUJS_ARRAY : !strcmp(key, "vecarray") ? GPUJS_VECARRAY : GPUJS_VEC;
        if (!new_arg(r, c, kind, key, &a))
            return false;
        if (a->kind != GPUJS_ARRAY) {
            if (!read_long(r, p, key, "width", 2, 4, &v))
                return false;
            a->width = (int)v;
        }
        if (a->kind == GPUJS_VEC)
            return read_floats(r, p, key, a->nvalues = (size_t)a->width, &a->values);
        return read_array(r, p, key, a->width, &a->rank, &a->dims, &a->values, &a->nvalues);
    }
    if (!strcmp(key, "float") || !strcmp(key, "int")) {
        gpujs_arg *a = NULL;
        return new_arg(r, c, key[0] == 'f' ? GPUJS_FLOAT : GPUJS_INT, key, &a) && read_double(r, p, key, &a->value) &&
               no_more_words(r, p, key);
    }
    if (!strcmp(key, "bool")) {
        gpujs_arg *a = NULL;
        if (!new_arg(r, c, GPUJS_BOOL, key, &a))
            return false;
        char *w = word(p);
        if (!w || (strcmp(w, "true") && strcmp(w, "false")))
            return malformed(r, "`bool` takes true or false, not `%s`", w ? w : "");
        a->value = !strcmp(w, "true");
        return no_more_words(r, p, key);
    }
    if (!strcmp(key, "helper")) {
        if (!room(r, c, c->nhelpers, GPUJS_MAX_ITEMS, key))
            return false;
        return read_text_block(r, p, key, &c->helpers[c->nhelpers++]);
    }
    if (!strcmp(key, "subkernels")) {
        if (c->sub_kernels)
            return malformed(r, "case %s has a second `subkernels`", c->name);
        return read_text_block(r, p, key, &c->sub_kernels);
    }
    if (!strcmp(key, "source")) {
        if (c->source)
            return malformed(r, "case %s has a second `source`", c->name);
        return read_text_block(r, p, key, &c->source);
    }
    if (!strcmp(key, "map")) {
        if (!room(r, c, c->nmaps, GPUJS_MAX_ITEMS, key))
            return false;
        gpujs_named *m = &c->maps[c->nmaps++];
        return copy_word(r, p, key, "output name", m->name, sizeof m->name) && read_text_block(r, p, key, &m->source);
    }
    if (!strcmp(key, "expect")) {
        if (c->expect)
            return malformed(r, "case %s has a second `expect`", c->name);
        return read_long(r, p, key, "value count", 1, 1L << 24, &v) && read_floats(r, p, key, c->nexpect = (size_t)v, &c->expect);
    }
    if (!strcmp(key, "expectmap")) {
        if (!room(r, c, c->nexpect_maps, GPUJS_MAX_ITEMS, key))
            return false;
        gpujs_named *m = &c->expect_maps[c->nexpect_maps++];
        return copy_word(r, p, key, "output name", m->name, sizeof m->name) &&
               read_long(r, p, key, "value count", 1, 1L << 24, &v) &&
               read_floats(r, p, key, m->nvalues = (size_t)v, &m->values);
    }
    return malformed(r, "case %s: unknown keyword `%s`", c->name, key);
}

static void free_case(gpujs_case *c)
{
    for (int i = 0; i < c->nsettings; i++)
        free(c->settings[i]);
    for (int i = 0; i < c->nconstants; i++)
        free((float *)c->constants[i].values);
    for (int i = 0; i < c->nargs; i++)
        free(c->args[i].values);
    for (int i = 0; i < c->nhelpers; i++)
        free(c->helpers[i]);
    for (int i = 0; i < c->nmaps; i++)
        free(c->maps[i].source);
    for (int i = 0; i < c->nexpect_maps; i++)
        free(c->expect_maps[i].values);
    free(c->sub_kernels);
    free(c->source);
    free(c->expect);
}

/* The lines of one case after its `case NAME`, through its `end`. */
static bool read_case(reader *r, gpujs_case *c)
{
    while (next_line(r)) {
        char *p = r->buf, *key = word(&p);
        if (!key || key[0] == '#')
            return malformed(r, "case %s: a %s line inside a case", c->name, key ? "comment" : "blank");
        if (!strcmp(key, "case"))
            return malformed(r, "case %s (line %d) has no `end` before this `case`", c->name, c->line);
        if (!strcmp(key, "end")) {
            if (!no_more_words(r, &p, key))
                return false;
            const char *missing = !c->output.x ? "output" : !c->source ? "source" : !c->expect ? "expect" : NULL;
            return missing ? malformed(r, "case %s (line %d) ends without `%s`", c->name, c->line, missing) : true;
        }
        if (!read_key(r, c, key, &p))
            return false;
    }
    return malformed(r, "case %s (line %d) has no `end`", c->name, c->line);
}

/* The format line, after the comment header. */
static bool read_format(reader *r)
{
    char *p = NULL, *key = NULL;
    while (next_line(r)) {
        p = r->buf;
        key = word(&p);
        if (key && key[0] != '#')
            break;
        key = NULL;
    }
    if (!key)
        return malformed(r, "no `format gpujs-cases %d` line", GPUJS_CASES_VERSION);
    char *name = word(&p), *version = word(&p);
    if (strcmp(key, "format") || !name || strcmp(name, "gpujs-cases"))
        return malformed(r, "the first line after the comments must be `format gpujs-cases %d`", GPUJS_CASES_VERSION);
    char *end = NULL;
    if (!version || strtol(version, &end, 10) != GPUJS_CASES_VERSION || *end)
        return malformed(r, "format gpujs-cases %s: this reader reads version %d", version ? version : "(none)",
                    GPUJS_CASES_VERSION);
    return no_more_words(r, &p, "format");
}

bool gpujs_cases_parse(const char *text, const char *file, gpujs_cases *out, char *error, size_t cap)
{
    reader r = {.file = file, .next = text, .error = error, .error_cap = cap};
    *out = (gpujs_cases){0};
    bool ok = read_format(&r);
    int room_for = 0;
    while (ok && next_line(&r)) {
        char *p = r.buf, *key = word(&p);
        if (!key || key[0] == '#')
            continue;
        if (strcmp(key, "case")) {
            ok = malformed(&r, "expected `case NAME`, found `%s`", key);
            break;
        }
        if (out->count == room_for) {
            room_for = room_for ? 2 * room_for : 64;
            gpujs_case *grown = realloc(out->cases, (size_t)room_for * sizeof *grown);
            if (!grown) {
                ok = malformed(&r, "out of memory for %d cases", room_for);
                break;
            }
            out->cases = grown;
        }
        gpujs_case *c = &out->cases[out->count++];
        memset(c, 0, sizeof *c);
        c->line = r.line;
        ok = copy_word(&r, &p, "case", "name", c->name, sizeof c->name) && no_more_words(&r, &p, "case") &&
             read_case(&r, c);
    }
    free(r.buf);
    if (!ok) {
        gpujs_cases_free(out);
        return false;
    }
    /* the constants' names point into their case, which the array's growth may have moved */
    for (int i = 0; i < out->count; i++)
        for (int k = 0; k < out->cases[i].nconstants; k++)
            out->cases[i].constants[k].name = out->cases[i].constant_names[k];
    return true;
}

void gpujs_cases_free(gpujs_cases *set)
{
    for (int i = 0; i < set->count; i++)
        free_case(&set->cases[i]);
    free(set->cases);
    *set = (gpujs_cases){0};
}

gpujs_cases gpujs_cases_load(const char *file, int expected)
{
    char path[512], error[512];
    snprintf(path, sizeof path, "%s/%s", GPUC_FIXTURES_DIR, file);
    char *text = fixture_read_text(path);
    gpujs_cases set;
    bool ok = gpujs_cases_parse(text, path, &set, error, sizeof error);
    free(text);
    ck_assert_msg(ok, "%s", error);
    ck_assert_msg(set.count == expected, "%s has %d cases; its suite registers %d", path, set.count, expected);
    return set;
}

const char *gpujs_case_arg_types(const gpujs_case *c, char *buf, size_t cap)
{
    static const char *const ranks[] = {"", "[]", "[][]", "[][][]"};
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < c->nargs && len < cap; i++) {
        const gpujs_arg *a = &c->args[i];
        const char *sep = i ? ", " : "";
        int n = a->kind == GPUJS_ARRAY      ? snprintf(buf + len, cap - len, "%sfloat%s", sep, ranks[a->rank])
                : a->kind == GPUJS_VECARRAY ? snprintf(buf + len, cap - len, "%svec%d%s", sep, a->width, ranks[a->rank])
                : a->kind == GPUJS_VEC      ? snprintf(buf + len, cap - len, "%sArray(%d)", sep, a->width)
                : snprintf(buf + len, cap - len, "%s%s", sep,
                           a->kind == GPUJS_FLOAT ? "float" : a->kind == GPUJS_INT ? "int" : "Boolean");
        len += n > 0 ? (size_t)n : 0;
    }
    return buf;
}

gpuc_arg gpujs_arg_value(const gpujs_arg *a)
{
    const float *v = a->values;
    switch (a->kind) {
    case GPUJS_ARRAY:
    case GPUJS_VECARRAY:
        return gpuc_arg_host_f32(v, a->dims);
    case GPUJS_VEC:
        return a->width == 2 ? gpuc_arg_vec2(v[0], v[1])
               : a->width == 3 ? gpuc_arg_vec3(v[0], v[1], v[2]) : gpuc_arg_vec4(v[0], v[1], v[2], v[3]);
    case GPUJS_FLOAT:
        return gpuc_arg_f32((float)a->value);
    case GPUJS_INT:
        return gpuc_arg_i32((int32_t)a->value);
    case GPUJS_BOOL:
        break;
    }
    return gpuc_arg_bool(a->value != 0);
}
