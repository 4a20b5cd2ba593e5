/* row_sort.c - gauntlet row `bitonic-sort`: 2^22 keys sorted ascending, by the bitonic network (the
 * tutorial's algorithm, GPUC_SORT_BITONIC) and by gpuc_sort's default method (the fastest: radix on the
 * compute backend, the network on the fragment backend). */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PUBLISHED 0.8331705063456172

static float sort_value(uint32_t s)
{
    return (float)((double)(s >> 8) / 16777216.0);
}

static double sort_checksum(const float *out, size_t n, const bench_params *p)
{
    (void)p;
    double acc = 0;
    int inv = 0;
    for (size_t i = 0; i < n; i++) {
        acc += out[i] * (1.0 + (double)i / (double)n);
        inv += i > 0 && out[i] < out[i - 1];
    }
    return acc / (double)n + inv;
}

typedef struct sort_state {
    const float *input;
    size_t n;
    gpuc *gpu;
    gpuc_sort_method method;
} sort_state;

/* The oracle: the same network, in place on one core (n must be a power of two). */
static int network_run(void *vs, float *a)
{
    sort_state *s = vs;
    memcpy(a, s->input, s->n * sizeof *a);
    for (size_t k = 2; k <= s->n; k <<= 1)
        for (size_t j = k >> 1; j > 0; j >>= 1)
            for (size_t i = 0; i < s->n; i++) {
                size_t l = i ^ j;
                if (l > i && (a[i] > a[l]) == ((i & k) == 0)) {
                    float t = a[i];
                    a[i] = a[l];
                    a[l] = t;
                }
            }
    return 0;
}

static int ascending(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

static int qsort_run(void *vs, float *a)
{
    sort_state *s = vs;
    memcpy(a, s->input, s->n * sizeof *a);
    qsort(a, s->n, sizeof *a, ascending);
    return 0;
}

static int gpuc_sort_run(void *vs, float *out)
{
    sort_state *s = vs;
    gpuc_array *sorted = NULL;
    int rc = gpuc_sort(s->gpu, gpuc_arg_host_f32(s->input, (gpuc_dims){(uint32_t)s->n}),
                       &(gpuc_sort_desc){.method = s->method}, &sorted) ||
             gpuc_array_read_f32(sorted, out, s->n);
    gpuc_array_free(sorted);
    return rc ? -1 : 0;
}

int row_sort(bench_env *env, const bench_params *p)
{
    sort_state s = {.n = p->n, .gpu = env->gpu};
    float *input = malloc(p->n * sizeof *input), *out = malloc(p->n * sizeof *out);
    if (!input || !out) {
        fprintf(stderr, "bitonic-sort: out of memory\n");
        free(input);
        free(out);
        return -1;
    }
    gauntlet_fill(input, p->n, p->seed, sort_value);
    s.input = input;
    bool pow2 = (p->n & (p->n - 1)) == 0;
    double oracle_ms = bench_measure(env, "bitonic-sort", pow2 ? "C oracle (network)" : "C oracle (qsort)",
                                     pow2 ? network_run : qsort_run, &s, out, p->n, sort_checksum, p, 0, 0, PUBLISHED);
    double oracle_sum = sort_checksum(out, p->n, p);
    double qsort_ms = pow2 ? bench_measure(env, "bitonic-sort", "C qsort (reference)", qsort_run, &s, out, p->n,
                                           sort_checksum, p, oracle_sum, oracle_ms, PUBLISHED)
                           : oracle_ms;
    s.method = GPUC_SORT_BITONIC;
    double bitonic_ms = bench_measure(env, "bitonic-sort", "gpuc_sort (bitonic)", gpuc_sort_run, &s, out, p->n,
                                      sort_checksum, p, oracle_sum, oracle_ms, PUBLISHED);
    if (bitonic_ms < 0)
        fprintf(stderr, "bitonic-sort: %s\n", gpuc_errmsg(env->gpu));
    s.method = GPUC_SORT_AUTO;
    const char *fastest = gpuc_get_info(env->gpu)->backend == GPUC_BACKEND_COMPUTE &&
                                      p->n > GPUC_SORT_RADIX_ABOVE_KEYS
                              ? "gpuc_sort (default: radix)" : "gpuc_sort (default: bitonic)";
    double default_ms = bench_measure(env, "bitonic-sort", fastest, gpuc_sort_run, &s, out, p->n, sort_checksum, p,
                                      oracle_sum, oracle_ms, PUBLISHED);
    if (default_ms < 0)
        fprintf(stderr, "bitonic-sort: %s\n", gpuc_errmsg(env->gpu));
    /* The sort's goal is read against qsort (issue 10: the fastest gpuc_sort <= 0.5x qsort). */
    if (qsort_ms > 0 && bitonic_ms > 0 && default_ms > 0)
        printf("%-16s (ratios to C qsort, same run: gpuc_sort bitonic %.2f, default %.2f)\n", "bitonic-sort",
               bitonic_ms / qsort_ms, default_ms / qsort_ms);
    free(input);
    free(out);
    return 0;
}
