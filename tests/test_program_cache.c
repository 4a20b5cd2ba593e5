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

/* ---- the algorithm drivers: new sizes need no new programs ---- */

static uint64_t compiled_now(void)
{
    return stats_now().programs_compiled;
}

static int by_value(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Distinct values in a scrambled order (v[i] = (i * 7919) mod 50021 is a bijection on 0..50020). */
static float *scrambled(uint32_t n)
{
    float *v = malloc(n * sizeof *v);
    ck_assert_ptr_nonnull(v);
    for (uint32_t i = 0; i < n; i++)
        v[i] = (float)((i * 7919u) % 50021u);
    return v;
}

static void check_sorted(const float *v, uint32_t n)
{
    float *want = malloc(n * sizeof *want);
    ck_assert_ptr_nonnull(want);
    memcpy(want, v, n * sizeof *want);
    qsort(want, n, sizeof *want, by_value);
    gpuc_array *out = NULL;
    ck_assert_gpuc_ok(gpuc_sort(gpu, gpuc_arg_host_f32(v, (gpuc_dims){n}), NULL, &out));
    float *got = fixture_take_floats(out, n);
    for (uint32_t i = 0; i < n; i++)
        ck_assert_msg(got[i] == want[i], "n = %u: sorted[%u] = %g, expected %g", n, i, got[i], want[i]);
    free(got);
    free(want);
}

START_TEST(sort_new_lengths_compile_nothing)
{
    float *v = scrambled(1200);
    check_sorted(v, 1100);
    uint64_t before = compiled_now();
    for (uint32_t n = 1101; n <= 1130; n++)
        check_sorted(v, n);
    ck_assert_uint_eq(compiled_now(), before);
    free(v);
}
END_TEST

/* Programs compiled while sorting 20 lengths from 1,000 to about 150,000 by `method`. */
static uint64_t compiled_over_lengths(const float *v, gpuc_sort_method method)
{
    uint64_t before = compiled_now();
    double n = 1000;
    for (int i = 0; i < 20; i++, n *= 1.3) {
        gpuc_array *out = NULL;
        ck_assert_gpuc_ok(gpuc_sort(gpu, gpuc_arg_host_f32(v, (gpuc_dims){(uint32_t)n}),
                                    &(gpuc_sort_desc){.method = method}, &out));
        gpuc_array_free(out);
    }
    return compiled_now() - before;
}

START_TEST(sort_over_a_wide_range_of_lengths_stays_bounded)
{
    /* Every length a new output size, and every power of two a new network size. The network's
     * programs: load, merge, unload, each in at most five variants (the cells each invocation
     * computes, a power of two from 1 to 16). The radix sort's (compute only): load, counts, prefix,
     * totals, transpose, scatter, unload and the scan's two kernels at two block sizes: 11, the same
     * way (about 35 measured; a program per length would make 140). */
    float *v = scrambled(160000);
    ck_assert_uint_le(compiled_over_lengths(v, GPUC_SORT_BITONIC), 15);
    if (gpuc_get_info(gpu)->backend == GPUC_BACKEND_COMPUTE) {
        ck_assert_uint_le(compiled_over_lengths(v, GPUC_SORT_RADIX), 11 * 5);
    }
    ck_assert_uint_le(stats_now().programs_held, GPUC_DEFAULT_UNUSED_PROGRAMS);
    free(v);
}
END_TEST

START_TEST(topk_new_k_compile_nothing)
{
    enum { N = 20000 };
    float *v = scrambled(N), *sorted = scrambled(N);
    qsort(sorted, N, sizeof *sorted, by_value);
    uint64_t before = 0;
    for (size_t k = 5; k <= 30; k++) {
        gpuc_array *out = NULL;
        ck_assert_gpuc_ok(gpuc_topk(gpu, gpuc_arg_host_f32(v, (gpuc_dims){N}), &(gpuc_topk_desc){.k = k}, &out, NULL));
        float *got = fixture_take_floats(out, k);
        for (size_t i = 0; i < k; i++)
            ck_assert_float_eq(got[i], sorted[N - 1 - i]);
        free(got);
        if (k == 5)
            before = compiled_now();
    }
    ck_assert_uint_eq(compiled_now(), before);
    free(v);
    free(sorted);
}
END_TEST

START_TEST(compact_new_counts_compile_nothing)
{
    enum { N = 20000 };
    float *v = scrambled(N);
    uint64_t before = 0;
    for (int c = 100; c <= 130; c++) {
        float threshold = 50021.0f - (float)c * 2.5f;
        size_t want = 0;
        for (int i = 0; i < N; i++)
            want += v[i] > threshold;
        gpuc_array *out = NULL;
        size_t count = 0;
        ck_assert_gpuc_ok(gpuc_compact(gpu, gpuc_arg_host_f32(v, (gpuc_dims){N}),
                                       &(gpuc_compact_desc){.op = GPUC_GREATER, .threshold = threshold}, &out,
                                       &count));
        ck_assert_uint_eq(count, want);
        float *got = fixture_take_floats(out, count);
        for (size_t i = 0, j = 0; i < (size_t)N; i++)
            if (v[i] > threshold)
                ck_assert_float_eq(got[j++], v[i]);
        free(got);
        if (c == 100)
            before = compiled_now();
    }
    ck_assert_uint_eq(compiled_now(), before);
    free(v);
}
END_TEST

START_TEST(one_program_serves_1d_kernels_of_every_size)
{
    /* A kernel that never names outputSize: its sizes are uniforms, so every length shares a program
     * (of each cells-per-invocation variant), and each runs with its own size. */
    const char *src = "float twice(float a[]) { return 2.0 * a[thread.x]; }";
    gpuc_kernel *first = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, src, &(gpuc_kernel_desc){.output = {100}}, &first));
    uint64_t before = compiled_now();
    float in[200];
    for (int i = 0; i < 200; i++)
        in[i] = (float)i;
    for (uint32_t n = 101; n <= 200; n += 11) {
        gpuc_kernel *k = NULL;
        ck_assert_gpuc_ok(gpuc_create_kernel(gpu, src, &(gpuc_kernel_desc){.output = {n}}, &k));
        ck_assert_str_eq(gpuc_kernel_glsl(k), gpuc_kernel_glsl(first));
        gpuc_array *out = NULL;
        ck_assert_gpuc_ok(gpuc_run(k, (gpuc_arg[]){gpuc_arg_host_f32(in, (gpuc_dims){200})}, 1, &out));
        float *got = fixture_take_floats(out, n);
        for (uint32_t i = 0; i < n; i++)
            ck_assert_float_eq(got[i], 2.0f * (float)i);
        free(got);
        gpuc_kernel_free(k);
    }
    ck_assert_uint_eq(compiled_now(), before);
    gpuc_kernel_free(first);
}
END_TEST

