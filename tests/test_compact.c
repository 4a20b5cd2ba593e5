/* test_compact.c - gpuc_scan and gpuc_compact against plain C loops: int and float values, exclusive
 * and inclusive sums, lengths around the scan's block and level boundaries, every comparison, user
 * predicates, nothing or everything kept, 2^22 elements, host and device inputs, and bad input; small
 * threshold compactions of values the host holds on the host's path, bit for bit the device's. */
#include "fixture.h"
#include "suites.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint32_t next_random(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s ^ (*s >> 15);
}

/* ---- scan ---- */

/* Lengths around the block (4, then 16) and level (4 * 16^k) boundaries. */
static const uint32_t scan_sizes[] = {1, 2, 3, 4, 5, 15, 16, 17, 31, 63, 64, 65, 255, 256, 257, 1023, 1025, 4095,
                                      4097, 65537, 1048579};

static void check_scan_i32(const int32_t *v, uint32_t n, bool inclusive, bool on_device)
{
    gpuc_array *in = NULL, *prefix = NULL;
    gpuc_arg arg = gpuc_arg_host_i32(v, (gpuc_dims){n});
    if (on_device) {
        ck_assert_gpuc_ok(gpuc_array_from_i32(gpu, v, (gpuc_dims){n}, &in));
        arg = gpuc_arg_array(in);
    }
    ck_assert_gpuc_ok(gpuc_scan(gpu, arg, &(gpuc_scan_desc){.inclusive = inclusive}, &prefix));
    int32_t *got = fixture_take_ints(prefix, n);
    uint32_t sum = 0, j = 0; /* the oracle wraps modulo 2^32, as documented */
    for (; j < n; j++) {
        uint32_t want = inclusive ? sum + (uint32_t)v[j] : sum;
        if ((uint32_t)got[j] != want)
            break;
        sum += (uint32_t)v[j];
    }
    ck_assert_msg(j == n, "n=%u %s: element %u is %d", n, inclusive ? "inclusive" : "exclusive", j,
                  j < n ? got[j] : 0);
    free(got);
    gpuc_array_free(in);
}

START_TEST(scan_int_sizes)
{
    int32_t *v = malloc(1048579 * sizeof *v);
    uint32_t seed = 5;
    for (size_t s = 0; s < sizeof scan_sizes / sizeof scan_sizes[0]; s++) {
        uint32_t n = scan_sizes[s];
        for (uint32_t j = 0; j < n; j++)
            v[j] = (int32_t)(next_random(&seed) % 2001) - 1000;
        check_scan_i32(v, n, s % 2 == 0, s % 3 == 0);
        check_scan_i32(v, n, s % 2 == 1, s % 3 == 1);
    }
    free(v);
}
END_TEST

START_TEST(scan_int_wraps_and_extremes)
{
    enum { N = 5000 };
    int32_t v[N];
    uint32_t seed = 8;
    for (int j = 0; j < N; j++)
        v[j] = (int32_t)next_random(&seed); /* sums overflow many times */
    v[0] = INT32_MAX;
    v[1] = INT32_MIN;
    check_scan_i32(v, N, false, false);
    check_scan_i32(v, N, true, true);
    for (int j = 0; j < N; j++)
        v[j] = 0;
    check_scan_i32(v, N, false, false);
}
END_TEST

START_TEST(scan_float)
{
    enum { N = 65537 };
    float *v = malloc(N * sizeof *v);
    uint32_t seed = 3;
    /* Small whole numbers: every partial sum is exact in float32, so the result must be too. */
    for (int j = 0; j < N; j++)
        v[j] = (float)((int)(next_random(&seed) % 101) - 50);
    for (int inclusive = 0; inclusive < 2; inclusive++) {
        gpuc_array *prefix;
        ck_assert_gpuc_ok(gpuc_scan(gpu, gpuc_arg_host_f32(v, (gpuc_dims){N}),
                                    &(gpuc_scan_desc){.inclusive = inclusive}, &prefix));
        float *got = fixture_take_floats(prefix, N);
        float sum = 0.0f;
        int j = 0;
        for (; j < N; j++) {
            if (got[j] != (inclusive ? sum + v[j] : sum))
                break;
            sum += v[j];
        }
        ck_assert_msg(j == N, "element %d is %g", j, j < N ? (double)got[j] : 0.0);
        free(got);
    }
    /* Arbitrary floats: blockwise sums round differently from a sequential sum, but stay close. */
    for (int j = 0; j < N; j++)
        v[j] = test_random(&seed) * 3.0f;
    gpuc_array *prefix;
    ck_assert_gpuc_ok(gpuc_scan(gpu, gpuc_arg_host_f32(v, (gpuc_dims){N}), NULL, &prefix));
    float *got = fixture_take_floats(prefix, N);
    double exact = 0.0;
    int j = 0;
    for (; j < N; j++) {
        if (fabs(got[j] - exact) > 1e-5 * exact + 1e-6)
            break;
        exact += v[j];
    }
    ck_assert_msg(j == N, "element %d is %.9g, exact %.9g", j, j < N ? (double)got[j] : 0.0, exact);
    free(got);
    free(v);
}
END_TEST

