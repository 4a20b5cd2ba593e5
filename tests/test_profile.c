/* test_profile.c - gpuc_get_kernel_stats: runs, cells and bytes counted per kernel, device time only
 * while profiling (the option, or GPUC_PROFILE / GPUC_TRACE), .pipeline times collected later, and
 * GPUC_TRACE's line per run on stderr, read back through a redirected stderr; first runs counted
 * apart from the steady runs' min, median, mean and max, gpuc_reset_kernel_stats, gpuc_print_profile,
 * gpuc_kernel_describe, and the cells in which loopMaxIterations stopped a JavaScript loop. */
#include "fixture.h"
#include "suites.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 1024

static const char *const SCALE = "float scale(float a[]) { return a[thread.x] * 2.0; }";

/* A context of this run's backend, with profiling as asked and no profiling from the environment. */
static gpuc *open_profiled(bool profile)
{
    unsetenv("GPUC_PROFILE");
    unsetenv("GPUC_TRACE");
    gpuc_options o = {.profile = profile};
    ck_assert_gpuc_ok(gpuc_open(&gpu, &o));
    return gpu;
}

static gpuc_kernel *make(const char *src, gpuc_kernel_desc desc)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, src, &desc, &k));
    return k;
}

static void run_scale(gpuc_kernel *k, const float *in)
{
    gpuc_arg arg = gpuc_arg_host_f32(in, (gpuc_dims){N});
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, &arg, 1, &r));
    gpuc_array_free(r);
}

START_TEST(counters_without_profiling)
{
    open_profiled(false);
    static float in[N];
    gpuc_kernel *k = make(SCALE, (gpuc_kernel_desc){.output = {N}});
    gpuc_kernel_stats s;
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.runs, 0);
    ck_assert(s.last_device_ms == -1.0);
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    run_scale(k, in);
    run_scale(k, in);
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.runs, 2);
    ck_assert_uint_eq(s.cells, 2 * N);
    ck_assert_uint_eq(s.bytes_uploaded, 2 * N * 4);
    ck_assert_uint_eq(s.bytes_read_back, 2 * N * 4);
    ck_assert_uint_eq(s.bytes_uploaded, after.bytes_uploaded - before.bytes_uploaded);
    ck_assert_uint_eq(s.bytes_read_back, after.bytes_read_back - before.bytes_read_back);
    ck_assert_uint_eq(s.timed_runs, 0); /* no timer query unless profiling */
    ck_assert(s.device_ms == 0.0 && s.last_device_ms == -1.0);
    ck_assert(s.run_ms > 0.0 && s.run_ms >= s.upload_ms + s.read_back_ms);

    /* A refused run is not a run. */
    ck_assert_int_eq(gpuc_run(k, NULL, 0, &(gpuc_array *){NULL}), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.runs, 2);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(profiling_times_each_run)
{
    open_profiled(true);
    static float in[N];
    gpuc_kernel *k = make(SCALE, (gpuc_kernel_desc){.output = {N}});
    run_scale(k, in);
    gpuc_kernel_stats s;
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.timed_runs, 1);
    ck_assert_msg(s.last_device_ms > 0.0 && s.device_ms == s.last_device_ms, "device %g ms, last %g ms",
                  s.device_ms, s.last_device_ms);
    run_scale(k, in);
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.timed_runs, 2);
    ck_assert(s.device_ms > s.last_device_ms);
    /* The device's time lies within the host's wait for it (llvmpipe's GL_TIME_ELAPSED did not). */
    ck_assert_msg(s.device_ms <= s.run_ms, "device %g ms, host %g ms", s.device_ms, s.run_ms);
    gpuc_kernel_free(k);
}
END_TEST

