/* kernel_map_wrap.c - see kernel_map_wrap.h: wrapping every call of a kernel map's helpers in the
 * source, a text rewrite that needs no context (tests/fuzz/fuzz_glsl.c runs it without GL). */
#include "kernel/source/kernel_map_wrap.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

/* The `)` that closes the `(` at open, or (size_t)-1. */
static size_t closing_paren(const char *mask, size_t open)
{
    int depth = 0;
    for (size_t i = open; mask[i]; i++)
        if (mask[i] == '(')
            depth++;
        else if (mask[i] == ')' && --depth == 0)
            return i;
    return (size_t)-1;
}

/* Wraps the calls of one function; src is consumed (freed) on every path. */
static char *wrap_calls(char *src, const char *function, int index)
{
    char *mask = source_mask(src);
    if (!mask) {
        free(src);
        return NULL;
    }
    strbuf out = {0};
    size_t copied = 0, open;
    for (size_t at = 0; (at = source_next_call(mask, function, at, &open)) != (size_t)-1; at = open) {
        size_t close = closing_paren(mask, open);
        if (close == (size_t)-1)
            break; /* unbalanced: the compiler will say where */
        strbuf_append(&out, src + copied, at - copied);
        strbuf_printf(&out, "gpuc_keep_%d(", index);
        /* A call inside the arguments runs first and is overwritten by this one: it needs no wrapper. */
        strbuf_append(&out, src + at, close + 1 - at);
        strbuf_puts(&out, ")");
        copied = close + 1;
        open = close;
    }
    strbuf_puts(&out, src + copied);
    free(mask);
    free(src);
    return strbuf_take(&out);
}

char *kernel_map_wrap(const char *src, const codegen_map *maps, int nmaps)
{
    char *text = strdup(src);
    for (int i = 0; text && i < nmaps; i++)
        text = wrap_calls(text, maps[i].function, i);
    return text;
}
