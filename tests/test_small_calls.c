/* test_small_calls.c - a default-threads context's small calls on its calling-thread twin
 * (kernel/small_calls.c): the results equal a C oracle and a context kept on llvmpipe's pool
 * (GPUC_SMALL_CALLS=pool) call for call, the twin is taken only for what it handles and below the work
 * bound, and errors, counters and frees are those of the context's own path. gpuc_kernel_describe says
 * whether a kernel's calls go to the twin, so every test asserts the path it meant to take (on zink,
 * where no call goes to a twin, that every call stays on the pool and still gives the C answer). */
#include "fixture.h"
#include "suites.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUNS 6    /* past the twin's warm-up of 3 runs */
#define N 1000

static const char *const TWIN = "small calls in the calling thread";

/* Whether g's small calls may go to a twin at all: not on zink, where the thread pool is lavapipe's
 * and gpuc keeps every call on it (src/device/context.c); there every test checks the pool's path. */
static bool twin_here(const gpuc *g)
{
    return strncmp(gpuc_get_info(g)->renderer, "zink", 4) != 0;
}

static bool on_twin(const gpuc_kernel *k)
{
    return strstr(gpuc_kernel_describe(k), TWIN) != NULL;
}

static gpuc_kernel *make(gpuc *g, const char *src, gpuc_dims out, bool js)
{
    gpuc_kernel_desc d = {0};
    d.output = out;
    d.constants[0] = (gpuc_constant){.name = "scale", .value = 3.0};
    gpuc_kernel *k = NULL;
    gpuc_status st = js ? gpuc_create_kernel_js(g, src, &d, &k) : gpuc_create_kernel(g, src, &d, &k);
    ck_assert_msg(st == GPUC_OK, "%s", gpuc_errmsg(g));
    return k;
}

/* Runs k with args RUNS times, each result checked against want (n values, exact or within tol). */
static void run_checked(gpuc_kernel *k, gpuc *g, const gpuc_arg *args, int nargs, const float *want, size_t n,
                        float tol)
{
    float *got = malloc(n * sizeof *got);
    for (int r = 0; r < RUNS; r++) {
        gpuc_array *res = NULL;
        ck_assert_msg(gpuc_run(k, args, nargs, &res) == GPUC_OK, "%s", gpuc_errmsg(g));
        ck_assert_msg(gpuc_array_read_f32(res, got, n) == GPUC_OK, "%s", gpuc_errmsg(g));
        for (size_t i = 0; i < n; i++)
            ck_assert_msg(got[i] >= want[i] - tol && got[i] <= want[i] + tol, "run %d, cell %zu: %g, want %g", r,
                          i, (double)got[i], (double)want[i]);
        gpuc_array_free(res);
    }
    free(got);
}

static void fill(float *v, size_t n, float base)
{
    for (size_t i = 0; i < n; i++)
        v[i] = base + (float)(i % 97) / 97.0f;
}

static const char *const DELTA = "float delta(float o[], float e[]) { float v = o[thread.x]; "
                                 "return e[thread.x] * v * (1.0 - v) * constants.scale; }";

/* The delta's inputs (o in [0, 1), e in [1, 2)) and its C answer, for N cells. */
static void delta_case(float *o, float *e, float *want)
{
    fill(o, N, 0.0f);
    fill(e, N, 1.0f);
    for (int i = 0; i < N; i++)
        want[i] = e[i] * o[i] * (1.0f - o[i]) * 3.0f;
}

START_TEST(glsl_float_1d_matches_pool_and_c)
{
    float o[N], e[N], want[N];
    delta_case(o, e, want);
    gpuc_arg args[2] = {gpuc_arg_host_f32(o, (gpuc_dims){N}), gpuc_arg_host_f32(e, (gpuc_dims){N})};
    gpuc *pool = fixture_open_pool();
    gpuc_kernel *k = make(gpu, DELTA, (gpuc_dims){N}, false), *kp = make(pool, DELTA, (gpuc_dims){N}, false);
    run_checked(kp, pool, args, 2, want, N, 1e-6f);
    run_checked(k, gpu, args, 2, want, N, 1e-6f);
    ck_assert_msg(on_twin(k) == twin_here(gpu), "%s", gpuc_kernel_describe(k));
    ck_assert_msg(!on_twin(kp), "%s", gpuc_kernel_describe(kp));
    ck_assert_msg(!twin_here(gpu) || strstr(gpuc_kernel_describe(k), ": 3 runs") != NULL, "%s",
                  gpuc_kernel_describe(k));
    /* Bit for bit the pool's result: the same program on the same driver. */
    gpuc_array *a = NULL, *b = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, args, 2, &a));
    ck_assert_msg(gpuc_run(kp, args, 2, &b) == GPUC_OK, "%s", gpuc_errmsg(pool));
    float *x = fixture_take_floats(a, N), *y = fixture_take_floats(b, N);
    ck_assert(memcmp(x, y, sizeof(float) * N) == 0);
    free(x);
    free(y);
    gpuc_close(pool);
}
END_TEST

START_TEST(int_2d_and_js_layer_match_c)
{
    enum { W = 16, H = 40 };
    int32_t in[W * H];
    for (int i = 0; i < W * H; i++)
        in[i] = i * 7 - 300;
    gpuc_kernel *ki = make(gpu, "int mix(int a[][]) { return a[thread.y][thread.x] * int(constants.scale) + thread.y; }",
                           (gpuc_dims){W, H}, false);
    gpuc_arg ia = gpuc_arg_host_i32(in, (gpuc_dims){W, H});
    for (int r = 0; r < RUNS; r++) {
        gpuc_array *res = NULL;
        ck_assert_gpuc_ok(gpuc_run(ki, &ia, 1, &res));
        int32_t *got = fixture_take_ints(res, W * H);
        for (int i = 0; i < W * H; i++)
            ck_assert_int_eq(got[i], in[i] * 3 + i / W);
        free(got);
    }
    ck_assert_msg(on_twin(ki) == twin_here(gpu), "%s", gpuc_kernel_describe(ki));

    /* brain.js's layer in JavaScript: a counted loop (16 iterations a cell, 64 cells: under the bound). */
    enum { CELLS = 64, INPUTS = 16 };
    float w[CELLS * INPUTS], x[INPUTS], bias[CELLS], want[CELLS];
    fill(w, CELLS * INPUTS, -0.5f);
    fill(x, INPUTS, 0.25f);
    fill(bias, CELLS, -1.0f);
    for (int c = 0; c < CELLS; c++) {
        float s = bias[c];
        for (int i = 0; i < INPUTS; i++)
            s += w[c * INPUTS + i] * x[i];
        want[c] = 1.0f / (1.0f + expf(-s));
    }
    gpuc_kernel *kl = make(gpu,
                           "function (weights, inputs, biases) {\n"
                           "  let sum = biases[this.thread.x];\n"
                           "  for (let k = 0; k < 16; k++) { sum += weights[this.thread.x][k] * inputs[k]; }\n"
                           "  return 1 / (1 + Math.exp(-sum));\n"
                           "}",
                           (gpuc_dims){CELLS}, true);
    gpuc_arg la[3] = {gpuc_arg_host_f32(w, (gpuc_dims){INPUTS, CELLS}), gpuc_arg_host_f32(x, (gpuc_dims){INPUTS}),
                      gpuc_arg_host_f32(bias, (gpuc_dims){CELLS})};
    run_checked(kl, gpu, la, 3, want, CELLS, 1e-5f);
    ck_assert_msg(on_twin(kl) == twin_here(gpu), "%s", gpuc_kernel_describe(kl));
}
END_TEST

