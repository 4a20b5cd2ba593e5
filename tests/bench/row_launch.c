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

typedef struct launch_vec4_state {
    launch_state *base;
    gpuc_kernel *add4;
    gpuc_array *source, *ping, *pong;
} launch_vec4_state;

/* The same passes with vec4 cells: a quarter of the invocations, each moving 16 bytes. */
static int gpuc_vec4_run(void *vs, float *out)
{
    launch_vec4_state *s = vs;
    gpuc_array *from = s->source, *to = s->ping;
    for (int p = 0; p < s->base->passes; p++) {
        if (gpuc_run_to(s->add4, (gpuc_arg[]){gpuc_arg_array(from), gpuc_arg_f32(STEP)}, 2, to) != GPUC_OK)
            return -1;
        from = to;
        to = to == s->ping ? s->pong : s->ping;
    }
    return gpuc_array_read_f32(from, out, s->base->n) == GPUC_OK ? 0 : -1;
}

static gpuc_status make_arrays(gpuc *gpu, gpuc_type type, uint32_t cells, const float *input, gpuc_array **source,
                               gpuc_array **ping, gpuc_array **pong)
{
    gpuc_status st = gpuc_array_new(gpu, type, (gpuc_dims){cells}, source);
    if (st == GPUC_OK)
        st = gpuc_array_write_f32(*source, input, gpuc_array_values(*source));
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, type, (gpuc_dims){cells}, ping);
    if (st == GPUC_OK)
        st = gpuc_array_new(gpu, type, (gpuc_dims){cells}, pong);
    return st;
}

/* One launch row: the oracle, gpuc's passes, the same shader through bare GL, and vec4 cells. */
static void launch_columns(bench_env *env, const char *row, const bench_params *p, const float *input, float *out)
{
    launch_state s = {.input = input, .n = p->n, .passes = p->rounds};
    double oracle_ms = bench_measure(env, row, "C oracle", oracle_run, &s, out, p->n, launch_checksum, p, 0, 0,
                                     PUBLISHED);
    double oracle_sum = launch_checksum(out, p->n, p);

    gpuc_status st = gpuc_create_kernel(env->gpu, "float addStep(float a[], float step) { return a[thread.x] + step; }",
                                        &(gpuc_kernel_desc){.output = {(uint32_t)p->n}, .pipeline = true}, &s.add);
    if (st == GPUC_OK)
        st = make_arrays(env->gpu, GPUC_FLOAT, (uint32_t)p->n, input, &s.source, &s.ping, &s.pong);
    if (st == GPUC_OK) {
        bench_measure(env, row, "gpuc run_to ping-pong", gpuc_passes_run, &s, out, p->n, launch_checksum, p,
                      oracle_sum, oracle_ms, PUBLISHED);
        /* The bare-GL baseline dispatches gpuc's compute program: it has no fragment counterpart. */
        bool compute = gpuc_get_info(env->gpu)->backend == GPUC_BACKEND_COMPUTE;
        bare_gl *gl = compute ? bare_gl_open() : NULL;
        bare_gl_passes *bare = gl ? bare_gl_passes_prepare(gl, gpuc_kernel_glsl(s.add), "a", input, p->n, STEP,
                                                           p->rounds) : NULL;
        int pairs = 0;
        double paired = -1;
        if (bare && bench_measure(env, row, "bare GL, same shader", bare_gl_passes_run, bare, out, p->n,
                                  launch_checksum, p, oracle_sum, oracle_ms, PUBLISHED) > 0)
            paired = bench_paired_ratio(gpuc_passes_run, &s, bare_gl_passes_run, bare, out, &pairs);
        if (paired > 0) /* issue 10's goal for the one-cell row: gpuc within 1.2x of bare GL */
            printf("%-16s (gpuc / bare GL, runs taken in pairs: %.2f, the median of %d pairs)\n", row, paired, pairs);
        else if (compute && !bare)
            printf("%-16s %-28s (could not set up a bare GL context)\n", row, "bare GL, same shader");
        bare_gl_passes_release(bare);
        bare_gl_close(gl);
    }
    launch_vec4_state v = {.base = &s};
    if (st == GPUC_OK && p->n % 4 == 0) {
        st = gpuc_create_kernel(env->gpu, "vec4 addStep4(vec4 a[], float step) { return a[thread.x] + step; }",
                                &(gpuc_kernel_desc){.output = {(uint32_t)(p->n / 4)}, .pipeline = true}, &v.add4);
        if (st == GPUC_OK)
            st = make_arrays(env->gpu, GPUC_VEC4, (uint32_t)(p->n / 4), input, &v.source, &v.ping, &v.pong);
        if (st == GPUC_OK)
            bench_measure(env, row, "gpuc vec4 cells", gpuc_vec4_run, &v, out, p->n, launch_checksum, p, oracle_sum,
                          oracle_ms, PUBLISHED);
    }
    if (st != GPUC_OK) {
        fprintf(stderr, "%s: %s\n", row, gpuc_errmsg(env->gpu));
        env->failures++;
    }
    gpuc_array *arrays[] = {s.source, s.ping, s.pong, v.source, v.ping, v.pong};
    for (int i = 0; i < 6; i++)
        gpuc_array_free(arrays[i]);
    gpuc_kernel_free(s.add);
    gpuc_kernel_free(v.add4);
}

int row_launch(bench_env *env, const bench_params *p)
{
    float *input = malloc(p->n * sizeof *input), *out = malloc(p->n * sizeof *out);
    if (!input || !out) {
        fprintf(stderr, "launch-overhead: out of memory\n");
        free(input);
        free(out);
        return -1;
    }
    gauntlet_fill(input, p->n, p->seed, launch_value);
    launch_columns(env, "launch-overhead", p, input, out);
    /* The fixed cost of one call: the same passes over a single cell. */
    bench_params one = *p;
    one.n = 1;
    one.published = false;
    launch_columns(env, "launch-1-cell", &one, input, out);
    free(input);
    free(out);
    return 0;
}
