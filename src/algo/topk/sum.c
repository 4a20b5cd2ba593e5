/* sum.c - sums per-chunk counts on the device so that a bisection step reads back one int, not
 * one per chunk. Each level sums TOPK_CHUNK-wide runs; the last level is read back (one cell). */
#include "algo/topk/parts.h"

#include <string.h>

gpuc_status topk_sum_make(gpuc *gpu, size_t m, topk_sum *sum)
{
    memset(sum, 0, sizeof *sum);
    sum->size[0] = m;
    const gpuc_constant chunk[] = {{.name = "chunk", .value = TOPK_CHUNK, .type = GPUC_INT}};
    gpuc_status st = GPUC_OK;
    while (st == GPUC_OK && sum->size[sum->levels] > 1) {
        if (sum->levels == TOPK_SUM_LEVELS) /* 4096^4 counts: far past any device */
            return gpuc_fail(gpu, GPUC_ERROR_LIMIT, "top-k: too many chunks to sum (%zu)", m);
        int l = sum->levels;
        size_t next = (sum->size[l] + TOPK_CHUNK - 1) / TOPK_CHUNK;
        sum->size[l + 1] = next;
        sum->levels++;
        st = topk_make_kernel(gpu, gpuc_glsl_topk, "sum_chunks", (gpuc_dims){(uint32_t)next, 0, 0}, chunk, 1, next > 1,
                              &sum->level[l]);
        if (st == GPUC_OK)
            st = gpuc_array_new(gpu, GPUC_INT, (gpuc_dims){(uint32_t)next, 0, 0}, &sum->out[l]);
    }
    if (st != GPUC_OK)
        topk_sum_free(sum);
    return st;
}

gpuc_status topk_sum_run(topk_sum *sum, gpuc_array *counts, int64_t *total)
{
    gpuc_array *in = counts;
    for (int l = 0; l < sum->levels; l++) {
        gpuc_arg args[] = {gpuc_arg_array(in), gpuc_arg_i32((int32_t)sum->size[l])};
        gpuc_status st = gpuc_run_to(sum->level[l], args, 2, sum->out[l]);
        if (st != GPUC_OK)
            return st;
        in = sum->out[l];
    }
    int32_t value;
    gpuc_status st = gpuc_array_read_i32(in, &value, 1);
    if (st == GPUC_OK)
        *total = value;
    return st;
}

void topk_sum_free(topk_sum *sum)
{
    for (int l = 0; l < TOPK_SUM_LEVELS; l++) /* the kernels are the context's (algo_kernel_get) */
        gpuc_array_free(sum->out[l]);
    memset(sum, 0, sizeof *sum);
}