/* .pipeline runs are not read back: their times are collected at the next run or stats query. */
START_TEST(pipeline_times_are_collected_later)
{
    open_profiled(true);
    static float in[N];
    gpuc_kernel *k = make(SCALE, (gpuc_kernel_desc){.output = {N}, .pipeline = true});
    for (int i = 0; i < 3; i++)
        run_scale(k, in);
    gpuc_kernel_stats s;
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.runs, 3);
    ck_assert_uint_eq(s.timed_runs, 3);
    ck_assert(s.device_ms > 0.0);
    ck_assert_uint_eq(s.bytes_read_back, 0);
    ck_assert(s.read_back_ms < s.run_ms);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(profile_environment_variable)
{
    unsetenv("GPUC_TRACE");
    setenv("GPUC_PROFILE", "1", 1);
    ck_assert_gpuc_ok(gpuc_open(&gpu, NULL));
    static float in[N];
    gpuc_kernel *k = make(SCALE, (gpuc_kernel_desc){.output = {N}});
    run_scale(k, in);
    gpuc_kernel_stats s;
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.timed_runs, 1);
    gpuc_kernel_free(k);
    gpuc_close(gpu);
    setenv("GPUC_PROFILE", "0", 1); /* "0" is off */
    ck_assert_gpuc_ok(gpuc_open(&gpu, NULL));
    k = make(SCALE, (gpuc_kernel_desc){.output = {N}});
    run_scale(k, in);
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.runs, 1);
    ck_assert_uint_eq(s.timed_runs, 0);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(null_arguments)
{
    open_profiled(false);
    gpuc_kernel_stats s;
    ck_assert_int_eq(gpuc_get_kernel_stats(NULL, &s), GPUC_ERROR_INVALID_ARGUMENT);
    gpuc_kernel *k = make(SCALE, (gpuc_kernel_desc){.output = {N}});
    ck_assert_gpuc_fails(gpuc_get_kernel_stats(k, NULL), GPUC_ERROR_INVALID_ARGUMENT, "out is NULL");
    gpuc_kernel_free(k);
}
END_TEST

/* stderr sent to a file from capture_begin to capture_end, which returns what was written (caller frees). */
typedef struct capture {
    FILE *log;
    int saved;
} capture;

static capture capture_begin(void)
{
    capture c = {tmpfile(), -1};
    ck_assert_ptr_nonnull(c.log);
    fflush(stderr);
    c.saved = dup(STDERR_FILENO);
    ck_assert_int_ge(c.saved, 0);
    ck_assert_int_ge(dup2(fileno(c.log), STDERR_FILENO), 0);
    return c;
}

static char *capture_end(capture c)
{
    fflush(stderr);
    dup2(c.saved, STDERR_FILENO);
    close(c.saved);
    long size = ftell(c.log);
    ck_assert_int_ge(size, 0);
    char *text = calloc(1, (size_t)size + 1);
    rewind(c.log);
    ck_assert_uint_eq(fread(text, 1, (size_t)size, c.log), (size_t)size);
    fclose(c.log);
    return text;
}

/* Runs `runs` runs of a 2D kernel with stderr sent to a file; returns what was written (caller frees). */
static char *traced_runs(const char *trace, int runs)
{
    unsetenv("GPUC_PROFILE");
    setenv("GPUC_TRACE", trace, 1);
    ck_assert_gpuc_ok(gpuc_open(&gpu, NULL));
    gpuc_kernel *k = make("int checker(int a[][]) { return a[thread.y][thread.x] + thread.x; }",
                          (gpuc_kernel_desc){.output = {32, 16}});
    static int32_t in[16][32];
    gpuc_arg arg = gpuc_arg_host_i32(&in[0][0], (gpuc_dims){32, 16});
    capture c = capture_begin();
    gpuc_status st = GPUC_OK;
    for (int i = 0; i < runs && st == GPUC_OK; i++) {
        gpuc_array *r = NULL;
        st = gpuc_run(k, &arg, 1, &r);
        gpuc_array_free(r);
    }
    char *text = capture_end(c);
    ck_assert_gpuc_ok(st);
    gpuc_kernel_free(k);
    return text;
}