START_TEST(scan_bad_input)
{
    int32_t v[4] = {1, 2, 3, 4};
    gpuc_array *out = (gpuc_array *)v;
    ck_assert_int_eq(gpuc_scan(NULL, gpuc_arg_host_i32(v, (gpuc_dims){4}), NULL, &out), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_gpuc_fails(gpuc_scan(gpu, gpuc_arg_host_i32(v, (gpuc_dims){4}), NULL, NULL), GPUC_ERROR_INVALID_ARGUMENT,
                         "prefix is NULL");
    ck_assert_gpuc_fails(gpuc_scan(gpu, gpuc_arg_host_i32(NULL, (gpuc_dims){4}), NULL, &out),
                         GPUC_ERROR_INVALID_ARGUMENT, "host data is NULL");
    ck_assert_gpuc_fails(gpuc_scan(gpu, gpuc_arg_host_i32(v, (gpuc_dims){0}), NULL, &out), GPUC_ERROR_INVALID_ARGUMENT,
                         "n = 0");
    ck_assert_gpuc_fails(gpuc_scan(gpu, gpuc_arg_host_i32(v, (gpuc_dims){2, 2}), NULL, &out),
                         GPUC_ERROR_TYPE_MISMATCH, "1D");
    ck_assert_gpuc_fails(gpuc_scan(gpu, gpuc_arg_i32(4), NULL, &out), GPUC_ERROR_TYPE_MISMATCH, "must be an array");
    ck_assert_gpuc_fails(gpuc_scan(gpu, gpuc_arg_host_i32(v, (gpuc_dims){(1u << 30) + 1}), NULL, &out),
                         GPUC_ERROR_LIMIT, "2^30");
    int64_t max = gpuc_get_info(gpu)->max_texture_buffer_size;
    if (max > 0 && max * 4 + 4 <= (1 << 30))
        ck_assert_gpuc_fails(gpuc_scan(gpu, gpuc_arg_host_i32(v, (gpuc_dims){(uint32_t)(max * 4 + 4)}), NULL, &out),
                             GPUC_ERROR_LIMIT, "GL_MAX_TEXTURE_BUFFER_SIZE");
    ck_assert_ptr_eq(out, (gpuc_array *)v);
}
END_TEST

/* ---- compaction ---- */

static bool passes(double v, gpuc_compare op, double t)
{
    switch (op) {
    case GPUC_GREATER: return v > t;
    case GPUC_GREATER_EQUAL: return v >= t;
    case GPUC_LESS: return v < t;
    case GPUC_LESS_EQUAL: return v <= t;
    case GPUC_EQUAL: return v == t;
    case GPUC_NOT_EQUAL: return v != t;
    default: return false;
    }
}

/* The method a test asks for, on this context: the scatter method is compute-only, so on the fragment
 * backend the same checks run through the gather (the refusal itself is tested in test_fragment.c). */
static gpuc_compact_method method_here(gpuc_compact_method m)
{
    return gpuc_get_info(gpu)->backend == GPUC_BACKEND_FRAGMENT ? GPUC_COMPACT_GATHER : m;
}

/* Compacts float values with `op threshold` by `method` (full_length: survivors then zeros) and
 * checks count, order and bits against a C loop. */
static void check_compact_with(const float *v, uint32_t n, gpuc_compare op, float t, bool on_device,
                               gpuc_compact_method method, bool full_length)
{
    gpuc_array *in = NULL, *packed = NULL;
    gpuc_arg arg = gpuc_arg_host_f32(v, (gpuc_dims){n});
    if (on_device) {
        ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){n}, &in));
        arg = gpuc_arg_array(in);
    }
    size_t count = 12345;
    gpuc_compact_desc desc = {.op = op, .threshold = t, .method = method_here(method), .full_length = full_length};
    ck_assert_gpuc_ok(gpuc_compact(gpu, arg, &desc, &packed, &count));
    float *want = calloc(n, sizeof *want);
    size_t m = 0;
    for (uint32_t j = 0; j < n; j++)
        if (passes(v[j], op, t))
            want[m++] = v[j];
    ck_assert_msg(count == m, "n=%u op %d t=%g: count %zu, want %zu", n, (int)op, (double)t, count, m);
    size_t cells = full_length ? n : m;
    if (cells == 0) {
        ck_assert_ptr_null(packed);
    } else {
        float *got = fixture_take_floats(packed, cells);
        ck_assert_msg(memcmp(got, want, cells * sizeof *got) == 0, "n=%u op %d method %d: survivors differ", n,
                      (int)op, (int)method);
        free(got);
    }
    free(want);
    gpuc_array_free(in);
}

static void check_compact_f32(const float *v, uint32_t n, gpuc_compare op, float t, bool on_device)
{
    check_compact_with(v, n, op, t, on_device, GPUC_COMPACT_GATHER, false);
}

static const uint32_t compact_sizes[] = {1, 2, 3, 4, 16, 17, 100, 1024, 4099, 65536};

START_TEST(compact_every_op_float)
{
    float *v = malloc(65536 * sizeof *v);
    uint32_t seed = 21;
    for (size_t s = 0; s < sizeof compact_sizes / sizeof compact_sizes[0]; s++) {
        uint32_t n = compact_sizes[s];
        for (uint32_t j = 0; j < n; j++) {
            uint32_t r = next_random(&seed) % 100;
            v[j] = r < 3 ? INFINITY : r < 6 ? -INFINITY : r < 8 ? -0.0f : (float)(r % 10) - 4.5f + (r % 2 ? 0.5f : 0.0f);
        }
        for (gpuc_compare op = GPUC_GREATER; op <= GPUC_NOT_EQUAL; op++) {
            check_compact_f32(v, n, op, 0.0f, s % 2 == 0); /* ties at exactly the threshold, -0 == 0 */
            check_compact_f32(v, n, op, 1.5f, s % 2 == 1);
            check_compact_f32(v, n, op, INFINITY, false);
        }
    }
    free(v);
}
END_TEST

START_TEST(compact_nan_and_last_bit)
{
    float v[9] = {NAN, 1.0f, nextafterf(1.0f, 2.0f), nextafterf(1.0f, 0.0f), -NAN, 1.0f, 0.0f, -0.0f, NAN};
    for (gpuc_compare op = GPUC_GREATER; op <= GPUC_NOT_EQUAL; op++) {
        check_compact_f32(v, 9, op, 1.0f, false);
        check_compact_f32(v, 9, op, 0.0f, true);
    }
}
END_TEST

/* Denormals, signed zeros and NaN as values and thresholds, every operator: both backends keep what C
 * keeps (fragment shaders compare denormals as zero; the driver compares order keys instead). */
START_TEST(compact_denormals_signed_zeros_and_nan_as_c_compares)
{
    const float tiny = nextafterf(0.0f, 1.0f), big_denormal = nextafterf(FLT_MIN, 0.0f);
    float v[] = {1e-40f, 0.0f, -1e-40f, -0.0f, tiny,     -tiny,     FLT_MIN,   -FLT_MIN, big_denormal,
                 -big_denormal, NAN, -NAN, INFINITY, -INFINITY, 1.0f, -1.0f, 1e-40f, 0.0f};
    const uint32_t n = sizeof v / sizeof v[0];
    const float thresholds[] = {0.0f, -0.0f, 1e-40f, -1e-40f, tiny, -tiny, FLT_MIN, big_denormal, NAN, INFINITY};
    size_t count = 0;
    gpuc_array *packed = NULL;
    for (gpuc_compare op = GPUC_GREATER; op <= GPUC_NOT_EQUAL; op++) {
        for (size_t t = 0; t < sizeof thresholds / sizeof thresholds[0]; t++) {
            check_compact_with(v, n, op, thresholds[t], t % 2 == 0, GPUC_COMPACT_GATHER, false);
            check_compact_with(v, n, op, thresholds[t], t % 2 == 1, GPUC_COMPACT_SCATTER, t % 3 == 0);
        }
    }
    /* A predicate's result is nonzero as C tests it: its identity keeps NaN and denormals (moved
     * unchanged, they keep their bits on fragment too) and drops both zeros. */
    float results[] = {-0.0f, NAN, 1e-40f, 0.0f, 2.0f, -tiny};
    ck_assert_gpuc_ok(gpuc_compact(gpu, gpuc_arg_host_f32(results, (gpuc_dims){6}),
                                   &(gpuc_compact_desc){.predicate = "float same(float v[]) { return v[thread.x]; }"},
                                   &packed, &count));
    ck_assert_uint_eq(count, 4);
    float *kept = fixture_take_floats(packed, 4);
    ck_assert(isnan(kept[0]) && kept[1] == 1e-40f && kept[2] == 2.0f && kept[3] == -tiny);
    free(kept);

    /* The case that differed: {1e-40, 0, -1e-40} > 0 keeps 1e-40 on both backends. */
    ck_assert_gpuc_ok(gpuc_compact(gpu, gpuc_arg_host_f32(v, (gpuc_dims){3}),
                                   &(gpuc_compact_desc){.op = GPUC_GREATER, .threshold = 0.0}, &packed, &count));
    ck_assert_uint_eq(count, 1);
    kept = fixture_take_floats(packed, 1);
    ck_assert_float_eq(kept[0], 1e-40f);
    free(kept);
}
END_TEST