/* A loop-free kernel (each cell its value times 3) of `at` cells, with or without .pipeline, takes the
 * twin, one of at + 1 cells does not; both compute the same. v and want hold at + 1 values. */
static void bound_one_below_and_above(size_t at, bool pipeline, float *v, float *want)
{
    fill(v, at + 1, 2.0f);
    for (size_t i = 0; i <= at; i++)
        want[i] = v[i] * 3.0f;
    for (size_t n = at; n <= at + 1; n++) {
        gpuc_kernel *k = NULL;
        gpuc_kernel_desc d = {.output = {(uint32_t)n}, .pipeline = pipeline};
        ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float f(float a[]) { return a[thread.x] * 3.0; }", &d, &k));
        gpuc_arg a = gpuc_arg_host_f32(v, (gpuc_dims){(uint32_t)n});
        run_checked(k, gpu, &a, 1, want, n, 0.0f);
        ck_assert_msg(on_twin(k) == (twin_here(gpu) && n == at), "%zu cells%s: %s", n, pipeline ? ", .pipeline" : "",
                      gpuc_kernel_describe(k));
        gpuc_kernel_free(k);
    }
}

/* Work is output cells times a cell's most loop iterations: a loop-free kernel's work is its cells. */
START_TEST(work_bound_one_below_and_above)
{
    const size_t at = 131072;
    float *v = malloc((at + 1) * sizeof *v), *want = malloc((at + 1) * sizeof *want);
    bound_one_below_and_above(at, false, v, want);
    free(v);
    free(want);
}
END_TEST

/* A .pipeline kernel also has a bound on its cells (the twin reads each back): 16,384 cells take the
 * twin, one more does not, and a kernel with a loop takes it by its work as any other (1,024 cells of
 * 16 iterations). */
START_TEST(pipeline_work_bound_one_below_and_above)
{
    const size_t at = 16384;
    float *v = malloc((at + 1) * sizeof *v), *want = malloc((at + 1) * sizeof *want);
    bound_one_below_and_above(at, true, v, want);
    enum { CELLS = 1024, TERMS = 16 };
    for (size_t i = 0; i < CELLS; i++) {
        float sum = 0.0f;
        for (int j = 0; j < TERMS; j++)
            sum += v[i + (size_t)j];
        want[i] = sum;
    }
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(
        gpu, "float f(float a[]) { float s = 0.0; for (int j = 0; j < 16; j++) s += a[thread.x + j]; return s; }",
        &(gpuc_kernel_desc){.output = {CELLS}, .pipeline = true}, &k));
    gpuc_arg a = gpuc_arg_host_f32(v, (gpuc_dims){(uint32_t)(at + 1)});
    run_checked(k, gpu, &a, 1, want, CELLS, 0.0f);
    ck_assert_msg(on_twin(k) == twin_here(gpu), "%s", gpuc_kernel_describe(k));
    gpuc_kernel_free(k);
    free(v);
    free(want);
}
END_TEST

/* A device array of g holding v's n values and no host copy of them (a .pipeline kernel's result). */
static gpuc_array *device_only(gpuc *g, const float *v, size_t n)
{
    gpuc_kernel *copy = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(g, "float copy(float a[]) { return a[thread.x]; }",
                                         &(gpuc_kernel_desc){.output = {(uint32_t)n}, .pipeline = true}, &copy));
    gpuc_array *a = NULL;
    ck_assert_gpuc_ok(gpuc_run(copy, (gpuc_arg[]){gpuc_arg_host_f32(v, (gpuc_dims){(uint32_t)n})}, 1, &a));
    gpuc_kernel_free(copy);
    return a;
}

/* What the twin does not handle keeps the context's path, and stays correct. */
START_TEST(not_eligible_stays_on_the_pool)
{
    float o[N], e[N], want[N];
    delta_case(o, e, want);
    /* Device arrays the host holds no copy of (.pipeline results): the calls stay where the data is. */
    gpuc_kernel *k = make(gpu, DELTA, (gpuc_dims){N}, false);
    gpuc_array *da = device_only(gpu, o, N), *db = device_only(gpu, e, N);
    gpuc_arg dev[2] = {gpuc_arg_array(da), gpuc_arg_array(db)};
    run_checked(k, gpu, dev, 2, want, N, 1e-6f);
    ck_assert_msg(!on_twin(k), "%s", gpuc_kernel_describe(k));
    /* An array constant (its uniform buffer is the context's). */
    static const float table[4] = {1, 2, 3, 4};
    gpuc_kernel_desc d = {0};
    d.output = (gpuc_dims){N};
    d.constants[0] = (gpuc_constant){.name = "t", .values = table, .dims = {4}};
    gpuc_kernel *kc = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float f(float a[]) { return a[thread.x] * constants.t[thread.x % 4]; }", &d,
                                         &kc));
    float cwant[N];
    for (int i = 0; i < N; i++)
        cwant[i] = o[i] * table[i % 4];
    gpuc_arg a = gpuc_arg_host_f32(o, (gpuc_dims){N});
    run_checked(kc, gpu, &a, 1, cwant, N, 0.0f);
    ck_assert_msg(!on_twin(kc), "%s", gpuc_kernel_describe(kc));
    gpuc_array_free(da);
    gpuc_array_free(db);
}
END_TEST

/* Adds what g's counters moved by since `before` to *counted (uploads, dispatches, read-backs, bytes
 * uploaded). */
static void add_counts(gpuc *g, const gpuc_stats *before, gpuc_stats *counted)
{
    gpuc_stats after;
    ck_assert_gpuc_ok(gpuc_get_stats(g, &after));
    counted->uploads += after.uploads - before->uploads;
    counted->dispatches += after.dispatches - before->dispatches;
    counted->readbacks += after.readbacks - before->readbacks;
    counted->bytes_uploaded += after.bytes_uploaded - before->bytes_uploaded;
}

/* Readbacks that reading `a` costs on g: none when its values came back with it. */
static uint64_t read_costs(gpuc *g, gpuc_array *a, size_t n, bool ints)
{
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(g, &before));
    void *buf = malloc(n * 4);
    ck_assert_gpuc_ok(ints ? gpuc_array_read_i32(a, buf, n) : gpuc_array_read_f32(a, buf, n));
    free(buf);
    ck_assert_gpuc_ok(gpuc_get_stats(g, &after));
    return after.readbacks - before.readbacks;
}

/* .pipeline kernels go to the twin too, which reads their results back and counts their runs as the
 * context's path does (nothing read back): reading such a result then reads nothing back. A chain of
 * two, the second given the first's result, goes whole to the twin once the second has warmed up on
 * that host-held result; a run_to lands in a device array that a kernel on the context then reads. */
