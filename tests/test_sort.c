/* test_sort.c - gpuc_sort, gpuc_argsort and gpuc_sort_pairs against qsort oracles, by both methods
 * (radix where the backend has it, and the bitonic network): float and int keys, ascending and
 * descending, lengths that are and are not powers of two (or whole radix chunks), adversarial data
 * (ties, sorted, reversed, negatives, +-0, infinities, NaN, denormals, values one ulp apart, arbitrary
 * bit patterns), host and device inputs, 2^22 keys, and every bad input. */
#include "fixture.h"
#include "suites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- oracles: the order gpuc documents, written independently of the GLSL key map ---- */

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float float_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* -1, 0, 1 for a before, equal, after b in ascending order: numbers by value with -0 < +0, NaN after
 * all numbers; `descending` reverses the numbers but keeps NaN last. */
static int float_order(float a, float b, bool descending)
{
    bool na = isnan(a), nb = isnan(b);
    if (na || nb)
        return na - nb;
    bool sa = signbit(a) != 0, sb = signbit(b) != 0;
    int c = a < b ? -1 : a > b ? 1 : sa == sb ? 0 : sa ? -1 : 1;
    return descending ? -c : c;
}

typedef struct keyed {
    float f;
    int32_t i;
    int32_t index;
} keyed;

static bool oracle_descending;

static int by_float_then_index(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    int c = float_order(a->f, b->f, oracle_descending);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

static int by_int_then_index(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    int c = (a->i > b->i) - (a->i < b->i);
    if (oracle_descending)
        c = -c;
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* The expected order of keys (float when f, else int): a sorted copy with original indices. */
static keyed *oracle(const float *f, const int32_t *iv, uint32_t n, bool descending)
{
    keyed *k = malloc(n * sizeof *k);
    for (uint32_t j = 0; j < n; j++)
        k[j] = (keyed){f ? f[j] : 0.0f, iv ? iv[j] : 0, (int32_t)j};
    oracle_descending = descending;
    qsort(k, n, sizeof *k, f ? by_float_then_index : by_int_then_index);
    return k;
}

/* The bits gpuc must return for a float: itself, or the quiet NaN for any NaN. */
static uint32_t expected_bits(float f)
{
    return isnan(f) ? 0x7fc00000u : bits_of(f);
}

/* ---- methods: every test runs each method the backend has ---- */

static const gpuc_sort_method all_methods[] = {GPUC_SORT_BITONIC, GPUC_SORT_RADIX};

/* How many of all_methods this context runs: the radix method is compute-only. */
static int method_count(void)
{
    return gpuc_get_info(gpu)->backend == GPUC_BACKEND_COMPUTE ? 2 : 1;
}

static const char *method_name(gpuc_sort_method m)
{
    return m == GPUC_SORT_RADIX ? "radix" : m == GPUC_SORT_BITONIC ? "bitonic" : "default";
}

/* ---- checks ---- */

static gpuc_arg float_arg(const float *v, uint32_t n, bool on_device, gpuc_array **owned)
{
    *owned = NULL;
    if (!on_device)
        return gpuc_arg_host_f32(v, (gpuc_dims){n});
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){n}, owned));
    return gpuc_arg_array(*owned);
}

/* gpuc_sort of float keys, bit for bit against the oracle. */
static void check_sort_f32(const float *v, uint32_t n, bool descending, bool on_device, gpuc_sort_method method)
{
    gpuc_array *in, *sorted = NULL;
    gpuc_arg arg = float_arg(v, n, on_device, &in);
    ck_assert_gpuc_ok(gpuc_sort(gpu, arg, &(gpuc_sort_desc){.descending = descending, .method = method}, &sorted));
    float *got = fixture_take_floats(sorted, n);
    keyed *want = oracle(v, NULL, n, descending);
    /* Find the first difference, then assert once: Check reports every passing assertion to its
     * parent process, which is slow over millions of elements. */
    uint32_t j = 0;
    while (j < n && bits_of(got[j]) == expected_bits(want[j].f))
        j++;
    ck_assert_msg(j == n, "%s n=%u %s: element %u is %a (0x%08x), want %a", method_name(method), n,
                  descending ? "descending" : "ascending", j, j < n ? (double)got[j] : 0.0, j < n ? bits_of(got[j]) : 0u, j < n ? (double)want[j].f : 0.0);
    free(got);
    free(want);
    gpuc_array_free(in);
}

