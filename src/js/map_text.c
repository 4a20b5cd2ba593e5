/* map_text.c - reads the first argument of GPU.js's createKernelMap as written in JavaScript: an
 * object `{ sum: add, product: function (a, b) { ... } }` (outputs named by their keys) or an array
 * `[add, function multiply(a, b) { ... }]` (outputs named 0, 1, ...). Each value is a function's name,
 * a function or arrow function written in place, or GPU.js's alias('name', function ...). */
#include "js/map_text.h"
#include "js/lexer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    js_lexer lx;
    js_token tok;
    const char *text;
    char *err;
    size_t errlen;
} reader;

static void next(reader *r)
{
    r->tok = js_lexer_next(&r->lx);
}

static bool fail(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool fail(reader *r, const char *fmt, ...)
{
    int n = snprintf(r->err, r->errlen, "createKernelMap's sub-kernels %d:%d: ", r->tok.line, r->tok.col);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < r->errlen)
        vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return false;
}

static char *copy(const char *s, size_t n)
{
    char *out = malloc(n + 1);
    if (out) {
        memcpy(out, s, n);
        out[n] = '\0';
    }
    return out;
}

/* The source text of one value: up to the `,`, `}` or `]` that ends it outside any bracket. */
static bool value_text(reader *r, const char **start, size_t *len)
{
    *start = r->tok.start;
    int depth = 0;
    const char *end = *start;
    while (r->tok.kind != TK_EOF) {
        if (r->tok.kind == TK_ERROR)
            return fail(r, "unexpected character `%.*s`", (int)(r->tok.len ? r->tok.len : 1), r->tok.start);
        if (r->tok.kind == TK_PUNCT && (js_tok_is(&r->tok, "(") || js_tok_is(&r->tok, "[") || js_tok_is(&r->tok, "{")))
            depth++;
        else if (r->tok.kind == TK_PUNCT && (js_tok_is(&r->tok, ")") || js_tok_is(&r->tok, "]") ||
                                             js_tok_is(&r->tok, "}"))) {
            if (depth == 0)
                break;
            depth--;
        } else if (depth == 0 && js_tok_is(&r->tok, ",")) {
            break;
        }
        end = r->tok.start + r->tok.len;
        next(r);
    }
    if (r->tok.kind == TK_EOF)
        return fail(r, "unexpected end: the object or array is not closed");
    *len = (size_t)(end - *start);
    if (!*len)
        return fail(r, "a sub-kernel is missing");
    return true;
}

/* alias('name', function ...): GPU.js's way to call a function by another name. */
static bool alias_value(reader *r, js_map_entry *e)
{
    next(r); /* alias */
    if (!js_tok_is(&r->tok, "("))
        return fail(r, "expected `(` after alias");
    next(r);
    if (r->tok.kind != TK_STRING || r->tok.len < 3 || r->tok.start[r->tok.len - 1] != r->tok.start[0])
        return fail(r, "alias takes the new name as a string first");
    char *name = copy(r->tok.start + 1, r->tok.len - 2);
    next(r);
    if (!name || !js_tok_is(&r->tok, ",")) {
        free(name);
        return fail(r, name ? "expected `,` after alias's name" : "out of memory");
    }
    next(r);
    const char *start;
    size_t len;
    if (!value_text(r, &start, &len) || !js_tok_is(&r->tok, ")")) {
        free(name);
        return r->err[0] ? false : fail(r, "expected `)` closing alias(...)");
    }
    next(r);
    /* The function is renamed: `function add(` becomes `function name(`. */
    const char *open = memchr(start, '(', len);
    const char *kw = strstr(start, "function");
    if (!open || !kw || kw > open) {
        free(name);
        return fail(r, "alias needs a `function (...) { ... }` as its second argument");
    }
    size_t head = (size_t)(kw + 8 - start), tail = len - (size_t)(open - start);
    char *src = malloc(head + strlen(name) + tail + 2);
    if (src)
        sprintf(src, "%.*s %s%.*s", (int)head, start, name, (int)tail, open);
    free(name);
    e->function = src;
    return src ? true : fail(r, "out of memory");
}

static bool read_value(reader *r, js_map_entry *e)
{
    if (r->tok.kind == TK_IDENT && js_tok_is(&r->tok, "alias")) {
        js_lexer saved = r->lx;
        js_token at = r->tok;
        next(r);
        bool call = js_tok_is(&r->tok, "(");
        r->lx = saved;
        r->tok = at;
        if (call)
            return alias_value(r, e);
    }
    const char *start;
    size_t len;
    if (!value_text(r, &start, &len))
        return false;
    e->function = copy(start, len);
    return e->function ? true : fail(r, "out of memory");
}

static bool read_entries(reader *r, js_map_entry *out, int max, int *n)
{
    bool object = js_tok_is(&r->tok, "{");
    const char *close = object ? "}" : "]";
    next(r);
    while (!js_tok_is(&r->tok, close)) {
        if (*n == max)
            return fail(r, "more than %d sub-kernels (GPUC_MAX_MAP_OUTPUTS)", max);
        js_map_entry *e = &out[*n];
        char index[16];
        if (object) {
            if (r->tok.kind != TK_IDENT && r->tok.kind != TK_STRING && r->tok.kind != TK_NUMBER)
                return fail(r, "expected a key (the output's name)");
            bool quoted = r->tok.kind == TK_STRING;
            if (quoted && (r->tok.len < 2 || r->tok.start[r->tok.len - 1] != r->tok.start[0]))
                return fail(r, "a key's string is not closed");
            e->name = copy(r->tok.start + quoted, r->tok.len - 2 * quoted);
            next(r);
            if (!js_tok_is(&r->tok, ":"))
                return fail(r, "expected `:` after the key");
            next(r);
        } else {
            snprintf(index, sizeof index, "%d", *n);
            e->name = copy(index, strlen(index));
        }
        (*n)++;
        if (!e->name)
            return fail(r, "out of memory");
        if (!read_value(r, e))
            return false;
        if (js_tok_is(&r->tok, ","))
            next(r);
        else if (!js_tok_is(&r->tok, close))
            return fail(r, "expected `,` or `%s`", close);
    }
    next(r);
    if (r->tok.kind != TK_EOF)
        return fail(r, "unexpected `%.*s` after the %s", (int)r->tok.len, r->tok.start, object ? "object" : "array");
    return true;
}

bool js_read_map_text(const char *text, js_map_entry *out, int max, int *n, char *err, size_t errlen)
{
    reader r = {.text = text, .err = err, .errlen = errlen};
    err[0] = '\0';
    *n = 0;
    memset(out, 0, (size_t)max * sizeof *out);
    js_lexer_init(&r.lx, text);
    next(&r);
    bool ok;
    if (!js_tok_is(&r.tok, "{") && !js_tok_is(&r.tok, "["))
        ok = fail(&r, "expected an object `{ name: function, ... }` or an array `[function, ...]`");
    else
        ok = read_entries(&r, out, max, n);
    if (ok && *n == 0)
        ok = fail(&r, "no sub-kernel given");
    if (!ok)
        js_free_map_text(out, *n + (*n < max));
    return ok;
}

void js_free_map_text(js_map_entry *entries, int n)
{
    for (int i = 0; i < n; i++) {
        free((char *)entries[i].name);
        free((char *)entries[i].function);
        entries[i].name = entries[i].function = NULL;
    }
}
