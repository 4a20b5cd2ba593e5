/* kernel_rewrite.c - see kernel_rewrite.h. */
#include "kernel/kernel_rewrite.h"

#include <stdlib.h>
#include <string.h>

static bool is_array_param(const kernel_signature *sig, const char *name, size_t len)
{
    for (int i = 0; i < sig->nparams; i++)
        if (sig->params[i].rank > 0 && strlen(sig->params[i].name) == len && !strncmp(sig->params[i].name, name, len))
            return true;
    return false;
}

static size_t skip_spaces(const char *mask, size_t i, size_t end)
{
    while (i < end && (mask[i] == ' ' || mask[i] == '\t' || mask[i] == '\n' || mask[i] == '\r'))
        i++;
    return i;
}

/* The previous non-space character before i, or '\0'. */
static char previous_char(const char *mask, size_t i)
{
    while (i > 0) {
        char c = mask[--i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return c;
    }
    return '\0';
}

#define MAX_BRACKET_DEPTH 256

char *kernel_rewrite(const char *src, const char *mask, const kernel_signature *sig)
{
    char *out = strdup(src);
    if (!out)
        return NULL;
    for (size_t i = sig->params_begin; i < sig->params_end; i++)
        if (out[i] != '\n' && out[i] != '\r')
            out[i] = ' ';

    /* For each open '[' in the body: is it the start of an array read (true) or plain indexing? */
    bool accessor[MAX_BRACKET_DEPTH];
    int depth = 0;
    size_t pending_open = (size_t)-1; /* the '[' right after an array parameter's name */
    for (size_t i = sig->body_begin; i < sig->body_end; i++) {
        char c = mask[i];
        if (is_ident_start(c) && !is_ident_char(mask[i - 1])) {
            size_t e = i;
            while (is_ident_char(mask[e]))
                e++;
            size_t next = skip_spaces(mask, e, sig->body_end);
            if (mask[next] == '[' && previous_char(mask, i) != '.' && is_array_param(sig, mask + i, e - i))
                pending_open = next;
            i = e - 1;
        } else if (c == '[') {
            bool is_access = i == pending_open;
            if (depth < MAX_BRACKET_DEPTH)
                accessor[depth] = is_access;
            depth++;
            if (is_access)
                out[i] = '(';
        } else if (c == ']' && depth > 0) {
            depth--;
            if (depth >= MAX_BRACKET_DEPTH || !accessor[depth])
                continue;
            size_t next = skip_spaces(mask, i + 1, sig->body_end);
            if (mask[next] == '[') { /* a[y][x]: the next index belongs to the same read */
                out[i] = ',';
                out[next] = ' ';
                accessor[depth] = true;
                depth++;
                i = next;
            } else {
                out[i] = ')';
            }
        }
    }
    return out;
}

/* The offset just past the index chain `[..][..]` (and any `.xyz` swizzle) that starts at open. */
static size_t access_end(const char *mask, size_t open, size_t end)
{
    size_t i = open;
    for (;;) {
        int depth = 0;
        for (; i < end; i++) {
            if (mask[i] == '[')
                depth++;
            else if (mask[i] == ']' && --depth == 0)
                break;
        }
        if (i >= end)
            return end;
        size_t next = skip_spaces(mask, i + 1, end);
        if (next < end && mask[next] == '[') {
            i = next;
            continue;
        }
        while (next < end && mask[next] == '.') { /* v[i].x = ...: a vecN cell's component */
            next = skip_spaces(mask, next + 1, end);
            while (next < end && is_ident_char(mask[next]))
                next++;
            next = skip_spaces(mask, next, end);
        }
        return next;
    }
}

/* Whether the text at i starts an assignment (`=`, `+=`, `<<=`, ...) or a postfix `++` / `--`. */
static bool starts_write(const char *s, size_t i, size_t end)
{
    char c0 = i < end ? s[i] : '\0', c1 = i + 1 < end ? s[i + 1] : '\0', c2 = i + 2 < end ? s[i + 2] : '\0';
    if (c0 == '=')
        return c1 != '=';
    if (c1 == '=' && strchr("+-*/%&|^", c0))
        return true;
    if ((c0 == '+' || c0 == '-') && c1 == c0)
        return true;
    return (c0 == '<' || c0 == '>') && c1 == c0 && c2 == '=';
}

/* Whether a prefix `++` / `--` stands right before offset name (spaces skipped). A run of n `+` is read
 * greedily as `++` pairs, so it ends in `++` exactly when n is even. */
static bool after_prefix_update(const char *mask, size_t name)
{
    size_t i = name;
    while (i > 0 && (mask[i - 1] == ' ' || mask[i - 1] == '\t' || mask[i - 1] == '\n' || mask[i - 1] == '\r'))
        i--;
    if (i == 0 || (mask[i - 1] != '+' && mask[i - 1] != '-'))
        return false;
    char sign = mask[i - 1];
    size_t run = 0;
    while (i > 0 && mask[i - 1] == sign) {
        i--;
        run++;
    }
    return run % 2 == 0;
}

size_t kernel_array_write(const char *mask, const kernel_signature *sig, int *param)
{
    for (size_t i = sig->body_begin; i < sig->body_end; i++) {
        if (!is_ident_start(mask[i]) || is_ident_char(mask[i - 1]))
            continue;
        size_t e = i;
        while (is_ident_char(mask[e]))
            e++;
        size_t open = skip_spaces(mask, e, sig->body_end);
        if (mask[open] == '[' && previous_char(mask, i) != '.' && is_array_param(sig, mask + i, e - i)) {
            size_t after = access_end(mask, open, sig->body_end);
            if (after_prefix_update(mask, i) || starts_write(mask, after, sig->body_end)) {
                for (int p = 0; p < sig->nparams; p++)
                    if (strlen(sig->params[p].name) == e - i && !strncmp(sig->params[p].name, mask + i, e - i))
                        *param = p;
                return i;
            }
        }
        i = e - 1;
    }
    return (size_t)-1;
}
