/* rank.c - gpuc_rank: rank by counting (tutorial top-k tasks 1-3). One invocation per element counts
 * the elements that come before it, so each invocation loops n times: n is bounded by the device's
 * loop budget, and the work is O(n^2). Same order keys, ties and NaN policy as gpuc_topk. */
#include "algo/topk/parts.h"

static gpuc_status check_n(gpuc *gpu, size_t n)
{
    int64_t budget = gpuc_get_info(gpu)->loop_budget;
    if (budget > 0 && (int64_t)n >= budget)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                         "gpuc_rank: %zu values; each invocation compares against all of them and may loop under "
                         "%lld times on this device (use gpuc_topk for large n)",
                         n, (long long)budget);
    return GPUC_OK;
}

gpuc_status gpuc_rank(gpuc *gpu, gpuc_arg values, const gpuc_rank_desc *desc, gpuc_array **ranks_out)
{
    gpuc_status st = algo_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!ranks_out)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_rank: ranks_out is NULL");
    const gpuc_rank_desc defaults = {0};
    if (!desc)
        desc = &defaults;
    topk_input in;
    st = topk_input_get(gpu, "gpuc_rank", values, &in);
    if (st != GPUC_OK)
        return st;
    st = check_n(gpu, in.n);
    gpuc_kernel *rank = NULL;
    if (st == GPUC_OK)
        st = topk_make_kernel(gpu, gpuc_glsl_topk_order, "rank", (gpuc_dims){(uint32_t)in.n, 0, 0}, NULL, 0,
                              desc->pipeline, &rank);
    gpuc_array *ranks = NULL;
    if (st == GPUC_OK) {
        gpuc_arg args[] = {gpuc_arg_array(in.array), gpuc_arg_i32((int32_t)in.n),
                           gpuc_arg_i32(desc->smallest ? -1 : 0)};
        st = gpuc_run(rank, args, 3, &ranks);
    }
    topk_input_release(&in);
    if (st == GPUC_OK)
        *ranks_out = gpuc_array_handed_out(ranks);
    return st;
}