START_TEST(kernel_naming_output_size_keeps_it_constant)
{
    /* outputSize may size an array: it stays a compile-time constant, a program per size. */
    const char *src = "float last(float a[]) { float keep[outputSize.x]; keep[thread.x] = a[thread.x];"
                      " return keep[thread.x] + float(outputSize.x); }";
    gpuc_kernel *k4 = NULL, *k5 = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, src, &(gpuc_kernel_desc){.output = {4}}, &k4));
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, src, &(gpuc_kernel_desc){.output = {5}}, &k5));
    ck_assert_str_ne(gpuc_kernel_glsl(k4), gpuc_kernel_glsl(k5));
    float in[5] = {1, 2, 3, 4, 5};
    gpuc_array *out = NULL;
    ck_assert_gpuc_ok(gpuc_run(k5, (gpuc_arg[]){gpuc_arg_host_f32(in, (gpuc_dims){5})}, 1, &out));
    float *got = fixture_take_floats(out, 5);
    for (int i = 0; i < 5; i++)
        ck_assert_float_eq(got[i], in[i] + 5.0f);
    free(got);
    gpuc_kernel_free(k4);
    gpuc_kernel_free(k5);
}
END_TEST

Suite *suite_program_cache(void)
{
    Suite *s = suite_create("program_cache");
    TCase *tc = fixture_tcase("default-context");
    tcase_add_test(tc, default_bound_is_documented_one);
    tcase_add_test(tc, one_program_serves_1d_kernels_of_every_size);
    tcase_add_test(tc, kernel_naming_output_size_keeps_it_constant);
    suite_add_tcase(s, tc);
    tc = fixture_tcase("drivers");
    tcase_add_test(tc, sort_new_lengths_compile_nothing);
    tcase_add_test(tc, sort_over_a_wide_range_of_lengths_stays_bounded);
    tcase_add_test(tc, topk_new_k_compile_nothing);
    tcase_add_test(tc, compact_new_counts_compile_nothing);
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
