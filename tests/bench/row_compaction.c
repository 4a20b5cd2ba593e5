/* row_compaction.c - gauntlet row `compaction`: 2^22 floats, 24 rounds; round r keeps the elements
 * >= (4095 + 2r) / 8192 in input order, packed at the front of an n-long output whose tail is zero. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PUBLISHED 3.351105827256106

static float compaction_value(uint32_t s)
{
    return (float)((double)(s >> 20) / 4096.0);
}

static float round_threshold(int r)
{
    return (float)((4095.0 + 2.0 * r) / 8192.0);
}

static double compaction_checksum(const float *out, size_t n, const bench_params *p)
{
    (void)p;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += out[i] * (1.0 + (double)(i % 17)) / (double)n;
    return sum;
}

typedef struct compaction_state {
    const float *input;
    size_t n;
    int rounds;
    gpuc *gpu;
    gpuc_compact_method method;
} compaction_state;

static int oracle_run(void *vs, float *out)
{
    compaction_state *s = vs;
    for (int r = 0; r < s->rounds; r++) {
        float t = round_threshold(r);
        size_t cursor = 0;
        for (size_t i = 0; i < s->n; i++)
            if (s->input[i] >= t)
                out[cursor++] = s->input[i];
        memset(out + cursor, 0, (s->n - cursor) * sizeof *out);
    }
    return 0;
}

/* gpuc: upload once, then gpuc_compact per round on the device array; the last round is read back. */
static int gpuc_compact_run(void *vs, float *out)
{
    compaction_state *s = vs;
    gpuc_array *input;
    if (gpuc_array_from_f32(s->gpu, s->input, (gpuc_dims){(uint32_t)s->n}, &input) != GPUC_OK)
        return -1;
    int rc = 0;
    for (int r = 0; r < s->rounds && rc == 0; r++) {
        gpuc_array *packed = NULL;
        size_t count = 0;
        /* The gauntlet's output: survivors first, then zeros, n long (.full_length). */
        gpuc_compact_desc desc = {.op = GPUC_GREATER_EQUAL, .threshold = round_threshold(r), .method = s->method,
                                  .full_length = true};
        rc = gpuc_compact(s->gpu, gpuc_arg_array(input), &desc, &packed, &count) != GPUC_OK;
        if (rc == 0 && r == s->rounds - 1)
            rc = gpuc_array_read_f32(packed, out, s->n) != GPUC_OK;
        gpuc_array_free(packed);
    }
    gpuc_array_free(input);
    return rc ? -1 : 0;
}

int row_compaction(bench_env *env, const bench_params *p)
{
    compaction_state s = {.n = p->n, .rounds = p->rounds, .gpu = env->gpu};
    float *input = malloc(p->n * sizeof *input), *out = malloc(p->n * sizeof *out);
    if (!input || !out) {
        fprintf(stderr, "compaction: out of memory\n");
        free(input);
        free(out);
        return -1;
    }
    gauntlet_fill(input, p->n, p->seed, compaction_value);
    s.input = input;
    double oracle_ms = bench_measure(env, "compaction", "C oracle (cursor)", oracle_run, &s, out, p->n,
                                     compaction_checksum, p, 0, 0, PUBLISHED);
    double oracle_sum = compaction_checksum(out, p->n, p);
    static const struct {
        gpuc_compact_method method;
        const char *label;
    } methods[] = {{GPUC_COMPACT_GATHER, "gpuc_compact gather"}, {GPUC_COMPACT_SCATTER, "gpuc_compact scatter"}};
    for (int m = 0; m < 2; m++) {
        s.method = methods[m].method;
        if (s.method == GPUC_COMPACT_SCATTER && gpuc_get_info(env->gpu)->backend == GPUC_BACKEND_FRAGMENT) {
            printf("%-16s %-28s (compute-only: a fragment shader writes only its own cell)\n", "compaction",
                   methods[m].label);
            continue;
        }
        if (bench_measure(env, "compaction", methods[m].label, gpuc_compact_run, &s, out, p->n, compaction_checksum,
                          p, oracle_sum, oracle_ms, PUBLISHED) < 0)
            fprintf(stderr, "compaction: %s\n", gpuc_errmsg(env->gpu));
    }
    free(input);
    free(out);
    return 0;
}
