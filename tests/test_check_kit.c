/* test_check_kit.c - the Check kit for users' own kernels: include/gpuc_check.h's comparisons against
 * cells built here by hand, its assertions failing as they must (inner Check tests run in a forked
 * user program, their failure messages read back), examples/check's suite, and the C++ builds of
 * gpuc.h and gpuc_check.h (tests/cxx/, one per standard, beside this program), run as processes, the
 * check that README.md's C and C++ blocks compile cleanly, and the check that the map of the internals
 * (src/README.md, README.md's Layout) names only paths and functions that exist. */
#include <gpuc_check.h>

#include "fixture.h"
#include "suites.h"

#include <float.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- comparisons --------------------------------------------------------------------------------- */

START_TEST(ulps_count_float_steps)
{
    ck_assert_double_eq(gpuc_check_ulps(1.0f, 1.0f), 0.0);
    ck_assert_double_eq(gpuc_check_ulps(1.0f, nextafterf(1.0f, 2.0f)), 1.0);
    ck_assert_double_eq(gpuc_check_ulps(nextafterf(1.0f, 0.0f), nextafterf(1.0f, 2.0f)), 2.0);
    ck_assert_double_eq(gpuc_check_ulps(-0.0f, 0.0f), 0.0);
    /* through zero: the smallest denormal either side */
    ck_assert_double_eq(gpuc_check_ulps(-FLT_TRUE_MIN, FLT_TRUE_MIN), 2.0);
    ck_assert_double_eq(gpuc_check_ulps(1.0f, 2.0f), 8388608.0); /* one binade: 2^23 steps */
    ck_assert_double_eq(gpuc_check_ulps(FLT_MAX, INFINITY), 1.0);
    ck_assert(isnan(gpuc_check_ulps(NAN, 1.0f)));
}
END_TEST

START_TEST(exact_is_bit_for_bit)
{
    float want[] = {1.0f, 0.0f, NAN, INFINITY, 3.5f};
    float same[] = {1.0f, 0.0f, -NAN, INFINITY, 3.5f};
    char msg[256];
    ck_assert_uint_eq(gpuc_check_compare_f32(same, want, 5, GPUC_CHECK_EXACT, 0, msg, sizeof msg), 0);
    ck_assert_str_eq(msg, "");
    float off[] = {1.0f, -0.0f, 2.0f, INFINITY, nextafterf(3.5f, 4.0f)};
    ck_assert_uint_eq(gpuc_check_compare_f32(off, want, 5, GPUC_CHECK_EXACT, 0, msg, sizeof msg), 3);
    ck_assert_str_eq(msg, "3 of 5 cells differ (exactly): [1] got -0 want 0 (0 ulps), [2] got 2 want nan (nan ulps), "
                          "[4] got 3.50000024 want 3.5 (1 ulps)");
}
END_TEST

START_TEST(ulps_and_relative_tolerances)
{
    float want[] = {1.0f, -2.0f, 0.0f, INFINITY, 100.0f};
    float got[] = {nextafterf(1.0f, 2.0f), nextafterf(nextafterf(-2.0f, -3.0f), -3.0f), -0.0f, FLT_MAX, 100.5f};
    char msg[512];
    /* 1, 2, 0, (infinity against finite), 65536 ulps */
    ck_assert_uint_eq(gpuc_check_compare_f32(got, want, 5, GPUC_CHECK_ULPS, 2, msg, sizeof msg), 2);
    ck_assert_str_eq(msg, "2 of 5 cells differ (by more than 2 ulps): [3] got 3.40282347e+38 want inf (1 ulps), "
                          "[4] got 100.5 want 100 (65536 ulps)");
    ck_assert_uint_eq(gpuc_check_compare_f32(got, want, 5, GPUC_CHECK_ULPS, 1, NULL, 0), 3);
    ck_assert_uint_eq(gpuc_check_compare_f32(got, want, 3, GPUC_CHECK_ULPS, 0, NULL, 0), 2);
    /* relative: 100.5 is 0.5% from 100; a wanted 0 takes only a 0 */
    ck_assert_uint_eq(gpuc_check_compare_f32(got + 4, want + 4, 1, GPUC_CHECK_REL, 0.005, NULL, 0), 0);
    ck_assert_uint_eq(gpuc_check_compare_f32(got + 4, want + 4, 1, GPUC_CHECK_REL, 0.004, msg, sizeof msg), 1);
    ck_assert_str_eq(msg, "1 of 1 cells differ (by more than 0.004 relative error): [0] got 100.5 want 100 (65536 ulps)");
    float tiny = 1e-30f, zero = 0.0f, nzero = -0.0f;
    ck_assert_uint_eq(gpuc_check_compare_f32(&tiny, &zero, 1, GPUC_CHECK_REL, 0.5, NULL, 0), 1);
    ck_assert_uint_eq(gpuc_check_compare_f32(&nzero, &zero, 1, GPUC_CHECK_REL, 0, NULL, 0), 0);
}
END_TEST

