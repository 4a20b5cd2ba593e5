/* test_topk_seed.c - gpuc_topk_cutoff (the seed's bisection, tutorial top-k task 4) and gpuc_rank
 * (rank by counting, tasks 1-3) against plain C oracles and the tutorial's facts, and their bad input. */
#include "fixture.h"
#include "topk_oracle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- gpuc_topk_cutoff (the seed's bisection) ---- */

/* The tutorial's bisection in plain C: host counts of values > (float)mid. */
static double oracle_cutoff(const float *v, size_t n, size_t k, int64_t *above)
{
    float mn = v[0], mx = v[0];
    for (size_t i = 1; i < n; i++) {
        mn = v[i] < mn ? v[i] : mn;
        mx = v[i] > mx ? v[i] : mx;
    }
    double lo = (double)mn - 1.0, hi = mx;
    while (hi - lo > 0.5) {
        double mid = (lo + hi) / 2.0;
        size_t count = 0;
        for (size_t i = 0; i < n; i++)
            count += v[i] > (float)mid;
        if (count >= k)
            lo = mid;
        else
            hi = mid;
    }
    double cutoff = floor(lo);
    *above = 0;
    for (size_t i = 0; i < n; i++)
        *above += v[i] > (float)cutoff;
    return cutoff;
}

START_TEST(cutoff_seed_fine_scores)
{
    /* Tutorial top-k task 4: fine_scores(65536, 4801), K = 10, threads = chunk = 256. */
    float *v = fine_scores(65536, 4801);
    double cutoff = 0;
    int64_t above = 0;
    gpuc_topk_cutoff_desc seed = {.k = 10, .threads = 256, .chunk = 256};
    ck_assert_gpuc_ok(gpuc_topk_cutoff(gpu, gpuc_arg_host_f32(v, (gpuc_dims){65536}), &seed, &cutoff, &above));
    ck_assert_double_eq(cutoff, 68327.0);
    ck_assert_int_eq(above, 10);
    /* Defaults (256 threads, a chunk that covers n) and device input give the same. */
    gpuc_array *a;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){65536}, &a));
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    ck_assert_gpuc_ok(gpuc_topk_cutoff(gpu, gpuc_arg_array(a), &(gpuc_topk_cutoff_desc){.k = 10}, &cutoff, NULL));
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_double_eq(cutoff, 68327.0);
    /* One range and one count per step come back, never the 256 partial counts. */
    ck_assert_uint_le(after.bytes_read_back - before.bytes_read_back, 16 * (after.readbacks - before.readbacks));
    gpuc_array_free(a);
    free(v);
}
END_TEST

START_TEST(cutoff_matches_c_bisection)
{
    const size_t sizes[] = {1, 3, 1000, 65537, 100000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        float *v = fine_scores(n, 7u + (uint32_t)s);
        for (size_t i = 0; i < n; i += 3)
            v[i] = -v[i]; /* negatives too */
        const size_t ks[] = {1, n / 2 + 1, n};
        for (int j = 0; j < 3; j++) {
            int64_t want_above, got_above = -1;
            double want = oracle_cutoff(v, n, ks[j], &want_above), got = 0;
            gpuc_topk_cutoff_desc desc = {.k = ks[j], .threads = j == 1 ? 64 : 0};
            ck_assert_gpuc_ok(gpuc_topk_cutoff(gpu, gpuc_arg_host_f32(v, (gpuc_dims){(uint32_t)n}), &desc, &got,
                                               &got_above));
            ck_assert_msg(got == want, "n=%zu k=%zu: cutoff %g, want %g", n, ks[j], got, want);
            ck_assert_int_eq(got_above, want_above);
        }
        free(v);
    }
}
END_TEST