START_TEST(trace_prints_a_line_per_run)
{
    char *text = traced_runs("1", 2);
    char *line = text;
    for (int run = 0; run < 2; run++) {
        char name[64], size[32];
        double device_ms, host_ms;
        unsigned long long up, down;
        int used = 0;
        int got = sscanf(line, "gpuc: kernel '%63[^']' output %31s device %lf ms up %llu B down %llu B host %lf ms%n",
                         name, size, &device_ms, &up, &down, &host_ms, &used);
        ck_assert_msg(got == 6 && used > 0, "run %d: trace line not understood: \"%s\"", run, line);
        ck_assert_str_eq(name, "checker");
        ck_assert_str_eq(size, "32x16");
        ck_assert_msg(device_ms > 0.0, "device %g ms", device_ms);
        ck_assert_uint_eq(up, 32 * 16 * 4);
        ck_assert_uint_eq(down, 32 * 16 * 4);
        ck_assert_msg(host_ms > 0.0 && device_ms <= host_ms, "device %g ms, host %g ms", device_ms, host_ms);
        /* The fresh context's first run compiles the program's machine code: it says so, the second not. */
        const char *first = " first run (compiles)";
        if (run == 0) {
            ck_assert_msg(!strncmp(line + used, first, strlen(first)), "run 0: \"%s\"", line);
            used += (int)strlen(first);
        }
        ck_assert_int_eq(line[used], '\n');
        line += used + 1;
    }
    ck_assert_str_eq(line, ""); /* two runs, two lines */
    free(text);
}
END_TEST

START_TEST(trace_zero_prints_nothing)
{
    char *text = traced_runs("0", 2);
    ck_assert_str_eq(text, "");
    free(text);
}
END_TEST

/* The steady runs' order statistics hold together, and the host times add up. */
static void check_order(const gpuc_kernel_stats *s)
{
    ck_assert_msg(s->min_ms > 0.0 && s->min_ms <= s->median_ms && s->median_ms <= s->max_ms,
                  "min %g median %g max %g ms", s->min_ms, s->median_ms, s->max_ms);
    ck_assert_msg(s->min_ms <= s->mean_ms && s->mean_ms <= s->max_ms, "min %g mean %g max %g ms", s->min_ms,
                  s->mean_ms, s->max_ms);
    double steady = (double)(s->runs - s->first_runs);
    ck_assert_msg(fabs(s->first_run_ms + s->mean_ms * steady - s->run_ms) <= 1e-9 * s->run_ms + 1e-9,
                  "first %g + mean %g x %g != all %g ms", s->first_run_ms, s->mean_ms, steady, s->run_ms);
}

START_TEST(first_run_counted_apart)
{
    open_profiled(false);
    static float in[N];
    gpuc_kernel *k = make(SCALE, (gpuc_kernel_desc){.output = {N}});
    gpuc_kernel_stats s;
    run_scale(k, in);
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.runs, 1);
    ck_assert_uint_eq(s.first_runs, 1);
    ck_assert(s.first_run_ms > 0.0 && s.first_run_ms == s.run_ms);
    ck_assert(s.min_ms == 0.0 && s.median_ms == 0.0 && s.mean_ms == 0.0 && s.max_ms == 0.0); /* no steady run */
    for (int i = 0; i < 6; i++)
        run_scale(k, in);
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.runs, 7);
    ck_assert_uint_eq(s.first_runs, 1);
    check_order(&s);

    /* A second kernel of the same source gets the program that already ran: no first run. */
    gpuc_kernel *again = make(SCALE, (gpuc_kernel_desc){.output = {N}});
    run_scale(again, in);
    run_scale(again, in);
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(again, &s));
    ck_assert_uint_eq(s.runs, 2);
    ck_assert_uint_eq(s.first_runs, 0);
    check_order(&s);
    gpuc_kernel_free(again);
    gpuc_kernel_free(k);
}
END_TEST

/* A kernel with loops compiles a program for its sizes at the second run at them: that run is a first
 * run too, of the new program; the words of gpuc_kernel_describe follow the program in use. */