START_TEST(pipeline_calls_on_the_twin)
{
    float x[N], got[N];
    fill(x, N, 0.0f);
    gpuc *pool = fixture_open_pool();
    gpuc *ctx[2] = {gpu, pool};
    gpuc_kernel *lin[2], *sq[2];
    gpuc_stats counted[2] = {{0}, {0}};
    bool twin = twin_here(gpu);
    for (int c = 0; c < 2; c++) {
        gpuc_kernel_desc d = {.output = {N}, .pipeline = true};
        ck_assert_gpuc_ok(gpuc_create_kernel(ctx[c], "float lin(float x[]) { return x[thread.x] * 2.0 + 1.0; }", &d,
                                             &lin[c]));
        ck_assert_gpuc_ok(gpuc_create_kernel(ctx[c], "float sq(float a[]) { return a[thread.x] * a[thread.x]; }", &d,
                                             &sq[c]));
    }
    /* lin takes the twin at its 4th run (r = 3); sq, given lin's host-held result from then on, at r = 6 */
    for (int r = 0; r < 2 * RUNS; r++)
        for (int c = 0; c < 2; c++) {
            gpuc_stats before;
            ck_assert_gpuc_ok(gpuc_get_stats(ctx[c], &before));
            gpuc_array *a = NULL, *b = NULL;
            ck_assert_gpuc_ok(gpuc_run(lin[c], (gpuc_arg[]){gpuc_arg_host_f32(x, (gpuc_dims){N})}, 1, &a));
            ck_assert_gpuc_ok(gpuc_run(sq[c], (gpuc_arg[]){gpuc_arg_array(a)}, 1, &b));
            add_counts(ctx[c], &before, &counted[c]);
            uint64_t cost = read_costs(ctx[c], b, N, false);
            bool on_twin_now = twin && c == 0 && r >= 6;
            ck_assert_msg(cost == (on_twin_now ? 0 : 1), "context %d, run %d: reading the result read back %d times",
                          c, r, (int)cost);
            ck_assert_gpuc_ok(gpuc_array_read_f32(b, got, N));
            for (int i = 0; i < N; i++) {
                float w = x[i] * 2.0f + 1.0f;
                ck_assert_msg(got[i] == w * w, "context %d, run %d, cell %d: %g, want %g", c, r, i, (double)got[i],
                              (double)(w * w));
            }
            gpuc_array_free(a);
            gpuc_array_free(b);
        }
    ck_assert_msg(on_twin(lin[0]) == twin && on_twin(sq[0]) == twin, "%s / %s", gpuc_kernel_describe(lin[0]),
                  gpuc_kernel_describe(sq[0]));
    ck_assert_uint_eq(counted[0].readbacks, 0); /* .pipeline runs read nothing back, on either path */
    ck_assert_uint_eq(counted[1].readbacks, 0);
    ck_assert_uint_eq(counted[0].uploads, counted[1].uploads);
    ck_assert_uint_eq(counted[0].bytes_uploaded, counted[1].bytes_uploaded);
    ck_assert_uint_eq(counted[0].dispatches, counted[1].dispatches);
    /* run_to into a device array: the values land there, and a kernel on the context reads them */
    gpuc_array *dst = NULL;
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){N}, &dst));
    ck_assert_gpuc_ok(gpuc_run_to(lin[0], (gpuc_arg[]){gpuc_arg_host_f32(x, (gpuc_dims){N})}, 1, dst));
    gpuc_kernel *copy = make(gpu, "float c(float a[]) { return a[thread.x]; }", (gpuc_dims){N}, false);
    gpuc_array *c = NULL;
    ck_assert_gpuc_ok(gpuc_run(copy, (gpuc_arg[]){gpuc_arg_array(dst)}, 1, &c));
    float *back = fixture_take_floats(c, N);
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(back[i], x[i] * 2.0f + 1.0f);
    free(back);
    gpuc_array_free(dst);
    gpuc_kernel_free(copy);
    gpuc_kernel_free(lin[0]);
    gpuc_kernel_free(sq[0]);
    gpuc_close(pool);
}
END_TEST

/* gpuc_run_to writes the twin's result into the caller's array, which then reads as a run's. */
START_TEST(run_to_lands_in_the_callers_array)
{
    float o[N], e[N], got[N];
    fill(o, N, 0.0f);
    fill(e, N, 1.0f);
    gpuc_kernel *k = make(gpu, DELTA, (gpuc_dims){N}, false);
    gpuc_arg args[2] = {gpuc_arg_host_f32(o, (gpuc_dims){N}), gpuc_arg_host_f32(e, (gpuc_dims){N})};
    gpuc_array *dst = NULL;
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_FLOAT, (gpuc_dims){N}, &dst));
    for (int r = 0; r < RUNS; r++) {
        e[0] = (float)r;
        ck_assert_gpuc_ok(gpuc_run_to(k, args, 2, dst));
        ck_assert_gpuc_ok(gpuc_array_read_f32(dst, got, N));
        ck_assert_float_eq(got[0], e[0] * o[0] * (1.0f - o[0]) * 3.0f);
    }
    ck_assert_msg(on_twin(k) == twin_here(gpu), "%s", gpuc_kernel_describe(k));
    /* The array is the context's like any other: another kernel reads it on the device. */
    gpuc_kernel *copy = make(gpu, "float c(float a[]) { return a[thread.x]; }", (gpuc_dims){N}, false);
    gpuc_arg da = gpuc_arg_array(dst);
    gpuc_array *c = NULL;
    ck_assert_gpuc_ok(gpuc_run(copy, &da, 1, &c));
    float *back = fixture_take_floats(c, N);
    ck_assert(memcmp(back, got, sizeof got) == 0);
    free(back);
    gpuc_array_free(dst);
}
END_TEST

static int float_order(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* A small call's result lives on the host until it is used on the device (internal.h,
 * ARRAY_HOST_HELD): every array call takes it as any array, and the device sees its values. */