START_TEST(cutoff_bad_input)
{
    float v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    gpuc_arg host = gpuc_arg_host_f32(v, (gpuc_dims){8});
    double cutoff = -7.0;
    int64_t above = -7;
    ck_assert_int_eq(gpuc_topk_cutoff(NULL, host, &(gpuc_topk_cutoff_desc){.k = 1}, &cutoff, &above),
                     GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_gpuc_fails(gpuc_topk_cutoff(gpu, host, NULL, &cutoff, &above), GPUC_ERROR_INVALID_ARGUMENT,
                         "desc is NULL");
    ck_assert_gpuc_fails(gpuc_topk_cutoff(gpu, host, &(gpuc_topk_cutoff_desc){.k = 1}, NULL, &above),
                         GPUC_ERROR_INVALID_ARGUMENT, "cutoff is NULL");
    ck_assert_gpuc_fails(gpuc_topk_cutoff(gpu, host, &(gpuc_topk_cutoff_desc){.k = 0}, &cutoff, &above),
                         GPUC_ERROR_INVALID_ARGUMENT, "k is 0");
    ck_assert_gpuc_fails(gpuc_topk_cutoff(gpu, host, &(gpuc_topk_cutoff_desc){.k = 9}, &cutoff, &above),
                         GPUC_ERROR_INVALID_ARGUMENT, "more than the 8 values");
    ck_assert_gpuc_fails(gpuc_topk_cutoff(gpu, host, &(gpuc_topk_cutoff_desc){.k = 1, .threads = 2, .chunk = 3},
                                          &cutoff, &above),
                         GPUC_ERROR_INVALID_ARGUMENT, "does not cover");
    ck_assert_gpuc_fails(gpuc_topk_cutoff(gpu, host, &(gpuc_topk_cutoff_desc){.k = 1, .threads = -1}, &cutoff, &above),
                         GPUC_ERROR_INVALID_ARGUMENT, "negative");
    if (gpuc_get_info(gpu)->loop_budget > 0)
        ck_assert_gpuc_fails(gpuc_topk_cutoff(gpu, host, &(gpuc_topk_cutoff_desc){.k = 1, .threads = 1, .chunk = 70000},
                                              &cutoff, &above),
                             GPUC_ERROR_LIMIT, "loop budget");
    ck_assert_gpuc_fails(gpuc_topk_cutoff(gpu, gpuc_arg_host_f32(v, (gpuc_dims){0}), &(gpuc_topk_cutoff_desc){.k = 1},
                                          &cutoff, &above),
                         GPUC_ERROR_INVALID_ARGUMENT, "n = 0");
    float inf[3] = {1.0f, INFINITY, 2.0f};
    ck_assert_gpuc_fails(gpuc_topk_cutoff(gpu, gpuc_arg_host_f32(inf, (gpuc_dims){3}), &(gpuc_topk_cutoff_desc){.k = 1},
                                          &cutoff, &above),
                         GPUC_ERROR_INVALID_ARGUMENT, "finite");
    float nan[4] = {1.0f, 5.0f, NAN, 2.0f};
    ck_assert_gpuc_fails(gpuc_topk_cutoff(gpu, gpuc_arg_host_f32(nan, (gpuc_dims){4}), &(gpuc_topk_cutoff_desc){.k = 1},
                                          &cutoff, &above),
                         GPUC_ERROR_INVALID_ARGUMENT, "NaN");
    ck_assert_double_eq(cutoff, -7.0);
    ck_assert_int_eq(above, -7);
}
END_TEST

/* ---- gpuc_rank ---- */

static int32_t *read_ranks(const float *v, size_t n, bool smallest)
{
    gpuc_array *r;
    ck_assert_gpuc_ok(gpuc_rank(gpu, gpuc_arg_host_f32(v, (gpuc_dims){(uint32_t)n}),
                                &(gpuc_rank_desc){.smallest = smallest}, &r));
    ck_assert_uint_eq(gpuc_array_cells(r), n);
    int32_t *ranks = malloc(n * sizeof *ranks);
    ck_assert_gpuc_ok(gpuc_array_read_i32(r, ranks, n));
    gpuc_array_free(r);
    return ranks;
}

START_TEST(rank_tutorial_scores)
{
    /* Tutorial top-k tasks 1 and 2: scores(4096, 2026). */
    float *v = scores(4096, 2026);
    int32_t *ranks = read_ranks(v, 4096, false);
    ck_assert_int_eq(ranks[0], 2220);
    ck_assert_float_eq(v[0], 94.0f);
    const float top10[] = {998, 997, 996, 995, 994, 994, 994, 994, 994, 993};
    for (int j = 0; j < 10; j++) {
        int found = 0;
        for (int i = 0; i < 4096; i++)
            if (ranks[i] == j) {
                ck_assert_float_eq(v[i], top10[j]);
                found++;
            }
        ck_assert_int_eq(found, 1);
    }
    free(ranks);
    free(v);
}
END_TEST

START_TEST(rank_matches_oracle)
{
    /* Ranks are the inverse of the oracle's order: ties, signed zeros, infinities and NaN included. */
    enum { N = 3000 };
    float *v = malloc(N * sizeof *v);
    uint32_t s = 77;
    const float special[] = {-0.0f, 0.0f, INFINITY, -INFINITY, NAN, -NAN};
    for (int i = 0; i < N; i++)
        v[i] = i % 10 == 0 ? special[(i / 10) % 6] : (float)(int)(test_random(&s) * 50.0f) - 25.0f;
    for (int smallest = 0; smallest < 2; smallest++) {
        int32_t *ranks = read_ranks(v, N, smallest);
        int32_t *order = oracle_order(v, N, smallest);
        for (int r = 0; r < N; r++)
            ck_assert_msg(ranks[order[r]] == r, "element %d: rank %d, want %d", order[r], ranks[order[r]], r);
        free(order);
        free(ranks);
    }
    free(v);
}
END_TEST

START_TEST(rank_device_pipeline)
{
    /* Device input, ranks left on the device: nothing is uploaded or read back during the call. */
    float *v = scores(1000, 31);
    gpuc_array *a, *r;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){1000}, &a));
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    ck_assert_gpuc_ok(gpuc_rank(gpu, gpuc_arg_array(a), &(gpuc_rank_desc){.pipeline = true}, &r));
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_uint_eq(after.uploads, before.uploads);
    ck_assert_uint_eq(after.readbacks, before.readbacks);
    int32_t ranks[1000];
    ck_assert_gpuc_ok(gpuc_array_read_i32(r, ranks, 1000));
    int32_t *order = oracle_order(v, 1000, false);
    for (int j = 0; j < 1000; j++)
        ck_assert_int_eq(ranks[order[j]], j);
    free(order);
    gpuc_array_free(r);
    gpuc_array_free(a);
    free(v);
}
END_TEST

