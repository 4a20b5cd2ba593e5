/* test_algo_calls.c - the algorithms called again and again in one context: their kernels are made on
 * the first calls and kept (no kernel is created, so no program is looked up, by later calls), memory
 * stays flat over 1,000 calls, a context that keeps more kernel shapes than its bound frees the least
 * recently used ones and still computes right, and the kept kernels move with the context from one
 * thread to another. Every result is checked against plain C. */
#include "fixture.h"
#include "suites.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Program lookups and compilations so far: gpuc_create_kernel makes one lookup per kernel it
 * creates, so both stay unchanged over calls that create none. */
static uint64_t program_lookups(void)
{
    gpuc_stats s;
    ck_assert_gpuc_ok(gpuc_get_stats(gpu, &s));
    return s.program_cache_hits + s.programs_compiled;
}

static double rss_mib(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fscanf(f, "%ld %ld", &pages, &resident), 2);
    fclose(f);
    return (double)resident * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

static void fill(float *v, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        v[i] = (float)(seed >> 12) / 1048576.0f;
    }
}

static int compare_floats(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* One call of each driver on `in` (n values, host copy v), each result checked against C. */
enum { DRIVERS = 7 };

static void call_driver(int d, const gpuc_array *in, const float *v, size_t n, float t)
{
    gpuc_arg arg = gpuc_arg_array(in);
    gpuc_array *out = NULL, *out2 = NULL;
    float *want = malloc(n * sizeof *want);
    size_t m = 0, count = 0;
    switch (d) {
    case 0: /* exclusive scan of whole numbers: exact */
    case 1: /* compaction, gather and scatter (the fragment backend gathers both times) */
    case 2: {
        if (d == 0) {
            float *w = malloc(n * sizeof *w);
            for (size_t i = 0; i < n; i++)
                w[i] = (float)(int)(v[i] * 8.0f);
            float sum = 0;
            for (size_t i = 0; i < n; i++) {
                want[i] = sum;
                sum += w[i];
            }
            ck_assert_gpuc_ok(gpuc_scan(gpu, gpuc_arg_host_f32(w, (gpuc_dims){(uint32_t)n}), NULL, &out));
            free(w);
            m = n;
            break;
        }
        /* The scatter full-length: a scatter kernel's output size is compiled into it, so an
         * exact-length scatter makes one kernel per count it has not seen (kernel_cache.c). */
        bool scatter = d == 2 && !fixture_fragment_backend();
        gpuc_compact_desc desc = {.op = GPUC_GREATER, .threshold = t,
                                  .method = scatter ? GPUC_COMPACT_SCATTER : GPUC_COMPACT_GATHER,
                                  .full_length = scatter};
        ck_assert_gpuc_ok(gpuc_compact(gpu, arg, &desc, &out, &count));
        for (size_t i = 0; i < n; i++)
            if (v[i] > t)
                want[m++] = v[i];
        ck_assert_uint_eq(count, m);
        while (scatter && m < n)
            want[m++] = 0.0f;
        break;
    }
    case 3: /* sort: the default method, then the radix method where it runs */
    case 4: {
        gpuc_sort_desc desc = {.method = d == 4 && !fixture_fragment_backend() ? GPUC_SORT_RADIX : GPUC_SORT_BITONIC};
        ck_assert_gpuc_ok(gpuc_sort(gpu, arg, &desc, &out));
        memcpy(want, v, n * sizeof *want);
        qsort(want, n, sizeof *want, compare_floats);
        m = n;
        break;
    }
    case 5: { /* top 16 */
        ck_assert_gpuc_ok(gpuc_topk(gpu, arg, &(gpuc_topk_desc){.k = 16}, &out, &out2));
        memcpy(want, v, n * sizeof *want);
        qsort(want, n, sizeof *want, compare_floats);
        for (size_t i = 0; i < 16; i++)
            want[i] = want[n - 1 - i];
        m = 16;
        break;
    }
    default: { /* rank of each value (0 = the largest; the values are distinct enough here) */
        ck_assert_gpuc_ok(gpuc_rank(gpu, arg, NULL, &out));
        for (size_t i = 0; i < n; i++) {
            size_t before = 0;
            for (size_t j = 0; j < n; j++)
                before += v[j] > v[i] || (v[j] == v[i] && j < i);
            want[i] = (float)before;
        }
        m = n;
        break;
    }
    }
    if (m > 0) {
        ck_assert_uint_eq(gpuc_array_values(out), m);
        float *got = malloc(m * sizeof *got);
        if (gpuc_array_type(out) == GPUC_INT) {
            int32_t *ints = malloc(m * sizeof *ints);
            ck_assert_gpuc_ok(gpuc_array_read_i32(out, ints, m));
            for (size_t i = 0; i < m; i++)
                got[i] = (float)ints[i];
            free(ints);
        } else {
            ck_assert_gpuc_ok(gpuc_array_read_f32(out, got, m));
        }
        for (size_t i = 0; i < m; i++)
            ck_assert_msg(got[i] == want[i], "driver %d, n %zu: element %zu is %g, C says %g", d, n, i,
                          (double)got[i], (double)want[i]);
        free(got);
    }
    gpuc_array_free(out);
    gpuc_array_free(out2);
    free(want);
}

/* Once each driver ran with each threshold, later calls create no kernel and compile nothing: before
 * the drivers kept them, every call created 3-49. */
START_TEST(kernels_made_once)
{
    enum { N = 3000 };
    float *v = malloc(N * sizeof *v);
    fill(v, N, 7);
    gpuc_array *in;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){N}, &in));
    for (int d = 0; d < DRIVERS; d++) {
        /* Each threshold first: an exact-length output's kernel is kept per power of two of it. */
        for (int warm = 0; warm < 5; warm++)
            call_driver(d, in, v, N, 0.25f + 0.1f * (float)(warm % 5));
        uint64_t before = program_lookups();
        for (int r = 0; r < 5; r++)
            call_driver(d, in, v, N, 0.25f + 0.1f * (float)(4 - r));
        ck_assert_msg(program_lookups() == before, "driver %d created %llu kernels in 5 calls", d,
                      (unsigned long long)(program_lookups() - before));
    }
    gpuc_array_free(in);
    free(v);
}
END_TEST