START_TEST(compact_int_and_edges)
{
    enum { N = 3001 };
    int32_t v[N];
    uint32_t seed = 4;
    for (int j = 0; j < N; j++)
        v[j] = (int32_t)(next_random(&seed) % 21) - 10;
    v[0] = INT32_MIN;
    v[1] = INT32_MAX;
    const double thresholds[] = {0, -10, 10, 2147483647.0, -2147483648.0};
    for (gpuc_compare op = GPUC_GREATER; op <= GPUC_NOT_EQUAL; op++)
        for (int t = 0; t < 5; t++) {
            gpuc_array *packed = NULL;
            size_t count;
            gpuc_compact_method method = method_here((gpuc_compact_method)((op + t) % 2));
            ck_assert_gpuc_ok(gpuc_compact(gpu, gpuc_arg_host_i32(v, (gpuc_dims){N}),
                                           &(gpuc_compact_desc){.op = op, .threshold = thresholds[t], .method = method},
                                           &packed, &count));
            int32_t want[N];
            size_t m = 0;
            for (int j = 0; j < N; j++)
                if (passes(v[j], op, thresholds[t]))
                    want[m++] = v[j];
            ck_assert_uint_eq(count, m);
            if (m) {
                int32_t *got = fixture_take_ints(packed, m);
                ck_assert_msg(memcmp(got, want, m * sizeof *got) == 0, "op %d t %g differs", (int)op, thresholds[t]);
                free(got);
            } else {
                ck_assert_ptr_null(packed);
            }
        }
    /* everything and nothing */
    float all[5] = {1, 2, 3, 4, 5};
    check_compact_f32(all, 5, GPUC_GREATER, 0.0f, false);
    check_compact_f32(all, 5, GPUC_GREATER, 5.0f, false);
}
END_TEST

START_TEST(compact_user_predicate)
{
    enum { N = 1000 };
    int32_t v[N];
    for (int j = 0; j < N; j++)
        v[j] = j * 7 - 3000;
    /* a helper before the kernel, and results other than 0/1: nonzero keeps */
    const char *src = "bool wanted(int x) { return (x & 3) == 1 || x > 2500; }\n"
                      "int keep(int values[]) { return wanted(values[thread.x]) ? -5 : 0; }\n";
    gpuc_array *packed = NULL;
    size_t count;
    ck_assert_gpuc_ok(gpuc_compact(gpu, gpuc_arg_host_i32(v, (gpuc_dims){N}), &(gpuc_compact_desc){.predicate = src},
                                   &packed, &count));
    int32_t want[N];
    size_t m = 0;
    for (int j = 0; j < N; j++)
        if ((v[j] & 3) == 1 || v[j] > 2500)
            want[m++] = v[j];
    ck_assert_uint_eq(count, m);
    int32_t *got = fixture_take_ints(packed, m);
    ck_assert_int_eq(memcmp(got, want, m * sizeof *got), 0);
    free(got);

    /* a float predicate over float values */
    float f[N];
    for (int j = 0; j < N; j++)
        f[j] = sinf((float)j);
    ck_assert_gpuc_ok(gpuc_compact(gpu, gpuc_arg_host_f32(f, (gpuc_dims){N}),
                                   &(gpuc_compact_desc){.predicate = "float pos(float a[]) { return a[thread.x] > 0.5 "
                                                                     "? 2.0 : 0.0; }",
                                                        .method = method_here(GPUC_COMPACT_SCATTER)},
                                   &packed, &count));
    float fwant[N];
    m = 0;
    for (int j = 0; j < N; j++)
        if (f[j] > 0.5f)
            fwant[m++] = f[j];
    ck_assert_uint_eq(count, m);
    float *fgot = fixture_take_floats(packed, m);
    ck_assert_int_eq(memcmp(fgot, fwant, m * sizeof *fgot), 0);
    free(fgot);
}
END_TEST

START_TEST(compact_scatter_and_full_length)
{
    float *v = malloc(65536 * sizeof *v);
    uint32_t seed = 12;
    const uint32_t sizes[] = {1, 3, 17, 1000, 65536};
    for (int s = 0; s < 5; s++) {
        for (uint32_t j = 0; j < sizes[s]; j++)
            v[j] = (float)(next_random(&seed) % 7) - 3.0f;
        for (gpuc_compare op = GPUC_GREATER; op <= GPUC_NOT_EQUAL; op++) {
            check_compact_with(v, sizes[s], op, 1.0f, s % 2 == 0, GPUC_COMPACT_SCATTER, false);
            check_compact_with(v, sizes[s], op, 1.0f, s % 2 == 1, GPUC_COMPACT_SCATTER, true);
            check_compact_with(v, sizes[s], op, 1.0f, false, GPUC_COMPACT_GATHER, true);
        }
        check_compact_with(v, sizes[s], GPUC_GREATER, 5.0f, false, GPUC_COMPACT_SCATTER, true); /* none: zeros */
        check_compact_with(v, sizes[s], GPUC_GREATER, 5.0f, true, GPUC_COMPACT_GATHER, true);
        check_compact_with(v, sizes[s], GPUC_GREATER, 5.0f, false, GPUC_COMPACT_SCATTER, false);
    }
    free(v);
}
END_TEST

START_TEST(compact_sparse_survivors)
{
    /* Survivors far apart (a gather group of 16 survivors spans thousands of blocks), in clumps, and
     * at both ends. */
    enum { N = 200003 };
    float *v = malloc(N * sizeof *v);
    uint32_t seed = 44;
    for (int j = 0; j < N; j++)
        v[j] = next_random(&seed) % 997 == 0 ? 2.0f : 0.0f;
    for (int j = 100000; j < 100040; j++)
        v[j] = 2.0f;
    v[0] = v[N - 1] = 2.0f;
    for (int m = 0; m < 2; m++) {
        check_compact_with(v, N, GPUC_GREATER, 1.0f, m == 0, (gpuc_compact_method)m, false);
        check_compact_with(v, N, GPUC_GREATER, 1.0f, m == 1, (gpuc_compact_method)m, true);
    }
    free(v);
}
END_TEST

