/* array_writes.c - see array_writes.h. */
#include "kernel/source/array_writes.h"

#include <string.h>

static size_t skip_blanks(const char *mask, size_t i, size_t end)
{
    while (i < end && text_is_space(mask[i]))
        i++;
    return i;
}

/* The offset of the last non-blank character before i, or (size_t)-1. */
static size_t previous_at(const char *mask, size_t i)
{
    while (i > 0)
        if (!text_is_space(mask[--i]))
            return i;
    return (size_t)-1;
}

static int array_param(const kernel_signature *sig, const char *name, size_t len)
{
    for (int i = 0; i < sig->nparams; i++)
        if (sig->params[i].rank > 0 && strlen(sig->params[i].name) == len && !strncmp(sig->params[i].name, name, len))
            return i;
    return -1;
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
        size_t next = skip_blanks(mask, i + 1, end);
        if (next < end && mask[next] == '[') {
            i = next;
            continue;
        }
        while (next < end && mask[next] == '.') { /* v[i].x = ...: a vecN cell's component */
            next = skip_blanks(mask, next + 1, end);
            while (next < end && is_ident_char(mask[next]))
                next++;
            next = skip_blanks(mask, next, end);
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
    size_t i = previous_at(mask, name);
    if (i == (size_t)-1 || (mask[i] != '+' && mask[i] != '-'))
        return false;
    char sign = mask[i];
    size_t run = 1;
    while (i > 0 && mask[i - 1] == sign) {
        i--;
        run++;
    }
    return run % 2 == 0;
}

/* Built-in functions with out parameters, by argument position. */
static bool builtin_output(const char *name, size_t len, int index)
{
    static const struct { const char *name; int index; } outs[] = {
        {"modf", 1}, {"frexp", 1}, {"uaddCarry", 2}, {"usubBorrow", 2}, {"umulExtended", 2}, {"umulExtended", 3},
        {"imulExtended", 2}, {"imulExtended", 3}};
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++)
        if (strlen(outs[i].name) == len && !strncmp(outs[i].name, name, len) && outs[i].index == index)
            return true;
    return false;
}

/* Whether parameter `index` of any declaration of function name[0, len) in mask is out or inout. */
static bool helper_output(const char *mask, const char *name, size_t len, int index)
{
    for (const char *p = mask; (p = strstr(p, "(")) != NULL; p++) {
        size_t open = (size_t)(p - mask), e = open;
        while (e > 0 && text_is_space(mask[e - 1]))
            e--;
        if (e < len || strncmp(mask + e - len, name, len) || (e > len && is_ident_char(mask[e - len - 1])))
            continue;
        size_t t = previous_at(mask, e - len); /* a declaration: a type name stands before the name */
        if (t == (size_t)-1 || !is_ident_char(mask[t]))
            continue;
        int arg = 0, depth = 0;
        for (size_t i = open + 1; mask[i] && depth >= 0; i++) {
            char c = mask[i];
            depth += (c == '(') - (c == ')');
            if (c == ',' && depth == 0)
                arg++;
            else if (arg == index && depth == 0 && is_ident_start(c) && !is_ident_char(mask[i - 1]) &&
                     (!strncmp(mask + i, "out", 3) || !strncmp(mask + i, "inout", 5)) &&
                     !is_ident_char(mask[i + (mask[i] == 'o' ? 3 : 5)]))
                return true;
        }
    }
    return false;
}

/* Whether the access [name, after) is a whole argument of a call whose parameter there is an output. */
static bool passed_as_output(const char *mask, const kernel_signature *sig, size_t name, size_t after)
{
    size_t before = previous_at(mask, name), next = skip_blanks(mask, after, sig->body_end);
    if (before == (size_t)-1 || (mask[before] != '(' && mask[before] != ',') ||
        (mask[next] != ')' && mask[next] != ','))
        return false;
    int depth = 0, index = 0; /* walk back to the call's `(`, counting the arguments before ours */
    size_t i = name;
    while (i > sig->body_begin) {
        char c = mask[--i];
        if (c == ')' || c == ']') {
            depth++;
        } else if (c == '(' || c == '[') {
            if (depth-- == 0)
                break;
        } else if (c == ',' && depth == 0) {
            index++;
        } else if ((c == ';' || c == '{' || c == '}') && depth == 0) {
            return false;
        }
    }
    if (mask[i] != '(')
        return false;
    size_t e = previous_at(mask, i) + 1, b = e;
    while (b > 0 && is_ident_char(mask[b - 1]))
        b--;
    return b < e && is_ident_start(mask[b]) &&
           (builtin_output(mask + b, e - b, index) || helper_output(mask, mask + b, e - b, index));
}

size_t kernel_array_write(const char *mask, const kernel_signature *sig, int *param)
{
    for (size_t i = sig->body_begin; i < sig->body_end; i++) {
        if (!is_ident_start(mask[i]) || is_ident_char(mask[i - 1]))
            continue;
        size_t e = i;
        while (is_ident_char(mask[e]))
            e++;
        size_t open = skip_blanks(mask, e, sig->body_end), dot = previous_at(mask, i);
        int p = array_param(sig, mask + i, e - i);
        if (p >= 0 && mask[open] == '[' && (dot == (size_t)-1 || mask[dot] != '.')) {
            size_t after = access_end(mask, open, sig->body_end);
            if (after_prefix_update(mask, i) || starts_write(mask, after, sig->body_end) ||
                passed_as_output(mask, sig, i, after)) {
                *param = p;
                return i;
            }
        }
        i = e - 1;
    }
    return (size_t)-1;
}