START_TEST(rank_bad_input)
{
    float v[4] = {1, 2, 3, 4};
    gpuc_array *r = (gpuc_array *)v;
    ck_assert_int_eq(gpuc_rank(NULL, gpuc_arg_host_f32(v, (gpuc_dims){4}), NULL, &r), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_gpuc_fails(gpuc_rank(gpu, gpuc_arg_host_f32(v, (gpuc_dims){4}), NULL, NULL), GPUC_ERROR_INVALID_ARGUMENT,
                         "ranks_out is NULL");
    ck_assert_gpuc_fails(gpuc_rank(gpu, gpuc_arg_host_f32(v, (gpuc_dims){0}), NULL, &r), GPUC_ERROR_INVALID_ARGUMENT,
                         "n = 0");
    ck_assert_gpuc_fails(gpuc_rank(gpu, gpuc_arg_i32(3), NULL, &r), GPUC_ERROR_TYPE_MISMATCH, "float data");
    int64_t budget = gpuc_get_info(gpu)->loop_budget;
    if (budget > 0) {
        float *big = calloc((size_t)budget, sizeof *big);
        ck_assert_gpuc_fails(gpuc_rank(gpu, gpuc_arg_host_f32(big, (gpuc_dims){(uint32_t)budget}), NULL, &r),
                             GPUC_ERROR_LIMIT, "gpuc_topk for large n");
        free(big);
    }
    ck_assert_ptr_eq(r, (gpuc_array *)v);
}
END_TEST

void topk_add_seed_tests(TCase *tc)
{
    tcase_add_test(tc, cutoff_seed_fine_scores);
    tcase_add_test(tc, cutoff_matches_c_bisection);
    tcase_add_test(tc, cutoff_bad_input);
    tcase_add_test(tc, rank_tutorial_scores);
    tcase_add_test(tc, rank_matches_oracle);
    tcase_add_test(tc, rank_device_pipeline);
    tcase_add_test(tc, rank_bad_input);
}