START_TEST(specialising_run_counted_apart)
{
    open_profiled(false);
    static float in[N];
    gpuc_kernel *k = make("float sum4(float a[]) { float s = 0.0; for (int i = 0; i < 4; i++) "
                          "s += a[(thread.x + i) % 1024]; return s; }",
                          (gpuc_kernel_desc){.output = {N}});
    gpuc_kernel_stats s;
    run_scale(k, in);
    ck_assert_ptr_nonnull(strstr(gpuc_kernel_describe(k), "generic program"));
    run_scale(k, in); /* the second run at these sizes compiles the specialised program */
    ck_assert_ptr_nonnull(strstr(gpuc_kernel_describe(k), "program specialised to the argument sizes"));
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.first_runs, 2);
    for (int i = 0; i < 3; i++)
        run_scale(k, in);
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.runs, 5);
    ck_assert_uint_eq(s.first_runs, 2);
    check_order(&s);
    const char *d = gpuc_kernel_describe(k);
    ck_assert_msg(strstr(d, "; 1 loop, unguarded (proven under the loop budget: at most 5 iterations a cell"), "%s", d);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(median_of_known_times)
{
    /* The median is of the steady runs: with one slow steady run among fast ones it stays with the
     * fast ones, while the mean moves toward the slow one. The slow run reads a 64x larger input. */
    open_profiled(false);
    enum { BIG = 1 << 20 };
    float *in = calloc(BIG, sizeof *in);
    ck_assert_ptr_nonnull(in);
    gpuc_kernel *k = make("float pick(float a[]) { return a[thread.x]; }", (gpuc_kernel_desc){.output = {N}});
    for (int i = 0; i < 2; i++)
        run_scale(k, in); /* the first run and one steady run at 1024 */
    gpuc_arg big = gpuc_arg_host_f32(in, (gpuc_dims){BIG});
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, &big, 1, &r));
    gpuc_array_free(r);
    for (int i = 0; i < 3; i++)
        run_scale(k, in);
    gpuc_kernel_stats s;
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.runs, 6);
    ck_assert_uint_eq(s.first_runs, 1);
    check_order(&s);
    ck_assert_msg(s.median_ms < s.max_ms, "median %g, max %g ms", s.median_ms, s.max_ms);
    free(in);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(reset_starts_the_counts_again)
{
    open_profiled(true);
    static float in[N];
    gpuc_kernel *k = make(SCALE, (gpuc_kernel_desc){.output = {N}, .pipeline = true});
    for (int i = 0; i < 3; i++)
        run_scale(k, in);
    ck_assert_gpuc_ok(gpuc_reset_kernel_stats(k)); /* the last run's pending time goes with the counts */
    gpuc_kernel_stats s, zero = {0};
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert(s.last_device_ms == -1.0);
    s.last_device_ms = 0;
    ck_assert_mem_eq(&s, &zero, sizeof s);
    run_scale(k, in); /* warm: the program ran before the reset */
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.runs, 1);
    ck_assert_uint_eq(s.timed_runs, 1);
    ck_assert_uint_eq(s.first_runs, 0);
    ck_assert(s.min_ms == s.max_ms && s.median_ms == s.min_ms && s.mean_ms == s.min_ms && s.min_ms == s.run_ms);
    ck_assert_int_eq(gpuc_reset_kernel_stats(NULL), GPUC_ERROR_INVALID_ARGUMENT);
    gpuc_kernel_free(k);
    ck_assert_int_eq(gpuc_reset_kernel_stats(k), GPUC_ERROR_MISUSE); /* freed */
}
END_TEST

