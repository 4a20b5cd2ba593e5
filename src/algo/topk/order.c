/* order.c - orders the survivors: a bitonic network over their indices (a power-of-two count,
 * padded with -1), comparing (key, index) pairs so that the order is total and ties go to the lower
 * index. One kernel, run once per (stage, stride) pair into two ping-pong arrays: log2(P) * (log2(P) + 1)
 * / 2 passes, nothing read back. Self-contained: it does not use the general sort of src/algo/. */
#include "algo/topk/parts.h"

gpuc_status topk_sort(gpuc *gpu, const topk_input *in, int32_t flip, gpuc_array *indices, gpuc_array **sorted)
{
    size_t padded = gpuc_array_cells(indices);
    if (padded < 2) {
        *sorted = indices;
        return GPUC_OK;
    }
    gpuc_kernel *step = NULL;
    gpuc_array *other = NULL;
    gpuc_dims dims = {(uint32_t)padded, 0, 0};
    gpuc_status st = topk_make_kernel(gpu, gpuc_glsl_topk_order, "bitonic_step", dims, NULL, 0, true, &step);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, GPUC_INT, dims, &other);
    gpuc_array *src = indices, *dst = other;
    for (size_t stage = 2; stage <= padded && st == GPUC_OK; stage *= 2) {
        for (size_t stride = stage / 2; stride >= 1 && st == GPUC_OK; stride /= 2) {
            gpuc_arg args[] = {gpuc_arg_array(in->array), gpuc_arg_array(src), gpuc_arg_i32((int32_t)stage),
                               gpuc_arg_i32((int32_t)stride), gpuc_arg_i32(flip)};
            st = gpuc_run_to(step, args, 5, dst);
            gpuc_array *t = src;
            src = dst;
            dst = t;
        }
    }
    if (st != GPUC_OK) {
        gpuc_array_free(other);
        return st;
    }
    gpuc_array_free(dst); /* the array not holding the result */
    *sorted = src;
    return GPUC_OK;
}
