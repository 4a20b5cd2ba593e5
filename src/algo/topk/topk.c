/* topk.c - gpuc_topk: exact k-selection. For k <= TOPK_PRUNE_CAP / 2, tile pruning (prune.c) finds the
 * k results on the host, which become the result arrays. For larger k, as production k-selection does
 * it: find the cutoff key by counting (select.c), collect the survivors in index order (collect.c),
 * sort them (order.c), then gather their values and indices into the caller's result arrays. */
#include "algo/topk/parts.h"

#include <stdlib.h>

static size_t next_pow2(size_t k)
{
    size_t p = 1;
    while (p < k)
        p *= 2;
    return p;
}

static gpuc_status check_desc(gpuc *gpu, const gpuc_topk_desc *desc, gpuc_array **values_out,
                              gpuc_array **indices_out)
{
    if (!desc)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_topk: desc is NULL (it holds k)");
    if (!values_out && !indices_out)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_topk: values_out and indices_out are both NULL; ask for at least one");
    if (desc->k == 0)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_topk: k is 0; k must be 1..n");
    return GPUC_OK;
}

/* Writes the k first entries of `sorted` (values and/or indices) into new result arrays. */
static gpuc_status pick_results(gpuc *gpu, const topk_input *in, const gpuc_topk_desc *desc, gpuc_array *sorted,
                                gpuc_array **values_out, gpuc_array **indices_out)
{
    gpuc_dims dims = {(uint32_t)desc->k, 0, 0};
    gpuc_kernel *pick_value = NULL, *pick_index = NULL;
    gpuc_array *values = NULL, *indices = NULL;
    gpuc_status st = GPUC_OK;
    if (values_out) {
        st = topk_make_kernel(gpu, gpuc_glsl_topk_order, "pick_value", dims, NULL, 0, desc->pipeline, &pick_value);
        if (st == GPUC_OK)
            st = gpuc_run(pick_value, (gpuc_arg[]){gpuc_arg_array(in->array), gpuc_arg_array(sorted)}, 2, &values);
    }
    if (indices_out && st == GPUC_OK) {
        st = topk_make_kernel(gpu, gpuc_glsl_topk_order, "pick_index", dims, NULL, 0, desc->pipeline, &pick_index);
        if (st == GPUC_OK)
            st = gpuc_run(pick_index, (gpuc_arg[]){gpuc_arg_array(sorted)}, 1, &indices);
    }
    if (st != GPUC_OK) {
        gpuc_array_free(values);
        gpuc_array_free(indices);
        return st;
    }
    if (values_out)
        *values_out = gpuc_array_handed_out(values);
    if (indices_out)
        *indices_out = gpuc_array_handed_out(indices);
    return GPUC_OK;
}

/* A result array of the k values in *data (malloc'd). Unless .pipeline it takes them over (*data
 * becomes NULL) and holds them in host memory until its first use on the device (algo_host_result),
 * as the small algorithm calls' results are: most are read and freed, and a buffer made and filled for
 * each cost about 1 us of a 17 us call of 4,096 values. With .pipeline it goes to the device (keeping
 * its values as its host copy too: HOST COPIES), and *data stays the caller's. */
static gpuc_status result_array(gpuc *gpu, const gpuc_topk_desc *desc, void **data, bool ints, gpuc_array **out)
{
    gpuc_dims dims = {(uint32_t)desc->k, 0, 0};
    if (desc->pipeline)
        return ints ? gpuc_array_from_i32(gpu, *data, dims, out) : gpuc_array_from_f32(gpu, *data, dims, out);
    void *held = *data;
    *data = NULL; /* algo_host_result's now, freed by it on failure */
    return algo_host_result(gpu, held, ints ? GPUC_INT : GPUC_FLOAT, dims, out);
}

/* k <= TOPK_PRUNE_CAP / 2: tile pruning (prune.c) finds the results on the host. */
static gpuc_status pruned_topk(gpuc *gpu, topk_input *in, const gpuc_topk_desc *desc, int32_t flip,
                               gpuc_array **values_out, gpuc_array **indices_out)
{
    void *values = malloc(desc->k * sizeof(float)), *indices = malloc(desc->k * sizeof(int32_t));
    gpuc_status st = values && indices ? GPUC_OK
                                       : gpuc_fail(gpu, GPUC_ERROR_OUT_OF_MEMORY, "gpuc_topk: out of host memory");
    if (st == GPUC_OK)
        st = topk_prune(gpu, in, desc->k, flip, values, indices);
    gpuc_array *v = NULL, *i = NULL;
    if (st == GPUC_OK && values_out)
        st = result_array(gpu, desc, &values, false, &v);
    if (st == GPUC_OK && indices_out)
        st = result_array(gpu, desc, &indices, true, &i);
    free(values);
    free(indices);
    if (st != GPUC_OK) {
        gpuc_array_free(v);
        return st;
    }
    if (values_out)
        *values_out = gpuc_array_handed_out(v);
    if (indices_out)
        *indices_out = gpuc_array_handed_out(i);
    return GPUC_OK;
}

gpuc_status gpuc_topk(gpuc *gpu, gpuc_arg values, const gpuc_topk_desc *desc, gpuc_array **values_out,
                      gpuc_array **indices_out)
{
    gpuc_status st = algo_enter(gpu);
    if (st == GPUC_OK)
        st = check_desc(gpu, desc, values_out, indices_out);
    topk_input in;
    if (st == GPUC_OK)
        st = topk_input_check(gpu, "gpuc_topk", values, &in); /* uploaded where a kernel reads it */
    if (st != GPUC_OK)
        return st;
    if (desc->k > in.n) {
        size_t n = in.n;
        topk_input_release(&in);
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_topk: k = %zu is more than the %zu values", desc->k,
                         n);
    }
    int32_t flip = desc->smallest ? -1 : 0;
    if (desc->k <= TOPK_PRUNE_CAP / 2) {
        st = pruned_topk(gpu, &in, desc, flip, values_out, indices_out);
        topk_input_release(&in);
        return st;
    }
    uint32_t cutoff = 0;
    int64_t greater = 0;
    gpuc_array *survivors = NULL, *sorted = NULL;
    st = topk_input_upload(gpu, &in);
    if (st == GPUC_OK)
        st = topk_find_cutoff(gpu, &in, desc->k, flip, &cutoff, &greater);
    if (st == GPUC_OK)
        st = topk_collect(gpu, &in, desc->k, next_pow2(desc->k), flip, cutoff, greater, &survivors);
    if (st == GPUC_OK) {
        st = topk_sort(gpu, &in, flip, survivors, &sorted);
        if (st != GPUC_OK)
            gpuc_array_free(survivors);
    }
    if (st == GPUC_OK) {
        st = pick_results(gpu, &in, desc, sorted, values_out, indices_out);
        gpuc_array_free(sorted);
    }
    topk_input_release(&in);
    return st;
}