START_TEST(profile_table_lists_the_kernels)
{
    open_profiled(false);
    static float in[N];
    gpuc_kernel *a = make(SCALE, (gpuc_kernel_desc){.output = {N}});
    gpuc_kernel *b = make("float twice(float a[]) { return a[thread.x] + a[thread.x]; }",
                          (gpuc_kernel_desc){.output = {N}});
    for (int i = 0; i < 3; i++)
        run_scale(a, in);
    run_scale(b, in);
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ck_assert_gpuc_ok(gpuc_print_profile(gpu, f));
    long size = ftell(f);
    char text[4096] = {0};
    rewind(f);
    ck_assert_uint_eq(fread(text, 1, sizeof text - 1, f), (size_t)size);
    fclose(f);
    const char *row_a = strstr(text, "\nscale "), *row_b = strstr(text, "\ntwice ");
    ck_assert_msg(row_a && row_b && row_a < row_b, "%s", text); /* oldest first */
    unsigned long long runs, first, steady;
    ck_assert_int_eq(sscanf(row_a + 1, "scale %llu %llu %*f %llu", &runs, &first, &steady), 3);
    ck_assert(runs == 3 && first == 1 && steady == 2);
    ck_assert_int_eq(sscanf(row_b + 1, "twice %llu %llu %*f %llu", &runs, &first, &steady), 3);
    ck_assert(runs == 1 && first == 1 && steady == 0);
    ck_assert_ptr_nonnull(strstr(text, gpuc_kernel_describe(a)));
    ck_assert_int_eq(gpuc_print_profile(NULL, stdout), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_gpuc_fails(gpuc_print_profile(gpu, NULL), GPUC_ERROR_INVALID_ARGUMENT, "out is NULL");
    gpuc_kernel_free(a);
    gpuc_kernel_free(b);
}
END_TEST

START_TEST(profile_environment_prints_the_table_at_close)
{
    unsetenv("GPUC_TRACE");
    setenv("GPUC_PROFILE", "1", 1);
    ck_assert_gpuc_ok(gpuc_open(&gpu, NULL));
    static float in[N];
    gpuc_kernel *k = make(SCALE, (gpuc_kernel_desc){.output = {N}});
    run_scale(k, in);
    (void)k; /* left to gpuc_close */
    capture c = capture_begin();
    gpuc_close(gpu);
    gpu = NULL;
    char *text = capture_end(c);
    ck_assert_msg(strstr(text, "gpuc profile") && strstr(text, "\nscale "), "%s", text);
    free(text);
}
END_TEST

START_TEST(describe_says_what_a_kernel_runs_as)
{
    open_profiled(false);
    gpuc_kernel *k = make(SCALE, (gpuc_kernel_desc){.output = {N}});
    const char *d = gpuc_kernel_describe(k);
    const gpuc_info *info = gpuc_get_info(gpu);
    ck_assert_ptr_nonnull(info);
    char backend[64];
    snprintf(backend, sizeof backend, "%s backend, llvmpipe's default workers", info->backend_name);
    ck_assert_msg(!strncmp(d, backend, strlen(backend)), "%s", d);
    ck_assert_ptr_null(strstr(d, "double-precision"));
    ck_assert_ptr_null(strstr(d, "capped"));
    gpuc_kernel_free(k);
    gpuc_kernel_desc desc = {.output = {N}, .precise_math = true};
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, "function (a) { let s = 0; while (s < a[this.thread.x]) s++; "
                                                 "return Math.sin(s); }", &desc, &k));
    d = gpuc_kernel_describe(k);
    ck_assert_msg(strstr(d, "; double-precision Math") && strstr(d, "; 1 loop capped at loop_max_iterations"), "%s",
                  d);
    /* The cap's check keeps the loop countable: bounded by the cap, 1000 (and its final test), unguarded. */
    ck_assert_msg(strstr(d, "; 1 loop, unguarded (proven under the loop budget: at most 1001 iterations"), "%s", d);
    gpuc_kernel_free(k);
    ck_assert_str_eq(gpuc_kernel_describe(NULL), "");
    gpuc_close(gpu);
    gpuc_options o = {.threads = GPUC_THREADS_CALLER};
    ck_assert_gpuc_ok(gpuc_open(&gpu, &o));
    k = make(SCALE, (gpuc_kernel_desc){.output = {N}});
    ck_assert_ptr_nonnull(strstr(gpuc_kernel_describe(k), "backend, the calling thread"));
    gpuc_kernel_free(k);
}
END_TEST

/* loopMaxIterations: cell x of these kernels loops x times, capped at CAP. The oracle is JavaScript's
 * (GPU.js's) answer: min(x, CAP), and the cells the cap stopped: those with x > CAP (at x == CAP the
 * loop's own test ends it). */
enum { CAP_CELLS = 32, CAP = 10 };

static gpuc_kernel *capped_kernel(const char *js, int cap)
{
    gpuc_kernel_desc desc = {.output = {CAP_CELLS}, .loop_max_iterations = cap};
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel_js(gpu, js, &desc, &k));
    return k;
}

static void run_capped(gpuc_kernel *k, int cap, const float *a)
{
    gpuc_arg arg = gpuc_arg_host_f32(a, (gpuc_dims){CAP_CELLS});
    gpuc_array *r = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, &arg, 1, &r));
    float out[CAP_CELLS];
    ck_assert_gpuc_ok(gpuc_array_read_f32(r, out, CAP_CELLS));
    gpuc_array_free(r);
    for (int x = 0; x < CAP_CELLS; x++) {
        float want = (float)(x < cap ? x : cap);
        ck_assert_msg(out[x] == want, "cell %d: %g, JavaScript %g", x, out[x], want);
    }
}

