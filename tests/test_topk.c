/* test_topk.c - gpuc_topk, gpuc_topk_cutoff and gpuc_rank against plain C oracles: random and
 * adversarial data (ties, sorted input, negatives, infinities, -0.0, NaN, last-bit differences), sizes
 * from 1 to 2^22, k = 1 to n, largest and smallest, host and device input, and every bad input. */
#include "fixture.h"
#include "suites.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- oracles ---- */

/* The documented order, written with float comparisons (not the library's integer keys): NaN above
 * everything (all NaNs equal), -0.0 == +0.0. Returns >0 when a ranks above b. */
static int value_cmp(float a, float b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) - isnan(b);
    return (a > b) - (a < b);
}

static const float *oracle_values;
static int oracle_smallest;

static int oracle_cmp(const void *pa, const void *pb)
{
    int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    int c = value_cmp(oracle_values[a], oracle_values[b]);
    if (oracle_smallest)
        c = -c;
    if (c != 0)
        return -c;
    return (a > b) - (a < b);
}

/* All n indices in the documented order (caller frees). */
static int32_t *oracle_order(const float *v, size_t n, bool smallest)
{
    int32_t *idx = malloc(n * sizeof *idx);
    for (size_t i = 0; i < n; i++)
        idx[i] = (int32_t)i;
    oracle_values = v;
    oracle_smallest = smallest;
    qsort(idx, n, sizeof *idx, oracle_cmp);
    return idx;
}

/* mulberry32 as tutorial-tasks.md defines it. */
static double mulberry32(uint32_t *state)
{
    *state += 0x6D2B79F5u;
    uint32_t t = *state;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return (double)(t ^ (t >> 14)) / 4294967296.0;
}

static float *fine_scores(size_t n, uint32_t seed)
{
    float *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = (float)floor(-8000.0 * log(1.0 - mulberry32(&seed)) + 0.5);
    return v;
}

/* scores(n, seed) of the tutorial: round(rand()^3 * 1000). */
static float *scores(size_t n, uint32_t seed)
{
    float *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++) {
        double r = mulberry32(&seed);
        v[i] = (float)floor(r * r * r * 1000.0 + 0.5);
    }
    return v;
}

static float *random_floats(size_t n, uint32_t seed, float lo, float hi)
{
    float *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = lo + (hi - lo) * test_random(&seed);
    return v;
}

/* ---- checking gpuc_topk ---- */

static bool same_bits(float a, float b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Runs gpuc_topk on host data and checks values (bit for bit) and indices against the oracle. */
static void check_topk(const float *v, size_t n, size_t k, bool smallest)
{
    gpuc_array *vals = NULL, *idx = NULL;
    gpuc_topk_desc desc = {.k = k, .smallest = smallest};
    ck_assert_gpuc_ok(gpuc_topk(gpu, gpuc_arg_host_f32(v, (gpuc_dims){(uint32_t)n}), &desc, &vals, &idx));
    ck_assert_uint_eq(gpuc_array_cells(vals), k);
    ck_assert_uint_eq(gpuc_array_cells(idx), k);
    ck_assert_int_eq(gpuc_array_type(vals), GPUC_FLOAT);
    ck_assert_int_eq(gpuc_array_type(idx), GPUC_INT);
    float *got_v = malloc(k * sizeof *got_v);
    int32_t *got_i = malloc(k * sizeof *got_i);
    ck_assert_gpuc_ok(gpuc_array_read_f32(vals, got_v, k));
    ck_assert_gpuc_ok(gpuc_array_read_i32(idx, got_i, k));
    int32_t *want = oracle_order(v, n, smallest);
    for (size_t j = 0; j < k; j++) {
        ck_assert_msg(got_i[j] == want[j], "n=%zu k=%zu smallest=%d: slot %zu has index %d, want %d", n, k,
                      (int)smallest, j, got_i[j], want[j]);
        ck_assert_msg(same_bits(got_v[j], v[want[j]]), "n=%zu k=%zu: slot %zu has value %a, want %a", n, k, j,
                      (double)got_v[j], (double)v[want[j]]);
    }
    free(want);
    free(got_v);
    free(got_i);
    gpuc_array_free(vals);
    gpuc_array_free(idx);
}

/* k = 1, a middle k, k = n, for largest and smallest. */
static void check_topk_ks(const float *v, size_t n)
{
    const size_t ks[] = {1, n / 3 + 1, n};
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 3; i++)
            check_topk(v, n, ks[i], s == 1);
}

