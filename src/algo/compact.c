/* compact.c - stream compaction (gpuc_compact): flags from a predicate, the inclusive prefix sum of
 * the flags (the running count, src/algo/scan.c), then one output cell per survivor that finds its
 * element by binary search over the running count. Input order is kept. */
#include "algo/scan.h"

#include <math.h>
#include <stdio.h>

static const char *op_glsl(gpuc_compare op)
{
    switch (op) {
    case GPUC_GREATER: return ">";
    case GPUC_GREATER_EQUAL: return ">=";
    case GPUC_LESS: return "<";
    case GPUC_LESS_EQUAL: return "<=";
    case GPUC_EQUAL: return "==";
    case GPUC_NOT_EQUAL: return "!=";
    default: return NULL;
    }
}

static gpuc_status check_desc(gpuc *gpu, const gpuc_compact_desc *desc, gpuc_type type)
{
    if (!desc)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_compact: desc is NULL (set .op and .threshold, or "
                                                          ".predicate)");
    if (desc->method != GPUC_COMPACT_GATHER && desc->method != GPUC_COMPACT_SCATTER)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_compact: method %d is not a gpuc_compact_method",
                         (int)desc->method);
    if (desc->method == GPUC_COMPACT_SCATTER && gpu->info.backend == GPUC_BACKEND_FRAGMENT)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_compact: the scatter method is compute-only (a "
                                                          "fragment shader writes only its own cell); this context "
                                                          "uses the fragment backend: use GPUC_COMPACT_GATHER");
    if (desc->method == GPUC_COMPACT_SCATTER)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_compact: scatter is not supported yet (use "
                                                          "GPUC_COMPACT_GATHER)");
    if (desc->predicate && desc->op != GPUC_COMPARE_NONE)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_compact: set either .op or .predicate, not both");
    if (desc->predicate)
        return GPUC_OK;
    if (!op_glsl(desc->op))
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_compact: op %d is not a comparison (GPUC_GREATER ... GPUC_NOT_EQUAL); give .op and "
                         ".threshold, or a .predicate kernel", (int)desc->op);
    if (type == GPUC_FLOAT)
        return GPUC_OK;
    if (!(desc->threshold == floor(desc->threshold) && fabs(desc->threshold) <= 2147483647.0 &&
          desc->threshold >= -2147483648.0))
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_compact: threshold %g is not a 32-bit integer, as int values need", desc->threshold);
    return GPUC_OK;
}

static gpuc_status compact_kernel(gpuc *gpu, const char *section, gpuc_type type, const char *op, uint32_t cells,
                                  gpuc_kernel **k)
{
    const char *sections[] = {section, NULL};
    const char *fields[] = {"T", algo_glsl_type(type), "OP", op ? op : "", NULL};
    return algo_kernel(gpu, gpuc_glsl_compact, sections, fields, cells, k);
}

/* The user's predicate kernel run over the values, its results turned into 0/1 flags. */
static gpuc_status predicate_flags(gpuc *gpu, const char *source, const gpuc_array *values, gpuc_array *flags)
{
    gpuc_kernel *user = NULL, *nonzero = NULL;
    gpuc_array *keep = NULL;
    gpuc_status st = gpuc_create_kernel(
        gpu, source, &(gpuc_kernel_desc){.output = {.x = (uint32_t)values->cells}, .pipeline = true}, &user);
    if (st == GPUC_OK && gpuc_kernel_arg_count(user) != 1)
        st = gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                       "gpuc_compact: the predicate kernel takes %d arguments; it must take one, the values array",
                       gpuc_kernel_arg_count(user));
    gpuc_type rt = user ? gpuc_kernel_return_type(user) : GPUC_TYPE_NONE;
    if (st == GPUC_OK && rt != GPUC_INT && rt != GPUC_FLOAT)
        st = gpuc_fail(gpu, GPUC_ERROR_TYPE_MISMATCH,
                       "gpuc_compact: the predicate kernel returns %s; it must return int or float (nonzero keeps)",
                       rt == GPUC_VEC2 ? "vec2" : rt == GPUC_VEC3 ? "vec3" : "vec4");
    if (st == GPUC_OK)
        st = gpuc_run(user, (gpuc_arg[]){gpuc_arg_array(values)}, 1, &keep);
    if (st == GPUC_OK)
        st = compact_kernel(gpu, "flags_nonzero", rt, NULL, (uint32_t)values->cells, &nonzero);
    if (st == GPUC_OK)
        st = gpuc_run_to(nonzero, (gpuc_arg[]){gpuc_arg_array(keep)}, 1, flags);
    gpuc_kernel_free(user);
    gpuc_kernel_free(nonzero);
    gpuc_array_free(keep);
    return st;
}

