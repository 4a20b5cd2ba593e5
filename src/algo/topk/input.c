/* input.c - what every top-k driver does first: build its kernels from glsl/topk.glsl, and turn
 * the caller's `values` argument into one device array (host data is uploaded once per call, not once
 * per pass as a host argument to gpuc_run would be; gpuc_topk uploads only where a kernel reads it). */
#include "algo/topk/parts.h"
#include "kernel/codegen/glsl_template.h"

#include <stdlib.h>
#include <string.h>

static gpuc_status make_kernel(gpuc *gpu, const char *file, const char *section, gpuc_dims output,
                               const gpuc_constant *constants, int nconstants, bool pipeline, bool dynamic,
                               gpuc_kernel **out)
{
    strbuf sb = {0};
    bool ok = glsl_emit(&sb, gpuc_glsl_topk, "key", NULL) && glsl_emit(&sb, file, section, NULL);
    char *source = strbuf_take(&sb);
    if (!ok || !source) {
        free(source);
        return gpuc_fail(gpu, ok ? GPUC_ERROR_OUT_OF_MEMORY : GPUC_ERROR_INVALID_ARGUMENT,
                         "top-k: kernel section '%s' of glsl/topk*.glsl could not be built (a bug in gpuc)", section);
    }
    gpuc_kernel_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.output = output;
    desc.pipeline = pipeline;
    desc.dynamic_output = dynamic;
    for (int i = 0; i < nconstants && i < GPUC_MAX_CONSTANTS; i++)
        desc.constants[i] = constants[i];
    gpuc_status st = algo_kernel_get(gpu, source, &desc, out);
    free(source);
    return st;
}

gpuc_status topk_make_kernel(gpuc *gpu, const char *file, const char *section, gpuc_dims output,
                             const gpuc_constant *constants, int nconstants, bool pipeline, gpuc_kernel **out)
{
    return make_kernel(gpu, file, section, output, constants, nconstants, pipeline, false, out);
}

gpuc_status topk_make_sized_kernel(gpuc *gpu, const char *file, const char *section, const gpuc_constant *constants,
                                   int nconstants, gpuc_kernel **out)
{
    return make_kernel(gpu, file, section, (gpuc_dims){1, 0, 0}, constants, nconstants, true, true, out);
}

static gpuc_status check_size(gpuc *gpu, const char *who, size_t n)
{
    int64_t texels = gpuc_get_info(gpu)->max_texture_buffer_size;
    if (texels > 0 && (n + 3) / 4 > (size_t)texels)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                         "%s: %zu values exceed the device's largest array (%lld floats, GL_MAX_TEXTURE_BUFFER_SIZE "
                         "%lld texels of 4)",
                         who, n, (long long)texels * 4, (long long)texels);
    return GPUC_OK;
}

static gpuc_status device_input(gpuc *gpu, const char *who, const gpuc_array *handle, topk_input *in)
{
    if (!handle)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "%s: values is a NULL device array", who);
    gpuc_array *a;
    gpuc_status st = gpuc_array_open(handle, who, &a);
    if (st != GPUC_OK)
        return st;
    if (a->gpu != gpu)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "%s: values belongs to another gpuc context", who);
    if (a->type != GPUC_FLOAT || gpuc_dims_rank(a->dims) != 1)
        return gpuc_fail(gpu, GPUC_ERROR_TYPE_MISMATCH, "%s: values must be a 1D float array, got a %dD %s array",
                         who, gpuc_dims_rank(a->dims), gpuc_type_name(a->type));
    in->array = a;
    in->owned = false;
    in->n = a->cells;
    return GPUC_OK;
}

static gpuc_status host_input(gpuc *gpu, const char *who, const gpuc_arg *values, topk_input *in)
{
    if (!values->host)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "%s: values' host data is NULL", who);
    if (values->dims.y != 0 || values->dims.z != 0)
        return gpuc_fail(gpu, GPUC_ERROR_TYPE_MISMATCH, "%s: values must be 1D ({n}), got {%u, %u, %u}", who,
                         values->dims.x, values->dims.y, values->dims.z);
    if (values->dims.x == 0)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "%s: values is empty (n = 0)", who);
    gpuc_status st = check_size(gpu, who, values->dims.x);
    if (st == GPUC_OK) {
        in->n = values->dims.x;
        in->host = values->host;
    }
    return st;
}

gpuc_status topk_input_upload(gpuc *gpu, topk_input *in)
{
    if (in->array)
        return GPUC_OK;
    gpuc_status st = gpuc_array_make(gpu, GPUC_FLOAT, (gpuc_dims){(uint32_t)in->n, 0, 0}, true, &in->array);
    if (st == GPUC_OK) {
        in->owned = true;
        st = gpuc_array_upload(in->array, in->host);
    }
    if (st != GPUC_OK && in->array) {
        gpuc_array_destroy(in->array);
        in->array = NULL;
        in->owned = false;
    }
    return st;
}

gpuc_status topk_input_get(gpuc *gpu, const char *who, gpuc_arg values, topk_input *in)
{
    gpuc_status st = topk_input_check(gpu, who, values, in);
    if (st == GPUC_OK && (st = topk_input_upload(gpu, in)) != GPUC_OK)
        topk_input_release(in);
    return st;
}

gpuc_status topk_input_check(gpuc *gpu, const char *who, gpuc_arg values, topk_input *in)
{
    memset(in, 0, sizeof *in);
    gpuc_status st;
    switch (values.kind) {
    case GPUC_ARG_ARRAY: st = device_input(gpu, who, values.array, in); break;
    case GPUC_ARG_HOST_F32: st = host_input(gpu, who, &values, in); break;
    default:
        return gpuc_fail(gpu, GPUC_ERROR_TYPE_MISMATCH,
                         "%s: values must be float data: gpuc_arg_array of a float array or gpuc_arg_host_f32", who);
    }
    if (st == GPUC_OK && in->n > INT32_MAX) { /* the kernels index values with ints */
        size_t n = in->n;
        topk_input_release(in);
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT, "%s: %zu values exceed the 2^31 - 1 an index can address", who, n);
    }
    return st;
}

void topk_input_release(topk_input *in)
{
    if (in->owned && in->array)
        gpuc_array_destroy(in->array);
    memset(in, 0, sizeof *in);
}