START_TEST(a_small_result_serves_every_array_call)
{
    float o[N], e[N], want[N], got[N];
    delta_case(o, e, want);
    gpuc_kernel *k = make(gpu, DELTA, (gpuc_dims){N}, false);
    gpuc_arg args[2] = {gpuc_arg_host_f32(o, (gpuc_dims){N}), gpuc_arg_host_f32(e, (gpuc_dims){N})};
    gpuc_array *res[5] = {NULL};
    for (int r = 0; r < RUNS; r++) { /* past the warm-up: the last results come from the twin */
        gpuc_array_free(res[0]);
        res[0] = NULL;
        ck_assert_msg(gpuc_run(k, args, 2, &res[0]) == GPUC_OK, "%s", gpuc_errmsg(gpu));
    }
    for (int i = 1; i < 5; i++)
        ck_assert_msg(gpuc_run(k, args, 2, &res[i]) == GPUC_OK, "%s", gpuc_errmsg(gpu));
    ck_assert_msg(on_twin(k) == twin_here(gpu), "%s", gpuc_kernel_describe(k));
    /* 0: read by a kernel on the device (a device array argument keeps the pool's path) */
    gpuc_kernel *twice = make(gpu, "float t(float a[]) { return 2.0 * a[thread.x]; }", (gpuc_dims){N}, false);
    gpuc_arg on_device = gpuc_arg_array(res[0]);
    gpuc_array *doubled = NULL;
    ck_assert_gpuc_ok(gpuc_run(twice, &on_device, 1, &doubled));
    float *d = fixture_take_floats(doubled, N);
    for (int i = 0; i < N; i++)
        ck_assert_msg(d[i] == 2.0f * want[i] || fabsf(d[i] - 2.0f * want[i]) <= 2e-6f, "cell %d: %g, want %g", i,
                      (double)d[i], 2.0 * want[i]);
    free(d);
    /* 1: cloned, the clone read */
    gpuc_array *clone = NULL;
    ck_assert_gpuc_ok(gpuc_array_clone(res[1], &clone));
    float *c = fixture_take_floats(clone, N);
    ck_assert_gpuc_ok(gpuc_array_read_f32(res[1], got, N));
    ck_assert(memcmp(c, got, sizeof got) == 0);
    for (int i = 0; i < N; i++)
        ck_assert_msg(fabsf(got[i] - want[i]) <= 1e-6f, "cell %d: %g, want %g", i, (double)got[i], (double)want[i]);
    free(c);
    /* 2: written, then read; 3: cleared, then read */
    ck_assert_gpuc_ok(gpuc_array_write_f32(res[2], o, N));
    ck_assert_gpuc_ok(gpuc_array_read_f32(res[2], got, N));
    ck_assert(memcmp(got, o, sizeof got) == 0);
    ck_assert_gpuc_ok(gpuc_array_clear(res[3]));
    ck_assert_gpuc_ok(gpuc_array_read_f32(res[3], got, N));
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(got[i], 0.0f);
    /* 4: sorted by an algorithm (a device array: the context's path) against qsort */
    gpuc_array *sorted = NULL;
    ck_assert_msg(gpuc_sort(gpu, gpuc_arg_array(res[4]), NULL, &sorted) == GPUC_OK, "%s", gpuc_errmsg(gpu));
    ck_assert_gpuc_ok(gpuc_array_read_f32(res[4], got, N));
    qsort(got, N, sizeof got[0], float_order);
    float *s = fixture_take_floats(sorted, N);
    ck_assert(memcmp(s, got, sizeof got) == 0);
    free(s);
    /* and a small call's result as gpuc_run_to's dst, read back */
    e[0] = 5.0f;
    ck_assert_gpuc_ok(gpuc_run_to(k, args, 2, res[0]));
    ck_assert_gpuc_ok(gpuc_array_read_f32(res[0], got, N));
    ck_assert_float_eq(got[0], 5.0f * o[0] * (1.0f - o[0]) * 3.0f);
    ck_assert_float_eq(got[N - 1], want[N - 1]);
    for (int i = 0; i < 5; i++)
        gpuc_array_free(res[i]);
    gpuc_kernel_free(twice);
}
END_TEST

/* A host argument of the wrong rank fails as on the pool, before anything runs. */
START_TEST(errors_unchanged)
{
    float o[N], e[N];
    fill(o, N, 0.0f);
    fill(e, N, 1.0f);
    gpuc *pool = fixture_open_pool();
    gpuc_kernel *k = make(gpu, DELTA, (gpuc_dims){N}, false), *kp = make(pool, DELTA, (gpuc_dims){N}, false);
    gpuc_arg args[2] = {gpuc_arg_host_f32(o, (gpuc_dims){N}), gpuc_arg_host_f32(e, (gpuc_dims){N})};
    float want[N];
    for (int i = 0; i < N; i++)
        want[i] = e[i] * o[i] * (1.0f - o[i]) * 3.0f;
    run_checked(k, gpu, args, 2, want, N, 1e-6f);
    ck_assert_msg(on_twin(k) == twin_here(gpu), "%s", gpuc_kernel_describe(k));
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    gpuc_arg bad[2] = {gpuc_arg_host_f32(o, (gpuc_dims){N / 10, 10}), gpuc_arg_host_f32(e, (gpuc_dims){N})};
    gpuc_array *res = (gpuc_array *)(void *)&before; /* must stay as it is */
    gpuc_status st = gpuc_run(k, bad, 2, &res), stp = gpuc_run(kp, bad, 2, &res);
    ck_assert_int_eq(st, GPUC_ERROR_TYPE_MISMATCH);
    ck_assert_int_eq(stp, st);
    ck_assert_str_eq(gpuc_errmsg(gpu), gpuc_errmsg(pool));
    ck_assert_ptr_eq(res, (gpuc_array *)(void *)&before);
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_int_eq(after.uploads, before.uploads);
    ck_assert_int_eq(after.dispatches, before.dispatches);
    gpuc_close(pool);
}
END_TEST

/* The context's counters and the kernel's count a twin run as the context's own path counts it. */
/* What g's counters moved by since `before`. */
static gpuc_stats counts_since(gpuc *g, const gpuc_stats *before)
{
    gpuc_stats now;
    ck_assert_gpuc_ok(gpuc_get_stats(g, &now));
    return (gpuc_stats){.uploads = now.uploads - before->uploads,
                        .bytes_uploaded = now.bytes_uploaded - before->bytes_uploaded,
                        .dispatches = now.dispatches - before->dispatches,
                        .readbacks = now.readbacks - before->readbacks,
                        .bytes_read_back = now.bytes_read_back - before->bytes_read_back};
}

/* The same calls counted alike in the twin's context and the pool's. */
static void assert_pool_counts(const gpuc_stats *twin, const gpuc_stats *pool)
{
    ck_assert_uint_eq(twin->uploads, pool->uploads);
    ck_assert_uint_eq(twin->bytes_uploaded, pool->bytes_uploaded);
    ck_assert_uint_eq(twin->dispatches, pool->dispatches);
    ck_assert_uint_eq(twin->readbacks, pool->readbacks);
    ck_assert_uint_eq(twin->bytes_read_back, pool->bytes_read_back);
}

START_TEST(counters_as_the_pool_counts)
{
    float o[N], e[N];
    fill(o, N, 0.0f);
    fill(e, N, 1.0f);
    gpuc *pool = fixture_open_pool();
    gpuc *ctx[2] = {gpu, pool};
    gpuc_stats s[2];
    gpuc_kernel_stats ks[2];
    for (int c = 0; c < 2; c++) {
        gpuc_kernel *k = make(ctx[c], DELTA, (gpuc_dims){N}, false);
        gpuc_arg args[2] = {gpuc_arg_host_f32(o, (gpuc_dims){N}), gpuc_arg_host_f32(e, (gpuc_dims){N})};
        gpuc_stats s0;
        ck_assert_int_eq(gpuc_get_stats(ctx[c], &s0), GPUC_OK);
        for (int r = 0; r < 2 * RUNS; r++) {
            gpuc_array *res = NULL;
            ck_assert_msg(gpuc_run(k, args, 2, &res) == GPUC_OK, "%s", gpuc_errmsg(ctx[c]));
            gpuc_array_free(res);
        }
        ck_assert_int_eq(on_twin(k), twin_here(gpu) && c == 0);
        s[c] = counts_since(ctx[c], &s0);
        ck_assert_int_eq(gpuc_get_kernel_stats(k, &ks[c]), GPUC_OK);
    }
    assert_pool_counts(&s[0], &s[1]);
    ck_assert_int_eq(ks[0].runs, ks[1].runs);
    ck_assert_int_eq(ks[0].cells, ks[1].cells);
    ck_assert_int_eq(ks[0].bytes_uploaded, ks[1].bytes_uploaded);
    ck_assert_int_eq(ks[0].bytes_read_back, ks[1].bytes_read_back);
    /* The twin's first run (its machine code compiled) is made before the call it serves, uncounted. */
    ck_assert_int_eq(ks[0].first_runs, ks[1].first_runs);
    gpuc_close(pool);
}
END_TEST

