/* compact_host.c - a threshold compaction of at most COMPACT_HOST_MOST_ELEMENTS values the host holds,
 * done by a C loop on the host. On llvmpipe the device path's three kernels take about 85 us for 4,096
 * values even in the calling thread (the scatter alone 49), where a C loop takes 5-10
 * (docs/performance/small-inputs.md, "Small compactions on the host"): a kernel's floor there is the
 * program's own cost per call, not a hand-off that the twin could save. The result is exactly the
 * device path's: the same comparison as C makes it, the survivors' own bits, the same array. */
#include "algo/compact.h"

#include <stdlib.h>
#include <string.h>

/* The most values a compaction may have to run here: the bound of an array's host copy (HOST COPIES) and
 * of the calling-thread twin's algorithm calls, within which every context path was measured. */
#define COMPACT_HOST_MOST_ELEMENTS 65536

/* The survivors of v[0..n) under `v OP t`, in order, into out (room for n); returns how many. Each
 * value is stored at the cursor, which moves on only for a survivor: no branch to mispredict. */
#define KEEP_WHERE(OP)                 \
    for (size_t j = 0; j < n; j++) {   \
        out[kept] = v[j];              \
        kept += (size_t)(v[j] OP t);   \
    }                                  \
    break

static size_t keep_floats(const float *v, size_t n, gpuc_compare op, float t, float *out)
{
    size_t kept = 0;
    switch (op) {
    case GPUC_GREATER: KEEP_WHERE(>);
    case GPUC_GREATER_EQUAL: KEEP_WHERE(>=);
    case GPUC_LESS: KEEP_WHERE(<);
    case GPUC_LESS_EQUAL: KEEP_WHERE(<=);
    case GPUC_EQUAL: KEEP_WHERE(==);
    case GPUC_NOT_EQUAL: KEEP_WHERE(!=);
    default: break; /* check_desc refused any other op */
    }
    return kept;
}

static size_t keep_ints(const int32_t *v, size_t n, gpuc_compare op, int32_t t, int32_t *out)
{
    size_t kept = 0;
    switch (op) {
    case GPUC_GREATER: KEEP_WHERE(>);
    case GPUC_GREATER_EQUAL: KEEP_WHERE(>=);
    case GPUC_LESS: KEEP_WHERE(<);
    case GPUC_LESS_EQUAL: KEEP_WHERE(<=);
    case GPUC_EQUAL: KEEP_WHERE(==);
    case GPUC_NOT_EQUAL: KEEP_WHERE(!=);
    default: break;
    }
    return kept;
}

#undef KEEP_WHERE

bool compact_host_takes(const gpuc *gpu, gpuc_arg values, uint32_t n, const gpuc_compact_desc *desc,
                        const void **data)
{
    if (desc->predicate || !gpu->small_calls || gpu->profile || gpu->trace || n > COMPACT_HOST_MOST_ELEMENTS)
        return false;
    gpuc_arg host = values;
    gpuc_array *a;
    if (values.kind == GPUC_ARG_ARRAY &&
        (gpuc_array_open(values.array, "gpuc_compact", &a) != GPUC_OK || !gpuc_array_host_view(a, &host, NULL)))
        return false;
    *data = host.host;
    return true;
}

gpuc_status compact_on_host(gpuc *gpu, const void *data, algo_input in, const gpuc_compact_desc *desc,
                            gpuc_array **packed, size_t *count)
{
    void *out = malloc((size_t)in.n * 4); /* room for every value: each is stored before it is judged */
    if (!out)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_compact: out of host memory for %u values", in.n);
    /* The threshold as the device path has it: rounded to float, or (checked) a whole int32. */
    size_t kept = in.type == GPUC_FLOAT ? keep_floats(data, in.n, desc->op, (float)desc->threshold, out)
                                        : keep_ints(data, in.n, desc->op, (int32_t)desc->threshold, out);
    uint32_t cells = desc->full_length ? in.n : (uint32_t)kept;
    if (cells == 0) { /* nothing kept, no array (as on the device) */
        free(out);
        *packed = NULL;
        *count = 0;
        return GPUC_OK;
    }
    if (desc->full_length) {
        memset((char *)out + kept * 4, 0, (in.n - kept) * 4); /* zeros after the survivors: +0.0 or 0 */
    } else if (cells < in.n) {
        void *fit = realloc(out, (size_t)cells * 4); /* the array holds its cells, not room for n */
        out = fit ? fit : out;
    }
    gpuc_status st = algo_host_result(gpu, out, in.type, (gpuc_dims){cells, 0, 0}, packed);
    if (st == GPUC_OK)
        *count = kept;
    return st;
}
