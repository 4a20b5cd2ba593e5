/* algo_common.c - see algo_common.h. */
#include "algo/algo_common.h"
#include "kernel/codegen/glsl_template.h"

#include <stdlib.h>

static gpuc_status check_array_arg(gpuc *gpu, const char *fn, const char *what, const gpuc_array *handle,
                                   algo_input *in)
{
    if (!handle)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "%s: %s is a NULL array", fn, what);
    gpuc_array *a;
    gpuc_status st = gpuc_array_open(handle, fn, &a);
    if (st != GPUC_OK)
        return st;
    if (a->gpu != gpu)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "%s: %s belongs to another gpuc context", fn, what);
    if (a->type != GPUC_FLOAT && a->type != GPUC_INT)
        return gpuc_fail(gpu, GPUC_ERROR_TYPE_MISMATCH, "%s: %s is a %s array; it must hold float or int values", fn,
                         what, gpuc_type_name(a->type));
    if (gpuc_dims_rank(a->dims) != 1)
        return gpuc_fail(gpu, GPUC_ERROR_TYPE_MISMATCH, "%s: %s is a %dD array; it must be 1D", fn, what,
                         gpuc_dims_rank(a->dims));
    in->type = a->type;
    in->n = a->dims.x;
    return GPUC_OK;
}

static gpuc_status check_host_arg(gpuc *gpu, const char *fn, const char *what, gpuc_arg arg, algo_input *in)
{
    if (!arg.host)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "%s: %s: host data is NULL", fn, what);
    if (arg.dims.y || arg.dims.z)
        return gpuc_fail(gpu, GPUC_ERROR_TYPE_MISMATCH, "%s: %s has size {%u, %u, %u}; it must be 1D ({n})", fn, what,
                         arg.dims.x, arg.dims.y, arg.dims.z);
    if (arg.dims.x == 0)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "%s: %s is empty (n = 0)", fn, what);
    in->type = arg.kind == GPUC_ARG_HOST_F32 ? GPUC_FLOAT : GPUC_INT;
    in->n = arg.dims.x;
    return GPUC_OK;
}

gpuc_status algo_check_input(gpuc *gpu, const char *fn, const char *what, gpuc_arg arg, algo_input *in)
{
    gpuc_status st;
    if (arg.kind == GPUC_ARG_ARRAY)
        st = check_array_arg(gpu, fn, what, arg.array, in);
    else if (arg.kind == GPUC_ARG_HOST_F32 || arg.kind == GPUC_ARG_HOST_I32)
        st = check_host_arg(gpu, fn, what, arg, in);
    else
        st = gpuc_fail(gpu, GPUC_ERROR_TYPE_MISMATCH,
                       "%s: %s must be an array (gpuc_arg_array, gpuc_arg_host_f32 or gpuc_arg_host_i32), not a "
                       "scalar, a vector or an empty argument", fn, what);
    if (st != GPUC_OK)
        return st;
    if (in->n > ALGO_MAX_ELEMENTS)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT, "%s: %s has %u elements; the limit is %u (2^30)", fn, what, in->n,
                         ALGO_MAX_ELEMENTS);
    int64_t texels = ((int64_t)in->n + 3) / 4, max = gpu->info.max_texture_buffer_size;
    if (max > 0 && texels > max)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                         "%s: %s has %u elements; the device reads at most %lld (GL_MAX_TEXTURE_BUFFER_SIZE texels "
                         "of 4)", fn, what, in->n, (long long)max * 4);
    return GPUC_OK;
}

gpuc_status algo_source(gpuc *gpu, const char *file, const char *const *sections, const char *const *fields,
                        char **source)
{
    strbuf sb = {0};
    bool ok = true;
    for (int i = 0; ok && sections[i]; i++)
        ok = glsl_emit(&sb, file, sections[i], fields);
    char *text = strbuf_take(&sb);
    if (!ok || !text) {
        free(text);
        return gpuc_fail(gpu, ok ? GPUC_ERROR_OUT_OF_MEMORY : GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc algorithm: cannot build kernel source (section %s)%s", sections[0],
                         ok ? ": out of host memory" : " (a bug in gpuc)");
    }
    *source = text;
    return GPUC_OK;
}

gpuc_status algo_kernel(gpuc *gpu, const char *file, const char *const *sections, const char *const *fields,
                        uint32_t cells, gpuc_kernel **out)
{
    char *source;
    gpuc_status st = algo_source(gpu, file, sections, fields, &source);
    if (st != GPUC_OK)
        return st;
    st = algo_kernel_get(gpu, source, &(gpuc_kernel_desc){.output = {.x = cells}, .pipeline = true}, out);
    free(source);
    return st;
}

gpuc_status algo_device_input(gpuc *gpu, gpuc_arg arg, const gpuc_array **array, gpuc_array **owned)
{
    *owned = NULL;
    if (arg.kind == GPUC_ARG_ARRAY) {
        gpuc_array *a;
        gpuc_status st = gpuc_array_open(arg.array, "gpuc algorithm input", &a);
        *array = a;
        return st;
    }
    gpuc_status st = arg.kind == GPUC_ARG_HOST_F32 ? gpuc_array_from_f32(gpu, arg.host, arg.dims, owned)
                                                   : gpuc_array_from_i32(gpu, arg.host, arg.dims, owned);
    *array = *owned;
    return st;
}

gpuc_status algo_host_result(gpuc *gpu, void *data, gpuc_type type, gpuc_dims dims, gpuc_array **out)
{
    gpuc_array *a = NULL;
    gpuc_status st = gpuc_array_make(gpu, type, dims, ARRAY_HOST_HELD, &a);
    if (st != GPUC_OK) {
        free(data);
        return st;
    }
    a->mirror = data;
    a->mirror_valid = true;
    *out = gpuc_array_handed_out(a);
    return GPUC_OK;
}

const char *algo_glsl_type(gpuc_type type)
{
    return type == GPUC_INT ? "int" : "float";
}
