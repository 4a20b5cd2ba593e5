/* bench.h - the gauntlet benchmark (make bench): rows of tests/bench/README.md, each timed with the
 * gauntlet's protocol beside its plain C oracle measured in the same run. */
#ifndef GPUC_BENCH_H
#define GPUC_BENCH_H

#include <gpuc.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What a row runs on: the published defaults, or the user's --n/--rounds/--seed. */
typedef struct bench_params {
    size_t n;
    int rounds; /* rounds (topk, compaction) or passes (launch-overhead); unused by sort */
    uint32_t seed;
    bool published; /* all three are the published ones: the checksum must equal the published value */
    bool sweep;     /* the scaling sweep: only the algorithm's own columns, not the CPU-runtime tables */
} bench_params;

/* One measured cell, kept for the scaling table and chart. The names are copies: columns are often
 * formatted into a caller's buffer that is gone by the time the table is printed. */
typedef struct bench_result {
    char row[32], column[64];
    const char *backend; /* "compute" or "fragment": gpuc_info's, alive as long as the context */
    size_t n;
    double median_ms;
} bench_result;

#define BENCH_MAX_RESULTS 256

struct zoo_gpujs; /* zoo_gpujs.c: GPU.js's cells, run once per process and kept for every backend */

typedef struct bench_env {
    gpuc *gpu;
    const char *backend; /* gpuc_info.backend_name of gpu */
    FILE *json; /* NULL unless --json */
    int json_rows;
    int failures; /* WRONG results and errors */
    bench_result results[BENCH_MAX_RESULTS];
    int nresults;
    bool no_gpujs;           /* --no-gpujs: the zoo rows leave GPU.js out */
    struct zoo_gpujs *gpujs; /* NULL until a zoo row asks; zoo_gpujs_free releases it */
} bench_env;

/* Keeps one cell for the scaling table and chart (names copied; cells past BENCH_MAX_RESULTS dropped). */
void bench_keep(bench_env *env, const char *row, const char *column, size_t n, double median_ms);

/* One timed formulation: run() computes the row's result into host memory `out` and returns 0, or
 * prints why not and returns -1. */
typedef int (*bench_run_fn)(void *state, float *out);

/* Times `run` with the gauntlet protocol (two warm-ups, then the median of at least 3 runs, more while
 * runs are short: about one second in all), checks the checksum of its last result against the
 * oracle's, and prints a table line. Returns the median in ms (or -1 on failure). */
double bench_measure(bench_env *env, const char *row, const char *column, bench_run_fn run, void *state,
                     float *out, size_t out_len, double (*checksum)(const float *, size_t, const bench_params *),
                     const bench_params *p, double oracle_checksum, double oracle_ms, double published);

/* The timing protocol alone (bench_measure's): two untimed warm-ups, then the median of at least 3
 * runs, more while runs are short (about one second in all). Returns the median in ms and sets *runs,
 * or returns -1 when a run failed. */
double bench_time(bench_run_fn run, void *state, float *out, int *runs);

/* The ratio of two formulations' times, a over b, as the median of runs taken in pairs, one after the
 * other (alternating which goes first), after two warm-ups of each: a drift of the machine between
 * two bench_time calls (llvmpipe's worker threads wake faster or slower from one moment to the next)
 * then moves both sides of a pair alike. Returns -1 when a run failed; *pairs_out: the pairs timed. */
double bench_paired_ratio(bench_run_fn a, void *state_a, bench_run_fn b, void *state_b, float *out, int *pairs_out);

/* Writes s as a JSON string literal (quotes and backslashes escaped, control characters dropped). */
void bench_json_string(FILE *f, const char *s);

/* The gauntlet's data fill: s = seed; each i: s = s * 1664525 + 1013904223; a[i] = map(s). */
void gauntlet_fill(float *a, size_t n, uint32_t seed, float (*map)(uint32_t s));

/* Rows. Each returns 0 when every column ran and matched. */
int row_topk(bench_env *env, const bench_params *p);
int row_sort(bench_env *env, const bench_params *p);
int row_compaction(bench_env *env, const bench_params *p);
int row_launch(bench_env *env, const bench_params *p);
/* Small calls (row_small.c): brain.js-style layers on 1 to 16,384 cells beside C and GPU.js, per call. */
int row_small(bench_env *env, const bench_params *p);

/* The kernel zoo (tests/bench/README.md "Kernel zoo"; opt-in: --row zoo): kernels users write, in GLSL
 * and pasted GPU.js JavaScript, beside naive C -O3 and GPU.js in node. n is the row's size (matmul,
 * life, conv5: the side; mandelbrot: the width; nbody: the bodies); rounds: life's generations. */
int row_zoo_matmul(bench_env *env, const bench_params *p);
int row_zoo_life(bench_env *env, const bench_params *p);
int row_zoo_conv5(bench_env *env, const bench_params *p);
int row_zoo_mandelbrot(bench_env *env, const bench_params *p);
int row_zoo_nbody(bench_env *env, const bench_params *p);
void zoo_gpujs_free(bench_env *env);

/* The bare-GL baseline (bare_gl.c): a context of its own, and `passes` dispatches of a program that
 * gpuc generated (gpuc_kernel_glsl), ping-ponging two buffers from `input`, array_name the kernel's one
 * array parameter (NULL for none), `step` its float scalar named "step". */
typedef struct bare_gl bare_gl;
typedef struct bare_gl_passes bare_gl_passes;
bare_gl *bare_gl_open(void);
void bare_gl_close(bare_gl *b);
bare_gl_passes *bare_gl_passes_prepare(bare_gl *b, const char *glsl, const char *array_name, const float *input,
                                       size_t n, float step, int passes);
int bare_gl_passes_run(void *state, float *out); /* a bench_run_fn */
void bare_gl_passes_release(bare_gl_passes *s);

/* --scaling: each algorithm row at n = 2^10, 2^12, .., 2^24, one round, beside its oracle; prints the
 * table and, where gnuplot is installed, writes a PNG chart to `chart_path`. */
void bench_scaling(bench_env *env, const char *chart_path, size_t max_n);

/* The gauntlet's top-k formulation in gpuc kernels (topk_bisect.c): per-tile maxima, a count above the
 * k-th largest maximum, halvings of the value bracket only when too many lie above it, a tile-walking
 * gather of the survivors. For the topk row's data (multiples of 2^-22 in [0, 2)); values must be a 1D
 * float device array of n values. */
typedef struct topk_bisect topk_bisect;
topk_bisect *topk_bisect_create(gpuc *gpu, size_t n, size_t k);
int topk_bisect_round(topk_bisect *b, const gpuc_array *values, float bias, float *out); /* out: k, descending */
void topk_bisect_free(topk_bisect *b);

/* Monotonic milliseconds. */
double bench_now_ms(void);

#endif
