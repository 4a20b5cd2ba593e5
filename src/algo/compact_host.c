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

/* With out NULL, how many of v[0..n) pass `v OP t`: in blocks of 16, whose fixed length lets GCC
 * vectorise the comparisons. Otherwise those survivors, in order, into out (room for their count + 1):
 * each value is stored at the cursor, which moves on only for a survivor, so no branch mispredicts (a
 * store past the last survivor lands in the spare slot). Returns how many pass. */
#define PASSING(OP)                                      \
    if (!out) {                                          \
        size_t j = 0;                                    \
        for (; j + 16 <= n; j += 16) {                   \
            int block = 0;                               \
            for (int b = 0; b < 16; b++)                 \
                block += v[j + b] OP t;                  \
            kept += (size_t)block;                       \
        }                                                \
        for (; j < n; j++)                               \
            kept += (size_t)(v[j] OP t);                 \
    } else {                                             \
        for (size_t j = 0; j < n; j++) {                 \
            out[kept] = v[j];                            \
            kept += (size_t)(v[j] OP t);                 \
        }                                                \
    }                                                    \
    break

/* passing_floats and passing_ints: PASSING for each operator, over values of type T. */
#define PASSING_OVER(NAME, T)                                                     \
    static size_t NAME(const T *v, size_t n, gpuc_compare op, T t, T *out)       \
    {                                                                             \
        size_t kept = 0;                                                          \
        switch (op) {                                                             \
        case GPUC_GREATER: PASSING(>);                                            \
        case GPUC_GREATER_EQUAL: PASSING(>=);                                     \
        case GPUC_LESS: PASSING(<);                                               \
        case GPUC_LESS_EQUAL: PASSING(<=);                                        \
        case GPUC_EQUAL: PASSING(==);                                             \
        case GPUC_NOT_EQUAL: PASSING(!=);                                         \
        default: break; /* check_desc refused any other op */                     \
        }                                                                         \
        return kept;                                                              \
    }

PASSING_OVER(passing_floats, float)
PASSING_OVER(passing_ints, int32_t)

#undef PASSING_OVER
#undef PASSING

/* The survivors of data (n values of `type`) under desc's comparison, into out (NULL: counted only). The
 * threshold is the device path's: rounded to float, or (checked) a whole int32. */
static size_t passing(const void *data, gpuc_type type, size_t n, const gpuc_compact_desc *desc, void *out)
{
    return type == GPUC_FLOAT ? passing_floats(data, n, desc->op, (float)desc->threshold, out)
                              : passing_ints(data, n, desc->op, (int32_t)desc->threshold, out);
}

bool compact_host_takes(const gpuc *gpu, gpuc_arg values, uint32_t n, const gpuc_compact_desc *desc,
                        const void **data)
{
    if (desc->predicate || !gpu->host_small_calls || gpu->profile || gpu->trace || n > COMPACT_HOST_MOST_ELEMENTS)
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
    /* An exact-length result is counted first, so that it is allocated at its size: trimming an
     * allocation of all n values instead made glibc map and unmap it at every call (a large block
     * shrunk stays mapped), 30-40 us of a 65,536-value call. */
    uint32_t cells = desc->full_length ? in.n : (uint32_t)passing(data, in.type, in.n, desc, NULL);
    if (cells == 0) { /* nothing kept, no array (as on the device) */
        *packed = NULL;
        *count = 0;
        return GPUC_OK;
    }
    void *out = malloc(((size_t)cells + 1) * 4); /* + 1: the spare slot passing() may store into */
    if (!out)
        return gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_compact: out of host memory for %u values", cells);
    size_t survivors = passing(data, in.type, in.n, desc, out);
    memset((char *)out + survivors * 4, 0, (cells - survivors) * 4); /* .full_length: zeros, +0.0 or 0 */
    gpuc_status st = algo_host_result(gpu, out, in.type, (gpuc_dims){cells, 0, 0}, packed);
    if (st == GPUC_OK)
        *count = survivors;
    return st;
}
