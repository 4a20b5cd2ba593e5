/* row_topk.c - gauntlet row `topk`: the 512 largest of 2^23 values, 24 rounds, round r adding r/16384
 * to every element; the result is the last round's k largest in descending order. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define K 512
#define PUBLISHED 1.5010783093093778

static float topk_value(uint32_t s)
{
    return (float)((double)(s >> 10) / 4194304.0);
}

static float round_bias(int r)
{
    return (float)(r / 16384.0);
}

static double topk_checksum(const float *out, size_t k, const bench_params *p)
{
    (void)p;
    double acc = 0;
    int bad = 0;
    for (size_t j = 0; j < k; j++) {
        acc += out[j] * (1.0 + (double)j / (double)k);
        bad += j > 0 && out[j] > out[j - 1];
    }
    return acc / (double)k + bad;
}

typedef struct topk_state {
    const float *input;
    size_t n, k;
    int rounds;
    float *heap;
    gpuc *gpu;
    gpuc_kernel *bias;
    gpuc_array *work;
    topk_bisect *bisect;
} topk_state;

static void sift_down(float *h, size_t k, size_t j)
{
    for (;;) {
        size_t l = 2 * j + 1, r = l + 1, m = j;
        if (l < k && h[l] < h[m])
            m = l;
        if (r < k && h[r] < h[m])
            m = r;
        if (m == j)
            return;
        float t = h[j];
        h[j] = h[m];
        h[m] = t;
        j = m;
    }
}

static int descending(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x < y) - (x > y);
}

/* The oracle: per round, one pass with a k-slot min-heap, then sort the k survivors. */
static int oracle_run(void *vs, float *out)
{
    topk_state *s = vs;
    for (int r = 0; r < s->rounds; r++) {
        float bias = round_bias(r);
        size_t filled = 0;
        for (size_t i = 0; i < s->n; i++) {
            float v = s->input[i] + bias;
            if (filled < s->k) {
                s->heap[filled++] = v;
                if (filled == s->k)
                    for (size_t j = s->k / 2 + 1; j-- > 0;)
                        sift_down(s->heap, s->k, j);
            } else if (v > s->heap[0]) {
                s->heap[0] = v;
                sift_down(s->heap, s->k, 0);
            }
        }
        qsort(s->heap, s->k, sizeof *s->heap, descending);
        memcpy(out, s->heap, s->k * sizeof *out);
    }
    return 0;
}

/* gpuc: upload once, per round a bias kernel into a device array and gpuc_topk over it. */
static int gpuc_topk_run(void *vs, float *out)
{
    topk_state *s = vs;
    gpuc_array *input;
    if (gpuc_array_from_f32(s->gpu, s->input, (gpuc_dims){(uint32_t)s->n}, &input) != GPUC_OK)
        return -1;
    int rc = 0;
    for (int r = 0; r < s->rounds && rc == 0; r++) {
        gpuc_array *top = NULL;
        rc = gpuc_run_to(s->bias, (gpuc_arg[]){gpuc_arg_array(input), gpuc_arg_f32(round_bias(r))}, 2, s->work) ||
             gpuc_topk(s->gpu, gpuc_arg_array(s->work), &(gpuc_topk_desc){.k = s->k}, &top, NULL) ||
             (r == s->rounds - 1 && gpuc_array_read_f32(top, out, s->k));
        gpuc_array_free(top);
    }
    gpuc_array_free(input);
    return rc ? -1 : 0;
}

/* gpuc, the gauntlet's way: upload once, then per round the bisection over the value axis, reading the
 * input array with the round's bias added inside the kernels. */
static int gauntlet_bisect_run(void *vs, float *out)
{
    topk_state *s = vs;
    gpuc_array *input;
    if (gpuc_array_from_f32(s->gpu, s->input, (gpuc_dims){(uint32_t)s->n}, &input) != GPUC_OK)
        return -1;
    int rc = 0;
    for (int r = 0; r < s->rounds && rc == 0; r++)
        rc = topk_bisect_round(s->bisect, input, round_bias(r), out);
    gpuc_array_free(input);
    return rc;
}

int row_topk(bench_env *env, const bench_params *p)
{
    topk_state s = {.n = p->n, .k = p->n < K ? p->n : K, .rounds = p->rounds, .gpu = env->gpu};
    float *input = malloc(p->n * sizeof *input), *out = malloc(s.k * sizeof *out);
    s.heap = malloc(s.k * sizeof *s.heap);
    if (!input || !out || !s.heap) {
        fprintf(stderr, "topk: out of memory\n");
        free(input);
        free(out);
        free(s.heap);
        return -1;
    }
    gauntlet_fill(input, p->n, p->seed, topk_value);
    s.input = input;
    double oracle_ms = bench_measure(env, "topk", "C oracle (k-slot heap)", oracle_run, &s, out, s.k, topk_checksum, p,
                                     0, 0, PUBLISHED);
    double oracle_sum = topk_checksum(out, s.k, p);
    gpuc_status st = gpuc_create_kernel(env->gpu, "float biased(float a[], float bias) { return a[thread.x] + bias; }",
                                        &(gpuc_kernel_desc){.output = {(uint32_t)p->n}, .pipeline = true}, &s.bias);
    if (st == GPUC_OK)
        st = gpuc_array_new(env->gpu, GPUC_FLOAT, (gpuc_dims){(uint32_t)p->n}, &s.work);
    if (st == GPUC_OK && (s.bisect = topk_bisect_create(env->gpu, s.n, s.k)) != NULL)
        bench_measure(env, "topk", "gpuc kernels, gauntlet bisect", gauntlet_bisect_run, &s, out, s.k, topk_checksum,
                      p, oracle_sum, oracle_ms, PUBLISHED);
    if (st == GPUC_OK)
        bench_measure(env, "topk", "gpuc_topk (tile pruning)", gpuc_topk_run, &s, out, s.k, topk_checksum, p,
                      oracle_sum, oracle_ms, PUBLISHED);
    else {
        fprintf(stderr, "topk: %s\n", gpuc_errmsg(env->gpu));
        env->failures++;
    }
    topk_bisect_free(s.bisect);
    gpuc_array_free(s.work);
    gpuc_kernel_free(s.bias);
    free(input);
    free(out);
    free(s.heap);
    return 0;
}