static const char *const CAPPED[] = {
    "function (a) { let s = 0; let i = 0; while (i < this.thread.x) { s += a[i]; i++; } return s; }",
    "function (a) { let s = 0; for (let i = 0; i < this.thread.x; i++) { s += a[i]; } return s; }",
    /* a do-while runs once before its test: cell 0 adds a[0] = 1 here, so it starts at 1 */
    "function (a) { let s = 0; let i = 1; if (this.thread.x == 0) return 0; "
    "do { s += a[i]; i++; } while (i <= this.thread.x); return s; }",
};

START_TEST(loop_cap_counted_per_cell)
{
    open_profiled(false);
    float ones[CAP_CELLS];
    for (int i = 0; i < CAP_CELLS; i++)
        ones[i] = 1.0f;
    gpuc_kernel *k = capped_kernel(CAPPED[_i], CAP);
    run_capped(k, CAP, ones);
    run_capped(k, CAP, ones);
    gpuc_kernel_stats s;
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.loop_capped_runs, 2);
    ck_assert_uint_eq(s.loop_capped_cells, 2 * (CAP_CELLS - CAP - 1));
    gpuc_kernel_free(k);
    /* A cap the loops never reach: nothing counted. */
    k = capped_kernel(CAPPED[_i], CAP_CELLS);
    run_capped(k, CAP_CELLS, ones);
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.runs, 1);
    ck_assert_uint_eq(s.loop_capped_runs, 0);
    ck_assert_uint_eq(s.loop_capped_cells, 0);
    gpuc_kernel_free(k);
}
END_TEST

/* A loop whose own counted term ends it within the cap keeps its code (no check, nothing counted);
 * under a smaller cap the same loop is watched. Cell x adds min(x, 8, cap) ones. */
START_TEST(loop_proven_under_the_cap_is_unchanged)
{
    open_profiled(false);
    float ones[CAP_CELLS];
    for (int i = 0; i < CAP_CELLS; i++)
        ones[i] = 1.0f;
    const char *js = "function (a) { let s = 0; for (let i = 0; i < 8 && i < this.thread.x; i++) s += a[i]; "
                     "return s; }";
    gpuc_kernel *k = capped_kernel(js, CAP);
    ck_assert_ptr_null(strstr(gpuc_kernel_glsl(k), "gpuc_js_capped"));
    ck_assert_ptr_null(strstr(gpuc_kernel_describe(k), "capped"));
    run_capped(k, 8, ones);
    gpuc_kernel_stats s;
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.loop_capped_cells, 0);
    gpuc_kernel_free(k);
    k = capped_kernel(js, 5);
    ck_assert_ptr_nonnull(strstr(gpuc_kernel_glsl(k), "gpuc_js_capped"));
    run_capped(k, 5, ones);
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.loop_capped_cells, CAP_CELLS - 5 - 1);
    gpuc_kernel_free(k);
}
END_TEST

/* A test with effects is not evaluated again at the cap: reaching the cap counts (cell CAP too). */
START_TEST(loop_cap_with_effects_counts_reaching_it)
{
    open_profiled(false);
    float ones[CAP_CELLS];
    for (int i = 0; i < CAP_CELLS; i++)
        ones[i] = 1.0f;
    gpuc_kernel *k = capped_kernel("function (a) { let s = 0; let i = 0; while (i++ < this.thread.x) s += a[i]; "
                                   "return s; }", CAP);
    run_capped(k, CAP, ones);
    gpuc_kernel_stats s;
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.loop_capped_cells, CAP_CELLS - CAP);
    gpuc_kernel_free(k);
}
END_TEST

/* The count's storage binding comes before the arrays read from storage buffers (hardware profile),
 * and a cap above the loop budget also guards the loop: both share the loop-status block. */