/* gpuc_argsort of float keys: indices exactly (ties in index order) and the keys. */
static void check_argsort_f32(const float *v, uint32_t n, bool descending, gpuc_sort_method method)
{
    gpuc_array *keys = NULL, *idx = NULL;
    ck_assert_gpuc_ok(gpuc_argsort(gpu, gpuc_arg_host_f32(v, (gpuc_dims){n}),
                                   &(gpuc_sort_desc){.descending = descending, .method = method}, &keys, &idx));
    float *got_keys = fixture_take_floats(keys, n);
    int32_t *got_idx = fixture_take_ints(idx, n);
    keyed *want = oracle(v, NULL, n, descending);
    uint32_t j = 0;
    while (j < n && got_idx[j] == want[j].index && bits_of(got_keys[j]) == expected_bits(want[j].f))
        j++;
    ck_assert_msg(j == n, "%s n=%u: element %u is index %d key %a, want index %d key %a", method_name(method), n, j,
                  j < n ? got_idx[j] : 0,
                  j < n ? (double)got_keys[j] : 0.0, j < n ? want[j].index : 0, j < n ? (double)want[j].f : 0.0);
    free(got_keys);
    free(got_idx);
    free(want);
}

static void check_sort_i32(const int32_t *v, uint32_t n, bool descending, gpuc_sort_method method)
{
    gpuc_array *sorted = NULL;
    ck_assert_gpuc_ok(gpuc_sort(gpu, gpuc_arg_host_i32(v, (gpuc_dims){n}),
                                &(gpuc_sort_desc){.descending = descending, .method = method}, &sorted));
    int32_t *got = fixture_take_ints(sorted, n);
    keyed *want = oracle(NULL, v, n, descending);
    uint32_t j = 0;
    while (j < n && got[j] == want[j].i)
        j++;
    ck_assert_msg(j == n, "%s n=%u: element %u is %d, want %d", method_name(method), n, j, j < n ? got[j] : 0,
                  j < n ? want[j].i : 0);
    free(got);
    free(want);
}

/* ---- data ---- */

enum pattern { RANDOM, EQUAL, TIES, SORTED, REVERSED, SPECIAL, ULPS, BITS, DENORMALS, PATTERNS };

static void fill(float *v, uint32_t n, enum pattern p, uint32_t seed)
{
    static const float special[] = {0.0f, -0.0f, INFINITY, -INFINITY, 1.0f, -1.0f, 1e-45f, -1e-45f,
                                    3.4028235e38f, -3.4028235e38f, 1.17549435e-38f, -2.5f};
    for (uint32_t j = 0; j < n; j++) {
        float r = test_random(&seed);
        switch (p) {
        case RANDOM: v[j] = (r - 0.5f) * 2e6f; break;
        case EQUAL: v[j] = 42.5f; break;
        case TIES: v[j] = floorf(r * 4.0f) - 2.0f; break;
        case SORTED: v[j] = (float)j * 0.5f - 100.0f; break;
        case REVERSED: v[j] = 1000.0f - (float)j; break;
        case SPECIAL: v[j] = r < 0.1f ? NAN : r < 0.2f ? -NAN : special[(uint32_t)(r * 1000.0f) % 12]; break;
        case ULPS: v[j] = float_of(bits_of(1.0f) + (uint32_t)(r * 8.0f)) * (r < 0.5f ? -1.0f : 1.0f); break;
        case BITS: seed = seed * 1664525u + 1013904223u; v[j] = float_of(seed ^ (seed >> 13) * 2654435761u); break;
        case DENORMALS: /* denormals of both signs among zeros and the smallest normals */
            v[j] = float_of((uint32_t)(r * 0x00800001) | (r < 0.5f ? 0x80000000u : 0u));
            break;
        default: break;
        }
    }
}

/* Powers of two and not; 255 to 257 and 4097 end inside, at and past a radix chunk (256 elements). */
static const uint32_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 31, 33, 64, 100, 255, 256, 257, 1000, 1024, 4097};

START_TEST(sort_float_patterns_and_sizes)
{
    float *v = malloc(4097 * sizeof *v);
    for (int m = 0; m < method_count(); m++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int p = 0; p < PATTERNS; p++) {
                fill(v, sizes[s], (enum pattern)p, 7u + (uint32_t)(s * 31 + (size_t)p));
                check_sort_f32(v, sizes[s], false, p % 2 == 0, all_methods[m]);
                check_sort_f32(v, sizes[s], true, p % 2 == 1, all_methods[m]);
            }
    free(v);
}
END_TEST