/* 1,000 compactions in one context, the gather's exact-length outputs of changing counts (the kept
 * kernels are resized, one per power of two of the count): no kernel created after the first cycle
 * of thresholds, resident memory flat, every count right. */
START_TEST(thousand_calls_flat)
{
    enum { N = 4096, CALLS = 1000, SETTLED = 200 }; /* each method has seen all 97 thresholds */
    float *v = malloc(N * sizeof *v);
    fill(v, N, 11);
    gpuc_array *in;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){N}, &in));
    double settled_mib = 0;
    uint64_t settled_lookups = 0;
    for (int c = 0; c < CALLS; c++) {
        if (c == SETTLED) {
            settled_mib = rss_mib();
            settled_lookups = program_lookups();
        }
        float t = (float)(c % 97) / 97.0f;
        bool scatter = c % 2 && !fixture_fragment_backend(); /* full-length, as in kernels_made_once */
        gpuc_compact_desc desc = {.op = GPUC_GREATER_EQUAL, .threshold = t,
                                  .method = scatter ? GPUC_COMPACT_SCATTER : GPUC_COMPACT_GATHER,
                                  .full_length = scatter};
        gpuc_array *packed = NULL;
        size_t count = 0, want = 0;
        ck_assert_gpuc_ok(gpuc_compact(gpu, gpuc_arg_array(in), &desc, &packed, &count));
        for (int i = 0; i < N; i++)
            want += v[i] >= t;
        ck_assert_uint_eq(count, want);
        gpuc_array_free(packed);
    }
    double grew = rss_mib() - settled_mib;
    ck_assert_msg(program_lookups() == settled_lookups, "%llu kernels created after call %d",
                  (unsigned long long)(program_lookups() - settled_lookups), SETTLED);
#if defined(__SANITIZE_ADDRESS__)
    (void)grew; /* AddressSanitizer holds freed memory in quarantine (make soak measures without it) */
#else
    ck_assert_msg(grew < 4.0, "resident memory grew by %.1f MiB over %d calls", grew, CALLS - SETTLED);
