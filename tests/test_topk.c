/* test_topk.c - gpuc_topk against a plain C oracle: random and adversarial data (ties, sorted input,
 * negatives, infinities, -0.0, NaN, last-bit differences), sizes from 1 to 2^22, k = 1 to n, largest and
 * smallest, host and device input, and every bad input. The seed's bisection and rank by counting are
 * in test_topk_seed.c, in the same suite. */
#include "fixture.h"
#include "suites.h"
#include "topk_oracle.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- checking gpuc_topk ---- */

static bool same_bits(float a, float b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Reads gpuc_topk's results (k values and indices) and checks them against the oracle: indices equal,
 * values bit for bit. */
static void check_results(gpuc_array *vals, gpuc_array *idx, const float *v, size_t n, size_t k, bool smallest)
{
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
    check_results(vals, idx, v, n, k, smallest);
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
    /* A device array in, results left on the device. Pruning (above 131,072 values: smaller inputs are
     * read back and selected on the host) reads back the tile maxima, one count per group of the tiles
     * that reach the k-th largest maximum, and the few survivors: three read backs of far less than
     * the input on random data. It uploads the tile list, the survivors' slots and the two results. */
    enum { N = 200000, K = 300 };
    float *v = random_floats(N, 4242, -5.0f, 5.0f);
    gpuc_array *a;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){N}, &a));
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    gpuc_array *vals, *idx;
    ck_assert_gpuc_ok(gpuc_topk(gpu, gpuc_arg_array(a), &(gpuc_topk_desc){.k = K, .pipeline = true}, &vals, &idx));
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_uint_le(after.uploads - before.uploads, 4);
    ck_assert_uint_le(after.readbacks - before.readbacks, 3);
    ck_assert_uint_le(after.bytes_read_back - before.bytes_read_back, N * sizeof(float) / 8);
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

START_TEST(topk_unprunable_small_inputs)
{
    /* Fewer tiles of 64 values than k: no tile can be pruned, so the values themselves are ordered on
     * the host (no dispatch): host data as given, a kernel's .pipeline result read back once. Ties at
     * the k-th value are taken by index, as everywhere. */
    enum { N = 5000, K = 200 };
    float *v = random_floats(N, 99, -3.0f, 3.0f);
    for (int i = 0; i < N; i += 7)
        v[i] = 1.5f; /* about 700 ties, around the 200th largest */
    gpuc_kernel *copy;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float copy(float a[]) { return a[thread.x]; }",
                                         &(gpuc_kernel_desc){.output = {N}, .pipeline = true}, &copy));
    gpuc_array *a;
    ck_assert_gpuc_ok(gpuc_run(copy, (gpuc_arg[]){gpuc_arg_host_f32(v, (gpuc_dims){N})}, 1, &a));
    for (int smallest = 0; smallest < 2; smallest++) {
        gpuc_stats before, after;
        ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
        gpuc_array *vals, *idx;
        gpuc_topk_desc desc = {.k = K, .smallest = smallest};
        ck_assert_gpuc_ok(gpuc_topk(gpu, gpuc_arg_array(a), &desc, &vals, &idx));
        ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
        ck_assert_uint_eq(after.dispatches, before.dispatches);
        ck_assert_uint_le(after.readbacks - before.readbacks, 1);
        ck_assert_uint_le(after.bytes_read_back - before.bytes_read_back, N * sizeof(float));
        check_results(vals, idx, v, N, K, smallest);
        gpuc_array_free(vals);
        gpuc_array_free(idx);
        /* and from host data, never uploaded: the results are held in host memory (nothing uploaded
         * until their first use on the device) */
        ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
        check_topk(v, N, K, smallest);
        ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
        ck_assert_uint_eq(after.uploads - before.uploads, 0);
        ck_assert_uint_eq(after.dispatches, before.dispatches);
        /* such a result used on the device: a kernel reads its values */
        ck_assert_gpuc_ok(gpuc_topk(gpu, gpuc_arg_host_f32(v, (gpuc_dims){N}), &desc, &vals, NULL));
        float held[K], twice[K];
        ck_assert_gpuc_ok(gpuc_array_read_f32(vals, held, K));
        gpuc_kernel *doubled;
        ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float doubled(float a[]) { return 2.0 * a[thread.x]; }",
                                             &(gpuc_kernel_desc){.output = {K}, .pipeline = true}, &doubled));
        gpuc_array *out;
        ck_assert_gpuc_ok(gpuc_run(doubled, (gpuc_arg[]){gpuc_arg_array(vals)}, 1, &out));
        ck_assert_gpuc_ok(gpuc_array_read_f32(out, twice, K));
        for (int i = 0; i < K; i++)
            ck_assert_msg(twice[i] == 2.0f * held[i], "[%d] %g, want %g", i, (double)twice[i], 2.0 * held[i]);
        gpuc_array_free(out);
        gpuc_array_free(vals);
        gpuc_kernel_free(doubled);
    }
    gpuc_array_free(a);
    gpuc_kernel_free(copy);
    free(v);
}
END_TEST