START_TEST(sort_float_larger)
{
    const uint32_t n[] = {65536, 100003};
    float *v = malloc(100003 * sizeof *v);
    for (int m = 0; m < method_count(); m++)
        for (int s = 0; s < 2; s++) {
            fill(v, n[s], s ? BITS : RANDOM, 99u + (uint32_t)s);
            check_sort_f32(v, n[s], s == 1, s == 0, all_methods[m]);
            fill(v, n[s], TIES, 5u);
            check_argsort_f32(v, n[s], s == 0, all_methods[m]);
            fill(v, n[s], SPECIAL, 6u);
            check_argsort_f32(v, n[s], s == 1, all_methods[m]);
        }
    free(v);
}
END_TEST

START_TEST(sort_float_2_22_matches_qsort)
{
    const uint32_t n = 1u << 22;
    float *v = malloc(n * sizeof *v);
    fill(v, n, RANDOM, 2022);
    v[10] = INFINITY;
    v[20] = -INFINITY;
    v[30] = -0.0f;
    v[40] = NAN;
    v[50] = 1e-40f;
    check_sort_f32(v, n, false, true, GPUC_SORT_AUTO); /* radix on the compute backend, else the network */
    free(v);
}
END_TEST

START_TEST(sort_int)
{
    int32_t *v = malloc(5000 * sizeof *v);
    uint32_t seed = 11;
    const uint32_t n[] = {1, 2, 3, 6, 64, 77, 5000};
    for (int s = 0; s < 7; s++) {
        for (uint32_t j = 0; j < n[s]; j++) {
            seed = seed * 1664525u + 1013904223u;
            v[j] = (int32_t)seed;
        }
        v[0] = INT32_MAX; /* ties with the network's padding */
        if (n[s] > 2) {
            v[1] = INT32_MIN;
            v[2] = -1;
        }
        for (int m = 0; m < method_count(); m++) {
            check_sort_i32(v, n[s], false, all_methods[m]);
            check_sort_i32(v, n[s], true, all_methods[m]);
        }
        for (uint32_t j = 0; j < n[s]; j++)
            v[j] = (int32_t)(j % 3) - 1; /* many ties */
        for (int m = 0; m < method_count(); m++)
            check_sort_i32(v, n[s], s % 2 == 0, all_methods[m]);
    }
    free(v);
}
END_TEST

START_TEST(argsort_ties_follow_index)
{
    float v[1000];
    for (int m = 0; m < method_count(); m++)
        for (uint32_t s = 0; s < sizeof sizes / sizeof sizes[0] && sizes[s] <= 1000; s++) {
            fill(v, sizes[s], TIES, 3u + s);
            check_argsort_f32(v, sizes[s], false, all_methods[m]);
            check_argsort_f32(v, sizes[s], true, all_methods[m]);
            fill(v, sizes[s], SPECIAL, 9u + s);
            check_argsort_f32(v, sizes[s], s % 2 == 0, all_methods[m]);
            fill(v, sizes[s], DENORMALS, 2u + s);
            check_argsort_f32(v, sizes[s], s % 2 == 1, all_methods[m]);
        }
    /* int keys tied with the padding key (INT32_MAX ascending, INT32_MIN descending) */
    int32_t iv[] = {INT32_MAX, 5, INT32_MIN, INT32_MAX, INT32_MIN};
    for (int d = 0; d < 2 * method_count(); d++) {
        gpuc_array *idx = NULL;
        ck_assert_gpuc_ok(gpuc_argsort(gpu, gpuc_arg_host_i32(iv, (gpuc_dims){5}),
                                       &(gpuc_sort_desc){.descending = d % 2, .method = all_methods[d / 2]}, NULL,
                                       &idx));
        int32_t *got = fixture_take_ints(idx, 5);
        keyed *want = oracle(NULL, iv, 5, d % 2);
        for (int j = 0; j < 5; j++)
            ck_assert_int_eq(got[j], want[j].index);
        free(got);
        free(want);
    }
}
END_TEST

