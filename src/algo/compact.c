/* compact.c - stream compaction (gpuc_compact): checks the call, then counts the survivors
 * (compact_count.c) and places them in input order (compact_place.c), with kernels made here; a
 * small threshold compaction of values the host holds is a C loop instead (compact_host.c). */
#include "algo/compact.h"
#include "algo/algo_twin.h"

#include <math.h>
#include <stdlib.h>

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
    double t = desc->threshold;
    if (!(t == floor(t) && t >= -2147483648.0 && t <= 2147483647.0)) /* false for NaN too */
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_compact: threshold %g is not a 32-bit integer, as int values need", desc->threshold);
    return GPUC_OK;
}

gpuc_status compact_kernel(gpuc *gpu, gpuc_type type, const char *const *sections, const char *const *fields,
                           gpuc_kernel_desc desc, gpuc_kernel **k)
{
    enum { MOST_FIELDS = 6 }; /* key-value pairs a caller gives */
    const char *all[2 * MOST_FIELDS + 3] = {"T", algo_glsl_type(type)};
    int i = 0;
    for (; fields && fields[i] && i < 2 * MOST_FIELDS; i++)
        all[2 + i] = fields[i];
    if (fields && fields[i]) /* a field dropped here would surface later as a template error */
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "compact_kernel: more than %d fields (a bug in gpuc)",
                         MOST_FIELDS);
    char *source;
    gpuc_status st = algo_source(gpu, gpuc_glsl_compact, sections, all, &source);
    if (st != GPUC_OK)
        return st;
    desc.pipeline = true;
    st = algo_kernel_get(gpu, source, &desc, k);
    free(source);
    return st;
}

static gpuc_status compact_device(gpuc *gpu, const gpuc_array *values, algo_input in, const gpuc_compact_desc *desc,
                                  gpuc_array **packed, size_t *count)
{
    compact_survivors s;
    gpuc_status st = compact_count(gpu, values, in.type, in.n, desc, &s);
    if (st != GPUC_OK)
        return st;
    uint32_t cells = desc->full_length ? in.n : s.count;
    gpuc_array *out = NULL;
    if (cells > 0)
        st = compact_place(gpu, values, desc->method, &s, cells, &out);
    compact_survivors_free(&s);
    if (st != GPUC_OK)
        return st;
    *packed = out;
    *count = s.count;
    return GPUC_OK;
}

/* What selects a compaction's kernels, for the calling-thread twin's warm-up (algo_twin.h): the
 * predicate by its text (FNV-1a), never by its address. */
static uint64_t compact_shape(const algo_input *in, const gpuc_compact_desc *desc)
{
    uint64_t text = 1469598103934665603u;
    for (const char *c = desc->predicate; c && *c; c++)
        text = (text ^ (unsigned char)*c) * 1099511628211u;
    const uint64_t parts[] = {(uint64_t)in->type, (uint64_t)desc->op, (uint64_t)desc->method, desc->full_length,
                              desc->predicate != NULL, text};
    return algo_twin_shape(ALGO_TWIN_COMPACT, in->n, parts, 6);
}

gpuc_status gpuc_compact(gpuc *gpu, gpuc_arg values, const gpuc_compact_desc *desc, gpuc_array **packed,
                         size_t *count)
{
    gpuc_status st = algo_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!packed || !count)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_compact: %s is NULL", !packed ? "packed" : "count");
    algo_input in;
    st = algo_check_input(gpu, "gpuc_compact", "values", values, &in);
    if (st == GPUC_OK)
        st = check_desc(gpu, desc, in.type);
    const void *held;
    if (st == GPUC_OK && compact_host_takes(gpu, values, in.n, desc, &held))
        return compact_on_host(gpu, held, in, desc, packed, count);
    algo_twin_call call;
    if (st == GPUC_OK && algo_twin_begin(gpu, compact_shape(&in, desc), in.n, &values, 1, &call)) {
        gpuc_array *t = NULL;
        size_t kept = 0;
        st = gpuc_compact(call.twin, call.args[0], desc, &t, &kept);
        st = algo_twin_end(&call, st, &t, (gpuc_array **const[]){packed}, 1);
        if (st == GPUC_OK)
            *count = kept;
        if (st == GPUC_OK || !call.retry)
            return st;
        st = GPUC_OK;
    }
    const gpuc_array *array = NULL;
    gpuc_array *upload = NULL;
    if (st == GPUC_OK)
        st = algo_device_input(gpu, values, &array, &upload);
    if (st == GPUC_OK)
        st = compact_device(gpu, array, in, desc, packed, count);
    if (st == GPUC_OK)
        *packed = gpuc_array_handed_out(*packed);
    gpuc_array_free(upload);
    return st;
}
