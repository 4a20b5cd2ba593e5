/* constant_arrays.c - see constant_arrays.h. */
#include "kernel/constant_arrays.h"
#include "kernel/kernel.h"
#include "kernel/codegen/glsl_template.h"

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