START_TEST(sort_pairs_carries_payload)
{
    enum { N = 777 };
    float keys[N], fpay[N];
    int32_t ipay[N];
    fill(keys, N, TIES, 4);
    for (int j = 0; j < N; j++) {
        fpay[j] = (float)j * 0.25f - 3.0f;
        ipay[j] = 7 * j + 1;
    }
    gpuc_array *dev_pay;
    ck_assert_gpuc_ok(gpuc_array_from_i32(gpu, ipay, (gpuc_dims){N}, &dev_pay));
    for (int c = 0; c < 2 * method_count(); c++) {
        gpuc_sort_desc desc = {.descending = c % 2, .method = all_methods[c / 2]};
        keyed *want = oracle(keys, NULL, N, desc.descending);
        gpuc_array *sk = NULL, *sv = NULL;
        ck_assert_gpuc_ok(gpuc_sort_pairs(gpu, gpuc_arg_host_f32(keys, (gpuc_dims){N}),
                                          gpuc_arg_host_f32(fpay, (gpuc_dims){N}), &desc, &sk, &sv));
        float *got_keys = fixture_take_floats(sk, N), *got_pay = fixture_take_floats(sv, N);
        for (int j = 0; j < N; j++) {
            ck_assert_float_eq(got_keys[j], want[j].f);
            ck_assert_float_eq(got_pay[j], fpay[want[j].index]);
        }
        free(got_keys);
        free(got_pay);
        ck_assert_gpuc_ok(gpuc_sort_pairs(gpu, gpuc_arg_host_f32(keys, (gpuc_dims){N}), gpuc_arg_array(dev_pay), &desc,
                                          NULL, &sv));
        int32_t *got_ipay = fixture_take_ints(sv, N);
        for (int j = 0; j < N; j++)
            ck_assert_int_eq(got_ipay[j], ipay[want[j].index]);
        free(got_ipay);
        free(want);
    }
    gpuc_array_free(dev_pay);
}
END_TEST

START_TEST(sorted_result_feeds_the_next_step)
{
    /* The result stays on the device: sort it again (descending) and the keys reverse exactly. */
    float v[300];
    fill(v, 300, RANDOM, 77);
    for (int m = 0; m < method_count(); m++) {
        gpuc_array *up = NULL, *down = NULL;
        ck_assert_gpuc_ok(gpuc_sort(gpu, gpuc_arg_host_f32(v, (gpuc_dims){300}),
                                    &(gpuc_sort_desc){.method = all_methods[m]}, &up));
        ck_assert_gpuc_ok(gpuc_sort(gpu, gpuc_arg_array(up),
                                    &(gpuc_sort_desc){.descending = true, .method = all_methods[m]}, &down));
        float *a = fixture_take_floats(up, 300), *b = fixture_take_floats(down, 300);
        for (int j = 0; j < 300; j++)
            ck_assert_float_eq(a[j], b[299 - j]);
        free(a);
        free(b);
    }
}
END_TEST

/* What a repeated sort of a device array costs in dispatches; it must read back, upload and
 * compile nothing. */
static uint64_t repeat_dispatches(gpuc_array *in, gpuc_sort_method method)
{
    gpuc_array *sorted;
    gpuc_sort_desc desc = {.method = method};
    ck_assert_gpuc_ok(gpuc_sort(gpu, gpuc_arg_array(in), &desc, &sorted));
    gpuc_array_free(sorted);
    gpuc_stats before, after;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
    ck_assert_gpuc_ok(gpuc_sort(gpu, gpuc_arg_array(in), &desc, &sorted));
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
    ck_assert_uint_eq(after.readbacks, before.readbacks);
    ck_assert_uint_eq(after.uploads, before.uploads);
    ck_assert_uint_eq(after.programs_compiled, before.programs_compiled);
    gpuc_array_free(sorted);
    return after.dispatches - before.dispatches;
}

START_TEST(passes_stay_on_the_device)
{
    /* A device input: neither method reads anything back or uploads anything, a repeated call
     * compiles nothing; the network's fused passes number fewer than the seed's one pass per
     * stride, and the radix sort's 8 passes 6 kernels each besides the scan's. */
    enum { N = 100000, LOG2_PADDED = 17 };
    float *v = malloc(N * sizeof *v);
    fill(v, N, RANDOM, 31);
    gpuc_array *in;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){N}, &in));
    uint64_t seed_passes = LOG2_PADDED * (LOG2_PADDED + 1) / 2;
    ck_assert_uint_lt(repeat_dispatches(in, GPUC_SORT_BITONIC), seed_passes / 2);
    if (method_count() > 1) {
        uint64_t scan_passes = 2 * 5 + 2; /* 6,256 run totals: 2 log16(n) + 2 (src/algo/scan.h) */
        ck_assert_uint_le(repeat_dispatches(in, GPUC_SORT_RADIX), 2 + 8 * (6 + scan_passes));
    }
    for (int m = 0; m < method_count(); m++)
        check_sort_f32(v, N, false, true, all_methods[m]); /* and the result is right */
    gpuc_array_free(in);
    free(v);
}
END_TEST

