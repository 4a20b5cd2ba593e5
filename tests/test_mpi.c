/* test_mpi.c - the distributed calls (gpuc_mpi.h) on 1 to 4 ranks: each test starts the MPI test worker
 * (tests/mpi/, GPUC_MPI_WORKER) for one group of cases under GPUC_MPIRUN (make check sets both where
 * Open MPI is present; without it each test says so and passes, as MPI is optional) and asserts that
 * the worker's ranks all passed. The cases themselves compare each distributed result with the
 * single-device call on the gathered data and with plain C.
 * The MPI examples (examples/mpi/, in GPUC_EXAMPLES_DIR) are run the same way, and each printed line is
 * compared with the line a plain C computation of the same data gives (the data and the lines are
 * examples/mpi/mpi_example.h's and the examples' own comments), and with the published lines for
 * N = 1000, seed 1 on 2 ranks. */
#include "fixture.h"
#include "suites.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs `GROUP` on `ranks` ranks and asserts "ok GROUP on P ranks". */
static void run_group(const char *group, int ranks)
{
    const char *mpirun = getenv("GPUC_MPIRUN"), *worker = getenv("GPUC_MPI_WORKER");
    if (!mpirun || !*mpirun) {
        printf("mpi: %s on %d ranks skipped: Open MPI is not installed (make deps installs it)\n", group, ranks);
        return;
    }
    ck_assert_msg(worker && *worker, "GPUC_MPI_WORKER is not set: run the tests through `make check`");
    char command[2048], want[128];
    /* Open MPI's own allocations are not ours to report: leak checks stay in the in-process suites. */
    snprintf(command, sizeof command, "ASAN_OPTIONS=detect_leaks=0 timeout 300 %s -np %d '%s' %s 2>&1", mpirun, ranks,
             worker, group);
    snprintf(want, sizeof want, "ok %s on %d ranks\n", group, ranks);
    int status;
    char *out = fixture_run_command(command, &status);
    ck_assert_msg(status == 0 && strstr(out, want), "%s exited %d:\n%s", command, status, out);
    free(out);
}

/* ---- the examples against plain C --------------------------------------------------------------- */