START_TEST(report_shows_the_first_cells_and_fits_its_buffer)
{
    enum { CELLS = 100 };
    float got[CELLS], want[CELLS];
    for (int i = 0; i < CELLS; i++)
        got[i] = want[i] = (float)i;
    for (int i = 10; i < CELLS; i += 10)
        got[i] += 0.25f;
    char msg[512];
    ck_assert_uint_eq(gpuc_check_compare_f32(got, want, CELLS, GPUC_CHECK_EXACT, 0, msg, sizeof msg), 9);
    ck_assert_str_eq(msg, "9 of 100 cells differ (exactly): [10] got 10.25 want 10 (262144 ulps), "
                          "[20] got 20.25 want 20 (131072 ulps), [30] got 30.25 want 30 (131072 ulps), "
                          "[40] got 40.25 want 40 (65536 ulps), ...");
    /* A short buffer keeps the beginning, ended; the count is the whole count. */
    char small[24];
    memset(small, 'x', sizeof small);
    ck_assert_uint_eq(gpuc_check_compare_f32(got, want, CELLS, GPUC_CHECK_EXACT, 0, small, sizeof small), 9);
    ck_assert_str_eq(small, "9 of 100 cells differ (");
    /* NULL arrays: every cell differs, and the report says which is missing; nothing to compare is a match */
    ck_assert_uint_eq(gpuc_check_compare_f32(NULL, want, 3, GPUC_CHECK_ULPS, 1, msg, sizeof msg), 3);
    ck_assert_str_eq(msg, "got is NULL (3 cells to compare)");
    ck_assert_uint_eq(gpuc_check_compare_f32(got, NULL, 3, GPUC_CHECK_EXACT, 0, msg, sizeof msg), 3);
    ck_assert_str_eq(msg, "want is NULL (3 cells to compare)");
    ck_assert_uint_eq(gpuc_check_compare_f32(NULL, NULL, 0, GPUC_CHECK_EXACT, 0, msg, sizeof msg), 0);
    ck_assert_str_eq(msg, "");
}
END_TEST

/* ---- assertions failing inside Check tests ------------------------------------------------------- */

GPUC_CHECK_CONTEXT(inner_gpu)

START_TEST(inner_floats_differ)
{
    float got[] = {1.0f, 2.0f, 3.0f}, want[] = {1.0f, 2.0f, 3.5f};
    gpuc_ck_assert_f32_ulps(got, want, 3, 1);
}
END_TEST

START_TEST(inner_floats_match)
{
    float got[] = {1.0f, 2.0f, 3.0f}, want[] = {1.0f, nextafterf(2.0f, 3.0f), 3.0f};
    gpuc_ck_assert_f32_ulps(got, want, 3, 1);
    gpuc_ck_assert_f32_rel(got, want, 3, 1e-6);
}
END_TEST

START_TEST(inner_relative_error_too_large)
{
    float got[] = {10.0f}, want[] = {10.1f};
    gpuc_ck_assert_f32_rel(got, want, 1, 0.001);
}
END_TEST

START_TEST(inner_kernel_does_not_compile)
{
    gpuc_kernel *k;
    gpuc_kernel_desc desc = {.output = {.x = 4}};
    gpuc_ck_assert_ok(inner_gpu, gpuc_create_kernel(inner_gpu, "float broken() { return undeclared; }", &desc, &k));
}
END_TEST