START_TEST(topk_random_sizes)
{
    const size_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 64, 100, 1000, 4095, 4096, 4097, 8192, 12289};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        float *v = random_floats(sizes[s], 17u + (uint32_t)s, -1000.0f, 1000.0f);
        check_topk_ks(v, sizes[s]);
        free(v);
    }
}
END_TEST

START_TEST(topk_ties)
{
    enum { N = 9000 };
    float *v = malloc(N * sizeof *v);
    for (int i = 0; i < N; i++)
        v[i] = 2.5f; /* all equal */
    check_topk_ks(v, N);
    check_topk(v, N, 4097, false);
    uint32_t s = 5;
    for (int i = 0; i < N; i++)
        v[i] = (float)(int)(test_random(&s) * 4.0f) - 1.0f; /* -1, 0, 1, 2: many ties */
    check_topk_ks(v, N);
    check_topk(v, N, 2500, true);
    free(v);
}
END_TEST

START_TEST(topk_sorted_and_reversed)
{
    enum { N = 10001 };
    float *up = malloc(N * sizeof *up), *down = malloc(N * sizeof *down);
    for (int i = 0; i < N; i++) {
        up[i] = (float)i * 0.25f - 1000.0f;
        down[i] = -up[i];
    }
    check_topk_ks(up, N);
    check_topk_ks(down, N);
    free(up);
    free(down);
}
END_TEST

START_TEST(topk_special_values)
{
    /* Infinities, signed zeros, the extremes, denormals, and neighbours one ulp apart. */
    float v[] = {0.0f,  -0.0f,     INFINITY,  -INFINITY, 1.0f,       nextafterf(1.0f, 2.0f),
                 -1.0f, nextafterf(-1.0f, -2.0f), FLT_MAX,  -FLT_MAX, FLT_MIN,    -FLT_MIN,
                 1e-45f, -1e-45f,   0.0f,      INFINITY,  -0.0f,      nextafterf(0.0f, 1.0f),
                 3.0f,  nextafterf(3.0f, 0.0f), -INFINITY, 2.0f,     nextafterf(2.0f, 3.0f), -0.0f};
    size_t n = sizeof v / sizeof v[0];
    for (size_t k = 1; k <= n; k++) {
        check_topk(v, n, k, false);
        check_topk(v, n, k, true);
    }
}
END_TEST

START_TEST(topk_signed_zeros_tie)
{
    /* -0.0 and +0.0 are one value: the lower index wins, and each keeps its own sign bit. */
    const float v[] = {1.0f, -0.0f, 0.0f, -0.0f, -1.0f};
    int32_t want_idx[] = {0, 1, 2, 3};
    gpuc_array *vals, *idx;
    ck_assert_gpuc_ok(gpuc_topk(gpu, gpuc_arg_host_f32(v, (gpuc_dims){5}), &(gpuc_topk_desc){.k = 4}, &vals, &idx));
    float got_v[4];
    int32_t got_i[4];
    ck_assert_gpuc_ok(gpuc_array_read_f32(vals, got_v, 4));
    ck_assert_gpuc_ok(gpuc_array_read_i32(idx, got_i, 4));
    for (int j = 0; j < 4; j++) {
        ck_assert_int_eq(got_i[j], want_idx[j]);
        ck_assert(same_bits(got_v[j], v[want_idx[j]]));
    }
    ck_assert(signbit(got_v[1]) && !signbit(got_v[2]) && signbit(got_v[3]));
    gpuc_array_free(vals);
    gpuc_array_free(idx);
}
END_TEST

START_TEST(topk_nan_policy)
{
    /* NaNs (either sign, any payload) rank above +inf, ties among them by index: first among the
     * largest, last among the smallest. */
    float nan_neg = -NAN, nan_payload;
    uint32_t bits = 0x7FA00001u; /* a signalling-pattern NaN with a payload */
    memcpy(&nan_payload, &bits, sizeof bits);
    float v[] = {3.0f, NAN, -INFINITY, INFINITY, nan_neg, -2.0f, nan_payload, 0.0f};
    size_t n = sizeof v / sizeof v[0];
    int32_t idx[3];
    gpuc_array *ia;
    ck_assert_gpuc_ok(gpuc_topk(gpu, gpuc_arg_host_f32(v, (gpuc_dims){(uint32_t)n}), &(gpuc_topk_desc){.k = 3},
                                NULL, &ia));
    ck_assert_gpuc_ok(gpuc_array_read_i32(ia, idx, 3));
    ck_assert_int_eq(idx[0], 1);
    ck_assert_int_eq(idx[1], 4);
    ck_assert_int_eq(idx[2], 6);
    gpuc_array_free(ia);
    for (size_t k = 1; k <= n; k++) {
        check_topk(v, n, k, false);
        check_topk(v, n, k, true);
    }
}
END_TEST