START_TEST(compact_block_edges)
{
    /* Lengths around the 32-element blocks of the masks and the gather's 64-cell groups; runs of
     * kept and dropped elements long enough to fill or empty whole blocks (a full block's mask has
     * bit 31 set: a negative int), and single survivors far apart. */
    static const uint32_t sizes[] = {31, 32, 33, 63, 64, 65, 127, 128, 129, 4097};
    float *v = malloc(4097 * sizeof *v);
    uint32_t seed = 77;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        uint32_t n = sizes[s];
        for (int pattern = 0; pattern < 3; pattern++) {
            for (uint32_t j = 0; j < n; j++) {
                uint32_t r = next_random(&seed);
                v[j] = pattern == 0   ? (float)(r % 2)                       /* random, half kept */
                       : pattern == 1 ? (float)((j / 40) % 2)                /* runs of 40 */
                                      : (j % 37 == 5 ? 1.0f : 0.0f);         /* sparse */
            }
            for (int m = 0; m < 2; m++) {
                check_compact_with(v, n, GPUC_GREATER, 0.5f, (s + m) % 2 == 0, (gpuc_compact_method)m, false);
                check_compact_with(v, n, GPUC_GREATER, 0.5f, (s + m) % 2 == 1, (gpuc_compact_method)m, true);
                check_compact_with(v, n, GPUC_LESS, 2.0f, false, (gpuc_compact_method)m, pattern == 1); /* all */
            }
        }
    }
    free(v);
}
END_TEST

START_TEST(compact_int_predicate_results_both_methods)
{
    /* An int predicate over int values, and a float predicate over int values, by both methods and
     * both output lengths: the masks read the predicate's results, the placing reads the values. */
    enum { N = 5000 };
    int32_t *v = malloc(N * sizeof *v);
    for (int j = 0; j < N; j++)
        v[j] = (j * 2654435761u) >> 7;
    const char *predicates[] = {"int odd(int a[]) { return a[thread.x] & 1; }",
                                "float big(int a[]) { return a[thread.x] > 16777216 ? 1.0 : 0.0; }"};
    for (int p = 0; p < 2; p++)
        for (int m = 0; m < 2; m++)
            for (int full = 0; full < 2; full++) {
                gpuc_array *packed = NULL;
                size_t count = 0;
                gpuc_compact_desc desc = {.predicate = predicates[p], .method = method_here((gpuc_compact_method)m),
                                          .full_length = full};
                ck_assert_gpuc_ok(gpuc_compact(gpu, gpuc_arg_host_i32(v, (gpuc_dims){N}), &desc, &packed, &count));
                int32_t *want = calloc(N, sizeof *want);
                size_t k = 0;
                for (int j = 0; j < N; j++)
                    if (p == 0 ? (v[j] & 1) : v[j] > 16777216)
                        want[k++] = v[j];
                ck_assert_uint_eq(count, k);
                size_t cells = full ? N : k;
                int32_t *got = fixture_take_ints(packed, cells);
                ck_assert_msg(memcmp(got, want, cells * sizeof *got) == 0, "predicate %d method %d full %d", p, m, full);
                free(got);
                free(want);
            }
    free(v);
}
END_TEST

START_TEST(compact_gather_shares_programs_across_densities)
{
    /* The gather sizes its groups to the density, so random data kept at 2%, 50% or 97% searches
     * the same few steps: one set of programs. The outputs are full length: an exact-length output's
     * grid follows the count, and grids of other sizes may take other steps per invocation (a
     * program variant per power of two, kernel.c), whatever the search does. */
    enum { N = 100000 };
    float *v = malloc(N * sizeof *v);
    uint32_t seed = 5;
    for (int j = 0; j < N; j++)
        v[j] = test_random(&seed);
    const float thresholds[] = {0.5f, 0.98f, 0.03f, 0.5f};
    gpuc_stats first = {0}, now;
    for (int t = 0; t < 4; t++) {
        check_compact_with(v, N, GPUC_GREATER, thresholds[t], true, GPUC_COMPACT_GATHER, true);
        ck_assert_gpuc_ok(gpuc_get_stats(gpu, &now));
        if (t == 1)
            first = now;
        if (t > 1)
            ck_assert_msg(now.programs_compiled == first.programs_compiled, "threshold %g compiled %llu new programs",
                          (double)thresholds[t], (unsigned long long)(now.programs_compiled - first.programs_compiled));
    }
    free(v);
}
END_TEST

START_TEST(compact_2_22_matches_c)
{
    const uint32_t n = 1u << 22;
    float *v = malloc(n * sizeof *v);
    uint32_t seed = 2222;
    for (uint32_t j = 0; j < n; j++)
        v[j] = test_random(&seed) * 100.0f;
    check_compact_f32(v, n, GPUC_GREATER_EQUAL, 50.0f, true);
    check_compact_with(v, n, GPUC_LESS, 30.0f, false, GPUC_COMPACT_SCATTER, false);
    free(v);
}
END_TEST

/* Exact-length scatters of 131,072 values and one more odd length, with survivor counts around the
 * densities where the software profile writes them at full length and copies the survivors out
 * (compact_place.c: from 1/8 to under 3/4 kept) and on both sides of them: the survivors in order,
 * nothing read back but the count, nothing uploaded, and past the result's end a kernel reads 0 (the
 * copy's padding is zero). Survivors are 1 + j, the dropped -j: every value tells where it was. */