/* n values of which those at multiples of `stride` are the largest: a sample of every stride-th key
 * sees only them, so the bound it gives leaves fewer than k, and the host selects over every value. */
static float *sample_misleading(size_t n, size_t stride)
{
    float *v = random_floats(n, 555, -1.0f, 1.0f);
    for (size_t i = 0; i < n; i += stride)
        v[i] = 100.0f + (float)(i % 1000);
    return v;
}

START_TEST(topk_host_selection)
{
    /* Inputs up to 131,072 values are selected on the host (a device array read back once, no
     * dispatch): keys reaching a bound from a sample of every (k / 64)-th key (k / 8 for 16 <= k <
     * 128; no sample below 16) are the candidates, or every value where the bound leaves fewer than k
     * or is NaN's. Each case against the oracle, largest and smallest. */
    enum { N = 40000 };
    const size_t ks[] = {1, 15, 16, 100, 127, 128, 512, 4096};
    float *v = random_floats(N, 4711, -50.0f, 50.0f);
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        check_topk(v, N, ks[i], false);
        check_topk(v, N, ks[i], true);
    }
    free(v);
    /* A length the host's filter leaves a tail of (it tests blocks of 16 values), the largest in it. */
    v = random_floats(N + 7, 4712, -50.0f, 50.0f);
    for (size_t i = N; i < N + 7; i++)
        v[i] = 50.0f + (float)(i - N);
    check_topk(v, N + 7, 512, false);
    check_topk(v, N + 7, 512, true);
    free(v);
    /* The sample sees only the largest values: the bound leaves fewer than k (k / 64 = 8, k / 8 = 4). */
    v = sample_misleading(N, 8);
    check_topk(v, N, 512, false);
    free(v);
    v = sample_misleading(N, 4);
    check_topk(v, N, 32, false);
    free(v);
    /* A few NaNs: above every bound among the largest, below it among the smallest. */
    v = random_floats(N, 707, -2.0f, 2.0f);
    for (size_t i = 13; i < N; i += N / 10)
        v[i] = (i & 1) ? NAN : -NAN;
    check_topk(v, N, 512, false);
    check_topk(v, N, 512, true);
    free(v);
    /* Most values NaN: the bound is NaN's key for the largest; the k-th smallest is a NaN too. */
    v = random_floats(N, 808, -2.0f, 2.0f);
    for (size_t i = 0; i < N; i++)
        if (i % 10 != 3)
            v[i] = (i & 1) ? NAN : -NAN;
    check_topk(v, N, 512, false);
    check_topk(v, N, 512, true);
    check_topk(v, N, 20000, true);
    free(v);
    /* The bound at zero, both signs of it tied around the k-th, and denormals beside it. */
    v = random_floats(N, 909, -1.0f, 1.0f);
    for (size_t i = 0; i < N; i += 3)
        v[i] = (i % 2) ? 0.0f : -0.0f;
    for (size_t i = 1; i < N; i += 97)
        v[i] = (i % 2) ? 1e-40f : -1e-40f;
    check_topk(v, N, N / 2, false);
    check_topk(v, N, N / 2, true);
    check_topk(v, N, 200, true);
    free(v);
    /* Either side of the bound the host takes, and the largest inputs with fewer tiles of 64 than k. */
    const size_t sizes[] = {131072, 131073};
    for (size_t i = 0; i < 2; i++) {
        v = random_floats(sizes[i], 61 + (uint32_t)i, -9.0f, 9.0f);
        for (size_t j = 0; j < sizes[i]; j += 5)
            v[j] = 4.25f; /* ties at the k-th */
        gpuc_array *a, *vals, *idx;
        ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){(uint32_t)sizes[i]}, &a));
        gpuc_stats before, after;
        ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
        ck_assert_gpuc_ok(gpuc_topk(gpu, gpuc_arg_array(a), &(gpuc_topk_desc){.k = 1000}, &vals, &idx));
        ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
        if (i == 0)
            ck_assert_uint_eq(after.dispatches, before.dispatches);
        else
            ck_assert_uint_gt(after.dispatches, before.dispatches);
        check_results(vals, idx, v, sizes[i], 1000, false);
        gpuc_array_free(vals);
        gpuc_array_free(idx);
        gpuc_array_free(a);
        free(v);
    }
    v = random_floats(1000000, 62, -9.0f, 9.0f);
    check_topk(v, 1000000, 20000, true); /* 15,625 tiles of 64: on the host */
    free(v);
}
END_TEST