START_TEST(topk_last_bit_differences)
{
    /* Values one ulp apart around a large base, shuffled, with duplicates: the cutoff must be exact. */
    enum { N = 20000 };
    float *v = malloc(N * sizeof *v);
    uint32_t s = 99;
    for (int i = 0; i < N; i++) {
        float x = 123456.0f;
        int steps = (int)(test_random(&s) * 64.0f);
        for (int j = 0; j < steps; j++)
            x = nextafterf(x, INFINITY);
        v[i] = (i % 7 == 3) ? -x : x;
    }
    check_topk_ks(v, N);
    check_topk(v, N, 777, false);
    free(v);
}
END_TEST

START_TEST(topk_device_input_pipeline)
{
    /* A device array in, results left on the device, and only one int read back per bisection step. */
    enum { N = 50000, K = 300 };
    float *v = random_floats(N, 4242, -5.0f, 5.0f);
    gpuc_array *a;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){N}, &a));
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    gpuc_array *vals, *idx;
    ck_assert_gpuc_ok(gpuc_topk(gpu, gpuc_arg_array(a), &(gpuc_topk_desc){.k = K, .pipeline = true}, &vals, &idx));
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_uint_eq(after.uploads, before.uploads);
    ck_assert_uint_le(after.readbacks - before.readbacks, 33);
    ck_assert_uint_le(after.bytes_read_back - before.bytes_read_back, 33 * 16);
    /* The values feed a next kernel straight from the device. */
    gpuc_kernel *twice;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float twice(float a[]) { return 2.0 * a[thread.x]; }",
                                         &(gpuc_kernel_desc){.output = {K}}, &twice));
    gpuc_array *doubled;
    ck_assert_gpuc_ok(gpuc_run(twice, (gpuc_arg[]){gpuc_arg_array(vals)}, 1, &doubled));
    float got[K];
    int32_t got_i[K];
    ck_assert_gpuc_ok(gpuc_array_read_f32(doubled, got, K));
    ck_assert_gpuc_ok(gpuc_array_read_i32(idx, got_i, K));
    int32_t *want = oracle_order(v, N, false);
    for (int j = 0; j < K; j++) {
        ck_assert_int_eq(got_i[j], want[j]);
        ck_assert_float_eq(got[j], 2.0f * v[want[j]]);
    }
    free(want);
    gpuc_array_free(doubled);
    gpuc_kernel_free(twice);
    gpuc_array_free(vals);
    gpuc_array_free(idx);
    gpuc_array_free(a);
    free(v);
}
END_TEST

START_TEST(topk_2p22_k512)
{
    /* Acceptance: 2^22 random floats (both signs, many exponents), k = 512, exact values and indices. */
    enum { N = 1 << 22 };
    float *v = malloc(N * sizeof *v);
    uint32_t s = 2026;
    for (int i = 0; i < N; i++) {
        float m = test_random(&s) * 2.0f - 1.0f;
        v[i] = ldexpf(m, (int)(test_random(&s) * 40.0f) - 20);
    }
    v[12345] = v[4000000]; /* a tie likely near the top is not guaranteed; force some */
    check_topk(v, N, 512, false);
    check_topk(v, N, 512, true);
    free(v);
}
END_TEST

