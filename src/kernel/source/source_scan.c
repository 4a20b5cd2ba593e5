/* source_scan.c - finds the kernel function in GLSL source and parses its signature. */
#include "kernel/source/source_scan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool source_valid_identifier(const char *s)
{
    if (!s || !is_ident_start(s[0]) || strlen(s) >= KERNEL_NAME_MAX)
        return false;
    for (const char *p = s; *p; p++)
        if (!is_ident_char(*p))
            return false;
    return !strstr(s, "__") && strncmp(s, "gl_", 3) != 0 && strncmp(s, "gpuc_", 5) != 0;
}

char *source_mask_comments(const char *src)
{
    size_t n = strlen(src);
    char *m = malloc(n + 1);
    if (!m)
        return NULL;
    memcpy(m, src, n + 1);
    for (size_t i = 0; i < n;) {
        if (m[i] == '/' && m[i + 1] == '/') {
            while (i < n && m[i] != '\n')
                m[i++] = ' ';
        } else if (m[i] == '/' && m[i + 1] == '*') {
            m[i++] = ' ';
            m[i++] = ' ';
            while (i < n && !(src[i] == '*' && src[i + 1] == '/')) {
                if (m[i] != '\n')
                    m[i] = ' ';
                i++;
            }
            for (int k = 0; k < 2 && i < n; k++)
                m[i++] = ' ';
        } else {
            i++;
        }
    }
    return m;
}

char *source_mask(const char *src)
{
    /* Comments go first, as in the compiler: a directive inside a comment is no directive. */
    char *m = source_mask_comments(src);
    if (m) {
        size_t function_at, directive_at;
        source_blank_preprocessor(m, &function_at, &directive_at);
    }
    return m;
}