/* The host selection's blocks are the context's, kept from call to call (algo/host_scratch.c) up to
 * 1 MiB each, larger ones the call's own: one context's calls that grow and shrink them, read a
 * device array back into them or take host data, and one past the kept size (300,000 values, k =
 * 5,000: fewer tiles of 64 than k, so the host selects) between kept ones, each against the oracle. */
START_TEST(topk_host_work_across_calls)
{
    static const struct { size_t n, k; bool device; } calls[] = {
        {1000, 64, false}, {131072, 512, true}, {5000, 100, true}, {300000, 5000, true},
        {65536, 512, false}, {300000, 5000, false}, {131072, 16, true}, {777, 777, true}};
    float *v = random_floats(300000 + 64, 99, -1000.0f, 1000.0f); /* room for the offsets */
    for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
        size_t n = calls[c].n, k = calls[c].k;
        const float *data = v + c * 7; /* other values at each call */
        gpuc_array *in = NULL, *vals = NULL, *idx = NULL;
        gpuc_arg arg = gpuc_arg_host_f32(data, (gpuc_dims){(uint32_t)n});
        if (calls[c].device) {
            ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, data, (gpuc_dims){(uint32_t)n}, &in));
            arg = gpuc_arg_array(in);
        }
        ck_assert_gpuc_ok(gpuc_topk(gpu, arg, &(gpuc_topk_desc){.k = k, .smallest = c % 2 == 1}, &vals, &idx));
        check_results(vals, idx, data, n, k, c % 2 == 1);
        gpuc_array_free(vals);
        gpuc_array_free(idx);
        gpuc_array_free(in);
    }
    free(v);
}
END_TEST

START_TEST(topk_large_k)
{
    /* k in the tens of thousands: survivors spread over every group, ties cut at the cutoff, and a
     * long bitonic network (k = 70,000 pads to 131,072). */
    enum { N = 300000 };
    float *v = malloc(N * sizeof *v);
    uint32_t s = 31337;
    for (int i = 0; i < N; i++)
        v[i] = (float)(int)(test_random(&s) * 1000.0f) * 0.5f - 200.0f;
    check_topk(v, N, 32768, false); /* the largest k the pruned path takes: a bound is found by bisection */
    check_topk(v, N, 32769, true);  /* the smallest the counting path takes */
    check_topk(v, N, 70000, false);
    check_topk(v, N, 123457, true);
    free(v);
}
END_TEST

START_TEST(topk_pruning_adversaries)
{
    /* Inputs where the k-th largest tile maximum bounds too many keys (more than the pruned path
     * gathers): sorted runs, where the bound is raised by bisection over the tiles that reach it; and
     * one value repeated far more often than k, where the ties are taken in index order. */
    enum { N = 1 << 20 };
    float *v = malloc(N * sizeof *v);
    for (int i = 0; i < N; i++)
        v[i] = (float)i * 0.5f;
    check_topk(v, N, 512, false);
    check_topk(v, N, 5000, true);
    for (int i = 0; i < N; i++)
        v[i] = 1.0f;
    check_topk(v, N, 1000, false);
    uint32_t s = 77;
    for (int i = 0; i < 40; i++)
        v[(size_t)(test_random(&s) * N) % N] = 2.0f + (float)(i % 3); /* a few above the ties */
    for (int i = 0; i < 40; i++)
        v[(size_t)(test_random(&s) * N) % N] = -1.0f - (float)(i % 5); /* a few below */
    check_topk(v, N, 100, false);
    check_topk(v, N, 100, true);
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
    /* Ties at both ends, the later copies at lower and higher indices than the original. */
    int hi = 0, lo = 0;
    for (int i = 1; i < N; i++) {
        hi = v[i] > v[hi] ? i : hi;
        lo = v[i] < v[lo] ? i : lo;
    }
    v[7] = v[N - 9] = v[hi];
    v[11] = v[N - 3] = v[lo];
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
    gpuc *other;
    ck_assert_int_eq(gpuc_open(&other, NULL), GPUC_OK);
    gpuc_array *foreign;
    ck_assert_int_eq(gpuc_array_from_f32(other, v, (gpuc_dims){8}, &foreign), GPUC_OK);
    ck_assert_gpuc_fails(gpuc_topk(gpu, gpuc_arg_array(foreign), &(gpuc_topk_desc){.k = 1}, &vals, &idx),
                         GPUC_ERROR_INVALID_ARGUMENT, "another gpuc context");
    gpuc_close(other);
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
    tcase_add_test(tc, topk_unprunable_small_inputs);
    tcase_add_test(tc, topk_host_selection);
    tcase_add_test(tc, topk_host_work_across_calls);
    tcase_add_test(tc, topk_large_k);
    tcase_add_test(tc, topk_pruning_adversaries);
    tcase_add_test(tc, topk_2p22_k512);
    tcase_add_test(tc, topk_bad_input);
    topk_add_seed_tests(tc);
    suite_add_tcase(s, tc);
    return s;
}