START_TEST(compact_exact_scatter_around_its_densities)
{
    static const uint32_t sizes[] = {131072, 131075};
    float *v = malloc(131075 * sizeof *v);
    gpuc_kernel *past_end = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float pastEnd(float a[], int from) { return a[from + thread.x]; }",
                                         &(gpuc_kernel_desc){.output = {4}}, &past_end));
    for (int s = 0; s < 2; s++) {
        uint32_t n = sizes[s];
        const uint32_t counts[] = {n / 8 - 1, n / 8, n / 8 + 1, n / 2 + 1, n * 3 / 4 - 1, n * 3 / 4, n - 1};
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            uint32_t seed = 900 + (uint32_t)c;
            for (uint32_t j = 0; j < n; j++)
                v[j] = -(float)j;
            for (uint32_t kept = 0; kept < counts[c];) { /* counts[c] distinct survivors at random places */
                uint32_t j = next_random(&seed) % n;
                kept += v[j] <= 0.0f;
                v[j] = 1.0f + (float)j;
            }
            gpuc_array *in;
            ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){n}, &in));
            gpuc_stats before, after;
            ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
            gpuc_array *packed;
            size_t count;
            gpuc_compact_desc desc = {.op = GPUC_GREATER, .threshold = 0.5,
                                      .method = method_here(GPUC_COMPACT_SCATTER)};
            ck_assert_gpuc_ok(gpuc_compact(gpu, gpuc_arg_array(in), &desc, &packed, &count));
            ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
            ck_assert_uint_eq(count, counts[c]);
            ck_assert_uint_eq(after.uploads, before.uploads);
            if (desc.method == GPUC_COMPACT_SCATTER)
                ck_assert_uint_eq(after.readbacks - before.readbacks, 1);
            ck_assert_uint_eq(gpuc_array_cells(packed), count);
            float tail[4];
            gpuc_array *t = NULL;
            ck_assert_gpuc_ok(
                gpuc_run(past_end, (gpuc_arg[]){gpuc_arg_array(packed), gpuc_arg_i32((int32_t)count)}, 2, &t));
            ck_assert_gpuc_ok(gpuc_array_read_f32(t, tail, 4));
            for (int j = 0; j < 4; j++)
                ck_assert_msg(tail[j] == 0.0f, "n=%u count %zu: a[count + %d] reads %g", n, count, j, (double)tail[j]);
            float *got = fixture_take_floats(packed, count);
            size_t m = 0;
            for (uint32_t j = 0; j < n; j++)
                if (v[j] > 0.5f) {
                    ck_assert_msg(got[m] == v[j], "n=%u count %zu: survivor %zu is %g, want %g", n, count, m,
                                  (double)got[m], (double)v[j]);
                    m++;
                }
            ck_assert_uint_eq(m, count);
            free(got);
            gpuc_array_free(t);
            gpuc_array_free(in);
        }
    }
    gpuc_kernel_free(past_end);
    free(v);
}
END_TEST

/* An exact-length scatter whose survivors fit one storage binding but whose input does not (2^25 + 4
 * floats: 4 bytes each past GL_MAX_SHADER_STORAGE_BLOCK_SIZE on llvmpipe, 128 MiB) keeps the exact
 * output: a full-length scratch of n cells would fail with GPUC_ERROR_LIMIT where the call asked for
 * half of them. Checked against C on every survivor. */
START_TEST(compact_exact_scatter_past_a_storage_binding)
{
    const int64_t most = gpuc_get_info(gpu)->max_storage_block_size;
    /* Only the software profile writes at full length; a GPU's binding (gigabytes) is not filled here. */
    if (gpuc_get_info(gpu)->device_profile != GPUC_PROFILE_SOFTWARE || most > ((int64_t)1 << 28))
        return;
    const uint32_t n = (uint32_t)(most / 4 + 4);
    float *v = malloc((size_t)n * sizeof *v);
    ck_assert_ptr_nonnull(v);
    uint32_t seed = 5;
    for (uint32_t j = 0; j < n; j++)
        v[j] = (next_random(&seed) & 1) ? (float)j : -1.0f;
    check_compact_with(v, n, GPUC_GREATER, 0.0f, true, GPUC_COMPACT_SCATTER, false);
    free(v);
}
END_TEST

/* The same for int values (the scatter's int kernel, int scratch and int copy): half kept, and a
 * predicate keeping 3 in 8 of 131,073 values, by an int comparison and by a predicate kernel. */
START_TEST(compact_exact_scatter_int_values)
{
    enum { N = 131073 };
    int32_t *v = malloc(N * sizeof *v), *got = malloc(N * sizeof *got);
    uint32_t seed = 31;
    for (int j = 0; j < N; j++)
        v[j] = (int32_t)(next_random(&seed) % 8) * 100000 + j; /* distinct; its eighth by (v / 100000) */
    gpuc_array *in;
    ck_assert_gpuc_ok(gpuc_array_from_i32(gpu, v, (gpuc_dims){N}, &in));
    const gpuc_compact_desc descs[] = {
        {.op = GPUC_GREATER_EQUAL, .threshold = 400000, .method = GPUC_COMPACT_SCATTER},
        {.predicate = "int keep(int v[]) { int e = v[thread.x] / 100000; return e == 1 || e == 4 || e == 6 ? 1 : 0; }",
         .method = GPUC_COMPACT_SCATTER}};
    for (int d = 0; d < 2; d++) {
        gpuc_compact_desc desc = descs[d];
        desc.method = method_here(desc.method);
        gpuc_array *packed;
        size_t count;
        ck_assert_gpuc_ok(gpuc_compact(gpu, gpuc_arg_array(in), &desc, &packed, &count));
        ck_assert_uint_eq(gpuc_array_cells(packed), count);
        ck_assert_gpuc_ok(gpuc_array_read_i32(packed, got, count));
        size_t m = 0;
        for (int j = 0; j < N; j++) {
            int e = v[j] / 100000;
            if (d == 0 ? v[j] >= 400000 : e == 1 || e == 4 || e == 6) {
                ck_assert_msg(m < count && got[m] == v[j], "desc %d: survivor %zu is %d, want %d", d, m,
                              m < count ? got[m] : -1, v[j]);
                m++;
            }
        }
        ck_assert_uint_eq(m, count);
        gpuc_array_free(packed);
    }
    gpuc_array_free(in);
    free(v);
    free(got);
}
END_TEST

START_TEST(compact_result_feeds_sort)
{
    /* packed stays on the device and goes straight into the next algorithm */
    float v[500];
    uint32_t seed = 9;
    for (int j = 0; j < 500; j++)
        v[j] = test_random(&seed);
    gpuc_array *packed, *sorted;
    size_t count;
    ck_assert_gpuc_ok(gpuc_compact(gpu, gpuc_arg_host_f32(v, (gpuc_dims){500}),
                                   &(gpuc_compact_desc){.op = GPUC_LESS, .threshold = 0.25}, &packed, &count));
    ck_assert_gpuc_ok(gpuc_sort(gpu, gpuc_arg_array(packed), NULL, &sorted));
    float *got = fixture_take_floats(sorted, count);
    size_t m = 0;
    float prev = -1.0f;
    for (int j = 0; j < 500; j++)
        m += v[j] < 0.25f;
    ck_assert_uint_eq(count, m);
    for (size_t j = 0; j < count; j++) {
        ck_assert(got[j] >= prev && got[j] < 0.25f);
        prev = got[j];
    }
    free(got);
    gpuc_array_free(packed);
}
END_TEST

