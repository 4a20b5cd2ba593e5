/* test_program_cache.c - the context's program cache: programs found again by their text, kept while
 * a live kernel uses them, the unused ones bounded by gpuc_options.max_unused_programs (least recently
 * used out first), and the algorithm drivers needing a bounded number of programs however many
 * sizes they are called with. */
#include "fixture.h"
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A kernel whose program differs with c (a compile-time constant): out[i] = a[i] * c. */
static const char *const scale_source = "float scale(float a[]) { return a[thread.x] * constants.c; }";

static gpuc_kernel *make_scale(double c)
{
    gpuc_kernel *k = NULL;
    ck_assert_gpuc_ok(
        gpuc_create_kernel(gpu, scale_source, &(gpuc_kernel_desc){.output = {8}, .constants = {{"c", c}}}, &k));
    return k;
}

static gpuc_stats stats_now(void)
{
    gpuc_stats s;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &s));
    return s;
}

/* Opens the test's own context (into the fixture's `gpu`, so the assertions print its messages). */
static void open_with_bound(int max_unused)
{
    ck_assert_gpuc_ok(gpuc_open(&gpu, &(gpuc_options){.max_unused_programs = max_unused}));
}

static void close_own(void)
{
    gpuc_close(gpu);
    gpu = NULL;
}

/* Runs k over 0..7 and checks out[i] = i * c. */
static void check_scale_runs(gpuc_kernel *k, float c)
{
    float in[8];
    for (int i = 0; i < 8; i++)
        in[i] = (float)i;
    gpuc_array *out = NULL;
    ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(in, (gpuc_dims){8})}, 1, &out));
    float *got = fixture_take_floats(out, 8);
    for (int i = 0; i < 8; i++)
        ck_assert_float_eq(got[i], (float)i * c);
    free(got);
}

START_TEST(freed_kernels_keep_at_most_the_bound)
{
    open_with_bound(8);
    for (int i = 0; i < 40; i++) {
        gpuc_kernel_free(make_scale(i + 0.5));
        ck_assert_uint_le(stats_now().programs_held, 8);
    }
    gpuc_stats s = stats_now();
    ck_assert_uint_eq(s.programs_compiled, 40);
    ck_assert_uint_eq(s.programs_held, 8);
    ck_assert_uint_eq(s.programs_evicted, 32);
    close_own();
}
END_TEST

START_TEST(default_bound_is_documented_one)
{
    for (int i = 0; i < GPUC_DEFAULT_UNUSED_PROGRAMS + 20; i++)
        gpuc_kernel_free(make_scale(i + 0.25));
    gpuc_stats s = stats_now();
    ck_assert_uint_eq(s.programs_held, GPUC_DEFAULT_UNUSED_PROGRAMS);
    ck_assert_uint_eq(s.programs_evicted, 20);
}
END_TEST

START_TEST(least_recently_used_goes_first)
{
    open_with_bound(2);
    gpuc_kernel_free(make_scale(1)); /* unused: [1] */
    gpuc_kernel_free(make_scale(2)); /* [2, 1] */
    gpuc_kernel_free(make_scale(1)); /* found again, now the most recent: [1, 2] */
    ck_assert_uint_eq(stats_now().program_cache_hits, 1);
    gpuc_kernel_free(make_scale(3)); /* [3, 1]: 2 was the least recently used */
    gpuc_stats before = stats_now();
    ck_assert_uint_eq(before.programs_evicted, 1);
    gpuc_kernel_free(make_scale(1));
    ck_assert_uint_eq(stats_now().programs_compiled, before.programs_compiled); /* still kept */
    gpuc_kernel_free(make_scale(2));
    ck_assert_uint_eq(stats_now().programs_compiled, before.programs_compiled + 1); /* evicted before */
    close_own();
}
END_TEST

START_TEST(live_kernel_survives_eviction_pressure)
{
    open_with_bound(2);
    gpuc_kernel *live = make_scale(3);
    char *text = strdup(gpuc_kernel_glsl(live));
    ck_assert_ptr_nonnull(text);
    for (int i = 0; i < 30; i++)
        gpuc_kernel_free(make_scale(100 + i));
    gpuc_stats s = stats_now();
    ck_assert_uint_eq(s.programs_held, 3); /* the live kernel's, and the bound's two */
    ck_assert_uint_eq(s.programs_evicted, 28);
    ck_assert_str_eq(gpuc_kernel_glsl(live), text);
    check_scale_runs(live, 3.0f);
    free(text);
    gpuc_kernel_free(live);
    close_own();
}
END_TEST

START_TEST(shared_program_lives_until_its_last_kernel)
{
    open_with_bound(GPUC_NO_UNUSED_PROGRAMS);
    gpuc_kernel *a = make_scale(5), *b = make_scale(5);
    gpuc_stats s = stats_now();
    ck_assert_uint_eq(s.programs_compiled, 1);
    ck_assert_uint_eq(s.program_cache_hits, 1);
    ck_assert_uint_eq(s.programs_held, 1);
    gpuc_kernel_free(a);
    ck_assert_uint_eq(stats_now().programs_held, 1);
    check_scale_runs(b, 5.0f);
    gpuc_kernel_free(b);
    s = stats_now();
    ck_assert_uint_eq(s.programs_held, 0); /* kept none */
    ck_assert_uint_eq(s.programs_evicted, 1);
    close_own();
}
END_TEST

START_TEST(many_programs_are_found_again)
{
    /* Enough programs that the hash table grows several times; each must still be found by its text. */
    enum { N = 300 };
    open_with_bound(N);
    for (int i = 0; i < N; i++)
        gpuc_kernel_free(make_scale(i + 0.5));
    gpuc_stats before = stats_now();
    for (int i = N - 1; i >= 0; i--)
        gpuc_kernel_free(make_scale(i + 0.5));
    gpuc_stats after = stats_now();
    ck_assert_uint_eq(after.programs_compiled, before.programs_compiled);
    ck_assert_uint_eq(after.program_cache_hits, before.program_cache_hits + N);
    ck_assert_uint_eq(after.programs_held, N);
    close_own();
}
END_TEST

START_TEST(negative_bound_is_refused)
{
    gpuc_status st = gpuc_open(&gpu, &(gpuc_options){.max_unused_programs = -2});
    ck_assert_int_eq(st, GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(gpuc_errmsg(gpu), "max_unused_programs is -2"));
    close_own();
}
END_TEST

Suite *suite_program_cache(void)
{
    Suite *s = suite_create("program_cache");
    TCase *tc = fixture_tcase("default-context");
    tcase_add_test(tc, default_bound_is_documented_one);
    suite_add_tcase(s, tc);
    tc = fixture_tcase_bare("own-context");
    tcase_add_checked_fixture(tc, fixture_pin_driver, NULL);
    tcase_add_test(tc, freed_kernels_keep_at_most_the_bound);
    tcase_add_test(tc, least_recently_used_goes_first);
    tcase_add_test(tc, live_kernel_survives_eviction_pressure);
    tcase_add_test(tc, shared_program_lives_until_its_last_kernel);
    tcase_add_test(tc, many_programs_are_found_again);
    tcase_add_test(tc, negative_bound_is_refused);
    suite_add_tcase(s, tc);
    return s;
}