#endif
    gpuc_array_free(in);
    free(v);
}
END_TEST

/* More kernel shapes than a context keeps (user predicates of 120 sources): the least recently used
 * are freed at the next call, and every compaction stays right, also with the first predicates again. */
START_TEST(many_shapes_bounded)
{
    enum { N = 1000, SHAPES = 120 };
    float *v = malloc(N * sizeof *v);
    fill(v, N, 13);
    gpuc_array *in;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){N}, &in));
    for (int round = 0; round < 2; round++) {
        for (int s = 0; s < SHAPES; s += round ? 17 : 1) {
            char source[128];
            snprintf(source, sizeof source, "int keep(float v[]) { return v[thread.x] < %d.0 / %d.0 ? 1 : 0; }", s,
                     SHAPES);
            gpuc_compact_desc desc = {.predicate = source};
            gpuc_array *packed = NULL;
            size_t count = 0, want = 0;
            ck_assert_gpuc_ok(gpuc_compact(gpu, gpuc_arg_array(in), &desc, &packed, &count));
            float *got = count ? fixture_take_floats(packed, count) : NULL;
            if (!count)
                gpuc_array_free(packed);
            for (int i = 0; i < N; i++)
                if (v[i] < (float)s / (float)SHAPES) {
                    ck_assert_float_eq(got[want], v[i]);
                    want++;
                }
            ck_assert_uint_eq(count, want);
            free(got);
        }
    }
    gpuc_array_free(in);
    free(v);
}
END_TEST

typedef struct sorter {
    gpuc *gpu;
    const gpuc_array *in;
    gpuc_status status;
    float first, last;
} sorter;

static void *sort_on_thread(void *arg)
{
    sorter *s = arg;
    gpuc_array *out = NULL;
    s->status = gpuc_sort(s->gpu, gpuc_arg_array(s->in), NULL, &out);
    if (s->status == GPUC_OK) {
        float got[512];
        s->status = gpuc_array_read_f32(out, got, 512);
        s->first = got[0];
        s->last = got[511];
    }
    gpuc_array_free(out);
    gpuc_detach(s->gpu);
    return NULL;
}

/* The kept kernels belong to the context, not to a thread: a sort on a second thread (after the
 * first let go) reuses them and is right; then the first thread goes on with them. */
START_TEST(kept_kernels_follow_the_context)
{
    float v[512];
    fill(v, 512, 17);
    gpuc_array *in;
    ck_assert_gpuc_ok(gpuc_array_from_f32(gpu, v, (gpuc_dims){512}, &in));
    for (int warm = 0; warm < 2; warm++) {
        gpuc_array *out;
        ck_assert_gpuc_ok(gpuc_sort(gpu, gpuc_arg_array(in), NULL, &out));
        gpuc_array_free(out);
    }
    uint64_t before = program_lookups();
    ck_assert_gpuc_ok(gpuc_detach(gpu));
    sorter s = {.gpu = gpu, .in = in};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, sort_on_thread, &s), 0);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert_gpuc_ok(s.status);
    float sorted[512];
    memcpy(sorted, v, sizeof sorted);
    qsort(sorted, 512, sizeof *sorted, compare_floats);
    ck_assert_float_eq(s.first, sorted[0]);
    ck_assert_float_eq(s.last, sorted[511]);
    gpuc_array *out;
    ck_assert_gpuc_ok(gpuc_sort(gpu, gpuc_arg_array(in), NULL, &out));
    float *got = fixture_take_floats(out, 512);
    ck_assert_mem_eq(got, sorted, sizeof sorted);
    free(got);
    ck_assert_uint_eq(program_lookups(), before);
    gpuc_array_free(in);
}
END_TEST

Suite *suite_algo_calls(void)
{
    Suite *s = suite_create("algo_calls");
    TCase *tc = fixture_tcase("algo_calls");
    tcase_add_test(tc, kernels_made_once);
    tcase_add_test(tc, thousand_calls_flat);
    tcase_add_test(tc, many_shapes_bounded);
    tcase_add_test(tc, kept_kernels_follow_the_context);
    suite_add_tcase(s, tc);
    return s;
}
