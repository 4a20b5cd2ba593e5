/* kernel_rewrite.c - see kernel_rewrite.h. */
#include "kernel/source/kernel_rewrite.h"

#include <stdlib.h>
#include <string.h>

/* The rank of the array parameter called name, or 0 when it is none. */
static int array_param_rank(const kernel_signature *sig, const char *name, size_t len)
{
    for (int i = 0; i < sig->nparams; i++)
        if (sig->params[i].rank > 0 && strlen(sig->params[i].name) == len && !strncmp(sig->params[i].name, name, len))
            return sig->params[i].rank;
    return 0;
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

    /* For each open '[' in the body: how many more indices the array read it belongs to may take
     * after it (a read takes at most the array's rank: `v[y][x][c]` on a 2D vec array is the
     * accessor call `v(y, x)` indexed by c), or -1 when it is plain indexing. */
    int accessor[MAX_BRACKET_DEPTH];
    int depth = 0;
    size_t pending_open = (size_t)-1; /* the '[' right after an array parameter's name */
    int pending_rank = 0;
    for (size_t i = sig->body_begin; i < sig->body_end; i++) {
        char c = mask[i];
        if (is_ident_start(c) && !is_ident_char(mask[i - 1])) {
            size_t e = i;
            while (is_ident_char(mask[e]))
                e++;
            size_t next = skip_spaces(mask, e, sig->body_end);
            int rank = array_param_rank(sig, mask + i, e - i);
            if (mask[next] == '[' && previous_char(mask, i) != '.' && rank) {
                pending_open = next;
                pending_rank = rank;
            }
            i = e - 1;
        } else if (c == '[') {
            bool is_access = i == pending_open;
            if (depth < MAX_BRACKET_DEPTH)
                accessor[depth] = is_access ? pending_rank - 1 : -1;
            depth++;
            if (is_access)
                out[i] = '(';
        } else if (c == ']' && depth > 0) {
            depth--;
            if (depth >= MAX_BRACKET_DEPTH || accessor[depth] < 0)
                continue;
            size_t next = skip_spaces(mask, i + 1, sig->body_end);
            if (mask[next] == '[' && accessor[depth] > 0) { /* a[y][x]: the next index belongs to the same read */
                out[i] = ',';
                out[next] = ' ';
                accessor[depth]--;
                depth++;
                i = next;
            } else {
                out[i] = ')';
            }
        }
    }
    return out;
}