START_TEST(inner_kernel_runs)
{
    gpuc_kernel *k;
    gpuc_array *out;
    float got[4], want[] = {0.0f, 0.5f, 1.0f, 1.5f};
    gpuc_kernel_desc desc = {.output = {.x = 4}};
    gpuc_ck_assert_ok(inner_gpu, gpuc_create_kernel(inner_gpu, "float halves() { return float(thread.x) * 0.5; }",
                                                    &desc, &k));
    gpuc_ck_assert_ok(inner_gpu, gpuc_run(k, NULL, 0, &out));
    gpuc_ck_assert_ok(inner_gpu, gpuc_array_read_f32(out, got, 4));
    gpuc_ck_assert_f32_exact(got, want, 4);
    gpuc_ck_assert_status(inner_gpu, gpuc_run(k, NULL, 1, &out), GPUC_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(inner_wrong_status_expected)
{
    gpuc_kernel *k;
    gpuc_kernel_desc desc = {.output = {.x = 4}};
    gpuc_ck_assert_ok(inner_gpu, gpuc_create_kernel(inner_gpu, "float one() { return 1.0; }", &desc, &k));
    gpuc_array *out;
    gpuc_ck_assert_status(inner_gpu, gpuc_run(k, NULL, 0, &out), GPUC_ERROR_LIMIT);
}
END_TEST

START_TEST(inner_open_on_no_such_device)
{
    gpuc *never = gpuc_check_open("99");
    gpuc_close(never); /* not reached: the open fails the test */
}
END_TEST

/* Runs one inner test under a Check runner of its own in fork mode (Check's default), in a forked
 * user program as a user's suite would be (with or without gpuc_check_add_context), and returns the
 * failure message (caller frees; "" when it passed). */
static char *run_inner_test(const TTest *test, bool with_context)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        alarm(120);
        Suite *s = suite_create("user's suite");
        TCase *tc = tcase_create("inner");
        if (with_context)
            gpuc_check_add_context(tc, inner_gpu);
        tcase_add_test(tc, test);
        suite_add_tcase(s, tc);
        SRunner *sr = srunner_create(s);
        srunner_set_fork_status(sr, CK_FORK);
        srunner_run_all(sr, CK_SILENT);
        TestResult **results = srunner_results(sr);
        int n = srunner_ntests_run(sr), failed = srunner_ntests_failed(sr);
        for (int i = 0; i < n; i++)
            if (tr_rtype(results[i]) != CK_PASS && write(fds[1], tr_msg(results[i]), strlen(tr_msg(results[i]))) < 0)
                _exit(98);
        free(results);
        srunner_free(sr);
        _exit(n == 1 ? failed : 97);
    }
    close(fds[1]);
    size_t cap = 8192, len = 0;
    char *text = malloc(cap);
    ck_assert_ptr_nonnull(text);
    ssize_t got;
    while (len < cap - 1 && (got = read(fds[0], text + len, cap - 1 - len)) > 0)
        len += (size_t)got;
    text[len] = '\0';
    close(fds[0]);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) <= 1, "the user's program ended with %d", status);
    ck_assert_msg((WEXITSTATUS(status) == 1) == (len > 0), "failed %d times with message \"%s\"",
                  WEXITSTATUS(status), text);
    return text;
}

static void expect_inner_failure(const TTest *test, bool with_context, const char *fragment)
{
    char *msg = run_inner_test(test, with_context);
    ck_assert_msg(strstr(msg, fragment), "inner test failed with \"%s\", which lacks \"%s\"", msg, fragment);
    free(msg);
}

static void expect_inner_pass(const TTest *test, bool with_context)
{
    char *msg = run_inner_test(test, with_context);
    ck_assert_msg(!*msg, "inner test failed: %s", msg);
    free(msg);
}

START_TEST(failing_comparisons_fail_the_test)
{
    expect_inner_failure(inner_floats_differ, false,
                         "got against want: 1 of 3 cells differ (by more than 1 ulps): [2] got 3 want 3.5 "
                         "(2097152 ulps)");
    expect_inner_failure(inner_relative_error_too_large, false,
                         "1 of 1 cells differ (by more than 0.001 relative error): [0] got 10 want 10.1000004");
    expect_inner_pass(inner_floats_match, false);
}
END_TEST

