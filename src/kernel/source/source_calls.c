/* source_calls.c - finding a function's definition and its calls in a masked kernel source (for kernel
 * maps, which wrap every call of a named function, and graphical kernels, which must call color()). */
#include "kernel/source/source_scan.h"

#include <string.h>

/* The offset of the next whole-word `name` followed by `(` at or after from, or (size_t)-1. */
static size_t next_name(const char *mask, const char *name, size_t from, size_t *open)
{
    size_t n = strlen(name);
    for (const char *p = mask + from; (p = strstr(p, name)) != NULL; p++) {
        if ((p > mask && is_ident_char(p[-1])) || is_ident_char(p[n]))
            continue;
        const char *q = p + n;
        while (text_is_space(*q))
            q++;
        if (*q != '(')
            continue;
        *open = (size_t)(q - mask);
        return (size_t)(p - mask);
    }
    return (size_t)-1;
}

/* The identifier that ends right before pos (spaces skipped) into word; false when none. */
static bool word_before(const char *mask, size_t pos, char *word, size_t len)
{
    size_t e = pos;
    while (e > 0 && text_is_space(mask[e - 1]))
        e--;
    size_t b = e;
    while (b > 0 && is_ident_char(mask[b - 1]))
        b--;
    if (b == e || !is_ident_start(mask[b]) || e - b >= len)
        return false;
    memcpy(word, mask + b, e - b);
    word[e - b] = '\0';
    return true;
}

/* A definition or prototype: a type name (any identifier but `return`) stands before the name. */
static bool is_declaration(const char *mask, size_t at, char *type, size_t len)
{
    return word_before(mask, at, type, len) && strcmp(type, "return") != 0;
}

size_t source_next_call(const char *mask, const char *name, size_t from, size_t *open)
{
    char type[KERNEL_NAME_MAX];
    for (size_t at; (at = next_name(mask, name, from, open)) != (size_t)-1; from = at + 1)
        if (!is_declaration(mask, at, type, sizeof type))
            return at;
    return (size_t)-1;
}

bool source_calls(const char *mask, const char *name)
{
    size_t open;
    return source_next_call(mask, name, 0, &open) != (size_t)-1;
}

static gpuc_type type_named(const char *t)
{
    static const struct { const char *name; gpuc_type type; } types[] = {
        {"float", GPUC_FLOAT}, {"int", GPUC_INT}, {"vec2", GPUC_VEC2}, {"vec3", GPUC_VEC3}, {"vec4", GPUC_VEC4}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(t, types[i].name))
            return types[i].type;
    return GPUC_TYPE_NONE;
}

bool source_find_function(const char *mask, const char *name, gpuc_type *type)
{
    char word[KERNEL_NAME_MAX];
    size_t open;
    for (size_t at = 0; (at = next_name(mask, name, at, &open)) != (size_t)-1; at++) {
        if (!is_declaration(mask, at, word, sizeof word))
            continue;
        int depth = 0; /* a definition: its `)` is followed by `{` */
        size_t i = open;
        for (; mask[i]; i++)
            if (mask[i] == '(')
                depth++;
            else if (mask[i] == ')' && --depth == 0)
                break;
        if (!mask[i])
            return false;
        for (i++; text_is_space(mask[i]); i++)
            ;
        if (mask[i] != '{')
            continue;
        *type = type_named(word);
        return *type != GPUC_TYPE_NONE;
    }
    return false;
}

bool source_mentions(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; (p = strstr(p, name)) != NULL; p++)
        if (!(p > text && is_ident_char(p[-1])) && !is_ident_char(p[n]))
            return true;
    return false;
}
