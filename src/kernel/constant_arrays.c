/* constant_arrays.c - see constant_arrays.h. */
#include "kernel/constant_arrays.h"
#include "kernel/kernel.h"
#include "kernel/glsl_template.h"
#include "kernel/source_scan.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool constant_is_special(const gpuc_constant *c)
{
    return c->type == GPUC_BOOL || c->values || c->dims.x || c->dims.y || c->dims.z;
}

static gpuc_status resolve_bool(gpuc *gpu, const char *kname, const gpuc_constant *c, resolved_constant *r)
{
    if (c->values || c->dims.x || c->dims.y || c->dims.z)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "kernel '%s': constant \"%s\" is a Boolean (GPUC_BOOL) but has values or dims; Boolean "
                         "arrays are not supported (give 0/1 floats)", kname, c->name);
    if (c->value != 0.0 && c->value != 1.0)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "kernel '%s': Boolean constant \"%s\" has value %g; use 0 (false) or 1 (true)", kname,
                         c->name, c->value);
    r->type = GPUC_BOOL;
    r->value = c->value;
    return GPUC_OK;
}

static gpuc_status resolve_array(gpuc *gpu, const char *kname, const gpuc_constant *c, resolved_constant *r,
                                 int *arrays)
{
    if (c->type != GPUC_TYPE_NONE && c->type != GPUC_FLOAT)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "kernel '%s': array constant \"%s\" has type %s; array constants are float (give an int "
                         "array's values as floats, as GPU.js reads them)", kname, c->name, c->type == GPUC_BOOL ? "bool" : c->type == GPUC_INT ? "int" : "vecN");
    if (!c->values)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "kernel '%s': array constant \"%s\" has dims {%u, %u, %u} but its values are NULL", kname,
                         c->name, c->dims.x, c->dims.y, c->dims.z);
    char what[KERNEL_NAME_MAX * 2 + 48];
    snprintf(what, sizeof what, "kernel '%s': array constant \"%s\"", kname, c->name);
    size_t count;
    int rank;
    gpuc_status st = gpuc_dims_check(gpu, c->dims, what, &count, &rank);
    if (st != GPUC_OK)
        return st;
    GLint block = 0;
    glGetIntegerv(GL_MAX_UNIFORM_BLOCK_SIZE, &block);
    size_t most = (size_t)block / 4 < GPUC_MAX_CONSTANT_VALUES ? (size_t)block / 4 : GPUC_MAX_CONSTANT_VALUES;
    if (count > most)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                         "%s holds %zu values; an array constant holds at most %zu here (GPUC_MAX_CONSTANT_VALUES = "
                         "%d, GL_MAX_UNIFORM_BLOCK_SIZE = %d bytes): pass it as an argument instead", what, count,
                         most, GPUC_MAX_CONSTANT_VALUES, (int)block);
    if (*arrays == GPUC_MAX_ARRAY_CONSTANTS)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                         "%s: a kernel has at most %d array constants (GPUC_MAX_ARRAY_CONSTANTS): pass the others as "
                         "arguments", what, GPUC_MAX_ARRAY_CONSTANTS);
    for (size_t i = 0; i < count; i++)
        if (!isfinite(c->values[i]))
            return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "%s: value %zu is %g; constants must be finite", what,
                             i, (double)c->values[i]);
    r->binding = (*arrays)++;
    r->type = GPUC_FLOAT;
    r->values = c->values;
    r->dims = c->dims;
    r->count = count;
    return GPUC_OK;
}

gpuc_status constant_resolve_special(gpuc *gpu, const char *kname, int index, const gpuc_constant *c,
                                     resolved_constant *out, int *arrays)
{
    resolved_constant *r = &out[index];
    *r = (resolved_constant){0};
    snprintf(r->name, sizeof r->name, "%s", c->name);
    return c->type == GPUC_BOOL ? resolve_bool(gpu, kname, c, r) : resolve_array(gpu, kname, c, r, arrays);
}

static bool emit_array(strbuf *sb, const resolved_constant *c)
{
    char count[24], vec4s[24], w[16], h[16], shape[48], binding[16];
    snprintf(count, sizeof count, "%zu", c->count);
    snprintf(vec4s, sizeof vec4s, "%zu", (c->count + 3) / 4);
    snprintf(w, sizeof w, "%u", c->dims.x);
    snprintf(h, sizeof h, "%u", c->dims.y ? c->dims.y : 1);
    snprintf(binding, sizeof binding, "%d", c->binding);
    int rank = gpuc_dims_rank(c->dims);
    if (rank == 1)
        snprintf(shape, sizeof shape, "%u", c->dims.x);
    else if (rank == 2)
        snprintf(shape, sizeof shape, "%u x %u", c->dims.x, c->dims.y);
    else
        snprintf(shape, sizeof shape, "%u x %u x %u", c->dims.x, c->dims.y, c->dims.z);
    const char *fields[] = {"NAME", c->name, "COUNT", count, "VEC4S", vec4s, "W", w, "H", h, "SHAPE", shape,
                            "BINDING", binding, NULL};
    bool ok = glsl_emit(sb, gpuc_glsl_kernel_prelude, "constant_array", fields);
    if (rank >= 2)
        ok = ok && glsl_emit(sb, gpuc_glsl_kernel_prelude, rank == 2 ? "constant_read2" : "constant_read3", fields);
    return ok;
}

gpuc_status constant_arrays_upload(gpuc_kernel *k, const resolved_constant *c, int n)
{
    for (int i = 0; i < n; i++) {
        if (!c[i].count)
            continue;
        size_t bytes = (c[i].count + 3) / 4 * 16; /* std140: vec4s */
        float *padded = calloc(1, bytes);
        if (!padded)
            return gpuc_fail(k->gpu, GPUC_ERROR_OUT_OF_MEMORY, "kernel '%s': out of host memory for constant \"%s\"",
                             k->name, c[i].name);
        memcpy(padded, c[i].values, c[i].count * sizeof(float));
        GLuint *b = &k->constant_buffers[c[i].binding];
        glGenBuffers(1, b);
        glBindBuffer(GL_UNIFORM_BUFFER, *b);
        glBufferData(GL_UNIFORM_BUFFER, (GLsizeiptr)bytes, padded, GL_STATIC_DRAW);
        free(padded);
        k->nconstant_buffers = c[i].binding + 1;
        k->gpu->stats.uploads++;
        k->gpu->stats.bytes_uploaded += bytes;
    }
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
    return gpuc_check_gl(k->gpu, k->name);
}

void constant_arrays_bind(const gpuc_kernel *k)
{
    for (int i = 0; i < k->nconstant_buffers; i++)
        glBindBufferBase(GL_UNIFORM_BUFFER, (GLuint)i, k->constant_buffers[i]);
}

void constant_arrays_free(gpuc_kernel *k, bool gl)
{
    if (gl && k->nconstant_buffers)
        glDeleteBuffers(k->nconstant_buffers, k->constant_buffers);
    k->nconstant_buffers = 0;
}

bool constant_arrays_emit(strbuf *sb, const resolved_constant *c, int n)
{
    bool ok = true;
    for (int i = 0; ok && i < n; i++)
        if (c[i].count)
            ok = emit_array(sb, &c[i]);
    return ok;
}

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

size_t constant_arrays_rewrite(char *text, const char *mask, const resolved_constant *c, int n, int *bad)
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
        if (!rewrite_read(text, mask, at, name, name_end, gpuc_dims_rank(c[which].dims))) {
            *bad = which;
            return at;
        }
    }
    return (size_t)-1;
}
