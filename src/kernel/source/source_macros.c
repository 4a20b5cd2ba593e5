/* source_macros.c - how much of a kernel's preprocessing gpuc's readers follow (source_scan.h):
 * continued lines joined as the compiler joins them, and where a source stops being what the
 * compiler will see - a macro that is not a plain number used in the code, a conditional other
 * than #if 0 / #if 1, a backslash left in the code. */
#include "kernel/source/source_scan.h"

#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

char *source_join_lines(const char *src)
{
    size_t n = strlen(src), o = 0;
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    int pending = 0; /* line breaks removed from the logical line being copied */
    for (size_t i = 0; i < n;) {
        if (src[i] == '\\' && (src[i + 1] == '\n' || src[i + 1] == '\r')) {
            i += src[i + 1] == '\r' && src[i + 2] == '\n' ? 3 : 2;
            pending++;
            continue;
        }
        /* A carriage return alone ends a line for the compiler (a // comment, a directive) as \n does. */
        char c = src[i] == '\r' && src[i + 1] != '\n' ? '\n' : src[i];
        out[o++] = c;
        i++;
        if (c == '\n')
            for (; pending; pending--)
                out[o++] = '\n';
    }
    for (; pending; pending--)
        out[o++] = '\n';
    out[o] = '\0';
    return out;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Whether a macro's replacement r[0, len) is a plain number: numeric literals, + - * / % and
 * parentheses, beginning with a digit, `.` or `(` and ending with a literal or `)`, no two signs
 * side by side (so that nothing next to it can make `++`, `--` or an assignment of it). */
static bool plain_number(const char *r, size_t len)
{
    while (len && text_is_blank(r[len - 1]))
        len--;
    if (!len || !(is_digit(r[0]) || r[0] == '.' || r[0] == '(') ||
        !(is_ident_char(r[len - 1]) || r[len - 1] == '.' || r[len - 1] == ')'))
        return false;
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        char c = r[i];
        if (is_digit(c) || (c == '.' && i + 1 < len && is_digit(r[i + 1]))) {
            for (i++; i < len && (is_ident_char(r[i]) || r[i] == '.' ||
                                  ((r[i] == '+' || r[i] == '-') && (r[i - 1] == 'e' || r[i - 1] == 'E')));
                 i++)
                ;
            i--;
        } else if (c == '(') {
            depth++;
        } else if (c == ')') {
            if (--depth < 0)
                return false;
        } else if (c == '+' || c == '-' || c == '*' || c == '/' || c == '%') {
            if (i + 1 < len && (r[i + 1] == '+' || r[i + 1] == '-' || r[i + 1] == '='))
                return false;
        } else if (!text_is_blank(c)) {
            return false;
        }
    }
    return depth == 0;
}

/* The names of the macros that are not plain numbers: offsets and lengths in the source. */
typedef struct names {
    size_t *at, *len;
    int n, cap;
} names;

static bool add_name(names *nm, size_t at, size_t len)
{
    if (nm->n == nm->cap) {
        int cap = nm->cap ? 2 * nm->cap : 16;
        size_t *a = realloc(nm->at, (size_t)cap * sizeof *a);
        if (a)
            nm->at = a;
        size_t *l = a ? realloc(nm->len, (size_t)cap * sizeof *l) : NULL;
        if (!l)
            return false;
        nm->len = l;
        nm->cap = cap;
    }
    nm->at[nm->n] = at;
    nm->len[nm->n++] = len;
    return true;
}

/* Reads the directive at offset i of the comment-free text m (its line ends at end): NONE when the
 * reader follows it, else its offset. Macros that are not plain numbers go into nm. */
static size_t directive(const char *m, size_t i, size_t end, names *nm)
{
    size_t p = i + 1;
    while (p < end && text_is_blank(m[p]))
        p++;
    size_t name = p;
    while (p < end && is_ident_char(m[p]))
        p++;
    size_t len = p - name;
    while (p < end && text_is_blank(m[p]))
        p++;
    const char *arg = m + p;
    size_t alen = end - p;
    while (alen && text_is_blank(arg[alen - 1]))
        alen--;
    if ((len == 5 && !strncmp(m + name, "ifdef", 5)) || (len == 6 && !strncmp(m + name, "ifndef", 6)))
        return i;
    if ((len == 2 && !strncmp(m + name, "if", 2)) || (len == 4 && !strncmp(m + name, "elif", 4)))
        return alen == 1 && (arg[0] == '0' || arg[0] == '1') ? NONE : i;
    if (len != 6 || strncmp(m + name, "define", 6))
        return NONE;
    size_t macro = p;
    while (p < end && is_ident_char(m[p]))
        p++;
    if (p == macro)
        return i; /* not a macro the reader can name */
    bool function_like = p < end && m[p] == '(';
    size_t body = p;
    while (body < end && text_is_blank(m[body]))
        body++;
    if (function_like || !plain_number(m + body, end - body))
        return add_name(nm, macro, p - macro) ? NONE : i;
    return NONE;
}

size_t source_unfollowed(const char *src, const char *mask)
{
    char *m = source_mask_comments(src);
    if (!m)
        return 0; /* out of memory: nothing is followed */
    names nm = {0};
    size_t found = NONE;
    bool line_start = true;
    for (size_t i = 0; m[i] && found == NONE; i++) {
        if (m[i] == '\\')
            found = i; /* a continuation not joined (source_join_lines), or no GLSL at all */
        else if (line_start && m[i] == '#') {
            size_t end = i;
            while (m[end] && m[end] != '\n' && m[end] != '\\')
                end++;
            found = directive(m, i, end, &nm);
            i = end - 1;
        } else if (m[i] == '\n') {
            line_start = true;
        } else if (!text_is_blank(m[i])) {
            line_start = false;
        }
    }
    /* Uses in the code (the mask: directives, comments and dropped branches blank) of what is not a
     * plain number. */
    for (size_t i = 0; mask[i] && found == NONE && nm.n; i++) {
        if (!is_ident_start(mask[i]) || (i > 0 && is_ident_char(mask[i - 1])))
            continue;
        size_t len = 1;
        while (is_ident_char(mask[i + len]))
            len++;
        for (int k = 0; k < nm.n && found == NONE; k++)
            if (nm.len[k] == len && !strncmp(m + nm.at[k], mask + i, len))
                found = i;
        i += len - 1;
    }
    free(nm.at);
    free(nm.len);
    free(m);
    return found;
}