START_TEST(arrays_with_host_copies_go_to_the_twin)
{
    /* Device arrays made from host data keep it as their host copy: a small kernel reading them goes to
     * the twin after its warm-up, with the pool's counters (sending a host copy to the twin is no upload
     * of the call's), and so does a kernel reading a small call's result (held on the host); every
     * result equals C's. */
    float o[N], e[N], want[N], got[N];
    delta_case(o, e, want);
    gpuc *pool = fixture_open_pool();
    gpuc *ctx[2] = {gpu, pool};
    gpuc_stats s[2];
    gpuc_kernel_stats ks[2];
    for (int c = 0; c < 2; c++) {
        gpuc_kernel *k = make(ctx[c], DELTA, (gpuc_dims){N}, false), *twice = NULL;
        ck_assert_gpuc_ok(gpuc_create_kernel(ctx[c], "float twice(float a[]) { return 2.0 * a[thread.x]; }",
                                             &(gpuc_kernel_desc){.output = {N}}, &twice));
        gpuc_array *da = NULL, *db = NULL;
        ck_assert_gpuc_ok(gpuc_array_from_f32(ctx[c], o, (gpuc_dims){N}, &da));
        ck_assert_gpuc_ok(gpuc_array_from_f32(ctx[c], e, (gpuc_dims){N}, &db));
        gpuc_stats s0;
        ck_assert_gpuc_ok(gpuc_get_stats(ctx[c], &s0));
        for (int r = 0; r < 2 * RUNS; r++) {
            gpuc_array *res = NULL, *doubled = NULL;
            ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_array(da), gpuc_arg_array(db)}, 2, &res));
            ck_assert_gpuc_ok(gpuc_run(twice, (gpuc_arg[]){gpuc_arg_array(res)}, 1, &doubled));
            ck_assert_gpuc_ok(gpuc_array_read_f32(doubled, got, N));
            for (int i = 0; i < N; i++)
                ck_assert_msg(fabsf(got[i] - 2.0f * want[i]) <= 2e-6f, "context %d, run %d, cell %d: %g, want %g", c,
                              r, i, (double)got[i], 2.0 * (double)want[i]);
            gpuc_array_free(res);
            gpuc_array_free(doubled);
        }
        ck_assert_int_eq(on_twin(k), twin_here(gpu) && c == 0);
        ck_assert_int_eq(on_twin(twice), twin_here(gpu) && c == 0);
        s[c] = counts_since(ctx[c], &s0);
        ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &ks[c]));
        gpuc_array_free(da);
        gpuc_array_free(db);
        gpuc_kernel_free(k);
        gpuc_kernel_free(twice);
    }
    assert_pool_counts(&s[0], &s[1]);
    ck_assert_uint_eq(ks[0].bytes_uploaded, ks[1].bytes_uploaded);
    gpuc_close(pool);
}
END_TEST

/* Kernels with twins freed before and at gpuc_close; a kernel made after one was freed gets its own. */
START_TEST(freeing_kernels_with_twins)
{
    float o[N], e[N], want[N];
    delta_case(o, e, want);
    gpuc_arg args[2] = {gpuc_arg_host_f32(o, (gpuc_dims){N}), gpuc_arg_host_f32(e, (gpuc_dims){N})};
    for (int round = 0; round < 3; round++) {
        gpuc_kernel *k = make(gpu, DELTA, (gpuc_dims){N}, false);
        run_checked(k, gpu, args, 2, want, N, 1e-6f);
        ck_assert_msg(on_twin(k) == twin_here(gpu), "%s", gpuc_kernel_describe(k));
        gpuc_kernel_free(k);
    }
    /* Left live for gpuc_close (the fixture's), with an array of the context made after. */
    gpuc_kernel *k = make(gpu, DELTA, (gpuc_dims){N}, false);
    run_checked(k, gpu, args, 2, want, N, 1e-6f);
    gpuc_array *left = NULL;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, o, (gpuc_dims){N}, &left));
    /* A second context with twins closed first: this one's go on working. */
    gpuc *other = NULL;
    ck_assert_int_eq(gpuc_open(&other, NULL), GPUC_OK);
    gpuc_kernel *ko = make(other, DELTA, (gpuc_dims){N}, false);
    run_checked(ko, other, args, 2, want, N, 1e-6f);
    ck_assert(on_twin(ko) == twin_here(other));
    gpuc_close(other);
    run_checked(k, gpu, args, 2, want, N, 1e-6f);
}
END_TEST