void source_position(const char *src, size_t pos, int *line, int *column)
{
    int l = 1, c = 1;
    for (size_t i = 0; i < pos && src[i]; i++) {
        if (src[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *column = c;
}

void source_line(const char *src, int line, char *out, size_t outlen)
{
    const char *p = src;
    for (int l = 1; l < line && p; l++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p || !outlen) {
        if (outlen)
            out[0] = '\0';
        return;
    }
    size_t len = strcspn(p, "\n");
    if (len >= outlen)
        len = outlen - 1;
    memcpy(out, p, len);
    out[len] = '\0';
}

/* A message "line L, column C: ..." about offset pos of the mask. */
static bool fail_at(const char *mask, size_t pos, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static bool fail_at(const char *mask, size_t pos, char *err, size_t errlen, const char *fmt, ...)
{
    int line, col;
    source_position(mask, pos, &line, &col);
    int used = snprintf(err, errlen, "line %d, column %d: ", line, col);
    if (used < 0 || (size_t)used >= errlen)
        return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + used, errlen - (size_t)used, fmt, ap);
    va_end(ap);
    return false;
}

/* Reads an identifier starting at *pos (after spaces) into out; advances *pos past it. */
static bool read_ident(const char *s, size_t end, size_t *pos, char *out, size_t outlen)
{
    size_t i = *pos;
    while (i < end && text_is_space(s[i]))
        i++;
    if (i >= end || !is_ident_start(s[i]))
        return false;
    size_t start = i;
    while (i < end && is_ident_char(s[i]))
        i++;
    size_t len = i - start;
    if (len >= outlen)
        len = outlen - 1;
    memcpy(out, s + start, len);
    out[len] = '\0';
    *pos = i;
    return true;
}

/* Offset of the bracket matching the one at open (which is one of "({["), or (size_t)-1. */
static size_t match_bracket(const char *s, size_t open)
{
    char o = s[open];
    char c = o == '(' ? ')' : o == '{' ? '}' : ']';
    int depth = 0;
    for (size_t i = open; s[i]; i++) {
        if (s[i] == o)
            depth++;
        else if (s[i] == c && --depth == 0)
            return i;
    }
    return (size_t)-1;
}

static gpuc_type type_from_name(const char *t)
{
    if (!strcmp(t, "float"))
        return GPUC_FLOAT;
    if (!strcmp(t, "int"))
        return GPUC_INT;
    if (!strcmp(t, "vec2"))
        return GPUC_VEC2;
    if (!strcmp(t, "vec3"))
        return GPUC_VEC3;
    if (!strcmp(t, "vec4"))
        return GPUC_VEC4;
    return GPUC_TYPE_NONE;
}

/* Parses one parameter "[const] [in] type name[[]...]" in mask[begin, end). */
static bool parse_param(const char *mask, size_t begin, size_t end, kernel_param *p, char *err, size_t errlen)
{
    char word[KERNEL_NAME_MAX], type[KERNEL_NAME_MAX];
    size_t pos = begin;
    if (!read_ident(mask, end, &pos, word, sizeof word))
        return fail_at(mask, begin, err, errlen, "expected a parameter such as `float a[]` or `int n`");
    while (!strcmp(word, "const") || !strcmp(word, "in") || !strcmp(word, "highp") || !strcmp(word, "mediump")) {
        if (!read_ident(mask, end, &pos, word, sizeof word))
            return fail_at(mask, pos, err, errlen, "expected a parameter type");
    }
    if (!strcmp(word, "out") || !strcmp(word, "inout"))
        return fail_at(mask, begin, err, errlen, "kernel parameters are inputs: `%s` is not allowed (a kernel "
                                                 "returns its one output cell)", word);
    snprintf(type, sizeof type, "%s", word);
    size_t name_pos = pos;
    if (!read_ident(mask, end, &pos, p->name, sizeof p->name))
        return fail_at(mask, name_pos, err, errlen, "parameter of type %s has no name", type);
    /* `bool flag`: a Boolean uniform (GPU.js's "Boolean" argument); only a parameter has this type. */
    p->type = !strcmp(type, "bool") ? GPUC_BOOL : type_from_name(type);
    p->rank = 0;
    for (;;) {
        while (pos < end && text_is_space(mask[pos]))
            pos++;
        if (pos >= end)
            break;
        if (mask[pos] != '[')
            return fail_at(mask, pos, err, errlen, "unexpected `%c` after parameter `%s`", mask[pos], p->name);
        pos++;
        while (pos < end && text_is_space(mask[pos]))
            pos++;
        if (pos >= end || mask[pos] != ']')
            return fail_at(mask, pos, err, errlen, "array parameter `%s` must be unsized: write `%s %s[]`", p->name,
                           type, p->name);
        pos++;
        p->rank++;
    }
    if (p->type == GPUC_TYPE_NONE)
        return fail_at(mask, begin, err, errlen, "parameter `%s` has type `%s`; kernels take float, int or vecN "
                                                 "arrays and float, int, bool or vecN scalars", p->name, type);
    if (p->type == GPUC_BOOL && p->rank > 0)
        return fail_at(mask, begin, err, errlen, "parameter `%s`: arrays of bool are not supported; pass an int "
                                                 "array (0 and 1) instead", p->name);
    if (p->rank > 3)
        return fail_at(mask, begin, err, errlen, "parameter `%s` has %d dimensions; at most 3 are supported", p->name,
                       p->rank);
    return true;
}

static bool parse_params(const char *mask, kernel_signature *sig, char *err, size_t errlen)
{
    size_t pos = sig->params_begin, end = sig->params_end;
    char word[KERNEL_NAME_MAX];
    size_t probe = pos;
    bool empty = !read_ident(mask, end, &probe, word, sizeof word);
    if (!empty && !strcmp(word, "void")) {
        while (probe < end && text_is_space(mask[probe]))
            probe++;
        empty = probe == end;
    }
    sig->nparams = 0;
    if (empty)
        return true;
    while (pos < end) {
        size_t comma = pos;
        while (comma < end && mask[comma] != ',')
            comma++;
        if (sig->nparams == GPUC_MAX_ARGS)
            return fail_at(mask, pos, err, errlen, "more than %d parameters (GPUC_MAX_ARGS)", GPUC_MAX_ARGS);
        kernel_param *p = &sig->params[sig->nparams];
        if (!parse_param(mask, pos, comma, p, err, errlen))
            return false;
        for (int i = 0; i < sig->nparams; i++)
            if (!strcmp(sig->params[i].name, p->name))
                return fail_at(mask, pos, err, errlen, "two parameters are named `%s`", p->name);
        sig->nparams++;
        pos = comma + 1;
    }
    return true;
}

bool source_parse_kernel(const char *mask, kernel_signature *sig, char *err, size_t errlen)
{
    memset(sig, 0, sizeof *sig);
    bool found = false;
    char return_type[KERNEL_NAME_MAX] = "";
    int depth = 0;
    for (size_t i = 0; mask[i]; i++) {
        char c = mask[i];
        if (c == '}' && depth > 0) {
            depth--;
            continue;
        }
        if (c != '{')
            continue;
        if (depth++ > 0)
            continue;
        /* A top-level block: a function if `type name ( ... )` stands before it. */
        size_t j = i;
        while (j > 0 && text_is_space(mask[j - 1]))
            j--;
        if (j == 0 || mask[j - 1] != ')')
            continue;
        size_t close = j - 1;
        int pd = 0;
        size_t open = close;
        /* A parameter list holds no braces or semicolons: stopping at one keeps the whole scan linear
         * (a source of many `){}` would otherwise walk back to the start for each). */
        for (;; open--) {
            if (mask[open] == ')')
                pd++;
            else if (mask[open] == '(' && --pd == 0)
                break;
            if (open == 0 || mask[open - 1] == '{' || mask[open - 1] == '}' || mask[open - 1] == ';')
                break;
        }
        if (mask[open] != '(' || pd != 0)
            continue;
        size_t ne = open;
        while (ne > 0 && text_is_space(mask[ne - 1]))
            ne--;
        size_t nb = ne;
        while (nb > 0 && is_ident_char(mask[nb - 1]))
            nb--;
        size_t te = nb;
        while (te > 0 && text_is_space(mask[te - 1]))
            te--;
        size_t tb = te;
        while (tb > 0 && is_ident_char(mask[tb - 1]))
            tb--;
        if (nb == ne || tb == te || !is_ident_start(mask[nb]) || !is_ident_start(mask[tb]))
            continue;
        size_t body_end = match_bracket(mask, i);
        if (body_end == (size_t)-1)
            return fail_at(mask, i, err, errlen, "this `{` is never closed");
        snprintf(sig->name, sizeof sig->name, "%.*s", (int)(ne - nb), mask + nb);
        snprintf(return_type, sizeof return_type, "%.*s", (int)(te - tb), mask + tb);
        sig->params_begin = open + 1;
        sig->params_end = close;
        sig->body_begin = i;
        sig->body_end = body_end;
        found = true;
        depth = 0;
        i = body_end;
    }
    if (!found && (source_mentions(mask, "function") || strstr(mask, "=>"))) /* GPU.js's source, pasted here */
        return fail_at(mask, strlen(mask), err, errlen,
                       "no kernel function found: this is JavaScript (`function`, `=>`), and a GLSL kernel starts "
                       "with its return type, as in `float k(float a[]) { return a[thread.x]; }`; "
                       "gpuc_create_kernel_js takes GPU.js's JavaScript as written");
    if (!found)
        return fail_at(mask, strlen(mask), err, errlen,
                       "no kernel function found: write one such as `float k(float a[]) { return a[thread.x]; }`");
    sig->return_type = type_from_name(return_type);
    sig->returns_void = !strcmp(return_type, "void"); /* a graphical kernel's; kernel.c decides */
    if (sig->return_type == GPUC_TYPE_NONE && !sig->returns_void) {
        size_t p = sig->params_begin;
        while (p > 0 && mask[p - 1] != '\n')
            p--;
        if (!strcmp(return_type, "function")) /* GPU.js's source given to the GLSL entry point */
            return fail_at(mask, p, err, errlen, "`function` is JavaScript; a GLSL kernel starts with its return "
                           "type, as in `float %s(float a[])`; gpuc_create_kernel_js takes GPU.js's JavaScript as "
                           "written", sig->name);
        return fail_at(mask, p, err, errlen, "kernel `%s` returns `%s`; a kernel returns float, int, vec2, vec3 or vec4",
                       sig->name, return_type);
    }
    if (!strcmp(sig->name, "main"))
        return fail_at(mask, sig->params_begin, err, errlen,
                       "the kernel may not be called `main`: gpuc writes main() around it");
    return parse_params(mask, sig, err, errlen);
}
