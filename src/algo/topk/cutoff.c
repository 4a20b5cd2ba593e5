/* cutoff.c - gpuc_topk_cutoff: the seed page's bisection (tutorial top-k task 4) as written there:
 * a strided count-above kernel and a host bisection in double precision. Unlike the seed, the
 * per-thread counts are summed on the device (sum.c), so one int comes back per step, and the
 * bracket (min, max) is found by a kernel too, so device input is never read back whole. */
#include "algo/topk/parts.h"

#include <math.h>

typedef struct seed_parts {
    gpuc_kernel *count, *min_max, *min_max_reduce;
    gpuc_array *partial, *ranges, *range;
    topk_sum sum;
} seed_parts;

static void parts_free(seed_parts *p)
{
    gpuc_array_free(p->partial);
    gpuc_array_free(p->ranges);
    gpuc_array_free(p->range);
    topk_sum_free(&p->sum);
}

static gpuc_status parts_make(gpuc *gpu, size_t n, int threads, int chunk, seed_parts *p)
{
    const gpuc_constant shape[] = {
        {.name = "threads", .value = threads, .type = GPUC_INT}, {.name = "chunk", .value = chunk, .type = GPUC_INT}, {.name = "n", .value = (double)n, .type = GPUC_INT}};
    gpuc_dims per_thread = {(uint32_t)threads, 0, 0}, one = {1, 0, 0};
    gpuc_status st = topk_make_kernel(gpu, gpuc_glsl_topk_seed, "count_above", per_thread, shape, 3, threads > 1,
                                      &p->count);
    if (st == GPUC_OK)
        st = topk_make_kernel(gpu, gpuc_glsl_topk_seed, "min_max", per_thread, shape, 3, true, &p->min_max);
    if (st == GPUC_OK)
        st = topk_make_kernel(gpu, gpuc_glsl_topk_seed, "min_max_reduce", one, shape, 1, false, &p->min_max_reduce);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, GPUC_INT, per_thread, &p->partial);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, GPUC_VEC2, per_thread, &p->ranges);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, GPUC_VEC2, one, &p->range);
    if (st == GPUC_OK)
        st = topk_sum_make(gpu, (size_t)threads, &p->sum);
    return st;
}

/* How many values are > t (t rounded to float32, as a GPU.js kernel argument is). */
static gpuc_status count_above(seed_parts *p, const topk_input *in, double t, int64_t *count)
{
    gpuc_arg args[] = {gpuc_arg_array(in->array), gpuc_arg_f32((float)t)};
    gpuc_status st = gpuc_run_to(p->count, args, 2, p->partial);
    return st == GPUC_OK ? topk_sum_run(&p->sum, p->partial, count) : st;
}

static gpuc_status value_range(gpuc *gpu, seed_parts *p, const topk_input *in, double *lo, double *hi)
{
    gpuc_status st = gpuc_run_to(p->min_max, (gpuc_arg[]){gpuc_arg_array(in->array)}, 1, p->ranges);
    if (st == GPUC_OK)
        st = gpuc_run_to(p->min_max_reduce, (gpuc_arg[]){gpuc_arg_array(p->ranges)}, 1, p->range);
    float range[2] = {0, 0};
    if (st == GPUC_OK)
        st = gpuc_array_read_f32(p->range, range, 2);
    if (st == GPUC_OK && !(isfinite(range[0]) && isfinite(range[1])))
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_topk_cutoff: the values span [%g, %g]; the bisection needs finite values, without "
                         "infinities or NaN (gpuc_topk handles them)",
                         (double)range[0], (double)range[1]);
    *lo = range[0];
    *hi = range[1];
    return st;
}

/* Fills in the default threads and chunk and checks them against n and the loop budget. */
static gpuc_status check_shape(gpuc *gpu, const gpuc_topk_cutoff_desc *desc, size_t n, int *threads, int *chunk)
{
    if (desc->threads < 0 || desc->chunk < 0)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_topk_cutoff: threads (%d) and chunk (%d) may not be "
                         "negative", desc->threads, desc->chunk);
    *threads = desc->threads ? desc->threads : 256;
    size_t need = (n + (size_t)*threads - 1) / (size_t)*threads;
    *chunk = desc->chunk ? desc->chunk : (int)need;
    if ((size_t)*chunk < need)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT,
                         "gpuc_topk_cutoff: threads * chunk = %d * %d does not cover the %zu values", *threads, *chunk,
                         n);
    /* The kernels index i * threads + x in a GLSL int: a larger product wraps to indices that read 0. */
    if ((int64_t)*threads * *chunk > INT32_MAX)
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                         "gpuc_topk_cutoff: threads * chunk = %d * %d = %lld is more than 2^31 - 1, the largest index "
                         "its kernels can form; give a smaller chunk (0 picks one that just covers n)",
                         *threads, *chunk, (long long)*threads * *chunk);
    int64_t budget = gpuc_get_info(gpu)->loop_budget;
    if (budget > 0 && (*chunk >= budget || *threads >= budget))
        return gpuc_fail(gpu, GPUC_ERROR_LIMIT,
                         "gpuc_topk_cutoff: chunk %d and threads %d must each stay under the device's loop budget of "
                         "%lld iterations per invocation; use more threads (or gpuc_topk)",
                         *chunk, *threads, (long long)budget);
    return GPUC_OK;
}

static gpuc_status bisect(gpuc *gpu, seed_parts *p, const topk_input *in, size_t k, double *cutoff, int64_t *above)
{
    double lo = 0, hi = 0;
    gpuc_status st = value_range(gpu, p, in, &lo, &hi);
    lo -= 1.0;
    while (st == GPUC_OK && hi - lo > 0.5) {
        double mid = (lo + hi) / 2.0;
        int64_t count = 0;
        st = count_above(p, in, mid, &count);
        if (count >= (int64_t)k)
            lo = mid;
        else
            hi = mid;
    }
    *cutoff = floor(lo);
    return st == GPUC_OK && above ? count_above(p, in, *cutoff, above) : st;
}

gpuc_status gpuc_topk_cutoff(gpuc *gpu, gpuc_arg values, const gpuc_topk_cutoff_desc *desc, double *cutoff,
                             int64_t *above)
{
    gpuc_status st = algo_enter(gpu);
    if (st != GPUC_OK)
        return st;
    if (!desc || !cutoff)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_topk_cutoff: %s is NULL", desc ? "cutoff" : "desc");
    if (desc->k == 0)
        return gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_topk_cutoff: k is 0; k must be 1..n");
    topk_input in;
    st = topk_input_get(gpu, "gpuc_topk_cutoff", values, &in);
    if (st != GPUC_OK)
        return st;
    int threads = 0, chunk = 0;
    if (desc->k > in.n)
        st = gpuc_fail(gpu, GPUC_ERROR_INVALID_ARGUMENT, "gpuc_topk_cutoff: k = %zu is more than the %zu values",
                       desc->k, in.n);
    if (st == GPUC_OK)
        st = check_shape(gpu, desc, in.n, &threads, &chunk);
    seed_parts p = {0};
    if (st == GPUC_OK)
        st = parts_make(gpu, in.n, threads, chunk, &p);
    double found = 0;
    int64_t count = 0;
    if (st == GPUC_OK)
        st = bisect(gpu, &p, &in, desc->k, &found, above ? &count : NULL);
    parts_free(&p);
    topk_input_release(&in);
    if (st == GPUC_OK) {
        *cutoff = found;
        if (above)
            *above = count;
    }
    return st;
}
