/* test_profile.c - gpuc_get_kernel_stats: runs, cells and bytes counted per kernel, device time only
 * while profiling (the option, or GPUC_PROFILE / GPUC_TRACE), .pipeline times collected later, and
 * GPUC_TRACE's line per run on stderr, read back through a redirected stderr. */
#include "fixture.h"
#include "suites.h"

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
    FILE *log = tmpfile();
    ck_assert_ptr_nonnull(log);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    ck_assert_int_ge(saved, 0);
    ck_assert_int_ge(dup2(fileno(log), STDERR_FILENO), 0);
    gpuc_status st = GPUC_OK;
    for (int i = 0; i < runs && st == GPUC_OK; i++) {
        gpuc_array *r = NULL;
        st = gpuc_run(k, &arg, 1, &r);
        gpuc_array_free(r);
    }
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    ck_assert_gpuc_ok(st);
    gpuc_kernel_free(k);
    long size = ftell(log);
    ck_assert_int_ge(size, 0);
    char *text = calloc(1, (size_t)size + 1);
    rewind(log);
    ck_assert_uint_eq(fread(text, 1, (size_t)size, log), (size_t)size);
    fclose(log);
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
    suite_add_tcase(s, tc);
    return s;
}
