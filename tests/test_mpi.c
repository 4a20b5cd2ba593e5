/* test_mpi.c - the distributed calls (gpuc_mpi.h) on 1 to 4 ranks: each test starts the MPI test worker
 * (tests/mpi/, GPUC_MPI_WORKER) for one group of cases under GPUC_MPIRUN (make check sets both where
 * Open MPI is present; without it each test says so and passes, as MPI is optional) and asserts that
 * the worker's ranks all passed. The cases themselves compare each distributed result with the
 * single-device call on the gathered data and with plain C. */
#include "fixture.h"
#include "suites.h"

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
    return s;
}
