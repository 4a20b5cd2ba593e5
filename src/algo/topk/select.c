/* select.c - finds the k-th key in topk order by bisection over the key's 32 bits, most
 * significant first: bit b of the answer is set when at least k keys are >= (the bits found so far with
 * bit b set). Each step is one counting pass over contiguous chunks plus a device-side sum, so exactly
 * one int comes back per step; 32 steps give the exact key, and one more counts the keys above it. */
#include "algo/topk/parts.h"

typedef struct counter {
    gpuc_kernel *count;
    gpuc_array *partial;
    topk_sum sum;
    const topk_input *in;
    int32_t flip;
} counter;

static void counter_free(counter *c)
{
    gpuc_array_free(c->partial);
    topk_sum_free(&c->sum);
    *c = (counter){0};
}

static gpuc_status counter_make(gpuc *gpu, const topk_input *in, int32_t flip, counter *c)
{
    *c = (counter){.in = in, .flip = flip};
    size_t m = (in->n + TOPK_CHUNK - 1) / TOPK_CHUNK;
    const gpuc_constant chunk[] = {{.name = "chunk", .value = TOPK_CHUNK, .type = GPUC_INT}};
    gpuc_status st = topk_make_kernel(gpu, gpuc_glsl_topk, "count_at_least", (gpuc_dims){(uint32_t)m, 0, 0}, chunk, 1,
                                      m > 1, &c->count);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, GPUC_INT, (gpuc_dims){(uint32_t)m, 0, 0}, &c->partial);
    if (st == GPUC_OK)
        st = topk_sum_make(gpu, m, &c->sum);
    if (st != GPUC_OK)
        counter_free(c);
    return st;
}

/* How many keys are >= cand. */
static gpuc_status count_at_least(counter *c, uint32_t cand, int64_t *count)
{
    gpuc_arg args[] = {gpuc_arg_array(c->in->array), gpuc_arg_i32((int32_t)c->in->n), gpuc_arg_i32((int32_t)cand),
                       gpuc_arg_i32(c->flip)};
    gpuc_status st = gpuc_run_to(c->count, args, 4, c->partial);
    return st == GPUC_OK ? topk_sum_run(&c->sum, c->partial, count) : st;
}

gpuc_status topk_find_cutoff(gpuc *gpu, const topk_input *in, size_t k, int32_t flip, uint32_t *cutoff,
                             int64_t *greater)
{
    counter c;
    gpuc_status st = counter_make(gpu, in, flip, &c);
    uint32_t found = 0;
    for (int bit = 31; bit >= 0 && st == GPUC_OK; bit--) {
        uint32_t cand = found | (UINT32_C(1) << bit);
        int64_t count = 0;
        st = count_at_least(&c, cand, &count);
        if (st == GPUC_OK && count >= (int64_t)k)
            found = cand;
    }
    int64_t above = 0;
    if (st == GPUC_OK && found != UINT32_MAX)
        st = count_at_least(&c, found + 1, &above);
    counter_free(&c);
    if (st == GPUC_OK) {
        *cutoff = found;
        *greater = above;
    }
    return st;
}