START_TEST(status_assertions_print_gpucs_message)
{
    /* gpuc's own message for this error, as gpuc_errmsg gives it in this process */
    gpuc *gpu_here;
    gpuc_kernel *k;
    gpuc_kernel_desc desc = {.output = {.x = 4}};
    fixture_pin_driver();
    char expected[2048];
    {
        /* Opened and closed inside a child of its own: this test forks the inner program afterwards,
         * and a child may not open a context while its parent has one open. */
        int fds[2];
        ck_assert_int_eq(pipe(fds), 0);
        pid_t pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
            close(fds[0]);
            gpuc_status st = gpuc_open(&gpu_here, NULL);
            if (st == GPUC_OK)
                st = gpuc_create_kernel(gpu_here, "float broken() { return undeclared; }", &desc, &k);
            const char *m = gpuc_errmsg(gpu_here);
            ssize_t w = write(fds[1], m, strlen(m));
            _exit(st == GPUC_ERROR_COMPILE && w > 0 ? 0 : 1);
        }
        close(fds[1]);
        ssize_t got = read(fds[0], expected, sizeof expected - 1);
        close(fds[0]);
        int status;
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0 && got > 0, "the broken kernel was not refused");
        expected[got] = '\0';
    }
    char *msg = run_inner_test(inner_kernel_does_not_compile, true);
    ck_assert_msg(strstr(msg, "gpuc_create_kernel(inner_gpu, \"float broken() { return undeclared; }\", &desc, &k) -> "
                              "GPUC_ERROR_COMPILE, expected GPUC_OK: "),
                  "message: %s", msg);
    ck_assert_msg(strstr(msg, expected), "message \"%s\" lacks gpuc's \"%s\"", msg, expected);
    free(msg);
    expect_inner_failure(inner_wrong_status_expected, true,
                         "-> GPUC_OK, expected GPUC_ERROR_LIMIT: ");
    expect_inner_pass(inner_kernel_runs, true);
    expect_inner_failure(inner_open_on_no_such_device, false,
                         "gpuc_open -> GPUC_ERROR_INVALID_ARGUMENT: gpuc_options.device \"99\" is not a device");
}
END_TEST

/* ---- the example suite and the C++ builds, as processes ------------------------------------------- */

START_TEST(example_suite_passes_in_fork_mode)
{
    const char *dir = getenv("GPUC_EXAMPLES_DIR");
    ck_assert_msg(dir && *dir, "GPUC_EXAMPLES_DIR is not set: run the tests through `make check`");
    char command[1024];
    /* CK_FORK unset: the example must pass in Check's default mode (ASAN: see test_examples.c) */
    snprintf(command, sizeof command, "env -u CK_FORK ASAN_OPTIONS=detect_leaks=0 '%s/check/blur_test' 2>&1", dir);
    int status;
    char *out = fixture_run_command(command, &status);
    ck_assert_msg(status == 0 && strstr(out, "100%: Checks: 3, Failures: 0, Errors: 0"), "blur_test exited %d: %s",
                  status, out);
    free(out);
}
END_TEST

START_TEST(cxx_builds_run_a_kernel)
{
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    ck_assert_int_gt(len, 0);
    self[len] = '\0';
    *strrchr(self, '/') = '\0'; /* the C++ programs are built beside this one */
    static const struct {
        const char *std;
        long value;
    } standards[] = {{"11", 201103L}, {"14", 201402L}, {"17", 201703L}, {"20", 202002L}};
    for (size_t i = 0; i < sizeof standards / sizeof standards[0]; i++) {
        char command[PATH_MAX + 64], expected[64];
        snprintf(command, sizeof command, "ASAN_OPTIONS=detect_leaks=0 '%s/cxx/gpuc-c++%s' 2>&1", self,
                 standards[i].std);
        snprintf(expected, sizeof expected, "C++ %ld: 1024 cells match\n", standards[i].value);
        int status;
        char *out = fixture_run_command(command, &status);
        ck_assert_msg(status == 0 && !strcmp(out, expected), "C++%s build exited %d: %s", standards[i].std, status, out);
        free(out);
    }
}
END_TEST