START_TEST(default_method_by_size)
{
    /* GPUC_SORT_AUTO: the network up to GPUC_SORT_RADIX_ABOVE_KEYS keys, radix above it on the compute
     * backend (the same dispatches as asking for the method), the network on the fragment backend. */
    const uint32_t around[] = {GPUC_SORT_RADIX_ABOVE_KEYS, GPUC_SORT_RADIX_ABOVE_KEYS + 1};
    for (int i = 0; i < 2; i++) {
        float *v = malloc(around[i] * sizeof *v);
        fill(v, around[i], RANDOM, 41 + (uint32_t)i);
        gpuc_array *in;
        ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){around[i]}, &in));
        gpuc_sort_method expected = i == 1 && method_count() > 1 ? GPUC_SORT_RADIX : GPUC_SORT_BITONIC;
        gpuc_sort_method other = expected == GPUC_SORT_RADIX ? GPUC_SORT_BITONIC : GPUC_SORT_RADIX;
        uint64_t by_default = repeat_dispatches(in, GPUC_SORT_AUTO);
        ck_assert_uint_eq(by_default, repeat_dispatches(in, expected));
        if (method_count() > 1)
            ck_assert_uint_ne(by_default, repeat_dispatches(in, other));
        check_sort_f32(v, around[i], false, true, GPUC_SORT_AUTO);
        gpuc_array_free(in);
        free(v);
    }
}
END_TEST

