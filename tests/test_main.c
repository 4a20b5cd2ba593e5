/* test_main.c - runs every suite (or those named on the command line), each in its own runner: one line
 * per suite (its checks, failures and time), Check's message for each test that failed, then the totals.
 * Exit status 0 only when all pass. GPUC_CHECK_TOTALS=FILE also appends "BACKEND SUITES CHECKS
 * FAILURES" to FILE, from which `make check` prints its one line across the backends, and
 * GPUC_CHECK_FAILURES=FILE appends each failing test's line (prefixed with the backend), which `make
 * check` repeats after that line: a log's tail then names what failed. CK_VERBOSITY set gives Check's
 * own output instead. */
#include "suites.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct named_suite {
    const char *name;
    Suite *(*make)(void);
} named_suite;

static bool wanted(const char *name, int argc, char **argv)
{
    if (argc < 2)
        return true;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], name))
            return true;
    return false;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static const char *backend_name(void)
{
    const char *backend = getenv("GPUC_BACKEND");
    return backend && *backend ? backend : "compute";
}

/* Check's own failure line, less the test's name (no accessor for it): file:line:F|E:case: message */
static void print_failure(FILE *to, TestResult *r)
{
    fprintf(to, "%s:%d:%s:%s: %s\n", tr_lfile(r), tr_lno(r), tr_rtype(r) == CK_ERROR ? "E" : "F", tr_tcname(r),
            tr_msg(r));
}

/* Runs one suite and prints its line (and its failures, also to `failures_to` where not NULL); returns
 * its checks and failures. */
static void run_suite(const named_suite *suite, FILE *failures_to, int *checks, int *failures)
{
    bool check_output = getenv("CK_VERBOSITY") != NULL;
    SRunner *sr = srunner_create(suite->make());
    fflush(stdout);
    double start = now_s();
    srunner_run_all(sr, check_output ? CK_ENV : CK_SILENT);
    double seconds = now_s() - start;
    *checks = srunner_ntests_run(sr);
    *failures = srunner_ntests_failed(sr);
    printf("== suite %-16s %4d checks, %d failure%s, %6.1f s\n", suite->name, *checks, *failures,
           *failures == 1 ? "" : "s", seconds);
    if (*failures) {
        TestResult **failed = srunner_failures(sr);
        for (int i = 0; i < *failures; i++) {
            if (!check_output) /* Check printed its own */
                print_failure(stdout, failed[i]);
            if (failures_to) {
                fprintf(failures_to, "%s, suite %s: ", backend_name(), suite->name);
                print_failure(failures_to, failed[i]);
            }
        }
        free(failed);
    }
    fflush(stdout); /* nothing buffered for the next suite's forked tests to write again */
    if (failures_to)
        fflush(failures_to);
    srunner_free(sr);
}

int main(int argc, char **argv)
{
#define GPUC_SUITE(name) {#name, suite_##name},
    static const named_suite suites[] = {GPUC_TEST_SUITES};
#undef GPUC_SUITE
    int failed = 0, checks = 0, ran = 0;
    double start = now_s();
    const char *failures_path = getenv("GPUC_CHECK_FAILURES");
    FILE *failures_to = failures_path && *failures_path ? fopen(failures_path, "a") : NULL;
    if (failures_path && *failures_path && !failures_to) {
        fprintf(stderr, "cannot append failing tests to %s\n", failures_path);
        return EXIT_FAILURE;
    }
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++) {
        if (!wanted(suites[i].name, argc, argv))
            continue;
        int suite_checks, suite_failures;
        run_suite(&suites[i], failures_to, &suite_checks, &suite_failures);
        checks += suite_checks;
        failed += suite_failures;
        ran++;
    }
    if (failures_to && fclose(failures_to) != 0) {
        fprintf(stderr, "cannot append failing tests to %s\n", failures_path);
        return EXIT_FAILURE;
    }
    if (!ran) {
        fprintf(stderr, "no suite matches; suites are:");
        for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++)
            fprintf(stderr, " %s", suites[i].name);
        fprintf(stderr, "\n");
        return 2;
    }
    printf("== %d suite%s, %d checks, %d failing test%s, %.1f s\n", ran, ran == 1 ? "" : "s", checks, failed,
           failed == 1 ? "" : "s", now_s() - start);
    const char *totals = getenv("GPUC_CHECK_TOTALS");
    if (totals && *totals) {
        FILE *f = fopen(totals, "a");
        bool written = f && fprintf(f, "%s %d %d %d\n", backend_name(), ran, checks, failed) > 0;
        if (f && fclose(f) != 0)
            written = false;
        if (!written) {
            fprintf(stderr, "cannot append the totals to %s\n", totals);
            return EXIT_FAILURE;
        }
    }
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