START_TEST(compact_reads_back_only_counts)
{
    enum { N = 50000 };
    float *v = malloc(N * sizeof *v);
    uint32_t seed = 17;
    for (int j = 0; j < N; j++)
        v[j] = test_random(&seed);
    gpuc_array *in;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){N}, &in));
    for (int m = 0; m < 2; m++) {
        gpuc_compact_desc desc = {.op = GPUC_LESS, .threshold = 0.3, .method = method_here(m), .full_length = true};
        gpuc_array *packed;
        size_t count;
        ck_assert_gpuc_ok(gpuc_compact(gpu, gpuc_arg_array(in), &desc, &packed, &count));
        gpuc_array_free(packed);
        gpuc_stats before, after;
        ck_assert_gpuc_ok(gpuc_get_stats(gpu, &before));
        /* another threshold: same programs (a uniform, a full-length output, and for the gather a
         * search of similar length) */
        desc.threshold = 0.6;
        ck_assert_gpuc_ok(gpuc_compact(gpu, gpuc_arg_array(in), &desc, &packed, &count));
        ck_assert_gpuc_ok(gpuc_get_stats(gpu, &after));
        /* the count; the gather also the widest span its search must cover */
        ck_assert_uint_eq(after.readbacks - before.readbacks, desc.method == GPUC_COMPACT_GATHER ? 2 : 1);
        ck_assert_uint_eq(after.uploads, before.uploads);
        ck_assert_uint_eq(after.programs_compiled, before.programs_compiled);
        size_t m_want = 0;
        for (int j = 0; j < N; j++)
            m_want += v[j] < 0.6f;
        ck_assert_uint_eq(count, m_want);
        gpuc_array_free(packed);
    }
    gpuc_array_free(in);
    free(v);
}
END_TEST

START_TEST(compact_bad_input)
{
    float v[8] = {0};
    gpuc_arg good = gpuc_arg_host_f32(v, (gpuc_dims){8});
    gpuc_compact_desc gt = {.op = GPUC_GREATER};
    gpuc_array *out = (gpuc_array *)v;
    size_t count = 77;
    ck_assert_int_eq(gpuc_compact(NULL, good, &gt, &out, &count), GPUC_ERROR_INVALID_ARGUMENT);
    ck_assert_gpuc_fails(gpuc_compact(gpu, good, &gt, NULL, &count), GPUC_ERROR_INVALID_ARGUMENT, "packed is NULL");
    ck_assert_gpuc_fails(gpuc_compact(gpu, good, &gt, &out, NULL), GPUC_ERROR_INVALID_ARGUMENT, "count is NULL");
    ck_assert_gpuc_fails(gpuc_compact(gpu, good, NULL, &out, &count), GPUC_ERROR_INVALID_ARGUMENT, "desc is NULL");
    ck_assert_gpuc_fails(gpuc_compact(gpu, good, &(gpuc_compact_desc){0}, &out, &count), GPUC_ERROR_INVALID_ARGUMENT,
                         "not a comparison");
    ck_assert_gpuc_fails(gpuc_compact(gpu, good, &(gpuc_compact_desc){.op = (gpuc_compare)99}, &out, &count),
                         GPUC_ERROR_INVALID_ARGUMENT, "not a comparison");
    ck_assert_gpuc_fails(gpuc_compact(gpu, good, &(gpuc_compact_desc){.op = GPUC_LESS, .predicate = "int f() { return 1; }"},
                                      &out, &count), GPUC_ERROR_INVALID_ARGUMENT, "not both");
    ck_assert_gpuc_fails(gpuc_compact(gpu, good, &(gpuc_compact_desc){.op = GPUC_LESS, .method = (gpuc_compact_method)7},
                                      &out, &count), GPUC_ERROR_INVALID_ARGUMENT, "method 7");
    int32_t iv[4] = {1, 2, 3, 4};
    gpuc_arg ints = gpuc_arg_host_i32(iv, (gpuc_dims){4});
    ck_assert_gpuc_fails(gpuc_compact(gpu, ints, &(gpuc_compact_desc){.op = GPUC_LESS, .threshold = 2.5}, &out, &count),
                         GPUC_ERROR_INVALID_ARGUMENT, "not a 32-bit integer");
    ck_assert_gpuc_fails(gpuc_compact(gpu, ints, &(gpuc_compact_desc){.op = GPUC_LESS, .threshold = 3e9}, &out, &count),
                         GPUC_ERROR_INVALID_ARGUMENT, "not a 32-bit integer");
    ck_assert_gpuc_fails(gpuc_compact(gpu, ints, &(gpuc_compact_desc){.op = GPUC_LESS, .threshold = NAN}, &out, &count),
                         GPUC_ERROR_INVALID_ARGUMENT, "not a 32-bit integer");
    /* predicates that cannot work */
    ck_assert_gpuc_fails(gpuc_compact(gpu, good, &(gpuc_compact_desc){.predicate = "int f(float a[]) { return a[thread.x] +; }"},
                                      &out, &count), GPUC_ERROR_COMPILE, "");
    ck_assert_gpuc_fails(gpuc_compact(gpu, good,
                                      &(gpuc_compact_desc){.predicate = "int f(float a[], float b[]) { return 1; }"},
                                      &out, &count), GPUC_ERROR_INVALID_ARGUMENT, "must take one");
    ck_assert_gpuc_fails(gpuc_compact(gpu, good, &(gpuc_compact_desc){.predicate = "vec4 f(float a[]) { return vec4(1); }"},
                                      &out, &count), GPUC_ERROR_TYPE_MISMATCH, "must return int or float");
    ck_assert_gpuc_fails(gpuc_compact(gpu, good, &(gpuc_compact_desc){.predicate = "int f(int a[]) { return a[thread.x]; }"},
                                      &out, &count), GPUC_ERROR_TYPE_MISMATCH, "float");
    /* inputs */
    ck_assert_gpuc_fails(gpuc_compact(gpu, gpuc_arg_host_f32(v, (gpuc_dims){0}), &gt, &out, &count),
                         GPUC_ERROR_INVALID_ARGUMENT, "n = 0");
    ck_assert_gpuc_fails(gpuc_compact(gpu, gpuc_arg_host_f32(NULL, (gpuc_dims){8}), &gt, &out, &count),
                         GPUC_ERROR_INVALID_ARGUMENT, "host data is NULL");
    ck_assert_gpuc_fails(gpuc_compact(gpu, gpuc_arg_host_f32(v, (gpuc_dims){2, 4}), &gt, &out, &count),
                         GPUC_ERROR_TYPE_MISMATCH, "1D");
    ck_assert_gpuc_fails(gpuc_compact(gpu, gpuc_arg_array(NULL), &gt, &out, &count), GPUC_ERROR_INVALID_ARGUMENT,
                         "NULL array");
    ck_assert_gpuc_fails(gpuc_compact(gpu, gpuc_arg_host_f32(v, (gpuc_dims){(1u << 30) + 1}), &gt, &out, &count),
                         GPUC_ERROR_LIMIT, "2^30");
    int64_t max = gpuc_get_info(gpu)->max_texture_buffer_size;
    if (max > 0 && max * 4 + 4 <= (1 << 30))
        ck_assert_gpuc_fails(gpuc_compact(gpu, gpuc_arg_host_f32(v, (gpuc_dims){(uint32_t)(max * 4 + 4)}), &gt, &out,
                                          &count), GPUC_ERROR_LIMIT, "GL_MAX_TEXTURE_BUFFER_SIZE");
    ck_assert_ptr_eq(out, (gpuc_array *)v);
    ck_assert_uint_eq(count, 77);
    /* the context still works */
    check_compact_f32(v, 8, GPUC_EQUAL, 0.0f, false);
}
END_TEST