START_TEST(loop_cap_with_buffer_reads_and_guard)
{
    unsetenv("GPUC_PROFILE");
    unsetenv("GPUC_TRACE");
    gpuc_options o = {.device_profile = GPUC_PROFILE_HARDWARE};
    ck_assert_gpuc_ok(gpuc_open(&gpu, &o));
    float ones[CAP_CELLS];
    for (int i = 0; i < CAP_CELLS; i++)
        ones[i] = 1.0f;
    gpuc_kernel *k = capped_kernel(CAPPED[0], CAP);
    run_capped(k, CAP, ones);
    gpuc_kernel_stats s;
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.loop_capped_cells, CAP_CELLS - CAP - 1);
    gpuc_kernel_free(k);
    gpuc_close(gpu);
    ck_assert_gpuc_ok(gpuc_open(&gpu, NULL));
    k = capped_kernel(CAPPED[0], 100000); /* above llvmpipe's budget of 65,535: guarded as well */
    ck_assert_ptr_nonnull(strstr(gpuc_kernel_describe(k), "guarded (checked"));
    run_capped(k, 100000, ones);
    ck_assert_gpuc_ok(gpuc_get_kernel_stats(k, &s));
    ck_assert_uint_eq(s.loop_capped_cells, 0);
    gpuc_kernel_free(k);
}
END_TEST

START_TEST(trace_says_the_cap_stopped_loops)
{
    unsetenv("GPUC_PROFILE");
    setenv("GPUC_TRACE", "1", 1);
    ck_assert_gpuc_ok(gpuc_open(&gpu, NULL));
    float ones[CAP_CELLS];
    for (int i = 0; i < CAP_CELLS; i++)
        ones[i] = 1.0f;
    gpuc_kernel *capped = capped_kernel(CAPPED[0], CAP), *free_running = capped_kernel(CAPPED[0], CAP_CELLS);
    capture c = capture_begin();
    run_capped(capped, CAP, ones);
    run_capped(free_running, CAP_CELLS, ones);
    char *text = capture_end(c);
    char want[128];
    snprintf(want, sizeof want, " loop cap: %d cells stopped at loop_max_iterations\n", CAP_CELLS - CAP - 1);
    const char *hit = strstr(text, want);
    ck_assert_msg(hit, "%s", text);
    ck_assert_msg(!strstr(hit + strlen(want), "loop cap"), "%s", text); /* the first run's line only */
    free(text);
    gpuc_kernel_free(capped);
    gpuc_kernel_free(free_running);
}
END_TEST

/* Each test opens its own context (the environment is read at gpuc_open); this closes it. */
static void close_own(void)
{
    gpuc_close(gpu);
    gpu = NULL;
}

Suite *suite_profile(void)
{
    Suite *s = suite_create("profile");
    TCase *tc = fixture_tcase_bare("profile");
    tcase_add_checked_fixture(tc, fixture_pin_driver, close_own);
    tcase_add_test(tc, counters_without_profiling);
    tcase_add_test(tc, profiling_times_each_run);
    tcase_add_test(tc, pipeline_times_are_collected_later);
    tcase_add_test(tc, profile_environment_variable);
    tcase_add_test(tc, null_arguments);
    tcase_add_test(tc, trace_prints_a_line_per_run);
    tcase_add_test(tc, trace_zero_prints_nothing);
    tcase_add_test(tc, first_run_counted_apart);
    tcase_add_test(tc, specialising_run_counted_apart);
    tcase_add_test(tc, median_of_known_times);
    tcase_add_test(tc, reset_starts_the_counts_again);
    tcase_add_test(tc, profile_table_lists_the_kernels);
    tcase_add_test(tc, profile_environment_prints_the_table_at_close);
    tcase_add_test(tc, describe_says_what_a_kernel_runs_as);
    tcase_add_loop_test(tc, loop_cap_counted_per_cell, 0, (int)(sizeof CAPPED / sizeof CAPPED[0]));
    tcase_add_test(tc, loop_proven_under_the_cap_is_unchanged);
    tcase_add_test(tc, loop_cap_with_effects_counts_reaching_it);
    tcase_add_test(tc, loop_cap_with_buffer_reads_and_guard);
    tcase_add_test(tc, trace_says_the_cap_stopped_loops);
    suite_add_tcase(s, tc);
    return s;
}