/* An explicit thread count keeps every call where it is; a bad GPUC_SMALL_CALLS fails gpuc_open. */
START_TEST(explicit_threads_and_the_setting)
{
    float o[N], e[N], want[N];
    delta_case(o, e, want);
    gpuc_arg args[2] = {gpuc_arg_host_f32(o, (gpuc_dims){N}), gpuc_arg_host_f32(e, (gpuc_dims){N})};
    gpuc_options opts = {0};
    opts.threads = GPUC_THREADS_CALLER;
    gpuc *caller = NULL;
    ck_assert_int_eq(gpuc_open(&caller, &opts), GPUC_OK);
    gpuc_kernel *k = make(caller, DELTA, (gpuc_dims){N}, false);
    run_checked(k, caller, args, 2, want, N, 1e-6f);
    ck_assert_msg(!on_twin(k), "%s", gpuc_kernel_describe(k));
    gpuc_close(caller);
    setenv("GPUC_SMALL_CALLS", "sometimes", 1);
    gpuc *bad = NULL;
    gpuc_status st = gpuc_open(&bad, NULL);
    unsetenv("GPUC_SMALL_CALLS");
    ck_assert_int_eq(st, GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_msg(strstr(gpuc_errmsg(bad), "GPUC_SMALL_CALLS \"sometimes\"") != NULL, "%s", gpuc_errmsg(bad));
    gpuc_close(bad);
}
END_TEST

/* Two default contexts in one thread, their small calls interleaved with array work on each: every
 * switch between a context, its twin and the other context leaves the right one current. */
START_TEST(two_contexts_interleaved_in_one_thread)
{
    float o[N], e[N], want[N], got[N];
    delta_case(o, e, want);
    gpuc_arg args[2] = {gpuc_arg_host_f32(o, (gpuc_dims){N}), gpuc_arg_host_f32(e, (gpuc_dims){N})};
    gpuc *other = NULL;
    ck_assert_int_eq(gpuc_open(&other, NULL), GPUC_OK);
    gpuc_kernel *ka = make(gpu, DELTA, (gpuc_dims){N}, false);
    gpuc_kernel *kb = make(other, DELTA, (gpuc_dims){N}, false);
    for (int r = 0; r < 3 * RUNS; r++) {
        gpuc *g = r % 2 ? other : gpu;
        gpuc_array *res = NULL, *copy = NULL;
        ck_assert_msg(gpuc_run(r % 2 ? kb : ka, args, 2, &res) == GPUC_OK, "%s", gpuc_errmsg(g));
        /* the result used on its context's device after the call: cloned there, the clone read back */
        ck_assert_gpuc_ok(gpuc_array_clone(res, &copy));
        ck_assert_gpuc_ok(gpuc_array_read_f32(copy, got, N));
        for (int i = 0; i < N; i++)
            ck_assert_msg(fabsf(got[i] - want[i]) <= 1e-6f, "run %d, cell %d: %g, want %g", r, i, (double)got[i],
                          (double)want[i]);
        gpuc_array_free(copy);
        gpuc_array_free(res);
    }
    ck_assert_msg(on_twin(ka) == twin_here(gpu) && on_twin(kb) == twin_here(other), "%s / %s",
                  gpuc_kernel_describe(ka), gpuc_kernel_describe(kb));
    gpuc_close(other);
}
END_TEST

typedef struct thread_job {
    int id;
    char failure[200]; /* empty: every call gave the C answer on the twin */
} thread_job;

static void *small_calls_on_a_thread(void *arg)
{
    thread_job *job = arg;
    float o[N], e[N], got[N];
    fill(o, N, (float)job->id);
    fill(e, N, 1.0f);
    gpuc *g = NULL;
    if (gpuc_open(&g, NULL) != GPUC_OK) {
        snprintf(job->failure, sizeof job->failure, "gpuc_open: %s", gpuc_errmsg(g));
        gpuc_close(g);
        return NULL;
    }
    gpuc_kernel *k = make(g, DELTA, (gpuc_dims){N}, false);
    gpuc_arg args[2] = {gpuc_arg_host_f32(o, (gpuc_dims){N}), gpuc_arg_host_f32(e, (gpuc_dims){N})};
    for (int r = 0; r < 4 * RUNS && !job->failure[0]; r++) {
        gpuc_array *res = NULL;
        if (gpuc_run(k, args, 2, &res) != GPUC_OK || gpuc_array_read_f32(res, got, N) != GPUC_OK) {
            snprintf(job->failure, sizeof job->failure, "run %d: %s", r, gpuc_errmsg(g));
            break;
        }
        for (int i = 0; i < N; i++) {
            float want = e[i] * o[i] * (1.0f - o[i]) * 3.0f;
            if (fabsf(got[i] - want) > 1e-3f * fmaxf(1.0f, fabsf(want))) {
                snprintf(job->failure, sizeof job->failure, "run %d, cell %d: %g, want %g", r, i, (double)got[i],
                         (double)want);
                break;
            }
        }
        gpuc_array_free(res);
    }
    if (!job->failure[0] && on_twin(k) != twin_here(g))
        snprintf(job->failure, sizeof job->failure, "the twin taken or not where it should: %s", gpuc_kernel_describe(k));
    gpuc_close(g);
    return NULL;
}

/* Two threads at once, each with a default context of its own and so a twin of its own. */
START_TEST(two_threads_each_with_a_context)
{
    thread_job jobs[2] = {{.id = 0}, {.id = 1}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, small_calls_on_a_thread, &jobs[i]), 0);
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_join(t[i], NULL), 0);
    for (int i = 0; i < 2; i++)
        ck_assert_msg(!jobs[i].failure[0], "thread %d: %s", i, jobs[i].failure);
}
END_TEST

/* ---- whole algorithm calls (algo/algo_twin.c) ---- */

static int by_value(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* One algorithm call on g (which: 0 sort, 1 scan, 2 compact gather, 3 compact scatter, 4 a predicate
 * that keeps nothing, 5 a predicate keeping what 2 and 3 keep) of the n values v, given as host data or (where `held` is not NULL) as held, an
 * array of g holding them; its result checked against C. Returns the readbacks reading it cost and adds
 * the call's own counters to *counted. */
static uint64_t algo_call(gpuc *g, int which, const float *v, size_t n, const gpuc_array *held, gpuc_stats *counted)
{
    gpuc_stats before;
    ck_assert_gpuc_ok(gpuc_get_stats(g, &before));
    gpuc_arg in = held ? gpuc_arg_array(held) : gpuc_arg_host_f32(v, (gpuc_dims){(uint32_t)n});
    gpuc_array *out = NULL;
    size_t count = n;
    float *want = malloc(n * sizeof *want);
    if (which == 0) {
        ck_assert_gpuc_ok(gpuc_sort(g, in, NULL, &out));
        memcpy(want, v, n * sizeof *want);
        qsort(want, n, sizeof *want, by_value);
    } else if (which == 1) {
        ck_assert_gpuc_ok(gpuc_scan(g, in, &(gpuc_scan_desc){.inclusive = true}, &out));
        float sum = 0;
        for (size_t i = 0; i < n; i++)
            want[i] = sum += v[i];
    } else {
        gpuc_compact_desc d = {.op = GPUC_GREATER, .threshold = 0.5};
        if (which == 3 && !fixture_fragment_backend())
            d.method = GPUC_COMPACT_SCATTER;
        if (which == 4)
            d = (gpuc_compact_desc){.predicate = "int none(float v[]) { return v[thread.x] > 9.0 ? 1 : 0; }"};
        if (which == 5) /* the threshold's survivors by a predicate: the device's kernels (not the host's loop) */
            d = (gpuc_compact_desc){.predicate = "int above(float v[]) { return v[thread.x] > 0.5 ? 1 : 0; }",
                                    .method = d.method};
        ck_assert_gpuc_ok(gpuc_compact(g, in, &d, &out, &count));
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (v[i] > (which == 4 ? 9.0f : 0.5f))
                want[m++] = v[i];
        ck_assert_uint_eq(count, m);
    }
    add_counts(g, &before, counted);
    uint64_t cost = 0;
    if (count == 0) {
        ck_assert_ptr_null(out);
    } else {
        float *got = malloc(count * sizeof *got);
        cost = read_costs(g, out, count, false);
        ck_assert_gpuc_ok(gpuc_array_read_f32(out, got, count));
        for (size_t i = 0; i < count; i++) /* whole numbers / 8: every sum exact */
            ck_assert_msg(got[i] == want[i], "call %d, [%zu] = %g, want %g", which, i, (double)got[i], (double)want[i]);
        free(got);
    }
    gpuc_array_free(out);
    free(want);
    return cost;
}

/* n whole eighths, 0 .. 0.875 (every sum of them exact), from `seed`. */
static float *eighths(size_t n, uint32_t seed)
{
    float *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        v[i] = (float)(seed >> 29) / 8.0f;
    }
    return v;
}