/* ---- small threshold compactions on the host (algo/compact_host.c) ---- */

/* gpuc_compact on g of `arg` (n values) by desc: the count, and the result's cells' bits (calloc'd,
 * n of them, zero past the cells; the caller frees). *dispatched: the call's dispatches; *read_back:
 * what reading its result read back. */
static uint32_t *compact_bits(gpuc *g, gpuc_arg arg, uint32_t n, const gpuc_compact_desc *desc, size_t *count,
                              uint64_t *dispatched, uint64_t *read_back)
{
    gpuc_stats before, after, read;
    ck_assert_gpuc_ok(gpuc_get_stats(g, &before));
    gpuc_array *packed = NULL;
    gpuc_status st = gpuc_compact(g, arg, desc, &packed, count);
    ck_assert_msg(st == GPUC_OK, "%s", gpuc_errmsg(g));
    ck_assert_gpuc_ok(gpuc_get_stats(g, &after));
    uint32_t *bits = calloc(n, sizeof *bits);
    size_t cells = desc->full_length ? n : *count;
    ck_assert_msg((cells == 0) == (packed == NULL), "%zu cells, array %p", cells, (void *)packed);
    if (packed) {
        ck_assert_uint_eq(gpuc_array_cells(packed), cells);
        st = gpuc_array_type(packed) == GPUC_INT ? gpuc_array_read_i32(packed, (int32_t *)bits, cells)
                                                 : gpuc_array_read_f32(packed, (float *)bits, cells);
        ck_assert_msg(st == GPUC_OK, "%s", gpuc_errmsg(g));
    }
    ck_assert_gpuc_ok(gpuc_get_stats(g, &read));
    *dispatched = after.dispatches - before.dispatches;
    *read_back = read.readbacks - after.readbacks;
    gpuc_array_free(packed);
    return bits;
}

START_TEST(compact_host_equals_the_device_bit_for_bit)
{
    /* The host's loop against the device's kernels (a context kept on the pool), call for call: NaNs
     * with payloads (quiet, signalling, negative), denormals, signed zeros and infinities, as values and
     * thresholds, every operator, both methods and lengths, as host data and as an array the host
     * holds. Each result also equals C's, and where the host path is here it dispatched nothing and
     * reading its result read nothing back. */
    const uint32_t special[] = {0x7fc00001u, 0x7f800001u, 0xffc12345u, 0x00000001u, 0x807fffffu, 0x80000000u,
                                0x00000000u, 0x7f800000u, 0xff800000u, 0x3f800000u, 0xbf800000u, 0x00800000u};
    enum { N = 4099 };
    float *v = malloc(N * sizeof *v);
    uint32_t seed = 31;
    for (uint32_t j = 0; j < N; j++) {
        uint32_t r = next_random(&seed);
        if (r % 4 == 0)
            memcpy(&v[j], &special[(r >> 8) % 12], sizeof v[j]);
        else
            v[j] = (float)((int)(r >> 20) % 9 - 4);
    }
    const float thresholds[] = {0.0f, -0.0f, 1.0f, 1e-45f, INFINITY, NAN};
    gpuc *pool = fixture_open_pool();
    gpuc_array *held = NULL;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){N}, &held));
    bool host = fixture_host_small_calls(gpu);
    for (gpuc_compare op = GPUC_GREATER; op <= GPUC_NOT_EQUAL; op++)
        for (int t = 0; t < 6; t++)
            for (int form = 0; form < 4; form++) {
                gpuc_compact_desc desc = {.op = op, .threshold = thresholds[t], .full_length = form & 1,
                                          .method = method_here((gpuc_compact_method)((form >> 1) ^ (t & 1)))};
                gpuc_arg arg = form < 2 ? gpuc_arg_host_f32(v, (gpuc_dims){N}) : gpuc_arg_array(held);
                size_t count = 0, device_count = 0;
                uint64_t dispatched, read_back, pool_dispatched, pool_read_back;
                uint32_t *got = compact_bits(gpu, arg, N, &desc, &count, &dispatched, &read_back);
                uint32_t *want = compact_bits(pool, gpuc_arg_host_f32(v, (gpuc_dims){N}), N, &desc, &device_count,
                                              &pool_dispatched, &pool_read_back);
                size_t m = 0;
                for (uint32_t j = 0; j < N; j++)
                    m += passes(v[j], op, thresholds[t]);
                ck_assert_msg(count == m && device_count == m, "op %d t %g: count %zu, device %zu, C %zu", (int)op,
                              (double)thresholds[t], count, device_count, m);
                ck_assert_msg(memcmp(got, want, N * sizeof *got) == 0, "op %d t %g form %d: bits differ from the "
                              "device's", (int)op, (double)thresholds[t], form);
                ck_assert_msg(pool_dispatched > 0, "the pool context dispatched nothing");
                if (host)
                    ck_assert_msg(dispatched == 0 && read_back == 0, "op %d form %d: %d dispatches, %d read backs",
                                  (int)op, form, (int)dispatched, (int)read_back);
                else
                    ck_assert_msg(dispatched > 0, "op %d form %d: no dispatch off the host path", (int)op, form);
                free(got);
                free(want);
            }
    gpuc_array_free(held);
    gpuc_close(pool);
    free(v);
}
END_TEST

/* Compacts v (n values) on gpu, given as `arg`, keeping those > 0.5 (by `predicate` where not NULL),
 * checks the survivors against C, and returns whether the call dispatched anything. */