START_TEST(topk_bad_input)
{
    float v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    gpuc_array *vals = (gpuc_array *)v, *idx = (gpuc_array *)v; /* sentinels: must stay untouched */
    gpuc_arg host = gpuc_arg_host_f32(v, (gpuc_dims){8});
    ck_assert_int_eq(gpuc_topk(NULL, host, &(gpuc_topk_desc){.k = 1}, &vals, &idx), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_gpuc_fails(gpuc_topk(gpu, host, NULL, &vals, &idx), GPUC_ERROR_INVALID_ARGUMENT, "desc is NULL");
    ck_assert_gpuc_fails(gpuc_topk(gpu, host, &(gpuc_topk_desc){.k = 0}, &vals, &idx), GPUC_ERROR_INVALID_ARGUMENT,
                         "k is 0");
    ck_assert_gpuc_fails(gpuc_topk(gpu, host, &(gpuc_topk_desc){.k = 9}, &vals, &idx), GPUC_ERROR_INVALID_ARGUMENT,
                         "k = 9 is more than the 8 values");
    ck_assert_gpuc_fails(gpuc_topk(gpu, host, &(gpuc_topk_desc){.k = 1}, NULL, NULL), GPUC_ERROR_INVALID_ARGUMENT,
                         "both NULL");
    ck_assert_gpuc_fails(gpuc_topk(gpu, gpuc_arg_host_f32(NULL, (gpuc_dims){8}), &(gpuc_topk_desc){.k = 1}, &vals,
                                   &idx),
                         GPUC_ERROR_INVALID_ARGUMENT, "host data is NULL");
    ck_assert_gpuc_fails(gpuc_topk(gpu, gpuc_arg_host_f32(v, (gpuc_dims){0}), &(gpuc_topk_desc){.k = 1}, &vals, &idx),
                         GPUC_ERROR_INVALID_ARGUMENT, "n = 0");
    ck_assert_gpuc_fails(gpuc_topk(gpu, gpuc_arg_host_f32(v, (gpuc_dims){4, 2}), &(gpuc_topk_desc){.k = 1}, &vals,
                                   &idx),
                         GPUC_ERROR_TYPE_MISMATCH, "1D");
    ck_assert_gpuc_fails(gpuc_topk(gpu, gpuc_arg_array(NULL), &(gpuc_topk_desc){.k = 1}, &vals, &idx),
                         GPUC_ERROR_INVALID_ARGUMENT, "NULL device array");
    ck_assert_gpuc_fails(gpuc_topk(gpu, gpuc_arg_f32(1.0f), &(gpuc_topk_desc){.k = 1}, &vals, &idx),
                         GPUC_ERROR_TYPE_MISMATCH, "float data");
    gpuc_array *ints;
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_INT, (gpuc_dims){8}, &ints));
    ck_assert_gpuc_fails(gpuc_topk(gpu, gpuc_arg_array(ints), &(gpuc_topk_desc){.k = 1}, &vals, &idx),
                         GPUC_ERROR_TYPE_MISMATCH, "1D float array");
    gpuc_array_free(ints);
    /* More values than the device's largest array: refused before anything is read or uploaded. */
    int64_t texels = gpuc_get_info(gpu)->max_texture_buffer_size;
    if (texels > 0 && texels * 4 + 4 < (int64_t)UINT32_MAX)
        ck_assert_gpuc_fails(gpuc_topk(gpu, gpuc_arg_host_f32(v, (gpuc_dims){(uint32_t)(texels * 4 + 4)}),
                                       &(gpuc_topk_desc){.k = 1}, &vals, &idx),
                             GPUC_ERROR_LIMIT, "largest array");
    ck_assert_gpuc_fails(gpuc_topk(gpu, gpuc_arg_host_f32(v, (gpuc_dims){UINT32_MAX}), &(gpuc_topk_desc){.k = 1}, &vals,
                                   &idx),
                         GPUC_ERROR_LIMIT, "");
    ck_assert_ptr_eq(vals, (gpuc_array *)v);
    ck_assert_ptr_eq(idx, (gpuc_array *)v);
    /* The context still works after every refusal. */
    check_topk(v, 8, 3, false);
}
END_TEST

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

Suite *suite_topk(void)
{
    Suite *s = suite_create("topk");
    TCase *tc = fixture_tcase("topk");
    tcase_add_test(tc, topk_random_sizes);
    tcase_add_test(tc, topk_ties);
    tcase_add_test(tc, topk_sorted_and_reversed);
    tcase_add_test(tc, topk_special_values);
    tcase_add_test(tc, topk_signed_zeros_tie);
    tcase_add_test(tc, topk_nan_policy);
    tcase_add_test(tc, topk_last_bit_differences);
    tcase_add_test(tc, topk_device_input_pipeline);
    tcase_add_test(tc, topk_2p22_k512);
    tcase_add_test(tc, topk_bad_input);
    tcase_add_test(tc, cutoff_seed_fine_scores);
    tcase_add_test(tc, cutoff_matches_c_bisection);
    tcase_add_test(tc, cutoff_bad_input);
    tcase_add_test(tc, rank_tutorial_scores);
    tcase_add_test(tc, rank_matches_oracle);
    tcase_add_test(tc, rank_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
