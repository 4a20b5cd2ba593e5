/* row_launch.c - gauntlet row `launch-overhead`: 512 dependent passes of one add over 2^20 floats.
 * Prices the fixed cost of one kernel call: upload once, ping-pong two device arrays, read back once. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STEP (1.0f / 1024.0f)
#define PUBLISHED 4.50216385159024

static float launch_value(uint32_t s)
{
    return (float)((double)(s >> 8) / 16777216.0 - 0.5);
}

static double launch_checksum(const float *out, size_t n, const bench_params *p)
{
    (void)p;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += out[i] * (1.0 + (double)(i % 17)) / (double)n;
    return sum;
}

typedef struct launch_state {
    const float *input;
    size_t n;
    int passes;
    gpuc_kernel *add;
    gpuc_array *source, *ping, *pong;
} launch_state;

static int oracle_run(void *vs, float *out)
{
    launch_state *s = vs;
    memcpy(out, s->input, s->n * sizeof *out);
    for (int p = 0; p < s->passes; p++)
        for (size_t i = 0; i < s->n; i++)
            out[i] += STEP;
    return 0;
}

static int gpuc_passes_run(void *vs, float *out)
{
    launch_state *s = vs;
    gpuc_array *from = s->source, *to = s->ping;
    for (int p = 0; p < s->passes; p++) {
        if (gpuc_run_to(s->add, (gpuc_arg[]){gpuc_arg_array(from), gpuc_arg_f32(STEP)}, 2, to) != GPUC_OK)
            return -1;
        from = to;
        to = to == s->ping ? s->pong : s->ping;
    }
    return gpuc_array_read_f32(from, out, s->n) == GPUC_OK ? 0 : -1;
}

int row_launch(bench_env *env, const bench_params *p)
{
    launch_state s = {.n = p->n, .passes = p->rounds};
    float *input = malloc(p->n * sizeof *input), *out = malloc(p->n * sizeof *out);
    if (!input || !out) {
        fprintf(stderr, "launch-overhead: out of memory\n");
        free(input);
        free(out);
        return -1;
    }
    gauntlet_fill(input, p->n, p->seed, launch_value);
    s.input = input;
    double oracle_ms = bench_measure(env, "launch-overhead", "C oracle", oracle_run, &s, out, p->n, launch_checksum, p,
                                     0, 0, PUBLISHED);
    double oracle_sum = launch_checksum(out, p->n, p);

    gpuc_status st = gpuc_create_kernel(env->gpu, "float addStep(float a[], float step) { return a[thread.x] + step; }",
                                        &(gpuc_kernel_desc){.output = {(uint32_t)p->n}, .pipeline = true}, &s.add);
    if (st == GPUC_OK)
        st = gpuc_array_from_f32(env->gpu, input, (gpuc_dims){(uint32_t)p->n}, &s.source);
    if (st == GPUC_OK)
        st = gpuc_array_new(env->gpu, GPUC_FLOAT, (gpuc_dims){(uint32_t)p->n}, &s.ping);
    if (st == GPUC_OK)
        st = gpuc_array_new(env->gpu, GPUC_FLOAT, (gpuc_dims){(uint32_t)p->n}, &s.pong);
    if (st == GPUC_OK)
        bench_measure(env, "launch-overhead", "gpuc run_to ping-pong", gpuc_passes_run, &s, out, p->n, launch_checksum,
                      p, oracle_sum, oracle_ms, PUBLISHED);
    else {
        fprintf(stderr, "launch-overhead: %s\n", gpuc_errmsg(env->gpu));
        env->failures++;
    }
    gpuc_array_free(s.source);
    gpuc_array_free(s.ping);
    gpuc_array_free(s.pong);
    gpuc_kernel_free(s.add);
    free(input);
    free(out);
    return 0;
}
