/* constant_reads.c - see constant_reads.h. */
#include "kernel/source/constant_reads.h"
#include "kernel/source/source_scan.h"

#include <string.h>

static size_t skip_spaces(const char *mask, size_t i)
{
    while (mask[i] == ' ' || mask[i] == '\t' || mask[i] == '\n' || mask[i] == '\r')
        i++;
    return i;
}

/* The `]` matching the `[` at open, or (size_t)-1. */
static size_t matching_bracket(const char *mask, size_t open)
{
    int depth = 0;
    for (size_t i = open; mask[i]; i++) {
        depth += mask[i] == '[' ? 1 : mask[i] == ']' ? -1 : 0;
        if (depth == 0)
            return i;
    }
    return (size_t)-1;
}

/* The array constant named mask[b, e), or -1. */
static int array_constant(const resolved_constant *c, int n, const char *name, size_t len)
{
    for (int i = 0; i < n; i++)
        if (c[i].count && strlen(c[i].name) == len && !strncmp(c[i].name, name, len))
            return i;
    return -1;
}

/* Rewrites one read whose `constants` word starts at `at` and whose name spans [name, name_end). */
static bool rewrite_read(char *text, const char *mask, size_t at, size_t name, size_t name_end, int rank)
{
    size_t open = skip_spaces(mask, name_end);
    int indices = 0;
    size_t close = (size_t)-1;
    while (mask[open] == '[' && indices < rank) {
        close = matching_bracket(mask, open);
        if (close == (size_t)-1)
            return false;
        indices++;
        if (text)
            text[open] = indices == 1 ? '(' : ' ';
        size_t next = skip_spaces(mask, close + 1);
        if (text)
            text[close] = mask[next] == '[' && indices < rank ? ',' : ')';
        open = next;
    }
    if (indices != rank || mask[open] == '[')
        return false;
    if (text) { /* "constants . NAME" -> "   gpuc_cnstvNAME": the prefix ends right before the name */
        static const char prefix[] = "gpuc_cnstv";
        size_t plen = sizeof prefix - 1;
        memset(text + at, ' ', name - at);
        memcpy(text + name - plen, prefix, plen);
    }
    return true;
}

/* Every read is checked before any is rewritten, so a refused text is left as it was. */
static size_t rewrite_all(char *text, const char *mask, const resolved_constant *c, int n, int *bad);

size_t constant_reads_rewrite(char *text, const char *mask, const resolved_constant *c, int n, int *bad)
{
    size_t at = rewrite_all(NULL, mask, c, n, bad);
    if (at == (size_t)-1 && text)
        rewrite_all(text, mask, c, n, bad);
    return at;
}

static size_t rewrite_all(char *text, const char *mask, const resolved_constant *c, int n, int *bad)
{
    static const char word[] = "constants";
    size_t wlen = sizeof word - 1;
    for (const char *p = strstr(mask, word); p; p = strstr(p + wlen, word)) {
        size_t at = (size_t)(p - mask);
        if ((at > 0 && (is_ident_char(mask[at - 1]) || mask[at - 1] == '.')) || is_ident_char(p[wlen]))
            continue;
        size_t dot = skip_spaces(mask, at + wlen);
        if (mask[dot] != '.')
            continue;
        size_t name = skip_spaces(mask, dot + 1), name_end = name;
        while (is_ident_char(mask[name_end]))
            name_end++;
        int which = array_constant(c, n, mask + name, name_end - name);
        if (which < 0)
            continue;
        /* "constants." is the prefix's length at the least, so the rewrite fits in place. */
        if (!rewrite_read(text, mask, at, name, name_end, c[which].dims.z ? 3 : c[which].dims.y ? 2 : 1)) {
            *bad = which;
            return at;
        }
    }
    return (size_t)-1;
}
