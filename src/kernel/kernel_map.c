/* kernel_map.c - see kernel_map.h. */
#include "kernel/kernel_map.h"
#include "kernel/kernel.h"
#include "util/strbuf.h"

#include <stdio.h>
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

gpuc_status kernel_map_resolve(gpuc_kernel *k, const char *mask, const gpuc_kernel_desc *desc)
{
    gpuc *gpu = k->gpu;
    int n = 0;
    for (; n < GPUC_MAX_MAP_OUTPUTS && desc->map[n].name; n++) {
        const gpuc_map_output *m = &desc->map[n];
        if (!kernel_valid_identifier(m->name) || !strcmp(m->name, "result"))
            return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                             "kernel '%s': map output %d name \"%s\" is not usable (a GLSL identifier other than "
                             "\"result\", the kernel's own result)", k->name, n, m->name);
        for (int j = 0; j < n; j++)
            if (!strcmp(k->map_names[j], m->name))
                return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                                 "kernel '%s': map output name \"%s\" is given twice; each output needs its own "
                                 "name", k->name, m->name);
        gpuc_type type;
        if (!m->function || !strcmp(m->function, k->sig.name) || !source_find_function(mask, m->function, &type))
            return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                             "kernel '%s': map output \"%s\" keeps function `%s`, which is not a helper defined in "
                             "the source returning float, int or vecN", k->name, m->name,
                             m->function ? m->function : "(NULL)");
        snprintf(k->map_names[n], sizeof k->map_names[n], "%s", m->name);
        snprintf(k->maps[n].function, sizeof k->maps[n].function, "%s", m->function);
        k->maps[n].type = type;
    }
    if (n && k->scatter)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "kernel '%s': a scatter kernel cannot have map outputs",
                         k->name);
    k->nmaps = n;
    return GPUC_OK;
}