/* RUNS calls of one algorithm (algo_call's `which`) on n values in the fixture's context and in the
 * pool context, side by side, as host data or (`arrays`) as an array of each context made from them:
 * from the 4th call on, where `twin`, reading the result reads nothing back (it ran on the twin), and
 * from the first where `host` (a threshold compaction the host makes); otherwise it costs what the
 * pool's does. The counters of all the calls go to *here and *there. */
static void repeat_beside_pool(gpuc *pool, int which, const float *v, size_t n, bool arrays, bool twin, bool host,
                               gpuc_stats *here, gpuc_stats *there)
{
    gpuc_array *held = NULL, *pool_held = NULL;
    if (arrays) {
        ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){(uint32_t)n}, &held));
        ck_assert_gpuc_ok(gpuc_array_from_f32(pool, v, (gpuc_dims){(uint32_t)n}, &pool_held));
    }
    for (int r = 0; r < RUNS; r++) {
        uint64_t cost = algo_call(gpu, which, v, n, held, here),
                 pool_cost = algo_call(pool, which, v, n, pool_held, there);
        if (which == 4)
            continue; /* nothing kept: no array */
        if (host || (twin && r >= 3))
            ck_assert_msg(cost == 0, "call %d on %zu values, run %d: reading its result read back %d times", which, n,
                          r, (int)cost);
        else
            ck_assert_msg(cost == pool_cost, "call %d on %zu values, run %d: reading costs %d, on the pool %d", which,
                          n, r, (int)cost, (int)pool_cost);
    }
    gpuc_array_free(held);
    gpuc_array_free(pool_held);
}

START_TEST(algorithm_calls_on_the_twin)
{
    /* Small sorts, scans and compactions of one shape, called again and again: from the 4th call the
     * whole call runs on the twin, its results come back with their values (reading them reads
     * nothing back), and the counters are the pool's, call for call. Each result equals C's. So for
     * host data, and for a device array made from host data, which keeps it as its host copy (small
     * arrays): the twin takes that copy (sending it there is no upload of the call's; nothing is read
     * back). A threshold compaction runs on the host from the first call (algo/compact_host.c): it
     * counts no dispatch, upload or read back at all. */
    enum { M = 3000 };
    float *v = eighths(M, 9);
    gpuc *pool = fixture_open_pool();
    bool twin = twin_here(gpu);
    for (int arrays = 0; arrays < 2; arrays++)
        for (int which = 0; which < 6; which++) {
            gpuc_stats here = {0}, there = {0};
            bool host = fixture_host_small_calls(gpu) && (which == 2 || which == 3);
            /* n in another power of two for arrays: a shape of its own, warmed up anew */
            repeat_beside_pool(pool, which, v, arrays ? M / 2 : M, arrays, twin, host, &here, &there);
            ck_assert_uint_eq(here.dispatches, host ? 0 : there.dispatches);
            ck_assert_uint_eq(here.uploads, host ? 0 : there.uploads);
            ck_assert_uint_eq(here.readbacks, host ? 0 : there.readbacks);
            ck_assert_uint_eq(here.bytes_uploaded, host ? 0 : there.bytes_uploaded);
            ck_assert_msg(there.dispatches > 0, "call %d: the pool dispatched nothing", which);
        }
    gpuc_close(pool);
    free(v);
}
END_TEST

/* gpuc_compact of a (M values) keeping those above 0.5, checked against C over `values` shifted by
 * `shift` (what a holds). */
static void compact_checked(gpuc_array *a, const float *values, float shift, size_t m)
{
    float *want = malloc(m * sizeof *want), *got = malloc(m * sizeof *got);
    size_t want_count = 0, count = 0;
    for (size_t i = 0; i < m; i++)
        if (values[i] - shift > 0.5f)
            want[want_count++] = values[i] - shift;
    gpuc_array *packed = NULL;
    ck_assert_gpuc_ok(gpuc_compact(gpu, gpuc_arg_array(a), &(gpuc_compact_desc){.op = GPUC_GREATER, .threshold = 0.5},
                                   &packed, &count));
    ck_assert_uint_eq(count, want_count);
    ck_assert_gpuc_ok(gpuc_array_read_f32(packed, got, count));
    ck_assert_mem_eq(got, want, count * sizeof *got);
    gpuc_array_free(packed);
    free(want);
    free(got);
}

START_TEST(algorithm_call_after_a_device_write)
{
    /* An array's host copy goes to the twin (here: to the host's compaction) only while it holds the
     * array's values: once a .pipeline kernel (whose result is not read back) has written the array,
     * its calls keep the context's path and see the kernel's values. */
    enum { M = 3000 };
    float *v = eighths(M, 12);
    gpuc_array *a = NULL;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){M}, &a));
    for (int r = 0; r < RUNS; r++) /* past the shape's warm-up */
        compact_checked(a, v, 0.0f, M);
    gpuc_kernel *shift = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float shift(float a[]) { return a[thread.x] - 0.25; }",
                                         &(gpuc_kernel_desc){.output = {M}, .pipeline = true}, &shift));
    ck_assert_gpuc_ok(gpuc_run_to(shift, (gpuc_arg[]){gpuc_arg_host_f32(v, (gpuc_dims){M})}, 1, a));
    compact_checked(a, v, 0.25f, M);
    gpuc_kernel_free(shift);
    gpuc_array_free(a);
    free(v);
}
END_TEST

START_TEST(a_twin_result_used_on_the_device)
{
    /* An algorithm call's result from the twin holds its values on the host until its first use on the
     * device: a .pipeline kernel given it (a new kernel each time: its first runs take the context's
     * path) and a clone of it read its values. */
    enum { M = 3000 };
    float *v = eighths(M, 13), *want = malloc(M * sizeof *want), *got = malloc(M * sizeof *got);
    memcpy(want, v, M * sizeof *want);
    qsort(want, M, sizeof *want, by_value);
    for (int r = 0; r < RUNS; r++) { /* from the 4th call on the twin, where there is one */
        gpuc_array *sorted = NULL, *doubled = NULL, *copy = NULL;
        gpuc_kernel *twice = NULL;
        ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float twice(float a[]) { return 2.0 * a[thread.x]; }",
                                             &(gpuc_kernel_desc){.output = {M}, .pipeline = true}, &twice));
        ck_assert_gpuc_ok(gpuc_sort(gpu, gpuc_arg_host_f32(v, (gpuc_dims){M}), NULL, &sorted));
        ck_assert_gpuc_ok(gpuc_run(twice, (gpuc_arg[]){gpuc_arg_array(sorted)}, 1, &doubled));
        ck_assert_gpuc_ok(gpuc_array_read_f32(doubled, got, M));
        for (int i = 0; i < M; i++)
            ck_assert_msg(got[i] == 2.0f * want[i], "run %d, [%d] = %g, want %g", r, i, (double)got[i],
                          2.0 * (double)want[i]);
        ck_assert_gpuc_ok(gpuc_array_clone(sorted, &copy));
        ck_assert_gpuc_ok(gpuc_array_read_f32(copy, got, M));
        ck_assert_mem_eq(got, want, M * sizeof *got);
        gpuc_array_free(sorted);
        gpuc_array_free(doubled);
        gpuc_array_free(copy);
        gpuc_kernel_free(twice);
    }
    free(v);
    free(want);
    free(got);
}
END_TEST