/* scripts/check-readme-code.sh: README.md's blocks pass; a block that warns under -Wextra, and one
 * without its marker, fail naming the line. */
START_TEST(readme_code_compiles_and_the_check_can_fail)
{
    int status;
    char *out = fixture_run_command("scripts/check-readme-code.sh 2>&1", &status);
    ck_assert_msg(status == 0 && strstr(out, "blocks of README.md compile under -Wall -Wextra -Werror -pedantic"),
                  "README.md's code: %s", out);
    free(out);
    char dir[] = "/tmp/gpuc-readme-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[64], command[160];
    snprintf(path, sizeof path, "%s/bad.md", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("# bad\n\n<!-- compile: c statements -->\n```c\ngpuc_dims d = (gpuc_dims){4};\n(void)d;\n```\n", f);
    fclose(f);
    snprintf(command, sizeof command, "scripts/check-readme-code.sh '%s' 2>&1", path);
    out = fixture_run_command(command, &status);
    ck_assert_msg(status == 1 && strstr(out, "bad.md:4: the c block does not compile cleanly") &&
                      strstr(out, "missing-field-initializers"),
                  "a positional gpuc_dims passed (%d): %s", status, out);
    free(out);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("# bad\n\n```c\nint x;\n```\n", f);
    fclose(f);
    out = fixture_run_command(command, &status);
    ck_assert_msg(status == 1 && strstr(out, "3: a ```c block without a <!-- compile: ... --> marker"),
                  "an unmarked block passed (%d): %s", status, out);
    free(out);
    remove(path);
    rmdir(dir);
}
END_TEST

/* scripts/check-doc-paths.sh: the map's paths and functions exist; a missing file, an unmatched
 * wildcard and an undefined function each fail, naming their line. */
START_TEST(doc_paths_exist_and_the_check_can_fail)
{
    int status;
    char *out = fixture_run_command("scripts/check-doc-paths.sh 2>&1", &status);
    ck_assert_msg(status == 0 && strstr(out, "src/README.md and README.md's Layout name exist"), "the map: %s", out);
    free(out);
    char dir[] = "/tmp/gpuc-docpaths-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[64], command[160];
    snprintf(path, sizeof path, "%s/bad.md", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("# bad\n\n`src/kernel/run.c` and `run_into()` exist, src/js/runtime/runtime*.c matches;\n"
          "src/kernel/gone.c, src/nothing*.c and `no_such_function()` do not; tests/test_<name>.c is a "
          "placeholder.\n", f);
    fclose(f);
    snprintf(command, sizeof command, "scripts/check-doc-paths.sh '%s' 2>&1", path);
    out = fixture_run_command(command, &status);
    ck_assert_msg(status == 1 && strstr(out, "bad.md:4: src/kernel/gone.c is not in the tree") &&
                      strstr(out, "bad.md:4: src/nothing*.c is not in the tree") &&
                      strstr(out, "bad.md:4: no_such_function() is not defined in the sources") &&
                      fixture_count(out, "check-doc-paths:") == 3,
                  "a stale map passed (%d): %s", status, out);
    free(out);
    remove(path);
    rmdir(dir);
}
END_TEST

Suite *suite_check_kit(void)
{
    Suite *s = suite_create("check_kit");
    TCase *tc = fixture_tcase_bare("check_kit");
    tcase_add_test(tc, ulps_count_float_steps);
    tcase_add_test(tc, exact_is_bit_for_bit);
    tcase_add_test(tc, ulps_and_relative_tolerances);
    tcase_add_test(tc, report_shows_the_first_cells_and_fits_its_buffer);
    tcase_add_test(tc, failing_comparisons_fail_the_test);
    tcase_add_test(tc, status_assertions_print_gpucs_message);
    tcase_add_test(tc, example_suite_passes_in_fork_mode);
    tcase_add_test(tc, cxx_builds_run_a_kernel);
    tcase_add_test(tc, readme_code_compiles_and_the_check_can_fail);
    tcase_add_test(tc, doc_paths_exist_and_the_check_can_fail);
    suite_add_tcase(s, tc);
    return s;
}
