/* parts.h - the pieces the top-k drivers share (src/algo/topk/, src/algo/rank.c). They are
 * inside the library but build and run kernels only through the public kernel API. */
#ifndef GPUC_ALGO_TOPK_PARTS_H
#define GPUC_ALGO_TOPK_PARTS_H

#include "algo/algo_common.h"

#include <stdint.h>
#include <string.h>

/* glsl/topk*.glsl, embedded at build time (split in files under the 4095-character string limit of
 * ISO C). topk.glsl holds the order key every kernel starts with. */
extern const char gpuc_glsl_topk[];
extern const char gpuc_glsl_topk_order[];
extern const char gpuc_glsl_topk_seed[];
extern const char gpuc_glsl_topk_prune[];

/* Elements each chunked kernel invocation reads: long contiguous runs read fastest on llvmpipe, and
 * 4096 iterations stay far under its 65,535-iteration loop budget. */
#define TOPK_CHUNK 4096

/* The context's kept kernel (algo_kernel_get: borrowed, never freed by the caller) of the "key"
 * section of glsl/topk.glsl followed by `section` of `file` (one of the gpuc_glsl_topk* texts), with
 * the given constants (may be NULL) and output size. */
gpuc_status topk_make_kernel(gpuc *gpu, const char *file, const char *section, gpuc_dims output,
                             const gpuc_constant *constants, int nconstants, bool pipeline, gpuc_kernel **out);

/* The same for a kernel whose output size each run sets (gpuc_kernel_set_output; pipelined, starting
 * at one cell). */
gpuc_status topk_make_sized_kernel(gpuc *gpu, const char *file, const char *section, const gpuc_constant *constants,
                                   int nconstants, gpuc_kernel **out);

/* The input of a driver: a 1D float device array, either the caller's or an upload of its host data. */
typedef struct topk_input {
    gpuc_array *array; /* what kernels read (NULL after topk_input_check of host data, until uploaded) */
    bool owned;        /* an upload made for this call: freed by topk_input_release */
    const float *host; /* the caller's host data the upload was made of; NULL for a device array */
    size_t n;
} topk_input;

/* Checks `values` (kind, type, shape, size limits) and uploads host data once. `who` names the public
 * function in messages. */
gpuc_status topk_input_get(gpuc *gpu, const char *who, gpuc_arg values, topk_input *in);
/* The checks alone: host data is kept as in->host, with no array yet (in->array NULL) until
 * topk_input_upload makes it, for a caller that may not need one. */
gpuc_status topk_input_check(gpuc *gpu, const char *who, gpuc_arg values, topk_input *in);
gpuc_status topk_input_upload(gpuc *gpu, topk_input *in);
void topk_input_release(topk_input *in);

/* Sums an int array of m counts on the device down to one int and reads back only that one: reduction
 * levels of TOPK_CHUNK-wide sums, all made once (topk_sum_make) and rerun per step (topk_sum_run). */
#define TOPK_SUM_LEVELS 4
typedef struct topk_sum {
    gpuc_kernel *level[TOPK_SUM_LEVELS];
    gpuc_array *out[TOPK_SUM_LEVELS];
    size_t size[TOPK_SUM_LEVELS + 1]; /* size[0] = m, size[i + 1] = the output of level i */
    int levels;
} topk_sum;

gpuc_status topk_sum_make(gpuc *gpu, size_t m, topk_sum *sum);
/* Sums `counts` (m ints on the device) into *total. When m == 1 no level runs and the one count is read
 * from `counts` itself (already on the host when its kernel was not a pipeline). */
gpuc_status topk_sum_run(topk_sum *sum, gpuc_array *counts, int64_t *total);
void topk_sum_free(topk_sum *sum);

/* The k-th key of the input in topk order (bisection over the 32 key bits) and how many keys are
 * strictly above it. flip is 0 (largest) or -1 (smallest). */
gpuc_status topk_find_cutoff(gpuc *gpu, const topk_input *in, size_t k, int32_t flip, uint32_t *cutoff,
                             int64_t *greater);

/* The indices of the k survivors (keys > cutoff, then the first k - greater keys == cutoff) in index
 * order, in a new pipeline int array of `padded` cells (>= k; cells >= k hold -1). */
gpuc_status topk_collect(gpuc *gpu, const topk_input *in, size_t k, size_t padded, int32_t flip, uint32_t cutoff,
                         int64_t greater, gpuc_array **indices);

/* Most candidates the pruned path (prune.c) gathers and orders on the host; gpuc_topk takes that path
 * for k <= TOPK_PRUNE_CAP / 2, where a bound with at most this many keys above it always exists
 * (ties aside, which it collects in index order). */
#define TOPK_PRUNE_CAP 65536

/* The k first (key, index) pairs in topk order by tile pruning: values (their own bits) and indices
 * into k-cell host arrays. k <= TOPK_PRUNE_CAP / 2. Uploads in's host data (topk_input_upload) only
 * where a tile can be pruned. */
gpuc_status topk_prune(gpuc *gpu, topk_input *in, size_t k, int32_t flip, float *values, int32_t *indices);

/* The host's order key of a value (glsl/topk.glsl's topk_key): larger keys come first. Every NaN
 * ranks above +inf, -0 ties +0. Written without branches, so that a compiler may vectorise loops over it. */
static inline uint32_t topk_host_key(float value, int32_t flip)
{
    uint32_t b;
    memcpy(&b, &value, sizeof b);
    b = b == 0x80000000u ? 0 : b;
    uint32_t key = (b & 0x80000000u) ? ~b : (b | 0x80000000u);
    return ((b & 0x7FFFFFFFu) > 0x7F800000u ? 0xFFFFFFFFu : key) ^ (uint32_t)flip;
}

/* The k-th largest of m keys (1 <= k <= m) into *kth, in time linear in m (host_select.c). */
gpuc_status topk_kth_key(gpuc *gpu, const uint32_t *keys, size_t m, size_t k, uint32_t *kth);

/* The k first of `count` candidates in topk order (key descending, ties by the lower index) into
 * values_out / indices_out (k each): candidate j has keys[j], values[j] and indices[j] (its position j
 * where indices is NULL), the indices ascending (checked: a bug in gpuc otherwise). Linear in count,
 * plus a sort of the k kept. */
gpuc_status topk_host_first(gpuc *gpu, const uint32_t *keys, const float *values, const int32_t *indices,
                            size_t count, size_t k, float *values_out, int32_t *indices_out);

/* The host work's blocks (algo_scratch_take): the values read back, then the selection's keys and
 * positions. */
enum { TOPK_SCRATCH_READ, TOPK_SCRATCH_KEYS, TOPK_SCRATCH_AT };

/* The k first of n values (1 <= k <= n) in topk order, indices their positions: topk_host_first over
 * the values whose keys reach a bound taken from a sample of the keys (about 1.4k of them on random
 * data for k = 512), or over all of them where k < 16 or the bound leaves fewer than k. */
gpuc_status topk_host_select(gpuc *gpu, const float *values, size_t n, size_t k, int32_t flip, float *values_out,
                             int32_t *indices_out);

/* Sorts `indices` (a power-of-two count of ints, -1 padding) into topk order with a bitonic network.
 * On success *sorted is `indices` or its ping-pong partner, and the other one has been freed; on
 * failure `indices` is still the caller's to free. */
gpuc_status topk_sort(gpuc *gpu, const topk_input *in, int32_t flip, gpuc_array *indices, gpuc_array **sorted);

#endif