START_TEST(algorithm_calls_up_to_the_bound)
{
    /* The twin takes calls of at most 65,536 elements (32,768 on the fragment backend): a compaction (by
     * a predicate: a threshold's runs on the host, as the compact suite tests) of that many host values
     * from its 4th call on (reading the result reads nothing back), one more never (the pool's costs). */
    const size_t most = fixture_fragment_backend() ? 32768 : 65536, around[] = {most, most + 1};
    float *v = eighths(around[1], 10);
    gpuc *pool = fixture_open_pool();
    bool twin = twin_here(gpu);
    for (int i = 0; i < 2; i++) {
        gpuc_stats here = {0}, there = {0};
        repeat_beside_pool(pool, 5, v, around[i], false, twin && i == 0, false, &here, &there);
    }
    gpuc_close(pool);
    free(v);
}
END_TEST

/* Sorts of the device array a (M keys, -1000 + a permutation of 0..M-1) on g, by argsort and by pairs
 * with host payloads, checked against C; the call's counters are added to *counted. Returns the
 * readbacks that reading the argsort's keys cost. */
static uint64_t sort_device_keys(gpuc *g, gpuc_array *a, const float *v, const int32_t *payload, int m,
                                 gpuc_stats *counted)
{
    float *got = malloc((size_t)m * sizeof *got);
    int32_t *got_i = malloc((size_t)m * sizeof *got_i);
    gpuc_array *keys = NULL, *idx = NULL, *vals = NULL;
    gpuc_stats before;
    ck_assert_gpuc_ok(gpuc_get_stats(g, &before));
    ck_assert_gpuc_ok(gpuc_argsort(g, gpuc_arg_array(a), NULL, &keys, &idx));
    ck_assert_gpuc_ok(gpuc_sort_pairs(g, gpuc_arg_array(a), gpuc_arg_host_i32(payload, (gpuc_dims){(uint32_t)m}),
                                      &(gpuc_sort_desc){.descending = true}, NULL, &vals));
    add_counts(g, &before, counted);
    uint64_t cost = read_costs(g, keys, (size_t)m, false);
    ck_assert_gpuc_ok(gpuc_array_read_f32(keys, got, (size_t)m));
    ck_assert_gpuc_ok(gpuc_array_read_i32(idx, got_i, (size_t)m));
    for (int j = 0; j < m; j++) {
        ck_assert_float_eq(got[j], (float)j - 1000.0f);
        ck_assert_float_eq(v[got_i[j]], got[j]);
    }
    ck_assert_gpuc_ok(gpuc_array_read_i32(vals, got_i, (size_t)m));
    for (int j = 0; j < m; j++)
        ck_assert_float_eq(v[got_i[j]], (float)(m - 1 - j) - 1000.0f);
    gpuc_array_free(keys);
    gpuc_array_free(idx);
    gpuc_array_free(vals);
    free(got);
    free(got_i);
    return cost;
}

START_TEST(algorithm_calls_on_device_arrays)
{
    /* A device array with no host copy (a .pipeline result) stays where its data is: its sorts keep
     * the context's path (reading a result reads it back), call for call the pool's counts (it is never
     * read back or uploaded), and equal C. One made from host data goes to the twin from the 4th call
     * of a shape (its results read nothing back), its host copy with host payloads, with the same
     * counts. */
    enum { M = 2048 };
    float *v = malloc(M * sizeof *v);
    int32_t *payload = malloc(M * sizeof *payload);
    for (int i = 0; i < M; i++) {
        v[i] = (float)((i * 7919) % M) - 1000.0f; /* a permutation: no ties */
        payload[i] = i;
    }
    gpuc *pool = fixture_open_pool();
    gpuc *ctx[2] = {gpu, pool};
    bool twin = twin_here(gpu);
    for (int from_host = 0; from_host < 2; from_host++) {
        gpuc_stats counted[2] = {{0}, {0}};
        for (int c = 0; c < 2; c++) {
            gpuc_kernel *copy = NULL;
            ck_assert_gpuc_ok(gpuc_create_kernel(ctx[c], "float copy(float a[]) { return a[thread.x]; }",
                                                 &(gpuc_kernel_desc){.output = {M}, .pipeline = true}, &copy));
            gpuc_array *a = NULL;
            if (from_host)
                ck_assert_gpuc_ok(gpuc_array_from_f32(ctx[c], v, (gpuc_dims){M}, &a));
            else
                ck_assert_gpuc_ok(gpuc_run(copy, (gpuc_arg[]){gpuc_arg_host_f32(v, (gpuc_dims){M})}, 1, &a));
            for (int r = 0; r < RUNS; r++) {
                uint64_t cost = sort_device_keys(ctx[c], a, v, payload, M, &counted[c]);
                bool on_twin = c == 0 && from_host && twin && r >= 3;
                ck_assert_msg(cost == (on_twin ? 0 : 1),
                              "context %d, %s array, run %d: reading keys read back %d times", c,
                              from_host ? "host-made" : ".pipeline", r, (int)cost);
            }
            gpuc_array_free(a);
            gpuc_kernel_free(copy);
        }
        ck_assert_uint_eq(counted[0].readbacks, counted[1].readbacks);
        ck_assert_uint_eq(counted[0].uploads, counted[1].uploads);
        ck_assert_uint_eq(counted[0].bytes_uploaded, counted[1].bytes_uploaded);
        ck_assert_uint_eq(counted[0].dispatches, counted[1].dispatches);
    }
    gpuc_close(pool);
    free(v);
    free(payload);
}
END_TEST

Suite *suite_small_calls(void)
{
    Suite *s = suite_create("small_calls");
    TCase *tc = fixture_tcase("small_calls");
    tcase_add_test(tc, glsl_float_1d_matches_pool_and_c);
    tcase_add_test(tc, int_2d_and_js_layer_match_c);
    tcase_add_test(tc, work_bound_one_below_and_above);
    tcase_add_test(tc, pipeline_work_bound_one_below_and_above);
    tcase_add_test(tc, not_eligible_stays_on_the_pool);
    tcase_add_test(tc, run_to_lands_in_the_callers_array);
    tcase_add_test(tc, pipeline_calls_on_the_twin);
    tcase_add_test(tc, a_small_result_serves_every_array_call);
    tcase_add_test(tc, errors_unchanged);
    tcase_add_test(tc, counters_as_the_pool_counts);
    tcase_add_test(tc, arrays_with_host_copies_go_to_the_twin);
    tcase_add_test(tc, freeing_kernels_with_twins);
    tcase_add_test(tc, explicit_threads_and_the_setting);
    tcase_add_test(tc, two_contexts_interleaved_in_one_thread);
    tcase_add_test(tc, two_threads_each_with_a_context);
    tcase_add_test(tc, algorithm_calls_on_the_twin);
    tcase_add_test(tc, algorithm_call_after_a_device_write);
    tcase_add_test(tc, a_twin_result_used_on_the_device);
    tcase_add_test(tc, algorithm_calls_up_to_the_bound);
    tcase_add_test(tc, algorithm_calls_on_device_arrays);
    suite_add_tcase(s, tc);
    return s;
}