static bool compact_dispatched(gpuc_arg arg, const float *v, uint32_t n, const char *predicate)
{
    gpuc_compact_desc desc = {.op = predicate ? GPUC_COMPARE_NONE : GPUC_GREATER, .threshold = 0.5,
                              .predicate = predicate};
    size_t count = 0;
    uint64_t dispatched, read_back;
    uint32_t *got = compact_bits(gpu, arg, n, &desc, &count, &dispatched, &read_back);
    float *want = calloc(n, sizeof *want);
    size_t m = 0;
    for (uint32_t j = 0; j < n; j++)
        if (v[j] > 0.5f)
            want[m++] = v[j];
    ck_assert_uint_eq(count, m);
    ck_assert_msg(memcmp(got, want, n * sizeof *want) == 0, "n %u: survivors differ from C's", n);
    free(got);
    free(want);
    return dispatched > 0;
}

START_TEST(compact_host_takes_only_what_it_should)
{
    /* On the host: a threshold comparison of at most 65,536 values the host holds, in any context on
     * the software profile. On the device: one value more, a predicate, an array a kernel wrote since
     * its values came from the host, and any call of a profiling context (its report is of the
     * device's work). */
    enum { MOST = 65536 };
    float *v = malloc((MOST + 1) * sizeof *v);
    uint32_t seed = 8;
    for (uint32_t j = 0; j <= MOST; j++)
        v[j] = test_random(&seed);
    bool host = fixture_host_small_calls(gpu);
    const char *keep = "int keep(float v[]) { return v[thread.x] > 0.5 ? 1 : 0; }";
    ck_assert_msg(compact_dispatched(gpuc_arg_host_f32(v, (gpuc_dims){MOST}), v, MOST, NULL) != host,
                  "65,536 host values");
    ck_assert_msg(compact_dispatched(gpuc_arg_host_f32(v, (gpuc_dims){MOST + 1}), v, MOST + 1, NULL),
                  "65,537 host values stayed off the device");
    ck_assert_msg(compact_dispatched(gpuc_arg_host_f32(v, (gpuc_dims){100}), v, 100, keep), "a predicate");
    gpuc_array *a = NULL;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){MOST}, &a));
    ck_assert_msg(compact_dispatched(gpuc_arg_array(a), v, MOST, NULL) != host, "an array the host holds");
    /* The array written on the device by a .pipeline kernel (not read back): the host's copy is stale. */
    gpuc_kernel *half = NULL;
    ck_assert_gpuc_ok(gpuc_create_kernel(gpu, "float halved(float a[]) { return a[thread.x] * 0.5; }",
                                         &(gpuc_kernel_desc){.output = {MOST}, .pipeline = true}, &half));
    ck_assert_gpuc_ok(gpuc_run_to(half, (gpuc_arg[]){gpuc_arg_host_f32(v, (gpuc_dims){MOST})}, 1, a));
    float *halves = malloc(MOST * sizeof *halves);
    for (uint32_t j = 0; j < MOST; j++)
        halves[j] = v[j] * 0.5f;
    ck_assert_msg(compact_dispatched(gpuc_arg_array(a), halves, MOST, NULL), "an array a kernel wrote");
    gpuc_kernel_free(half);
    gpuc_array_free(a);
    free(halves);
    /* Other contexts (compact_dispatched works on the fixture's handle): a profiling one keeps the
     * device's path; one working in the calling thread takes the host's as the default one does (the
     * choice follows the device profile, not the threads). */
    gpuc *was = gpu, *profiling = NULL, *caller = NULL;
    ck_assert_gpuc_ok(gpuc_open(&profiling, &(gpuc_options){.profile = true}));
    ck_assert_gpuc_ok(gpuc_open(&caller, &(gpuc_options){.threads = GPUC_THREADS_CALLER}));
    gpu = profiling;
    bool profiled = compact_dispatched(gpuc_arg_host_f32(v, (gpuc_dims){100}), v, 100, NULL);
    gpu = caller;
    bool called = compact_dispatched(gpuc_arg_host_f32(v, (gpuc_dims){100}), v, 100, NULL);
    bool caller_host = fixture_host_small_calls(caller);
    gpu = was;
    gpuc_close(profiling);
    gpuc_close(caller);
    ck_assert_msg(profiled, "a profiling context's call stayed off the device");
    ck_assert_msg(called != caller_host, "a calling-thread context's call: dispatched %d", (int)called);
    ck_assert_int_eq(caller_host, host);
    free(v);
}
END_TEST

Suite *suite_compact(void)
{
    Suite *s = suite_create("compact");
    TCase *scan = fixture_tcase("scan");
    tcase_add_test(scan, scan_int_sizes);
    tcase_add_test(scan, scan_int_wraps_and_extremes);
    tcase_add_test(scan, scan_float);
    tcase_add_test(scan, scan_bad_input);
    suite_add_tcase(s, scan);
    /* The device's kernels, at every size (the context keeps small inputs off the host's path). */
    TCase *compact = fixture_tcase_pool("compact");
    tcase_add_test(compact, compact_every_op_float);
    tcase_add_test(compact, compact_nan_and_last_bit);
    tcase_add_test(compact, compact_denormals_signed_zeros_and_nan_as_c_compares);
    tcase_add_test(compact, compact_int_and_edges);
    tcase_add_test(compact, compact_user_predicate);
    tcase_add_test(compact, compact_scatter_and_full_length);
    tcase_add_test(compact, compact_sparse_survivors);
    tcase_add_test(compact, compact_block_edges);
    tcase_add_test(compact, compact_gather_shares_programs_across_densities);
    tcase_add_test(compact, compact_int_predicate_results_both_methods);
    tcase_add_test(compact, compact_2_22_matches_c);
    tcase_add_test(compact, compact_exact_scatter_around_its_densities);
    tcase_add_test(compact, compact_exact_scatter_int_values);
    tcase_add_test(compact, compact_exact_scatter_past_a_storage_binding);
    tcase_add_test(compact, compact_result_feeds_sort);
    tcase_add_test(compact, compact_reads_back_only_counts);
    tcase_add_test(compact, compact_bad_input);
    suite_add_tcase(s, compact);
    /* A default context: small threshold compactions of values the host holds run on the host (on the
     * software device profile). The oracle tests again (C's answers, whichever path), and what takes
     * the host's path. */
    TCase *host = fixture_tcase("compact_host");
    tcase_add_test(host, compact_every_op_float);
    tcase_add_test(host, compact_nan_and_last_bit);
    tcase_add_test(host, compact_denormals_signed_zeros_and_nan_as_c_compares);
    tcase_add_test(host, compact_int_and_edges);
    tcase_add_test(host, compact_scatter_and_full_length);
    tcase_add_test(host, compact_block_edges);
    tcase_add_test(host, compact_result_feeds_sort);
    tcase_add_test(host, compact_bad_input);
    tcase_add_test(host, compact_host_equals_the_device_bit_for_bit);
    tcase_add_test(host, compact_host_takes_only_what_it_should);
    suite_add_tcase(s, host);
    return s;
}