START_TEST(bad_input)
{
    float v[8] = {0};
    gpuc_array *out = (gpuc_array *)&v, *out2 = (gpuc_array *)&v; /* sentinels: must stay untouched */
    gpuc_arg good = gpuc_arg_host_f32(v, (gpuc_dims){8});
    ck_assert_int_eq(gpuc_sort(NULL, good, NULL, &out), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_gpuc_fails(gpuc_sort(gpu, good, NULL, NULL), GPUC_ERROR_INVALID_ARGUMENT, "sorted is NULL");
    ck_assert_gpuc_fails(gpuc_sort(gpu, gpuc_arg_host_f32(NULL, (gpuc_dims){8}), NULL, &out),
                         GPUC_ERROR_INVALID_ARGUMENT, "host data is NULL");
    ck_assert_gpuc_fails(gpuc_sort(gpu, gpuc_arg_host_f32(v, (gpuc_dims){0}), NULL, &out), GPUC_ERROR_INVALID_ARGUMENT,
                         "n = 0");
    ck_assert_gpuc_fails(gpuc_sort(gpu, gpuc_arg_host_f32(v, (gpuc_dims){4, 2}), NULL, &out),
                         GPUC_ERROR_TYPE_MISMATCH, "1D");
    ck_assert_gpuc_fails(gpuc_sort(gpu, gpuc_arg_f32(1.0f), NULL, &out), GPUC_ERROR_TYPE_MISMATCH, "must be an array");
    ck_assert_gpuc_fails(gpuc_sort(gpu, gpuc_arg_array(NULL), NULL, &out), GPUC_ERROR_INVALID_ARGUMENT, "NULL array");
    ck_assert_gpuc_fails(gpuc_sort(gpu, (gpuc_arg){0}, NULL, &out), GPUC_ERROR_TYPE_MISMATCH, "must be an array");
    gpuc_array *vec;
    ck_assert_gpuc_ok(gpuc_array_new(gpu, GPUC_VEC4, (gpuc_dims){2}, &vec));
    ck_assert_gpuc_fails(gpuc_sort(gpu, gpuc_arg_array(vec), NULL, &out), GPUC_ERROR_TYPE_MISMATCH, "vec4");
    gpuc_array_free(vec);
    /* Sizes past gpuc's limit and past the device's: refused before any data is read. */
    ck_assert_gpuc_fails(gpuc_sort(gpu, gpuc_arg_host_f32(v, (gpuc_dims){(1u << 30) + 1}), NULL, &out),
                         GPUC_ERROR_LIMIT, "2^30");
    int64_t max = gpuc_get_info(gpu)->max_texture_buffer_size;
    if (max > 0 && max * 4 + 4 <= (1 << 30))
        ck_assert_gpuc_fails(gpuc_sort(gpu, gpuc_arg_host_f32(v, (gpuc_dims){(uint32_t)(max * 4 + 4)}), NULL, &out),
                             GPUC_ERROR_LIMIT, "GL_MAX_TEXTURE_BUFFER_SIZE");
    if (max > 0 && max * 2 + 2 <= (1 << 30)) /* pairs need twice the cells of bare keys */
        ck_assert_gpuc_fails(gpuc_argsort(gpu, gpuc_arg_host_f32(v, (gpuc_dims){(uint32_t)(max * 2 + 2)}), NULL, NULL,
                                          &out), GPUC_ERROR_LIMIT, "GL_MAX_TEXTURE_BUFFER_SIZE");
    ck_assert_gpuc_fails(gpuc_argsort(gpu, good, NULL, &out, NULL), GPUC_ERROR_INVALID_ARGUMENT, "indices is NULL");
    ck_assert_gpuc_fails(gpuc_sort_pairs(gpu, good, good, NULL, &out, NULL), GPUC_ERROR_INVALID_ARGUMENT,
                         "sorted_values is NULL");
    ck_assert_gpuc_fails(gpuc_sort_pairs(gpu, good, gpuc_arg_host_f32(v, (gpuc_dims){7}), NULL, &out, &out2),
                         GPUC_ERROR_INVALID_ARGUMENT, "values has 7");
    ck_assert_gpuc_fails(gpuc_sort_pairs(gpu, good, gpuc_arg_i32(3), NULL, &out, &out2), GPUC_ERROR_TYPE_MISMATCH,
                         "values must be an array");
    ck_assert_gpuc_fails(gpuc_sort(gpu, good, &(gpuc_sort_desc){.method = (gpuc_sort_method)7}, &out),
                         GPUC_ERROR_INVALID_ARGUMENT, "method 7 is not a gpuc_sort_method");
    if (method_count() == 1)
        ck_assert_gpuc_fails(gpuc_argsort(gpu, good, &(gpuc_sort_desc){.method = GPUC_SORT_RADIX}, NULL, &out),
                             GPUC_ERROR_INVALID_ARGUMENT, "compute-only");
    /* The radix method scatters a pass's output into one storage binding: pairs past it are refused
     * (before any data is read), where the default still sorts them by the network. */
    int64_t binding = gpuc_get_info(gpu)->max_storage_block_size;
    if (method_count() > 1 && binding > 0 && binding / 8 + 1 <= (1 << 30) && binding / 8 + 1 <= max * 2)
        ck_assert_gpuc_fails(gpuc_argsort(gpu, gpuc_arg_host_f32(v, (gpuc_dims){(uint32_t)(binding / 8 + 1)}),
                                          &(gpuc_sort_desc){.method = GPUC_SORT_RADIX}, NULL, &out),
                             GPUC_ERROR_LIMIT, "max_storage_block_size");
    ck_assert_ptr_eq(out, (gpuc_array *)&v);
    ck_assert_ptr_eq(out2, (gpuc_array *)&v);
    /* An array of another context. */
    gpuc *other;
    ck_assert_int_eq(gpuc_open(&other, NULL), GPUC_OK);
    gpuc_array *foreign;
    ck_assert_int_eq(gpuc_array_from_f32(other, v, (gpuc_dims){8}, &foreign), GPUC_OK);
    ck_assert_gpuc_fails(gpuc_sort(gpu, gpuc_arg_array(foreign), NULL, &out), GPUC_ERROR_INVALID_ARGUMENT,
                         "another gpuc context");
    gpuc_close(other);
    /* The context still works. */
    check_sort_f32(v, 8, false, false, GPUC_SORT_AUTO);
}
END_TEST

Suite *suite_sort(void)
{
    Suite *s = suite_create("sort");
    TCase *tc = fixture_tcase("sort");
    tcase_add_test(tc, sort_float_patterns_and_sizes);
    tcase_add_test(tc, sort_float_larger);
    tcase_add_test(tc, sort_float_2_22_matches_qsort);
    tcase_add_test(tc, sort_int);
    tcase_add_test(tc, argsort_ties_follow_index);
    tcase_add_test(tc, sort_pairs_carries_payload);
    tcase_add_test(tc, sorted_result_feeds_the_next_step);
    tcase_add_test(tc, passes_stay_on_the_device);
    tcase_add_test(tc, default_method_by_size);
    tcase_add_test(tc, bad_input);
    suite_add_tcase(s, tc);
    return s;
}