static float data_value(uint64_t i, uint32_t seed)
{
    uint32_t h = (uint32_t)i * 2654435761u + seed;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

typedef struct indexed {
    float v;
    uint64_t i;
} indexed;

/* Descending by value, ties by the lower index (the values are finite: no NaN in this data). */
static int by_value_desc(const void *pa, const void *pb)
{
    const indexed *a = pa, *b = pb;
    if (a->v != b->v)
        return a->v > b->v ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

static int by_float_asc(const void *pa, const void *pb)
{
    float a = *(const float *)pa, b = *(const float *)pb;
    return (a > b) - (a < b);
}

/* Appends printf-formatted text to line (of `size` bytes). */
static void append(char *line, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *line, size_t size, const char *fmt, ...)
{
    size_t used = strlen(line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + used, size - used, fmt, ap);
    va_end(ap);
}

/* The line each example must print for this data, computed in plain C. */
static void expected_line(const char *example, uint64_t n, uint32_t seed, uint64_t k, int ranks, char *line,
                          size_t size)
{
    line[0] = '\0';
    indexed *all = malloc(n * sizeof *all);
    float *v = malloc(n * sizeof *v);
    ck_assert_ptr_nonnull(all);
    ck_assert_ptr_nonnull(v);
    for (uint64_t i = 0; i < n; i++) {
        all[i] = (indexed){data_value(i, seed), i};
        v[i] = all[i].v;
    }
    if (!strcmp(example, "topk")) {
        qsort(all, n, sizeof *all, by_value_desc);
        uint64_t shown = k < n ? k : n;
        append(line, size, "top %llu of %llu on %d ranks:", (unsigned long long)shown, (unsigned long long)n, ranks);
        for (uint64_t i = 0; i < shown; i++)
            append(line, size, " %llu:%.9g", (unsigned long long)all[i].i, all[i].v);
    } else if (!strcmp(example, "sort")) {
        qsort(v, n, sizeof *v, by_float_asc);
        append(line, size, "sorted %llu keys on %d ranks: min %.9g, q1 %.9g, median %.9g, q3 %.9g, max %.9g, in order: yes",
               (unsigned long long)n, ranks, v[0], v[n / 4], v[n / 2], v[3 * n / 4], v[n - 1]);
    } else {
        uint64_t kept = 0;
        for (uint64_t i = 0; i < n; i++)
            if (v[i] > 0.5f)
                v[kept++] = v[i];
        append(line, size, "kept %llu of %llu on %d ranks: ", (unsigned long long)kept, (unsigned long long)n, ranks);
        if (!kept) {
            append(line, size, "none");
        } else {
            append(line, size, "first");
            for (uint64_t i = 0; i < kept && i < 3; i++)
                append(line, size, " %.9g", v[i]);
            append(line, size, ", last %.9g", v[kept - 1]);
        }
    }
    append(line, size, "\n");
    free(all);
    free(v);
}

/* Runs build/examples/mpi-EXAMPLE on `ranks` ranks and returns its output (caller frees), or NULL when
 * Open MPI is absent (the test then passes, saying so). */
static char *run_example(const char *example, const char *args, int ranks, int *status)
{
    const char *mpirun = getenv("GPUC_MPIRUN"), *dir = getenv("GPUC_EXAMPLES_DIR");
    if (!mpirun || !*mpirun) {
        printf("mpi: mpi-%s skipped: Open MPI is not installed (make deps installs it)\n", example);
        return NULL;
    }
    ck_assert_msg(dir && *dir, "GPUC_EXAMPLES_DIR is not set: run the tests through `make check`");
    char command[2048];
    snprintf(command, sizeof command, "ASAN_OPTIONS=detect_leaks=0 timeout 300 %s -np %d '%s/mpi-%s' %s 2>&1", mpirun,
             ranks, dir, example, args);
    return fixture_run_command(command, status);
}

/* (n, seed, k) triples: sizes that divide evenly or not, fewer elements than ranks, one element, k
 * past n, and a size where every rank holds thousands. */
static const struct {
    uint64_t n;
    uint32_t seed, k;
} example_data[] = {{1000, 1, 4}, {1, 7, 8}, {3, 2, 8}, {97, 5, 10}, {20011, 3, 16}};

START_TEST(test_mpi_examples)
{
    int ranks = _i;
    static const char *examples[] = {"topk", "sort", "compact"};
    for (size_t e = 0; e < 3; e++) {
        for (size_t d = 0; d < sizeof example_data / sizeof example_data[0]; d++) {
            char args[128], want[4096];
            snprintf(args, sizeof args, "--n %llu --seed %u%s", (unsigned long long)example_data[d].n,
                     example_data[d].seed, e == 0 ? "" : " ");
            if (e == 0)
                snprintf(args + strlen(args), sizeof args - strlen(args), " --k %u", example_data[d].k);
            expected_line(examples[e], example_data[d].n, example_data[d].seed, example_data[d].k, ranks, want,
                          sizeof want);
            int status;
            char *out = run_example(examples[e], args, ranks, &status);
            if (!out)
                return;
            ck_assert_msg(status == 0 && !strcmp(out, want), "mpi-%s %s on %d ranks: exit %d, printed\n%s\nexpected\n%s",
                          examples[e], args, ranks, status, out, want);
            free(out);
        }
    }
}
END_TEST

/* The published lines (N = 1000, seed 1, 2 ranks), which the C computation above must also give. */
START_TEST(test_mpi_examples_published)
{
    static const struct {
        const char *example, *args, *line;
    } published[] = {
        {"topk", "--n 1000 --seed 1 --k 4",
         "top 4 of 1000 on 2 ranks: 915:0.998893321 324:0.998074114 437:0.995360374 696:0.99495858\n"},
        {"sort", "--n 1000 --seed 1",
         "sorted 1000 keys on 2 ranks: min 0.000656604767, q1 0.270154059, median 0.522789419, q3 0.770202041, "
         "max 0.998893321, in order: yes\n"},
        {"compact", "--n 1000 --seed 1", "kept 514 of 1000 on 2 ranks: first 0.649585545 0.906201243 0.959115505, "
                                         "last 0.796033382\n"},
    };
    for (size_t i = 0; i < 3; i++) {
        char want[4096];
        expected_line(published[i].example, 1000, 1, 4, 2, want, sizeof want);
        ck_assert_str_eq(want, published[i].line);
        int status;
        char *out = run_example(published[i].example, published[i].args, 2, &status);
        if (!out)
            return;
        ck_assert_msg(status == 0 && !strcmp(out, published[i].line), "mpi-%s %s: exit %d, printed\n%s", published[i].example,
                      published[i].args, status, out);
        free(out);
    }
}
END_TEST

/* Bad options: usage on rank 0, exit 2, on any rank count. */
START_TEST(test_mpi_examples_usage)
{
    static const char *bad[] = {"", "--n 0 --seed 1", "--n 10", "--n 10 --seed 1 --k 0", "--n -3 --seed 1", "--n 10 --seed x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int status;
        char *out = run_example("topk", bad[i], 2, &status);
        if (!out)
            return;
        ck_assert_msg(status != 0 && strstr(out, "usage: mpirun -np P"), "mpi-topk %s: exit %d, printed\n%s", bad[i], status,
                      out);
        free(out);
    }
}
END_TEST

#define GROUP_TEST(g)                 \
    START_TEST(test_mpi_##g)          \
    {                                 \
        run_group(#g, _i);            \
    }                                 \
    END_TEST

GROUP_TEST(open)
GROUP_TEST(topk)
GROUP_TEST(sort)
GROUP_TEST(compact)
GROUP_TEST(scan)

Suite *suite_mpi(void)
{
    Suite *s = suite_create("mpi");
    TCase *tc = fixture_tcase_bare("ranks");
    tcase_set_timeout(tc, 600);
    /* _i is the rank count: 1, 2, 3 and 4 (4 oversubscribes a 2-core machine). */
    tcase_add_loop_test(tc, test_mpi_open, 1, 5);
    tcase_add_loop_test(tc, test_mpi_topk, 1, 5);
    tcase_add_loop_test(tc, test_mpi_sort, 1, 5);
    tcase_add_loop_test(tc, test_mpi_compact, 1, 5);
    tcase_add_loop_test(tc, test_mpi_scan, 1, 5);
    suite_add_tcase(s, tc);
    TCase *ex = fixture_tcase_bare("examples");
    tcase_set_timeout(ex, 900);
    tcase_add_loop_test(ex, test_mpi_examples, 1, 5);
    tcase_add_test(ex, test_mpi_examples_published);
    tcase_add_test(ex, test_mpi_examples_usage);
    suite_add_tcase(s, ex);
    return s;
}