static gpuc_status threshold_flags(gpuc *gpu, const gpuc_compact_desc *desc, const gpuc_array *values,
                                   gpuc_type type, gpuc_array *flags)
{
    gpuc_kernel *k;
    gpuc_status st = compact_kernel(gpu, "flags_threshold", type, op_glsl(desc->op), (uint32_t)values->cells, &k);
    if (st != GPUC_OK)
        return st;
    gpuc_arg t = type == GPUC_INT ? gpuc_arg_i32((int32_t)desc->threshold) : gpuc_arg_f32((float)desc->threshold);
    st = gpuc_run_to(k, (gpuc_arg[]){gpuc_arg_array(values), t}, 2, flags);
    gpuc_kernel_free(k);
    return st;
}

/* The number of survivors: the last running count, read back as one value. */
static gpuc_status read_count(gpuc *gpu, const gpuc_array *running, uint32_t n, uint32_t *count)
{
    gpuc_kernel *k;
    gpuc_array *total = NULL;
    gpuc_status st = compact_kernel(gpu, "count", GPUC_INT, NULL, 1, &k);
    if (st == GPUC_OK)
        st = gpuc_run(k, (gpuc_arg[]){gpuc_arg_array(running), gpuc_arg_i32((int32_t)n)}, 2, &total);
    int32_t c = 0;
    if (st == GPUC_OK)
        st = gpuc_array_read_i32(total, &c, 1);
    gpuc_kernel_free(k);
    gpuc_array_free(total);
    *count = (uint32_t)c;
    return st;
}

static gpuc_status gather(gpuc *gpu, const gpuc_array *values, gpuc_type type, const gpuc_array *running, uint32_t n,
                          uint32_t count, gpuc_array **packed)
{
    gpuc_kernel *k;
    gpuc_status st = compact_kernel(gpu, "gather", type, NULL, count, &k);
    if (st != GPUC_OK)
        return st;
    gpuc_arg args[] = {gpuc_arg_array(values), gpuc_arg_array(running), gpuc_arg_i32((int32_t)n)};
    st = gpuc_run(k, args, 3, packed);
    gpuc_kernel_free(k);
    return st;
}

static gpuc_status compact_device(gpuc *gpu, const gpuc_array *values, algo_input in, const gpuc_compact_desc *desc,
                                  gpuc_array **packed, size_t *count)
{
    gpuc_array *flags = NULL, *running = NULL, *out = NULL;
    uint32_t survivors = 0;
    gpuc_status st = gpuc_array_new(gpu, GPUC_INT, (gpuc_dims){.x = in.n}, &flags);
    if (st == GPUC_OK)
        st = desc->predicate ? predicate_flags(gpu, desc->predicate, values, flags)
                             : threshold_flags(gpu, desc, values, in.type, flags);
    if (st == GPUC_OK)
        st = scan_device(gpu, flags, GPUC_INT, in.n, true, &running);
    if (st == GPUC_OK)
        st = read_count(gpu, running, in.n, &survivors);
    if (st == GPUC_OK && survivors > 0)
        st = gather(gpu, values, in.type, running, in.n, survivors, &out);
    gpuc_array_free(flags);
    gpuc_array_free(running);
    if (st != GPUC_OK)
        return st;
    *packed = out;
    *count = survivors;
    return GPUC_OK;
}

gpuc_status gpuc_compact(gpuc *gpu, gpuc_arg values, const gpuc_compact_desc *desc, gpuc_array **packed,
                         size_t *count)
{
    gpuc_status st = gpuc_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!packed || !count)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_compact: %s is NULL", !packed ? "packed" : "count");
    algo_input in;
    st = algo_check_input(gpu, "gpuc_compact", "values", values, &in);
    if (st == GPUC_OK)
        st = check_desc(gpu, desc, in.type);
    const gpuc_array *array = NULL;
    gpuc_array *upload = NULL;
    if (st == GPUC_OK)
        st = algo_device_input(gpu, values, &array, &upload);
    if (st == GPUC_OK)
        st = compact_device(gpu, array, in, desc, packed, count);
    gpuc_array_free(upload);
    return st;
}
